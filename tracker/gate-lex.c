// SPDX-License-Identifier: GPL-2.0
/*
 * gate-lex.c - the sites of the gate's blobs: from the blob cache, else
 * lexed (in this thread or by the scan's workers) and then cached in one
 * transaction.
 */
#include <stdlib.h>
#include <string.h>

#include "gate-internal.h"
#include "repo.h"
#include "rules.h"
#include "scan.h"
#include "store.h"

static int lex_here(struct gate *g, const git_oid *oid, struct site_list *out,
		    uint64_t *bytes)
{
	git_blob *blob = NULL;
	int ret;

	if (git_blob_lookup(&blob, g->repo, oid) < 0)
		return kmig_err_git("cannot read blob");
	*bytes = (uint64_t)git_blob_rawsize(blob);
	ret = lex_buffer(git_blob_rawcontent(blob), (size_t)*bytes, out);
	git_blob_free(blob);
	return ret;
}

/* Cache freshly lexed blobs; a busy or read-only database is not an error. */
static void cache_put(struct gate *g, struct gate_blob **todo, size_t n,
		      const uint64_t *bytes)
{
	const char *ruleset = rules_hash();
	size_t i;

	if (!g->st || !n || store_begin(g->st))
		return;
	for (i = 0; i < n; i++)
		if (store_blob_put(g->st, repo_oid_str(&todo[i]->oid), ruleset,
				   bytes[i], &todo[i]->sites) ||
		    store_blob_funcs_put(g->st, repo_oid_str(&todo[i]->oid),
					 ruleset, todo[i]->sites.funcs))
			goto out_rollback;
	if (!store_commit(g->st))
		return;
out_rollback:
	store_rollback(g->st);
}

int gate_blobs_load(struct gate *g, struct progress *prog)
{
	struct gate_blobs *b = g->blobs;
	const char *ruleset = rules_hash();
	struct gate_blob **todo = NULL;
	struct site_list *results = NULL;
	uint64_t *bytes = NULL;
	git_oid *oids = NULL;
	size_t ntodo = 0, i;
	int ret = 0;

	todo = xcalloc(b->n - b->nloaded + 1, sizeof(*todo));
	for (i = b->nloaded; i < b->n; i++) {
		struct gate_blob *e = &b->v[i];

		if (e->loaded)
			continue;
		if (g->st) {
			ret = store_blob_sites(g->st, repo_oid_str(&e->oid),
					       ruleset, &e->sites);
			if (!ret)
				ret = store_blob_funcs(g->st,
						       repo_oid_str(&e->oid),
						       ruleset, &e->sites.funcs);
			if (!ret) {
				e->loaded = true;
				g->cached++;
				continue;
			}
			site_list_clear(&e->sites);
			ret = 0;	/* not cached or unreadable: lex it */
		}
		todo[ntodo++] = e;
	}
	if (!ntodo)
		goto out_done;

	results = xcalloc(ntodo, sizeof(*results));
	bytes = xcalloc(ntodo, sizeof(*bytes));
	if (g->inmem || ntodo <= 2) {
		for (i = 0; i < ntodo && !ret; i++) {
			ret = lex_here(g, &todo[i]->oid, &results[i], &bytes[i]);
			progress_update(prog, i + 1, NULL);
		}
	} else {
		oids = xcalloc(ntodo, sizeof(*oids));
		for (i = 0; i < ntodo; i++)
			git_oid_cpy(&oids[i], &todo[i]->oid);
		ret = scan_lex_blobs(git_repository_path(g->repo), oids, ntodo,
				     g->jobs, results, bytes, prog);
	}
	if (ret) {
		for (i = 0; i < ntodo; i++)
			site_list_clear(&results[i]);
		goto out_free;
	}
	for (i = 0; i < ntodo; i++) {
		todo[i]->sites = results[i];
		todo[i]->loaded = true;
		g->lexed_bytes += bytes[i];
	}
	g->lexed += ntodo;
	cache_put(g, todo, ntodo, bytes);
out_done:
	b->nloaded = b->n;
out_free:
	free(oids);
	free(bytes);
	free(results);
	free(todo);
	return ret;
}
