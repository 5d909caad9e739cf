// SPDX-License-Identifier: GPL-2.0
/*
 * gate-apply.c - patches applied by git itself: "git apply --cached"
 * against a temporary index (read-tree of the base first, "git write-tree"
 * after each patch), with a temporary object directory, so offsets are
 * handled as git apply handles them and nothing is written to the
 * repository (its index, worktree, refs or objects).  The prefix (-p1 or
 * -p0) is detected per patch by looking its paths up in the base tree;
 * the hunks that applied at an offset and the first hunk that fails are
 * read from git apply's messages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "gate-internal.h"
#include "usetext.h"
#include "patch.h"

/* ---- the files and hunks of a diff, as far as -p and messages need ---- */

struct dhunk {
	unsigned long old_start;
	const char *hdr;	/* the "@@" line, without its '\n' */
	size_t hdr_len;
};

struct dfile {
	char *old_path, *new_path;	/* as written, NULL for /dev/null */
	bool created;
	bool git;			/* after a "diff --git" line */
	bool deleted, renamed;		/* "deleted file", "rename/copy from" */
	bool nodata;			/* "Binary files ... differ" */
	const char *start;		/* its "diff" line */
	const char *git_hdr;		/* the "diff --git" line's names */
	size_t git_hdr_len;
	struct dhunk *h;
	size_t nh, ah;
};

struct ddiff {
	struct dfile *v;
	size_t n, alloc;
	bool recount;		/* some hunk's line counts are wrong */
};

static void ddiff_clear(struct ddiff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].old_path);
		free(d->v[i].new_path);
		free(d->v[i].h);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/*
 * The path of a "--- " / "+++ " line: up to a tab (a date follows), a
 * C-quoted one decoded.
 */
static char *header_path(const char *p, const char *end)
{
	const char *s = p + 4, *e = p + patch_line_chomp(p, end), *tab;
	char *path;

	tab = memchr(s, '\t', (size_t)(e - s));
	if (tab)
		e = tab;
	path = patch_path_dup(s, (size_t)(e - s));
	if (!strcmp(path, "/dev/null")) {
		free(path);
		return NULL;
	}
	return path;
}

static bool parse_range(const char **s, unsigned long *start,
			unsigned long *lines)
{
	char *e;

	*start = strtoul(*s, &e, 10);
	if (e == *s)
		return false;
	*lines = 1;
	if (*e == ',') {
		const char *n = e + 1;

		*lines = strtoul(n, &e, 10);
		if (e == n)
			return false;
	}
	*s = e;
	return true;
}

/* The body of a hunk: returns where it ends, sets d->recount if needed. */
static const char *hunk_body(struct ddiff *d, const char *q, const char *end,
			     unsigned long ol, unsigned long nl)
{
	while ((ol || nl) && q < end) {
		char c = *q;

		if (c == ' ' || c == '\n' || c == '\r') {
			if (!ol || !nl)
				break;
			ol--;
			nl--;
		} else if (c == '-' && ol) {
			ol--;
		} else if (c == '+' && nl) {
			nl--;
		} else if (c != '\\') {
			break;
		}
		q += patch_line_len(q, end);
	}
	if (ol || nl)
		d->recount = true;
	while (q < end && *q == '\\')
		q += patch_line_len(q, end);
	if (q < end && (*q == ' ' || *q == '+' ||
			(*q == '-' && !patch_starts(q, end, "--- "))))
		d->recount = true;
	return q;
}

/* @path without its first @strip components, or NULL if it has fewer. */
static const char *strip_path(const char *path, int strip)
{
	while (strip-- > 0) {
		const char *slash = path ? strchr(path, '/') : NULL;

		if (!slash)
			return NULL;
		path = slash + 1;
		while (*path == '/')
			path++;
	}
	return path;
}

