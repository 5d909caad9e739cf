// SPDX-License-Identifier: GPL-2.0
/*
 * web-chart.c - inline SVG charts: a line chart with axes and labels, and
 * the sparklines of the tables.
 */
#include <limits.h>
#include <math.h>

#include "web-internal.h"

#define CHART_W 760
#define CHART_H 300
#define CHART_ML 64
#define CHART_MR 20
#define CHART_MT 14
#define CHART_MB 76

static double chart_f(long long v, bool log_scale)
{
	if (v < 0)
		v = 0;
	return log_scale ? log10(1.0 + (double)v) : (double)v;
}

/* Ticks for 0..max: linear steps of 1, 2 or 5 times a power of ten. */
static size_t chart_ticks(long long max, bool log_scale, long long *ticks,
			  size_t nmax)
{
	size_t n = 0;

	ticks[n++] = 0;
	if (log_scale) {
		long long t = 1;

		for (;;) {
			ticks[n++] = t;
			if (t >= max || n == nmax || t > LLONG_MAX / 10)
				break;
			t *= 10;
		}
	} else {
		double raw = max > 0 ? (double)max / 5.0 : 1.0;
		double mag = pow(10.0, floor(log10(raw)));
		long long step;

		if (raw <= mag)
			step = (long long)mag;
		else if (raw <= 2 * mag)
			step = (long long)(2 * mag);
		else if (raw <= 5 * mag)
			step = (long long)(5 * mag);
		else
			step = (long long)(10 * mag);
		if (step < 1)
			step = 1;
		while (n < nmax && ticks[n - 1] < max)
			ticks[n] = ticks[n - 1] + step, n++;
		if (n == 1)
			ticks[n++] = step;
	}
	return n;
}

/* The plot area of a line chart: nx points from 0 to top (scaled). */
struct chart_frame {
	double pw, ph, top;
	size_t nx;
	bool log_scale;
};

static double chart_x(const struct chart_frame *cf, size_t i)
{
	if (cf->nx > 1)
		return CHART_ML + cf->pw * (double)i / (double)(cf->nx - 1);
	return CHART_ML + cf->pw / 2;
}

static double chart_y(const struct chart_frame *cf, long long v)
{
	return CHART_MT + cf->ph - cf->ph * chart_f(v, cf->log_scale) / cf->top;
}

/* Grid lines at @ticks, the axes and the x labels (at most 24 shown). */
static void chart_axes(struct sbuf *sb, const struct chart_frame *cf,
		       const long long *ticks, size_t nticks,
		       const char *const *xlabels)
{
	size_t i, nx = cf->nx, label_step;

	for (i = 0; i < nticks; i++) {
		double y = chart_y(cf, ticks[i]);

		sbuf_addf(sb, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			  "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%lld</text>\n",
			  CHART_ML, CHART_W - CHART_MR, y, y, CHART_ML - 6, y + 4,
			  ticks[i]);
	}
	sbuf_addf(sb, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
		  CHART_ML, CHART_W - CHART_MR, CHART_MT + cf->ph, CHART_MT + cf->ph);
	sbuf_addf(sb, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%.1f\"/>\n",
		  CHART_ML, CHART_ML, CHART_MT, CHART_MT + cf->ph);
	if (cf->log_scale)
		sbuf_addf(sb, "<text x=\"%d\" y=\"%d\">log scale</text>\n",
			  CHART_ML + 6, CHART_MT + 10);
	label_step = nx > 24 ? (nx + 23) / 24 : 1;
	for (i = 0; i < nx; i++) {
		if (i % label_step && i != nx - 1)
			continue;
		sbuf_addf(sb, "<text class=\"xl\" text-anchor=\"end\" transform=\"translate(%.1f %.1f) rotate(-35)\">",
			  chart_x(cf, i), CHART_MT + cf->ph + 14);
		html_escape(sb, xlabels[i]);
		sbuf_addstr(sb, "</text>\n");
	}
}

