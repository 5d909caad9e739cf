// SPDX-License-Identifier: GPL-2.0
/*
 * relinfo.c - a release's deprecated.rst sections and defined
 * replacements (relinfo.h).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relinfo.h"
#include "repo.h"
#include "store.h"
#include "util.h"

/* Bump when the test in relinfo_header_defines() changes. */
#define RELINFO_VERSION 1

/* Every distinct replacement name of the rule table. */
#define MAX_NAMES 64

static const char *names[MAX_NAMES];
static int nnames;
static int name_of[RULE__COUNT][RULE_MAX_REPL];	/* index into names[] */
static size_t names_len[MAX_NAMES], names_min = SIZE_MAX, names_max;
static uint64_t names_first[4];	/* bit c: a name starts with byte c */
static char facts_hex[17];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void names_init(void)
{
	uint64_t h = FNV64_INIT;
	char tmp[32];
	int r, i, k;

	h = fnv64_add(h, tmp, (size_t)snprintf(tmp, sizeof(tmp), "relinfo-%d;",
					       RELINFO_VERSION));
	for (r = 0; r < RULE__COUNT; r++) {
		const char *const *p;

		h = fnv64_add(h, rules[r].id, strlen(rules[r].id) + 1);
		for (p = rules[r].sections; p && *p; p++)
			h = fnv64_add(h, *p, strlen(*p) + 1);
		h = fnv64_add(h, "\xff", 1);
		for (i = 0; i < rule_nrepl(r) && i < RULE_MAX_REPL; i++) {
			const char *n = rules[r].repl[i];

			h = fnv64_add(h, n, strlen(n) + 1);
			for (k = 0; k < nnames && strcmp(names[k], n); k++)
				;
			if (k == nnames) {
				if (nnames == MAX_NAMES)
					abort();	/* rules.def: too many names */
				names_len[nnames] = strlen(n);
				if (names_len[nnames] < names_min)
					names_min = names_len[nnames];
				if (names_len[nnames] > names_max)
					names_max = names_len[nnames];
				names_first[(unsigned char)n[0] / 64] |=
					1ULL << ((unsigned char)n[0] % 64);
				names[nnames++] = n;
			}
			name_of[r][i] = k;
		}
		h = fnv64_add(h, "\xff", 1);
	}
	snprintf(facts_hex, sizeof(facts_hex), "%016llx", (unsigned long long)h);
}

const char *relinfo_facts_hash(void)
{
	pthread_once(&names_once, names_init);
	return facts_hex;
}

void relinfo_cache_clear(struct relinfo_cache *c)
{
	oidset_clear(&c->masks);
	free(c->fresh);
	memset(c, 0, sizeof(*c));
}

/* ---- deprecated.rst ---- */

static bool underline(const char *p, size_t n)
{
	size_t i;

	if (n < 3 || (p[0] != '-' && p[0] != '='))
		return false;
	for (i = 1; i < n; i++)
		if (p[i] != p[0])
			return false;
	return true;
}

void relinfo_doc_sections(struct relinfo *out, const char *buf, size_t len)
{
	const char *p = buf, *e = buf + len, *prev = NULL;
	size_t prevn = 0;
	int r;

	memset(out->documented, 0, sizeof(out->documented));
	out->have_doc = true;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(e - p);

		while (n && (p[n - 1] == ' ' || p[n - 1] == '\r' || p[n - 1] == '\t'))
			n--;
		if (prev && prevn && underline(p, n)) {
			for (r = 0; r < RULE__COUNT; r++) {
				const char *const *s;

				for (s = rules[r].sections; s && *s; s++)
					if (strlen(*s) == prevn &&
					    !memcmp(*s, prev, prevn))
						out->documented[r] = true;
			}
		}
		prev = p;
		prevn = n;
		p = nl ? nl + 1 : e;
	}
}

/* ---- include/ ---- */

/* @buf with comments and literal contents blanked (newlines kept). */
static char *code_only(const char *buf, size_t len)
{
	char *o = xmalloc(len + 1);
	size_t i = 0;

	memcpy(o, buf, len);
	o[len] = 0;
	while (i < len) {
		char c = o[i];

		if (c == '/' && i + 1 < len && o[i + 1] == '*') {
			for (; i < len && !(o[i] == '*' && i + 1 < len &&
					    o[i + 1] == '/'); i++)
				if (o[i] != '\n')
					o[i] = ' ';
			if (i < len)
				o[i++] = ' ';
			if (i < len)
				o[i++] = ' ';
		} else if (c == '/' && i + 1 < len && o[i + 1] == '/') {
			for (; i < len && o[i] != '\n'; i++)
				o[i] = ' ';
		} else if (c == '"' || c == '\'') {
			for (i++; i < len && o[i] != c && o[i] != '\n'; i++) {
				if (o[i] == '\\' && i + 1 < len && o[i + 1] != '\n')
					o[i++] = ' ';
				o[i] = ' ';
			}
			if (i < len && o[i] == c)
				i++;
		} else {
			i++;
		}
	}
	return o;
}

