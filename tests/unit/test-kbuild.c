// SPDX-License-Identifier: GPL-2.0
/*
 * test-kbuild.c - kmig's worktree: kbuild_checkout() writes a commit's
 * tree, and moving to another commit rewrites only the files that differ
 * (unchanged files keep their mtime, so the kernel's make rebuilds only
 * what changed), deletes what is gone, and handles a directory that
 * becomes a file, executables and symlinks (also a symlink that is the
 * first entry of a new directory).  Progress comes back to the
 * caller's note callback, kbuild prints nothing.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <git2.h>

#include "boottest.h"
#include "kbuild.h"
#include "util.h"
#include "unit-util.h"

static char *tmp;

static char *rev(const char *r)
{
	struct sbuf out = SBUF_INIT;
	char *cmd = xasprintf("git -C %s/repo rev-parse %s", tmp, r);
	FILE *p = popen(cmd, "r");
	char buf[64] = "";

	assert_non_null(p);
	assert_non_null(fgets(buf, sizeof(buf), p));
	pclose(p);
	free(cmd);
	buf[strcspn(buf, "\n")] = '\0';
	sbuf_addstr(&out, buf);
	return sbuf_detach(&out);
}

/* A kbuild_note_fn collecting the progress lines, one a line. */
static void collect(void *data, enum kbuild_note kind, const char *msg)
{
	assert_int_equal(kind, KBUILD_NOTE_PROGRESS);
	sbuf_addf(data, "%s\n", msg);
}

static int setup(void **state)
{
	(void)state;
	git_libgit2_init();
	tmp = test_tmpdir();
	assert_non_null(tmp);
	test_sh("cd %s && git init -q repo && cd repo && "
	   "mkdir -p dir sub && echo a > a.c && echo b > dir/b.c && "
	   "echo same > sub/same.c && printf '#!/bin/sh\\n' > run.sh && "
	   "chmod +x run.sh && ln -s a.c link && git add . && "
	   "git -c user.name=T -c user.email=t@t commit -q -m A && "
	   "echo a2 > a.c && git rm -q -r dir && echo now-a-file > dir && "
	   "echo new > sub/new.c && git add . && "
	   "git -c user.name=T -c user.email=t@t commit -q -m B && "
	   "git tag A HEAD~1 && git tag B && "
	   "mkdir -p new/deep && ln -s ../../a.c new/deep/first-link && "
	   "echo z > new/deep/zfile && git add . && "
	   "git -c user.name=T -c user.email=t@t commit -q -m C && "
	   "git tag C && echo a3 > a.c && git add . && "
	   "git -c user.name=T -c user.email=t@t commit -q -m D && "
	   "git tag D", tmp);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	assert_int_equal(test_tmpdir_remove(tmp), 0);
	tmp = NULL;
	git_libgit2_shutdown();
	return 0;
}

