/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rules.h - the deprecated-API rule table.
 *
 * The rules themselves are data in rules.def (X-macro): id, title, source
 * (the deprecated.rst section title, or "checkpatch"), the section titles
 * a release's deprecated.rst documents it under, replacement advice and
 * the replacement identifiers it names, and the matcher kind with its
 * identifier list.  Nothing else in kmig
 * names an individual rule except through enum rule_id.
 */
#ifndef KMIG_RULES_H
#define KMIG_RULES_H

#include <stdbool.h>
#include <stddef.h>

enum rule_id {
#define RULE(sym, id, title, source, sections, advice, repl, kind, names) sym,
#include "rules.def"
#undef RULE
	RULE__COUNT
};

/* How a rule matches; the lexer implements each kind. */
enum rule_kind {
	MATCH_CALL,		/* identifier followed by '(' in code (see lexer.h) */
	MATCH_CALL_ANYWHERE,	/* the same, file scope included */
	MATCH_IDENT_ANYWHERE,	/* a bare identifier, anywhere */
	MATCH_ALLOC_ARITH,	/* arithmetic in an allocator size argument */
	MATCH_ALLOC_OBJ,	/* '=' then an allocator call */
	MATCH_PRINTK_P,		/* plain %p in a string literal */
	MATCH_VLA,		/* block-scope array with non-constant size */
	MATCH_FALLTHROUGH,	/* GCC -Wimplicit-fallthrough=3 comment */
	MATCH_FLEX_ZERO,	/* last struct member declared [0] */
	MATCH_FLEX_ONE,		/* last struct member declared [1] */
	MATCH_DERIVED,		/* computed from another rule (warn-on-user) */
};

struct rule {
	const char *id;		/* binding id, e.g. "strlcpy" */
	const char *title;
	const char *source;	/* deprecated.rst section title or "checkpatch" */
	const char *const *sections;	/* deprecated.rst titles, or NULL (checkpatch) */
	const char *advice;	/* replacement advice */
	const char *const *repl;	/* replacement identifiers, or NULL */
	enum rule_kind kind;
	const char *const *names;	/* NULL-terminated identifiers, or NULL */
};

extern const struct rule rules[RULE__COUNT];

/* rule_lookup - index of the rule with binding id @id, or -1. */
int rule_lookup(const char *id);
/*
 * rules_hash - hex digest of the rule table and the matcher version;
 * cached lexing results are keyed by it, so changing a rule or the
 * matcher invalidates the cache.  Static string.
 */
const char *rules_hash(void);

/*
 * release_hash - hex digest of rules_hash() and the source of the release
 * step that counts a release from its blobs' sites and facts (the call
 * graph, the headers' constants, the counting SQL): a release counted
 * under another is counted again from its cached blobs, and the graphs'
 * cache file is keyed by it.  Static string.
 */
const char *release_hash(void);

/*
 * rule_nrepl - the number of replacement identifiers of rule @r (0 when
 * it has none).  Each is at most RULE_MAX_REPL.
 */
#define RULE_MAX_REPL 16
int rule_nrepl(int r);

/*
 * rule_globs_match - whether rule @r passes the --rule/--skip-rule
 * filter: its id matches one of @want[0..nwant) (or @nwant is 0) and
 * none of @skip[0..nskip) (fnmatch globs).
 */
bool rule_globs_match(int r, char *const *want, size_t nwant,
		      char *const *skip, size_t nskip);
/*
 * rule_globs_check - 0 when every glob of @globs[0..n) matches some rule
 * id, else KMIG_EGENERIC with "OPT: unknown rule '<glob>' (...)" recorded.
 */
int rule_globs_check(char *const *globs, size_t n, const char *opt);

#endif
