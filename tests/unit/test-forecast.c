// SPDX-License-Identifier: GPL-2.0
/*
 * test-forecast.c - the least-squares line of count on release date, the
 * zero date it gives, and how both are written.  Expected values are
 * worked out by hand in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "forecast.h"
#include "util.h"

#define Y 31556952LL		/* FORECAST_YEAR: 365.2425 days */
#define DAY 86400LL
#define T2020 1577836800LL	/* 2020-01-01T00:00:00Z */
#define T2021_06_15 1623758400LL	/* 2021-06-15T12:00:00Z */

static void test_falling_exact_years(void **state)
{
	/* 300, 200, 100 one year apart: -100 per year, zero one year after the last */
	static const long long date[] = { T2020, T2020 + Y, T2020 + 2 * Y };
	static const long long count[] = { 300, 200, 100 };
	struct forecast f;
	char month[16];

	(void)state;
	forecast_fit(date, count, 3, &f);
	assert_int_equal(f.kind, FORECAST_CONVERGING);
	assert_true(forecast_converging(&f));
	assert_true(f.fitted);
	assert_int_equal(f.points, 3);
	assert_float_equal(f.slope, -100.0, 1e-9);
	/* at the epoch: 300 + 100 per year over the T2020 / Y years before 2020 */
	assert_float_equal(f.intercept, 300.0 + 100.0 * (double)T2020 / (double)Y, 1e-6);
	assert_int_equal(f.zero_at, T2020 + 3 * Y);
	/* T2020 + 3 Y = 2023-01-01 minus 23,544 s: 2022-12-31T17:27:36Z */
	forecast_month(month, sizeof(month), f.zero_at);
	assert_string_equal(month, "2022-12");
}

static void test_falling_calendar_years(void **state)
{
	/* 3, 2, 1 on 15 June 2021, 2022, 2023 (365 days apart): zero 365 days on */
	static const long long date[] = {
		T2021_06_15, T2021_06_15 + 365 * DAY, T2021_06_15 + 730 * DAY,
	};
	static const long long count[] = { 3, 2, 1 };
	struct forecast f;
	struct sbuf sb = SBUF_INIT;

	(void)state;
	forecast_fit(date, count, 3, &f);
	assert_int_equal(f.kind, FORECAST_CONVERGING);
	/* -1 per 365 days is -365.2425 / 365 per year */
	assert_float_equal(f.slope, -365.2425 / 365.0, 1e-9);
	assert_int_equal(f.zero_at, T2021_06_15 + 1095 * DAY);	/* 2024-06-14 */
	forecast_text(&sb, &f);
	assert_string_equal(sb.buf, "zero by 2024-06 at this pace (-1.0/year)");
	sbuf_release(&sb);
}

static void test_extrapolated_from_newest(void **state)
{
	/*
	 * 1000, 1, 1 at years 0, 1, 2: mean 334, slope ((-1)(666) + (1)(-333)) / 2
	 * = -499.5.  The line crosses zero at 1 + 334 / 499.5 = 1.67 years, before
	 * the newest release; the newest count (1) reaches zero 1 / 499.5 years
	 * after it.
	 */
	static const long long date[] = { T2020, T2020 + Y, T2020 + 2 * Y };
	static const long long count[] = { 1000, 1, 1 };
	struct forecast f;

	(void)state;
	forecast_fit(date, count, 3, &f);
	assert_int_equal(f.kind, FORECAST_CONVERGING);
	assert_float_equal(f.slope, -499.5, 1e-9);
	assert_int_equal(f.zero_at, T2020 + 2 * Y + 63177);	/* Y / 499.5 = 63,177.08 s */
}

