// SPDX-License-Identifier: GPL-2.0
/*
 * branch.c - apply one series patch with libgit2, or say why not.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "branch.h"
#include "lexer.h"
#include "repo.h"
#include "rules.h"
#include "store.h"
#include "usetext.h"

const char *const branch_status_names[BRANCH__COUNT] = {
	[BRANCH_APPLIED] = "applied",
	[BRANCH_UPSTREAM] = "upstream",
	[BRANCH_SUPERSEDED] = "superseded",
	[BRANCH_CONFLICT] = "conflict",
};

void branch_outcome_clear(struct branch_outcome *o)
{
	sbuf_release(&o->evidence);
	memset(o, 0, sizeof(*o));
}

char *branch_default_name(const char *tag)
{
	return xasprintf("kmig/%s", tag);
}

int branch_name_for(char **out, git_repository *repo, const char *name,
		    const char *base)
{
	git_commit *c = NULL;
	int ret;

	*out = NULL;
	if (name) {
		*out = xstrdup(name);
		return 0;
	}
	if (!repo_tag_exists(repo, base)) {
		ret = repo_resolve_commit(&c, repo, base);
		if (ret)
			return ret;
		git_commit_free(c);
		return kmig_errcode(KMIG_EUSAGE,
				    "'%s' is not a tag: name the branch with --name BRANCH",
				    base);
	}
	*out = branch_default_name(base);
	return 0;
}

int branch_chosen(char **out, git_repository *repo, struct store *st,
		  const char *db_path, const char *name, const char *base)
{
	*out = NULL;
	if (name || base)
		return branch_name_for(out, repo, name, base);
	if (!st)
		return kmig_errcode(KMIG_ENOTFOUND,
				    "no branch applied yet: no database '%s' (run 'kmig branch apply')",
				    db_path);
	return store_branch_latest(st, out);
}

void kmig_identity(git_repository *repo, char **name, char **email)
{
	const char *id = getenv("KMIG_IDENTITY");
	const char *lt = id ? strchr(id, '<') : NULL;
	const char *gt = lt ? strchr(lt, '>') : NULL;

	if (!lt || !gt || lt == id) {
		git_config *cfg = NULL;
		git_buf n = { 0 }, e = { 0 };
		/* as git commit in @repo: its own config first, then global, system */
		int err = repo ? git_repository_config(&cfg, repo) :
				 git_config_open_default(&cfg);

		if (!err &&
		    !git_config_get_string_buf(&n, cfg, "user.name") &&
		    !git_config_get_string_buf(&e, cfg, "user.email") &&
		    n.size && e.size) {
			*name = xstrdup(n.ptr);
			*email = xstrdup(e.ptr);
		} else {
			*name = xstrdup("kmig");
			*email = xstrdup("kmig@localhost");
		}
		git_buf_dispose(&n);
		git_buf_dispose(&e);
		git_config_free(cfg);
		return;
	}
	*name = xstrndup(id, (size_t)(lt - id));
	while (**name && (*name)[strlen(*name) - 1] == ' ')
		(*name)[strlen(*name) - 1] = '\0';
	*email = xstrndup(lt + 1, (size_t)(gt - lt - 1));
}

/* ---- trailers ---- */

static bool is_trailer_line(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && (isalnum((unsigned char)p[i]) || p[i] == '-'))
		i++;
	return i > 0 && i + 1 < n && p[i] == ':' && p[i + 1] == ' ';
}

/* last_paragraph - start of the last paragraph of @s (trailing blanks ignored). */
static size_t last_paragraph(const char *s, size_t len)
{
	size_t i;

	for (i = len; i > 1; i--)
		if (s[i - 1] == '\n' && s[i - 2] == '\n')
			return i;
	return 0;
}

