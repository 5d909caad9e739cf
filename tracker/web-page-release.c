// SPDX-License-Identifier: GPL-2.0
/*
 * web-page-release.c - a page per release (the content of kmig report) and,
 * for the newest releases, the drill-down pages of its files and use
 * sites.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "web-internal.h"

/* A use site kept for later: a copy of its strings. */
struct site_copy {
	char *path, *rule, *func, *text, *chain;
	long long line;
};

struct sites_state {
	struct web *w;
	size_t rel;
	size_t cur, end;	/* file cursor, and where the files it walks end */
	size_t open_page;	/* SIZE_MAX: none */
	size_t open_file;
	/*
	 * The sites of the top-level files, which come first in w->files but
	 * among the others in path order: written after those.
	 */
	bool replay;
	struct site_copy *later;
	size_t nlater, alater;
};

static void dir_label(struct sbuf *sb, const char *dir)
{
	if (*dir) {
		html_escape(sb, dir);
		sbuf_addch(sb, '/');
	} else {
		sbuf_addstr(sb, "(top level)");
	}
}

/* "<tag>: <dir>/ (part N of M)": the title of drill-down page @k. */
static char *files_page_title(struct web *w, size_t rel, size_t k)
{
	const struct rel_page *p = &w->files.pages[k];
	struct sbuf title = SBUF_INIT;
	size_t i, part = 1, parts = 0;

	for (i = 0; i < w->files.npages; i++) {
		if (strcmp(w->files.pages[i].dir, p->dir))
			continue;
		parts++;
		if (i < k)
			part++;
	}
	sbuf_addf(&title, "%s: %s%s", w->rel.tags[rel], *p->dir ? p->dir : "(top level)",
		  *p->dir ? "/" : "");
	if (parts > 1)
		sbuf_addf(&title, " (part %zu of %zu)", part, parts);
	return sbuf_detach(&title);
}

/* Links to the release, the previous and the next drill-down page. */
static void files_page_nav(struct web *w, struct sbuf *sb, size_t rel, size_t k)
{
	sbuf_addstr(sb, "<p><a href=\"");
	html_escape(sb, w->rel.pages[rel]);
	sbuf_addstr(sb, "\">Release ");
	html_escape(sb, w->rel.tags[rel]);
	sbuf_addstr(sb, "</a>");
	if (k > 0) {
		char *prev = files_page_name(w->files.base, k - 1);

		sbuf_addf(sb, " &middot; <a href=\"%s\" rel=\"prev\">previous page</a>", prev);
		free(prev);
	}
	if (k + 1 < w->files.npages) {
		char *next = files_page_name(w->files.base, k + 1);

		sbuf_addf(sb, " &middot; <a href=\"%s\" rel=\"next\">next page</a>", next);
		free(next);
	}
	sbuf_addstr(sb, "</p>\n");
}

/* Start drill-down page @k of release @rel: its files, then its use sites. */
static void files_page_begin(struct web *w, size_t rel, size_t k)
{
	struct sbuf *sb = &w->out.page;
	const struct rel_page *p = &w->files.pages[k];
	char *title = files_page_title(w, rel, k);
	size_t i;

	page_begin(w, title);
	free(title);
	files_page_nav(w, sb, rel, k);
	sbuf_addf(sb, "<p>%zu file%s with %lld use%s: ", p->n, p->n == 1 ? "" : "s",
		  p->sites, p->sites == 1 ? "" : "s");
	html_escape(sb, w->files.v[p->first].path);
	if (p->n > 1) {
		sbuf_addstr(sb, " to ");
		html_escape(sb, w->files.v[p->first + p->n - 1].path);
	}
	sbuf_addstr(sb, ".</p>\n");
	sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"files\">\n<thead><tr><th>File</th>"
		    "<th>Subsystem</th><th class=\"num\">Uses</th><th>Rules</th></tr></thead>\n<tbody>\n");
	for (i = p->first; i < p->first + p->n; i++) {
		const struct rel_file *f = &w->files.v[i];

		sbuf_addf(sb, "<tr><td class=\"path\"><a href=\"#f%zu\">", i);
		html_escape(sb, f->path);
		sbuf_addstr(sb, "</a></td><td>");
		add_sub_link(w, sb, f->subsystem);
		sbuf_addstr(sb, "</td>");
		td_num(sb, f->uses);
		td_text(sb, f->rules.buf);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n<h2>Use sites</h2>\n");
}

static int files_page_end(struct web *w, size_t k)
{
	char *name = files_page_name(w->files.base, k);
	int ret = page_end(w, name);

	w->files.pages[k].written = true;
	free(name);
	return ret;
}

