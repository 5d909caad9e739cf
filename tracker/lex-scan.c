// SPDX-License-Identifier: GPL-2.0
/*
 * lex-scan.c - pass 2 of the lexer, lex_scan(): one walk over the tokens
 * tracking brace nesting (function bodies, blocks, struct/union/enum
 * bodies, initializers), the enclosing function or macro, #define bodies,
 * conditional directives, statement starts and the const variables and
 * enumerators declared so far.  At each point where a rule may match it
 * calls a matcher of lex-match.c.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lex-internal.h"
#include "rules.h"
#include "util.h"

/*
 * The sets are open-addressed on fnv32() with linear probing, and keep
 * each name's hash: a set of a header's thousands of constant macros is
 * grown without hashing its names again, and a probe compares the bytes
 * only of a name with the same hash.  The slots are where they would be
 * without the stored hashes (lex-funcs.c emits some sets in slot order).
 */
static bool idset_find(const struct lexer *lx, const struct idset *set,
		       const char *s, size_t len, uint32_t h)
{
	size_t i, mask = set->cap - 1;

	for (i = h & mask; set->len[i]; i = (i + 1) & mask)
		if (set->hash[i] == h && set->len[i] == len &&
		    !memcmp(lx->buf + set->off[i], s, len))
			return true;
	return false;
}

bool lex_idset_has(const struct lexer *lx, const struct idset *set,
		   const char *s, size_t len)
{
	if (!set->cap)
		return false;
	return idset_find(lx, set, s, len, fnv32(s, len));
}

static void idset_put(struct idset *set, uint32_t off, uint32_t len,
		      uint32_t h)
{
	size_t i, mask = set->cap - 1;

	for (i = h & mask; set->len[i]; i = (i + 1) & mask)
		;
	set->off[i] = off;
	set->len[i] = len;
	set->hash[i] = h;
	set->n++;
}

void lex_idset_add(struct lexer *lx, struct idset *set, uint32_t off,
		   uint32_t len)
{
	uint32_t h = fnv32(lx->buf + off, len);

	if (set->cap && idset_find(lx, set, lx->buf + off, len, h))
		return;
	if ((set->n + 1) * 2 > set->cap) {
		struct idset old = *set;
		size_t j;

		set->cap = old.cap ? old.cap * 2 : 64;
		set->off = xcalloc(set->cap, sizeof(*set->off));
		set->len = xcalloc(set->cap, sizeof(*set->len));
		set->hash = xcalloc(set->cap, sizeof(*set->hash));
		set->n = 0;
		for (j = 0; j < old.cap; j++)	/* in slot order, as added */
			if (old.len[j])
				idset_put(set, old.off[j], old.len[j],
					  old.hash[j]);
		free(old.off);
		free(old.len);
		free(old.hash);
	}
	idset_put(set, off, len, h);
}

void lex_idset_free(struct idset *set)
{
	free(set->off);
	free(set->len);
	free(set->hash);
}

static void push_frame(struct lexer *lx, int kind)
{
	struct frame *f;

	ALLOC_GROW(lx->fr, lx->nfr + 1, lx->afr);
	f = &lx->fr[lx->nfr++];
	memset(f, 0, sizeof(*f));
	f->kind = (uint8_t)kind;
	f->paren = lx->st.paren;
	f->cur_dim = DIM_NONE;
	f->last_dim = DIM_NONE;
	f->want_enumerator = kind == F_ENUM;
}

