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
#include <stddef.h>
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

static const char usage[] =
	"usage: kmig convert RULE [--base TAG] [--subsystem NAME]... [--max-patches N]\n"
	"                    [--jobs N] [--series DIR] [--dry-run] [--cocci TREE-PATH]\n"
	"\n"
	"Run the semantic patch tracker/cocci/RULE.cocci (Coccinelle's spatch) over\n"
	"exactly the files of release TAG (default: the newest scanned release)\n"
	"that use RULE according to the database (run 'kmig scan' first), one\n"
	"MAINTAINERS section of that release at a time (sections in name order;\n"
	"spatch runs only on the files of the sections selected, and stops\n"
	"after --max-patches patches), and write one git format-patch file per\n"
	"section to the series directory DIR (default ./branch-patches, else\n"
	"the one next to the kmig binary), appended to DIR/series.\n"
	"\n"
	"A semantic patch the base release ships is read from TAG's tree and run\n"
	"as 'make coccicheck MODE=patch COCCI=TREE-PATH' would (-D patch and the\n"
	"script's own '// Options:' line): --cocci TREE-PATH, and by default\n"
	"for alloc-obj, scripts/coccinelle/api/kmalloc_objs.cocci.\n"
	"\n"
	"Each patch has a kernel commit message: a subject prefix as most commits\n"
	"changing its (first) file had it (git log of the file, where the\n"
	"repository has real history), else from the section's directory (e.g.\n"
	"\"net: rds:\"), the reason from\n"
	"Documentation/process/deprecated.rst of TAG, a Kmig-Rule: trailer and a\n"
	"Signed-off-by: for $KMIG_IDENTITY (\"Name <email>\"), else git's\n"
	"user.name and user.email, else kmig <kmig@localhost> (git's as it reads\n"
	"them in the repository: its own configuration first).  The date is\n"
	"$SOURCE_DATE_EPOCH when it is a number of seconds, else now.\n"
	"\n"
	"  --subsystem NAME  only this MAINTAINERS section (repeatable)\n"
	"  --max-patches N   at most N patches (sections in name order)\n"
	"  -j, --jobs N      spatch processes (default: CPUs)\n"
	"  --dry-run         print each patch it would write (with its diff),\n"
	"                    write nothing\n"
	"  --cocci TREE-PATH the base tree's semantic patch at TREE-PATH\n"
	"\n"
	"Uses the semantic patch cannot convert are listed as \"not converted\",\n"
	"with the reason (its return value is used, the destination is not a\n"
	"char array of known size, it is a one-element array \"char name[1]\",\n"
	"...).  Semantic patches: strlcpy, strcpy (two-argument strscpy() into\n"
	"char arrays of more than one element), alloc-arith (kmalloc_array(),\n"
	"kcalloc(), size_mul(), and kmalloc_objs() where the base has it), and\n"
	"the in-tree kmalloc_objs.cocci for alloc-obj.  $KMIG_COCCI_DIR overrides\n"
	"where tracker/cocci files are looked up.\n";

