// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-check.c - report only the NEW deprecated uses a commit, a range or
 * a patch adds (the 0day bot's idea: warnings a patch adds, not the flood
 * of old ones).  Exit 0: nothing new (or all allowed); 1: new uses; 2: error.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "gate.h"
#include "repo.h"
#include "rules.h"
#include "store.h"

static const char usage[] =
	"usage: kmig check [--allow FILE] [--format text|json] [--jobs N] REV\n"
	"       kmig check [options] A..B\n"
	"       kmig check [options] --patch FILE [--base REV]\n"
	"\n"
	"Report the deprecated-API uses a change adds.  REV is the change REV^..REV,\n"
	"A..B the whole range as one change, --patch a git format-patch mbox (one or\n"
	"more messages) or a plain unified diff, applied in memory on --base\n"
	"(default HEAD of --repo); a patch that does not apply is an error naming\n"
	"the first failing file and hunk.\n"
	"\n"
	"Only the files the change touches are lexed (the blob cache of --db is used\n"
	"and filled when the database can be opened).  A use is a rule and a\n"
	"whitespace-normalised source line; uses are compared as multisets over all\n"
	"touched files, so moved or renamed code is not new, a second copy is.\n"
	"\n"
	"  --allow FILE     allowlist (default: .kmig-allow at the root of the\n"
	"                   checked tree, if present); lines\n"
	"                   PATH[:FUNCTION] RULE  # reason   (globs allowed)\n"
	"  --format FMT     text (default, the 0day bot's shape) or json\n"
	"  --jobs N         lexer threads (default: CPUs)\n"
	"\n"
	"Text output: a header naming the change, '>> path:line: rule: ...' per new\n"
	"use with the source line under it, allowed uses, then the summary line\n"
	"'N new deprecated uses (M allowed)' and, when some were removed,\n"
	"'K deprecated uses removed'.\n"
	"Exit status: 0 no new uses (or all allowed), 1 new uses, 2 error.\n";

enum { FMT_TEXT, FMT_JSON };

struct check {
	struct kmig_ctx *ctx;
	git_repository *repo;
	struct store *st;
	git_tree *old, *new_;
	/* the change, for the header */
	const char *kind;	/* "commit", "range" or "patch" */
	char *name;		/* what the user named */
	char *subject;		/* commit or first patch subject, or NULL */
	char old_hex[GIT_OID_HEXSZ + 1], new_hex[GIT_OID_HEXSZ + 1];
	size_t npatches;
	struct gate_allow allow;
	bool have_allow;
};

static char *commit_subject(git_commit *c)
{
	const char *s = git_commit_summary(c);

	return xstrdup(s ? s : "");
}

static int tree_of(git_tree **out, git_commit *c)
{
	if (git_commit_tree(out, c) < 0)
		return kmig_err_git("cannot read tree");
	return 0;
}