static void file_section_begin(struct web *w, size_t rel, size_t i)
{
	struct sbuf *sb = &w->out.page;
	const struct rel_file *f = &w->files.v[i];
	char *url = source_link(w->out.opts->source_url, w->rel.tags[rel], f->path, 1);

	sbuf_addf(sb, "<section id=\"f%zu\"><h3>", i);
	if (url)
		add_link(sb, url, f->path);
	else
		html_escape(sb, f->path);
	sbuf_addstr(sb, "</h3>\n<table class=\"sites\">\n<thead><tr><th>Site</th><th>Rule</th>"
		    "<th>Function</th><th>Source</th></tr></thead>\n<tbody>\n");
	free(url);
}

static const char file_section_end[] = "</tbody>\n</table></section>\n";

/* Keep site @s for the replay of the top-level files' sites. */
static void keep_site(struct sites_state *ss, const struct web_site *s)
{
	struct site_copy *c;

	ALLOC_GROW(ss->later, ss->nlater + 1, ss->alater);
	c = &ss->later[ss->nlater++];
	c->path = xstrdup(s->path);
	c->rule = xstrdup(s->rule);
	c->func = xstrdup_or_null(s->func);
	c->text = xstrdup_or_null(s->text);
	c->chain = xstrdup_or_null(s->chain);
	c->line = s->line;
}

static void free_kept_sites(struct sites_state *ss)
{
	size_t i;

	for (i = 0; i < ss->nlater; i++) {
		free(ss->later[i].path);
		free(ss->later[i].rule);
		free(ss->later[i].func);
		free(ss->later[i].text);
		free(ss->later[i].chain);
	}
	free(ss->later);
}

static int add_site(void *data, const struct web_site *s)
{
	struct sites_state *ss = data;
	struct web *w = ss->w;
	struct sbuf *sb = &w->out.page;
	struct rel_file *f;
	char *url;
	int ret;

	/* the sites come in path order; so do the files from ss->cur to ss->end */
	while (ss->cur < ss->end && strcmp(w->files.v[ss->cur].path, s->path) < 0)
		ss->cur++;
	if (ss->cur == ss->end || strcmp(w->files.v[ss->cur].path, s->path)) {
		if (!ss->replay)
			keep_site(ss, s);	/* a top-level file's, perhaps */
		return 0;
	}
	f = &w->files.v[ss->cur];
	if (f->page != ss->open_page) {
		if (ss->open_page != SIZE_MAX) {
			sbuf_addstr(sb, file_section_end);
			ret = files_page_end(w, ss->open_page);
			if (ret)
				return ret;
		}
		files_page_begin(w, ss->rel, f->page);
		ss->open_page = f->page;
		ss->open_file = SIZE_MAX;
	}
	if (ss->open_file != ss->cur) {
		if (ss->open_file != SIZE_MAX)
			sbuf_addstr(sb, file_section_end);
		file_section_begin(w, ss->rel, ss->cur);
		ss->open_file = ss->cur;
	}
	url = source_link(w->out.opts->source_url, w->rel.tags[ss->rel], s->path, s->line);
	sbuf_addf(sb, "<tr><td class=\"path\" data-v=\"%lld\">", s->line);
	sbuf_addstr(sb, url ? "<a href=\"" : "");
	if (url) {
		html_escape(sb, url);
		sbuf_addstr(sb, "\">");
	}
	html_escape(sb, s->path);
	sbuf_addf(sb, ":%lld%s</td><td>", s->line, url ? "</a>" : "");
	html_escape(sb, s->rule);
	sbuf_addstr(sb, "</td><td><code>");
	html_escape(sb, s->func ? s->func : "");
	sbuf_addstr(sb, "</code></td><td class=\"src\">");
	html_escape(sb, s->text);
	if (s->chain) {
		/* warn-on-user: the call path is the evidence */
		sbuf_addstr(sb, "<br><span class=\"reach\">reached: ");
		html_escape(sb, s->chain);
		sbuf_addstr(sb, "</span>");
	}
	sbuf_addstr(sb, "</td></tr>\n");
	free(url);
	return 0;
}

static int pages_files(struct web *w, size_t rel)
{
	struct sites_state ss = {
		.w = w, .rel = rel, .cur = w->files.ntop, .end = w->files.n,
		.open_page = SIZE_MAX, .open_file = SIZE_MAX,
	};
	size_t k;
	int ret;

	/* the files in directories, then the top-level ones */
	ret = store_web_sites(w->st, w->rel.v[rel].id, add_site, &ss);
	ss.replay = true;
	ss.cur = 0;
	ss.end = w->files.ntop;
	for (k = 0; !ret && k < ss.nlater; k++) {
		const struct site_copy *c = &ss.later[k];
		struct web_site site = {
			c->path, c->rule, c->line, c->func, c->text, c->chain,
		};

		ret = add_site(&ss, &site);
	}
	free_kept_sites(&ss);
	if (ret)
		return ret;
	if (ss.open_page != SIZE_MAX) {
		sbuf_addstr(&w->out.page, file_section_end);
		ret = files_page_end(w, ss.open_page);
		if (ret)
			return ret;
	}
	/* a page whose files lost their sites would leave dangling links */
	for (k = 0; !ret && k < w->files.npages; k++) {
		if (w->files.pages[k].written)
			continue;
		files_page_begin(w, rel, k);
		ret = files_page_end(w, k);
	}
	return ret;
}

