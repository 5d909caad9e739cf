/* SPDX-License-Identifier: GPL-2.0 */
/*
 * boottest.h - build one commit, boot it in QEMU, record both: the step
 * shared by "kmig boot", "kmig bisect" and "kmig branch test".
 *
 *	struct boottest_opts o = BOOTTEST_OPTS_INIT;
 *	struct boottest_result r;
 *
 *	boottest_run(kb, st, "HEAD", &o, &r);	// kb from kbuild_open()
 *	switch (r.outcome) { ... }		// r.build, r.boot for details
 *	boottest_result_release(&r);
 *
 * The build is recorded in the builds table (a reused image reuses its
 * row), every boot attempt in the boots table.  With @retries, a boot
 * that fails (fail or timeout) is booted again, up to @retries more
 * times: one that passes on a retry is BOOTTEST_FLAKY (the passing
 * attempt recorded as "flaky"), not a failure; one that never passes
 * keeps its last attempt's outcome.  The console log is kept under the
 * work area's logs/ when the boot did not pass, or always with keep_log.
 * Nothing is printed (progress goes to the note callback of
 * kbuild_open(), see kbuild.h); returns 0 or negative with
 * kmig_err() recorded (a kernel that does not build or boot is not an
 * error).
 */
#ifndef KMIG_BOOTTEST_H
#define KMIG_BOOTTEST_H

#include <stdint.h>

#include "kbuild.h"
#include "qemu.h"
#include "store.h"

enum boottest_outcome {
	BOOTTEST_PASS,
	BOOTTEST_FAIL,		/* boot or test failure, findings */
	BOOTTEST_TIMEOUT,
	BOOTTEST_BUILD_FAILED,
	BOOTTEST_FLAKY,		/* failed, then passed on a retry */
};
/* "pass", "fail", "timeout", "build-failed", "flaky". */
const char *boottest_outcome_name(enum boottest_outcome o);

struct boottest_opts {
	const char *const *tests;	/* NULL: qemu_default_tests */
	size_t ntests;
	double timeout;			/* seconds */
	const char *accel;		/* "tcg" or "kvm" */
	bool keep_log;			/* keep the console of passing boots */
	bool rebuild;			/* build even if an image exists */
	unsigned retries;		/* boots again after a failure */
};
#define BOOTTEST_OPTS_INIT { NULL, 0, 120, "tcg", false, false, 0 }

struct boottest_result {
	enum boottest_outcome outcome;
	struct kbuild_result build;
	struct qemu_result boot;	/* the last attempt, when built */
	char *console_path;		/* kept console log, or NULL */
	int64_t build_id, boot_id;	/* rows; boot_id 0 when not booted */
	int attempts;			/* boots done (0: not booted) */
	char *flaky_finding;		/* BOOTTEST_FLAKY: the first finding
					 * of the first failed attempt */
	char *flaky_console;		/* ... and its kept console log */
};

int boottest_run(struct kbuild *kb, struct store *st, const char *rev,
		 const struct boottest_opts *o, struct boottest_result *r);

/*
 * boottest_boot_fn - boot the built image of @r (r->build.image) once with
 * the tests of @o, the console to r->console_path, the result into
 * r->boot: where a runner boots (runner.c).  0 whatever the kernel did,
 * negative on an error (with kmig_err() recorded), which ends the run.
 */
typedef int boottest_boot_fn(void *data, struct kbuild *kb,
			     const struct boottest_opts *o,
			     struct boottest_result *r);
/*
 * boottest_run_on - boottest_run() booting each attempt with @boot(@data,
 * ...) instead of QEMU here: the same build, retries, flaky verdict,
 * console logs and rows whatever the runner.  An error of @boot on a
 * retry ends the run with it (the attempts before stay recorded).
 */
int boottest_run_on(struct kbuild *kb, struct store *st, const char *rev,
		    const struct boottest_opts *o, boottest_boot_fn *boot,
		    void *data, struct boottest_result *r);
/*
 * boottest_boot_qemu - the boottest_boot_fn of QEMU on this machine (what
 * boottest_run() boots with; @data and @kb unused).
 */
int boottest_boot_qemu(void *data, struct kbuild *kb,
		       const struct boottest_opts *o,
		       struct boottest_result *r);
void boottest_result_release(struct boottest_result *r);

/* boottest_first_finding - the first finding line (static copy), or "". */
const char *boottest_first_finding(const struct boottest_result *r);

/*
 * boottest_finding_class - the class of finding line @finding (caller
 * frees): the splat kind and the file it names ("WARNING in
 * net/rds/rdma.c", "BUG", "Kernel panic"), "KMIG-TEST rds FAIL" for a
 * failed guest test, "timeout", "no marker", or the line itself.  Two
 * runs fail "the same way" when their first findings have one class.
 */
char *boottest_finding_class(const char *finding);

/*
 * boottest_record_build - the builds row of @r->build into @r->build_id:
 * a reused (cached) image reuses the row of its commit and configuration,
 * anything else gets a new row.  0 or negative with kmig_err() recorded.
 * Also for the runners that build but boot elsewhere (runner.h).
 */
int boottest_record_build(struct store *st, struct boottest_result *r);

/*
 * boottest_console_path - a new path for a console log of a boot of
 * @commit under @kb's logs/ (caller frees): the commit, the time, the
 * process and a number of this process's own, so two boots of one commit
 * within a second (a bisection's boot of its bad commit and then the
 * verify run's) keep their logs apart.
 */
char *boottest_console_path(struct kbuild *kb, const char *commit);

/* boottest_tests_str - the tests as "a,b" (caller frees). */
char *boottest_tests_str(const struct boottest_opts *o);

#endif
