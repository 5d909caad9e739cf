// SPDX-License-Identifier: GPL-2.0
/*
 * test-scan.c - the lexing pool (scan.h) over two batches, the second
 * submitted while the first is lexed, on two repositories: one whose
 * second release's blobs are deltas against the first's, one whose first
 * release's are deltas against the second's (git packs a smaller version
 * as a delta of the larger one).  Blobs lexed beside their delta bases
 * must give what lexing each release alone gives, and a corrupt delta
 * among them must fail its own batch, not hang or touch the other.
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

#include "facts.h"
#include "scan.h"
#include "util.h"
#include "unit-util.h"

static char *dir;

/*
 * Two repositories of two commits of 1,200 C files, 5-6 KB each, every
 * one with calls and rule uses.  In "r" the second commit drops every
 * fifth function and adds a BUG_ON (smaller: a delta of the first); in
 * "back" the first commit is that one (the first a delta of the second).
 */
static const char make_repo[] =
	"set -e; cd \"$D\";"
	"gen() { awk -v drop=$1 'BEGIN { for (f = 1; f <= 1200; f++) {"
	"  out = sprintf(\"f%d.c\", f);"
	"  printf \"/* file %d */\\nstatic int helper_%d(int x)\\n{\\n\\treturn x + %d;\\n}\\n\", f, f, f > out;"
	"  for (i = 1; i <= 40; i++) {"
	"    if (drop && i % 5 == 0) continue;"
	"    printf \"int fn_%d_%d(char *d, const char *s)\\n{\\n\", f, i >> out;"
	"    if (drop && i == 7) printf \"\\tBUG_ON(!d);\\n\" >> out;"
	"    printf \"\\tstrcpy(d, s);\\n\\treturn helper_%d(%d);\\n}\\n\", f, i >> out;"
	"  }"
	"  close(out);"
	"} }'; };"
	"repo() { git init -q -b main $1; cd $1;"
	"  git config user.name T; git config user.email t@example.org;"
	"  gen $2; git add -A; git commit -q -m one;"
	"  gen $3; git add -A; git commit -q -m two;"
	"  git repack -q -a -d -f --window=50 --depth=50; cd ..; };"
	"repo r 0 1; repo back 1 0";

static int setup(void **state)
{
	char *cmd;
	int ret;

	(void)state;
	dir = test_tmpdir();
	if (!dir)
		return -1;
	cmd = xasprintf("D=%s; %s", dir, make_repo);
	ret = system(cmd);
	free(cmd);
	git_libgit2_init();
	return ret ? -1 : 0;
}

static int teardown(void **state)
{
	int ret;

	(void)state;
	ret = test_tmpdir_remove(dir);
	dir = NULL;
	git_libgit2_shutdown();
	return ret ? -1 : 0;
}

/* A release's blobs: the ids of the files of commit @rev. */
struct release {
	git_oid *oids;
	size_t n;
	struct site_list *results;
	uint64_t *bytes;
	struct facts_z *facts;
};

static void release_load(struct release *r, const char *repo, const char *rev)
{
	char *cmd = xasprintf("cd %s/%s && git ls-tree -r %s | awk '{print $3}'",
			      dir, repo, rev);
	FILE *f = popen(cmd, "r");
	char line[128];
	size_t alloc = 0;

	assert_non_null(f);
	memset(r, 0, sizeof(*r));
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		ALLOC_GROW(r->oids, r->n + 1, alloc);
		assert_int_equal(git_oid_fromstr(&r->oids[r->n++], line), 0);
	}
	assert_int_equal(pclose(f), 0);
	free(cmd);
	assert_int_equal(r->n, 1200);
	r->results = xcalloc(r->n, sizeof(*r->results));
	r->bytes = xcalloc(r->n, sizeof(*r->bytes));
	r->facts = xcalloc(r->n, sizeof(*r->facts));
}

static void release_free(struct release *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		site_list_clear(&r->results[i]);
		free(r->results[i].funcs);
		facts_z_clear(&r->facts[i]);
	}
	free(r->results);
	free(r->bytes);
	free(r->facts);
	free(r->oids);
}

static char *repo_dir(const char *repo)
{
	return xasprintf("%s/%s/.git/", dir, repo);	/* as git_repository_path() */
}

/*
 * @got (lexed by the pool, its facts packed) against @want (each
 * release lexed alone, its facts text): the same sites, sizes and facts.
 */
