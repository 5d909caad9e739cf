// SPDX-License-Identifier: GPL-2.0
/*
 * test-qemu.c - the QEMU console classifier (qemu_classify()).
 *
 * Consoles are abridged from real ones of kmig's guests on Linux 6.1
 * (serial console lines end in \r\n).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "boottest.h"
#include "qemu.h"
#include "util.h"

static const char *const both[] = { "boot", "rds" };

static const char boot_ok[] =
	"Linux version 6.1.192 (kmig@kmig) #1 Thu Dec  3 06:30:00 UTC 2026\r\n"
	"Command line: console=ttyS0 panic=-1 panic_on_warn=1 oops=panic\r\n"
	"Run /init as init process\r\n"
	"KMIG-START\r\n"
	"KMIG-TEST boot PASS user space reached on Linux 6.1.192\r\n"
	"KMIG-CASE rds rdma-nr_local-0 ok want EINVAL got EINVAL\r\n"
	"KMIG-TEST rds PASS loopback payload received, 12 sendmsg errno cases checked\r\n"
	"KMIG-DONE tests=2 failed=0\r\n"
	"reboot: Restarting system\r\n";

static const char warn[] =
	"Run /init as init process\r\n"
	"KMIG-START\r\n"
	"KMIG-TEST boot PASS user space reached on Linux 6.1.192\r\n"
	"------------[ cut here ]------------\r\n"
	"WARNING: CPU: 0 PID: 1 at net/rds/rdma.c:564 rds_rdma_extra_size+0x117/0x130\r\n"
	"Modules linked in:\r\n"
	"CPU: 0 PID: 1 Comm: init Not tainted 6.1.192 #2\r\n"
	"RIP: 0010:rds_rdma_extra_size+0x117/0x130\r\n"
	"Call Trace:\r\n"
	" <TASK>\r\n"
	" rds_sendmsg+0x2f1/0xa90\r\n"
	" </TASK>\r\n"
	"Kernel panic - not syncing: panic_on_warn set ...\r\n"
	"---[ end Kernel panic - not syncing: panic_on_warn set ... ]---\r\n";

static struct qemu_verdict classify(const char *console, bool timed_out)
{
	struct qemu_verdict v;

	qemu_classify(console, strlen(console), both, 2, timed_out, &v);
	return v;
}

static void test_pass(void **state)
{
	struct qemu_verdict v = classify(boot_ok, false);

	(void)state;
	assert_int_equal(v.status, QEMU_PASS);
	assert_true(v.marker);
	assert_null(v.findings);
	assert_int_equal(v.nfindings, 0);
	assert_non_null(strstr(v.tests, "KMIG-TEST rds PASS"));
	/* The \r of the serial console is not part of the lines. */
	assert_null(strchr(v.tests, '\r'));
	qemu_verdict_release(&v);
}

static void test_warning_keeps_file_line(void **state)
{
	struct qemu_verdict v = classify(warn, false);

	(void)state;
	assert_int_equal(v.status, QEMU_FAIL);
	assert_false(v.marker);
	/* First finding: the splat's first line, with file:line. */
	assert_true(!strncmp(v.findings, "WARNING: CPU: 0 PID: 1 at "
			     "net/rds/rdma.c:564 rds_rdma_extra_size", 60));
	/* The panic is a finding; the Call Trace after a splat is not. */
	assert_non_null(strstr(v.findings, "\nKernel panic - not syncing"));
	assert_null(strstr(v.findings, "Call Trace:"));
	/* rds never reported, nor the marker. */
	assert_non_null(strstr(v.findings, "KMIG-TEST rds: no result"));
	assert_non_null(strstr(v.findings, "no KMIG-DONE marker"));
	qemu_verdict_release(&v);
}

static void test_splat_after_marker_fails(void **state)
{
	static const char c[] =
		"KMIG-TEST boot PASS ok\nKMIG-TEST rds PASS ok\n"
		"KMIG-DONE tests=2 failed=0\n"
		"UBSAN: shift-out-of-bounds in net/rds/send.c:42:7\n";
	struct qemu_verdict v = classify(c, false);

	(void)state;
	assert_int_equal(v.status, QEMU_FAIL);
	assert_true(v.marker);
	assert_int_equal(v.nfindings, 1);
	assert_string_equal(v.findings,
			    "UBSAN: shift-out-of-bounds in net/rds/send.c:42:7\n");
	qemu_verdict_release(&v);
}

