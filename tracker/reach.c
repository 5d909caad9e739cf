// SPDX-License-Identifier: GPL-2.0
/*
 * reach.c - the release's call graph and the walk from its entry points
 * (reach.h explains what is resolved and how).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reach.h"
#include "store.h"
#include "util.h"

#define NONE UINT32_MAX

/* A string -> id map (open addressing); the keys are not owned. */
struct strmap {
	uint32_t *slot;		/* id + 1, 0: empty */
	size_t cap, n;
	const char **key;	/* by id */
	uint32_t *hash;		/* by id */
	size_t akey, ahash;
};

static void strmap_grow(struct strmap *m)
{
	size_t i, j, mask;

	free(m->slot);
	m->cap = m->cap ? m->cap * 2 : 1024;
	m->slot = xcalloc(m->cap, sizeof(*m->slot));
	mask = m->cap - 1;
	for (i = 0; i < m->n; i++) {
		for (j = m->hash[i] & mask; m->slot[j]; j = (j + 1) & mask)
			;
		m->slot[j] = (uint32_t)i + 1;
	}
}

/* The id of @s; with @add a new id when absent, else NONE. */
static uint32_t strmap_id(struct strmap *m, const char *s, bool add)
{
	size_t j, mask, len = strlen(s);
	uint32_t h = fnv32(s, len);

	if (!add && !m->cap)
		return NONE;
	if (add && (m->n + 1) * 2 > m->cap)
		strmap_grow(m);
	mask = m->cap - 1;
	for (j = h & mask; m->slot[j]; j = (j + 1) & mask) {
		uint32_t id = m->slot[j] - 1;

		if (m->hash[id] == h && !memcmp(m->key[id], s, len + 1))
			return id;
	}
	if (!add)
		return NONE;
	ALLOC_GROW(m->key, m->n + 1, m->akey);
	ALLOC_GROW(m->hash, m->n + 1, m->ahash);
	m->key[m->n] = s;
	m->hash[m->n] = h;
	m->slot[j] = (uint32_t)++m->n;
	return (uint32_t)m->n - 1;
}

static void strmap_clear(struct strmap *m)
{
	free(m->slot);
	free(m->key);
	free(m->hash);
	memset(m, 0, sizeof(*m));
}

struct rfunc {
	uint32_t file, name, line, end;
	uint32_t calls, ncalls;		/* into r->calls: symbol ids */
	uint32_t parent;		/* caller on the path, NONE: entry */
	uint32_t next;			/* next definition of the name */
	uint16_t ndefs;			/* definitions the call resolved to */
	int8_t dist;			/* calls from an entry point, -1: none */
	bool is_static;
};

struct rfile {
	char *path;
	char *text;			/* the facts (names point into it) */
	uint32_t f0, nf;		/* its functions in r->fn */
	uint32_t arch;			/* symbol of "arch/X", NONE: not in arch/ */
	bool header;
};

struct rref {
	uint32_t file, name;
};

struct reach {
	unsigned int depth;
	struct strmap sym;		/* names */
	struct strmap paths;		/* file ids */
	struct strmap consts;		/* the headers' "k" identifiers */
	struct strmap dnames;		/* the headers' "d" macros */
	char **ddeps;			/* by dnames id: their DEP fields */
	size_t addeps;
	uint8_t *dstate;		/* by dnames id: enum dstate, lazily */
	struct rfile *file;
	size_t nfile, afile;
	struct rfunc *fn;
	size_t nfn, afn;
	uint32_t *calls;
	size_t ncalls, acalls;
	struct rref *ref;
	size_t nref, aref;
	uint32_t *head;			/* by symbol: first definition */
	char **archs;			/* the "arch/X" symbols' strings */
	size_t narchs, aarchs;
	size_t entries, reached;
};

struct reach *reach_new(unsigned int depth)
{
	struct reach *r = xcalloc(1, sizeof(*r));

	r->depth = depth;
	return r;
}

void reach_free(struct reach *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nfile; i++) {
		free(r->file[i].path);
		free(r->file[i].text);
	}
	free(r->file);
	free(r->fn);
	free(r->calls);
	free(r->ref);
	free(r->head);
	for (i = 0; i < r->narchs; i++)
		free(r->archs[i]);
	free(r->archs);
	strmap_clear(&r->sym);
	strmap_clear(&r->paths);
	strmap_clear(&r->consts);
	strmap_clear(&r->dnames);
	free(r->ddeps);
	free(r->dstate);
	free(r);
}

