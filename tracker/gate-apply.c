// SPDX-License-Identifier: GPL-2.0
/*
 * gate-apply.c - patches applied in memory: the preimage of the files a patch
 * names, each message applied in turn, the first failing file and hunk
 * explained.
 */
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <stdlib.h>
#include <string.h>

#include "gate-internal.h"
#include "patch.h"

/* ---- patches ---- */

int gate_mempack(git_repository *repo)
{
	git_odb_backend *mem = NULL;
	git_odb *odb = NULL;
	int ret = 0;

	if (git_mempack_new(&mem) < 0)
		return kmig_err_git("cannot create in-memory object store");
	if (git_repository_odb(&odb, repo) < 0) {
		mem->free(mem);
		return kmig_err_git("cannot open object database");
	}
	/* the highest priority: every write goes to memory */
	if (git_odb_add_backend(odb, mem, 1000) < 0) {
		mem->free(mem);
		ret = kmig_err_git("cannot add in-memory object store");
	}
	git_odb_free(odb);
	return ret;
}

/* The hunks of one file's patch text: offsets of the "@@" lines. */
static size_t split_hunks(const char *buf, size_t len, size_t **offs)
{
	const char *p = buf, *end = buf + len;
	size_t n = 0, alloc = 0;

	*offs = NULL;
	while (p < end) {
		if (patch_starts(p, end, "@@ ")) {
			ALLOC_GROW(*offs, n + 1, alloc);
			(*offs)[n++] = (size_t)(p - buf);
		}
		p += patch_line_len(p, end);
	}
	return n;
}

static bool applies(git_repository *repo, git_tree *tree, const char *buf,
		    size_t len)
{
	git_diff *diff = NULL;
	git_index *index = NULL;
	bool ok;

	if (git_diff_from_buffer(&diff, buf, len) < 0)
		return false;
	ok = git_apply_to_tree(&index, repo, tree, diff, NULL) == 0;
	git_index_free(index);
	git_diff_free(diff);
	return ok;
}

/*
 * The whole diff does not apply to @tree: find the first file and hunk
 * that fails by applying each file's hunks cumulatively.
 */
static int explain_failure(git_repository *repo, git_tree *tree,
			   git_diff *diff, const char *name)
{
	const git_error *e = git_error_last();
	char *why = xstrdup(e && e->message ? e->message : "patch failed");
	size_t i, n = git_diff_num_deltas(diff);
	int ret = KMIG_EGENERIC;

	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *path = d->status == GIT_DELTA_DELETED ?
				   d->old_file.path : d->new_file.path;
		git_patch *patch = NULL;
		git_buf text = { 0 };
		size_t *offs = NULL, nh, k;
		bool found = false;

		if (git_patch_from_diff(&patch, diff, i) < 0 ||
		    git_patch_to_buf(&text, patch) < 0) {
			git_patch_free(patch);
			continue;
		}
		nh = split_hunks(text.ptr, text.size, &offs);
		if (!nh && !applies(repo, tree, text.ptr, text.size)) {
			kmig_err("patch %s does not apply: %s: %s", name, path,
				 why);
			found = true;
		}
		for (k = 0; k < nh && !found; k++) {
			size_t upto = k + 1 < nh ? offs[k + 1] : text.size;
			const char *h = text.ptr + offs[k];

			if (applies(repo, tree, text.ptr, upto))
				continue;
			kmig_err("patch %s does not apply: %s: hunk #%zu (%.*s) does not match",
				 name, path, k + 1,
				 (int)(patch_line_len(h, text.ptr + text.size) - 1), h);
			found = true;
		}
		free(offs);
		git_buf_dispose(&text);
		git_patch_free(patch);
		if (found)
			goto out_free;
	}
	kmig_err("patch %s does not apply: %s", name, why);
out_free:
	free(why);
	return ret;
}

static int apply_one(git_tree **tree, git_repository *repo, const char *name,
		     const char *buf, size_t len)
{
	git_diff *diff = NULL;
	git_index *index = NULL;
	git_tree *next = NULL;
	git_oid oid;
	int ret = 0;

	if (git_diff_from_buffer(&diff, buf, len) < 0) {
		const git_error *e = git_error_last();

		return kmig_err("cannot parse patch %s: %s", name,
				e && e->message ? e->message : "malformed");
	}
	if (git_apply_to_tree(&index, repo, *tree, diff, NULL) < 0) {
		ret = explain_failure(repo, *tree, diff, name);
		goto out_free_diff;
	}
	if (git_index_write_tree_to(&oid, index, repo) < 0 ||
	    git_tree_lookup(&next, repo, &oid) < 0) {
		ret = kmig_err_git("cannot write patched tree");
		goto out_free_index;
	}
	git_tree_free(*tree);
	*tree = next;
out_free_index:
	git_index_free(index);
out_free_diff:
	git_diff_free(diff);
	return ret;
}

struct patch_msg {
	const char *start;
	size_t len;
	char *label;		/* for messages: "'NAME'" or "'NAME' (message N)" */
};

