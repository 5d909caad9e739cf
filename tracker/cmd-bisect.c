// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-bisect.c - "kmig bisect GOOD BAD": find the first commit whose
 * kernel fails to boot or fails a guest test, building and booting each
 * step in kmig's own worktree (never the user's checkout or bisect state).
 *
 * The candidates are the first-parent history from GOOD (excluded) to
 * BAD, as "git bisect --first-parent" would test them.  BAD is tested
 * first (it must fail, and its finding is needed if it is the answer);
 * GOOD is taken as good.  Each step tests the untested commit nearest the
 * middle of the range still open; a commit that does not build is
 * skipped, never judged bad.  When only skipped commits separate the last
 * good from the first bad, the answer is ambiguous and all are printed.
 *
 * A found commit is checked before it is named (KernelCI's checks): it is
 * booted --verify N more times and must fail each time with the same
 * class of finding; BAD with it reverted (a commit made in memory, see
 * kbuild_revert()) is built and booted N times and must pass each time
 * (a revert that conflicts is "n/a").  A commit failing a check is
 * "unreliable": reported as such, exit 1.  Every boot retries a failure
 * --retries times (default 1): a flaky pass is a pass.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "cmd-boot.h"
#include "datadir.h"
#include "recipients.h"
#include "repo.h"
#include "runner.h"

static const char usage[] =
	"usage: kmig bisect GOOD BAD [--test NAME]... [--timeout S] [--accel tcg|kvm]\n"
	"                   [--retries N] [--verify N] [--report FILE]\n"
	"                   [--runner kmig|lava] [--lava-identity NAME\n"
	"                   --artifact-url URL --artifact-dir DIR]\n"
	"\n"
	"Find the first commit between GOOD and BAD (first-parent history)\n"
	"whose kernel fails 'kmig boot' with the given tests (default: boot,\n"
	"rds).  Every step is built and booted in kmig's own worktree under\n"
	"$KMIG_HOME/work; your checkout and git bisect state are not touched.\n"
	"Commits that do not build are skipped.  The bisection and each step\n"
	"are recorded in the database; one killed (Ctrl-C, a timeout's SIGTERM,\n"
	"SIGKILL) reads 'interrupted' there once its kmig is gone.\n"
	"\n"
	"  --test NAME     guest test to run (repeatable)\n"
	"  --timeout S     QEMU timeout per boot (default 120); a timeout is bad\n"
	"  --accel A       tcg (default) or kvm\n"
	"  --retries N     boot a failing kernel again up to N times (0-10,\n"
	"                  default 1): a boot that passes on a retry is flaky,\n"
	"                  not bad\n"
	"  --verify N      check the found commit (1-10, default 2): boot it N\n"
	"                  more times, each must fail the same way; build BAD\n"
	"                  with it reverted and boot that N times, each must pass\n"
	"  --report FILE   write a plain-text report mail for the found commit\n"
	"                  (To/Cc: its author, trailer people and MAINTAINERS)\n"
	RUNNER_USAGE
	"  With --runner lava every boot is a LAVA job (the steps and the verify\n"
	"  and revert boots); a LAVA infrastructure error skips the step (as git\n"
	"  bisect's 125), never judges it bad.\n"
	"\n"
	"Output: one 'step N: good|bad|skip COMMIT SUBJECT' line per tested\n"
	"commit, the 'verify' and 'revert' runs, then 'first bad commit: ID\n"
	"SUBJECT', 'finding: LINE', 'checks: verify PASS|FAIL, revert\n"
	"PASS|FAIL|n/a' and the 'to:'/'cc:' recipients.  A commit that fails\n"
	"its checks is not named: 'unreliable: ...' with what failed.\n"
	"Exit status: 0 found, 1 ambiguous (only skipped commits left: they\n"
	"are listed) or unreliable, 2 error (including BAD passing or not\n"
	"building).\n";

/* --retries when not given: a flaky pass is a pass. */
#define BISECT_DEFAULT_RETRIES 1
/* --verify: at most this many runs per check. */
#define BISECT_MAX_VERIFY 10

enum verdict { V_UNKNOWN, V_GOOD, V_BAD, V_SKIP };
static const char *const verdict_names[] = {
	"unknown", "good", "bad", "skip",
};

struct candidate {
	char id[41];
	char *subject;
	enum verdict v;
	char *finding;
	char *console;		/* kept console log of a bad step, or NULL */
};

/* The first-parent commits of GOOD..BAD, oldest first. */
static int list_candidates(git_repository *repo, const char *good,
			   const char *bad, struct candidate **out, size_t *n)
{
	git_revwalk *walk = NULL;
	git_oid g, b, oid;
	size_t alloc = 0;
	int ret = 0;

	*out = NULL;
	*n = 0;
	if (git_oid_fromstr(&g, good) || git_oid_fromstr(&b, bad))
		return kmig_err("bad commit id");
	if (!git_oid_equal(&g, &b) && git_graph_descendant_of(repo, &b, &g) != 1)
		return kmig_err("GOOD %.12s is not an ancestor of BAD %.12s",
				good, bad);
	if (git_revwalk_new(&walk, repo) ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE) ||
	    git_revwalk_simplify_first_parent(walk) ||
	    git_revwalk_push(walk, &b) || git_revwalk_hide(walk, &g)) {
		ret = kmig_err_git("cannot walk the history");
		goto out_walk;
	}
	while (!(ret = git_revwalk_next(&oid, walk))) {
		git_commit *c;
		struct candidate *cand;

		if (git_commit_lookup(&c, repo, &oid)) {
			ret = kmig_err_git("cannot read a commit");
			goto out_walk;
		}
		ALLOC_GROW(*out, *n + 1, alloc);
		cand = &(*out)[(*n)++];
		memset(cand, 0, sizeof(*cand));
		git_oid_tostr(cand->id, sizeof(cand->id), &oid);
		cand->subject = xstrdup(git_commit_summary(c) ?
					git_commit_summary(c) : "");
		git_commit_free(c);
	}
	ret = ret == GIT_ITEROVER ? 0 : kmig_err_git("cannot walk the history");
	if (!ret && !*n)
		ret = kmig_err("nothing to bisect: BAD is GOOD");
out_walk:
	git_revwalk_free(walk);
	return ret;
}