static void test_every_pattern(void **state)
{
	static const char *const lines[] = {
		"WARNING: CPU: 0 PID: 1 at mm/slub.c:1 f+0x0/0x1",
		"BUG: kernel NULL pointer dereference, address: 0000000000000000",
		"Oops: 0000 [#1] PREEMPT SMP",
		"Kernel panic - not syncing: Attempted to kill init!",
		"general protection fault, probably for non-canonical address",
		"UBSAN: array-index-out-of-bounds in lib/x.c:3:4",
		"BUG: KASAN: slab-out-of-bounds in f+0x1/0x2",
		"KASAN: null-ptr-deref in range [0x0-0x7]",
		"Call Trace:",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		char *c = xasprintf("KMIG-TEST boot PASS ok\nKMIG-TEST rds PASS ok\n"
				    "%s\nKMIG-DONE\n", lines[i]);
		struct qemu_verdict v = classify(c, false);

		assert_int_equal(v.status, QEMU_FAIL);
		assert_int_equal(v.nfindings, 1);
		assert_true(!strncmp(v.findings, lines[i], strlen(lines[i])));
		qemu_verdict_release(&v);
		free(c);
	}
}

static void test_lowercase_is_not_a_splat(void **state)
{
	static const char c[] =
		"Kernel command line: console=ttyS0 oops=panic panic=-1\n"
		"KMIG-TEST boot PASS ok\nKMIG-TEST rds PASS ok\nKMIG-DONE\n";
	struct qemu_verdict v = classify(c, false);

	(void)state;
	assert_int_equal(v.status, QEMU_PASS);
	qemu_verdict_release(&v);
}

static void test_failed_test(void **state)
{
	static const char c[] =
		"KMIG-TEST boot PASS ok\n"
		"KMIG-TEST rds FAIL rdma-nr_local-0: want EINVAL, got success\n"
		"KMIG-DONE tests=2 failed=1\n";
	struct qemu_verdict v = classify(c, false);

	(void)state;
	assert_int_equal(v.status, QEMU_FAIL);
	assert_string_equal(v.findings, "KMIG-TEST rds FAIL rdma-nr_local-0: "
			    "want EINVAL, got success\n");
	qemu_verdict_release(&v);
}

static void test_timeout(void **state)
{
	static const char c[] = "KMIG-START\nKMIG-CASE hang sleeping forever\n";
	const char *const hang[] = { "hang" };
	struct qemu_verdict v;

	(void)state;
	qemu_classify(c, strlen(c), hang, 1, true, &v);
	assert_int_equal(v.status, QEMU_TIMEOUT);
	assert_string_equal(qemu_status_name(v.status), "timeout");
	assert_non_null(strstr(v.findings, "timeout:"));
	qemu_verdict_release(&v);
}

static void test_empty_console(void **state)
{
	struct qemu_verdict v;

	(void)state;
	qemu_classify("", 0, both, 2, false, &v);
	assert_int_equal(v.status, QEMU_FAIL);
	assert_int_equal(v.nfindings, 3);
	qemu_verdict_release(&v);
}

static void test_repeated_warning_once(void **state)
{
	static const char c[] =
		"WARNING: CPU: 0 PID: 1 at a.c:1 f\nWARNING: CPU: 0 PID: 1 at a.c:1 f\n"
		"KMIG-TEST boot PASS\nKMIG-TEST rds PASS\nKMIG-DONE\n";
	struct qemu_verdict v = classify(c, false);

	(void)state;
	assert_int_equal(v.nfindings, 1);
	qemu_verdict_release(&v);
}

/*
 * BUG_ON() on x86 before 6.12: "kernel BUG at FILE:LINE!", then the die
 * header without "Oops" (added in 6.12), then the trace and the panic.
 */
static const char bug_on_61[] =
	"KMIG-TEST boot PASS user space reached on Linux 6.1.192\r\n"
	"------------[ cut here ]------------\r\n"
	"kernel BUG at net/rds/rdma.c:600!\r\n"
	"invalid opcode: 0000 [#1] PREEMPT\r\n"
	"CPU: 0 PID: 1 Comm: init Not tainted 6.1.192 #2\r\n"
	"RIP: 0010:rds_rdma_extra_size+0x117/0x130\r\n"
	"Call Trace:\r\n"
	" <TASK>\r\n"
	" rds_sendmsg+0x2f1/0xa90\r\n"
	" </TASK>\r\n"
	"---[ end trace 0000000000000000 ]---\r\n"
	"Kernel panic - not syncing: Fatal exception\r\n"
	"---[ end Kernel panic - not syncing: Fatal exception ]---\r\n";