static bool is_stmt_word(const char *s, size_t n)
{
	static const char *const kw[] = {
		"return", "if", "else", "while", "for", "do", "case", "goto",
		"sizeof", "typeof", "__typeof__", "switch", "define",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kw); i++)
		if (strlen(kw[i]) == n && !memcmp(kw[i], s, n))
			return true;
	return false;
}

/*
 * [a, b) is a declaration's prefix: identifiers and '*' only, at least
 * one identifier, none a statement keyword, starting in column 0.
 */
static bool decl_prefix(const char *a, const char *b)
{
	const char *p = a;
	bool word = false;

	if (a < b && (*a == ' ' || *a == '\t'))
		return false;
	while (p < b) {
		if (is_ident_char(*p)) {
			const char *w = p;

			while (p < b && is_ident_char(*p))
				p++;
			if (is_stmt_word(w, (size_t)(p - w)))
				return false;
			word = true;
		} else if (*p == ' ' || *p == '\t' || *p == '*') {
			p++;
		} else {
			return false;
		}
	}
	return word;
}

static bool defines_at(const char *o, const char *at, size_t n)
{
	const char *ls = at, *p, *q;

	while (ls > o && ls[-1] != '\n')
		ls--;
	/* #define NAME */
	p = ls;
	while (p < at && (*p == ' ' || *p == '\t'))
		p++;
	if (p < at && *p == '#') {
		p++;
		while (p < at && (*p == ' ' || *p == '\t'))
			p++;
		if (at - p >= 7 && !memcmp(p, "define", 6)) {
			for (q = p + 6; q < at && (*q == ' ' || *q == '\t'); q++)
				;
			return q == at && q > p + 6;
		}
		return false;
	}
	/* a declaration: NAME ( */
	for (q = at + n; *q == ' ' || *q == '\t'; q++)
		;
	if (*q != '(')
		return false;
	if (at > ls)
		return decl_prefix(ls, at);
	/* NAME in column 0: the return type is the line before */
	if (ls == o)
		return false;
	q = ls - 1;		/* its '\n' */
	p = q;
	while (p > o && p[-1] != '\n')
		p--;
	while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
		q--;
	return q > p && (is_ident_char(q[-1]) || q[-1] == '*') && decl_prefix(p, q);
}

/*
 * names_in - bit k: names[k] is a whole identifier somewhere in @buf,
 * comments and strings included, in one pass (a memmem() per name read
 * each header some 30 times).  The bits header_mask() keeps are among
 * these: code_only() blanks bytes but never joins or splits identifiers.
 */
static uint64_t names_in(const char *buf, size_t len)
{
	const char *p = buf, *e = buf + len;
	uint64_t hit = 0;

	while (p < e) {
		const char *s;
		size_t n;
		int k;

		while (p < e && !is_ident_char(*p))
			p++;
		s = p;
		while (p < e && is_ident_char(*p))
			p++;
		n = (size_t)(p - s);
		if (n < names_min || n > names_max ||
		    !(names_first[(unsigned char)*s / 64] &
		      (1ULL << ((unsigned char)*s % 64))))
			continue;
		for (k = 0; k < nnames; k++)
			if (names_len[k] == n && !memcmp(s, names[k], n))
				hit |= 1ULL << k;
	}
	return hit;
}

/* Bit k: names[k] is defined in the header @buf. */
static uint64_t header_mask(const char *buf, size_t len)
{
	uint64_t mask = 0, hit = names_in(buf, len);
	char *o = NULL;
	int k;

	if (!hit)
		return 0;
	o = code_only(buf, len);
	for (k = 0; k < nnames; k++) {
		size_t n = strlen(names[k]);
		const char *p = o, *e = o + len;

		if (!(hit & (1ULL << k)))
			continue;
		while ((p = memmem(p, (size_t)(e - p), names[k], n))) {
			if ((p == o || !is_ident_char(p[-1])) && !is_ident_char(p[n]) &&
			    defines_at(o, p, n)) {
				mask |= 1ULL << k;
				break;
			}
			p += n;
		}
	}
	free(o);
	return mask;
}

bool relinfo_header_defines(const char *buf, size_t len, const char *name)
{
	char *o = code_only(buf, len);
	const char *p = o, *e = o + len;
	size_t n = strlen(name);
	bool ok = false;

	while (!ok && n && (p = memmem(p, (size_t)(e - p), name, n))) {
		ok = (p == o || !is_ident_char(p[-1])) && !is_ident_char(p[n]) &&
		     defines_at(o, p, n);
		p += n;
	}
	free(o);
	return ok;
}

