// SPDX-License-Identifier: GPL-2.0
/*
 * unit-util.c - helpers shared by the unit tests: temporary directories,
 * shell commands and rows of a database.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <git2.h>
#include <sqlite3.h>

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

char *test_tmpdir_made(const char *script)
{
	char *dir = test_tmpdir(), *cmd;
	int ret;

	if (!dir)
		return NULL;
	cmd = xasprintf("D=%s; %s", dir, script);
	ret = system(cmd);
	free(cmd);
	if (ret) {
		test_tmpdir_remove(dir);
		return NULL;
	}
	return dir;
}

int test_git_fixture(char **dir, const char *script)
{
	git_libgit2_init();
	*dir = test_tmpdir_made(script);
	return *dir ? 0 : -1;
}

int test_git_fixture_remove(char **dir)
{
	int ret = test_tmpdir_remove(*dir);

	*dir = NULL;
	git_libgit2_shutdown();
	return ret ? -1 : 0;
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

char *test_sql_rows(const char *db, const char *sql, const char *param)
{
	struct sbuf sb = SBUF_INIT;
	sqlite3_stmt *s;
	sqlite3 *h;

	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &s, NULL), SQLITE_OK);
	sqlite3_bind_text(s, 1, param, -1, SQLITE_STATIC);
	while (sqlite3_step(s) == SQLITE_ROW)
		sbuf_addf(&sb, "%s\n", (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	sqlite3_close(h);
	return sbuf_detach(&sb);
}
