// SPDX-License-Identifier: GPL-2.0
/*
 * test-branch.c - branch_apply_one() on a small repository made with git
 * (the fixture of tests/cli/t0006-branch.sh in miniature): a patch that
 * applies, one that applies with offsets, one already upstream (it
 * reverse-applies), one upstream by patch-id (and not when the walk
 * starts below the commit), one superseded, two conflicts (a tracked use
 * still present; no tracked use removed); then the trailer helpers and
 * kmig_identity().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <git2.h>

#include "branch.h"
#include "series.h"
#include "util.h"
#include "unit-util.h"

static char *dir;
static git_repository *repo;

/*
 * v0.9: the initial files; v1.0: upstream history on top (net/up.c and
 * net/pid.c changed, lib/ reworked); v1.1: v1.0 with a line added at
 * the top of drivers/one.c.  The patches are written to $D/NAME.patch:
 * "applied" made on v1.0, "reverse" and "patchid" from upstream commits
 * (patchid's context changed later), "superseded", "conflict" and
 * "plain" from a side branch on v0.9.
 */
static const char make_repo[] =
	"set -e; cd \"$D\"; git init -q -b master r; cd r;"
	"export GIT_AUTHOR_NAME=T GIT_AUTHOR_EMAIL=t@example.org;"
	"export GIT_COMMITTER_NAME=T GIT_COMMITTER_EMAIL=t@example.org;"
	"export GIT_AUTHOR_DATE=2020-01-01T00:00:00+0000;"
	"export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE;"
	"c() { git add -A && git commit -q -m \"$1\"; };"
	"fp() { git format-patch -1 --stdout HEAD > \"../$1.patch\"; };"
	"mkdir drivers net lib;"
	"printf 'int one(char *d, const char *s)\\n{\\n\\tstrcpy(d, s);\\n"
	"\\treturn 0;\\n}\\n' > drivers/one.c;"
	"printf 'int up(void)\\n{\\n\\tint x;\\n\\n\\tx = 1;\\n\\treturn x;\\n}\\n'"
	" > net/up.c;"
	"printf 'int pid(void)\\n{\\n\\tint a, b;\\n\\n\\ta = 1;\\n\\tb = 2;\\n"
	"\\treturn a + b;\\n}\\n' > net/pid.c;"
	"printf 'void s(char *name, const char *src)\\n{\\n"
	"\\tstrlcpy(name, src, 16);\\n}\\n' > lib/s.c;"
	"printf 'void c(char *d, const char *s)\\n{\\n\\tint x = 0;\\n"
	"\\tstrlcpy(d, s, 8);\\n}\\n' > lib/c.c;"
	"printf 'int v(void)\\n{\\n\\tint v = 1;\\n\\treturn v;\\n}\\n' > lib/v.c;"
	"printf 'void w(char *d, const char *s)\\n{\\n\\tint n = 0;\\n"
	"\\tstrlcpy(d,\\n\\t\\ts,\\n\\t\\t1 +\\n\\t\\t2 +\\n\\t\\t3);\\n}\\n'"
	" > lib/w.c;"
	"printf 'void m(void);\\n#define CP(d, s) strlcpy(d, \\\\\\n\\t\\ts, \\\\\\n"
	"\\t\\t1 + \\\\\\n\\t\\t2 + \\\\\\n\\t\\t3)\\n' > lib/m.c;"
	"printf 'void u(char *d, const char *s)\\n{\\n\\tstrlcpy(d,\\n\\t\\ts, 8);\\n}\\n'"
	" > lib/u.c;"
	"c initial; git tag v0.9;"
	"git checkout -q -b old;"
	"sed -i 's/strlcpy(name, src, 16);/strscpy(name, src, 16);/' lib/s.c;"
	"c 'lib: s: use strscpy'; fp superseded;"
	"sed -i 's/strlcpy(d, s, 8);/strscpy(d, s, 8);/' lib/c.c;"
	"c 'lib: c: use strscpy'; fp conflict;"
	"sed -i 's/int v = 1;/int v = 2;/' lib/v.c; c 'lib: v: two'; fp plain;"
	"sed -i 's/strlcpy(d,$/strscpy(d,/' lib/w.c; c 'lib: w: strscpy'; fp wrapped;"
	"sed -i 's/strlcpy(d, /strscpy(d, /' lib/m.c; c 'lib: m: strscpy'; fp macro;"
	"sed -i 's/strlcpy(d,$/strscpy(d,/' lib/u.c; c 'lib: u: strscpy'; fp later;"
	"git checkout -q master;"
	"sed -i 's/x = 1;/x = 2;/' net/up.c; c 'net: up: two'; fp reverse;"
	"sed -i 's/a = 1;/a = 10;/' net/pid.c; c 'net: pid: ten'; fp patchid;"
	"git tag pid;"
	"sed -i 's/b = 2;/b = 20;/' net/pid.c; c 'net: pid: twenty';"
	"printf 'void s(char *name, const char *src)\\n{\\n\\tssize_t ret;\\n\\n"
	"\\tret = strscpy(name, src, 16);\\n}\\n' > lib/s.c;"
	"sed -i 's/int x = 0;/int unrelated = 1;/' lib/c.c;"
	"sed -i 's/int v = 1;/int v = 3;/' lib/v.c;"
	"sed -i 's/int n = 0;/int n = 1;/' lib/w.c;"
	"sed -i 's/void m(void);/void m(int);/' lib/m.c;"
	"sed -i 's/s, 8);/s, 16);/' lib/u.c;"
	"c 'lib: upstream rework'; git tag v1.0;"
	"git checkout -q -b new;"
	"sed -i 's/strcpy(d, s);/strscpy(d, s, 16);/' drivers/one.c;"
	"GIT_AUTHOR_NAME='Ada Author' GIT_AUTHOR_EMAIL=ada@example.org "
	"GIT_AUTHOR_DATE=2020-02-03T04:05:06+0100 c 'drivers: one: use strscpy\n\n"
	"The destination is 16 bytes.\n\n"
	"Signed-off-by: Ada Author <ada@example.org>'; fp applied;"
	"git checkout -q -b shifted v1.0;"
	"sed -i '1i /* one */' drivers/one.c; c 'drivers: one: a comment';"
	"git tag v1.1;"
	"git checkout -q master; git branch -q -D old new shifted";