static void free_candidates(struct candidate *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(c[i].subject);
		free(c[i].finding);
		free(c[i].console);
	}
	free(c);
}

/*
 * Next index to test in the open range (lo, hi), nearest its middle, or
 * -1 when the range is empty (hi is lo + 1: GOOD's child is bad, say) or
 * every commit in it is skipped.  lo is -1 for GOOD.  Only indexes
 * strictly between lo and hi are read.
 */
static long next_step(const struct candidate *c, long lo, long hi)
{
	long mid, d;

	if (hi - lo < 2)
		return -1;
	mid = lo + (hi - lo) / 2;	/* lo < mid < hi */
	for (d = 0; mid - d > lo || mid + d < hi; d++) {
		if (mid - d > lo && c[mid - d].v == V_UNKNOWN)
			return mid - d;
		if (mid + d < hi && c[mid + d].v == V_UNKNOWN)
			return mid + d;
	}
	return -1;
}

/* What the checks of a found commit did, for the output and report. */
struct checks {
	bool verify_ok;
	int verify_runs, verify_failed;	/* failed the same way */
	char *verify_note;		/* the first run that did not, or NULL */
	enum { REVERT_PASS, REVERT_FAIL, REVERT_NA } revert;
	int revert_runs, revert_passed;
	char *revert_note;
	char revert_id[41];
	char *line;			/* "verify PASS, revert n/a" */
};

static void checks_release(struct checks *k)
{
	free(k->verify_note);
	free(k->revert_note);
	free(k->line);
}