/* What kmig says about each rule it can convert. */
static const struct convert_rule {
	const char *rule;
	const char *subject;
	const char *why;	/* after the deprecated.rst reason */
	const char *intree;	/* the base tree's own semantic patch, or NULL:
				 * tracker/cocci/RULE.cocci */
	const char *left_stmt;	/* why a use left as a statement was not
				 * converted (else: its value is used) */
} convert_rules[] = {
	{ "strlcpy", "Replace strlcpy() with strscpy()",
	  "The return value of strlcpy() is not used at any call site changed\n"
	  "here, so strscpy() is a drop-in replacement.", NULL,
	  "not a plain call the semantic patch matches" },
	{ "strcpy", "Replace strcpy() with strscpy()",
	  "Every destination changed here is a char array whose size the\n"
	  "compiler knows, so the two-argument strscpy() takes its size from\n"
	  "the array, and the return value of strcpy() is not used.", NULL,
	  "the destination is not a char array of known size" },
	{ "alloc-arith", "Use 2-factor allocators for open-coded multiplication",
	  "kmalloc_array(), kcalloc(), their devm_/kv variants, size_mul() and\n"
	  "array_size() check the product for overflow instead of allocating a\n"
	  "short buffer; on a base with kmalloc_objs(), a typed pointer gets\n"
	  "the type-aware kmalloc_objs()/kzalloc_objs().", NULL,
	  "an allocator or size expression the semantic patch does not know" },
	{ "alloc-obj", "Use kmalloc_obj() family for allocations",
	  "The type-aware allocators take the object (or its type) rather than\n"
	  "a sizeof() the reader has to check against the assignment.",
	  "scripts/coccinelle/api/kmalloc_objs.cocci",
	  "a form the kernel's semantic patch leaves alone" },
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
	const char *intree;	/* --cocci */
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

/* The prefix of a subject, "ACPI: sysfs:" of "ACPI: sysfs: fix x"; NULL if none. */
static char *subject_head(const char *subject)
{
	const char *p = subject, *last = NULL;

	while ((p = strstr(p, ": "))) {
		if (memchr(subject, ' ', (size_t)(p - subject)) &&
		    (size_t)(p - subject) > 40)
			break;
		last = p;
		p += 2;
	}
	return last ? xstrndup(subject, (size_t)(last - subject) + 1) : NULL;
}

/*
 * log_prefix - where the repository has real history: the subject prefix
 * most of the (at most LOG_PREFIX_WALK) commits before @base that change
 * @path used, as "git log @path" shows them; NULL when none has one (the
 * imported history: one commit per release, "Linux 7.3.4").
 */
#define LOG_PREFIX_WALK 2000
static char *log_prefix(git_repository *repo, git_commit *base, const char *path)
{
	git_revwalk *walk = NULL;
	git_oid oid;
	char **heads = NULL, *best = NULL;
	size_t *counts = NULL, n = 0, alloc = 0, seen = 0, i, top = 0;

	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_push(walk, git_commit_id(base)) < 0)
		goto out;
	while (seen++ < LOG_PREFIX_WALK && !git_revwalk_next(&oid, walk)) {
		git_commit *c = NULL, *p = NULL;
		git_tree *t = NULL, *pt = NULL;
		git_tree_entry *e = NULL, *pe = NULL;
		bool changed = false;

		if (!git_commit_lookup(&c, repo, &oid) && git_commit_parentcount(c) == 1 &&
		    !git_commit_parent(&p, c, 0) && !git_commit_tree(&t, c) &&
		    !git_commit_tree(&pt, p)) {
			int a = git_tree_entry_bypath(&e, t, path);
			int b = git_tree_entry_bypath(&pe, pt, path);

			changed = !a && (b || !git_oid_equal(git_tree_entry_id(e),
							    git_tree_entry_id(pe)));
		}
		if (changed) {
			char *h = subject_head(git_commit_summary(c));

			for (i = 0; h && i < n && strcmp(heads[i], h); i++)
				;
			if (h && i == n) {
				ALLOC_GROW(heads, n + 1, alloc);
				counts = xrealloc(counts, alloc * sizeof(*counts));
				heads[n] = h;
				counts[n++] = 0;
			} else {
				free(h);
			}
			if (h)
				counts[i]++;
		}
		git_tree_entry_free(e);
		git_tree_entry_free(pe);
		git_tree_free(t);
		git_tree_free(pt);
		git_commit_free(p);
		git_commit_free(c);
	}
	for (i = 0; i < n; i++)
		if (counts[i] > top) {
			top = counts[i];
			best = heads[i];
		}
	best = xstrdup_or_null(best);
out:
	free_strv(heads, n);
	free(counts);
	git_revwalk_free(walk);
	return best;
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

/*
 * cocci_options - the words of the semantic patch's "// Options:" line
 * (what "make coccicheck" passes to spatch), appended to @argv, after
 * "-D objs" when @objs and the script declares "virtual objs".
 */
static void cocci_options(const char *path, bool objs, char ***argv, size_t *n,
			  size_t *alloc)
{
	struct sbuf sb = SBUF_INIT;
	char *line, *save = NULL;

	if (sbuf_read_file(&sb, path) || !sb.buf)
		goto out;
	if (objs && strstr(sb.buf, "\nvirtual objs\n")) {
		ALLOC_GROW(*argv, *n + 2, *alloc);
		(*argv)[(*n)++] = xstrdup("-D");
		(*argv)[(*n)++] = xstrdup("objs");
	}
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *w, *wsave = NULL;

		if (strncmp(line, "// Options:", 11))
			continue;
		for (w = strtok_r(line + 11, " \t", &wsave); w;
		     w = strtok_r(NULL, " \t", &wsave)) {
			ALLOC_GROW(*argv, *n + 1, *alloc);
			(*argv)[(*n)++] = xstrdup(w);
		}
		break;
	}
out:
	sbuf_release(&sb);
}

