// SPDX-License-Identifier: GPL-2.0
/*
 * test-store-branch.c - the branch_steps SQL (store-branch.c) on a
 * database in a temporary directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "store.h"
#include "util.h"
#include "unit-util.h"

static void put(struct store *st, const char *branch, int pos, const char *status,
		long long when)
{
	struct branch_step s = {
		.branch = (char *)branch, .base = "v1.0", .position = pos,
		.patch = "0001-x.patch", .subject = "x: y", .status = (char *)status,
		.commit = NULL, .evidence = "line one\nline two\n", .updated_at = when,
	};

	assert_int_equal(store_branch_step_put(st, &s), 0);
}

static void test_steps(void **state)
{
	char *dir = test_tmpdir();
	struct branch_steps steps = { 0 };
	struct store *st = NULL;
	char *path, *latest = NULL;

	(void)state;
	assert_non_null(dir);
	path = xasprintf("%s/kmig.db", dir);
	assert_int_equal(store_open(&st, path), 0);
	assert_int_equal(store_branch_latest(st, &latest), KMIG_ENOTFOUND);

	put(st, "kmig/v1.0", 2, "conflict", 100);
	put(st, "kmig/v1.0", 1, "applied", 100);
	put(st, "kmig/v2.0", 1, "upstream", 200);
	put(st, "kmig/v1.0", 1, "superseded", 150);	/* replaces */
	assert_int_equal(store_branch_steps(st, "kmig/v1.0", &steps), 0);
	assert_int_equal(steps.n, 2);
	assert_int_equal(steps.v[0].position, 1);
	assert_string_equal(steps.v[0].status, "superseded");
	assert_string_equal(steps.v[0].evidence, "line one\nline two\n");
	assert_null(steps.v[0].commit);
	assert_null(steps.v[0].test_status);
	assert_string_equal(steps.v[1].status, "conflict");
	branch_steps_clear(&steps);

	assert_int_equal(store_branch_latest(st, &latest), 0);
	assert_string_equal(latest, "kmig/v2.0");
	free(latest);

	assert_int_equal(store_branch_set_test(st, "kmig/v1.0", 2, "boot-fail"), 0);
	assert_int_equal(store_branch_set_test(st, "kmig/v1.0", 9, "pass"), KMIG_ENOTFOUND);
	assert_int_equal(store_branch_steps(st, "kmig/v1.0", &steps), 0);
	assert_string_equal(steps.v[1].test_status, "boot-fail");
	assert_int_equal(steps.v[1].updated_at, 100);
	branch_steps_clear(&steps);
	/* a test of the older branch leaves the newest applied one latest */
	assert_int_equal(store_branch_latest(st, &latest), 0);
	assert_string_equal(latest, "kmig/v2.0");
	free(latest);

	assert_int_equal(store_branch_reset(st, "kmig/v1.0"), 0);
	assert_int_equal(store_branch_steps(st, "kmig/v1.0", &steps), 0);
	assert_int_equal(steps.n, 0);
	branch_steps_clear(&steps);
	assert_int_equal(store_branch_steps(st, "kmig/v2.0", &steps), 0);
	assert_int_equal(steps.n, 1);
	branch_steps_clear(&steps);

	store_close(st);
	assert_int_equal(test_tmpdir_remove(dir), 0);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