/*
 * One check boot of @rev on the bisect's runner @rn, so that the checks
 * judge with the runner the steps were judged with; *@r filled (caller
 * releases).
 */
static int check_boot(const struct runner *rn, struct kbuild *kb,
		      struct store *st, const char *rev,
		      const struct boot_args *a, struct boottest_result *r)
{
	if (runner_boottest_run(rn, kb, st, rev, &a->opts, r))
		return -1;
	boot_warn_missing(r);
	return 0;
}

/*
 * The checks of first bad commit @c (class of its finding @class) with
 * BAD @bad: prints a 'verify N/M' and 'revert N/M' line per run.
 */
static int run_checks(const struct runner *rn, struct kbuild *kb,
		      struct store *st, const struct boot_args *a,
		      unsigned nverify,
		      const struct candidate *c, const char *bad,
		      struct checks *k)
{
	const char *class_of = c->finding;
	char *want = boottest_finding_class(class_of);
	unsigned i;
	int ret = 0;

	memset(k, 0, sizeof(*k));
	for (i = 1; i <= nverify; i++) {
		struct boottest_result r;
		const char *how;
		char *cls;
		bool same;

		progress_note("kmig: verify %u/%u: %.12s\n", i, nverify, c->id);
		if (check_boot(rn, kb, st, c->id, a, &r)) {
			ret = -1;
			goto out_free;
		}
		cls = boottest_finding_class(boottest_first_finding(&r));
		same = (r.outcome == BOOTTEST_FAIL ||
			r.outcome == BOOTTEST_TIMEOUT) && !strcmp(cls, want);
		how = same ? "bad" : boottest_outcome_name(r.outcome);
		k->verify_runs++;
		k->verify_failed += same;
		printf("verify %u/%u: %s %s\n", i, nverify, how,
		       r.outcome == BOOTTEST_PASS || r.outcome == BOOTTEST_FLAKY ?
		       "(passed)" : boottest_first_finding(&r));
		if (!same && !k->verify_note)
			k->verify_note = xasprintf("verify run %u was %s, not '%s' (%s)",
						   i, how, want,
						   r.outcome == BOOTTEST_PASS ? "passed" :
						   boottest_first_finding(&r));
		free(cls);
		boottest_result_release(&r);
		fflush(stdout);
	}
	k->verify_ok = k->verify_failed == k->verify_runs;

	ret = kbuild_revert(kb, bad, c->id, k->revert_id);
	if (ret == KMIG_ECONFLICT) {
		k->revert = REVERT_NA;
		k->revert_note = xasprintf("reverting %.12s on %.12s conflicts",
					   c->id, bad);
		printf("revert: n/a (%s)\n", k->revert_note);
		ret = 0;
	} else if (ret) {
		goto out_free;
	} else {
		k->revert = REVERT_PASS;
		for (i = 1; i <= nverify; i++) {
			struct boottest_result r;
			bool ok;

			progress_note("kmig: revert %u/%u: %.12s with %.12s reverted\n",
				i, nverify, bad, c->id);
			if (check_boot(rn, kb, st, k->revert_id, a, &r)) {
				ret = -1;
				goto out_checkout;
			}
			ok = r.outcome == BOOTTEST_PASS || r.outcome == BOOTTEST_FLAKY;
			k->revert_runs++;
			k->revert_passed += ok;
			printf("revert %u/%u: %s %s\n", i, nverify,
			       boottest_outcome_name(r.outcome),
			       ok ? k->revert_id : boottest_first_finding(&r));
			if (!ok && !k->revert_note)
				k->revert_note = xasprintf("revert run %u (%.12s, BAD with %.12s reverted) was %s: %s",
							   i, k->revert_id, c->id,
							   boottest_outcome_name(r.outcome),
							   boottest_first_finding(&r));
			boottest_result_release(&r);
			fflush(stdout);
			if (!ok) {
				k->revert = REVERT_FAIL;
				if (r.outcome == BOOTTEST_BUILD_FAILED)
					break;	/* the same build every time */
			}
		}
		/* Leave the worktree on a commit of the repository. */
		ret = kbuild_checkout(kb, bad);
		if (ret)
			goto out_free;
	}
	k->line = xasprintf("verify %s, revert %s", k->verify_ok ? "PASS" : "FAIL",
			    k->revert == REVERT_PASS ? "PASS" :
			    k->revert == REVERT_FAIL ? "FAIL" : "n/a");
	goto out_free;
out_checkout:
	/* not left on the revert, which is no commit of the repository */
	kbuild_checkout(kb, bad);
out_free:
	free(want);
	return ret;
}

