// SPDX-License-Identifier: GPL-2.0
/*
 * test-runner.c - the LAVA runner without a kernel: the job definition
 * and device description kmig writes pass lava-common's schema check
 * (skipped when lava-common is not installed), a broken one does not,
 * and job logs come back as kmig's verdict (lava_parse_log()), in
 * lava-run's format and in lavacli's --raw one.
 *
 * The log lines are abridged from real lava-run 2023.01 logs of a
 * kmig-built 7.3.4 kernel (a pass, a hang, a panic before init).
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

#include "runner.h"
#include "unit-util.h"
#include "util.h"

static const char *const both[] = { "boot", "rds" };

#define REC(lvl, msg) "{\"dt\": \"2026-12-03T20:14:26.593261\", \"lvl\": \"" lvl "\", \"msg\": " msg "}\n"
#define TARGET(s) REC("target", "\"" s "\"")
#define CASE(name, res) REC("results", "{\"case\": \"" name "\", \"definition\": \"kmig\", \"extra\": {\"test_case_id\": \"" name "\"}, \"level\": \"3.1\", \"result\": \"" res "\"}")
#define JOB_PASS REC("results", "{\"case\": \"job\", \"definition\": \"lava\", \"result\": \"pass\"}")
#define JOB_FAIL(type, msg) REC("results", "{\"case\": \"job\", \"definition\": \"lava\", \"error_msg\": \"" msg "\", \"error_type\": \"" type "\", \"result\": \"fail\"}")

static const char log_pass[] =
	REC("info", "\"start: 0 validate\"")
	/* not strict JSON: the "!" of a YAML tag */
	REC("results", "{\"case\": \"file-download\", \"definition\": \"lava\", \"extra\": {\"label\": \"kernel\", \"size\": ! \"2311168\"}, \"result\": \"pass\"}")
	TARGET("Booting from ROM..\\u001bc\\u001b[?7l\\u001b[2JLinux version 7.3.4 (kmig@kmig) #17")
	TARGET("Run /init as init process")
	TARGET("KMIG-START")
	TARGET("KMIG-TEST boot PASS user space reached on Linux 7.3.4")
	CASE("boot", "pass")
	TARGET("KMIG-TEST rds PASS loopback payload received, 12 sendmsg errno cases checked")
	CASE("rds", "pass")
	"{\"dt\": \"2026-12-03T20:14:26.690689\", \"lvl\": \"feedback\", \"msg\": \"KMIG-DONE tests=2 failed=0\", \"ns\": \"common\"}\n"
	REC("feedback", "\"reboot: Restarting system\"")
	JOB_PASS;

static char *tmp;

static int setup(void **state)
{
	(void)state;
	tmp = test_tmpdir();
	return tmp ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return test_tmpdir_remove(tmp);
}

static struct lava_job job(void)
{
	struct lava_job j = { .id = "kmig-test-1", .dir = tmp,
			      .kernel = "/k/bzImage", .initramfs = "/k/initrd",
			      .tests = both, .ntests = 2, .timeout = 120,
			      .commit = "d1ce70f9b5bce01c7f3549cd1b825b7373b74b8d",
			      .config_hash = "ced758765a8a203e7a3c4023f6f5c32dfd9fb3a7" };

	return j;
}

static int parse(const char *log, struct qemu_verdict *v)
{
	struct lava_job j = job();
	char *console = xasprintf("%s/console.log", tmp);
	int ret = lava_parse_log(log, strlen(log), &j, console, v);

	free(console);
	return ret;
}

static void test_schema(void **state)
{
	struct lava_job j = job();
	char *p = xasprintf("%s/job.yaml", tmp), *d = xasprintf("%s/device.yaml", tmp);
	struct sbuf sb = SBUF_INIT;

	(void)state;
	if (access("/usr/share/lava-common/lava-schema.py", R_OK)) {
		free(p);
		free(d);
		skip();
	}
	assert_int_equal(lava_write_job(&j, "file:///k/bzImage",
					"http://127.0.0.1:8000/a b/initrd", p), 0);
	assert_int_equal(lava_validate("job", p), 0);
	assert_int_equal(lava_write_device(d, "kvm"), 0);
	assert_int_equal(lava_validate("device", d), 0);
	assert_int_equal(sbuf_read_file(&sb, d), 0);
	assert_non_null(strstr(sb.buf, "- -accel kvm\n"));
	sbuf_release(&sb);
	assert_int_equal(lava_write_device(d, NULL), 0);
	assert_int_equal(lava_validate("device", d), 0);
	assert_int_equal(sbuf_read_file(&sb, d), 0);
	assert_non_null(strstr(sb.buf, "- -accel tcg\n"));
	sbuf_release(&sb);
	assert_int_equal(sbuf_read_file(&sb, p), 0);
	assert_non_null(strstr(sb.buf, "kmig.commit: \"d1ce70f9b5bce01c7f3549cd1b825b7373b74b8d\""));
	assert_non_null(strstr(sb.buf, "kmig.tests: \"boot,rds\""));
	assert_non_null(strstr(sb.buf, "panic=0 "));
	assert_null(strstr(sb.buf, "panic=-1"));
	sbuf_release(&sb);

	/* A job without actions is not one. */
	test_sh("printf 'job_name: x\\ndevice_type: qemu\\n' > '%s'", p);
	assert_int_equal(lava_validate("job", p), KMIG_EGENERIC);
	assert_non_null(strstr(kmig_errmsg(), "schema"));
	/* The device file is checked too. */
	test_sh("printf 'device_type: qemu\\n' > '%s'", d);
	assert_int_equal(lava_validate("device", d), KMIG_EGENERIC);
	free(p);
	free(d);
}

