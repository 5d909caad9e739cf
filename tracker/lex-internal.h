/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lex-internal.h - what the pieces of the lexer share; not a public API
 * (that is lexer.h).  Only tracker/lex*.c include it.
 *
 * The lexer is two passes over one buffer (see lexer.c):
 *
 *   lex-words.c   the identifier table: C keywords and every rule's names
 *   lex-token.c   pass 1, lex_tokenize(): the buffer becomes struct tok
 *   lex-scan.c    pass 2, lex_scan(): one walk over the tokens tracking
 *                 braces, the enclosing function, #define bodies and
 *                 conditional directives; calls the matchers
 *   lex-match.c   the rule matchers and the site list they fill
 *   lex-scope.c   the scope policy (which paths are lexed at all)
 *   lexer.c       lex_buffer() and the struct site output
 *
 * Everything here is either constant, built once (lex_words) or owned by
 * one struct lexer, so several threads can lex at once.  The token
 * helpers the files share in their hot loops (is_punct(), next_sig(),
 * lex_top(), lex_prev()) are static inline here, and the tokenizer's
 * per-byte helpers static in lex-token.c, so the split costs no call in
 * those loops; lex_word_find() is a call on purpose (see below).
 *
 * Every file that decides what a rule matches is a tracker/lex*.c or
 * tracker/lex*.h: the Makefile's MATCHER_SRC (the cache key, rules_hash())
 * covers them with that wildcard.
 */
#ifndef KMIG_LEX_INTERNAL_H
#define KMIG_LEX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lexer.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Identifier table (lex-words.c).                                     */

enum word_class {
	W_NAME,		/* only a rule name */
	W_STRUCT,	/* struct, union */
	W_ENUM,
	W_CONST,
	W_SIZEOF,	/* sizeof and the alignof family */
	W_STMT,		/* keywords that cannot start a declaration */
	W_KEYWORD,	/* other keywords: not identifiers for "constant" */
	W_ATTR,		/* function-like annotations, never a function name */
};

struct word {
	const char *s;
	unsigned char len;
	unsigned char cls;	/* enum word_class */
	uint32_t rules;		/* bit per rule whose names contain it */
};

#define MAX_WORDS 160

/*
 * Chained hash on (length, first and last character): most identifiers
 * of a source file are no keyword and no rule name, and miss on the first
 * probe without a string compare.
 */
#define WORD_HASH 1024

struct word_table {
	struct word w[MAX_WORDS];
	short next[MAX_WORDS];
	short first[WORD_HASH];	/* -1: empty chain */
	int n;
	unsigned char maxlen;
};

/*
 * lex_words - the keywords and rule names.  Filled by lex_words_init(),
 * which lex_buffer_with() runs once under pthread_once(); read-only after.
 */
extern struct word_table lex_words;

/* lex_words_init - build lex_words (call once; aborts if it overflows). */
void lex_words_init(void);

/*
 * lex_word_find - index in lex_words of the identifier @s (@len > 0
 * bytes), or -1.  lex_tokenize() calls it (as lex_word_find_hashed())
 * for every identifier whose bucket is not empty; a function of its own,
 * not inlined into lex_tokenize()'s loop, which it would only make
 * slower.
 */
int lex_word_find(const char *s, size_t len);

/*
 * lex_word_hash - the bucket of lex_words.first for @s (@len > 0): so the
 * tokenizer tells most misses inline, with one load, before calling
 * lex_word_find_hashed() (the same as lex_word_find(), the hash known).
 */
static inline unsigned int lex_word_hash(const char *s, size_t len)
{
	return ((unsigned int)len * 97u + (unsigned char)s[0] * 7u +
		(unsigned char)s[len - 1]) & (WORD_HASH - 1);
}

int lex_word_find_hashed(const char *s, size_t len, unsigned int h);

/* ------------------------------------------------------------------ */
/* Tokens (lex-token.c).                                               */

