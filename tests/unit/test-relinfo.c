// SPDX-License-Identifier: GPL-2.0
/*
 * test-relinfo.c - a release's own facts (relinfo.c): deprecated.rst
 * sections, the "defined in include/" test on header text, the judging
 * and the advice that names only what a base defines; the rule filter
 * globs (rules.c) and gate_judge()/gate_sites_filter() (gate.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gate.h"
#include "relinfo.h"
#include "rules.h"
#include "util.h"

static bool defines(const char *text, const char *name)
{
	return relinfo_header_defines(text, strlen(text), name);
}

static void test_header_defines(void **state)
{
	(void)state;
	/* macros, object- and function-like, with blanks after '#' */
	assert_true(defines("#define fallthrough __attribute__((__fallthrough__))\n",
			    "fallthrough"));
	assert_true(defines("# define kzalloc_obj(P, ...) \\\n\t__alloc_objs(P)\n",
			    "kzalloc_obj"));
	/* declarations and definitions starting in column 0 */
	assert_true(defines("extern ssize_t strscpy(char *, const char *, size_t);\n",
			    "strscpy"));
	assert_true(defines("static inline void *kmap_local_page(struct page *page)\n{\n}\n",
			    "kmap_local_page"));
	assert_true(defines("static inline int __must_check\nkstrtoul(const char *s)\n{\n}\n",
			    "kstrtoul"));
	/* uses are no definitions: calls, comments, strings, prefixes */
	assert_false(defines("static inline void *f(void)\n{\n\treturn kzalloc_obj(x);\n}\n",
			     "kzalloc_obj"));
	assert_false(defines("/*\n * use kmalloc_obj(p) instead\n */\n", "kmalloc_obj"));
	assert_false(defines("// kmalloc_obj(p)\n", "kmalloc_obj"));
	assert_false(defines("/* kmalloc_obj(p) kmalloc_obj */ int x;\n", "kmalloc_obj"));
	assert_false(defines("const char *s = \"#define strscpy\";\n", "strscpy"));
	assert_false(defines("#define sized_strscpy(a, b) x\n", "strscpy"));
	assert_false(defines("#define strscpy_pad(a, b) x\n", "strscpy"));
	assert_false(defines("#ifdef strscpy\n#undef strscpy\n#endif\n", "strscpy"));
	assert_false(defines("\treturn strscpy(a, b, c);\n", "strscpy"));
	assert_false(defines("x = strscpy(a, b, c);\n", "strscpy"));
	assert_false(defines("", "strscpy"));
}

static void test_doc_sections(void **state)
{
	const char old[] =
		"Deprecated Interfaces\n=====================\n\n"
		"strcpy()\n--------\nUse strscpy().\n\n"
		"strncpy() on NUL-terminated strings\n"
		"-----------------------------------\ntext\n"
		"Open-coded kmalloc assignments for struct objects\n"
		"is mentioned in a paragraph, not underlined\n";
	const char neu[] =
		"strncpy()  \r\n---------\r\n"
		"Open-coded kmalloc assignments for struct objects\n"
		"-------------------------------------------------\n";
	struct relinfo ri;

	(void)state;
	memset(&ri, 0, sizeof(ri));
	relinfo_doc_sections(&ri, old, strlen(old));
	assert_true(ri.have_doc);
	assert_true(ri.documented[RULE_STRCPY]);
	assert_true(ri.documented[RULE_STRNCPY]);
	assert_false(ri.documented[RULE_ALLOC_OBJ]);
	assert_false(ri.documented[RULE_BUG]);
	/* the section's later title, trailing blanks and CRs */
	relinfo_doc_sections(&ri, neu, strlen(neu));
	assert_true(ri.documented[RULE_STRNCPY]);
	assert_true(ri.documented[RULE_ALLOC_OBJ]);
	assert_false(ri.documented[RULE_STRCPY]);
}

static int repl_index(int r, const char *name)
{
	int i;

	for (i = 0; i < rule_nrepl(r); i++)
		if (!strcmp(rules[r].repl[i], name))
			return i;
	return -1;
}

