// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-convert.c - generate conversion patches with Coccinelle: run the
 * project's semantic patch for a rule over exactly the files of a release
 * that use the rule, split the result per MAINTAINERS section and append
 * one format-patch file per section to the series.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "branch.h"
#include "builtin.h"
#include "child.h"
#include "datadir.h"
#include "lexer.h"
#include "maintainers.h"
#include "repo.h"
#include "rules.h"
#include "series.h"
#include "store.h"

#define DEFAULT_BASE "v6.1.192"

static const char usage[] =
	"usage: kmig convert RULE [--base TAG] [--subsystem NAME]... [--max-patches N]\n"
	"                    [--jobs N] [--series DIR] [--dry-run]\n"
	"\n"
	"Run the semantic patch tracker/cocci/RULE.cocci (Coccinelle's spatch) over\n"
	"exactly the files of release TAG (default " DEFAULT_BASE ") that use RULE\n"
	"according to the database (run 'kmig scan' first), split the result per\n"
	"MAINTAINERS section of that release and write one git format-patch file\n"
	"per section to the series directory DIR (default ./branch-patches, else\n"
	"the one next to the kmig binary), appended to DIR/series.\n"
	"\n"
	"Each patch has a kernel commit message: a subject prefix from the\n"
	"section's directory (e.g. \"net: rds:\"), the reason from\n"
	"Documentation/process/deprecated.rst of TAG, a Kmig-Rule: trailer and a\n"
	"Signed-off-by: for $KMIG_IDENTITY (\"Name <email>\"; default kmig\n"
	"<kmig@localhost>).  The date is $SOURCE_DATE_EPOCH when set.\n"
	"\n"
	"  --subsystem NAME  only this MAINTAINERS section (repeatable)\n"
	"  --max-patches N   at most N patches (sections in name order)\n"
	"  --jobs N          spatch processes (default: CPUs)\n"
	"  --dry-run         print what would be written, write nothing\n"
	"\n"
	"Uses the semantic patch cannot convert (for strlcpy: the return value is\n"
	"used) are listed as \"not converted\".  Semantic patches: strlcpy,\n"
	"alloc-arith.  $KMIG_COCCI_DIR overrides where they are looked up.\n";

/* What kmig says about each rule it can convert. */
static const struct convert_rule {
	const char *rule;
	const char *subject;
	const char *why;	/* after the deprecated.rst reason */
} convert_rules[] = {
	{ "strlcpy", "Replace strlcpy() with strscpy()",
	  "The return value of strlcpy() is not used at any call site changed\n"
	  "here, so strscpy() is a drop-in replacement." },
	{ "alloc-arith", "Use 2-factor allocators for open-coded multiplication",
	  "kmalloc_array(), kcalloc() and array_size() check the product for\n"
	  "overflow instead of allocating a short buffer." },
};

struct cfile {
	char *path;
	const char *section;
	git_oid oid;
	long long uses;		/* from the database */
	struct sbuf after;	/* the converted content */
	bool changed;
	size_t left;		/* uses left after the conversion */
};

struct csection {
	const char *name;
	size_t *files;		/* indexes into the file array */
	size_t n, alloc;
	long long converted;
};

struct convert_opts {
	const char *rule;
	const char *base;
	const char *series;
	char **subsystems;
	size_t nsubsystems, asubsystems;
	long max_patches;
	int jobs;
	bool dry_run;
};

static char *cocci_file(const char *rule)
{
	char *name = xasprintf("%s.cocci", rule), *path;

	path = datadir_file(DATADIR_COCCI, name);
	free(name);
	return path;
}

static int path_blob(git_tree *tree, const char *path,
		     git_oid *oid)
{
	git_tree_entry *te = NULL;

	if (git_tree_entry_bypath(&te, tree, path) < 0)
		return kmig_errcode(KMIG_ENOTFOUND, "'%s' is not in the base tree", path);
	git_oid_cpy(oid, git_tree_entry_id(te));
	git_tree_entry_free(te);
	return 0;
}

