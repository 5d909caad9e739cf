/* SPDX-License-Identifier: GPL-2.0 */
/*
 * branch.h - apply a series patch to a commit with libgit2, or classify
 * why it does not apply.
 *
 * Nothing here touches a working tree, an index file or HEAD: trees are
 * built in memory with git_apply_to_tree() and commits are written with
 * git_commit_create() without updating any reference; the caller moves
 * the branch reference once.
 *
 * A patch that applies is "applied".  One that does not is:
 *  - "upstream" when the tree already has the change: the patch
 *    reverse-applies on the tree, or its patch-id (git patch-id, stable)
 *    equals that of a commit reachable from the base restricted to the
 *    patch's files (at most BRANCH_WALK_LIMIT commits are looked at);
 *  - "superseded" when it removes at least one tracked use and every use
 *    it removes is absent from its file in the tree (or the file is gone).
 *    A use is its rule and its first line up to its first comma,
 *    whitespace-normalised (a hunk may hold only part of a wrapped call,
 *    and upstream may have changed a later argument of it); where the
 *    repository has the blob the patch's index line names, a use is
 *    present only when the tree has more uses so keyed than the patch
 *    leaves there (another call with the same first argument is not it).  The removed lines of each hunk are lexed in the
 *    context of the hunk's pre-image (wrapped in braces, so that calls
 *    count as they do inside a function); the derived rule warn-on-user,
 *    which needs the enclosing function's name, is left out (its warn-on
 *    site is compared instead);
 *  - "conflict" otherwise.
 * The evidence is one line per fact: the libgit2 verdict, then per hunk
 * whether its pre-image or post-image is found in the file, and the
 * tracked uses it removes with "present" or "absent".
 */
#ifndef KMIG_BRANCH_H
#define KMIG_BRANCH_H

#include <git2.h>

#include "series.h"
#include "util.h"

struct store;

#define BRANCH_WALK_LIMIT 1000

enum branch_status {
	BRANCH_APPLIED,
	BRANCH_UPSTREAM,
	BRANCH_SUPERSEDED,
	BRANCH_CONFLICT,
	BRANCH__COUNT
};

extern const char *const branch_status_names[BRANCH__COUNT];

struct branch_outcome {
	enum branch_status status;
	git_oid commit;		/* BRANCH_APPLIED: the new commit */
	struct sbuf evidence;	/* one fact a line, each ending in '\n' */
};

void branch_outcome_clear(struct branch_outcome *o);

/*
 * branch_apply_one - apply patch @p (series file name @file) on @tip.
 * When it applies, write a commit with @tip as parent, the patch's
 * author, date and message plus a "Kmig-Patch: @file" trailer, committed
 * by @committer at the author date (so that applying the same series on
 * the same base gives the same commits).  Otherwise classify it; @base is
 * where the patch-id walk starts.  Returns 0 with @out filled, or
 * negative on a repository error (a patch that fails to apply is not an
 * error).
 */
int branch_apply_one(struct branch_outcome *out, git_repository *repo,
		     git_commit *tip, git_commit *base,
		     const struct mbox_patch *p, const char *file,
		     const char *committer_name, const char *committer_email);

/*
 * branch_apply_tree - the tree of @tree with patch @p applied as
 * branch_apply_one() applies it (with offsets too), no commit made: *@out
 * (git_tree_free() it), NULL when it does not apply.  0 or negative.
 */
int branch_apply_tree(git_tree **out, git_repository *repo, git_tree *tree,
		      const struct mbox_patch *p);

/*
 * branch_message_add_trailer - @message with "@key: @value" added to its
 * trailer block (a new paragraph when it has none).  malloc'd.
 */
char *branch_message_add_trailer(const char *message, const char *key,
				 const char *value);
/*
 * branch_message_trailer - the value of the last "@key:" trailer line of
 * @message (malloc'd), or NULL; with @strip non-NULL, *@strip receives
 * the message without that line (malloc'd).
 */
char *branch_message_trailer(const char *message, const char *key,
			     char **strip);

/*
 * branch_default_name - kmig/<@tag>, the name of the conversion branch
 * made on the tag @tag without --name (malloc'd).
 */
char *branch_default_name(const char *tag);

/*
 * branch_name_for - the branch a branch subcommand names from --name
 * @name and --base @base (or --onto), into *@out (malloc'd): @name when
 * given (NULL: none), else branch_default_name(@base), which only a tag
 * of @repo (refs/tags/@base) names: HEAD, a commit id or "v6.1~1" would
 * make kmig/HEAD, a name saying nothing of the base, or no branch name
 * at all.  Returns 0; KMIG_EUSAGE with "'@base' is not a tag: name the
 * branch with --name BRANCH" recorded for a revision that is no tag; else
 * repo_resolve_commit()'s error for a @base that is no revision
 * (KMIG_ENOTFOUND, "unknown revision").
 */
int branch_name_for(char **out, git_repository *repo, const char *name,
		    const char *base);

/*
 * branch_chosen - the branch status, export and test work on, into *@out
 * (malloc'd): branch_name_for() when @name or @base is given (@repo is
 * read for a @base without @name only), else the branch applied last in
 * @st; with no database yet (@st NULL) KMIG_ENOTFOUND, "no branch applied
 * yet: no database '@db_path' (run 'kmig branch apply')" (a mistyped
 * --db named).  0 or negative.
 */
int branch_chosen(char **out, git_repository *repo, struct store *st,
		  const char *db_path, const char *name, const char *base);

/*
 * kmig_identity - "KMIG_IDENTITY" ("Name <email>"), else git's user.name and
 * user.email as git reads them in @repo (its own configuration, then the
 * global and system ones; only those two without @repo), else kmig
 * <kmig@localhost>.
 */
void kmig_identity(git_repository *repo, char **name, char **email);

#endif
