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
	uint32_t mark;			/* called in fn[mark - 1]; 0 none */
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
	if (!lx->fx) {
		lx->fx = lx->fx_spare ? lx->fx_spare :
					xcalloc(1, sizeof(*lx->fx));
		lx->fx_spare = NULL;
	}
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
	nm->mark = 0;
	/* the name and its NUL, the pool NUL-terminated as an sbuf */
	sbuf_grow(&fx->pool, len + 1);
	memcpy(fx->pool.buf + fx->pool.len, s, len);
	fx->pool.len += len + 1;
	fx->pool.buf[fx->pool.len - 1] = '\0';
	fx->pool.buf[fx->pool.len] = '\0';
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

/* Move v[i] down the max-heap v[0..n) to its place. */
static void sift_u32(uint32_t *v, size_t i, size_t n)
{
	uint32_t x = v[i];
	size_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && v[c + 1] > v[c])
			c++;
		if (v[c] <= x)
			break;
		v[i] = v[c];
		i = c;
	}
	v[i] = x;
}

/*
 * Sort @n ids: most functions call a handful of names, a heap sort above
 * that (in place, no comparison calls, nothing allocated).
 */
static void sort_u32(uint32_t *v, size_t n)
{
	size_t i, j;

	if (n > 16) {
		for (i = n / 2; i-- > 0;)
			sift_u32(v, i, n);
		for (i = n - 1; i > 0; i--) {
			uint32_t x = v[0];

			v[0] = v[i];
			v[i] = x;
			sift_u32(v, 0, i);
		}
		return;
	}
	for (i = 1; i < n; i++) {
		uint32_t x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * Close the open function at line @end: its calls sorted (each is there
 * once, lex_funcs_call() keeps no name twice).
 */
static void fx_close(struct lex_fx *fx, unsigned int end)
{
	struct fx_func *f;

	if (!fx->open)
		return;
	fx->open = false;
	f = &fx->fn[fx->nf - 1];
	f->end = end > f->line ? end : f->line;
	if (f->ncalls > 1)
		sort_u32(fx->calls + f->calls, f->ncalls);
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

/* The open function calls the name @s (@len bytes): once each. */
static void fx_call(struct lex_fx *fx, const char *s, size_t len)
{
	uint32_t id;

	if (lex_all_upper(s, len))
		return;
	id = name_id(fx, s, len);
	if (fx->names[id].mark == fx->nf)
		return;			/* called before in this function */
	fx->names[id].mark = (uint32_t)fx->nf;
	ALLOC_GROW(fx->calls, fx->nc + 1, fx->ac);
	fx->calls[fx->nc++] = id;
	fx->fn[fx->nf - 1].ncalls++;
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
	fx_call(fx, lx->buf + t->off, t->len);
}

void lex_funcs_call_name(struct lexer *lx, uint32_t off, uint32_t len)
{
	if (lx->in_define || !lx->st.real_func || !lx->fx || !lx->fx->open)
		return;
	fx_call(lx->fx, lx->buf + off, len);
}

bool lex_entry_member(const char *s, size_t len)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(entry_members); k++)
		if (entry_members[k].len == len &&
		    !memcmp(s, entry_members[k].name, len))
			return true;
	return false;
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

/* The most bytes put_num() writes: a blank and 10 digits. */
#define NUM_MAX 11

/*
 * " N": a blank and @v in decimal at @p, without the printf machinery;
 * returns the end (the caller made room for NUM_MAX bytes).
 */
static char *put_num(char *p, uint32_t v)
{
	char *end = p + 2;
	uint32_t x;

	*p = ' ';
	for (x = v / 10; x; x /= 10)
		end++;
	p = end;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
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
	char *p;

	if (fx)
		fx_close(fx, lx->nt ? lx->t[lx->nt - 1].line : 1);
	if (!fx || (!fx->nf && !fx->nr)) {
		emit_consts(lx, &sb);
		if (sb.len)
			return sbuf_detach(&sb);
		sbuf_release(&sb);
		return NULL;
	}
	/*
	 * "n" and the names in id order: the pool is just those, each
	 * with a NUL where the record has the blank before the next one.
	 */
	sbuf_grow(&sb, fx->pool.len + 2);
	p = sb.buf;
	*p++ = 'n';
	if (fx->nn) {
		*p++ = ' ';
		memcpy(p, fx->pool.buf, fx->pool.len - 1);
		for (i = 0; i + 1 < fx->nn; i++)
			p[fx->names[i].off + fx->names[i].len] = ' ';
		p += fx->pool.len - 1;
	}
	*p++ = '\n';
	sb.len = (size_t)(p - sb.buf);
	for (i = 0; i < fx->nf; i++) {
		const struct fx_func *f = &fx->fn[i];

		sbuf_grow(&sb, 2 + NUM_MAX * (4 + (size_t)f->ncalls));
		p = sb.buf + sb.len;
		*p++ = 'f';
		p = put_num(p, f->name);
		p = put_num(p, f->line);
		p = put_num(p, f->end);
		p = put_num(p, f->is_static ? 1 : 0);
		for (j = 0; j < f->ncalls; j++)
			p = put_num(p, fx->calls[f->calls + j]);
		*p++ = '\n';
		sb.len = (size_t)(p - sb.buf);
	}
	for (i = 0; i < fx->nr; i++) {
		sbuf_grow(&sb, 2 + NUM_MAX * 3);
		p = sb.buf + sb.len;
		*p++ = 'e';
		p = put_num(p, fx->ref[i].kind);
		p = put_num(p, fx->ref[i].name);
		p = put_num(p, fx->ref[i].line);
		*p++ = '\n';
		sb.len = (size_t)(p - sb.buf);
	}
	sb.buf[sb.len] = '\0';
	emit_consts(lx, &sb);
	return sbuf_detach(&sb);
}

void lex_funcs_keep_free(struct lex_fx *fx)
{
	if (!fx)
		return;
	sbuf_release(&fx->pool);
	free(fx->names);
	free(fx->slot);
	free(fx->fn);
	free(fx->calls);
	free(fx->ref);
	free(fx);
}

/*
 * An emptied lex_fx keeps its arrays but a hash table of more than
 * FX_KEEP_SLOTS (cleared for each buffer) and any array of more than
 * LEX_KEEP_BYTES (a giant blob's, which would stay resident).
 */
#define FX_KEEP_SLOTS 4096

void lex_funcs_keep(struct lexer *lx, struct lex_fx **keep)
{
	struct lex_fx *fx = lx->fx ? lx->fx : lx->fx_spare;

	if (lx->fx && lx->fx_spare)
		lex_funcs_keep_free(lx->fx_spare);
	lx->fx = lx->fx_spare = NULL;
	if (!fx)
		return;
	if (*keep || fx->pool.alloc > LEX_KEEP_BYTES ||
	    fx->an * sizeof(*fx->names) > LEX_KEEP_BYTES ||
	    fx->af * sizeof(*fx->fn) > LEX_KEEP_BYTES ||
	    fx->ac * sizeof(*fx->calls) > LEX_KEEP_BYTES ||
	    fx->ar * sizeof(*fx->ref) > LEX_KEEP_BYTES) {
		lex_funcs_keep_free(fx);
		return;
	}
	sbuf_reset(&fx->pool);
	fx->nn = fx->nf = fx->nc = fx->nr = 0;
	fx->open = false;
	if (fx->cap > FX_KEEP_SLOTS) {
		free(fx->slot);
		fx->slot = NULL;
		fx->cap = 0;
	} else if (fx->cap) {
		memset(fx->slot, 0, fx->cap * sizeof(*fx->slot));
	}
	*keep = fx;
}