/*
 * The two names of a "diff --git A B" line (@n bytes at @s, after "diff
 * --git "), as git writes them for one file: both C-quoted, or both not
 * and the same but for their first component (a/ and b/, or none at all
 * with --no-prefix).  False when they cannot be told apart.
 */
static bool git_header_names(const char *s, size_t n, char **a, char **b)
{
	const char *end = s + n, *q, *sp;

	if (n && *s == '"') {
		for (q = s + 1; q < end && *q != '"'; q++)
			if (*q == '\\' && q + 1 < end)
				q++;
		if (q + 3 > end || q[1] != ' ' || q[2] != '"')
			return false;
		*a = patch_path_dup(s, (size_t)(q + 1 - s));
		*b = patch_path_dup(q + 2, (size_t)(end - q - 2));
		return true;
	}
	for (sp = memchr(s, ' ', n); sp; sp = memchr(sp + 1, ' ', (size_t)(end - sp - 1))) {
		char *x = xstrndup(s, (size_t)(sp - s));
		char *y = xstrndup(sp + 1, (size_t)(end - sp - 1));
		const char *xs = strip_path(x, 1), *ys = strip_path(y, 1);

		if (!strcmp(x, y) || (xs && ys && *xs && !strcmp(xs, ys))) {
			*a = x;
			*b = y;
			return true;
		}
		free(x);
		free(y);
	}
	return false;
}

/*
 * A file of a git diff with no "---" and "+++" lines (a mode change, a
 * binary file) is named by its "diff --git" line alone: its names, as
 * written, so that -p is detected on it as on any other.  A rename's or
 * copy's names need no -p (git apply reads its "rename from" lines as
 * they are).
 */
static void dfile_finish(struct dfile *f)
{
	char *a, *b;

	if (!f || !f->git || f->old_path || f->new_path || f->renamed ||
	    !f->git_hdr ||
	    !git_header_names(f->git_hdr, f->git_hdr_len, &a, &b))
		return;
	if (f->created)
		free(a);
	else
		f->old_path = a;
	if (f->deleted)
		free(b);
	else
		f->new_path = b;
}

static void ddiff_parse(struct ddiff *d, const char *p, const char *end)
{
	struct dfile *cur = NULL;
	bool have_paths = false;

	memset(d, 0, sizeof(*d));
	while (p < end) {
		const char *next = p + patch_line_len(p, end);

		if (patch_starts(p, end, "diff ")) {
			dfile_finish(cur);
			ALLOC_GROW(d->v, d->n + 1, d->alloc);
			cur = &d->v[d->n++];
			memset(cur, 0, sizeof(*cur));
			cur->git = patch_starts(p, end, "diff --git ");
			cur->start = p;
			if (cur->git) {
				cur->git_hdr = p + 11;
				cur->git_hdr_len = patch_line_chomp(p, end) - 11;
			}
			have_paths = false;
		} else if (cur && cur->git && !cur->nh && !have_paths &&
			   patch_starts(p, end, "new file mode ")) {
			cur->created = true;
		} else if (cur && cur->git && !cur->nh && !have_paths &&
			   patch_starts(p, end, "deleted file mode ")) {
			cur->deleted = true;
		} else if (cur && cur->git && !cur->nh && !have_paths &&
			   (patch_starts(p, end, "rename from ") ||
			    patch_starts(p, end, "copy from "))) {
			cur->renamed = true;
		} else if (cur && cur->git && !cur->nh && !have_paths &&
			   patch_starts(p, end, "Binary files ")) {
			cur->nodata = true;
		} else if (patch_starts(p, end, "--- ") && next < end &&
			   patch_starts(next, end, "+++ ")) {
			if (!cur || have_paths) {
				ALLOC_GROW(d->v, d->n + 1, d->alloc);
				cur = &d->v[d->n++];
				memset(cur, 0, sizeof(*cur));
			}
			cur->old_path = header_path(p, end);
			cur->new_path = header_path(next, end);
			cur->created = !cur->old_path;
			have_paths = true;
			next += patch_line_len(next, end);
		} else if (patch_starts(p, end, "@@ -") && cur) {
			const char *s = p + 4;
			unsigned long os, ol, ns, nl;
			struct dhunk *h;

			if (parse_range(&s, &os, &ol) && !strncmp(s, " +", 2)) {
				s += 2;
				if (parse_range(&s, &ns, &nl)) {
					ALLOC_GROW(cur->h, cur->nh + 1, cur->ah);
					h = &cur->h[cur->nh++];
					h->old_start = os;
					h->hdr = p;
					h->hdr_len = patch_line_chomp(p, end);
					if (cur->nh == 1 && !os && !ol)
						cur->created = true;
					next = hunk_body(d, next, end, ol, nl);
				}
			}
		}
		p = next;
	}
	dfile_finish(cur);
}

