// SPDX-License-Identifier: GPL-2.0
/*
 * reach.c - the release's call graph and the walk from its entry points
 * (reach.h explains what is resolved and how).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lexer.h"
#include "oidset.h"
#include "reach.h"
#include "repo.h"
#include "rules.h"
#include "store.h"
#include "util.h"

#define NONE UINT32_MAX

/*
 * Interned identifiers: an open-addressing map from a name to its id, the
 * names copied into chunks the map owns, each name found by a 32-bit
 * reference (chunk and offset).  A cache shares one between the graphs of
 * every release of a run, so a fragment's ids stay valid until the cache
 * renumbers them (reach_cache_compact()).
 */
struct names {
	uint32_t *slot;		/* id + 1, 0: empty */
	uint8_t *tag;		/* by slot: the top byte of the name's hash */
	size_t cap, n;
	uint32_t *ref;		/* by id: chunk << NAMES_SHIFT | offset */
	size_t aref;
	char **chunk;		/* the copies, in id order */
	size_t *csize;		/* by chunk */
	size_t nchunk, achunk, acsize, used, room;
};

/* 2 MB chunks: big_alloc() backs each with one huge page */
#define NAMES_SHIFT 21
#define NAMES_CHUNK ((size_t)1 << NAMES_SHIFT)	/* or one longer name */
#define NAMES_MAX_CHUNKS ((size_t)1 << (32 - NAMES_SHIFT))

static const char *names_key(const struct names *m, uint32_t id)
{
	uint32_t ref = m->ref[id];

	return m->chunk[ref >> NAMES_SHIFT] + (ref & (NAMES_CHUNK - 1));
}

/* At most two thirds full: linear probing stays short. */
static bool names_full(const struct names *m, size_t n)
{
	return n * 3 > m->cap * 2;
}

/* A table of at least @min slots for m->n names, every name in it. */
static void names_rehash(struct names *m, size_t min)
{
	size_t i, j, mask;

	free(m->slot);
	free(m->tag);
	m->cap = 1024;
	while (m->cap < min || names_full(m, m->n + 1))
		m->cap *= 2;
	m->slot = xcalloc(m->cap, sizeof(*m->slot));
	m->tag = xmalloc(m->cap);
	mask = m->cap - 1;
	for (i = 0; i < m->n; i++) {
		const char *key = names_key(m, (uint32_t)i);
		uint32_t h = hash_mem32(key, strlen(key));

		for (j = h & mask; m->slot[j]; j = (j + 1) & mask)
			;
		m->slot[j] = (uint32_t)i + 1;
		m->tag[j] = (uint8_t)(h >> 24);
	}
}

/* Room for @size bytes: the last chunk's, else a new chunk's. */
static void names_room(struct names *m, size_t size)
{
	if (size <= m->room)
		return;
	if (m->nchunk == NAMES_MAX_CHUNKS) {
		fputs("kmig: too many identifiers\n", stderr);
		abort();
	}
	if (size < NAMES_CHUNK)
		size = NAMES_CHUNK;
	ALLOC_GROW(m->chunk, m->nchunk + 1, m->achunk);
	ALLOC_GROW(m->csize, m->nchunk + 1, m->acsize);
	m->chunk[m->nchunk] = big_alloc(size);
	m->csize[m->nchunk++] = size;
	m->used = 0;
	m->room = size;
}

static uint32_t names_copy(struct names *m, const char *s, size_t len)
{
	uint32_t ref;

	names_room(m, len + 1);
	ref = (uint32_t)((m->nchunk - 1) << NAMES_SHIFT | m->used);
	memcpy(m->chunk[m->nchunk - 1] + m->used, s, len);
	m->chunk[m->nchunk - 1][m->used + len] = '\0';
	m->used += len + 1;
	m->room -= len + 1;
	return ref;
}

/* names_id() of @s whose hash_mem32() is @h. */
static uint32_t names_id_hashed(struct names *m, const char *s, size_t len,
				uint32_t h, bool add)
{
	size_t j, mask;

	if (!add && !m->cap)
		return NONE;
	if (add && names_full(m, m->n + 1))
		names_rehash(m, m->cap * 2);
	mask = m->cap - 1;
	for (j = h & mask; m->slot[j]; j = (j + 1) & mask) {
		const char *key;

		if (m->tag[j] != (uint8_t)(h >> 24))
			continue;
		key = names_key(m, m->slot[j] - 1);
		if (!memcmp(key, s, len) && !key[len])
			return m->slot[j] - 1;
	}
	if (!add)
		return NONE;
	ALLOC_GROW(m->ref, m->n + 1, m->aref);
	m->ref[m->n] = names_copy(m, s, len);
	m->slot[j] = (uint32_t)++m->n;
	m->tag[j] = (uint8_t)(h >> 24);
	return (uint32_t)m->n - 1;
}

/* The id of the @len bytes at @s; with @add a new id when absent, else NONE. */
static uint32_t names_id(struct names *m, const char *s, size_t len, bool add)
{
	return names_id_hashed(m, s, len, hash_mem32(s, len), add);
}

/* Room for @want names in all without a rehash. */
static void names_reserve(struct names *m, size_t want)
{
	if (!m->cap || names_full(m, want))
		names_rehash(m, want + want / 2 + 1);
}

/*
 * A batch of names to intern: a table of a million names is a few cache
 * misses a lookup (its slot, tag, reference and text), so these are
 * fetched for the whole batch before any is looked up.  The lookups are
 * names_id_hashed()'s: prefetching changes only how soon they find their
 * memory.
 */
#define NAMES_BATCH 64

struct name_ref {
	const char *s;
	uint32_t len, h;
};

static void names_batch(struct names *m, const struct name_ref *v, size_t n,
			uint32_t *out)
{
	size_t i, mask;

	names_reserve(m, m->n + n);
	mask = m->cap - 1;
	for (i = 0; i < n; i++) {
		__builtin_prefetch(&m->slot[v[i].h & mask]);
		__builtin_prefetch(&m->tag[v[i].h & mask]);
	}
	for (i = 0; i < n; i++) {
		uint32_t id = m->slot[v[i].h & mask];

		if (id)
			__builtin_prefetch(&m->ref[id - 1]);
	}
	for (i = 0; i < n; i++) {
		size_t j = v[i].h & mask;
		uint32_t id = m->slot[j];

		if (id && m->tag[j] == (uint8_t)(v[i].h >> 24))
			__builtin_prefetch(names_key(m, id - 1));
	}
	for (i = 0; i < n; i++)
		out[i] = names_id_hashed(m, v[i].s, v[i].len, v[i].h, true);
}

static uint32_t names_str(struct names *m, const char *s, bool add)
{
	return names_id(m, s, strlen(s), add);
}

static void names_clear(struct names *m)
{
	size_t i;

	for (i = 0; i < m->nchunk; i++)
		big_free(m->chunk[i], m->csize[i]);
	free(m->chunk);
	free(m->csize);
	free(m->slot);
	free(m->tag);
	free(m->ref);
	memset(m, 0, sizeof(*m));
}

/* A function of a fragment; calls index the fragment's calls. */
struct ffn {
	uint32_t name, line, end, calls;
	uint32_t ncalls : 31;
	uint32_t is_static : 1;
};

/* A "d" record: macro @name is constant when every name of @deps is. */
struct fdef {
	uint32_t name;
	uint32_t deps;		/* offset in the fragment's deps */
};

/*
 * One blob's facts, parsed: names are ids of the cache's names.  The "k"
 * and "d" records count only where the blob is a header.  One allocation:
 * the arrays follow the struct, each at its size (a release's fragments
 * stay in the cache for the next).
 */
struct frag {
	struct ffn *fn;
	uint32_t *calls, *ref, *k;
	struct fdef *d;
	char *deps;		/* the "d" records' DEP fields */
	uint32_t nfn, ncalls, nref, nk, nd;
};

static void frag_free(struct frag *fr)
{
	free(fr);
}