static void test_checkout_moves(void **state)
{
	struct kbuild *kb = NULL;
	char *home = xasprintf("%s/home", tmp), *repo = xasprintf("%s/repo", tmp);
	char *a = rev("A"), *b = rev("B"), *p;
	struct sbuf sb = SBUF_INIT, notes = SBUF_INIT;
	struct stat st, same1, same2;

	(void)state;
	assert_int_equal(kbuild_open(&kb, home, repo, collect, &notes), 0);
	assert_int_equal(kbuild_checkout(kb, a), 0);
	p = xasprintf("writing the worktree '%s'\nwrote 5 files in ",
		      kbuild_src_dir(kb));
	assert_non_null(notes.buf);
	assert_memory_equal(notes.buf, p, strlen(p));
	free(p);
	sbuf_reset(&notes);

	p = xasprintf("%s/a.c", kbuild_src_dir(kb));
	assert_int_equal(sbuf_read_file(&sb, p), 0);
	assert_string_equal(sb.buf, "a\n");
	free(p);
	p = xasprintf("%s/run.sh", kbuild_src_dir(kb));
	assert_int_equal(stat(p, &st), 0);
	assert_true(st.st_mode & S_IXUSR);
	free(p);
	p = xasprintf("%s/link", kbuild_src_dir(kb));
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	free(p);
	p = xasprintf("%s/sub/same.c", kbuild_src_dir(kb));
	assert_int_equal(stat(p, &same1), 0);

	/* Old enough that a rewrite would show in the mtime. */
	sleep(1);
	assert_int_equal(kbuild_checkout(kb, b), 0);
	assert_int_equal(stat(p, &same2), 0);
	assert_int_equal(same1.st_mtim.tv_sec, same2.st_mtim.tv_sec);
	assert_int_equal(same1.st_mtim.tv_nsec, same2.st_mtim.tv_nsec);
	free(p);
	assert_string_equal(notes.buf,
			    "worktree moved: 3 files written, 4 deltas\n");

	sbuf_reset(&sb);
	p = xasprintf("%s/a.c", kbuild_src_dir(kb));
	assert_int_equal(sbuf_read_file(&sb, p), 0);
	assert_string_equal(sb.buf, "a2\n");
	free(p);
	sbuf_reset(&sb);
	p = xasprintf("%s/dir", kbuild_src_dir(kb));
	assert_int_equal(sbuf_read_file(&sb, p), 0);
	assert_string_equal(sb.buf, "now-a-file\n");
	free(p);
	p = xasprintf("%s/sub/new.c", kbuild_src_dir(kb));
	assert_int_equal(access(p, F_OK), 0);
	free(p);

	/* And back: the new file is gone again. */
	assert_int_equal(kbuild_checkout(kb, a), 0);
	p = xasprintf("%s/sub/new.c", kbuild_src_dir(kb));
	assert_int_not_equal(access(p, F_OK), 0);
	free(p);
	sbuf_reset(&sb);
	p = xasprintf("%s/dir/b.c", kbuild_src_dir(kb));
	assert_int_equal(sbuf_read_file(&sb, p), 0);
	assert_string_equal(sb.buf, "b\n");
	free(p);

	kbuild_close(kb);
	/* The state survives: a new kbuild knows where src/ is. */
	assert_int_equal(kbuild_open(&kb, home, repo, NULL, NULL), 0);
	assert_int_equal(kbuild_checkout(kb, a), 0);
	kbuild_close(kb);

	sbuf_release(&sb);
	sbuf_release(&notes);
	free(a);
	free(b);
	free(home);
	free(repo);
}

/*
 * B -> C incrementally: the new directory's first entry in diff order
 * is a symlink, written before anything created the directory (the
 * v6.1.192 -> v7.3.4 failure on tools/perf/pmu-events/.../bullet-0d/).
 */
static void test_checkout_new_dir_symlink(void **state)
{
	struct kbuild *kb = NULL;
	char *home = xasprintf("%s/home-link", tmp);
	char *repo = xasprintf("%s/repo", tmp);
	char *b = rev("B"), *c = rev("C"), *p;
	struct sbuf sb = SBUF_INIT;
	struct stat st;

	(void)state;
	assert_int_equal(kbuild_open(&kb, home, repo, NULL, NULL), 0);
	assert_int_equal(kbuild_checkout(kb, b), 0);
	assert_int_equal(kbuild_checkout(kb, c), 0);
	p = xasprintf("%s/new/deep/first-link", kbuild_src_dir(kb));
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(sbuf_read_file(&sb, p), 0);
	assert_string_equal(sb.buf, "a2\n");
	free(p);
	/* And back: the directory goes with its files. */
	assert_int_equal(kbuild_checkout(kb, b), 0);
	p = xasprintf("%s/new", kbuild_src_dir(kb));
	assert_int_not_equal(access(p, F_OK), 0);
	free(p);
	kbuild_close(kb);
	sbuf_release(&sb);
	free(b);
	free(c);
	free(home);
	free(repo);
}

