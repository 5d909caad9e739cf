// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-boot.c - "kmig boot": build a commit in kmig's own worktree and
 * boot it in QEMU with the guest tests.
 */
#include <getopt.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boottest.h"
#include "builtin.h"
#include "cmd-boot.h"
#include "debian.h"
#include "repo.h"
#include "runner.h"

static const char usage[] =
	"usage: kmig boot [REV] [--test NAME]... [--timeout S] [--keep-log]\n"
	"                 [--rebuild] [--accel tcg|kvm] [--retries N] [--runner kmig|lava]\n"
	"                 [--lava-identity NAME --artifact-url URL --artifact-dir DIR]\n"
	"       kmig boot --bases [options]\n"
	"\n"
	"Build REV (default: the tip of the branch 'kmig branch apply' made\n"
	"last, else HEAD of --repo) with the QEMU configuration\n"
	"(tinyconfig + qemu/kmig.config) in kmig's own worktree under\n"
	"$KMIG_HOME/work, never in your checkout, and boot it in QEMU with the\n"
	"guest tests.  The console is classified: the boot passes only if the\n"
	"guest finished, every test passed and the kernel printed no WARNING,\n"
	"BUG, Oops, panic, Call Trace, general protection fault, UBSAN or KASAN.\n"
	"Build and boot are recorded in the database.\n"
	"\n"
	"  --test NAME     run this guest test (repeatable; default: boot, rds)\n"
	"                  tests: boot, rds, hang (never finishes)\n"
	"  --timeout S     kill QEMU after S seconds (default 120): 'timeout'\n"
	"  --keep-log      keep the console log of a passing boot too\n"
	"  --rebuild       build REV even if its image was built before\n"
	"                  (incremental: only what changed is recompiled)\n"
	"  --accel A       tcg (default) or kvm (only when asked and usable)\n"
	"  --retries N     boot a failing kernel again, up to N times (0-10,\n"
	"                  default 0): one that passes on a retry is 'flaky'\n"
	"  --bases         build and boot the newest tag of each default kernel\n"
	"                  line in the repository (5.10 to 7.3: long, one build\n"
	"                  at a time) and print a 'base' line each; recorded\n"
	"                  for the dashboard's bases table\n"
	RUNNER_USAGE
	"\n"
	"Output: 'commit', 'build', the guest's KMIG-TEST lines, 'boot STATUS',\n"
	"then one 'finding:' line per finding and the kept 'console:' log.\n"
	"A boot that passed only on a retry prints 'boot flaky' with the failed\n"
	"attempt's finding and console.\n"
	"Exit status: 0 pass (flaky included), 1 boot or test failure (findings\n"
	"printed), 125 the kernel did not build (git bisect run skips it), 2\n"
	"error.  --bases: 0 when every base passed, else 1.\n";

/* --timeout S: whole seconds, at most a day. */
#define KMIG_MAX_TIMEOUT 86400

int boot_parse_common(const char *cmd, int c, const char *arg,
		      struct boot_args *a)
{
	unsigned long n;

	switch (c) {
	case 't':
		if (!qemu_test_known(arg))
			return cmd_usage_error(cmd, "unknown test '%s' (boot, rds, hang)",
					       arg);
		a->tests = xrealloc(a->tests, (a->ntests + 1) * sizeof(*a->tests));
		a->tests[a->ntests++] = arg;
		a->opts.tests = a->tests;
		a->opts.ntests = a->ntests;
		return 0;
	case 'T':
		if (opt_uint(cmd, "--timeout", arg, 1, KMIG_MAX_TIMEOUT, &n))
			return KMIG_EXIT_ERROR;
		a->opts.timeout = (double)n;
		return 0;
	case 'a':
		if (strcmp(arg, "tcg") && strcmp(arg, "kvm"))
			return cmd_usage_error(cmd, "--accel is tcg or kvm");
		a->opts.accel = arg;
		return 0;
	case 'k':
		a->opts.keep_log = true;
		return 0;
	case 'r':
		a->opts.rebuild = true;
		return 0;
	case 'R':
		if (opt_uint(cmd, "--retries", arg, 0, BOOT_MAX_RETRIES, &n))
			return KMIG_EXIT_ERROR;
		a->opts.retries = (unsigned)n;
		return 0;
	}
	return cmd_usage_error(cmd, "unknown option");
}

