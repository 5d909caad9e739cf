// SPDX-License-Identifier: GPL-2.0
/*
 * test-store-scan.c - the tracker's SQL (store-scan.c): releases, the blob
 * cache, counts and comparisons, on a database in a temporary directory.
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
#include <sqlite3.h>

#include "lexer.h"
#include "oidset.h"
#include "relinfo.h"
#include "rules.h"
#include "store.h"
#include "unit-util.h"
#include "util.h"

#define BLOB_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"	/* bug, warn-on */
#define BLOB_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"	/* bug-on */
#define BLOB_C "cccccccccccccccccccccccccccccccccccccccc"	/* no sites */
#define BLOB_D "dddddddddddddddddddddddddddddddddddddddd"	/* no sites */
#define BLOB_X "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"	/* never stored */

struct fixture {
	char dir[32];
	char *path;
	struct store *st;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/kmig-unit.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	f->path = xasprintf("%s/kmig.db", f->dir);
	if (store_open(&f->st, f->path))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	store_close(f->st);
	rm_rf(f->dir);
	free(f->path);
	free(f);
	return 0;
}

static void reopen(struct fixture *f)
{
	store_close(f->st);
	f->st = NULL;
	assert_int_equal(store_open(&f->st, f->path), 0);
}

static void put_blob(struct store *st, const char *oid, const char *ruleset,
		     int nsites)
{
	struct site v[] = {
		{ .rule = RULE_BUG, .line = 3, .func = "f", .text = "BUG();" },
		{ .rule = RULE_WARN_ON, .line = 7, .func = NULL, .text = "WARN_ON(x);" },
	};
	struct site bug_on = { .rule = RULE_BUG_ON, .line = 9, .func = "g",
			       .text = "BUG_ON(y);" };
	struct site_list sites = { v, (size_t)nsites, 0, NULL };

	if (nsites < 0) {
		sites.v = &bug_on;
		sites.n = 1;
	}
	assert_int_equal(store_blob_put(st, oid, ruleset, 100, &sites), 0);
}

/*
 * Release @tag: net/a.c and sound/d.c (blob A), net/b.c (blob @b),
 * sound/c.c (blob C); @new_blob, if any, cached in the same transaction.
 */
static long long put_release(struct store *st, const char *tag, const char *b,
			     const char *new_blob)
{
	const char *ruleset = rules_hash();
	long long id = 0;

	assert_int_equal(store_begin(st), 0);
	assert_int_equal(store_release_start(st, &id, tag, BLOB_X, 1000, ruleset,
					     NULL), 0);
	assert_true(id > 0);
	if (new_blob)
		put_blob(st, new_blob, ruleset, 0);
	assert_int_equal(store_release_file(st, id, "net/a.c", BLOB_A, "NET"), 0);
	assert_int_equal(store_release_file(st, id, "net/b.c", b, "NET"), 0);
	assert_int_equal(store_release_file(st, id, "sound/c.c", BLOB_C, "SOUND"), 0);
	assert_int_equal(store_release_file(st, id, "sound/d.c", BLOB_A, "SOUND"), 0);
	assert_int_equal(store_release_finish(st, id, 4), 0);
	assert_int_equal(store_commit(st), 0);
	return id;
}

/* v1.0: its three blobs cached, then the release. */
static long long put_v1(struct store *st)
{
	const char *ruleset = rules_hash();

	assert_int_equal(store_begin(st), 0);
	put_blob(st, BLOB_A, ruleset, 2);
	put_blob(st, BLOB_B, ruleset, -1);
	put_blob(st, BLOB_C, ruleset, 0);
	assert_int_equal(store_commit(st), 0);
	return put_release(st, "v1.0", BLOB_B, NULL);
}

static void assert_row(const struct count_row *r, const char *key,
		       const char *rule, long long count)
{
	if (key)
		assert_string_equal(r->key, key);
	else
		assert_null(r->key);
	assert_string_equal(r->rule, rule);
	assert_int_equal(r->count, count);
}

