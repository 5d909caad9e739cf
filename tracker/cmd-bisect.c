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
 */
#include <getopt.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cmd-boot.h"
#include "repo.h"
#include "runner.h"

static const char usage[] =
	"usage: kmig bisect GOOD BAD [--test NAME]... [--timeout S] [--accel tcg|kvm]\n"
	"                  [--runner kmig|lava] [--lava-identity NAME\n"
	"                  --artifact-url URL --artifact-dir DIR]\n"
	"\n"
	"Find the first commit between GOOD and BAD (first-parent history)\n"
	"whose kernel fails 'kmig boot' with the given tests (default: boot,\n"
	"rds).  Every step is built and booted in kmig's own worktree under\n"
	"$KMIG_HOME/work; your checkout and git bisect state are not touched.\n"
	"Commits that do not build are skipped.  The bisection and each step\n"
	"are recorded in the database.\n"
	"\n"
	"  --test NAME     guest test to run (repeatable)\n"
	"  --timeout S     QEMU timeout per boot (default 120); a timeout is bad\n"
	"  --accel A       tcg (default) or kvm\n"
	RUNNER_USAGE
	"                  a LAVA infrastructure error skips the step (as git\n"
	"                  bisect's 125), never judges it bad\n"
	"\n"
	"Output: one 'step N: good|bad|skip COMMIT SUBJECT' line per tested\n"
	"commit, then 'first bad commit: ID SUBJECT' and 'finding: LINE'.\n"
	"Exit status: 0 found, 1 ambiguous (only skipped commits left: they\n"
	"are listed), 2 error (including BAD passing or not building).\n";

enum verdict { V_UNKNOWN, V_GOOD, V_BAD, V_SKIP };
static const char *const verdict_names[] = {
	"unknown", "good", "bad", "skip",
};

struct candidate {
	char id[41];
	char *subject;
	enum verdict v;
	char *finding;
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
	}
	free(c);
}

/*
 * Next index to test in the open range (lo, hi), nearest its middle, or
 * -1 when every commit in it is skipped.  lo is -1 for GOOD.
 */
static long next_step(const struct candidate *c, long lo, long hi)
{
	long mid = lo + (hi - lo) / 2, d;

	for (d = 0; d < hi - lo; d++) {
		if (mid - d > lo && c[mid - d].v == V_UNKNOWN)
			return mid - d;
		if (mid + d < hi && c[mid + d].v == V_UNKNOWN)
			return mid + d;
	}
	return -1;
}

static int cmd_bisect_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		BOOT_COMMON_LONGOPTS,
		RUNNER_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct boot_args a = { .opts = BOOTTEST_OPTS_INIT };
	struct runner rn = RUNNER_INIT;
	struct candidate *cand = NULL;
	git_repository *repo = NULL;
	struct kbuild *kb = NULL;
	struct store *st = NULL;
	char good[41], bad[41], *tests = NULL;
	const char *bisect_status = "error";
	long lo, hi, i, first = -1;
	int64_t bisect_id = 0;
	int c, seq = 0, status, ret;
	size_t n = 0;

	optind = 0;	/* 0: reinitialise getopt, which permutes again */
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == '?')
			status = cmd_bad_option("bisect", argv);
		else if (runner_is_option(c))
			status = runner_set_option(&rn, c, optarg) ?
				 cmd_usage_error("bisect", "%s", kmig_errmsg()) : 0;
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
	if (kbuild_open(&kb, ctx->home, ctx->repo_path, boot_note, NULL) ||
	    repo_open(&repo, ctx->repo_path) ||
	    kbuild_resolve(kb, argv[optind], good, NULL) ||
	    kbuild_resolve(kb, argv[optind + 1], bad, NULL) ||
	    list_candidates(repo, good, bad, &cand, &n)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_repo;
	}
	if (store_open(&st, ctx->db_path)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_repo;
	}
	tests = boottest_tests_str(&a.opts);
	if (store_bisect_start(st, good, bad, tests, &bisect_id)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_store;
	}
	fprintf(stderr, "kmig: bisecting %zu commits (%.12s..%.12s)\n", n,
		good, bad);

	/* BAD first, then halve (lo, hi): lo last good, hi first bad. */
	lo = -1;
	hi = (long)n - 1;
	for (i = hi; i >= 0; i = next_step(cand, lo, hi)) {
		struct boottest_result r;

		fprintf(stderr, "kmig: bisect step %d: %.12s %s\n", seq + 1,
			cand[i].id, cand[i].subject);
		ret = runner_boottest_run(&rn, kb, st, cand[i].id, &a.opts, &r);
		if (ret == RUNNER_EINFRA && i != (long)n - 1) {
			/* The lab failed, not the kernel: skip it (125). */
			cand[i].v = V_SKIP;
			cand[i].finding = xasprintf("LAVA infrastructure error: %s",
						    kmig_errmsg());
			fprintf(stderr, "kmig: %s\n", cand[i].finding);
			boottest_result_release(&r);
		} else if (ret) {
			status = cmd_fail_last(KMIG_EXIT_ERROR);
			goto out_finish;
		} else {
			boot_warn_missing(&r);
			cand[i].v = r.outcome == BOOTTEST_PASS ? V_GOOD :
				    r.outcome == BOOTTEST_BUILD_FAILED ? V_SKIP : V_BAD;
			cand[i].finding = xstrdup(boottest_first_finding(&r));
			boottest_result_release(&r);
		}
		printf("step %d: %s %s %s\n", ++seq, verdict_names[cand[i].v],
		       cand[i].id, cand[i].subject);
		if (cand[i].v != V_GOOD && cand[i].v != V_SKIP)
			printf("  finding: %s\n", cand[i].finding);
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
	if (hi == lo + 1) {
		first = hi;
		bisect_status = "found";
		printf("first bad commit: %s %s\n", cand[first].id,
		       cand[first].subject);
		printf("finding: %s\n", cand[first].finding);
		status = KMIG_EXIT_OK;
	} else {
		bisect_status = "ambiguous";
		printf("first bad commit is one of (the others do not build):\n");
		for (i = lo + 1; i <= hi; i++)
			printf("%s %s\n", cand[i].id, cand[i].subject);
		printf("finding: %s\n", cand[hi].finding);
		status = KMIG_EXIT_VERDICT;
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
