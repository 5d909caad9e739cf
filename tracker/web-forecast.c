// SPDX-License-Identifier: GPL-2.0
/*
 * web-forecast.c - the forecast's table cell and the paragraph that
 * explains it; forecast.c fits the line over the releases' dates.
 */
#include <stdlib.h>

#include "web-internal.h"

/* The cell's tooltip: the slope and what it was fitted to. */
static void fc_title(struct sbuf *sb, const struct forecast *f)
{
	sbuf_addstr(sb, " title=\"slope ");
	forecast_slope(sb, f->slope, "&minus;");
	sbuf_addf(sb, " over %zu release%s (" FORECAST_METHOD ")\"", f->points,
		  f->points == 1 ? "" : "s");
}

void td_forecast(struct web *w, struct sbuf *sb, const long long *v)
{
	size_t n = w->rel.n, i;
	long long *dates = xcalloc(n ? n : 1, sizeof(*dates));
	struct forecast f;
	char month[16];

	for (i = 0; i < n; i++)
		dates[i] = release_trend_date(&w->rel.v[i]);
	forecast_fit(dates, v, n, &f);
	free(dates);
	switch (f.kind) {
	case FORECAST_TOO_FEW:
		sbuf_addstr(sb, "<td data-v=\"\" class=\"muted\" title=\"needs two releases "
			    "whose dates as the forecast takes them (a Debian package: its "
			    "kernel line&rsquo;s, as in the list of releases) are a day or "
			    "more apart\">too few releases</td>");
		return;
	case FORECAST_NO_USES:
		sbuf_addstr(sb, "<td data-v=\"0\">no uses</td>");
		return;
	case FORECAST_REACHED_ZERO:
		/* the month, as kmig report gives it */
		sbuf_addstr(sb, "<td data-v=\"0\">reached zero");
		if (f.zero_at) {
			forecast_month(month, sizeof(month), f.zero_at);
			sbuf_addf(sb, " (%s)", month);
		}
		sbuf_addstr(sb, "</td>");
		return;
	case FORECAST_NOT_CONVERGING:
		sbuf_addf(sb, "<td class=\"fc\" data-v=\"%lld\"", FORECAST_LAST_DATE + 1);
		fc_title(sb, &f);
		sbuf_addstr(sb, ">not converging (");
		break;
	case FORECAST_CONVERGING:
		forecast_month(month, sizeof(month), f.zero_at);
		sbuf_addf(sb, "<td class=\"fc\" data-v=\"%lld\"", f.zero_at);
		fc_title(sb, &f);
		sbuf_addf(sb, ">zero by %s (", month);
		break;
	}
	forecast_slope(sb, f.slope, "&minus;");
	sbuf_addstr(sb, ")</td>");
}

void forecast_method(struct sbuf *sb)
{
	sbuf_addstr(sb, "<p class=\"note\" id=\"forecast-method\"><b>Forecast method.</b> "
		    "Least squares of count on release date: a line is fitted to the counts of "
		    "every scanned release, x being in years the date of the release&rsquo;s "
		    "kernel line: for a Debian package, the first Debian upload of its X.Y line "
		    "as a release (its changelog; a point release of a long-term line holds that "
		    "line&rsquo;s code), else the release&rsquo;s own date. When the line falls, the newest count reaches zero at "
		    "that pace &mdash; newest count &divide; fall per year after the newest "
		    "release&rsquo;s date &mdash; shown as &ldquo;zero by YYYY-MM&rdquo; with "
		    "the slope per year; a flat or rising line is &ldquo;not converging&rdquo;, "
		    "and without two releases whose dates are a day or more apart there are "
		    "&ldquo;too few releases&rdquo;. A count already at zero has &ldquo;reached "
		    "zero&rdquo; (&ldquo;no uses&rdquo; if it never had any).</p>\n");
}
