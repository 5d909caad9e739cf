// SPDX-License-Identifier: GPL-2.0
/*
 * test-packwrite.c - packs written by packwrite.c, checked by libgit2,
 * packread.c and git itself: random blobs, then edited versions of them
 * as deltas against the first pack (copied into the second), the 64-bit
 * offset table (a small limit), duplicates, the delta depth limit over
 * more generations than PACKWRITE_MAX_DEPTH, the removal of a killed
 * writer's temporary file, and repo_write_dir_tree()'s trees against
 * git's.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <git2.h>

#include "delta.h"
#include "packread.h"
#include "packwrite.h"
#include "repo.h"
#include "util.h"
#include "unit-util.h"

#define NBLOBS 24

static char *dir;
static git_repository *repo;
static uint32_t seed = 12345;

static uint32_t rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

static int setup(void **state)
{
	char *path;

	(void)state;
	git_libgit2_init();
	dir = test_tmpdir();
	if (!dir)
		return -1;
	path = xasprintf("%s/r.git", dir);
	if (git_repository_init(&repo, path, 1) < 0) {
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

static int teardown(void **state)
{
	int ret;

	(void)state;
	git_repository_free(repo);
	repo = NULL;
	ret = test_tmpdir_remove(dir);
	dir = NULL;
	git_libgit2_shutdown();
	return ret ? -1 : 0;
}

/* Random text-like content of @len bytes. */
static void random_blob(struct sbuf *sb, size_t len)
{
	static const char words[][8] = { "int ", "foo", "(bar)", ";\n", "\t",
					 "return ", "x = ", "kmalloc", " + 1" };
	size_t i;

	sbuf_reset(sb);
	while (sb->len < len)
		sbuf_addstr(sb, words[rnd() % ARRAY_SIZE(words)]);
	sb->len = len;
	for (i = 0; i < len / 64; i++)		/* and some noise */
		sb->buf[rnd() % len] = (char)rnd();
}

/* @src edited: a few replaced, inserted and deleted runs. */
static void edit_blob(struct sbuf *out, const struct sbuf *src)
{
	size_t pos = 0;

	sbuf_reset(out);
	while (pos < src->len) {
		size_t run = 200 + rnd() % 3000;

		if (run > src->len - pos)
			run = src->len - pos;
		sbuf_add(out, src->buf + pos, run);
		pos += run;
		switch (rnd() % 3) {
		case 0:
			sbuf_addf(out, "/* inserted %u */", rnd());
			break;
		case 1:
			pos += rnd() % 40;
			break;
		default:
			sbuf_addf(out, "%08x", rnd());
			pos += 8;
		}
	}
}

/* A tree of @n blobs named f00, f01, ... (already in git order). */
static void tree_of(struct sbuf *t, const git_oid *ids, size_t n)
{
	size_t i;

	sbuf_reset(t);
	for (i = 0; i < n; i++) {
		sbuf_addf(t, "100644 f%02zu", i);
		sbuf_addch(t, 0);
		sbuf_add(t, ids[i].id, GIT_OID_RAWSZ);
	}
}

static size_t count_packs(const char *ext)
{
	char *p = xasprintf("%s/r.git/objects/pack", dir);
	DIR *dh = opendir(p);
	struct dirent *de;
	size_t n = 0, el = strlen(ext);

	assert_non_null(dh);
	while ((de = readdir(dh))) {
		size_t l = strlen(de->d_name);

		if (l > el && !strcmp(de->d_name + l - el, ext))
			n++;
	}
	closedir(dh);
	free(p);
	return n;
}

/* Every id of @ids reads back as @want[i] through libgit2 and packread. */
static void check_objects(const git_oid *ids, struct sbuf *want, size_t n)
{
	struct packset *ps = NULL;
	struct pack_reader *rd;
	git_odb *odb = NULL;
	size_t i;

	assert_int_equal(git_repository_odb(&odb, repo), 0);
	assert_int_equal(git_odb_refresh(odb), 0);
	assert_int_equal(packset_open(&ps, git_repository_path(repo)), 0);
	assert_int_equal(packset_count(ps), 1);
	rd = pack_reader_new(ps, 1 << 20);
	for (i = 0; i < n; i++) {
		git_odb_object *o = NULL;
		struct pack_object po;
		uint64_t pos;

		assert_int_equal(git_odb_read(&o, odb, &ids[i]), 0);
		assert_int_equal(git_odb_object_size(o), want[i].len);
		assert_memory_equal(git_odb_object_data(o), want[i].buf ? want[i].buf : "",
				    want[i].len);
		git_odb_object_free(o);
		assert_int_equal(packset_find(ps, &ids[i], &pos), 0);
		assert_int_equal(pack_reader_read(rd, pos, &po), 0);
		assert_int_equal(po.len, want[i].len);
		assert_memory_equal(po.data, want[i].buf ? want[i].buf : "",
				    want[i].len);
	}
	pack_reader_free(rd);
	packset_free(ps);
	git_odb_free(odb);
}

