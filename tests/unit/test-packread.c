// SPDX-License-Identifier: GPL-2.0
/*
 * test-packread.c - packread against libgit2 on packs git itself wrote:
 * every object of a repository whose files have many versions (long delta
 * chains) and of sizes from a few bytes to over two megabytes (the
 * reader's kept buffers are of many sizes, the largest not kept, one
 * mapped on its own: big_alloc()), packed with
 * offset deltas and with reference deltas, read with a cache too small to
 * hold a base and with a large one; then a pack with
 * a flipped byte, which must be an error, not a crash or wrong data.
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

#include "packread.h"
#include "util.h"
#include "unit-util.h"

static char *dir;

/*
 * A repository of 12 files, each in 40 versions, one commit each, and 4
 * larger ones (5 KB to 2.5 MB) in 10 versions.
 */
static const char make_repo[] =
	"set -e; cd \"$D\"; git init -q -b main r; cd r;"
	"git config user.name T; git config user.email t@example.org;"
	"for v in $(seq 1 40); do"
	"  for f in $(seq 1 12); do"
	"    { seq 1 $((f * 30)); echo \"version $v of $f\";"
	"      seq $v $((v + f * 20)); } > f$f.c;"
	"  done;"
	"  if [ $((v % 4)) = 0 ]; then"
	"    for n in 1000 5000 60000 280000; do"
	"      { seq 1 $n; echo \"version $v\"; seq $v $((v + n / 3)); } > g$n.c;"
	"    done;"
	"  fi;"
	"  printf 'binary\\0%s' $v > b.bin;"
	"  git add -A; git commit -q -m \"v$v\";"
	"done";

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

static void repack(const char *how)
{
	char *cmd = xasprintf("cd %s/r && git %s repack -q -a -d -f "
			      "--window=50 --depth=50", dir, how);

	assert_int_equal(system(cmd), 0);
	free(cmd);
}

struct cmp_ctx {
	git_odb *odb;
	struct packset *ps;
	struct pack_reader *rd;
	struct pack_reader *peek;	/* for pack_reader_base() */
	size_t n, chains;
	bool tiny;		/* a cache of one byte: only the last read kept */
	uint64_t last;		/* the position read last, or PACK_POS_NONE */
	git_oid prev;		/* the object compared before, once n > 0 */
};

/*
 * The delta bases the last read went through, from @pos: each the base
 * of the one before, down to a whole object or one the reader had cached.
 */
static void bases_chain(struct cmp_ctx *c, uint64_t pos)
{
	uint64_t v[64], base;
	size_t n = pack_reader_bases(c->rd, v, 64), i;

	for (i = 0; i < n; i++) {
		assert_int_equal(pack_reader_base(c->peek, pos, &base), 0);
		assert_true(base == v[i]);
		pos = v[i];
	}
	if (n && n < 64 && c->tiny) {
		/* the bottom: whole, or the one object the cache kept */
		assert_int_equal(pack_reader_base(c->peek, pos, &base), 0);
		assert_true(base == PACK_POS_NONE || pos == c->last);
	}
	c->chains += n > 0;
}

/* The object at @pos read, as libgit2 reads @want. */
static void read_equal(struct cmp_ctx *c, uint64_t pos, git_odb_object *want)
{
	struct pack_object got;

	assert_int_equal(pack_reader_read(c->rd, pos, &got), 0);
	bases_chain(c, pos);
	c->last = pos;
	assert_int_equal(got.type, git_odb_object_type(want));
	assert_int_equal(got.len, git_odb_object_size(want));
	assert_memory_equal(got.data, git_odb_object_data(want), got.len);
	assert_int_equal(got.data[got.len], '\0');
}

static int compare_one(const git_oid *oid, void *payload)
{
	struct cmp_ctx *c = payload;
	git_odb_object *want = NULL, *prev = NULL;
	uint64_t pos, size, prev_pos;

	assert_int_equal(git_odb_read(&want, c->odb, oid), 0);
	if (c->n % 7 == 0)	/* the index's pages dropped: found all the same */
		packset_drop_pages(c->ps);
	assert_int_equal(packset_find(c->ps, oid, &pos), 0);
	/* its size first, whole object or delta, cached or not */
	assert_int_equal(pack_reader_size(c->rd, pos, &size), 0);
	assert_int_equal(size, git_odb_object_size(want));
	if (c->n && c->n % 3 == 0) {
		/* another object read between this one's size and itself */
		assert_int_equal(git_odb_read(&prev, c->odb, &c->prev), 0);
		assert_int_equal(packset_find(c->ps, &c->prev, &prev_pos), 0);
		read_equal(c, prev_pos, prev);
		git_odb_object_free(prev);
	}
	read_equal(c, pos, want);
	git_odb_object_free(want);
	git_oid_cpy(&c->prev, oid);
	c->n++;
	return 0;
}

