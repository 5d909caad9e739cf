// SPDX-License-Identifier: GPL-2.0
/*
 * lexer.c - find deprecated-API use sites in one C source buffer.
 *
 * Two passes over one buffer, no preprocessing:
 *
 *  1. tokenize(): comments, string and character literals, numbers,
 *     identifiers and punctuators, with line numbers.  Backslash-newline
 *     continuations are skipped.  A '#' first on a line starts a
 *     directive: "#define" becomes a T_DEFINE token, the body's tokens
 *     follow and a T_EOD token closes the logical line; every other
 *     directive (#include, #if, #undef, ...) produces no tokens at all.
 *     Comments are checked for GCC fall-through markers (a T_FT token is
 *     emitted for those) and string literals count their plain %p.
 *
 *  2. scan(): one walk over the tokens tracking brace nesting (function
 *     bodies, blocks, struct/union/enum bodies, initializers), the
 *     enclosing function or macro, and the state needed by each rule.
 *
 * Every table is either constant or built once under pthread_once(), so
 * lex_buffer() can run in several threads at once.
 */
#include <pthread.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "rules.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Identifier table: C keywords we care about and every rule name.     */

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
	unsigned char cls;
	uint32_t rules;		/* bit per rule whose names contain it */
};

static const struct {
	const char *s;
	enum word_class cls;
} keywords[] = {
	{ "struct", W_STRUCT }, { "union", W_STRUCT }, { "enum", W_ENUM },
	{ "const", W_CONST },
	{ "sizeof", W_SIZEOF }, { "__alignof__", W_SIZEOF },
	{ "__alignof", W_SIZEOF }, { "_Alignof", W_SIZEOF },
	{ "alignof", W_SIZEOF },
	{ "return", W_STMT }, { "else", W_STMT }, { "do", W_STMT },
	{ "case", W_STMT }, { "default", W_STMT }, { "goto", W_STMT },
	{ "if", W_STMT }, { "while", W_STMT }, { "for", W_STMT },
	{ "switch", W_STMT }, { "break", W_STMT }, { "continue", W_STMT },
	{ "typeof", W_STMT }, { "__typeof__", W_STMT },
	{ "__typeof", W_STMT }, { "asm", W_STMT }, { "__asm__", W_STMT },
	{ "__asm", W_STMT },
	{ "void", W_KEYWORD }, { "char", W_KEYWORD }, { "short", W_KEYWORD },
	{ "int", W_KEYWORD }, { "long", W_KEYWORD }, { "float", W_KEYWORD },
	{ "double", W_KEYWORD }, { "signed", W_KEYWORD },
	{ "__signed__", W_KEYWORD }, { "unsigned", W_KEYWORD },
	{ "_Bool", W_KEYWORD }, { "bool", W_KEYWORD },
	{ "volatile", W_KEYWORD }, { "__volatile__", W_KEYWORD },
	{ "static", W_KEYWORD }, { "extern", W_KEYWORD },
	{ "register", W_KEYWORD }, { "auto", W_KEYWORD },
	{ "inline", W_KEYWORD }, { "__inline__", W_KEYWORD },
	{ "__inline", W_KEYWORD }, { "restrict", W_KEYWORD },
	{ "__restrict", W_KEYWORD }, { "__restrict__", W_KEYWORD },
	{ "typedef", W_KEYWORD }, { "__const", W_KEYWORD },
	{ "__const__", W_KEYWORD },
	{ "__attribute__", W_ATTR }, { "__attribute", W_ATTR },
	{ "__printf", W_ATTR }, { "__scanf", W_ATTR },
	{ "__section", W_ATTR }, { "__aligned", W_ATTR },
	{ "__alloc_size", W_ATTR }, { "__acquires", W_ATTR },
	{ "__releases", W_ATTR }, { "__must_hold", W_ATTR },
	{ "__cond_acquires", W_ATTR }, { "__cond_releases", W_ATTR },
	{ "__diag_ignore", W_ATTR }, { "__no_sanitize_or_inline", W_ATTR },
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
	short first[WORD_HASH];
	int n;
	unsigned char maxlen;
};

static inline unsigned int word_hash(const char *s, size_t len)
{
	return ((unsigned int)len * 97u + (unsigned char)s[0] * 7u +
		(unsigned char)s[len - 1]) & (WORD_HASH - 1);
}

static struct word_table words;
static pthread_once_t words_once = PTHREAD_ONCE_INIT;

static int word_find(const struct word_table *wt, const char *s, size_t len)
{
	int i;

	if (len > wt->maxlen)
		return -1;
	for (i = wt->first[word_hash(s, len)]; i >= 0; i = wt->next[i])
		if (wt->w[i].len == len && !memcmp(wt->w[i].s, s, len))
			return i;
	return -1;
}

static int word_add(struct word_table *wt, const char *s, int cls)
{
	size_t len = strlen(s);
	int i = word_find(wt, s, len);

	if (i >= 0)
		return i;
	if (wt->n >= MAX_WORDS || len > 255 || !len)
		abort();	/* the tables above are too big: a bug */
	i = wt->n++;
	wt->w[i].s = s;
	wt->w[i].len = (unsigned char)len;
	wt->w[i].cls = (unsigned char)cls;
	wt->w[i].rules = 0;
	wt->next[i] = wt->first[word_hash(s, len)];
	wt->first[word_hash(s, len)] = (short)i;
	if (len > wt->maxlen)
		wt->maxlen = (unsigned char)len;
	return i;
}

static void words_init(void)
{
	const char *const *n;
	size_t i;
	int r;

	memset(words.first, 0xff, sizeof(words.first));
	for (i = 0; i < ARRAY_SIZE(keywords); i++)
		word_add(&words, keywords[i].s, keywords[i].cls);
	for (r = 0; r < RULE__COUNT; r++) {
		if (!rules[r].names)
			continue;
		for (n = rules[r].names; *n; n++)
			words.w[word_add(&words, *n, W_NAME)].rules |= 1u << r;
	}
}

