/* SPDX-License-Identifier: GPL-2.0 */
/*
 * relinfo.h - what a release's own tree says about each rule: whether its
 * Documentation/process/deprecated.rst has the rule's section (a title of
 * rules[r].sections, as a line underlined with '-' or '='), and which of
 * the rule's replacements (rules[r].repl) its include/ defines.
 *
 * "Defined" is a cheap lexical test on every include/ header (comments and
 * string literals blanked first): "#define NAME" (object- or function-
 * like), or a function declaration or definition starting in column 0
 * whose NAME is followed by '(' and preceded on its line (or, when NAME
 * starts the line, on the line before: the return type of a K&R-style
 * definition) only by identifiers and '*' with no statement keyword
 * (return, if, sizeof, ...).  A call inside an inline function is
 * indented and does not count.
 *
 * The facts depend on the deprecated.rst blob, the include/ tree and the
 * rule data only; they are stored by that key (relinfo_key()), so a
 * re-scan, or a check on a base whose tree matches a scanned release's,
 * reads them from the database instead of the 6 000 headers.
 *
 * Functions return 0 or a negative code with the message recorded.
 */
#ifndef KMIG_RELINFO_H
#define KMIG_RELINFO_H

#include <git2.h>
#include <stdbool.h>
#include <stdint.h>

#include "oidset.h"
#include "rules.h"

#define RELINFO_DOC_PATH "Documentation/process/deprecated.rst"

/* "<40 hex>:<40 hex>:<16 hex>" and the NUL */
#define RELINFO_KEY_LEN (40 + 1 + 40 + 1 + 16 + 1)

struct relinfo {
	bool have_doc;			/* the tree has deprecated.rst */
	bool have_include;		/* the tree has include/ */
	bool documented[RULE__COUNT];	/* its section is there */
	uint32_t repl[RULE__COUNT];	/* bit i: rules[r].repl[i] is defined */
};

/*
 * Per-run memory of the headers already read (blob id -> defined names),
 * so the releases of one scan read each header blob once.  Zero it to
 * start; relinfo_cache_clear() frees it.  relinfo_scan_prepare() fills
 * it from the database's relinfo_headers (once: @stored) and
 * relinfo_scan_store() writes there the masks of the headers it read
 * (@fresh, not yet written), so a later run reads only the headers no
 * earlier run read.  @nread counts the header blobs read.
 */
struct relinfo_cache {
	struct oidset masks;
	size_t nread;
	bool stored;
	struct relinfo_fresh {
		git_oid oid;
		uint64_t mask;
	} *fresh;
	size_t nfresh, afresh;
};
void relinfo_cache_clear(struct relinfo_cache *c);

/*
 * relinfo_facts_hash - hex digest of the rule data the facts depend on
 * (sections and replacements of every rule, and the test's version).
 * Static string.
 */
const char *relinfo_facts_hash(void);

/*
 * relinfo_key - the facts' key of @tree into @out: its deprecated.rst
 * blob id, its include/ tree id (40 zeros when absent) and
 * relinfo_facts_hash().
 */
int relinfo_key(char out[RELINFO_KEY_LEN], git_tree *tree);

/*
 * relinfo_read_tree - read the facts of @tree from its deprecated.rst and
 * include/ headers.  @cache (or NULL) remembers header blobs across calls.
 */
int relinfo_read_tree(struct relinfo *out, git_repository *repo,
		      git_tree *tree, struct relinfo_cache *cache);

/*
 * relinfo_doc_sections - set out->documented[] and out->have_doc from the
 * text of a deprecated.rst (@buf, @len bytes).
 */
void relinfo_doc_sections(struct relinfo *out, const char *buf, size_t len);

/*
 * relinfo_header_defines - whether the header text @buf (@len bytes)
 * defines @name as above.  Exposed for the tests.
 */
bool relinfo_header_defines(const char *buf, size_t len, const char *name);

/* relinfo_has_repl - rule @r has no replacements, or one is defined. */
bool relinfo_has_repl(const struct relinfo *ri, int r);

