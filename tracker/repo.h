/* SPDX-License-Identifier: GPL-2.0 */
/*
 * repo.h - libgit2 helpers shared by the commands.
 *
 * Every function returns 0 or a negative code with the message recorded
 * (kmig_err / kmig_err_git).  Objects returned through **out are the
 * caller's to free with the matching git_*_free().
 */
#ifndef KMIG_REPO_H
#define KMIG_REPO_H

#include <git2.h>
#include <stdbool.h>

#include "util.h"

/*
 * repo_open - open an existing repository (bare or not) at @path, with
 * repo_guard_loose() in place.
 */
int repo_open(git_repository **out, const char *path);
/*
 * repo_guard_loose - make reading a corrupt loose object of @repo an
 * error naming it ("loose object <id> is corrupt: ...").  libgit2 1.5
 * loops forever inflating a truncated loose object (libgit2 #7342); the
 * guard inflates each loose object once before libgit2 reads it.
 */
int repo_guard_loose(git_repository *repo);
/*
 * repo_open_or_init - open, or create a bare repository at @path;
 * *@created tells whether this call made it (another process may have
 * made it at the same time: then it is opened, not created).
 */
int repo_open_or_init(git_repository **out, const char *path, bool *created);
/* repo_resolve_commit - @rev (any revspec) peeled to a commit. */
int repo_resolve_commit(git_commit **out, git_repository *repo, const char *rev);
/* repo_tag_exists - true when refs/tags/@tag exists. */
bool repo_tag_exists(git_repository *repo, const char *tag);
/*
 * repo_unknown_revision - the error for @arg, a revision or a range A..B
 * (A...B) that git_revparse() refused: "unknown revision 'B' in 'A..B'"
 * naming the side that is no revision.  Always negative (kmig_err()).
 */
int repo_unknown_revision(git_repository *repo, const char *arg);

/*
 * repo_write_dir_tree - write every file below directory @dir (regular
 * files, executables and symlinks; ignore rules are not consulted, as
 * "git add -f" would do) and its trees into one new pack of @repo, using
 * @jobs threads for the blobs, and return the root tree id in @out.
 * @base (or NULL) is the previous release's tree: the pack holding it is
 * copied into the new pack (which replaces it), and each blob or tree is
 * stored as a delta against the one at the same path in @base when that
 * is less than half its size (packwrite.h).  @files and @bytes, when
 * non-NULL, receive totals for progress and messages.
 */
int repo_write_dir_tree(git_oid *out, git_repository *repo, const char *dir,
			const git_tree *base, int jobs, size_t *files,
			uint64_t *bytes);

/*
 * repo_blob_read - append the content of blob @oid to @out.
 * Returns 0, or negative with "cannot read blob: ..." recorded.
 */
int repo_blob_read(git_repository *repo, const git_oid *oid, struct sbuf *out);
/*
 * repo_blob_id_at - the blob id of the file at @path in @tree into *@out.
 * Returns 0; KMIG_ENOTFOUND (message recorded, @out untouched) when @path
 * is NULL, absent, or not a blob; else negative, "cannot read tree: ...".
 */
int repo_blob_id_at(git_tree *tree, const char *path, git_oid *out);
/*
 * repo_blob_at - append the content of the file at @path in @tree to @out.
 * Returns 0; KMIG_ENOTFOUND (message recorded, @out untouched) when @path
 * is NULL, absent, or not a blob (a directory, a submodule); else negative
 * with "cannot read tree: ..." or "cannot read blob: ..." recorded.
 */
int repo_blob_at(git_repository *repo, git_tree *tree, const char *path,
		 struct sbuf *out);

/* repo_oid_str - hex form of @oid in a static per-thread buffer. */
const char *repo_oid_str(const git_oid *oid);

#endif
