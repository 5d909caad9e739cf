// SPDX-License-Identifier: GPL-2.0
/*
 * gate-compare.c - the multiset difference of the sites before and after a
 * change (gate.h explains the rules).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gate-internal.h"
#include "reach.h"
#include "repo.h"
#include "rules.h"
#include "usetext.h"


/* One site of a touched file, on one side of the change. */
struct entry {
	int rule;
	int side;			/* +1 after, -1 before */
	const char *text;
	const struct gate_file *file;
	const struct site *site;
	const char *chain;
	bool on_change;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c;

	if (x->rule != y->rule)
		return x->rule < y->rule ? -1 : 1;
	c = use_text_cmp(x->text, y->text);
	if (c)
		return c;
	c = strcmp(x->file->path, y->file->path);
	if (c)
		return c;
	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	if (x->on_change != y->on_change)
		return x->on_change ? -1 : 1;
	if (x->site->line != y->site->line)
		return x->site->line < y->site->line ? -1 : 1;
	return 0;
}

/* Candidates across paths: changed lines first, then path and line order. */
static int cmp_candidate(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a;
	const struct entry *y = *(const struct entry *const *)b;
	int c;

	if (x->on_change != y->on_change)
		return x->on_change ? -1 : 1;
	c = strcmp(x->file->path, y->file->path);
	if (c)
		return c;
	if (x->site->line != y->site->line)
		return x->site->line < y->site->line ? -1 : 1;
	return 0;
}

static int cmp_gate_site(const void *a, const void *b)
{
	const struct gate_site *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->rule - y->rule;
}