/* The next blank-separated field of the line *@p, NUL-terminated. */
static char *field(char **p)
{
	char *s = *p, *e;

	while (*s == ' ')
		s++;
	if (!*s)
		return NULL;
	for (e = s; *e && *e != ' '; e++)
		;
	if (*e)
		*e++ = '\0';
	*p = e;
	return s;
}

static bool parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long n;

	if (!s || !*s)
		return false;
	n = strtoul(s, &end, 10);
	if (*end || n > UINT32_MAX - 1)
		return false;
	*v = (uint32_t)n;
	return true;
}

/* The "arch/X" directory of @path, as a symbol, or NONE. */
static uint32_t file_arch(struct reach *r, const char *path)
{
	const char *slash;
	uint32_t id;
	char *dir;

	if (strncmp(path, "arch/", 5) || !(slash = strchr(path + 5, '/')))
		return NONE;
	dir = xstrndup(path, (size_t)(slash - path));
	id = strmap_id(&r->sym, dir, false);
	if (id == NONE) {
		ALLOC_GROW(r->archs, r->narchs + 1, r->aarchs);
		r->archs[r->narchs++] = dir;	/* the map keeps the pointer */
		return strmap_id(&r->sym, dir, true);
	}
	free(dir);
	return id;
}

int reach_add_file(struct reach *r, const char *path, const char *funcs)
{
	struct rfile *f;
	uint32_t *local = NULL, v, id;
	size_t nlocal = 0, alocal = 0, nfn0 = r->nfn, ncalls0 = r->ncalls,
	       nref0 = r->nref, len;
	char **lines = NULL, *p, *tok;
	size_t nlines = 0, alines = 0, i;
	int ret = 0;

	id = strmap_id(&r->paths, path, false);
	if (id != NONE)
		return kmig_err("internal error: '%s' added twice", path);
	ALLOC_GROW(r->file, r->nfile + 1, r->afile);
	f = &r->file[r->nfile];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	len = strlen(path);
	f->header = len > 2 && !strcmp(path + len - 2, ".h");
	f->arch = file_arch(r, path);
	f->text = funcs ? xstrdup(funcs) : NULL;
	f->f0 = (uint32_t)r->nfn;
	strmap_id(&r->paths, f->path, true);
	r->nfile++;
	if (!f->text)
		return 0;

	/* split into lines first: field() works within one NUL-ended line */
	for (p = f->text; *p;) {
		char *nl = strchr(p, '\n');

		ALLOC_GROW(lines, nlines + 1, alines);
		lines[nlines++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	for (i = 0; i < nlines && !ret; i++) {
		char *q = lines[i];

		tok = field(&q);
		if (!tok)
			continue;
		if (!strcmp(tok, "n")) {
			while ((tok = field(&q))) {
				ALLOC_GROW(local, nlocal + 1, alocal);
				local[nlocal++] = strmap_id(&r->sym, tok, true);
			}
		} else if (!strcmp(tok, "f")) {
			struct rfunc *fn;
			uint32_t name, line, end, st;

			if (!parse_u32(field(&q), &name) || name >= nlocal ||
			    !parse_u32(field(&q), &line) ||
			    !parse_u32(field(&q), &end) ||
			    !parse_u32(field(&q), &st)) {
				ret = KMIG_EGENERIC;
				break;
			}
			ALLOC_GROW(r->fn, r->nfn + 1, r->afn);
			fn = &r->fn[r->nfn++];
			memset(fn, 0, sizeof(*fn));
			fn->file = (uint32_t)r->nfile - 1;
			fn->name = local[name];
			fn->line = line;
			fn->end = end;
			fn->is_static = st != 0;
			fn->calls = (uint32_t)r->ncalls;
			while ((tok = field(&q))) {
				if (!parse_u32(tok, &v) || v >= nlocal) {
					ret = KMIG_EGENERIC;
					break;
				}
				ALLOC_GROW(r->calls, r->ncalls + 1, r->acalls);
				r->calls[r->ncalls++] = local[v];
				fn->ncalls++;
			}
		} else if (!strcmp(tok, "e")) {
			uint32_t kind, name, line;

			if (!parse_u32(field(&q), &kind) || kind >= nlocal ||
			    !parse_u32(field(&q), &name) || name >= nlocal ||
			    !parse_u32(field(&q), &line)) {
				ret = KMIG_EGENERIC;
				break;
			}
			ALLOC_GROW(r->ref, r->nref + 1, r->aref);
			r->ref[r->nref].file = (uint32_t)r->nfile - 1;
			r->ref[r->nref].name = local[name];
			r->nref++;
		} else if (!strcmp(tok, "k")) {
			/* a header's constants are the release's */
			while (f->header && (tok = field(&q)))
				strmap_id(&r->consts, tok, true);
		} else if (!strcmp(tok, "d")) {
			uint32_t id, n = (uint32_t)r->dnames.n;

			tok = field(&q);
			if (!f->header || !tok || !*q)
				continue;
			id = strmap_id(&r->dnames, tok, true);
			if (id == n) {	/* the first definition counts */
				ALLOC_GROW(r->ddeps, r->dnames.n, r->addeps);
				r->ddeps[id] = q;
				free(r->dstate);	/* verdicts sized by dnames */
				r->dstate = NULL;
			}
		} else {
			ret = KMIG_EGENERIC;
		}
	}
	free(lines);
	free(local);
	f = &r->file[r->nfile - 1];
	if (ret) {
		/* leave the file without functions; its names stay interned */
		r->nfn = nfn0;
		r->ncalls = ncalls0;
		r->nref = nref0;
		return kmig_err("malformed function facts of '%s'", path);
	}
	f->nf = (uint32_t)(r->nfn - f->f0);
	return 0;
}

/*
 * Can a use in file @file outside definition @d's file mean @d: a
 * non-static function, or a static one of a header, and not one of
 * another architecture's arch/ directory when @file is in arch/ (a
 * function of arch/arm is never linked with arch/x86's code; generic code
 * calls the one of every architecture).
 */
static bool global_def(const struct reach *r, uint32_t file, uint32_t d)
{
	const struct rfile *df = &r->file[r->fn[d].file];
	uint32_t arch = r->file[file].arch;

	if (r->fn[d].is_static && !df->header)
		return false;
	return arch == NONE || df->arch == NONE || df->arch == arch;
}

/*
 * The definitions a use of @name in file @file resolves to: those in the
 * file, else the non-static ones and the static ones of headers (of the
 * file's own architecture when it is in arch/).  Calls
 * @visit for each (when non-NULL); returns how many.
 */
static size_t resolve(struct reach *r, uint32_t file, uint32_t name,
		      void (*visit)(struct reach *, uint32_t, void *),
		      void *data)
{
	size_t n = 0;
	uint32_t d;

	if (name >= r->sym.n)
		return 0;
	for (d = r->head[name]; d != NONE; d = r->fn[d].next)
		if (r->fn[d].file == file) {
			if (visit)
				visit(r, d, data);
			n++;
		}
	if (n)
		return n;
	for (d = r->head[name]; d != NONE; d = r->fn[d].next)
		if (global_def(r, file, d)) {
			if (visit)
				visit(r, d, data);
			n++;
		}
	return n;
}

struct walk {
	uint32_t *queue;
	size_t nq, aq;
	uint32_t from;		/* the caller, NONE for entry points */
	size_t ndefs;
};

static void visit_def(struct reach *r, uint32_t d, void *data)
{
	struct walk *w = data;
	struct rfunc *f = &r->fn[d];

	if (f->dist >= 0)
		return;
	f->dist = (int8_t)(w->from == NONE ? 0 : r->fn[w->from].dist + 1);
	f->parent = w->from;
	f->ndefs = (uint16_t)(w->ndefs > UINT16_MAX ? UINT16_MAX : w->ndefs);
	if (w->from == NONE)
		r->entries++;
	r->reached++;
	ALLOC_GROW(w->queue, w->nq + 1, w->aq);
	w->queue[w->nq++] = d;
}

void reach_build(struct reach *r)
{
	struct walk w = { 0 };
	size_t i, q, k;

	free(r->head);
	r->head = xmalloc((r->sym.n ? r->sym.n : 1) * sizeof(*r->head));
	memset(r->head, 0xff, (r->sym.n ? r->sym.n : 1) * sizeof(*r->head));
	for (i = r->nfn; i-- > 0;) {
		r->fn[i].next = r->head[r->fn[i].name];
		r->head[r->fn[i].name] = (uint32_t)i;
		r->fn[i].dist = -1;
		r->fn[i].parent = NONE;
	}
	r->entries = r->reached = 0;
	w.from = NONE;
	for (i = 0; i < r->nref; i++) {
		w.ndefs = resolve(r, r->ref[i].file, r->ref[i].name, NULL, NULL);
		resolve(r, r->ref[i].file, r->ref[i].name, visit_def, &w);
	}
	for (q = 0; q < w.nq; q++) {
		uint32_t f = w.queue[q];
		const struct rfunc *fn = &r->fn[f];

		if ((unsigned int)fn->dist >= r->depth)
			continue;
		w.from = f;
		for (k = 0; k < fn->ncalls; k++) {
			uint32_t c = r->calls[fn->calls + k];

			w.ndefs = resolve(r, fn->file, c, NULL, NULL);
			resolve(r, fn->file, c, visit_def, &w);
			fn = &r->fn[f];
		}
	}
	free(w.queue);
}

static void chain_add(const struct reach *r, uint32_t f, struct sbuf *sb)
{
	const struct rfunc *fn = &r->fn[f];

	if (fn->parent != NONE) {
		chain_add(r, fn->parent, sb);
		sbuf_addstr(sb, " \xe2\x86\x92 ");
	}
	sbuf_addf(sb, "%s (%s:%u", r->sym.key[fn->name],
		  r->file[fn->file].path, fn->line);
	if (fn->ndefs > 1)
		sbuf_addf(sb, ", one of %u definitions", fn->ndefs);
	sbuf_addch(sb, ')');
}

int reach_site(const struct reach *r, const char *path, unsigned int line,
	       char **chain)
{
	uint32_t id = strmap_id((struct strmap *)&r->paths, path, false);
	const struct rfile *f;
	uint32_t i;

	if (chain)
		*chain = NULL;
	if (id == NONE)
		return 0;
	f = &r->file[id];
	for (i = f->f0; i < f->f0 + f->nf; i++) {
		const struct rfunc *fn = &r->fn[i];
		struct sbuf sb = SBUF_INIT;

		if (line < fn->line || line > fn->end)
			continue;
		if (fn->dist < 0)
			return 0;
		if (chain) {
			chain_add(r, i, &sb);
			*chain = sbuf_detach(&sb);
		}
		return 1;
	}
	return 0;
}

size_t reach_entries(const struct reach *r)
{
	return r->entries;
}

size_t reach_reached(const struct reach *r)
{
	return r->reached;
}

size_t reach_functions(const struct reach *r)
{
	return r->nfn;
}

/* Macros defined by macros: how deep reach_consts_cover() follows. */
#define DEPS_DEPTH 8

/* What consts_cover() knows of a "d" macro; a macro in progress is a cycle. */
enum dstate { D_UNKNOWN, D_BUSY, D_CONST, D_NOT };

static bool consts_cover(struct reach *r, const char *deps, int depth);

/* Is the "d" macro @id constant?  Each is decided once. */
static bool dmacro_const(struct reach *r, uint32_t id, int depth)
{
	bool yes;

	if (!r->dstate)
		r->dstate = xcalloc(r->dnames.n ? r->dnames.n : 1,
				    sizeof(*r->dstate));
	if (r->dstate[id] != D_UNKNOWN)
		return r->dstate[id] == D_CONST;
	r->dstate[id] = D_BUSY;
	yes = consts_cover(r, r->ddeps[id], depth + 1);
	/* too deep is no verdict: another path may reach it shallower */
	r->dstate[id] = yes ? D_CONST : depth + 1 > DEPS_DEPTH ? D_UNKNOWN : D_NOT;
	return yes;
}

static bool consts_cover(struct reach *r, const char *deps, int depth)
{
	struct sbuf name = SBUF_INIT;
	bool all = true;

	if (!deps || !*deps || depth > DEPS_DEPTH)
		return false;
	while (all && *deps) {
		size_t n = strcspn(deps, " ");
		uint32_t id;

		sbuf_reset(&name);
		sbuf_add(&name, deps, n);
		if (n && strmap_id(&r->consts, name.buf, false) == NONE) {
			id = strmap_id(&r->dnames, name.buf, false);
			all = id != NONE && dmacro_const(r, id, depth);
		}
		deps += n;
		deps += strspn(deps, " ");
	}
	sbuf_release(&name);
	return all;
}

bool reach_consts_cover(const struct reach *r, const char *deps)
{
	/* a cache of verdicts and lookups without add: nothing visible changes */
	return consts_cover((struct reach *)r, deps, 0);
}

bool reach_name_heuristic(const char *func)
{
	static const char *const suffixes[] = {
		"_sendmsg", "_recvmsg", "_setsockopt", "_getsockopt", "_ioctl",
		"_store",
	};
	size_t i, n, len;

	if (!func)
		return false;
	len = strlen(func);
	for (i = 0; i < ARRAY_SIZE(suffixes); i++) {
		n = strlen(suffixes[i]);
		if (len > n && !strcmp(func + len - n, suffixes[i]))
			return true;
	}
	return false;
}

/* ---- the release step ---- */

struct load {
	struct reach *r;
	bool (*skip)(void *data, const char *path);
	void *data;
};

static int load_file(void *data, const char *path, const char *funcs)
{
	struct load *l = data;

	if (l->skip && l->skip(l->data, path))
		return 0;
	/* a malformed cached record leaves that file out, nothing more */
	reach_add_file(l->r, path, funcs);
	return 0;
}

int reach_load_release(struct store *st, long long release,
		       unsigned int depth,
		       bool (*skip)(void *data, const char *path), void *data,
		       struct reach **out)
{
	struct load l = { reach_new(depth), skip, data };
	int ret;

	ret = store_reach_files(st, release, load_file, &l);
	if (ret) {
		reach_free(l.r);
		l.r = NULL;
	}
	*out = l.r;
	return ret;
}

struct hit {
	char *path;
	unsigned int line;
	char *chain;		/* warn-on: the call path; vla: its deps */
};

struct classify {
	const struct reach *r;
	struct hit *v;
	size_t n, alloc;
};

/* Keep the site on @line of @path, with @chain (taken; may be NULL). */
static void classify_keep(struct classify *c, const char *path,
			  unsigned int line, char *chain)
{
	ALLOC_GROW(c->v, c->n + 1, c->alloc);
	c->v[c->n].path = xstrdup(path);
	c->v[c->n].line = line;
	c->v[c->n].chain = chain;
	c->n++;
}

static int classify_site(void *data, const char *path, unsigned int line,
			 const char *deps)
{
	struct classify *c = data;
	char *chain;

	(void)deps;
	if (reach_site(c->r, path, line, &chain))
		classify_keep(c, path, line, chain);
	return 0;
}

static int classify_vla(void *data, const char *path, unsigned int line,
			const char *deps)
{
	struct classify *c = data;

	if (reach_consts_cover(c->r, deps))
		classify_keep(c, path, line, xstrdup(deps));
	return 0;
}

static void classify_free(struct classify *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].path);
		free(c->v[i].chain);
	}
	free(c->v);
	c->v = NULL;
	c->n = c->alloc = 0;
}

