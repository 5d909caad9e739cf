// SPDX-License-Identifier: GPL-2.0
/*
 * web-page-rules.c - index.html (every rule across releases) and a page per
 * rule.
 */
#include <stdlib.h>
#include <string.h>

#include "web-internal.h"

int page_index(struct web *w)
{
	struct sbuf *sb = &w->out.page;
	struct chart_series series[RULE__COUNT];
	size_t n = w->rel.n, last = n - 1, i, r, nsubs;
	bool prev = n > 1;
	char date[32];

	page_begin(w, "Deprecated kernel API uses");
	sbuf_addstr(sb, "<p>Uses of the deprecated kernel interfaces that kmig tracks, per scanned release. ");
	sbuf_addf(sb, "Newest release: <a href=\"%s\">", w->rel.pages[last]);
	html_escape(sb, w->rel.tags[last]);
	sbuf_addf(sb, "</a>; %zu release%s scanned.</p>\n<div class=\"cards\">", n, n == 1 ? "" : "s");
	card(sb, "uses in the newest release", "%lld", w->rel.tot[last]);
	if (prev) {
		card(sb, "since the previous release", "%+lld", w->rel.tot[last] - w->rel.tot[last - 1]);
		card(sb, "uses added", "%lld", w->rel.added[last]);
		card(sb, "uses removed", "%lld", w->rel.removed[last]);
	}
	for (i = 0, nsubs = 0; i < w->sub.n; i++)
		nsubs += w->sub.v[i].tot[last] != 0;
	card(sb, "subsystems with uses", "%zu", nsubs);
	sbuf_addstr(sb, "</div>\n<h2>All rules across releases</h2>\n<div class=\"scroll\">");
	for (r = 0; r < RULE__COUNT; r++) {
		series[r].name = rules[r].id;
		series[r].v = &w->rule.tot[r * n];
	}
	svg_line_chart(sb, "chart-rules", "Uses per rule and release (log scale)",
		       w->rel.tags, n, series, RULE__COUNT, true);
	sbuf_addstr(sb, "</div>\n<ul class=\"legend\">");
	for (r = 0; r < RULE__COUNT; r++) {
		sbuf_addf(sb, "<li class=\"s%zu\">", r % NSERIES_COLOURS);
		add_link(sb, w->rule.pages[r], rules[r].id);
		sbuf_addstr(sb, "</li>");
	}
	sbuf_addstr(sb, "</ul>\n<h2>Rules</h2>\n<div class=\"scroll\"><table class=\"sortable\" id=\"rules\">\n"
		    "<thead><tr><th>Rule</th><th>Title</th><th class=\"num\">Uses</th><th>Releases</th>"
		    "<th class=\"num\">Delta</th><th class=\"num\">Added</th><th class=\"num\">Removed</th>"
		    "<th>Forecast</th></tr></thead>\n<tbody>\n");
	for (r = 0; r < RULE__COUNT; r++) {
		const long long *v = &w->rule.tot[r * n];

		sbuf_addf(sb, "<tr data-rule=\"%s\"><td>", rules[r].id);
		add_link(sb, w->rule.pages[r], rules[r].id);
		sbuf_addstr(sb, "</td>");
		td_text(sb, rules[r].title);
		td_num(sb, v[last]);
		sbuf_addf(sb, "<td data-v=\"%lld\">", prev ? v[last] - v[last - 1] : 0);
		svg_sparkline(sb, v, w->rel.tags, n);
		sbuf_addstr(sb, "</td>");
		td_delta(sb, prev ? v[last] - v[last - 1] : 0, prev);
		td_change(sb, w->rule.added[r * n + last], true, prev);
		td_change(sb, w->rule.removed[r * n + last], false, prev);
		td_forecast(w, sb, v);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n<tfoot><tr><td>total</td><td></td>");
	td_num(sb, w->rel.tot[last]);
	sbuf_addstr(sb, "<td>");
	svg_sparkline(sb, w->rel.tot, w->rel.tags, n);
	sbuf_addstr(sb, "</td>");
	td_delta(sb, prev ? w->rel.tot[last] - w->rel.tot[last - 1] : 0, prev);
	td_change(sb, w->rel.added[last], true, prev);
	td_change(sb, w->rel.removed[last], false, prev);
	td_forecast(w, sb, w->rel.tot);
	sbuf_addstr(sb, "</tr></tfoot>\n</table></div>\n");
	warn_on_user_note(sb);

	sbuf_addstr(sb, "<h2>Releases</h2>\n<div class=\"scroll\"><table class=\"sortable\" id=\"releases\">\n"
		    "<thead><tr><th>Release</th><th>Date</th><th>Commit</th><th class=\"num\">Files</th>"
		    "<th class=\"num\">Uses</th><th class=\"num\">Delta</th><th class=\"num\">Added</th>"
		    "<th class=\"num\">Removed</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < n; i++) {
		const struct release_info *rel = &w->rel.v[i];

		format_date(date, sizeof(date), rel->date, "%Y-%m-%d");
		sbuf_addstr(sb, "<tr><td>");
		add_link(sb, w->rel.pages[i], rel->tag);
		sbuf_addf(sb, "</td><td>%s</td><td><code>%.12s</code></td>", date,
			  rel->commit ? rel->commit : "");
		td_num(sb, rel->files);
		td_num(sb, w->rel.tot[i]);
		td_delta(sb, i ? w->rel.tot[i] - w->rel.tot[i - 1] : 0, i > 0);
		td_change(sb, w->rel.added[i], true, i > 0);
		td_change(sb, w->rel.removed[i], false, i > 0);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n"
		    "<p>Also: <a href=\"subsystems.html\">every subsystem</a>, "
		    "<a href=\"branch.html\">the conversion branch, builds, boots and bisections</a>, "
		    "<a href=\"log.html\">per-commit attribution (kmig log)</a>.</p>\n");
	forecast_method(sb);
	return page_end(w, "index.html");
}

int page_rule(struct web *w, size_t r)
{
	struct sbuf *sb = &w->out.page;
	size_t n = w->rel.n, last = n - 1, i, first, nr;
	const long long *v = &w->rule.tot[r * n];
	struct chart_series series = { rules[r].id, v };
	struct ranked *rank;
	bool prev = n > 1;
	char *title = xasprintf("Rule %s", rules[r].id);

	page_begin(w, title);
	free(title);
	sbuf_addstr(sb, "<p>");
	html_escape(sb, rules[r].title);
	sbuf_addstr(sb, ".</p>\n<p>Source: ");
	html_escape(sb, rules[r].source);
	sbuf_addstr(sb, ". Instead: ");
	html_escape(sb, rules[r].advice);
	sbuf_addstr(sb, ".</p>\n");
	if (r == RULE_WARN_ON_USER)
		warn_on_user_note(sb);
	sbuf_addstr(sb, "<h2>Uses per release</h2>\n<div class=\"scroll\">");
	svg_line_chart(sb, "chart-rule", "Uses per release", w->rel.tags, n, &series, 1, false);
	sbuf_addstr(sb, "</div>\n<div class=\"scroll\"><table class=\"sortable\" id=\"trend\">\n"
		    "<thead><tr><th>Release</th><th class=\"num\">Uses</th><th class=\"num\">Delta</th>"
		    "<th class=\"num\">Added</th><th class=\"num\">Removed</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < n; i++) {
		sbuf_addstr(sb, "<tr><td>");
		add_link(sb, w->rel.pages[i], w->rel.tags[i]);
		sbuf_addstr(sb, "</td>");
		td_num(sb, v[i]);
		td_delta(sb, i ? v[i] - v[i - 1] : 0, i > 0);
		td_change(sb, w->rule.added[r * n + i], true, i > 0);
		td_change(sb, w->rule.removed[r * n + i], false, i > 0);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n<h2>Forecast</h2>\n<table id=\"forecast\"><tbody><tr><th>");
	html_escape(sb, rules[r].id);
	sbuf_addstr(sb, "</th>");
	td_forecast(w, sb, v);
	sbuf_addstr(sb, "</tr></tbody></table>\n");

	rank = rank_subs(w, r, last, RANK_EVER, &nr);
	sbuf_addf(sb, "<h2>Subsystems</h2>\n<p>%zu subsystem%s with uses in a scanned release, most uses in ",
		  nr, nr == 1 ? "" : "s");
	html_escape(sb, w->rel.tags[last]);
	sbuf_addstr(sb, " first; added and removed since the previous release.</p>\n");
	if (nr) {
		sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"subsystems\">\n<thead><tr><th>Subsystem</th>");
		first = release_columns(w, sb);
		sbuf_addstr(sb, "<th class=\"num\">Delta</th><th class=\"num\">Added</th>"
			    "<th class=\"num\">Removed</th><th>Forecast</th></tr></thead>\n<tbody>\n");
		for (i = 0; i < nr; i++) {
			struct sub *s = &w->sub.v[rank[i].index];
			const long long *c = &s->cnt[r * n];
			size_t k;

			sbuf_addstr(sb, "<tr><td>");
			add_link(sb, s->page, s->name);
			sbuf_addstr(sb, "</td>");
			for (k = first; k < n; k++)
				td_num(sb, c[k]);
			td_delta(sb, prev ? c[last] - c[last - 1] : 0, prev);
			td_change(sb, s->added[r], true, prev);
			td_change(sb, s->removed[r], false, prev);
			td_forecast(w, sb, c);
			sbuf_addstr(sb, "</tr>\n");
		}
		sbuf_addstr(sb, "</tbody>\n</table></div>\n");
		release_columns_note(w, sb);
	} else {
		sbuf_addstr(sb, "<p class=\"nodata\">No uses in any scanned release.</p>\n");
	}
	free(rank);
	forecast_method(sb);
	return page_end(w, w->rule.pages[r]);
}