static void test_bug_on_names_file_line(void **state)
{
	struct qemu_verdict v = classify(bug_on_61, false);
	char *cls;

	(void)state;
	assert_int_equal(v.status, QEMU_FAIL);
	/* The first finding names the BUG_ON(), not "Call Trace:". */
	assert_true(!strncmp(v.findings, "kernel BUG at net/rds/rdma.c:600!\n",
			     34));
	assert_non_null(strstr(v.findings, "\ninvalid opcode: 0000 [#1] PREEMPT\n"));
	assert_null(strstr(v.findings, "Call Trace:"));
	/* bisect's class of the failure: the file, as for a WARNING. */
	cls = boottest_finding_class(v.findings);
	assert_string_equal(cls, "BUG in net/rds/rdma.c");
	free(cls);
	qemu_verdict_release(&v);
}

/* Die headers of x86 before 6.12 (no "Oops: " in front): findings. */
static void test_die_headers(void **state)
{
	static const char *const lines[] = {
		"invalid opcode: 0000 [#1] PREEMPT SMP",
		"divide error: 0000 [#1] PREEMPT",
		"stack segment: 0000 [#1] SMP KASAN",
		"Kernel BUG at 0xffffffff81000000 [verbose debug info unavailable]",
	};
	static const char *const not_splats[] = {
		"x86/PAT: Configuration [0-7]: WB  WT  UC- UC  WB  WT  UC- UC",
		"pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]",
		"a note: beef [#x]",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		char *c = xasprintf("KMIG-TEST boot PASS ok\nKMIG-TEST rds PASS ok\n"
				    "%s\nKMIG-DONE\n", lines[i]);
		struct qemu_verdict v = classify(c, false);

		assert_int_equal(v.status, QEMU_FAIL);
		assert_int_equal(v.nfindings, 1);
		assert_true(!strncmp(v.findings, lines[i], strlen(lines[i])));
		qemu_verdict_release(&v);
		free(c);
	}
	for (i = 0; i < ARRAY_SIZE(not_splats); i++) {
		char *c = xasprintf("KMIG-TEST boot PASS ok\nKMIG-TEST rds PASS ok\n"
				    "%s\nKMIG-DONE\n", not_splats[i]);
		struct qemu_verdict v = classify(c, false);

		assert_int_equal(v.status, QEMU_PASS);
		qemu_verdict_release(&v);
		free(c);
	}
}

/* A NUL byte (serial noise) does not hide the rest of its line. */
static void test_nul_byte_in_line(void **state)
{
	static const char c[] =
		"KMIG-TEST boot PASS ok\n"
		"\0\0WARNING: CPU: 0 PID: 1 at net/rds/send.c:9 f+0x0/0x1\n"
		"KMIG-TEST rds PASS ok\x00\n"
		"KMIG-DONE\n";
	struct qemu_verdict v;

	(void)state;
	qemu_classify(c, sizeof(c) - 1, both, 2, false, &v);
	assert_int_equal(v.status, QEMU_FAIL);
	assert_true(v.marker);
	assert_int_equal(v.nfindings, 1);
	assert_non_null(strstr(v.findings,
			       "WARNING: CPU: 0 PID: 1 at net/rds/send.c:9"));
	assert_non_null(strstr(v.tests, "KMIG-TEST rds PASS"));
	qemu_verdict_release(&v);
}

/*
 * KMIG-DONE printed, then QEMU did not exit (the guest hangs in reboot):
 * a timeout with a finding that says so, not one without any.
 */
static void test_timeout_after_marker(void **state)
{
	struct qemu_verdict v = classify(boot_ok, true);
	char *cls;

	(void)state;
	assert_int_equal(v.status, QEMU_TIMEOUT);
	assert_true(v.marker);
	assert_int_equal(v.nfindings, 1);
	assert_non_null(v.findings);
	assert_true(!strncmp(v.findings, "timeout: ", 9));
	assert_non_null(strstr(v.findings, "did not power off"));
	cls = boottest_finding_class(v.findings);
	assert_string_equal(cls, "timeout");
	free(cls);
	qemu_verdict_release(&v);
}

static void test_known_tests(void **state)
{
	(void)state;
	assert_true(qemu_test_known("boot"));
	assert_true(qemu_test_known("rds"));
	assert_true(qemu_test_known("hang"));
	assert_false(qemu_test_known("nope"));
	assert_int_equal(qemu_ndefault_tests, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_warning_keeps_file_line),
		cmocka_unit_test(test_splat_after_marker_fails),
		cmocka_unit_test(test_every_pattern),
		cmocka_unit_test(test_lowercase_is_not_a_splat),
		cmocka_unit_test(test_failed_test),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_empty_console),
		cmocka_unit_test(test_repeated_warning_once),
		cmocka_unit_test(test_known_tests),
		cmocka_unit_test(test_bug_on_names_file_line),
		cmocka_unit_test(test_die_headers),
		cmocka_unit_test(test_nul_byte_in_line),
		cmocka_unit_test(test_timeout_after_marker),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