/*
 * deprecated_reason - the first paragraph of the deprecated.rst section
 * titled @title in @tree, re-wrapped at 72 columns, rst ``markup``
 * removed; NULL when the file or the section is missing.
 */
static char *deprecated_reason(git_repository *repo, git_tree *tree,
			       const char *title)
{
	struct sbuf rst = SBUF_INIT, para = SBUF_INIT, out = SBUF_INIT;
	const char *p, *e;
	char *save = NULL, *word;
	int state = 0;		/* 0: title, 1: underline, 2: text */
	size_t col = 0;

	if (repo_blob_at(repo, tree, "Documentation/process/deprecated.rst", &rst) ||
	    !rst.len) {
		sbuf_release(&rst);
		return NULL;
	}
	p = rst.buf;
	e = rst.buf + rst.len;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(e - p);

		if (state == 0 && n == strlen(title) && !memcmp(p, title, n)) {
			state = 1;
		} else if (state == 1) {
			state = 2;	/* the "-----" line */
		} else if (state == 2) {
			if (!n && para.len)
				break;	/* the end of the first paragraph */
			sbuf_add(&para, p, n);
			sbuf_addch(&para, ' ');
		}
		p = nl ? nl + 1 : e;
	}
	if (!para.len) {
		sbuf_release(&rst);
		sbuf_release(&para);
		return NULL;
	}
	for (word = strtok_r(para.buf, " \t", &save); word;
	     word = strtok_r(NULL, " \t", &save)) {
		struct sbuf w = SBUF_INIT;
		const char *q;

		for (q = word; *q; q++)
			if (strncmp(q, "``", 2))
				sbuf_addch(&w, *q);
			else
				q++;
		if (!w.len) {
			sbuf_release(&w);
			continue;
		}
		if (col && col + 1 + w.len > 72) {
			sbuf_addch(&out, '\n');
			col = 0;
		} else if (col) {
			sbuf_addch(&out, ' ');
			col++;
		}
		sbuf_add(&out, w.buf, w.len);
		col += w.len;
		sbuf_release(&w);
	}
	sbuf_release(&rst);
	sbuf_release(&para);
	return out.len ? sbuf_detach(&out) : NULL;
}

/*
 * subject_prefix - "net: rds:" from the common directory of the files:
 * drivers/ and arch/ are dropped, then the first and the last component
 * of what remains are used ("drivers/scsi/qla2xxx" -> "scsi: qla2xxx:");
 * a lone file directly in such a directory adds its name ("scsi:
 * 3w-sas:"), and the DRM tree uses its own "drm/<driver>:" style.
 */
static char *subject_prefix(struct cfile *files, const struct csection *s)
{
	char *common = xstrdup(files[s->files[0]].path), *slash, *c, *first, *last;
	size_t i, n;

	slash = strrchr(common, '/');
	if (slash)
		*slash = '\0';
	else
		*common = '\0';
	for (i = 1; i < s->n; i++) {
		const char *p = files[s->files[i]].path;

		n = strlen(common);
		while (n && (strncmp(p, common, n) || p[n] != '/')) {
			slash = strrchr(common, '/');
			if (slash)
				*slash = '\0';
			else
				*common = '\0';
			n = strlen(common);
		}
	}
	c = common;
	if (!strncmp(c, "drivers/", 8) || !strncmp(c, "arch/", 5))
		c = strchr(c, '/') + 1;
	if (!*c) {
		free(common);
		return xstrdup("treewide:");
	}
	first = xstrndup(c, strcspn(c, "/"));
	last = strrchr(c, '/');
	if (!last && s->n == 1) {
		/* one file in a shared directory: name the file, "scsi: 3w-xxxx:" */
		const char *base = strrchr(files[s->files[0]].path, '/');
		char *stem = xstrdup(base ? base + 1 : files[s->files[0]].path);
		char *r;

		stem[strcspn(stem, ".")] = '\0';
		r = xasprintf("%s: %s:", first, stem);
		free(stem);
		free(first);
		free(common);
		return r;
	}
	if (last && !strncmp(c, "gpu/drm/", 8) && strcmp(last + 1, "drm")) {
		/* the DRM tree's own style: "drm/rockchip:" */
		char *r = xasprintf("drm/%s:", last + 1);

		free(first);
		free(common);
		return r;
	}
	if (last && strcmp(last + 1, first)) {
		char *r = xasprintf("%s: %s:", first, last + 1);

		free(first);
		free(common);
		return r;
	}
	free(common);
	c = xasprintf("%s:", first);
	free(first);
	return c;
}

