// SPDX-License-Identifier: GPL-2.0
/*
 * web-data.c - what the pages show, loaded from the store: releases, rules
 * and subsystems with their totals and changes, and one release's files
 * split into drill-down pages; lookups and rankings over them.
 */
#include <stdlib.h>
#include <string.h>

#include "kmig.h"
#include "web-internal.h"

static int cmp_rel_id(const void *a, const void *b)
{
	const struct rel_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static long rel_index(struct web *w, long long id)
{
	struct rel_id k = { id, 0 }, *hit;

	hit = bsearch(&k, w->rel.ids, w->rel.n, sizeof(k), cmp_rel_id);
	return hit ? (long)hit->index : -1;
}

static int cmp_sub_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct sub *)elem)->name);
}

/* The subsystem @name among the first @n of w->sub.v (sorted), or NULL. */
static struct sub *find_sub_in(struct web *w, size_t n, const char *name)
{
	if (!name)
		return NULL;
	return bsearch(name, w->sub.v, n, sizeof(*w->sub.v), cmp_sub_name);
}

struct sub *find_sub(struct web *w, const char *name)
{
	return find_sub_in(w, w->sub.n, name);
}

/* A subsystem @name with no use yet, at the end of w->sub.v. */
static struct sub *sub_add(struct web *w, const char *name)
{
	struct sub *s;

