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
 * scan_tree_files - the in-scope files of @tree (path_in_scope()), and the
 * top-level MAINTAINERS blob id in @maintainers (zero when absent).
 */
int scan_tree_files(struct scan_files *out, git_oid *maintainers,
		    git_tree *tree);

/*
 * scan_tune_libgit2 - libgit2 settings for reading many blobs: no SHA-1
 * re-hashing of each object, small pack windows (a bounded resident set).
 * Call before opening the repository; scan_lex_blobs() calls it too.
 */
void scan_tune_libgit2(void);

/*
 * scan_lex_blobs - lex blobs @oids[0..n) of the repository at @repo_path
 * with @jobs threads (each opens its own repository); results[i] receives
 * the sites of oids[i], bytes[i] its size.  @prog, when non-NULL, is
 * updated with the number done.
 */
int scan_lex_blobs(const char *repo_path, const git_oid *oids, size_t n,
		   int jobs, struct site_list *results, uint64_t *bytes,
		   struct progress *prog);

#endif