static int cmp_section(const void *a, const void *b)
{
	return strcmp(((const struct csection *)a)->name,
		      ((const struct csection *)b)->name);
}

static bool wanted(const struct convert_opts *o, const char *section)
{
	size_t i;

	if (!o->nsubsystems)
		return true;
	for (i = 0; i < o->nsubsystems; i++)
		if (!strcmp(o->subsystems[i], section))
			return true;
	return false;
}

static int write_tmp_file(const char *dir, const char *path, const struct sbuf *sb)
{
	char *full = xasprintf("%s/%s", dir, path), *slash = strrchr(full, '/');
	FILE *f;
	int ret = 0;

	*slash = '\0';
	ret = mkdir_p(full);
	*slash = '/';
	if (ret)
		goto out;
	f = fopen(full, "w");
	if (!f) {
		ret = kmig_err("cannot create '%s': %s", full, strerror(errno));
		goto out;
	}
	if (sb->len)
		fwrite(sb->buf, 1, sb->len, f);
	if (fclose(f))
		ret = kmig_err("cannot write '%s': %s", full, strerror(errno));
out:
	free(full);
	return ret;
}

/* run_spatch - run the semantic patch in place over every file below @dir. */
static int run_spatch(const char *cocci, const char *dir, int jobs)
{
	char jobs_s[16], *log = xasprintf("%s.log", dir);
	char *argv[] = { "spatch", "--sp-file", (char *)cocci, "--very-quiet",
			 "-D", "patch", "--no-includes", "--include-headers",
			 "--in-place", "--no-show-diff", "-j", jobs_s, "--dir",
			 (char *)dir, NULL };
	int ret;

	snprintf(jobs_s, sizeof(jobs_s), "%d", jobs);
	ret = child_run_status(&(struct child_opts){ .argv = argv, .out_path = log,
						     .append = true,
						     .kill_signal = SIGTERM });
	if (ret < 0)
		ret = kmig_err("cannot run spatch (install coccinelle: make deps)");
	else if (ret > 0)
		ret = kmig_err("spatch failed with status %d (see '%s')", ret, log);
	else
		unlink(log);
	free(log);
	return ret;
}

/* section_diff - the diff of the section's files, and its diffstat. */
static int section_diff(git_repository *repo, struct cfile *files,
			const struct csection *s, struct sbuf *diff,
			struct sbuf *stat)
{
	git_diff_options opts;
	git_diff *d = NULL;
	git_diff_stats *stats = NULL;
	git_buf sbuf = { 0 };
	size_t i;
	int ret = 0;

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.id_abbrev = 12;
	for (i = 0; i < s->n; i++) {
		struct cfile *f = &files[s->files[i]];
		git_blob *old = NULL;
		git_patch *patch = NULL;
		git_buf b = { 0 };

		if (!f->changed)
			continue;
		if (git_blob_lookup(&old, repo, &f->oid) < 0 ||
		    git_patch_from_blob_and_buffer(&patch, old, f->path,
						   f->after.buf, f->after.len,
						   f->path, &opts) < 0 ||
		    git_patch_to_buf(&b, patch) < 0)
			ret = kmig_err_git("cannot diff");
		else
			sbuf_add(diff, b.ptr, b.size);
		git_buf_dispose(&b);
		git_patch_free(patch);
		git_blob_free(old);
		if (ret)
			return ret;
	}
	if (git_diff_from_buffer(&d, diff->buf, diff->len) < 0 ||
	    git_diff_get_stats(&stats, d) < 0 ||
	    git_diff_stats_to_buf(&sbuf, stats, GIT_DIFF_STATS_FULL |
				  GIT_DIFF_STATS_INCLUDE_SUMMARY, 72) < 0)
		ret = kmig_err_git("cannot compute the diffstat");
	else
		sbuf_add(stat, sbuf.ptr, sbuf.size);
	git_buf_dispose(&sbuf);
	git_diff_stats_free(stats);
	git_diff_free(d);
	return ret;
}