enum tok_type {
	T_IDENT = 1,
	T_NUMBER,
	T_STRING,
	T_CHAR,
	T_PUNCT,
	T_DEFINE,	/* "#define": the macro name and body follow */
	T_EOD,		/* end of the #define's logical line */
	T_FT,		/* a fall-through comment */
	T_COND,		/* #if..., #elif/#else or #endif: enum cond */
};

enum cond { COND_IF = 1, COND_ELSE, COND_ENDIF };

enum punct {
	P_OTHER,
	P_LPAREN, P_RPAREN, P_LBRACK, P_RBRACK, P_LBRACE, P_RBRACE,
	P_SEMI, P_COMMA, P_DOT, P_ARROW, P_ASSIGN, P_STAR, P_PLUS, P_MINUS,
	P_COLON, P_HASHHASH,
};

/* 16 bytes: pass 2 reads them all, and the matchers look around. */
struct tok {
	uint32_t off;
	uint32_t len;
	uint32_t line;
	uint8_t type;		/* enum tok_type */
	union {
		uint8_t sub;	/* enum punct; T_IDENT: word class; T_COND */
		uint8_t nump;	/* T_STRING: plain %p conversions (capped) */
	};
	int16_t word;		/* T_IDENT: index in lex_words, or -1 */
};

/* ------------------------------------------------------------------ */
/* The lexer state (lex-scan.c walks it, lex-match.c reads it).        */

enum frame_kind {
	F_FUNC,		/* a function body */
	F_BLOCK,	/* a compound statement inside a function */
	F_INIT,		/* an initializer inside a function */
	F_STRUCT,	/* a struct or union body */
	F_ENUM,		/* an enum body */
	F_OTHER,	/* anything else (file-scope initializers, ...) */
};

/* struct member "last dimension" values */
enum { DIM_NONE = -2, DIM_OTHER = -1, DIM_ZERO = 0, DIM_ONE = 1 };

/* One open brace. */
struct frame {
	uint8_t kind;		/* enum frame_kind */
	bool want_enumerator;	/* F_ENUM: an enumerator name comes next */
	bool cur_any;		/* F_STRUCT: tokens since the last ';' */
	bool is_union;		/* F_STRUCT: a union's body */
	int8_t cur_dim, last_dim;
	int paren;		/* paren depth at the '{' */
	int brk;		/* F_STRUCT: [] nesting */
	uint32_t cur_off, cur_line, last_off, last_line;
};

/* The brace state at a conditional directive (lex-scan.c). */
struct snapshot {
	size_t pool;		/* frames in lx->pool from here */
	size_t nfr;
	int paren;
	uint32_t func_off, func_len;
	bool real_func;
	size_t skim_at;		/* lx->skim_at: the skimmed bodies opened */
};

struct cond_state {
	struct snapshot at_if, at_else;
	bool have_else;
};

/* A site found, before lexer.c turns it into a struct site. */
struct tsite {
	size_t off;
	size_t seq;
	int rule;
	unsigned int line;
	uint32_t func_off, func_len;	/* func_len 0: none */
	uint32_t dep_off, dep_len;	/* vla: the names in lx->deps, len 0: none */
};

/* A #define constant when the names in lx->deps are: the "d" facts. */
struct dmacro {
	uint32_t off, len;		/* the name */
	uint32_t dep_off, dep_len;	/* in lx->deps */
};

/* A set of identifiers (spans of the buffer). */
struct idset {
	uint32_t *off;		/* open addressing; slot empty when len 0 */
	uint32_t *len;
	uint32_t *hash;		/* fnv32() of each name, not hashed twice */
	size_t n, cap;
};

/*
 * The walk's state where it is (struct lexer's st), which a #define body
 * saves on entry and restores at its end.
 */