/* Allocators whose size is argument 2 (alloc-arith); the rest: 1. */
static int alloc_size_argno(const char *s, size_t len)
{
	static const char *const second[] = {
		"devm_kmalloc", "devm_kzalloc", "krealloc", "kvrealloc",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(second); i++)
		if (strlen(second[i]) == len && !memcmp(second[i], s, len))
			return 2;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Tokens.                                                             */

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

struct tok {
	uint32_t off;
	uint32_t len;
	uint32_t line;
	uint8_t type;
	uint8_t sub;		/* enum punct; T_IDENT: word class */
	uint8_t nump;		/* T_STRING: plain %p conversions (capped) */
	uint8_t pad;
	int16_t word;		/* T_IDENT: index in words, or -1 */
	int16_t pad2;
};

enum { C_OTHER, C_WS, C_NL, C_ID, C_DIGIT, C_PUNCT };

static const unsigned char cclass[256] = {
	[' '] = C_WS, ['\t'] = C_WS, ['\r'] = C_WS, ['\f'] = C_WS,
	['\v'] = C_WS, ['\n'] = C_NL,
	['a' ... 'z'] = C_ID, ['A' ... 'Z'] = C_ID, ['_'] = C_ID,
	['$'] = C_ID, ['0' ... '9'] = C_DIGIT,
	[0x80 ... 0xff] = C_ID,
	['!' ... '#'] = C_PUNCT, ['%' ... '/'] = C_PUNCT,
	[':' ... '@'] = C_PUNCT, ['[' ... '^'] = C_PUNCT,
	['`'] = C_PUNCT, ['{' ... '~'] = C_PUNCT,
};

static const bool idch[256] = {
	['a' ... 'z'] = true, ['A' ... 'Z'] = true, ['_'] = true,
	['$'] = true, ['0' ... '9'] = true, [0x80 ... 0xff] = true,
};

static inline bool is_idch(unsigned char c)
{
	return idch[c];
}

/*
 * The end of the identifier characters from @q: 16 bytes at a time with
 * SSE2 (letters, digits, '_', '$' and every byte >= 0x80, as idch[]).
 * Scanning identifiers is the largest single cost of lexing C.
 */
static inline const char *idch_end(const char *q, const char *e)
{
#ifdef __SSE2__
	const __m128i lo_a = _mm_set1_epi8('a' - 1), hi_z = _mm_set1_epi8('z' + 1);
	const __m128i lo_0 = _mm_set1_epi8('0' - 1), hi_9 = _mm_set1_epi8('9' + 1);
	const __m128i us = _mm_set1_epi8('_'), dollar = _mm_set1_epi8('$');
	const __m128i fold = _mm_set1_epi8(0x20);

	while (e - q >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)q);
		__m128i l = _mm_or_si128(v, fold);
		__m128i alpha = _mm_and_si128(_mm_cmpgt_epi8(l, lo_a),
					      _mm_cmplt_epi8(l, hi_z));
		__m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, lo_0),
					      _mm_cmplt_epi8(v, hi_9));
		__m128i sym = _mm_or_si128(_mm_cmpeq_epi8(v, us),
					   _mm_cmpeq_epi8(v, dollar));
		unsigned int m = (unsigned int)_mm_movemask_epi8(
			_mm_or_si128(_mm_or_si128(alpha, digit), sym)) |
			(unsigned int)_mm_movemask_epi8(v);	/* >= 0x80 */

		if (m != 0xffff)
			return q + __builtin_ctz(~m);
		q += 16;
	}
#endif
	while (q < e && is_idch((unsigned char)*q))
		q++;
	return q;
}

static inline bool is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* ------------------------------------------------------------------ */
/* GCC -Wimplicit-fallthrough=3 comments.                              */

/*
 * GCC's documented regular expressions, each matched against the whole
 * comment text (between the delimiters), case sensitively:
 *
 *   -fallthrough
 *   @fallthrough@
 *   lint -fallthrough[ \t]*
 *   [ \t.!]*(ELSE,? |INTENTIONAL(LY)? )?FALL(S | |-)?THR(OUGH|U)[ \t.!]*(-[^\n\r]*)?
 *   [ \t.!]*(Else,? |Intentional(ly)? )?Fall((s | |-)[Tt]|t)hr(ough|u)[ \t.!]*(-[^\n\r]*)?
 *   [ \t.!]*([Ee]lse,? |[Ii]ntentional(ly)? )?fall(s | |-)?thr(ough|u)[ \t.!]*(-[^\n\r]*)?
 *
 * None of the optional groups can be taken wrongly (what follows each
 * cannot start like it), so a deterministic left-to-right match is exact.
 */
struct cur {
	const char *p, *e;
};

static bool eat(struct cur *c, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(c->e - c->p) < n || memcmp(c->p, lit, n))
		return false;
	c->p += n;
	return true;
}

static bool peek_in(const struct cur *c, const char *set)
{
	return c->p < c->e && *c->p && strchr(set, *c->p);
}

/* [ \t.!]*(-[^\n\r]*)?$ */
static bool ft_tail(struct cur c)
{
	while (peek_in(&c, " \t.!"))
		c.p++;
	if (c.p == c.e)
		return true;
	if (*c.p != '-')
		return false;
	for (c.p++; c.p < c.e; c.p++)
		if (*c.p == '\n' || *c.p == '\r')
			return false;
	return true;
}

/* THR(OUGH|U) / thr(ough|u), the "thr" already eaten */
static bool ft_ough(struct cur *c, bool upper)
{
	if (upper)
		return eat(c, "OUGH") || eat(c, "U");
	return eat(c, "ough") || eat(c, "u");
}

static bool ft_upper(struct cur c)
{
	if (eat(&c, "ELSE")) {
		eat(&c, ",");
		if (!eat(&c, " "))
			return false;
	} else if (eat(&c, "INTENTIONAL")) {
		eat(&c, "LY");
		if (!eat(&c, " "))
			return false;
	}
	if (!eat(&c, "FALL"))
		return false;
	if (!eat(&c, "S ") && !eat(&c, " "))
		eat(&c, "-");
	if (!eat(&c, "THR") || !ft_ough(&c, true))
		return false;
	return ft_tail(c);
}

static bool ft_capital(struct cur c)
{
	if (eat(&c, "Else")) {
		eat(&c, ",");
		if (!eat(&c, " "))
			return false;
	} else if (eat(&c, "Intentional")) {
		eat(&c, "ly");
		if (!eat(&c, " "))
			return false;
	}
	if (!eat(&c, "Fall"))
		return false;
	if (eat(&c, "s ") || eat(&c, " ") || eat(&c, "-")) {
		if (!eat(&c, "T") && !eat(&c, "t"))
			return false;
	} else if (!eat(&c, "t")) {
		return false;
	}
	if (!eat(&c, "hr") || !ft_ough(&c, false))
		return false;
	return ft_tail(c);
}

static bool ft_lower(struct cur c)
{
	if (eat(&c, "Else") || eat(&c, "else")) {
		eat(&c, ",");
		if (!eat(&c, " "))
			return false;
	} else if (eat(&c, "Intentional") || eat(&c, "intentional")) {
		eat(&c, "ly");
		if (!eat(&c, " "))
			return false;
	}
	if (!eat(&c, "fall"))
		return false;
	if (!eat(&c, "s ") && !eat(&c, " "))
		eat(&c, "-");
	if (!eat(&c, "thr") || !ft_ough(&c, false))
		return false;
	return ft_tail(c);
}

static bool fallthrough_comment(const char *s, size_t len)
{
	struct cur c = { s, s + len };

	if (len == 12 && !memcmp(s, "-fallthrough", 12))
		return true;
	if (len == 13 && !memcmp(s, "@fallthrough@", 13))
		return true;
	if (eat(&c, "lint -fallthrough")) {
		while (peek_in(&c, " \t"))
			c.p++;
		return c.p == c.e;
	}
	c.p = s;
	while (peek_in(&c, " \t.!"))
		c.p++;
	if (c.p == c.e)
		return false;
	switch (*c.p) {
	case 'E': case 'I': case 'F':
		return ft_upper(c) || ft_capital(c) || ft_lower(c);
	case 'e': case 'i': case 'f':
		return ft_lower(c);
	default:
		return false;
	}
}

