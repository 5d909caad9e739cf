/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild.h - build a kernel commit for QEMU in kmig's own worktree.
 *
 * Each repository gets a work area $KMIG_HOME/work/<id>/ (id: a hash of
 * the repository's path) that is never the user's checkout:
 *
 *	src/		the worktree, written from git objects with libgit2
 *	build/		the out-of-tree build directory (make O=build)
 *	images/		bzImage of every commit built, <commit>-<config>.bzImage
 *	logs/		build logs and QEMU console logs
 *	state		"commit <id>" of src/ and "config <hash>" of build/.config
 *	lock		flock()ed while a kmig uses the work area
 *
 * Moving src/ to another commit diffs the two trees and rewrites or
 * deletes only the files that differ, so unchanged files keep their mtimes
 * and the kernel's make rebuilds only what changed.  The configuration is
 * "make tinyconfig", then qemu/kmig.config merged with the tree's own
 * scripts/kconfig/merge_config.sh, then "make olddefconfig"; it is redone
 * only when the fragment or a Kconfig file changed.  The compiler is
 * "ccache gcc" when ccache is installed (CCACHE_DIR defaults to
 * $KMIG_HOME/ccache), make runs with -j<ncpus>.
 *
 * Usage (what "kmig boot", "kmig bisect" and "kmig branch test" do):
 *
 *	struct kbuild *kb;
 *	struct kbuild_result res;
 *
 *	kbuild_open(&kb, kmig_home(), repo_path, show_note, NULL);
 *	kbuild_commit(kb, "v6.1.192", &res);	// any revspec
 *	if (res.status == KBUILD_OK)
 *		qemu_boot(..., res.image, ...);	// see qemu.h
 *	kbuild_result_release(&res);
 *	kbuild_close(kb);
 *
 * kbuild prints nothing.  What it is doing (writing the worktree,
 * configuring, building, compile-checking, waiting for the lock) is
 * reported as one line of text, without a newline, to the caller's
 * kbuild_note_fn, which decides whether and how to show it.
 *
 * Return convention: 0 or negative with kmig_err() recorded.  A kernel
 * that does not build is not an error: kbuild_commit() returns 0 with
 * res.status == KBUILD_FAILED and the log path.
 */
#ifndef KMIG_KBUILD_H
#define KMIG_KBUILD_H

#include <stdbool.h>

struct kbuild;

enum kbuild_status {
	KBUILD_OK,
	KBUILD_FAILED,
};

struct kbuild_result {
	char commit[41];		/* full commit id */
	char *subject;			/* commit subject line */
	char config_hash[41];		/* hash of the configuration recipe */
	enum kbuild_status status;
	bool cached;			/* image reused, nothing was built */
	double seconds;			/* checkout + configure + make */
	char *log_path;			/* build log (NULL when cached) */
	char *image;			/* bzImage path (KBUILD_OK only) */
	char *missing;			/* fragment options that did not
					 * survive, space-separated; NULL if
					 * all did.  A reused image: as its
					 * build recorded (IMAGE.missing) */
	char *error;			/* first compiler error line of the
					 * log (KBUILD_FAILED), or NULL */
	char *inherited;		/* kbuild_compile_check(): files that
					 * fail at the parent too, space-
					 * separated, or NULL */
	size_t compiled;		/* kbuild_compile_check(): files
					 * that compiled */
	size_t tried;			/* kbuild_compile_check(): .c files
					 * tried */
	char *configs;			/* kbuild_compile_check(): the
					 * configurations files compiled
					 * under ("x86_64 arm64"), or NULL */
};

/*
 * The progress of a work area: KBUILD_NOTE_WAIT is "waiting for another
 * kmig using DIR" (sent once, before blocking on the lock), every other
 * line is KBUILD_NOTE_PROGRESS.  @msg is valid during the call only.
 */
enum kbuild_note {
	KBUILD_NOTE_PROGRESS,
	KBUILD_NOTE_WAIT,
};
typedef void kbuild_note_fn(void *data, enum kbuild_note kind,
			    const char *msg);

/*
 * kbuild_open - open the work area for the repository at @repo_path
 * under @home, creating it if needed, and take its lock (waits, after a
 * KBUILD_NOTE_WAIT note, while another kmig holds it).  @note (may be
 * NULL: no progress) gets every progress line of the work area, with
 * @note_data.  Returns 0 with *@out set (free with kbuild_close()), or
 * negative with the error recorded.
 */
int kbuild_open(struct kbuild **out, const char *home, const char *repo_path,
		kbuild_note_fn *note, void *note_data);
/* kbuild_close - release the lock and free @kb (NULL is fine). */
void kbuild_close(struct kbuild *kb);

/* kbuild_dir - the work area's directory (logs/ lives below it). */
const char *kbuild_dir(const struct kbuild *kb);

/*
 * kbuild_resolve - resolve @rev to a full commit id and, when @subject is
 * non-NULL, its subject line (caller frees).
 */
int kbuild_resolve(struct kbuild *kb, const char *rev, char out[41],
		   char **subject);

/*
 * kbuild_commit - make src/ the tree of @rev and build its bzImage with
 * the QEMU configuration.  The image is reused when this commit was
 * already built with the same configuration recipe, unless @flags has
 * KBUILD_REBUILD (build again and replace the image).  Progress goes to
 * the note callback; the build's output goes to res->log_path.
 */
#define KBUILD_REBUILD	0x1u
int kbuild_commit(struct kbuild *kb, const char *rev, unsigned int flags,
		  struct kbuild_result *res);
void kbuild_result_release(struct kbuild_result *res);

/*
 * kbuild_checkout - only move src/ to @commit (a full id), as
 * kbuild_commit() does; for callers that run their own make (for example
 * a wide-configuration compile check with another O= directory).
 */
int kbuild_checkout(struct kbuild *kb, const char *commit);

/*
 * kbuild_revert - a commit that reverts @commit on top of @onto (full
 * ids), made in memory only: its objects live in an in-memory object
 * store of kbuild's repository handle (the repository on disk is not
 * written), so kbuild_commit() builds it while @kb is open.  The commit
 * is deterministic (kmig as author, @onto's commit time), so its image
 * is reused by a later run.  *@out its id.  Returns 0, KMIG_ECONFLICT
 * when the revert does not apply cleanly (no error recorded), or
 * negative with kmig_err().
 */
int kbuild_revert(struct kbuild *kb, const char *onto, const char *commit,
		  char out[41]);

/*
 * kbuild_compile_check - compile-check C files of @rev under wide
 * configurations, those of @configs in this order:
 *	KBUILD_CHECK_X86_64	x86_64 allmodconfig (directory wide-<base>/)
 *	KBUILD_CHECK_ARM64	arm64 allmodconfig with Debian's cross
 *				compiler, ARCH=arm64
 *				CROSS_COMPILE=aarch64-linux-gnu-
 *				(directory wide-arm64-<base>/)
 * each "make allmodconfig" prepared once per @base (any revspec) in the
 * work area; then, with src/ moved to @rev, "make W=1 <file>.o" for each
 * of @files (paths of .c files in the tree).  A file that does not
 * compile under one configuration is compiled at @rev's first parent: if
 * it compiles there, the step broke it (res->status KBUILD_FAILED,
 * res->error the first compiler error, res->log_path the log); if not,
 * the next configuration is tried.  A file no configuration compiles at
 * the parent either (an ARM-only driver, or one whose header stubs clash)
 * is not the step's doing: it is listed in res->inherited.  res->compiled
 * counts the files that compiled, res->tried the .c files, res->configs
 * names the configurations they compiled under.  A configuration whose
 * allmodconfig cannot be made (no cross compiler) is skipped.  No image
 * is produced.  For "kmig branch test": drivers the QEMU kernel does not
 * build are still compiled.
 */
#define KBUILD_CHECK_X86_64	0x1u
#define KBUILD_CHECK_ARM64	0x2u
#define KBUILD_CHECK_ALL	(KBUILD_CHECK_X86_64 | KBUILD_CHECK_ARM64)
int kbuild_compile_check(struct kbuild *kb, const char *base, const char *rev,
			 const char *const *files, size_t nfiles,
			 unsigned int configs, struct kbuild_result *res);

/* kbuild_src_dir - the worktree (valid after kbuild_checkout()). */
const char *kbuild_src_dir(const struct kbuild *kb);

#endif
