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
#include "patch.h"
#include "relinfo.h"
#include "reach.h"
#include "repo.h"
#include "rules.h"
#include "store.h"

static const char usage[] =
	"usage: kmig check [--allow FILE] [--format text|json] [--removed] [--jobs N]\n"
	"                  [--rule ID]... [--skip-rule ID]... [--reach-depth N] REV\n"
	"       kmig check [options] A..B\n"
	"       kmig check [options] --patch FILE [--patch FILE...] [--base REV]\n"
	"\n"
	"Report the deprecated-API uses a change adds.  REV is the change REV^..REV,\n"
	"A..B the whole range as one change, --patch a patch or a series checked as\n"
	"one change.  A patch is a git format-patch mbox (one or more messages, a\n"
	"cover letter allowed, also as a file of its own), an mbox from lore or b4,\n"
	"or a plain unified diff (diff -u, diff -up x.c.orig x.c, diff -ruN, git\n"
	"diff, git diff --no-prefix; the prefix is found as patch(1) finds it: -p1,\n"
	"else -p0); CR LF line ends, quoted-printable or base64 mail bodies and\n"
	"MIME multipart mails with the patch attached are read as git am reads\n"
	"them.  It is applied by 'git apply --cached' on a\n"
	"temporary index, so hunks apply at an offset as git apply allows\n"
	"(reported), and nothing is written to the repository; a patch that does\n"
	"not apply is an error naming the first failing file and hunk.\n"
	"\n"
	"Only the files the change touches are lexed (the blob cache of --db is read\n"
	"when the database exists; check opens it read-only and never fills it:\n"
	"'kmig scan' and 'kmig log' do).  A use is a rule and a whitespace-normalised\n"
	"source text: its line, or all the lines of a call wrapped after its name,\n"
	"joined (spacing between tokens and comments do not count, so re-wrapping a\n"
	"call's arguments adds no use); uses are compared as multisets over all\n"
	"touched files, so moved or renamed code is not new, a second copy is.\n"
	"\n"
	"  --patch FILE     a patch, mbox or diff ('-': standard input); repeat it for\n"
	"                   a series given as several files, in order\n"
	"  --base REV       the tree the patches apply to (default: HEAD of --repo)\n"
	"  --allow FILE     allowlist (default: .kmig-allow at the root of the\n"
	"                   checked tree, if present); lines\n"
	"                   PATH[:FUNCTION] RULE  # reason   (globs allowed; a\n"
	"                   directory ends in '/'); an entry whose PATH matches no\n"
	"                   file is warned about on stderr\n"
	"  --format FMT     text (default, the 0day bot's shape) or json\n"
	"  --removed        list the removed uses too (text; JSON always has them)\n"
	"  -j, --jobs N     lexer threads (default: CPUs)\n"
	"  --rule ID        only the rules matching ID (a glob; repeatable)\n"
	"  --skip-rule ID   not the rules matching ID (a glob; repeatable)\n"
	"\n"
	"The gate judges a change by its base (the tree before it): a new use of a\n"
	"rule whose section the base's own Documentation/process/deprecated.rst\n"
	"lacks, or none of whose replacements the base's include/ defines, does\n"
	"not fail; it is listed as 'info: ... not deprecated in BASE' (JSON:\n"
	"\"informational\": true), and the advice names only the replacements the\n"
	"base defines.  The base's facts come from the database when a scanned\n"
	"release has the same deprecated.rst and include/, else from the base tree.\n"
	"A base without deprecated.rst (or include/) is not judged on that count.\n"
	"  --reach-depth N  warn-on-user: a WARN within N direct calls of an entry\n"
	"                   point user space drives (default 3)\n"
	"\n"
	"warn-on-user: a WARN user space reaches is counted as warn-on-user instead of\n"
	"warn-on, with its call path from the entry point, on the call graph of the\n"
	"newest scanned release at or below the change's base (the database's\n"
	"cached facts) with the touched files in place of theirs.  Without one (no\n"
	"database, or no scanned release under the base) it falls back to the\n"
	"function's name (*_sendmsg, *_recvmsg, *_setsockopt, *_getsockopt, *_ioctl,\n"
	"*_store) and says so.  An allowlist entry for warn-on covers warn-on-user.\n"
	"\n"
	"Text output: a header naming the change (and the base by its tag, as git\n"
	"describe --tags names it), the hunks that applied at an offset, '>> path:\n"
	"line: rule: ...' per new use with its advice (wrapped to 80 columns), the\n"
	"patch of a series that added it and the source text under it, allowed\n"
	"uses, removed uses with --removed, then the summary line 'N new deprecated\n"
	"uses (M allowed)' and, when some were removed, 'K deprecated uses removed'.\n"
	"For a range with uses added or removed, a note follows: uses are matched\n"
	"across files ('kmig report --trend' matches per file); JSON says so in\n"
	"\"matching\": \"across files\" of \"summary\".\n"
	"Exit status: 0 no new uses (or all allowed), 1 new uses, 2 error.\n";