/*
 * The console lines around @finding in the log @path: five lines before
 * it to the end of its trace ("---[ end trace" or "---[ end Kernel
 * panic"), at most 80 lines (under panic_on_warn the panic and its own
 * trace follow the warning's, and a trace's "? frame" guesses vary from
 * boot to boot: at 40 the panic line was cut off); the last 30 lines
 * when the finding is no console line (a missing marker).
 */
static void console_excerpt(struct sbuf *out, const char *path,
			    const char *finding)
{
	struct sbuf log = SBUF_INIT;
	const char *hit = NULL, *p, *buf_end;
	int n;

	if (!path || sbuf_read_file(&log, path) || !log.buf) {
		sbuf_addstr(out, "  (no console log kept)\n");
		goto out_free;
	}
	buf_end = log.buf + log.len;
	if (*finding)
		hit = strstr(log.buf, finding);
	n = hit ? 6 : 31;
	/* Back to the start of the line, then n - 1 lines more. */
	for (p = hit ? hit : buf_end; p > log.buf; p--)
		if (p[-1] == '\n' && --n == 0)
			break;
	for (n = 0; p < buf_end && n < 80; n++) {
		size_t len = strcspn(p, "\n"), show = len;

		while (show && p[show - 1] == '\r')
			show--;
		sbuf_addf(out, "  %.*s\n", (int)show, p);
		if (hit && p > hit && (memmem(p, len, "---[ end trace", 14) ||
				       memmem(p, len, "---[ end Kernel panic", 21)))
			break;
		p += len + (p[len] == '\n');
	}
out_free:
	sbuf_release(&log);
}

/* The quoted argument @s for a shell command line. */
static void shell_arg(struct sbuf *sb, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789/._-+=:,@") == strlen(s)) {
		sbuf_addf(sb, " %s", s);
		return;
	}
	sbuf_addstr(sb, " '");
	for (; *s; s++) {
		if (*s == '\'')
			sbuf_addstr(sb, "'\\''");
		else
			sbuf_addch(sb, *s);
	}
	sbuf_addch(sb, '\'');
}

/*
 * The options that make a run boot what this one booted, on the same
 * runner; --retries unless it is @default_retries, the command's default.
 */
static void boot_options(struct sbuf *sb, const struct boot_args *a,
			 const struct runner *rn, unsigned default_retries)
{
	const char *const *tests = a->opts.tests ? a->opts.tests : qemu_default_tests;
	size_t n = a->opts.tests ? a->opts.ntests : qemu_ndefault_tests, i;

	for (i = 0; i < n; i++)
		sbuf_addf(sb, " --test %s", tests[i]);
	if (a->opts.timeout != 120)
		sbuf_addf(sb, " --timeout %.0f", a->opts.timeout);
	if (strcmp(a->opts.accel, "tcg"))
		sbuf_addf(sb, " --accel %s", a->opts.accel);
	if (a->opts.retries != default_retries)
		sbuf_addf(sb, " --retries %u", a->opts.retries);
	if (rn->kind == RUNNER_KMIG)
		return;
	sbuf_addf(sb, " --runner %s", runner_name(rn));
	if (rn->lava_identity) {
		sbuf_addstr(sb, " --lava-identity");
		shell_arg(sb, rn->lava_identity);
		sbuf_addstr(sb, " --artifact-url");
		shell_arg(sb, rn->artifact_url);
		sbuf_addstr(sb, " --artifact-dir");
		shell_arg(sb, rn->artifact_dir);
	}
}

