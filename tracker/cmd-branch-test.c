// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-branch-test.c - "kmig branch test": build and boot every applied
 * step of the conversion branch in QEMU, and compile-check the C files
 * each step touches under a wide configuration (allmodconfig), so that
 * conversions in drivers the QEMU kernel does not build still compile.
 * Dispatched from cmd-branch.c's subcommand table.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "boottest.h"
#include "branch.h"
#include "cmd-boot.h"
#include "kbuild.h"
#include "kmig.h"
#include "repo.h"
#include "runner.h"
#include "store.h"

/* Shown by "kmig branch test --help" and "kmig help branch test" (kmig.c). */
const char branch_test_usage[] =
	"usage: kmig branch test [--base TAG | --name BRANCH] [--test NAME]...\n"
	"                        [--timeout S] [--keep-log] [--rebuild]\n"
	"                        [--accel tcg|kvm] [--jobs N]\n"
	"                        [--no-compile-check | --compile-config x86_64|arm64|all]\n"
	"                        [--runner kmig|lava] [--lava-identity NAME\n"
	"                        --artifact-url URL --artifact-dir DIR]\n"
	"\n"
	"Build and boot every applied step of the conversion branch (default: the\n"
	"one 'kmig branch apply' made last) and compile-check the .c files each\n"
	"step touches (make W=1 FILE.o under x86_64 allmodconfig, then arm64\n"
	"allmodconfig with aarch64-linux-gnu-gcc for the files x86_64 cannot\n"
	"compile).  Each step ends pass, build-fail, boot-fail, compile-fail, or\n"
	"untested (it boots, but none of its .c files compiled under any\n"
	"configuration tried), shown by 'kmig branch status'.\n"
	"  --base TAG        the branch kmig/TAG\n"
	"  --name BRANCH     the branch BRANCH\n"
	"  --test NAME       run this guest test (repeatable; default: boot, rds)\n"
	"  --timeout S       kill QEMU after S seconds (default 120)\n"
	"  --keep-log        keep the console log of a passing boot too\n"
	"  --rebuild         build a step even if its image was built before\n"
	"  --accel A         tcg (default) or kvm\n"
	"  --no-compile-check  skip the W=1 compile check\n"
	"  --compile-config C  only this configuration of the compile check:\n"
	"                    x86_64, arm64 or all (default); not with\n"
	"                    --no-compile-check\n"
	"  --jobs N          build the steps in order and keep up to N boots\n"
	"                    running on the runner (default 1)\n"
	RUNNER_USAGE
	"Exit status: 0 no step failed (untested ones are listed), 1 some step\n"
	"failed, 2 error.\n";

/*
 * What "kmig branch test" does (usage above; cmd-branch.c dispatches here):
 *
 * For every applied step of the branch (default: the one 'kmig branch
 * apply' made last): build it with the QEMU configuration and boot it with
 * the guest tests (as 'kmig boot'), then compile-check the .c files the
 * step touches with 'make W=1 FILE.o' under allmodconfig (prepared once per
 * base; x86_64, then arm64 for files x86_64 cannot compile).  Each step
 * ends pass, build-fail, boot-fail, compile-fail or untested (booted, but
 * none of its .c files compiled under any configuration tried: a step is
 * never "pass" on the strength of a compile check that compiled nothing);
 * the result is recorded and shown by 'kmig branch status'.  Steps that did not
 * apply (upstream, superseded, conflict) are listed and not tested.
 * --test, --timeout, --keep-log, --rebuild and --accel are those of
 * 'kmig boot'.
 * Exit status: 0 no step failed, 1 some step failed, 2 error.
 */

/* The .c files a commit adds or modifies against its first parent. */
static int touched_c_files(git_repository *repo, const char *commit_hex,
			   char ***out, size_t *n)
{
	git_commit *commit = NULL, *parent = NULL;
	git_tree *new_tree = NULL, *old_tree = NULL;
	git_diff *diff = NULL;
	git_oid oid;
	size_t i, alloc = 0;
	int ret = 0;

	*out = NULL;
	*n = 0;
	if (git_oid_fromstr(&oid, commit_hex) < 0 ||
	    git_commit_lookup(&commit, repo, &oid) < 0 ||
	    git_commit_parent(&parent, commit, 0) < 0 ||
	    git_commit_tree(&new_tree, commit) < 0 ||
	    git_commit_tree(&old_tree, parent) < 0) {
		ret = kmig_err_git("cannot read step commit");
		goto out;
	}
	if (git_diff_tree_to_tree(&diff, repo, old_tree, new_tree, NULL) < 0) {
		ret = kmig_err_git("cannot diff step commit");
		goto out;
	}
	for (i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *p = d->new_file.path;
		size_t len = strlen(p);

		if (d->status == GIT_DELTA_DELETED || len < 3 ||
		    strcmp(p + len - 2, ".c"))
			continue;
		ALLOC_GROW(*out, *n + 1, alloc);
		(*out)[(*n)++] = xstrdup(p);
	}
out:
	git_diff_free(diff);
	git_tree_free(old_tree);
	git_tree_free(new_tree);
	git_commit_free(parent);
	git_commit_free(commit);
	return ret;
}