enum { FMT_TEXT, FMT_JSON };

#define WRAP_COLUMNS 80

struct check {
	struct kmig_ctx *ctx;
	git_repository *repo;
	struct store *st;
	git_tree *old, *new_;
	/* the change, for the header */
	const char *kind;	/* "commit", "range" or "patch" */
	char *name;		/* what the user named ("<stdin>" for -) */
	char *subject;		/* commit or patch (cover letter) subject, or NULL */
	char *base;		/* patches: the base as git describe --tags names it */
	char old_hex[GIT_OID_HEXSZ + 1], new_hex[GIT_OID_HEXSZ + 1];
	struct gate_series series;
	struct gate_allow allow;
	bool have_allow;
	/* the base's own facts (relinfo.h) */
	struct relinfo base_ri;
	bool base_from_db;
	char *base_name;	/* the base as git describe --tags names it */
	struct relinfo_since since;	/* from the database, or all NULL */
	char *reach_base;	/* the release whose call graph was used, or NULL */
	unsigned int reach_depth;
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

/* @c by its nearest tag (git describe --tags), else its short hash. */
static char *describe(git_commit *c)
{
	git_describe_options opts;
	git_describe_format_options fopts;
	git_describe_result *res = NULL;
	git_buf buf = { 0 };
	char hex[GIT_OID_HEXSZ + 1], *ret;

	git_describe_options_init(&opts, GIT_DESCRIBE_OPTIONS_VERSION);
	git_describe_format_options_init(&fopts, GIT_DESCRIBE_FORMAT_OPTIONS_VERSION);
	opts.describe_strategy = GIT_DESCRIBE_TAGS;
	fopts.abbreviated_size = 12;
	if (git_describe_commit(&res, (git_object *)c, &opts) < 0 ||
	    git_describe_format(&buf, res, &fopts) < 0) {
		git_describe_result_free(res);
		git_error_clear();
		git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
		return xstrndup(hex, 12);
	}
	ret = xstrdup(buf.ptr);
	git_buf_dispose(&buf);
	git_describe_result_free(res);
	return ret;
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
		return repo_unknown_revision(c->repo, arg);
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

static const char *input_name(const char *file)
{
	return strcmp(file, "-") ? file : "<stdin>";
}

/*
 * The largest patch or mbox check reads: the diff of a whole stable line
 * (v6.1 to v6.1.192) is tens of MiB; /dev/zero or a disk image given by
 * mistake is refused before it fills the memory.
 */
#define CHECK_INPUT_MAX ((size_t)256 << 20)

static int read_input(struct sbuf *sb, const char *file)
{
	if (!strcmp(file, "-"))
		return sbuf_read_fd(sb, STDIN_FILENO, input_name(file),
				    CHECK_INPUT_MAX);
	return sbuf_read_file_max(sb, file, CHECK_INPUT_MAX);
}

/* The patches @files (@n of them) applied on @base, one after the other. */
static int resolve_patch(struct check *c, char **files, size_t n,
			 const char *base)
{
	struct sbuf *sb = xcalloc(n, sizeof(*sb)), names = SBUF_INIT;
	struct gate_patch_input *in = xcalloc(n, sizeof(*in));
	git_commit *commit = NULL;
	size_t i;
	int ret = 0;

	c->kind = "patch";
	for (i = 0; !ret && i < n; i++) {
		ret = read_input(&sb[i], files[i]);
		in[i].name = input_name(files[i]);
		in[i].buf = sb[i].buf ? sb[i].buf : "";
		in[i].len = sb[i].len;
		sbuf_addf(&names, "%s%s", i ? ", " : "", in[i].name);
	}
	c->name = sbuf_detach(&names);
	if (ret)
		goto out_free;
	ret = repo_resolve_commit(&commit, c->repo, base);
	if (ret)
		goto out_free;
	git_oid_tostr(c->old_hex, sizeof(c->old_hex), git_commit_id(commit));
	c->base = describe(commit);
	ret = tree_of(&c->old, commit);
	if (!ret)
		ret = gate_series_apply(&c->series, c->repo, c->old, in, n);
	if (ret)
		goto out_free;
	if (git_object_dup((git_object **)&c->new_,
			   (git_object *)c->series.v[c->series.n - 1].tree) < 0) {
		ret = kmig_err_git("cannot read the patched tree");
		goto out_free;
	}
	if (c->series.cover)
		c->subject = patch_subject(c->series.cover);
	else if (c->series.v[0].subject)
		c->subject = patch_subject(c->series.v[0].subject);
out_free:
	git_commit_free(commit);
	for (i = 0; i < n; i++)
		sbuf_release(&sb[i]);
	free(sb);
	free(in);
	return ret;
}

/*
 * The scanned release whose call graph stands for the change's base: the
 * one at the old commit, else the newest one below it.  0 with *@id 0 when
 * there is none.
 */
static int base_release(struct check *c, long long *id)
{
	struct release_info *rel = NULL;
	git_oid old, oid;
	size_t n = 0, i;
	int ret;

	*id = 0;
	if (!c->st || !c->old_hex[0] || git_oid_fromstr(&old, c->old_hex) < 0)
		return 0;
	ret = store_releases(c->st, &rel, &n);
	if (ret)
		return ret;
	for (i = 0; i < n && !*id; i++)
		if (!strcmp(rel[i].commit, c->old_hex))
			*id = rel[i].id;
	for (i = n; i-- > 0 && !*id;)
		if (!git_oid_fromstr(&oid, rel[i].commit) &&
		    git_graph_descendant_of(c->repo, &old, &oid) == 1)
			*id = rel[i].id;
	git_error_clear();
	for (i = 0; i < n; i++)
		if (rel[i].id == *id)
			c->reach_base = xstrdup(rel[i].tag);
	release_infos_free(rel, n);
	return 0;
}

/* The change's uses, with warn-on-user by the base's call graph if any. */
static int diff_change(struct check *c, struct gate *g,
		       struct gate_touched *t, struct gate_change *ch)
{
	long long base;
	int ret;

	ret = gate_touch(g, c->old, c->new_, true, t);
	if (!ret)
		ret = gate_blobs_load(g, NULL);
	if (!ret)
		ret = base_release(c, &base);
	if (!ret && base)
		ret = gate_reach(g, base, c->reach_depth, t);
	if (!ret)
		ret = gate_compare(g, t, ch);
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

/* How a patch of the series is named: its subject, else its file. */
static const char *patch_title(const struct gate_patch *p)
{
	return p->subject ? p->subject : p->name;
}

/* Columns @s takes: UTF-8 characters, a tab to the next multiple of 8. */
static size_t columns(const char *s, size_t len, size_t col)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '\t')
			col = (col / 8 + 1) * 8;
		else if (((unsigned char)s[i] & 0xc0) != 0x80)
			col++;
	}
	return col;
}