/* The commit, the release compared against and the cards of release @i. */
static void release_summary(struct web *w, struct sbuf *sb, size_t i)
{
	const struct release_info *rel = &w->rel.v[i];
	char date[32];

	format_date(date, sizeof(date), rel->date, "%Y-%m-%d");
	sbuf_addf(sb, "<p>Commit <code>%s</code>, %s%s; %lld files scanned",
		  rel->commit ? rel->commit : "",
		  rel->date_source ? "Debian date " : "", date, rel->files);
	if (i) {
		sbuf_addstr(sb, "; deltas against <a href=\"");
		html_escape(sb, w->rel.pages[i - 1]);
		sbuf_addstr(sb, "\">");
		html_escape(sb, w->rel.tags[i - 1]);
		sbuf_addstr(sb, "</a>");
	}
	sbuf_addstr(sb, ".</p>\n<div class=\"cards\">");
	change_cards(sb, "uses", w->rel.tot, i, w->rel.added[i], w->rel.removed[i]);
	card(sb, "files with uses", "%zu", w->files.n);
	sbuf_addstr(sb, "</div>\n");
}

/* A row per rule at release @i, and the total. */
static void release_rules(struct web *w, struct sbuf *sb, size_t i)
{
	size_t n = w->rel.n, r;

	sbuf_addstr(sb, "<h2>Rules</h2>\n<div class=\"scroll\"><table class=\"sortable\" id=\"rules\">\n"
		    "<thead><tr><th>Rule</th><th class=\"num\">Uses</th><th class=\"num\">Delta</th>"
		    "<th class=\"num\">Added</th><th class=\"num\">Removed</th></tr></thead>\n<tbody>\n");
	for (r = 0; r < RULE__COUNT; r++) {
		const long long *v = &w->rule.tot[r * n];

		sbuf_addstr(sb, "<tr><td>");
		add_link(sb, w->rule.pages[r], rules[r].id);
		sbuf_addstr(sb, "</td>");
		td_num(sb, v[i]);
		td_changes(sb, v, i, w->rule.added[r * n + i], w->rule.removed[r * n + i]);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n<tfoot><tr><td>total</td>");
	td_num(sb, w->rel.tot[i]);
	td_changes(sb, w->rel.tot, i, w->rel.added[i], w->rel.removed[i]);
	sbuf_addstr(sb, "</tr></tfoot>\n</table></div>\n");
}

/*
 * The row of the top directory of drill-down page @k, with links to its
 * pages when @drill; returns the first page of the next directory.
 */
static size_t release_dir_row(struct web *w, struct sbuf *sb, size_t k, bool drill)
{
	const struct web_files *fl = &w->files;
	size_t j, files = 0;
	long long uses = 0;

	for (j = k; j < fl->npages && !strcmp(fl->pages[j].dir, fl->pages[k].dir); j++) {
		files += fl->pages[j].n;
		uses += fl->pages[j].sites;
	}
	sbuf_addstr(sb, "<tr><td class=\"path\">");
	if (drill)
		sbuf_addf(sb, "<a href=\"%s-%zu.html\">", fl->base, k + 1);
	dir_label(sb, fl->pages[k].dir);
	sbuf_addstr(sb, drill ? "</a></td>" : "</td>");
	td_num(sb, (long long)files);
	td_num(sb, uses);
	sbuf_addstr(sb, "<td>");
	for (; drill && k < j; k++) {
		const struct rel_page *p = &fl->pages[k];

		sbuf_addf(sb, "<a href=\"%s-%zu.html\" title=\"", fl->base, k + 1);
		html_escape(sb, fl->v[p->first].path);
		sbuf_addstr(sb, " &hellip; ");
		html_escape(sb, fl->v[p->first + p->n - 1].path);
		sbuf_addf(sb, "\">%zu</a> ", k + 1);
	}
	sbuf_addstr(sb, "</td></tr>\n");
	return j;
}

/* The top directories of the release's files; links to their pages when @drill. */
static void release_dirs(struct web *w, struct sbuf *sb, bool drill)
{
	size_t k;

	sbuf_addstr(sb, "<h2>Files and use sites</h2>\n");
	if (!drill)
		sbuf_addf(sb, "<p class=\"note\">Use sites are listed for the newest %d releases only.</p>\n",
			  MAX_DRILL_RELEASES);
	if (!w->files.npages) {
		sbuf_addstr(sb, "<p class=\"nodata\">No file has a use in this release.</p>\n");
		return;
	}
	sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"dirs\">\n"
		    "<thead><tr><th>Directory</th><th class=\"num\">Files with uses</th>"
		    "<th class=\"num\">Uses</th><th>Pages</th></tr></thead>\n<tbody>\n");
	for (k = 0; k < w->files.npages; )
		k = release_dir_row(w, sb, k, drill);
	sbuf_addstr(sb, "</tbody>\n</table></div>\n");
}

