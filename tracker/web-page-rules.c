// SPDX-License-Identifier: GPL-2.0
/*
 * web-page-rules.c - index.html (every rule across releases) and a page per
 * rule.
 */
#include <stdlib.h>
#include <string.h>

#include "web-internal.h"

/* The cards of the newest release, the chart of every rule and its legend. */
static void index_summary(struct web *w, struct sbuf *sb)
{
	struct chart_series series[RULE__COUNT];
	size_t n = w->rel.n, last = n - 1, i, r, nsubs;

	sbuf_addstr(sb, "<div class=\"cards\">");
	change_cards(sb, "uses in the newest release", w->rel.tot, last, w->rel.added[last],
		     w->rel.removed[last]);
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
	sbuf_addstr(sb, "</ul>\n");
}

/* A row per rule in the newest release, and the total. */
static void index_rules(struct web *w, struct sbuf *sb)
{
	size_t n = w->rel.n, last = n - 1, r;

	sbuf_addstr(sb, "<h2>Rules</h2>\n<div class=\"scroll\"><table class=\"sortable\" id=\"rules\">\n"
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
		td_sparkline(w, sb, v);
		td_changes(sb, v, last, w->rule.added[r * n + last], w->rule.removed[r * n + last]);
		td_forecast(w, sb, v);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n<tfoot><tr><td>total</td><td></td>");
	td_num(sb, w->rel.tot[last]);
	sbuf_addstr(sb, "<td>");	/* the footer is not sorted */
	svg_sparkline(sb, w->rel.tot, w->rel.tags, n);
	sbuf_addstr(sb, "</td>");
	td_changes(sb, w->rel.tot, last, w->rel.added[last], w->rel.removed[last]);
	td_forecast(w, sb, w->rel.tot);
	sbuf_addstr(sb, "</tr></tfoot>\n</table></div>\n");
}

/*
 * A row per release; its date, and the date the forecast takes when that
 * is another (a Debian package's kernel line: release_trend_date()).
 */
static void index_releases(struct web *w, struct sbuf *sb)
{
	char date[32], line[32];
	size_t i;

	sbuf_addstr(sb, "<h2>Releases</h2>\n<div class=\"scroll\"><table class=\"sortable\" id=\"releases\">\n"
		    "<thead><tr><th>Release</th><th>Date</th><th>Commit</th><th class=\"num\">Files</th>"
		    "<th class=\"num\">Uses</th><th class=\"num\">Delta</th><th class=\"num\">Added</th>"
		    "<th class=\"num\">Removed</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < w->rel.n; i++) {
		const struct release_info *rel = &w->rel.v[i];

		format_date(date, sizeof(date), rel->date, "%Y-%m-%d");
		sbuf_addstr(sb, "<tr><td>");
		add_link(sb, w->rel.pages[i], rel->tag);
		sbuf_addf(sb, "</td><td>%s%s", date, rel->date_source ? " (Debian)" : "");
		if (release_trend_date(rel) != rel->date) {
			format_date(line, sizeof(line), release_trend_date(rel), "%Y-%m-%d");
			sbuf_addf(sb, " <small title=\"the date the forecast takes: the first "
				  "Debian upload of its X.Y line\">forecast: line %s</small>", line);
		}
		sbuf_addf(sb, "</td><td><code>%.12s</code></td>", rel->commit ? rel->commit : "");
		td_num(sb, rel->files);
		td_num(sb, w->rel.tot[i]);
		td_changes(sb, w->rel.tot, i, w->rel.added[i], w->rel.removed[i]);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n");
}

int page_index(struct web *w)
{
	struct sbuf *sb = &w->out.page;
	size_t n = w->rel.n, last = n - 1;

	page_begin(w, "Deprecated kernel API uses");
	sbuf_addstr(sb, "<p>Uses of the deprecated kernel interfaces that kmig tracks, per scanned release. ");
	sbuf_addf(sb, "Newest release: <a href=\"%s\">", w->rel.pages[last]);
	html_escape(sb, w->rel.tags[last]);
	sbuf_addf(sb, "</a>; %zu release%s scanned.</p>\n", n, n == 1 ? "" : "s");
	index_summary(w, sb);
	index_rules(w, sb);
	warn_on_user_note(sb);
	index_releases(w, sb);
	sbuf_addstr(sb, "<p>Also: <a href=\"subsystems.html\">every subsystem</a>, "
		    "<a href=\"branch.html\">the conversion branch, builds, boots and bisections</a>, "
		    "<a href=\"log.html\">per-commit attribution (kmig log)</a>.</p>\n");
	forecast_method(sb);
	return page_end(w, "index.html");
}

/* The chart and a row per release of rule @r, and its forecast. */
static void rule_trend(struct web *w, struct sbuf *sb, size_t r)
{
	size_t n = w->rel.n, i;
	const long long *v = &w->rule.tot[r * n];
	struct chart_series series = { rules[r].id, v };

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
		td_changes(sb, v, i, w->rule.added[r * n + i], w->rule.removed[r * n + i]);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n<h2>Forecast</h2>\n<table id=\"forecast\"><tbody><tr><th>");
	html_escape(sb, rules[r].id);
	sbuf_addstr(sb, "</th>");
	td_forecast(w, sb, v);
	sbuf_addstr(sb, "</tr></tbody></table>\n");
}

/* The subsystems with uses of rule @r, most in the newest release first. */
static void rule_subs(struct web *w, struct sbuf *sb, size_t r)
{
	size_t n = w->rel.n, last = n - 1, i, nr;
	struct ranked *rank = rank_subs(w, r, last, RANK_EVER, &nr);

	sbuf_addf(sb, "<h2>Subsystems</h2>\n<p>%zu subsystem%s with uses in a scanned release "
		  "or changes in the newest, most uses in ", nr, nr == 1 ? "" : "s");
	html_escape(sb, w->rel.tags[last]);
	sbuf_addstr(sb, " first; added and removed since the previous release.</p>\n");
	if (!nr) {
		sbuf_addstr(sb, "<p class=\"nodata\">No uses in any scanned release.</p>\n");
		goto out;
	}
	counts_table_begin(w, sb, "subsystems", "Subsystem");
	for (i = 0; i < nr; i++) {
		const struct sub *s = &w->sub.v[rank[i].index];

		counts_row(w, sb, s->page, s->name, &s->cnt[r * n], s->added[r], s->removed[r],
			   &s->moved[r]);
	}
	counts_table_end(w, sb);
	sections_note(sb);
out:
	free(rank);
}

/* "Documented since" and "replacement since", from the releases' own trees. */
static void rule_since(struct web *w, struct sbuf *sb, size_t r)
{
	const struct relinfo_since *s = &w->rule.since;

	if (!s->nknown)
		return;
	sbuf_addstr(sb, "<p class=\"since\">Documented since: ");
	if (!rules[r].sections)
		sbuf_addstr(sb, "not in deprecated.rst (checkpatch)");
	else if (s->doc[r])
		html_escape(sb, s->doc[r]);
	else
		sbuf_addstr(sb, "no scanned release");
	sbuf_addstr(sb, ". Replacement since: ");
	if (!rules[r].repl)
		sbuf_addstr(sb, "no replacement identifier");
	else if (s->repl[r])
		html_escape(sb, s->repl[r]);
	else
		sbuf_addstr(sb, "no scanned release");
	sbuf_addstr(sb, " (the first scanned release whose own deprecated.rst has the section, and whose include/ defines a replacement; counts cover every release).</p>\n");
}

static int page_rule(struct web *w, size_t r)
{
	struct sbuf *sb = &w->out.page;
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
	rule_since(w, sb, r);
	if (r == RULE_WARN_ON_USER)
		warn_on_user_note(sb);
	rule_trend(w, sb, r);
	rule_subs(w, sb, r);
	forecast_method(sb);
	return page_end(w, w->rule.pages[r]);
}

int pages_rules(struct web *w)
{
	size_t r;
	int ret = 0;

	for (r = 0; !ret && r < RULE__COUNT; r++)
		ret = page_rule(w, r);
	return ret;
}