/* The number of objects of the fixture repository on disk. */
static char *objects(void)
{
	struct sbuf out = SBUF_INIT;
	char *cmd = xasprintf("find %s/repo/.git/objects -type f | wc -l", tmp);
	FILE *p = popen(cmd, "r");
	char buf[64] = "";

	assert_non_null(p);
	assert_non_null(fgets(buf, sizeof(buf), p));
	pclose(p);
	free(cmd);
	sbuf_addstr(&out, buf);
	return sbuf_detach(&out);
}

/*
 * kbuild_revert(): B reverted on C is C with a.c back to "a" (and dir/
 * back), made in memory only and the same commit every time; B reverted
 * on D (which changed a.c again) conflicts.
 */
static void test_revert(void **state)
{
	struct kbuild *kb = NULL;
	char *home = xasprintf("%s/home-revert", tmp);
	char *repo = xasprintf("%s/repo", tmp);
	char *b = rev("B"), *c = rev("C"), *d = rev("D"), *before = objects();
	char id[41], again[41], *p, *after;
	struct sbuf sb = SBUF_INIT;

	(void)state;
	assert_int_equal(kbuild_open(&kb, home, repo, NULL, NULL), 0);
	assert_int_equal(kbuild_revert(kb, c, b, id), 0);
	assert_int_equal(kbuild_checkout(kb, id), 0);
	p = xasprintf("%s/a.c", kbuild_src_dir(kb));
	assert_int_equal(sbuf_read_file(&sb, p), 0);
	assert_string_equal(sb.buf, "a\n");
	free(p);
	sbuf_reset(&sb);
	p = xasprintf("%s/dir/b.c", kbuild_src_dir(kb));
	assert_int_equal(sbuf_read_file(&sb, p), 0);
	assert_string_equal(sb.buf, "b\n");
	free(p);
	p = xasprintf("%s/new/deep/zfile", kbuild_src_dir(kb));
	assert_int_equal(access(p, F_OK), 0);
	free(p);
	assert_int_equal(kbuild_revert(kb, d, b, again), KMIG_ECONFLICT);
	kbuild_close(kb);
	after = objects();
	assert_string_equal(before, after);

	/* Deterministic: another kbuild makes the same commit. */
	assert_int_equal(kbuild_open(&kb, home, repo, NULL, NULL), 0);
	assert_int_equal(kbuild_revert(kb, c, b, again), 0);
	assert_string_equal(id, again);
	kbuild_close(kb);
	sbuf_release(&sb);
	free(before);
	free(after);
	free(b);
	free(c);
	free(d);
	free(home);
	free(repo);
}

/*
 * Two boots of one commit within a second (a bisection's boot of its bad
 * commit, then its verify run's): each console log has its own path, in
 * the work area's logs/.
 */
static void test_console_paths(void **state)
{
	struct kbuild *kb = NULL;
	char *home = xasprintf("%s/home-console", tmp);
	char *repo = xasprintf("%s/repo", tmp);
	char *logs, *a, *b;

	(void)state;
	assert_int_equal(kbuild_open(&kb, home, repo, NULL, NULL), 0);
	logs = xasprintf("%s/logs/console-0123456789ab-", kbuild_dir(kb));
	a = boottest_console_path(kb, "0123456789abcdef");
	b = boottest_console_path(kb, "0123456789abcdef");
	assert_string_not_equal(a, b);
	assert_memory_equal(a, logs, strlen(logs));
	assert_memory_equal(b, logs, strlen(logs));
	free(a);
	free(b);
	free(logs);
	kbuild_close(kb);
	free(repo);
	free(home);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checkout_moves),
		cmocka_unit_test(test_checkout_new_dir_symlink),
		cmocka_unit_test(test_revert),
		cmocka_unit_test(test_console_paths),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
