// SPDX-License-Identifier: GPL-2.0
/*
 * test-child.c - child_run(), which runs kernel builds and QEMU: a hung
 * child is killed at its timeout with its whole process group, a crashing
 * one is reported as such, and nothing it started outlives it or kmig;
 * stdout can be captured apart from stderr.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "child.h"
#include "util.h"
#include "unit-util.h"

static char *dir;

/* The pid written to @name by the child, waiting up to 10 s for it. */
static pid_t read_pid(const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	long pid = 0;
	int i;

	for (i = 0; i < 1000 && pid <= 0; i++) {
		FILE *f = fopen(path, "r");

		if (f) {
			if (fscanf(f, "%ld", &pid) != 1)
				pid = 0;
			fclose(f);
		}
		if (pid <= 0)
			usleep(10000);
	}
	free(path);
	return (pid_t)pid;
}

/* Is @pid dead (gone, or a zombie nobody reaped yet)?  Waits up to 10 s. */
static bool dead(pid_t pid)
{
	char path[64], buf[512], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < 1000; i++) {
		FILE *f = fopen(path, "r");

		if (!f)
			return true;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (p && (p[2] == 'Z' || p[2] == 'X'))
			return true;
		usleep(10000);
	}
	return false;
}

static void run_sh(const char *script, double timeout, struct child_status *st)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct child_opts o = { .argv = argv, .dir = dir, .timeout = timeout };

	assert_int_equal(child_run(&o, st), 0);
}

static void test_timeout_kills_the_group(void **state)
{
	struct child_status st;
	pid_t bg;

	(void)state;
	/* 2 s: time for sh to start the background sleep on a loaded machine */
	run_sh("sleep 300 & echo $! > bg1; sleep 300", 2, &st);
	assert_true(st.timed_out);
	assert_int_equal(st.code, 128 + SIGKILL);
	bg = read_pid("bg1");
	assert_true(bg > 0);
	assert_true(dead(bg));
}

static void test_crash_is_reported(void **state)
{
	struct child_status st;

	(void)state;
	run_sh("kill -SEGV $$", 60, &st);
	assert_false(st.timed_out);
	assert_int_equal(st.code, 128 + SIGSEGV);
	run_sh("exit 3", 60, &st);
	assert_false(st.timed_out);
	assert_int_equal(st.code, 3);
}

static void test_leftovers_are_killed(void **state)
{
	struct child_status st;
	pid_t bg;

	(void)state;
	run_sh("sleep 300 & echo $! > bg2; exit 0", 60, &st);
	assert_false(st.timed_out);
	assert_int_equal(st.code, 0);
	bg = read_pid("bg2");
	assert_true(bg > 0);
	assert_true(dead(bg));
}

/* stdout into an sbuf, stderr apart; the status from child_run_status(). */
static void test_capture_and_status(void **state)
{
	char *argv[] = { "sh", "-c", "echo out; echo err >&2; exit 4", NULL };
	char *log = xasprintf("%s/capture.log", dir);
	struct child_opts o = { .argv = argv, .out_path = log, .capture = NULL };
	struct sbuf out = SBUF_INIT, err = SBUF_INIT;
	char *missing[] = { "kmig-test-no-such-program", NULL };

	(void)state;
	assert_int_equal(child_run_status(&o), 4);
	assert_int_equal(sbuf_read_file(&err, log), 0);
	assert_string_equal(err.buf, "out\nerr\n");
	sbuf_reset(&err);
	o.capture = &out;
	assert_int_equal(child_run_status(&o), 4);
	assert_string_equal(out.buf, "out\n");
	assert_int_equal(sbuf_read_file(&err, log), 0);
	assert_string_equal(err.buf, "err\n");
	o.argv = missing;
	o.capture = NULL;
	assert_true(child_run_status(&o) < 0);
	assert_string_equal(kmig_errmsg(), "cannot run 'kmig-test-no-such-program'");
	sbuf_release(&out);
	sbuf_release(&err);
	free(log);
}

/* SIGTERM to kmig while it waits: the group goes first, then kmig. */
static void test_signal_kills_the_group(void **state)
{
	pid_t kmig, leader, bg;
	int ws;

	(void)state;
	kmig = fork();
	assert_true(kmig >= 0);
	if (kmig == 0) {
		struct child_status st;

		run_sh("echo $$ > leader; sleep 300 & echo $! > bg3; wait", 0, &st);
		_exit(0);
	}
	leader = read_pid("leader");
	bg = read_pid("bg3");
	assert_true(leader > 0 && bg > 0);
	kill(kmig, SIGTERM);
	assert_int_equal(waitpid(kmig, &ws, 0), kmig);
	assert_true(WIFSIGNALED(ws));
	assert_int_equal(WTERMSIG(ws), SIGTERM);
	assert_true(dead(leader));
	assert_true(dead(bg));
}

/* SIGKILL to kmig: the child (QEMU, make) dies with it (PDEATHSIG). */
static void test_sigkill_kills_the_child(void **state)
{
	pid_t kmig, leader;
	int ws;

	(void)state;
	kmig = fork();
	assert_true(kmig >= 0);
	if (kmig == 0) {
		struct child_status st;

		run_sh("echo $$ > leader2; exec sleep 300", 0, &st);
		_exit(0);
	}
	leader = read_pid("leader2");
	assert_true(leader > 0);
	kill(kmig, SIGKILL);
	assert_int_equal(waitpid(kmig, &ws, 0), kmig);
	assert_true(dead(leader));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeout_kills_the_group),
		cmocka_unit_test(test_crash_is_reported),
		cmocka_unit_test(test_leftovers_are_killed),
		cmocka_unit_test(test_capture_and_status),
		cmocka_unit_test(test_signal_kills_the_group),
		cmocka_unit_test(test_sigkill_kills_the_child),
	};
	int ret;

	dir = test_tmpdir();
	if (!dir)
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	if (!ret && test_tmpdir_remove(dir))
		ret = 1;
	return ret;
}