/* ------------------------------------------------------------------ */
/* The lexer state.                                                    */

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

struct frame {
	uint8_t kind;
	bool want_enumerator;	/* F_ENUM: an enumerator name comes next */
	bool cur_any;		/* F_STRUCT: tokens since the last ';' */
	int8_t cur_dim, last_dim;
	int paren;		/* paren depth at the '{' */
	int brk;		/* F_STRUCT: [] nesting */
	uint32_t cur_off, cur_line, last_off, last_line;
};

struct snapshot {
	size_t pool;		/* frames in lx->pool from here */
	size_t nfr;
	int paren;
	uint32_t func_off, func_len;
	bool real_func;
};

struct cond_state {
	struct snapshot at_if, at_else;
	bool have_else;
};

struct tsite {
	size_t off;
	size_t seq;
	int rule;
	unsigned int line;
	uint32_t func_off, func_len;	/* func_len 0: none */
};

/* A set of identifiers (spans of the buffer). */
struct idset {
	uint32_t *off;		/* open addressing; slot empty when len 0 */
	uint32_t *len;
	size_t n, cap;
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

	/* scan state */
	int paren;
	uint32_t func_off, func_len;	/* enclosing function, len 0: none */
	bool real_func;			/* func is a function, not a macro */
	long cand;			/* function name candidate, or -1 */
	long prev;			/* previous significant token, or -1 */
	int tag;			/* 0, W_STRUCT or W_ENUM pending */
	int tag_paren;
	bool stmt_start;
	bool stmt_const;		/* "const" seen in this statement */
	bool stmt_rhs;			/* after '=' in this statement */

	/* #define body */
	bool in_define;
	struct {
		size_t nfr;
		int paren;
		uint32_t func_off, func_len;
		bool real_func;
		long cand, prev;
		int tag, tag_paren;
		bool stmt_start, stmt_const, stmt_rhs;
	} save;
};

static uint32_t span_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	while (len--) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static bool idset_has(const struct lexer *lx, const struct idset *set,
		      const char *s, size_t len)
{
	size_t i, mask;

	if (!set->cap)
		return false;
	mask = set->cap - 1;
	for (i = span_hash(s, len) & mask; set->len[i]; i = (i + 1) & mask)
		if (set->len[i] == len &&
		    !memcmp(lx->buf + set->off[i], s, len))
			return true;
	return false;
}

static void idset_add(struct lexer *lx, struct idset *set, uint32_t off,
		      uint32_t len)
{
	size_t i, mask;

	if (idset_has(lx, set, lx->buf + off, len))
		return;
	if ((set->n + 1) * 2 > set->cap) {
		struct idset old = *set;
		size_t j;

		set->cap = old.cap ? old.cap * 2 : 64;
		set->off = xcalloc(set->cap, sizeof(*set->off));
		set->len = xcalloc(set->cap, sizeof(*set->len));
		set->n = 0;
		for (j = 0; j < old.cap; j++)
			if (old.len[j])
				idset_add(lx, set, old.off[j], old.len[j]);
		free(old.off);
		free(old.len);
	}
	mask = set->cap - 1;
	for (i = span_hash(lx->buf + off, len) & mask; set->len[i];
	     i = (i + 1) & mask)
		;
	set->off[i] = off;
	set->len[i] = len;
	set->n++;
}

static void idset_free(struct idset *set)
{
	free(set->off);
	free(set->len);
}

/* ------------------------------------------------------------------ */
/* Pass 1: tokens.                                                     */

static void __attribute__((noinline)) tok_grow(struct lexer *lx)
{
	ALLOC_GROW(lx->t, lx->nt + 1, lx->at);
}

static inline struct tok *tok_push(struct lexer *lx, int type, size_t off,
				   size_t len, unsigned int line)
{
	struct tok *t;

	if (__builtin_expect(lx->nt >= lx->at, 0))
		tok_grow(lx);
	t = &lx->t[lx->nt++];
	t->off = (uint32_t)off;
	t->len = (uint32_t)len;
	t->line = line;
	t->type = (uint8_t)type;
	t->sub = 0;
	t->nump = 0;
	t->pad = 0;
	t->word = -1;
	t->pad2 = 0;
	return t;
}

/* Length of a punctuator at @p and its enum punct. */
static size_t punct_len(const char *p, const char *e, int *sub)
{
	char c = p[0], d = p + 1 < e ? p[1] : 0;

	static const uint8_t single[256] = {
		['('] = P_LPAREN, [')'] = P_RPAREN, ['['] = P_LBRACK,
		[']'] = P_RBRACK, ['{'] = P_LBRACE, ['}'] = P_RBRACE,
		[';'] = P_SEMI, [','] = P_COMMA, [':'] = P_COLON,
	};

	*sub = single[(unsigned char)c];
	if (*sub != P_OTHER)
		return 1;
	switch (c) {
	case '.':
		if (d == '.' && p + 2 < e && p[2] == '.')
			return 3;
		*sub = P_DOT;
		return 1;
	case '-':
		if (d == '>') {
			*sub = P_ARROW;
			return 2;
		}
		if (d == '-' || d == '=')
			return 2;
		*sub = P_MINUS;
		return 1;
	case '+':
		if (d == '+' || d == '=')
			return 2;
		*sub = P_PLUS;
		return 1;
	case '*':
		if (d == '=')
			return 2;
		*sub = P_STAR;
		return 1;
	case '=':
		if (d == '=')
			return 2;
		*sub = P_ASSIGN;
		return 1;
	case '#':
		if (d == '#') {
			*sub = P_HASHHASH;
			return 2;
		}
		return 1;
	case '<':
	case '>':
		if (d == c)
			return p + 2 < e && p[2] == '=' ? 3 : 2;
		return d == '=' ? 2 : 1;
	case '&':
	case '|':
		return d == c || d == '=' ? 2 : 1;
	case '!':
	case '/':
	case '%':
	case '^':
		return d == '=' ? 2 : 1;
	default:
		return 1;
	}
}

enum { DIR_NONE, DIR_DEFINE, DIR_SKIP };

/* The conditional directive whose name starts at @q, or 0. */
static int directive_cond(const char *q, const char *e)
{
	static const struct {
		const char *name;
		int cond;
	} conds[] = {
		{ "if", COND_IF }, { "ifdef", COND_IF }, { "ifndef", COND_IF },
		{ "elif", COND_ELSE }, { "elifdef", COND_ELSE },
		{ "elifndef", COND_ELSE }, { "else", COND_ELSE },
		{ "endif", COND_ENDIF },
	};
	size_t i, n = 0;

	while (q + n < e && is_idch((unsigned char)q[n]))
		n++;
	for (i = 0; i < ARRAY_SIZE(conds); i++)
		if (strlen(conds[i].name) == n && !memcmp(q, conds[i].name, n))
			return conds[i].cond;
	return 0;
}

/* The newlines in [p, e): a loop the compiler vectorises. */
static unsigned int count_nl(const char *p, const char *e)
{
	unsigned int n = 0;

	for (; p < e; p++)
		n += *p == '\n';
	return n;
}