/* Where frag_parse() gathers a fragment's records, reused blob to blob. */
struct frag_scratch {
	struct ffn *fn;
	uint32_t *calls, *ref, *k, *local;
	struct fdef *d;
	char *deps;
	size_t afn, acalls, aref, ak, alocal, ad, adeps;
};

static void frag_scratch_release(struct frag_scratch *sc)
{
	free(sc->fn);
	free(sc->calls);
	free(sc->ref);
	free(sc->k);
	free(sc->local);
	free(sc->d);
	free(sc->deps);
	memset(sc, 0, sizeof(*sc));
}

/*
 * A cached blob's warn-on and vla sites, once known: from the lexer in
 * this run (reach_cache_add(), in the lexer's order), read from the store
 * for the few blobs of a release that came back from an earlier one
 * (fill_sites()), or from the rows of a release whose sites were joined
 * in the store (join_sites(), in the join's order; nothing depends on
 * the order).  The release step then classifies them without joining
 * the release's sites in the store.  Allocated once per blob, so a
 * graph's file keeps its address across reach_cache_trim().
 */
struct csite {
	unsigned int line;
	bool vla;
	char *deps;		/* vla: its struct site.deps, or NULL */
};

struct csites {
	struct csite *v;
	size_t n, alloc;
	bool known;		/* false: only the store has them */
	git_oid oid;		/* the blob's */
};

static void csites_free(struct csites *cs)
{
	size_t i;

	if (!cs)
		return;
	for (i = 0; i < cs->n; i++)
		free(cs->v[i].deps);
	free(cs->v);
	free(cs);
}

struct reach_cache {
	struct names names;
	struct frag_scratch scratch;
	struct oidset index;	/* blob id -> slot + 1 in frag */
	struct frag **frag;	/* NULL: the blob has no facts */
	unsigned int *used;	/* by slot: the generation that last used it */
	struct csites **sites;	/* by slot, with the blob's id */
	size_t nfrag, afrag, aused, asites;
	unsigned int gen;
	size_t names_mark;	/* names.n after the last compaction */
};

struct reach_cache *reach_cache_new(void)
{
	struct reach_cache *c = xcalloc(1, sizeof(*c));

	c->gen = 1;
	return c;
}

/* Free what @c holds: it is empty, and reusable, afterwards. */
static void cache_empty(struct reach_cache *c)
{
	size_t i;

	for (i = 0; i < c->nfrag; i++) {
		frag_free(c->frag[i]);
		csites_free(c->sites[i]);
	}
	free(c->frag);
	free(c->used);
	free(c->sites);
	c->frag = NULL;
	c->used = NULL;
	c->sites = NULL;
	c->nfrag = c->afrag = c->aused = c->asites = 0;
	c->names_mark = 0;
	oidset_clear(&c->index);
	names_clear(&c->names);
}

void reach_cache_free(struct reach_cache *c)
{
	if (!c)
		return;
	cache_empty(c);
	frag_scratch_release(&c->scratch);
	free(c);
}

size_t reach_cache_blobs(const struct reach_cache *c)
{
	return c->nfrag;
}

size_t reach_cache_names(const struct reach_cache *c)
{
	return c->names.n;
}

void reach_cache_trim(struct reach_cache *c)
{
	size_t i, n = 0;

	/* nothing to drop (the release's plan narrowed it): the index holds */
	for (i = 0; i < c->nfrag && c->used[i] == c->gen; i++)
		;
	if (i == c->nfrag) {
		c->gen++;
		return;
	}
	oidset_clear(&c->index);
	for (i = 0; i < c->nfrag; i++) {
		struct frag *fr = c->frag[i];

		if (c->used[i] != c->gen) {	/* a blob without facts too */
			frag_free(fr);
			csites_free(c->sites[i]);
			continue;
		}
		c->frag[n] = fr;
		c->used[n] = c->used[i];
		c->sites[n] = c->sites[i];
		oidset_put(&c->index, &c->sites[n]->oid, n + 1);
		n++;
	}
	c->nfrag = n;
	c->gen++;
}

/* Name @id through @map: marked (map[id] = 1), or renumbered to map[id] - 1. */
static void name_through(uint32_t *id, uint32_t *map, bool renumber)
{
	if (renumber)
		*id = map[*id] - 1;
	else
		map[*id] = 1;
}

/* Every name id a cached fragment holds, through @map (name_through()). */
static void frag_names(struct reach_cache *c, uint32_t *map, bool renumber)
{
	size_t i, k;

	for (i = 0; i < c->nfrag; i++) {
		struct frag *fr = c->frag[i];

		if (!fr)
			continue;
		for (k = 0; k < fr->nfn; k++)
			name_through(&fr->fn[k].name, map, renumber);
		for (k = 0; k < fr->ncalls; k++)
			name_through(&fr->calls[k], map, renumber);
		for (k = 0; k < fr->nref; k++)
			name_through(&fr->ref[k], map, renumber);
		for (k = 0; k < fr->nk; k++)
			name_through(&fr->k[k], map, renumber);
		for (k = 0; k < fr->nd; k++)
			name_through(&fr->d[k].name, map, renumber);
	}
}

/*
 * Keep the marked names of @m, in id order, renumbered from 0: @map (old
 * id -> 1 when marked) becomes old id -> new id + 1.  The names are copied
 * into new chunks while each old chunk is freed once passed, and the map
 * from names to ids is dropped first and made again at the end, so the
 * names take little more than once their size meanwhile.
 */
static void names_keep(struct names *m, uint32_t *map)
{
	struct names old = *m;
	size_t i, n = 0, done = 0;

	free(old.slot);
	free(old.tag);
	memset(m, 0, sizeof(*m));
	for (i = 0; i < old.n; i++) {
		size_t chunk = old.ref[i] >> NAMES_SHIFT;
		const char *key;

		for (; done < chunk; done++) {
			big_free(old.chunk[done], old.csize[done]);
			old.chunk[done] = NULL;
		}
		if (!map[i])
			continue;
		key = names_key(&old, (uint32_t)i);
		old.ref[n] = names_copy(m, key, strlen(key));	/* n <= i */
		map[i] = (uint32_t)++n;
	}
	for (; done < old.nchunk; done++)
		big_free(old.chunk[done], old.csize[done]);
	free(old.chunk);
	free(old.csize);
	m->ref = old.ref;
	m->aref = old.aref;
	m->n = n;
	names_rehash(m, 0);
}

/*
 * Drop the names no cached fragment refers to, and renumber the others in
 * the fragments.  A name's new id is never above its old one.
 */
void reach_cache_compact(struct reach_cache *c)
{
	uint32_t *map = xcalloc(c->names.n ? c->names.n : 1, sizeof(*map));

	frag_names(c, map, false);
	names_keep(&c->names, map);
	frag_names(c, map, true);
	free(map);
	c->names_mark = c->names.n;
}

/*
 * Compact the names when they grew by a quarter since the last time: a
 * run over several lines would otherwise keep every line's names.
 */
static void cache_names_check(struct reach_cache *c)
{
	if (!c->names_mark) {
		c->names_mark = c->names.n;
		return;
	}
	if (c->names.n > c->names_mark + c->names_mark / 4)
		reach_cache_compact(c);
}

/* A function of the graph: its fragment's is fn_src(). */
struct rfunc {
	uint32_t file;
	uint32_t parent;		/* caller on the path, NONE: entry */
	uint32_t next;			/* next definition of the name */
	uint16_t ndefs;			/* definitions the call resolved to */
	int8_t dist;			/* calls from an entry point, -1: none */
};

/* A file of the graph: its path is its id in r->paths. */
struct rfile {
	struct frag *fr;		/* NULL: no functions */
	struct csites *cs;		/* the cache's; NULL: not cached */
	bool own;			/* fr is this graph's, not the cache's */
	bool header;
	uint32_t f0, nf;		/* its functions in r->fn */
	uint32_t arch;			/* name of "arch/X", NONE: not in arch/ */
};

