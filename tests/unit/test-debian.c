// SPDX-License-Identifier: GPL-2.0
/*
 * test-debian.c - the release date from a Debian changelog: the first
 * entry's trailer line, its UTC offset, and the check that the entry is
 * the version being imported.  Expected times are those of date(1).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "debian.h"

static const char changelog[] =
	"linux (6.1.192-3) bookworm-security; urgency=high\n"
	"\n"
	"  * nfsd: preflight SEQUENCE replies before accepting a slot\n"
	"    -- an indented dash line is not the trailer\n"
	"\n"
	" -- Salvatore Bonaccorso <carnil@debian.org>  Thu, 26 Nov 2026 18:12:56 +0100\n"
	"\n"
	"linux (6.1.192-2) bookworm-security; urgency=high\n"
	"\n"
	"  * ext4: fix NULL folio dereference in mballoc\n"
	"\n"
	" -- Salvatore Bonaccorso <carnil@debian.org>  Mon, 16 Nov 2026 11:17:40 +0100\n";

static void test_first_entry(void **state)
{
	long long when = 0;
	int tz = 0;

	(void)state;
	assert_int_equal(deb_changelog_date(changelog, "6.1.192-3", &when, &tz), 0);
	assert_int_equal(when, 1795713176LL);	/* date -d '...' +%s */
	assert_int_equal(tz, 60);
	/* without a version to check, the first entry too */
	assert_int_equal(deb_changelog_date(changelog, NULL, &when, &tz), 0);
	assert_int_equal(when, 1795713176LL);
}

static void test_other_version(void **state)
{
	long long when = 0;
	int tz = 0;

	(void)state;
	/* the package's own version must head the changelog */
	assert_int_equal(deb_changelog_date(changelog, "6.1.192-2", &when, &tz),
			 KMIG_ENOTFOUND);
	assert_non_null(strstr(kmig_errmsg(), "6.1.192-3, not 6.1.192-2"));
	assert_int_equal(deb_changelog_date(changelog, "6.1.192", &when, &tz),
			 KMIG_ENOTFOUND);
}

static void test_offsets_and_leap_day(void **state)
{
	static const char text[] =
		"linux (1:7.3.4-1~bpo13+1) trixie-backports; urgency=medium\n"
		"\n  * x\n\n"
		" -- A B <a@b.c>  Sun, 29 Feb 2032 00:00:00 -0530\n";
	long long when = 0;
	int tz = 0;

	(void)state;
	assert_int_equal(deb_changelog_date(text, "1:7.3.4-1~bpo13+1", &when, &tz), 0);
	assert_int_equal(when, 1961645400LL);
	assert_int_equal(tz, -330);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"no header line\n",
		"linux (1.0-1) sid; urgency=low\n\n  * x\n",	/* no trailer */
		"linux (1.0-1) sid; urgency=low\n\n  * x\n\nlinux (0.9-1) sid\n\n"
		" -- A <a@b>  Mon, 16 Nov 2026 11:17:40 +0100\n",	/* next entry's */
		"linux (1.0-1) sid\n\n -- A <a@b>  yesterday\n",
		"linux (1.0-1) sid\n\n -- A <a@b>  Mon, 16 Foo 2026 11:17:40 +0100\n",
		"linux (1.0-1) sid\n\n -- A <a@b>  Mon, 16 Nov 2026 25:17:40 +0100\n",
		"linux (1.0-1) sid\n\n -- A <a@b>  Mon, 16 Nov 2026 11:17:40 0100\n",
	};
	long long when;
	int tz;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(deb_changelog_date(bad[i], NULL, &when, &tz),
				 KMIG_ENOTFOUND);
}

/* A line's history: newest first, release candidates, another line. */
static const char history[] =
	"linux (6.12.118-1~deb12u1) bookworm-security; urgency=high\n"
	"\n"
	"  * Rebuild for bookworm-security\n"
	"\n"
	" -- Ben Hutchings <benh@debian.org>  Sat, 28 Nov 2026 10:00:00 +0100\n"
	"\n"
	"linux (6.12.3-1) unstable; urgency=medium\n"
	"\n"
	"  * New upstream release\n"
	"\n"
	" -- Ben Hutchings <benh@debian.org>  Sun, 08 Dec 2024 10:00:00 +0100\n"
	"\n"
	"linux (6.12~rc6-1~exp1) experimental; urgency=medium\n"
	"\n"
	"  * A release candidate is not a release\n"
	"\n"
	" -- Ben Hutchings <benh@debian.org>  Sun, 10 Nov 2024 01:12:45 +0100\n"
	"\n"
	"linux (6.1.4-1) unstable; urgency=medium\n"
	"\n"
	"  * 6.1 is another line, and so is 6.11\n"
	"\n"
	" -- Ben Hutchings <benh@debian.org>  Mon, 02 Jan 2023 09:00:00 +0000\n"
	"\n"
	"linux (6.11.10-1) unstable; urgency=medium\n"
	"\n"
	"  * other line\n"
	"\n"
	" -- Ben Hutchings <benh@debian.org>  Sat, 01 Jan 2022 00:00:00 +0000\n";

static void test_line_date(void **state)
{
	long long when = 0;

	(void)state;
	/* the oldest release of 6.12, not its rc, not 6.1 nor 6.11 */
	assert_int_equal(deb_changelog_line_date(history, "6.12.118-1~deb12u1", &when), 0);
	assert_int_equal(when, 1733648400LL);
	assert_int_equal(deb_changelog_line_date(history, "6.1.192-3", &when), 0);
	assert_int_equal(when, 1672650000LL);
	assert_int_equal(deb_changelog_line_date(history, "7.3.4-1", &when),
			 KMIG_ENOTFOUND);
	assert_int_equal(deb_changelog_line_date(history, "7", &when),
			 KMIG_ENOTFOUND);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_entry),
		cmocka_unit_test(test_other_version),
		cmocka_unit_test(test_offsets_and_leap_day),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_line_date),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