/* Where the kernel booted, for the report: the runner and its QEMU. */
static void boot_setup(struct sbuf *sb, const struct boot_args *a,
		       const struct runner *rn)
{
	if (rn->kind == RUNNER_KMIG)
		sbuf_addf(sb, "QEMU: qemu-system-x86_64 -accel %s, kernel command line\n"
			  "\"%s\"\n", a->opts.accel, QEMU_CMDLINE);
	else if (!rn->lava_identity)
		sbuf_addf(sb, "LAVA: a lava-run job here, QEMU -accel %s, kernel command line\n"
			  "\"%s\"\n", a->opts.accel, lava_cmdline);
	else
		sbuf_addf(sb, "LAVA: a job on the lab of lavacli identity '%s', kernel\n"
			  "command line \"%s\"\n", rn->lava_identity, lava_cmdline);
}

struct report_args {
	const char *path;
	const char *repo_path;
	const char *good, *bad;
	const char *good_arg, *bad_arg;
	const struct candidate *c;
	const struct checks *k;
	const char *recipients;
	const char *author;
	int steps;
	unsigned nverify;
	const struct boot_args *a;
	const struct runner *rn;
};

/*
 * report_writable - can --report @path (NULL: none) be written once the
 * bisect is done?  Checked before hours of builds and boots: not a
 * directory, and in a directory this process can write.
 */
static int report_writable(const char *path)
{
	struct stat sb;
	bool exists;
	char *dir;
	int ret = 0;

	if (!path)
		return 0;
	exists = !stat(path, &sb);
	if (exists && S_ISDIR(sb.st_mode))
		return kmig_err("--report: '%s' is a directory", path);
	if (exists && access(path, W_OK) < 0)
		return kmig_err("--report: cannot write '%s': %s", path, strerror(errno));
	dir = path_parent(path);
	if (access(dir, W_OK) < 0)
		ret = kmig_err("--report: cannot write in '%s': %s", dir,
			       strerror(errno));
	free(dir);
	return ret;
}