struct walk {
	git_repository *repo;
	struct relinfo_cache *cache;
	uint64_t mask;
	int ret;
};

static int walk_cb(const char *root, const git_tree_entry *e, void *payload)
{
	struct walk *w = payload;
	const char *name = git_tree_entry_name(e);
	size_t len = strlen(name);
	const git_oid *oid = git_tree_entry_id(e);
	git_blob *blob = NULL;
	size_t v;
	uint64_t m;

	(void)root;
	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB || len < 3 ||
	    strcmp(name + len - 2, ".h"))
		return 0;
	if (w->cache && oidset_get(&w->cache->masks, oid, &v)) {
		w->mask |= (uint64_t)v;
		return 0;
	}
	if (git_blob_lookup(&blob, w->repo, oid) < 0) {
		w->ret = kmig_err_git("cannot read header");
		return -1;
	}
	m = header_mask(git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	if (w->cache) {
		struct relinfo_cache *c = w->cache;

		oidset_put(&c->masks, oid, (size_t)m);
		c->nread++;
		ALLOC_GROW(c->fresh, c->nfresh + 1, c->afresh);
		git_oid_cpy(&c->fresh[c->nfresh].oid, oid);
		c->fresh[c->nfresh++].mask = m;
	}
	w->mask |= m;
	return 0;
}

static int entry_oid(char out[GIT_OID_HEXSZ + 1], git_tree *tree,
		     const char *path, git_object_t type)
{
	git_tree_entry *e = NULL;

	if (git_tree_entry_bypath(&e, tree, path) < 0 ||
	    git_tree_entry_type(e) != type) {
		git_tree_entry_free(e);
		git_error_clear();
		memset(out, '0', GIT_OID_HEXSZ);
		out[GIT_OID_HEXSZ] = 0;
		return KMIG_ENOTFOUND;
	}
	git_oid_tostr(out, GIT_OID_HEXSZ + 1, git_tree_entry_id(e));
	git_tree_entry_free(e);
	return 0;
}

int relinfo_key(char out[RELINFO_KEY_LEN], git_tree *tree)
{
	char doc[GIT_OID_HEXSZ + 1], inc[GIT_OID_HEXSZ + 1];

	entry_oid(doc, tree, RELINFO_DOC_PATH, GIT_OBJECT_BLOB);
	entry_oid(inc, tree, "include", GIT_OBJECT_TREE);
	snprintf(out, RELINFO_KEY_LEN, "%s:%s:%s", doc, inc,
		 relinfo_facts_hash());
	return 0;
}

int relinfo_read_tree(struct relinfo *out, git_repository *repo,
		      git_tree *tree, struct relinfo_cache *cache)
{
	struct sbuf doc = SBUF_INIT;
	struct walk w = { repo, cache, 0, 0 };
	git_tree_entry *e = NULL;
	git_tree *inc = NULL;
	int ret, r, i;

	relinfo_facts_hash();
	memset(out, 0, sizeof(*out));
	ret = repo_blob_at(repo, tree, RELINFO_DOC_PATH, &doc);
	if (!ret)
		relinfo_doc_sections(out, doc.buf ? doc.buf : "", doc.len);
	sbuf_release(&doc);
	if (ret && ret != KMIG_ENOTFOUND)
		return ret;
	if (git_tree_entry_bypath(&e, tree, "include") < 0 ||
	    git_tree_entry_type(e) != GIT_OBJECT_TREE) {
		git_tree_entry_free(e);
		git_error_clear();
		return 0;	/* no include/: nothing defined */
	}
	out->have_include = true;
	if (git_tree_lookup(&inc, repo, git_tree_entry_id(e)) < 0) {
		git_tree_entry_free(e);
		return kmig_err_git("cannot read include/");
	}
	git_tree_entry_free(e);
	if (git_tree_walk(inc, GIT_TREEWALK_PRE, walk_cb, &w) < 0 && !w.ret)
		w.ret = kmig_err_git("cannot walk include/");
	git_tree_free(inc);
	if (w.ret)
		return w.ret;
	for (r = 0; r < RULE__COUNT; r++)
		for (i = 0; i < rule_nrepl(r) && i < RULE_MAX_REPL; i++)
			if (w.mask & (1ULL << name_of[r][i]))
				out->repl[r] |= 1U << i;
	return 0;
}

bool relinfo_has_repl(const struct relinfo *ri, int r)
{
	return !rule_nrepl(r) || ri->repl[r];
}

bool relinfo_in_force(const struct relinfo *ri, int r)
{
	return (!ri->have_doc || !rules[r].sections || ri->documented[r]) &&
	       (!ri->have_include || relinfo_has_repl(ri, r));
}