/* The index's ids are strictly ascending and the fan-out adds up. */
static void check_idx_sorted(void)
{
	char *pdir = xasprintf("%s/r.git/objects/pack", dir);
	DIR *dh = opendir(pdir);
	struct dirent *de;
	struct sbuf sb = SBUF_INIT;
	const unsigned char *p, *sha;
	uint32_t n, i, k;

	assert_non_null(dh);
	while ((de = readdir(dh)))
		if (strstr(de->d_name, ".idx")) {
			char *path = xasprintf("%s/%s", pdir, de->d_name);

			assert_int_equal(sbuf_read_file(&sb, path), 0);
			free(path);
			break;
		}
	closedir(dh);
	free(pdir);
	assert_true(sb.len > 1072);
	p = (const unsigned char *)sb.buf;
	n = (uint32_t)p[8 + 1020] << 24 | (uint32_t)p[8 + 1021] << 16 |
	    (uint32_t)p[8 + 1022] << 8 | p[8 + 1023];
	sha = p + 8 + 1024;
	for (i = 1; i < n; i++)
		assert_true(memcmp(sha + (i - 1) * 20, sha + i * 20, 20) < 0);
	for (k = 0, i = 0; k < 256; k++) {
		const unsigned char *f = p + 8 + k * 4;
		uint32_t c = (uint32_t)f[0] << 24 | (uint32_t)f[1] << 16 |
			     (uint32_t)f[2] << 8 | f[3];

		while (i < n && sha[i * 20] == k)
			i++;
		assert_int_equal(c, i);
	}
	sbuf_release(&sb);
}

/* A commit of @tree on HEAD, so that git fsck walks it. */
static void commit_tree(const git_oid *tree_id)
{
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_oid id;

	assert_int_equal(git_signature_new(&sig, "T", "t@example.org", 1, 0), 0);
	assert_int_equal(git_tree_lookup(&tree, repo, tree_id), 0);
	assert_int_equal(git_commit_create_v(&id, repo, "HEAD", sig,
					     sig, NULL, "m\n", tree, 0), 0);
	git_tree_free(tree);
	git_signature_free(sig);
}