struct reach {
	unsigned int depth;
	char *ruleset;			/* of the files loaded from a store */
	struct reach_cache *cache;
	bool own_cache;
	struct names *names;		/* &cache->names */
	struct names paths;		/* file ids */
	struct rfile *file;
	size_t nfile, afile;
	struct rfunc *fn;
	size_t nfn, afn;
	uint32_t *head;			/* by name: first definition */
	size_t nhead;
	/* the release's constants, by name id, from its headers */
	bool consts_ready;
	size_t nconst;			/* names covered by the arrays below */
	uint8_t *cstate;		/* enum dstate, | CONST_K: a "k" record */
	uint32_t *ddef;			/* 1 + index in ddeps, 0: no "d" record */
	const char **ddeps;		/* the names' first "d" records */
	size_t nddeps, addeps;
	size_t entries, reached;
};

struct reach *reach_new_cached(unsigned int depth, struct reach_cache *cache)
{
	struct reach *r = xcalloc(1, sizeof(*r));

	r->depth = depth;
	r->own_cache = !cache;
	r->cache = cache ? cache : reach_cache_new();
	r->names = &r->cache->names;
	return r;
}

struct reach *reach_new(unsigned int depth)
{
	return reach_new_cached(depth, NULL);
}

void reach_free(struct reach *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nfile; i++)
		if (r->file[i].own)
			frag_free(r->file[i].fr);
	free(r->ruleset);
	free(r->file);
	free(r->fn);
	free(r->head);
	free(r->cstate);
	free(r->ddef);
	free(r->ddeps);
	names_clear(&r->paths);
	if (r->own_cache)
		reach_cache_free(r->cache);
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

/* A decimal field below UINT32_MAX into *@v (and fewer than @lim when set). */
static bool parse_u32(const char *s, uint32_t *v, uint32_t lim)
{
	uint64_t n = 0;

	if (!s || !*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		n = n * 10 + (uint64_t)(*s - '0');
		if (n >= UINT32_MAX)
			return false;
	}
	if (lim && n >= lim)
		return false;
	*v = (uint32_t)n;
	return true;
}

/* The "arch/X" directory of @path, as a name, or NONE. */
static uint32_t file_arch(struct reach *r, const char *path)
{
	const char *slash;

	if (strncmp(path, "arch/", 5) || !(slash = strchr(path + 5, '/')))
		return NONE;
	return names_id(r->names, path, (size_t)(slash - path), true);
}

/* Copy @n elements of @size bytes from @src to *@at, advancing it. */
static void *frag_place(char **at, const void *src, size_t n, size_t size)
{
	void *dst = *at;

	if (n)
		memcpy(dst, src, n * size);
	*at += n * size;
	return dst;
}

/*
 * Intern the fields of the line *@p into @ids from *@n on (grown in
 * @alloc), NAMES_BATCH at a time (names_batch()).
 */
static void intern_fields(struct names *m, char **p, uint32_t **ids,
			  size_t *n, size_t *alloc)
{
	struct name_ref v[NAMES_BATCH];
	size_t k = 0;
	char *tok;

	do {
		tok = field(p);
		if (tok) {
			v[k].s = tok;
			v[k].len = (uint32_t)strlen(tok);
			v[k].h = hash_mem32(tok, v[k].len);
			k++;
		}
		if (k == NAMES_BATCH || (!tok && k)) {
			ALLOC_GROW(*ids, *n + k, *alloc);
			names_batch(m, v, k, *ids + *n);
			*n += k;
			k = 0;
		}
	} while (tok);
}

/*
 * Parse the facts @text (modified: fields are NUL-terminated in place)
 * into a new fragment, names interned into @c's names.  NULL when
 * malformed.
 */
static struct frag *frag_parse(struct reach_cache *c, char *text)
{
	struct frag_scratch *sc = &c->scratch;
	struct names *m = &c->names;
	size_t nfn = 0, ncalls = 0, nref = 0, nk = 0, nd = 0, ndeps = 0;
	size_t nlocal = 0;
	struct frag *fr;
	char *p = text, *line, *tok, *at;
	bool bad = false;
	uint32_t v;

	while (*p && !bad) {
		char *nl = strchr(p, '\n');

		line = p;
		if (nl) {
			*nl = '\0';
			p = nl + 1;
		} else {
			p += strlen(p);
		}
		tok = field(&line);
		if (!tok)
			continue;
		if (!strcmp(tok, "n")) {
			intern_fields(m, &line, &sc->local, &nlocal, &sc->alocal);
		} else if (!strcmp(tok, "f")) {
			struct ffn *fn;
			uint32_t name, ln, end, st;

			if (!parse_u32(field(&line), &name, (uint32_t)nlocal) ||
			    !nlocal || !parse_u32(field(&line), &ln, 0) ||
			    !parse_u32(field(&line), &end, 0) ||
			    !parse_u32(field(&line), &st, 0)) {
				bad = true;
				break;
			}
			ALLOC_GROW(sc->fn, nfn + 1, sc->afn);
			fn = &sc->fn[nfn++];
			fn->name = sc->local[name];
			fn->line = ln;
			fn->end = end;
			fn->is_static = st != 0;
			fn->calls = (uint32_t)ncalls;
			fn->ncalls = 0;
			while ((tok = field(&line))) {
				if (!parse_u32(tok, &v, (uint32_t)nlocal) ||
				    fn->ncalls == (UINT32_MAX >> 1)) {
					bad = true;
					break;
				}
				ALLOC_GROW(sc->calls, ncalls + 1, sc->acalls);
				sc->calls[ncalls++] = sc->local[v];
				fn->ncalls++;
			}
		} else if (!strcmp(tok, "e")) {
			uint32_t kind, name, ln;

			if (!nlocal ||
			    !parse_u32(field(&line), &kind, (uint32_t)nlocal) ||
			    !parse_u32(field(&line), &name, (uint32_t)nlocal) ||
			    !parse_u32(field(&line), &ln, 0)) {
				bad = true;
				break;
			}
			ALLOC_GROW(sc->ref, nref + 1, sc->aref);
			sc->ref[nref++] = sc->local[name];
		} else if (!strcmp(tok, "k")) {
			intern_fields(m, &line, &sc->k, &nk, &sc->ak);
		} else if (!strcmp(tok, "d")) {
			size_t len;

			tok = field(&line);
			if (!tok || !*line)
				continue;
			len = strlen(line);
			if (ndeps + len + 1 >= UINT32_MAX) {
				bad = true;
				break;
			}
			ALLOC_GROW(sc->d, nd + 1, sc->ad);
			sc->d[nd].name = names_str(m, tok, true);
			sc->d[nd++].deps = (uint32_t)ndeps;
			ALLOC_GROW(sc->deps, ndeps + len + 1, sc->adeps);
			memcpy(sc->deps + ndeps, line, len + 1);
			ndeps += len + 1;
		} else {
			bad = true;
		}
	}
	if (bad)
		return NULL;
	fr = xmalloc(sizeof(*fr) + nfn * sizeof(*fr->fn) +
		     (ncalls + nref + nk) * sizeof(uint32_t) +
		     nd * sizeof(*fr->d) + ndeps);
	at = (char *)(fr + 1);
	fr->fn = frag_place(&at, sc->fn, nfn, sizeof(*fr->fn));
	fr->calls = frag_place(&at, sc->calls, ncalls, sizeof(*fr->calls));
	fr->ref = frag_place(&at, sc->ref, nref, sizeof(*fr->ref));
	fr->k = frag_place(&at, sc->k, nk, sizeof(*fr->k));
	fr->d = frag_place(&at, sc->d, nd, sizeof(*fr->d));
	fr->deps = frag_place(&at, sc->deps, ndeps, 1);
	fr->nfn = (uint32_t)nfn;
	fr->ncalls = (uint32_t)ncalls;
	fr->nref = (uint32_t)nref;
	fr->nk = (uint32_t)nk;
	fr->nd = (uint32_t)nd;
	return fr;
}

/* Add file @path with fragment @fr (NULL: no functions). */
static int add_frag(struct reach *r, const char *path, struct frag *fr,
		    struct csites *cs, bool own)
{
	struct rfile *f;
	size_t len;