/* The report mail, in the shape of the kernel test robot's. */
static int write_report(const struct report_args *ra)
{
	struct sbuf m = SBUF_INIT;
	char *cls = boottest_finding_class(ra->c->finding);
	const char *const *tests = ra->a->opts.tests ? ra->a->opts.tests :
				   qemu_default_tests;
	size_t ntests = ra->a->opts.tests ? ra->a->opts.ntests :
			qemu_ndefault_tests, i;
	FILE *f;
	int ret = 0;

	sbuf_addstr(&m, ra->recipients);
	sbuf_addf(&m, "Subject: [kmig bisect] %.12s: %s (\"%s\")\n", ra->c->id,
		  cls, ra->c->subject);
	sbuf_addstr(&m, "\nHello,\n\n");
	sbuf_addf(&m, "kmig bisect found that a QEMU boot with kmig's guest tests (");
	for (i = 0; i < ntests; i++)
		sbuf_addf(&m, "%s%s", i ? ", " : "", tests[i]);
	sbuf_addf(&m, ")\nfails with \"%s\" since:\n\n", cls);
	sbuf_addf(&m, "commit: %s (\"%s\")\n", ra->c->id, ra->c->subject);
	if (ra->author)
		sbuf_addf(&m, "author: %s\n", ra->author);
	sbuf_addf(&m, "good:   %s (%s)\nbad:    %s (%s)\n", ra->good,
		  ra->good_arg, ra->bad, ra->bad_arg);
	sbuf_addf(&m, "steps:  %d booted\n\n", ra->steps);
	sbuf_addf(&m, "finding: %s\n\n", ra->c->finding);
	sbuf_addf(&m, "checks: %s\n", ra->k->line);
	sbuf_addf(&m, "  verify: the commit failed the same way %d times of %d more boots\n",
		  ra->k->verify_failed, ra->k->verify_runs);
	if (ra->k->revert == REVERT_NA)
		sbuf_addf(&m, "  revert: n/a (%s)\n", ra->k->revert_note);
	else
		sbuf_addf(&m, "  revert: BAD with the commit reverted passed %d of %d boots\n",
			  ra->k->revert_passed, ra->k->revert_runs);
	sbuf_addstr(&m, "\nkernel: x86_64 \"make tinyconfig\" + kmig's qemu/kmig.config;\n");
	boot_setup(&m, ra->a, ra->rn);
	sbuf_addch(&m, '\n');
	sbuf_addstr(&m, "console (around the finding):\n\n");
	console_excerpt(&m, ra->c->console, ra->c->finding);
	sbuf_addstr(&m, "\nTo reproduce (kmig builds in its own worktree, never in your checkout):\n\n");
	sbuf_addstr(&m, "  kmig --repo");
	shell_arg(&m, ra->repo_path);
	sbuf_addf(&m, " boot %s", ra->c->id);
	boot_options(&m, ra->a, ra->rn, 0);
	sbuf_addstr(&m, "\n  kmig --repo");
	shell_arg(&m, ra->repo_path);
	sbuf_addf(&m, " bisect %s %s", ra->good, ra->bad);
	boot_options(&m, ra->a, ra->rn, BISECT_DEFAULT_RETRIES);
	sbuf_addf(&m, " --verify %u\n", ra->nverify);
	sbuf_addstr(&m, "\nThe first command exits 1 and prints the finding; the second repeats\n"
		    "this bisection and its checks.\n");
	f = fopen(ra->path, "w");
	if (!f || fwrite(m.buf, 1, m.len, f) != m.len) {
		ret = kmig_err("cannot write '%s': %s", ra->path, strerror(errno));
		if (f)
			fclose(f);
	} else if (fclose(f)) {
		ret = kmig_err("cannot write '%s': %s", ra->path, strerror(errno));
	}
	free(cls);
	sbuf_release(&m);
	return ret;
}

