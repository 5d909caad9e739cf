// SPDX-License-Identifier: GPL-2.0
/*
 * kbuild-checkout.c - move the worktree src/ from commit to commit,
 * rewriting only the files that differ; see kbuild.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

#include "child.h"
#include "kbuild-internal.h"

/* Create the directories above @full (a path under src/). */
static int make_parent(const char *full)
{
	char *dir = xstrdup(full);
	int ret;

	*strrchr(dir, '/') = '\0';
	ret = mkdir_p(dir);
	free(dir);
	return ret;
}

/*
 * Write one blob (file or symlink) to src/@path.  An incremental move
 * writes the files of a new directory in diff order, so the first one
 * may be a symlink as well as a file: both create the directories above
 * them when missing (v6.1 -> v7.3 adds tools/perf/.../bullet-0d/ whose
 * first entry is a symlink).
 */
static int write_blob(struct kbuild *kb, const char *path,
		      const git_oid *oid, git_filemode_t mode)
{
	char *full = xasprintf("%s/%s", kb->src, path);
	git_blob *blob = NULL;
	const void *data;
	size_t len;
	int fd, ret = 0;

	if (mode == GIT_FILEMODE_COMMIT)	/* submodule: nothing to write */
		goto out_free;
	if (git_blob_lookup(&blob, kb->repo, oid)) {
		ret = kmig_err_git(path);
		goto out_free;
	}
	data = git_blob_rawcontent(blob);
	len = (size_t)git_blob_rawsize(blob);
	if (unlink(full) && errno != ENOENT) {
		ret = kmig_err("cannot remove '%s': %s", full, strerror(errno));
		goto out_blob;
	}
	if (mode == GIT_FILEMODE_LINK) {
		char *target = xstrndup(data, len);

		int rc = symlink(target, full);

		if (rc && errno == ENOENT && !make_parent(full))
			rc = symlink(target, full);
		if (rc)
			ret = kmig_err("cannot create '%s': %s", full,
				       strerror(errno));
		free(target);
		goto out_blob;
	}
	fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		  mode == GIT_FILEMODE_BLOB_EXECUTABLE ? 0755 : 0644);
	if (fd < 0 && errno == ENOENT && !make_parent(full))
		fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  mode == GIT_FILEMODE_BLOB_EXECUTABLE ? 0755 : 0644);
	if (fd < 0) {
		ret = kmig_err("cannot create '%s': %s", full, strerror(errno));
		goto out_blob;
	}
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = kmig_err("cannot write '%s': %s", full,
				       strerror(errno));
			break;
		}
		data = (const char *)data + n;
		len -= (size_t)n;
	}
	if (close(fd) && !ret)
		ret = kmig_err("cannot write '%s': %s", full, strerror(errno));
out_blob:
	git_blob_free(blob);
out_free:
	free(full);
	return ret;
}

/* Remove @path and then its parent directories while they are empty. */
static int remove_path(struct kbuild *kb, const char *path)
{
	char *full = xasprintf("%s/%s", kb->src, path);
	size_t top = strlen(kb->src);
	char *slash;
	int ret = 0;

	if (unlink(full) && errno != ENOENT)
		ret = kmig_err("cannot remove '%s': %s", full, strerror(errno));
	while ((slash = strrchr(full, '/')) && (size_t)(slash - full) > top) {
		*slash = '\0';
		if (rmdir(full))
			break;
	}
	free(full);
	return ret;
}

struct walk_ctx {
	struct kbuild *kb;
	int ret;
	size_t files;
};

static int walk_cb(const char *root, const git_tree_entry *e, void *payload)
{
	struct walk_ctx *w = payload;
	char *path;

	if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
		path = xasprintf("%s/%s%s", w->kb->src, root,
				 git_tree_entry_name(e));
		if (mkdir(path, 0755) && errno != EEXIST)
			w->ret = kmig_err("cannot create '%s': %s", path,
					  strerror(errno));
		free(path);
		return w->ret ? -1 : 0;
	}
	path = xasprintf("%s%s", root, git_tree_entry_name(e));
	w->ret = write_blob(w->kb, path, git_tree_entry_id(e),
			    git_tree_entry_filemode(e));
	free(path);
	w->files++;
	return w->ret ? -1 : 0;
}

static int full_checkout(struct kbuild *kb, git_tree *tree)
{
	struct walk_ctx w = { kb, 0, 0 };
	double start = mono_now();

	kbuild_note(kb, "writing the worktree '%s'", kb->src);
	if (rm_rf(kb->src) || mkdir_p(kb->src))
		return -1;
	if (git_tree_walk(tree, GIT_TREEWALK_PRE, walk_cb, &w) && !w.ret)
		w.ret = kmig_err_git("cannot walk the tree");
	if (!w.ret)
		kbuild_note(kb, "wrote %zu files in %.1fs", w.files,
			    mono_now() - start);
	return w.ret;
}

static bool is_config_path(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, "Kconfig", 7) ||
	       !strncmp(path, "kernel/configs/", 15) ||
	       !strncmp(path, "arch/x86/configs/", 17) ||
	       !strncmp(path, "scripts/kconfig/", 16);
}

/*
 * Apply the old→new tree diff to src/: deletions first (a directory may
 * become a file), then additions and modifications.  Sets *@kconfig when
 * a file that can change the configuration differs.
 */
