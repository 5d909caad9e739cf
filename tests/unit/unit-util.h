/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit-util.h - helpers shared by the unit tests (tests/unit/test-*.c).
 * The Makefile's unit rule links unit-util.o into every test binary.
 */
#ifndef KMIG_UNIT_UTIL_H
#define KMIG_UNIT_UTIL_H

/*
 * test_tmpdir - create a fresh directory ${TMPDIR:-/tmp}/kmig-unit.XXXXXX.
 * Returns its path (malloc'd; the caller frees it with
 * test_tmpdir_remove()), or NULL with errno set when it cannot be made.
 */
char *test_tmpdir(void);

/*
 * test_tmpdir_made - test_tmpdir(), then the shell @script run in it with
 * its path in $D (a fixture repository made with git); NULL when either
 * fails (the directory is then removed).
 */
char *test_tmpdir_made(const char *script);

/*
 * test_git_fixture - a cmocka group setup's work for tests that read a
 * fixture repository: libgit2 initialised, *@dir from test_tmpdir_made()
 * with @script.  Returns 0, or -1 when the fixture cannot be made.
 * test_git_fixture_remove - the teardown's: *@dir removed (and NULL),
 * libgit2 shut down; 0, or -1 when something could not be removed.
 */
int test_git_fixture(char **dir, const char *script);
int test_git_fixture_remove(char **dir);

/*
 * test_tmpdir_remove - remove @dir and everything under it, without
 * following symbolic links, then free @dir (NULL is a no-op).  Returns 0,
 * or negative when something could not be removed.
 */
int test_tmpdir_remove(char *dir);

/*
 * test_sh - run the shell command made from @fmt with /bin/sh and fail
 * the current cmocka test unless it exits with status 0.
 */
void test_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * test_sql_rows - the first column of every row @sql gives in the
 * database file @db with ?1 bound to @param, each followed by a newline
 * (malloc'd, "" when none); fails the current cmocka test when @db or
 * @sql cannot be used.
 */
char *test_sql_rows(const char *db, const char *sql, const char *param);

#endif
