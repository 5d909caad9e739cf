// SPDX-License-Identifier: GPL-2.0
/*
 * test-web.c - the dashboard's building blocks: HTML and URL escaping,
 * source links, safe page names and the SVG charts; and, from
 * web-internal.h, the table cells (the forecast's among them) and the
 * subsystem ranking.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util.h"
#include "web-internal.h"
#include "web.h"

static char *escaped(const char *s)
{
	struct sbuf sb = SBUF_INIT;

	html_escape(&sb, s);
	return sbuf_detach(&sb);
}

static void test_html_escape(void **state)
{
	char *s;

	(void)state;
	s = escaped("<script>alert(\"x\" & 'y')</script>");
	assert_string_equal(s, "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;");
	free(s);
	s = escaped("plain net/rds/send.c:12");
	assert_string_equal(s, "plain net/rds/send.c:12");
	free(s);
	s = escaped("");
	assert_string_equal(s, "");
	free(s);
}

static void test_url_escape(void **state)
{
	struct sbuf sb = SBUF_INIT;
	char *s;

	(void)state;
	url_escape(&sb, "a b/\"c'<d>#?&%~._-", true);
	assert_string_equal(sb.buf, "a%20b/%22c%27%3Cd%3E%23%3F%26%25~._-");
	sbuf_reset(&sb);
	url_escape(&sb, "v6.1/x", false);
	assert_string_equal(sb.buf, "v6.1%2Fx");
	sbuf_release(&sb);

	assert_null(source_link(NULL, "v1", "a.c", 1));
	s = source_link("https://h/linux/{tag}/source/{path}#L{line}", "v6.1",
			"drivers/a b/\"x\".c", 42);
	assert_string_equal(s, "https://h/linux/v6.1/source/drivers/a%20b/%22x%22.c#L42");
	free(s);
	s = source_link("{path}{path}{tag", "t", "p", 1);
	assert_string_equal(s, "pp{tag");
	free(s);
}

static void test_page_name(void **state)
{
	char *a, *b, *c;

	(void)state;
	a = web_page_name("sub", "RDS - RELIABLE DATAGRAM SOCKETS");
	assert_int_equal(strncmp(a, "sub-rds-reliable-datagram-sockets-", 34), 0);
	assert_int_equal(strlen(a), strlen("sub-rds-reliable-datagram-sockets-") + 8 + 5);
	assert_string_equal(a + strlen(a) - 5, ".html");
	/* names that slug alike differ by their hash */
	b = web_page_name("sub", "RDS: reliable datagram sockets");
	assert_string_not_equal(a, b);
	free(a);
	free(b);
	/* nothing can climb out of the site */
	a = web_page_name("sub", "../../etc/passwd");
	assert_int_equal(strncmp(a, "sub-etc-passwd-", 15), 0);
	assert_null(strchr(a, '/'));
	free(a);
	a = web_page_name("sub", "<script>\"'&");
	assert_int_equal(strncmp(a, "sub-script-", 11), 0);
	free(a);
	/* empty slug, long names cut, stable output */
	a = web_page_name("rule", "***");
	assert_int_equal(strncmp(a, "rule-x-", 7), 0);
	b = web_page_name("rule", "***");
	assert_string_equal(a, b);
	c = web_page_name("sub", "A VERY LONG SECTION TITLE THAT GOES ON AND ON AND ON FOREVER");
	assert_true(strlen(c) <= strlen("sub-") + 40 + 1 + 8 + 5);
	free(a);
	free(b);
	free(c);
}

