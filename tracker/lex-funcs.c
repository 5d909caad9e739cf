// SPDX-License-Identifier: GPL-2.0
/*
 * lex-funcs.c - the call graph facts of one buffer, for warn-on-user's
 * reachability (reach.h): the functions it defines (name, static or not,
 * first and last line), the direct calls in each body, and the entry
 * points it names (entry.def: ".sendmsg = f" initializers, attribute
 * macros, SYSCALL_DEFINEn).  lex_scan() calls the hooks below at a
 * function's '{' and '}', at "name(" and at ".member =".  lexer.c turns
 * the result into the text lexer.h describes (struct site_list.funcs).
 *
 * Calls are names: a static function is told from another of the same
 * name only at release level (reach.c), where the file is known.  Names
 * without a lower-case letter are macros by kernel convention and are not
 * recorded as calls.
 */
#include <stdlib.h>
#include <string.h>

#include "lex-internal.h"
#include "util.h"

/* The names with their lengths: tested against every "name(" and ".m =". */
static const struct {
	const char *name;
	size_t len;
} entry_members[] = {
#define ENTRY_MEMBER(m) { m, sizeof(m) - 1 },
#define ENTRY_MACRO(m, argno, suffix)
#define ENTRY_DEFINE(m, prefix)
#include "entry.def"
#undef ENTRY_MEMBER
#undef ENTRY_MACRO
#undef ENTRY_DEFINE
};

static const struct {
	const char *macro;
	size_t len;
	int argno;
	const char *suffix;
} entry_macros[] = {
#define ENTRY_MEMBER(m)
#define ENTRY_MACRO(m, argno, suffix) { m, sizeof(m) - 1, argno, suffix },
#define ENTRY_DEFINE(m, prefix)
#include "entry.def"
#undef ENTRY_MEMBER
#undef ENTRY_MACRO
#undef ENTRY_DEFINE
};

static const struct {
	const char *macro;
	size_t len;
	const char *prefix;
} entry_defines[] = {
#define ENTRY_MEMBER(m)
#define ENTRY_MACRO(m, argno, suffix)
#define ENTRY_DEFINE(m, prefix) { m, sizeof(m) - 1, prefix },
#include "entry.def"
#undef ENTRY_MEMBER
#undef ENTRY_MACRO
#undef ENTRY_DEFINE
};

struct fx_func {
	uint32_t name, line, end, calls, ncalls;
	bool is_static;
};

struct fx_name {
	uint32_t off, len, hash;	/* in lex_fx.pool; hash_mem32() */
};

struct fx_ref {
	uint32_t kind, name, line;
};

struct lex_fx {
	struct sbuf pool;		/* the names, each NUL-terminated */
	struct fx_name *names;		/* name i */
	size_t nn, an;
	uint32_t *slot;			/* hash: name index + 1, 0 empty */
	size_t cap;
	struct fx_func *fn;
	size_t nf, af;
	uint32_t *calls;
	size_t nc, ac;
	struct fx_ref *ref;
	size_t nr, ar;
	bool open;			/* fn[nf - 1]'s body is open */
};

static struct lex_fx *fx_get(struct lexer *lx)
{
	if (!lx->fx)
		lx->fx = xcalloc(1, sizeof(*lx->fx));
	return lx->fx;
}

static void fx_rehash(struct lex_fx *fx)
{
	size_t i, j, mask;

	free(fx->slot);
	fx->cap = fx->cap ? fx->cap * 2 : 256;
	fx->slot = xcalloc(fx->cap, sizeof(*fx->slot));
	mask = fx->cap - 1;
	for (i = 0; i < fx->nn; i++) {
		for (j = fx->names[i].hash & mask; fx->slot[j];
		     j = (j + 1) & mask)
			;
		fx->slot[j] = (uint32_t)i + 1;
	}
}

/* The index of name @s (@len bytes), added when new. */
static uint32_t name_id(struct lex_fx *fx, const char *s, size_t len)
{
	uint32_t h = hash_mem32(s, len);
	struct fx_name *nm;
	size_t j, mask;

	if ((fx->nn + 1) * 2 > fx->cap)
		fx_rehash(fx);
	mask = fx->cap - 1;
	for (j = h & mask; fx->slot[j]; j = (j + 1) & mask) {
		nm = &fx->names[fx->slot[j] - 1];
		if (nm->hash == h && nm->len == len &&
		    !memcmp(fx->pool.buf + nm->off, s, len))
			return fx->slot[j] - 1;
	}
	ALLOC_GROW(fx->names, fx->nn + 1, fx->an);
	nm = &fx->names[fx->nn];
	nm->off = (uint32_t)fx->pool.len;
	nm->len = (uint32_t)len;
	nm->hash = h;
	sbuf_add(&fx->pool, s, len);
	sbuf_addch(&fx->pool, '\0');
	fx->slot[j] = (uint32_t)++fx->nn;
	return (uint32_t)fx->nn - 1;
}