static void test_judging(void **state)
{
	struct relinfo ri;
	char *advice;
	int i;

	(void)state;
	memset(&ri, 0, sizeof(ri));
	/* no deprecated.rst and no include/: every rule applies */
	for (i = 0; i < RULE__COUNT; i++)
		assert_true(relinfo_in_force(&ri, i));
	ri.have_doc = ri.have_include = true;
	/* documented, but no replacement defined */
	ri.documented[RULE_ALLOC_OBJ] = true;
	assert_false(relinfo_in_force(&ri, RULE_ALLOC_OBJ));
	/* the replacement, but not documented */
	ri.documented[RULE_ALLOC_OBJ] = false;
	ri.repl[RULE_ALLOC_OBJ] = 1U << repl_index(RULE_ALLOC_OBJ, "kzalloc_obj");
	assert_false(relinfo_in_force(&ri, RULE_ALLOC_OBJ));
	ri.documented[RULE_ALLOC_OBJ] = true;
	assert_true(relinfo_in_force(&ri, RULE_ALLOC_OBJ));
	/* a checkpatch rule has no section: judged by its replacement */
	assert_null(rules[RULE_KMAP].sections);
	assert_false(relinfo_in_force(&ri, RULE_KMAP));
	ri.repl[RULE_KMAP] = 1;
	assert_true(relinfo_in_force(&ri, RULE_KMAP));
	/* a rule without replacement identifiers: by its section only */
	assert_int_equal(rule_nrepl(RULE_VLA), 0);
	assert_false(relinfo_in_force(&ri, RULE_VLA));
	ri.documented[RULE_VLA] = true;
	assert_true(relinfo_in_force(&ri, RULE_VLA));

	/* advice names only what the base defines */
	advice = relinfo_advice(&ri, RULE_ALLOC_OBJ);
	assert_non_null(strstr(advice, "kzalloc_obj()"));
	assert_null(strstr(advice, "kmalloc_flex"));
	assert_null(strstr(advice, "kmalloc_objs"));
	free(advice);
	ri.repl[RULE_STRNCPY] = 1U << repl_index(RULE_STRNCPY, "strscpy") |
				1U << repl_index(RULE_STRNCPY, "memcpy_and_pad");
	advice = relinfo_advice(&ri, RULE_STRNCPY);
	assert_string_equal(advice, "use strscpy() or memcpy_and_pad() (of this rule's replacements, what the base defines)");
	free(advice);
	/* every replacement there: the rule's own advice */
	ri.repl[RULE_STRCPY] = 1;
	advice = relinfo_advice(&ri, RULE_STRCPY);
	assert_string_equal(advice, rules[RULE_STRCPY].advice);
	free(advice);
}

static void test_filters(void **state)
{
	char *want[] = { "str*", "bug" }, *skip[] = { "strl*" }, *bad[] = { "nope*" };
	struct gate_site v[4] = {
		{ .rule = RULE_STRCPY }, { .rule = RULE_STRLCPY },
		{ .rule = RULE_BUG }, { .rule = RULE_ALLOC_OBJ },
	};
	struct gate_sites s = { v, 4, 4 };
	struct relinfo ri;

	(void)state;
	assert_true(rule_globs_match(RULE_STRCPY, want, 2, skip, 1));
	assert_false(rule_globs_match(RULE_STRLCPY, want, 2, skip, 1));
	assert_true(rule_globs_match(RULE_BUG, want, 2, skip, 1));
	assert_false(rule_globs_match(RULE_BUG_ON, want, 2, skip, 1));
	assert_true(rule_globs_match(RULE_VLA, NULL, 0, NULL, 0));
	assert_false(rule_globs_match(RULE_STRLCPY, NULL, 0, skip, 1));
	assert_int_equal(rule_globs_check(want, 2, "--rule"), 0);
	assert_int_equal(rule_globs_check(bad, 1, "--rule"), KMIG_EGENERIC);
	assert_non_null(strstr(kmig_errmsg(), "unknown rule 'nope*'"));

	gate_sites_filter(&s, want, 2, skip, 1);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.v[0].rule, RULE_STRCPY);
	assert_int_equal(s.v[1].rule, RULE_BUG);

	memset(&ri, 0, sizeof(ri));
	ri.have_doc = ri.have_include = true;
	ri.documented[RULE_STRCPY] = true;
	ri.repl[RULE_STRCPY] = 1;
	assert_int_equal(gate_judge(&s, &ri), 1);
	assert_false(s.v[0].info);
	assert_true(s.v[1].info);	/* no BUG() section in this base */
}

static void test_facts_hash(void **state)
{
	const char *h = relinfo_facts_hash();

	(void)state;
	assert_int_equal(strlen(h), 16);
	assert_ptr_equal(relinfo_facts_hash(), h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_defines),
		cmocka_unit_test(test_doc_sections),
		cmocka_unit_test(test_judging),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_facts_hash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
