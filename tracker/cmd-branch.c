// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-branch.c - the conversion branch: apply the series to a release,
 * report its status, replay it on another release, export it back.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <fnmatch.h>

#include "branch.h"
#include "child.h"
#include "lexer.h"
#include "rules.h"
#include "builtin.h"
#include "datadir.h"
#include "repo.h"
#include "series.h"
#include "store.h"

#define DEFAULT_BASE "v6.1.192"

static const char usage[] =
	"usage: kmig branch apply [--base TAG] [--series DIR] [--name BRANCH] [--stop-on-conflict]\n"
	"                         [--force]\n"
	"       kmig branch status [--base TAG | --name BRANCH | --matrix] [--format text|csv|json]\n"
	"       kmig branch rebase --onto TAG [--series DIR] [--name BRANCH] [--stop-on-conflict]\n"
	"                          [--force]\n"
	"       kmig branch export [--base TAG] [--name BRANCH] [--series DIR | --send DIR]\n"
	"       kmig branch test [--base TAG | --name BRANCH] [--test NAME]... [--timeout S]\n"
	"                        [--no-compile-check]\n"
	"\n"
	"The conversion branch: the patch series in DIR (default: ./branch-patches,\n"
	"else the branch-patches directory next to the kmig binary) applied to a\n"
	"release of the kernel repository, one commit per patch, on the branch\n"
	"BRANCH (default kmig/<TAG>; TAG defaults to the newest scanned release,\n"
	"the main base, or " DEFAULT_BASE " before any scan).  A base that is no\n"
	"tag (HEAD, a commit id, v6.1~1) needs --name.  No working tree, index\n"
	"or HEAD is touched.\n"
	"\n"
	"apply    (re)create BRANCH at TAG and apply the series in order.  Each patch\n"
	"         is applied (a commit keeping the patch's author, date and message\n"
	"         plus a Kmig-Patch: trailer), or classified with per-hunk evidence:\n"
	"           upstream    the tree already has the change (reverse-applies,\n"
	"                       or same patch-id as a commit reachable from TAG)\n"
	"           superseded  every tracked deprecated use it removes is gone\n"
	"           conflict    anything else (skipped; --stop-on-conflict stops)\n"
	"         Every step is recorded in the database.  Exit 1 when a patch\n"
	"         conflicts.  A BRANCH with commits made on it since kmig's last\n"
	"         apply (git commit, --amend) is an error unless the series gives\n"
	"         its tree on its base (they were exported: 'kmig branch export';\n"
	"         then rebase --onto another TAG --name BRANCH goes on too);\n"
	"         --force re-creates it anyway (the old tip stays in its reflog).\n"
	"status   one line per patch (position, status, commit, file, subject)\n"
	"         and a summary line; the newest applied branch by default.\n"
	"         --matrix: patches x bases, the step of each patch on the branch\n"
	"         kmig/<TAG> of every scanned release (status[:test]; JSON with\n"
	"         the evidence), the newest release (the main base) last.\n"
	"rebase   the same series on another release: apply with --base TAG.\n"
	"export   write the branch's commits back to DIR as format-patch files\n"
	"         (named by their Kmig-Patch: trailer) and rewrite DIR/series,\n"
	"         all or nothing: a failed export leaves DIR as it was.  The\n"
	"         diffstats are git format-patch's (72 columns, renames, modes).\n"
	"         --send DIR: ready for git send-email instead: [PATCH n/N] files\n"
	"         with To: (M:/R:) and Cc: (L:) of the MAINTAINERS sections of the\n"
	"         files each touches, as the base's scripts/get_maintainer.pl\n"
	"         --no-git gives, a base-commit: line, no Kmig-* trailers, and a\n"
	"         0000-cover-letter.patch (the rules' deprecated.rst reasons, uses\n"
	"         removed per rule, the diffstat, each step's test result).\n"
	"         A *.patch file of DIR it does not write is an error.\n"
	"test     build and boot every applied step in QEMU and compile-check the\n"
	"         C files it touches under x86_64, then arm64 allmodconfig; records\n"
	"         pass, build-fail, boot-fail, compile-fail or untested (nothing of\n"
	"         it compiled under any configuration tried).\n";

enum { FMT_TEXT, FMT_CSV, FMT_JSON };

struct branch_opts {
	const char *base;
	const char *name;
	const char *series;
	const char *onto;
	const char *send;
	int fmt;
	bool stop_on_conflict;
	bool matrix;
	bool force;
};

/* The options each subcommand takes: their codes in parse_opts(). */
static const struct {
	const char *sub, *takes;
} sub_opts[] = {
	{ "apply", "bnsSF" },
	{ "rebase", "onsSF" },
	{ "status", "bnmf" },
	{ "export", "bnsx" },
};

