// SPDX-License-Identifier: GPL-2.0
/*
 * test-util.c - version ordering and release tags, globbing, whitespace
 * normalisation, buffers, big buffers, JSON strings, and the store's schema
 * creation and migration checks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <git2.h>

#include "store.h"
#include "util.h"
#include "unit-util.h"

static void test_version_order(void **state)
{
	static const char *const ordered[] = {
		"v2.6.39", "v3.0-rc1", "v3.0", "v3.0.1", "v3.0.9", "v3.0.10",
		"v6.1-rc7", "v6.1", "v6.1.9", "v6.1.10", "v6.1.192", "v6.2",
		"v6.12-rc1", "v6.12", "v6.12.118",
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ordered); i++)
		for (j = 0; j < ARRAY_SIZE(ordered); j++) {
			int c = version_cmp(ordered[i], ordered[j]);

			if (i < j)
				assert_true(c < 0);
			else if (i > j)
				assert_true(c > 0);
			else
				assert_int_equal(c, 0);
		}
}

static void test_version_leading_zeros(void **state)
{
	(void)state;
	assert_int_equal(version_cmp("v6.01", "v6.1"), 0);
}

static void test_release_tag(void **state)
{
	static const char *const good[] = {
		"v6.1", "v6.1.192", "v2.6.12-rc2", "v6.2-rc3", "v6.1.120-rc1",
		"v0.9", "v1.0", "v10.0.0.1", "v4294967295.1",
	};
	static const char *const bad[] = {
		"", "v", "vx", "v-1", "v1", "v6", "v6.", "v.1", "v6..1", "v1/2",
		"v2..0", "v1 2", "v1.lock", "v1~", "v1:2", "v1.2~rc1", "6.1",
		"v6.01", "v06.1", "v6.1-rc", "v6.1-rc0", "v6.1-rc01", "v6.1-rc1x",
		"v6.1-", "v6.1-1", "v6.1.", "v12345678901.1", "V6.1",
		"v1.2.3.4.5.6.7.8.9.10.11.12.13.14.15.16.17.18.19.20.21.22.23.24.25",
	};
	size_t i;
	int valid;

	(void)state;
	git_libgit2_init();
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		if (!is_release_tag(good[i]))
			fail_msg("'%s' is a release tag", good[i]);
		assert_int_equal(git_tag_name_is_valid(&valid, good[i]), 0);
		assert_true(valid);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (is_release_tag(bad[i]))
			fail_msg("'%s' is no release tag", bad[i]);
	assert_int_equal(kernel_version_len("6.1.192-3"), 7);
	assert_int_equal(kernel_version_len("6.1.x"), 3);
	assert_int_equal(kernel_version_len("6."), 0);
	assert_int_equal(kernel_version_len(".1"), 0);
	assert_int_equal(kernel_version_len("6..1"), 0);
	git_libgit2_shutdown();
}

static void test_glob(void **state)
{
	(void)state;
	assert_true(glob_match("net/*.c", "net/a.c", true));
	assert_false(glob_match("net/*.c", "net/rds/a.c", true));
	assert_true(glob_match("net/*.c", "net/rds/a.c", false));
	assert_true(glob_match("net/?.c", "net/a.c", true));
	assert_false(glob_match("net/?.c", "net/ab.c", true));
	assert_true(glob_match("*", "", true));
	assert_true(glob_match("a*b*c", "aXbYc", true));
	assert_false(glob_match("a*b*c", "aXbY", true));
	assert_true(glob_match("*", ".hidden", true));
	assert_true(glob_match("a\\b", "a\\b", true));	/* no escapes */
	assert_true(glob_match("strcpy*", "strcpy-x", false));
}

/* The published FNV-1a test vectors; rules_hash() and page names use them. */
static void test_fnv(void **state)
{
	(void)state;
	assert_int_equal(fnv32("", 0), 0x811c9dc5u);
	assert_int_equal(fnv32("a", 1), 0xe40c292cu);
	assert_int_equal(fnv32("foobar", 6), 0xbf9cf968u);
	assert_int_equal(fnv32_add(fnv32("foo", 3), "bar", 3), 0xbf9cf968u);
	assert_int_equal(fnv32_byte(FNV32_INIT, 'a'), 0xe40c292cu);
	assert_true(fnv64_add(FNV64_INIT, "", 0) == 0xcbf29ce484222325ULL);
	assert_true(fnv64_add(FNV64_INIT, "a", 1) == 0xaf63dc4c8601ec8cULL);
	assert_true(fnv64_add(FNV64_INIT, "foobar", 6) == 0x85944171f73967e8ULL);
}