/* REV (REV^..REV) or A..B / A...B (merge base of A and B to B). */
static int resolve_change(struct check *c, const char *arg)
{
	git_revspec spec;
	git_commit *from = NULL, *to = NULL, *parent = NULL;
	int ret = 0;

	memset(&spec, 0, sizeof(spec));
	if (git_revparse(&spec, c->repo, arg) < 0) {
		/* libgit2 keeps the left side of a range whose right fails */
		git_object_free(spec.from);
		git_object_free(spec.to);
		return kmig_err("unknown revision '%s'", arg);
	}
	c->name = xstrdup(arg);
	if (spec.flags & GIT_REVSPEC_SINGLE) {
		ret = git_object_peel((git_object **)&to, spec.from,
				      GIT_OBJECT_COMMIT);
		git_object_free(spec.from);
		if (ret < 0)
			return kmig_err("'%s' does not name a commit", arg);
		c->kind = "commit";
		c->subject = commit_subject(to);
		git_oid_tostr(c->new_hex, sizeof(c->new_hex), git_commit_id(to));
		if (git_commit_parentcount(to) > 0) {
			if (git_commit_parent(&parent, to, 0) < 0) {
				ret = kmig_err_git("cannot read parent commit");
				goto out_free;
			}
			git_oid_tostr(c->old_hex, sizeof(c->old_hex),
				      git_commit_id(parent));
			ret = tree_of(&c->old, parent);
		}
		if (!ret)
			ret = tree_of(&c->new_, to);
		goto out_free;
	}
	c->kind = "range";
	if (git_object_peel((git_object **)&from, spec.from, GIT_OBJECT_COMMIT) < 0 ||
	    git_object_peel((git_object **)&to, spec.to, GIT_OBJECT_COMMIT) < 0) {
		ret = kmig_err("'%s' does not name a range of commits", arg);
		goto out_free_spec;
	}
	if (spec.flags & GIT_REVSPEC_MERGE_BASE) {
		git_oid base;

		if (git_merge_base(&base, c->repo, git_commit_id(from),
				   git_commit_id(to)) < 0) {
			ret = kmig_err("'%s': no merge base", arg);
			goto out_free_spec;
		}
		git_commit_free(from);
		from = NULL;
		if (git_commit_lookup(&from, c->repo, &base) < 0) {
			ret = kmig_err_git("cannot read merge base");
			goto out_free_spec;
		}
	}
	git_oid_tostr(c->old_hex, sizeof(c->old_hex), git_commit_id(from));
	git_oid_tostr(c->new_hex, sizeof(c->new_hex), git_commit_id(to));
	ret = tree_of(&c->old, from);
	if (!ret)
		ret = tree_of(&c->new_, to);
out_free_spec:
	git_object_free(spec.from);
	git_object_free(spec.to);
out_free:
	git_commit_free(parent);
	git_commit_free(from);
	git_commit_free(to);
	return ret;
}

static int resolve_patch(struct check *c, const char *file, const char *base)
{
	struct sbuf sb = SBUF_INIT;
	git_commit *commit = NULL;
	git_tree *base_tree = NULL;
	int ret;

	c->kind = "patch";
	c->name = xstrdup(file);
	if (!strcmp(file, "-")) {
		char tmp[65536];
		size_t n;

		while ((n = fread(tmp, 1, sizeof(tmp), stdin)) > 0)
			sbuf_add(&sb, tmp, n);
		if (ferror(stdin))
			return kmig_err("cannot read standard input");
	} else if (sbuf_read_file(&sb, file)) {
		return KMIG_EGENERIC;
	}
	ret = repo_resolve_commit(&commit, c->repo, base);
	if (ret)
		goto out_free;
	git_oid_tostr(c->old_hex, sizeof(c->old_hex), git_commit_id(commit));
	ret = tree_of(&base_tree, commit);
	if (ret)
		goto out_free;
	ret = gate_mempack(c->repo);
	if (ret)
		goto out_free;
	ret = gate_apply_patch(&c->old, &c->new_, &c->subject, &c->npatches,
			       c->repo, base_tree, file, sb.buf ? sb.buf : "",
			       sb.len);
out_free:
	git_tree_free(base_tree);
	git_commit_free(commit);
	sbuf_release(&sb);
	return ret;
}

/* --allow FILE, else .kmig-allow in the checked tree, if present. */
static int load_allow(struct check *c, const char *file)
{
	struct sbuf sb = SBUF_INIT;
	int ret;

	if (file) {
		if (sbuf_read_file(&sb, file))
			return KMIG_EGENERIC;
		ret = gate_allow_parse(&c->allow, file, sb.buf ? sb.buf : "",
				       sb.len);
		sbuf_release(&sb);
		c->have_allow = !ret;
		return ret;
	}
	ret = repo_blob_at(c->repo, c->new_, ".kmig-allow", &sb);
	if (ret == KMIG_ENOTFOUND)
		return 0;
	if (ret)
		return kmig_err_git("cannot read .kmig-allow");
	ret = gate_allow_parse(&c->allow, ".kmig-allow", sb.buf ? sb.buf : "",
			       sb.len);
	c->have_allow = !ret;
	sbuf_release(&sb);
	return ret;
}

