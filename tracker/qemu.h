/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qemu.h - boot a kernel image in QEMU with kmig's guest tests and
 * classify its console.
 *
 * The guest is an initramfs (gzip-compressed newc cpio written by kmig)
 * holding /dev/console, a static /init compiled from qemu/init.c (cached
 * in $KMIG_HOME/guest/ by the source's hash) and /kmig-tests, the tests
 * to run, one a line.  /init prints "KMIG-TEST <name> PASS|FAIL <detail>"
 * per test and the final marker "KMIG-DONE", then reboots.
 *
 * QEMU runs as
 *	qemu-system-x86_64 -accel tcg -m 256 -nographic -no-reboot
 *	    -kernel IMAGE -initrd INITRD
 *	    -append QEMU_CMDLINE
 * in its own process group with the console on a file; on timeout, and
 * when kmig gets SIGINT/SIGTERM/SIGHUP, the group is killed (child.h).
 *
 * Usage (kmig boot, kmig bisect, kmig branch test):
 *
 *	struct qemu_opts o = QEMU_OPTS_INIT;
 *	struct qemu_result r;
 *
 *	o.kernel = res.image;			// from kbuild_commit()
 *	o.tests = names; o.ntests = n;		// NULL: qemu_default_tests
 *	o.console_path = "/path/console.log";
 *	qemu_boot(&o, &r);			// 0 unless QEMU cannot run
 *	r.verdict.status: QEMU_PASS / QEMU_FAIL / QEMU_TIMEOUT
 *	qemu_result_release(&r);
 *
 * All functions return 0 or negative with kmig_err() recorded.
 */
#ifndef KMIG_QEMU_H
#define KMIG_QEMU_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The guest kernel's command line.  no_timer_check: under TCG on a loaded
 * host the kernel's IO-APIC timer check can miss its ticks and panic
 * ("IO-APIC + timer doesn't work!"), a false boot failure; virtual
 * machines skip that check.  printk.devkmsg=on: the guest's /init writes
 * its KMIG- lines to /dev/kmsg, so that no kernel message printed at the
 * same time splits them (qemu/init.c), without /dev/kmsg's ratelimit.
 */
#define QEMU_CMDLINE_OPTS \
	"panic_on_warn=1 oops=panic no_timer_check printk.devkmsg=on"
#define QEMU_CMDLINE "console=ttyS0 panic=-1 " QEMU_CMDLINE_OPTS

/* Tests /init knows; the default set is every test but "hang". */
extern const char *const qemu_known_tests[];
extern const size_t qemu_nknown_tests;
extern const char *const qemu_default_tests[];
extern const size_t qemu_ndefault_tests;
/* qemu_test_known - true when /init has a test called @name. */
bool qemu_test_known(const char *name);

enum qemu_status {
	QEMU_PASS,
	QEMU_FAIL,
	QEMU_TIMEOUT,
};
/* "pass", "fail", "timeout": the boots.status values. */
const char *qemu_status_name(enum qemu_status s);

struct qemu_verdict {
	enum qemu_status status;
	bool marker;		/* the guest printed KMIG-DONE */
	char *findings;		/* one finding a line ('\n'-terminated), or
				 * NULL: splat first lines (with file:line as
				 * the kernel printed it), failed or missing
				 * tests, a missing marker */
	size_t nfindings;
	char *tests;		/* the guest's KMIG-TEST lines, or NULL */
};

/*
 * qemu_classify - classify a console log.  Pass only if the final marker
 * appears, each of @tests reported PASS and the console has none of
 * "WARNING:", "BUG:", "Oops", "Kernel panic", "Call Trace:",
 * "general protection fault", "UBSAN:", "KASAN:", "kernel BUG at " (BUG_ON()),
 * nor an x86 die header ("invalid opcode: 0000 [#1]").  @timed_out makes
 * the status QEMU_TIMEOUT (findings still filled in).  Cannot fail.
 */
void qemu_classify(const char *console, size_t len,
		   const char *const *tests, size_t ntests, bool timed_out,
		   struct qemu_verdict *v);
void qemu_verdict_release(struct qemu_verdict *v);

struct qemu_opts {
	const char *kernel;		/* bzImage */
	const char *const *tests;	/* NULL: qemu_default_tests */
	size_t ntests;
	double timeout;			/* seconds (default 120) */
	const char *accel;		/* "tcg" (default) or "kvm" */
	int memory_mb;			/* default 256 */
	const char *console_path;	/* where the console is written; the
					 * initramfs goes next to it, as
					 * initrd.cpio.gz */
	const char *home;		/* $KMIG_HOME: guest binary cache */
	/*
	 * the size the console may reach (0: QEMU_CONSOLE_MAX): a guest
	 * that prints more (a message storm) is stopped there, a finding
	 */
	unsigned long long console_max;
};
#define QEMU_OPTS_INIT { NULL, NULL, 0, 120, "tcg", 256, NULL, NULL, 0 }
/* 64 MiB: a boot's console is some 50 KB. */
#define QEMU_CONSOLE_MAX (64ULL << 20)

struct qemu_result {
	struct qemu_verdict verdict;
	double seconds;
};

/* The device --accel kvm needs (a variable for the unit tests). */
extern const char *qemu_kvm_device;
/*
 * qemu_accel_check - @accel ("tcg" or "kvm") can boot here: kvm needs
 * qemu_kvm_device readable and writable.  Only access() is asked: the
 * device is not opened (an open can block on a host whose KVM is
 * wedged).  Cheap, so that commands check it before hours of builds.
 * Returns 0, or KMIG_EUSAGE with the message recorded.
 */
int qemu_accel_check(const char *accel);

/*
 * qemu_boot - build the initramfs, boot @o->kernel and classify the
 * console: the one step "boot a built image with these tests and
 * classify its console" that every runner provides.  Returns 0 whatever
 * the guest did; negative only when the guest or QEMU could not be
 * started.
 *
 * Debug hook (kmig's flaky-boot fixture, documented in README): when
 * $KMIG_DEBUG_FAIL_BOOTS names a file holding a count N > 0, this boot's
 * guest reports its first test FAIL without running it ("failed on
 * purpose") and the file is rewritten with N - 1; a file that does not
 * hold a count is an error.  Unset or empty: no effect.
 */
int qemu_boot(const struct qemu_opts *o, struct qemu_result *r);
void qemu_result_release(struct qemu_result *r);

/*
 * qemu_initramfs - write the gzip-compressed initramfs running @tests to
 * @path (a "/init" compiled from qemu/init.c, cached under @home/guest);
 * @fail_test (or NULL) is the test /init fails on purpose (/kmig-fail).
 */
int qemu_initramfs(const char *home, const char *const *tests,
		   size_t ntests, const char *fail_test, const char *path);

#endif
