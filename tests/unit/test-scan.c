// SPDX-License-Identifier: GPL-2.0
/*
 * test-scan.c - the lexing pool (scan.h) over three batches, each
 * submitted while the one before is lexed, on two repositories: one whose
 * releases' blobs are deltas against the release before's, one whose are
 * deltas against the release after's (git packs a smaller version as a
 * delta of the larger one).  Blobs lexed beside their delta bases
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
 * Two repositories of three commits of 1,200 C files, 4-6 KB each, every
 * one with calls and rule uses.  "gen 1" drops every fifth function and
 * adds a BUG_ON, "gen 2" every seventh as well.  In "r" the commits get
 * smaller (each a delta of the one before); in "back" larger.
 */
static const char make_repo[] =
	"set -e; cd \"$D\";"
	"gen() { awk -v drop=$1 'BEGIN { for (f = 1; f <= 1200; f++) {"
	"  out = sprintf(\"f%d.c\", f);"
	"  printf \"/* file %d */\\nstatic int helper_%d(int x)\\n{\\n\\treturn x + %d;\\n}\\n\", f, f, f > out;"
	"  for (i = 1; i <= 40; i++) {"
	"    if (drop && i % 5 == 0) continue;"
	"    if (drop > 1 && i % 7 == 0) continue;"
	"    printf \"int fn_%d_%d(char *d, const char *s)\\n{\\n\", f, i >> out;"
	"    if (drop && i == 3) printf \"\\tBUG_ON(!d);\\n\" >> out;"
	"    printf \"\\tstrcpy(d, s);\\n\\treturn helper_%d(%d);\\n}\\n\", f, i >> out;"
	"  }"
	"  close(out);"
	"} }'; };"
	"repo() { git init -q -b main $1; cd $1;"
	"  git config user.name T; git config user.email t@example.org;"
	"  gen $2; git add -A; git commit -q -m one;"
	"  gen $3; git add -A; git commit -q -m two;"
	"  gen $4; git add -A; git commit -q -m three;"
	"  git repack -q -a -d -f --window=50 --depth=50; cd ..; };"
	"repo r 0 1 2; repo back 2 1 0";

static int setup(void **state)
{
	(void)state;
	return test_git_fixture(&dir, make_repo);
}

