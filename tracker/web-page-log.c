// SPDX-License-Identifier: GPL-2.0
/*
 * web-page-log.c - log.html: the commits that added or removed uses (kmig
 * log), per rule and per commit.
 */
#include <stdlib.h>
#include <string.h>

#include "web-internal.h"

/* Newest commits listed on the log page. */
#define MAX_LOG_COMMITS 5000

struct log_state {
	struct web *w;
	struct sbuf rows;
	struct sbuf changes;
	char *commit;
	long long added, removed;
	size_t ncommits;
	struct sbuf ranges;	/* the rows of the table per range */
};

static void log_flush(struct log_state *ls)
{
	struct sbuf *sb = &ls->rows;

	if (!ls->commit || ls->ncommits > MAX_LOG_COMMITS)
		goto out;
	sbuf_addf(sb, "<td class=\"num up\" data-v=\"%lld\">+%lld</td>"
		  "<td class=\"num down\" data-v=\"%lld\">-%lld</td><td>%s</td></tr>\n",
		  ls->added, ls->added, ls->removed, ls->removed, ls->changes.buf);
out:
	free(ls->commit);
	ls->commit = NULL;
	sbuf_reset(&ls->changes);
}

static int add_commit_change(void *data, const struct web_commit_change *c)
{
	struct log_state *ls = data;
	struct sbuf *sb = &ls->rows;
	int r = rule_lookup(c->rule);

	if (!ls->commit || strcmp(ls->commit, c->commit)) {
		char date[32];

		log_flush(ls);
		ls->commit = xstrdup(c->commit);
		ls->added = ls->removed = 0;
		if (++ls->ncommits <= MAX_LOG_COMMITS) {
			format_date(date, sizeof(date), c->date, "%Y-%m-%d");
			sbuf_addstr(sb, "<tr><td>");
			add_commit(sb, c->commit);
			sbuf_addf(sb, "</td><td>%s</td>", date);
			td_text(sb, c->author);
			td_text(sb, c->subject);
		}
	}
	ls->added += c->added;
	ls->removed += c->removed;
	if (ls->changes.len)
		sbuf_addstr(&ls->changes, "<br>");
	if (r >= 0)
		add_link(&ls->changes, ls->w->rule.pages[r], c->rule);
	else
		html_escape(&ls->changes, c->rule);
	sbuf_addstr(&ls->changes, " (");
	add_sub_link(ls->w, &ls->changes, c->subsystem);
	sbuf_addf(&ls->changes, ") +%lld -%lld", c->added, c->removed);
	return 0;
}

/* One row of the table per range: a range and a rule, never a sum of ranges. */
static int add_range_change(void *data, const struct web_range_change *c)
{
	struct log_state *ls = data;
	struct sbuf *sb = &ls->ranges;
	int r = rule_lookup(c->rule);

	sbuf_addstr(sb, "<tr>");
	td_text(sb, c->range ? c->range : "(no range recorded)");
	sbuf_addstr(sb, "<td>");
	if (r >= 0)
		add_link(sb, ls->w->rule.pages[r], c->rule);
	else
		html_escape(sb, c->rule);
	sbuf_addstr(sb, "</td>");
	td_num(sb, c->commits);
	td_change(sb, c->added, true, true);
	td_change(sb, c->removed, false, true);
	sbuf_addstr(sb, "</tr>\n");
	return 0;
}

int page_log(struct web *w)
{
	struct sbuf *sb = &w->out.page;
	struct log_state ls = { .w = w };
	int ret;

	page_begin(w, "Per-commit attribution (kmig log)");
	ret = store_web_commit_changes(w->st, add_commit_change, &ls);
	if (ret)
		goto out_release;
	log_flush(&ls);
	if (!ls.ncommits) {
		no_data(sb, "no commit has been attributed (kmig log)");
		ret = page_end(w, "log.html");
		goto out_release;
	}
	ret = store_web_range_changes(w->st, add_range_change, &ls);
	if (ret)
		goto out_release;
	sbuf_addf(sb, "<p>%zu commit%s added or removed uses.</p>\n<h2>Per range</h2>\n"
		  "<p class=\"note\">One row per range given to kmig log and rule: ranges overlap "
		  "or hold backports of the same change, so they are never added together.</p>\n"
		  "<div class=\"scroll\"><table class=\"sortable\" id=\"log-ranges\">\n<thead><tr><th>Range</th>"
		  "<th>Rule</th><th class=\"num\">Commits</th><th class=\"num\">Added</th><th class=\"num\">Removed</th>"
		  "</tr></thead>\n<tbody>\n", ls.ncommits, ls.ncommits == 1 ? "" : "s");
	sbuf_add(sb, ls.ranges.buf, ls.ranges.len);
	sbuf_addstr(sb, "</tbody>\n</table></div>\n<h2>Commits</h2>\n");
	if (ls.ncommits > MAX_LOG_COMMITS)
		sbuf_addf(sb, "<p class=\"note\">The newest %d of %zu commits.</p>\n",
			  MAX_LOG_COMMITS, ls.ncommits);
	sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"commits\">\n<thead><tr>"
		    "<th>Commit</th><th>Date</th><th>Author</th><th>Subject</th><th class=\"num\">Added</th>"
		    "<th class=\"num\">Removed</th><th>Changes</th></tr></thead>\n<tbody>\n");
	sbuf_add(sb, ls.rows.buf, ls.rows.len);
	sbuf_addstr(sb, "</tbody>\n</table></div>\n");
	ret = page_end(w, "log.html");
out_release:
	free(ls.commit);
	sbuf_release(&ls.rows);
	sbuf_release(&ls.changes);
	sbuf_release(&ls.ranges);
	return ret;
}