/* The subsystems with uses at release @i, or changes there, most first. */
static void release_subs(struct web *w, struct sbuf *sb, size_t i)
{
	size_t k, nsubs;
	struct ranked *rank = rank_subs(w, RULE__COUNT, i, RANK_AT, &nsubs);

	sbuf_addf(sb, "<h2>Subsystems</h2>\n<p>%zu subsystem%s with uses%s.</p>\n", nsubs,
		  nsubs == 1 ? "" : "s", i ? " or changes since the release before" : "");
	if (nsubs) {
		sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"subsystems\">\n"
			    "<thead><tr><th>Subsystem</th><th class=\"num\">Uses</th>"
			    "<th class=\"num\">Delta</th></tr></thead>\n<tbody>\n");
		for (k = 0; k < nsubs; k++) {
			const struct sub *s = &w->sub.v[rank[k].index];

			sbuf_addstr(sb, "<tr><td>");
			add_link(sb, s->page, s->name);
			sbuf_addstr(sb, "</td>");
			td_num(sb, s->tot[i]);
			td_sub_delta(sb, i > 0, i ? s->delta[i] : 0, i ? s->moved_tot[i] : 0);
			sbuf_addstr(sb, "</tr>\n");
		}
		sbuf_addstr(sb, "</tbody>\n</table></div>\n");
		if (i)
			sections_note(sb);
	}
	free(rank);
}

/* The page of release @i, after its drill-down pages for the newest releases. */
static int page_release(struct web *w, size_t i)
{
	struct sbuf *sb = &w->out.page;
	bool drill = i + MAX_DRILL_RELEASES >= w->rel.n;
	char *title;
	int ret;

	ret = web_files_load(w, i);
	if (ret)
		return ret;
	if (drill) {
		ret = pages_files(w, i);
		if (ret)
			return ret;
	}
	title = xasprintf("Release %s", w->rel.v[i].tag);
	page_begin(w, title);
	free(title);
	release_summary(w, sb, i);
	release_rules(w, sb, i);
	warn_on_user_note(sb);
	release_dirs(w, sb, drill);
	release_subs(w, sb, i);
	return page_end(w, w->rel.pages[i]);
}

/*
 * The release pages are independent of each other and cost a few tenths
 * of a second each, most of it SQLite reading the files and sites of the
 * newest releases: a second thread, with its own read-only connection,
 * page and files, takes them from the same counter as the main thread.
 * The newest release is the main thread's, last, so that its files are
 * left in w->files for the subsystem pages.
 */
static int rel_share(struct web_share *sh)
{
	struct web *w = sh->arg;	/* on the second thread, a copy of its own */
	atomic_size_t *next = sh->data;	/* the next release to take */
	size_t i;
	int ret = 0;

	while (!ret && !atomic_load(sh->stop) &&
	       (i = atomic_fetch_add(next, 1)) < w->rel.n - 1) {
		ret = page_release(w, i);
		web_files_free(w);
	}
	return ret;
}

int pages_releases(struct web *w)
{
	atomic_size_t next = 0;
	size_t last = w->rel.n - 1;	/* the releases before it are shared */
	struct store *st;
	struct web copy;
	bool two;
	int ret;

	if (!w->out.opts->sites_per_page)
		w->out.per_page = DEFAULT_SITES_PER_PAGE;
	else
		w->out.per_page = w->out.opts->sites_per_page;
	/* a second connection that cannot be opened is no error: one thread */
	two = last > 1 && ncpus() > 1 &&
	      !store_open_readonly(&st, store_path(w->st));
	if (two) {
		copy = *w;
		copy.st = st;
		memset(&copy.files, 0, sizeof(copy.files));
		copy.out.page = (struct sbuf)SBUF_INIT;
	}
	ret = web_split(rel_share, &next, w, two ? &copy : NULL);
	if (two) {
		store_close(copy.st);
		sbuf_release(&copy.out.page);
		web_files_free(&copy);
	}
	/* the newest, whose files the subsystem pages use */
	if (!ret)
		ret = page_release(w, last);
	if (ret)
		web_files_free(w);
	return ret;
}