/*
 * run_spatch - run the semantic patch in place over every file below
 * @dir, as "make coccicheck MODE=patch" does: -D patch, the script's own
 * options, and -D objs when the base has kmalloc_objs() (@objs).  When
 * spatch fails, its log ("@dir.log") is moved to @keep, outside the run's
 * temporary directory, which goes: the error names it.
 */
static int run_spatch(const char *cocci, const char *dir, int jobs, bool objs,
		      const char *keep)
{
	char jobs_s[16], *log = xasprintf("%s.log", dir);
	static const char *const fixed[] = { "spatch", "--sp-file", NULL,
		"--very-quiet", "-D", "patch", "--in-place", "--no-show-diff" };
	char **argv = NULL;
	size_t n = 0, alloc = 0, i;
	int ret;

	snprintf(jobs_s, sizeof(jobs_s), "%d", jobs);
	for (i = 0; i < ARRAY_SIZE(fixed); i++) {
		ALLOC_GROW(argv, n + 1, alloc);
		argv[n++] = xstrdup(fixed[i] ? fixed[i] : cocci);
	}
	cocci_options(cocci, objs, &argv, &n, &alloc);
	ALLOC_GROW(argv, n + 5, alloc);
	argv[n++] = xstrdup("-j");
	argv[n++] = xstrdup(jobs_s);
	argv[n++] = xstrdup("--dir");
	argv[n++] = xstrdup(dir);
	argv[n] = NULL;
	ret = child_run_status(&(struct child_opts){ .argv = argv, .out_path = log,
						     .append = true,
						     .kill_signal = SIGTERM });
	if (ret < 0) {
		ret = kmig_err("cannot run spatch (install coccinelle: make deps)");
	} else if (ret > 0) {
		ret = kmig_err("spatch failed with status %d (see '%s')", ret,
			       rename(log, keep) ? log : keep);
	} else {
		unlink(log);
	}
	for (i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
	free(log);
	return ret;
}

/*
 * section_diff - the diff of the section's files, and its diffstat as git
 * format-patch writes it (names shortened, the graph scaled to 72 columns).
 */
static int section_diff(git_repository *repo, struct cfile *files,
			const struct csection *s, struct sbuf *diff,
			struct sbuf *stat)
{
	git_diff_options opts;
	struct diffstat_file *ds = xcalloc(s->n ? s->n : 1, sizeof(*ds));
	size_t i, nds = 0;
	int ret = 0;

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.id_abbrev = 12;
	for (i = 0; !ret && i < s->n; i++) {
		struct cfile *f = &files[s->files[i]];
		git_blob *old = NULL;
		git_patch *patch = NULL;
		git_buf b = { 0 };
		size_t adds = 0, dels = 0;

		if (!f->changed)
			continue;
		if (git_blob_lookup(&old, repo, &f->oid) < 0 ||
		    git_patch_from_blob_and_buffer(&patch, old, f->path,
						   f->after.buf, f->after.len,
						   f->path, &opts) < 0 ||
		    git_patch_to_buf(&b, patch) < 0 ||
		    git_patch_line_stats(NULL, &adds, &dels, patch) < 0) {
			ret = kmig_err_git("cannot diff");
		} else {
			sbuf_add(diff, b.ptr, b.size);
			ds[nds++] = (struct diffstat_file){
				.name = f->path, .added = adds, .deleted = dels
			};
		}
		git_buf_dispose(&b);
		git_patch_free(patch);
		git_blob_free(old);
	}
	if (!ret)
		diffstat_format(stat, ds, nds, 72);
	free(ds);
	return ret;
}

/* patch_touches - patch @p changes one of the files of section @s. */
static bool patch_touches(const struct mbox_patch *p, const struct cfile *files,
			  const struct csection *s)
{
	size_t i, k;

	for (i = 0; i < p->nfiles; i++)
		for (k = 0; k < s->n; k++) {
			const char *path = files[s->files[k]].path;

			if ((p->files[i].old_path && !strcmp(p->files[i].old_path, path)) ||
			    (p->files[i].new_path && !strcmp(p->files[i].new_path, path)))
				return true;
		}
	return false;
}

/*
 * section_in_series - a patch of the series has @subject and changes a
 * file of section @s: this section's patch of an earlier run, to skip.
 * Another section's patch may have the same subject (sections sharing a
 * directory get the same prefix); it is no reason to skip this one.
 */
static bool section_in_series(const struct series *series, const char *subject,
			      const struct cfile *files, const struct csection *s)
{
	size_t i;

	for (i = 0; i < series->n; i++) {
		struct mbox_patch p;
		char *path = series_path(series, series->names[i]);
		bool same = !mbox_read(&p, path) && !strcmp(p.subject, subject) &&
			    patch_touches(&p, files, s);

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
		{ "cocci", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long n;
	int opt;

	o->base = NULL;
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
		case 'c':
			o->intree = optarg;
			break;
		default:
			return cmd_bad_option("convert", argv);
		}
	}
	if (cmd_empty_value("convert", "--base", o->base, "a tag") ||
	    cmd_empty_value("convert", "--series", o->series, "a directory") ||
	    cmd_empty_value("convert", "--cocci", o->intree, "a path in the tree"))
		return KMIG_EXIT_ERROR;
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
	struct csection *sections;	/* every section with a file using the rule */
	size_t nsections, asections;
	char *cocci, *dir, *tmp, *reason, *idname, *idemail, *base;
	const char *intree;		/* the base tree's semantic patch, or NULL */
	bool objs;			/* the base has kmalloc_objs() */
	long long when;
	size_t left;		/* uses not converted */
	size_t ran;		/* sections spatch ran on */
};

/* has_text - the file @path of the base tree contains @needle. */
static bool has_text(struct convert *c, const char *path, const char *needle)
{
	struct sbuf sb = SBUF_INIT;
	bool yes = !repo_blob_at(c->repo, c->tree, path, &sb) && sb.buf &&
		   strstr(sb.buf, needle);

	sbuf_release(&sb);
	return yes;
}

/* convert_open - the repository, the base tree, its MAINTAINERS, the series. */
static int convert_open(struct convert *c, struct kmig_ctx *ctx)
{
	struct release_info rel = { 0 };
	git_commit *base = NULL;
	struct sbuf m = SBUF_INIT;
	size_t i;
	int ret;

	ret = repo_open(&c->repo, ctx->repo_path);
	if (!ret)	/* read only: nothing scanned is no reason to create it */
		ret = store_open_readonly(&c->st, ctx->db_path);
	if (ret == KMIG_ENOTFOUND && c->o.base)
		ret = kmig_err("release '%s' is not scanned (run 'kmig scan')", c->o.base);
	else if (ret == KMIG_ENOTFOUND)
		ret = kmig_err("no release scanned yet (run 'kmig scan')");
	if (!ret && !c->o.base) {
		struct release_info *all = NULL;
		size_t n = 0;

		ret = store_releases(c->st, &all, &n);
		if (!ret && !n)
			ret = kmig_err("no release scanned yet (run 'kmig scan')");
		if (!ret)
			c->base = xstrdup(all[n - 1].tag);
		release_infos_free(all, n);
	} else if (!ret) {
		c->base = xstrdup(c->o.base);
	}
	if (!ret)
		ret = repo_resolve_commit(&base, c->repo, c->base);
	if (!ret)
		ret = store_release_get(c->st, c->base, &rel);
	if (!ret)
		ret = series_read(&c->series, c->dir, true);
	/* the directory to write to, before spatch runs (export makes it too) */
	if (!ret && !c->o.dry_run)
		ret = mkdir_p(c->dir);
	if (ret)
		goto out;
	if (git_commit_tree(&c->tree, base) < 0) {
		ret = kmig_err_git("cannot read the base tree");
		goto out;
	}
	if (strcmp(rel.commit, git_oid_tostr_s(git_commit_id(base)))) {
		ret = kmig_err("'%s' moved since it was scanned (run 'kmig scan')",
			       c->base);
		goto out;
	}
	ret = repo_blob_at(c->repo, c->tree, "MAINTAINERS", &m);
	if (!ret)
		ret = maintainers_parse(&c->maint, m.buf ? m.buf : "", m.len);
	else if (ret == KMIG_ENOTFOUND)
		ret = 0;
	sbuf_release(&m);
	/* a section of the base's own MAINTAINERS, not of another release */
	for (i = 0; !ret && i < c->o.nsubsystems; i++)
		if (!maintainers_has(c->maint, c->o.subsystems[i]))
			ret = kmig_err("unknown subsystem '%s': no section of %s's MAINTAINERS",
				       c->o.subsystems[i], c->base);
	if (ret)
		goto out;
	c->reason = series_deprecated_reason(c->repo, c->tree, rules[c->rule].source);
	c->objs = has_text(c, "include/linux/slab.h", "#define kmalloc_objs(");
out:
	git_commit_free(base);
	release_info_clear(&rel);
	return ret;
}

/*
 * convert_cocci - the semantic patch: the base tree's @c->intree written
 * to the temporary directory, else tracker/cocci/RULE.cocci.
 */
static int convert_cocci(struct convert *c)
{
	struct sbuf sb = SBUF_INIT;
	int ret;

	if (!c->intree) {
		c->cocci = cocci_file(c->o.rule);
		/* the rule has one: datadir_file() said where it looked */
		return c->cocci ? 0 : KMIG_EGENERIC;
	}
	ret = repo_blob_at(c->repo, c->tree, c->intree, &sb);
	if (ret == KMIG_ENOTFOUND)
		ret = kmig_err("%s has no '%s'", c->base, c->intree);
	if (!ret)
		ret = write_tmp_file(c->tmp, "kmig-intree.cocci", &sb);
	if (!ret)
		c->cocci = xasprintf("%s/kmig-intree.cocci", c->tmp);
	sbuf_release(&sb);
	return ret;
}

/* convert_collect - the files of the base that use the rule, in wanted sections. */
static int convert_collect(struct convert *c)
{
	struct release_info rel = { 0 };
	struct count_rows rows = { 0 };
	size_t i;
	int ret;

	ret = store_release_get(c->st, c->base, &rel);
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

/* convert_group - every file per section, sections in name order. */
static void convert_group(struct convert *c)
{
	size_t i, k;

	for (i = 0; i < c->nfiles; i++) {
		struct csection *s = NULL;

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
	}
	qsort(c->sections, c->nsections, sizeof(*c->sections), cmp_section);
}

/*
 * Is the call at @call in the line @text a statement of its own: at the
 * line's start, after ';', '{', '}', ':', the ')' of an if/for/while,
 * else, do, or a (void) cast?  Not after '=', '(' of an expression,
 * return, an operator: its value is used.
 */
/* @p (in @text) after blanks, going back. */
static const char *skip_blanks_back(const char *text, const char *p)
{
	while (p > text && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	return p;
}

/* Does the word @w end at @p in @text (no identifier byte before it)? */
static bool word_ends_at(const char *text, const char *p, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(p - text) >= n && !strncmp(p - n, w, n) &&
	       (p - n == text || !is_ident_char(p[-(ptrdiff_t)n - 1]));
}

static bool call_is_statement(const char *text, const char *call)
{
	const char *p = skip_blanks_back(text, call);

	if (p - text >= 6 && !strncmp(p - 6, "(void)", 6))
		p = skip_blanks_back(text, p - 6);
	if (p == text)
		return true;
	switch (p[-1]) {
	case ';': case '{': case '}': case ':': case ')':
		return true;
	default:
		return word_ends_at(text, p, "else") || word_ends_at(text, p, "do");
	}
}

/* Is the word before @p in @text (blanks skipped) a type's, not a keyword? */
static bool type_word_before(const char *text, const char *p)
{
	static const char *const kw[] = { "return", "sizeof", "case", "else",
					   "do", "goto" };
	size_t i;

	p = skip_blanks_back(text, p);
	if (p == text || !is_ident_char(p[-1]))
		return false;
	for (i = 0; i < ARRAY_SIZE(kw); i++)
		if (word_ends_at(text, p, kw[i]))
			return false;
	return true;
}

/*
 * declared_one - @file declares @name (of @n bytes) as a one-element
 * array: "char name[1];", "u8 a[4], name[1] = ...", a struct member
 * "char name[1];" (the names strcpy.cocci leaves alone).
 */
static bool declared_one(const char *file, const char *name, size_t n)
{
	const char *p, *q;

	for (p = strstr(file, name); p; p = strstr(p + 1, name)) {
		if ((p > file && is_ident_char(p[-1])) || is_ident_char(p[n]))
			continue;
		q = p + n + strspn(p + n, " \t");
		if (*q++ != '[')
			continue;
		q += strspn(q, " \t");
		if (*q++ != '1')
			continue;
		q += strspn(q, " \t");
		if (*q++ != ']')
			continue;
		q += strspn(q, " \t");
		if (*q != ';' && *q != '=' && *q != ',')
			continue;
		if (type_word_before(file, p))
			return true;
	}
	return false;
}

/*
 * one_element_dest - the destination of the call at @call ("strcpy(d->name,
 * src)") is a name @file declares as a one-element array.
 */
static bool one_element_dest(const char *file, const char *call)
{
	const char *arg = strchr(call, '('), *end, *start;
	char *name;
	bool yes;

	if (!arg)
		return false;
	end = arg + 1 + strcspn(arg + 1, ",)");
	while (end > arg + 1 && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	for (start = end; start > arg + 1 && is_ident_char(start[-1]); start--)
		;
	if (start == end)
		return false;	/* "tbl[1]", "(d)": no name */
	name = xstrndup(start, (size_t)(end - start));
	yes = declared_one(file, name, strlen(name));
	free(name);
	return yes;
}

/*
 * left_reason - why the use @text (a whitespace-normalised line) of the
 * converted @file was left.
 */
static const char *left_reason(const struct convert *c, const char *text,
			       const char *file)
{
	const char *name = c->o.rule, *p;
	size_t n = strlen(name);

	if (strcmp(name, "strcpy") && strcmp(name, "strlcpy"))
		return c->cr->left_stmt;
	/* the first call of @name on the line: "void f(char *d) { strcpy(..." */
	for (p = strstr(text, name); p; p = strstr(p + 1, name))
		if ((p == text || !is_ident_char(p[-1])) && p[n] == '(')
			break;
	if (!p)
		return c->cr->left_stmt;
	if (!call_is_statement(text, p))
		return "its return value is used";
	if (!strcmp(name, "strcpy") && one_element_dest(file, p))
		return "the destination is a one-element array: strscpy() would copy only the NUL and return -E2BIG";
	return c->cr->left_stmt;
}

/*
 * convert_run - extract the files of section @s into a directory of
 * their own, run spatch there, read the results back and list the uses
 * left (on stdout); @changed receives the changed files of the section
 * with the uses converted.
 */
static int convert_run(struct convert *c, const struct csection *s,
		       struct csection *changed)
{
	char *dir = xasprintf("%s/s%zu", c->tmp, c->ran++);
	char *keep;
	struct progress *prog;
	size_t i, k;
	int ret = 0;

	memset(changed, 0, sizeof(*changed));
	changed->name = s->name;
	for (i = 0; !ret && i < s->n; i++) {
		struct sbuf sb = SBUF_INIT;

		ret = repo_blob_read(c->repo, &c->files[s->files[i]].oid, &sb);
		if (!ret)
			ret = write_tmp_file(dir, c->files[s->files[i]].path, &sb);
		sbuf_release(&sb);
	}
	if (ret)
		goto out;
	prog = progress_start("spatch", s->n);
	progress_update(prog, 0, s->name);
	keep = xasprintf("%s.log", c->tmp);
	ret = run_spatch(c->cocci, dir, c->o.jobs, c->objs, keep);
	free(keep);
	progress_update(prog, s->n, NULL);
	progress_stop(prog);
	for (i = 0; !ret && i < s->n; i++) {
		struct cfile *f = &c->files[s->files[i]];
		struct site_list sites = SITE_LIST_INIT;
		struct sbuf before = SBUF_INIT;
		char *path = xasprintf("%s/%s", dir, f->path);

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
			const char *text = sites.v[k].text ? sites.v[k].text : "";

			if (sites.v[k].rule != c->rule)
				continue;
			f->left++;
			printf("not converted: ");
			text_name(stdout, f->path);
			printf(":%u: %s (%s)\n", sites.v[k].line, text,
			       left_reason(c, text, f->after.buf ? f->after.buf : ""));
		}
		c->left += f->left;
		site_list_clear(&sites);
		sbuf_release(&before);
		if (f->changed) {
			ALLOC_GROW(changed->files, changed->n + 1, changed->alloc);
			changed->files[changed->n++] = s->files[i];
			changed->converted += f->uses - (long long)f->left;
		}
	}
out:
	free(dir);
	return ret;
}

/*
 * convert_section - write the patch of section @s as number *@number,
 * or the next whose file does not exist yet (a file the series no longer
 * lists, maybe edited by hand, is never overwritten; *@number becomes the
 * number used); 0 written (or would be, with --dry-run: printed), 1
 * skipped (already in the series), negative on error.  Prints what it did.
 */
static int convert_section(struct convert *c, const struct csection *s,
			   int *number)
{
	struct sbuf diff = SBUF_INIT, stat = SBUF_INIT, msg = SBUF_INIT;
	struct sbuf mbox = SBUF_INIT;
	char *prefix = NULL, *subject;
	git_commit *base = NULL;

	if (!repo_resolve_commit(&base, c->repo, c->base))
		prefix = log_prefix(c->repo, base, c->files[s->files[0]].path);
	git_commit_free(base);
	if (!prefix)
		prefix = subject_prefix(c->files, s);
	subject = xasprintf("%s %s", prefix, c->cr->subject);
	char *name = NULL, *path = NULL, *how;
	int ret;

	if (section_in_series(&c->series, subject, c->files, s)) {
		printf("skipped ");
		text_name(stdout, s->name);
		printf(": \"%s\" is already in the series\n", subject);
		ret = 1;
		goto out;
	}
	ret = section_diff(c->repo, c->files, s, &diff, &stat);
	if (ret)
		goto out;
	sbuf_addf(&msg, "%s\n\n%s\n\n%s\n\n", subject,
		  c->reason ? c->reason : rules[c->rule].advice, c->cr->why);
	if (c->intree)
		how = xasprintf("the kernel's own semantic patch %s of %s", c->intree,
				c->base);
	else
		how = xasprintf("the Coccinelle semantic patch %s.cocci", c->o.rule);
	sbuf_addf(&msg, "Generated with %s\n"
		  "(kmig convert %s --base %s), for the MAINTAINERS section\n"
		  "\"%s\".\n\n", how, c->o.rule, c->base, s->name);
	free(how);
	sbuf_addf(&msg, "Kmig-Rule: %s\nSigned-off-by: %s <%s>\n", c->o.rule,
		  c->idname, c->idemail);
	mbox_format(&mbox, NULL, c->idname, c->idemail, c->when, 0, msg.buf,
		    stat.buf, diff.buf);
	for (;;) {
		name = patch_file_name(*number, subject);
		path = xasprintf("%s/%s", c->dir, name);
		if (access(path, F_OK))
			break;
		free(name);
		free(path);
		(*number)++;
	}
	if (!c->o.dry_run) {
		FILE *f = fopen(path, "w");

		if (!f || fwrite(mbox.buf, 1, mbox.len, f) != mbox.len)
			ret = kmig_err("cannot write '%s': %s", path, strerror(errno));
		if (f && fclose(f) && !ret)
			ret = kmig_err("cannot write '%s': %s", path, strerror(errno));
		if (!ret)
			ret = series_append(c->dir, name);
		/* no part of a patch, nor one the series does not list */
		if (ret && f)
			unlink(path);
	}
	if (!ret) {
		printf("%s %s: ", c->o.dry_run ? "would write" : "wrote", name);
		text_name(stdout, s->name);
		printf(", %zu file%s, %lld use%s converted\n", s->n,
		       s->n == 1 ? "" : "s", s->converted,
		       s->converted == 1 ? "" : "s");
	}
	if (!ret && c->o.dry_run)
		fwrite(mbox.buf, 1, mbox.len, stdout);
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

/* convert_tmp - the temporary directory below @home/tmp. */
static int convert_tmp(struct convert *c, const char *home)
{
	char *parent = xasprintf("%s/tmp", home);
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
	}
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
	free(c->base);
	free(c->idname);
	free(c->idemail);
}

static int cmd_convert_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
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
		return cmd_fail(KMIG_EXIT_ERROR, "unknown rule '%s' (see 'kmig rules')",
				c.o.rule);
	}
	for (i = 0; i < ARRAY_SIZE(convert_rules); i++)
		if (!strcmp(convert_rules[i].rule, c.o.rule))
			c.cr = &convert_rules[i];
	if (!c.cr) {
		cmd_fail(KMIG_EXIT_ERROR, "no semantic patch for rule '%s' (have: strlcpy, strcpy, alloc-arith, alloc-obj)",
			 c.o.rule);
		goto out;
	}
	c.intree = c.o.intree ? c.o.intree : c.cr->intree;
	c.dir = c.o.series ? xstrdup(c.o.series) : datadir_series();
	c.when = source_date();

	if (convert_open(&c, ctx) || convert_tmp(&c, ctx->home) ||
	    convert_cocci(&c) || convert_collect(&c)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	kmig_identity(c.repo, &c.idname, &c.idemail);
	if (!c.nfiles) {
		printf("no file of %s uses %s%s\n", c.base, c.o.rule,
		       c.o.nsubsystems ? " in the selected sections" : "");
		status = finish_stdout(KMIG_EXIT_OK);
		goto out;
	}
	convert_group(&c);
	number = series_next_number(&c.series);
	for (i = 0; i < c.nsections; i++) {
		struct csection done;

		if (c.o.max_patches > 0 && (long)written >= c.o.max_patches)
			break;
		ret = convert_run(&c, &c.sections[i], &done);
		if (!ret && done.n)
			ret = convert_section(&c, &done, &number);
		else if (!ret)
			ret = 1;
		if (ret == 0) {
			number++;
			written++;
			converted += done.converted;
		}
		free(done.files);
		if (ret < 0) {
			cmd_fail_last(KMIG_EXIT_ERROR);
			goto out;
		}
	}
	if (i < c.nsections)
		printf("%zu section%s not looked at (--max-patches)\n",
		       c.nsections - i, c.nsections - i == 1 ? "" : "s");
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