/*
 * Print @lead, then @text wrapped at blanks to WRAP_COLUMNS, continuation
 * lines indented by three blanks (a word longer than a line stays whole).
 */
static void print_wrapped(const char *lead, const char *text)
{
	const char *p = text;
	size_t col = columns(lead, strlen(lead), 0);
	bool first = true;

	fputs(lead, stdout);
	while (*p) {
		const char *w = p;
		size_t wlen, wcols;

		while (*p == ' ')
			p++;
		w = p;
		while (*p && *p != ' ')
			p++;
		wlen = (size_t)(p - w);
		if (!wlen)
			break;
		wcols = columns(w, wlen, 0);
		if (!first && col + 1 + wcols > WRAP_COLUMNS) {
			printf("\n   ");
			col = 3;
		} else if (!first) {
			putchar(' ');
			col++;
		}
		fwrite(w, 1, wlen, stdout);
		col += wcols;
		first = false;
	}
	putchar('\n');
}

/* "@s" on stdout, its control bytes escaped: a subject stays one line. */
static void print_quoted_line(const char *s)
{
	putchar('"');
	fput_line_escaped(stdout, s);
	putchar('"');
}

/*
 * The first line: what is checked on what.  A patch's or a range's name
 * is C-quoted when it holds a control byte, '"' or '\\' (text_name()),
 * a subject's control bytes escaped: one line whatever the input.
 */