static void test_release_round_trip(void **state)
{
	struct fixture *f = *state;
	const char *ruleset = rules_hash();
	struct release_info rel, *all = NULL;
	struct count_rows rows = { 0 };
	struct site_list sites = SITE_LIST_INIT;
	size_t n = 0;
	long long id;

	assert_int_equal(store_release_get(f->st, "v1.0", &rel), KMIG_ENOTFOUND);
	assert_int_equal(store_releases(f->st, &all, &n), 0);
	assert_int_equal(n, 0);
	release_infos_free(all, n);

	id = put_v1(f->st);

	assert_int_equal(store_release_get(f->st, "v1.0", &rel), 0);
	assert_int_equal(rel.id, id);
	assert_string_equal(rel.tag, "v1.0");
	assert_string_equal(rel.commit, BLOB_X);
	assert_string_equal(rel.ruleset, ruleset);
	assert_int_equal(rel.date, 1000);
	assert_int_equal(rel.files, 4);
	release_info_clear(&rel);

	/* blob A is in two files */
	assert_int_equal(store_counts(f->st, id, BY_RULE, NULL, NULL, &rows), 0);
	assert_int_equal(rows.n, 3);
	assert_row(&rows.v[0], NULL, "bug", 2);
	assert_row(&rows.v[1], NULL, "bug-on", 1);
	assert_row(&rows.v[2], NULL, "warn-on", 2);
	count_rows_clear(&rows);

	assert_int_equal(store_counts(f->st, id, BY_SUBSYSTEM, NULL, NULL, &rows), 0);
	assert_int_equal(rows.n, 5);
	assert_row(&rows.v[0], "NET", "bug", 1);
	assert_row(&rows.v[1], "NET", "bug-on", 1);
	assert_row(&rows.v[2], "NET", "warn-on", 1);
	assert_row(&rows.v[3], "SOUND", "bug", 1);
	assert_row(&rows.v[4], "SOUND", "warn-on", 1);
	count_rows_clear(&rows);

	assert_int_equal(store_counts(f->st, id, BY_FILE, NULL, "SOUND", &rows), 0);
	assert_int_equal(rows.n, 2);
	assert_row(&rows.v[0], "sound/d.c", "bug", 1);
	assert_row(&rows.v[1], "sound/d.c", "warn-on", 1);
	count_rows_clear(&rows);

	assert_int_equal(store_counts(f->st, id, BY_FILE, "bug-on", NULL, &rows), 0);
	assert_int_equal(rows.n, 1);
	assert_row(&rows.v[0], "net/b.c", "bug-on", 1);
	count_rows_clear(&rows);

	assert_int_equal(store_subsystem_exists(f->st, "NET"), 1);
	assert_int_equal(store_subsystem_exists(f->st, "NOPE"), 0);

	/* the cache returns the sites as stored, in order */
	assert_int_equal(store_blob_sites(f->st, BLOB_A, ruleset, &sites), 0);
	assert_int_equal(sites.n, 2);
	assert_int_equal(sites.v[0].rule, RULE_BUG);
	assert_int_equal(sites.v[0].line, 3);
	assert_string_equal(sites.v[0].func, "f");
	assert_string_equal(sites.v[0].text, "BUG();");
	assert_int_equal(sites.v[1].rule, RULE_WARN_ON);
	assert_null(sites.v[1].func);
	site_list_clear(&sites);
	assert_int_equal(store_blob_sites(f->st, BLOB_C, ruleset, &sites), 0);
	assert_int_equal(sites.n, 0);
	assert_int_equal(store_blob_sites(f->st, BLOB_X, ruleset, &sites),
			 KMIG_ENOTFOUND);
	assert_int_equal(store_blob_sites(f->st, BLOB_A, "other", &sites),
			 KMIG_ENOTFOUND);
	site_list_clear(&sites);
}

