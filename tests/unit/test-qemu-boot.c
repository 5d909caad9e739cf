// SPDX-License-Identifier: GPL-2.0
/*
 * test-qemu-boot.c - qemu_boot() with a stand-in qemu-system-x86_64 (a
 * shell script first in PATH): a QEMU that crashes is reported as such
 * even after a complete console, one that exits 0 after it passes, and a
 * hung one is killed at its timeout; the KMIG_DEBUG_FAIL_BOOTS hook puts
 * /kmig-fail (the first test) into the initramfs of as many boots as
 * its file counts, then none.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "qemu.h"
#include "util.h"
#include "unit-util.h"

static char *dir;

static const char console[] =
	"printf 'Run /init as init process\\r\\nKMIG-START\\r\\n"
	"KMIG-TEST boot PASS user space reached\\r\\n"
	"KMIG-TEST rds PASS loopback\\r\\nKMIG-DONE tests=2 failed=0\\r\\n'\n";

/* A qemu-system-x86_64 printing a good console, then running @tail. */
static void fake_qemu(const char *tail)
{
	char *path = xasprintf("%s/bin/qemu-system-x86_64", dir);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s%s\n", console, tail);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	free(path);
}

static void boot(struct qemu_result *r, double timeout)
{
	struct qemu_opts o = QEMU_OPTS_INIT;
	char *kernel = xasprintf("%s/bzImage", dir);
	char *log = xasprintf("%s/console.log", dir);
	FILE *f = fopen(kernel, "w");

	assert_non_null(f);
	fclose(f);
	o.kernel = kernel;
	o.console_path = log;
	o.home = dir;
	o.timeout = timeout;
	assert_int_equal(qemu_boot(&o, r), 0);
	free(kernel);
	free(log);
}

static void test_clean_exit_passes(void **state)
{
	struct qemu_result r;

	(void)state;
	fake_qemu("exit 0");
	boot(&r, 60);
	assert_int_equal(r.verdict.status, QEMU_PASS);
	assert_int_equal(r.verdict.nfindings, 0);
	qemu_result_release(&r);
}

static void test_crash_is_reported(void **state)
{
	struct qemu_result r;

	(void)state;
	fake_qemu("kill -SEGV $$");
	boot(&r, 60);
	assert_int_equal(r.verdict.status, QEMU_FAIL);
	assert_int_equal(r.verdict.nfindings, 1);
	assert_string_equal(r.verdict.findings,
			    "qemu-system-x86_64 was killed by signal 11\n");
	qemu_result_release(&r);

	fake_qemu("exit 1");
	boot(&r, 60);
	assert_int_equal(r.verdict.status, QEMU_FAIL);
	assert_string_equal(r.verdict.findings,
			    "qemu-system-x86_64 exited with status 1\n");
	qemu_result_release(&r);
}

/* A guest that prints without end is stopped at the console's size. */
static void test_console_capped(void **state)
{
	struct qemu_opts o = QEMU_OPTS_INIT;
	char *kernel = xasprintf("%s/bzImage", dir);
	char *log = xasprintf("%s/console.log", dir);
	struct qemu_result r;
	struct stat st;
	FILE *f = fopen(kernel, "w");

	(void)state;
	assert_non_null(f);
	fclose(f);
	fake_qemu("exec head -c 3000000 /dev/zero");
	o.kernel = kernel;
	o.console_path = log;
	o.home = dir;
	o.timeout = 60;
	o.console_max = 100000;
	assert_int_equal(qemu_boot(&o, &r), 0);
	assert_int_equal(r.verdict.status, QEMU_FAIL);
	assert_non_null(strstr(r.verdict.findings,
			       "the console reached 100000 bytes: QEMU stopped there"));
	assert_int_equal(stat(log, &st), 0);
	assert_true(st.st_size <= 100000);
	qemu_result_release(&r);
	free(kernel);
	free(log);
}

/*
 * A QEMU that does not die of SIGXFSZ (it ignores the signal, or kmig's
 * parent left it ignored: an ignored signal stays so across exec) gets
 * EFBIG instead: one that exits on it, or goes on until the timeout, is
 * still named by the cap, not by its exit status or a timeout.
 */
static void capped_boot(const char *tail, double timeout, bool parent_ignores)
{
	struct qemu_opts o = QEMU_OPTS_INIT;
	char *kernel = xasprintf("%s/bzImage", dir);
	char *log = xasprintf("%s/console.log", dir);
	struct qemu_result r;
	FILE *f = fopen(kernel, "w");

	assert_non_null(f);
	fclose(f);
	fake_qemu(tail);
	o.kernel = kernel;
	o.console_path = log;
	o.home = dir;
	o.timeout = timeout;
	o.console_max = 100000;
	if (parent_ignores)
		signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(qemu_boot(&o, &r), 0);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(r.verdict.status, QEMU_FAIL);
	assert_non_null(strstr(r.verdict.findings,
			       "the console reached 100000 bytes: QEMU stopped there"));
	qemu_result_release(&r);
	free(kernel);
	free(log);
}