static void print_header(const struct check *c)
{
	const struct gate_series *s = &c->series;

	printf("kmig check: ");
	if (!strcmp(c->kind, "commit")) {
		printf("%.12s", c->new_hex);
	} else if (!strcmp(c->kind, "range")) {
		text_name(stdout, c->name);
		printf(" (%.12s..%.12s)", c->old_hex, c->new_hex);
	} else if (s->n > 1) {
		text_name(stdout, c->name);
		if (s->cover) {
			printf(": ");
			print_quoted_line(s->cover);
			printf(" (%zu patches) on ", s->n);
		} else {
			printf(": series of %zu patches: ", s->n);
			print_quoted_line(patch_title(&s->v[0]));
			printf(" \xe2\x80\xa6 on ");
		}
		text_name(stdout, c->base);
		putchar('\n');
		return;
	} else {
		text_name(stdout, c->name);
	}
	if (c->subject) {
		printf(" (");
		print_quoted_line(c->subject);
		putchar(')');
	}
	if (!strcmp(c->kind, "patch")) {
		printf(" on ");
		text_name(stdout, c->base);
	}
	putchar('\n');
}

static void print_offsets(const struct check *c)
{
	const struct gate_series *s = &c->series;
	size_t i;

	for (i = 0; i < s->noff; i++) {
		const struct gate_offset *o = &s->off[i];
		long off = o->offset < 0 ? -o->offset : o->offset;

		printf("note: ");
		if (s->n > 1)
			printf("%s: ", patch_title(&s->v[o->patch]));
		text_name(stdout, o->path);
		printf(": hunk #%u applied at line %ld (offset %s%ld line%s)\n",
		       o->hunk, o->line, o->offset < 0 ? "-" : "+", off,
		       off == 1 ? "" : "s");
	}
}

static void print_site_line(const char *what, const struct gate_site *s)
{
	printf("%s: ", what);
	text_name(stdout, s->path);
	printf(":%u: %s: %s\n", s->line, rules[s->rule].id,
	       rules[s->rule].title);
	printf("\t%s\n", s->text);
}

/* Why the base does not deprecate a use of rule @r (malloc'd). */
static char *info_reason(const struct check *c, int r)
{
	const struct relinfo *ri = &c->base_ri;
	struct sbuf sb = SBUF_INIT;
	int i;

	sbuf_addf(&sb, "not deprecated in %s:", c->base_name);
	if (ri->have_doc && rules[r].sections && !ri->documented[r]) {
		sbuf_addf(&sb, " its deprecated.rst has no section \"%s\"",
			  rules[r].sections[0]);
		if (c->since.doc[r])
			sbuf_addf(&sb, " (documented since %s)", c->since.doc[r]);
	}
	if (ri->have_include && !relinfo_has_repl(ri, r)) {
		if (sb.buf[sb.len - 1] != ':')
			sbuf_addch(&sb, ';');
		sbuf_addstr(&sb, " its include/ defines none of");
		for (i = 0; i < rule_nrepl(r); i++)
			sbuf_addf(&sb, "%s %s()", i ? "," : "", rules[r].repl[i]);
		if (c->since.repl[r])
			sbuf_addf(&sb, " (defined since %s)", c->since.repl[r]);
	}
	return sbuf_detach(&sb);
}

/* Does the change add a vla that a header's constants could make none? */
static bool vla_note(const struct gate_change *ch)
{
	size_t i;

	for (i = 0; i < ch->added.n; i++)
		if (ch->added.v[i].rule == RULE_VLA && ch->added.v[i].deps)
			return true;
	return false;
}

/* Does the change add or remove a WARN (so how it was judged matters)? */
static bool reach_note(const struct gate_change *ch)
{
	size_t i;

	for (i = 0; i < ch->added.n; i++)
		if (ch->added.v[i].rule == RULE_WARN_ON ||
		    ch->added.v[i].rule == RULE_WARN_ON_USER)
			return true;
	for (i = 0; i < ch->removed.n; i++)
		if (ch->removed.v[i].rule == RULE_WARN_ON ||
		    ch->removed.v[i].rule == RULE_WARN_ON_USER)
			return true;
	return false;
}

