// SPDX-License-Identifier: GPL-2.0
/*
 * forecast.c - the least-squares line of count on release date and the
 * zero date it gives (method: forecast.h).
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "forecast.h"

/*
 * The line through the dated points, x in years since the first dated
 * one (@base); false without two dates FORECAST_MIN_SPAN apart.
 */
static bool fit_line(const long long *date, const long long *count, size_t n,
		     struct forecast *out)
{
	long long base = 0, lo = 0, hi = 0;
	double mx = 0, my = 0, sxx = 0, sxy = 0;
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		if (!date[i])
			continue;
		if (!m++)
			base = lo = hi = date[i];
		if (date[i] < lo)
			lo = date[i];
		if (date[i] > hi)
			hi = date[i];
		mx += (double)(date[i] - base) / FORECAST_YEAR;
		my += (double)count[i];
	}
	out->points = m;
	if (hi - lo < FORECAST_MIN_SPAN)
		return false;
	mx /= (double)m;
	my /= (double)m;
	for (i = 0; i < n; i++) {
		double dx = (double)(date[i] - base) / FORECAST_YEAR - mx;

		if (!date[i])
			continue;
		sxx += dx * dx;
		sxy += dx * ((double)count[i] - my);
	}
	out->slope = sxy / sxx;
	/* back from years since @base to years since the epoch */
	out->intercept = my - out->slope * (mx + (double)base / FORECAST_YEAR);
	out->fitted = true;
	return true;
}

void forecast_fit(const long long *date, const long long *count, size_t n,
		  struct forecast *out)
{
	double zero;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->kind = FORECAST_TOO_FEW;
	if (!n)
		return;
	fit_line(date, count, n, out);
	if (!count[n - 1]) {
		for (i = n - 1; i && !count[i - 1]; i--)
			;
		out->kind = !i && !count[0] ? FORECAST_NO_USES : FORECAST_REACHED_ZERO;
		if (out->kind == FORECAST_REACHED_ZERO)
			out->zero_at = date[i];
		return;
	}
	if (!out->fitted || !date[n - 1])
		return;
	out->kind = FORECAST_NOT_CONVERGING;
	if (!(out->slope < 0))
		return;
	zero = (double)date[n - 1] + (double)count[n - 1] / -out->slope * FORECAST_YEAR;
	if (zero > (double)FORECAST_LAST_DATE)
		return;
	out->kind = FORECAST_CONVERGING;
	out->zero_at = llround(zero);
}

bool forecast_converging(const struct forecast *f)
{
	return f->kind == FORECAST_CONVERGING || f->kind == FORECAST_REACHED_ZERO;
}

void forecast_month(char *buf, size_t len, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t < 0 || t > FORECAST_LAST_DATE || !gmtime_r(&tt, &tm))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%04d-%02d", tm.tm_year + 1900, tm.tm_mon + 1);
}

/* Append @v with a comma between groups of three digits. */
static void add_grouped(struct sbuf *sb, long long v)
{
	if (v >= 1000) {
		add_grouped(sb, v / 1000);
		sbuf_addf(sb, ",%03lld", v % 1000);
	} else {
		sbuf_addf(sb, "%lld", v);
	}
}

void forecast_slope(struct sbuf *sb, double slope, const char *minus)
{
	double a = fabs(slope);
	bool whole = a >= 9.95;
	long long v = whole ? llround(a) : llround(a * 10);
	int decimals = 1;

	/*
	 * Below 0.05 one decimal is 0: a fall that still reaches zero
	 * before FORECAST_LAST_DATE (e.g. -0.03/year from a count of 1)
	 * gets the decimals of its first non-zero digit instead.
	 */
	while (!v && decimals < FORECAST_SLOPE_DECIMALS)
		v = llround(a * pow(10, ++decimals));
	if (v)
		sbuf_addstr(sb, slope < 0 ? minus : "+");
	if (!v)
		sbuf_addch(sb, '0');
	else if (whole)
		add_grouped(sb, v);
	else
		sbuf_addf(sb, "%.*f", decimals, (double)v / pow(10, decimals));
	sbuf_addstr(sb, "/year");
}

void forecast_text(struct sbuf *sb, const struct forecast *f)
{
	char month[16];

	switch (f->kind) {
	case FORECAST_TOO_FEW:
		sbuf_addstr(sb, "not converging (too few releases)");
		return;
	case FORECAST_NO_USES:
		sbuf_addstr(sb, "no uses");
		return;
	case FORECAST_REACHED_ZERO:
		sbuf_addstr(sb, "reached zero");
		if (f->zero_at) {
			forecast_month(month, sizeof(month), f->zero_at);
			sbuf_addf(sb, " (%s)", month);
		}
		return;
	case FORECAST_NOT_CONVERGING:
		sbuf_addstr(sb, "not converging (");
		break;
	case FORECAST_CONVERGING:
		forecast_month(month, sizeof(month), f->zero_at);
		sbuf_addf(sb, "zero by %s at this pace (", month);
		break;
	}
	forecast_slope(sb, f->slope, "-");
	sbuf_addch(sb, ')');
}
