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

static bool has_warn(const struct gate *g, const struct gate_files *files)
{
	size_t i, j;

	for (i = 0; i < files->n; i++) {
		const struct gate_blob *b = gate_blobs_find(g->blobs,
							    &files->v[i].oid);

		for (j = 0; b && j < b->sites.n; j++)
			if (b->sites.v[j].rule == RULE_WARN_ON)
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

/* A base file the change touches (on either side) is replaced. */
static bool touched(void *data, const char *path)
{
	const struct gate_touched *t = data;

	return in_files(&t->before, path) || in_files(&t->after, path);
}

static int side_graph(struct gate *g, long long base, unsigned int depth,
		      const struct gate_touched *t,
		      const struct gate_files *files, struct reach **out)
{
	size_t i;
	int ret;

	ret = reach_load_release(g->st, base, depth, touched, (void *)t, out);
	if (ret)
		return ret;
	for (i = 0; i < files->n; i++) {
		const struct gate_blob *b = gate_blobs_find(g->blobs,
							    &files->v[i].oid);

		/* a malformed record only leaves that file out */
		reach_add_file(*out, files->v[i].path,
			       b ? b->sites.funcs : NULL);
	}
	reach_build(*out);
	return 0;
}

int gate_reach(struct gate *g, long long base, unsigned int depth,
	       const struct gate_touched *t)
{
	int ret;

	if (!g->st)
		return kmig_err("internal error: gate_reach() without a store");
	g->reach_names = false;
	if (!has_warn(g, &t->before) && !has_warn(g, &t->after))
		return 0;
	ret = side_graph(g, base, depth, t, &t->before, &g->reach_before);
	if (!ret)
		ret = side_graph(g, base, depth, t, &t->after, &g->reach_after);
	return ret;
}