	if (names_str(&r->paths, path, false) != NONE) {
		if (own)
			frag_free(fr);
		return kmig_err("internal error: '%s' added twice", path);
	}
	ALLOC_GROW(r->file, r->nfile + 1, r->afile);
	f = &r->file[r->nfile++];
	memset(f, 0, sizeof(*f));
	len = strlen(path);
	f->header = len > 2 && !strcmp(path + len - 2, ".h");
	f->arch = file_arch(r, path);
	f->fr = fr;
	f->cs = cs;
	f->own = own;
	names_str(&r->paths, path, true);
	r->consts_ready = false;
	return 0;
}

int reach_add_file(struct reach *r, const char *path, const char *funcs)
{
	struct frag *fr = NULL;
	int ret;

	if (funcs) {
		char *text = xstrdup(funcs);

		fr = frag_parse(r->cache, text);
		free(text);
	}
	ret = add_frag(r, path, fr, NULL, true);
	if (ret)
		return ret;
	if (funcs && !fr)	/* left without functions */
		return kmig_err("malformed function facts of '%s'", path);
	return 0;
}

/* The cache's slot + 1 of blob @oid, marked used; 0 when absent. */
static size_t cache_get(struct reach_cache *c, const git_oid *oid)
{
	size_t slot;

	if (!oidset_get(&c->index, oid, &slot) || !slot)
		return 0;
	c->used[slot - 1] = c->gen;
	return slot;
}

/* Blob @oid with fragment @fr (taken; NULL: none) into the cache: its slot + 1. */
static size_t cache_put_frag(struct reach_cache *c, const git_oid *oid,
			     struct frag *fr)
{
	ALLOC_GROW(c->frag, c->nfrag + 1, c->afrag);
	ALLOC_GROW(c->used, c->nfrag + 1, c->aused);
	ALLOC_GROW(c->sites, c->nfrag + 1, c->asites);
	c->used[c->nfrag] = c->gen;
	c->frag[c->nfrag] = fr;
	c->sites[c->nfrag] = xcalloc(1, sizeof(struct csites));
	git_oid_cpy(&c->sites[c->nfrag]->oid, oid);
	c->nfrag++;
	oidset_put(&c->index, oid, c->nfrag);
	return c->nfrag;
}

/*
 * Parse @funcs (NULL: none; modified) as blob @oid's, into the cache;
 * malformed facts are cached as none.  Returns its slot + 1.
 */
static size_t cache_put(struct reach_cache *c, const git_oid *oid,
			char *funcs)
{
	return cache_put_frag(c, oid, funcs ? frag_parse(c, funcs) : NULL);
}

/* One more site of @cs: on @line, a vla one (with @deps or NULL) or not. */
static void csite_add(struct csites *cs, unsigned int line, bool vla,
		      const char *deps)
{
	struct csite *e;

	ALLOC_GROW(cs->v, cs->n + 1, cs->alloc);
	e = &cs->v[cs->n++];
	e->line = line;
	e->vla = vla;
	e->deps = xstrdup_or_null(deps);
}

/* The warn-on and vla sites of @sites, as @cs's. */
static void csites_set(struct csites *cs, const struct site_list *sites)
{
	size_t i;

	for (i = 0; i < sites->n; i++) {
		const struct site *site = &sites->v[i];

		if (site->rule == RULE_WARN_ON || site->rule == RULE_VLA)
			csite_add(cs, site->line, site->rule == RULE_VLA,
				  site->deps);
	}
	cs->known = true;
}

void reach_cache_mark(struct reach_cache *c, const git_oid *oid)
{
	cache_get(c, oid);
}

void reach_cache_add(struct reach_cache *c, const git_oid *oid, char *funcs,
		     const struct site_list *sites)
{
	size_t slot = cache_get(c, oid);

	if (!slot)
		slot = cache_put(c, oid, funcs);
	if (!c->sites[slot - 1]->known)
		csites_set(c->sites[slot - 1], sites);
}

int reach_add_blob(struct reach *r, const char *path, const git_oid *oid,
		   int (*get)(void *data, const git_oid *oid, char **funcs),
		   void *data)
{
	size_t slot = cache_get(r->cache, oid);
	char *funcs = NULL;
	int ret;

	if (!slot) {
		ret = get(data, oid, &funcs);
		if (ret)
			return ret;
		slot = cache_put(r->cache, oid, funcs);
		free(funcs);
	}
	return add_frag(r, path, r->cache->frag[slot - 1],
			r->cache->sites[slot - 1], false);
}

/*
 * Can a use in file @file outside definition @d's file mean @d: a
 * non-static function, or a static one of a header, and not one of
 * another architecture's arch/ directory when @file is in arch/ (a
 * function of arch/arm is never linked with arch/x86's code; generic code
 * calls the one of every architecture).
 */
/* The fragment's record of the graph's function @i. */
static const struct ffn *fn_src(const struct reach *r, uint32_t i)
{
	const struct rfile *f = &r->file[r->fn[i].file];

	return &f->fr->fn[i - f->f0];
}

