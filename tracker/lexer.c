// SPDX-License-Identifier: GPL-2.0
/*
 * lexer.c - find deprecated-API use sites in one C source buffer: the
 * entry points of lexer.h.
 *
 * Two passes over one buffer, no preprocessing (lex-internal.h lists the
 * files):
 *
 *  1. lex_tokenize() (lex-token.c): comments, string and character
 *     literals, numbers, identifiers and punctuators, with line numbers;
 *     #define bodies and conditional directives are marked by tokens.
 *
 *  2. lex_scan() (lex-scan.c): one walk over the tokens tracking brace
 *     nesting, the enclosing function or macro and the state each rule
 *     needs; the matchers (lex-match.c) record sites.
 *
 * Here the sites are put in order of position and turned into struct
 * site, with their function and their whitespace-normalised line.
 *
 * Every table is either constant or built once under pthread_once(), so
 * lex_buffer() can run in several threads at once.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lex-internal.h"
#include "lexer.h"
#include "util.h"

static pthread_once_t words_once = PTHREAD_ONCE_INIT;

static int tsite_cmp(const void *a, const void *b)
{
	const struct tsite *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The longest use whose lines are joined into its text (emit_sites()). */
#define USE_MAX_LINES 16

/* Index of the token at byte @off, or lx->nt when none starts there. */
static size_t tok_at(const struct lexer *lx, size_t off)
{
	size_t lo = 0, hi = lx->nt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (lx->t[mid].off == off)
			return mid;
		if (lx->t[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lx->nt;
}

/*
 * The token of the ')' that closes the group open at token @i (a '('
 * then, or the group @i is in when @inside), if it is on one of the
 * USE_MAX_LINES lines from @line on; else lx->nt.  A #define's end
 * closes nothing.
 */
static size_t close_paren(const struct lexer *lx, size_t i, bool inside,
			  unsigned int line, bool *skim)
{
	int depth = inside ? 1 : 0;

	for (; i < lx->nt; i++) {
		const struct tok *t = &lx->t[i];
		int d = tok_nesting(t);

		if (t->line - line >= USE_MAX_LINES || t->type == T_EOD ||
		    t->type == T_DEFINE)
			break;
		if (d > 0) {
			if (tok_skimmed(t))
				*skim = true;
			depth++;
		} else if (d < 0) {
			if (--depth == 0)
				return t->sub == P_RPAREN ? i : lx->nt;
			if (depth < 0)
				break;
		} else if (is_punct(t, P_SEMI) && depth <= 1) {
			break;	/* a statement ended: the group never closes */
		}
	}
	return lx->nt;
}

/*
 * The name of the call whose arguments hold the string literal @i (a
 * printk-p format), when it is on one of the USE_MAX_LINES lines up to
 * @i's: the walk back stays in one statement, one #define and one block
 * (it stops at any brace: a skimmed body is braces alone, so the walk
 * reads the same tokens skimmed or lexed in full); else lx->nt.
 */
static size_t call_name(const struct lexer *lx, size_t i, bool *skim)
{
	unsigned int line = lx->t[i].line;
	int depth = 0;

	while (i-- > 0) {
		const struct tok *t = &lx->t[i];
		int d = tok_nesting(t);

		if (line - t->line >= USE_MAX_LINES || t->type == T_EOD ||
		    t->type == T_DEFINE)
			break;
		if (tok_skimmed(t)) {
			*skim = true;
			break;
		}
		if (is_punct(t, P_LBRACE) || is_punct(t, P_RBRACE))
			break;	/* a block or an initializer: in no call */
		if (d < 0) {
			depth++;
		} else if (d > 0 && depth) {
			depth--;
		} else if (d > 0) {
			if (t->sub != P_LPAREN)
				break;
			while (i-- > 0 && lx->t[i].type == T_FT)
				;
			return i < lx->nt && lx->t[i].type == T_IDENT ? i :
			       lx->nt;
		} else if (is_punct(t, P_SEMI) && !depth) {
			break;	/* a statement ended: in no call */
		}
	}
	return lx->nt;
}

/*
 * The tokens [*@first, *@last] of the use at @s when it spans lines, and
 * true; false when it is its own line.  A use at a call's name spans
 * from its line to that of the call's ')'; a printk-p format among a
 * call's arguments from the line of the call's name to that of its ')',
 * so that a call re-wrapped before its format is the same use.  At most
 * USE_MAX_LINES lines; whole lines.
 */
static bool use_span(const struct lexer *lx, const struct tsite *s,
		     size_t *first, size_t *last, bool *skim)
{
	size_t i = tok_at(lx, s->off), n, c, start;
	unsigned int line = s->line;
	const char *b = lx->buf, *ls;

	if (i >= lx->nt)
		return false;
	start = i;
	if (lx->t[i].type == T_IDENT) {
		n = next_sig(lx, i);
		if (n >= lx->nt || !is_punct(&lx->t[n], P_LPAREN))
			return false;
		c = close_paren(lx, n, false, line, skim);
	} else if (lx->t[i].type == T_STRING) {
		n = call_name(lx, i, skim);
		if (n < lx->nt) {
			start = n;
			line = lx->t[n].line;
		}
		c = close_paren(lx, i + 1, true, line, skim);
	} else {
		return false;
	}
	if (c >= lx->nt || lx->t[c].line <= s->line)
		c = i;	/* no ')' on a later line */
	if (lx->t[c].line == lx->t[start].line)
		return false;
	ls = b + lx->t[start].off;
	while (ls > b && ls[-1] != '\n')
		ls--;
	*first = start;
	while (*first > 0 && lx->t[*first - 1].off >= (size_t)(ls - b))
		(*first)--;
	*last = c;
	while (*last + 1 < lx->nt &&
	       lx->t[*last + 1].line == lx->t[*last].line &&
	       lx->t[*last + 1].type != T_EOD)
		(*last)++;
	return true;
}

/*
 * The whitespace-normalised text of the tokens from @first to @last, a
 * use that spans lines: its code without the comments, directives or
 * backslash-newlines between, so that the lines read as one; a blank
 * where the source has anything between two tokens.
 */
static char *joined_text(const struct lexer *lx, size_t first, size_t last)
{
	struct sbuf sb = SBUF_INIT;
	uint32_t end = lx->t[first].off;
	size_t i;
	char *text;

	for (i = first; i <= last; i++) {
		const struct tok *t = &lx->t[i];

		if (t->type == T_FT || t->type == T_EOD || t->type == T_COND)
			continue;
		if (sb.len && t->off > end)
			sbuf_addch(&sb, ' ');
		sbuf_add(&sb, lx->buf + t->off, t->len);
		end = t->off + t->len;
	}
	text = normalize_ws(sb.buf ? sb.buf : "", sb.len);
	sbuf_release(&sb);
	return text;
}

/*
 * Would a site's text (emit_sites()) take tokens of a body pass 1
 * skimmed (lex-token.c), which lexing in full has and skimming has not:
 * a use that spans lines sharing a line with the body, or whose ')' is
 * looked for in it?  The buffer is then lexed again in full.
 */
static bool sites_skimmed(const struct lexer *lx)
{
	size_t i, k, first, last;

	for (i = 0; i < lx->ns; i++) {
		bool skim = false;

		if (!use_span(lx, &lx->s[i], &first, &last, &skim)) {
			if (skim)
				return true;
			continue;
		}
		if (skim)
			return true;
		for (k = first ? first - 1 : 0; k <= last; k++)
			if (tok_skimmed(&lx->t[k]))
				return true;
	}
	return false;
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
		bool skim = false;
		size_t first, last;

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
		if (use_span(lx, s, &first, &last, &skim)) {
			o->text = joined_text(lx, first, last);
		} else {
			o->text = normalize_ws(ls, (size_t)(le - ls));
		}
		o->deps = s->dep_len ? xstrndup(lx->deps.buf + s->dep_off,
						s->dep_len) : NULL;
	}
}

void lex_tok_reserve(struct lexer *lx, size_t want)
{
	size_t n;

	if (want <= lx->at)
		return;
	n = lx->at ? lx->at * 2 : 16;
	if (n < want)
		n = want;
	lx->t = big_realloc(lx->t, lx->at * sizeof(*lx->t), n * sizeof(*lx->t));
	lx->at = n;
}

/* The largest token array lex_buffer_with() keeps for the next call. */
#define LEX_SCRATCH_KEEP ((size_t)4 << 20)

/*
 * What a lexer keeps from one buffer to the next (struct lex_scratch's
 * keep, a struct lexer holding nothing else): its arrays, emptied.  A
 * buffer's lexing grows a dozen arrays from nothing, some 50 allocations
 * a file; the scan's workers share one malloc arena with the writing
 * thread (scan.c), and waited on its lock (issue 20, bench/README's
 * twenty-second round).  An array of more than LEX_KEEP_BYTES (a giant
 * blob's) is freed instead, as the token array is past LEX_SCRATCH_KEEP.
 * The identifier sets are not kept: their facts are written in slot
 * order, which depends on the table's growth.
 *
 * LEX_KEPT(X) names each kept array of struct lexer and its capacity;
 * lex_adopt(), lex_release() and lex_scratch_release() expand it.
 */
#define LEX_KEPT(X)							\
	X(fr, afr) X(pool, apool) X(s, as) X(cs, acs) X(dm, adm)	\
	X(skb, askb) X(skc, askc) X(skk, askk)

/* Give @lx the arrays @scratch keeps, emptied. */
static void lex_adopt(struct lexer *lx, struct lex_scratch *scratch)
{
	struct lexer *k = scratch->keep;

	if (!k)
		return;
#define ADOPT(p, a) do { lx->p = k->p; lx->a = k->a; } while (0);
	LEX_KEPT(ADOPT)
#undef ADOPT
	lx->deps = k->deps;
	sbuf_reset(&lx->deps);
	lx->fx_spare = k->fx_spare;
	memset(k, 0, sizeof(*k));
}

/* Both passes over @buf into @lx, skimming function bodies unless @full. */
static void lex_passes(struct lexer *lx, const char *buf, size_t len,
		       struct lex_scratch *scratch, bool full)
{
	memset(lx, 0, sizeof(*lx));
	lex_adopt(lx, scratch);
	lx->buf = buf;
	lx->len = len;
	lx->full = full;
	lx->st.cand = -1;
	lx->st.prev = -1;
	/* the token array is reused from call to call: no page faults */
	lx->t = scratch->tok;
	lx->at = scratch->alloc;
	if (len)
		lex_tok_reserve(lx, len / 4 + 64);
	lex_tokenize(lx);
	lex_scan(lx);
	scratch->tok = lx->t;
	scratch->alloc = lx->at;
}

/*
 * Free what @lx holds but the token array (the scratch's) and, into
 * @scratch's keep, the arrays lex_adopt() gives the next call.
 */
static void lex_release(struct lexer *lx, struct lex_scratch *scratch)
{
	struct lexer *k = scratch->keep;	/* emptied by lex_adopt() */

	if (!k)
		k = scratch->keep = xcalloc(1, sizeof(*k));
	lex_funcs_keep(lx, &k->fx_spare);
#define KEEP(p, a) do {							\
		if (lx->a * sizeof(*lx->p) <= LEX_KEEP_BYTES) {		\
			k->p = lx->p;					\
			k->a = lx->a;					\
		} else {						\
			free(lx->p);					\
		}							\
	} while (0);
	LEX_KEPT(KEEP)
#undef KEEP
	if (lx->deps.alloc <= LEX_KEEP_BYTES)
		k->deps = lx->deps;
	else
		sbuf_release(&lx->deps);
	lex_idset_free(&lx->consts);
	lex_idset_free(&lx->enums);
	lex_idset_free(&lx->macros);
	lex_idset_free(&lx->dmacros);
	lex_idset_free(&lx->vars);
}

