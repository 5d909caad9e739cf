// SPDX-License-Identifier: GPL-2.0
/*
 * unit-util.c - helpers shared by the unit tests: temporary directories
 * and shell commands.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "unit-util.h"
#include "util.h"

char *test_tmpdir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/kmig-unit.XXXXXX", tmp && *tmp ? tmp : "/tmp");

	if (!mkdtemp(dir)) {
		free(dir);
		return NULL;
	}
	return dir;
}

int test_tmpdir_remove(char *dir)
{
	int ret;

	if (!dir)
		return 0;
	ret = rm_rf(dir);
	free(dir);
	return ret;
}

void test_sh(const char *fmt, ...)
{
	struct sbuf cmd = SBUF_INIT;
	va_list ap;
	int status;

	va_start(ap, fmt);
	sbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	status = system(cmd.buf);
	if (status)
		print_error("command failed (status %d): %s\n", status, cmd.buf);
	sbuf_release(&cmd);
	assert_int_equal(status, 0);
}