/* Split @buf into the diffs to apply, in order. */
static int split_patch(struct patch_msg **out, size_t *n, char **subject,
		       const char *name, const char *buf, size_t len)
{
	const char *end = buf + len, *ds, *de;
	struct patch_span *msgs = NULL;
	size_t alloc = 0, nmsg, i;

	*out = NULL;
	*n = 0;
	if (!patch_is_mbox(buf, len)) {
		/* a plain diff, maybe with some text before it */
		if (!patch_find_diff(buf, end, &ds, &de))
			return kmig_err("patch '%s' contains no diff", name);
		ALLOC_GROW(*out, 1, alloc);
		(*out)[0].start = ds;
		(*out)[0].len = (size_t)(de - ds);
		(*out)[0].label = xasprintf("'%s'", name);
		*n = 1;
		return 0;
	}
	nmsg = patch_mbox_split(&msgs, buf, len);
	for (i = 0; i < nmsg; i++) {
		const char *m = msgs[i].start, *mend = m + msgs[i].len;
		struct patch_msg *pm;

		if (!patch_find_diff(m, mend, &ds, &de))
			continue;	/* a cover letter */
		if (!*n)
			*subject = patch_message_subject(m, msgs[i].len);
		ALLOC_GROW(*out, *n + 1, alloc);
		pm = &(*out)[(*n)++];
		pm->start = ds;
		pm->len = (size_t)(de - ds);
		pm->label = nmsg > 1 ? xasprintf("'%s' (message %zu)", name, *n) :
				       xasprintf("'%s'", name);
	}
	free(msgs);
	if (!*n)
		return kmig_err("patch '%s' contains no diff", name);
	return 0;
}

/* Add the entry of @base at @path (if a file) to the index @idx. */
static int mini_add(git_index *idx, git_tree *base, const char *path)
{
	git_index_entry ie;
	git_tree_entry *e = NULL;
	int ret = 0;

	if (!path || git_index_get_bypath(idx, path, 0) ||
	    git_tree_entry_bypath(&e, base, path) < 0)
		return 0;
	if (git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
		memset(&ie, 0, sizeof(ie));
		ie.path = path;
		ie.mode = git_tree_entry_filemode(e);
		git_oid_cpy(&ie.id, git_tree_entry_id(e));
		if (git_index_add(idx, &ie) < 0)
			ret = kmig_err_git("cannot build the patch's preimage");
	}
	git_tree_entry_free(e);
	return ret;
}

/*
 * The preimage: a tree of only the files of @base that the diffs name,
 * plus .kmig-allow.  Applying to it gives the same touched files as
 * applying to the whole tree, without libgit2 reading and writing an
 * index of the whole tree (~75000 entries for a kernel).
 */
static int mini_base(git_tree **out, git_repository *repo, git_tree *base,
		     const struct patch_msg *msgs, size_t n)
{
	git_index *idx = NULL;
	git_oid oid;
	size_t i, k;
	int ret = 0;

	*out = NULL;
	if (git_index_new(&idx) < 0)
		return kmig_err_git("cannot create an index");
	ret = mini_add(idx, base, ".kmig-allow");
	for (i = 0; !ret && i < n; i++) {
		git_diff *diff = NULL;

		if (git_diff_from_buffer(&diff, msgs[i].start, msgs[i].len) < 0) {
			const git_error *e = git_error_last();

			ret = kmig_err("cannot parse patch %s: %s", msgs[i].label,
				       e && e->message ? e->message : "malformed");
			break;
		}
		for (k = 0; !ret && k < git_diff_num_deltas(diff); k++) {
			const git_diff_delta *d = git_diff_get_delta(diff, k);

			ret = mini_add(idx, base, d->old_file.path);
			if (!ret)
				ret = mini_add(idx, base, d->new_file.path);
		}
		git_diff_free(diff);
	}
	if (!ret && (git_index_write_tree_to(&oid, idx, repo) < 0 ||
		     git_tree_lookup(out, repo, &oid) < 0))
		ret = kmig_err_git("cannot write the patch's preimage");
	git_index_free(idx);
	return ret;
}

int gate_apply_patch(git_tree **old, git_tree **out, char **subject,
		     size_t *npatches, git_repository *repo, git_tree *base,
		     const char *name, const char *buf, size_t len)
{
	struct patch_msg *msgs = NULL;
	git_tree *tree = NULL;
	size_t n = 0, i;
	int ret;

	*old = *out = NULL;
	*subject = NULL;
	*npatches = 0;
	ret = split_patch(&msgs, &n, subject, name, buf, len);
	if (!ret)
		ret = mini_base(old, repo, base, msgs, n);
	if (!ret && git_object_dup((git_object **)&tree, (git_object *)*old) < 0)
		ret = kmig_err_git("cannot read base tree");
	for (i = 0; !ret && i < n; i++)
		ret = apply_one(&tree, repo, msgs[i].label, msgs[i].start,
				msgs[i].len);
	for (i = 0; i < n; i++)
		free(msgs[i].label);
	free(msgs);
	if (ret) {
		free(*subject);
		*subject = NULL;
		git_tree_free(tree);
		git_tree_free(*old);
		*old = NULL;
		return ret;
	}
	*npatches = n;
	*out = tree;
	return 0;
}