int lex_buffer_with(const char *buf, size_t len, struct site_list *out,
		    struct lex_scratch *scratch)
{
	struct lexer lx;

	if ((!buf && len) || !out || len >= UINT32_MAX || !scratch)
		return KMIG_EGENERIC;
	pthread_once(&words_once, lex_words_init);

	lex_passes(&lx, buf, len, scratch, scratch->full);
	if (lx.redo || (lx.nskb && sites_skimmed(&lx))) {
		/* a skimmed body pass 2 did not open as a function, or a
		 * site's text would need its tokens */
		lex_release(&lx, scratch);
		lex_passes(&lx, buf, len, scratch, true);
		scratch->relexed++;
	}
	scratch->skimmed += lx.nskb;
	scratch->skimmed_bytes += lx.skim_bytes;
	emit_sites(&lx, out);
	free(out->funcs);
	out->funcs = lex_funcs_emit(&lx);

	/*
	 * A giant blob (the amd register headers are up to 24 MB, millions
	 * of tokens) would keep its token array resident for the rest of
	 * the scan: give it back, the next giant one faults in its own.
	 */
	if (lx.at * sizeof(*lx.t) > LEX_SCRATCH_KEEP)
		lex_scratch_release(scratch);
	lex_release(&lx, scratch);
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
	struct lexer *k = scratch->keep;

	big_free(scratch->tok, scratch->alloc * sizeof(struct tok));
	scratch->tok = NULL;
	scratch->alloc = 0;
	if (!k)
		return;
#define FREE(p, a) free(k->p);
	LEX_KEPT(FREE)
#undef FREE
	sbuf_release(&k->deps);
	lex_funcs_keep_free(k->fx_spare);
	free(k);
	scratch->keep = NULL;
}

void site_list_clear(struct site_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].func);
		free(l->v[i].text);
		free(l->v[i].deps);
	}
	free(l->v);
	free(l->funcs);
	l->funcs = NULL;
	l->v = NULL;
	l->n = 0;
	l->alloc = 0;
}