	ALLOC_GROW(w->sub.v, w->sub.n + 1, w->sub.alloc);
	s = &w->sub.v[w->sub.n++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->cnt = xcalloc(RULE__COUNT * w->rel.n, sizeof(*s->cnt));
	s->tot = xcalloc(w->rel.n, sizeof(*s->tot));
	s->delta = xcalloc(w->rel.n, sizeof(*s->delta));
	s->moved_tot = xcalloc(w->rel.n, sizeof(*s->moved_tot));
	return s;
}

static int cmp_sub(const void *a, const void *b)
{
	return strcmp(((const struct sub *)a)->name, ((const struct sub *)b)->name);
}

static int load_count(void *data, const struct web_count *c)
{
	struct web *w = data;
	long ri = rel_index(w, c->release);
	int r = rule_lookup(c->rule);
	struct sub *s;

	if (ri < 0 || r < 0 || !c->subsystem)
		return 0;
	if (!w->sub.n || strcmp(w->sub.v[w->sub.n - 1].name, c->subsystem))
		sub_add(w, c->subsystem);
	s = &w->sub.v[w->sub.n - 1];
	s->cnt[r * w->rel.n + ri] += c->count;
	s->tot[ri] += c->count;
	w->rule.tot[r * w->rel.n + ri] += c->count;
	w->rel.tot[ri] += c->count;
	return 0;
}

/* What store_section_changes() says of one release and the one before. */
struct pair_rows {
	struct count_rows add, rem, before;
};

static void pair_rows_clear(struct pair_rows *p)
{
	count_rows_clear(&p->add);
	count_rows_clear(&p->rem);
	count_rows_clear(&p->before);
}

/*
 * Uses added, removed and moved per subsystem since release @i - 1 (@p),
 * as kmig report --trend: the delta and moved of every subsystem at @i
 * and, for the newest release, per rule; and the uses added and removed
 * per rule at @i.  The release's are the sums of its subsystems' (a use
 * is compared within its path and subsystem either way), so one query
 * serves both.
 */
static void add_section_changes(struct web *w, size_t i,
				const struct pair_rows *p)
{
	size_t n = w->rel.n, j;
	bool last = i == n - 1;
	int r;

	/* moved = the previous count of the files in the section now - the previous count */
	for (j = 0; j < w->sub.n; j++) {
		struct sub *s = &w->sub.v[j];

		s->moved_tot[i] = -s->tot[i - 1];
		for (r = 0; last && r < RULE__COUNT; r++)
			s->moved[r] = -s->cnt[r * n + i - 1];
	}
	for (j = 0; j < p->before.n; j++) {
		struct sub *s = find_sub(w, p->before.v[j].key);

		r = rule_lookup(p->before.v[j].rule);
		if (!s || r < 0)
			continue;
		s->moved_tot[i] += p->before.v[j].count;
		if (last)
			s->moved[r] += p->before.v[j].count;
	}
	for (j = 0; j < p->add.n; j++) {
		struct sub *s = find_sub(w, p->add.v[j].key);
		long long a = p->add.v[j].count, d = p->rem.v[j].count;

		r = rule_lookup(p->add.v[j].rule);
		if (r < 0)
			continue;
		w->rule.added[r * n + i] += a;
		w->rule.removed[r * n + i] += d;
		w->rel.added[i] += a;
		w->rel.removed[i] += d;
		if (!s)
			continue;
		s->delta[i] += a - d;
		if (!last)
			continue;
		s->added[r] += a;
		s->removed[r] += d;
		s->added_tot += a;
		s->removed_tot += d;
	}
}

/*
 * The comparison of each release with the one before is most of what the
 * site's loading costs (a few tenths of a second each), and each is
 * independent: a second thread, with its own read-only connection, takes
 * every other one.
 */
struct pair_job {
	const struct web *w;
	struct pair_rows *rows;	/* indexed by release */
};

/* The comparisons of a share (sh->arg: its connection). */
static int pair_share(struct web_share *sh)
{
	const struct pair_job *job = sh->data;
	const struct web *w = job->w;
	size_t i;
	int ret = 0;

	for (i = 1 + sh->index; !ret && i < w->rel.n; i += sh->count) {
		struct pair_rows *p = &job->rows[i];

		ret = store_section_changes(sh->arg, w->rel.v[i - 1].id,
					    w->rel.v[i].id, NULL, &p->add,
					    &p->rem, &p->before);
	}
	return ret;
}

/*
 * The sections of @rows that had no use in any release (a section whose
 * only news is removals, or uses moved out), so that their changes are
 * shown and the sections' add up to the release's; w->sub.v sorted again.
 */
static void add_changed_subs(struct web *w, const struct count_rows *rows)
{
	size_t j, n0 = w->sub.n;

	for (j = 0; j < rows->n; j++) {
		const char *key = rows->v[j].key;
		size_t k;

		/* the ones added here are not sorted yet: searched apart */
		if (!key || find_sub_in(w, n0, key))
			continue;
		for (k = n0; k < w->sub.n && strcmp(w->sub.v[k].name, key); k++)
			;
		if (k == w->sub.n)
			sub_add(w, key);
	}
	if (w->sub.n > n0)
		qsort(w->sub.v, w->sub.n, sizeof(*w->sub.v), cmp_sub);
}

static int load_section_changes(struct web *w)
{
	size_t n = w->rel.n, i;
	struct pair_rows *rows = xcalloc(n, sizeof(*rows));
	struct pair_job job = { w, rows };
	struct store *st;
	bool two;
	int ret;

	/* a second connection that cannot be opened is no error: one thread */
	two = n > 2 && ncpus() > 1 &&
	      !store_open_readonly(&st, store_path(w->st));
	ret = web_split(pair_share, &job, w->st, two ? st : NULL);
	if (two)
		store_close(st);
	for (i = 1; !ret && i < n; i++) {
		add_changed_subs(w, &rows[i].add);
		add_changed_subs(w, &rows[i].before);
	}
	for (i = 1; !ret && i < n; i++)
		add_section_changes(w, i, &rows[i]);
	for (i = 0; i < n; i++)
		pair_rows_clear(&rows[i]);
	free(rows);
	return ret;
}

/* The release axis: ids, tags, page names, and the rule and release totals. */
static void alloc_releases(struct web *w)
{
	size_t i, r, n = w->rel.n;

	w->rel.ids = xcalloc(n, sizeof(*w->rel.ids));
	w->rel.tags = xcalloc(n, sizeof(*w->rel.tags));
	w->rel.pages = xcalloc(n, sizeof(*w->rel.pages));
	for (i = 0; i < n; i++) {
		w->rel.ids[i].id = w->rel.v[i].id;
		w->rel.ids[i].index = i;
		w->rel.tags[i] = w->rel.v[i].tag;
		w->rel.pages[i] = web_page_name("release", w->rel.v[i].tag);
	}
	web_names_unique(w->rel.pages, n);
	qsort(w->rel.ids, n, sizeof(*w->rel.ids), cmp_rel_id);
	for (r = 0; r < RULE__COUNT; r++)
		w->rule.pages[r] = web_page_name("rule", rules[r].id);
	web_names_unique(w->rule.pages, RULE__COUNT);
	w->rule.tot = xcalloc(RULE__COUNT * n, sizeof(*w->rule.tot));
	w->rule.added = xcalloc(RULE__COUNT * n, sizeof(*w->rule.added));
	w->rule.removed = xcalloc(RULE__COUNT * n, sizeof(*w->rule.removed));
	w->rel.tot = xcalloc(n, sizeof(*w->rel.tot));
	w->rel.added = xcalloc(n, sizeof(*w->rel.added));
	w->rel.removed = xcalloc(n, sizeof(*w->rel.removed));
}

static void name_sub_pages(struct web *w)
{
	char **names = xcalloc(w->sub.n ? w->sub.n : 1, sizeof(*names));
	size_t i;

	for (i = 0; i < w->sub.n; i++)
		names[i] = web_page_name("sub", w->sub.v[i].name);
	web_names_unique(names, w->sub.n);
	for (i = 0; i < w->sub.n; i++)
		w->sub.v[i].page = names[i];
	free(names);
}

int web_load(struct web *w)
{
	size_t n;
	int ret;

	ret = store_releases(w->st, &w->rel.v, &w->rel.n);
	if (ret)
		return ret;
	n = w->rel.n;
	if (!n)
		return kmig_errcode(KMIG_ENOTFOUND, "no release is scanned (run 'kmig scan')");
	alloc_releases(w);
	ret = store_web_counts(w->st, load_count, w);
	if (ret)
		return ret;
	ret = relinfo_since_load(w->st, &w->rule.since);
	if (!ret)
		ret = load_section_changes(w);
	if (!ret)
		name_sub_pages(w);
	return ret;
}

void web_files_free(struct web *w)
{
	size_t i;

	for (i = 0; i < w->files.n; i++) {
		free(w->files.v[i].path);
		free(w->files.v[i].subsystem);
		sbuf_release(&w->files.v[i].rules);
	}
	for (i = 0; i < w->files.npages; i++)
		free(w->files.pages[i].dir);
	free(w->files.v);
	free(w->files.pages);
	free(w->files.base);
	w->files.v = NULL;
	w->files.pages = NULL;
	w->files.base = NULL;
	w->files.n = w->files.alloc = w->files.npages = w->files.apages = 0;
	w->files.ntop = 0;
}

static int load_file_count(void *data, const struct web_file_count *c)
{
	struct web *w = data;
	struct rel_file *f;

	if (!w->files.n || strcmp(w->files.v[w->files.n - 1].path, c->path)) {
		ALLOC_GROW(w->files.v, w->files.n + 1, w->files.alloc);
		f = &w->files.v[w->files.n++];
		memset(f, 0, sizeof(*f));
		f->path = xstrdup(c->path);
		f->subsystem = xstrdup(c->subsystem ? c->subsystem : "");
	}
	f = &w->files.v[w->files.n - 1];
	sbuf_addf(&f->rules, "%s%s %lld", f->rules.len ? ", " : "", c->rule, c->count);
	f->uses += c->count;
	return 0;
}

static size_t top_dir_len(const char *path)
{
	const char *slash = strchr(path, '/');

	return slash ? (size_t)(slash - path) : 0;
}

/*
 * Put the top-level files (loaded in path order) before the others, each
 * part in path order, so that every top directory's files are adjacent.
 */
static void top_level_first(struct web_files *fl)
{
	struct rel_file *v;
	size_t i, k = 0;

	if (!fl->n)
		return;
	v = xcalloc(fl->n, sizeof(*v));
	for (i = 0; i < fl->n; i++)
		if (!top_dir_len(fl->v[i].path))
			v[k++] = fl->v[i];
	fl->ntop = k;
	for (i = 0; i < fl->n; i++)
		if (top_dir_len(fl->v[i].path))
			v[k++] = fl->v[i];
	free(fl->v);
	fl->v = v;
	fl->alloc = fl->n;
}

/* Split the files into pages: one top directory each, sites_per_page at most. */
static void plan_pages(struct web *w)
{
	struct rel_page *p = NULL;
	size_t i;

	for (i = 0; i < w->files.n; i++) {
		struct rel_file *f = &w->files.v[i];
		size_t dl = top_dir_len(f->path);

		if (!p || strlen(p->dir) != dl || strncmp(p->dir, f->path, dl) ||
		    (p->sites && p->sites + f->uses > (long long)w->out.per_page)) {
			ALLOC_GROW(w->files.pages, w->files.npages + 1, w->files.apages);
			p = &w->files.pages[w->files.npages++];
			memset(p, 0, sizeof(*p));
			p->dir = xstrndup(f->path, dl);
			p->first = i;
		}
		f->page = w->files.npages - 1;
		p->n++;
		p->sites += f->uses;
	}
}

int web_files_load(struct web *w, size_t rel)
{
	char *base;
	int ret;

	/* "release-<slug>-<hash>[-N].html" -> "files-<slug>-<hash>[-N]": unique too */
	base = xasprintf("files-%s", w->rel.pages[rel] + strlen("release-"));
	base[strlen(base) - strlen(".html")] = '\0';
	w->files.base = base;
	ret = store_web_file_counts(w->st, w->rel.v[rel].id, load_file_count, w);
	if (ret)
		return ret;
	top_level_first(&w->files);
	plan_pages(w);
	return 0;
}

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	return strcmp(x->name, y->name);
}