static void test_pass(void **state)
{
	struct qemu_verdict v;
	struct sbuf sb = SBUF_INIT;
	char *console = xasprintf("%s/console.log", tmp);

	(void)state;
	assert_int_equal(parse(log_pass, &v), 0);
	assert_int_equal(v.status, QEMU_PASS);
	assert_true(v.marker);
	assert_null(v.findings);
	assert_non_null(strstr(v.tests, "KMIG-TEST rds PASS"));
	/* The console is the target and feedback lines, escapes undone. */
	assert_int_equal(sbuf_read_file(&sb, console), 0);
	assert_non_null(strstr(sb.buf, "\033[2JLinux version 7.3.4"));
	assert_non_null(strstr(sb.buf, "KMIG-START\nKMIG-TEST boot PASS"));
	assert_null(strstr(sb.buf, "validate"));
	sbuf_release(&sb);
	free(console);
	qemu_verdict_release(&v);
}

static void test_lavacli_raw(void **state)
{
	/* lavacli jobs logs --raw: "- " and YAML's double-quoted escapes */
	static const char log[] =
		"- {\"dt\": \"2026-12-03T20:14:25.7\", \"lvl\": \"target\", \"msg\": \"\\e[2JLinux version 7.3.4\"}\n"
		"- " TARGET("KMIG-START")
		"- " TARGET("KMIG-TEST boot PASS user space reached")
		"- " CASE("boot", "pass")
		"- " TARGET("KMIG-TEST rds PASS \\\"quoted\\\" \\x41")
		"- " CASE("rds", "pass")
		"- " TARGET("KMIG-DONE tests=2 failed=0")
		"- " JOB_PASS;
	struct qemu_verdict v;

	(void)state;
	assert_int_equal(parse(log, &v), 0);
	assert_int_equal(v.status, QEMU_PASS);
	assert_non_null(strstr(v.tests, "PASS \"quoted\" A"));
	qemu_verdict_release(&v);
}

static void test_warning(void **state)
{
	static const char log[] =
		TARGET("KMIG-START")
		TARGET("KMIG-TEST boot PASS user space reached")
		CASE("boot", "pass")
		TARGET("WARNING: CPU: 0 PID: 1 at net/rds/rdma.c:564 rds_rdma_extra_size+0x117/0x130")
		TARGET("Kernel panic - not syncing: kernel: panic_on_warn set ...")
		TARGET("---[ end Kernel panic - not syncing: kernel: panic_on_warn set ... ]---")
		REC("results", "{\"case\": \"lava-test-monitor\", \"definition\": \"lava\", \"extra\": {\"status\": \"passed\"}, \"result\": \"pass\"}")
		JOB_PASS;
	struct qemu_verdict v;

	(void)state;
	/* LAVA says pass (the monitor ended at the panic); kmig does not. */
	assert_int_equal(parse(log, &v), 0);
	assert_int_equal(v.status, QEMU_FAIL);
	assert_non_null(v.findings);
	assert_int_equal(strncmp(v.findings, "WARNING: CPU: 0 PID: 1 at net/rds/rdma.c:564", 44), 0);
	assert_non_null(strstr(v.findings, "KMIG-TEST rds: no result"));
	qemu_verdict_release(&v);
}