static void release_equal(const struct release *got, const struct release *want)
{
	struct facts_packer *pk = facts_packer_new();
	struct sbuf text = SBUF_INIT;
	size_t i, j;

	for (i = 0; i < got->n; i++) {
		const struct site_list *g = &got->results[i];
		const struct site_list *w = &want->results[i];

		assert_int_equal(got->bytes[i], want->bytes[i]);
		assert_int_equal(g->n, w->n);
		for (j = 0; j < g->n; j++) {
			assert_int_equal(g->v[j].rule, w->v[j].rule);
			assert_int_equal(g->v[j].line, w->v[j].line);
			assert_string_equal(g->v[j].text, w->v[j].text);
		}
		assert_null(g->funcs);
		assert_non_null(w->funcs);
		assert_int_equal(facts_unpack(pk, got->facts[i].data,
					      got->facts[i].zlen,
					      got->facts[i].len, &text), 0);
		assert_string_equal(text.buf, w->funcs);
	}
	sbuf_release(&text);
	facts_packer_free(pk);
}

/* Both releases through one pool, the second submitted at once. */
static void lex_both(const char *repo, struct release *one,
		     struct release *two, int *ret_one, int *ret_two,
		     size_t *beside)
{
	struct scan_pool *pool;
	struct scan_batch *b1, *b2;
	char *path = repo_dir(repo);

	assert_int_equal(scan_pool_start(&pool, path, 2), 0);
	b1 = scan_pool_submit(pool, one->oids, one->n, one->results,
			      one->bytes, one->facts);
	b2 = scan_pool_submit(pool, two->oids, two->n, two->results,
			      two->bytes, two->facts);
	*ret_one = scan_pool_wait(pool, b1, NULL, NULL);
	*ret_two = scan_pool_wait(pool, b2, NULL, beside);
	scan_pool_stop(pool);
	free(path);
}

/* Both releases of @repo through one pool, and each alone: the same. */
static void beside(const char *repo, int drop_first)
{
	struct release one, two, one_alone, two_alone;
	char *path = repo_dir(repo);
	size_t beside = 0;
	int r1, r2;

	release_load(&one, repo, "HEAD~");
	release_load(&two, repo, "HEAD");
	release_load(&one_alone, repo, "HEAD~");
	release_load(&two_alone, repo, "HEAD");
	lex_both(repo, &one, &two, &r1, &r2, &beside);
	assert_int_equal(r1, 0);
	assert_int_equal(r2, 0);
	/* most of the second release followed its bases */
	assert_true(beside > 0);
	assert_true(beside <= two.n);

	assert_int_equal(scan_lex_blobs(path, one_alone.oids, one_alone.n, 2,
					one_alone.results, one_alone.bytes,
					NULL), 0);
	assert_int_equal(scan_lex_blobs(path, two_alone.oids, two_alone.n, 2,
					two_alone.results, two_alone.bytes,
					NULL), 0);
	release_equal(&one, &one_alone);
	release_equal(&two, &two_alone);
	/* the BUG_ON is in the right release: each blob, not its base */
	assert_int_equal(one_alone.results[0].n, drop_first ? 32 + 1 : 40);
	assert_int_equal(two_alone.results[0].n, drop_first ? 40 : 32 + 1);

	release_free(&one);
	release_free(&two);
	release_free(&one_alone);
	release_free(&two_alone);
	free(path);
}

/* kmig import's packs: a release's blob a delta of the one before it */
static void test_beside(void **state)
{
	(void)state;
	beside("r", 0);
}

/* git's packs, mostly: the older blob a delta of the newer */
static void test_beside_back(void **state)
{
	(void)state;
	beside("back", 1);
}

/*
 * A byte flipped in the data of one of the second release's deltas whose
 * base is a blob of the first: the second batch fails and says so, the
 * first is lexed whole.
 */
static void test_beside_corrupt(void **state)
{
	struct release one, two;
	size_t beside = 0;
	int r1, r2;

	(void)state;
	/* verify-pack: id type size size-in-pack offset depth base */
	test_sh("cd %s/r && git ls-tree -r HEAD~ | awk '{print $3}' > one && "
		"git ls-tree -r HEAD | awk '{print $3}' > two && "
		"git verify-pack -v .git/objects/pack/*.idx | "
		"awk 'NR == FNR { one[$1] = 1; next } "
		"FILENAME == \"two\" { two[$1] = 1; next } "
		"NF == 7 && ($1 in two) && ($7 in one) && $4 > 40 "
		"{ print $5 + 20; exit }' one two - > off && test -s off && "
		"chmod u+w .git/objects/pack/*.pack && "
		"printf '\\377\\377\\377\\377' | dd of=$(ls .git/objects/pack/*.pack) "
		"bs=1 seek=$(cat off) conv=notrunc 2>/dev/null", dir);
	release_load(&one, "r", "HEAD~");
	release_load(&two, "r", "HEAD");
	lex_both("r", &one, &two, &r1, &r2, &beside);
	assert_int_equal(r1, 0);
	assert_true(r2 < 0);
	assert_non_null(strstr(kmig_errmsg(), "corrupt pack"));
	release_free(&one);
	release_free(&two);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_beside),
		cmocka_unit_test(test_beside_back),
		cmocka_unit_test(test_beside_corrupt),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