static int cmd_bisect_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		BOOT_COMMON_LONGOPTS,
		RUNNER_LONGOPTS,
		BOOT_RETRY_LONGOPTS,
		{ "verify", required_argument, NULL, 'V' },
		{ "report", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	struct boot_args a = { .opts = BOOTTEST_OPTS_INIT };
	struct runner rn = RUNNER_INIT;
	struct candidate *cand = NULL;
	git_repository *repo = NULL;
	struct kbuild *kb = NULL;
	struct store *st = NULL;
	struct checks k = { 0 };
	struct recipients rcpt = { 0 };
	char good[41], bad[41], *tests = NULL, *to = NULL, *author = NULL;
	char *config = NULL;
	const char *bisect_status = "error", *report = NULL;
	long lo, hi, i, first = -1;
	int64_t bisect_id = 0;
	unsigned long nverify = 2;
	int c, seq = 0, status, ret;
	size_t n = 0;

	a.opts.retries = BISECT_DEFAULT_RETRIES;
	optind = 0;	/* 0: reinitialise getopt, which permutes again */
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == '?')
			status = cmd_bad_option("bisect", argv);
		else if (runner_is_option(c))
			status = runner_set_option(&rn, c, optarg) ?
				 cmd_usage_error("bisect", "%s", kmig_errmsg()) : 0;
		else if (c == 'V')
			status = opt_uint("bisect", "--verify", optarg, 1,
					  BISECT_MAX_VERIFY, &nverify);
		else if (c == 'P' && !*optarg)
			status = cmd_usage_error("bisect", "--report needs a file name");
		else if (c == 'P')
			status = 0, report = optarg;
		else
			status = boot_parse_common("bisect", c, optarg, &a);
		if (status)
			goto out_args;
	}
	if (runner_check(&rn)) {
		status = cmd_usage_error("bisect", "%s", kmig_errmsg());
		goto out_args;
	}
	if (argc - optind != 2) {
		status = cmd_usage_error("bisect", "needs GOOD and BAD");
		goto out_args;
	}
	/* --accel kvm and --artifact-dir: before hours of builds and boots */
	if (runner_check_host(&rn, a.opts.accel)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_args;
	}
	if (kbuild_open(&kb, ctx->home, ctx->repo_path, boot_note, NULL) ||
	    repo_open(&repo, ctx->repo_path) ||
	    kbuild_resolve(kb, argv[optind], good, NULL) ||
	    kbuild_resolve(kb, argv[optind + 1], bad, NULL) ||
	    list_candidates(repo, good, bad, &cand, &n)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_repo;
	}
	/*
	 * What every step needs (the kernel configuration fragment and the
	 * guest of kmig's qemu/ directory, the report's place), before a
	 * bisect is recorded and started.
	 */
	config = datadir_file(DATADIR_QEMU, "kmig.config");
	if (!config || report_writable(report) || store_open(&st, ctx->db_path)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_repo;
	}
	tests = boottest_tests_str(&a.opts);
	if (store_bisect_start(st, good, bad, tests, &bisect_id)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_store;
	}
	progress_note("kmig: bisecting %zu commits (%.12s..%.12s)\n", n,
		      good, bad);

	/* BAD first, then halve (lo, hi): lo last good, hi first bad. */
	lo = -1;
	hi = (long)n - 1;
	for (i = hi; i >= 0; i = next_step(cand, lo, hi)) {
		struct boottest_result r;

		progress_note("kmig: bisect step %d: %.12s %s\n", seq + 1,
			      cand[i].id, cand[i].subject);
		ret = runner_boottest_run(&rn, kb, st, cand[i].id, &a.opts, &r);
		if (ret == RUNNER_EINFRA && i != (long)n - 1) {
			/* The lab failed, not the kernel: skip it (125). */
			cand[i].v = V_SKIP;
			cand[i].finding = xasprintf("LAVA infrastructure error: %s",
						    kmig_errmsg());
			fprintf(stderr, "kmig: %s\n", cand[i].finding);
		} else if (ret) {
			status = cmd_fail_last(KMIG_EXIT_ERROR);
			goto out_finish;
		} else {
			boot_warn_missing(&r);
			cand[i].v = r.outcome == BOOTTEST_PASS ||
				    r.outcome == BOOTTEST_FLAKY ? V_GOOD :
				    r.outcome == BOOTTEST_BUILD_FAILED ? V_SKIP : V_BAD;
			cand[i].finding = xstrdup(boottest_first_finding(&r));
			if (r.console_path)
				cand[i].console = xstrdup(r.console_path);
		}
		printf("step %d: %s %s %s\n", ++seq, verdict_names[cand[i].v],
		       cand[i].id, cand[i].subject);
		if (cand[i].v != V_GOOD && cand[i].v != V_SKIP)
			printf("  finding: %s\n", cand[i].finding);
		if (!ret && r.outcome == BOOTTEST_FLAKY)
			printf("  flaky: passed on attempt %d; attempt 1: %s\n",
			       r.attempts, r.flaky_finding);
		boottest_result_release(&r);
		fflush(stdout);
		if (store_bisect_step(st, bisect_id, seq, cand[i].id,
				      verdict_names[cand[i].v])) {
			status = cmd_fail_last(KMIG_EXIT_ERROR);
			goto out_finish;
		}
		if (i == (long)n - 1 && cand[i].v != V_BAD) {
			status = cmd_fail(KMIG_EXIT_ERROR, "BAD %.12s %s, nothing to bisect",
					  bad, cand[i].v == V_GOOD ? "passes" :
					  "does not build");
			goto out_finish;
		}
		if (cand[i].v == V_GOOD)
			lo = i;
		else if (cand[i].v == V_BAD)
			hi = i;
	}

	/* Everything between lo and hi is skipped: hi is the answer only
	 * when nothing lies between them. */
	if (hi != lo + 1) {
		bisect_status = "ambiguous";
		printf("first bad commit is one of (the others do not build):\n");
		for (i = lo + 1; i <= hi; i++)
			printf("%s %s\n", cand[i].id, cand[i].subject);
		printf("finding: %s\n", cand[hi].finding);
		status = finish_stdout(KMIG_EXIT_VERDICT);
		goto out_finish;
	}

	printf("candidate: %s %s\n", cand[hi].id, cand[hi].subject);
	fflush(stdout);
	if (run_checks(&rn, kb, st, &a, (unsigned)nverify, &cand[hi], bad, &k) ||
	    recipients_of_commit(repo, cand[hi].id, &rcpt)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_finish;
	}
	to = recipients_format(&rcpt);
	if (rcpt.nto)
		author = xstrdup(rcpt.to[0]);
	if (store_bisect_checks(st, bisect_id, k.line, to)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_finish;
	}
	if (!k.verify_ok || k.revert == REVERT_FAIL) {
		bisect_status = "unreliable";
		printf("unreliable: %.12s failed its checks (%s):", cand[hi].id,
		       k.line);
		if (k.verify_note)
			printf(" %s", k.verify_note);
		if (k.revert == REVERT_FAIL)
			printf("%s%s", k.verify_note ? "; " : " ", k.revert_note);
		printf("\n");
		printf("checks: %s\n", k.line);
		if (report)
			fprintf(stderr, "kmig: no report written: the result is unreliable\n");
		status = finish_stdout(KMIG_EXIT_VERDICT);
		first = hi;
		goto out_finish;
	}
	first = hi;
	bisect_status = "found";
	printf("first bad commit: %s %s\n", cand[first].id, cand[first].subject);
	printf("finding: %s\n", cand[first].finding);
	printf("checks: %s\n", k.line);
	for (i = 0; i < (long)rcpt.nto; i++)
		printf("to: %s\n", rcpt.to[i]);
	for (i = 0; i < (long)rcpt.ncc; i++)
		printf("cc: %s\n", rcpt.cc[i]);
	status = KMIG_EXIT_OK;
	if (report) {
		struct report_args ra = {
			.path = report, .repo_path = ctx->repo_path,
			.good = good, .bad = bad,
			.good_arg = argv[optind], .bad_arg = argv[optind + 1],
			.c = &cand[first], .k = &k, .recipients = to,
			.author = author, .steps = seq,
			.nverify = (unsigned)nverify, .a = &a, .rn = &rn,
		};

		if (write_report(&ra))
			status = cmd_fail_last(KMIG_EXIT_ERROR);
		else
			printf("report: %s\n", report);
	}
	status = finish_stdout(status);
out_finish:
	if (store_bisect_finish(st, bisect_id, bisect_status,
				first >= 0 ? cand[first].id : NULL,
				first >= 0 ? cand[first].finding :
				hi >= 0 && hi < (long)n ? cand[hi].finding : NULL) &&
	    status == KMIG_EXIT_OK)
		status = cmd_fail_last(KMIG_EXIT_ERROR);
out_store:
	free(tests);
	store_close(st);
out_repo:
	free(config);
	free(to);
	free(author);
	recipients_release(&rcpt);
	checks_release(&k);
	git_repository_free(repo);
	kbuild_close(kb);
	free_candidates(cand, n);
out_args:
	free(a.tests);
	return status;
}

const struct kmig_cmd cmd_bisect = {
	.name = "bisect",
	.fn = cmd_bisect_fn,
	.summary = "find the first commit that fails to boot or test in QEMU",
	.usage = usage,
};