void boot_print_result(const struct boottest_result *r)
{
	const struct kbuild_result *b = &r->build;
	const struct qemu_verdict *v = &r->boot.verdict;

	printf("commit %s %s\n", b->commit, b->subject);
	if (b->cached)
		printf("build ok (image reused)\n");
	else
		printf("build %s %.1fs log %s\n",
		       b->status == KBUILD_OK ? "ok" : "failed", b->seconds,
		       b->log_path);
	if (r->outcome == BOOTTEST_BUILD_FAILED) {
		printf("finding: %s\n", boottest_first_finding(r));
		return;
	}
	if (v->tests)
		fputs(v->tests, stdout);
	if (r->outcome == BOOTTEST_FLAKY)
		printf("boot flaky %.1fs (passed on attempt %d; attempt 1: %s)\n",
		       r->boot.seconds, r->attempts, r->flaky_finding);
	else if (r->attempts > 1)
		printf("boot %s %.1fs (%d attempts)\n",
		       qemu_status_name(v->status), r->boot.seconds,
		       r->attempts);
	else
		printf("boot %s %.1fs\n", qemu_status_name(v->status),
		       r->boot.seconds);
	if (v->findings) {
		const char *p = v->findings;

		while (*p) {
			size_t n = strcspn(p, "\n");

			printf("finding: %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
	if (r->flaky_console)
		printf("console: %s (the failed attempt)\n", r->flaky_console);
	if (r->console_path)
		printf("console: %s\n", r->console_path);
}

void boot_note(void *data, enum kbuild_note kind, const char *msg)
{
	(void)data;
	if (kind == KBUILD_NOTE_PROGRESS && !progress_enabled())
		return;
	fprintf(stderr, "kmig: %s\n", msg);
}

void boot_warn_missing(const struct boottest_result *r)
{
	if (r->build.missing)
		fprintf(stderr, "kmig: warning: config options not set as qemu/kmig.config asks: %s\n",
			r->build.missing);
}

/* The newest tag "vX.Y[.Z]" of @line ("6.1") in @repo, or NULL. */
static char *newest_tag(git_repository *repo, const char *line)
{
	git_strarray tags = { NULL, 0 };
	char *pattern = xasprintf("v%s.*", line), *best = NULL, *best_key = NULL;
	size_t i;

	if (git_tag_list_match(&tags, pattern, repo))
		goto out_free;
	for (i = 0; i < tags.count; i++) {
		const char *t = tags.strings[i] + strlen(line) + 2;
		char *key;

		/* Point releases only: "v6.1.192", not "v6.1.192-rc1". */
		if (!*t || strspn(t, "0123456789") != strlen(t))
			continue;
		key = version_sort_key(tags.strings[i]);
		if (!best || strcmp(key, best_key) > 0) {
			free(best);
			free(best_key);
			best = xstrdup(tags.strings[i]);
			best_key = key;
		} else {
			free(key);
		}
	}
	git_strarray_dispose(&tags);
out_free:
	free(best_key);
	free(pattern);
	return best;
}

/* The guest's result line of @test ("PASS loopback ..."), or "-". */
static const char *test_line(const struct boottest_result *r, const char *test,
			     char *buf, size_t size)
{
	const char *p = r->boot.verdict.tests;
	size_t n = strlen(test);

	while (p && *p) {
		size_t len = strcspn(p, "\n");

		if (!strncmp(p, "KMIG-TEST ", 10) && !strncmp(p + 10, test, n) &&
		    p[10 + n] == ' ') {
			snprintf(buf, size, "%.*s", (int)(len - 11 - n),
				 p + 11 + n);
			return buf;
		}
		p += len + (p[len] == '\n');
	}
	return "-";
}

/*
 * kmig boot --bases: each default line's newest tag in turn; a 'base'
 * line per release at the end.  Exit 0 when all passed, else 1.
 */
static int boot_bases(struct kmig_ctx *ctx, const struct runner *rn,
		      struct kbuild *kb, struct store *st,
		      const struct boot_args *a)
{
	struct sbuf summary = SBUF_INIT;
	git_repository *repo = NULL;
	char *const *lines;
	size_t nlines, i;
	int status = KMIG_EXIT_OK;

	if (deb_default_lines(&lines, &nlines) ||
	    repo_open(&repo, ctx->repo_path))
		return cmd_fail_last(KMIG_EXIT_ERROR);
	for (i = 0; i < nlines; i++) {
		struct boottest_result r;
		char *tag = newest_tag(repo, lines[i]), buf[256];

		if (!tag) {
			sbuf_addf(&summary, "base v%s: no tag in the repository\n",
				  lines[i]);
			status = KMIG_EXIT_VERDICT;
			continue;
		}
		progress_note("kmig: base %s (%zu of %zu)\n", tag, i + 1,
			      nlines);
		if (runner_boottest_run(rn, kb, st, tag, &a->opts, &r)) {
			free(tag);
			status = cmd_fail_last(KMIG_EXIT_ERROR);
			goto out_repo;
		}
		boot_warn_missing(&r);
		printf("base %s\n", tag);
		boot_print_result(&r);
		if (store_base_boot(st, tag, r.build.commit, r.build_id,
				    r.boot_id)) {
			boottest_result_release(&r);
			free(tag);
			status = cmd_fail_last(KMIG_EXIT_ERROR);
			goto out_repo;
		}
		sbuf_addf(&summary, "base %s build %s", tag,
			  r.build.status == KBUILD_OK ? "ok" : "failed");
		if (r.build.cached)
			sbuf_addstr(&summary, " (image reused)");
		else
			sbuf_addf(&summary, " %.1fs", r.build.seconds);
		sbuf_addf(&summary, " boot %s rds %s\n",
			  boottest_outcome_name(r.outcome),
			  test_line(&r, "rds", buf, sizeof(buf)));
		if (r.outcome != BOOTTEST_PASS && r.outcome != BOOTTEST_FLAKY)
			status = KMIG_EXIT_VERDICT;
		boottest_result_release(&r);
		free(tag);
		fflush(stdout);
	}
	fputs(summary.buf ? summary.buf : "", stdout);
out_repo:
	git_repository_free(repo);
	sbuf_release(&summary);
	return status;
}

static int cmd_boot_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		BOOT_COMMON_LONGOPTS,
		BOOT_KEEP_LONGOPTS,
		RUNNER_LONGOPTS,
		BOOT_RETRY_LONGOPTS,
		{ "bases", no_argument, NULL, 'B' },
		{ NULL, 0, NULL, 0 },
	};
	struct boot_args a = { .opts = BOOTTEST_OPTS_INIT };
	struct runner rn = RUNNER_INIT;
	struct boottest_result r;
	struct kbuild *kb = NULL;
	struct store *st = NULL;
	const char *rev = NULL;
	char *branch = NULL, *tip = NULL, id[41];
	bool bases = false;
	int c, status;

	optind = 0;	/* 0: reinitialise getopt, which permutes again */
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == '?')
			status = cmd_bad_option("boot", argv);
		else if (runner_is_option(c))
			status = runner_set_option(&rn, c, optarg) ?
				 cmd_usage_error("boot", "%s", kmig_errmsg()) : 0;
		else if (c == 'B')
			status = 0, bases = true;
		else
			status = boot_parse_common("boot", c, optarg, &a);
		if (status)
			goto out_args;
	}
	if (runner_check(&rn)) {
		status = cmd_usage_error("boot", "%s", kmig_errmsg());
		goto out_args;
	}
	if (argc - optind > 1) {
		status = cmd_usage_error("boot", "at most one REV");
		goto out_args;
	}
	if (bases && optind < argc) {
		status = cmd_usage_error("boot", "--bases takes no REV");
		goto out_args;
	}
	if (optind < argc)
		rev = argv[optind];
	/* --accel kvm and --artifact-dir: before minutes of building */
	if (runner_check_host(&rn, a.opts.accel)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_args;
	}

	if (kbuild_open(&kb, ctx->home, ctx->repo_path, boot_note, NULL)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_args;
	}
	/* an unknown REV: an error before the database is created */
	if (rev && kbuild_resolve(kb, rev, id, NULL)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_kbuild;
	}
	if (store_open(&st, ctx->db_path)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_kbuild;
	}
	if (bases) {
		status = finish_stdout(boot_bases(ctx, &rn, kb, st, &a));
		goto out_store;
	}
	if (!rev) {
		/* The applied branch's tip (kmig branch apply), else HEAD. */
		rev = "HEAD";
		if (!store_branch_latest(st, &branch)) {
			tip = xasprintf("refs/heads/%s", branch);
			if (!kbuild_resolve(kb, tip, id, NULL))
				rev = tip;
		}
	}
	if (runner_boottest_run(&rn, kb, st, rev, &a.opts, &r)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_store;
	}
	boot_warn_missing(&r);
	boot_print_result(&r);
	switch (r.outcome) {
	case BOOTTEST_PASS:
	case BOOTTEST_FLAKY:
		status = KMIG_EXIT_OK;
		break;
	case BOOTTEST_BUILD_FAILED:
		status = KMIG_EXIT_SKIP;
		break;
	default:
		status = KMIG_EXIT_VERDICT;
		break;
	}
	boottest_result_release(&r);
	status = finish_stdout(status);
out_store:
	store_close(st);
out_kbuild:
	kbuild_close(kb);
out_args:
	free(branch);
	free(tip);
	free(a.tests);
	return status;
}

const struct kmig_cmd cmd_boot = {
	.name = "boot",
	.fn = cmd_boot_fn,
	.summary = "build a commit and boot it in QEMU with the guest tests",
	.usage = usage,
};
