/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan.h - lex the in-scope blobs of a tree, with the blob cache.
 *
 * Shared by "kmig scan" (whole release trees) and "kmig check"/"kmig log"
 * (only the files a change touches).
 */
#ifndef KMIG_SCAN_H
#define KMIG_SCAN_H

#include <git2.h>

#include "facts.h"
#include "lexer.h"
#include "util.h"

struct scan_file {
	char *path;
	git_oid oid;
};

struct scan_files {
	struct scan_file *v;
	size_t n, alloc;
};
void scan_files_clear(struct scan_files *f);
/*
 * scan_file_cmp - qsort() order of an array of pointers to struct
 * scan_file: their paths' byte order, the order a tree walk gives.
 */
int scan_file_cmp(const void *a, const void *b);

/*
 * scan_tree_files - the in-scope files of @tree (path_in_scope()), and the
 * top-level MAINTAINERS blob id in @maintainers (zero when absent).
 */
int scan_tree_files(struct scan_files *out, git_oid *maintainers,
		    git_tree *tree);

/*
 * scan_tree_changes - the paths scan_tree_files() lists for one of trees
 * @a and @b only, or with another blob in each: *@out (@n strings in
 * strcmp() order; the caller frees them with free_strv()).  Only the
 * subtrees whose ids differ are read: a point release's few hundred
 * changes cost milliseconds, not a walk of its 58,000 files.
 */
int scan_tree_changes(git_repository *repo, git_tree *a, git_tree *b,
		      char ***out, size_t *n);

/*
 * scan_tune_libgit2 - libgit2 settings for reading many blobs: no SHA-1
 * re-hashing of each object, small pack windows (a bounded resident set).
 * Call before opening the repository; scan_lex_blobs() calls it too.
 */
void scan_tune_libgit2(void);

/*
 * A pool of lexing threads, for callers that lex batch after batch and
 * have other work meanwhile ("kmig scan" walks the next release's tree and
 * writes the last one while the workers lex):
 *
 *	scan_pool_start(&pool, git_repository_path(repo), jobs);
 *	b = scan_pool_submit(pool, oids, n, results, bytes, facts);	// returns at once
 *	...
 *	ret = scan_pool_wait(pool, b, prog, NULL);	// results[] complete; frees b
 *	scan_pool_stop(pool);
 *
 * Batches are lexed in the order they are submitted; @oids, @results,
 * @bytes and @facts must stay valid until scan_pool_wait().  With @facts
 * (zeroed; may be NULL) the workers pack each result's call-graph facts
 * into facts[i] (facts.h) and leave results[i].funcs NULL.  Blobs are read from the
 * packs (packread.h), loose ones through libgit2.  Every submitted batch
 * must be waited for before scan_pool_stop().
 *
 * A batch submitted while the one before it is still being lexed has its
 * delta bases looked up: while that batch is lexed, a blob whose base is
 * one of its blobs (or one of their own bases, in git's newest-whole
 * packs) is mostly lexed just after it, by the worker that just read it,
 * from its reader's cache instead of inflating it again (not a giant one).
 * Its results are then there before the batch's turn; only the lexing
 * order changes.
 */
struct scan_pool;
struct scan_batch;
int scan_pool_start(struct scan_pool **out, const char *repo_path, int jobs);
struct scan_batch *scan_pool_submit(struct scan_pool *p, const git_oid *oids,
				    size_t n, struct site_list *results,
				    uint64_t *bytes, struct facts_z *facts);
/*
 * scan_pool_wait - @prog, when non-NULL, is updated while waiting; *@beside
 * (when non-NULL): how many of the batch's blobs were lexed beside their
 * delta bases, in the batch before.
 */
int scan_pool_wait(struct scan_pool *p, struct scan_batch *b,
		   struct progress *prog, size_t *beside);
/*
 * scan_pool_hold - with @hold, the workers take no new run until a call
 * without it (a run already taken goes on; scan_pool_stop() ends a hold):
 * batches submitted meanwhile are all queued, each following the one
 * before it, before any is lexed.  For tests, whose lexing must not race
 * the submissions.
 */
void scan_pool_hold(struct scan_pool *p, bool hold);
void scan_pool_stop(struct scan_pool *p);

/*
 * scan_lex_blobs - lex blobs @oids[0..n) of the repository at @repo_path
 * with @jobs threads (a pool for this one batch); results[i] receives
 * the sites of oids[i], bytes[i] its size.  @prog, when non-NULL, is
 * updated with the number done.
 */
int scan_lex_blobs(const char *repo_path, const git_oid *oids, size_t n,
		   int jobs, struct site_list *results, uint64_t *bytes,
		   struct progress *prog);

#endif