/*
 * test_step - build, boot and compile-check one step; *verdict is one of
 * the branch_steps.test_status values.
 */
static int test_step(struct kbuild *kb, struct store *st, git_repository *repo,
		     const struct branch_step *step, const struct boot_args *a,
		     const struct runner *rn,
		     unsigned int compile_check, const char **verdict,
		     struct sbuf *detail)
{
	struct boottest_result r;
	struct kbuild_result cr;
	char **files = NULL;
	size_t nfiles = 0;
	int ret;

	ret = runner_boottest_run(rn, kb, st, step->commit, &a->opts, &r);
	if (ret)
		return ret;
	boot_warn_missing(&r);
	switch (r.outcome) {
	case BOOTTEST_PASS:
		*verdict = "pass";
		sbuf_addf(detail, "boot %.1fs", r.boot.seconds);
		break;
	case BOOTTEST_BUILD_FAILED:
		*verdict = "build-fail";
		sbuf_addf(detail, "%s", boottest_first_finding(&r));
		break;
	default:
		*verdict = "boot-fail";
		sbuf_addf(detail, "%s", boottest_first_finding(&r));
		break;
	}
	boottest_result_release(&r);
	if (strcmp(*verdict, "pass") || !compile_check)
		return 0;

	ret = touched_c_files(repo, step->commit, &files, &nfiles);
	if (ret || !nfiles)
		goto out;
	ret = kbuild_compile_check(kb, step->base, step->commit,
				   (const char *const *)files, nfiles,
				   compile_check, &cr);
	if (ret)
		goto out;
	if (cr.status != KBUILD_OK) {
		*verdict = "compile-fail";
		sbuf_reset(detail);
		sbuf_addf(detail, "%s (log %s)", cr.error ? cr.error : "compile error",
			  cr.log_path ? cr.log_path : "-");
	} else {
		if (!cr.compiled)
			*verdict = "untested";
		sbuf_addf(detail, ", %zu of %zu file%s compiled (W=1, allmodconfig: %s)",
			  cr.compiled, cr.tried, plural(cr.tried),
			  cr.configs ? cr.configs : "none");
		if (cr.inherited)
			sbuf_addf(detail, "; not compilable at its parent either: %s",
				  cr.inherited);
	}
	kbuild_result_release(&cr);
out:
	free_strv(files, nfiles);
	return ret;
}