/* A created file's directory (stripped by @strip) exists, below the root. */
static bool dir_exists(git_tree *tree, const char *path, int strip)
{
	const char *s = strip_path(path, strip), *slash;
	char *dir;
	bool ok;

	if (!s || !(slash = strrchr(s, '/')))
		return false;
	dir = xstrndup(s, (size_t)(slash - s));
	ok = gate_tree_has(tree, dir, true);
	free(dir);
	return ok;
}

/* How many leading directories of @path, stripped by @strip, @base has. */
static int dirs_in_base(git_tree *base, const char *path, int strip)
{
	const char *s = strip_path(path, strip), *slash;
	int n = 0;

	for (slash = s ? strchr(s, '/') : NULL; slash; slash = strchr(slash + 1, '/')) {
		char *dir = xstrndup(s, (size_t)(slash - s));
		bool has = gate_tree_has(base, dir, true);

		free(dir);
		if (!has)
			break;
		n++;
	}
	return n;
}

/*
 * Whether file @f of a patch is in @base at -p@strip: its old name, or
 * for a diff that is not git's ("--- x.c.orig", "+++ x.c") either name,
 * as patch(1) and git apply take the one that exists.
 */
static bool file_in_base(git_tree *base, const struct dfile *f, int strip)
{
	return gate_tree_has(base, strip_path(f->old_path, strip), false) ||
	       (!f->git && f->new_path &&
		gate_tree_has(base, strip_path(f->new_path, strip), false));
}

/*
 * The -p of a patch, as patch(1) finds it: -p1, else -p0, whichever makes
 * the files the patch changes exist in @base.  A patch that only creates
 * files is -p0 when that (and not -p1) puts them in an existing directory,
 * or deeper among existing directories (git diff --no-prefix creating
 * drivers/new/x.c: "drivers" exists, "new" does not).
 */
static int detect_strip(int *strip, const struct ddiff *d, git_tree *base,
			const char *label)
{
	static const int tries[] = { 1, 0 };
	const char *missing[2] = { NULL, NULL };
	size_t i, k, nold = 0;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < d->n && !missing[k]; i++) {
			const struct dfile *f = &d->v[i];

			if (f->created || !f->old_path)
				continue;
			if (!k)
				nold++;
			if (!file_in_base(base, f, tries[k]))
				missing[k] = f->old_path;
		}
		if (nold && !missing[k]) {
			*strip = tries[k];
			return 0;
		}
	}
	if (nold) {
		const char *s1 = strip_path(missing[0], 1);

		return kmig_err("patch %s does not apply: '%s' is not in the base tree, tried -p1 ('%s') and -p0 ('%s')",
				label, missing[0], s1 ? s1 : "", missing[1]);
	}
	*strip = 1;
	for (i = 0; i < d->n; i++) {
		const char *path = d->v[i].new_path;

		if (path && !dir_exists(base, path, 1) &&
		    dirs_in_base(base, path, 0) > dirs_in_base(base, path, 1)) {
			*strip = 0;
			break;
		}
	}
	return 0;
}

/* ---- running git on the temporary index ---- */