static void print_text(const struct check *c, const struct gate_change *ch,
		       size_t nallowed, bool removed)
{
	const char *last_path = NULL, *last_func = NULL;
	size_t i, ninfo = 0;

	print_header(c);
	print_offsets(c);
	if (ch->added.n)
		printf("\n");
	for (i = 0; i < ch->added.n; i++) {
		const struct gate_site *s = &ch->added.v[i];
		const struct rule *r = &rules[s->rule];
		struct sbuf line = SBUF_INIT;
		char *advice;

		if (s->allow >= 0 || s->info)
			continue;
		if (s->func && (!last_path || strcmp(last_path, s->path) ||
				!last_func || strcmp(last_func, s->func))) {
			printf(">> ");
			text_name(stdout, s->path);
			printf(": In function '");
			text_name(stdout, s->func);
			printf("':\n");
		}
		last_path = s->path;
		last_func = s->func;
		advice = relinfo_advice(&c->base_ri, s->rule);
		/* ">> " the lead: a long path never leaves ">>" alone on a line */
		sbuf_add_cquoted(&line, s->path, 0);
		sbuf_addf(&line, ":%u: %s: %s \xe2\x80\x94 %s", s->line, r->id,
			  r->title, advice);
		print_wrapped(">> ", line.buf);
		sbuf_release(&line);
		free(advice);
		if (c->series.n > 1 && s->patch >= 0)
			print_wrapped("   in ", patch_title(&c->series.v[s->patch]));
		if (s->chain) {
			printf("   reached: ");
			text_name(stdout, s->chain);
			printf(": %s\n", s->text);
		}
		printf("\t%s\n", s->text);
	}
	for (i = 0; nallowed && i < ch->added.n; i++) {
		const struct gate_site *s = &ch->added.v[i];
		const struct gate_allow_entry *e;

		if (s->allow < 0 || s->info)
			continue;
		e = &c->allow.v[s->allow];
		printf("allowed: ");
		text_name(stdout, s->path);
		printf(":%u: %s: %s (%s:%u%s%s)\n", s->line, rules[s->rule].id,
		       rules[s->rule].title, c->allow.name, e->lineno,
		       e->reason ? ": " : "", e->reason ? e->reason : "");
		printf("\t%s\n", s->text);
	}
	for (i = 0; i < ch->added.n; i++) {
		const struct gate_site *s = &ch->added.v[i];
		struct sbuf line = SBUF_INIT;
		char *why;

		if (!s->info)
			continue;
		ninfo++;
		why = info_reason(c, s->rule);
		sbuf_addstr(&line, "info: ");
		sbuf_add_cquoted(&line, s->path, 0);
		sbuf_addf(&line, ":%u: %s: %s \xe2\x80\x94 %s", s->line,
			  rules[s->rule].id, rules[s->rule].title, why);
		print_wrapped("", line.buf);
		printf("\t%s\n", s->text);
		sbuf_release(&line);
		free(why);
	}
	for (i = 0; removed && i < ch->removed.n; i++)
		print_site_line("removed", &ch->removed.v[i]);
	if (ch->added.n || (removed && ch->removed.n))
		printf("\n");
	printf("%zu new deprecated use%s (%zu allowed)\n", ch->added.n - ninfo,
	       plural(ch->added.n - ninfo), nallowed);
	if (ninfo)
		printf("%zu new use%s %s not deprecated in %s (informational)\n",
		       ninfo, plural(ninfo), ninfo == 1 ? "is" : "are",
		       c->base_name);
	if (ch->removed.n)
		printf("%zu deprecated use%s removed\n", ch->removed.n,
		       plural(ch->removed.n));
	if (reach_note(ch))
		printf(c->reach_base ?
		       "note: warn-on-user: call graph of %s with the change, %u calls deep\n" :
		       "note: warn-on-user by function name only (%s): run 'kmig scan' for the call graph\n",
		       c->reach_base ? c->reach_base : "no scanned release under the base",
		       c->reach_depth);
	if (!c->reach_base && vla_note(ch))
		printf("note: vla sizes judged by the changed files' own definitions only (no scanned release under the base): run 'kmig scan' for the headers' constants\n");
	/* a range's counts differ from the trend's when uses moved between files */
	if (!strcmp(c->kind, "range") && (ch->added.n || ch->removed.n))
		printf("note: uses are matched across files (a use moved to another file is neither added nor removed); 'kmig report --trend' matches per file\n");
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
	if (s->rule == RULE_WARN_ON_USER) {
		printf(", \"reached\": ");
		json_string(stdout, s->chain);
	}
}