static void test_not_converging(void **state)
{
	static const long long date[] = { T2020, T2020 + Y, T2020 + 2 * Y };
	static const long long rising[] = { 10, 20, 30 };
	static const long long flat[] = { 5, 5, 5 };
	/* 1,000,000 then 999,999: -1 per year, zero after year 9999 */
	static const long long slow[] = { 1000000, 999999 };
	struct forecast f;
	struct sbuf sb = SBUF_INIT;

	(void)state;
	forecast_fit(date, rising, 3, &f);
	assert_int_equal(f.kind, FORECAST_NOT_CONVERGING);
	assert_false(forecast_converging(&f));
	assert_float_equal(f.slope, 10.0, 1e-9);
	assert_int_equal(f.zero_at, 0);
	forecast_text(&sb, &f);
	assert_string_equal(sb.buf, "not converging (+10/year)");
	forecast_fit(date, flat, 3, &f);
	assert_int_equal(f.kind, FORECAST_NOT_CONVERGING);
	assert_float_equal(f.slope, 0.0, 1e-12);
	forecast_fit(date, slow, 2, &f);
	assert_int_equal(f.kind, FORECAST_NOT_CONVERGING);
	assert_float_equal(f.slope, -1.0, 1e-9);
	sbuf_release(&sb);
}

static void test_too_few(void **state)
{
	/* one release; three at one date; two an hour apart */
	static const long long one[] = { T2020 };
	static const long long same[] = { T2020, T2020, T2020 };
	static const long long hour[] = { T2020, T2020 + 3600 };
	static const long long count[] = { 30, 20, 10 };
	struct forecast f;
	struct sbuf sb = SBUF_INIT;

	(void)state;
	forecast_fit(one, count, 1, &f);
	assert_int_equal(f.kind, FORECAST_TOO_FEW);
	assert_false(f.fitted);
	forecast_fit(same, count, 3, &f);
	assert_int_equal(f.kind, FORECAST_TOO_FEW);
	assert_false(f.fitted);
	assert_false(forecast_converging(&f));
	forecast_fit(hour, count, 2, &f);
	assert_int_equal(f.kind, FORECAST_TOO_FEW);
	forecast_fit(NULL, NULL, 0, &f);
	assert_int_equal(f.kind, FORECAST_TOO_FEW);
	assert_int_equal(f.points, 0);
	forecast_text(&sb, &f);
	assert_string_equal(sb.buf, "not converging (too few releases)");
	sbuf_release(&sb);
}

static void test_zero(void **state)
{
	static const long long date[] = { T2020, T2020 + Y, T2020 + 2 * Y };
	static const long long once[] = { 5, 0, 0 };
	static const long long again[] = { 0, 4, 0 };
	static const long long never[] = { 0, 0, 0 };
	struct forecast f;
	struct sbuf sb = SBUF_INIT;

	(void)state;
	/* zero since the second release: reached then; the line is still fitted */
	forecast_fit(date, once, 3, &f);
	assert_int_equal(f.kind, FORECAST_REACHED_ZERO);
	assert_true(forecast_converging(&f));
	assert_int_equal(f.zero_at, T2020 + Y);
	assert_true(f.fitted);
	assert_float_equal(f.slope, -2.5, 1e-9);	/* ((-1)(5 - 5/3) + (1)(-5/3)) / 2 */
	forecast_text(&sb, &f);
	assert_string_equal(sb.buf, "reached zero (2020-12)");	/* T2020 + Y: 2020-12-31 */
	forecast_fit(date, again, 3, &f);
	assert_int_equal(f.kind, FORECAST_REACHED_ZERO);
	assert_int_equal(f.zero_at, T2020 + 2 * Y);
	forecast_fit(date, never, 3, &f);
	assert_int_equal(f.kind, FORECAST_NO_USES);
	assert_false(forecast_converging(&f));
	/* a single release at zero needs no line */
	forecast_fit(date, never, 1, &f);
	assert_int_equal(f.kind, FORECAST_NO_USES);
	sbuf_reset(&sb);
	forecast_text(&sb, &f);
	assert_string_equal(sb.buf, "no uses");
	sbuf_release(&sb);
}