struct scan_state {
	int paren;
	uint32_t func_off, func_len;	/* enclosing function, len 0: none */
	bool real_func;			/* func is a function, not a macro */
	long cand;			/* function name candidate, or -1 */
	long prev;			/* previous significant token, or -1 */
	int tag;			/* 0, W_STRUCT or W_ENUM pending */
	int tag_paren;
	bool tag_union;			/* the W_STRUCT was "union" */
	bool stmt_start;
	bool stmt_const;		/* "const" seen in this statement */
	bool stmt_rhs;			/* after '=' in this statement */
	/*
	 * the parentheses open at file scope are a macro's arguments: the
	 * outermost opened after an upper-case name ("TRACE_EVENT(",
	 * "DEFINE_GUARD("), no prototype's or declaration's
	 */
	bool macro_args;
};

struct lex_fx;

/*
 * A function body pass 1 skimmed instead of tokenizing it (lex-token.c):
 * its '{' and '}' are tokens, the '{' with word 0 (a punctuator's word is
 * otherwise -1), and what pass 2 would have taken from the tokens between
 * is here: the names called, in order (lx->skc), and the const variables
 * declared (lx->skk).  Pass 2 replays them when it opens the body as a
 * function; when it does not, the buffer is lexed again in full.
 */
struct skim_body {
	uint32_t lbrace;		/* the '{' offset, a check */
	uint32_t call, ncall;		/* in lx->skc */
	uint32_t konst, nkonst;		/* in lx->skk */
};

struct skim_name {
	uint32_t off, len;
};

struct lexer {
	const char *buf;
	size_t len;

	struct tok *t;
	size_t nt, at;

	struct frame *fr;
	size_t nfr, afr;

	struct tsite *s;
	size_t ns, as;

	struct idset consts, enums;
	struct idset macros;	/* object-like macros with constant bodies */
	struct sbuf deps;	/* the tsites' and dm's dependency names */
	/* object-like macros constant if some names are (lex_define_const()) */
	struct dmacro *dm;
	size_t ndm, adm;
	struct idset dmacros;	/* their names */
	/*
	 * Names declared as variables at file scope: a macro of the same
	 * name is no constant ("#if NR_CPUS == 1 #define nr_cpu_ids 1U
	 * #else extern unsigned int nr_cpu_ids;").
	 */
	struct idset vars;

	/*
	 * Conditional directives: when a branch changed the brace depth,
	 * the next branch starts from the state at the #if, and #endif
	 * returns to the state at the end of the first branch, so
	 * alternatives that each open (or close) a brace do not unbalance
	 * the rest of the file.  Balanced branches are scanned straight
	 * through, lexically.
	 */
	struct cond_state *cs;
	size_t ncs, acs;
	struct frame *pool;	/* saved frame stacks, used as a stack */
	size_t npool, apool;

	struct scan_state st;

	struct lex_fx *fx;	/* lex-funcs.c: functions and calls */
	/* an emptied lex_fx from an earlier buffer, which fx_get() takes */
	struct lex_fx *fx_spare;

	/* #define body: the state and frames outside it */
	bool in_define;
	struct scan_state save;
	size_t save_nfr;

	/*
	 * Skimmed function bodies (struct skim_body): pass 1 skims only
	 * when !full; pass 2 replays them in order (skim_at) and sets redo
	 * when a skimmed '{' opens no function, so lexer.c lexes the buffer
	 * again with full set.
	 */
	bool full, redo;
	struct skim_body *skb;
	size_t nskb, askb, skim_at, skim_bytes;
	struct skim_name *skc, *skk;
	size_t nskc, askc, nskk, askk;
};

/* Token helpers, for every pass. */
static inline bool is_punct(const struct tok *t, int sub)
{
	return t->type == T_PUNCT && t->sub == sub;
}

/*
 * tok_nesting - 1 when @t opens a group ('(', '[' or '{'), -1 when it
 * closes one, else 0: the depth the group walks of the matchers follow.
 */
static inline int tok_nesting(const struct tok *t)
{
	if (t->type != T_PUNCT)
		return 0;
	switch (t->sub) {
	case P_LPAREN: case P_LBRACK: case P_LBRACE:
		return 1;
	case P_RPAREN: case P_RBRACK: case P_RBRACE:
		return -1;
	default:
		return 0;
	}
}