static uint32_t tok_name(struct lexer *lx, size_t i)
{
	return name_id(fx_get(lx), lx->buf + lx->t[i].off, lx->t[i].len);
}

/* Token @i is the @n bytes at @s (the tables keep their lengths). */
static bool tok_eq(const struct lexer *lx, size_t i, const char *s, size_t n)
{
	return lx->t[i].len == n && !memcmp(lx->buf + lx->t[i].off, s, n);
}

static bool tok_is(const struct lexer *lx, size_t i, const char *s)
{
	return tok_eq(lx, i, s, strlen(s));
}

static void add_ref(struct lexer *lx, uint32_t kind, uint32_t name,
		    unsigned int line)
{
	struct lex_fx *fx = fx_get(lx);

	ALLOC_GROW(fx->ref, fx->nr + 1, fx->ar);
	fx->ref[fx->nr].kind = kind;
	fx->ref[fx->nr].name = name;
	fx->ref[fx->nr].line = line;
	fx->nr++;
}

/* Close the open function at line @end: its calls sorted, each once. */
static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort @n ids: most functions call a handful of names, qsort() above that. */
static void sort_u32(uint32_t *v, size_t n)
{
	size_t i, j;

	if (n > 16) {
		qsort(v, n, sizeof(*v), cmp_u32);
		return;
	}
	for (i = 1; i < n; i++) {
		uint32_t x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void fx_close(struct lex_fx *fx, unsigned int end)
{
	struct fx_func *f;
	uint32_t *c;
	size_t i, m;

	if (!fx->open)
		return;
	fx->open = false;
	f = &fx->fn[fx->nf - 1];
	f->end = end > f->line ? end : f->line;
	if (f->ncalls > 1) {
		c = fx->calls + f->calls;
		sort_u32(c, f->ncalls);
		for (i = m = 1; i < f->ncalls; i++)
			if (c[i] != c[m - 1])
				c[m++] = c[i];
		f->ncalls = (uint32_t)m;
		fx->nc = f->calls + m;
	}
}

/* Is the declaration that ends at token @i (exclusive) "static"? */
static bool decl_static(const struct lexer *lx, size_t i)
{
	while (i-- > 0) {
		const struct tok *t = &lx->t[i];

		if (t->type == T_EOD || t->type == T_DEFINE || t->type == T_COND)
			return false;
		if (t->type == T_PUNCT && (t->sub == P_SEMI ||
					   t->sub == P_RBRACE ||
					   t->sub == P_LBRACE))
			return false;
		if (t->type == T_IDENT && tok_is(lx, i, "static"))
			return true;
	}
	return false;
}

void lex_funcs_begin(struct lexer *lx, size_t cand)
{
	struct lex_fx *fx = fx_get(lx);
	const struct tok *c = &lx->t[cand];
	struct fx_func *f;
	uint32_t name = UINT32_MAX;
	size_t k, lp, arg;

	fx_close(fx, c->line > 1 ? c->line - 1 : 1);
	for (k = 0; k < ARRAY_SIZE(entry_defines); k++) {
		size_t n = entry_defines[k].len;

		if (c->len != n + 1 || memcmp(lx->buf + c->off,
					      entry_defines[k].macro, n) ||
		    lx->buf[c->off + n] < '0' || lx->buf[c->off + n] > '9')
			continue;
		lp = next_sig(lx, cand);
		arg = lp < lx->nt ? next_sig(lx, lp) : lp;
		if (arg < lx->nt && lx->t[arg].type == T_IDENT) {
			struct sbuf sb = SBUF_INIT;

			sbuf_addstr(&sb, entry_defines[k].prefix);
			sbuf_add(&sb, lx->buf + lx->t[arg].off, lx->t[arg].len);
			name = name_id(fx, sb.buf, sb.len);
			sbuf_release(&sb);
			add_ref(lx, tok_name(lx, cand), name, c->line);
		}
		break;
	}
	if (name == UINT32_MAX)
		name = tok_name(lx, cand);
	ALLOC_GROW(fx->fn, fx->nf + 1, fx->af);
	f = &fx->fn[fx->nf++];
	f->name = name;
	f->line = c->line;
	f->end = c->line;
	f->calls = (uint32_t)fx->nc;
	f->ncalls = 0;
	f->is_static = decl_static(lx, cand);
	fx->open = true;
}

void lex_funcs_brace(struct lexer *lx, unsigned int line)
{
	if (lx->fx && lx->fx->open && !lx->nfr && !lx->in_define)
		fx_close(lx->fx, line);
}

/* An entry macro at token @i outside function bodies, '(' at @lp. */
static void entry_macro(struct lexer *lx, size_t i, size_t lp)
{
	const struct tok *t = &lx->t[i];
	size_t k, a, b;

	if (t->len < 6 || (lx->buf[t->off] != '_' &&
			   (lx->buf[t->off] < 'A' || lx->buf[t->off] > 'Z')))
		return;
	for (k = 0; k < ARRAY_SIZE(entry_macros); k++) {
		struct sbuf sb = SBUF_INIT;

		if (!tok_eq(lx, i, entry_macros[k].macro, entry_macros[k].len))
			continue;
		if (!lex_call_arg(lx, lp, entry_macros[k].argno, &a, &b))
			return;
		while (a < b && lx->t[a].type == T_FT)
			a++;
		if (a + 1 != b || lx->t[a].type != T_IDENT ||
		    lex_all_upper(lx->buf + lx->t[a].off, lx->t[a].len))
			return;
		sbuf_add(&sb, lx->buf + lx->t[a].off, lx->t[a].len);
		sbuf_addstr(&sb, entry_macros[k].suffix);
		add_ref(lx, tok_name(lx, i), name_id(fx_get(lx), sb.buf, sb.len),
			t->line);
		sbuf_release(&sb);
		return;
	}
}

void lex_funcs_call(struct lexer *lx, size_t i, size_t lp)
{
	const struct tok *t = &lx->t[i];
	const struct tok *pv = lex_prev(lx);
	struct lex_fx *fx;

	if (lx->in_define)
		return;
	if (!lx->st.real_func) {
		entry_macro(lx, i, lp);
		return;
	}
	fx = lx->fx;
	if (!fx || !fx->open)
		return;
	if (pv && pv->type == T_PUNCT && (pv->sub == P_DOT ||
					  pv->sub == P_ARROW ||
					  pv->sub == P_HASHHASH))
		return;
	if (lex_all_upper(lx->buf + t->off, t->len))
		return;
	ALLOC_GROW(fx->calls, fx->nc + 1, fx->ac);
	fx->calls[fx->nc++] = tok_name(lx, i);
	fx->fn[fx->nf - 1].ncalls++;
}

void lex_funcs_member(struct lexer *lx, size_t i, size_t eq)
{
	const struct tok *pv = lex_prev(lx);
	size_t k, v, after;

	if (lx->in_define || !pv || !is_punct(pv, P_DOT))
		return;
	for (k = 0; k < ARRAY_SIZE(entry_members); k++)
		if (tok_eq(lx, i, entry_members[k].name, entry_members[k].len))
			break;
	if (k == ARRAY_SIZE(entry_members))
		return;
	v = next_sig(lx, eq);
	if (v < lx->nt && lx->t[v].type == T_PUNCT &&
	    lx->t[v].len == 1 && lx->buf[lx->t[v].off] == '&')
		v = next_sig(lx, v);
	if (v >= lx->nt || lx->t[v].type != T_IDENT ||
	    (lx->t[v].word >= 0 && lx->t[v].sub != W_NAME) ||
	    lex_all_upper(lx->buf + lx->t[v].off, lx->t[v].len))
		return;
	after = next_sig(lx, v);
	if (after < lx->nt && !(is_punct(&lx->t[after], P_COMMA) ||
				is_punct(&lx->t[after], P_RBRACE) ||
				is_punct(&lx->t[after], P_SEMI) ||
				lx->t[after].type == T_COND))
		return;
	{
		struct sbuf sb = SBUF_INIT;
		uint32_t kind;

		sbuf_addch(&sb, '.');
		sbuf_add(&sb, lx->buf + lx->t[i].off, lx->t[i].len);
		kind = name_id(fx_get(lx), sb.buf, sb.len);
		sbuf_release(&sb);
		add_ref(lx, kind, tok_name(lx, v), lx->t[i].line);
	}
}

/* " N": a blank and @v in decimal, without the printf machinery. */
static void add_num(struct sbuf *sb, uint32_t v)
{
	char buf[12], *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	*--p = ' ';
	sbuf_add(sb, p, (size_t)(buf + sizeof(buf) - p));
}

/*
 * The "k" record's identifiers of @set, in slot order.  A vla size's
 * all-upper-case names are constants anyway, so only a name with a
 * lower-case letter can be a site's dependency: upper-case enumerators
 * stay out (lex_define_const() records no upper-case macro at all).
 */
static void emit_idset(const struct lexer *lx, const struct idset *set,
		       struct sbuf *sb)
{
	size_t i;

	for (i = 0; i < set->cap; i++) {
		if (!set->len[i] ||
		    lex_all_upper(lx->buf + set->off[i], set->len[i]) ||
		    lex_idset_has(lx, &lx->vars, lx->buf + set->off[i],
				  set->len[i]))
			continue;
		sbuf_addch(sb, ' ');
		sbuf_add(sb, lx->buf + set->off[i], set->len[i]);
	}
}

/*
 * The "k" record (lexer.h): the buffer's enumerators and constant macros;
 * a "d" record for each macro constant when some names are.
 */
static void emit_consts(const struct lexer *lx, struct sbuf *sb)
{
	size_t i, at = sb->len;

	sbuf_addstr(sb, "k");
	emit_idset(lx, &lx->enums, sb);
	emit_idset(lx, &lx->macros, sb);
	if (sb->len == at + 1) {
		sb->len = at;		/* none: no record */
		sb->buf[at] = '\0';
	} else {
		sbuf_addch(sb, '\n');
	}
	for (i = 0; i < lx->ndm; i++) {
		const struct dmacro *m = &lx->dm[i];

		if (lex_idset_has(lx, &lx->vars, lx->buf + m->off, m->len))
			continue;
		sbuf_addstr(sb, "d ");
		sbuf_add(sb, lx->buf + m->off, m->len);
		sbuf_addch(sb, ' ');
		sbuf_add(sb, lx->deps.buf + m->dep_off, m->dep_len);
		sbuf_addch(sb, '\n');
	}
}

char *lex_funcs_emit(struct lexer *lx)
{
	struct lex_fx *fx = lx->fx;
	struct sbuf sb = SBUF_INIT;
	size_t i, j;

	if (fx)
		fx_close(fx, lx->nt ? lx->t[lx->nt - 1].line : 1);
	if (!fx || (!fx->nf && !fx->nr)) {
		emit_consts(lx, &sb);
		if (sb.len)
			return sbuf_detach(&sb);
		sbuf_release(&sb);
		return NULL;
	}
	sbuf_addstr(&sb, "n");
	for (i = 0; i < fx->nn; i++) {
		sbuf_addch(&sb, ' ');
		sbuf_add(&sb, fx->pool.buf + fx->names[i].off,
			 fx->names[i].len);
	}
	sbuf_addch(&sb, '\n');
	for (i = 0; i < fx->nf; i++) {
		const struct fx_func *f = &fx->fn[i];

		sbuf_addch(&sb, 'f');
		add_num(&sb, f->name);
		add_num(&sb, f->line);
		add_num(&sb, f->end);
		add_num(&sb, f->is_static ? 1 : 0);
		for (j = 0; j < f->ncalls; j++)
			add_num(&sb, fx->calls[f->calls + j]);
		sbuf_addch(&sb, '\n');
	}
	for (i = 0; i < fx->nr; i++) {
		sbuf_addch(&sb, 'e');
		add_num(&sb, fx->ref[i].kind);
		add_num(&sb, fx->ref[i].name);
		add_num(&sb, fx->ref[i].line);
		sbuf_addch(&sb, '\n');
	}
	emit_consts(lx, &sb);
	return sbuf_detach(&sb);
}

void lex_funcs_free(struct lexer *lx)
{
	struct lex_fx *fx = lx->fx;

	if (!fx)
		return;
	sbuf_release(&fx->pool);
	free(fx->names);
	free(fx->slot);
	free(fx->fn);
	free(fx->calls);
	free(fx->ref);
	free(fx);
	lx->fx = NULL;
}
