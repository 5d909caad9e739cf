// SPDX-License-Identifier: GPL-2.0
/*
 * gate.c - the deprecated uses a change adds and removes: touched files,
 * their sites before and after, the multiset difference; patches applied
 * in memory; the allowlist.
 */
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "repo.h"
#include "rules.h"
#include "scan.h"
#include "store.h"

/* ---- blob id -> sites ---- */

struct gate_blob {
	git_oid oid;
	struct site_list sites;
	bool loaded;
};

struct gate_blobs {
	struct gate_blob *v;
	size_t n, alloc;
	size_t *slots;		/* index + 1, 0: empty */
	size_t cap;
	size_t nloaded;		/* v[0..nloaded) are all loaded */
};

static size_t oid_hash(const git_oid *oid)
{
	size_t h;

	memcpy(&h, oid->id, sizeof(h));
	return h;
}

static void blobs_rehash(struct gate_blobs *b)
{
	size_t i;

	free(b->slots);
	b->cap = b->cap ? b->cap * 2 : 1024;
	b->slots = xcalloc(b->cap, sizeof(*b->slots));
	for (i = 0; i < b->n; i++) {
		size_t s = oid_hash(&b->v[i].oid) & (b->cap - 1);

		while (b->slots[s])
			s = (s + 1) & (b->cap - 1);
		b->slots[s] = i + 1;
	}
}

static struct gate_blob *blobs_find(const struct gate_blobs *b,
				    const git_oid *oid)
{
	size_t s;

	if (!b->cap)
		return NULL;
	s = oid_hash(oid) & (b->cap - 1);
	while (b->slots[s]) {
		struct gate_blob *e = &b->v[b->slots[s] - 1];

		if (!git_oid_cmp(&e->oid, oid))
			return e;
		s = (s + 1) & (b->cap - 1);
	}
	return NULL;
}

static void blobs_want(struct gate_blobs *b, const git_oid *oid)
{
	size_t s;

	if (blobs_find(b, oid))
		return;
	if ((b->n + 1) * 2 > b->cap)
		blobs_rehash(b);
	ALLOC_GROW(b->v, b->n + 1, b->alloc);
	memset(&b->v[b->n], 0, sizeof(b->v[b->n]));
	git_oid_cpy(&b->v[b->n].oid, oid);
	s = oid_hash(oid) & (b->cap - 1);
	while (b->slots[s])
		s = (s + 1) & (b->cap - 1);
	b->slots[s] = ++b->n;
}

void gate_init(struct gate *g, git_repository *repo, struct store *st,
	       int jobs)
{
	memset(g, 0, sizeof(*g));
	g->repo = repo;
	g->st = st;
	g->jobs = jobs > 0 ? jobs : 1;
	g->blobs = xcalloc(1, sizeof(*g->blobs));
}

void gate_release(struct gate *g)
{
	size_t i;

	if (!g->blobs)
		return;
	for (i = 0; i < g->blobs->n; i++)
		site_list_clear(&g->blobs->v[i].sites);
	free(g->blobs->v);
	free(g->blobs->slots);
	free(g->blobs);
	g->blobs = NULL;
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
	blobs_want(t->g->blobs, git_tree_entry_id(e));
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

/* ---- loading sites: cache, else lex ---- */

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
				   bytes[i], &todo[i]->sites))
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

/* ---- the multiset difference ---- */

struct entry {
	int rule;
	int side;			/* +1 after, -1 before */
	const char *text;
	const struct gate_file *file;
	const struct site *site;
	bool on_change;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c;

	if (x->rule != y->rule)
		return x->rule < y->rule ? -1 : 1;
	c = strcmp(x->text, y->text);
	if (c)
		return c;
	c = strcmp(x->file->path, y->file->path);
	if (c)
		return c;
	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	if (x->on_change != y->on_change)
		return x->on_change ? -1 : 1;
	if (x->site->line != y->site->line)
		return x->site->line < y->site->line ? -1 : 1;
	return 0;
}

/* Candidates across paths: changed lines first, then path and line order. */
static int cmp_candidate(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a;
	const struct entry *y = *(const struct entry *const *)b;
	int c;

	if (x->on_change != y->on_change)
		return x->on_change ? -1 : 1;
	c = strcmp(x->file->path, y->file->path);
	if (c)
		return c;
	if (x->site->line != y->site->line)
		return x->site->line < y->site->line ? -1 : 1;
	return 0;
}

static int cmp_gate_site(const void *a, const void *b)
{
	const struct gate_site *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->rule - y->rule;
}