/*
 * tok_skimmed - is @t the '{' of a function body pass 1 skimmed (struct
 * skim_body), whose tokens are not in lx->t?
 */
static inline bool tok_skimmed(const struct tok *t)
{
	return t->type == T_PUNCT && t->word >= 0;
}

/* next_sig - index of the next token after @i that is not a T_FT. */
static inline size_t next_sig(const struct lexer *lx, size_t i)
{
	for (i++; i < lx->nt && lx->t[i].type == T_FT; i++)
		;
	return i;
}

/* lex_top - the innermost open brace, or NULL at file scope. */
static inline struct frame *lex_top(struct lexer *lx)
{
	return lx->nfr ? &lx->fr[lx->nfr - 1] : NULL;
}

/* lex_prev - the previous significant token, or NULL. */
static inline const struct tok *lex_prev(const struct lexer *lx)
{
	return lx->st.prev >= 0 ? &lx->t[lx->st.prev] : NULL;
}

/* ------------------------------------------------------------------ */
/* The passes.                                                         */

/*
 * lex_tok_reserve - room for @want tokens in lx->t (lexer.c): grown by
 * doubling with big_realloc(), so a token array is freed with
 * big_free(t, at * sizeof(struct tok)).
 */
void lex_tok_reserve(struct lexer *lx, size_t want);

/*
 * lex_tokenize - pass 1 (lex-token.c): append the tokens of lx->buf to
 * lx->t (grown with lex_tok_reserve(); the caller owns and frees it).
 * Needs lex_words built.
 */
void lex_tokenize(struct lexer *lx);

/*
 * lex_scan - pass 2 (lex-scan.c): walk lx->t and append the sites found
 * to lx->s, in the order found (lexer.c sorts them by position).
 */
void lex_scan(struct lexer *lx);

/* lex_idset_has - is the identifier @s (@len bytes) in @set? */
bool lex_idset_has(const struct lexer *lx, const struct idset *set,
		   const char *s, size_t len);
/* lex_idset_add - add the identifier at buffer offset @off, @len bytes. */
void lex_idset_add(struct lexer *lx, struct idset *set, uint32_t off,
		   uint32_t len);
/* lex_idset_free - free @set's arrays (the struct itself is the caller's). */
void lex_idset_free(struct idset *set);

/* ------------------------------------------------------------------ */
/* The rule matchers (lex-match.c), called by the passes.            */

/*
 * lex_add_site - record a site of @rule at buffer offset @off, physical
 * line @line, in the current function or macro.
 */
void lex_add_site(struct lexer *lx, int rule, size_t off, unsigned int line);

/*
 * lex_skip_group - index just past the group opened at token @i ('(', '['
 * or '{'), at most @end; stops at the end of a #define.
 */
size_t lex_skip_group(const struct lexer *lx, size_t i, size_t end);

/*
 * lex_fallthrough_comment - is the comment text @s (@len bytes, between
 * the delimiters) a GCC -Wimplicit-fallthrough=3 marker?  Called by
 * lex_tokenize() for every comment.
 */
bool lex_fallthrough_comment(const char *s, size_t len);

/*
 * lex_ft_before_label - is the fall-through comment at token @i where GCC
 * takes it as a marker?  The manual (-Wimplicit-fallthrough): it "needs
 * to be followed after optional whitespace and other comments by case or
 * default keywords or by a user label that precedes some case or default
 * label".  Conditional directives in between are skipped; a comment
 * before a '}', a statement, a goto label of its own or the end of a
 * #define is no marker (mm/memory.c's "fall through" out of an if block,
 * net/bluetooth/selftest.c's before "out:").
 */
bool lex_ft_before_label(const struct lexer *lx, size_t i);

/*
 * lex_call_arg - the tokens [*@a, *@b) of argument @argno (1-based) of
 * the call whose '(' is token @lp; false when the call has no such
 * argument or is cut by the end of a #define.
 */
bool lex_call_arg(const struct lexer *lx, size_t lp, int argno,
		  size_t *a, size_t *b);

