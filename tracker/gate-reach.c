// SPDX-License-Identifier: GPL-2.0
/*
 * gate-reach.c - the call graphs on both sides of a change, for
 * warn-on-user (gate_reach(), gate.h): a scanned base release's cached
 * facts with the touched files in place of theirs.
 */
#include <stdlib.h>
#include <string.h>

#include "gate-internal.h"
#include "reach.h"
#include "repo.h"
#include "rules.h"
#include "store.h"

/* A WARN (reach decides its rule) or a vla that may be constant by a header. */
static bool needs_graph(const struct gate *g, const struct gate_files *files)
{
	size_t i, j;

	for (i = 0; i < files->n; i++) {
		const struct gate_blob *b = gate_blobs_find(g->blobs,
							    &files->v[i].oid);

		for (j = 0; b && j < b->sites.n; j++)
			if (b->sites.v[j].rule == RULE_WARN_ON ||
			    (b->sites.v[j].rule == RULE_VLA &&
			     b->sites.v[j].deps))
				return true;
	}
	return false;
}

static bool in_files(const struct gate_files *f, const char *path)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].path, path))
			return true;
	return false;
}

/* The base release's files the change does not touch, with their blob ids. */
struct base {
	const struct gate_touched *t;
	struct store *st;
	char *ruleset;
	char **path;
	git_oid *oid;
	size_t n, alloc, aoid;
};

static int keep_base(void *data, const char *path, const char *oid_hex,
		     const char *ruleset)
{
	struct base *b = data;

	if (in_files(&b->t->before, path) || in_files(&b->t->after, path))
		return 0;
	if (!b->ruleset)
		b->ruleset = xstrdup(ruleset);
	ALLOC_GROW(b->path, b->n + 1, b->alloc);
	ALLOC_GROW(b->oid, b->n + 1, b->aoid);
	if (git_oid_fromstr(&b->oid[b->n], oid_hex) < 0)
		return kmig_err("malformed blob id '%s' of '%s'", oid_hex, path);
	b->path[b->n++] = xstrdup(path);
	return 0;
}

/* The cached facts of a base blob, for reach_add_blob(). */
static int base_funcs(void *data, const git_oid *oid, char **funcs)
{
	struct base *b = data;

	return store_blob_funcs(b->st, repo_oid_str(oid), b->ruleset, funcs);
}

/*
 * The facts of the base's blobs into the gate's new cache: from kmig
 * scan's graph cache when it has them under the base's rule set (a
 * missing or stale one is no error), the others read from the store by a
 * thread while this one parses them (reach_cache_load()).
 */
static int base_facts(struct gate *g, const struct base *b)
{
	const git_oid **oids;
	size_t i, n;
	int ret;

	if (!b->ruleset || !b->n)
		return 0;
	if (g->graph_image && !strcmp(b->ruleset, rules_hash()))
		reach_cache_restore(g->reach_cache, g->graph_image,
				    release_hash(), &n);
	oids = xcalloc(b->n, sizeof(*oids));
	for (i = 0; i < b->n; i++)
		oids[i] = &b->oid[i];
	ret = reach_cache_load(g->reach_cache, g->st, b->ruleset, oids, b->n);
	free(oids);
	return ret;
}

/*
 * One side's graph into *@out: the base's files (their facts parsed once,
 * into the gate's cache, for both sides) and the side's touched files.
 */
static int side_graph(struct gate *g, struct base *b, unsigned int depth,
		      const struct gate_files *files, struct reach **out)
{
	struct reach *r = reach_new_cached(depth, g->reach_cache);
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < b->n; i++)
		ret = reach_add_blob(r, b->path[i], &b->oid[i], base_funcs, b);
	/* a malformed record only leaves that file out */
	for (i = 0; !ret && i < files->n; i++) {
		const struct gate_blob *blob = gate_blobs_find(g->blobs,
							       &files->v[i].oid);

		reach_add_file(r, files->v[i].path,
			       blob ? blob->sites.funcs : NULL);
	}
	if (ret) {
		reach_free(r);
		return ret;
	}
	reach_build(r);
	*out = r;
	return 0;
}

int gate_reach(struct gate *g, long long base, unsigned int depth,
	       const struct gate_touched *t)
{
	struct base b = { .t = t, .st = g->st };
	size_t i;
	int ret;

	if (!g->st)
		return kmig_err("internal error: gate_reach() without a store");
	g->reach_names = false;
	if (!needs_graph(g, &t->before) && !needs_graph(g, &t->after))
		return 0;
	ret = store_release_blobs(g->st, base, keep_base, &b);
	if (!ret && !g->reach_cache) {
		g->reach_cache = reach_cache_new();
		ret = base_facts(g, &b);
	}
	if (!ret)
		ret = side_graph(g, &b, depth, &t->before, &g->reach_before);
	if (!ret)
		ret = side_graph(g, &b, depth, &t->after, &g->reach_after);
	for (i = 0; i < b.n; i++)
		free(b.path[i]);
	free(b.path);
	free(b.oid);
	free(b.ruleset);
	return ret;
}