struct gitenv {
	char *dir;		/* the temporary directory */
	char *gitdir_opt;	/* "--git-dir=..." */
	char *env[7];
};

static void gitenv_clear(struct gitenv *ge)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ge->env); i++)
		free(ge->env[i]);
	free(ge->gitdir_opt);
	if (ge->dir)
		rm_rf(ge->dir);
	free(ge->dir);
	memset(ge, 0, sizeof(*ge));
}

static int gitenv_init(struct gitenv *ge, git_repository *repo)
{
	const char *tmp = getenv("TMPDIR");
	char *objs;
	git_odb *odb = NULL;
	int ret = 0;

	memset(ge, 0, sizeof(*ge));
	ge->dir = xasprintf("%s/kmig-apply.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(ge->dir)) {
		ret = kmig_err("cannot create a temporary directory '%s': %s",
			       ge->dir, strerror(errno));
		free(ge->dir);
		ge->dir = NULL;
		return ret;
	}
	objs = xasprintf("%s/objects", ge->dir);
	if (mkdir_p(objs)) {
		free(objs);
		return KMIG_EGENERIC;
	}
	ge->gitdir_opt = xasprintf("--git-dir=%s", git_repository_path(repo));
	ge->env[0] = xasprintf("GIT_INDEX_FILE=%s/index", ge->dir);
	ge->env[1] = xasprintf("GIT_OBJECT_DIRECTORY=%s", objs);
	ge->env[2] = xasprintf("GIT_ALTERNATE_OBJECT_DIRECTORIES=%sobjects",
			       git_repository_commondir(repo));
	ge->env[3] = xstrdup("LC_ALL=C");
	ge->env[4] = xstrdup("LANGUAGE=C");
	ge->env[5] = NULL;
	/* let libgit2 read what git writes there */
	if (git_repository_odb(&odb, repo) < 0 ||
	    git_odb_add_disk_alternate(odb, objs) < 0)
		ret = kmig_err_git("cannot add the temporary object directory");
	git_odb_free(odb);
	free(objs);
	return ret;
}

/*
 * Run "git --git-dir=REPO @args..." in the temporary environment: stdout
 * into @out (may be NULL), stderr into @err, the exit status into *@code.
 */
static int run_git(struct gitenv *ge, const char *const *args, struct sbuf *out,
		   struct sbuf *err, int *code)
{
	struct child_opts o = { 0 };
	struct child_status st;
	struct sbuf discard = SBUF_INIT;
	const char *argv[16];
	char *log = xasprintf("%s/stderr", ge->dir);
	size_t n = 0;
	int ret;

	argv[n++] = "git";
	argv[n++] = ge->gitdir_opt;
	while (*args && n < ARRAY_SIZE(argv) - 1)
		argv[n++] = *args++;
	argv[n] = NULL;
	o.argv = (char *const *)argv;
	o.dir = ge->dir;
	o.out_path = log;
	o.capture = out ? out : &discard;
	o.env = ge->env;
	ret = child_run(&o, &st);
	sbuf_release(&discard);
	if (!ret) {
		sbuf_reset(err);
		if (sbuf_read_file(err, log))
			sbuf_reset(err);
		*code = st.code;
		if (st.code == 127)
			ret = kmig_err("cannot run 'git' (needed to apply patches)");
	}
	free(log);
	return ret;
}

/* The first "error:" or "fatal:" line of @err, without the prefix. */
static char *git_error_line(const struct sbuf *err)
{
	const char *p = err->buf ? err->buf : "", *end = p + err->len;

	for (; p < end; p += patch_line_len(p, end)) {
		size_t n = patch_line_chomp(p, end);

		if (patch_starts(p, end, "error: "))
			return xstrndup(p + 7, n - 7);
		if (patch_starts(p, end, "fatal: "))
			return xstrndup(p + 7, n - 7);
	}
	return xstrdup("git apply failed");
}

