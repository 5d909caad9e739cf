// SPDX-License-Identifier: GPL-2.0
/*
 * rules.c - the rule table (from rules.def), lookup and its version hash.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rules.h"
#include "util.h"

/*
 * Version of the matcher semantics in lexer.c.  Bump it whenever the
 * lexer counts anything differently: it is part of rules_hash(), which
 * keys the cache of lexing results.
 */
#define LEXER_VERSION 1

#include "matcher-hash.h"

const struct rule rules[RULE__COUNT] = {
#define RULE(sym, id_, title_, source_, sections_, advice_, repl_,	\
	     kind_, names_)						\
	[sym] = {							\
		.id = id_,						\
		.title = title_,					\
		.source = source_,					\
		.sections = sections_,					\
		.advice = advice_,					\
		.repl = repl_,						\
		.kind = kind_,						\
		.names = names_,					\
	},
#include "rules.def"
#undef RULE
};

int rule_lookup(const char *id)
{
	int i;

	if (!id)
		return -1;
	for (i = 0; i < RULE__COUNT; i++)
		if (!strcmp(rules[i].id, id))
			return i;
	return -1;
}

/*
 * The rules hash is FNV-1a 64 (util.h) over the fields.  Strings are hashed
 * with their NUL so that field boundaries count; NULL is one 0xff byte.
 */
static void fnv_str(uint64_t *h, const char *s)
{
	if (!s) {
		*h = fnv64_add(*h, "\xff", 1);
		return;
	}
	*h = fnv64_add(*h, s, strlen(s) + 1);
}

static void fnv_int(uint64_t *h, long long v)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%lld;", v);

	*h = fnv64_add(*h, tmp, (size_t)n);
}

static char rules_hash_hex[17];
static pthread_once_t rules_hash_once = PTHREAD_ONCE_INIT;

static void rules_hash_init(void)
{
	uint64_t h = FNV64_INIT;
	const char *const *n;
	int i;

	fnv_str(&h, "kmig-rules");
	fnv_int(&h, LEXER_VERSION);
	fnv_str(&h, KMIG_MATCHER_HASH);	/* the matcher's source, from make */
	fnv_int(&h, RULE__COUNT);
	for (i = 0; i < RULE__COUNT; i++) {
		const struct rule *r = &rules[i];

		fnv_int(&h, i);
		fnv_str(&h, r->id);
		fnv_str(&h, r->title);
		fnv_str(&h, r->source);
		fnv_str(&h, r->advice);
		fnv_int(&h, r->kind);
		if (r->names) {
			for (n = r->names; *n; n++)
				fnv_str(&h, *n);
		}
		fnv_str(&h, NULL);	/* end of names */
	}
	snprintf(rules_hash_hex, sizeof(rules_hash_hex), "%016llx",
		 (unsigned long long)h);
}

const char *rules_hash(void)
{
	pthread_once(&rules_hash_once, rules_hash_init);
	return rules_hash_hex;
}

static char release_hash_hex[17];
static pthread_once_t release_hash_once = PTHREAD_ONCE_INIT;

static void release_hash_init(void)
{
	uint64_t h = FNV64_INIT;

	fnv_str(&h, "kmig-release");
	fnv_str(&h, rules_hash());
	fnv_str(&h, KMIG_RELEASE_HASH);	/* the release step's source */
	snprintf(release_hash_hex, sizeof(release_hash_hex), "%016llx",
		 (unsigned long long)h);
}

const char *release_hash(void)
{
	pthread_once(&release_hash_once, release_hash_init);
	return release_hash_hex;
}

int rule_nrepl(int r)
{
	int n = 0;

	if (r < 0 || r >= RULE__COUNT || !rules[r].repl)
		return 0;
	while (rules[r].repl[n])
		n++;
	return n;
}

bool rule_globs_match(int r, char *const *want, size_t nwant,
		      char *const *skip, size_t nskip)
{
	bool ok = !nwant;
	size_t i;

	for (i = 0; !ok && i < nwant; i++)
		ok = glob_match(want[i], rules[r].id, false);
	for (i = 0; ok && i < nskip; i++)
		ok = !glob_match(skip[i], rules[r].id, false);
	return ok;
}

int rule_globs_check(char *const *globs, size_t n, const char *opt)
{
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		for (r = 0; r < RULE__COUNT; r++)
			if (glob_match(globs[i], rules[r].id, false))
				break;
		if (r == RULE__COUNT)
			return kmig_err("%s: unknown rule '%s' (no rule id matches; see 'kmig rules')",
					opt, globs[i]);
	}
	return 0;
}