int branch_test(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "name", required_argument, NULL, 'n' },
		{ "no-compile-check", no_argument, NULL, 'C' },
		{ "compile-config", required_argument, NULL, 'c' },
		BOOT_COMMON_LONGOPTS,
		BOOT_KEEP_LONGOPTS,
		RUNNER_LONGOPTS,
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct boot_args a = { .opts = BOOTTEST_OPTS_INIT };
	struct runner rn = RUNNER_INIT;
	const char **revs = NULL;
	size_t nrevs = 0;
	unsigned long jobs;
	struct branch_steps steps = { 0 };
	struct kbuild *kb = NULL;
	struct store *st = NULL;
	git_repository *repo = NULL;
	const char *base = NULL, *bname = NULL;
	char *name = NULL;
	static const char *const configs[] = { "x86_64", "arm64", "all", NULL };
	static const unsigned int config_flags[] = {
		KBUILD_CHECK_X86_64, KBUILD_CHECK_ARM64, KBUILD_CHECK_ALL,
	};
	unsigned int compile_check = KBUILD_CHECK_ALL;
	bool no_check = false, check_config = false;
	size_t i, tested = 0, passed = 0, untested = 0;
	int c, ret, status = KMIG_EXIT_ERROR;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			base = optarg;
			break;
		case 'n':
			bname = optarg;
			break;
		case 'C':
			no_check = true;
			break;
		case 'c':
			c = parse_choice(optarg, configs);
			if (c < 0) {
				status = cmd_usage_error("branch test",
							 "unknown --compile-config '%s' (x86_64, arm64, all)",
							 optarg);
				goto out_args;
			}
			compile_check = config_flags[c];
			check_config = true;
			break;
		case 'j':
			if (opt_uint("branch test", "--jobs", optarg, 1, 64, &jobs))
				goto out_args;
			rn.jobs = (unsigned)jobs;
			break;
		case '?':
			status = cmd_bad_option("branch test", argv);
			goto out_args;
		default:
			if (runner_is_option(c)) {
				if (runner_set_option(&rn, c, optarg)) {
					status = cmd_usage_error("branch test", "%s",
								 kmig_errmsg());
					goto out_args;
				}
				break;
			}
			status = boot_parse_common("branch test", c, optarg, &a);
			if (status)
				goto out_args;
		}
	}
	if (optind < argc) {
		status = cmd_usage_error("branch test", "unexpected argument '%s'",
					 argv[optind]);
		goto out_args;
	}
	if (runner_check(&rn)) {
		status = cmd_usage_error("branch test", "%s", kmig_errmsg());
		goto out_args;
	}
	if (base && bname) {
		status = cmd_usage_error("branch test", "--base and --name exclude each other");
		goto out_args;
	}
	/* whichever came last would win: a check asked for and skipped, or not */
	if (no_check && check_config) {
		status = cmd_usage_error("branch test",
					 "--no-compile-check and --compile-config exclude each other");
		goto out_args;
	}
	if (no_check)
		compile_check = 0;
	/* --accel kvm and --artifact-dir: before the first build */
	if (runner_check_host(&rn, a.opts.accel)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_args;
	}
	if ((base && !*base) || (bname && !*bname)) {
		status = cmd_usage_error("branch test", "--%s needs a %s",
					 base ? "base" : "name",
					 base ? "tag" : "branch name");
		goto out_args;
	}
	/*
	 * The repository, the tag and the branch's steps first, the database
	 * read-only: a run that fails on them creates no database.
	 */
	if (repo_open(&repo, ctx->repo_path)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_args;
	}
	ret = store_open_readonly(&st, ctx->db_path);
	if (ret && ret != KMIG_ENOTFOUND) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_repo;
	}
	/* the branch as apply named it: kmig/TAG from a tag only, not HEAD */
	ret = branch_chosen(&name, repo, st, ctx->db_path, bname, base);
	if (ret == KMIG_EUSAGE) {
		status = cmd_usage_error("branch test", "--base %s", kmig_errmsg());
		goto out_repo;
	}
	if (ret) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_repo;
	}
	if (st && store_branch_steps(st, name, &steps)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_repo;
	}
	store_close(st);
	st = NULL;
	if (!steps.n) {
		status = cmd_fail(KMIG_EXIT_ERROR,
				  "no steps recorded for branch '%s' (run 'kmig branch apply')",
				  name);
		goto out_repo;
	}
	/* Results are written from here on. */
	if (kbuild_open(&kb, ctx->home, ctx->repo_path, boot_note, NULL) ||
	    store_open(&st, ctx->db_path)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_kbuild;
	}
	/* --jobs N: the applied steps, built in order, N boots at a time. */
	for (i = 0; rn.jobs > 1 && i < steps.n; i++)
		if (steps.v[i].commit && !strcmp(steps.v[i].status, "applied")) {
			revs = xrealloc(revs, (nrevs + 1) * sizeof(*revs));
			revs[nrevs++] = steps.v[i].commit;
		}
	if (nrevs)
		runner_plan(&rn, kb, st, revs, nrevs, &a.opts);
	for (i = 0; i < steps.n; i++) {
		const struct branch_step *s = &steps.v[i];
		struct sbuf detail = SBUF_INIT;
		const char *verdict;

		if (!s->commit || strcmp(s->status, "applied")) {
			printf("%04d %-12s %s (not applied: %s)\n", s->position, "-",
			       s->subject, s->status);
			continue;
		}
		progress_note("[%zu/%zu] testing %s\n", i + 1, steps.n, s->patch);
		if (test_step(kb, st, repo, s, &a, &rn, compile_check, &verdict, &detail) ||
		    store_branch_set_test(st, name, s->position, verdict)) {
			sbuf_release(&detail);
			status = cmd_fail(KMIG_EXIT_ERROR, "testing %s failed: %s",
					  s->patch, kmig_errmsg());
			goto out_kbuild;
		}
		tested++;
		passed += !strcmp(verdict, "pass");
		untested += !strcmp(verdict, "untested");
		printf("%04d %-12s %s: %s\n", s->position, verdict, s->subject,
		       detail.buf ? detail.buf : "");
		sbuf_release(&detail);
		fflush(stdout);
	}
	printf("%s: %zu step%s tested, %zu passed, %zu failed, %zu untested, %zu not applied\n",
	       name, tested, plural(tested), passed, tested - passed - untested, untested,
	       steps.n - tested);
	status = finish_stdout(passed + untested == tested ? KMIG_EXIT_OK :
			       KMIG_EXIT_VERDICT);
out_kbuild:
	runner_release(&rn);
	free(revs);
	kbuild_close(kb);
out_repo:
	git_repository_free(repo);
	branch_steps_clear(&steps);
	store_close(st);
	free(name);
out_args:
	free(a.tests);
	return status;
}