char *branch_message_add_trailer(const char *message, const char *key,
				 const char *value)
{
	struct sbuf sb = SBUF_INIT;
	size_t len = strlen(message), start, i;
	bool trailers = true;

	while (len && (message[len - 1] == '\n' || message[len - 1] == ' '))
		len--;
	start = last_paragraph(message, len);
	if (!start)
		trailers = false;	/* the subject alone is no trailer block */
	for (i = start; trailers && i < len;) {
		const char *nl = memchr(message + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - message - i) : len - i;

		if (!is_trailer_line(message + i, n))
			trailers = false;
		i += n + 1;
	}
	sbuf_add(&sb, message, len);
	sbuf_addstr(&sb, trailers ? "\n" : "\n\n");
	sbuf_addf(&sb, "%s: %s\n", key, value);
	return sbuf_detach(&sb);
}

char *branch_message_trailer(const char *message, const char *key,
			     char **strip)
{
	const char *hit;
	size_t hitlen;
	char *value = patch_trailer(message, key, &hit, &hitlen);
	struct sbuf sb = SBUF_INIT;

	if (!strip)
		return value;
	if (!value || !hit) {
		*strip = xstrdup(message);
		return value;
	}
	sbuf_add(&sb, message, (size_t)(hit - message));
	sbuf_addstr(&sb, hit + hitlen);
	/* drop a trailer paragraph left empty */
	while (sb.len >= 2 && sb.buf[sb.len - 1] == '\n' &&
	       sb.buf[sb.len - 2] == '\n')
		sb.buf[--sb.len] = '\0';
	*strip = sbuf_detach(&sb);
	return value;
}

/* ---- file contents and line matching ---- */

struct lines {
	const char **v;
	size_t *len;
	size_t n, alloc, alloc2;
};

static void lines_add(struct lines *l, const char *p, size_t n)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	ALLOC_GROW(l->len, l->n + 1, l->alloc2);
	l->v[l->n] = p;
	l->len[l->n++] = n;
}

static void lines_clear(struct lines *l)
{
	free(l->v);
	free(l->len);
	memset(l, 0, sizeof(*l));
}

static void split_lines(struct lines *l, const char *buf, size_t len)
{
	const char *p = buf, *e = buf + len;

	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(e - p);

		lines_add(l, p, n);
		p += n + 1;
	}
}

static bool lines_at(const struct lines *hay, size_t at, const struct lines *needle)
{
	size_t j;

	for (j = 0; j < needle->n; j++)
		if (hay->len[at + j] != needle->len[j] ||
		    memcmp(hay->v[at + j], needle->v[j], needle->len[j]))
			return false;
	return true;
}

/*
 * find_lines_near - the index where @needle occurs in @hay nearest to
 * @want (earlier first on a tie) and not before @min, or -1.
 */
static long find_lines_near(const struct lines *hay, const struct lines *needle,
			    long want, long min)
{
	long last = (long)hay->n - (long)needle->n, off;

	if (last < min)
		return -1;
	for (off = 0; off <= (long)hay->n + (want > 0 ? want : 0); off++) {
		if (want - off >= min && want - off <= last &&
		    lines_at(hay, (size_t)(want - off), needle))
			return want - off;
		if (off && want + off >= min && want + off <= last &&
		    lines_at(hay, (size_t)(want + off), needle))
			return want + off;
	}
	return -1;
}

/* find_lines - first index where @needle (not empty) occurs in @hay, or -1. */
static long find_lines(const struct lines *hay, const struct lines *needle)
{
	return needle->n ? find_lines_near(hay, needle, 0, 0) : -1;
}

/* The pre-image and post-image of a hunk, and which pre-image lines go. */
struct hunk_image {
	struct lines pre, post;
	bool *removed;		/* per pre-image line */
	size_t aremoved;
};

static void hunk_image(struct hunk_image *img, const struct patch_hunk *h)
{
	const char *p = h->text, *e = h->text + h->len;

	memset(img, 0, sizeof(*img));
	p = memchr(p, '\n', (size_t)(e - p));
	p = p ? p + 1 : e;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(e - p);

		if (n == 0 || p[0] == ' ') {
			const char *t = n ? p + 1 : p;
			size_t tn = n ? n - 1 : 0;

			ALLOC_GROW(img->removed, img->pre.n + 1, img->aremoved);
			img->removed[img->pre.n] = false;
			lines_add(&img->pre, t, tn);
			lines_add(&img->post, t, tn);
		} else if (p[0] == '-') {
			ALLOC_GROW(img->removed, img->pre.n + 1, img->aremoved);
			img->removed[img->pre.n] = true;
			lines_add(&img->pre, p + 1, n - 1);
		} else if (p[0] == '+') {
			lines_add(&img->post, p + 1, n - 1);
		}
		p += n + 1;
	}
}

