// SPDX-License-Identifier: GPL-2.0
/*
 * test-gate.c - the gate (gate*.c): the allowlist parsed and applied to
 * sites in memory, and the tree diff, lexing and multiset compare of
 * changes between trees built with libgit2 in a temporary repository.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <git2.h>

#include "gate.h"
#include "usetext.h"
#include "rules.h"
#include "util.h"

static void test_allow_parse(void **state)
{
	const char text[] = "# the allowlist\n"
			    "\n"
			    "/drivers/:probe strcpy   # legacy  board code\n"
			    "./lib/*.c bug*\n";
	struct gate_allow a;

	(void)state;
	assert_int_equal(gate_allow_parse(&a, "t.allow", text, strlen(text)), 0);
	assert_int_equal(a.n, 2);
	assert_string_equal(a.v[0].path, "drivers/");
	assert_string_equal(a.v[0].func, "probe");
	assert_string_equal(a.v[0].rule, "strcpy");
	assert_string_equal(a.v[0].reason, "legacy board code");
	assert_int_equal(a.v[0].lineno, 3);
	assert_string_equal(a.v[1].path, "lib/*.c");
	assert_null(a.v[1].func);
	assert_null(a.v[1].reason);
	gate_allow_clear(&a);
}

static void test_allow_errors(void **state)
{
	static const char *const bad[][2] = {
		{ "a.c\n", "t.allow:1: malformed allowlist line (expected 'PATH[:FUNCTION] RULE  # reason')" },
		{ "\na.c strcpy extra\n", "t.allow:2: malformed allowlist line (expected 'PATH[:FUNCTION] RULE  # reason')" },
		{ "a.c no-such-rule\n", "t.allow:1: unknown rule 'no-such-rule'" },
		{ "a.c: strcpy\n", "t.allow:1: malformed allowlist line (empty path or function)" },
	};
	struct gate_allow a;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_not_equal(gate_allow_parse(&a, "t.allow", bad[i][0],
						      strlen(bad[i][0])), 0);
		assert_string_equal(kmig_errmsg(), bad[i][1]);
		assert_int_equal(a.n, 0);
	}
	assert_int_not_equal(gate_allow_parse(&a, "t.allow", "a.c\0 strcpy\n", 12), 0);
	assert_string_equal(kmig_errmsg(), "t.allow:1: malformed allowlist line (NUL byte)");
}

static void test_allow_apply(void **state)
{
	const char text[] = "drivers/:probe strcpy\nlib/*.c bug*\n";
	struct gate_site v[] = {
		{ .rule = RULE_STRCPY, .path = "drivers/net/a.c", .func = "probe" },
		{ .rule = RULE_STRCPY, .path = "drivers/net/a.c", .func = "remove" },
		{ .rule = RULE_STRCPY, .path = "drivers/net/a.c", .func = NULL },
		{ .rule = RULE_BUG_ON, .path = "lib/x.c" },
		{ .rule = RULE_BUG_ON, .path = "lib/sub/x.c" },
		{ .rule = RULE_STRCPY, .path = "lib/x.c" },
	};
	struct gate_sites s = { v, sizeof(v) / sizeof(v[0]), 0 };
	struct gate_allow a;

	(void)state;
	assert_int_equal(gate_allow_parse(&a, "t.allow", text, strlen(text)), 0);
	assert_int_equal(gate_allow_apply(&a, &s), 2);
	assert_int_equal(v[0].allow, 0);
	assert_int_equal(v[1].allow, -1);
	assert_int_equal(v[2].allow, -1);
	assert_int_equal(v[3].allow, 1);
	assert_int_equal(v[4].allow, -1);	/* '*' does not cross '/' */
	assert_int_equal(v[5].allow, -1);
	assert_int_equal(gate_allow_apply(NULL, &s), 0);
	assert_int_equal(v[0].allow, -1);
	gate_allow_clear(&a);
}