static void test_two_generations(void **state)
{
	struct sbuf gen1[NBLOBS + 1], gen2[NBLOBS + 1], all[2 * NBLOBS + 2];
	git_oid id1[NBLOBS + 1], id2[NBLOBS + 1], ids[2 * NBLOBS + 2], dup;
	struct packwriter *pw;
	struct packwrite_worker *w;
	struct packwrite_stats st;
	size_t i, n = 0;

	(void)state;
	/* generation 1: random blobs (one empty, one tiny), whole */
	assert_int_equal(packwrite_begin(&pw, git_repository_path(repo), NULL), 0);
	w = packwrite_worker_new(pw);
	for (i = 0; i < NBLOBS; i++) {
		gen1[i] = (struct sbuf)SBUF_INIT;
		random_blob(&gen1[i], i == 0 ? 0 : i == 1 ? 3 :
				      1000 + rnd() % 60000);
		assert_int_equal(packwrite_add(w, GIT_OBJECT_BLOB, gen1[i].buf ?
					       gen1[i].buf : "", gen1[i].len,
					       NULL, &id1[i]), 0);
	}
	gen1[NBLOBS] = (struct sbuf)SBUF_INIT;
	tree_of(&gen1[NBLOBS], id1, NBLOBS);
	assert_int_equal(packwrite_add(w, GIT_OBJECT_TREE, gen1[NBLOBS].buf,
				       gen1[NBLOBS].len, NULL, &id1[NBLOBS]), 0);
	/* a duplicate is not written twice */
	assert_int_equal(packwrite_add(w, GIT_OBJECT_BLOB, gen1[5].buf,
				       gen1[5].len, NULL, &dup), 0);
	assert_true(git_oid_equal(&dup, &id1[5]));
	packwrite_worker_free(w);
	packwrite_get_stats(pw, &st);
	assert_int_equal(st.objects, NBLOBS + 1);
	assert_int_equal(st.deltas, 0);
	assert_int_equal(packwrite_finish(pw), 0);
	assert_int_equal(count_packs(".pack"), 1);

	/* generation 2: edited blobs against generation 1, 64-bit offsets */
	assert_int_equal(packwrite_begin(&pw, git_repository_path(repo),
					 &id1[NBLOBS]), 0);
	packwrite_set_large_offset(pw, 4096);
	w = packwrite_worker_new(pw);
	for (i = 0; i < NBLOBS; i++) {
		gen2[i] = (struct sbuf)SBUF_INIT;
		if (i % 6 == 3)		/* unchanged: in the base pack */
			sbuf_add(&gen2[i], gen1[i].buf, gen1[i].len);
		else
			edit_blob(&gen2[i], &gen1[i]);
		assert_int_equal(packwrite_add(w, GIT_OBJECT_BLOB, gen2[i].buf ?
					       gen2[i].buf : "", gen2[i].len,
					       &id1[i], &id2[i]), 0);
		if (i % 6 == 3)
			assert_true(git_oid_equal(&id1[i], &id2[i]));
	}
	gen2[NBLOBS] = (struct sbuf)SBUF_INIT;
	tree_of(&gen2[NBLOBS], id2, NBLOBS);
	assert_int_equal(packwrite_add(w, GIT_OBJECT_TREE, gen2[NBLOBS].buf,
				       gen2[NBLOBS].len, &id1[NBLOBS],
				       &id2[NBLOBS]), 0);
	packwrite_worker_free(w);
	packwrite_get_stats(pw, &st);
	assert_int_equal(st.base_objects, NBLOBS + 1);
	/* the edited blobs (the empty one stays empty) and the tree */
	for (i = 0, n = 0; i < NBLOBS; i++)
		n += !git_oid_equal(&id1[i], &id2[i]);
	assert_int_equal(n, NBLOBS - NBLOBS / 6 - 1);
	assert_int_equal(st.objects, n + 1);
	/*
	 * every edited blob but the 3-byte one (shorter than two blocks) is a
	 * delta; the tree, most of its ids changed, may not be
	 */
	assert_true(st.deltas == n - 1 || st.deltas == n);
	n = 0;
	assert_int_equal(packwrite_finish(pw), 0);
	/* the base pack was replaced */
	assert_int_equal(count_packs(".pack"), 1);
	assert_int_equal(count_packs(".idx"), 1);

	for (i = 0; i <= NBLOBS; i++) {
		ids[n] = id1[i];
		all[n++] = gen1[i];
		if (!git_oid_equal(&id1[i], &id2[i])) {
			ids[n] = id2[i];
			all[n++] = gen2[i];
		}
	}
	check_objects(ids, all, n);
	check_idx_sorted();
	commit_tree(&id2[NBLOBS]);
	test_sh("cd %s/r.git && git verify-pack objects/pack/*.idx && "
		"git fsck --full --strict --no-dangling 2>&1 | "
		"{ ! grep . ; }", dir);
	/* the 64-bit table is in use: the index is larger than 32-bit only */
	test_sh("cd %s/r.git && s=$(stat -c %%s objects/pack/*.idx) && "
		"test $s -gt $((1072 + %zu * 28))", dir, n);
	for (i = 0; i <= NBLOBS; i++) {
		sbuf_release(&gen1[i]);
		sbuf_release(&gen2[i]);
	}
}

/* More generations than the depth limit: chains stop at the limit. */
static void test_depth_limit(void **state)
{
	struct sbuf cur = SBUF_INIT, next = SBUF_INIT, t = SBUF_INIT;
	git_oid blob, tree, prev_blob, prev_tree;
	struct packwriter *pw;
	struct packwrite_worker *w;
	int g;

	(void)state;
	test_sh("rm -rf %s/r.git/objects/pack/* %s/r.git/refs/heads/master", dir, dir);
	random_blob(&cur, 20000);
	for (g = 0; g < PACKWRITE_MAX_DEPTH + 8; g++) {
		assert_int_equal(packwrite_begin(&pw, git_repository_path(repo),
						 g ? &prev_tree : NULL), 0);
		w = packwrite_worker_new(pw);
		assert_int_equal(packwrite_add(w, GIT_OBJECT_BLOB, cur.buf, cur.len,
					       g ? &prev_blob : NULL, &blob), 0);
		tree_of(&t, &blob, 1);
		assert_int_equal(packwrite_add(w, GIT_OBJECT_TREE, t.buf, t.len,
					       g ? &prev_tree : NULL, &tree), 0);
		packwrite_worker_free(w);
		assert_int_equal(packwrite_finish(pw), 0);
		prev_blob = blob;
		prev_tree = tree;
		edit_blob(&next, &cur);
		sbuf_reset(&cur);
		sbuf_add(&cur, next.buf, next.len);
	}
	assert_int_equal(count_packs(".pack"), 1);
	/* the longest chain git reports is the limit, and it was reached */
	test_sh("cd %s/r.git && git verify-pack -v objects/pack/*.idx | "
		"awk '/^chain length = / { sub(\":\", \"\", $4); "
		"if ($4 + 0 > m) m = $4 + 0 } END { exit m != %d }'",
		dir, PACKWRITE_MAX_DEPTH);
	sbuf_release(&cur);
	sbuf_release(&next);
	sbuf_release(&t);
}