static int parse_opts(struct branch_opts *o, const char *sub, int argc,
		      char **argv)
{
	static const struct option opts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "name", required_argument, NULL, 'n' },
		{ "series", required_argument, NULL, 's' },
		{ "onto", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "stop-on-conflict", no_argument, NULL, 'S' },
		{ "force", no_argument, NULL, 'F' },
		{ "matrix", no_argument, NULL, 'm' },
		{ "send", required_argument, NULL, 'x' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "text", "csv", "json", NULL };
	const char *takes = "";
	int opt, index;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sub_opts); i++)
		if (!strcmp(sub_opts[i].sub, sub))
			takes = sub_opts[i].takes;
	memset(o, 0, sizeof(*o));
	optind = 0;
	while ((opt = getopt_long(argc, argv, "", opts, &index)) != -1) {
		if (opt != '?' && !strchr(takes, opt))
			return cmd_usage_error("branch", "--%s is not an option of 'kmig branch %s'",
					       opts[index].name, sub);
		switch (opt) {
		case 'b':
			o->base = optarg;
			break;
		case 'n':
			o->name = optarg;
			break;
		case 's':
			o->series = optarg;
			break;
		case 'o':
			o->onto = optarg;
			break;
		case 'f':
			o->fmt = parse_choice(optarg, formats);
			if (o->fmt < 0)
				return cmd_usage_error("branch", "unknown format '%s'", optarg);
			break;
		case 'S':
			o->stop_on_conflict = true;
			break;
		case 'F':
			o->force = true;
			break;
		case 'm':
			o->matrix = true;
			break;
		case 'x':
			o->send = optarg;
			break;
		default:
			return cmd_usage_error("branch", "%s: unknown option or missing value '%s'",
					       sub, argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cmd_usage_error("branch", "unexpected argument '%s'", argv[optind]);
	if (cmd_empty_value("branch", "--base", o->base, "a revision") ||
	    cmd_empty_value("branch", "--name", o->name, "a branch name") ||
	    cmd_empty_value("branch", "--onto", o->onto, "a tag") ||
	    cmd_empty_value("branch", "--series", o->series, "a directory") ||
	    cmd_empty_value("branch", "--send", o->send, "a directory"))
		return KMIG_EXIT_ERROR;
	/* both name the branch (export takes --base as the base of --name's) */
	if (o->base && o->name && !strcmp(sub, "status"))
		return cmd_usage_error("branch", "--base and --name exclude each other");
	if (o->series && o->send)
		return cmd_usage_error("branch", "--series and --send exclude each other");
	return 0;
}

/*
 * name_fail - the exit status of branch_name_for()'s or branch_chosen()'s
 * error @ret: a base that is no tag (given as --@opt) is a usage error.
 */
static int name_fail(int ret, const char *opt)
{
	if (ret == KMIG_EUSAGE)
		return cmd_usage_error("branch", "--%s %s", opt, kmig_errmsg());
	return cmd_fail_last(KMIG_EXIT_ERROR);
}

/*
 * open_steps - the database read-only into *@st, NULL when there is none
 * yet: status, --matrix and export only read steps, and nothing to read
 * is no reason to create it.
 */
static int open_steps(struct store **st, const char *db_path)
{
	int ret = store_open_readonly(st, db_path);

	return ret == KMIG_ENOTFOUND ? 0 : ret;
}

/*
 * open_branch - for status and export: the repository into *@repo when
 * @need_repo (--base names a branch only through it), the database
 * read-only into *@st (NULL when there is none), the branch --name or
 * --base names into *@name and its recorded steps into *@steps (none
 * without a database).  0, or the exit status once the error is said;
 * the caller frees what was set either way.
 */
static int open_branch(struct kmig_ctx *ctx, const struct branch_opts *o,
		       bool need_repo, git_repository **repo, struct store **st,
		       char **name, struct branch_steps *steps)
{
	int ret;

	if (open_steps(st, ctx->db_path) ||
	    (need_repo && repo_open(repo, ctx->repo_path)))
		return cmd_fail_last(KMIG_EXIT_ERROR);
	ret = branch_chosen(name, *repo, *st, ctx->db_path, o->name, o->base);
	if (ret)
		return name_fail(ret, "base");
	if (*st && store_branch_steps(*st, *name, steps))
		return cmd_fail_last(KMIG_EXIT_ERROR);
	return 0;
}

/*
 * main_base - the newest imported (scanned) release of the database, the
 * default base; DEFAULT_BASE when none was scanned (or the database
 * cannot be read: the command reports that itself).  malloc'd.
 */
static char *main_base(const char *db_path)
{
	struct release_info *rel = NULL;
	struct store *st = NULL;
	char *tag = NULL;
	size_t n = 0;

	if (!store_open_readonly(&st, db_path) && !store_releases(st, &rel, &n) && n)
		tag = xstrdup(rel[n - 1].tag);
	release_infos_free(rel, n);
	store_close(st);
	return tag ? tag : xstrdup(DEFAULT_BASE);
}

/* ---- apply / rebase ---- */

struct counts {
	size_t n[BRANCH__COUNT];
};

static void print_evidence(const char *ev)
{
	const char *p = ev;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		printf("    %.*s\n", (int)n, p);
		p = nl ? nl + 1 : NULL;
	}
}

static int current_branch_guard(git_repository *repo, const char *ref)
{
	git_reference *head = NULL, *branch = NULL;
	int ret = 0;

	if (git_repository_head_unborn(repo) != 1 && !git_repository_is_bare(repo) &&
	    !git_reference_lookup(&head, repo, "HEAD") &&
	    git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	    !strcmp(git_reference_symbolic_target(head), ref))
		ret = kmig_err("'%s' is the current branch; kmig never rewrites it", ref);
	/* or the branch of another worktree (git worktree add) */
	else if (!git_reference_lookup(&branch, repo, ref) &&
		 git_branch_is_checked_out(branch) == 1)
		ret = kmig_err("'%s' is checked out in a worktree; kmig never rewrites it",
			       ref);
	git_reference_free(branch);
	git_reference_free(head);
	return ret;
}

/*
 * series_gives - does the series (@patches, @n of them) give @want on
 * @base, each patch that applies applied in order?
 */
static int series_gives(bool *yes, git_repository *repo, git_commit *base,
			const struct mbox_patch *patches, size_t n,
			const git_oid *want)
{
	git_tree *tree = NULL, *next;
	size_t i;
	int ret = 0;

	*yes = false;
	if (git_commit_tree(&tree, base) < 0)
		return kmig_err_git("cannot read tree");
	for (i = 0; !ret && i < n; i++) {
		ret = branch_apply_tree(&next, repo, tree, &patches[i]);
		if (!ret && next) {
			git_tree_free(tree);
			tree = next;
		}
	}
	if (!ret)
		*yes = git_oid_equal(git_tree_id(tree), want);
	git_tree_free(tree);
	return ret;
}

static char *strip_kmig_trailers(const char *message);

/* @s without its trailing blanks and newlines: messages compared so. */
static size_t trimmed_len(const char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n;
}

/*
 * messages_exported - is the message of every commit from @tip back to
 * @stop (first parents, @stop excluded) that of a patch of the series
 * (@patches), Kmig-* trailers aside?  A message amended on the branch (a
 * Reviewed-by added) and not exported is not, though the tree is.
 */
static int messages_exported(bool *yes, git_commit *tip, const git_oid *stop,
			     const struct mbox_patch *patches, size_t npatches)
{
	char **want = xcalloc(npatches ? npatches : 1, sizeof(*want));
	git_commit *c = NULL, *parent;
	size_t i, steps = 0;
	int ret = 0;

	*yes = true;
	for (i = 0; i < npatches; i++) {
		char *m = mbox_message(&patches[i]);

		want[i] = strip_kmig_trailers(m);
		free(m);
	}
	if (git_commit_dup(&c, tip) < 0) {
		ret = kmig_err_git("cannot read commit");
		goto out_free;
	}
	while (*yes && !git_oid_equal(git_commit_id(c), stop)) {
		char *have;
		size_t n;

		if (git_commit_parentcount(c) == 0 || ++steps > npatches) {
			*yes = false;	/* not on @stop, or more commits */
			break;
		}
		have = strip_kmig_trailers(git_commit_message(c));
		n = trimmed_len(have);
		for (i = 0; i < npatches; i++)
			if (want[i] && trimmed_len(want[i]) == n &&
			    !memcmp(want[i], have, n))
				break;
		*yes = i < npatches;
		free(have);
		if (git_commit_parent(&parent, c, 0) < 0) {
			ret = kmig_err_git("cannot read commit");
			break;
		}
		git_commit_free(c);
		c = parent;
	}
	git_commit_free(c);
out_free:
	for (i = 0; i < npatches; i++)
		free(want[i]);
	free(want);
	return ret;
}

/*
 * edited_branch_guard - an error when the branch @refname exists and its
 * tip is not where the last apply of it left it (@old, its recorded
 * steps: the commit of its last applied step, else its base) and its
 * tree is not that of @next, the tip this apply made on @base, nor the
 * one the series (@patches) gives on the branch's own base (rebased
 * elsewhere after an export), or a commit's message is no patch's:
 * commits made on it with git since (a fix on top, an amend, a trailer
 * added) and not exported to the series would leave the branch.  With no steps recorded (another database) there is nothing
 * to compare: 0.
 */
static int edited_branch_guard(git_repository *repo, const char *refname,
			       const char *name, const struct branch_steps *old,
			       git_commit *base_now, git_commit *next,
			       const struct mbox_patch *patches, size_t npatches)
{
	git_reference *ref = NULL;
	git_commit *base = NULL, *cur = NULL, *old_base = NULL;
	bool exported = false;
	char have_hex[13], want_hex[13];
	const char *hex = NULL;
	const git_oid *tip;
	git_oid want;
	size_t i;
	int ret = 0;

	if (!old->n)
		return 0;
	if (git_reference_lookup(&ref, repo, refname) < 0) {
		git_error_clear();	/* no branch: nothing on it */
		return 0;
	}
	for (i = old->n; i-- > 0 && !hex;)
		hex = old->v[i].commit;
	if (hex) {
		if (git_oid_fromstr(&want, hex) < 0)
			goto out_free;
	} else if (repo_resolve_commit(&base, repo, old->v[0].base)) {
		goto out_free;		/* its base is gone: cannot tell */
	} else {
		git_oid_cpy(&want, git_commit_id(base));
	}
	tip = git_reference_target(ref);
	if (!tip || git_oid_equal(tip, &want))
		goto out_free;		/* where the last apply left it */
	/*
	 * edited, and exported: the series gives the same tree, and has
	 * the message of each of its commits
	 */
	if (git_commit_lookup(&cur, repo, tip) < 0)
		goto refuse;
	if (repo_resolve_commit(&old_base, repo, old->v[0].base)) {
		/* its base is gone: the tree alone tells */
		if (git_oid_equal(git_commit_tree_id(cur),
				  git_commit_tree_id(next)))
			goto out_free;
		goto refuse;
	}
	ret = messages_exported(&exported, cur, git_commit_id(old_base),
				patches, npatches);
	if (ret)
		goto out_free;
	if (exported &&
	    git_oid_equal(git_commit_tree_id(cur), git_commit_tree_id(next)))
		goto out_free;
	/* ... on the branch's own base, when this apply is on another */
	if (exported &&
	    !git_oid_equal(git_commit_id(old_base), git_commit_id(base_now))) {
		ret = series_gives(&exported, repo, old_base, patches, npatches,
				   git_commit_tree_id(cur));
		if (ret || exported)
			goto out_free;
	}
refuse:
	/*
	 * the new tip has the old one (a base tag that moved on since an
	 * apply that applied nothing): no commit of the branch is lost
	 */
	if (git_oid_equal(tip, git_commit_id(next)) ||
	    git_graph_descendant_of(repo, git_commit_id(next), tip) == 1)
		goto out_free;
	git_oid_tostr(have_hex, sizeof(have_hex), tip);
	git_oid_tostr(want_hex, sizeof(want_hex), &want);
	ret = kmig_err("'%s' has commits kmig did not make (tip %s, its last apply left %s): export them to the series first ('kmig branch export --name %s'); --force re-creates it anyway",
		       name, have_hex, want_hex, name);
out_free:
	git_error_clear();
	git_commit_free(old_base);
	git_commit_free(cur);
	git_commit_free(base);
	git_reference_free(ref);
	return ret;
}

/* The state of one "kmig branch apply" run. */
struct apply_run {
	git_repository *repo;
	git_commit *base, *tip;
	struct store *st;
	const char *name, *base_tag;
	char *cname, *cemail;
	struct branch_steps old;	/* the steps of the previous apply */
	struct counts c;
};

/*
 * kept_test - the test result of the previous apply's step at @position
 * when it made the same commit @hex on the same base, else NULL.
 */
static char *kept_test(const struct apply_run *r, int position, const char *hex)
{
	size_t i;

	for (i = 0; i < r->old.n; i++) {
		const struct branch_step *s = &r->old.v[i];

		if (s->position == position && s->commit && *hex &&
		    !strcmp(s->commit, hex) && !strcmp(s->base, r->base_tag))
			return s->test_status;
	}
	return NULL;
}

/*
 * read_patches - every patch of @series into *@out (@series->n of them;
 * free with free_patches()), before anything is changed: a series with a
 * missing or unreadable patch leaves the branch and its recorded steps
 * (and their test results) as they were.
 */
static int read_patches(struct mbox_patch **out, const struct series *series)
{
	struct mbox_patch *v = xcalloc(series->n ? series->n : 1, sizeof(*v));
	struct stat *st = xcalloc(series->n ? series->n : 1, sizeof(*st));
	size_t i;
	int ret = 0;

	if (!series->n)
		ret = kmig_err("the series in '%s' lists no patch", series->dir);
	for (i = 0; !ret && i < series->n; i++) {
		char *path = series_path(series, series->names[i]);
		bool known = !stat(path, &st[i]);
		size_t k;

		/* the same file by another name too ("./0001-x.patch") */
		for (k = 0; !ret && k < i; k++)
			if (!strcmp(series->names[k], series->names[i]) ||
			    (known && st[k].st_dev == st[i].st_dev &&
			     st[k].st_ino == st[i].st_ino))
				ret = kmig_err("patch '%s' is listed twice in the series",
					       series->names[i]);
		if (!ret)
			ret = mbox_read(&v[i], path);
		free(path);
	}
	free(st);
	*out = v;
	return ret;
}

static void free_patches(struct mbox_patch *v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		mbox_patch_clear(&v[i]);
	free(v);
}

/*
 * apply_step - apply or classify patch @p (file @file) at @position, move
 * the tip, record the step and print it; *@status receives the outcome.
 */
static int apply_step(struct apply_run *r, const struct mbox_patch *p,
		      const char *file, size_t position,
		      enum branch_status *status)
{
	struct branch_outcome res = { 0 };
	struct branch_step step = { 0 };
	char hex[GIT_OID_HEXSZ + 1] = "";
	int ret;

	ret = branch_apply_one(&res, r->repo, r->tip, r->base, p, file,
			       r->cname, r->cemail);
	if (ret) {
		ret = kmig_err("%s: %s", file, kmig_errmsg());
		goto out;
	}
	if (res.status == BRANCH_APPLIED) {
		git_commit *next = NULL;

		if (git_commit_lookup(&next, r->repo, &res.commit) < 0) {
			ret = kmig_err_git("cannot read the new commit");
			goto out;
		}
		git_commit_free(r->tip);
		r->tip = next;
		git_oid_tostr(hex, sizeof(hex), &res.commit);
	}
	r->c.n[res.status]++;
	*status = res.status;
	step.branch = (char *)r->name;
	step.base = (char *)r->base_tag;
	step.position = (int)position;
	step.patch = (char *)file;
	step.subject = p->subject;
	step.status = (char *)branch_status_names[res.status];
	step.commit = res.status == BRANCH_APPLIED ? hex : NULL;
	step.evidence = res.evidence.buf;
	step.test_status = kept_test(r, (int)position, hex);
	step.updated_at = (long long)time(NULL);
	ret = store_branch_step_put(r->st, &step);
	printf("%-10s  %-12.12s  %s\n", branch_status_names[res.status],
	       res.status == BRANCH_APPLIED ? hex : "-", file);
	if (res.status != BRANCH_APPLIED)
		print_evidence(res.evidence.buf);
out:
	branch_outcome_clear(&res);
	return ret;
}

static int do_apply(struct kmig_ctx *ctx, const struct branch_opts *o,
		    const char *opt, const char *base)
{
	struct series series = { 0 };
	struct mbox_patch *patches = NULL;
	struct apply_run r = { 0 };
	struct progress *prog = NULL;
	git_reference *ref = NULL;
	char *name = NULL, *refname = NULL;
	char *dir = o->series ? xstrdup(o->series) : datadir_series();
	char *reflog = NULL;
	int status = KMIG_EXIT_ERROR, valid = 0, ret;
	bool in_txn = false;
	size_t i;

	if (repo_open(&r.repo, ctx->repo_path)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	kmig_identity(r.repo, &r.cname, &r.cemail);
	ret = branch_name_for(&name, r.repo, o->name, base);
	if (ret) {
		status = name_fail(ret, opt);
		goto out;
	}
	refname = xasprintf("refs/heads/%s", name);
	r.name = name;
	r.base_tag = base;
	/* a name git branch takes: not HEAD, not an option */
	if (git_branch_name_is_valid(&valid, name) < 0 || !valid ||
	    git_reference_name_is_valid(&valid, refname) < 0 || !valid) {
		cmd_fail(KMIG_EXIT_ERROR, "invalid branch name '%s'", name);
		goto out;
	}
	/* "refs/heads/x" would be the branch refs/heads/refs/heads/x */
	if (!strncmp(name, "refs/", 5)) {
		cmd_fail(KMIG_EXIT_ERROR, "--name takes a branch name, not the reference '%s'",
			 name);
		goto out;
	}
	if (series_read(&series, dir, false) || read_patches(&patches, &series) ||
	    current_branch_guard(r.repo, refname) ||
	    repo_resolve_commit(&r.base, r.repo, base) ||
	    store_open(&r.st, ctx->db_path) ||
	    store_branch_steps(r.st, name, &r.old)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	/*
	 * The steps are written in one transaction, committed once the
	 * branch points at the new tip: an error on the way leaves the
	 * branch and the steps of the apply before as they were.
	 */
	if (store_begin(r.st)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	in_txn = true;
	if (store_branch_reset(r.st, name)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	if (git_commit_dup(&r.tip, r.base) < 0) {
		cmd_fail(KMIG_EXIT_ERROR, "cannot read commit '%s'", base);
		goto out;
	}
	prog = progress_start("branch apply", series.n);
	for (i = 0; i < series.n; i++) {
		enum branch_status st = BRANCH_APPLIED;

		progress_update(prog, i, series.names[i]);
		if (apply_step(&r, &patches[i], series.names[i], i + 1, &st)) {
			cmd_fail_last(KMIG_EXIT_ERROR);
			goto out;
		}
		if (st == BRANCH_CONFLICT && o->stop_on_conflict)
			break;
	}
	progress_update(prog, series.n, NULL);
	progress_stop(prog);
	prog = NULL;
	if (!o->force &&
	    edited_branch_guard(r.repo, refname, name, &r.old, r.base, r.tip,
				patches, series.n)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	reflog = xasprintf("kmig branch apply: %s on %s", dir, base);
	if (git_reference_create(&ref, r.repo, refname, git_commit_id(r.tip), 1,
				 reflog) < 0) {
		cmd_fail(KMIG_EXIT_ERROR, "cannot update '%s': %s", refname,
			 git_error_last() ? git_error_last()->message : "?");
		goto out;
	}
	in_txn = false;
	if (store_commit(r.st)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	printf("%s at %.12s on %s: %zu applied, %zu upstream, %zu superseded, %zu conflict\n",
	       name, git_oid_tostr_s(git_commit_id(r.tip)), base, r.c.n[BRANCH_APPLIED],
	       r.c.n[BRANCH_UPSTREAM], r.c.n[BRANCH_SUPERSEDED], r.c.n[BRANCH_CONFLICT]);
	status = finish_stdout(r.c.n[BRANCH_CONFLICT] ? KMIG_EXIT_VERDICT : KMIG_EXIT_OK);
out:
	if (in_txn)
		store_rollback(r.st);
	progress_stop(prog);
	git_reference_free(ref);
	git_commit_free(r.tip);
	git_commit_free(r.base);
	git_repository_free(r.repo);
	store_close(r.st);
	branch_steps_clear(&r.old);
	free_patches(patches, series.n);
	series_clear(&series);
	free(reflog);
	free(r.cname);
	free(r.cemail);
	free(dir);
	free(refname);
	free(name);
	return status;
}

static int branch_apply(struct kmig_ctx *ctx, int argc, char **argv)
{
	struct branch_opts o;
	char *base;
	int ret = parse_opts(&o, "apply", argc, argv);

	if (ret)
		return ret;
	base = o.base ? xstrdup(o.base) : main_base(ctx->db_path);
	ret = do_apply(ctx, &o, "base", base);
	free(base);
	return ret;
}

static int branch_rebase(struct kmig_ctx *ctx, int argc, char **argv)
{
	struct branch_opts o;
	int ret = parse_opts(&o, "rebase", argc, argv);

	if (ret)
		return ret;
	if (!o.onto)
		return cmd_usage_error("branch", "rebase needs --onto TAG");
	return do_apply(ctx, &o, "onto", o.onto);
}

/* ---- status ---- */

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* One row of the matrix: a patch and its step on each base (or NULL). */
struct mrow {
	const char *patch, *subject;
	const struct branch_step **on;	/* one per release */
};

static int cmp_mrow(const void *a, const void *b)
{
	return strcmp(((const struct mrow *)a)->patch,
		      ((const struct mrow *)b)->patch);
}

/* The cell of a step: its status, with ":<test>" when it was tested. */
static char *matrix_cell(const struct branch_step *s)
{
	if (!s)
		return xstrdup("-");
	if (s->test_status)
		return xasprintf("%s:%s", s->status, s->test_status);
	return xstrdup(s->status);
}

/* ", \"status\": ..., \"commit\": ..., \"test_status\": ..., \"evidence\": ..." */
static void step_json_result(const struct branch_step *s)
{
	printf(", \"status\": ");
	json_string(stdout, s->status);
	printf(", \"commit\": ");
	json_string(stdout, s->commit);		/* null when none */
	printf(", \"test_status\": ");
	json_string(stdout, s->test_status);
	printf(", \"evidence\": ");
	json_string(stdout, s->evidence ? s->evidence : "");
}

static void matrix_json_step(const struct branch_step *s)
{
	if (!s) {
		printf("null");
		return;
	}
	printf("{\"branch\": ");
	json_string(stdout, s->branch);
	printf(", \"position\": %d", s->position);
	step_json_result(s);
	printf("}");
}

static void matrix_print(int fmt, const struct release_info *rel, size_t nrel,
			 const struct mrow *rows, size_t nrows)
{
	size_t i, k, w = 5;

	for (i = 0; i < nrows; i++)
		if (strlen(rows[i].patch) > w)
			w = strlen(rows[i].patch);
	if (fmt == FMT_CSV) {
		printf("patch,subject");
		for (k = 0; k < nrel; k++) {
			putchar(',');
			csv_field(stdout, rel[k].tag);
		}
		putchar('\n');
	} else if (fmt == FMT_JSON) {
		printf("{\"main_base\": ");
		json_string(stdout, rel[nrel - 1].tag);
		printf(", \"bases\": [");
		for (k = 0; k < nrel; k++) {
			printf("%s", k ? ", " : "");
			json_string(stdout, rel[k].tag);
		}
		printf("], \"patches\": [");
	} else {
		printf("patches x bases (main base %s; status[:test], - not applied there)\n",
		       rel[nrel - 1].tag);
		printf("%-*s", (int)w, "patch");
		for (k = 0; k < nrel; k++)
			printf("  %-20s", rel[k].tag);
		putchar('\n');
	}
	for (i = 0; i < nrows; i++) {
		const struct mrow *r = &rows[i];

		if (fmt == FMT_JSON) {
			printf("%s\n  {\"patch\": ", i ? "," : "");
			json_string(stdout, r->patch);
			printf(", \"subject\": ");
			json_string(stdout, r->subject);
			printf(", \"bases\": {");
			for (k = 0; k < nrel; k++) {
				printf("%s", k ? ", " : "");
				json_string(stdout, rel[k].tag);
				printf(": ");
				matrix_json_step(r->on[k]);
			}
			printf("}}");
			continue;
		}
		if (fmt == FMT_CSV) {
			csv_field(stdout, r->patch);
			putchar(',');
			csv_field(stdout, r->subject);
		} else {
			printf("%-*s", (int)w, r->patch);
		}
		for (k = 0; k < nrel; k++) {
			char *cell = matrix_cell(r->on[k]);

			if (fmt == FMT_CSV) {
				putchar(',');
				csv_field(stdout, cell);
			} else {
				printf("  %-20s", cell);
			}
			free(cell);
		}
		putchar('\n');
	}
	if (fmt == FMT_JSON)
		printf("\n]}\n");
	else if (fmt == FMT_TEXT)
		printf("%zu patch%s on %zu base%s\n", nrows, plural_es(nrows),
		       nrel, plural(nrel));
}

/*
 * branch_matrix - "kmig branch status --matrix": every patch applied on
 * the branch kmig/<tag> of any imported release, by release.
 */
static int branch_matrix(struct kmig_ctx *ctx, const struct branch_opts *o)
{
	struct release_info *rel = NULL;
	struct branch_steps *steps = NULL;
	struct mrow *rows = NULL;
	struct store *st = NULL;
	size_t nrel = 0, nrows = 0, arows = 0, i, k, r;
	int status = KMIG_EXIT_ERROR;

	if (o->name || o->base)
		return cmd_usage_error("branch", "--matrix covers the branches kmig/<TAG> of every release; no --base or --name");
	if (open_steps(&st, ctx->db_path) || (st && store_releases(st, &rel, &nrel))) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	if (!nrel) {
		cmd_fail(KMIG_EXIT_ERROR, "no release imported yet (run 'kmig scan')");
		goto out;
	}
	steps = xcalloc(nrel, sizeof(*steps));
	for (k = 0; k < nrel; k++) {
		char *name = branch_default_name(rel[k].tag);
		int ret = store_branch_steps(st, name, &steps[k]);

		free(name);
		if (ret) {
			cmd_fail_last(KMIG_EXIT_ERROR);
			goto out;
		}
		for (i = 0; i < steps[k].n; i++) {
			const struct branch_step *s = &steps[k].v[i];

			for (r = 0; r < nrows; r++)
				if (!strcmp(rows[r].patch, s->patch))
					break;
			if (r == nrows) {
				ALLOC_GROW(rows, nrows + 1, arows);
				rows[nrows].patch = s->patch;
				rows[nrows].subject = s->subject;
				rows[nrows].on = xcalloc(nrel, sizeof(*rows->on));
				nrows++;
			}
			rows[r].on[k] = s;
		}
	}
	if (!nrows) {
		cmd_fail(KMIG_EXIT_ERROR, "no branch kmig/<TAG> applied on any scanned release (run 'kmig branch apply')");
		goto out;
	}
	qsort(rows, nrows, sizeof(*rows), cmp_mrow);
	matrix_print(o->fmt, rel, nrel, rows, nrows);
	status = finish_stdout(KMIG_EXIT_OK);
out:
	for (r = 0; r < nrows; r++)
		free(rows[r].on);
	free(rows);
	for (k = 0; steps && k < nrel; k++)
		branch_steps_clear(&steps[k]);
	free(steps);
	release_infos_free(rel, nrel);
	store_close(st);
	return status;
}

static int branch_status(struct kmig_ctx *ctx, int argc, char **argv)
{
	struct branch_steps steps = { 0 };
	struct counts c = { 0 };
	struct branch_opts o;
	struct store *st = NULL;
	git_repository *repo = NULL;
	char *name = NULL;
	int status = KMIG_EXIT_ERROR, ret;
	size_t i, k;

	ret = parse_opts(&o, "status", argc, argv);
	if (ret)
		return ret;
	if (o.matrix)
		return branch_matrix(ctx, &o);
	/* --base names the branch as apply named it: the repository tells */
	ret = open_branch(ctx, &o, o.base != NULL, &repo, &st, &name, &steps);
	if (ret) {
		status = ret;
		goto out;
	}
	if (!steps.n) {
		cmd_fail(KMIG_EXIT_ERROR, "no steps recorded for branch '%s' (run 'kmig branch apply')",
			 name);
		goto out;
	}
	for (i = 0; i < steps.n; i++)
		for (k = 0; k < BRANCH__COUNT; k++)
			if (!strcmp(steps.v[i].status, branch_status_names[k]))
				c.n[k]++;
	if (o.fmt == FMT_CSV)
		printf("position,patch,subject,status,commit,test_status\n");
	else if (o.fmt == FMT_JSON) {
		printf("{\"branch\": ");
		json_string(stdout, name);
		printf(", \"base\": ");
		json_string(stdout, steps.v[0].base);
		printf(", \"patches\": [");
	} else {
		printf("branch %s on %s\n", name, steps.v[0].base);
	}
	for (i = 0; i < steps.n; i++) {
		const struct branch_step *s = &steps.v[i];

		if (o.fmt == FMT_CSV) {
			printf("%d,", s->position);
			csv_field(stdout, s->patch);
			putchar(',');
			csv_field(stdout, s->subject);
			putchar(',');
			csv_field(stdout, s->status);
			putchar(',');
			csv_field(stdout, s->commit ? s->commit : "");
			putchar(',');
			csv_field(stdout, s->test_status ? s->test_status : "");
			putchar('\n');
		} else if (o.fmt == FMT_JSON) {
			printf("%s\n  {\"position\": %d, \"patch\": ", i ? "," : "",
			       s->position);
			json_string(stdout, s->patch);
			printf(", \"subject\": ");
			json_string(stdout, s->subject);
			step_json_result(s);
			printf("}");
		} else {
			printf("%4d  %-10s  %-12.12s  %s  %s", s->position, s->status,
			       or_dash(s->commit), s->patch, s->subject);
			if (s->test_status)
				printf("  [test: %s]", s->test_status);
			putchar('\n');
		}
	}
	if (o.fmt == FMT_JSON) {
		printf("\n], \"summary\": {\"patches\": %zu", steps.n);
		for (k = 0; k < BRANCH__COUNT; k++)
			printf(", \"%s\": %zu", branch_status_names[k], c.n[k]);
		printf("}}\n");
	} else if (o.fmt == FMT_TEXT) {
		printf("%zu patch%s: %zu applied, %zu upstream, %zu superseded, %zu conflict\n",
		       steps.n, plural_es(steps.n), c.n[BRANCH_APPLIED], c.n[BRANCH_UPSTREAM],
		       c.n[BRANCH_SUPERSEDED], c.n[BRANCH_CONFLICT]);
	}
	status = finish_stdout(KMIG_EXIT_OK);
out:
	branch_steps_clear(&steps);
	store_close(st);
	git_repository_free(repo);
	free(name);
	return status;
}

/* ---- export ---- */

/*
 * series_diffstat - the diffstat of the whole series, @base to @tip, as
 * git format-patch --cover-letter writes it (renames found).
 */
static int series_diffstat(struct sbuf *out, git_repository *repo,
			   git_tree *base, git_tree *tip)
{
	git_diff_options dopts;
	git_diff *diff = NULL;
	int ret;

	git_diff_options_init(&dopts, GIT_DIFF_OPTIONS_VERSION);
	if (git_diff_tree_to_tree(&diff, repo, base, tip, &dopts) < 0 ||
	    git_diff_find_similar(diff, NULL) < 0) {
		ret = kmig_err_git("cannot compute the diffstat");
		goto out;
	}
	ret = diffstat_diff(out, repo, diff, 72);
out:
	git_diff_free(diff);
	return ret;
}

static int commit_mbox(struct sbuf *out, git_repository *repo, git_commit *c,
		       const char *message)
{
	git_diff_options dopts;
	const git_signature *a = git_commit_author(c);
	git_commit *parent = NULL;
	git_tree *t = NULL, *pt = NULL;
	git_diff *diff = NULL;
	git_buf patch = { 0 };
	struct sbuf stat = SBUF_INIT;
	int ret = 0;

	git_diff_options_init(&dopts, GIT_DIFF_OPTIONS_VERSION);
	dopts.id_abbrev = 12;
	dopts.flags |= GIT_DIFF_SHOW_BINARY;	/* as format-patch: applicable */
	if (git_commit_parent(&parent, c, 0) < 0 || git_commit_tree(&t, c) < 0 ||
	    git_commit_tree(&pt, parent) < 0 ||
	    git_diff_tree_to_tree(&diff, repo, pt, t, &dopts) < 0 ||
	    git_diff_find_similar(diff, NULL) < 0 ||
	    git_diff_to_buf(&patch, diff, GIT_DIFF_FORMAT_PATCH) < 0) {
		ret = kmig_err_git("cannot diff commit");
		goto out;
	}
	/* as git format-patch writes it: names shortened, graph scaled */
	ret = diffstat_diff(&stat, repo, diff, 72);
	if (ret)
		goto out;
	mbox_format(out, git_oid_tostr_s(git_commit_id(c)), a->name, a->email,
		    (long long)a->when.time, a->when.offset, message,
		    stat.buf, patch.ptr ? patch.ptr : "");
out:
	git_buf_dispose(&patch);
	sbuf_release(&stat);
	git_diff_free(diff);
	git_tree_free(t);
	git_tree_free(pt);
	git_commit_free(parent);
	return ret;
}

static bool in_list(char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static bool branch_exists(git_repository *repo, const char *refname)
{
	git_reference *ref = NULL;
	bool yes = git_reference_lookup(&ref, repo, refname) == 0;

	git_reference_free(ref);
	return yes;
}

/*
 * branch_commits - the commits from @base (excluded) to the tip of
 * @refname along single parents, oldest first.
 */
static int branch_commits(git_commit ***out, size_t *n, git_repository *repo,
			  const char *refname, git_commit *base)
{
	size_t alloc = 0, i;
	git_oid oid;

	*out = NULL;
	*n = 0;
	if (git_reference_name_to_id(&oid, repo, refname) < 0)
		return kmig_err_git("cannot resolve the branch");
	if (!git_oid_equal(&oid, git_commit_id(base)) &&
	    git_graph_descendant_of(repo, &oid, git_commit_id(base)) != 1)
		return kmig_err("'%s' is not based on %s", refname,
				git_oid_tostr_s(git_commit_id(base)));
	while (!git_oid_equal(&oid, git_commit_id(base))) {
		git_commit *c = NULL;

		if (git_commit_lookup(&c, repo, &oid) < 0 ||
		    git_commit_parentcount(c) != 1) {
			git_commit_free(c);
			return kmig_err("'%s' has a merge between the base and the tip",
					refname);
		}
		ALLOC_GROW(*out, *n + 1, alloc);
		(*out)[(*n)++] = c;
		git_oid_cpy(&oid, git_commit_parent_id(c, 0));
	}
	for (i = 0; i < *n / 2; i++) {
		git_commit *t = (*out)[i];

		(*out)[i] = (*out)[*n - 1 - i];
		(*out)[*n - 1 - i] = t;
	}
	return 0;
}

/*
 * A series entry a Kmig-Patch trailer may name: a relative path below the
 * series directory ("sub/0002-x.patch", as apply records an entry in a
 * subdirectory), no component empty or starting with '.' (".", "..",
 * ".git", a hidden file), and not "series".
 */
static bool entry_name_ok(const char *name)
{
	const char *c = name;

	if (!name || !*name || !strcmp(name, "series"))
		return false;
	while (*c) {
		size_t n = strcspn(c, "/");

		if (!n || c[0] == '.')
			return false;
		c += n;
		if (*c && !*++c)
			return false;	/* a trailing '/' */
	}
	return true;
}

/*
 * export_commit - commit @c as format-patch into @fs, at @dir/ its
 * Kmig-Patch trailer or "NNNN-<subject>.patch" from *@next (also when
 * an earlier commit of the export, @names[0..@n), took the trailer's name:
 * one commit made into two keeps it on both); *@file gets the name.
 */
static int export_commit(char **file, struct file_set *fs, git_repository *repo,
			 git_commit *c, const char *dir, int *next,
			 char *const *names, size_t n)
{
	struct sbuf mbox = SBUF_INIT;
	char *msg = NULL, *path;
	int ret;

	*file = branch_message_trailer(git_commit_message(c), "Kmig-Patch", &msg);
	if (!entry_name_ok(*file) || in_list(names, n, *file)) {
		free(*file);
		*file = patch_file_name((*next)++, git_commit_summary(c));
	}
	ret = commit_mbox(&mbox, repo, c, msg);
	path = xasprintf("%s/%s", dir, *file);
	if (!ret)	/* an entry in a subdirectory: made too */
		ret = file_set_add(fs, path, mbox.buf, mbox.len);
	free(path);
	free(msg);
	sbuf_release(&mbox);
	return ret;
}

/*
 * export_series - the series rewritten, into @fs: the old order, without
 * the patches that were applied on the branch but whose commit is gone
 * (printed), each new commit's patch after that of the commit before it
 * (else at the end).  *@n receives the length.
 */
static int export_series(struct file_set *fs, const char *dir,
			 const struct series *series,
			 const struct branch_steps *steps, char *const *names,
			 size_t nnames, size_t *n)
{
	struct sbuf text = SBUF_INIT;
	char **out = NULL, *path;
	size_t alloc = 0, i, k;
	int ret;

	*n = 0;
	for (i = 0; i < series->n; i++) {
		const char *name = series->names[i];
		bool dropped = false;

		for (k = 0; k < steps->n; k++)
			if (!strcmp(steps->v[k].patch, name) &&
			    !strcmp(steps->v[k].status, "applied") &&
			    !in_list(names, nnames, name))
				dropped = true;
		if (dropped) {
			printf("dropped %s from the series (its commit is gone)\n", name);
			continue;
		}
		ALLOC_GROW(out, *n + 1, alloc);
		out[(*n)++] = (char *)name;
	}
	/*
	 * A new commit's patch goes right after the patch of the commit
	 * before it on the branch (the second half of a split commit after
	 * the first); a new first commit's before the patch of the next
	 * commit that has one; else at the end.
	 */
	for (i = 0; i < nnames; i++) {
		size_t at = *n, j;

		if (in_list(series->names, series->n, names[i]))
			continue;
		for (k = 0; i && k < *n; k++)
			if (!strcmp(out[k], names[i - 1]))
				at = k + 1;
		for (j = i + 1; !i && at == *n && j < nnames; j++)
			for (k = 0; k < *n; k++)
				if (!strcmp(out[k], names[j]) && k < at)
					at = k;
		ALLOC_GROW(out, *n + 1, alloc);
		memmove(out + at + 1, out + at, (*n - at) * sizeof(*out));
		out[at] = names[i];
		(*n)++;
	}
	series_format(&text, dir, out, *n);
	path = xasprintf("%s/series", dir);
	ret = file_set_add(fs, path, text.buf ? text.buf : "", text.len);
	free(path);
	sbuf_release(&text);
	free(out);
	return ret;
}

/* ---- export --send: patches ready for git send-email ---- */

/*
 * strip_kmig_trailers - @message without its Kmig-* trailer lines (the
 * bookkeeping stays in the database and the series).  malloc'd.
 */
static char *strip_kmig_trailers(const char *message)
{
	static const char *const keys[] = { "Kmig-Patch", "Kmig-Rule" };
	char *msg = xstrdup(message);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		char *stripped = NULL, *v;

		while ((v = branch_message_trailer(msg, keys[i], &stripped))) {
			free(v);
			free(msg);
			msg = stripped;
			stripped = NULL;
		}
		free(stripped);
	}
	return msg;
}

/* Addresses "a, b" of one kind, deduplicated. */
static void addr_add(struct sbuf *list, const char *addr, size_t n)
{
	char *a = xstrndup(addr, n);

	if (*a && (!list->buf || !strstr(list->buf, a)))
		sbuf_addf(list, "%s%s", list->len ? ", " : "", a);
	free(a);
}

/*
 * maint_fallback - for a tree without scripts/get_maintainer.pl: every
 * section of @maint (MAINTAINERS text) with an F: pattern matching one of
 * the patch's files (a trailing '/' matches below it, else fnmatch(3)
 * with the pattern also naming a directory) and no X: excluding it; M:
 * and R: go to @to, L: to @cc, as get_maintainer.pl --no-git does.
 */
static void maint_fallback(const char *maint, char *const *files, size_t nfiles,
			   struct sbuf *to, struct sbuf *cc)
{
	const char *p = maint, *sec = maint;

	while (p && *p) {
		const char *q, *end = strstr(p, "\n\n");
		bool match = false, excl = false;
		size_t i;

		sec = p;
		end = end ? end + 1 : p + strlen(p);
		for (q = sec; q < end; q = strchr(q, '\n') + 1) {
			size_t n = strcspn(q, "\n");
			char *pat;

			if (n < 3 || (strncmp(q, "F:", 2) && strncmp(q, "X:", 2)))
				continue;
			pat = xstrndup(q + 2, n - 2);
			for (char *t = pat; *t == ' ' || *t == '\t';)
				memmove(t, t + 1, strlen(t));
			for (i = 0; i < nfiles; i++) {
				size_t pl = strlen(pat);
				bool m = pl && pat[pl - 1] == '/' ?
					 !strncmp(files[i], pat, pl) :
					 !fnmatch(pat, files[i], FNM_PATHNAME) ||
					 (!strncmp(files[i], pat, pl) && files[i][pl] == '/');
				if (m && q[0] == 'F')
					match = true;
				if (m && q[0] == 'X')
					excl = true;
			}
			free(pat);
		}
		if (match && !excl)
			for (q = sec; q < end; q = strchr(q, '\n') + 1) {
				size_t n = strcspn(q, "\n");
				const char *v = q + 2;

				if (n < 3 || q[1] != ':')
					continue;
				while (*v == ' ' || *v == '\t')
					v++;
				if (q[0] == 'M' || q[0] == 'R')
					addr_add(to, v, n - (size_t)(v - q));
				else if (q[0] == 'L')
					addr_add(cc, v, strcspn(v, " \t\n"));
			}
		p = *end ? end + 1 : NULL;
	}
}

/*
 * get_maintainer - "To:" and "Cc:" of the patch @mbox (file name @patch):
 * the base release's scripts/get_maintainer.pl --no-git (b4's options:
 * M:/R: people with --nol, L: lists with --nom --nor), run on it and its
 * MAINTAINERS in @work; the in-kmig reading of MAINTAINERS for a tree
 * without the script.
 */
static int get_maintainer(git_repository *repo, git_tree *tree, const char *work,
			  const char *patch, const struct sbuf *mbox,
			  char *const *files, size_t nfiles,
			  struct sbuf *to, struct sbuf *cc)
{
	struct sbuf script = SBUF_INIT, maint = SBUF_INIT;
	char *sp = xasprintf("%s/get_maintainer.pl", work);
	char *mp = xasprintf("%s/MAINTAINERS", work);
	char *pp = xasprintf("%s/patch", work);
	int ret, k;

	ret = repo_blob_at(repo, tree, "MAINTAINERS", &maint);
	if (ret == KMIG_ENOTFOUND) {
		ret = 0;
		goto out;
	}
	if (ret)
		goto out;
	if (repo_blob_at(repo, tree, "scripts/get_maintainer.pl", &script) ||
	    !script.len) {
		maint_fallback(maint.buf ? maint.buf : "", files, nfiles, to, cc);
		goto out;
	}
	ret = write_file(sp, script.buf, script.len);
	if (!ret)
		ret = write_file(mp, maint.buf, maint.len);
	if (!ret)
		ret = write_file(pp, mbox->buf, mbox->len);
	for (k = 0; !ret && k < 2; k++) {
		struct sbuf outb = SBUF_INIT;
		char *argv[] = { "perl", sp, "--no-tree", "--nogit", "--nogit-fallback",
				 "--nogit-chief-penguins", "--norolestats",
				 k ? "--nom" : "--nol", k ? "--nor" : "--r",
				 pp, NULL };
		int st = child_run_status(&(struct child_opts){ .argv = argv,
			.dir = work, .capture = &outb });

		if (st)
			ret = kmig_err("scripts/get_maintainer.pl failed on '%s'", patch);
		for (const char *l = outb.buf; !st && l && *l;
		     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
			addr_add(k ? cc : to, l, strcspn(l, "\n"));
		sbuf_release(&outb);
	}
out:
	sbuf_release(&script);
	sbuf_release(&maint);
	free(sp);
	free(mp);
	free(pp);
	return ret;
}

/* The files a commit changes (new paths), for the recipients. */
static int commit_files(git_repository *repo, git_commit *c, char ***out, size_t *n)
{
	git_commit *parent = NULL;
	git_tree *t = NULL, *pt = NULL;
	git_diff *diff = NULL;
	size_t i, alloc = 0;
	int ret = 0;

	*out = NULL;
	*n = 0;
	if (git_commit_parent(&parent, c, 0) < 0 || git_commit_tree(&t, c) < 0 ||
	    git_commit_tree(&pt, parent) < 0 ||
	    git_diff_tree_to_tree(&diff, repo, pt, t, NULL) < 0) {
		ret = kmig_err_git("cannot diff commit");
		goto out;
	}
	for (i = 0; i < git_diff_num_deltas(diff); i++) {
		ALLOC_GROW(*out, *n + 1, alloc);
		(*out)[(*n)++] = xstrdup(git_diff_get_delta(diff, i)->new_file.path);
	}
out:
	git_diff_free(diff);
	git_tree_free(t);
	git_tree_free(pt);
	git_commit_free(parent);
	return ret;
}

/* Uses per rule removed by commit @c: lexed before and after, per file. */
static int removed_uses(git_repository *repo, git_commit *c, char *const *files,
			size_t nfiles, long long *per_rule)
{
	git_commit *parent = NULL;
	git_tree *t = NULL, *pt = NULL;
	size_t i, k;
	int ret = 0;

	if (git_commit_parent(&parent, c, 0) < 0 || git_commit_tree(&t, c) < 0 ||
	    git_commit_tree(&pt, parent) < 0) {
		ret = kmig_err_git("cannot read commit");
		goto out;
	}
	for (i = 0; i < nfiles; i++) {
		struct sbuf a = SBUF_INIT, b = SBUF_INIT;
		struct site_list sa = SITE_LIST_INIT, sb = SITE_LIST_INIT;

		repo_blob_at(repo, pt, files[i], &a);
		repo_blob_at(repo, t, files[i], &b);
		lex_buffer(a.buf ? a.buf : "", a.len, &sa);
		lex_buffer(b.buf ? b.buf : "", b.len, &sb);
		for (k = 0; k < sa.n; k++)
			per_rule[sa.v[k].rule]++;
		for (k = 0; k < sb.n; k++)
			per_rule[sb.v[k].rule]--;
		site_list_clear(&sa);
		site_list_clear(&sb);
		sbuf_release(&a);
		sbuf_release(&b);
	}
out:
	git_tree_free(t);
	git_tree_free(pt);
	git_commit_free(parent);
	return ret;
}

/* insert_headers - @mbox with @hdr before the blank line ending its header. */
static void insert_headers(struct sbuf *mbox, const char *hdr)
{
	const char *end = strstr(mbox->buf, "\n\n");
	struct sbuf out = SBUF_INIT;

	if (!end)
		return;
	sbuf_add(&out, mbox->buf, (size_t)(end - mbox->buf) + 1);
	sbuf_addstr(&out, hdr);
	sbuf_addstr(&out, end + 1);
	sbuf_release(mbox);
	*mbox = out;
}

/* number_subject - "[PATCH]" -> "[PATCH n/N]". */
static void number_subject(struct sbuf *mbox, size_t n, size_t total)
{
	char *at = strstr(mbox->buf, "\nSubject: [PATCH] ");
	struct sbuf out = SBUF_INIT;

	if (!at)
		return;
	sbuf_add(&out, mbox->buf, (size_t)(at - mbox->buf));
	sbuf_addf(&out, "\nSubject: [PATCH %zu/%zu] ", n, total);
	sbuf_addstr(&out, at + strlen("\nSubject: [PATCH] "));
	sbuf_release(mbox);
	*mbox = out;
}

/* add_base_commit - "base-commit: ID" before the "-- " signature line. */
static void add_base_commit(struct sbuf *mbox, const char *base_id)
{
	const char *sig = NULL, *p = mbox->buf;
	struct sbuf out = SBUF_INIT;

	while ((p = strstr(p, "\n-- \n")))
		sig = p++;
	if (!sig)
		sig = mbox->buf + mbox->len - 1;
	sbuf_add(&out, mbox->buf, (size_t)(sig - mbox->buf) + 1);
	sbuf_addf(&out, "\nbase-commit: %s\n", base_id);
	sbuf_addstr(&out, sig + 1);
	sbuf_release(mbox);
	*mbox = out;
}

/* regular_in - @dir/@name is a regular file (not a directory named x.patch). */
static bool regular_in(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct stat st;
	bool yes = !stat(path, &st) && S_ISREG(st.st_mode);

	free(path);
	return yes;
}

/*
 * stale_patch - a "*.patch" file of @dir that this export --send does
 * not write (an earlier send of another series, or of this one before a
 * subject changed): "git send-email DIR" would send it too.  Error naming
 * it; 0 when there is none.
 */
static int stale_patch(const char *dir, git_commit **commits, size_t n)
{
	char **names = xcalloc(n + 1, sizeof(*names));
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t i;
	int ret = 0;

	if (!d && errno == ENOENT)
		goto out_free;		/* made with the first patch written */
	if (!d) {
		ret = kmig_err("cannot read '%s': %s", dir, strerror(errno));
		goto out_free;
	}
	/* the files this export writes */
	for (i = 0; i < n; i++)
		names[i] = patch_file_name((int)(i + 1),
					   git_commit_summary(commits[i]));
	names[n] = xstrdup("0000-cover-letter.patch");
	while (!ret && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 6, ".patch") ||
		    in_list(names, n + 1, e->d_name) ||
		    !regular_in(dir, e->d_name))
			continue;
		ret = kmig_err("'%s/%s' is not of this export: git send-email would send it too (remove it, or send to an empty directory)",
			       dir, e->d_name);
	}
	closedir(d);
out_free:
	for (i = 0; i <= n; i++)
		free(names[i]);
	free(names);
	return ret;
}

/*
 * export_send - "kmig branch export --send DIR": every commit of the
 * branch as [PATCH n/N] with To:/Cc: and base-commit:, no Kmig-*
 * trailers, and 0000-cover-letter.patch.
 */
static int export_send(struct kmig_ctx *ctx, const char *dir, git_repository *repo,
		       git_commit *base, git_commit **commits, size_t n,
		       const struct branch_steps *steps, const char *base_tag)
{
	struct file_set fs = FILE_SET_INIT;
	struct sbuf allto = SBUF_INIT, allcc = SBUF_INIT, tested = SBUF_INIT;
	struct sbuf cover = SBUF_INIT, body = SBUF_INIT, stat = SBUF_INIT;
	long long per_rule[RULE__COUNT] = { 0 };
	git_tree *base_tree = NULL, *tip_tree = NULL;
	char base_id[GIT_OID_HEXSZ + 1];
	char *work = xasprintf("%s/tmp/send.XXXXXX", ctx->home), *parent;
	char *name = NULL, *email = NULL;
	size_t i, k;
	int ret;

	git_oid_tostr(base_id, sizeof(base_id), git_commit_id(base));
	parent = xasprintf("%s/tmp", ctx->home);
	ret = mkdir_p(parent);
	free(parent);
	if (!ret && !mkdtemp(work))
		ret = kmig_err("cannot create '%s'", work);
	if (!ret)
		ret = stale_patch(dir, commits, n);
	if (!ret && (git_commit_tree(&base_tree, base) < 0 ||
		     git_commit_tree(&tip_tree, commits[n - 1]) < 0))
		ret = kmig_err_git("cannot read the branch");
	for (i = 0; !ret && i < n; i++) {
		struct sbuf mbox = SBUF_INIT, to = SBUF_INIT, cc = SBUF_INIT, hdr = SBUF_INIT;
		char *msg = strip_kmig_trailers(git_commit_message(commits[i]));
		char *file = patch_file_name((int)(i + 1), git_commit_summary(commits[i]));
		char *path = xasprintf("%s/%s", dir, file), **files = NULL;
		const char *status = NULL;
		size_t nfiles = 0;

		ret = commit_mbox(&mbox, repo, commits[i], msg);
		if (!ret)
			ret = commit_files(repo, commits[i], &files, &nfiles);
		if (!ret)
			ret = removed_uses(repo, commits[i], files, nfiles, per_rule);
		if (!ret) {
			number_subject(&mbox, i + 1, n);
			add_base_commit(&mbox, base_id);
			/* the script reads it in the work area, not in @dir */
			ret = get_maintainer(repo, base_tree, work, file, &mbox,
					     files, nfiles, &to, &cc);
		}
		if (!ret) {
			if (to.len)
				sbuf_addf(&hdr, "To: %s\n", to.buf);
			if (cc.len)
				sbuf_addf(&hdr, "Cc: %s\n", cc.buf);
			if (hdr.len)
				insert_headers(&mbox, hdr.buf);
			ret = file_set_add(&fs, path, mbox.buf, mbox.len);
		}
		if (to.len)
			addr_add(&allto, to.buf, to.len);
		if (cc.len)
			addr_add(&allcc, cc.buf, cc.len);
		for (k = 0; k < steps->n; k++)
			if (steps->v[k].commit &&
			    !strcmp(steps->v[k].commit, git_oid_tostr_s(git_commit_id(commits[i]))))
				status = steps->v[k].test_status;
		sbuf_addf(&tested, "  %zu/%zu %s: %s\n", i + 1, n, git_commit_summary(commits[i]),
			  status ? status : "not tested");
		if (!ret)
			printf("wrote %s\n", path);
		for (k = 0; k < nfiles; k++)
			free(files[k]);
		free(files);
		free(msg);
		free(file);
		free(path);
		sbuf_release(&mbox);
		sbuf_release(&to);
		sbuf_release(&cc);
		sbuf_release(&hdr);
	}
	if (ret)
		goto out;

	/* the cover letter: what and why, uses removed, diffstat, tests */
	sbuf_addf(&body, "Deprecated-API conversions on %s, generated by kmig convert and\n"
		  "applied with kmig branch apply.\n\n", base_tag);
	for (k = 0; k < RULE__COUNT; k++) {
		char *why;

		if (per_rule[k] <= 0)
			continue;
		why = series_deprecated_reason(repo, base_tree, rules[k].source);
		sbuf_addf(&body, "%s: %lld use%s removed.\n%s\n\n", rules[k].id,
			  per_rule[k], plural((size_t)per_rule[k]),
			  why ? why : rules[k].advice);
		free(why);
	}
	sbuf_addf(&body, "How each step was tested (kmig branch test: build, boot in QEMU,\n"
		  "W=1 compile check under x86_64 and arm64 allmodconfig):\n%s\n",
		  tested.buf);
	ret = series_diffstat(&stat, repo, base_tree, tip_tree);
	if (ret)
		goto out;
	kmig_identity(repo, &name, &email);
	{
		char *subject = xasprintf("Deprecated API conversions on %s", base_tag);
		char *path = xasprintf("%s/0000-cover-letter.patch", dir);
		struct sbuf hdr = SBUF_INIT;

		mbox_format(&cover, NULL, name, email,
			    source_date(), 0,
			    subject, stat.buf, "");
		free(subject);
		/* the body goes after the header, the diffstat after "---" */
		{
			const char *end = strstr(cover.buf, "\n\n");
			struct sbuf out = SBUF_INIT;

			sbuf_add(&out, cover.buf, (size_t)(end - cover.buf) + 2);
			sbuf_addstr(&out, body.buf);
			sbuf_addstr(&out, end + 2);
			sbuf_release(&cover);
			cover = out;
		}
		number_subject(&cover, 0, n);
		add_base_commit(&cover, base_id);
		if (allto.len)
			sbuf_addf(&hdr, "To: %s\n", allto.buf);
		if (allcc.len)
			sbuf_addf(&hdr, "Cc: %s\n", allcc.buf);
		if (hdr.len)
			insert_headers(&cover, hdr.buf);
		ret = file_set_add(&fs, path, cover.buf, cover.len);
		if (!ret)
			ret = file_set_commit(&fs);
		if (!ret)
			printf("wrote %s\n", path);
		sbuf_release(&hdr);
		free(path);
	}
out:
	file_set_clear(&fs);
	if (!getenv("KMIG_KEEP_TMP"))
		rm_rf(work);
	git_tree_free(base_tree);
	git_tree_free(tip_tree);
	sbuf_release(&allto);
	sbuf_release(&allcc);
	sbuf_release(&tested);
	sbuf_release(&cover);
	sbuf_release(&body);
	sbuf_release(&stat);
	free(name);
	free(email);
	free(work);
	return ret;
}

static int branch_export(struct kmig_ctx *ctx, int argc, char **argv)
{
	struct branch_opts o;
	struct series series = { 0 };
	struct branch_steps steps = { 0 };
	struct file_set fs = FILE_SET_INIT;
	struct store *st = NULL;
	git_repository *repo = NULL;
	git_commit *base = NULL, **commits = NULL;
	char *name = NULL, *refname = NULL, *dir = NULL, *base_tag = NULL;
	char **names = NULL;
	size_t ncommits = 0, nseries = 0, i;
	int status = KMIG_EXIT_ERROR, next, ret;

	ret = parse_opts(&o, "export", argc, argv);
	if (ret)
		return ret;
	/* all or nothing: what it wrote is said once everything is */
	ret = stdout_hold(true);
	if (ret)
		return ret;
	dir = o.series ? xstrdup(o.series) : datadir_series();
	ret = open_branch(ctx, &o, true, &repo, &st, &name, &steps);
	if (ret) {
		status = ret;
		goto out;
	}
	if (series_read(&series, dir, true)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	base_tag = xstrdup(o.base ? o.base : steps.n ? steps.v[0].base : DEFAULT_BASE);
	refname = xasprintf("refs/heads/%s", name);
	if (!branch_exists(repo, refname)) {
		cmd_fail(KMIG_EXIT_ERROR, "no branch '%s' in '%s' (run 'kmig branch apply')",
			 name, ctx->repo_path);
		goto out;
	}
	if (repo_resolve_commit(&base, repo, base_tag) ||
	    branch_commits(&commits, &ncommits, repo, refname, base)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	if (o.send) {
		if (!ncommits) {
			cmd_fail(KMIG_EXIT_ERROR, "'%s' has no commit to send", name);
			goto out;
		}
		if (export_send(ctx, o.send, repo, base, commits, ncommits, &steps,
				base_tag)) {
			cmd_fail_last(KMIG_EXIT_ERROR);
			goto out;
		}
		printf("%zu patch%s and a cover letter of %s in %s, ready for git send-email\n",
		       ncommits, plural_es(ncommits), name, o.send);
		status = KMIG_EXIT_OK;
		goto out;
	}
	/*
	 * Every patch and the series are written beside their places first,
	 * then renamed into them: a failed export leaves the series as it
	 * was (and no directory it made).
	 */
	names = xcalloc(ncommits + 1, sizeof(*names));
	next = series_next_number(&series);
	for (i = 0; i < ncommits; i++) {
		if (export_commit(&names[i], &fs, repo, commits[i], dir, &next,
				  names, i)) {
			cmd_fail_last(KMIG_EXIT_ERROR);
			goto out;
		}
		printf("wrote %s/%s\n", dir, names[i]);
	}
	if (export_series(&fs, dir, &series, &steps, names, ncommits, &nseries) ||
	    file_set_commit(&fs)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	printf("exported %zu commit%s of %s to %s (series: %zu patch%s)\n",
	       ncommits, plural(ncommits), name, dir, nseries,
	       plural_es(nseries));
	status = KMIG_EXIT_OK;
out:
	status = stdout_release(status);
	file_set_clear(&fs);
	for (i = 0; i < ncommits; i++) {
		git_commit_free(commits[i]);
		if (names)
			free(names[i]);
	}
	free(commits);
	free(names);
	git_commit_free(base);
	git_repository_free(repo);
	branch_steps_clear(&steps);
	series_clear(&series);
	store_close(st);
	free(base_tag);
	free(refname);
	free(name);
	free(dir);
	return status;
}

/* ---- dispatch ---- */

/* "kmig branch test" lives in cmd-branch-test.c (QEMU issue). */
int branch_test(struct kmig_ctx *ctx, int argc, char **argv);

static const struct {
	const char *name;
	int (*fn)(struct kmig_ctx *ctx, int argc, char **argv);
} subcommands[] = {
	{ "apply", branch_apply },
	{ "status", branch_status },
	{ "rebase", branch_rebase },
	{ "export", branch_export },
	{ "test", branch_test },
};

static bool branch_has_subcommand(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		if (!strcmp(name, subcommands[i].name))
			return true;
	return false;
}

static int cmd_branch_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return cmd_usage_error("branch", "missing subcommand (apply, status, rebase, export, test)");
	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(ctx, argc - 1, argv + 1);
	return cmd_usage_error("branch", "unknown subcommand '%s'", argv[1]);
}

const struct kmig_cmd cmd_branch = {
	.name = "branch",
	.fn = cmd_branch_fn,
	.summary = "apply, classify, rebase and export the conversion series",
	.usage = usage,
	.has_subcommand = branch_has_subcommand,
};