static void test_reopen_cache_hits(void **state)
{
	struct fixture *f = *state;
	const char *ruleset = rules_hash();
	struct oidset cached = OIDSET_INIT;
	struct count_rows added = { 0 }, removed = { 0 };
	struct release_info *all = NULL;
	long long v1, v2;
	git_oid oid;
	size_t n = 0;

	v1 = put_v1(f->st);
	reopen(f);

	/* every blob of v1.0 is a cache hit; the new one of v2.0 is not */
	assert_int_equal(store_cached_blobs(f->st, ruleset, &cached), 0);
	assert_int_equal(cached.n, 3);
	assert_int_equal(git_oid_fromstr(&oid, BLOB_A), 0);
	assert_false(oidset_add(&cached, &oid));
	assert_int_equal(git_oid_fromstr(&oid, BLOB_C), 0);
	assert_false(oidset_add(&cached, &oid));
	assert_int_equal(git_oid_fromstr(&oid, BLOB_D), 0);
	assert_true(oidset_add(&cached, &oid));
	oidset_clear(&cached);
	assert_int_equal(store_cached_blobs(f->st, "other", &cached), 0);
	assert_int_equal(cached.n, 0);
	oidset_clear(&cached);

	/* v2.0: net/b.c's BUG_ON is gone */
	v2 = put_release(f->st, "v2.0", BLOB_D, BLOB_D);
	assert_int_equal(store_site_changes(f->st, v1, v2, NULL, NULL, &added,
					    &removed, NULL), 0);
	assert_int_equal(added.n, 1);
	assert_int_equal(removed.n, 1);
	assert_row(&added.v[0], NULL, "bug-on", 0);
	assert_row(&removed.v[0], NULL, "bug-on", 1);
	count_rows_clear(&added);
	count_rows_clear(&removed);
	assert_int_equal(store_site_changes(f->st, v1, v2, NULL, "SOUND", &added,
					    &removed, NULL), 0);
	assert_int_equal(added.n, 0);
	count_rows_clear(&added);
	count_rows_clear(&removed);

	reopen(f);
	assert_int_equal(store_releases(f->st, &all, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(all[0].tag, "v1.0");
	assert_string_equal(all[1].tag, "v2.0");
	assert_int_equal(all[1].files, 4);
	release_infos_free(all, n);
	assert_int_equal(store_cached_blobs(f->st, ruleset, &cached), 0);
	assert_int_equal(cached.n, 4);
	oidset_clear(&cached);
}

static void test_transactions(void **state)
{
	struct fixture *f = *state;
	const char *ruleset = rules_hash();
	struct site_list none = SITE_LIST_INIT;
	struct count_rows rows = { 0 };
	struct release_info rel;
	long long id = 0, pruned = -1;
	struct oidset masks = OIDSET_INIT;
	size_t mask = 0;
	git_oid oid;
	sqlite3 *other;

	/* the multi-row writers refuse to run outside a transaction */
	assert_int_equal(store_blob_put(f->st, BLOB_A, ruleset, 1, &none),
			 KMIG_EGENERIC);
	assert_non_null(strstr(kmig_errmsg(), "store_blob_put outside a transaction"));
	assert_int_equal(store_release_start(f->st, &id, "v1.0", BLOB_X, 0,
					     ruleset, NULL), KMIG_EGENERIC);
	assert_int_equal(store_release_file(f->st, 1, "a.c", BLOB_A, "NET"),
			 KMIG_EGENERIC);
	assert_int_equal(store_release_finish(f->st, 1, 1), KMIG_EGENERIC);

	/* a rolled-back release leaves nothing, not even its subsystem id */
	assert_int_equal(store_begin(f->st), 0);
	put_blob(f->st, BLOB_A, ruleset, 2);
	assert_int_equal(store_release_start(f->st, &id, "v3.0", BLOB_X, 0,
					     ruleset, NULL), 0);
	assert_int_equal(store_release_file(f->st, id, "new/a.c", BLOB_A, "NEW"), 0);
	store_rollback(f->st);
	assert_int_equal(store_release_get(f->st, "v3.0", &rel), KMIG_ENOTFOUND);
	assert_int_equal(store_subsystem_exists(f->st, "NEW"), 0);
	assert_int_equal(store_blob_sites(f->st, BLOB_A, ruleset, &none),
			 KMIG_ENOTFOUND);

	assert_int_equal(store_begin(f->st), 0);
	put_blob(f->st, BLOB_A, ruleset, 2);
	assert_int_equal(store_release_start(f->st, &id, "v3.0", BLOB_X, 0,
					     ruleset, NULL), 0);
	assert_int_equal(store_release_file(f->st, id, "new/a.c", BLOB_A, "NEW"), 0);
	assert_int_equal(store_release_finish(f->st, id, 1), 0);
	assert_int_equal(store_commit(f->st), 0);
	assert_int_equal(store_counts(f->st, id, BY_SUBSYSTEM, NULL, NULL, &rows), 0);
	assert_int_equal(rows.n, 2);
	assert_row(&rows.v[0], "NEW", "bug", 1);
	count_rows_clear(&rows);

	/*
	 * prune opens its own: blobs of a rule set nothing uses go, and the
	 * header masks of other rule data (a full 64-bit mask reads back)
	 */
	assert_int_equal(git_oid_fromstr(&oid, BLOB_C), 0);
	assert_int_equal(store_begin(f->st), 0);
	put_blob(f->st, BLOB_B, "old-rules", -1);
	assert_int_equal(store_relinfo_mask_put(f->st, relinfo_facts_hash(),
						&oid, UINT64_MAX), 0);
	assert_int_equal(store_relinfo_mask_put(f->st, "old-facts", &oid, 1), 0);
	assert_int_equal(store_commit(f->st), 0);
	assert_int_equal(store_prune_blobs(f->st, &pruned), 0);
	assert_int_equal(pruned, 1);
	assert_int_equal(store_relinfo_masks(f->st, "old-facts", &masks), 0);
	assert_int_equal(masks.n, 0);
	assert_int_equal(store_relinfo_masks(f->st, relinfo_facts_hash(),
					     &masks), 0);
	assert_true(oidset_get(&masks, &oid, &mask));
	assert_true((uint64_t)mask == UINT64_MAX);
	oidset_clear(&masks);
	assert_int_equal(store_blob_sites(f->st, BLOB_B, "old-rules", &none),
			 KMIG_ENOTFOUND);
	assert_int_equal(store_blob_sites(f->st, BLOB_A, ruleset, &none), 0);
	assert_int_equal(none.n, 2);
	site_list_clear(&none);
	/*
	 * Nothing stale left: the next prune finds so without writing, so
	 * it does not wait for another connection that holds the write lock.
	 */
	assert_int_equal(sqlite3_open(f->path, &other), SQLITE_OK);
	assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(store_prune_blobs(f->st, &pruned), 0);
	assert_int_equal(pruned, 0);
	assert_int_equal(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(other);
	/*
	 * The rule set cached again after it was pruned is known again;
	 * blobs count, not sites (A has two, B none).
	 */
	assert_int_equal(store_begin(f->st), 0);
	put_blob(f->st, BLOB_B, "old-rules", 0);
	put_blob(f->st, BLOB_A, "old-rules", 2);
	assert_int_equal(store_commit(f->st), 0);
	assert_int_equal(store_prune_blobs(f->st, &pruned), 0);
	assert_int_equal(pruned, 2);
	assert_int_equal(store_blob_sites(f->st, BLOB_B, "old-rules", &none),
			 KMIG_ENOTFOUND);
	assert_int_equal(store_blob_sites(f->st, BLOB_A, "old-rules", &none),
			 KMIG_ENOTFOUND);
	assert_int_equal(store_blob_sites(f->st, BLOB_A, ruleset, &none), 0);
	assert_int_equal(none.n, 2);
	site_list_clear(&none);
}

/* "path oid subsystem" of each file of release @tag, in path order. */
static char *file_rows(const char *db, const char *tag)
{
	static const char sql[] =
		"SELECT f.path || ' ' || f.oid || ' ' || s.name FROM release_files f "
		"JOIN subsystems s ON s.id = f.subsystem_id "
		"WHERE f.release_id = (SELECT id FROM releases WHERE tag = ?) ORDER BY f.path";

	return test_sql_rows(db, sql, tag);
}

/*
 * store_release_files() (many rows a statement, the last ones one by
 * one) records what store_release_file() does row by row; a subsystem
 * first named in a rolled-back release is made again.
 */
static void test_release_files(void **state)
{
	static const char *const subs[] = { "NET", "SOUND", "NET", "NEW ONE" };
	struct fixture *f = *state;
	struct store_file v[133];
	char *path[133], *a, *b;
	long long id[2];
	size_t i;

	for (i = 0; i < 133; i++) {
		path[i] = xasprintf("dir%zu/f%03zu.c", i / 7, i);
		v[i].path = path[i];
		v[i].oid = i % 2 ? BLOB_A : BLOB_B;
		v[i].subsystem = subs[i % 4];
	}
	assert_int_equal(store_release_files(f->st, 1, v, 133), KMIG_EGENERIC);
	assert_int_equal(store_begin(f->st), 0);
	assert_int_equal(store_release_start(f->st, &id[0], "v0.9", BLOB_X, 0,
					     rules_hash(), NULL), 0);
	assert_int_equal(store_release_files(f->st, id[0], v, 133), 0);
	store_rollback(f->st);
	assert_int_equal(store_subsystem_exists(f->st, "NEW ONE"), 0);

	assert_int_equal(store_begin(f->st), 0);
	assert_int_equal(store_release_start(f->st, &id[0], "v1.0", BLOB_X, 0,
					     rules_hash(), NULL), 0);
	assert_int_equal(store_release_files(f->st, id[0], v, 133), 0);
	assert_int_equal(store_release_finish(f->st, id[0], 133), 0);
	assert_int_equal(store_release_start(f->st, &id[1], "v1.1", BLOB_X, 0,
					     rules_hash(), NULL), 0);
	for (i = 0; i < 133; i++)
		assert_int_equal(store_release_file(f->st, id[1], v[i].path,
						    v[i].oid, v[i].subsystem), 0);
	assert_int_equal(store_release_finish(f->st, id[1], 133), 0);
	assert_int_equal(store_commit(f->st), 0);
	assert_int_equal(store_subsystem_exists(f->st, "NEW ONE"), 1);
	a = file_rows(f->path, "v1.0");
	b = file_rows(f->path, "v1.1");
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "dir18/f132.c " BLOB_B " NET\n"));
	assert_non_null(strstr(a, "dir0/f003.c " BLOB_A " NEW ONE\n"));
	free(a);
	free(b);
	for (i = 0; i < 133; i++)
		free(path[i]);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The releases' tags, each with its files_base's tag or "-", a line each. */
static char *file_bases(const char *db)
{
	static const char sql[] =
		"SELECT r.tag || ' ' || coalesce(b.tag, '-') FROM releases r "
		"LEFT JOIN releases b ON b.id = r.files_base WHERE ?1 IS NULL ORDER BY r.tag";

	return test_sql_rows(db, sql, NULL);
}

/* @rows with the line of @path's row replaced by @line ("" drops it). */
static char *rows_with(const char *rows, const char *path, const char *line)
{
	struct sbuf out = SBUF_INIT;
	const char *l = rows, *nl;
	bool done = false;

	for (; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		assert_non_null(nl);
		if (!strncmp(l, path, strlen(path)) && l[strlen(path)] == ' ') {
			sbuf_addstr(&out, line);
			done = true;
			continue;
		}
		if (!done && strcmp(l, path) > 0) {
			sbuf_addstr(&out, line);
			done = true;
		}
		sbuf_add(&out, l, (size_t)(nl - l + 1));
	}
	if (!done)
		sbuf_addstr(&out, line);
	return sbuf_detach(&out);
}

/*
 * store_release_files_from() shares the base's rows but the changed
 * paths' (the first path, one in the middle, one the base lacks, and one
 * gone: store_release_files_gone()), all of them when none changed, none
 * with another MAINTAINERS or when its own rows would be a quarter of its
 * files; changed paths out of order are refused.  A release sharing one
 * that shares passes the root on, with its own rows; re-creating the root
 * gives the releases sharing it every row.
 */
static void test_release_files_from(void **state)
{
	static const char *const changed[] = {
		"dir0/f000.c", "dir12/f084.c", "dir9/f069.c", "dir99/new.c",
	};
	static const char *const changed2[] = { "dir0/f000.c", "dir1/f007.c" };
	static const char *const gone[] = { "dir12/f084.c" };
	static const char *const unordered[] = { "dir12/f084.c", "dir0/f000.c" };
	const char *many[40];
	struct fixture *f = *state;
	struct store_file v[133], w[3];
	char *path[133], *base, *rows, *want, *t;
	long long id[7], again;
	bool copied;
	size_t i;

	for (i = 0; i < 133; i++) {
		path[i] = xasprintf("dir%zu/f%03zu.c", i / 7, i);
		v[i].path = path[i];
		v[i].oid = i % 3 ? BLOB_A : BLOB_B;
		v[i].subsystem = i % 2 ? "NET" : "SOUND";
	}
	for (i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = path[i];
	/* the rows v1.1 writes of its changed paths it has */
	w[0] = (struct store_file){ "dir0/f000.c", BLOB_C, "SOUND" };
	w[1] = (struct store_file){ "dir9/f069.c", BLOB_C, "NET" };
	w[2] = (struct store_file){ "dir99/new.c", BLOB_C, "NET" };
	assert_int_equal(store_begin(f->st), 0);
	assert_int_equal(store_release_start(f->st, &id[0], "v1.0", BLOB_X, 0,
					     rules_hash(), BLOB_D), 0);
	assert_int_equal(store_release_files(f->st, id[0], v, 133), 0);
	assert_int_equal(store_release_finish(f->st, id[0], 133), 0);
	assert_int_equal(store_release_start(f->st, &id[1], "v1.1", BLOB_X, 0,
					     rules_hash(), BLOB_D), 0);
	assert_int_equal(store_release_files_from(f->st, id[1], id[0], changed,
						  ARRAY_SIZE(changed), &copied), 0);
	assert_true(copied);
	assert_int_equal(store_release_files(f->st, id[1], w, 3), 0);
	assert_int_equal(store_release_files_gone(f->st, id[1], id[0], gone, 1), 0);
	assert_int_equal(store_release_finish(f->st, id[1], 133), 0);
	assert_int_equal(store_release_start(f->st, &id[2], "v1.2", BLOB_X, 0,
					     rules_hash(), BLOB_D), 0);
	assert_int_equal(store_release_files_from(f->st, id[2], id[0], NULL, 0,
						  &copied), 0);
	assert_true(copied);
	assert_int_equal(store_release_start(f->st, &id[3], "v1.3", BLOB_X, 0,
					     rules_hash(), BLOB_C), 0);
	assert_int_equal(store_release_files_from(f->st, id[3], id[0], changed,
						  ARRAY_SIZE(changed), &copied), 0);
	assert_false(copied);
	assert_int_equal(store_release_start(f->st, &id[4], "v1.4", BLOB_X, 0,
					     rules_hash(), BLOB_D), 0);
	assert_int_equal(store_release_files_from(f->st, id[4], id[0], unordered,
						  ARRAY_SIZE(unordered), &copied),
			 KMIG_EGENERIC);
	assert_false(copied);
	/* v1.5 shares v1.1's: v1.0's rows and v1.1's own but its changed */
	assert_int_equal(store_release_start(f->st, &id[5], "v1.5", BLOB_X, 0,
					     rules_hash(), BLOB_D), 0);
	assert_int_equal(store_release_files_from(f->st, id[5], id[1], changed2,
						  ARRAY_SIZE(changed2), &copied), 0);
	assert_true(copied);
	assert_int_equal(store_release_files_gone(f->st, id[5], id[1], changed2,
						  ARRAY_SIZE(changed2)), 0);
	/* 40 changed of 133: a quarter or more, written whole */
	assert_int_equal(store_release_start(f->st, &id[6], "v1.6", BLOB_X, 0,
					     rules_hash(), BLOB_D), 0);
	assert_int_equal(store_release_files_from(f->st, id[6], id[0], many,
						  ARRAY_SIZE(many), &copied), 0);
	assert_false(copied);
	assert_int_equal(store_commit(f->st), 0);

	t = file_bases(f->path);
	assert_string_equal(t, "v1.0 -\nv1.1 v1.0\nv1.2 v1.0\nv1.3 -\nv1.4 -\n"
			       "v1.5 v1.0\nv1.6 -\n");
	free(t);
	base = file_rows(f->path, "v1.0");
	assert_non_null(strstr(base, "dir9/f069.c "));
	assert_int_equal(count_lines(base), 133);
	rows = file_rows(f->path, "v1.1");
	want = rows_with(base, "dir12/f084.c", "");
	t = rows_with(want, "dir0/f000.c", "dir0/f000.c " BLOB_C " SOUND\n");
	free(want);
	want = rows_with(t, "dir9/f069.c", "dir9/f069.c " BLOB_C " NET\n");
	free(t);
	t = rows_with(want, "dir99/new.c", "dir99/new.c " BLOB_C " NET\n");
	free(want);
	want = t;
	assert_int_equal(count_lines(want), 133);
	assert_string_equal(rows, want);
	free(rows);
	rows = file_rows(f->path, "v1.5");
	t = rows_with(want, "dir0/f000.c", "");
	free(want);
	want = rows_with(t, "dir1/f007.c", "");
	free(t);
	assert_string_equal(rows, want);
	free(rows);
	rows = file_rows(f->path, "v1.2");
	assert_string_equal(rows, base);
	free(rows);
	rows = file_rows(f->path, "v1.3");
	assert_string_equal(rows, "");
	free(rows);

	/* v1.0 again: v1.1, v1.2 and v1.5 keep their rows, every one their own */
	assert_int_equal(store_begin(f->st), 0);
	assert_int_equal(store_release_start(f->st, &again, "v1.0", BLOB_X, 0,
					     rules_hash(), BLOB_D), 0);
	assert_int_equal(store_commit(f->st), 0);
	t = file_bases(f->path);
	assert_string_equal(t, "v1.0 -\nv1.1 -\nv1.2 -\nv1.3 -\nv1.4 -\n"
			       "v1.5 -\nv1.6 -\n");
	free(t);
	rows = file_rows(f->path, "v1.5");
	assert_string_equal(rows, want);
	free(rows);
	rows = file_rows(f->path, "v1.2");
	assert_string_equal(rows, base);
	free(rows);
	rows = file_rows(f->path, "v1.0");
	assert_string_equal(rows, "");
	free(rows);
	free(want);
	free(base);
	for (i = 0; i < 133; i++)
		free(path[i]);
}

/*
 * A release re-created at a new commit with the same tree keeps its id,
 * files and counts; only the commit id changes, and only from the commit
 * it was scanned at.  The date's source is recorded per release.
 */
static void test_release_recommit(void **state)
{
	struct fixture *f = *state;
	struct count_rows before = { 0 }, after = { 0 };
	struct release_info rel;
	long long id = put_v1(f->st);
	size_t i;

	assert_int_equal(store_counts(f->st, id, BY_FILE, NULL, NULL, &before), 0);
	assert_true(before.n > 0);
	/* outside a transaction: refused */
	assert_int_equal(store_release_recommit(f->st, "v1.0", BLOB_X, BLOB_D),
			 KMIG_EGENERIC);
	assert_int_equal(store_begin(f->st), 0);
	/* not the scanned commit: nothing changes */
	assert_int_equal(store_release_recommit(f->st, "v1.0", BLOB_C, BLOB_D), 0);
	assert_int_equal(store_release_recommit(f->st, "v9.9", BLOB_X, BLOB_D), 0);
	assert_int_equal(store_commit(f->st), 0);
	assert_int_equal(store_release_get(f->st, "v1.0", &rel), 0);
	assert_string_equal(rel.commit, BLOB_X);
	assert_null(rel.date_source);
	/* no line date: the forecast takes the release's own date */
	assert_int_equal(rel.line_date, 0);
	assert_int_equal(release_trend_date(&rel), rel.date);
	release_info_clear(&rel);

	assert_int_equal(store_begin(f->st), 0);
	assert_int_equal(store_release_recommit(f->st, "v1.0", BLOB_X, BLOB_D), 0);
	assert_int_equal(store_release_dates(f->st, id, "debian-changelog", 1672650000), 0);
	assert_int_equal(store_commit(f->st), 0);
	assert_int_equal(store_release_get(f->st, "v1.0", &rel), 0);
	assert_int_equal(rel.id, id);
	assert_string_equal(rel.commit, BLOB_D);
	assert_int_equal(rel.date, 1000);
	assert_int_equal(rel.files, 4);
	assert_string_equal(rel.date_source, "debian-changelog");
	assert_int_equal(rel.line_date, 1672650000);
	assert_int_equal(release_trend_date(&rel), 1672650000);
	release_info_clear(&rel);
	assert_int_equal(store_counts(f->st, id, BY_FILE, NULL, NULL, &after), 0);
	assert_int_equal(after.n, before.n);
	for (i = 0; i < before.n; i++)
		assert_row(&after.v[i], before.v[i].key, before.v[i].rule,
			   before.v[i].count);
	count_rows_clear(&before);
	count_rows_clear(&after);
}

/* A blob's function facts round-trip (compressed in the store). */
static void test_blob_funcs(void **state)
{
	struct fixture *f = *state;
	const char *ruleset = rules_hash();
	struct sbuf big = SBUF_INIT;
	char *out = NULL;
	int i;

	sbuf_addstr(&big, "n a b\n");
	for (i = 0; i < 5000; i++)
		sbuf_addf(&big, "f 0 %d %d 0 1\n", i, i);
	assert_int_equal(store_blob_funcs_put(f->st, BLOB_A, ruleset, big.buf),
			 KMIG_EGENERIC);	/* outside a transaction */
	assert_int_equal(store_begin(f->st), 0);
	put_blob(f->st, BLOB_A, ruleset, 2);
	put_blob(f->st, BLOB_B, ruleset, 0);
	assert_int_equal(store_blob_funcs_put(f->st, BLOB_A, ruleset, big.buf), 0);
	assert_int_equal(store_blob_funcs_put(f->st, BLOB_B, ruleset, NULL), 0);
	assert_int_equal(store_commit(f->st), 0);
	assert_int_equal(store_blob_funcs(f->st, BLOB_A, ruleset, &out), 0);
	assert_non_null(out);
	assert_string_equal(out, big.buf);
	free(out);
	assert_int_equal(store_blob_funcs(f->st, BLOB_B, ruleset, &out), 0);
	assert_null(out);
	assert_int_equal(store_blob_funcs(f->st, BLOB_A, "other", &out), 0);
	assert_null(out);
	sbuf_release(&big);
}

/*
 * A blob cached again under the same rule set (a lexer fix re-lexing it,
 * a scan interrupted after its blobs): the row is replaced, its old
 * sites and facts go with it, and a blob new to the cache is a plain
 * insert (store_oid_put_stmt()); both in one transaction and across two.
 */
static void test_blob_put_again(void **state)
{
	struct fixture *f = *state;
	const char *ruleset = rules_hash();
	struct site_list sites = SITE_LIST_INIT;
	char *out = NULL;

	assert_int_equal(store_begin(f->st), 0);
	put_blob(f->st, BLOB_A, ruleset, 2);
	assert_int_equal(store_blob_funcs_put(f->st, BLOB_A, ruleset,
					      "n a\nf 0 1 2 0\n"), 0);
	put_blob(f->st, BLOB_A, ruleset, -1);	/* the same transaction */
	put_blob(f->st, BLOB_B, ruleset, 2);
	assert_int_equal(store_commit(f->st), 0);
	assert_int_equal(store_blob_sites(f->st, BLOB_A, ruleset, &sites), 0);
	assert_int_equal(sites.n, 1);
	assert_int_equal(sites.v[0].rule, RULE_BUG_ON);
	site_list_clear(&sites);
	assert_int_equal(store_blob_funcs(f->st, BLOB_A, ruleset, &out), 0);
	assert_null(out);	/* replaced with the blob */

	assert_int_equal(store_begin(f->st), 0);	/* a later one */
	put_blob(f->st, BLOB_B, ruleset, 0);
	assert_int_equal(store_blob_funcs_put(f->st, BLOB_B, ruleset,
					      "n b\nf 0 3 4 1\n"), 0);
	assert_int_equal(store_blob_funcs_put(f->st, BLOB_B, ruleset,
					      "n c\nf 0 5 6 0\n"), 0);
	assert_int_equal(store_commit(f->st), 0);
	assert_int_equal(store_blob_sites(f->st, BLOB_B, ruleset, &sites), 0);
	assert_int_equal(sites.n, 0);
	site_list_clear(&sites);
	assert_int_equal(store_blob_funcs(f->st, BLOB_B, ruleset, &out), 0);
	assert_non_null(out);
	assert_string_equal(out, "n c\nf 0 5 6 0\n");
	free(out);
	assert_int_equal(store_blob_sites(f->st, BLOB_A, ruleset, &sites), 0);
	assert_int_equal(sites.n, 1);
	site_list_clear(&sites);
}

/* The blobs the database file holds, its WAL ignored (immutable). */
static int blobs_in_file(const char *path)
{
	char *uri = xasprintf("file:%s?immutable=1", path);
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	int n = -1;

	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
			    NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT count(*) FROM blobs", -1, &s,
			       NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	free(uri);
	return n;
}

/*
 * store_checkpoint_behind(): the commits reach the database file without
 * the writer checkpointing (its own checkpoints are off), and after
 * store_checkpoint_stop() the store goes on as before.
 */
static void test_checkpoint_behind(void **state)
{
	struct fixture *f = *state;
	const char *ruleset = rules_hash();
	unsigned int i, waited;
	char oid[41];
	int n;

	if (ncpus() < 2)
		skip();
	store_checkpoint_behind(f->st);
	store_checkpoint_behind(f->st);		/* once is enough */
	for (i = 0; i < 20; i++) {
		snprintf(oid, sizeof(oid), "%040x", i + 1);
		assert_int_equal(store_begin(f->st), 0);
		put_blob(f->st, oid, ruleset, 2);
		assert_int_equal(store_commit(f->st), 0);
	}
	/*
	 * The thread copies them in its own time: up to 10 s.  A read that
	 * meets the file half written counts as not there yet.
	 */
	for (waited = 0; (n = blobs_in_file(f->path)) != 20 && waited < 1000;
	     waited++)
		usleep(10000);
	assert_int_equal(n, 20);

	store_checkpoint_stop(f->st);
	store_checkpoint_stop(f->st);		/* a no-op */
	assert_int_equal(store_begin(f->st), 0);
	put_blob(f->st, BLOB_A, ruleset, 2);
	assert_int_equal(store_commit(f->st), 0);
	reopen(f);
	assert_int_equal(blobs_in_file(f->path), 21);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_release_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_release_recommit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reopen_cache_hits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_transactions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_release_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_release_files_from, setup, teardown),
		cmocka_unit_test_setup_teardown(test_blob_funcs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_blob_put_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_checkpoint_behind, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