static int write_tree(struct gitenv *ge, git_repository *repo, git_tree **out)
{
	static const char *const args[] = { "write-tree", NULL };
	struct sbuf so = SBUF_INIT, se = SBUF_INIT;
	git_oid oid;
	int code = 0, ret;

	ret = run_git(ge, args, &so, &se, &code);
	if (!ret && code) {
		char *why = git_error_line(&se);

		ret = kmig_err("git write-tree failed: %s", why);
		free(why);
	}
	if (!ret && (so.len < GIT_OID_HEXSZ ||
		     git_oid_fromstrn(&oid, so.buf, GIT_OID_HEXSZ) < 0))
		ret = kmig_err("git write-tree gave no tree");
	if (!ret && git_tree_lookup(out, repo, &oid) < 0)
		ret = kmig_err_git("cannot read the patched tree");
	sbuf_release(&so);
	sbuf_release(&se);
	return ret;
}

/* ---- the series ---- */

/* The first Subject: header of a message, normalised, tags kept. */
static char *tagged_subject(const char *msg, size_t len)
{
	const char *p = msg, *end = msg + len;
	struct sbuf hdr = SBUF_INIT;
	char *subject = NULL;

	while (patch_header_next(&p, end, &hdr)) {
		char *v = patch_header_value(&hdr, "Subject");

		if (v && !subject)
			subject = normalize_ws(v, strlen(v));
		free(v);
	}
	sbuf_release(&hdr);
	return subject;
}

struct pending {
	const char *start;	/* the diff */
	size_t len;
	char *own;		/* the decoded message it is in, or NULL */
};

static void add_patch(struct gate_series *s, struct pending **pend,
		      size_t *apend, const char *name, char *subject,
		      const char *ds, const char *de, size_t msgno, bool several)
{
	struct gate_patch *p;

	ALLOC_GROW(s->v, s->n + 1, s->alloc);
	ALLOC_GROW(*pend, s->n + 1, *apend);
	p = &s->v[s->n];
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(name);
	p->subject = subject;
	p->label = several ? xasprintf("'%s' (message %zu)", name, msgno) :
			     xasprintf("'%s'", name);
	(*pend)[s->n].start = ds;
	(*pend)[s->n].len = (size_t)(de - ds);
	(*pend)[s->n].own = NULL;
	s->n++;
}

/* Split the inputs into their patches (and a cover letter). */
static int split_inputs(struct gate_series *s, struct pending **pend,
			const struct gate_patch_input *in, size_t nin)
{
	size_t apend = 0, k, i;

	for (k = 0; k < nin; k++) {
		const char *buf = in[k].buf, *end = buf + in[k].len, *ds, *de;
		struct patch_span *msgs = NULL;
		size_t nmsg, before = s->n, ndiff = 0;
		bool cover = false;

		if (!patch_is_mbox(buf, in[k].len)) {
			/* a plain diff, maybe with some text before it */
			if (!patch_find_diff(buf, end, &ds, &de))
				return kmig_err("patch '%s' contains no diff",
						in[k].name);
			add_patch(s, pend, &apend, in[k].name, NULL, ds, de, 1,
				  false);
			continue;
		}
		nmsg = patch_mbox_split(&msgs, buf, in[k].len);
		for (i = 0; i < nmsg; i++) {
			const char *m = msgs[i].start, *mend = m + msgs[i].len;
			char *subject = tagged_subject(m, msgs[i].len);
			size_t dlen;
			/* a quoted-printable or base64 body, as git am reads it */
			char *dec = patch_body_decode(m, msgs[i].len, &dlen);

			if (dec) {
				m = dec;
				mend = dec + dlen;
			}
			if (!patch_find_diff(m, mend, &ds, &de)) {
				if (!s->cover && subject) {
					s->cover = subject;	/* a cover letter */
					cover = true;
				} else {
					free(subject);
				}
				free(dec);
				continue;
			}
			add_patch(s, pend, &apend, in[k].name, subject, ds, de,
				  ++ndiff, nmsg > 1);
			(*pend)[s->n - 1].own = dec;
		}
		free(msgs);
		/* a series' cover letter may be a file of its own */
		if (s->n == before && !(cover && nin > 1))
			return kmig_err("patch '%s' contains no diff", in[k].name);
	}
	return 0;
}