static void test_undated(void **state)
{
	/* a date of 0 is unknown: 200, 100 a year apart make the line */
	static const long long first[] = { 0, T2020 + Y, T2020 + 2 * Y };
	static const long long last[] = { T2020, T2020 + Y, 0 };
	static const long long count[] = { 1000, 200, 100 };
	static const long long zero[] = { 5, 5, 0 };
	struct forecast f;
	struct sbuf sb = SBUF_INIT;

	(void)state;
	forecast_fit(first, count, 3, &f);
	assert_int_equal(f.kind, FORECAST_CONVERGING);
	assert_int_equal(f.points, 2);
	assert_float_equal(f.slope, -100.0, 1e-9);
	assert_int_equal(f.zero_at, T2020 + 3 * Y);
	/* the newest release undated: no zero date to extrapolate from */
	forecast_fit(last, count, 3, &f);
	assert_int_equal(f.kind, FORECAST_TOO_FEW);
	assert_true(f.fitted);
	assert_float_equal(f.slope, -800.0, 1e-9);
	/* zero since the newest release, which has no date: no month */
	forecast_fit(last, zero, 3, &f);
	assert_int_equal(f.kind, FORECAST_REACHED_ZERO);
	assert_int_equal(f.zero_at, 0);
	forecast_text(&sb, &f);
	assert_string_equal(sb.buf, "reached zero");
	sbuf_release(&sb);
}

static void slope_is(double slope, const char *minus, const char *want)
{
	struct sbuf sb = SBUF_INIT;

	forecast_slope(&sb, slope, minus);
	assert_string_equal(sb.buf, want);
	sbuf_release(&sb);
}

/*
 * A slow fall: 2, then 1 thirty years on, is -1/30 per year; the newest
 * count reaches zero thirty years after it.  Its text must not read
 * "0/year" beside a zero date (it did: one decimal rounds -0.03 to 0).
 */
static void test_slow_fall(void **state)
{
	static const long long date[] = { T2020, T2020 + 30 * Y };
	static const long long count[] = { 2, 1 };
	struct forecast f;
	struct sbuf sb = SBUF_INIT;

	(void)state;
	forecast_fit(date, count, 2, &f);
	assert_int_equal(f.kind, FORECAST_CONVERGING);
	assert_float_equal(f.slope, -1.0 / 30.0, 1e-12);
	/* zero 30 years after the newest: T2020 + 60 Y, late 2079 */
	forecast_text(&sb, &f);
	assert_string_equal(sb.buf, "zero by 2079-12 at this pace (-0.03/year)");
	sbuf_release(&sb);
}

static void test_format(void **state)
{
	char month[16];

	(void)state;
	slope_is(-1071.4, "-", "-1,071/year");
	slope_is(2371.0, "-", "+2,371/year");
	slope_is(-1234567.5, "&minus;", "&minus;1,234,568/year");
	slope_is(-1000.0, "-", "-1,000/year");
	slope_is(999.6, "-", "+1,000/year");
	slope_is(9.96, "-", "+10/year");
	slope_is(9.94, "-", "+9.9/year");
	slope_is(-0.5, "-", "-0.5/year");
	slope_is(0.0, "-", "0/year");
	/* below 0.05 a year: the first non-zero digit, never "0/year" */
	slope_is(0.04, "-", "+0.04/year");
	slope_is(-0.04, "&minus;", "&minus;0.04/year");
	slope_is(-0.0496, "-", "-0.05/year");
	slope_is(-0.0012, "-", "-0.001/year");
	slope_is(-0.00004, "-", "0/year");
	forecast_month(month, sizeof(month), 0);
	assert_string_equal(month, "1970-01");
	forecast_month(month, sizeof(month), T2021_06_15);
	assert_string_equal(month, "2021-06");
	forecast_month(month, sizeof(month), FORECAST_LAST_DATE);
	assert_string_equal(month, "9999-12");
	forecast_month(month, sizeof(month), FORECAST_LAST_DATE + 1);
	assert_string_equal(month, "-");
	forecast_month(month, sizeof(month), -1);
	assert_string_equal(month, "-");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_falling_exact_years),
		cmocka_unit_test(test_falling_calendar_years),
		cmocka_unit_test(test_extrapolated_from_newest),
		cmocka_unit_test(test_not_converging),
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_zero),
		cmocka_unit_test(test_undated),
		cmocka_unit_test(test_slow_fall),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