static void hunk_image_clear(struct hunk_image *img)
{
	lines_clear(&img->pre);
	lines_clear(&img->post);
	free(img->removed);
}

/*
 * removed_sites - lex the pre-image of a hunk wrapped in braces and keep
 * the sites on removed lines (the derived rule left out).
 */
static void removed_sites(const struct hunk_image *img, struct site_list *out)
{
	struct site_list all = SITE_LIST_INIT;
	struct sbuf sb = SBUF_INIT;
	long depth = 0, min = 0;
	size_t i, j, open;

	for (i = 0; i < img->pre.n; i++)
		for (j = 0; j < img->pre.len[i]; j++) {
			if (img->pre.v[i][j] == '{')
				depth++;
			else if (img->pre.v[i][j] == '}' && --depth < min)
				min = depth;
		}
	open = 1 + (size_t)-min;
	for (i = 0; i < open; i++)
		sbuf_addch(&sb, '{');
	sbuf_addch(&sb, '\n');
	for (i = 0; i < img->pre.n; i++) {
		sbuf_add(&sb, img->pre.v[i], img->pre.len[i]);
		sbuf_addch(&sb, '\n');
	}
	for (i = 0; i < open + (size_t)(depth > 0 ? depth : 0); i++)
		sbuf_addch(&sb, '}');
	sbuf_addch(&sb, '\n');
	lex_buffer(sb.buf, sb.len, &all);
	for (i = 0; i < all.n; i++) {
		struct site *s = &all.v[i];
		size_t line = s->line;	/* 1 is the brace line */

		if (line < 2 || line - 2 >= img->pre.n || !img->removed[line - 2] ||
		    rules[s->rule].kind == MATCH_DERIVED) {
			continue;
		}
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		out->v[out->n] = *s;
		out->v[out->n].line = (unsigned int)(line - 1);
		out->n++;
		s->func = NULL;
		s->text = NULL;
		s->deps = NULL;
	}
	site_list_clear(&all);
	sbuf_release(&sb);
}

/*
 * The use_text_key() of the @len bytes of line @s up to its first comma
 * (a new string): the call and its first argument, the destination of a
 * strlcpy() or strcpy().
 */
static char *line_key(const char *s, size_t len)
{
	char *line = normalize_ws(s, len), *key = xmalloc(len + 1), *comma;

	use_text_key(line, key);
	comma = strchr(key, ',');
	if (comma)
		comma[1] = '\0';
	free(line);
	return key;
}

/*
 * The pre-image of a patch's file as its "index OLD..NEW" line names it,
 * when the repository has that blob and every hunk's pre-image is at its
 * line there: its uses, and which of its lines the patch removes.
 */
struct base_file {
	bool known;
	struct sbuf content;
	struct lines lines;
	struct site_list sites;
	bool *removed;		/* per line */
};