static void tokenize(struct lexer *lx)
{
	const char *const b = lx->buf, *const e = b + lx->len;
	const char *p = b, *q;
	unsigned int line = 1;
	bool bol = true;
	int dir = DIR_NONE;
	struct tok *t;

	while (p < e) {
		unsigned char c = (unsigned char)*p;

		switch (cclass[c]) {
		case C_NL:
			line++;
			p++;
			bol = true;
			if (dir == DIR_DEFINE)
				tok_push(lx, T_EOD, (size_t)(p - 1 - b), 0,
					 line - 1);
			dir = DIR_NONE;
			continue;
		case C_WS:	/* runs of indentation and alignment */
			p++;
			while (p < e && cclass[(unsigned char)*p] == C_WS)
				p++;
			continue;
		case C_ID:
			q = idch_end(p + 1, e);
			if (dir != DIR_SKIP) {
				int w = word_find(&words, p, (size_t)(q - p));

				t = tok_push(lx, T_IDENT, (size_t)(p - b),
					     (size_t)(q - p), line);
				if (w >= 0) {
					t->word = (int16_t)w;
					t->sub = words.w[w].cls;
				}
			}
			bol = false;
			p = q;
			continue;
		case C_DIGIT:
number:
			q = p + 1;
			while (q < e) {
				unsigned char d = (unsigned char)*q;

				if ((d == '+' || d == '-') &&
				    strchr("eEpP", q[-1]))
					q++;
				else if (is_idch(d) || d == '.')
					q++;
				else
					break;
			}
			if (dir != DIR_SKIP)
				tok_push(lx, T_NUMBER, (size_t)(p - b),
					 (size_t)(q - p), line);
			bol = false;
			p = q;
			continue;
		default:
			break;
		}

		/* comments */
		if (c == '/' && p + 1 < e && (p[1] == '*' || p[1] == '/')) {
			unsigned int l0 = line;
			const char *text = p + 2, *tend;

			if (p[1] == '*') {
				/*
				 * The end: memchr for each '*' (not memmem,
				 * which sanitizers check to the buffer's end
				 * on every call), then the comment's lines.
				 */
				for (q = text;; q++) {
					q = memchr(q, '*', (size_t)(e - q));
					if (!q || q + 1 >= e) {
						q = NULL;
						break;
					}
					if (q[1] == '/')
						break;
				}
				tend = q ? q : e;
				line += count_nl(text, tend);
				q = q ? q + 2 : e;
			} else {
				for (q = text; q < e; q++) {
					if (*q != '\n')
						continue;
					if (q > text && q[-1] == '\\') {
						line++;
						continue;
					}
					if (q > text + 1 && q[-1] == '\r' &&
					    q[-2] == '\\') {
						line++;
						continue;
					}
					break;
				}
				tend = q;
				if (tend > text && tend[-1] == '\r')
					tend--;	/* CRLF line end */
			}
			if (dir != DIR_SKIP &&
			    fallthrough_comment(text, (size_t)(tend - text)))
				tok_push(lx, T_FT, (size_t)(p - b),
					 (size_t)(q - p), l0);
			p = q;
			continue;
		}

		/* string and character literals */
		if (c == '"' || c == '\'') {
			unsigned int l0 = line, nump = 0;

			for (q = p + 1; q < e; q++) {
				if (*q == '\\') {
					if (q + 1 < e && q[1] == '\n')
						line++;
					q++;
					continue;
				}
				if (*q == (char)c || *q == '\n')
					break;
				if (*q == '%' && c == '"' && q + 1 < e) {
					if (q[1] == '%') {
						q++;
					} else if (q[1] == 'p' &&
						   (q + 2 >= e ||
						    !is_alnum((unsigned char)q[2]))) {
						nump++;
					}
				}
			}
			if (q < e && *q == (char)c)
				q++;
			if (q > e)
				q = e;
			if (dir != DIR_SKIP) {
				t = tok_push(lx, c == '"' ? T_STRING : T_CHAR,
					     (size_t)(p - b), (size_t)(q - p),
					     l0);
				t->nump = nump > 255 ? 255 : (uint8_t)nump;
			}
			bol = false;
			p = q;
			continue;
		}

		/* backslash-newline */
		if (c == '\\') {
			q = p + 1;
			if (q < e && *q == '\r')
				q++;
			if (q < e && *q == '\n') {
				line++;
				p = q + 1;
				continue;
			}
		}

		if (c == '.' && p + 1 < e && cclass[(unsigned char)p[1]] == C_DIGIT)
			goto number;

		/* a directive */
		if (c == '#' && bol && dir == DIR_NONE) {
			q = p + 1;
			for (;;) {
				if (q < e && (*q == ' ' || *q == '\t')) {
					q++;
				} else if (q + 1 < e && q[0] == '\\' &&
					   q[1] == '\n') {
					q += 2;
					line++;
				} else {
					break;
				}
			}
			if (e - q >= 6 && !memcmp(q, "define", 6) &&
			    (q + 6 == e || !is_idch((unsigned char)q[6]))) {
				tok_push(lx, T_DEFINE, (size_t)(p - b),
					 (size_t)(q + 6 - p), line);
				dir = DIR_DEFINE;
				q += 6;
			} else {
				int cond = directive_cond(q, e);

				if (cond) {
					t = tok_push(lx, T_COND,
						     (size_t)(p - b), 1, line);
					t->sub = (uint8_t)cond;
				}
				dir = DIR_SKIP;
			}
			bol = false;
			p = q;
			continue;
		}

		{
			int sub;
			size_t n = punct_len(p, e, &sub);

			if (dir != DIR_SKIP) {
				t = tok_push(lx, T_PUNCT, (size_t)(p - b), n,
					     line);
				t->sub = (uint8_t)sub;
			}
			bol = false;
			p += n;
		}
	}
	if (dir == DIR_DEFINE)
		tok_push(lx, T_EOD, lx->len, 0, line);
}

/* ------------------------------------------------------------------ */
/* Pass 2: the rules.                                                  */

static inline bool is_punct(const struct tok *t, int sub)
{
	return t->type == T_PUNCT && t->sub == sub;
}

/* Index of the next token that is not a fall-through comment. */
static size_t next_sig(const struct lexer *lx, size_t i)
{
	for (i++; i < lx->nt && lx->t[i].type == T_FT; i++)
		;
	return i;
}

static void add_site(struct lexer *lx, int rule, size_t off,
		     unsigned int line)
{
	struct tsite *s;

	ALLOC_GROW(lx->s, lx->ns + 1, lx->as);
	s = &lx->s[lx->ns];
	s->off = off;
	s->seq = lx->ns++;
	s->rule = rule;
	s->line = line;
	s->func_off = lx->func_off;
	s->func_len = lx->func_len;
}

static bool all_upper(const char *s, size_t len)
{
	while (len--) {
		if (*s >= 'a' && *s <= 'z')
			return false;
		s++;
	}
	return true;
}

/*
 * Index just past the group opened at @i ('(', '[' or '{'), at most @end;
 * stops at the end of a #define.
 */