/* existing_subjects - subjects of the series' patches, to skip repeats. */
static bool subject_in_series(const struct series *s, const char *subject)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct mbox_patch p;
		char *path = series_path(s, s->names[i]);
		bool same = !mbox_read(&p, path) && !strcmp(p.subject, subject);

		mbox_patch_clear(&p);
		free(path);
		if (same)
			return true;
	}
	return false;
}

static int parse_opts(struct convert_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "subsystem", required_argument, NULL, 's' },
		{ "max-patches", required_argument, NULL, 'm' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "series", required_argument, NULL, 'S' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long n;
	int opt;

	o->base = DEFAULT_BASE;
	o->jobs = ncpus();
	o->max_patches = -1;
	while ((opt = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (opt) {
		case 'b':
			o->base = optarg;
			break;
		case 's':
			ALLOC_GROW(o->subsystems, o->nsubsystems + 1, o->asubsystems);
			o->subsystems[o->nsubsystems++] = optarg;
			break;
		case 'm':
			if (opt_uint("convert", "--max-patches", optarg, 1, INT_MAX, &n))
				return KMIG_EXIT_ERROR;
			o->max_patches = (long)n;
			break;
		case 'j':
			if (opt_uint("convert", "--jobs", optarg, 1, KMIG_MAX_JOBS, &n))
				return KMIG_EXIT_ERROR;
			o->jobs = (int)n;
			break;
		case 'S':
			o->series = optarg;
			break;
		case 'n':
			o->dry_run = true;
			break;
		default:
			return cmd_bad_option("convert", argv);
		}
	}
	if (optind >= argc)
		return cmd_usage_error("convert", "missing RULE");
	o->rule = argv[optind++];
	if (optind < argc)
		return cmd_usage_error("convert", "unexpected argument '%s'", argv[optind]);
	return 0;
}

/* The state of one "kmig convert" run. */
struct convert {
	struct convert_opts o;
	const struct convert_rule *cr;
	int rule;
	git_repository *repo;
	git_tree *tree;
	struct store *st;
	struct maintainers *maint;
	struct series series;
	struct cfile *files;
	size_t nfiles, afiles;
	struct csection *sections;
	size_t nsections, asections;
	char *cocci, *dir, *tmp, *reason, *idname, *idemail;
	long long when;
	size_t left;		/* uses not converted */
};

/* convert_open - the repository, the base tree, its MAINTAINERS, the series. */
static int convert_open(struct convert *c, struct kmig_ctx *ctx)
{
	struct release_info rel = { 0 };
	git_commit *base = NULL;
	struct sbuf m = SBUF_INIT;
	size_t i;
	int ret;

	ret = repo_open(&c->repo, ctx->repo_path);
	if (!ret)
		ret = repo_resolve_commit(&base, c->repo, c->o.base);
	if (!ret)
		ret = store_open(&c->st, ctx->db_path);
	if (!ret)
		ret = store_release_get(c->st, c->o.base, &rel);
	for (i = 0; !ret && i < c->o.nsubsystems; i++) {
		ret = store_subsystem_exists(c->st, c->o.subsystems[i]);
		ret = ret < 0 ? ret : !ret ?
		      kmig_err("unknown subsystem '%s'", c->o.subsystems[i]) : 0;
	}
	if (!ret)
		ret = series_read(&c->series, c->dir, true);
	if (ret)
		goto out;
	if (git_commit_tree(&c->tree, base) < 0) {
		ret = kmig_err_git("cannot read the base tree");
		goto out;
	}
	if (strcmp(rel.commit, git_oid_tostr_s(git_commit_id(base)))) {
		ret = kmig_err("'%s' moved since it was scanned (run 'kmig scan')",
			       c->o.base);
		goto out;
	}
	ret = repo_blob_at(c->repo, c->tree, "MAINTAINERS", &m);
	if (!ret)
		ret = maintainers_parse(&c->maint, m.buf ? m.buf : "", m.len);
	else if (ret == KMIG_ENOTFOUND)
		ret = 0;
	sbuf_release(&m);
	c->reason = deprecated_reason(c->repo, c->tree, rules[c->rule].source);
out:
	git_commit_free(base);
	release_info_clear(&rel);
	return ret;
}

/* convert_collect - the files of the base that use the rule, in wanted sections. */
static int convert_collect(struct convert *c)
{
	struct release_info rel = { 0 };
	struct count_rows rows = { 0 };
	size_t i;
	int ret;

	ret = store_release_get(c->st, c->o.base, &rel);
	if (!ret)
		ret = store_counts(c->st, rel.id, BY_FILE, c->o.rule, NULL, &rows);
	for (i = 0; !ret && i < rows.n; i++) {
		const char *sec = c->maint ? maintainers_match(c->maint, rows.v[i].key) :
					     MAINTAINERS_NONE;
		struct cfile *f;

		if (!wanted(&c->o, sec))
			continue;
		ALLOC_GROW(c->files, c->nfiles + 1, c->afiles);
		f = &c->files[c->nfiles++];
		memset(f, 0, sizeof(*f));
		f->path = xstrdup(rows.v[i].key);
		f->section = sec;
		f->uses = rows.v[i].count;
		ret = path_blob(c->tree, f->path, &f->oid);
	}
	count_rows_clear(&rows);
	release_info_clear(&rel);
	return ret;
}

/*
 * convert_run - extract the files into a temporary directory, run spatch
 * there, read the results back and list the uses left (on stdout).
 */
static int convert_run(struct convert *c, const char *home)
{
	char *parent = xasprintf("%s/tmp", home);
	struct progress *prog;
	size_t i, k;
	int ret;

	c->tmp = xasprintf("%s/convert.XXXXXX", parent);
	ret = mkdir_p(parent);
	free(parent);
	if (ret)
		return ret;
	if (!mkdtemp(c->tmp)) {
		ret = kmig_err("cannot create '%s': %s", c->tmp, strerror(errno));
		free(c->tmp);
		c->tmp = NULL;
		return ret;
	}
	for (i = 0; !ret && i < c->nfiles; i++) {
		struct sbuf sb = SBUF_INIT;

		ret = repo_blob_read(c->repo, &c->files[i].oid, &sb);
		if (!ret)
			ret = write_tmp_file(c->tmp, c->files[i].path, &sb);
		sbuf_release(&sb);
	}
	if (ret)
		return ret;
	prog = progress_start("spatch", c->nfiles);
	progress_update(prog, 0, c->cocci);
	ret = run_spatch(c->cocci, c->tmp, c->o.jobs);
	progress_update(prog, c->nfiles, NULL);
	progress_stop(prog);
	for (i = 0; !ret && i < c->nfiles; i++) {
		struct cfile *f = &c->files[i];
		struct site_list sites = SITE_LIST_INIT;
		struct sbuf before = SBUF_INIT;
		char *path = xasprintf("%s/%s", c->tmp, f->path);

		ret = sbuf_read_file(&f->after, path);
		free(path);
		if (!ret)
			ret = repo_blob_read(c->repo, &f->oid, &before);
		if (ret) {
			sbuf_release(&before);
			break;
		}
		f->changed = before.len != f->after.len ||
			     (before.len && memcmp(before.buf, f->after.buf, before.len));
		lex_buffer(f->after.buf ? f->after.buf : "", f->after.len, &sites);
		for (k = 0; k < sites.n; k++) {
			if (sites.v[k].rule != c->rule)
				continue;
			f->left++;
			printf("not converted: %s:%u: %s\n", f->path, sites.v[k].line,
			       sites.v[k].text ? sites.v[k].text : "");
		}
		c->left += f->left;
		site_list_clear(&sites);
		sbuf_release(&before);
	}
	return ret;
}

/* convert_group - the changed files per section, sections in name order. */
static void convert_group(struct convert *c)
{
	size_t i, k;

	for (i = 0; i < c->nfiles; i++) {
		struct csection *s = NULL;

		if (!c->files[i].changed)
			continue;
		for (k = 0; k < c->nsections; k++)
			if (!strcmp(c->sections[k].name, c->files[i].section))
				s = &c->sections[k];
		if (!s) {
			ALLOC_GROW(c->sections, c->nsections + 1, c->asections);
			s = &c->sections[c->nsections++];
			memset(s, 0, sizeof(*s));
			s->name = c->files[i].section;
		}
		ALLOC_GROW(s->files, s->n + 1, s->alloc);
		s->files[s->n++] = i;
		s->converted += c->files[i].uses - (long long)c->files[i].left;
	}
	qsort(c->sections, c->nsections, sizeof(*c->sections), cmp_section);
}

/*
 * convert_section - write the patch of section @s as number @number;
 * 0 written (or would be, with --dry-run), 1 skipped (already in the
 * series), negative on error.  Prints what it did.
 */
static int convert_section(struct convert *c, const struct csection *s,
			   int number)
{
	struct sbuf diff = SBUF_INIT, stat = SBUF_INIT, msg = SBUF_INIT;
	struct sbuf mbox = SBUF_INIT;
	char *prefix = subject_prefix(c->files, s);
	char *subject = xasprintf("%s %s", prefix, c->cr->subject);
	char *name = NULL, *path = NULL;
	int ret;

	if (subject_in_series(&c->series, subject)) {
		printf("skipped %s: \"%s\" is already in the series\n", s->name, subject);
		ret = 1;
		goto out;
	}
	ret = section_diff(c->repo, c->files, s, &diff, &stat);
	if (ret)
		goto out;
	sbuf_addf(&msg, "%s\n\n%s\n\n%s\n\n", subject,
		  c->reason ? c->reason : rules[c->rule].advice, c->cr->why);
	sbuf_addf(&msg, "Generated with the Coccinelle semantic patch %s.cocci\n"
		  "(kmig convert %s --base %s), for the MAINTAINERS section\n"
		  "\"%s\".\n\n", c->o.rule, c->o.rule, c->o.base, s->name);
	sbuf_addf(&msg, "Kmig-Rule: %s\nSigned-off-by: %s <%s>\n", c->o.rule,
		  c->idname, c->idemail);
	mbox_format(&mbox, NULL, c->idname, c->idemail, c->when, 0, msg.buf,
		    stat.buf, diff.buf);
	name = patch_file_name(number, subject);
	path = xasprintf("%s/%s", c->dir, name);
	if (!c->o.dry_run) {
		FILE *f = fopen(path, "w");

		if (!f || fwrite(mbox.buf, 1, mbox.len, f) != mbox.len)
			ret = kmig_err("cannot write '%s': %s", path, strerror(errno));
		if (f && fclose(f) && !ret)
			ret = kmig_err("cannot write '%s': %s", path, strerror(errno));
		if (!ret)
			ret = series_append(c->dir, name);
	}
	if (!ret)
		printf("%s %s: %s, %zu file%s, %lld use%s converted\n",
		       c->o.dry_run ? "would write" : "wrote", name, s->name, s->n,
		       s->n == 1 ? "" : "s", s->converted, s->converted == 1 ? "" : "s");
out:
	free(prefix);
	free(subject);
	free(name);
	free(path);
	sbuf_release(&diff);
	sbuf_release(&stat);
	sbuf_release(&msg);
	sbuf_release(&mbox);
	return ret;
}

static void convert_clear(struct convert *c)
{
	size_t i;

	if (c->tmp && !getenv("KMIG_KEEP_TMP"))
		rm_rf(c->tmp);
	for (i = 0; i < c->nfiles; i++) {
		free(c->files[i].path);
		sbuf_release(&c->files[i].after);
	}
	free(c->files);
	for (i = 0; i < c->nsections; i++)
		free(c->sections[i].files);
	free(c->sections);
	if (c->maint)
		maintainers_free(c->maint);
	git_tree_free(c->tree);
	git_repository_free(c->repo);
	store_close(c->st);
	series_clear(&c->series);
	free(c->o.subsystems);
	free(c->cocci);
	free(c->tmp);
	free(c->dir);
	free(c->reason);
	free(c->idname);
	free(c->idemail);
}

static int cmd_convert_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	struct convert c = { 0 };
	size_t i, written = 0;
	long long converted = 0;
	int status = KMIG_EXIT_ERROR, number, ret;

	ret = parse_opts(&c.o, argc, argv);
	if (ret) {
		free(c.o.subsystems);
		return ret;
	}
	c.rule = rule_lookup(c.o.rule);
	if (c.rule < 0) {
		free(c.o.subsystems);
		return cmd_usage_error("convert", "unknown rule '%s'", c.o.rule);
	}
	for (i = 0; i < ARRAY_SIZE(convert_rules); i++)
		if (!strcmp(convert_rules[i].rule, c.o.rule))
			c.cr = &convert_rules[i];
	c.cocci = c.cr ? cocci_file(c.o.rule) : NULL;
	if (!c.cocci) {
		cmd_fail(KMIG_EXIT_ERROR, "no semantic patch for rule '%s' (have: strlcpy, alloc-arith)",
			 c.o.rule);
		goto out;
	}
	c.dir = c.o.series ? xstrdup(c.o.series) : datadir_series();
	kmig_identity(&c.idname, &c.idemail);
	c.when = sde && *sde ? atoll(sde) : (long long)time(NULL);

	if (convert_open(&c, ctx) || convert_collect(&c)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	if (!c.nfiles) {
		printf("no file of %s uses %s%s\n", c.o.base, c.o.rule,
		       c.o.nsubsystems ? " in the selected sections" : "");
		status = finish_stdout(KMIG_EXIT_OK);
		goto out;
	}
	if (convert_run(&c, ctx->home)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	convert_group(&c);
	number = series_next_number(&c.series);
	for (i = 0; i < c.nsections; i++) {
		if (c.o.max_patches > 0 && (long)written >= c.o.max_patches)
			break;
		ret = convert_section(&c, &c.sections[i], number);
		if (ret < 0) {
			cmd_fail_last(KMIG_EXIT_ERROR);
			goto out;
		}
		if (ret == 0) {
			number++;
			written++;
			converted += c.sections[i].converted;
		}
	}
	printf("%s: %zu patch%s, %lld use%s converted, %zu not converted\n", c.o.rule,
	       written, written == 1 ? "" : "es", converted, converted == 1 ? "" : "s",
	       c.left);
	status = finish_stdout(KMIG_EXIT_OK);
out:
	convert_clear(&c);
	return status;
}

const struct kmig_cmd cmd_convert = {
	.name = "convert",
	.fn = cmd_convert_fn,
	.summary = "generate per-subsystem conversion patches with Coccinelle",
	.usage = usage,
};
