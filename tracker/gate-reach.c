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

/* The base release's files the change does not touch, with their facts. */
struct base {
	const struct gate_touched *t;
	char **path, **funcs;
	size_t n, alloc;
};

static int keep_base(void *data, const char *path, const char *funcs)
{
	struct base *b = data;

	if (in_files(&b->t->before, path) || in_files(&b->t->after, path))
		return 0;
	ALLOC_GROW(b->path, b->n + 1, b->alloc);
	b->funcs = xrealloc(b->funcs, b->alloc * sizeof(*b->funcs));
	b->path[b->n] = xstrdup(path);
	b->funcs[b->n] = funcs ? xstrdup(funcs) : NULL;
	b->n++;
	return 0;
}

static struct reach *side_graph(struct gate *g, const struct base *b,
				unsigned int depth,
				const struct gate_files *files)
{
	struct reach *r = reach_new(depth);
	size_t i;

	/* a malformed record only leaves that file out */
	for (i = 0; i < b->n; i++)
		reach_add_file(r, b->path[i], b->funcs[i]);
	for (i = 0; i < files->n; i++) {
		const struct gate_blob *blob = gate_blobs_find(g->blobs,
							       &files->v[i].oid);

		reach_add_file(r, files->v[i].path,
			       blob ? blob->sites.funcs : NULL);
	}
	reach_build(r);
	return r;
}

int gate_reach(struct gate *g, long long base, unsigned int depth,
	       const struct gate_touched *t)
{
	struct base b = { t, NULL, NULL, 0, 0 };
	size_t i;
	int ret;

	if (!g->st)
		return kmig_err("internal error: gate_reach() without a store");
	g->reach_names = false;
	if (!needs_graph(g, &t->before) && !needs_graph(g, &t->after))
		return 0;
	ret = store_reach_files(g->st, base, keep_base, &b);
	if (!ret) {
		g->reach_before = side_graph(g, &b, depth, &t->before);
		g->reach_after = side_graph(g, &b, depth, &t->after);
	}
	for (i = 0; i < b.n; i++) {
		free(b.path[i]);
		free(b.funcs[i]);
	}
	free(b.path);
	free(b.funcs);
	return ret;
}