static int teardown(void **state)
{
	(void)state;
	return test_git_fixture_remove(&dir);
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

/*
 * @n releases through one pool of @jobs, each submitted at once; with
 * @hold all of them before the workers take any (scan_pool_hold()), else
 * racing them as the scan does.
 */
static void lex_all(const char *repo, struct release *rel, int n, int jobs,
		    bool hold, int *ret, size_t *beside)
{
	struct scan_pool *pool;
	struct scan_batch *b[3];
	char *path = repo_dir(repo);
	int i;

	assert_int_equal(scan_pool_start(&pool, path, jobs), 0);
	scan_pool_hold(pool, hold);
	for (i = 0; i < n; i++)
		b[i] = scan_pool_submit(pool, rel[i].oids, rel[i].n,
					rel[i].results, rel[i].bytes,
					rel[i].facts);
	scan_pool_hold(pool, false);
	for (i = 0; i < n; i++)
		ret[i] = scan_pool_wait(pool, b[i], NULL, &beside[i]);
	scan_pool_stop(pool);
	free(path);
}

static const char *const revs[3] = { "HEAD~2", "HEAD~", "HEAD" };

/*
 * The three releases of @repo through one pool, and each alone: the
 * same.  @sites: f1.c's sites in each.
 */
static void beside(const char *repo, const size_t sites[3])
{
	struct release rel[3], alone[3];
	char *path = repo_dir(repo);
	size_t besides[3];
	int ret[3], i;

	for (i = 0; i < 3; i++) {
		release_load(&rel[i], repo, revs[i]);
		release_load(&alone[i], repo, revs[i]);
	}
	/* held: a batch lexed whole before the next is submitted follows none */
	lex_all(repo, rel, 3, 2, true, ret, besides);
	assert_int_equal(besides[0], 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(ret[i], 0);
		assert_true(besides[i] <= rel[i].n);
	}
	/*
	 * the later releases followed their bases, or were their bases; the
	 * third only from those of the second lexed in their own turn
	 */
	assert_true(besides[1] > 0);
	assert_true(besides[2] > 0 || besides[1] == rel[1].n);

	for (i = 0; i < 3; i++) {
		assert_int_equal(scan_lex_blobs(path, alone[i].oids,
						alone[i].n, 2, alone[i].results,
						alone[i].bytes, NULL), 0);
		release_equal(&rel[i], &alone[i]);
		/* the right blob, not its base or its delta */
		assert_int_equal(alone[i].results[0].n, sites[i]);
		release_free(&rel[i]);
		release_free(&alone[i]);
	}
	free(path);
}

/* kmig import's packs: a release's blob a delta of the one before it */
static void test_beside(void **state)
{
	static const size_t sites[3] = { 40, 32 + 1, 28 + 1 };

	(void)state;
	beside("r", sites);
}

/* git's packs, mostly: the older blob a delta of the newer */
static void test_beside_back(void **state)
{
	static const size_t sites[3] = { 28 + 1, 32 + 1, 40 };

	(void)state;
	beside("back", sites);
}

/*
 * A small batch after a large one, with one worker: it lexes every blob
 * of the small one beside its base before it takes the small one's only
 * run, whose blobs are then all claimed; taking it finishes the batch.
 */
static void test_beside_all(void **state)
{
	struct release rel[2], alone;
	char *path = repo_dir("r");
	size_t besides[2];
	int ret[2];

	(void)state;
	release_load(&rel[0], "r", "HEAD~2");
	release_load(&rel[1], "r", "HEAD~");
	release_load(&alone, "r", "HEAD~");
	rel[1].n = alone.n = 20;
	/*
	 * held: else the worker may lex the first batch's early blobs before
	 * the second is submitted, and follow fewer (14 of 20, once, under
	 * ASan in CI)
	 */
	lex_all("r", rel, 2, 1, true, ret, besides);
	assert_int_equal(ret[0], 0);
	assert_int_equal(ret[1], 0);
	assert_int_equal(besides[1], 20);
	assert_int_equal(scan_lex_blobs(path, alone.oids, alone.n, 1,
					alone.results, alone.bytes, NULL), 0);
	release_equal(&rel[1], &alone);
	release_free(&rel[0]);
	release_free(&rel[1]);
	release_free(&alone);
	free(path);
}

/*
 * A byte flipped in the data of one of the second release's deltas whose
 * base is a blob of the first: the second batch fails and says so, the
 * first is lexed whole.
 */
static void test_beside_corrupt(void **state)
{
	struct release rel[2];
	size_t besides[2];
	int ret[2];

	(void)state;
	/* verify-pack: id type size size-in-pack offset depth base */
	test_sh("cd %s/r && git ls-tree -r HEAD~ | awk '{print $3}' > one && "
		"git ls-tree -r HEAD | awk '{print $3}' > two && "
		"git verify-pack -v .git/objects/pack/*.idx | "
		"awk 'NR == FNR { one[$1] = 1; next } "
		"FILENAME == \"two\" { two[$1] = 1; next } "
		"NF == 7 && ($1 in two) && ($7 in one) && $4 > 16 "
		"{ print $5 + 8; exit }' one two - > off && test -s off && "
		"chmod u+w .git/objects/pack/*.pack && "
		"printf '\\377\\377\\377\\377' | dd of=$(ls .git/objects/pack/*.pack) "
		"bs=1 seek=$(cat off) conv=notrunc 2>/dev/null", dir);
	release_load(&rel[0], "r", "HEAD~");
	release_load(&rel[1], "r", "HEAD");
	lex_all("r", rel, 2, 2, false, ret, besides);
	assert_int_equal(ret[0], 0);
	assert_true(ret[1] < 0);
	assert_non_null(strstr(kmig_errmsg(), "corrupt pack"));
	release_free(&rel[0]);
	release_free(&rel[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_beside),
		cmocka_unit_test(test_beside_back),
		cmocka_unit_test(test_beside_all),
		cmocka_unit_test(test_beside_corrupt),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