/* ---- trees in a temporary repository ---- */

struct fixture {
	char dir[64];
	git_repository *repo;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/kmig-unit-gate.XXXXXX");
	if (!mkdtemp(f->dir) || git_repository_init(&f->repo, f->dir, true) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	git_repository_free(f->repo);
	rm_rf(f->dir);
	free(f);
	return 0;
}

/* A tree of "dir/file" paths (one level of directories) and contents. */
static git_tree *make_tree(git_repository *repo, const char *const *files)
{
	git_treebuilder *top = NULL;
	git_tree *tree = NULL;
	git_oid oid;
	size_t i, j;

	assert_int_equal(git_treebuilder_new(&top, repo, NULL), 0);
	for (i = 0; files[i]; i += 2) {
		const char *slash = strchr(files[i], '/');
		char *dir = xstrndup(files[i], (size_t)(slash - files[i]));
		git_treebuilder *sub = NULL;

		if (git_treebuilder_get(top, dir)) {
			free(dir);
			continue;	/* built with the first file of @dir */
		}
		assert_int_equal(git_treebuilder_new(&sub, repo, NULL), 0);
		for (j = i; files[j]; j += 2) {
			if (strncmp(files[j], dir, strlen(dir)) ||
			    files[j][strlen(dir)] != '/')
				continue;
			assert_int_equal(git_blob_create_from_buffer(&oid, repo, files[j + 1],
								     strlen(files[j + 1])), 0);
			assert_int_equal(git_treebuilder_insert(NULL, sub,
					files[j] + strlen(dir) + 1, &oid,
					GIT_FILEMODE_BLOB), 0);
		}
		assert_int_equal(git_treebuilder_write(&oid, sub), 0);
		assert_int_equal(git_treebuilder_insert(NULL, top, dir, &oid,
							GIT_FILEMODE_TREE), 0);
		git_treebuilder_free(sub);
		free(dir);
	}
	assert_int_equal(git_treebuilder_write(&oid, top), 0);
	assert_int_equal(git_tree_lookup(&tree, repo, &oid), 0);
	git_treebuilder_free(top);
	return tree;
}

#define A_C	"void f(void)\n{\n\tstrcpy(a, b);\n}\n"
#define B_C	"void g(void)\n{\n\tBUG();\n}\n"

static void test_tree_diff(void **state)
{
	struct fixture *f = *state;
	static const char *const before[] = {
		"drivers/a.c", A_C, "lib/b.c", B_C, "doc/x.txt", "strcpy(a, b);\n",
		NULL
	};
	/* a second strcpy() line; BUG() moved to another file; text changed */
	static const char *const after[] = {
		"drivers/a.c", "void f(void)\n{\n\tstrcpy(a, b);\n\tstrcpy(a, b);\n}\n",
		"lib/b.c", "void g(void)\n{\n}\n",
		"lib/c.c", B_C,
		"doc/x.txt", "strcpy(c, d);\n",
		NULL
	};
	git_tree *old = make_tree(f->repo, before), *new_ = make_tree(f->repo, after);
	struct gate_touched t;
	struct gate_change c;
	struct gate g;

	gate_init(&g, f->repo, NULL, 1);
	g.inmem = true;
	assert_int_equal(gate_diff_trees(&g, old, new_, &t, &c), 0);
	/* the in-scope files only, in tree order */
	assert_int_equal(t.before.n, 2);
	assert_string_equal(t.before.v[0].path, "drivers/a.c");
	assert_string_equal(t.before.v[1].path, "lib/b.c");
	assert_int_equal(t.after.n, 3);
	assert_string_equal(t.after.v[2].path, "lib/c.c");
	assert_int_equal(t.after.v[2].nchanged, 4);	/* a new file: every line */
	assert_int_equal(t.before.v[1].nchanged, 1);
	assert_int_equal(t.before.v[1].changed[0], 3);
	assert_int_equal(g.lexed, 4);	/* lib/c.c has lib/b.c's old blob */

	/* the copy is new; the moved BUG() is neither new nor removed */
	assert_int_equal(c.added.n, 1);
	assert_int_equal(c.removed.n, 0);
	assert_int_equal(c.added.v[0].rule, RULE_STRCPY);
	assert_string_equal(c.added.v[0].path, "drivers/a.c");
	assert_string_equal(c.added.v[0].func, "f");
	assert_string_equal(c.added.v[0].text, "strcpy(a, b);");
	assert_true(c.added.v[0].on_change);
	assert_int_equal(c.added.v[0].allow, -1);
	gate_change_clear(&c);
	gate_touched_clear(&t);

	/* and back: the copy is removed */
	assert_int_equal(gate_diff_trees(&g, new_, old, &t, &c), 0);
	assert_int_equal(g.lexed, 4);	/* every blob already loaded */
	assert_int_equal(c.added.n, 0);
	assert_int_equal(c.removed.n, 1);
	assert_string_equal(c.removed.v[0].path, "drivers/a.c");
	gate_change_clear(&c);
	gate_touched_clear(&t);

	/* from the empty tree: every use is new */
	assert_int_equal(gate_diff_trees(&g, NULL, old, &t, &c), 0);
	assert_int_equal(c.added.n, 2);
	assert_string_equal(c.added.v[0].path, "drivers/a.c");
	assert_string_equal(c.added.v[1].path, "lib/b.c");
	assert_int_equal(c.added.v[1].rule, RULE_BUG);
	gate_change_clear(&c);
	gate_touched_clear(&t);

	gate_release(&g);
	git_tree_free(old);
	git_tree_free(new_);
}

static void test_apply_patch(void **state)
{
	struct fixture *f = *state;
	static const char *const files[] = { "drivers/a.c", A_C, NULL };
	static const char mbox[] =
		"From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
		"From: Ada <ada@example.org>\n"
		"Subject: [PATCH] drivers: a: strscpy\n"
		"\n"
		"---\n"
		"diff --git a/drivers/a.c b/drivers/a.c\n"
		"--- a/drivers/a.c\n"
		"+++ b/drivers/a.c\n"
		"@@ -1,4 +1,4 @@\n"
		" void f(void)\n"
		" {\n"
		"-\tstrcpy(a, b);\n"
		"+\tstrscpy(a, b, 4);\n"
		" }\n"
		"-- \n"
		"2.39.5\n";
	/* the same change as a plain diff, made on a file one line longer */
	static const char plain[] =
		"--- a/drivers/a.c\t2026-01-01 00:00:00.000000000 +0000\n"
		"+++ b/drivers/a.c\t2026-01-01 00:00:00.000000000 +0000\n"
		"@@ -2,4 +2,4 @@\n"
		" void f(void)\n"
		" {\n"
		"-\tstrcpy(a, b);\n"
		"+\tstrscpy(a, b, 4);\n"
		" }\n";
	git_tree *base = make_tree(f->repo, files), *shifted;
	struct gate_patch_input in = { "t.patch", mbox, strlen(mbox) };
	struct gate_series s;
	struct gate_touched t;
	struct gate_change c;
	struct gate g;

	assert_int_equal(gate_series_apply(&s, f->repo, base, &in, 1), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.v[0].subject, "[PATCH] drivers: a: strscpy");
	assert_int_equal(s.v[0].strip, 1);
	assert_int_equal(s.noff, 0);
	gate_init(&g, f->repo, NULL, 1);
	g.inmem = true;
	assert_int_equal(gate_diff_trees(&g, base, s.v[0].tree, &t, &c), 0);
	assert_int_equal(c.added.n, 0);
	assert_int_equal(c.removed.n, 1);
	assert_int_equal(c.removed.v[0].rule, RULE_STRCPY);
	gate_change_clear(&c);
	gate_touched_clear(&t);
	gate_release(&g);
	gate_series_clear(&s);

	/* a hunk one line away from its header: applied, the offset reported */
	shifted = make_tree(f->repo, (const char *const[]){ "drivers/a.c",
			    "int a;\nint b;\n" A_C, NULL });
	in.buf = plain;
	in.len = strlen(plain);
	assert_int_equal(gate_series_apply(&s, f->repo, shifted, &in, 1), 0);
	assert_null(s.v[0].subject);
	assert_int_equal(s.noff, 1);
	assert_string_equal(s.off[0].path, "drivers/a.c");
	assert_int_equal(s.off[0].hunk, 1);
	assert_int_equal(s.off[0].line, 3);
	assert_int_equal(s.off[0].offset, 1);
	gate_series_clear(&s);
	git_tree_free(shifted);

	/* on another file: the hunk does not match */
	git_tree_free(base);
	base = make_tree(f->repo, (const char *const[]){ "drivers/a.c", "int x;\n", NULL });
	in.buf = mbox;
	in.len = strlen(mbox);
	assert_int_not_equal(gate_series_apply(&s, f->repo, base, &in, 1), 0);
	assert_string_equal(kmig_errmsg(), "patch 't.patch' does not apply: drivers/a.c: "
			    "hunk #1 (@@ -1,4 +1,4 @@) does not match");
	gate_series_clear(&s);
	git_tree_free(base);
}

/*
 * use_text_cmp(): spacing between tokens does not count, a space between
 * two words does, and so does every character of a string or character
 * literal (an escaped quote does not end one); the order is that of the
 * texts without those spaces.
 */
static void test_text_cmp(void **state)
{
	(void)state;
	assert_int_equal(use_text_cmp("strcpy( d,s );", "strcpy(d, s);"), 0);
	assert_int_equal(use_text_cmp("\tBUG_ON(x > 100);", "BUG_ON(x>100);"), 0);
	assert_int_equal(use_text_cmp("", "  "), 0);
	assert_int_equal(use_text_cmp("unsigned int n;", "unsigned  int n;"), 0);
	assert_int_not_equal(use_text_cmp("unsigned int n;", "unsignedint n;"), 0);
	assert_int_not_equal(use_text_cmp("f(\"%s %s\");", "f(\"%s%s\");"), 0);
	assert_int_equal(use_text_cmp("f( \"%s %s\" );", "f(\"%s %s\");"), 0);
	assert_int_not_equal(use_text_cmp("f(\"a\\\" b\");", "f(\"a\\\"b\");"), 0);
	assert_int_equal(use_text_cmp("f(\"a\\\" b\") ;", "f(\"a\\\" b\");"), 0);
	assert_int_not_equal(use_text_cmp("c == ' ';", "c == '';"), 0);
	assert_int_equal(use_text_cmp("c == ' ' ;", "c==' ';"), 0);
	/* a quote in a comment opens no literal; a comment in one is none */
	assert_int_equal(use_text_cmp("if (d) /* it's set */ strcpy(d, s);",
				      "if (d) /* it's set */ strcpy( d,s );"), 0);
	assert_int_equal(use_text_cmp("x = 1; // don't", "x=1; // don't"), 0);
	assert_int_equal(use_text_cmp("f(\"/*\"); g( a );", "f(\"/*\");g(a);"), 0);
	assert_int_not_equal(use_text_cmp("f(\"/* a\");", "f(\"/*a\");"), 0);
	assert_int_equal(use_text_cmp("a = '/'; b( c );", "a='/';b(c);"), 0);
	assert_int_equal(use_text_cmp("/*/ ' */ f( \"a b\" );", "/*/ ' */f(\"a b\");"), 0);
	/* a comment is no part of the use, but a space between tokens */
	assert_int_equal(use_text_cmp("strcpy(d, s); /* x */", "strcpy(d, s);"), 0);
	/* adjacent string literals are the string C makes of them */
	assert_int_equal(use_text_cmp("f(\"a %p \" \"b\\n\", p);", "f(\"a %p b\\n\", p);"), 0);
	assert_int_equal(use_text_cmp("f(\"a\"/* x */\"b\");", "f(\"ab\");"), 0);
	assert_int_equal(use_text_cmp("f(\"a\\\"\" \"b\");", "f(\"a\\\"b\");"), 0);
	assert_int_not_equal(use_text_cmp("f(\"a\", \"b\");", "f(\"ab\");"), 0);
	assert_int_not_equal(use_text_cmp("f('a' 'b');", "f('ab');"), 0);
	/* a text of comments alone (a fall-through comment) is its words */
	assert_int_equal(use_text_cmp("/* fall through */", "/*fall   through*/"), 0);
	assert_int_equal(use_text_cmp("/* fall through */", "// fall through"), 0);
	assert_int_not_equal(use_text_cmp("/* fall through */", "// FALLTHRU"), 0);
	assert_int_not_equal(use_text_cmp("/* fall through */", "/* fallthrough */"), 0);
	assert_int_not_equal(use_text_cmp("/* fall through */", ""), 0);
	assert_int_equal(use_text_cmp("/* fall through */ \\", "/* fall through */"), 0);
	{
		char key[32];

		assert_int_equal(use_text_key("// FALLTHRU", key), 10);
		assert_string_equal(key, "/*FALLTHRU");
		assert_int_equal(use_text_key("/**/", key), 2);
	}
	assert_int_equal(use_text_cmp("strcpy(d, s); // why", "strcpy(d,s);"), 0);
	assert_int_equal(use_text_cmp("strcpy(/* to */ d, s);", "strcpy(d, s);"), 0);
	assert_int_equal(use_text_cmp("BUG_ON(x); /* no end", "BUG_ON(x);"), 0);
	assert_int_equal(use_text_cmp("int/**/x;", "int x;"), 0);
	assert_int_not_equal(use_text_cmp("int/**/x;", "intx;"), 0);
	assert_int_not_equal(use_text_cmp("f(\"/* a */\");", "f(\"\");"), 0);
	/* a line that began inside a block comment holding a URL */
	assert_int_not_equal(use_text_cmp("* see http://x */ strcpy(d, s);",
					  "* see http://x */ strcpy(e, t);"), 0);
	/* a #define body's line continued is the same use as its last line */
	assert_int_equal(use_text_cmp("\tstrcpy(d, s); \\", "strcpy(d, s);"), 0);
	assert_int_equal(use_text_cmp("strcpy(d, s);\\ ", "strcpy(d, s);"), 0);
	assert_int_not_equal(use_text_cmp("f(\"\\\\\");", "f(\"\");"), 0);
	assert_int_not_equal(use_text_cmp("a \\ b", "a b"), 0);
	assert_true(use_text_cmp("a(b)", "a(c)") < 0);
	assert_true(use_text_cmp("a (c)", "a(b)") > 0);
	/*
	 * a line of a million adjacent literals (a patch's line is input):
	 * read in a loop, not a call per literal, which ran out of stack
	 */
	{
		size_t n = 1000000, i;
		char *a = malloc(3 * n + 16), *b = malloc(16);

		assert_non_null(a);
		assert_non_null(b);
		strcpy(a, "f(");
		for (i = 0; i < n; i++)
			memcpy(a + 2 + 3 * i, "\"\" ", 3);
		strcpy(a + 2 + 3 * n, "\"x\");");
		strcpy(b, "f(\"x\");");
		assert_int_equal(use_text_cmp(a, b), 0);
		free(b);
		free(a);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_cmp),
		cmocka_unit_test(test_allow_parse),
		cmocka_unit_test(test_allow_errors),
		cmocka_unit_test(test_allow_apply),
		cmocka_unit_test_setup_teardown(test_tree_diff, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_patch, setup, teardown),
	};

	git_libgit2_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
