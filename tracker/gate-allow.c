// SPDX-License-Identifier: GPL-2.0
/*
 * gate-allow.c - the .kmig-allow allowlist: parsing and matching sites.
 */
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "patch.h"
#include "rules.h"

void gate_allow_clear(struct gate_allow *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		free(a->v[i].path);
		free(a->v[i].func);
		free(a->v[i].rule);
		free(a->v[i].reason);
	}
	free(a->v);
	free(a->name);
	memset(a, 0, sizeof(*a));
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static int allow_line(struct gate_allow *a, unsigned int lineno, char *line)
{
	struct gate_allow_entry *e;
	char *hash = strchr(line, '#'), *tok[3], *save = NULL, *colon, *reason = NULL;
	int ntok = 0;

	if (hash) {
		*hash = '\0';
		reason = normalize_ws(hash + 1, strlen(hash + 1));
		if (!*reason) {
			free(reason);
			reason = NULL;
		}
	}
	for (char *t = strtok_r(line, " \t\r", &save); t;
	     t = strtok_r(NULL, " \t\r", &save)) {
		if (ntok == 3)
			break;
		tok[ntok++] = t;
	}
	if (!ntok) {
		free(reason);
		return 0;
	}
	if (ntok != 2) {
		free(reason);
		return kmig_err("%s:%u: malformed allowlist line (expected 'PATH[:FUNCTION] RULE  # reason')",
				a->name, lineno);
	}
	if (!has_glob(tok[1]) && rule_lookup(tok[1]) < 0) {
		free(reason);
		return kmig_err("%s:%u: unknown rule '%s'", a->name, lineno, tok[1]);
	}
	colon = strchr(tok[0], ':');
	if (colon)
		*colon++ = '\0';
	if (!*tok[0] || (colon && !*colon)) {
		free(reason);
		return kmig_err("%s:%u: malformed allowlist line (empty path or function)",
				a->name, lineno);
	}
	while (tok[0][0] == '/')
		tok[0]++;
	if (!strncmp(tok[0], "./", 2))
		tok[0] += 2;
	ALLOC_GROW(a->v, a->n + 1, a->alloc);
	e = &a->v[a->n++];
	e->path = xstrdup(tok[0]);
	e->func = xstrdup_or_null(colon);
	e->rule = xstrdup(tok[1]);
	e->reason = reason;
	e->lineno = lineno;
	return 0;
}

int gate_allow_parse(struct gate_allow *out, const char *name,
		     const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	unsigned int lineno = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->name = xstrdup(name);
	while (p < end && !ret) {
		size_t n = patch_line_len(p, end);
		char *line = xstrndup(p, n);

		lineno++;
		if (n && p[n - 1] == '\n' && !memchr(p, '\0', n))
			line[n - 1] = '\0';
		if (memchr(p, '\0', n))
			ret = kmig_err("%s:%u: malformed allowlist line (NUL byte)",
				       name, lineno);
		else
			ret = allow_line(out, lineno, line);
		free(line);
		p += n;
	}
	if (ret)
		gate_allow_clear(out);
	return ret;
}

/* A pattern ending in '/' matches everything below a matching directory. */
static bool path_matches(const char *pat, const char *path)
{
	size_t n = strlen(pat);
	const char *slash;
	bool ok;

	if (!n || pat[n - 1] != '/')
		return glob_match(pat, path, true);
	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		char *dir = xstrndup(path, (size_t)(slash - path) + 1);

		ok = glob_match(pat, dir, true);
		free(dir);
		if (ok)
			return true;
	}
	return false;
}

/*
 * Does the rule glob @pat cover a site of @rule?  A warn-on-user site is a
 * WARN counted under the more specific id: an entry for warn-on covers it
 * too.
 */
static bool allow_rule(const char *pat, int rule)
{
	if (glob_match(pat, rules[rule].id, false))
		return true;
	return rule == RULE_WARN_ON_USER &&
	       glob_match(pat, rules[RULE_WARN_ON].id, false);
}

size_t gate_allow_apply(const struct gate_allow *a, struct gate_sites *s)
{
	size_t i, j, n = 0;

	for (i = 0; i < s->n; i++) {
		struct gate_site *site = &s->v[i];

		site->allow = -1;
		for (j = 0; a && j < a->n; j++) {
			const struct gate_allow_entry *e = &a->v[j];

			if (!allow_rule(e->rule, site->rule) ||
			    !path_matches(e->path, site->path))
				continue;
			if (e->func && !(site->func &&
					 glob_match(e->func, site->func, false)))
				continue;
			site->allow = (int)j;
			n++;
			break;
		}
	}
	return n;
}

struct unmatched_walk {
	const struct gate_allow *a;
	bool *found;
	size_t left;		/* glob entries not yet matched */
	struct sbuf path;
};

static int unmatched_cb(const char *root, const git_tree_entry *e, void *data)
{
	struct unmatched_walk *w = data;
	size_t j;

	if (git_tree_entry_type(e) == GIT_OBJECT_TREE)
		return 0;
	sbuf_reset(&w->path);
	sbuf_addstr(&w->path, root);
	sbuf_addstr(&w->path, git_tree_entry_name(e));
	for (j = 0; j < w->a->n; j++) {
		if (w->found[j] || !path_matches(w->a->v[j].path, w->path.buf))
			continue;
		w->found[j] = true;
		w->left--;
	}
	/* all found: stop the walk (a positive value only skips an entry) */
	return w->left ? 0 : -1;
}

size_t gate_allow_unmatched(const struct gate_allow *a, git_tree *tree,
			    size_t **out)
{
	struct unmatched_walk w = { a, NULL, 0, SBUF_INIT };
	size_t j, n = 0;

	*out = NULL;
	if (!a || !a->n)
		return 0;
	w.found = xcalloc(a->n, sizeof(*w.found));
	for (j = 0; j < a->n; j++) {
		const char *p = a->v[j].path;
		size_t len = strlen(p);

		if (has_glob(p)) {
			w.left++;
		} else if (len && p[len - 1] == '/') {
			char *dir = xstrndup(p, len - 1);

			w.found[j] = gate_tree_has(tree, dir, true);
			free(dir);
		} else {
			w.found[j] = gate_tree_has(tree, p, false);
		}
	}
	if (w.left && git_tree_walk(tree, GIT_TREEWALK_PRE, unmatched_cb, &w) < 0)
		git_error_clear();	/* stopped once all are found */
	sbuf_release(&w.path);
	*out = xcalloc(a->n, sizeof(**out));
	for (j = 0; j < a->n; j++)
		if (!w.found[j])
			(*out)[n++] = j;
	free(w.found);
	return n;
}
