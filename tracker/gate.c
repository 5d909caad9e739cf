// SPDX-License-Identifier: GPL-2.0
/*
 * gate.c - the gate itself: its blobs (id -> sites, indexed by an oidset),
 * the result structures, and gate_diff_trees() tying together the tree
 * diff (gate-diff.c), the sites (gate-lex.c) and the multiset compare
 * (gate-compare.c).  Patches are applied in gate-apply.c, the allowlist is
 * gate-allow.c.
 */
#include <stdlib.h>
#include <string.h>

#include "gate-internal.h"
#include "relinfo.h"
#include "rules.h"
#include "reach.h"

/* ---- blob id -> sites ---- */

struct gate_blob *gate_blobs_find(const struct gate_blobs *b,
				  const git_oid *oid)
{
	size_t i;

	return oidset_get(&b->index, oid, &i) ? &b->v[i] : NULL;
}

void gate_blobs_want(struct gate_blobs *b, const git_oid *oid)
{
	if (gate_blobs_find(b, oid))
		return;
	ALLOC_GROW(b->v, b->n + 1, b->alloc);
	memset(&b->v[b->n], 0, sizeof(b->v[b->n]));
	git_oid_cpy(&b->v[b->n].oid, oid);
	oidset_put(&b->index, oid, b->n);
	b->n++;
}

void gate_init(struct gate *g, git_repository *repo, struct store *st,
	       int jobs)
{
	memset(g, 0, sizeof(*g));
	g->repo = repo;
	g->st = st;
	g->jobs = jobs > 0 ? jobs : 1;
	g->blobs = xcalloc(1, sizeof(*g->blobs));
	g->reach_names = true;
}

void gate_release(struct gate *g)
{
	size_t i;

	reach_free(g->reach_before);
	reach_free(g->reach_after);
	g->reach_before = g->reach_after = NULL;
	reach_cache_free(g->reach_cache);
	g->reach_cache = NULL;
	for (i = 0; i < g->nchains; i++)
		free(g->chains[i]);
	free(g->chains);
	g->chains = NULL;
	g->nchains = g->achains = 0;
	if (!g->blobs)
		return;
	for (i = 0; i < g->blobs->n; i++)
		site_list_clear(&g->blobs->v[i].sites);
	free(g->blobs->v);
	oidset_clear(&g->blobs->index);
	free(g->blobs);
	g->blobs = NULL;
}

bool gate_tree_has(git_tree *tree, const char *path, bool dir)
{
	git_tree_entry *e = NULL;
	bool ok;

	if (!path || !*path || git_tree_entry_bypath(&e, tree, path) < 0)
		return false;
	ok = (git_tree_entry_type(e) == GIT_OBJECT_TREE) == dir;
	git_tree_entry_free(e);
	return ok;
}

/* ---- touched files ---- */

static void files_clear(struct gate_files *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->v[i].path);
		free(f->v[i].changed);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

void gate_touched_clear(struct gate_touched *t)
{
	files_clear(&t->before);
	files_clear(&t->after);
}

void gate_change_clear(struct gate_change *c)
{
	free(c->added.v);
	free(c->removed.v);
	memset(c, 0, sizeof(*c));
}

int gate_diff_trees(struct gate *g, git_tree *old, git_tree *new_,
		    struct gate_touched *t, struct gate_change *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = gate_touch(g, old, new_, true, t);
	if (ret)
		return ret;
	ret = gate_blobs_load(g, NULL);
	if (!ret)
		ret = gate_compare(g, t, out);
	return ret;
}

/* ---- judging by the base ---- */

size_t gate_judge(struct gate_sites *s, const struct relinfo *ri)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++) {
		s->v[i].info = !relinfo_in_force(ri, s->v[i].rule);
		n += s->v[i].info;
	}
	return n;
}

void gate_sites_filter(struct gate_sites *s, char *const *want, size_t nwant,
		       char *const *skip, size_t nskip)
{
	size_t i, k = 0;

	for (i = 0; i < s->n; i++)
		if (rule_globs_match(s->v[i].rule, want, nwant, skip, nskip))
			s->v[k++] = s->v[i];
	s->n = k;
}