static void json_series(const struct check *c)
{
	const struct gate_series *s = &c->series;
	size_t i;

	printf(", \"base\": ");
	json_string(stdout, c->base);
	printf(", \"patches\": %zu, \"cover\": ", s->n);
	json_string(stdout, s->cover);
	printf(", \"series\": [");
	for (i = 0; i < s->n; i++) {
		printf("%s{\"file\": ", i ? ", " : "");
		json_string(stdout, s->v[i].name);
		printf(", \"subject\": ");
		json_string(stdout, s->v[i].subject);
		printf(", \"strip\": %d}", s->v[i].strip);
	}
	printf("], \"offsets\": [");
	for (i = 0; i < s->noff; i++) {
		const struct gate_offset *o = &s->off[i];

		printf("%s{\"patch\": %zu, \"path\": ", i ? ", " : "",
		       o->patch + 1);
		json_string(stdout, o->path);
		printf(", \"hunk\": %u, \"line\": %ld, \"offset\": %ld}",
		       o->hunk, o->line, o->offset);
	}
	printf("]");
}

static void print_json(const struct check *c, const struct gate_change *ch,
		       size_t nallowed)
{
	bool patch = !strcmp(c->kind, "patch");
	size_t i, ninfo = 0;

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
	if (patch)
		json_series(c);
	printf("},\n  \"new\": [");
	for (i = 0; i < ch->added.n; i++) {
		const struct gate_site *s = &ch->added.v[i];

		printf("%s\n    ", i ? "," : "");
		json_site(s);
		printf(", \"title\": ");
		json_string(stdout, rules[s->rule].title);
		printf(", \"advice\": ");
		{
			char *advice = relinfo_advice(&c->base_ri, s->rule);

			json_string(stdout, advice);
			free(advice);
		}
		printf(", \"informational\": %s", s->info ? "true" : "false");
		if (s->info) {
			char *why = info_reason(c, s->rule);

			ninfo++;
			printf(", \"reason\": ");
			json_string(stdout, why);
			free(why);
		}
		if (patch) {
			printf(", \"patch\": ");
			if (s->patch >= 0)
				printf("%d", s->patch + 1);
			else
				printf("null");
			printf(", \"patch_subject\": ");
			json_string(stdout, s->patch >= 0 ?
				    patch_title(&c->series.v[s->patch]) : NULL);
		}
		printf(", \"allowed\": %s", s->allow >= 0 && !s->info ? "true" : "false");
		if (s->allow >= 0 && !s->info) {
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
	printf("  \"base\": {\"name\": ");
	json_string(stdout, c->base_name);
	printf(", \"facts\": \"%s\", \"not_deprecated\": [",
	       c->base_from_db ? "database" : "tree");
	{
		bool first = true;
		int r;

		for (r = 0; r < RULE__COUNT; r++) {
			if (relinfo_in_force(&c->base_ri, r))
				continue;
			printf("%s", first ? "" : ", ");
			json_string(stdout, rules[r].id);
			first = false;
		}
	}
	printf("], \"informational\": %zu},\n", ninfo);
	printf("  \"reach\": {\"graph\": ");
	json_string(stdout, c->reach_base);
	printf(", \"depth\": %u, \"by\": \"%s\"},\n", c->reach_depth,
	       c->reach_base ? "call graph" : "function name");
	printf("  \"summary\": {\"new\": %zu, \"allowed\": %zu, \"removed\": %zu, \"matching\": \"across files\"}\n}\n",
	       ch->added.n - ninfo, nallowed, ch->removed.n);
}

/* Warn about allowlist entries that match no file of the checked tree. */
static void warn_unmatched(const struct check *c)
{
	size_t *idx = NULL, n, i;

	if (!c->have_allow)
		return;
	n = gate_allow_unmatched(&c->allow, c->new_, &idx);
	for (i = 0; i < n; i++) {
		const struct gate_allow_entry *e = &c->allow.v[idx[i]];
		size_t len = strlen(e->path);
		bool dir = len && e->path[len - 1] != '/' &&
			   gate_tree_has(c->new_, e->path, true);

		fprintf(stderr, "kmig: warning: %s:%u: '%s' matches no file%s%s%s\n",
			c->allow.name, e->lineno, e->path,
			dir ? " (a directory: write '" : "", dir ? e->path : "",
			dir ? "/')" : "");
	}
	free(idx);
}

static void check_clear(struct check *c)
{
	git_tree_free(c->old);
	git_tree_free(c->new_);
	free(c->name);
	free(c->subject);
	free(c->base);
	free(c->base_name);
	relinfo_since_clear(&c->since);
	free(c->reach_base);
	gate_series_clear(&c->series);
	gate_allow_clear(&c->allow);
	store_close(c->st);
	git_repository_free(c->repo);
}

/*
 * The base's facts (from the database when a scanned release has the same
 * deprecated.rst and include/, else from its tree) and its name.  The base
 * of a root commit is the commit's own tree.
 */
static int judge_base(struct check *c)
{
	git_commit *commit = NULL;
	git_oid oid;
	int ret;

	ret = relinfo_for_tree(&c->base_ri, c->st, c->repo,
			       c->old ? c->old : c->new_, &c->base_from_db);
	if (ret)
		return ret;
	if (c->st && relinfo_since_load(c->st, &c->since))
		memset(&c->since, 0, sizeof(c->since));	/* only for messages */
	if (c->base) {
		c->base_name = xstrdup(c->base);
	} else if (c->old_hex[0] && !git_oid_fromstr(&oid, c->old_hex) &&
		   !git_commit_lookup(&commit, c->repo, &oid)) {
		c->base_name = describe(commit);
		git_commit_free(commit);
	} else {
		c->base_name = xstrndup(c->new_hex, 12);
	}
	return 0;
}

/* The arguments that go together; 0 or the usage error's exit status. */
static int check_args(int argc, char **argv, const char *rev,
		      char *const *patches, size_t npatches, const char *base)
{
	size_t i, nstdin = 0;

	for (i = 0; i < npatches; i++)
		nstdin += !strcmp(patches[i], "-");
	if (nstdin > 1)
		return cmd_usage_error("check", "--patch -: standard input can be read once, not %zu times",
				       nstdin);
	if (optind < argc)
		return cmd_usage_error("check", "unexpected argument '%s'", argv[optind]);
	if (!rev && !npatches)
		return cmd_usage_error("check", "name a change: REV, A..B or --patch FILE");
	if (rev && npatches)
		return cmd_usage_error("check", "give either a revision or --patch, not both");
	if (base && !npatches)
		return cmd_usage_error("check", "--base only goes with --patch");
	return 0;
}

static int cmd_check_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "patch", required_argument, NULL, 'p' },
		{ "base", required_argument, NULL, 'b' },
		{ "allow", required_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 'f' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "removed", no_argument, NULL, 'r' },
		{ "rule", required_argument, NULL, 'R' },
		{ "skip-rule", required_argument, NULL, 'S' },
		{ "reach-depth", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "text", "json", NULL };
	const char *base = NULL, *allow = NULL, *rev = NULL;
	char **patches = NULL, **want = NULL, **skip = NULL;
	size_t npatches = 0, apatches = 0, nwant = 0, awant = 0, nskip = 0,
	       askip = 0;
	bool removed = false;
	struct check c = { 0 };
	struct gate_touched touched = { 0 };
	struct gate_change ch = { 0 };
	struct gate g = { 0 };
	char *image = NULL;
	unsigned long n;
	int opt, fmt = FMT_TEXT, jobs = ncpus(), status = KMIG_EXIT_ERROR, open_ret;
	size_t nallowed, nfail, i;

	c.reach_depth = REACH_DEFAULT_DEPTH;
	while ((opt = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			ALLOC_GROW(patches, npatches + 1, apatches);
			patches[npatches++] = optarg;
			break;
		case 'r':
			removed = true;
			break;
		case 'R':
			ALLOC_GROW(want, nwant + 1, awant);
			want[nwant++] = optarg;
			break;
		case 'S':
			ALLOC_GROW(skip, nskip + 1, askip);
			skip[nskip++] = optarg;
			break;
		case 'b':
			base = optarg;
			break;
		case 'a':
			allow = optarg;
			break;
		case 'f':
			fmt = parse_choice(optarg, formats);
			if (fmt < 0) {
				status = cmd_usage_error("check", "unknown format '%s'", optarg);
				goto out_free_args;
			}
			break;
		case 'j':
			if (opt_uint("check", "--jobs", optarg, 1, KMIG_MAX_JOBS, &n))
				goto out_free_args;
			jobs = (int)n;
			break;
		case 'd':
			if (opt_uint("check", "--reach-depth", optarg, 0,
				     REACH_MAX_DEPTH, &n))
				goto out_free_args;
			c.reach_depth = (unsigned int)n;
			break;
		default:
			status = cmd_bad_option("check", argv);
			goto out_free_args;
		}
	}
	if (optind < argc)
		rev = argv[optind++];
	status = check_args(argc, argv, rev, patches, npatches, base);
	if (!status && (rule_globs_check(want, nwant, "--rule") ||
			rule_globs_check(skip, nskip, "--skip-rule")))
		status = cmd_fail_last(KMIG_EXIT_ERROR);	/* it names kmig rules */
out_free_args:
	if (status) {
		free(patches);
		free(want);
		free(skip);
		return status;
	}
	status = KMIG_EXIT_ERROR;

	c.ctx = ctx;
	if (repo_open(&c.repo, ctx->repo_path))
		goto out_fail;
	/* the database is optional here: it only speeds things up */
	open_ret = store_open_readonly(&c.st, ctx->db_path);
	if (open_ret && open_ret != KMIG_ENOTFOUND)
		fprintf(stderr, "kmig: note: blob cache not used: %s\n",
			kmig_errmsg());
	if (npatches ? resolve_patch(&c, patches, npatches, base ? base : "HEAD") :
		       resolve_change(&c, rev))
		goto out_fail;
	gate_init(&g, c.repo, c.st, jobs);
	g.inmem = npatches > 0;
	if (c.st) {	/* kmig scan's graph cache, next to the database */
		image = xasprintf("%s-graph", ctx->db_path);
		g.graph_image = image;
	}
	if (diff_change(&c, &g, &touched, &ch))
		goto out_fail;
	if (npatches && gate_series_attribute(&g, &c.series, c.old, &ch.added))
		goto out_fail;
	if (load_allow(&c, allow))
		goto out_fail;
	warn_unmatched(&c);
	if (judge_base(&c))
		goto out_fail;
	/* all read: leave no temporary files behind, even if printing fails */
	gate_series_drop_objects(&c.series);
	gate_sites_filter(&ch.added, want, nwant, skip, nskip);
	gate_sites_filter(&ch.removed, want, nwant, skip, nskip);
	gate_allow_apply(c.have_allow ? &c.allow : NULL, &ch.added);
	gate_judge(&ch.added, &c.base_ri);
	nallowed = nfail = 0;
	for (i = 0; i < ch.added.n; i++) {
		if (ch.added.v[i].info)
			continue;
		if (ch.added.v[i].allow >= 0)
			nallowed++;
		else
			nfail++;
	}
	status = stdout_hold(fmt == FMT_TEXT);
	if (status)
		goto out;
	if (fmt == FMT_JSON)
		print_json(&c, &ch, nallowed);
	else
		print_text(&c, &ch, nallowed, removed);
	if (progress_enabled())
		fprintf(stderr, "kmig check: %zu files touched, %zu blobs lexed, %zu cached\n",
			touched.before.n > touched.after.n ? touched.before.n :
			touched.after.n, g.lexed, g.cached);
	status = stdout_release(nfail ? KMIG_EXIT_VERDICT : KMIG_EXIT_OK);
	goto out;

out_fail:
	status = cmd_fail_last(KMIG_EXIT_ERROR);
out:
	gate_change_clear(&ch);
	gate_touched_clear(&touched);
	gate_release(&g);
	free(image);
	check_clear(&c);
	free(patches);
	free(want);
	free(skip);
	return status;
}

const struct kmig_cmd cmd_check = {
	.name = "check",
	.fn = cmd_check_fn,
	.summary = "report only the new deprecated uses a commit, range or patch adds",
	.usage = usage,
};
