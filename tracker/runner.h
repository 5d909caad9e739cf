/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runner.h - where a built kernel boots: kmig's own QEMU run (qemu.h) or
 * a LAVA job (runner-lava.c), run locally with lava-run or on a remote
 * lab with lavacli.  Either way the verdict is kmig's: the console goes
 * through qemu_classify(), so a WARNING, BUG, Oops or panic fails alike.
 *
 *	struct runner rn = RUNNER_INIT;
 *	struct boottest_result r;
 *
 *	runner_set_option(&rn, RUNNER_OPT_RUNNER, "lava");	// --runner lava
 *	runner_boottest_run(&rn, kb, st, "HEAD", &opts, &r);	// as boottest_run()
 *	boottest_result_release(&r);
 *
 * With LAVA, each boot is one job with its own id and directory under
 * the work area's lava/ (job.yaml, device.yaml, the initramfs, lava-run's
 * output directory and its log lava.log): the job definition carries the
 * kernel, the initramfs, the command line, the timeouts and the metadata
 * (commit, configuration hash, expected tests); both files are checked
 * with lava-common's lava-schema.py before the job runs.
 *
 * A LAVA infrastructure error (lava-run or lavacli failing, an
 * Infrastructure, Configuration, Bug or Canceled job error, a job that
 * never reached the kernel) is RUNNER_EINFRA, never a verdict.
 * All functions return 0 or negative with kmig_err() recorded.
 */
#ifndef KMIG_RUNNER_H
#define KMIG_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "boottest.h"

enum runner_kind {
	RUNNER_KMIG,		/* qemu_boot(), today's runner */
	RUNNER_LAVA,		/* a LAVA job */
};

struct runner {
	enum runner_kind kind;
	const char *lava_identity;	/* lavacli identity: remote; NULL: local
					 * lava-run */
	const char *artifact_url;	/* remote: URL of artifact_dir as the
					 * lab's workers fetch it */
	const char *artifact_dir;	/* remote: where kmig publishes the
					 * kernel and initramfs */
	unsigned jobs;			/* boots in flight for runner_plan() */
	struct runner_queue *q;		/* runner_plan()'s, private */
};
#define RUNNER_INIT { RUNNER_KMIG, NULL, NULL, NULL, 1, NULL }

/* Returned for a LAVA infrastructure error (the message is recorded). */
#define RUNNER_EINFRA (-20)

/*
 * The options of the commands that boot (getopt_long values above any
 * character): --runner kmig|lava, --lava-identity NAME, --artifact-url
 * URL, --artifact-dir DIR.
 */
enum {
	RUNNER_OPT_RUNNER = 0x1100,
	RUNNER_OPT_IDENTITY,
	RUNNER_OPT_ARTIFACT_URL,
	RUNNER_OPT_ARTIFACT_DIR,
};
#define RUNNER_LONGOPTS							\
	{ "runner", required_argument, NULL, RUNNER_OPT_RUNNER },	\
	{ "lava-identity", required_argument, NULL, RUNNER_OPT_IDENTITY }, \
	{ "artifact-url", required_argument, NULL, RUNNER_OPT_ARTIFACT_URL }, \
	{ "artifact-dir", required_argument, NULL, RUNNER_OPT_ARTIFACT_DIR }
/* The usage lines of those options, for the commands' --help. */
#define RUNNER_USAGE							\
	"  --runner R      where kernels boot: kmig (default, QEMU here) or\n" \
	"                  lava (a LAVA job: lava-run here, lavacli with\n" \
	"                  --lava-identity)\n"				\
	"  --lava-identity NAME  submit the jobs to this 'lavacli identities' lab\n" \
	"  --artifact-url URL    where the lab's workers fetch --artifact-dir\n" \
	"  --artifact-dir DIR    where kmig publishes each job's kernel and\n" \
	"                  initramfs (removed when the job is over)\n"

/* runner_is_option - @c is one of the RUNNER_LONGOPTS values. */
static inline bool runner_is_option(int c)
{
	return c >= RUNNER_OPT_RUNNER && c <= RUNNER_OPT_ARTIFACT_DIR;
}

/*
 * runner_set_option - apply option @c with value @arg (kept, not
 * copied).  Returns 0, or KMIG_EUSAGE with the message recorded.
 */
int runner_set_option(struct runner *rn, int c, const char *arg);

/*
 * runner_check - the options fit together (a remote lab needs
 * --artifact-url and --artifact-dir, these only go with
 * --lava-identity, which needs --runner lava).  Returns 0 or KMIG_EUSAGE.
 */
int runner_check(const struct runner *rn);