static bool global_def(const struct reach *r, uint32_t file, uint32_t d)
{
	const struct rfile *df = &r->file[r->fn[d].file];
	uint32_t arch = r->file[file].arch;

	if (df->fr->fn[d - df->f0].is_static && !df->header)
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

	if (name >= r->nhead)
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

/* r->fn from the files' fragments, in file order, and the name chains. */
static void lay_out(struct reach *r)
{
	size_t i, k, n = 0;

	for (i = 0; i < r->nfile; i++) {
		struct rfile *f = &r->file[i];

		f->f0 = (uint32_t)n;
		f->nf = f->fr ? f->fr->nfn : 0;
		n += f->nf;
	}
	free(r->fn);
	r->fn = xmalloc((n ? n : 1) * sizeof(*r->fn));
	r->nfn = r->afn = n;
	free(r->head);
	r->nhead = r->names->n;
	r->head = xmalloc((r->nhead ? r->nhead : 1) * sizeof(*r->head));
	memset(r->head, 0xff, (r->nhead ? r->nhead : 1) * sizeof(*r->head));
	/*
	 * One pass, each file's functions from its fragment in order: every
	 * name's chain lists its definitions in the order of r->fn
	 */
	for (i = r->nfile; i-- > 0;) {
		const struct rfile *f = &r->file[i];
		struct rfunc *fn = r->fn + f->f0;

		for (k = f->nf; k-- > 0;) {
			uint32_t name = f->fr->fn[k].name;

			fn[k].file = (uint32_t)i;
			fn[k].next = r->head[name];
			r->head[name] = f->f0 + (uint32_t)k;
			fn[k].dist = -1;
			fn[k].parent = NONE;
		}
	}
}

void reach_build(struct reach *r)
{
	struct walk w = { 0 };
	size_t i, q, k;

	lay_out(r);
	r->entries = r->reached = 0;
	w.from = NONE;
	for (i = 0; i < r->nfile; i++) {
		const struct frag *fr = r->file[i].fr;

		for (k = 0; fr && k < fr->nref; k++) {
			w.ndefs = resolve(r, (uint32_t)i, fr->ref[k], NULL, NULL);
			resolve(r, (uint32_t)i, fr->ref[k], visit_def, &w);
		}
	}
	for (q = 0; q < w.nq; q++) {
		uint32_t f = w.queue[q];
		const struct rfunc *fn = &r->fn[f];
		const struct ffn *src = fn_src(r, f);
		const uint32_t *calls;

		if ((unsigned int)fn->dist >= r->depth || !src->ncalls)
			continue;
		w.from = f;
		calls = r->file[fn->file].fr->calls + src->calls;
		for (k = 0; k < src->ncalls; k++) {
			w.ndefs = resolve(r, fn->file, calls[k], NULL, NULL);
			resolve(r, fn->file, calls[k], visit_def, &w);
		}
	}
	free(w.queue);
}

static void chain_add(const struct reach *r, uint32_t f, struct sbuf *sb)
{
	const struct rfunc *fn = &r->fn[f];
	const struct ffn *src = fn_src(r, f);

	if (fn->parent != NONE) {
		chain_add(r, fn->parent, sb);
		sbuf_addstr(sb, " \xe2\x86\x92 ");
	}
	sbuf_addf(sb, "%s (%s:%u", names_key(r->names, src->name),
		  names_key(&r->paths, fn->file), src->line);
	if (fn->ndefs > 1)
		sbuf_addf(sb, ", one of %u definitions", fn->ndefs);
	sbuf_addch(sb, ')');
}

int reach_site(const struct reach *r, const char *path, unsigned int line,
	       char **chain)
{
	uint32_t id = names_str((struct names *)&r->paths, path, false);
	const struct rfile *f;
	uint32_t i;

	if (chain)
		*chain = NULL;
	if (id == NONE || !r->fn)
		return 0;
	f = &r->file[id];
	for (i = f->f0; i < f->f0 + f->nf; i++) {
		const struct rfunc *fn = &r->fn[i];
		const struct ffn *src = &f->fr->fn[i - f->f0];
		struct sbuf sb = SBUF_INIT;

		if (line < src->line || line > src->end)
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
#define D_MASK	3
#define CONST_K	4	/* in r->cstate: the name has a "k" record */

/* The release's constants: its headers' "k" names and first "d" records. */
static void consts_prepare(struct reach *r)
{
	size_t i, k, n = r->names->n ? r->names->n : 1;

	free(r->cstate);
	free(r->ddef);
	r->nconst = r->names->n;
	r->cstate = xcalloc(n, sizeof(*r->cstate));
	r->ddef = xcalloc(n, sizeof(*r->ddef));
	r->nddeps = 0;
	for (i = 0; i < r->nfile; i++) {
		const struct frag *fr = r->file[i].fr;

		if (!fr || !r->file[i].header)
			continue;
		for (k = 0; k < fr->nk; k++)
			r->cstate[fr->k[k]] |= CONST_K;
		for (k = 0; k < fr->nd; k++) {	/* the first definition counts */
			uint32_t id = fr->d[k].name;

			if (r->ddef[id])
				continue;
			ALLOC_GROW(r->ddeps, r->nddeps + 1, r->addeps);
			r->ddeps[r->nddeps++] = fr->deps + fr->d[k].deps;
			r->ddef[id] = (uint32_t)r->nddeps;
		}
	}
	r->consts_ready = true;
}

static bool consts_cover(struct reach *r, const char *deps, int depth);

/* Is the "d" macro @id constant?  Each is decided once. */
static bool dmacro_const(struct reach *r, uint32_t id, int depth)
{
	bool yes;

	uint8_t *st = &r->cstate[id];

	if ((*st & D_MASK) != D_UNKNOWN)
		return (*st & D_MASK) == D_CONST;
	*st = (*st & ~D_MASK) | D_BUSY;
	yes = consts_cover(r, r->ddeps[r->ddef[id] - 1], depth + 1);
	/* too deep is no verdict: another path may reach it shallower */
	st = &r->cstate[id];
	*st = (*st & ~D_MASK) |
	      (yes ? D_CONST : depth + 1 > DEPS_DEPTH ? D_UNKNOWN : D_NOT);
	return yes;
}

static bool consts_cover(struct reach *r, const char *deps, int depth)
{
	bool all = true;

	if (!deps || !*deps || depth > DEPS_DEPTH)
		return false;
	while (all && *deps) {
		size_t n = strcspn(deps, " ");
		uint32_t id;

		if (n) {
			id = names_id(r->names, deps, n, false);
			all = id != NONE && id < r->nconst &&
			      ((r->cstate[id] & CONST_K) ||
			       (r->ddef[id] && dmacro_const(r, id, depth)));
		}
		deps += n;
		deps += strspn(deps, " ");
	}
	return all;
}

bool reach_consts_cover(const struct reach *r, const char *deps)
{
	/* a cache of verdicts: nothing visible changes */
	if (!r->consts_ready)
		consts_prepare((struct reach *)r);
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

/* A release's file, as store_release_blobs() gives it. */
struct load_file {
	char *path;
	git_oid oid;
};

struct load {
	struct store *st;
	bool (*skip)(void *data, const char *path);
	void *data;
	char *ruleset;
	struct load_file *v;
	size_t n, alloc;
};

static int load_file(void *data, const char *path, const char *oid_hex,
		     const char *ruleset)
{
	struct load *l = data;
	struct load_file *f;

	if (l->skip && l->skip(l->data, path))
		return 0;
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	f = &l->v[l->n];
	if (git_oid_fromstr(&f->oid, oid_hex) < 0)
		return kmig_err("malformed blob id '%s' of '%s'", oid_hex, path);
	f->path = xstrdup(path);
	l->n++;
	if (!l->ruleset)
		l->ruleset = xstrdup(ruleset);
	return 0;
}

static int cmp_oid_ptr(const void *a, const void *b)
{
	return git_oid_cmp(*(const git_oid *const *)a,
			   *(const git_oid *const *)b);
}

/*
 * Reading a blob's facts (its row, then inflating them) is about a third
 * of loading them; with many to load (a release's graph in a later run)
 * a thread reads ahead while the caller parses, at most FETCH_AHEAD
 * facts in memory.
 */
#define FETCH_AHEAD 64
#define FETCH_THREAD_MIN 256	/* fewer: read and parse in turn */
/*
 * The distinct names a blob adds, about (a release of 58,763 files has
 * 0.86 million): the names' table is sized once for them, not doubled
 * and rehashed a dozen times on the way.
 */
#define FETCH_NAMES_PER_BLOB 16

struct fetch {
	struct store *st;
	const char *ruleset;
	const git_oid **oid;
	size_t n;
	char **funcs;		/* by index: read, not yet taken */
	size_t done;		/* read (the thread) */
	size_t taken;		/* parsed (the caller) */
	bool stop;		/* the caller gives up */
	int ret;		/* the thread's error, its message in err */
	char *err;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void *fetch_thread(void *arg)
{
	struct fetch *f = arg;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < f->n; i++) {
		char *funcs = NULL;
		bool stop;

		pthread_mutex_lock(&f->lock);
		while (!f->stop && i >= f->taken + FETCH_AHEAD)
			pthread_cond_wait(&f->cond, &f->lock);
		stop = f->stop;
		pthread_mutex_unlock(&f->lock);
		if (stop)
			break;
		ret = store_blob_funcs(f->st, repo_oid_str(f->oid[i]),
				       f->ruleset, &funcs);
		pthread_mutex_lock(&f->lock);
		if (ret) {
			f->ret = ret;
			f->err = xstrdup(kmig_errmsg());
		} else {
			f->funcs[i] = funcs;
			f->done = i + 1;
		}
		pthread_cond_broadcast(&f->cond);
		pthread_mutex_unlock(&f->lock);
	}
	return NULL;
}

/* Parse the facts of @oid[0..@n) as @f's thread reads them. */
static int fetch_parse(struct reach_cache *c, struct fetch *f)
{
	pthread_t thread;
	size_t i;
	int ret = 0;

	f->funcs = xcalloc(f->n, sizeof(*f->funcs));
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cond, NULL);
	if (pthread_create(&thread, NULL, fetch_thread, f)) {
		ret = kmig_err("cannot start a thread");
		goto out_sync;
	}
	for (i = 0; !ret && i < f->n; i++) {
		char *funcs;

		pthread_mutex_lock(&f->lock);
		while (f->done <= i && !f->ret)
			pthread_cond_wait(&f->cond, &f->lock);
		if (f->done <= i) {
			ret = f->ret;
			kmig_err("%s", f->err);
		}
		funcs = f->funcs[i];
		f->funcs[i] = NULL;
		f->taken = i + 1;
		pthread_cond_broadcast(&f->cond);
		pthread_mutex_unlock(&f->lock);
		if (!ret)
			cache_put(c, f->oid[i], funcs);
		free(funcs);
	}
	pthread_mutex_lock(&f->lock);
	f->stop = true;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
	pthread_join(thread, NULL);
	for (i = 0; i < f->n; i++)	/* read ahead of an error */
		free(f->funcs[i]);
	free(f->err);
out_sync:
	pthread_cond_destroy(&f->cond);
	pthread_mutex_destroy(&f->lock);
	free(f->funcs);
	return ret;
}

/*
 * The facts are read in blob id order, the order of blob_funcs' key: its
 * index is walked from one entry to the next (each row is then a page of
 * the table, in the order the rows were written).
 */
int reach_cache_load(struct reach_cache *c, struct store *st,
		     const char *ruleset, const git_oid *const *oids, size_t n)
{
	const git_oid **miss = xcalloc(n ? n : 1, sizeof(*miss));
	size_t i, nmiss = 0, k = 0;
	int ret = 0;

	for (i = 0; i < n; i++)
		if (!cache_get(c, oids[i]))
			miss[nmiss++] = oids[i];
	qsort(miss, nmiss, sizeof(*miss), cmp_oid_ptr);
	for (i = 0; i < nmiss; i++)	/* each blob once */
		if (!k || !git_oid_equal(miss[k - 1], miss[i]))
			miss[k++] = miss[i];
	nmiss = k;
	if (nmiss >= FETCH_THREAD_MIN) {
		struct fetch f = { .st = st, .ruleset = ruleset, .oid = miss,
				   .n = nmiss };

		names_reserve(&c->names, c->names.n + nmiss * FETCH_NAMES_PER_BLOB);
		ret = fetch_parse(c, &f);
		nmiss = 0;
	}
	for (i = 0; !ret && i < nmiss; i++) {
		char *funcs = NULL;

		ret = store_blob_funcs(st, repo_oid_str(miss[i]), ruleset,
				       &funcs);
		if (!ret)
			cache_put(c, miss[i], funcs);
		free(funcs);
	}
	free(miss);
	return ret;
}

/* reach_add_blob()'s getter once reach_cache_load() ran: never called. */
static int loaded(void *data, const git_oid *oid, char **funcs)
{
	(void)data;
	(void)funcs;
	return kmig_err("blob %s not loaded", repo_oid_str(oid));
}

int reach_load_release(struct store *st, long long release,
		       unsigned int depth, struct reach_cache *cache,
		       bool (*skip)(void *data, const char *path), void *data,
		       struct reach **out)
{
	struct load l = { st, skip, data, NULL, NULL, 0, 0 };
	struct reach *r = reach_new_cached(depth, cache);
	size_t i;
	int ret;

	ret = store_release_blobs(st, release, load_file, &l);
	if (!ret && l.ruleset) {
		const git_oid **oids = xcalloc(l.n ? l.n : 1, sizeof(*oids));

		for (i = 0; i < l.n; i++)
			oids[i] = &l.v[i].oid;
		ret = reach_cache_load(r->cache, st, l.ruleset, oids, l.n);
		free(oids);
		r->ruleset = l.ruleset;		/* handed over */
		l.ruleset = NULL;
	}
	if (!ret)
		names_reserve(&r->paths, l.n);
	for (i = 0; !ret && i < l.n; i++)
		ret = reach_add_blob(r, l.v[i].path, &l.v[i].oid, loaded, NULL);
	for (i = 0; i < l.n; i++)
		free(l.v[i].path);
	free(l.v);
	free(l.ruleset);
	if (ret) {
		reach_free(r);
		r = NULL;
	}
	*out = r;
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

/* A warn-on site reached, or a vla of constant size: kept with its evidence. */
static int classify_site(void *data, const char *path, unsigned int line,
			 const char *rule, const char *deps)
{
	struct classify *c = data;
	char *chain;

	if (!strcmp(rule, "vla")) {
		if (reach_consts_cover(c->r, deps))
			classify_keep(&c[1], path, line, xstrdup(deps));
	} else if (reach_site(c->r, path, line, &chain)) {
		classify_keep(c, path, line, chain);
	}
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

/*
 * Read from @st the sites of the blobs of @r the cache has without them
 * (a file back at the blob an earlier release had), one blob at a time,
 * when they are at most an eighth of the files: *@read of them.  *@all:
 * every file's sites are known now; false when they were more (joining
 * the release's sites is then quicker) or a file is not from the cache.
 */
static int fill_sites(struct store *st, struct reach *r, bool *all,
		      size_t *read)
{
	size_t i, unknown = 0;
	int ret;

	*all = false;
	*read = 0;
	for (i = 0; i < r->nfile; i++) {
		if (!r->file[i].cs)
			return 0;
		unknown += !r->file[i].cs->known;
	}
	if (unknown > r->nfile / 8 || (unknown && !r->ruleset))
		return 0;
	for (i = 0; i < r->nfile; i++) {
		struct csites *cs = r->file[i].cs;
		struct site_list l = SITE_LIST_INIT;

		if (cs->known)
			continue;
		/* not cached at all: no sites, as the join finds */
		ret = store_blob_sites(st, repo_oid_str(&cs->oid), r->ruleset,
				       &l);
		if (!ret || ret == KMIG_ENOTFOUND)
			csites_set(cs, &l);
		site_list_clear(&l);
		if (ret && ret != KMIG_ENOTFOUND)
			return ret;
		(*read)++;
	}
	*all = true;
	return 0;
}

/*
 * The warn-on and vla sites of every file of @r from the cache (all
 * known), by path and in the lexer's order (the rows written do not
 * depend on the order).
 */
static void classify_cached(const struct reach *r, struct classify *c)
{
	size_t i, k;

	for (i = 0; i < r->nfile; i++) {
		const struct csites *cs = r->file[i].cs;
		const char *path = names_key(&r->paths, (uint32_t)i);

		for (k = 0; k < cs->n; k++)
			classify_site(c, path, cs->v[k].line,
				      cs->v[k].vla ? "vla" : "warn-on",
				      cs->v[k].deps);
	}
}

/*
 * Write the rows of release @release: the reached warn-on sites c[0], the
 * constant vla sites c[1], the graph's statistics; *@stats filled.
 */
static int write_classified(struct store *st, long long release,
			    unsigned int depth, const struct classify c[2],
			    size_t entries, size_t reached,
			    struct reach_stats *stats)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < c[0].n; i++)
		ret = store_reach_put(st, release, c[0].v[i].path,
				      c[0].v[i].line, c[0].v[i].chain);
	for (i = 0; !ret && i < c[1].n; i++)
		ret = store_vla_const_put(st, release, c[1].v[i].path,
					  c[1].v[i].line, c[1].v[i].chain);
	if (!ret)
		ret = store_reach_stats(st, release, depth, entries, reached);
	stats->entries = entries;
	stats->reached = reached;
	stats->sites = c[0].n;
	return ret;
}

/*
 * The join of release_sites(): each row classified, and kept as the
 * cache's site of its blob when the cache lacks the blob's sites (from one
 * of the blob's paths: a blob at two paths has its rows twice).
 */
struct join_fill {
	struct classify *c;
	const struct reach *r;
	struct csites **fill;	/* by file: the sites to fill, or NULL */
};

static int join_site(void *data, const char *path, unsigned int line,
		     const char *rule, const char *deps)
{
	struct join_fill *j = data;
	uint32_t id = names_str((struct names *)&j->r->paths, path, false);
	struct csites *cs = id == NONE ? NULL : j->fill[id];

	if (cs)
		csite_add(cs, line, !strcmp(rule, "vla"), deps);
	return classify_site(j->c, path, line, rule, deps);
}

/*
 * The warn-on and vla sites of @release joined in @st and classified.
 * The cache's blobs of @r without known sites get them from the same
 * rows (a blob without rows has none): a graph of these blobs in this or
 * a later run (the next point release after a re-count of every release)
 * finds them in memory instead of joining again.
 */
static int join_sites(struct store *st, long long release,
		      const struct reach *r, struct classify *c)
{
	struct join_fill j = { c, r, xcalloc(r->nfile ? r->nfile : 1,
					     sizeof(*j.fill)) };
	size_t i, k;
	int ret;

	for (i = 0; i < r->nfile; i++) {
		struct csites *cs = r->file[i].cs;

		if (cs && !cs->known) {
			j.fill[i] = cs;
			cs->known = true;	/* filled from this path only */
		}
	}
	ret = store_rule_sites(st, release, "warn-on", "vla", join_site, &j);
	for (i = 0; ret && i < r->nfile; i++) {
		struct csites *cs = j.fill[i];

		if (!cs)
			continue;
		for (k = 0; k < cs->n; k++)
			free(cs->v[k].deps);
		cs->n = 0;
		cs->known = false;
	}
	free(j.fill);
	return ret;
}

/*
 * The rest of reach_release() once graph @r of @release is built: its
 * warn-on and vla sites classified (from the cache, or joined in @st),
 * the rows written; frees @r.
 */
static int release_sites(struct store *st, long long release,
			 unsigned int depth, struct reach_cache *cache,
			 struct reach *r, struct reach_stats *stats)
{
	struct classify c[2] = { { 0 } };	/* reached warn-on, constant vla */
	bool all;
	int ret;

	c[0].r = c[1].r = r;
	/* one pass over the release's sites of both rules */
	ret = fill_sites(st, r, &all, &stats->sites_read);
	stats->sites_joined = !ret && !all;
	if (!ret && all)
		classify_cached(r, c);
	else if (!ret)
		ret = join_sites(st, release, r, c);
	if (!ret)
		ret = write_classified(st, release, depth, c, reach_entries(r),
				       reach_reached(r), stats);
	classify_free(&c[0]);
	classify_free(&c[1]);
	reach_free(r);
	if (cache)
		cache_names_check(cache);
	return ret;
}

int reach_release(struct store *st, long long release, unsigned int depth,
		  struct reach_cache *cache, struct reach_stats *stats)
{
	struct reach *r;
	int ret;

	ret = reach_load_release(st, release, depth, cache, NULL, NULL, &r);
	if (ret)
		return ret;
	/* the earlier releases' blobs this one has not: gone before the walk */
	if (cache)
		reach_cache_trim(cache);
	reach_build(r);
	return release_sites(st, release, depth, cache, r, stats);
}

struct reach_prep {
	struct reach *r;	/* built */
};

int reach_release_prepare(const char *const *paths,
			  const git_oid *const *oids, size_t n,
			  const char *ruleset, unsigned int depth,
			  struct reach_cache *cache, struct reach_prep **out)
{
	struct reach *r;
	size_t i;
	int ret = 0;

	*out = NULL;
	for (i = 0; i < n; i++)
		if (!cache_get(cache, oids[i]))
			return 0;	/* the store has the rest */
	r = reach_new_cached(depth, cache);
	r->ruleset = xstrdup(ruleset);
	names_reserve(&r->paths, n);	/* not rehashed on the way */
	for (i = 0; !ret && i < n; i++)
		ret = reach_add_blob(r, paths[i], oids[i], loaded, NULL);
	if (ret) {
		reach_free(r);
		return ret;
	}
	reach_cache_trim(cache);
	reach_build(r);
	*out = xcalloc(1, sizeof(**out));
	(*out)->r = r;
	return 0;
}

int reach_release_write(struct store *st, long long release,
			unsigned int depth, struct reach_cache *cache,
			struct reach_prep *prep, struct reach_stats *stats)
{
	struct reach *r = prep->r;

	free(prep);
	return release_sites(st, release, depth, cache, r, stats);
}

void reach_prep_free(struct reach_prep *prep)
{
	if (!prep)
		return;
	reach_free(prep->r);
	free(prep);
}

/* ---- the cache in a file, between runs ---- */

/*
 * The image of a cache (reach_cache_save()): a header, the names in id
 * order (each NUL-terminated), then per blob its id, whether it has a
 * fragment and known sites, the fragment's arrays as they are in memory,
 * and its sites.  Native byte order and layout: it is a cache of this
 * build (written under release_hash(), which covers this file and the
 * facts' rule set), never an exchange format.
 */
#define IMAGE_MAGIC "kmig graph 1\n"

struct image_head {
	char magic[16];
	char ruleset[48];
	uint64_t nnames, names_bytes, nblobs, bytes;	/* bytes: the file's */
};

enum { IMAGE_FRAG = 1, IMAGE_KNOWN = 2 };

static bool put(FILE *f, const void *p, size_t n)
{
	return !n || fwrite(p, 1, n, f) == n;
}

static bool put_u32(FILE *f, uint32_t v)
{
	return put(f, &v, sizeof(v));
}

/* Blob @i of @c into @f. */
static bool image_put_blob(FILE *f, const struct reach_cache *c, size_t i)
{
	const struct frag *fr = c->frag[i];
	const struct csites *cs = c->sites[i];
	bool ok;
	size_t k;

	ok = put(f, &cs->oid, sizeof(cs->oid)) &&
	     put_u32(f, (fr ? IMAGE_FRAG : 0) | (cs->known ? IMAGE_KNOWN : 0));
	if (ok && fr) {
		uint32_t ndeps = 0;

		for (k = 0; k < fr->nd; k++)	/* the deps end after the last */
			ndeps = (uint32_t)(fr->d[k].deps +
					   strlen(fr->deps + fr->d[k].deps) + 1);
		ok = put_u32(f, fr->nfn) && put_u32(f, fr->ncalls) &&
		     put_u32(f, fr->nref) && put_u32(f, fr->nk) &&
		     put_u32(f, fr->nd) && put_u32(f, ndeps) &&
		     put(f, fr->fn, fr->nfn * sizeof(*fr->fn)) &&
		     put(f, fr->calls, fr->ncalls * sizeof(*fr->calls)) &&
		     put(f, fr->ref, fr->nref * sizeof(*fr->ref)) &&
		     put(f, fr->k, fr->nk * sizeof(*fr->k)) &&
		     put(f, fr->d, fr->nd * sizeof(*fr->d)) &&
		     put(f, fr->deps, ndeps);
	}
	ok = ok && put_u32(f, (uint32_t)cs->n);
	for (k = 0; ok && k < cs->n; k++) {
		const struct csite *e = &cs->v[k];
		uint32_t len = e->deps ? (uint32_t)strlen(e->deps) + 1 : 0;

		ok = put_u32(f, e->line) && put_u32(f, e->vla) &&
		     put_u32(f, len) && put(f, e->deps, len);
	}
	return ok;
}

int reach_cache_save(struct reach_cache *c, const char *path,
		     const char *ruleset)
{
	struct image_head h = { IMAGE_MAGIC, "", 0, 0, 0, 0 };
	char *tmp = xasprintf("%s.tmp%ld", path, (long)getpid());
	FILE *f;
	bool ok;
	size_t i;
	long end;

	if (strlen(ruleset) >= sizeof(h.ruleset)) {
		free(tmp);
		return kmig_err("rule set '%s' too long for a graph cache", ruleset);
	}
	cache_names_check(c);	/* at most a quarter more than it uses */
	strcpy(h.ruleset, ruleset);
	h.nnames = c->names.n;
	for (i = 0; i < c->names.n; i++)
		h.names_bytes += strlen(names_key(&c->names, (uint32_t)i)) + 1;
	h.nblobs = c->nfrag;
	f = fopen(tmp, "wb");
	if (!f)
		goto out_errno;
	ok = put(f, &h, sizeof(h));
	for (i = 0; ok && i < c->names.n; i++) {
		const char *key = names_key(&c->names, (uint32_t)i);

		ok = put(f, key, strlen(key) + 1);
	}
	for (i = 0; ok && i < c->nfrag; i++)
		ok = image_put_blob(f, c, i);
	end = ok ? ftell(f) : -1;
	h.bytes = end < 0 ? 0 : (uint64_t)end;
	ok = ok && end >= 0 && !fseek(f, 0, SEEK_SET) && put(f, &h, sizeof(h));
	if (fclose(f) || !ok)
		goto out_errno;
	if (rename(tmp, path)) {
		kmig_err("cannot rename '%s' to '%s': %s", tmp, path,
			 strerror(errno));
		goto out_remove;
	}
	free(tmp);
	return 0;

out_errno:
	kmig_err("cannot write '%s': %s", tmp, strerror(errno ? errno : EIO));
out_remove:
	unlink(tmp);
	free(tmp);
	return KMIG_EGENERIC;
}

/* The next @n bytes of the image at *@p (before @end), or NULL. */
static const void *take(const char **p, const char *end, size_t n)
{
	const char *at = *p;

	if ((size_t)(end - at) < n)
		return NULL;
	*p = at + n;
	return at;
}

static bool take_u32(const char **p, const char *end, uint32_t *v)
{
	const void *at = take(p, end, sizeof(*v));

	if (at)
		memcpy(v, at, sizeof(*v));
	return at != NULL;
}

/* Every name id of @fr below @nnames, every index within its arrays. */
static bool frag_valid(const struct frag *fr, uint32_t ndeps, size_t nnames)
{
	size_t k;

	for (k = 0; k < fr->nfn; k++)
		if (fr->fn[k].name >= nnames ||
		    fr->fn[k].calls > fr->ncalls ||
		    fr->fn[k].ncalls > fr->ncalls - fr->fn[k].calls)
			return false;
	for (k = 0; k < fr->ncalls; k++)
		if (fr->calls[k] >= nnames)
			return false;
	for (k = 0; k < fr->nref; k++)
		if (fr->ref[k] >= nnames)
			return false;
	for (k = 0; k < fr->nk; k++)
		if (fr->k[k] >= nnames)
			return false;
	for (k = 0; k < fr->nd; k++)
		if (fr->d[k].name >= nnames || fr->d[k].deps >= ndeps)
			return false;
	return !ndeps || !fr->deps[ndeps - 1];
}

/* One blob of the image at *@p into @c; false when malformed. */
static bool image_take_blob(struct reach_cache *c, const char **p,
			    const char *end)
{
	const git_oid *oid = take(p, end, sizeof(*oid));
	struct frag *fr = NULL;
	struct csites *cs;
	uint32_t flags, n[6], nsites, k;
	size_t slot;
	char *at;

	if (!oid || !take_u32(p, end, &flags) || oidset_has(&c->index, oid))
		return false;
	if (flags & IMAGE_FRAG) {
		size_t bytes;

		for (k = 0; k < 6; k++)
			if (!take_u32(p, end, &n[k]))
				return false;
		bytes = n[0] * sizeof(*fr->fn) +
			((size_t)n[1] + n[2] + n[3]) * sizeof(uint32_t) +
			n[4] * sizeof(*fr->d) + n[5];
		if ((size_t)(end - *p) < bytes)
			return false;
		fr = xmalloc(sizeof(*fr) + bytes);
		at = (char *)(fr + 1);
		fr->fn = frag_place(&at, take(p, end, n[0] * sizeof(*fr->fn)),
				    n[0], sizeof(*fr->fn));
		fr->calls = frag_place(&at, take(p, end, n[1] * sizeof(uint32_t)),
				       n[1], sizeof(uint32_t));
		fr->ref = frag_place(&at, take(p, end, n[2] * sizeof(uint32_t)),
				     n[2], sizeof(uint32_t));
		fr->k = frag_place(&at, take(p, end, n[3] * sizeof(uint32_t)),
				   n[3], sizeof(uint32_t));
		fr->d = frag_place(&at, take(p, end, n[4] * sizeof(*fr->d)),
				   n[4], sizeof(*fr->d));
		fr->deps = frag_place(&at, take(p, end, n[5]), n[5], 1);
		fr->nfn = n[0];
		fr->ncalls = n[1];
		fr->nref = n[2];
		fr->nk = n[3];
		fr->nd = n[4];
		if (!frag_valid(fr, n[5], c->names.n)) {
			frag_free(fr);
			return false;
		}
	}
	slot = cache_put_frag(c, oid, fr);
	cs = c->sites[slot - 1];
	/* sites only when known: join_sites() fills the unknown ones */
	if (!take_u32(p, end, &nsites) ||
	    (nsites && !(flags & IMAGE_KNOWN)))
		return false;
	for (k = 0; k < nsites; k++) {
		uint32_t line, vla, len;
		const char *deps;

		if (!take_u32(p, end, &line) || !take_u32(p, end, &vla) ||
		    !take_u32(p, end, &len))
			return false;
		deps = take(p, end, len);
		if (!deps || (len && deps[len - 1]))
			return false;
		csite_add(cs, line, vla != 0, len ? deps : NULL);
	}
	cs->known = (flags & IMAGE_KNOWN) != 0;
	return true;
}

/*
 * The whole file @path into *@buf (big_alloc(), *@len bytes): one read
 * into a buffer of its size.  KMIG_ENOTFOUND when there is none.
 */
static int image_read(const char *path, char **buf, size_t *len)
{
	struct stat st;
	size_t got = 0;
	int fd, ret = 0;

	*buf = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? KMIG_ENOTFOUND :
		       kmig_err("cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) || st.st_size < 0) {
		ret = kmig_err("cannot read '%s': %s", path, strerror(errno));
		goto out_close;
	}
	*buf = big_alloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, *buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = kmig_err("cannot read '%s': %s", path,
				       n ? strerror(errno) : "file shrank");
			big_free(*buf, (size_t)st.st_size + 1);
			*buf = NULL;
			goto out_close;
		}
		got += (size_t)n;
	}
	*len = got;
out_close:
	close(fd);
	return ret;
}

/* The @n names at *@p (before @end), NUL-terminated, as ids 0..@n-1 of @m. */
static bool image_take_names(struct names *m, const char **p, const char *end,
			     size_t n)
{
	struct name_ref v[NAMES_BATCH];
	uint32_t ids[NAMES_BATCH];
	size_t i = 0, k;

	names_reserve(m, n);
	while (i < n) {
		size_t b = n - i < NAMES_BATCH ? n - i : NAMES_BATCH;

		for (k = 0; k < b; k++) {
			const char *nul = memchr(*p, '\0', (size_t)(end - *p));

			if (!nul)
				return false;
			v[k].s = *p;
			v[k].len = (uint32_t)(nul - *p);
			v[k].h = hash_mem32(*p, v[k].len);
			*p = nul + 1;
		}
		names_batch(m, v, b, ids);
		for (k = 0; k < b; k++)	/* each name new: no two alike */
			if (ids[k] != i + k)
				return false;
		i += b;
	}
	return true;
}

int reach_cache_restore(struct reach_cache *c, const char *path,
			const char *ruleset, size_t *nblobs)
{
	struct image_head h;
	const char *p, *end;
	char *buf;
	size_t i, len;
	int ret;

	*nblobs = 0;
	if (c->nfrag || c->names.n)
		return kmig_err("internal error: a graph cache restored into one in use");
	ret = image_read(path, &buf, &len);
	if (ret)
		return ret;
	ret = KMIG_ENOTFOUND;	/* from here: not this build's, or damaged */
	p = buf;
	end = buf + len;
	if (!take(&p, end, sizeof(h)))
		goto out_free;
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, IMAGE_MAGIC, sizeof(IMAGE_MAGIC)) ||
	    strncmp(h.ruleset, ruleset, sizeof(h.ruleset)) ||
	    h.bytes != len || h.names_bytes > (uint64_t)(end - p) ||
	    h.nnames > h.names_bytes || h.nnames >= NONE)
		goto out_free;
	if (!image_take_names(&c->names, &p, p + h.names_bytes, (size_t)h.nnames) ||
	    p != buf + sizeof(h) + h.names_bytes)
		goto out_clear;
	for (i = 0; i < h.nblobs; i++)
		if (!image_take_blob(c, &p, end))
			goto out_clear;
	if (p != end)
		goto out_clear;
	*nblobs = c->nfrag;
	c->names_mark = c->names.n;
	big_free(buf, len + 1);
	return 0;

out_clear:
	cache_empty(c);
out_free:
	big_free(buf, len + 1);
	return ret;
}