static void test_timeout(void **state)
{
	static const char log[] =
		TARGET("KMIG-START")
		TARGET("KMIG-CASE hang sleeping forever")
		REC("results", "{\"case\": \"lava-test-monitor\", \"definition\": \"lava\", \"extra\": {\"fail\": \"lava-test-monitor timed out after 15 seconds\"}, \"result\": \"fail\"}")
		JOB_FAIL("Test", "lava-test-monitor timed out after 15 seconds");
	struct qemu_verdict v;

	(void)state;
	assert_int_equal(parse(log, &v), 0);
	assert_int_equal(v.status, QEMU_TIMEOUT);
	assert_non_null(strstr(v.findings, "timeout: the guest did not finish in time"));
	qemu_verdict_release(&v);
}

static void test_panic_before_init(void **state)
{
	static const char log[] =
		TARGET("Linux version 7.3.4 (kmig@kmig) #17")
		TARGET("Kernel panic - not syncing: No working init found.")
		TARGET("---[ end Kernel panic - not syncing: No working init found. ]---")
		JOB_FAIL("Job", "Kernel panic - not syncing: No working init found.\\r\\r\\nCPU: 0");
	struct qemu_verdict v;

	(void)state;
	assert_int_equal(parse(log, &v), 0);
	assert_int_equal(v.status, QEMU_FAIL);
	assert_int_equal(strncmp(v.findings, "Kernel panic - not syncing: No working init found.\n", 51), 0);
	qemu_verdict_release(&v);
}

static void test_missing_case(void **state)
{
	/* The console passes, but LAVA recorded no case for rds. */
	static const char log[] =
		TARGET("KMIG-START")
		TARGET("KMIG-TEST boot PASS user space reached")
		CASE("boot", "pass")
		TARGET("KMIG-TEST rds PASS loopback")
		TARGET("KMIG-DONE tests=2 failed=0")
		JOB_PASS;
	struct qemu_verdict v;

	(void)state;
	assert_int_equal(parse(log, &v), 0);
	assert_int_equal(v.status, QEMU_FAIL);
	assert_string_equal(v.findings, "LAVA test case rds: no result\n");
	qemu_verdict_release(&v);
}

static void test_infrastructure(void **state)
{
	static const char infra[] =
		TARGET("Linux version 7.3.4")
		JOB_FAIL("Infrastructure", "Connection closed");
	static const char config[] =
		JOB_FAIL("Configuration", "Constant failure_retry does not exist");
	static const char early[] =
		JOB_FAIL("Job", "None of the deployment strategies accepted your deployment parameters");
	static const char none[] = TARGET("KMIG-START") "not a record\n";
	struct qemu_verdict v;

	(void)state;
	assert_int_equal(parse(infra, &v), RUNNER_EINFRA);
	assert_non_null(strstr(kmig_errmsg(), "Infrastructure error: Connection closed"));
	assert_int_equal(parse(config, &v), RUNNER_EINFRA);
	/* A job error before any console output is LAVA's, not the kernel's. */
	assert_int_equal(parse(early, &v), RUNNER_EINFRA);
	assert_int_equal(parse(none, &v), RUNNER_EINFRA);
	assert_non_null(strstr(kmig_errmsg(), "no job result"));
}

static void test_options(void **state)
{
	struct runner rn = RUNNER_INIT;

	(void)state;
	assert_int_equal(runner_check(&rn), 0);
	assert_string_equal(runner_name(&rn), "kmig");
	assert_int_equal(runner_set_option(&rn, RUNNER_OPT_RUNNER, "qemu"), KMIG_EUSAGE);
	assert_int_equal(runner_set_option(&rn, RUNNER_OPT_IDENTITY, "lab"), 0);
	assert_int_equal(runner_check(&rn), KMIG_EUSAGE);	/* kmig runner */
	assert_int_equal(runner_set_option(&rn, RUNNER_OPT_RUNNER, "lava"), 0);
	assert_int_equal(runner_check(&rn), KMIG_EUSAGE);	/* no artifacts */
	assert_int_equal(runner_set_option(&rn, RUNNER_OPT_ARTIFACT_URL, "/srv"), KMIG_EUSAGE);
	assert_int_equal(runner_set_option(&rn, RUNNER_OPT_ARTIFACT_URL, "http://h/a"), 0);
	assert_int_equal(runner_set_option(&rn, RUNNER_OPT_ARTIFACT_DIR, "/srv/a"), 0);
	assert_int_equal(runner_check(&rn), 0);
	assert_string_equal(runner_name(&rn), "lava");
}