/* Resident kB of the pack reader's index mappings (private; libgit2's are shared). */
static long idx_rss_kb(void)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[4096];
	bool ours = false;
	unsigned long lo, hi;
	long kb, sum = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		if (sscanf(line, "Rss: %ld kB", &kb) == 1) {
			if (ours)
				sum += kb;
			continue;
		}
		if (sscanf(line, "%lx-%lx ", &lo, &hi) != 2)
			continue;	/* another field */
		ours = strstr(line, " r--p ") && len > 5 &&
		       !strcmp(line + len - 5, ".idx\n");
	}
	fclose(f);
	return sum;
}

/* Every object of the repository, read both ways, @cache bytes cached. */
static size_t compare_all(size_t cache)
{
	git_repository *repo = NULL;
	struct cmp_ctx c = { 0 };
	char *path = xasprintf("%s/r", dir);

	assert_int_equal(git_repository_open(&repo, path), 0);
	assert_int_equal(git_repository_odb(&c.odb, repo), 0);
	assert_int_equal(packset_open(&c.ps, git_repository_path(repo)), 0);
	assert_int_equal(packset_count(c.ps), 1);
	c.rd = pack_reader_new(c.ps, cache);
	assert_non_null(c.rd);
	c.peek = pack_reader_new(c.ps, 0);
	assert_non_null(c.peek);
	c.tiny = cache <= 1;
	c.last = PACK_POS_NONE;
	assert_int_equal(git_odb_foreach(c.odb, compare_one, &c), 0);
	/* the lookups left index pages resident; dropped, none are */
	assert_true(idx_rss_kb() > 0);
	packset_drop_pages(c.ps);
	assert_int_equal(idx_rss_kb(), 0);
	/* deltas were read through their bases */
	assert_true(c.chains > 100);
	pack_reader_free(c.peek);
	pack_reader_free(c.rd);
	packset_free(c.ps);
	git_odb_free(c.odb);
	git_repository_free(repo);
	free(path);
	return c.n;
}

/* How many entries of the pack are deltas. */
static int count_deltas(void)
{
	char *cmd = xasprintf("cd %s/r && git verify-pack -v "
			      ".git/objects/pack/*.idx | awk '$6 ~ /^[0-9]+$/ "
			      "&& NF >= 7' | wc -l", dir);
	FILE *f = popen(cmd, "r");
	int n = -1;

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &n), 1);
	pclose(f);
	free(cmd);
	return n;
}

static void test_ofs_deltas(void **state)
{
	(void)state;
	repack("");
	assert_true(count_deltas() > 300);	/* chains, not whole objects */
	/* one byte of cache: every delta chain resolved from its bottom */
	assert_true(compare_all(1) > 480 + 40 * 2);
	assert_true(compare_all((size_t)64 << 20) > 480 + 40 * 2);
}

static void test_ref_deltas(void **state)
{
	(void)state;
	repack("-c repack.useDeltaBaseOffset=false");
	assert_true(count_deltas() > 300);
	assert_true(compare_all(1) > 480 + 40 * 2);
	assert_true(compare_all((size_t)64 << 20) > 480 + 40 * 2);
}

static void test_missing(void **state)
{
	git_oid oid;
	struct packset *ps = NULL;
	uint64_t pos;
	char *path = xasprintf("%s/r/.git/", dir);

	(void)state;
	assert_int_equal(packset_open(&ps, path), 0);
	memset(&oid, 0xab, sizeof(oid));
	assert_int_equal(packset_find(ps, &oid, &pos), KMIG_ENOTFOUND);
	packset_free(ps);
	free(path);

	/* no objects/pack at all: an empty set, not an error */
	path = xasprintf("%s/", dir);
	assert_int_equal(packset_open(&ps, path), 0);
	assert_int_equal(packset_count(ps), 0);
	assert_int_equal(packset_find(ps, &oid, &pos), KMIG_ENOTFOUND);
	packset_free(ps);
	free(path);
}