/*
 * The path of git apply's "Checking patch NAME...": C-quoted when git
 * quotes it, and "OLD => NEW" for a file of @d the patch renames (at
 * -p@strip), whose NEW it is; a name that only holds " => " is itself.
 */
static char *checked_path(const char *name, const struct ddiff *d, int strip)
{
	const char *arrow;
	size_t i;

	for (arrow = strstr(name, " => "); arrow; arrow = strstr(arrow + 1, " => ")) {
		char *old = patch_path_dup(name, (size_t)(arrow - name));
		char *new = patch_path_dup(arrow + 4, strlen(arrow + 4));

		for (i = 0; i < d->n; i++) {
			const char *op = strip_path(d->v[i].old_path, strip);
			const char *np = strip_path(d->v[i].new_path, strip);

			if (op && np && !strcmp(op, old) && !strcmp(np, new)) {
				free(old);
				return new;
			}
		}
		free(old);
		free(new);
	}
	return patch_path_dup(name, strlen(name));
}

/* Offsets from git apply -v: "Checking patch P..." then "Hunk #N succeeded at L (offset K lines)." */
static void read_offsets(struct gate_series *s, size_t patch,
			 const struct ddiff *d, int strip,
			 const struct sbuf *err)
{
	const char *p = err->buf ? err->buf : "", *end = p + err->len;
	char *path = NULL;

	for (; p < end; p += patch_line_len(p, end)) {
		size_t n = patch_line_chomp(p, end);
		char *line = xstrndup(p, n);
		unsigned int hunk;
		long at, off;

		if (!strncmp(line, "Checking patch ", 15) && n > 18 &&
		    !strcmp(line + n - 3, "...")) {
			line[n - 3] = '\0';
			free(path);
			path = checked_path(line + 15, d, strip);
		} else if (sscanf(line, "Hunk #%u succeeded at %ld (offset %ld line",
				  &hunk, &at, &off) == 3 && path) {
			struct gate_offset *o;

			ALLOC_GROW(s->off, s->noff + 1, s->aoff);
			o = &s->off[s->noff++];
			o->patch = patch;
			o->path = xstrdup(path);
			o->hunk = hunk;
			o->line = at;
			o->offset = off;
		}
		free(line);
	}
	free(path);
}

/* git apply failed: name the file and hunk of "patch failed: PATH:LINE". */
static int apply_failure(const struct ddiff *d, int strip, const char *label,
			 const struct sbuf *err)
{
	const char *p = err->buf ? err->buf : "", *end = p + err->len;
	char *why;
	size_t i, k;
	int ret;

	for (; p < end; p += patch_line_len(p, end)) {
		size_t n = patch_line_chomp(p, end);
		char *line, *colon;
		unsigned long at;

		if (!patch_starts(p, end, "error: patch failed: "))
			continue;
		line = xstrndup(p + 21, n - 21);
		colon = strrchr(line, ':');
		if (!colon) {
			free(line);
			break;
		}
		*colon = '\0';
		at = strtoul(colon + 1, NULL, 10);
		for (i = 0; i < d->n; i++) {
			const struct dfile *f = &d->v[i];
			const char *np = strip_path(f->new_path, strip);
			const char *op = strip_path(f->old_path, strip);

			if (!(np && !strcmp(np, line)) && !(op && !strcmp(op, line)))
				continue;
			for (k = 0; k < f->nh; k++) {
				if (f->h[k].old_start != at)
					continue;
				ret = kmig_err("patch %s does not apply: %s: hunk #%zu (%.*s) does not match",
					       label, line, k + 1,
					       (int)f->h[k].hdr_len, f->h[k].hdr);
				free(line);
				return ret;
			}
		}
		ret = kmig_err("patch %s does not apply: %s: the hunk at line %lu does not match",
			       label, line, at);
		free(line);
		return ret;
	}
	why = git_error_line(err);
	ret = kmig_err("patch %s does not apply: %s", label, why);
	free(why);
	return ret;
}

