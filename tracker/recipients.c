// SPDX-License-Identifier: GPL-2.0
/*
 * recipients.c - the To: and Cc: of a bad commit's report; see
 * recipients.h.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "maintainers.h"
#include "patch.h"
#include "recipients.h"
#include "util.h"

static const char *const trailer_keys[] = {
	"Signed-off-by", "Reviewed-by", "Acked-by", "Tested-by", "Reported-by",
};

/* The address of "Name <addr>" (or of "addr"), lowercased, malloc'd. */
static char *address_key(const char *who)
{
	const char *lt = strchr(who, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	char *key = lt && gt ? xstrndup(lt + 1, (size_t)(gt - lt - 1)) :
		    xstrdup(who);
	char *p;

	for (p = key; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return key;
}

static bool listed(char *const *v, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char *k = address_key(v[i]);
		bool same = !strcmp(k, key);

		free(k);
		if (same)
			return true;
	}
	return false;
}

/*
 * Add @who (@len bytes, trimmed; a " # comment" or "(comment)" after the
 * address dropped) to @to (true) or cc unless it is listed already or
 * holds no address.
 */
static void add(struct recipients *r, bool to, const char *who, size_t len)
{
	char *s = patch_trim_dup(who, len), *cut, *key;

	cut = strstr(s, " #");
	if (cut)
		*cut = '\0';
	cut = strchr(s, '>');
	if (cut)
		cut[1] = '\0';
	else if ((cut = strpbrk(s, " \t")))
		*cut = '\0';	/* "list@host (moderated ...)" */
	if (!strchr(s, '@')) {
		free(s);
		return;
	}
	key = address_key(s);
	if (listed(r->to, r->nto, key) || listed(r->cc, r->ncc, key)) {
		free(s);
	} else if (to) {
		r->to = xrealloc(r->to, (r->nto + 1) * sizeof(*r->to));
		r->to[r->nto++] = s;
	} else {
		r->cc = xrealloc(r->cc, (r->ncc + 1) * sizeof(*r->cc));
		r->cc[r->ncc++] = s;
	}
	free(key);
}

/*
 * Each @field ('M', 'R' or 'L') line of section @title in @text: a title
 * line, then its "X:\tvalue" lines up to the next blank line.
 */
static void add_fields(struct recipients *r, bool to, const char *text,
		       size_t len, const char *title, char field)
{
	const char *end = text + len, *p = text, *nl, *e;
	size_t tlen = strlen(title);
	bool in = false;

	for (; p < end; p = nl ? nl + 1 : end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		e = nl ? nl : end;
		if (e > p && e[-1] == '\r')
			e--;
		if (!in) {
			in = (size_t)(e - p) == tlen && !memcmp(p, title, tlen);
			continue;
		}
		if (e == p)
			break;	/* the blank line after the section */
		if (e - p > 2 && p[0] == field && p[1] == ':')
			add(r, to, p + 2, (size_t)(e - p - 2));
	}
}

int recipients_from(const char *author, const char *message,
		    const char *maintainers, size_t len,
		    const char *const *paths, size_t npaths,
		    struct recipients *r)
{
	struct maintainers *m = NULL;
	size_t i, j;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	if (author)
		add(r, true, author, strlen(author));
	if (maintainers && len) {
		ret = maintainers_parse(&m, maintainers, len);
		if (ret)
			return ret;
		for (i = 0; i < npaths; i++) {
			const char *t = maintainers_match(m, paths[i]);

			if (!strcmp(t, MAINTAINERS_NONE))
				continue;
			for (j = 0; j < r->nsections; j++)
				if (!strcmp(r->sections[j], t))
					break;
			if (j < r->nsections)
				continue;
			r->sections = xrealloc(r->sections, (r->nsections + 1) *
					       sizeof(*r->sections));
			r->sections[r->nsections++] = xstrdup(t);
		}
		maintainers_free(m);
	}
	for (j = 0; j < r->nsections; j++)
		add_fields(r, true, maintainers, len, r->sections[j], 'M');
	for (i = 0; message && i < ARRAY_SIZE(trailer_keys); i++) {
		char **v;
		size_t n, k;

		if (patch_trailer_values(message, trailer_keys[i], &v, &n))
			continue;	/* no trailer block libgit2 can read */
		for (k = 0; k < n; k++) {
			add(r, false, v[k], strlen(v[k]));
			free(v[k]);
		}
		free(v);
	}
	for (j = 0; j < r->nsections; j++)
		add_fields(r, false, maintainers, len, r->sections[j], 'R');
	for (j = 0; j < r->nsections; j++)
		add_fields(r, false, maintainers, len, r->sections[j], 'L');
	return 0;
}

/* The paths the first-parent diff of @c touches, old and new names. */
static int touched(git_repository *repo, git_commit *c, char ***paths,
		   size_t *n)
{
	git_tree *tree = NULL, *ptree = NULL;
	git_commit *parent = NULL;
	git_diff *diff = NULL;
	size_t i, k;
	int ret = 0;

	*paths = NULL;
	*n = 0;
	if (git_commit_tree(&tree, c) ||
	    (git_commit_parentcount(c) && (git_commit_parent(&parent, c, 0) ||
					   git_commit_tree(&ptree, parent))) ||
	    git_diff_tree_to_tree(&diff, repo, ptree, tree, NULL)) {
		ret = kmig_err_git("cannot diff the commit");
		goto out_free;
	}
	for (i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *p[2] = { d->old_file.path, d->new_file.path };

		for (k = 0; k < 2; k++) {
			if (k && !strcmp(p[0], p[1]))
				break;
			*paths = xrealloc(*paths, (*n + 1) * sizeof(**paths));
			(*paths)[(*n)++] = xstrdup(p[k]);
		}
	}
out_free:
	git_diff_free(diff);
	git_tree_free(ptree);
	git_tree_free(tree);
	git_commit_free(parent);
	return ret;
}

int recipients_of_commit(git_repository *repo, const char *id,
			 struct recipients *r)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	const git_signature *a;
	char **paths = NULL, *author = NULL;
	const char *text = NULL;
	size_t npaths = 0, len = 0, i;
	git_oid oid;
	int ret;

	memset(r, 0, sizeof(*r));
	if (git_oid_fromstr(&oid, id) || git_commit_lookup(&c, repo, &oid))
		return kmig_err_git(id);
	ret = touched(repo, c, &paths, &npaths);
	if (ret)
		goto out_free;
	if (git_commit_tree(&tree, c)) {
		ret = kmig_err_git(id);
		goto out_free;
	}
	if (!git_tree_entry_bypath(&e, tree, "MAINTAINERS") &&
	    !git_blob_lookup(&blob, repo, git_tree_entry_id(e))) {
		text = git_blob_rawcontent(blob);
		len = (size_t)git_blob_rawsize(blob);
	}
	a = git_commit_author(c);
	author = a->email && *a->email ?
		 xasprintf("%s <%s>", a->name ? a->name : "", a->email) : NULL;
	ret = recipients_from(author, git_commit_message(c), text, len,
			      (const char *const *)paths, npaths, r);
out_free:
	for (i = 0; i < npaths; i++)
		free(paths[i]);
	free(paths);
	free(author);
	git_blob_free(blob);
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_commit_free(c);
	return ret;
}

static void join(struct sbuf *sb, const char *head, char *const *v, size_t n)
{
	size_t i;

	if (!n)
		return;
	sbuf_addf(sb, "%s", head);
	for (i = 0; i < n; i++)
		sbuf_addf(sb, "%s%s", i ? ", " : " ", v[i]);
	sbuf_addch(sb, '\n');
}

char *recipients_format(const struct recipients *r)
{
	struct sbuf sb = SBUF_INIT;

	join(&sb, "To:", r->to, r->nto);
	join(&sb, "Cc:", r->cc, r->ncc);
	return sbuf_detach(&sb);
}

void recipients_release(struct recipients *r)
{
	size_t i;

	for (i = 0; i < r->nto; i++)
		free(r->to[i]);
	for (i = 0; i < r->ncc; i++)
		free(r->cc[i]);
	for (i = 0; i < r->nsections; i++)
		free(r->sections[i]);
	free(r->to);
	free(r->cc);
	free(r->sections);
	memset(r, 0, sizeof(*r));
}