static void open_brace(struct lexer *lx)
{
	struct frame *f = lex_top(lx);
	const struct tok *pv = lex_prev(lx);
	int kind;

	if (lx->st.tag == W_STRUCT) {
		kind = F_STRUCT;
	} else if (lx->st.tag == W_ENUM) {
		kind = F_ENUM;
	} else if (!f) {
		kind = F_OTHER;
		if (!lx->in_define && lx->st.cand >= 0 &&
		    lx->st.paren == 0 && pv &&
		    (is_punct(pv, P_RPAREN) || pv->type == T_IDENT)) {
			const struct tok *c = &lx->t[lx->st.cand];

			kind = F_FUNC;
			if (c->word >= 0)
				lex_drop_definition(lx, c->off);
			lex_funcs_begin(lx, (size_t)lx->st.cand);
			lx->st.func_off = c->off;
			lx->st.func_len = c->len;
			lx->st.real_func = true;
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
	if (f && f->kind == F_STRUCT && lx->st.paren == f->paren)
		f->cur_any = true;
	push_frame(lx, kind);
	lx->fr[lx->nfr - 1].is_union = kind == F_STRUCT && lx->st.tag_union;
	lx->st.tag = 0;
	lx->st.cand = -1;
	lx->st.stmt_start = true;
	lx->st.stmt_const = false;
	lx->st.stmt_rhs = false;
}

static void close_brace(struct lexer *lx)
{
	struct frame *f = lex_top(lx);

	if (!f || (lx->in_define && lx->nfr <= lx->save_nfr))
		return;
	if (f->kind == F_STRUCT)
		lex_struct_end(lx, f);
	lx->st.paren = f->paren;
	lx->nfr--;
	if (!lx->nfr && !lx->in_define) {
		lx->st.func_len = 0;
		lx->st.real_func = false;
	}
	lx->st.tag = 0;
	lx->st.cand = -1;
	lx->st.stmt_start = true;
	lx->st.stmt_const = false;
	lx->st.stmt_rhs = false;
}

static void define_begin(struct lexer *lx, size_t *ip)
{
	size_t i = *ip, n;

	lx->save = lx->st;
	lx->save_nfr = lx->nfr;
	lx->in_define = true;
	lx->st.func_len = 0;
	lx->st.real_func = false;
	lx->st.prev = -1;
	lx->st.tag = 0;
	lx->st.cand = -1;
	lx->st.stmt_start = false;
	lx->st.stmt_const = false;
	lx->st.stmt_rhs = false;

	n = next_sig(lx, i);
	if (n >= lx->nt || lx->t[n].type != T_IDENT)
		return;
	lx->st.func_off = lx->t[n].off;
	lx->st.func_len = lx->t[n].len;
	i = n;
	n = i + 1;	/* a parameter list follows the name directly */
	if (n < lx->nt && is_punct(&lx->t[n], P_LPAREN) &&
	    lx->t[n].off == lx->t[i].off + lx->t[i].len) {
		/* resume at the token after ')', or at the T_EOD */
		i = lex_skip_group(lx, n, lx->nt) - 1;
	} else if (lex_define_const(lx, i)) {
		lex_idset_add(lx, &lx->macros, lx->t[i].off, lx->t[i].len);
	}
	*ip = i;
}

static void define_end(struct lexer *lx)
{
	if (!lx->in_define)
		return;
	lx->nfr = lx->save_nfr;
	lx->st = lx->save;
	lx->in_define = false;
}

/* struct/union/enum tag: does token @t keep "a body may follow"? */
static void tag_update(struct lexer *lx, const struct tok *t)
{
	const struct tok *pv = lex_prev(lx);

	if (lx->st.paren > lx->st.tag_paren)
		return;			/* inside an attribute's parentheses */
	if (t->type == T_IDENT)
		return;
	if (is_punct(t, P_LBRACE))
		return;
	if (is_punct(t, P_LPAREN) && pv && pv->type == T_IDENT &&
	    pv->word >= 0 && pv->sub == W_ATTR)
		return;			/* struct __attribute__((...)) tag { */
	lx->st.tag = 0;
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
	s->paren = lx->st.paren;
	s->func_off = lx->st.func_off;
	s->func_len = lx->st.func_len;
	s->real_func = lx->st.real_func;
	s->skim_at = lx->skim_at;
}

static void snap_restore(struct lexer *lx, const struct snapshot *s)
{
	/*
	 * back into a brace opened before a body pass 1 skimmed: what walks
	 * back to where the function starts (lhs_scalar_pointer()) would
	 * miss that body's tokens; the buffer needs the full walk
	 */
	if (s->nfr && s->skim_at != lx->skim_at)
		lx->redo = true;
	ALLOC_GROW(lx->fr, s->nfr, lx->afr);
	if (s->nfr)
		memcpy(lx->fr, lx->pool + s->pool, s->nfr * sizeof(*lx->fr));
	lx->nfr = s->nfr;
	lx->st.paren = s->paren;
	lx->st.func_off = s->func_off;
	lx->st.func_len = s->func_len;
	lx->st.real_func = s->real_func;
	lx->st.cand = -1;
	lx->st.tag = 0;
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

/* Is the walk at the statement level of frame @f (NULL: file scope)? */
static inline bool at_stmt_level(const struct lexer *lx,
				 const struct frame *f)
{
	return lx->st.paren == (f ? f->paren : 0);
}

/*
 * Token @i is no code: a fall-through comment, or a directive (which may
 * move @i on to the end of a macro's parameter list).  False for code.
 */
static inline bool scan_marker(struct lexer *lx, size_t *ip)
{
	const struct tok *t = &lx->t[*ip];

	switch (t->type) {
	case T_FT:
		if (lex_ft_before_label(lx, *ip))
			lex_add_site(lx, RULE_FALLTHROUGH_COMMENT, t->off,
				     t->line);
		return true;
	case T_DEFINE:
		define_end(lx);
		define_begin(lx, ip);
		return true;
	case T_EOD:
		define_end(lx);
		return true;
	case T_COND:
		define_end(lx);
		conditional(lx, t->sub);
		return true;
	default:
		return false;
	}
}

/* A keyword or rule name at token @i: the matchers, the statement state. */
static inline void scan_word(struct lexer *lx, size_t i)
{
	const struct tok *t = &lx->t[i];

	if (lex_words.w[t->word].rules)
		lex_match_word(lx, i);
	switch (t->sub) {
	case W_STRUCT:
	case W_ENUM:
		lx->st.tag = t->sub;
		lx->st.tag_paren = lx->st.paren;
		lx->st.tag_union = t->len == 5 &&
				   !memcmp(lx->buf + t->off, "union", 5);
		break;
	case W_CONST:
		lx->st.stmt_const = true;
		break;
	case W_STMT:
		if (t->len == 4 && !memcmp(lx->buf + t->off, "else", 4))
			lx->st.stmt_start = true;
		else if (t->len == 2 && !memcmp(lx->buf + t->off, "do", 2))
			lx->st.stmt_start = true;
		break;
	default:
		break;
	}
}

/*
 * The identifier at token @i in frame @f: an enumerator, a const variable
 * declared, or the candidate function name at file scope.
 */
static inline void scan_ident(struct lexer *lx, struct frame *f, size_t i)
{
	const struct tok *t = &lx->t[i];
	size_t n;
	int sub;

	if (t->word >= 0)
		scan_word(lx, i);
	if (f && f->kind == F_ENUM && f->want_enumerator &&
	    lx->st.paren == f->paren) {
		lex_idset_add(lx, &lx->enums, t->off, t->len);
		f->want_enumerator = false;
	}
	/* the rest is about a name (no keyword) followed by a punctuator */
	if (t->word >= 0 && t->sub != W_NAME)
		return;
	n = next_sig(lx, i);
	if (n >= lx->nt || lx->t[n].type != T_PUNCT)
		return;
	sub = lx->t[n].sub;
	if (sub == P_LPAREN) {
		lex_funcs_call(lx, i, n);
		/* the last name( at file scope before the body */
		if (!f && !lx->in_define && lx->st.paren == 0)
			lx->st.cand = (long)i;
		return;
	}
	if (sub != P_ASSIGN && sub != P_SEMI && sub != P_COMMA &&
	    sub != P_LBRACK)
		return;
	if (lx->st.stmt_const && !lx->st.stmt_rhs && at_stmt_level(lx, f))
		lex_idset_add(lx, &lx->consts, t->off, t->len);
	/* a variable declared at file scope: "extern unsigned int nr_cpu_ids;" */
	if (!f && !lx->in_define && !lx->st.stmt_rhs && lx->st.paren == 0 &&
	    lx->st.prev >= 0 && (lx->t[lx->st.prev].type == T_IDENT ||
				 is_punct(&lx->t[lx->st.prev], P_STAR)))
		lex_idset_add(lx, &lx->vars, t->off, t->len);
	if (sub == P_ASSIGN && lx->st.prev >= 0 &&
	    is_punct(&lx->t[lx->st.prev], P_DOT))
		lex_funcs_member(lx, i, n);
}

/*
 * The skimmed body whose '{' is @t was just opened: when as a function
 * body, what its tokens would have given (the calls, in order, and the
 * const variables declared); else the buffer needs the full walk.
 */
static void skim_replay(struct lexer *lx, const struct tok *t)
{
	const struct frame *f = lex_top(lx);
	const struct skim_body *b;
	size_t k;

	if (lx->skim_at >= lx->nskb || !f || f->kind != F_FUNC ||
	    lx->nfr != 1 || lx->skb[lx->skim_at].lbrace != t->off) {
		lx->redo = true;
		return;
	}
	b = &lx->skb[lx->skim_at++];
	for (k = 0; k < b->ncall; k++)
		lex_funcs_call_name(lx, lx->skc[b->call + k].off,
				    lx->skc[b->call + k].len);
	for (k = 0; k < b->nkonst; k++)
		lex_idset_add(lx, &lx->consts, lx->skk[b->konst + k].off,
			      lx->skk[b->konst + k].len);
}

/* The punctuator @t in frame @f: parentheses, braces, statement ends. */
static inline void scan_punct(struct lexer *lx, struct frame *f,
			      const struct tok *t)
{
	switch (t->sub) {
	case P_LPAREN:
		if (!f && !lx->in_define && lx->st.paren == 0) {
			const struct tok *pv = lex_prev(lx);

			lx->st.macro_args = pv && pv->type == T_IDENT &&
				lex_all_upper(lx->buf + pv->off, pv->len);
		}
		lx->st.paren++;
		break;
	case P_RPAREN:
		if (lx->st.paren > (f ? f->paren : 0))
			lx->st.paren--;
		break;
	case P_LBRACE:
		open_brace(lx);
		if (__builtin_expect(tok_skimmed(t), 0))
			skim_replay(lx, t);
		break;
	case P_RBRACE:
		close_brace(lx);
		lex_funcs_brace(lx, t->line);
		break;
	case P_SEMI:
		if (at_stmt_level(lx, f)) {
			lx->st.stmt_start = true;
			lx->st.stmt_const = false;
			lx->st.stmt_rhs = false;
			if (!f)
				lx->st.cand = -1;
		}
		break;
	case P_COMMA:
		if (at_stmt_level(lx, f))
			lx->st.stmt_rhs = false;
		if (f && f->kind == F_ENUM && lx->st.paren == f->paren)
			f->want_enumerator = true;
		break;
	case P_ASSIGN:
		if (at_stmt_level(lx, f))
			lx->st.stmt_rhs = true;
		break;
	default:
		break;
	}
}

void lex_scan(struct lexer *lx)
{
	const struct tok *const tv = lx->t;
	const size_t nt = lx->nt;
	struct frame *f;
	size_t i;

	lx->st.prev = -1;
	lx->st.cand = -1;
	for (i = 0; i < nt; i++) {
		const struct tok *t = &tv[i];
		unsigned int type = t->type;
		bool start;

		/* the markers are the types after T_PUNCT */
		if (__builtin_expect(type > T_PUNCT, 0) && scan_marker(lx, &i)) {
			if (__builtin_expect(lx->redo, 0))
				return;
			continue;
		}

		start = lx->st.stmt_start;
		lx->st.stmt_start = false;
		f = lex_top(lx);
		if (__builtin_expect(lx->st.tag != 0, 0))
			tag_update(lx, t);
		if (f) {
			if (f->kind == F_STRUCT &&
			    (!lx->in_define || lx->nfr > lx->save_nfr))
				lex_struct_token(lx, f, i);
			/*
			 * at_stmt_level() and in_block_scope(); a statement
			 * that starts with no identifier, or with a keyword
			 * no declaration starts with, is no vla (the test
			 * vla_check() starts with, without the call)
			 */
			if (start && type == T_IDENT &&
			    lx->st.paren == f->paren && !lx->in_define &&
			    (f->kind == F_FUNC || f->kind == F_BLOCK) &&
			    (t->word < 0 || (t->sub != W_STMT &&
					     t->sub != W_SIZEOF &&
					     t->sub != W_ATTR)))
				lex_match_vla(lx, i);
		}

		if (type == T_IDENT) {
			scan_ident(lx, f, i);
		} else if (type == T_PUNCT) {
			scan_punct(lx, f, t);
			if (__builtin_expect(lx->redo, 0))
				return;
		} else if (type == T_STRING) {
			unsigned int k;

			for (k = 0; k < t->nump; k++)
				lex_add_site(lx, RULE_PRINTK_P, t->off,
					     t->line);
		}
		lx->st.prev = (long)i;
	}
	define_end(lx);
	while (lx->nfr) {	/* unbalanced: close what is open */
		f = lex_top(lx);
		if (f->kind == F_STRUCT)
			lex_struct_end(lx, f);
		lx->nfr--;
	}
}