static int incremental_checkout(struct kbuild *kb, git_tree *old,
				git_tree *new, bool *kconfig)
{
	git_diff_options opts;
	git_diff *diff = NULL;
	size_t i, n, changed = 0;
	int pass, ret = 0;

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	if (git_diff_tree_to_tree(&diff, kb->repo, old, new, &opts))
		return kmig_err_git("cannot diff the trees");
	n = git_diff_num_deltas(diff);
	for (pass = 0; pass < 2 && !ret; pass++) {
		for (i = 0; i < n && !ret; i++) {
			const git_diff_delta *d = git_diff_get_delta(diff, i);

			if (is_config_path(d->old_file.path) ||
			    is_config_path(d->new_file.path))
				*kconfig = true;
			if (pass == 0 && (d->status == GIT_DELTA_DELETED ||
					  d->status == GIT_DELTA_TYPECHANGE))
				ret = remove_path(kb, d->old_file.path);
			if (pass == 1 && d->status != GIT_DELTA_DELETED) {
				ret = write_blob(kb, d->new_file.path,
						 &d->new_file.id,
						 d->new_file.mode);
				changed++;
			}
		}
	}
	git_diff_free(diff);
	if (!ret)
		kbuild_note(kb, "worktree moved: %zu files written, %zu deltas",
			    changed, n);
	return ret;
}

static int tree_of(git_tree **out, struct kbuild *kb, const char *hex)
{
	git_oid oid;
	git_commit *c;
	int ret;

	if (git_oid_fromstr(&oid, hex) || git_commit_lookup(&c, kb->repo, &oid))
		return kmig_err_git(hex);
	ret = git_commit_tree(out, c);
	git_commit_free(c);
	return ret ? kmig_err_git(hex) : 0;
}

int kbuild_move(struct kbuild *kb, const char *commit, bool *kconfig)
{
	git_tree *old = NULL, *new = NULL;
	struct stat st;
	int ret;

	*kconfig = false;
	if (!strcmp(kb->state_commit, commit) && !stat(kb->src, &st))
		return 0;
	if (tree_of(&new, kb, commit))
		return -1;
	if (kb->state_commit[0] && !stat(kb->src, &st) &&
	    !tree_of(&old, kb, kb->state_commit)) {
		/* Forget the state first: an interrupted move is redone in full. */
		kb->state_commit[0] = '\0';
		ret = kbuild_write_state(kb);
		if (!ret)
			ret = incremental_checkout(kb, old, new, kconfig);
	} else {
		kb->state_commit[0] = '\0';
		ret = kbuild_write_state(kb);
		if (!ret)
			ret = full_checkout(kb, new);
		*kconfig = true;
	}
	if (!ret) {
		memcpy(kb->state_commit, commit, 41);
		ret = kbuild_write_state(kb);
	}
	git_tree_free(old);
	git_tree_free(new);
	return ret;
}

int kbuild_checkout(struct kbuild *kb, const char *commit)
{
	bool kconfig;

	if (kbuild_move(kb, commit, &kconfig))
		return -1;
	if (kconfig) {
		/* build/.config is stale now for kbuild_commit(). */
		kb->state_config[0] = '\0';
		return kbuild_write_state(kb);
	}
	return 0;
}

/* Give @kb's repository an in-memory object store written before disk. */
static int add_mempack(struct kbuild *kb)
{
	git_odb_backend *mempack = NULL;
	git_odb *odb = NULL;
	int ret = 0;

	if (git_repository_odb(&odb, kb->repo))
		return kmig_err_git("cannot open the object database");
	if (git_mempack_new(&mempack) ||
	    git_odb_add_backend(odb, mempack, 1000)) {
		if (mempack)
			mempack->free(mempack);
		ret = kmig_err_git("cannot make an in-memory object store");
	}
	git_odb_free(odb);
	return ret;
}

int kbuild_revert(struct kbuild *kb, const char *onto, const char *commit,
		  char out[41])
{
	git_commit *ours = NULL, *theirs = NULL;
	git_index *index = NULL;
	git_tree *tree = NULL;
	git_signature *sig = NULL;
	git_oid oid, tree_oid;
	char *msg = NULL;
	int ret;

	if (git_oid_fromstr(&oid, onto) ||
	    git_commit_lookup(&ours, kb->repo, &oid))
		return kmig_err_git(onto);
	if (git_oid_fromstr(&oid, commit) ||
	    git_commit_lookup(&theirs, kb->repo, &oid)) {
		ret = kmig_err_git(commit);
		goto out_free;
	}
	if (git_revert_commit(&index, kb->repo, theirs, ours, 0, NULL)) {
		ret = kmig_err_git("cannot revert");
		goto out_free;
	}
	if (git_index_has_conflicts(index)) {
		ret = KMIG_ECONFLICT;
		goto out_free;
	}
	ret = add_mempack(kb);
	if (ret)
		goto out_free;
	msg = xasprintf("Revert \"%s\"\n\nThis reverts commit %s.\n\n"
			"(made by kmig bisect in memory, to check the culprit)\n",
			git_commit_summary(theirs) ? git_commit_summary(theirs) : "",
			commit);
	if (git_index_write_tree_to(&tree_oid, index, kb->repo) ||
	    git_tree_lookup(&tree, kb->repo, &tree_oid) ||
	    git_signature_new(&sig, "kmig bisect", "kmig@kmig.invalid",
			      git_commit_time(ours), 0) ||
	    git_commit_create(&oid, kb->repo, NULL, sig, sig, NULL, msg, tree,
			      1, (const git_commit **)&ours)) {
		ret = kmig_err_git("cannot write the revert commit");
		goto out_free;
	}
	git_oid_tostr(out, 41, &oid);
out_free:
	free(msg);
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(index);
	git_commit_free(theirs);
	git_commit_free(ours);
	return ret;
}