static size_t skip_group(const struct lexer *lx, size_t i, size_t end)
{
	int depth = 0;

	for (; i < end; i++) {
		const struct tok *t = &lx->t[i];

		if (t->type == T_EOD || t->type == T_DEFINE)
			return i;
		if (t->type != T_PUNCT)
			continue;
		if (t->sub == P_LPAREN || t->sub == P_LBRACK ||
		    t->sub == P_LBRACE)
			depth++;
		else if (t->sub == P_RPAREN || t->sub == P_RBRACK ||
			 t->sub == P_RBRACE)
			if (--depth <= 0)
				return i + 1;
	}
	return end;
}

/*
 * Is the expression in tokens [a, b) constant: every identifier all upper
 * case, ignoring sizeof(...)/__alignof__(...) and the arguments of an
 * all-upper-case macro call?  With @heur, lower-case const variables
 * and enumerators declared earlier in the buffer count as constant too.
 */
static bool expr_const(const struct lexer *lx, size_t a, size_t b, bool heur)
{
	size_t i = a;

	while (i < b) {
		const struct tok *t = &lx->t[i];
		const char *s = lx->buf + t->off;
		size_t n;

		if (t->type != T_IDENT) {
			i++;
			continue;
		}
		n = next_sig(lx, i);
		if (t->word >= 0 && t->sub == W_SIZEOF) {
			if (n < b && is_punct(&lx->t[n], P_LPAREN)) {
				i = skip_group(lx, n, b);
				continue;
			}
			/* sizeof unary-expression: *&, a name, postfix */
			for (i = n; i < b && lx->t[i].type == T_PUNCT &&
			     (lx->t[i].sub == P_STAR || *(lx->buf + lx->t[i].off) == '&');
			     i++)
				;
			if (i < b && lx->t[i].type == T_IDENT)
				i++;
			while (i < b) {
				const struct tok *u = &lx->t[i];

				if ((is_punct(u, P_DOT) || is_punct(u, P_ARROW)) &&
				    i + 1 < b && lx->t[i + 1].type == T_IDENT)
					i += 2;
				else if (is_punct(u, P_LBRACK))
					i = skip_group(lx, i, b);
				else
					break;
			}
			continue;
		}
		if (t->word >= 0 && t->sub != W_NAME) {
			i++;			/* a keyword */
			continue;
		}
		if (all_upper(s, t->len)) {
			if (n < b && is_punct(&lx->t[n], P_LPAREN))
				i = skip_group(lx, n, b);
			else
				i++;
			continue;
		}
		if (heur && (idset_has(lx, &lx->consts, s, t->len) ||
			     idset_has(lx, &lx->enums, s, t->len))) {
			i++;
			continue;
		}
		return false;
	}
	return true;
}

/* Does token @t end an operand (so a following '*' is binary)? */
static bool ends_operand(const struct tok *t)
{
	switch (t->type) {
	case T_IDENT:
		return t->word < 0 || t->sub == W_NAME;
	case T_NUMBER:
	case T_STRING:
	case T_CHAR:
		return true;
	case T_PUNCT:
		return t->sub == P_RPAREN || t->sub == P_RBRACK;
	default:
		return false;
	}
}

/*
 * alloc-arith: the call whose '(' is token @lp; the size is argument
 * @argno.  Split it at top-level binary '+'/'-' into terms; true if a
 * term is a product (top-level binary '*') with a non-constant factor.
 */
static bool alloc_arith(const struct lexer *lx, size_t lp, int argno)
{
	size_t i, a = 0, b = 0, fs, prev;
	int depth = 0, arg = 1;
	bool found = false, product = false, nonconst = false;

	for (i = lp + 1; i < lx->nt; i++) {
		const struct tok *t = &lx->t[i];

		if (t->type == T_EOD || t->type == T_DEFINE)
			return false;
		if (t->type != T_PUNCT)
			continue;
		if (t->sub == P_LPAREN || t->sub == P_LBRACK ||
		    t->sub == P_LBRACE) {
			depth++;
		} else if (t->sub == P_RPAREN || t->sub == P_RBRACK ||
			   t->sub == P_RBRACE) {
			if (depth-- == 0) {
				if (arg == argno) {
					b = i;
					found = true;
				}
				break;
			}
		} else if (t->sub == P_COMMA && depth == 0) {
			if (arg == argno) {
				b = i;
				found = true;
				break;
			}
			arg++;
			a = i + 1;
		}
	}
	if (!found)
		return false;
	if (argno == 1)
		a = lp + 1;

	depth = 0;
	fs = a;
	prev = SIZE_MAX;
	for (i = a; i <= b; i++) {
		const struct tok *t = &lx->t[i];
		bool binary;

		if (i < b && t->type == T_FT)
			continue;
		if (i < b && t->type == T_PUNCT) {
			if (t->sub == P_LPAREN || t->sub == P_LBRACK ||
			    t->sub == P_LBRACE)
				depth++;
			else if (t->sub == P_RPAREN || t->sub == P_RBRACK ||
				 t->sub == P_RBRACE)
				depth--;
		}
		if (i < b && (depth != 0 || t->type != T_PUNCT ||
			      (t->sub != P_STAR && t->sub != P_PLUS &&
			       t->sub != P_MINUS))) {
			prev = i;
			continue;
		}
		binary = i == b ||
			 (prev != SIZE_MAX && ends_operand(&lx->t[prev]));
		if (!binary) {
			prev = i;
			continue;
		}
		/* end of a factor */
		if (!expr_const(lx, fs, i, false))
			nonconst = true;
		fs = i + 1;
		if (i < b && t->sub == P_STAR) {
			product = true;
		} else {
			/* end of a term */
			if (product && nonconst)
				return true;
			product = false;
			nonconst = false;
		}
		prev = i;
	}
	return false;
}

/*
 * vla: at a statement start @i in a function body, a declaration
 * "type-ish tokens, name, [expr]..." followed by ';', '=' or ','.
 * Returns the name's token index, or 0 when it is no VLA.
 */
static size_t vla_check(const struct lexer *lx, size_t i)
{
	const struct tok *t = &lx->t[i];
	size_t j, name;
	bool vla = false;

	if (t->type != T_IDENT)
		return 0;
	if (t->word >= 0 && (t->sub == W_STMT || t->sub == W_SIZEOF ||
			     t->sub == W_ATTR))
		return 0;
	name = i;
	for (j = i;;) {
		t = &lx->t[j];
		if (t->type == T_IDENT) {
			/* static and extern arrays cannot be VLAs */
			if (t->word >= 0 && t->sub == W_KEYWORD &&
			    ((t->len == 6 &&
			      !memcmp(lx->buf + t->off, "static", 6)) ||
			     (t->len == 6 &&
			      !memcmp(lx->buf + t->off, "extern", 6))))
				return 0;
			name = j;
		} else if (is_punct(t, P_STAR)) {
			name = 0;
		} else {
			break;
		}
		j = next_sig(lx, j);
		if (j >= lx->nt)
			return 0;
	}
	/* need at least one type token before the name */
	if (!name || name == i || !is_punct(t, P_LBRACK))
		return 0;
	while (j < lx->nt && is_punct(&lx->t[j], P_LBRACK)) {
		size_t k = skip_group(lx, j, lx->nt);

		if (k <= j + 1 || !is_punct(&lx->t[k - 1], P_RBRACK))
			return 0;
		if (!expr_const(lx, j + 1, k - 1, true))
			vla = true;
		j = k < lx->nt && lx->t[k].type == T_FT ? next_sig(lx, k) : k;
	}
	if (j >= lx->nt)
		return 0;
	t = &lx->t[j];
	if (!is_punct(t, P_SEMI) && !is_punct(t, P_ASSIGN) &&
	    !is_punct(t, P_COMMA))
		return 0;
	return vla ? name : 0;
}