/*
 * runner_check_host - what the boots need here, checked before any
 * build: --accel @accel usable where QEMU runs here (the kmig runner and
 * a local lava-run; a lab's workers are the lab's), and --artifact-dir a
 * directory kmig can write or create.  Returns 0 or KMIG_EUSAGE.
 */
int runner_check_host(const struct runner *rn, const char *accel);

/* runner_name - "kmig" or "lava". */
const char *runner_name(const struct runner *rn);

/*
 * runner_boottest_run - boottest_run() on @rn: build @rev, boot it on
 * the runner, record build and boot.  With RUNNER_KMIG it is
 * boottest_run(); with RUNNER_LAVA each attempt is a LAVA job, retried
 * (@o->retries), judged flaky and recorded the same way
 * (boottest_run_on()).  Returns 0 whatever the kernel did, RUNNER_EINFRA
 * on a LAVA infrastructure error (the build is recorded, that attempt
 * is not),
 * other negative codes as boottest_run(); on an error of the LAVA runner
 * or of a planned boot, @r is already released.
 */
int runner_boottest_run(const struct runner *rn, struct kbuild *kb,
			struct store *st, const char *rev,
			const struct boottest_opts *o,
			struct boottest_result *r);

/*
 * runner_plan - announce that runner_boottest_run() will be called for
 * @revs[0..@n) in this order with @o (kept, not copied; @kb and @st too):
 * each call then builds ahead, in order, and keeps up to @rn->jobs boots
 * running in the background (each in a process of its own, with its own
 * directory, under the work area's boots/, which is emptied first: a
 * killed kmig's are left there), returning the results in order.  A
 * planned boot is not
 * retried (@o->retries is not used: kmig branch test has no --retries).  A call for another
 * revision runs alone, as without a plan.  Returns 0.
 */
int runner_plan(struct runner *rn, struct kbuild *kb, struct store *st,
		const char *const *revs, size_t n,
		const struct boottest_opts *o);
/*
 * runner_release - end the plan: boots still running are killed and
 * reaped, their files removed.  @rn can be planned again.
 */
void runner_release(struct runner *rn);

/* ---- the LAVA runner (runner-lava.c) ---- */

/* One boot as a LAVA job. */
struct lava_job {
	const char *id;			/* job id, unique per work area */
	const char *dir;		/* the job's directory (exists) */
	const char *kernel;		/* absolute paths */
	const char *initramfs;
	const char *const *tests;	/* expected KMIG-TEST names */
	size_t ntests;
	double timeout;			/* seconds, boot and tests each */
	const char *accel;		/* local QEMU: "tcg" or "kvm" */
	const char *commit;		/* metadata */
	const char *config_hash;
};

/*
 * lava_cmdline - the kernel command line of LAVA boots: kmig's, with
 * panic=0 (LAVA's panic check must see the panic; panic=-1 with
 * -no-reboot ends QEMU first, which LAVA calls an infrastructure error).
 */
extern const char lava_cmdline[];

/*
 * lava_write_job - write the job definition of @j to @path, fetching the
 * kernel from @kernel_url and the initramfs from @initrd_url.
 */
int lava_write_job(const struct lava_job *j, const char *kernel_url,
		   const char *initrd_url, const char *path);
/* lava_write_device - the local QEMU device description to @path, QEMU
 * with -accel @accel ("tcg" unless "kvm"). */
int lava_write_device(const char *path, const char *accel);
/*
 * lava_validate - check @path against LAVA's schema: @kind "job" or
 * "device" (lava-schema.py of lava-common).  Returns 0, KMIG_EGENERIC when
 * the file is invalid (its first complaint recorded), RUNNER_EINFRA when
 * the checker cannot run.
 */
int lava_validate(const char *kind, const char *path);

/*
 * lava_parse_log - read a LAVA job log (lava-run's stdout, or
 * "lavacli jobs logs --raw": one record a line, "- " in front) and turn
 * it into kmig's verdict for @j: the target and feedback lines are the
 * console (written to @console_path), classified by qemu_classify(); each
 * expected test must have a LAVA test case "pass"; a job timeout is
 * QEMU_TIMEOUT.  Returns 0, or RUNNER_EINFRA when the log shows an
 * infrastructure error or no job result.
 */
int lava_parse_log(const char *log, size_t len, const struct lava_job *j,
		   const char *console_path, struct qemu_verdict *v);

/*
 * lava_run_job - write, validate and run @j: with @rn->lava_identity on
 * the lab through lavacli (the kernel and initramfs copied into
 * @rn->artifact_dir/ID/), else with lava-run here; then parse its log
 * (lava.log in the job's directory).  Returns 0 with @r filled in,
 * RUNNER_EINFRA or negative.
 */
int lava_run_job(const struct runner *rn, const struct lava_job *j,
		 const char *console_path, struct qemu_result *r);

#endif