static void test_names_unique(void **state)
{
	char *names[] = {
		xstrdup("a.html"), xstrdup("b.html"), xstrdup("a.html"),
		xstrdup("a-2.html"), xstrdup("a.html"),
	};
	size_t i;

	(void)state;
	web_names_unique(names, ARRAY_SIZE(names));
	assert_string_equal(names[0], "a.html");
	assert_string_equal(names[1], "b.html");
	assert_string_equal(names[2], "a-3.html");
	assert_string_equal(names[3], "a-2.html");
	assert_string_equal(names[4], "a-4.html");
	for (i = 0; i < ARRAY_SIZE(names); i++)
		free(names[i]);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

static void test_charts(void **state)
{
	static const char *const tags[] = { "v1", "v2", "v<3>" };
	static const long long a[] = { 1, 200, 30 }, b[] = { 0, 0, 5 };
	struct chart_series s[] = { { "a&b", a }, { "b", b } };
	struct sbuf sb = SBUF_INIT;

	(void)state;
	svg_line_chart(&sb, "c", "caption <x>", tags, 3, s, 2, false);
	assert_int_equal(count(sb.buf, "<circle class=\"pt\""), 6);
	assert_int_equal(count(sb.buf, "<g class=\"series"), 2);
	assert_non_null(strstr(sb.buf, "data-points=\"3\""));
	assert_non_null(strstr(sb.buf, "<title>a&amp;b in v&lt;3&gt;: 30</title>"));
	assert_non_null(strstr(sb.buf, "caption &lt;x&gt;"));
	assert_null(strstr(sb.buf, "v<3>"));
	assert_null(strstr(sb.buf, "http"));
	sbuf_reset(&sb);
	svg_line_chart(&sb, "c", "log", tags, 3, s, 2, true);
	assert_non_null(strstr(sb.buf, ">1000</text>"));	/* decades up to 200 */
	sbuf_reset(&sb);
	svg_line_chart(&sb, "c", "one", tags, 1, s, 1, false);
	assert_int_equal(count(sb.buf, "<circle class=\"pt\""), 1);
	sbuf_reset(&sb);
	svg_sparkline(&sb, a, tags, 3);
	assert_int_equal(count(sb.buf, "<circle"), 3);
	assert_non_null(strstr(sb.buf, "<title>v&lt;3&gt;: 30</title>"));
	sbuf_release(&sb);
}

static void test_cells(void **state)
{
	static const long long v[] = { 5, 3, 3 };
	struct sbuf sb = SBUF_INIT;

	(void)state;
	td_changes(&sb, v, 0, 0, 0);
	assert_string_equal(sb.buf, "<td class=\"num\" data-v=\"\">&mdash;</td>"
			    "<td class=\"num\" data-v=\"\">&mdash;</td>"
			    "<td class=\"num\" data-v=\"\">&mdash;</td>");
	sbuf_reset(&sb);
	td_changes(&sb, v, 1, 1, 3);
	assert_string_equal(sb.buf, "<td class=\"num down\" data-v=\"-2\">-2</td>"
			    "<td class=\"num up\" data-v=\"1\">+1</td>"
			    "<td class=\"num down\" data-v=\"3\">-3</td>");
	sbuf_reset(&sb);
	td_changes(&sb, v, 2, 0, 0);
	assert_int_equal(count(sb.buf, "data-v=\"0\">0</td>"), 3);
	sbuf_reset(&sb);
	change_cards(&sb, "uses <all>", v, 0, 9, 9);
	assert_string_equal(sb.buf, "<div class=\"card\"><b>5</b>uses &lt;all&gt;</div>");
	sbuf_reset(&sb);
	change_cards(&sb, "uses", v, 1, 1, 3);
	assert_int_equal(count(sb.buf, "<div class=\"card\">"), 4);
	assert_non_null(strstr(sb.buf, "<b>-2</b>since the previous release"));
	assert_non_null(strstr(sb.buf, "<b>1</b>uses added"));
	assert_non_null(strstr(sb.buf, "<b>3</b>uses removed"));
	sbuf_release(&sb);
}

/* A section's change cells: delta = added - removed, and the uses moved with files. */
static void test_sub_cells(void **state)
{
	static const long long v[] = { 0, 107 };
	struct sbuf sb = SBUF_INIT;

	(void)state;
	td_sub_changes(&sb, false, 5, 5, 5);
	assert_int_equal(count(sb.buf, "data-v=\"\">&mdash;</td>"), 3);
	sbuf_reset(&sb);
	td_sub_changes(&sb, true, 1, 3, 109);
	assert_string_equal(sb.buf, "<td class=\"num down\" data-v=\"-2\">-2 "
			    "<small class=\"moved\">(+109 moved)</small></td>"
			    "<td class=\"num up\" data-v=\"1\">+1</td>"
			    "<td class=\"num down\" data-v=\"3\">-3</td>");
	sbuf_reset(&sb);
	td_sub_changes(&sb, true, 0, 0, 0);
	assert_int_equal(count(sb.buf, "data-v=\"0\">0</td>"), 3);
	sbuf_reset(&sb);
	sub_change_cards(&sb, "uses", v, 1, 1, 3, 109);
	assert_int_equal(count(sb.buf, "<div class=\"card\">"), 5);
	assert_non_null(strstr(sb.buf, "<b>-2</b>since the previous release (delta)"));
	assert_non_null(strstr(sb.buf, "<b>+109</b>moved with files changing section"));
	sbuf_reset(&sb);
	sub_change_cards(&sb, "uses", v, 1, 1, 3, 0);
	assert_int_equal(count(sb.buf, "<div class=\"card\">"), 4);
	assert_null(strstr(sb.buf, "moved with"));
	sbuf_reset(&sb);
	sections_note(&sb);
	assert_non_null(strstr(sb.buf, "delta = added &minus; removed"));
	sbuf_release(&sb);
}

/* The forecast cell: the fit over the releases' dates (forecast.c), as HTML. */
static void test_forecast_cell(void **state)
{
	/* 15 June 2021, 2022, 2023, 12:00 UTC: 365 days apart */
	struct release_info rel[3] = {
		{ .date = 1623758400 }, { .date = 1655294400 }, { .date = 1686830400 },
	};
	/* -1 per 365 days: zero 365 days after the last, 2024-06-14 */
	static const long long falling[] = { 3, 2, 1 };
	static const long long rising[] = { 1, 1, 4000 };
	static const long long reached[] = { 3, 0, 0 };
	static const long long none[] = { 0, 0, 0 };
	struct sbuf sb = SBUF_INIT;
	struct web w;

	(void)state;
	memset(&w, 0, sizeof(w));
	w.rel.v = rel;
	w.rel.n = 3;
	td_forecast(&w, &sb, falling);
	assert_string_equal(sb.buf, "<td class=\"fc\" data-v=\"1718366400\" title=\"slope "
			    "&minus;1.0/year over 3 releases (least squares of count on release date)\">"
			    "zero by 2024-06 (&minus;1.0/year)</td>");
	sbuf_reset(&sb);
	/* slope ((-1)(1 - 1334) + (1)(4000 - 1334)) / 2 = 1,999.5 per 365 days: 2,000.8 per year */
	td_forecast(&w, &sb, rising);
	assert_non_null(strstr(sb.buf, ">not converging (+2,001/year)</td>"));
	assert_non_null(strstr(sb.buf, "data-v=\"253402300800\""));
	sbuf_reset(&sb);
	td_forecast(&w, &sb, reached);
	assert_string_equal(sb.buf, "<td data-v=\"0\">reached zero (2022-06)</td>");
	sbuf_reset(&sb);
	td_forecast(&w, &sb, none);
	assert_string_equal(sb.buf, "<td data-v=\"0\">no uses</td>");
	sbuf_reset(&sb);
	/* the same date three times: no line */
	rel[0].date = rel[1].date = rel[2].date;
	td_forecast(&w, &sb, falling);
	assert_non_null(strstr(sb.buf, ">too few releases</td>"));
	sbuf_reset(&sb);
	forecast_method(&sb);
	assert_non_null(strstr(sb.buf, "id=\"forecast-method\""));
	assert_non_null(strstr(sb.buf, "Least squares of count on release date"));
	sbuf_release(&sb);
}

static void test_rank_subs(void **state)
{
	/* two releases: totals and, for rule 0, counts per release */
	long long tot[4][2] = { { 1, 0 }, { 0, 4 }, { 0, 0 }, { 2, 4 } };
	long long cnt[4][RULE__COUNT * 2];
	long long delta[4][2], moved[4][2];
	struct sub subs[4];
	const char *names[] = { "d", "c", "b", "a" };
	struct web w;
	struct ranked *r;
	size_t i, n;

	(void)state;
	memset(&w, 0, sizeof(w));
	memset(subs, 0, sizeof(subs));
	memset(cnt, 0, sizeof(cnt));
	memset(delta, 0, sizeof(delta));
	memset(moved, 0, sizeof(moved));
	for (i = 0; i < 4; i++) {
		subs[i].name = (char *)names[i];
		subs[i].tot = tot[i];
		subs[i].cnt = cnt[i];
		subs[i].delta = delta[i];
		subs[i].moved_tot = moved[i];
		cnt[i][0] = tot[i][0];
		cnt[i][1] = tot[i][1];
	}
	w.rel.n = 2;
	w.sub.v = subs;
	w.sub.n = 4;

	r = rank_subs(&w, RULE__COUNT, 1, RANK_ALL, &n);
	assert_int_equal(n, 4);		/* most first, ties by name */
	assert_string_equal(r[0].name, "a");
	assert_string_equal(r[1].name, "c");
	assert_string_equal(r[2].name, "b");
	assert_string_equal(r[3].name, "d");
	assert_int_equal(r[0].index, 3);
	free(r);
	r = rank_subs(&w, RULE__COUNT, 1, RANK_AT, &n);
	assert_int_equal(n, 2);
	assert_string_equal(r[0].name, "a");
	assert_string_equal(r[1].name, "c");
	free(r);
	r = rank_subs(&w, 0, 1, RANK_EVER, &n);
	assert_int_equal(n, 3);		/* "b" never had a use */
	assert_string_equal(r[2].name, "d");
	assert_int_equal(r[2].key, 0);
	free(r);
	/* a section with no use but changes at the release: ranked too */
	delta[2][1] = -2;
	moved[2][1] = 2;
	subs[2].removed[0] = 1;
	r = rank_subs(&w, RULE__COUNT, 1, RANK_AT, &n);
	assert_int_equal(n, 3);
	assert_string_equal(r[2].name, "b");
	free(r);
	r = rank_subs(&w, 0, 1, RANK_EVER, &n);
	assert_int_equal(n, 4);
	free(r);
	/* per rule, only the newest release's changes are known */
	r = rank_subs(&w, 0, 0, RANK_AT, &n);
	assert_int_equal(n, 2);
	free(r);
	assert_true(has_uses(tot[0], 2));
	assert_false(has_uses(tot[2], 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_escape),
		cmocka_unit_test(test_url_escape),
		cmocka_unit_test(test_page_name),
		cmocka_unit_test(test_names_unique),
		cmocka_unit_test(test_charts),
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_sub_cells),
		cmocka_unit_test(test_forecast_cell),
		cmocka_unit_test(test_rank_subs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