static const char *const user_suffixes[] = {
	"_sendmsg", "_recvmsg", "_setsockopt", "_getsockopt", "_ioctl",
	"_store",
};

static bool user_func(const struct lexer *lx)
{
	const char *f = lx->buf + lx->func_off;
	size_t i, n;

	if (!lx->real_func || !lx->func_len)
		return false;
	for (i = 0; i < ARRAY_SIZE(user_suffixes); i++) {
		n = strlen(user_suffixes[i]);
		if (lx->func_len > n &&
		    !memcmp(f + lx->func_len - n, user_suffixes[i], n))
			return true;
	}
	return false;
}

static struct frame *top(struct lexer *lx)
{
	return lx->nfr ? &lx->fr[lx->nfr - 1] : NULL;
}

static bool in_block_scope(struct lexer *lx)
{
	struct frame *f = top(lx);

	return f && !lx->in_define && (f->kind == F_FUNC || f->kind == F_BLOCK);
}

/* An identifier that may be a call of a rule's function. */
static void match_word(struct lexer *lx, size_t i)
{
	const struct tok *t = &lx->t[i];
	const struct word *w = &words.w[t->word];
	const struct tok *pv = lx->prev >= 0 ? &lx->t[lx->prev] : NULL;
	bool code = lx->in_define || lx->nfr > 0;
	bool call, member;
	size_t n;
	uint32_t m;
	int r;

	member = pv && pv->type == T_PUNCT &&
		 (pv->sub == P_DOT || pv->sub == P_ARROW ||
		  pv->sub == P_HASHHASH);
	n = next_sig(lx, i);
	call = !member && n < lx->nt && is_punct(&lx->t[n], P_LPAREN);

	for (m = w->rules; m; m &= m - 1) {
		r = __builtin_ctz(m);
		switch (rules[r].kind) {
		case MATCH_IDENT_ANYWHERE:
			add_site(lx, r, t->off, t->line);
			break;
		case MATCH_CALL_ANYWHERE:
			if (call)
				add_site(lx, r, t->off, t->line);
			break;
		case MATCH_CALL:
			if (!call || !code)
				break;
			add_site(lx, r, t->off, t->line);
			if (r == RULE_WARN_ON && user_func(lx))
				add_site(lx, RULE_WARN_ON_USER, t->off,
					 t->line);
			break;
		case MATCH_ALLOC_OBJ:
			if (call && code && pv && is_punct(pv, P_ASSIGN))
				add_site(lx, r, t->off, t->line);
			break;
		case MATCH_ALLOC_ARITH:
			if (call && code &&
			    alloc_arith(lx, n, alloc_size_argno(lx->buf + t->off,
								t->len)))
				add_site(lx, r, t->off, t->line);
			break;
		default:
			break;
		}
	}
}

static void push_frame(struct lexer *lx, int kind)
{
	struct frame *f;

	ALLOC_GROW(lx->fr, lx->nfr + 1, lx->afr);
	f = &lx->fr[lx->nfr++];
	memset(f, 0, sizeof(*f));
	f->kind = (uint8_t)kind;
	f->paren = lx->paren;
	f->cur_dim = DIM_NONE;
	f->last_dim = DIM_NONE;
	f->want_enumerator = kind == F_ENUM;
}

static void struct_end(struct lexer *lx, struct frame *f)
{
	int dim = f->cur_any ? f->cur_dim : f->last_dim;
	uint32_t off = f->cur_any ? f->cur_off : f->last_off;
	uint32_t line = f->cur_any ? f->cur_line : f->last_line;

	if (dim == DIM_ZERO)
		add_site(lx, RULE_FLEX_ARRAY_ZERO, off, line);
	else if (dim == DIM_ONE)
		add_site(lx, RULE_FLEX_ARRAY_ONE, off, line);
}

static void open_brace(struct lexer *lx)
{
	struct frame *f = top(lx);
	const struct tok *pv = lx->prev >= 0 ? &lx->t[lx->prev] : NULL;
	int kind;

	if (lx->tag == W_STRUCT) {
		kind = F_STRUCT;
	} else if (lx->tag == W_ENUM) {
		kind = F_ENUM;
	} else if (!f) {
		kind = F_OTHER;
		if (!lx->in_define && lx->cand >= 0 && lx->paren == 0 && pv &&
		    (is_punct(pv, P_RPAREN) || pv->type == T_IDENT)) {
			const struct tok *c = &lx->t[lx->cand];

			kind = F_FUNC;
			lx->func_off = c->off;
			lx->func_len = c->len;
			lx->real_func = true;
		}
	} else if (f->kind == F_FUNC || f->kind == F_BLOCK) {
		kind = F_INIT;
		if (!pv || (pv->type == T_PUNCT &&
			    (pv->sub == P_RPAREN || pv->sub == P_SEMI ||
			     pv->sub == P_LBRACE || pv->sub == P_RBRACE ||
			     pv->sub == P_COLON || pv->sub == P_LPAREN)) ||
		    (pv->type == T_IDENT && pv->word >= 0 &&
		     pv->sub == W_STMT))
			kind = F_BLOCK;
	} else if (f->kind == F_INIT) {
		kind = F_INIT;
	} else {
		kind = F_OTHER;
	}
	if (f && f->kind == F_STRUCT && lx->paren == f->paren)
		f->cur_any = true;
	push_frame(lx, kind);
	lx->tag = 0;
	lx->cand = -1;
	lx->stmt_start = true;
	lx->stmt_const = false;
	lx->stmt_rhs = false;
}

static void close_brace(struct lexer *lx)
{
	struct frame *f = top(lx);

	if (!f || (lx->in_define && lx->nfr <= lx->save.nfr))
		return;
	if (f->kind == F_STRUCT)
		struct_end(lx, f);
	lx->paren = f->paren;
	lx->nfr--;
	if (!lx->nfr && !lx->in_define) {
		lx->func_len = 0;
		lx->real_func = false;
	}
	lx->tag = 0;
	lx->cand = -1;
	lx->stmt_start = true;
	lx->stmt_const = false;
	lx->stmt_rhs = false;
}