/* A killed writer's file is removed; abort keeps the base pack. */
static void test_stale_and_abort(void **state)
{
	struct packwriter *pw;
	struct packwrite_worker *w;
	char *stale = xasprintf("%s/r.git/objects/pack/tmp_pack_kmig_dead01", dir);
	struct stat st;
	git_oid id;
	FILE *f = fopen(stale, "w");

	(void)state;
	assert_non_null(f);
	fputs("half a pack", f);
	fclose(f);
	assert_int_equal(packwrite_begin(&pw, git_repository_path(repo), NULL), 0);
	assert_int_equal(stat(stale, &st), -1);
	w = packwrite_worker_new(pw);
	assert_int_equal(packwrite_add(w, GIT_OBJECT_BLOB, "abc", 3, NULL, &id), 0);
	packwrite_worker_free(w);
	packwrite_abort(pw);
	assert_int_equal(count_packs(".pack"), 1);
	test_sh("ls %s/r.git/objects/pack | { ! grep -q tmp_; }", dir);
	free(stale);

}

/* Write @len bytes of @data as a blob into a new pack on @base's pack. */
static void one_pack(const git_oid *base, const char *data, git_oid *id)
{
	struct packwriter *pw;
	struct packwrite_worker *w;

	assert_int_equal(packwrite_begin(&pw, git_repository_path(repo), base), 0);
	w = packwrite_worker_new(pw);
	assert_int_equal(packwrite_add(w, GIT_OBJECT_BLOB, data, strlen(data),
				       NULL, id), 0);
	packwrite_worker_free(w);
	assert_int_equal(packwrite_finish(pw), 0);
}

/*
 * A run killed after its pack was in place but before the base pack was
 * removed leaves both; the next pack makes both redundant, and they go.
 * A pack with an object of its own stays.
 */
static void test_redundant_packs(void **state)
{
	git_oid a, b, c, d;

	(void)state;
	test_sh("rm -rf %s/r.git/objects/pack/*", dir);
	one_pack(NULL, "first object", &a);
	test_sh("mkdir -p %s/keep && cp %s/r.git/objects/pack/pack-* %s/keep/",
		dir, dir, dir);
	one_pack(&a, "second object", &b);
	assert_int_equal(count_packs(".pack"), 1);
	/* as if killed before the base pack's removal */
	test_sh("cp %s/keep/* %s/r.git/objects/pack/", dir, dir);
	assert_int_equal(count_packs(".pack"), 2);
	one_pack(&a, "second object", &c);
	assert_true(git_oid_equal(&b, &c));
	one_pack(&a, "third object", &d);
	assert_int_equal(count_packs(".pack"), 1);
	/* a pack of its own (no base): the other pack stays */
	one_pack(NULL, "fourth object", &d);
	assert_int_equal(count_packs(".pack"), 2);
	test_sh("cd %s/r.git && git verify-pack objects/pack/*.idx", dir);
	test_sh("rm -rf %s/keep", dir);
}

/* The encoder alone: an unrelated target is refused under a small limit. */
static void test_delta_limits(void **state)
{
	struct sbuf a = SBUF_INIT, b = SBUF_INIT, d = SBUF_INIT;

	(void)state;
	random_blob(&a, 5000);
	assert_int_equal(delta_create((const unsigned char *)a.buf, a.len,
				      (const unsigned char *)a.buf, a.len,
				      a.len / 2, &d), 0);
	assert_true(d.len < 16);	/* sizes and one copy op */
	sbuf_reset(&b);
	while (b.len < 5000)
		sbuf_addch(&b, (int)(rnd() & 0xff));
	assert_int_equal(delta_create((const unsigned char *)a.buf, a.len,
				      (const unsigned char *)b.buf, b.len,
				      b.len / 2, &d), KMIG_ENOTFOUND);
	assert_int_equal(delta_create((const unsigned char *)"short", 5,
				      (const unsigned char *)a.buf, a.len,
				      a.len, &d), KMIG_ENOTFOUND);
	sbuf_release(&a);
	sbuf_release(&b);
	sbuf_release(&d);
}