/* Fill @n bytes of @p with a pattern of @seed; check it with big_check(). */
static void big_fill(unsigned char *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 31 + seed);
}

static bool big_check(const unsigned char *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != (unsigned char)(i * 31 + seed))
			return false;
	return true;
}

/* Small and mapped sizes, and resizes across BIG_MAPPED both ways. */
static void test_big_alloc(void **state)
{
	const size_t small = 1000, big = BIG_MAPPED + 12345;
	const size_t bigger = 3 * BIG_MAPPED + 7;
	unsigned char *p;

	(void)state;
	p = big_alloc(small);
	big_fill(p, small, 1);
	p = big_realloc(p, small, big);		/* malloc -> mapping */
	assert_true(big_check(p, small, 1));
	big_fill(p, big, 2);
	p = big_realloc(p, big, big + 100);	/* the same huge pages */
	assert_true(big_check(p, big, 2));
	p = big_realloc(p, big + 100, bigger);	/* a larger mapping */
	assert_true(big_check(p, big, 2));
	big_fill(p, bigger, 3);
	assert_true(big_check(p, bigger, 3));
	p = big_realloc(p, bigger, small);	/* mapping -> malloc */
	assert_true(big_check(p, small, 3));
	big_free(p, small);

	p = big_realloc(NULL, 0, BIG_MAPPED);
	big_fill(p, BIG_MAPPED, 4);
	assert_true(big_check(p, BIG_MAPPED, 4));
	big_free(p, BIG_MAPPED);
	big_free(NULL, big);

	/* what each takes: a mapping is whole huge pages */
	assert_int_equal(big_footprint(small), small);
	assert_true(big_footprint(BIG_MAPPED) >= BIG_MAPPED);
	assert_true(big_footprint(big) >= big);
	assert_true(big_footprint(big) <= 2 * BIG_MAPPED);
}

static void test_parse_ulong(void **state)
{
	unsigned long v = 7;

	(void)state;
	assert_int_equal(parse_ulong("2", 1, 256, &v), 0);
	assert_int_equal(v, 2);
	assert_int_equal(parse_ulong("0256", 1, 256, &v), 0);
	assert_int_equal(v, 256);
	assert_int_equal(parse_ulong("0", 0, 10, &v), 0);
	assert_int_equal(v, 0);
	v = 7;
	assert_int_equal(parse_ulong("2x", 1, 256, &v), KMIG_EUSAGE);
	assert_string_equal(kmig_errmsg(), "'2x' is not a number between 1 and 256");
	assert_int_equal(parse_ulong("0", 1, 256, &v), KMIG_EUSAGE);
	assert_int_equal(parse_ulong("257", 1, 256, &v), KMIG_EUSAGE);
	assert_int_equal(parse_ulong("", 1, 256, &v), KMIG_EUSAGE);
	assert_int_equal(parse_ulong("-1", 0, 256, &v), KMIG_EUSAGE);
	assert_int_equal(parse_ulong("+1", 0, 256, &v), KMIG_EUSAGE);
	assert_int_equal(parse_ulong(" 1", 0, 256, &v), KMIG_EUSAGE);
	assert_int_equal(parse_ulong("1 ", 0, 256, &v), KMIG_EUSAGE);
	assert_int_equal(parse_ulong("0x10", 0, 256, &v), KMIG_EUSAGE);
	assert_int_equal(parse_ulong("99999999999999999999999", 0, ULONG_MAX, &v),
			 KMIG_EUSAGE);
	assert_int_equal(v, 7);
}

static void test_normalize_ws(void **state)
{
	static const char line[] = "\t  strcpy( a,\t\tb );  \r\n";
	char *s;

	(void)state;
	s = normalize_ws(line, sizeof(line) - 1);
	assert_string_equal(s, "strcpy( a, b );");
	free(s);
	s = normalize_ws("   ", 3);
	assert_string_equal(s, "");
	free(s);
}

static void test_sbuf(void **state)
{
	struct sbuf sb = SBUF_INIT;
	char *s;
	int i;

	(void)state;
	for (i = 0; i < 1000; i++)
		sbuf_addf(&sb, "%d,", i);
	assert_int_equal(sb.len, strlen(sb.buf));
	assert_memory_equal(sb.buf, "0,1,2,", 6);
	sbuf_reset(&sb);
	assert_int_equal(sb.len, 0);
	sbuf_addstr(&sb, "x");
	s = sbuf_detach(&sb);
	assert_string_equal(s, "x");
	assert_null(sb.buf);
	free(s);
	/* nothing added: an empty string, not 64 bytes of whatever */
	s = sbuf_detach(&sb);
	assert_string_equal(s, "");
	free(s);
	sbuf_grow(&sb, 100);
	assert_string_equal(sb.buf, "");
	sbuf_release(&sb);
}