static bool line_changed(const struct gate_file *f, unsigned int line)
{
	size_t lo = 0, hi = f->nchanged;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (f->changed[mid] == line)
			return true;
		if (f->changed[mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int add_entries(struct gate *g, const struct gate_files *files,
		       int side, struct entry **v, size_t *n, size_t *alloc)
{
	size_t i, j;

	for (i = 0; i < files->n; i++) {
		const struct gate_file *f = &files->v[i];
		const struct gate_blob *b = blobs_find(g->blobs, &f->oid);

		if (!b || !b->loaded)
			return kmig_err("internal error: blob %s of '%s' not loaded",
					repo_oid_str(&f->oid), f->path);
		for (j = 0; j < b->sites.n; j++) {
			const struct site *s = &b->sites.v[j];
			struct entry *e;

			ALLOC_GROW(*v, *n + 1, *alloc);
			e = &(*v)[(*n)++];
			e->rule = s->rule;
			e->side = side;
			e->text = s->text ? s->text : "";
			e->file = f;
			e->site = s;
			e->on_change = f->changed && line_changed(f, s->line);
		}
	}
	return 0;
}

static void emit(struct gate_sites *out, const struct entry *e)
{
	struct gate_site *s;

	ALLOC_GROW(out->v, out->n + 1, out->alloc);
	s = &out->v[out->n++];
	s->rule = e->rule;
	s->line = e->site->line;
	s->path = e->file->path;
	s->func = e->site->func;
	s->text = e->text;
	s->on_change = e->on_change;
	s->allow = -1;
}

/*
 * One group of equal (rule, text) entries, ordered by path, side, changed
 * first, line: the @net surplus entries of side @side become the result.
 * Candidates are the surplus of each path (a path that has as many copies
 * on both sides is untouched for this line).  A candidate in the same
 * function as a surplus entry of the other side is taken as that code
 * moved, as long as enough candidates remain; of the rest, changed lines
 * are preferred.
 */
static void pick_surplus(const struct entry *g, size_t n, int side, long net,
			 struct gate_sites *out, const struct entry ***cand,
			 size_t *acand)
{
	size_t i = 0, nc = 0, no = 0, k, m, drop;
	const struct entry **other = NULL;
	size_t aother = 0;

	while (i < n) {
		size_t j = i, mine = 0, theirs = 0;
		size_t first_mine = SIZE_MAX, first_theirs = SIZE_MAX;

		while (j < n && !strcmp(g[j].file->path, g[i].file->path)) {
			if (g[j].side == side) {
				if (first_mine == SIZE_MAX)
					first_mine = j;
				mine++;
			} else {
				if (first_theirs == SIZE_MAX)
					first_theirs = j;
				theirs++;
			}
			j++;
		}
		for (k = 0; mine > theirs && k < mine - theirs; k++) {
			ALLOC_GROW(*cand, nc + 1, *acand);
			(*cand)[nc++] = &g[first_mine + k];
		}
		for (k = 0; theirs > mine && k < theirs - mine; k++) {
			ALLOC_GROW(other, no + 1, aother);
			other[no++] = &g[first_theirs + k];
		}
		i = j;
	}
	drop = nc > (size_t)net ? nc - (size_t)net : 0;
	for (k = 0; drop && k < nc; k++) {
		const char *f = (*cand)[k]->site->func;

		for (m = 0; f && m < no; m++) {
			if (!other[m] || !other[m]->site->func ||
			    strcmp(other[m]->site->func, f))
				continue;
			other[m] = NULL;
			(*cand)[k] = NULL;
			drop--;
			break;
		}
	}
	for (k = m = 0; k < nc; k++)
		if ((*cand)[k])
			(*cand)[m++] = (*cand)[k];
	nc = m;
	if (nc)
		qsort(*cand, nc, sizeof(**cand), cmp_candidate);
	for (k = 0; k < nc && (long)k < net; k++)
		emit(out, (*cand)[k]);
	free(other);
}

int gate_compare(struct gate *g, const struct gate_touched *t,
		 struct gate_change *out)
{
	struct entry *v = NULL;
	const struct entry **cand = NULL;
	size_t n = 0, alloc = 0, acand = 0, i = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = add_entries(g, &t->before, -1, &v, &n, &alloc);
	if (!ret)
		ret = add_entries(g, &t->after, 1, &v, &n, &alloc);
	if (ret)
		goto out_free;
	if (n)
		qsort(v, n, sizeof(*v), cmp_entry);
	while (i < n) {
		size_t j = i;
		long net = 0;

		while (j < n && v[j].rule == v[i].rule &&
		       !strcmp(v[j].text, v[i].text)) {
			net += v[j].side;
			j++;
		}
		if (net > 0)
			pick_surplus(&v[i], j - i, 1, net, &out->added, &cand,
				     &acand);
		else if (net < 0)
			pick_surplus(&v[i], j - i, -1, -net, &out->removed,
				     &cand, &acand);
		i = j;
	}
	if (out->added.n)
		qsort(out->added.v, out->added.n, sizeof(*out->added.v),
		      cmp_gate_site);
	if (out->removed.n)
		qsort(out->removed.v, out->removed.n, sizeof(*out->removed.v),
		      cmp_gate_site);
out_free:
	free(cand);
	free(v);
	return ret;
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

/* Length of the line at @p (up to @end), including its '\n'. */
static size_t line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
}

static bool starts(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(end - p) >= n && !memcmp(p, s, n);
}

/* "From <40 hex> " - the first line of each git format-patch message. */
static bool is_from_line(const char *p, const char *end)
{
	int i;

	if (!starts(p, end, "From ") || end - p < 46)
		return false;
	for (i = 5; i < 45; i++)
		if (!strchr("0123456789abcdef", p[i]) || !p[i])
			return false;
	return p[45] == ' ';
}

/* The Subject: header of a message, unfolded, without "[PATCH ...]". */
static char *parse_subject(const char *p, const char *end)
{
	struct sbuf sb = SBUF_INIT;
	char *s, *t;

	while (p < end) {
		size_t n = line_len(p, end);

		if (n <= 1 || (n == 2 && p[0] == '\r'))
			break;		/* end of the headers */
		if (!strncasecmp(p, "Subject:", 8)) {
			sbuf_add(&sb, p + 8, n - 8);
			p += n;
			while (p < end && (*p == ' ' || *p == '\t')) {
				n = line_len(p, end);
				sbuf_add(&sb, p, n);
				p += n;
			}
			break;
		}
		p += n;
	}
	if (!sb.len) {
		sbuf_release(&sb);
		return NULL;
	}
	s = normalize_ws(sb.buf, sb.len);
	sbuf_release(&sb);
	t = s;
	while (*t == '[') {
		char *close = strchr(t, ']');

		if (!close)
			break;
		t = close + 1;
		while (*t == ' ')
			t++;
	}
	t = xstrdup(t);
	free(s);
	return t;
}

/*
 * The diff inside a message: from the first "diff --git" line (or "--- "
 * line followed by "+++ "), without the "-- " signature git format-patch
 * appends.  Returns false when there is no diff.
 */
static bool find_diff(const char *p, const char *end, const char **dstart,
		      const char **dend)
{
	const char *q, *sig = NULL;

	*dstart = NULL;
	for (q = p; q < end; q += line_len(q, end)) {
		const char *next = q + line_len(q, end);

		if (starts(q, end, "diff --git ") ||
		    (starts(q, end, "--- ") && next < end &&
		     starts(next, end, "+++ "))) {
			*dstart = q;
			break;
		}
	}
	if (!*dstart)
		return false;
	*dend = end;
	/* the last "-- " line, if only a short signature follows it */
	for (q = *dstart; q < end; q += line_len(q, end))
		if (starts(q, end, "-- \n") || starts(q, end, "-- \r\n"))
			sig = q;
	if (sig) {
		const char *r = sig + line_len(sig, end);
		int lines = 0;
		bool plain = true;

		for (; r < end; r += line_len(r, end)) {
			if (line_len(r, end) <= 1)
				continue;
			lines++;
			if (strchr(" +-@\\", *r) || starts(r, end, "diff "))
				plain = false;
		}
		if (plain && lines <= 2)
			*dend = sig;
	}
	return true;
}

/* The hunks of one file's patch text: offsets of the "@@" lines. */
static size_t split_hunks(const char *buf, size_t len, size_t **offs)
{
	const char *p = buf, *end = buf + len;
	size_t n = 0, alloc = 0;

	*offs = NULL;
	while (p < end) {
		if (starts(p, end, "@@ ")) {
			ALLOC_GROW(*offs, n + 1, alloc);
			(*offs)[n++] = (size_t)(p - buf);
		}
		p += line_len(p, end);
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
				 (int)(line_len(h, text.ptr + text.size) - 1), h);
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
	const char *p = buf, *end = buf + len, *q, *ds, *de;
	size_t alloc = 0, nmsg = 0;

	*out = NULL;
	*n = 0;
	if (!is_from_line(p, end) && !starts(p, end, "From:") &&
	    !starts(p, end, "Subject:")) {
		/* a plain diff, maybe with some text before it */
		if (!find_diff(p, end, &ds, &de))
			return kmig_err("patch '%s' contains no diff", name);
		ALLOC_GROW(*out, 1, alloc);
		(*out)[0].start = ds;
		(*out)[0].len = (size_t)(de - ds);
		(*out)[0].label = xasprintf("'%s'", name);
		*n = 1;
		return 0;
	}
	for (q = p; q < end; q += line_len(q, end))
		nmsg += is_from_line(q, end);
	while (p < end) {
		const char *m = p, *mend;
		struct patch_msg *pm;

		/* one message: up to the next "From <sha1> " line */
		for (mend = m + line_len(m, end); mend < end &&
		     !is_from_line(mend, end); mend += line_len(mend, end))
			;
		p = mend;
		if (!find_diff(m, mend, &ds, &de))
			continue;	/* a cover letter */
		if (!*n)
			*subject = parse_subject(m, mend);
		ALLOC_GROW(*out, *n + 1, alloc);
		pm = &(*out)[(*n)++];
		pm->start = ds;
		pm->len = (size_t)(de - ds);
		pm->label = nmsg > 1 ? xasprintf("'%s' (message %zu)", name, *n) :
				       xasprintf("'%s'", name);
	}
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

/* ---- allowlist ---- */

void gate_allow_clear(struct gate_allow *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		free(a->v[i].path);
		free(a->v[i].func);
		free(a->v[i].rule);
		free(a->v[i].reason);
	}
	free(a->v);
	free(a->name);
	memset(a, 0, sizeof(*a));
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static int allow_line(struct gate_allow *a, unsigned int lineno, char *line)
{
	struct gate_allow_entry *e;
	char *hash = strchr(line, '#'), *tok[3], *save = NULL, *colon, *reason = NULL;
	int ntok = 0;

	if (hash) {
		*hash = '\0';
		reason = normalize_ws(hash + 1, strlen(hash + 1));
		if (!*reason) {
			free(reason);
			reason = NULL;
		}
	}
	for (char *t = strtok_r(line, " \t\r", &save); t;
	     t = strtok_r(NULL, " \t\r", &save)) {
		if (ntok == 3)
			break;
		tok[ntok++] = t;
	}
	if (!ntok) {
		free(reason);
		return 0;
	}
	if (ntok != 2) {
		free(reason);
		return kmig_err("%s:%u: malformed allowlist line (expected 'PATH[:FUNCTION] RULE  # reason')",
				a->name, lineno);
	}
	if (!has_glob(tok[1]) && rule_lookup(tok[1]) < 0) {
		free(reason);
		return kmig_err("%s:%u: unknown rule '%s'", a->name, lineno, tok[1]);
	}
	colon = strchr(tok[0], ':');
	if (colon)
		*colon++ = '\0';
	if (!*tok[0] || (colon && !*colon)) {
		free(reason);
		return kmig_err("%s:%u: malformed allowlist line (empty path or function)",
				a->name, lineno);
	}
	while (tok[0][0] == '/')
		tok[0]++;
	if (!strncmp(tok[0], "./", 2))
		tok[0] += 2;
	ALLOC_GROW(a->v, a->n + 1, a->alloc);
	e = &a->v[a->n++];
	e->path = xstrdup(tok[0]);
	e->func = colon ? xstrdup(colon) : NULL;
	e->rule = xstrdup(tok[1]);
	e->reason = reason;
	e->lineno = lineno;
	return 0;
}

int gate_allow_parse(struct gate_allow *out, const char *name,
		     const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	unsigned int lineno = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->name = xstrdup(name);
	while (p < end && !ret) {
		size_t n = line_len(p, end);
		char *line = xstrndup(p, n);

		lineno++;
		if (n && p[n - 1] == '\n' && !memchr(p, '\0', n))
			line[n - 1] = '\0';
		if (memchr(p, '\0', n))
			ret = kmig_err("%s:%u: malformed allowlist line (NUL byte)",
				       name, lineno);
		else
			ret = allow_line(out, lineno, line);
		free(line);
		p += n;
	}
	if (ret)
		gate_allow_clear(out);
	return ret;
}

/* A pattern ending in '/' matches everything below a matching directory. */
static bool path_matches(const char *pat, const char *path)
{
	size_t n = strlen(pat);
	const char *slash;
	bool ok;

	if (!n || pat[n - 1] != '/')
		return glob_match(pat, path, true);
	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		char *dir = xstrndup(path, (size_t)(slash - path) + 1);

		ok = glob_match(pat, dir, true);
		free(dir);
		if (ok)
			return true;
	}
	return false;
}

size_t gate_allow_apply(const struct gate_allow *a, struct gate_sites *s)
{
	size_t i, j, n = 0;

	for (i = 0; i < s->n; i++) {
		struct gate_site *site = &s->v[i];

		site->allow = -1;
		for (j = 0; a && j < a->n; j++) {
			const struct gate_allow_entry *e = &a->v[j];

			if (!glob_match(e->rule, rules[site->rule].id, false) ||
			    !path_matches(e->path, site->path))
				continue;
			if (e->func && !(site->func &&
					 glob_match(e->func, site->func, false)))
				continue;
			site->allow = (int)j;
			n++;
			break;
		}
	}
	return n;
}