/* git's own tree id of directory @d (a throw-away index). */
static void git_tree_id_of(const char *d, git_oid *out)
{
	char *cmd = xasprintf("cd %s && git init -q --bare %s/wt.git && "
			      "GIT_DIR=%s/wt.git GIT_INDEX_FILE=%s/wt.idx "
			      "GIT_WORK_TREE=. sh -c 'git add -A -f . && "
			      "git write-tree' > %s/wt.id", d, dir, dir, dir, dir);
	char *path = xasprintf("%s/wt.id", dir);
	struct sbuf sb = SBUF_INIT;

	assert_int_equal(system(cmd), 0);
	assert_int_equal(sbuf_read_file(&sb, path), 0);
	assert_int_equal(git_oid_fromstrn(out, sb.buf, GIT_OID_HEXSZ), 0);
	sbuf_release(&sb);
	free(path);
	free(cmd);
	test_sh("rm -rf %s/wt.git %s/wt.idx %s/wt.id", dir, dir, dir);
}

/*
 * repo_write_dir_tree() twice in one process on one git_repository (as
 * kmig import of several versions does): the trees are git's (names that
 * sort differently as directories), the second pack replaces the first,
 * and libgit2 reads every file of both trees afterwards.
 */
static void test_repo_write_twice(void **state)
{
	git_oid t1, t2, want;
	git_tree *tree1 = NULL, *tree2 = NULL;
	struct sbuf sb = SBUF_INIT;
	size_t files;
	uint64_t bytes;

	(void)state;
	test_sh("rm -rf %s/r.git/objects/pack/* && mkdir -p %s/src/a/b %s/src/a.b "
		"%s/src/empty && cd %s/src && seq 1 3000 > a/b/big.c && "
		"seq 1 500 > a.b/x && echo hi > a.c && printf '#!/bin/sh\\n' > run.sh && "
		"chmod +x run.sh && ln -s a/b/big.c link", dir, dir, dir, dir, dir);
	{
		char *src = xasprintf("%s/src", dir);

		assert_int_equal(repo_write_dir_tree(&t1, repo, src, NULL, 2, &files,
						     &bytes), 0);
		assert_int_equal(files, 5);
		git_tree_id_of(src, &want);
		assert_true(git_oid_equal(&t1, &want));
		test_sh("cd %s && seq 2 3001 > a/b/big.c && echo new > a/new.c", src);
		assert_int_equal(git_tree_lookup(&tree1, repo, &t1), 0);
		assert_int_equal(repo_write_dir_tree(&t2, repo, src, tree1, 2, &files,
						     &bytes), 0);
		assert_int_equal(files, 6);
		git_tree_id_of(src, &want);
		assert_true(git_oid_equal(&t2, &want));
		free(src);
	}
	assert_int_equal(count_packs(".pack"), 1);
	assert_int_equal(git_tree_lookup(&tree2, repo, &t2), 0);
	assert_int_equal(repo_blob_at(repo, tree1, "a/b/big.c", &sb), 0);
	assert_true(sb.len > 10000 && !strncmp(sb.buf, "1\n2\n", 4));
	sbuf_reset(&sb);
	assert_int_equal(repo_blob_at(repo, tree2, "a/b/big.c", &sb), 0);
	assert_true(!strncmp(sb.buf, "2\n3\n", 4));
	sbuf_reset(&sb);
	assert_int_equal(repo_blob_at(repo, tree2, "a/new.c", &sb), 0);
	assert_string_equal(sb.buf, "new\n");
	/* the changed big file went in as a delta */
	test_sh("cd %s/r.git && git verify-pack -v objects/pack/*.idx | "
		"grep -q '^[0-9a-f]* blob .* 1 [0-9a-f]*$'", dir);
	sbuf_release(&sb);
	git_tree_free(tree1);
	git_tree_free(tree2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_limits),
		cmocka_unit_test(test_two_generations),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_stale_and_abort),
		cmocka_unit_test(test_redundant_packs),
		cmocka_unit_test(test_repo_write_twice),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