char *relinfo_advice(const struct relinfo *ri, int r)
{
	struct sbuf sb = SBUF_INIT;
	int i, n = rule_nrepl(r), have = 0, k = 0;

	for (i = 0; i < n; i++)
		if (ri->repl[r] & (1U << i))
			have++;
	if (have == n || !have)
		return xstrdup(rules[r].advice);
	sbuf_addstr(&sb, "use ");
	for (i = 0; i < n; i++) {
		if (!(ri->repl[r] & (1U << i)))
			continue;
		k++;
		sbuf_addf(&sb, "%s%s()", k == 1 ? "" : k == have ? " or " : ", ",
			  rules[r].repl[i]);
	}
	sbuf_addstr(&sb, " (of this rule's replacements, what the base defines)");
	return sbuf_detach(&sb);
}

/* Load @c from @st once, so only headers no scan read are read. */
static int cache_from_store(struct store *st, struct relinfo_cache *c)
{
	int ret;

	if (c->stored)
		return 0;
	ret = store_relinfo_masks(st, relinfo_facts_hash(), &c->masks);
	if (!ret)
		c->stored = true;
	return ret;
}

int relinfo_for_tree(struct relinfo *out, struct store *st,
		     git_repository *repo, git_tree *tree, bool *from_db)
{
	struct relinfo_cache cache = { 0 };
	char key[RELINFO_KEY_LEN];
	int ret;

	if (from_db)
		*from_db = false;
	relinfo_key(key, tree);
	if (!st)
		return relinfo_read_tree(out, repo, tree, NULL);
	ret = store_relinfo_get(st, key, out);
	if (!ret) {
		if (from_db)
			*from_db = true;
		return 0;
	}
	if (ret != KMIG_ENOTFOUND)
		return ret;
	/* the headers an earlier scan read come from the database */
	ret = cache_from_store(st, &cache);
	if (!ret)
		ret = relinfo_read_tree(out, repo, tree, &cache);
	relinfo_cache_clear(&cache);
	return ret;
}

/* Write the masks of the headers @c read since the last call (in a transaction). */
static int cache_to_store(struct store *st, struct relinfo_cache *c)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < c->nfresh; i++)
		ret = store_relinfo_mask_put(st, relinfo_facts_hash(),
					     &c->fresh[i].oid, c->fresh[i].mask);
	return ret;
}

int relinfo_scan_prepare(struct store *st, git_tree *tree,
			 struct relinfo_cache *cache,
			 char key[RELINFO_KEY_LEN], struct relinfo *ri,
			 bool *have)
{
	int ret;

	relinfo_key(key, tree);
	ret = store_relinfo_get(st, key, ri);
	if (ret && ret != KMIG_ENOTFOUND)
		return ret;
	*have = !ret;
	if (*have || !cache)
		return 0;
	return cache_from_store(st, cache);
}

int relinfo_scan_store(struct store *st, const char *tag, const char *key,
		       const struct relinfo *ri, bool have,
		       struct relinfo_cache *cache)
{
	int ret = store_begin(st);

	if (ret)
		return ret;
	if (!have)
		ret = store_relinfo_put(st, key, ri);
	if (!ret && cache)
		ret = cache_to_store(st, cache);
	if (!ret)
		ret = store_release_relinfo_set(st, tag, key);
	if (ret) {
		store_rollback(st);
		return ret;
	}
	ret = store_commit(st);
	if (!ret && cache)
		cache->nfresh = 0;
	return ret;
}

int relinfo_since_load(struct store *st, struct relinfo_since *out)
{
	struct release_info *rel = NULL;
	struct relinfo ri;
	size_t n = 0, i;
	int ret, r;

	memset(out, 0, sizeof(*out));
	ret = store_releases(st, &rel, &n);
	if (ret)
		return ret;
	out->nreleases = n;
	for (i = 0; i < n; i++) {
		ret = store_release_relinfo(st, rel[i].id, &ri);
		if (ret == KMIG_ENOTFOUND)
			continue;
		if (ret)
			break;
		out->nknown++;
		for (r = 0; r < RULE__COUNT; r++) {
			if (!out->doc[r] && rules[r].sections && ri.documented[r])
				out->doc[r] = xstrdup(rel[i].tag);
			if (!out->repl[r] && rule_nrepl(r) && ri.repl[r])
				out->repl[r] = xstrdup(rel[i].tag);
		}
	}
	release_infos_free(rel, n);
	if (ret == KMIG_ENOTFOUND)
		ret = 0;
	if (ret)
		relinfo_since_clear(out);
	return ret;
}

void relinfo_since_clear(struct relinfo_since *s)
{
	int r;

	for (r = 0; r < RULE__COUNT; r++) {
		free(s->doc[r]);
		free(s->repl[r]);
	}
	memset(s, 0, sizeof(*s));
}
