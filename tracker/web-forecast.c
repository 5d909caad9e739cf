// SPDX-License-Identifier: GPL-2.0
/*
 * web-forecast.c - when a count reaches zero: the least-squares fit, its
 * table cell and the paragraph that explains it.
 */
#include <math.h>
#include <string.h>

#include "web-internal.h"

void forecast_fit(const long long *v, size_t n, struct forecast *out)
{
	size_t w = n < FORECAST_WINDOW ? n : FORECAST_WINDOW;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, mx, my, den;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->window = w;
	if (n < 2) {
		out->kind = FORECAST_NO_DATA;
		return;
	}
	for (i = 0; i < w; i++) {
		double x = (double)i, y = (double)v[n - w + i];

		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
	}
	mx = sx / (double)w;
	my = sy / (double)w;
	den = sxx - (double)w * mx * mx;
	out->slope = den > 0 ? (sxy - (double)w * mx * my) / den : 0;
	if (v[n - 1] == 0) {
		out->kind = FORECAST_ZERO;
		return;
	}
	if (out->slope > -1e-9) {
		out->kind = FORECAST_NOT_CONVERGING;
		return;
	}
	out->kind = FORECAST_CONVERGING;
	out->releases = (long long)ceil((double)v[n - 1] / -out->slope - 1e-9);
	if (out->releases < 1)
		out->releases = 1;
}

void td_forecast(struct web *w, struct sbuf *sb, const long long *v)
{
	struct forecast f;
	size_t n = w->rel.n, i;

	forecast_fit(v, n, &f);
	switch (f.kind) {
	case FORECAST_NO_DATA:
		sbuf_addstr(sb, "<td data-v=\"\" class=\"muted\">needs two releases</td>");
		return;
	case FORECAST_ZERO:
		for (i = 0; i < n && !v[i]; i++)
			;
		sbuf_addf(sb, "<td data-v=\"0\">%s</td>", i == n ? "no uses" : "reached zero");
		return;
	case FORECAST_NOT_CONVERGING:
		sbuf_addf(sb, "<td class=\"fc\" data-v=\"1000000000\" title=\"slope %+.1f per release over the last %zu releases\">not converging</td>",
			  f.slope, f.window);
		return;
	case FORECAST_CONVERGING:
		break;
	}
	sbuf_addf(sb, "<td class=\"fc\" data-v=\"%lld\" title=\"slope %+.1f per release over the last %zu releases\">in &asymp;%lld release%s</td>",
		  f.releases, f.slope, f.window, f.releases, f.releases == 1 ? "" : "s");
}

void forecast_method(struct sbuf *sb)
{
	sbuf_addf(sb, "<p class=\"note\" id=\"forecast-method\"><b>Forecast method.</b> A least-squares "
		  "line is fitted to the counts of the last %d scanned releases (fewer when fewer are "
		  "scanned), x being the position in release order, so one step is one scanned "
		  "release, whatever its distance in time. When the line falls, the count reaches zero "
		  "after &lceil;count &divide; fall per release&rceil; more releases at that pace; a flat "
		  "or rising line is &ldquo;not converging&rdquo;.</p>\n",
		  FORECAST_WINDOW);
}
