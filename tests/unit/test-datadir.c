// SPDX-License-Identifier: GPL-2.0
/*
 * test-datadir.c - the runtime data lookup: an environment override is
 * taken as given (a file missing there is missing, nothing else is
 * searched), and without one this binary (build/tests/test-datadir) finds
 * the source tree's qemu/ and tracker/debian/ two levels up.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "datadir.h"
#include "util.h"

static void test_env_override(void **state)
{
	const char *dir;

	(void)state;
	setenv("KMIG_COCCI_DIR", "/nonexistent/kmig-cocci", 1);
	dir = datadir_find(DATADIR_COCCI);
	assert_string_equal(dir, "/nonexistent/kmig-cocci");
	assert_null(datadir_file(DATADIR_COCCI, "strlcpy.cocci"));
	assert_string_equal(kmig_errmsg(),
			    "cannot read '/nonexistent/kmig-cocci/strlcpy.cocci': "
			    "No such file or directory");
	/* Looked up once: a later change of the environment is not seen. */
	unsetenv("KMIG_COCCI_DIR");
	assert_ptr_equal(datadir_find(DATADIR_COCCI), dir);
}

static void test_source_tree(void **state)
{
	static const char suites[] = "/../../tracker/debian/suites";
	const char *dir;
	char *path;
	size_t n;

	(void)state;
	unsetenv("KMIG_QEMU_DIR");
	dir = datadir_find(DATADIR_QEMU);
	assert_non_null(dir);
	n = strlen(dir);
	assert_true(n > 11);
	assert_string_equal(dir + n - 11, "/../../qemu");
	path = datadir_file(DATADIR_QEMU, "kmig.config");
	assert_non_null(path);
	assert_int_equal(access(path, R_OK), 0);
	free(path);
	path = datadir_file(DATADIR_QEMU, "init.c");
	assert_non_null(path);
	free(path);
	assert_null(datadir_file(DATADIR_QEMU, "no-such-file"));
	/* the Debian suites of kmig import: tracker/debian/suites */
	unsetenv("KMIG_DEBIAN_DIR");
	path = datadir_file(DATADIR_DEBIAN, "suites");
	assert_non_null(path);
	n = strlen(path);
	assert_true(n > strlen(suites));
	assert_string_equal(path + n - strlen(suites), suites);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env_override),
		cmocka_unit_test(test_source_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