static void define_begin(struct lexer *lx, size_t *ip)
{
	size_t i = *ip, n;

	lx->save.nfr = lx->nfr;
	lx->save.paren = lx->paren;
	lx->save.func_off = lx->func_off;
	lx->save.func_len = lx->func_len;
	lx->save.real_func = lx->real_func;
	lx->save.cand = lx->cand;
	lx->save.prev = lx->prev;
	lx->save.tag = lx->tag;
	lx->save.tag_paren = lx->tag_paren;
	lx->save.stmt_start = lx->stmt_start;
	lx->save.stmt_const = lx->stmt_const;
	lx->save.stmt_rhs = lx->stmt_rhs;
	lx->in_define = true;
	lx->func_len = 0;
	lx->real_func = false;
	lx->prev = -1;
	lx->tag = 0;
	lx->cand = -1;
	lx->stmt_start = false;
	lx->stmt_const = false;
	lx->stmt_rhs = false;

	n = next_sig(lx, i);
	if (n >= lx->nt || lx->t[n].type != T_IDENT)
		return;
	lx->func_off = lx->t[n].off;
	lx->func_len = lx->t[n].len;
	i = n;
	n = i + 1;	/* a parameter list follows the name directly */
	if (n < lx->nt && is_punct(&lx->t[n], P_LPAREN) &&
	    lx->t[n].off == lx->t[i].off + lx->t[i].len) {
		/* resume at the token after ')', or at the T_EOD */
		i = skip_group(lx, n, lx->nt) - 1;
	}
	*ip = i;
}

static void define_end(struct lexer *lx)
{
	if (!lx->in_define)
		return;
	lx->nfr = lx->save.nfr;
	lx->paren = lx->save.paren;
	lx->func_off = lx->save.func_off;
	lx->func_len = lx->save.func_len;
	lx->real_func = lx->save.real_func;
	lx->cand = lx->save.cand;
	lx->prev = lx->save.prev;
	lx->tag = lx->save.tag;
	lx->tag_paren = lx->save.tag_paren;
	lx->stmt_start = lx->save.stmt_start;
	lx->stmt_const = lx->save.stmt_const;
	lx->stmt_rhs = lx->save.stmt_rhs;
	lx->in_define = false;
}

/* struct/union/enum tag: does token @t keep "a body may follow"? */
static void tag_update(struct lexer *lx, const struct tok *t)
{
	const struct tok *pv = lx->prev >= 0 ? &lx->t[lx->prev] : NULL;

	if (lx->paren > lx->tag_paren)
		return;			/* inside an attribute's parentheses */
	if (t->type == T_IDENT)
		return;
	if (is_punct(t, P_LBRACE))
		return;
	if (is_punct(t, P_LPAREN) && pv && pv->type == T_IDENT &&
	    pv->word >= 0 && pv->sub == W_ATTR)
		return;			/* struct __attribute__((...)) tag { */
	lx->tag = 0;
}

static void struct_token(struct lexer *lx, struct frame *f, size_t i)
{
	const struct tok *t = &lx->t[i];
	const struct tok *pv = lx->prev >= 0 ? &lx->t[lx->prev] : NULL;

	if (lx->paren != f->paren)
		return;
	if (t->type == T_PUNCT) {
		switch (t->sub) {
		case P_SEMI:
			if (f->brk)
				return;
			f->last_dim = f->cur_dim;
			f->last_off = f->cur_off;
			f->last_line = f->cur_line;
			f->cur_dim = DIM_NONE;
			f->cur_any = false;
			return;
		case P_COMMA:
			if (!f->brk)
				f->cur_dim = DIM_NONE;
			return;
		case P_LBRACK:
			if (f->brk++ == 0) {
				size_t n = next_sig(lx, i), m;
				int dim = DIM_OTHER;

				m = n < lx->nt ? next_sig(lx, n) : n;
				if (m < lx->nt && is_punct(&lx->t[m], P_RBRACK) &&
				    lx->t[n].type == T_NUMBER &&
				    lx->t[n].len == 1) {
					if (lx->buf[lx->t[n].off] == '0')
						dim = DIM_ZERO;
					else if (lx->buf[lx->t[n].off] == '1')
						dim = DIM_ONE;
				}
				if (pv && pv->type == T_IDENT) {
					f->cur_off = pv->off;
					f->cur_line = pv->line;
				} else if (f->cur_dim == DIM_NONE) {
					f->cur_off = t->off;
					f->cur_line = t->line;
				}
				f->cur_dim = (int8_t)dim;
			}
			f->cur_any = true;
			return;
		case P_RBRACK:
			if (f->brk)
				f->brk--;
			return;
		case P_RBRACE:
			return;		/* our own end */
		default:
			break;
		}
	}
	f->cur_any = true;
}

static void snap_take(struct lexer *lx, struct snapshot *s)
{
	ALLOC_GROW(lx->pool, lx->npool + lx->nfr, lx->apool);
	if (lx->nfr)
		memcpy(lx->pool + lx->npool, lx->fr,
		       lx->nfr * sizeof(*lx->fr));
	s->pool = lx->npool;
	s->nfr = lx->nfr;
	lx->npool += lx->nfr;
	s->paren = lx->paren;
	s->func_off = lx->func_off;
	s->func_len = lx->func_len;
	s->real_func = lx->real_func;
}

static void snap_restore(struct lexer *lx, const struct snapshot *s)
{
	ALLOC_GROW(lx->fr, s->nfr, lx->afr);
	if (s->nfr)
		memcpy(lx->fr, lx->pool + s->pool, s->nfr * sizeof(*lx->fr));
	lx->nfr = s->nfr;
	lx->paren = s->paren;
	lx->func_off = s->func_off;
	lx->func_len = s->func_len;
	lx->real_func = s->real_func;
	lx->cand = -1;
	lx->tag = 0;
}

static void conditional(struct lexer *lx, int cond)
{
	struct cond_state *c;

	switch (cond) {
	case COND_IF:
		ALLOC_GROW(lx->cs, lx->ncs + 1, lx->acs);
		c = &lx->cs[lx->ncs++];
		c->have_else = false;
		snap_take(lx, &c->at_if);
		break;
	case COND_ELSE:
		if (!lx->ncs)
			break;
		c = &lx->cs[lx->ncs - 1];
		if (!c->have_else) {
			snap_take(lx, &c->at_else);
			c->have_else = true;
		}
		if (lx->nfr != c->at_if.nfr)
			snap_restore(lx, &c->at_if);
		break;
	case COND_ENDIF:
		if (!lx->ncs)
			break;
		c = &lx->cs[--lx->ncs];
		if (c->have_else && lx->nfr != c->at_else.nfr)
			snap_restore(lx, &c->at_else);
		lx->npool = c->at_if.pool;
		break;
	default:
		break;
	}
}

