/* SPDX-License-Identifier: GPL-2.0 */
/*
 * forecast.h - when a count reaches zero, from its counts over time.
 *
 * The method (FORECAST_METHOD): a least-squares line of count on release
 * date, x being the date in years (of FORECAST_YEAR seconds), fitted to
 * every release given.  When the line falls, the newest count reaches zero
 * at that pace: newest count / fall per year after the newest release's
 * date.  A flat or rising line is "not converging"; without two releases
 * whose dates differ by at least FORECAST_MIN_SPAN there is no line ("too
 * few releases").  A newest count of zero needs no line ("reached zero",
 * or "no uses" when every count is zero).
 *
 * The zero date is extrapolated from the newest count, not where the line
 * crosses zero: when the fall slows down the line can cross zero before
 * the newest release, while the count there is still positive.
 *
 * Pure functions: no I/O, no allocation except into a caller's sbuf.  The
 * dashboard (web-forecast.c) and kmig report use them.
 */
#ifndef KMIG_FORECAST_H
#define KMIG_FORECAST_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* How the forecast is made, as stated wherever one is shown. */
#define FORECAST_METHOD "least squares of count on release date"

/* The year of the slope: 365.2425 days (the mean Gregorian year), in seconds. */
#define FORECAST_YEAR 31556952.0
/* Releases whose dates differ by less than this (a day) count as one date. */
#define FORECAST_MIN_SPAN 86400LL
/*
 * The last zero date a forecast gives (9999-12-31T23:59:59Z); a slower
 * fall is "not converging".
 */
#define FORECAST_LAST_DATE 253402300799LL

enum forecast_kind {
	FORECAST_TOO_FEW,	/* fewer than two releases with distinct dates */
	FORECAST_NO_USES,	/* zero in every release */
	FORECAST_REACHED_ZERO,	/* zero in the newest release */
	FORECAST_NOT_CONVERGING,	/* the line is flat or rising */
	FORECAST_CONVERGING,	/* the line falls: zero_at is the zero date */
};

struct forecast {
	enum forecast_kind kind;
	size_t points;		/* releases with a date: the line's points */
	bool fitted;		/* slope and intercept hold a line */
	double slope;		/* count per year */
	double intercept;	/* the line's count at the epoch (1970-01-01) */
	/*
	 * FORECAST_CONVERGING: when the newest count reaches zero at the
	 * slope; FORECAST_REACHED_ZERO: the date of the first release of the
	 * newest run of zeros.  Seconds since the epoch; 0 otherwise.
	 */
	long long zero_at;
};

/*
 * forecast_fit - the forecast for the @n counts @count[i] at the dates
 * @date[i] (seconds since the epoch; 0 for unknown, left out of the
 * line), in release order: the last is the newest release, whose count is
 * extrapolated (FORECAST_TOO_FEW when its date is unknown).  The line is
 * fitted (and @out->fitted set) whenever two dates are FORECAST_MIN_SPAN
 * apart, even when the newest count is zero.  Cannot fail; @out is
 * overwritten.
 */
void forecast_fit(const long long *date, const long long *count, size_t n,
		  struct forecast *out);

/* forecast_converging - true when the count is at zero or heading there. */
bool forecast_converging(const struct forecast *f);

/*
 * forecast_month - @t (seconds since the epoch) as "YYYY-MM" in UTC into
 * @buf (at least 8 bytes); "-" when @t cannot be represented.
 */
void forecast_month(char *buf, size_t len, long long t);

/*
 * forecast_slope - append @slope per year as "<sign><digits>/year" to @sb:
 * the sign is '+', or @minus for a fall (e.g. "-", or "&minus;" in HTML),
 * none when it rounds to zero; thousands separated by commas; whole
 * numbers from 10 on, one decimal below ("+2,371/year", "-0.5/year"),
 * and below 0.05 the decimals of the first non-zero digit, up to
 * FORECAST_SLOPE_DECIMALS ("-0.03/year"): a converging forecast's slope
 * (a count of 1 or more gone before FORECAST_LAST_DATE) never reads 0.
 */
#define FORECAST_SLOPE_DECIMALS 4
void forecast_slope(struct sbuf *sb, double slope, const char *minus);

/*
 * forecast_text - append the plain-text forecast of @f to @sb: "zero by
 * YYYY-MM at this pace (-1,071/year)", "not converging (+12/year)",
 * "not converging (too few releases)", "reached zero (YYYY-MM)" (without
 * the month when that release has no date) or "no uses".
 */
void forecast_text(struct sbuf *sb, const struct forecast *f);

#endif