bool has_uses(const long long *v, size_t n)
{
	size_t i;

	for (i = 0; i < n && !v[i]; i++)
		;
	return i < n;
}

/*
 * Did subsystem @s change at release @at (> 0) in rule @rule (RULE__COUNT:
 * any)?  Per rule, only the newest release's changes are kept.
 */
static bool sub_changed(const struct web *w, const struct sub *s,
			size_t rule, size_t at)
{
	if (!at)
		return false;
	if (rule >= RULE__COUNT)
		return s->delta[at] || s->moved_tot[at];
	return at == w->rel.n - 1 &&
	       (s->added[rule] || s->removed[rule] || s->moved[rule]);
}

static bool rank_picks(const struct web *w, const struct sub *s,
		       const long long *c, size_t rule, size_t at,
		       enum rank_filter filter)
{
	switch (filter) {
	case RANK_ALL:
		return true;
	case RANK_EVER:
		return has_uses(c, w->rel.n) || sub_changed(w, s, rule, at);
	case RANK_AT:
		return c[at] != 0 || sub_changed(w, s, rule, at);
	}
	return false;
}

struct ranked *rank_subs(struct web *w, size_t rule, size_t at,
			 enum rank_filter filter, size_t *n)
{
	struct ranked *rank = xcalloc(w->sub.n ? w->sub.n : 1, sizeof(*rank));
	size_t i, nr = 0;