/* json_string() of @s, as a string (caller frees). */
static char *json_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	json_string(f, s);
	fclose(f);
	return buf;
}

static void test_json_string(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "a\"b\\c\n\t\x01", "\"a\\\"b\\\\c\\n\\t\\u0001\"" },
		/* well-formed UTF-8 as it is: 2, 3 and 4 bytes */
		{ "J\xc3\xb6rg \xe2\x80\x94 \xf0\x9f\x90\xa7", "\"J\xc3\xb6rg \xe2\x80\x94 \xf0\x9f\x90\xa7\"" },
		/* latin-1, a lone continuation, overlong, surrogate, > U+10FFFF, cut */
		{ "M\xfcller", "\"M\\ufffdller\"" },
		{ "\x80x", "\"\\ufffdx\"" },
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
		{ "\xe2\x80", "\"\\ufffd\\ufffd\"" },
	};
	char *got;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		got = json_of(cases[i].in);
		assert_string_equal(got, cases[i].out);
		free(got);
	}
	got = json_of(NULL);
	assert_string_equal(got, "null");
	free(got);
}

static void test_cquote(void **state)
{
	static const struct {
		const char *in;
		unsigned int flags;
		const char *out;
	} cases[] = {
		/* nothing to quote: as it is, UTF-8 included without CQUOTE_HIGH */
		{ "drivers/a.c", 0, "drivers/a.c" },
		{ "caf\xc3\xa9 <x> &'.c", 0, "caf\xc3\xa9 <x> &'.c" },
		{ "", 0, "" },
		{ "a\nb\tc.c", 0, "\"a\\nb\\tc.c\"" },
		{ "q\"t\\.c", 0, "\"q\\\"t\\\\.c\"" },
		{ "\a\b\v\f\r", 0, "\"\\a\\b\\v\\f\\r\"" },
		{ "e\033[1m\x01\x7f", 0, "\"e\\033[1m\\001\\177\"" },
		/* a byte >= 0x80 does not quote, but is kept when something else does */
		{ "caf\xe9\t", 0, "\"caf\xe9\\t\"" },
		{ "caf\xc3\xa9.c", CQUOTE_HIGH, "\"caf\\303\\251.c\"" },
		{ "a.c", CQUOTE_ALWAYS, "\"a.c\"" },
		{ " a.c", CQUOTE_ALWAYS | CQUOTE_HIGH, "\" a.c\"" },
	};
	struct sbuf sb = SBUF_INIT;
	char *buf = NULL;
	size_t i, len = 0;
	FILE *f;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sbuf_reset(&sb);
		assert_int_equal(sbuf_add_cquoted(&sb, cases[i].in, cases[i].flags),
				 strcmp(cases[i].in, cases[i].out) != 0);
		assert_string_equal(sb.buf ? sb.buf : "", cases[i].out);
	}
	sbuf_release(&sb);
	/* text_name(): without flags, NULL as "" */
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	text_name(f, "drv/new\nline\ttab.c");
	fputc('|', f);
	text_name(f, "drv/plain.c");
	fputc('|', f);
	text_name(f, NULL);
	fclose(f);
	assert_string_equal(buf, "\"drv/new\\nline\\ttab.c\"|drv/plain.c|");
	free(buf);
}

static void test_store_schema(void **state)
{
	char *dir = test_tmpdir();
	struct store *st = NULL;
	char *db;

	(void)state;
	assert_non_null(dir);
	db = xasprintf("%s/sub/dir/kmig.db", dir);
	assert_int_equal(store_open(&st, db), 0);	/* creates parents */
	assert_non_null(st);
	assert_true(store_schema_version() >= 1);
	store_close(st);
	assert_int_equal(store_open(&st, db), 0);	/* reopen: no migration */
	store_close(st);
	free(db);
	assert_int_equal(test_tmpdir_remove(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_order),
		cmocka_unit_test(test_version_leading_zeros),
		cmocka_unit_test(test_release_tag),
		cmocka_unit_test(test_glob),
		cmocka_unit_test(test_fnv),
		cmocka_unit_test(test_big_alloc),
		cmocka_unit_test(test_parse_ulong),
		cmocka_unit_test(test_normalize_ws),
		cmocka_unit_test(test_sbuf),
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_cquote),
		cmocka_unit_test(test_store_schema),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