static void print_header(const struct check *c)
{
	printf("kmig check: ");
	if (!strcmp(c->kind, "commit")) {
		printf("%.12s", c->new_hex);
	} else if (!strcmp(c->kind, "range")) {
		printf("%s (%.12s..%.12s)", c->name, c->old_hex, c->new_hex);
	} else {
		printf("%s", c->name);
		if (c->npatches > 1)
			printf(" (%zu patches)", c->npatches);
	}
	if (c->subject)
		printf(" (\"%s\")", c->subject);
	if (!strcmp(c->kind, "patch"))
		printf(" on %.12s", c->old_hex);
	printf("\n");
}

static void print_text(const struct check *c, const struct gate_change *ch,
		       size_t nallowed)
{
	const char *last_path = NULL, *last_func = NULL;
	size_t i;

	print_header(c);
	if (ch->added.n)
		printf("\n");
	for (i = 0; i < ch->added.n; i++) {
		const struct gate_site *s = &ch->added.v[i];
		const struct rule *r = &rules[s->rule];

		if (s->allow >= 0)
			continue;
		if (s->func && (!last_path || strcmp(last_path, s->path) ||
				!last_func || strcmp(last_func, s->func)))
			printf(">> %s: In function '%s':\n", s->path, s->func);
		last_path = s->path;
		last_func = s->func;
		printf(">> %s:%u: %s: %s \xe2\x80\x94 %s\n", s->path, s->line,
		       r->id, r->title, r->advice);
		printf("\t%s\n", s->text);
	}
	for (i = 0; nallowed && i < ch->added.n; i++) {
		const struct gate_site *s = &ch->added.v[i];
		const struct gate_allow_entry *e;

		if (s->allow < 0)
			continue;
		e = &c->allow.v[s->allow];
		printf("allowed: %s:%u: %s: %s (%s:%u%s%s)\n", s->path, s->line,
		       rules[s->rule].id, rules[s->rule].title, c->allow.name,
		       e->lineno, e->reason ? ": " : "",
		       e->reason ? e->reason : "");
		printf("\t%s\n", s->text);
	}
	if (ch->added.n)
		printf("\n");
	printf("%zu new deprecated uses (%zu allowed)\n", ch->added.n, nallowed);
	if (ch->removed.n)
		printf("%zu deprecated uses removed\n", ch->removed.n);
}

static void json_site(const struct gate_site *s)
{
	printf("{\"path\": ");
	json_string(stdout, s->path);
	printf(", \"line\": %u, \"function\": ", s->line);
	json_string(stdout, s->func);
	printf(", \"rule\": ");
	json_string(stdout, rules[s->rule].id);
	printf(", \"text\": ");
	json_string(stdout, s->text);
}

static void print_json(const struct check *c, const struct gate_change *ch,
		       size_t nallowed)
{
	size_t i;

	printf("{\n  \"change\": {\"kind\": ");
	json_string(stdout, c->kind);
	printf(", \"name\": ");
	json_string(stdout, c->name);
	printf(", \"subject\": ");
	json_string(stdout, c->subject);
	printf(", \"old\": ");
	json_string(stdout, c->old_hex[0] ? c->old_hex : NULL);
	printf(", \"new\": ");
	json_string(stdout, c->new_hex[0] ? c->new_hex : NULL);
	if (!strcmp(c->kind, "patch"))
		printf(", \"patches\": %zu", c->npatches);
	printf("},\n  \"new\": [");
	for (i = 0; i < ch->added.n; i++) {
		const struct gate_site *s = &ch->added.v[i];

		printf("%s\n    ", i ? "," : "");
		json_site(s);
		printf(", \"title\": ");
		json_string(stdout, rules[s->rule].title);
		printf(", \"advice\": ");
		json_string(stdout, rules[s->rule].advice);
		printf(", \"allowed\": %s", s->allow >= 0 ? "true" : "false");
		if (s->allow >= 0) {
			const struct gate_allow_entry *e = &c->allow.v[s->allow];

			printf(", \"allowed_by\": {\"file\": ");
			json_string(stdout, c->allow.name);
			printf(", \"line\": %u, \"reason\": ", e->lineno);
			json_string(stdout, e->reason);
			printf("}");
		}
		printf("}");
	}
	printf("%s],\n  \"removed\": [", ch->added.n ? "\n  " : "");
	for (i = 0; i < ch->removed.n; i++) {
		printf("%s\n    ", i ? "," : "");
		json_site(&ch->removed.v[i]);
		printf("}");
	}
	printf("%s],\n", ch->removed.n ? "\n  " : "");
	printf("  \"summary\": {\"new\": %zu, \"allowed\": %zu, \"removed\": %zu}\n}\n",
	       ch->added.n, nallowed, ch->removed.n);
}