static void base_file_load(struct base_file *b, git_repository *repo,
			   const struct patch_file *f)
{
	const char *h = f->header, *e = f->header + f->header_len, *p, *hex;
	git_blob *blob = NULL;
	git_oid oid;
	size_t n, hi, i;

	memset(b, 0, sizeof(*b));
	for (p = h; p < e; p += patch_line_len(p, e))
		if (patch_starts(p, e, "index "))
			break;
	if (p >= e)
		return;
	hex = p + 6;
	for (n = 0; hex + n < e && isxdigit((unsigned char)hex[n]); n++)
		;
	if (n < 4 || n > GIT_OID_HEXSZ || git_oid_fromstrn(&oid, hex, n) < 0 ||
	    git_blob_lookup_prefix(&blob, repo, &oid, n) < 0) {
		git_error_clear();
		return;
	}
	sbuf_add(&b->content, git_blob_rawcontent(blob),
		 (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	split_lines(&b->lines, b->content.buf ? b->content.buf : "",
		    b->content.len);
	b->removed = xcalloc(b->lines.n + 1, sizeof(*b->removed));
	b->known = true;
	for (hi = 0; hi < f->nhunks && b->known; hi++) {
		const struct patch_hunk *ph = &f->hunks[hi];
		struct hunk_image img;
		size_t at = ph->old_start ? ph->old_start - 1 : 0;

		hunk_image(&img, ph);
		if (img.pre.n && (at + img.pre.n > b->lines.n ||
				  !lines_at(&b->lines, at, &img.pre)))
			b->known = false;	/* not this blob's patch */
		for (i = 0; b->known && i < img.pre.n; i++)
			b->removed[at + i] = img.removed[i];
		hunk_image_clear(&img);
	}
	if (b->known)
		lex_buffer(b->content.buf ? b->content.buf : "", b->content.len,
			   &b->sites);
}

static void base_file_clear(struct base_file *b)
{
	site_list_clear(&b->sites);
	lines_clear(&b->lines);
	sbuf_release(&b->content);
	free(b->removed);
	memset(b, 0, sizeof(*b));
}

/* The uses of rule @rule in @l (of the lines @file) keyed @want, but on lines @skip marks. */
static size_t count_key(const struct site_list *l, const struct lines *file,
			int rule, const char *want, const bool *skip)
{
	size_t i, count = 0;

	for (i = 0; i < l->n; i++) {
		unsigned int n = l->v[i].line;
		char *key;

		if (l->v[i].rule != rule || !n || n > file->n ||
		    (skip && skip[n - 1]))
			continue;
		key = line_key(file->v[n - 1], file->len[n - 1]);
		if (!strcmp(key, want))
			count++;
		free(key);
	}
	return count;
}

/*
 * Is the use of rule @rule whose first line is @line (@len bytes) among
 * @l, the uses of the tree's file @file?  Uses are compared by their first
 * lines up to the first comma: a hunk may hold a wrapped call only in
 * part (its ')' beyond the hunk), or all of it where upstream changed a
 * later line or a later argument since (strlcpy(d, s, 8) made
 * strlcpy(d, s, 16)).  Either way the call is still there, and the patch
 * is no less needed.  Other calls of the file may share that much
 * (val = simple_strtoul(buf, ...) in every sysfs store): where the
 * patch's pre-image @base is known, the use is present only when the
 * tree has more uses so keyed than the pre-image keeps.
 */
static bool site_in(const struct site_list *l, const struct lines *file,
		    const struct base_file *base, int rule, const char *line,
		    size_t len)
{
	char *want = line_key(line, len);
	size_t have = count_key(l, file, rule, want, NULL);
	bool found = have > (base->known ?
			     count_key(&base->sites, &base->lines, rule, want,
				       base->removed) : 0);

	free(want);
	return found;
}

/* read_path - the blob at @path in @tree into @out; *@exists false if none. */
static int read_path(git_repository *repo, git_tree *tree, const char *path,
		     struct sbuf *out, bool *exists)
{
	int ret = repo_blob_at(repo, tree, path, out);

	*exists = !ret;
	return ret == KMIG_ENOTFOUND ? 0 : ret;
}

static void hunk_title(struct sbuf *ev, const struct patch_file *f, size_t i,
		       const struct patch_hunk *h)
{
	sbuf_addf(ev, "  %s hunk %zu/%zu @@ -%lu,%lu +%lu,%lu @@: ",
		  f->new_path ? f->new_path : f->old_path, i + 1, f->nhunks,
		  h->old_start, h->old_lines, h->new_start, h->new_lines);
}

struct analysis {
	size_t removed;		/* tracked uses the patch removes */
	size_t present;		/* of which still present in the tree */
};

/*
 * analyse - per-hunk evidence: pre-image / post-image found in the tree's
 * file, and the tracked uses each hunk removes, present or absent.
 */
static int analyse(struct analysis *a, struct sbuf *ev, git_repository *repo,
		   git_tree *tree, const struct mbox_patch *p)
{
	size_t fi, hi, k;
	int ret = 0;

	memset(a, 0, sizeof(*a));
	for (fi = 0; fi < p->nfiles && !ret; fi++) {
		const struct patch_file *f = &p->files[fi];
		struct site_list tree_sites = SITE_LIST_INIT;
		struct sbuf content = SBUF_INIT;
		struct lines file = { 0 };
		struct base_file base;
		bool exists = false, creates_existing = false;

		base_file_load(&base, repo, f);
		ret = read_path(repo, tree, f->old_path, &content, &exists);
		if (ret) {
			base_file_clear(&base);
			break;
		}
		if (exists) {
			split_lines(&file, content.buf ? content.buf : "", content.len);
			lex_buffer(content.buf ? content.buf : "", content.len,
				   &tree_sites);
		} else if (f->old_path) {
			sbuf_addf(ev, "  %s: file absent from the tree\n", f->old_path);
		}
		if (!f->old_path && f->new_path) {
			struct sbuf tmp = SBUF_INIT;

			ret = read_path(repo, tree, f->new_path, &tmp, &creates_existing);
			sbuf_release(&tmp);
			if (ret) {
				base_file_clear(&base);
				break;
			}
		}
		if (f->special)
			sbuf_addf(ev, "  %s: rename, copy or binary change\n",
				  f->new_path ? f->new_path : f->old_path);
		for (hi = 0; hi < f->nhunks; hi++) {
			struct site_list rm = SITE_LIST_INIT;
			struct hunk_image img;
			long at;

			hunk_image(&img, &f->hunks[hi]);
			hunk_title(ev, f, hi, &f->hunks[hi]);
			if (!exists) {
				sbuf_addstr(ev, f->old_path ? "file absent" :
					    creates_existing ? "creates a file that exists" :
					    "creates the file");
			} else if ((at = find_lines(&file, &img.pre)) >= 0) {
				sbuf_addf(ev, "pre-image found at line %ld", at + 1);
			} else if ((at = find_lines(&file, &img.post)) >= 0) {
				sbuf_addf(ev, "already applied (post-image at line %ld)",
					  at + 1);
			} else {
				sbuf_addstr(ev, "pre-image not found");
			}
			removed_sites(&img, &rm);
			if (!rm.n)
				sbuf_addstr(ev, "; removes no tracked use");
			for (k = 0; k < rm.n; k++) {
				size_t at = rm.v[k].line - 1;	/* in img.pre */
				bool present = exists &&
					site_in(&tree_sites, &file, &base, rm.v[k].rule,
						img.pre.v[at], img.pre.len[at]);

				a->removed++;
				if (present)
					a->present++;
				sbuf_addf(ev, "%s removes %s \"%s\" (%s)",
					  k ? "," : ";", rules[rm.v[k].rule].id,
					  rm.v[k].text ? rm.v[k].text : "",
					  present ? "present" : "absent");
			}
			sbuf_addch(ev, '\n');
			site_list_clear(&rm);
			hunk_image_clear(&img);
		}
		base_file_clear(&base);
		lines_clear(&file);
		site_list_clear(&tree_sites);
		sbuf_release(&content);
	}
	return ret;
}

/* ---- hunk relocation ---- */

/*
 * relocate - libgit2 applies a hunk only at the line its header names;
 * git apply also looks for the pre-image above and below.  Find each
 * hunk's pre-image in the tree's file (nearest to where the header says,
 * after the previous hunk) and write the patch again with the headers
 * moved there.  *@ok is false when some pre-image is not found.
 */
static int relocate(struct sbuf *out, bool *ok, git_repository *repo,
		    git_tree *tree, const struct patch_file *files, size_t nfiles)
{
	size_t fi, hi;
	int ret = 0;

	*ok = true;
	for (fi = 0; fi < nfiles && *ok && !ret; fi++) {
		const struct patch_file *f = &files[fi];
		struct sbuf content = SBUF_INIT;
		struct lines file = { 0 };
		bool exists;
		long delta = 0;
		size_t min = 0;

		/* the header as the patch has it: its mode change too */
		sbuf_add(out, f->header, f->header_len);
		if (f->old_path)
			ret = read_path(repo, tree, f->old_path, &content, &exists);
		if (ret || !f->old_path) {
			/* a new file: nothing to find */
			for (hi = 0; !ret && hi < f->nhunks; hi++)
				sbuf_add(out, f->hunks[hi].text, f->hunks[hi].len);
			sbuf_release(&content);
			continue;
		}
		if (!exists) {
			*ok = false;
			sbuf_release(&content);
			break;
		}
		split_lines(&file, content.buf ? content.buf : "", content.len);
		for (hi = 0; hi < f->nhunks && *ok; hi++) {
			const struct patch_hunk *h = &f->hunks[hi];
			const char *nl = memchr(h->text, '\n', h->len);
			struct hunk_image img;
			long want = h->old_start ? (long)h->old_start - 1 : 0, at;

			hunk_image(&img, h);
			at = find_lines_near(&file, &img.pre, want, (long)min);
			if (at < 0) {
				*ok = false;
			} else {
				unsigned long os = (unsigned long)at + (img.pre.n ? 1 : 0);
				size_t hlen = nl ? (size_t)(nl - h->text) : h->len;
				const char *ctx = memmem(h->text + 2, hlen - 2, "@@", 2);

				/* "@@ -os,n +ns,m @@" + the function context + the lines */
				sbuf_addf(out, "@@ -%lu,%lu +%lu,%lu @@", os, h->old_lines,
					  (unsigned long)((long)os + delta + (img.pre.n ? 0 : 1)),
					  h->new_lines);
				if (ctx)
					sbuf_add(out, ctx + 2, hlen - (size_t)(ctx + 2 - h->text));
				sbuf_addch(out, '\n');
				if (nl)
					sbuf_add(out, nl + 1, h->len - hlen - 1);
				min = (size_t)at + img.pre.n;
				delta += (long)h->new_lines - (long)h->old_lines;
			}
			hunk_image_clear(&img);
		}
		lines_clear(&file);
		sbuf_release(&content);
	}
	return ret;
}

/* ---- libgit2 steps ---- */

/* try_apply - apply @text on @tree; 0 with *@index, 1 when it does not apply. */
static int try_apply(git_index **index, git_repository *repo, git_tree *tree,
		     const char *text, size_t len, struct sbuf *why)
{
	git_diff *diff = NULL;
	int ret;

	*index = NULL;
	if (git_diff_from_buffer(&diff, text, len) < 0) {
		if (why)
			sbuf_addf(why, "cannot parse: %s",
				  git_error_last() ? git_error_last()->message : "?");
		return 1;
	}
	ret = git_apply_to_tree(index, repo, tree, diff, NULL);
	git_diff_free(diff);
	if (ret < 0) {
		if (why)
			sbuf_addstr(why, git_error_last() ? git_error_last()->message :
				    "does not apply");
		*index = NULL;
		return 1;
	}
	return 0;
}

static int reverse_applies(bool *yes, git_repository *repo, git_tree *tree,
			   const struct mbox_patch *p)
{
	struct sbuf text = SBUF_INIT;
	git_index *index = NULL;
	size_t i;

	*yes = false;
	for (i = 0; i < p->nfiles; i++)
		if (patch_file_text(&text, &p->files[i], NULL, true)) {
			sbuf_release(&text);
			return 0;	/* not reversible: not upstream this way */
		}
	if (!try_apply(&index, repo, tree, text.buf, text.len, NULL)) {
		*yes = true;
	} else {
		/* the same with the hunks moved to where they are found */
		struct patch_file *rf = NULL;
		struct sbuf moved = SBUF_INIT;
		size_t nrf = 0, arf = 0, end;
		bool ok = false;

		if (!diff_parse(&rf, &nrf, &arf, text.buf, text.len, &end) &&
		    !relocate(&moved, &ok, repo, tree, rf, nrf) && ok &&
		    !try_apply(&index, repo, tree, moved.buf, moved.len, NULL))
			*yes = true;
		patch_files_free(rf, nrf);
		sbuf_release(&moved);
	}
	git_index_free(index);
	sbuf_release(&text);
	return 0;
}

/*
 * patch_id_match - look for a commit reachable from @base (at most
 * BRANCH_WALK_LIMIT, merges skipped) whose change to the patch's files
 * has the patch's patch-id.
 */
static int patch_id_match(git_oid *found, bool *yes, git_repository *repo,
			  git_commit *base, const struct mbox_patch *p)
{
	git_diff_options opts;
	git_revwalk *walk = NULL;
	git_diff *pdiff = NULL;
	char **paths = xcalloc(p->nfiles * 2 + 1, sizeof(*paths));
	git_oid pid, oid;
	size_t i, npaths = 0, seen = 0;
	int ret = 0;

	*yes = false;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	if (git_diff_from_buffer(&pdiff, p->diff, p->diff_len) < 0 ||
	    git_diff_patchid(&pid, pdiff, NULL) < 0)
		goto out;	/* no patch-id: cannot match this way */
	for (i = 0; i < p->nfiles; i++) {
		if (p->files[i].old_path)
			paths[npaths++] = p->files[i].old_path;
		if (p->files[i].new_path && (!p->files[i].old_path ||
		    strcmp(p->files[i].old_path, p->files[i].new_path)))
			paths[npaths++] = p->files[i].new_path;
	}
	opts.pathspec.strings = paths;
	opts.pathspec.count = npaths;
	opts.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_push(walk, git_commit_id(base)) < 0) {
		ret = kmig_err_git("cannot walk history");
		goto out;
	}
	while (!*yes && seen < BRANCH_WALK_LIMIT && !git_revwalk_next(&oid, walk)) {
		git_commit *c = NULL, *parent = NULL;
		git_tree *t = NULL, *pt = NULL;
		git_diff *d = NULL;
		git_oid cid;

		seen++;
		if (git_commit_lookup(&c, repo, &oid) < 0) {
			ret = kmig_err_git("cannot read commit");
			break;
		}
		if (git_commit_parentcount(c) == 1 &&
		    !git_commit_parent(&parent, c, 0) &&
		    !git_commit_tree(&t, c) && !git_commit_tree(&pt, parent) &&
		    !git_diff_tree_to_tree(&d, repo, pt, t, &opts) &&
		    git_diff_num_deltas(d) == p->nfiles &&
		    !git_diff_patchid(&cid, d, NULL) && git_oid_equal(&cid, &pid)) {
			git_oid_cpy(found, &oid);
			*yes = true;
		}
		git_diff_free(d);
		git_tree_free(t);
		git_tree_free(pt);
		git_commit_free(parent);
		git_commit_free(c);
	}
out:
	git_revwalk_free(walk);
	git_diff_free(pdiff);
	free(paths);
	return ret;
}

static int write_commit(git_oid *out, git_repository *repo, git_commit *tip,
			git_index *index, const struct mbox_patch *p,
			const char *file, const char *cname, const char *cemail)
{
	git_signature *author = NULL, *committer = NULL;
	git_tree *tree = NULL;
	git_oid tree_oid;
	char *msg = NULL, *full = NULL;
	int ret = 0;

	if (git_index_write_tree_to(&tree_oid, index, repo) < 0 ||
	    git_tree_lookup(&tree, repo, &tree_oid) < 0) {
		ret = kmig_err_git("cannot write tree");
		goto out;
	}
	if (git_signature_new(&author, p->author_name, p->author_email,
			      (git_time_t)p->time, p->offset) < 0 ||
	    git_signature_new(&committer, cname, cemail, (git_time_t)p->time,
			      p->offset) < 0) {
		ret = kmig_err_git("invalid signature");
		goto out;
	}
	msg = mbox_message(p);
	full = branch_message_add_trailer(msg, "Kmig-Patch", file);
	if (git_commit_create(out, repo, NULL, author, committer, NULL, full,
			      tree, 1, (const git_commit **)&tip) < 0)
		ret = kmig_err_git("cannot create commit");
out:
	free(msg);
	free(full);
	git_signature_free(author);
	git_signature_free(committer);
	git_tree_free(tree);
	return ret;
}

/*
 * apply_index - @p applied on @tree into *@index, as its hunk headers say
 * or with the hunks moved to where their pre-images are; *@index NULL
 * when it applies neither way.  How it applied goes to @how, why it did
 * not as its headers say to @why.
 */
static int apply_index(git_index **index, struct sbuf *how, struct sbuf *why,
		       git_repository *repo, git_tree *tree,
		       const struct mbox_patch *p)
{
	struct sbuf moved = SBUF_INIT;
	bool ok = false;
	int ret;

	if (!try_apply(index, repo, tree, p->diff, p->diff_len, why)) {
		sbuf_addf(how, "applies cleanly: %zu file%s\n",
			  p->nfiles, p->nfiles == 1 ? "" : "s");
		return 0;
	}
	ret = relocate(&moved, &ok, repo, tree, p->files, p->nfiles);
	if (!ret && ok && !try_apply(index, repo, tree, moved.buf, moved.len, NULL))
		sbuf_addf(how,
			  "applies with offsets (%s; hunks moved to where their pre-image is)\n",
			  why->buf ? why->buf : "");
	sbuf_release(&moved);
	return ret;
}

int branch_apply_tree(git_tree **out, git_repository *repo, git_tree *tree,
		      const struct mbox_patch *p)
{
	struct sbuf how = SBUF_INIT, why = SBUF_INIT;
	git_index *index = NULL;
	git_oid oid;
	int ret;

	*out = NULL;
	ret = apply_index(&index, &how, &why, repo, tree, p);
	if (!ret && index && (git_index_write_tree_to(&oid, index, repo) < 0 ||
			      git_tree_lookup(out, repo, &oid) < 0))
		ret = kmig_err_git("cannot write tree");
	git_index_free(index);
	sbuf_release(&how);
	sbuf_release(&why);
	return ret;
}

int branch_apply_one(struct branch_outcome *out, git_repository *repo,
		     git_commit *tip, git_commit *base,
		     const struct mbox_patch *p, const char *file,
		     const char *committer_name, const char *committer_email)
{
	struct sbuf why = SBUF_INIT;
	struct analysis a;
	git_index *index = NULL;
	git_tree *tree = NULL;
	git_oid found;
	bool yes;
	int ret;

	memset(out, 0, sizeof(*out));
	if (git_commit_tree(&tree, tip) < 0)
		return kmig_err_git("cannot read tree");
	ret = apply_index(&index, &out->evidence, &why, repo, tree, p);
	if (ret)
		goto out;
	if (index) {
		ret = write_commit(&out->commit, repo, tip, index, p, file,
				   committer_name, committer_email);
		if (!ret)
			out->status = BRANCH_APPLIED;
		goto out;
	}
	sbuf_addf(&out->evidence, "does not apply: %s\n", why.buf ? why.buf : "");

	ret = reverse_applies(&yes, repo, tree, p);
	if (ret)
		goto out;
	if (yes) {
		out->status = BRANCH_UPSTREAM;
		sbuf_addstr(&out->evidence,
			    "the patch reverse-applies: the tree already has this change\n");
	} else {
		ret = patch_id_match(&found, &yes, repo, base, p);
		if (ret)
			goto out;
		if (yes) {
			out->status = BRANCH_UPSTREAM;
			sbuf_addf(&out->evidence,
				  "patch-id matches commit %s reachable from the base\n",
				  repo_oid_str(&found));
		}
	}
	ret = analyse(&a, &out->evidence, repo, tree, p);
	if (ret || out->status == BRANCH_UPSTREAM)
		goto out;
	if (a.removed && !a.present) {
		out->status = BRANCH_SUPERSEDED;
		sbuf_addf(&out->evidence,
			  "every tracked use the patch removes (%zu) is absent from the tree\n",
			  a.removed);
	} else {
		out->status = BRANCH_CONFLICT;
		if (!a.removed)
			sbuf_addstr(&out->evidence,
				    "the patch removes no tracked use, so it cannot be superseded\n");
		else
			sbuf_addf(&out->evidence,
				  "%zu of the %zu tracked uses the patch removes are still present\n",
				  a.present, a.removed);
	}
out:
	sbuf_release(&why);
	git_index_free(index);
	git_tree_free(tree);
	return ret;
}