static bool line_changed(const struct gate_file *f, unsigned int line)
{
	size_t lo = 0, hi = f->nchanged;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (f->changed[mid] == line)
			return true;
		if (f->changed[mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * The rule site @s of @path on side @side counts under: a WARN user space
 * reaches is warn-on-user instead of warn-on (one use, one rule), with
 * its call path in *@chain (owned by the gate); -1 for a vla the side's
 * headers make constant (no use).
 */
static int site_rule(struct gate *g, int side, const char *path,
		     const struct site *s, const char **chain)
{
	const struct reach *r = side > 0 ? g->reach_after : g->reach_before;
	char *c = NULL;

	*chain = NULL;
	if (s->rule == RULE_VLA && s->deps && r && reach_consts_cover(r, s->deps))
		return -1;	/* constant by the base's headers */
	if (s->rule != RULE_WARN_ON)
		return s->rule;
	if (r) {
		if (!reach_site(r, path, s->line, &c))
			return s->rule;
		ALLOC_GROW(g->chains, g->nchains + 1, g->achains);
		g->chains[g->nchains++] = c;
		*chain = c;
		return RULE_WARN_ON_USER;
	}
	if (g->reach_names && reach_name_heuristic(s->func))
		return RULE_WARN_ON_USER;
	return s->rule;
}

static int add_entries(struct gate *g, const struct gate_files *files,
		       int side, struct entry **v, size_t *n, size_t *alloc)
{
	size_t i, j;

	for (i = 0; i < files->n; i++) {
		const struct gate_file *f = &files->v[i];
		const struct gate_blob *b = gate_blobs_find(g->blobs, &f->oid);

		if (!b || !b->loaded)
			return kmig_err("internal error: blob %s of '%s' not loaded",
					repo_oid_str(&f->oid), f->path);
		for (j = 0; j < b->sites.n; j++) {
			const struct site *s = &b->sites.v[j];
			const char *chain;
			struct entry *e;
			int rule = site_rule(g, side, f->path, s, &chain);

			if (rule < 0)
				continue;
			ALLOC_GROW(*v, *n + 1, *alloc);
			e = &(*v)[(*n)++];
			e->rule = rule;
			e->chain = chain;
			e->side = side;
			e->text = s->text ? s->text : "";
			e->file = f;
			e->site = s;
			e->on_change = f->changed && line_changed(f, s->line);
		}
	}
	return 0;
}

static void emit(struct gate_sites *out, const struct entry *e)
{
	struct gate_site *s;

	ALLOC_GROW(out->v, out->n + 1, out->alloc);
	s = &out->v[out->n++];
	s->rule = e->rule;
	s->line = e->site->line;
	s->path = e->file->path;
	s->func = e->site->func;
	s->text = e->text;
	s->chain = e->chain;
	s->deps = e->site->deps;
	s->on_change = e->on_change;
	s->allow = -1;
	s->patch = -1;
	s->info = false;
}

/*
 * One group of equal (rule, use_text_cmp()) entries, ordered by path, side, changed
 * first, line: the @net surplus entries of side @side become the result.
 * Candidates are the surplus of each path (a path that has as many copies
 * on both sides is untouched for this line).  A candidate in the same
 * function as a surplus entry of the other side is taken as that code
 * moved, as long as enough candidates remain; of the rest, changed lines
 * are preferred.
 */
static void pick_surplus(const struct entry *g, size_t n, int side, long net,
			 struct gate_sites *out, const struct entry ***cand,
			 size_t *acand)
{
	size_t i = 0, nc = 0, no = 0, k, m, drop;
	const struct entry **other = NULL;
	size_t aother = 0;

	while (i < n) {
		size_t j = i, mine = 0, theirs = 0;
		size_t first_mine = SIZE_MAX, first_theirs = SIZE_MAX;

		while (j < n && !strcmp(g[j].file->path, g[i].file->path)) {
			if (g[j].side == side) {
				if (first_mine == SIZE_MAX)
					first_mine = j;
				mine++;
			} else {
				if (first_theirs == SIZE_MAX)
					first_theirs = j;
				theirs++;
			}
			j++;
		}
		for (k = 0; mine > theirs && k < mine - theirs; k++) {
			ALLOC_GROW(*cand, nc + 1, *acand);
			(*cand)[nc++] = &g[first_mine + k];
		}
		for (k = 0; theirs > mine && k < theirs - mine; k++) {
			ALLOC_GROW(other, no + 1, aother);
			other[no++] = &g[first_theirs + k];
		}
		i = j;
	}
	drop = nc > (size_t)net ? nc - (size_t)net : 0;
	for (k = 0; drop && k < nc; k++) {
		const char *f = (*cand)[k]->site->func;

		for (m = 0; f && m < no; m++) {
			if (!other[m] || !other[m]->site->func ||
			    strcmp(other[m]->site->func, f))
				continue;
			other[m] = NULL;
			(*cand)[k] = NULL;
			drop--;
			break;
		}
	}
	for (k = m = 0; k < nc; k++)
		if ((*cand)[k])
			(*cand)[m++] = (*cand)[k];
	nc = m;
	if (nc)
		qsort(*cand, nc, sizeof(**cand), cmp_candidate);
	for (k = 0; k < nc && (long)k < net; k++)
		emit(out, (*cand)[k]);
	free(other);
}

int gate_compare(struct gate *g, const struct gate_touched *t,
		 struct gate_change *out)
{
	struct entry *v = NULL;
	const struct entry **cand = NULL;
	size_t n = 0, alloc = 0, acand = 0, i = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = add_entries(g, &t->before, -1, &v, &n, &alloc);
	if (!ret)
		ret = add_entries(g, &t->after, 1, &v, &n, &alloc);
	if (ret)
		goto out_free;
	if (n)
		qsort(v, n, sizeof(*v), cmp_entry);
	while (i < n) {
		size_t j = i;
		long net = 0;

		while (j < n && v[j].rule == v[i].rule &&
		       !use_text_cmp(v[j].text, v[i].text)) {
			net += v[j].side;
			j++;
		}
		if (net > 0)
			pick_surplus(&v[i], j - i, 1, net, &out->added, &cand,
				     &acand);
		else if (net < 0)
			pick_surplus(&v[i], j - i, -1, -net, &out->removed,
				     &cand, &acand);
		i = j;
	}
	if (out->added.n)
		qsort(out->added.v, out->added.n, sizeof(*out->added.v),
		      cmp_gate_site);
	if (out->removed.n)
		qsort(out->removed.v, out->removed.n, sizeof(*out->removed.v),
		      cmp_gate_site);
out_free:
	free(cand);
	free(v);
	return ret;
}