/*
 * lex_all_upper - has the name @s (@len bytes) no lower-case letter?  Such
 * a name counts as a constant in every size expression (lex-match.c).
 */
bool lex_all_upper(const char *s, size_t len);

/*
 * lex_match_word - token @i is a rule name: the call rules' matchers.  No
 * call counts in the body of a function or macro named like one of the
 * call rules' own names (the interface, not a use).
 */
void lex_match_word(struct lexer *lx, size_t i);

/*
 * lex_drop_definition - the name at buffer offset @off turned out to be
 * the name of the function defined there: drop the call sites recorded
 * for it ("static inline void idr_init(struct idr *idr) {" defines the
 * interface and uses nothing).
 */
void lex_drop_definition(struct lexer *lx, uint32_t off);

/*
 * lex_match_vla - token @i starts a statement in block scope: vla.  A
 * size that is constant unless some plain names are variables (no
 * definition of them earlier in the buffer) is a site with those names
 * as its dependencies (struct site.deps).
 */
void lex_match_vla(struct lexer *lx, size_t i);

/*
 * lex_define_const - the #define whose name is token @name is an
 * object-like macro (the caller checked) with a constant body: numbers,
 * upper-case names, enumerators and constant macros seen before, sizeof.
 * A body constant if some plain names are is no constant; the macro and
 * those names are recorded in lx->dm (the "d" facts).  A name the buffer
 * declares as a variable (lx->vars) stays no constant whatever its macro.
 */
bool lex_define_const(struct lexer *lx, size_t name);

/*
 * lex_struct_token - token @i in the struct body @f (the innermost
 * frame): track the last member's dimension for the flex-array rules.
 */
void lex_struct_token(struct lexer *lx, struct frame *f, size_t i);

/*
 * lex_struct_end - the struct body @f closes: flex-array-zero/-one (a
 * union's trailing [1] is no flexible array: only [0] counts in a union).
 */
void lex_struct_end(struct lexer *lx, struct frame *f);

/* ------------------------------------------------------------------ */
/* Functions, calls and entry points (lex-funcs.c), for reach.h.      */

/* lex_funcs_begin - a function body opens; token @cand is its name. */
void lex_funcs_begin(struct lexer *lx, size_t cand);
/* lex_funcs_brace - a '}' on @line was walked: the function may end. */
void lex_funcs_brace(struct lexer *lx, unsigned int line);
/*
 * lex_funcs_call - the identifier at token @i is followed by '(' at @lp:
 * a direct call inside a function body, or an entry macro outside.
 */
void lex_funcs_call(struct lexer *lx, size_t i, size_t lp);
/*
 * lex_funcs_call_name - the name @off (@len bytes into the buffer) is
 * called in the open function body, not after '.', '->' or '##': what
 * lex_funcs_call() records for such a call, for a skimmed body.
 */
void lex_funcs_call_name(struct lexer *lx, uint32_t off, uint32_t len);
/*
 * lex_entry_member - is @s (@len bytes) a member entry.def names, whose
 * ".NAME = f" makes f an entry point?
 */
bool lex_entry_member(const char *s, size_t len);
/* lex_funcs_member - ".NAME =" with NAME at token @i, '=' at @eq. */
void lex_funcs_member(struct lexer *lx, size_t i, size_t eq);
/* lex_funcs_emit - the text of lexer.h's site_list.funcs, or NULL. */
char *lex_funcs_emit(struct lexer *lx);
/*
 * lex_funcs_keep - empty lx->fx (or lx->fx_spare, when no function
 * took it) into *@keep for the next buffer, when *@keep is NULL and its
 * arrays are not large; free the rest.  lex_funcs_keep_free() frees it.
 */
void lex_funcs_keep(struct lexer *lx, struct lex_fx **keep);
/* The largest array a lexer keeps for the next buffer (lexer.c). */
#define LEX_KEEP_BYTES ((size_t)1 << 20)
void lex_funcs_keep_free(struct lex_fx *fx);

#endif