/*
 * @text (*@len bytes) without the files git diff wrote no data for
 * ("Binary files a/x and b/x differ", git diff without --binary) that are
 * out of scope (path_in_scope(), at -p@strip): git apply refuses them, and
 * no use is in them.  NULL when there is none; *@left: the files kept.
 */
static char *without_nodata(const struct ddiff *d, int strip,
			    const char *text, size_t *len, size_t *left)
{
	const char *end = text + *len, *from = text;
	struct sbuf out = SBUF_INIT;
	size_t i, dropped = 0;

	for (i = 0; i < d->n; i++) {
		const struct dfile *f = &d->v[i];
		const char *path = strip_path(f->new_path ? f->new_path :
					      f->old_path, strip);
		const char *q;

		if (!f->nodata || !f->start || !path || path_in_scope(path))
			continue;
		for (q = f->start + patch_line_len(f->start, end); q < end &&
		     !patch_starts(q, end, "diff "); q += patch_line_len(q, end))
			;
		sbuf_add(&out, from, (size_t)(f->start - from));
		from = q;
		dropped++;
	}
	*left = d->n - dropped;
	if (!dropped)
		return NULL;
	sbuf_add(&out, from, (size_t)(end - from));
	*len = out.len;
	return sbuf_detach(&out);
}

static int apply_one(struct gate_series *s, struct gitenv *ge,
		     git_repository *repo, git_tree *base, size_t i,
		     const struct pending *pd)
{
	struct gate_patch *p = &s->v[i];
	struct sbuf se = SBUF_INIT;
	struct ddiff d;
	char *file = xasprintf("%s/%zu.patch", ge->dir, i + 1);
	char popt[8];
	const char *args[10];
	size_t n = 0, len = pd->len, left;
	char *own = patch_without_crs(pd->start, &len), *kept;
	const char *text = own ? own : pd->start;
	int code = 0, ret;
	FILE *f;

	ddiff_parse(&d, text, text + len);
	ret = detect_strip(&p->strip, &d, i ? s->v[i - 1].tree : base, p->label);
	if (ret)
		goto out_free;
	p->recount = d.recount;
	kept = without_nodata(&d, p->strip, text, &len, &left);
	if (kept) {
		free(own);
		own = kept;
		text = own;
	}
	if (!left)	/* nothing git apply would change */
		goto out_tree;
	f = fopen(file, "w");
	if (!f || fwrite(text, 1, len, f) != len) {
		ret = kmig_err("cannot write '%s': %s", file, strerror(errno));
		if (f)
			fclose(f);
		goto out_free;
	}
	if (fclose(f)) {
		ret = kmig_err("cannot write '%s': %s", file, strerror(errno));
		goto out_free;
	}
	snprintf(popt, sizeof(popt), "-p%d", p->strip);
	args[n++] = "apply";
	args[n++] = "--cached";
	args[n++] = "-v";
	args[n++] = "--whitespace=nowarn";
	args[n++] = popt;
	if (d.recount)
		args[n++] = "--recount";
	args[n++] = file;
	args[n] = NULL;
	ret = run_git(ge, args, NULL, &se, &code);
	if (ret)
		goto out_free;
	if (code) {
		ret = apply_failure(&d, p->strip, p->label, &se);
		goto out_free;
	}
	read_offsets(s, i, &d, p->strip, &se);
out_tree:
	ret = write_tree(ge, repo, &p->tree);
out_free:
	sbuf_release(&se);
	ddiff_clear(&d);
	free(own);
	free(file);
	return ret;
}

