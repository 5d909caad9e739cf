/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rules.h - the deprecated-API rule table.
 *
 * The rules themselves are data in rules.def (X-macro): id, title, source
 * (the deprecated.rst section title, or "checkpatch"), replacement advice,
 * and the matcher kind with its identifier list.  Nothing else in kmig
 * names an individual rule except through enum rule_id.
 */
#ifndef KMIG_RULES_H
#define KMIG_RULES_H

#include <stddef.h>

enum rule_id {
#define RULE(sym, id, title, source, advice, kind, names) sym,
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
	const char *advice;	/* replacement advice */
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

#endif