static int setup(void **state)
{
	char *path;
	int ret;

	(void)state;
	dir = test_tmpdir();
	if (!dir)
		return -1;
	setenv("D", dir, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	test_sh("%s", make_repo);
	git_libgit2_init();
	path = xasprintf("%s/r", dir);
	ret = git_repository_open(&repo, path);
	free(path);
	return ret ? -1 : 0;
}

static int teardown(void **state)
{
	int ret;

	(void)state;
	git_repository_free(repo);
	git_libgit2_shutdown();
	ret = test_tmpdir_remove(dir);
	dir = NULL;
	return ret ? -1 : 0;
}

static git_commit *commit_of(const char *rev)
{
	git_object *obj = NULL;
	git_commit *c = NULL;

	assert_int_equal(git_revparse_single(&obj, repo, rev), 0);
	assert_int_equal(git_object_peel((git_object **)&c, obj, GIT_OBJECT_COMMIT), 0);
	git_object_free(obj);
	return c;
}

/* The fixture patch @name, parsed as "kmig branch" parses series files. */
static void read_patch(struct mbox_patch *p, const char *name)
{
	char *path = xasprintf("%s/%s.patch", dir, name);

	memset(p, 0, sizeof(*p));
	assert_int_equal(mbox_read(p, path), 0);
	free(path);
}

/* apply - branch_apply_one() of patch @name on @tip with the walk from @base. */
static void apply(struct branch_outcome *o, const char *name, const char *tip,
		  const char *base)
{
	git_commit *t = commit_of(tip), *b = commit_of(base);
	struct mbox_patch p;
	char *file = xasprintf("%s.patch", name);

	read_patch(&p, name);
	assert_int_equal(branch_apply_one(o, repo, t, b, &p, file,
					  "Kmig Test", "kmig@example.org"), 0);
	assert_non_null(o->evidence.buf);
	assert_int_equal(o->evidence.buf[o->evidence.len - 1], '\n');
	mbox_patch_clear(&p);
	free(file);
	git_commit_free(t);
	git_commit_free(b);
}

static void assert_evidence(const struct branch_outcome *o, const char *line)
{
	if (!strstr(o->evidence.buf, line))
		fail_msg("evidence lacks \"%s\":\n%s", line, o->evidence.buf);
}

/*
 * expect - patch @name on @tip (walk from @base) gets @status, and its
 * evidence holds @line1 and @line2 (when not NULL).
 */
static void expect(const char *name, const char *tip, const char *base,
		   enum branch_status status, const char *line1, const char *line2)
{
	struct branch_outcome o;

	apply(&o, name, tip, base);
	assert_int_equal(o.status, status);
	assert_evidence(&o, line1);
	if (line2)
		assert_evidence(&o, line2);
	branch_outcome_clear(&o);
}

/* The blob at @path in @c's tree. */
static char *file_at(git_commit *c, const char *path)
{
	git_tree *tree = NULL;
	git_tree_entry *te = NULL;
	git_blob *blob = NULL;
	char *s;

	assert_int_equal(git_commit_tree(&tree, c), 0);
	assert_int_equal(git_tree_entry_bypath(&te, tree, path), 0);
	assert_int_equal(git_blob_lookup(&blob, repo, git_tree_entry_id(te)), 0);
	s = xstrndup(git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	git_tree_entry_free(te);
	git_tree_free(tree);
	return s;
}

static void test_status_names(void **state)
{
	(void)state;
	assert_string_equal(branch_status_names[BRANCH_APPLIED], "applied");
	assert_string_equal(branch_status_names[BRANCH_UPSTREAM], "upstream");
	assert_string_equal(branch_status_names[BRANCH_SUPERSEDED], "superseded");
	assert_string_equal(branch_status_names[BRANCH_CONFLICT], "conflict");
}

static void test_applied(void **state)
{
	struct branch_outcome o, again;
	git_commit *c = NULL, *parent = NULL, *tip = commit_of("v1.0");
	const git_signature *a, *cm;
	git_oid head_before, head_after;
	char *text;

	(void)state;
	assert_int_equal(git_reference_name_to_id(&head_before, repo, "HEAD"), 0);
	apply(&o, "applied", "v1.0", "v1.0");
	assert_int_equal(o.status, BRANCH_APPLIED);
	assert_string_equal(o.evidence.buf, "applies cleanly: 1 file\n");

	assert_int_equal(git_commit_lookup(&c, repo, &o.commit), 0);
	assert_int_equal(git_commit_parentcount(c), 1);
	assert_int_equal(git_commit_parent(&parent, c, 0), 0);
	assert_true(git_oid_equal(git_commit_id(parent), git_commit_id(tip)));
	a = git_commit_author(c);
	cm = git_commit_committer(c);
	assert_string_equal(a->name, "Ada Author");
	assert_string_equal(a->email, "ada@example.org");
	assert_int_equal(a->when.time, 1580699106);	/* 2020-02-03T04:05:06+0100 */
	assert_int_equal(a->when.offset, 60);
	/* committed by the given identity at the author date */
	assert_string_equal(cm->name, "Kmig Test");
	assert_string_equal(cm->email, "kmig@example.org");
	assert_int_equal(cm->when.time, a->when.time);
	assert_int_equal(cm->when.offset, a->when.offset);
	assert_string_equal(git_commit_message(c),
			    "drivers: one: use strscpy\n\n"
			    "The destination is 16 bytes.\n\n"
			    "Signed-off-by: Ada Author <ada@example.org>\n"
			    "Kmig-Patch: applied.patch\n");
	text = file_at(c, "drivers/one.c");
	assert_string_equal(text, "int one(char *d, const char *s)\n{\n"
			    "\tstrscpy(d, s, 16);\n\treturn 0;\n}\n");
	free(text);
	text = file_at(c, "net/up.c");		/* the rest is the tip's */
	assert_string_equal(text, "int up(void)\n{\n\tint x;\n\n\tx = 2;\n\treturn x;\n}\n");
	free(text);

	/* the same patch on the same tip: the same commit */
	apply(&again, "applied", "v1.0", "v1.0");
	assert_int_equal(again.status, BRANCH_APPLIED);
	assert_true(git_oid_equal(&again.commit, &o.commit));
	/* no reference moved */
	assert_int_equal(git_reference_name_to_id(&head_after, repo, "HEAD"), 0);
	assert_true(git_oid_equal(&head_before, &head_after));

	branch_outcome_clear(&again);
	branch_outcome_clear(&o);
	assert_null(o.evidence.buf);
	git_commit_free(parent);
	git_commit_free(c);
	git_commit_free(tip);
}

static void test_applied_with_offsets(void **state)
{
	struct branch_outcome o;
	git_commit *c = NULL;
	char *text;

	(void)state;
	apply(&o, "applied", "v1.1", "v1.1");
	assert_int_equal(o.status, BRANCH_APPLIED);
	assert_int_equal(strncmp(o.evidence.buf, "applies with offsets (", 22), 0);
	assert_int_equal(git_commit_lookup(&c, repo, &o.commit), 0);
	text = file_at(c, "drivers/one.c");
	assert_string_equal(text, "/* one */\nint one(char *d, const char *s)\n{\n"
			    "\tstrscpy(d, s, 16);\n\treturn 0;\n}\n");
	free(text);
	git_commit_free(c);
	branch_outcome_clear(&o);
}

static void test_upstream_reverse_applies(void **state)
{
	(void)state;
	expect("reverse", "v1.0", "v1.0", BRANCH_UPSTREAM, "does not apply: ",
	       "\nthe patch reverse-applies: the tree already has this change\n");
}

static void test_upstream_patch_id(void **state)
{
	struct branch_outcome o;
	git_commit *pid = commit_of("pid");
	char *line;

	(void)state;
	apply(&o, "patchid", "v1.0", "v1.0");
	assert_int_equal(o.status, BRANCH_UPSTREAM);
	assert_null(strstr(o.evidence.buf, "reverse-applies"));
	line = xasprintf("\npatch-id matches commit %s reachable from the base\n",
			 git_oid_tostr_s(git_commit_id(pid)));
	assert_evidence(&o, line);
	free(line);
	branch_outcome_clear(&o);

	/* the walk starts at the base: from v0.9 the commit is not reachable */
	apply(&o, "patchid", "v1.0", "v0.9");
	assert_int_equal(o.status, BRANCH_CONFLICT);
	assert_null(strstr(o.evidence.buf, "patch-id matches"));
	branch_outcome_clear(&o);
	git_commit_free(pid);
}

static void test_superseded(void **state)
{
	(void)state;
	expect("superseded", "v1.0", "v1.0", BRANCH_SUPERSEDED,
	       "  lib/s.c hunk 1/1 @@ -1,4 +1,4 @@: pre-image not found; "
	       "removes strlcpy \"strlcpy(name, src, 16);\" (absent)\n",
	       "\nevery tracked use the patch removes (1) is absent from the tree\n");
	/* on v0.9 it applies */
	expect("superseded", "v0.9", "v0.9", BRANCH_APPLIED,
	       "applies cleanly: 1 file\n", NULL);
}

static void test_conflict_use_present(void **state)
{
	(void)state;
	expect("conflict", "v1.0", "v1.0", BRANCH_CONFLICT,
	       "  lib/c.c hunk 1/1 @@ -1,5 +1,5 @@: pre-image not found; "
	       "removes strlcpy \"strlcpy(d, s, 8);\" (present)\n",
	       "\n1 of the 1 tracked uses the patch removes are still present\n");
}

/*
 * A wrapped call whose ')' is beyond the hunk: its first line is all the
 * hunk has of it, and the tree's joined text still counts as that use.
 */
static void test_conflict_wrapped_use_present(void **state)
{
	(void)state;
	expect("wrapped", "v1.0", "v1.0", BRANCH_CONFLICT,
	       "  lib/w.c hunk 1/1 @@ -1,7 +1,7 @@: pre-image not found; "
	       "removes strlcpy \"strlcpy(d,\" (present)\n",
	       "\n1 of the 1 tracked uses the patch removes are still present\n");
}

/*
 * The same in a #define body (the hunk's line ends in a backslash), and a
 * wrapped call upstream changed on a later line: its first line is still
 * in the tree, and so is the use.
 */
static void test_conflict_wrapped_use_changed(void **state)
{
	(void)state;
	expect("macro", "v1.0", "v1.0", BRANCH_CONFLICT,
	       "  lib/m.c hunk 1/1 @@ -1,5 +1,5 @@: pre-image not found; "
	       "removes strlcpy \"#define CP(d, s) strlcpy(d, \\\" (present)\n",
	       "\n1 of the 1 tracked uses the patch removes are still present\n");
	expect("later", "v1.0", "v1.0", BRANCH_CONFLICT,
	       "  lib/u.c hunk 1/1 @@ -1,5 +1,5 @@: pre-image not found; "
	       "removes strlcpy \"strlcpy(d, s, 8);\" (present)\n",
	       "\n1 of the 1 tracked uses the patch removes are still present\n");
}

static void test_conflict_no_tracked_use(void **state)
{
	(void)state;
	expect("plain", "v1.0", "v1.0", BRANCH_CONFLICT,
	       "  lib/v.c hunk 1/1 @@ -1,5 +1,5 @@: pre-image not found; "
	       "removes no tracked use\n",
	       "\nthe patch removes no tracked use, so it cannot be superseded\n");
}

static void test_trailers(void **state)
{
	char *m, *v, *rest;

	(void)state;
	/* a trailer block of two lines: added to it */
	m = branch_message_add_trailer("s: x\n\nbody\n\nAcked-by: A <a@b>\n"
				       "Signed-off-by: B <b@c>\n\n", "Kmig-Patch", "p");
	assert_string_equal(m, "s: x\n\nbody\n\nAcked-by: A <a@b>\n"
			    "Signed-off-by: B <b@c>\nKmig-Patch: p\n");
	/* the key is case-insensitive; the other trailers stay */
	v = branch_message_trailer(m, "kmig-patch", &rest);
	assert_string_equal(v, "p");
	assert_string_equal(rest, "s: x\n\nbody\n\nAcked-by: A <a@b>\n"
			    "Signed-off-by: B <b@c>\n");
	free(v);
	free(rest);
	free(m);
	/* the last of two is the value */
	v = branch_message_trailer("s\n\nK: 1\nK: 2\n", "K", NULL);
	assert_string_equal(v, "2");
	free(v);
}

static void test_identity(void **state)
{
	char *name, *email;

	char dir[] = "/tmp/kmig-identity-XXXXXX", *cfg;
	FILE *f;

	(void)state;
	/* git's configuration from an empty directory only */
	assert_non_null(mkdtemp(dir));
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_GLOBAL, dir);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_XDG, dir);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_SYSTEM, dir);
	unsetenv("KMIG_IDENTITY");
	kmig_identity(NULL, &name, &email);
	assert_string_equal(name, "kmig");
	assert_string_equal(email, "kmig@localhost");
	free(name);
	free(email);

	/* git's user.name and user.email */
	cfg = xasprintf("%s/.gitconfig", dir);
	f = fopen(cfg, "w");
	assert_non_null(f);
	fputs("[user]\n\tname = Git User\n\temail = git@example.org\n", f);
	fclose(f);
	kmig_identity(NULL, &name, &email);
	assert_string_equal(name, "Git User");
	assert_string_equal(email, "git@example.org");
	free(name);
	free(email);
	unlink(cfg);
	free(cfg);
	rmdir(dir);

	setenv("KMIG_IDENTITY", "Ada Author  <ada@example.org>", 1);
	kmig_identity(NULL, &name, &email);
	assert_string_equal(name, "Ada Author");
	assert_string_equal(email, "ada@example.org");
	free(name);
	free(email);

	setenv("KMIG_IDENTITY", "<ada@example.org>", 1);	/* no name */
	kmig_identity(NULL, &name, &email);
	assert_string_equal(name, "kmig");
	assert_string_equal(email, "kmig@localhost");
	free(name);
	free(email);
	unsetenv("KMIG_IDENTITY");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_names),
		cmocka_unit_test(test_applied),
		cmocka_unit_test(test_applied_with_offsets),
		cmocka_unit_test(test_upstream_reverse_applies),
		cmocka_unit_test(test_upstream_patch_id),
		cmocka_unit_test(test_superseded),
		cmocka_unit_test(test_conflict_use_present),
		cmocka_unit_test(test_conflict_wrapped_use_present),
		cmocka_unit_test(test_conflict_wrapped_use_changed),
		cmocka_unit_test(test_conflict_no_tracked_use),
		cmocka_unit_test(test_trailers),
		cmocka_unit_test(test_identity),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