static void scan(struct lexer *lx)
{
	struct frame *f;
	size_t i;

	lx->prev = -1;
	lx->cand = -1;
	for (i = 0; i < lx->nt; i++) {
		const struct tok *t = &lx->t[i];
		bool start = lx->stmt_start;

		switch (t->type) {
		case T_FT:
			add_site(lx, RULE_FALLTHROUGH_COMMENT, t->off, t->line);
			continue;
		case T_DEFINE:
			define_end(lx);
			define_begin(lx, &i);
			continue;
		case T_EOD:
			define_end(lx);
			continue;
		case T_COND:
			define_end(lx);
			conditional(lx, t->sub);
			continue;
		default:
			break;
		}

		lx->stmt_start = false;
		f = top(lx);
		if (lx->tag)
			tag_update(lx, t);
		if (f && f->kind == F_STRUCT &&
		    (!lx->in_define || lx->nfr > lx->save.nfr))
			struct_token(lx, f, i);

		if (start && lx->paren == (f ? f->paren : 0) &&
		    in_block_scope(lx)) {
			size_t name = vla_check(lx, i);

			if (name)
				add_site(lx, RULE_VLA, lx->t[name].off,
					 lx->t[name].line);
		}

		if (t->type == T_STRING) {
			unsigned int k;

			for (k = 0; k < t->nump; k++)
				add_site(lx, RULE_PRINTK_P, t->off, t->line);
		} else if (t->type == T_IDENT) {
			size_t n;

			if (t->word >= 0) {
				if (words.w[t->word].rules)
					match_word(lx, i);
				switch (t->sub) {
				case W_STRUCT:
				case W_ENUM:
					lx->tag = t->sub;
					lx->tag_paren = lx->paren;
					break;
				case W_CONST:
					lx->stmt_const = true;
					break;
				case W_STMT:
					if (t->len == 4 &&
					    !memcmp(lx->buf + t->off, "else", 4))
						lx->stmt_start = true;
					else if (t->len == 2 &&
						 !memcmp(lx->buf + t->off, "do", 2))
						lx->stmt_start = true;
					break;
				default:
					break;
				}
			}
			n = next_sig(lx, i);
			if (f && f->kind == F_ENUM && f->want_enumerator &&
			    lx->paren == f->paren) {
				idset_add(lx, &lx->enums, t->off, t->len);
				f->want_enumerator = false;
			}
			if (lx->stmt_const && !lx->stmt_rhs && n < lx->nt &&
			    (t->word < 0 || t->sub == W_NAME) &&
			    lx->paren == (f ? f->paren : 0) &&
			    lx->t[n].type == T_PUNCT &&
			    (lx->t[n].sub == P_ASSIGN || lx->t[n].sub == P_SEMI ||
			     lx->t[n].sub == P_COMMA ||
			     lx->t[n].sub == P_LBRACK))
				idset_add(lx, &lx->consts, t->off, t->len);
			/* the last name( at file scope before the body */
			if (!f && !lx->in_define && lx->paren == 0 &&
			    n < lx->nt && is_punct(&lx->t[n], P_LPAREN) &&
			    (t->word < 0 || t->sub == W_NAME))
				lx->cand = (long)i;
		} else if (t->type == T_PUNCT) {
			switch (t->sub) {
			case P_LPAREN:
				lx->paren++;
				break;
			case P_RPAREN:
				if (lx->paren > (f ? f->paren : 0))
					lx->paren--;
				break;
			case P_LBRACE:
				open_brace(lx);
				break;
			case P_RBRACE:
				close_brace(lx);
				break;
			case P_SEMI:
				if (lx->paren == (f ? f->paren : 0)) {
					lx->stmt_start = true;
					lx->stmt_const = false;
					lx->stmt_rhs = false;
					if (!f)
						lx->cand = -1;
				}
				break;
			case P_COMMA:
				if (lx->paren == (f ? f->paren : 0))
					lx->stmt_rhs = false;
				if (f && f->kind == F_ENUM &&
				    lx->paren == f->paren)
					f->want_enumerator = true;
				break;
			case P_ASSIGN:
				if (lx->paren == (f ? f->paren : 0))
					lx->stmt_rhs = true;
				break;
			default:
				break;
			}
		}
		lx->prev = (long)i;
	}
	define_end(lx);
	while (lx->nfr) {	/* unbalanced: close what is open */
		f = top(lx);
		if (f->kind == F_STRUCT)
			struct_end(lx, f);
		lx->nfr--;
	}
}

/* ------------------------------------------------------------------ */

static int tsite_cmp(const void *a, const void *b)
{
	const struct tsite *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void emit_sites(struct lexer *lx, struct site_list *out)
{
	size_t i;
	bool sorted = true;

	for (i = 1; i < lx->ns; i++)
		if (tsite_cmp(&lx->s[i - 1], &lx->s[i]) > 0)
			sorted = false;
	if (!sorted)
		qsort(lx->s, lx->ns, sizeof(*lx->s), tsite_cmp);

	ALLOC_GROW(out->v, out->n + lx->ns, out->alloc);
	for (i = 0; i < lx->ns; i++) {
		const struct tsite *s = &lx->s[i];
		struct site *o = &out->v[out->n++];
		const char *b = lx->buf, *ls, *le;
		size_t off = s->off < lx->len ? s->off : lx->len;

		ls = b + off;
		while (ls > b && ls[-1] != '\n')
			ls--;
		le = memchr(b + off, '\n', lx->len - off);
		if (!le)
			le = b + lx->len;
		o->rule = s->rule;
		o->line = s->line;
		o->func = s->func_len ? xstrndup(b + s->func_off, s->func_len)
				      : NULL;
		o->text = normalize_ws(ls, (size_t)(le - ls));
	}
}

int lex_buffer_with(const char *buf, size_t len, struct site_list *out,
		    struct lex_scratch *scratch)
{
	struct lexer lx;

	if ((!buf && len) || !out || len >= UINT32_MAX || !scratch)
		return KMIG_EGENERIC;
	pthread_once(&words_once, words_init);

	memset(&lx, 0, sizeof(lx));
	lx.buf = buf;
	lx.len = len;
	lx.cand = -1;
	lx.prev = -1;
	/* the token array is reused from call to call: no page faults */
	lx.t = scratch->tok;
	lx.at = scratch->alloc;
	if (len)
		ALLOC_GROW(lx.t, len / 4 + 64, lx.at);
	tokenize(&lx);
	scan(&lx);
	emit_sites(&lx, out);

	scratch->tok = lx.t;
	scratch->alloc = lx.at;
	free(lx.fr);
	free(lx.s);
	free(lx.cs);
	free(lx.pool);
	idset_free(&lx.consts);
	idset_free(&lx.enums);
	return 0;
}

int lex_buffer(const char *buf, size_t len, struct site_list *out)
{
	struct lex_scratch scratch = LEX_SCRATCH_INIT;
	int ret = lex_buffer_with(buf, len, out, &scratch);

	lex_scratch_release(&scratch);
	return ret;
}

void lex_scratch_release(struct lex_scratch *scratch)
{
	free(scratch->tok);
	scratch->tok = NULL;
	scratch->alloc = 0;
}

void site_list_clear(struct site_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].func);
		free(l->v[i].text);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
	l->alloc = 0;
}

bool path_in_scope(const char *path)
{
	static const char *const skip[] = {
		"tools/", "scripts/", "Documentation/", "usr/",
	};
	size_t i, n;

	if (!path)
		return false;
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	while (path[0] == '/')
		path++;
	n = strlen(path);
	if (n < 3 || path[n - 2] != '.' ||
	    (path[n - 1] != 'c' && path[n - 1] != 'h'))
		return false;
	for (i = 0; i < ARRAY_SIZE(skip); i++)
		if (!strncmp(path, skip[i], strlen(skip[i])))
			return false;
	return true;
}