/* Series @j: its line and a point with a <title> per x label. */
static void chart_series(struct sbuf *sb, const struct chart_frame *cf,
			 const struct chart_series *s, size_t j,
			 const char *const *xlabels)
{
	size_t i;

	sbuf_addf(sb, "<g class=\"series s%zu\" data-name=\"", j % NSERIES_COLOURS);
	html_escape(sb, s->name);
	sbuf_addstr(sb, "\"><polyline points=\"");
	for (i = 0; i < cf->nx; i++)
		sbuf_addf(sb, "%s%.1f,%.1f", i ? " " : "", chart_x(cf, i), chart_y(cf, s->v[i]));
	sbuf_addstr(sb, "\"/>\n");
	for (i = 0; i < cf->nx; i++) {
		sbuf_addf(sb, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"><title>",
			  chart_x(cf, i), chart_y(cf, s->v[i]));
		html_escape(sb, s->name);
		sbuf_addstr(sb, " in ");
		html_escape(sb, xlabels[i]);
		sbuf_addf(sb, ": %lld</title></circle>\n", s->v[i]);
	}
	sbuf_addstr(sb, "</g>\n");
}

void svg_line_chart(struct sbuf *sb, const char *id, const char *caption,
		    const char *const *xlabels, size_t nx,
		    const struct chart_series *s, size_t ns, bool log_scale)
{
	struct chart_frame cf = {
		.pw = CHART_W - CHART_ML - CHART_MR,
		.ph = CHART_H - CHART_MT - CHART_MB,
		.nx = nx,
		.log_scale = log_scale,
	};
	long long max = 0, ticks[24];
	size_t i, j, nticks;

	for (j = 0; j < ns; j++)
		for (i = 0; i < nx; i++)
			if (s[j].v[i] > max)
				max = s[j].v[i];
	nticks = chart_ticks(max, log_scale, ticks, ARRAY_SIZE(ticks));
	cf.top = chart_f(ticks[nticks - 1], log_scale);
	if (cf.top <= 0)
		cf.top = 1;

	sbuf_addf(sb, "<svg class=\"chart\" id=\"%s\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-labelledby=\"%s-t\" data-points=\"%zu\" data-series=\"%zu\">\n<title id=\"%s-t\">",
		  id, CHART_W, CHART_H, CHART_W, CHART_H, id, nx, ns, id);
	html_escape(sb, caption);
	sbuf_addstr(sb, "</title>\n");
	chart_axes(sb, &cf, ticks, nticks, xlabels);
	for (j = 0; j < ns; j++)
		chart_series(sb, &cf, &s[j], j, xlabels);
	sbuf_addstr(sb, "</svg>\n");
}

void svg_sparkline(struct sbuf *sb, const long long *v, const char *const *xlabels,
		   size_t n)
{
	const double w = 100, h = 24, pad = 3;
	long long min = 0, max = 0;
	double range;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!i || v[i] < min)
			min = v[i];
		if (!i || v[i] > max)
			max = v[i];
	}
	range = max > min ? (double)(max - min) : 1;

#define SX(i) (n > 1 ? pad + (w - 2 * pad) * (double)(i) / (double)(n - 1) : w / 2)
#define SY(x) (max > min ? h - pad - (h - 2 * pad) * (double)((x) - min) / range : h / 2)

	sbuf_addf(sb, "<svg class=\"spark\" viewBox=\"0 0 100 24\" width=\"100\" height=\"24\" data-points=\"%zu\"><polyline points=\"",
		  n);
	for (i = 0; i < n; i++)
		sbuf_addf(sb, "%s%.1f,%.1f", i ? " " : "", SX(i), SY(v[i]));
	sbuf_addstr(sb, "\"/>");
	for (i = 0; i < n; i++) {
		sbuf_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"><title>", SX(i),
			  SY(v[i]), i == n - 1 ? "2.5" : "1.5");
		html_escape(sb, xlabels[i]);
		sbuf_addf(sb, ": %lld</title></circle>", v[i]);
	}
	sbuf_addstr(sb, "</svg>");
#undef SX
#undef SY
}