/* The release's vla sites of constant size (release_vlaconst). */
static int vla_release(struct store *st, long long release,
		       const struct reach *r)
{
	struct classify c = { .r = r };
	size_t i;
	int ret;

	ret = store_rule_sites(st, release, "vla", classify_vla, &c);
	for (i = 0; !ret && i < c.n; i++)
		ret = store_vla_const_put(st, release, c.v[i].path, c.v[i].line,
					  c.v[i].chain);
	classify_free(&c);
	return ret;
}

int reach_release(struct store *st, long long release, unsigned int depth,
		  size_t *entries, size_t *reached, size_t *sites)
{
	struct classify c = { 0 };
	struct reach *r;
	size_t i;
	int ret;

	ret = reach_load_release(st, release, depth, NULL, NULL, &r);
	if (ret)
		return ret;
	reach_build(r);
	c.r = r;
	ret = store_rule_sites(st, release, "warn-on", classify_site, &c);
	for (i = 0; !ret && i < c.n; i++)
		ret = store_reach_put(st, release, c.v[i].path, c.v[i].line,
				      c.v[i].chain);
	if (!ret)
		ret = vla_release(st, release, r);
	if (!ret)
		ret = store_reach_stats(st, release, depth, reach_entries(r),
					reach_reached(r));
	if (entries)
		*entries = reach_entries(r);
	if (reached)
		*reached = reach_reached(r);
	if (sites)
		*sites = c.n;
	classify_free(&c);
	reach_free(r);
	return ret;
}
