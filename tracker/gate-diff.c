// SPDX-License-Identifier: GPL-2.0
/*
 * gate-diff.c - the files a change touches: a tree-to-tree walk that skips
 * identical subtrees, and the changed line numbers of each file pair.
 */
#include <stdlib.h>
#include <string.h>

#include "gate-internal.h"
#include "scan.h"

static bool is_source_mode(uint16_t mode)
{
	return mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE;
}

static size_t files_add(struct gate_files *f, const char *path,
			const git_oid *oid)
{
	struct gate_file *e;

	ALLOC_GROW(f->v, f->n + 1, f->alloc);
	e = &f->v[f->n];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	git_oid_cpy(&e->oid, oid);
	return f->n++;
}

struct line_acc {
	unsigned int *v;
	size_t n, alloc;
};

static void line_acc_add(struct line_acc *a, unsigned int line)
{
	ALLOC_GROW(a->v, a->n + 1, a->alloc);
	a->v[a->n++] = line;
}

static int line_cb(const git_diff_delta *delta, const git_diff_hunk *hunk,
		   const git_diff_line *line, void *payload)
{
	struct line_acc *acc = payload;	/* [0] deleted, [1] added */

	(void)delta;
	(void)hunk;
	if (line->origin == GIT_DIFF_LINE_ADDITION && line->new_lineno > 0)
		line_acc_add(&acc[1], (unsigned int)line->new_lineno);
	else if (line->origin == GIT_DIFF_LINE_DELETION && line->old_lineno > 0)
		line_acc_add(&acc[0], (unsigned int)line->old_lineno);
	return 0;
}

/* The changed lines of a file pair (either side may be absent). */
static int changed_lines(git_repository *repo, struct gate_file *bf,
			 struct gate_file *af)
{
	git_diff_options opts;
	struct line_acc acc[2] = { { 0 } };
	git_blob *ob = NULL, *nb = NULL;
	int ret = 0;

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.context_lines = 0;
	opts.flags = GIT_DIFF_FORCE_TEXT;
	if (bf && git_blob_lookup(&ob, repo, &bf->oid) < 0) {
		ret = kmig_err_git("cannot read blob");
		goto out_free;
	}
	if (af && git_blob_lookup(&nb, repo, &af->oid) < 0) {
		ret = kmig_err_git("cannot read blob");
		goto out_free;
	}
	if (git_diff_blobs(ob, bf ? bf->path : NULL, nb, af ? af->path : NULL,
			   &opts, NULL, NULL, NULL, line_cb, acc) < 0) {
		ret = kmig_err_git("cannot compare blobs");
		goto out_free;
	}
	/* the diff emits lines in increasing order on each side */
	if (bf) {
		bf->changed = acc[0].v;
		bf->nchanged = acc[0].n;
		acc[0].v = NULL;
	}
	if (af) {
		af->changed = acc[1].v;
		af->nchanged = acc[1].n;
		acc[1].v = NULL;
	}
out_free:
	free(acc[0].v);
	free(acc[1].v);
	git_blob_free(ob);
	git_blob_free(nb);
	return ret;
}

/*
 * Comparing two trees.  libgit2's tree-to-tree diff visits every entry of
 * both trees; a kernel tree has ~75000, so for "kmig log" over thousands
 * of commits this walk skips identical subtrees by id, as git does.
 */
struct tdiff {
	struct gate *g;
	struct gate_touched *out;
	struct sbuf path;
	bool lines;
};

/* Entries in git's tree order: a tree's name compares as "name/". */
static int entry_cmp(const git_tree_entry *x, const git_tree_entry *y)
{
	const char *a = git_tree_entry_name(x), *b = git_tree_entry_name(y);
	size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;
	int c = memcmp(a, b, n);
	unsigned char ca, cb;

	if (c)
		return c;
	ca = n < la ? (unsigned char)a[n] :
	     git_tree_entry_type(x) == GIT_OBJECT_TREE ? '/' : 0;
	cb = n < lb ? (unsigned char)b[n] :
	     git_tree_entry_type(y) == GIT_OBJECT_TREE ? '/' : 0;
	return ca - cb;
}

/* A blob entry on one side: register it when it is an in-scope source. */
static struct gate_file *side_file(struct tdiff *t, const git_tree_entry *e,
				   struct gate_files *files)
{
	size_t k;

	if (!e || git_tree_entry_type(e) != GIT_OBJECT_BLOB ||
	    !is_source_mode(git_tree_entry_filemode(e)) ||
	    !path_in_scope(t->path.buf))
		return NULL;
	k = files_add(files, t->path.buf, git_tree_entry_id(e));
	gate_blobs_want(t->g->blobs, git_tree_entry_id(e));
	return &files->v[k];
}

static int tdiff_trees(struct tdiff *t, git_tree *a, git_tree *b);

/* Entries @x (old, or NULL) and @y (new, or NULL) of the same name. */
static int tdiff_entry(struct tdiff *t, const git_tree_entry *x,
		       const git_tree_entry *y)
{
	const git_tree_entry *e = x ? x : y;
	size_t len = t->path.len;
	int ret = 0;

	if (x && y && !git_oid_cmp(git_tree_entry_id(x), git_tree_entry_id(y)) &&
	    git_tree_entry_filemode(x) == git_tree_entry_filemode(y))
		return 0;
	sbuf_addstr(&t->path, git_tree_entry_name(e));
	if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
		git_tree *ta = NULL, *tb = NULL;

		sbuf_addch(&t->path, '/');
		if ((x && git_tree_lookup(&ta, t->g->repo, git_tree_entry_id(x)) < 0) ||
		    (y && git_tree_lookup(&tb, t->g->repo, git_tree_entry_id(y)) < 0))
			ret = kmig_err_git("cannot read tree");
		else
			ret = tdiff_trees(t, ta, tb);
		git_tree_free(ta);
		git_tree_free(tb);
	} else if (git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
		struct gate_file *bf = side_file(t, x, &t->out->before);
		struct gate_file *af = side_file(t, y, &t->out->after);

		if (t->lines && (bf || af))
			ret = changed_lines(t->g->repo, bf, af);
	}
	t->path.len = len;
	t->path.buf[len] = '\0';
	return ret;
}

static int tdiff_trees(struct tdiff *t, git_tree *a, git_tree *b)
{
	size_t na = a ? git_tree_entrycount(a) : 0;
	size_t nb = b ? git_tree_entrycount(b) : 0;
	size_t i = 0, j = 0;
	int ret = 0;

	while (!ret && (i < na || j < nb)) {
		const git_tree_entry *x = i < na ? git_tree_entry_byindex(a, i) : NULL;
		const git_tree_entry *y = j < nb ? git_tree_entry_byindex(b, j) : NULL;
		int c = !x ? 1 : !y ? -1 : entry_cmp(x, y);

		if (c < 0) {
			ret = tdiff_entry(t, x, NULL);
			i++;
		} else if (c > 0) {
			ret = tdiff_entry(t, NULL, y);
			j++;
		} else {
			ret = tdiff_entry(t, x, y);
			i++;
			j++;
		}
	}
	return ret;
}

int gate_touch(struct gate *g, git_tree *old, git_tree *new_, bool lines,
	       struct gate_touched *out)
{
	struct tdiff t = { g, out, SBUF_INIT, lines };
	int ret;

	memset(out, 0, sizeof(*out));
	sbuf_addstr(&t.path, "");
	ret = tdiff_trees(&t, old, new_);
	sbuf_release(&t.path);
	if (ret)
		gate_touched_clear(out);
	return ret;
}