static void check_clear(struct check *c)
{
	git_tree_free(c->old);
	git_tree_free(c->new_);
	free(c->name);
	free(c->subject);
	gate_allow_clear(&c->allow);
	store_close(c->st);
	git_repository_free(c->repo);
}

static int cmd_check_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "patch", required_argument, NULL, 'p' },
		{ "base", required_argument, NULL, 'b' },
		{ "allow", required_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 'f' },
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "text", "json", NULL };
	const char *patch = NULL, *base = NULL, *allow = NULL, *rev = NULL;
	struct check c = { 0 };
	struct gate_touched touched = { 0 };
	struct gate_change ch = { 0 };
	struct gate g = { 0 };
	unsigned long n;
	int opt, fmt = FMT_TEXT, jobs = ncpus(), status = KMIG_EXIT_ERROR, open_ret;
	size_t nallowed;

	while ((opt = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			patch = optarg;
			break;
		case 'b':
			base = optarg;
			break;
		case 'a':
			allow = optarg;
			break;
		case 'f':
			fmt = parse_choice(optarg, formats);
			if (fmt < 0)
				return cmd_usage_error("check", "unknown format '%s'", optarg);
			break;
		case 'j':
			if (opt_uint("check", "--jobs", optarg, 1, KMIG_MAX_JOBS, &n))
				return KMIG_EXIT_ERROR;
			jobs = (int)n;
			break;
		default:
			return cmd_bad_option("check", argv);
		}
	}
	if (optind < argc)
		rev = argv[optind++];
	if (optind < argc)
		return cmd_usage_error("check", "unexpected argument '%s'", argv[optind]);
	if (!rev && !patch)
		return cmd_usage_error("check", "name a change: REV, A..B or --patch FILE");
	if (rev && patch)
		return cmd_usage_error("check", "give either a revision or --patch, not both");
	if (base && !patch)
		return cmd_usage_error("check", "--base only goes with --patch");

	c.ctx = ctx;
	if (repo_open(&c.repo, ctx->repo_path))
		goto out_fail;
	/* the database is optional here: it only speeds things up */
	open_ret = store_open_readonly(&c.st, ctx->db_path);
	if (open_ret && open_ret != KMIG_ENOTFOUND)
		fprintf(stderr, "kmig: note: blob cache not used: %s\n",
			kmig_errmsg());
	if (patch ? resolve_patch(&c, patch, base ? base : "HEAD") :
		    resolve_change(&c, rev))
		goto out_fail;
	gate_init(&g, c.repo, c.st, jobs);
	g.inmem = patch != NULL;
	if (gate_diff_trees(&g, c.old, c.new_, &touched, &ch))
		goto out_fail;
	if (load_allow(&c, allow))
		goto out_fail;
	nallowed = gate_allow_apply(c.have_allow ? &c.allow : NULL, &ch.added);
	if (fmt == FMT_JSON)
		print_json(&c, &ch, nallowed);
	else
		print_text(&c, &ch, nallowed);
	if (progress_enabled())
		fprintf(stderr, "kmig check: %zu files touched, %zu blobs lexed, %zu cached\n",
			touched.before.n > touched.after.n ? touched.before.n :
			touched.after.n, g.lexed, g.cached);
	status = finish_stdout(ch.added.n > nallowed ? KMIG_EXIT_VERDICT :
						       KMIG_EXIT_OK);
	goto out;

out_fail:
	status = cmd_fail_last(KMIG_EXIT_ERROR);
out:
	gate_change_clear(&ch);
	gate_touched_clear(&touched);
	gate_release(&g);
	check_clear(&c);
	return status;
}

const struct kmig_cmd cmd_check = {
	.name = "check",
	.fn = cmd_check_fn,
	.summary = "report only the new deprecated uses a commit, range or patch adds",
	.usage = usage,
};