int gate_series_apply(struct gate_series *s, git_repository *repo,
		      git_tree *base, const struct gate_patch_input *in,
		      size_t nin)
{
	struct pending *pend = NULL;
	struct gitenv *ge;
	struct sbuf se = SBUF_INIT;
	const char *args[3];
	size_t i;
	int code = 0, ret;

	memset(s, 0, sizeof(*s));
	ge = xcalloc(1, sizeof(*ge));
	s->priv = ge;
	ret = split_inputs(s, &pend, in, nin);
	if (ret)
		goto out_free;
	ret = gitenv_init(ge, repo);
	if (ret)
		goto out_free;
	args[0] = "read-tree";
	args[1] = git_oid_tostr_s(git_tree_id(base));
	args[2] = NULL;
	ret = run_git(ge, args, NULL, &se, &code);
	if (!ret && code) {
		char *why = git_error_line(&se);

		ret = kmig_err("cannot apply patches: git read-tree: %s", why);
		free(why);
	}
	for (i = 0; !ret && i < s->n; i++)
		ret = apply_one(s, ge, repo, base, i, &pend[i]);
out_free:
	sbuf_release(&se);
	for (i = 0; i < s->n; i++)
		free(pend[i].own);
	free(pend);
	return ret;
}

void gate_series_drop_objects(struct gate_series *s)
{
	if (s->priv)
		gitenv_clear(s->priv);
}

void gate_series_clear(struct gate_series *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].subject);
		free(s->v[i].label);
		git_tree_free(s->v[i].tree);
	}
	free(s->v);
	for (i = 0; i < s->noff; i++)
		free(s->off[i].path);
	free(s->off);
	free(s->cover);
	if (s->priv) {
		gitenv_clear(s->priv);
		free(s->priv);
	}
	memset(s, 0, sizeof(*s));
}

/* ---- which patch of a series added a use ---- */

static bool same_use(const struct gate_site *a, const struct gate_site *b,
		     bool path)
{
	return a->rule == b->rule && !use_text_cmp(a->text, b->text) &&
	       (!path || !strcmp(a->path, b->path));
}

int gate_series_attribute(struct gate *g, const struct gate_series *s,
			  git_tree *base, struct gate_sites *added)
{
	struct gate_touched *t;
	struct gate_change *steps;
	bool **used;
	size_t i, k, j;
	int ret = 0, pass;

	for (i = 0; i < added->n; i++)
		added->v[i].patch = s->n == 1 ? 0 : -1;
	if (s->n <= 1 || !added->n)
		return 0;
	t = xcalloc(s->n, sizeof(*t));
	steps = xcalloc(s->n, sizeof(*steps));
	used = xcalloc(s->n, sizeof(*used));
	for (k = 0; !ret && k < s->n; k++) {
		ret = gate_diff_trees(g, k ? s->v[k - 1].tree : base,
				      s->v[k].tree, &t[k], &steps[k]);
		used[k] = xcalloc(steps[k].added.n + 1, sizeof(**used));
	}
	/* the latest patch that added the same use: same file first */
	for (pass = 0; !ret && pass < 2; pass++) {
		for (i = 0; i < added->n; i++) {
			struct gate_site *site = &added->v[i];
			bool done = site->patch >= 0;

			for (k = s->n; !done && k-- > 0;) {
				for (j = 0; j < steps[k].added.n; j++) {
					if (used[k][j] ||
					    !same_use(site, &steps[k].added.v[j], !pass))
						continue;
					used[k][j] = true;
					site->patch = (int)k;
					done = true;
					break;
				}
			}
		}
	}
	for (k = 0; k < s->n; k++) {
		free(used[k]);
		gate_change_clear(&steps[k]);
		gate_touched_clear(&t[k]);
	}
	free(used);
	free(steps);
	free(t);
	return ret;
}