	for (i = 0; i < w->sub.n; i++) {
		const struct sub *s = &w->sub.v[i];
		const long long *c = rule < RULE__COUNT ? &s->cnt[rule * w->rel.n] : s->tot;

		if (!rank_picks(w, s, c, rule, at, filter))
			continue;
		rank[nr].index = i;
		rank[nr].key = c[at];
		rank[nr].name = s->name;
		nr++;
	}
	qsort(rank, nr, sizeof(*rank), cmp_ranked);
	*n = nr;
	return rank;
}

void web_data_free(struct web *w)
{
	size_t i;

	web_files_free(w);
	for (i = 0; i < w->sub.n; i++) {
		free(w->sub.v[i].name);
		free(w->sub.v[i].page);
		free(w->sub.v[i].cnt);
		free(w->sub.v[i].tot);
		free(w->sub.v[i].delta);
		free(w->sub.v[i].moved_tot);
	}
	free(w->sub.v);
	for (i = 0; w->rel.pages && i < w->rel.n; i++)
		free(w->rel.pages[i]);
	free(w->rel.pages);
	for (i = 0; i < RULE__COUNT; i++)
		free(w->rule.pages[i]);
	free(w->rule.tot);
	free(w->rule.added);
	free(w->rule.removed);
	relinfo_since_clear(&w->rule.since);
	free(w->rel.tot);
	free(w->rel.added);
	free(w->rel.removed);
	free(w->rel.ids);
	free(w->rel.tags);
	release_infos_free(w->rel.v, w->rel.n);
}