/*
 * relinfo_in_force - a use of rule @r is deprecated by the release @ri
 * describes: the rule is documented there (or is a checkpatch rule,
 * which has no section) and the release has a replacement.  A tree
 * without deprecated.rst (before 2018, or no kernel) is not judged by its
 * sections, one without include/ not by its replacements: every rule
 * applies there.
 */
bool relinfo_in_force(const struct relinfo *ri, int r);

/*
 * relinfo_advice - the advice for rule @r in the release @ri: the rule's
 * own when every replacement is defined there, else one naming only the
 * defined replacements ("use a() or b()").  malloc'd, the caller's.
 */
char *relinfo_advice(const struct relinfo *ri, int r);

struct store;

/*
 * relinfo_for_tree - the facts of @tree: from @st (may be NULL) when a
 * scanned release stored them under the same key, else read from the
 * tree (with @st, a header some scan read already by its stored mask).
 * *@from_db (may be NULL) says which.
 */
int relinfo_for_tree(struct relinfo *out, struct store *st,
		     git_repository *repo, git_tree *tree, bool *from_db);

/*
 * Making sure a release of the store has its facts, in halves, so that a
 * caller can read the tree elsewhere (kmig scan: a thread with a
 * repository of its own):
 * relinfo_scan_prepare - @tree's key into @key, and whether the store has
 * its facts (*@have, then in @ri); if not, @cache made ready from @st
 * (once: the header masks an earlier scan stored), so that
 * relinfo_read_tree(@ri, ..., @cache) needs no store.
 * relinfo_scan_store - then @ri (unless @have) and the masks of the
 * headers @cache read since stored for release @tag; holds its own
 * transaction (call outside one).  Neither reads the tree.
 */
int relinfo_scan_prepare(struct store *st, git_tree *tree,
			 struct relinfo_cache *cache,
			 char key[RELINFO_KEY_LEN], struct relinfo *ri,
			 bool *have);
int relinfo_scan_store(struct store *st, const char *tag, const char *key,
		       const struct relinfo *ri, bool have,
		       struct relinfo_cache *cache);

/*
 * Per rule, the first scanned release (version order) whose facts have
 * its section (doc) and a replacement (repl); NULL when none does, and
 * for a rule without sections or replacements.  nknown: the releases
 * with facts recorded, of nreleases.
 */
struct relinfo_since {
	char *doc[RULE__COUNT];
	char *repl[RULE__COUNT];
	size_t nreleases, nknown;
};
/* relinfo_since_load - fill @out from @st's releases. */
int relinfo_since_load(struct store *st, struct relinfo_since *out);
void relinfo_since_clear(struct relinfo_since *s);

/* ---- the database side (store-relinfo.c) ---- */

/* store_relinfo_get - the facts stored under @key, or KMIG_ENOTFOUND. */
int store_relinfo_get(struct store *st, const char *key, struct relinfo *out);
/* store_relinfo_put - store @ri under @key (caller holds a transaction). */
int store_relinfo_put(struct store *st, const char *key,
		      const struct relinfo *ri);
/*
 * store_release_relinfo_set - record that release @tag has the facts of
 * @key (caller holds a transaction); KMIG_ENOTFOUND when no such release.
 */
int store_release_relinfo_set(struct store *st, const char *tag,
			      const char *key);
/*
 * store_release_relinfo - the facts of release @id, or KMIG_ENOTFOUND
 * (not recorded: scanned by a kmig before relinfo, or a schema without
 * the table).
 */
int store_release_relinfo(struct store *st, long long id, struct relinfo *out);

/*
 * store_relinfo_masks - add to @out (blob id -> mask) the header masks
 * stored for the rule data @facts (relinfo_facts_hash()): table
 * relinfo_headers, bit k the k-th replacement name of that rule data.
 */
int store_relinfo_masks(struct store *st, const char *facts, struct oidset *out);
/* store_relinfo_mask_put - store one header's mask (caller holds a transaction). */
int store_relinfo_mask_put(struct store *st, const char *facts,
			   const git_oid *oid, uint64_t mask);

#endif
