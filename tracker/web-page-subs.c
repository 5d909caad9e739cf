// SPDX-License-Identifier: GPL-2.0
/*
 * web-page-subs.c - subsystems.html and a page per subsystem (MAINTAINERS
 * section): rules x releases and the newest release's files.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "web-internal.h"

int page_subsystems(struct web *w)
{
	struct sbuf *sb = &w->out.page;
	size_t last = w->rel.n - 1, i, nr;
	struct ranked *rank;

	page_begin(w, "Subsystems");
	sbuf_addf(sb, "<p>%zu MAINTAINERS section%s with uses in a scanned release or changes "
		  "since the release before (a file belongs to "
		  "the section of its own release&rsquo;s MAINTAINERS file), most uses in ",
		  w->sub.n, w->sub.n == 1 ? "" : "s");
	html_escape(sb, w->rel.tags[last]);
	sbuf_addstr(sb, " first.</p>\n");
	rank = rank_subs(w, RULE__COUNT, last, RANK_ALL, &nr);
	if (!nr) {
		sbuf_addstr(sb, "<p class=\"nodata\">No uses in any scanned release.</p>\n");
		goto out;
	}
	sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"subsystems\">\n<thead><tr><th>Subsystem</th>"
		    "<th class=\"num\">Uses</th><th>Releases</th><th class=\"num\">Delta</th><th class=\"num\">Added</th>"
		    "<th class=\"num\">Removed</th><th>Forecast</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < nr; i++) {
		const struct sub *s = &w->sub.v[rank[i].index];

		sbuf_addstr(sb, "<tr><td>");
		add_link(sb, s->page, s->name);
		sbuf_addstr(sb, "</td>");
		td_num(sb, s->tot[last]);
		td_sparkline(w, sb, s->tot);
		td_sub_changes(sb, last > 0, s->added_tot, s->removed_tot, s->moved_tot[last]);
		td_forecast(w, sb, s->tot);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n");
	sections_note(sb);
out:
	forecast_method(sb);
	free(rank);
	return page_end(w, "subsystems.html");
}

static int cmp_file_sub(const void *a, const void *b, void *arg)
{
	const struct rel_file *files = arg;
	const struct rel_file *x = &files[*(const size_t *)a], *y = &files[*(const size_t *)b];
	int c = strcmp(x->subsystem, y->subsystem);

	return c ? c : strcmp(x->path, y->path);
}

/*
 * The newest release's files in subsystem @s: @by_sub lists the files by
 * subsystem, *@cursor is where the previous subsystem's stopped.
 */
static void sub_files(struct web *w, struct sbuf *sb, const struct sub *s,
		      const size_t *by_sub, size_t *cursor)
{
	size_t k, nfiles = 0;

	sbuf_addstr(sb, "<h2>Files with uses in ");
	html_escape(sb, w->rel.tags[w->rel.n - 1]);
	sbuf_addstr(sb, "</h2>\n");
	while (*cursor < w->files.n && strcmp(w->files.v[by_sub[*cursor]].subsystem, s->name) < 0)
		(*cursor)++;
	for (k = *cursor; k < w->files.n && !strcmp(w->files.v[by_sub[k]].subsystem, s->name); k++) {
		const struct rel_file *f = &w->files.v[by_sub[k]];
		char *page = files_page_name(w->files.base, f->page);

		if (!nfiles++)
			sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"files\">\n"
				    "<thead><tr><th>File</th><th class=\"num\">Uses</th><th>Rules</th></tr></thead>\n<tbody>\n");
		sbuf_addstr(sb, "<tr><td class=\"path\"><a href=\"");
		html_escape(sb, page);
		sbuf_addf(sb, "#f%zu\">", by_sub[k]);
		html_escape(sb, f->path);
		sbuf_addstr(sb, "</a></td>");
		td_num(sb, f->uses);
		td_text(sb, f->rules.buf);
		sbuf_addstr(sb, "</tr>\n");
		free(page);
	}
	*cursor = k;
	if (nfiles)
		sbuf_addstr(sb, "</tbody>\n</table></div>\n");
	else
		sbuf_addstr(sb, "<p class=\"nodata\">No files with uses in this release.</p>\n");
}

static int page_sub(struct web *w, const struct sub *s, const size_t *by_sub,
		    size_t *cursor)
{
	struct sbuf *sb = &w->out.page;
	size_t n = w->rel.n, last = n - 1, r;
	struct chart_series series = { "all rules", s->tot };
	char *title = xasprintf("Subsystem %s", s->name);

	page_begin(w, title);
	free(title);
	sbuf_addstr(sb, "<div class=\"cards\">");
	sub_change_cards(sb, "uses in the newest release", s->tot, last, s->added_tot,
			 s->removed_tot, s->moved_tot[last]);
	sbuf_addstr(sb, "</div>\n<h2>Uses per release</h2>\n<div class=\"scroll\">");
	svg_line_chart(sb, "chart-sub", "Uses per release, all rules", w->rel.tags, n, &series, 1, false);
	sbuf_addstr(sb, "</div>\n<h2>Rules &times; releases</h2>\n");
	counts_table_begin(w, sb, "rules", "Rule");
	for (r = 0; r < RULE__COUNT; r++) {
		const long long *c = &s->cnt[r * n];

		if (has_uses(c, n))
			counts_row(w, sb, w->rule.pages[r], rules[r].id, c, s->added[r],
				   s->removed[r], &s->moved[r]);
	}
	counts_table_end(w, sb);
	sections_note(sb);
	sub_files(w, sb, s, by_sub, cursor);
	forecast_method(sb);
	return page_end(w, s->page);
}

/*
 * The subsystem pages (a thousand and more) are independent and read no
 * database: a second thread, with a page buffer of its own, writes every
 * other one.  Each thread walks its subsystems in name order, so its own
 * cursor into @by_sub only moves forward.
 */
static int sub_share(struct web_share *sh)
{
	struct web *w = sh->arg;
	const size_t *by_sub = sh->data;
	size_t i, cursor = 0;
	int ret = 0;

	for (i = sh->index; !ret && !atomic_load(sh->stop) && i < w->sub.n;
	     i += sh->count)
		ret = page_sub(w, &w->sub.v[i], by_sub, &cursor);
	return ret;
}

int pages_subs(struct web *w)
{
	size_t *by_sub = xcalloc(w->files.n ? w->files.n : 1, sizeof(*by_sub));
	struct web copy = *w;
	size_t i;
	int ret;

	for (i = 0; i < w->files.n; i++)
		by_sub[i] = i;
	qsort_r(by_sub, w->files.n, sizeof(*by_sub), cmp_file_sub, w->files.v);
	copy.out.page = (struct sbuf)SBUF_INIT;
	ret = web_split(sub_share, by_sub, w,
			w->sub.n > 1 && ncpus() > 1 ? &copy : NULL);
	sbuf_release(&copy.out.page);
	free(by_sub);
	return ret;
}