static void test_console_capped_sigxfsz_ignored(void **state)
{
	(void)state;
	capped_boot("exec head -c 3000000 /dev/zero", 60, true);
	capped_boot("trap '' XFSZ; head -c 3000000 /dev/zero; exit 1", 60, false);
	/*
	 * it runs to the deadline, so the cap must be reached before it: 5 s
	 * leave a loaded machine time to start sh and head
	 */
	capped_boot("trap '' XFSZ; head -c 3000000 /dev/zero; exec sleep 300", 5, false);
}

static void test_hang_times_out(void **state)
{
	struct qemu_result r;

	(void)state;
	fake_qemu("exec sleep 300");
	boot(&r, 1);
	assert_int_equal(r.verdict.status, QEMU_TIMEOUT);
	qemu_result_release(&r);
}

/*
 * A qemu-system-x86_64 that reads /kmig-fail out of its -initrd (as
 * /init would) and prints the console /init would print.
 */
static void reading_qemu(void)
{
	char *path = xasprintf("%s/bin/qemu-system-x86_64", dir);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n"
		"while [ $# -gt 0 ]; do [ \"$1\" = -initrd ] && initrd=$2; shift; done\n"
		"fail=$(gzip -dc \"$initrd\" | cpio -i --quiet --to-stdout kmig-fail 2>/dev/null)\n"
		"if [ \"$fail\" = boot ]; then\n"
		"  printf 'KMIG-TEST boot FAIL failed on purpose\\nKMIG-TEST rds PASS x\\nKMIG-DONE\\n'\n"
		"else\n"
		"  printf 'KMIG-TEST boot PASS up\\nKMIG-TEST rds PASS x\\nKMIG-DONE\\n'\n"
		"fi\n");
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	free(path);
}

static void test_debug_fail_hook(void **state)
{
	char *count = xasprintf("%s/fail-count", dir);
	struct sbuf sb = SBUF_INIT;
	struct qemu_result r;
	FILE *f;

	(void)state;
	reading_qemu();
	f = fopen(count, "w");
	assert_non_null(f);
	fputs("2\n", f);
	fclose(f);
	setenv("KMIG_DEBUG_FAIL_BOOTS", count, 1);
	boot(&r, 60);
	assert_int_equal(r.verdict.status, QEMU_FAIL);
	assert_string_equal(r.verdict.findings, "KMIG-TEST boot FAIL failed on purpose\n");
	qemu_result_release(&r);
	boot(&r, 60);
	assert_int_equal(r.verdict.status, QEMU_FAIL);
	qemu_result_release(&r);
	assert_int_equal(sbuf_read_file(&sb, count), 0);
	assert_string_equal(sb.buf, "0\n");
	boot(&r, 60);
	assert_int_equal(r.verdict.status, QEMU_PASS);
	qemu_result_release(&r);

	/* Not a count: an error, no boot. */
	f = fopen(count, "w");
	assert_non_null(f);
	fputs("many\n", f);
	fclose(f);
	{
		struct qemu_opts o = QEMU_OPTS_INIT;
		char *kernel = xasprintf("%s/bzImage", dir);
		char *log = xasprintf("%s/console.log", dir);

		o.kernel = kernel;
		o.console_path = log;
		o.home = dir;
		assert_int_not_equal(qemu_boot(&o, &r), 0);
		free(kernel);
		free(log);
	}
	unsetenv("KMIG_DEBUG_FAIL_BOOTS");
	boot(&r, 60);
	assert_int_equal(r.verdict.status, QEMU_PASS);
	qemu_result_release(&r);
	sbuf_release(&sb);
	free(count);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debug_fail_hook),
		cmocka_unit_test(test_clean_exit_passes),
		cmocka_unit_test(test_crash_is_reported),
		cmocka_unit_test(test_hang_times_out),
		cmocka_unit_test(test_console_capped),
		cmocka_unit_test(test_console_capped_sigxfsz_ignored),
	};
	char *bin, *path;
	int ret;

	dir = test_tmpdir();
	if (!dir)
		return 1;
	bin = xasprintf("%s/bin", dir);
	if (mkdir(bin, 0755))
		return 1;
	path = xasprintf("%s:%s", bin, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	if (!ret && test_tmpdir_remove(dir))
		ret = 1;
	free(path);
	free(bin);
	return ret;
}