/* runner_check_host(): --accel kvm and --artifact-dir, before any build */
static void test_host(void **state)
{
	struct runner rn = RUNNER_INIT;
	const char *saved = qemu_kvm_device;
	char *file = xasprintf("%s/afile", tmp), *kvm = xasprintf("%s/kvm", tmp);
	char *sub = xasprintf("%s/afile/sub", tmp), *fresh = xasprintf("%s/new/dir", tmp);

	(void)state;
	test_sh("printf x > '%s' && printf '' > '%s'", file, kvm);
	assert_int_equal(runner_check_host(&rn, "tcg"), 0);
	assert_int_equal(runner_check_host(&rn, NULL), 0);
	assert_int_equal(qemu_accel_check("xyz"), KMIG_EUSAGE);

	/* kvm: access() of the device, never an open (a wedged KVM hangs it) */
	qemu_kvm_device = "/nonexistent/kvm";
	assert_int_equal(runner_check_host(&rn, "kvm"), KMIG_EUSAGE);
	assert_string_equal(kmig_errmsg(),
			    "--accel kvm: cannot use '/nonexistent/kvm': No such file or directory");
	rn.kind = RUNNER_LAVA;		/* lava-run here: QEMU here */
	assert_int_equal(runner_check_host(&rn, "kvm"), KMIG_EUSAGE);
	rn.lava_identity = "lab";	/* a lab: its workers' KVM */
	assert_int_equal(runner_check_host(&rn, "kvm"), 0);
	rn.lava_identity = NULL;
	rn.kind = RUNNER_KMIG;
	qemu_kvm_device = kvm;
	assert_int_equal(runner_check_host(&rn, "kvm"), 0);
	qemu_kvm_device = saved;

	rn.artifact_dir = file;
	assert_int_equal(runner_check_host(&rn, "tcg"), KMIG_EUSAGE);
	assert_non_null(strstr(kmig_errmsg(), "is not a directory"));
	rn.artifact_dir = sub;
	assert_int_equal(runner_check_host(&rn, "tcg"), KMIG_EUSAGE);
	assert_non_null(strstr(kmig_errmsg(), "Not a directory"));
	rn.artifact_dir = tmp;
	assert_int_equal(runner_check_host(&rn, "tcg"), 0);
	rn.artifact_dir = fresh;	/* made when the first job publishes */
	assert_int_equal(runner_check_host(&rn, "tcg"), 0);
	assert_int_equal(access(fresh, F_OK), -1);
	free(file);
	free(kvm);
	free(sub);
	free(fresh);
}

/* The lowest free file descriptor: a leaked one moves it up. */
static int next_fd(void)
{
	int fd = dup(2);

	assert_true(fd >= 0);
	close(fd);
	return fd;
}

/*
 * A file kmig cannot write (/dev/full: every write fails with ENOSPC) is
 * an error, and its stream is closed all the same: the console a job log
 * holds, and the kernel published for a remote job.  A write larger than
 * stdio's buffer fails in fwrite(), before fclose().
 */
static void test_write_errors(void **state)
{
	struct runner rn = RUNNER_INIT;
	struct lava_job j = job();
	struct qemu_verdict v;
	struct qemu_result r;
	struct sbuf log = SBUF_INIT;
	char *kernel = xasprintf("%s/bzImage", tmp);
	int fd = next_fd(), i;

	(void)state;
	for (i = 0; i < 400; i++)
		sbuf_addstr(&log, TARGET("KMIG-TEST boot PASS a console line long enough to fill stdio's buffer"));
	sbuf_addstr(&log, JOB_PASS);
	assert_true(lava_parse_log(log.buf, log.len, &j, "/dev/full", &v) < 0);
	assert_non_null(strstr(kmig_errmsg(), "cannot write '/dev/full'"));
	qemu_verdict_release(&v);
	assert_int_equal(next_fd(), fd);

	test_sh("head -c 65536 /dev/zero > '%s/bzImage' && mkdir -p '%s/pub/%s' && ln -s /dev/full '%s/pub/%s/bzImage'",
		tmp, tmp, j.id, tmp, j.id);
	j.kernel = kernel;
	rn.kind = RUNNER_LAVA;
	rn.lava_identity = "kmig-test";
	rn.artifact_url = "http://127.0.0.1:8000/kmig";
	rn.artifact_dir = xasprintf("%s/pub", tmp);
	assert_true(lava_run_job(&rn, &j, "/dev/null", &r) < 0);
	assert_non_null(strstr(kmig_errmsg(), "cannot write"));
	assert_non_null(strstr(kmig_errmsg(), "No space left on device"));
	qemu_result_release(&r);
	assert_int_equal(next_fd(), fd);
	free((char *)rn.artifact_dir);
	free(kernel);
	sbuf_release(&log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema),
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_lavacli_raw),
		cmocka_unit_test(test_warning),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_panic_before_init),
		cmocka_unit_test(test_missing_case),
		cmocka_unit_test(test_infrastructure),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_write_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