struct truth {
	git_oid *oid;
	git_odb_object **obj;
	size_t n, alloc;
};

static int remember(const git_oid *oid, void *payload)
{
	struct truth *t = payload;
	git_repository *repo = NULL;
	git_odb *odb = NULL;
	char *path = xasprintf("%s/r", dir);

	assert_int_equal(git_repository_open(&repo, path), 0);
	assert_int_equal(git_repository_odb(&odb, repo), 0);
	if (t->n == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 256;
		t->oid = xrealloc(t->oid, t->alloc * sizeof(*t->oid));
		t->obj = xrealloc(t->obj, t->alloc * sizeof(*t->obj));
	}
	git_oid_cpy(&t->oid[t->n], oid);
	assert_int_equal(git_odb_read(&t->obj[t->n], odb, oid), 0);
	t->n++;
	git_odb_free(odb);
	git_repository_free(repo);
	free(path);
	return 0;
}

static void flip_byte(const char *pack, int k)
{
	FILE *f = fopen(pack, "r+b");
	long size, at;
	int b;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	at = 12 + (size - 32) * (k + 1) / 26;
	assert_int_equal(fseek(f, at, SEEK_SET), 0);
	b = fgetc(f);
	assert_int_equal(fseek(f, at, SEEK_SET), 0);
	assert_int_not_equal(fputc(b ^ 0x5a, f), EOF);
	assert_int_equal(fclose(f), 0);
}

/* Flip bytes all over the pack's data: errors, never wrong content. */
static void test_corrupt(void **state)
{
	struct truth t = { 0 };
	git_repository *repo = NULL;
	git_odb *odb = NULL;
	char *path = xasprintf("%s/r", dir), *repo_path, *cmd, pack[4096];
	FILE *l;
	size_t i;
	int errors = 0, k;

	(void)state;
	repack("");
	assert_int_equal(git_repository_open(&repo, path), 0);
	assert_int_equal(git_repository_odb(&odb, repo), 0);
	assert_int_equal(git_odb_foreach(odb, remember, &t), 0);
	repo_path = xstrdup(git_repository_path(repo));
	git_odb_free(odb);
	git_repository_free(repo);

	cmd = xasprintf("ls %s/r/.git/objects/pack/*.pack", dir);
	l = popen(cmd, "r");
	assert_non_null(l);
	assert_non_null(fgets(pack, sizeof(pack), l));
	pclose(l);
	free(cmd);
	pack[strcspn(pack, "\n")] = '\0';
	cmd = xasprintf("cp %s %s.good", pack, pack);
	assert_int_equal(system(cmd), 0);
	free(cmd);

	for (k = 0; k < 24; k++) {
		struct packset *ps = NULL;
		struct pack_reader *rd;

		flip_byte(pack, k);
		assert_int_equal(packset_open(&ps, repo_path), 0);
		rd = pack_reader_new(ps, (size_t)1 << 20);
		assert_non_null(rd);
		for (i = 0; i < t.n; i++) {
			struct pack_object got;
			uint64_t pos;

			assert_int_equal(packset_find(ps, &t.oid[i], &pos), 0);
			if (pack_reader_read(rd, pos, &got)) {
				errors++;
				assert_non_null(strstr(kmig_errmsg(), "pack"));
				continue;
			}
			/* what it returns is the true object */
			assert_int_equal(got.type, git_odb_object_type(t.obj[i]));
			assert_int_equal(got.len, git_odb_object_size(t.obj[i]));
			assert_memory_equal(got.data,
					    git_odb_object_data(t.obj[i]), got.len);
		}
		pack_reader_free(rd);
		packset_free(ps);
		cmd = xasprintf("cp %s.good %s", pack, pack);
		assert_int_equal(system(cmd), 0);
		free(cmd);
	}
	/* nearly every flip lands in some object's zlib stream */
	assert_true(errors >= 20);
	for (i = 0; i < t.n; i++)
		git_odb_object_free(t.obj[i]);
	free(t.obj);
	free(t.oid);
	free(repo_path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ofs_deltas),
		cmocka_unit_test(test_ref_deltas),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_corrupt),
	};

	return cmocka_run_group_tests_name("packread", tests, setup, teardown);
}
