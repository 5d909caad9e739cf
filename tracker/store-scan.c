// SPDX-License-Identifier: GPL-2.0
/*
 * store-scan.c - SQL of the tracker: blob cache, releases, counts, reports.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lexer.h"
#include "oidset.h"
#include "relinfo.h"
#include "rules.h"
#include "store-internal.h"

void release_info_clear(struct release_info *r)
{
	free(r->tag);
	free(r->commit);
	free(r->ruleset);
	free(r->counted_by);
	free(r->date_source);
	memset(r, 0, sizeof(*r));
}

void release_infos_free(struct release_info *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		release_info_clear(&v[i]);
	free(v);
}

static void read_release(sqlite3_stmt *s, struct release_info *r)
{
	r->id = sqlite3_column_int64(s, 0);
	r->tag = store_col_dup(s, 1);
	r->commit = store_col_dup(s, 2);
	r->ruleset = store_col_dup(s, 3);
	r->date = sqlite3_column_int64(s, 4);
	r->files = sqlite3_column_int64(s, 5);
	r->date_source = store_col_dup(s, 6);
	r->line_date = sqlite3_column_int64(s, 7);
	r->counted_by = store_col_dup(s, 8);
}

int store_release_get(struct store *st, const char *tag, struct release_info *out)
{
	static const char sql[] =
		"SELECT id, tag, commit_id, ruleset, date, files, date_source, line_date, counted_by FROM releases WHERE tag = ?";
	sqlite3_stmt *s = store_stmt(st, sql);
	int rc;

	memset(out, 0, sizeof(*out));
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, tag, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		read_release(s, out);
		sqlite3_reset(s);
		return 0;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_dberr(st, "read release");
	return kmig_errcode(KMIG_ENOTFOUND, "release '%s' is not scanned (run 'kmig scan')",
			    tag);
}

int store_release_recommit(struct store *st, const char *tag,
			   const char *old_commit, const char *new_commit)
{
	static const char sql[] =
		"UPDATE releases SET commit_id = ?3 WHERE tag = ?1 AND commit_id = ?2";
	sqlite3_stmt *s;

	s = store_txn_stmt(st, "store_release_recommit", sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, tag, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, old_commit, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, new_commit, -1, SQLITE_TRANSIENT);
	return store_done(st, s, "write");
}

int store_releases(struct store *st, struct release_info **out, size_t *n)
{
	static const char sql[] =
		"SELECT id, tag, commit_id, ruleset, date, files, date_source, line_date, counted_by FROM releases ORDER BY sort_key";
	sqlite3_stmt *s = store_stmt(st, sql);
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!s)
		return KMIG_EGENERIC;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(*out, *n + 1, alloc);
		read_release(s, &(*out)[(*n)++]);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_dberr(st, "read releases");
	return 0;
}

int store_cached_blobs(struct store *st, const char *ruleset, struct oidset *out)
{
	static const char sql[] = "SELECT oid FROM blobs WHERE ruleset = ?";
	sqlite3_stmt *s = store_stmt(st, sql);
	int rc;

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, ruleset, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		git_oid oid;

		if (git_oid_fromstr(&oid, (const char *)sqlite3_column_text(s, 0)) == 0)
			oidset_add(out, &oid);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_dberr(st, "read blob cache");
	return 0;
}

int store_blob_put(struct store *st, const char *oid, const char *ruleset,
		   uint64_t bytes, const struct site_list *sites)
{
	static const char has_sql[] =
		"SELECT 1 FROM blobs WHERE oid = ?1 AND ruleset = ?2";
	static const char new_sql[] =
		"INSERT INTO blobs(oid, ruleset, bytes) VALUES (?, ?, ?)";
	static const char blob_sql[] =
		"INSERT OR REPLACE INTO blobs(oid, ruleset, bytes) VALUES (?, ?, ?)";
	static const char site_sql[] =
		"INSERT INTO blob_sites(oid, ruleset, rule, line, func, text, deps) VALUES (?, ?, ?, ?, ?, ?, ?)";
	sqlite3_stmt *s;
	size_t i;

	/* a row replaced deletes its sites and facts (ON DELETE CASCADE) */
	s = store_oid_put_stmt(st, "store_blob_put", has_sql, new_sql,
			       blob_sql, oid, ruleset);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, oid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, ruleset, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 3, (sqlite3_int64)bytes);
	if (store_done(st, s, "write"))
		return KMIG_EGENERIC;
	for (i = 0; i < sites->n; i++) {
		const struct site *site = &sites->v[i];

		s = store_stmt(st, site_sql);
		if (!s)
			return KMIG_EGENERIC;
		sqlite3_bind_text(s, 1, oid, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 2, ruleset, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 3, rules[site->rule].id, -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 4, (int)site->line);
		store_bind_text(s, 5, site->func);
		store_bind_text(s, 6, site->text ? site->text : "");
		store_bind_text(s, 7, site->deps);
		if (store_done(st, s, "write"))
			return KMIG_EGENERIC;
	}
	return 0;
}

int store_blob_sites(struct store *st, const char *oid, const char *ruleset,
		     struct site_list *out)
{
	/*
	 * One statement, so one snapshot: no row when the blob is not
	 * cached, one row of NULLs when it is cached without sites.
	 */
	static const char sql[] =
		"SELECT bs.rule, bs.line, bs.func, bs.text, bs.deps FROM blobs b "
		"LEFT JOIN blob_sites bs ON bs.oid = b.oid AND bs.ruleset = b.ruleset "
		"WHERE b.oid = ? AND b.ruleset = ? ORDER BY bs.rowid";
	sqlite3_stmt *s = store_stmt(st, sql);
	bool cached = false;
	int rc;

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, oid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, ruleset, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 0);
		struct site *site;
		int r;

		cached = true;
		if (!name)
			continue;
		r = rule_lookup(name);
		if (r < 0)
			continue;
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		site = &out->v[out->n++];
		site->rule = r;
		site->line = (unsigned int)sqlite3_column_int(s, 1);
		site->func = store_col_dup(s, 2);
		site->text = store_col_dup(s, 3);
		site->deps = store_col_dup(s, 4);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_dberr(st, "read blob sites");
	return cached ? 0 : KMIG_ENOTFOUND;
}

/*
 * Before release @tag goes: the releases that share its files (their
 * files_base) get every file as their own row, their tombstones dropped.
 */
static int unshare_files(struct store *st, const char *tag)
{
	/*
	 * From the releases sharing it: a plan from @tag's rows would scan
	 * every release for each of them (releases.files_base has no index,
	 * and nothing shares most releases).
	 */
	static const char copy_sql[] =
		"INSERT INTO release_file_rows(release_id, path, oid, subsystem_id) "
		"SELECT d.id, b.path, b.oid, b.subsystem_id FROM releases d "
		"CROSS JOIN release_file_rows b ON b.release_id = d.files_base "
		"WHERE d.files_base = (SELECT id FROM releases WHERE tag = ?1) "
		"AND NOT EXISTS (SELECT 1 FROM release_file_rows o "
		"  WHERE o.release_id = d.id AND o.path = b.path)";
	static const char drop_sql[] =
		"DELETE FROM release_file_rows WHERE oid = '' AND release_id IN "
		"(SELECT d.id FROM releases x JOIN releases d ON d.files_base = x.id "
		"  WHERE x.tag = ?1)";
	static const char clear_sql[] =
		"UPDATE releases SET files_base = NULL WHERE files_base = "
		"(SELECT id FROM releases WHERE tag = ?1)";
	const char *const sql[] = { copy_sql, drop_sql, clear_sql };
	sqlite3_stmt *s;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sql); i++) {
		s = store_stmt(st, sql[i]);
		if (!s)
			return KMIG_EGENERIC;
		sqlite3_bind_text(s, 1, tag, -1, SQLITE_TRANSIENT);
		if (store_done(st, s, "write"))
			return KMIG_EGENERIC;
	}
	return 0;
}

int store_release_delete(struct store *st, const char *tag)
{
	static const char sql[] = "DELETE FROM releases WHERE tag = ?";
	sqlite3_stmt *s;

	if (store_need_txn(st, "store_release_delete") || unshare_files(st, tag))
		return KMIG_EGENERIC;
	s = store_stmt(st, sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, tag, -1, SQLITE_TRANSIENT);
	return store_done(st, s, "write");
}

int store_release_start(struct store *st, long long *id, const char *tag,
			const char *commit, long long date, const char *ruleset,
			const char *maintainers_oid)
{
	static const char ins_sql[] =
		"INSERT INTO releases(tag, commit_id, sort_key, date, ruleset, maintainers_oid, scanned_at, counted_by) "
		"VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
	sqlite3_stmt *s;
	char *key;
	int ret;

	/* an older scan of @tag goes first */
	if (store_need_txn(st, "store_release_start") ||
	    store_release_delete(st, tag))
		return KMIG_EGENERIC;
	s = store_stmt(st, ins_sql);
	if (!s)
		return KMIG_EGENERIC;
	key = version_sort_key(tag);
	sqlite3_bind_text(s, 1, tag, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, commit, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 4, date);
	sqlite3_bind_text(s, 5, ruleset, -1, SQLITE_TRANSIENT);
	store_bind_text(s, 6, maintainers_oid);
	sqlite3_bind_int64(s, 7, (sqlite3_int64)time(NULL));
	sqlite3_bind_text(s, 8, release_hash(), -1, SQLITE_STATIC);
	ret = store_done(st, s, "write");
	free(key);
	if (ret)
		return ret;
	*id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

int store_release_date(struct store *st, long long release, long long date)
{
	static const char sql[] = "UPDATE releases SET date = ?2 WHERE id = ?1";
	sqlite3_stmt *s;

	s = store_txn_stmt(st, "store_release_date", sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	sqlite3_bind_int64(s, 2, date);
	return store_done(st, s, "write");
}

int store_release_dates(struct store *st, long long release,
			const char *source, long long line_date)
{
	static const char sql[] =
		"UPDATE releases SET date_source = ?2, line_date = ?3 WHERE id = ?1";
	sqlite3_stmt *s;

	s = store_txn_stmt(st, "store_release_dates", sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	store_bind_text(s, 2, source);
	if (line_date)
		sqlite3_bind_int64(s, 3, line_date);
	else
		sqlite3_bind_null(s, 3);
	return store_done(st, s, "write");
}

void store_subsystems_forget(struct store *st)
{
	size_t i;

	for (i = 0; i < st->sub_cap; i++)
		free(st->sub_name[i]);
	free(st->sub_name);
	free(st->sub_id);
	st->sub_name = NULL;
	st->sub_id = NULL;
	st->sub_cap = st->sub_n = 0;
}

/* The slot of @name in st->sub_name: its own, or the empty one it would take. */
static size_t sub_slot(const struct store *st, const char *name)
{
	size_t mask = st->sub_cap - 1;
	size_t j = hash_mem32(name, strlen(name)) & mask;

	while (st->sub_name[j] && strcmp(st->sub_name[j], name))
		j = (j + 1) & mask;
	return j;
}

/* Remember subsystem @name's @id (at most half full: short probes). */
static void sub_remember(struct store *st, const char *name, long long id)
{
	size_t j;

	if ((st->sub_n + 1) * 2 > st->sub_cap) {
		char **oname = st->sub_name;
		long long *oid = st->sub_id;
		size_t ocap = st->sub_cap, i;

		st->sub_cap = ocap ? ocap * 2 : 1024;
		st->sub_name = xcalloc(st->sub_cap, sizeof(*st->sub_name));
		st->sub_id = xcalloc(st->sub_cap, sizeof(*st->sub_id));
		for (i = 0; i < ocap; i++) {
			if (!oname[i])
				continue;
			j = sub_slot(st, oname[i]);
			st->sub_name[j] = oname[i];
			st->sub_id[j] = oid[i];
		}
		free(oname);
		free(oid);
	}
	j = sub_slot(st, name);
	if (!st->sub_name[j]) {
		st->sub_name[j] = xstrdup(name);
		st->sub_n++;
	}
	st->sub_id[j] = id;
}

static int subsystem_id(struct store *st, const char *name, long long *id)
{
	static const char ins_sql[] = "INSERT OR IGNORE INTO subsystems(name) VALUES (?)";
	static const char sel_sql[] = "SELECT id FROM subsystems WHERE name = ?";
	sqlite3_stmt *s;
	size_t j;
	int ret;

	if (st->sub_cap) {
		j = sub_slot(st, name);
		if (st->sub_name[j]) {
			*id = st->sub_id[j];
			return 0;
		}
	}
	s = store_stmt(st, sel_sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
	ret = store_value(st, s, "read subsystems", id, NULL);
	if (ret < 0)
		return ret;
	if (ret)
		goto remember;
	s = store_stmt(st, ins_sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
	if (store_done(st, s, "write"))
		return KMIG_EGENERIC;
	*id = sqlite3_last_insert_rowid(st->db);
remember:
	sub_remember(st, name, *id);
	return 0;
}

int store_release_maintainers(struct store *st, long long release,
			      char **oid)
{
	static const char sql[] =
		"SELECT maintainers_oid FROM releases WHERE id = ?";
	sqlite3_stmt *s = store_stmt(st, sql);
	int ret;

	*oid = NULL;
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	ret = store_value(st, s, "read releases", NULL, oid);
	return ret < 0 ? ret : 0;
}

int store_release_subsystems(struct store *st, long long release,
			     const char *(*section)(const void *data, const char *path),
			     const void *data, size_t *moved)
{
	static const char sel_sql[] =
		"SELECT f.path, s.name FROM release_file_rows f "
		"JOIN subsystems s ON s.id = f.subsystem_id "
		"WHERE f.release_id = ? AND f.oid != ''";
	static const char upd_sql[] =
		"UPDATE release_file_rows SET subsystem_id = ?3 "
		"WHERE release_id = ?1 AND path = ?2";
	struct move {
		char *path;
		const char *name;
	} *mv = NULL;
	size_t n = 0, alloc = 0, i;
	sqlite3_stmt *s;
	int rc, ret = 0;

	*moved = 0;
	s = store_txn_stmt(st, "store_release_subsystems", sel_sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(s, 0);
		const char *old = (const char *)sqlite3_column_text(s, 1);
		const char *now = section(data, path);

		if (!strcmp(now, old))
			continue;
		ALLOC_GROW(mv, n + 1, alloc);
		mv[n].path = xstrdup(path);
		mv[n++].name = now;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		ret = store_dberr(st, "read release files");
	for (i = 0; !ret && i < n; i++) {
		long long sid;

		ret = subsystem_id(st, mv[i].name, &sid);
		if (ret)
			break;
		s = store_stmt(st, upd_sql);
		if (!s) {
			ret = KMIG_EGENERIC;
			break;
		}
		sqlite3_bind_int64(s, 1, release);
		sqlite3_bind_text(s, 2, mv[i].path, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 3, sid);
		ret = store_done(st, s, "write");
	}
	for (i = 0; i < n; i++)
		free(mv[i].path);
	free(mv);
	if (!ret)
		*moved = n;
	return ret;
}

int store_release_file(struct store *st, long long release, const char *path,
		       const char *oid, const char *subsystem)
{
	static const char sql[] =
		"INSERT INTO release_file_rows(release_id, path, oid, subsystem_id) VALUES (?, ?, ?, ?)";
	sqlite3_stmt *s;
	long long sid;

	if (store_need_txn(st, "store_release_file") ||
	    subsystem_id(st, subsystem, &sid))
		return KMIG_EGENERIC;
	s = store_stmt(st, sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	sqlite3_bind_text(s, 2, path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, oid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 4, sid);
	return store_done(st, s, "write");
}

/*
 * A release's file rows, FILES_PER_INSERT in one statement: the rows of a
 * release's 50,000 files are most of its write, and one statement per
 * row costs its step and reset per row.
 */
#define FILES_PER_INSERT 64

static char files_sql[64 + FILES_PER_INSERT * 24];
static pthread_once_t files_sql_once = PTHREAD_ONCE_INIT;

static void files_sql_init(void)
{
	size_t len, r;

	len = (size_t)snprintf(files_sql, sizeof(files_sql),
		"INSERT INTO release_file_rows(release_id, path, oid, subsystem_id) VALUES ");
	for (r = 0; r < FILES_PER_INSERT; r++)
		len += (size_t)snprintf(files_sql + len, sizeof(files_sql) - len,
					"%s(?1, ?, ?, ?)", r ? ", " : "");
}

int store_release_files(struct store *st, long long release,
			const struct store_file *v, size_t n)
{
	long long sid;
	sqlite3_stmt *s;
	size_t i, r;
	int ret;

	if (store_need_txn(st, "store_release_files"))
		return KMIG_EGENERIC;
	pthread_once(&files_sql_once, files_sql_init);
	for (i = 0; i + FILES_PER_INSERT <= n; i += FILES_PER_INSERT) {
		s = store_stmt(st, files_sql);
		if (!s)
			return KMIG_EGENERIC;
		sqlite3_bind_int64(s, 1, release);
		for (r = 0; r < FILES_PER_INSERT; r++) {
			const struct store_file *f = &v[i + r];

			if (subsystem_id(st, f->subsystem, &sid))
				return KMIG_EGENERIC;
			sqlite3_bind_text(s, (int)(2 + 3 * r), f->path, -1, SQLITE_STATIC);
			sqlite3_bind_text(s, (int)(3 + 3 * r), f->oid, -1, SQLITE_STATIC);
			sqlite3_bind_int64(s, (int)(4 + 3 * r), sid);
		}
		/* the statement is reset before its texts go */
		ret = store_done(st, s, "write");
		if (ret)
			return ret;
	}
	for (; i < n; i++) {
		ret = store_release_file(st, release, v[i].path, v[i].oid,
					 v[i].subsystem);
		if (ret)
			return ret;
	}
	return 0;
}

/* Run @sql with ?1 = @a and, when the statement has it, ?2 = @b. */
static int run_rel_sql(struct store *st, const char *sql, long long a,
		       long long b)
{
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, a);
	if (sqlite3_bind_parameter_count(s) >= 2)
		sqlite3_bind_int64(s, 2, b);
	return store_done(st, s, "write");
}

/* The release's counts from its file_counts, and its number of files. */
static int release_counts(struct store *st, long long release, long long files)
{
	static const char count_sql[] =
		"INSERT INTO counts(release_id, subsystem_id, rule, count) "
		"SELECT fc.release_id, sid, fc.rule, sum(fc.count) FROM (SELECT fc.release_id, "
		RELEASE_FILE_SECTION("?1", "fc.path") " AS sid, fc.rule, fc.count "
		"FROM file_counts fc WHERE fc.release_id = ?1) fc GROUP BY sid, fc.rule";
	static const char upd_sql[] = "UPDATE releases SET files = ?2 WHERE id = ?1";

	if (run_rel_sql(st, count_sql, release, 0) ||
	    run_rel_sql(st, upd_sql, release, files))
		return KMIG_EGENERIC;
	return 0;
}

int store_release_finish(struct store *st, long long release, long long files)
{
	static const char file_sql[] = FILE_COUNTS_SQL("");
	static const char by_sql[] =
		"UPDATE releases SET counted_by = ?2 WHERE id = ?1";
	sqlite3_stmt *s;

	if (store_need_txn(st, "store_release_finish"))
		return KMIG_EGENERIC;
	if (run_rel_sql(st, file_sql, release, 0))
		return KMIG_EGENERIC;
	s = store_stmt(st, by_sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	sqlite3_bind_text(s, 2, release_hash(), -1, SQLITE_STATIC);
	if (store_done(st, s, "write"))
		return KMIG_EGENERIC;
	return release_counts(st, release, files);
}

/* Has @sql (?1 = @a, ?2 = @b, on table releases) a row?  1, 0 or negative. */
static int rel_pair(struct store *st, const char *sql, long long a, long long b)
{
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, a);
	sqlite3_bind_int64(s, 2, b);
	return store_exists(st, s, "read releases");
}

static const char redo_clear_sql[] = "DELETE FROM temp.scan_redo";

/* temp.scan_redo: the @n paths of @changed, and nothing else. */
static int redo_fill(struct store *st, const char *const *changed, size_t n)
{
	static const char redo_sql[] =
		"CREATE TEMP TABLE IF NOT EXISTS scan_redo "
		"(path TEXT PRIMARY KEY) WITHOUT ROWID";
	static const char add_sql[] =
		"INSERT OR IGNORE INTO temp.scan_redo(path) VALUES (?)";
	sqlite3_stmt *s;
	size_t i;

	if (store_exec(st, redo_sql) || store_exec(st, redo_clear_sql))
		return KMIG_EGENERIC;
	for (i = 0; i < n; i++) {
		s = store_stmt(st, add_sql);
		if (!s)
			return KMIG_EGENERIC;
		sqlite3_bind_text(s, 1, changed[i], -1, SQLITE_STATIC);
		if (store_done(st, s, "write"))
			return KMIG_EGENERIC;
	}
	return 0;
}

/*
 * With the base's MAINTAINERS, an unchanged file is in the same section
 * in both releases.
 */
static const char same_maint_sql[] =
	"SELECT 1 FROM releases a JOIN releases b "
	"ON b.maintainers_oid = a.maintainers_oid "
	"WHERE a.id = ?1 AND b.id = ?2";

/*
 * The paths whose call graph facts differ between releases ?1 and ?2: a
 * line reached in one only (SITE_RULE), or a vla constant in one only
 * (SITE_VLA_CONST).  A file with the same blob in both has its sites
 * counted under the same rules in both unless its path is one of these.
 */
#define GRAPH_CHANGED_PATHS \
	"SELECT path FROM (SELECT path, line FROM release_reach WHERE release_id = ?1 " \
	"  EXCEPT SELECT path, line FROM release_reach WHERE release_id = ?2) " \
	"UNION SELECT path FROM (SELECT path, line FROM release_reach WHERE release_id = ?2 " \
	"  EXCEPT SELECT path, line FROM release_reach WHERE release_id = ?1) " \
	"UNION SELECT path FROM (SELECT path, line, deps FROM release_vlaconst WHERE release_id = ?1 " \
	"  EXCEPT SELECT path, line, deps FROM release_vlaconst WHERE release_id = ?2) " \
	"UNION SELECT path FROM (SELECT path, line, deps FROM release_vlaconst WHERE release_id = ?2 " \
	"  EXCEPT SELECT path, line, deps FROM release_vlaconst WHERE release_id = ?1) "

/*
 * A table's rows of release ?2 between two paths copied to release ?1:
 * the statements for every path, for those before ?4, between ?3 and ?4,
 * and after ?3.  Each is one range of the primary key (release_id, path,
 * ...), in key order.
 */
struct range_copy {
	const char *all, *first, *mid, *last;
};

#define RANGE_COPY(insert) { insert, insert "AND path < ?4", \
	insert "AND path > ?3 AND path < ?4", insert "AND path > ?3" }

/* the base's own rows (migration 13), its tombstones too */
static const struct range_copy copy_files = RANGE_COPY(
	"INSERT INTO release_file_rows(release_id, path, oid, subsystem_id) "
	"SELECT ?1, path, oid, subsystem_id FROM release_file_rows WHERE release_id = ?2 ");

static const struct range_copy copy_file_counts = RANGE_COPY(
	"INSERT INTO file_counts(release_id, path, rule, count) "
	"SELECT ?1, path, rule, count FROM file_counts WHERE release_id = ?2 ");

static int copy_between(struct store *st, const struct range_copy *c,
			long long release, long long base, const char *after,
			const char *before)
{
	sqlite3_stmt *s = store_stmt(st, after ? (before ? c->mid : c->last) :
				     (before ? c->first : c->all));

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	sqlite3_bind_int64(s, 2, base);
	if (after)
		sqlite3_bind_text(s, 3, after, -1, SQLITE_STATIC);
	if (before)
		sqlite3_bind_text(s, 4, before, -1, SQLITE_STATIC);
	return store_done(st, s, "write");
}

/* Are the @n @paths in strcmp() order, each once?  0, or the error. */
static int paths_ordered(struct store *st, const char *const *paths, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (strcmp(paths[i - 1], paths[i]) >= 0)
			return kmig_err("database '%s': copying rows: '%s' after '%s'",
					st->path, paths[i], paths[i - 1]);
	return 0;
}

/*
 * The rows of @base copied to @release for every path but the @n of
 * @skip (in strcmp() order, SQLite's BINARY order, each once): the
 * ranges between them, each a seek and a walk of the key, not a lookup of
 * every row's path in a set of the skipped ones (a third of a copy's
 * time).
 */
static int copy_ranges(struct store *st, const struct range_copy *c,
		       long long release, long long base,
		       const char *const *skip, size_t n)
{
	const char *after = NULL;
	size_t i;

	if (paths_ordered(st, skip, n))
		return KMIG_EGENERIC;
	for (i = 0; i < n; i++) {
		if (copy_between(st, c, release, base, after, skip[i]))
			return KMIG_EGENERIC;
		after = skip[i];
	}
	return copy_between(st, c, release, base, after, NULL);
}

/*
 * Where a release sharing @base's files takes them from: *@root, @base's
 * own files_base or @base itself, and *@own, the rows @base has of its own
 * beyond that (0 when @base is the root); *@files, @base's file count.
 */
static int files_root(struct store *st, long long base, long long *root,
		      long long *own, long long *files)
{
	static const char sql[] =
		"SELECT files_base, files, CASE WHEN files_base IS NULL THEN 0 ELSE "
		"(SELECT count(*) FROM release_file_rows WHERE release_id = ?1) END "
		"FROM releases WHERE id = ?1";
	sqlite3_stmt *s = store_stmt(st, sql);
	int rc;

	*root = *own = *files = 0;
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, base);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*root = sqlite3_column_type(s, 0) == SQLITE_NULL ? base :
			sqlite3_column_int64(s, 0);
		*files = sqlite3_column_int64(s, 1);
		*own = sqlite3_column_int64(s, 2);
	}
	sqlite3_reset(s);
	if (rc == SQLITE_DONE)
		return kmig_err("database '%s': release %lld is gone", st->path, base);
	if (rc != SQLITE_ROW)
		return store_dberr(st, "read releases");
	return 0;
}

int store_release_files_from(struct store *st, long long release,
			     long long base, const char *const *changed,
			     size_t nchanged, bool *copied)
{
	static const char base_sql[] =
		"UPDATE releases SET files_base = ?2 WHERE id = ?1";
	long long root, own, files;
	int rc;

	*copied = false;
	if (store_need_txn(st, "store_release_files_from") ||
	    paths_ordered(st, changed, nchanged))
		return KMIG_EGENERIC;
	rc = rel_pair(st, same_maint_sql, release, base);
	if (rc <= 0)
		return rc;
	if (files_root(st, base, &root, &own, &files))
		return KMIG_EGENERIC;
	/*
	 * A release whose own rows would be a quarter of the base's files or
	 * more is written whole (and is a root): a lookup in it is then one
	 * probe, and the rows a release shares stay few.
	 */
	if ((long long)nchanged + own > files / 4)
		return 0;
	if (root != base &&
	    copy_ranges(st, &copy_files, release, base, changed, nchanged))
		return KMIG_EGENERIC;
	if (run_rel_sql(st, base_sql, release, root))
		return KMIG_EGENERIC;
	*copied = true;
	return 0;
}

int store_release_files_gone(struct store *st, long long release,
			     long long base, const char *const *gone,
			     size_t n)
{
	/* a tombstone (migration 13) for each file of @base @release lacks */
	static const char sql[] =
		"INSERT INTO release_file_rows(release_id, path, oid, subsystem_id) "
		"SELECT ?1, path, '', subsystem_id FROM release_files "
		"WHERE release_id = ?2 AND path = ?3";
	sqlite3_stmt *s;
	size_t i;

	if (store_need_txn(st, "store_release_files_gone"))
		return KMIG_EGENERIC;
	for (i = 0; i < n; i++) {
		s = store_stmt(st, sql);
		if (!s)
			return KMIG_EGENERIC;
		sqlite3_bind_int64(s, 1, release);
		sqlite3_bind_int64(s, 2, base);
		sqlite3_bind_text(s, 3, gone[i], -1, SQLITE_STATIC);
		if (store_done(st, s, "write"))
			return KMIG_EGENERIC;
	}
	return 0;
}

/* Were releases ?1 and ?2 scanned and counted under the same rules? */
static const char same_rules_sql[] =
	"SELECT 1 FROM releases a JOIN releases b ON b.ruleset = a.ruleset "
	"AND b.counted_by = a.counted_by WHERE a.id = ?1 AND b.id = ?2";

int store_release_counts_copy(struct store *st, long long release,
			      long long base, const char *const *changed,
			      size_t nchanged)
{
	int rc;

	if (store_need_txn(st, "store_release_counts_copy"))
		return KMIG_EGENERIC;
	rc = rel_pair(st, same_rules_sql, release, base);
	if (rc <= 0)
		return rc;
	return copy_ranges(st, &copy_file_counts, release, base, changed,
			   nchanged);
}

int store_release_finish_from(struct store *st, long long release,
			      long long base, const char *const *changed,
			      size_t nchanged, long long files)
{
	/*
	 * An unchanged file's sites count under the same rules in both
	 * releases unless the graphs differ for it: a line reached in one
	 * only (SITE_RULE), or a vla constant in one only (SITE_VLA_CONST).
	 */
	static const char graph_sql[] =
		"INSERT OR IGNORE INTO temp.scan_redo(path) " GRAPH_CHANGED_PATHS;
	static const char file_sql[] =
		FILE_COUNTS_SQL("AND rf.path IN (SELECT path FROM temp.scan_redo)");
	/* store_release_counts_copy() took them: none of a changed path */
	static const char drop_sql[] =
		"DELETE FROM file_counts WHERE release_id = ?1 "
		"AND path IN (SELECT path FROM temp.scan_redo)";
	/*
	 * With the base's MAINTAINERS (same_maint_sql), the counts are the
	 * base's, less what the files counted again had there, plus what
	 * they have here (a section and rule left with none has no row, as
	 * release_counts() makes it).
	 */
	static const char counts_sql[] =
		"INSERT INTO counts(release_id, subsystem_id, rule, count) "
		"SELECT ?1, sid, rule, sum(n) FROM ("
		"  SELECT subsystem_id AS sid, rule, count AS n FROM counts WHERE release_id = ?2 "
		"  UNION ALL SELECT " RELEASE_FILE_SECTION("?1", "fc.path") ", fc.rule, fc.count "
		"  FROM file_counts fc "
		"  WHERE fc.release_id = ?1 AND fc.path IN (SELECT path FROM temp.scan_redo) "
		"  UNION ALL SELECT " RELEASE_FILE_SECTION("?2", "fc.path") ", fc.rule, -fc.count "
		"  FROM file_counts fc "
		"  WHERE fc.release_id = ?2 AND fc.path IN (SELECT path FROM temp.scan_redo)) "
		"GROUP BY sid, rule HAVING sum(n) != 0";
	static const char upd_sql[] = "UPDATE releases SET files = ?2 WHERE id = ?1";
	int rc;

	if (store_need_txn(st, "store_release_finish_from"))
		return KMIG_EGENERIC;
	/* the caller's promise, kept here too: no base of other rules */
	rc = rel_pair(st, same_rules_sql, release, base);
	if (rc < 0)
		return rc;
	if (!rc)
		return store_release_finish(st, release, files);
	if (redo_fill(st, changed, nchanged) ||
	    run_rel_sql(st, graph_sql, release, base) ||
	    run_rel_sql(st, drop_sql, release, 0) ||
	    run_rel_sql(st, file_sql, release, 0))
		return KMIG_EGENERIC;
	rc = rel_pair(st, same_maint_sql, release, base);
	if (rc < 0)
		return rc;
	if (!rc) {	/* another MAINTAINERS: counted whole */
		if (store_exec(st, redo_clear_sql))
			return KMIG_EGENERIC;
		return release_counts(st, release, files);
	}
	if (run_rel_sql(st, counts_sql, release, base) ||
	    run_rel_sql(st, upd_sql, release, files) ||
	    store_exec(st, redo_clear_sql))
		return KMIG_EGENERIC;
	return 0;
}

void count_rows_clear(struct count_rows *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].key);
		free(r->v[i].rule);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static int collect_rows(struct store *st, sqlite3_stmt *s, struct count_rows *out)
{
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct count_row *row;

		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		row = &out->v[out->n++];
		row->key = store_col_dup(s, 0);
		row->rule = store_col_dup(s, 1);
		row->count = sqlite3_column_int64(s, 2);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_dberr(st, "read counts");
	return 0;
}

int store_counts(struct store *st, long long release, enum count_by by,
		 const char *rule, const char *subsystem, struct count_rows *out)
{
	static const char rule_sql[] =
		"SELECT NULL, c.rule, sum(c.count) FROM counts c JOIN subsystems s ON s.id = c.subsystem_id "
		"WHERE c.release_id = ?1 AND (?2 IS NULL OR c.rule = ?2) AND (?3 IS NULL OR s.name = ?3) "
		"GROUP BY c.rule ORDER BY c.rule";
	static const char subsys_sql[] =
		"SELECT s.name, c.rule, c.count FROM counts c JOIN subsystems s ON s.id = c.subsystem_id "
		"WHERE c.release_id = ?1 AND (?2 IS NULL OR c.rule = ?2) AND (?3 IS NULL OR s.name = ?3) "
		"ORDER BY s.name, c.rule";
	static const char file_sql[] =
		"SELECT fc.path, fc.rule, fc.count FROM file_counts fc "
		"JOIN subsystems s ON s.id = " RELEASE_FILE_SECTION("?1", "fc.path") " "
		"WHERE fc.release_id = ?1 AND (?2 IS NULL OR fc.rule = ?2) AND (?3 IS NULL OR s.name = ?3) "
		"ORDER BY fc.path, fc.rule";
	sqlite3_stmt *s = store_stmt(st, by == BY_RULE ? rule_sql :
				     by == BY_SUBSYSTEM ? subsys_sql : file_sql);

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	store_bind_text(s, 2, rule);
	store_bind_text(s, 3, subsystem);
	return collect_rows(st, s, out);
}

/*
 * collect_changes - rows (key, rule, added, removed) of @s appended to
 * @added and @removed (the same keys in both).
 */
static int collect_changes(struct store *st, sqlite3_stmt *s,
			   struct count_rows *added, struct count_rows *removed)
{
	struct count_rows *const outs[] = { added, removed };
	size_t i;
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		for (i = 0; i < ARRAY_SIZE(outs); i++) {
			struct count_rows *o = outs[i];
			struct count_row *row;

			ALLOC_GROW(o->v, o->n + 1, o->alloc);
			row = &o->v[o->n++];
			row->key = store_col_dup(s, 0);
			row->rule = store_col_dup(s, 1);
			row->count = sqlite3_column_int64(s, 2 + (int)i);
		}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_dberr(st, "compare releases");
	return 0;
}

/*
 * Do releases @old and @new_ have the same MAINTAINERS blob?  Then every
 * path has the same section in both, and the old counts of the paths of a
 * section (a trend's "before") are the old release's counts table.
 */
static int same_sections(struct store *st, long long old, long long new_,
			 bool *same)
{
	static const char sql[] =
		"SELECT o.maintainers_oid IS NOT NULL AND o.maintainers_oid = n.maintainers_oid "
		"FROM releases o, releases n WHERE o.id = ?1 AND n.id = ?2";
	sqlite3_stmt *s = store_stmt(st, sql);
	long long v = 0;
	int ret;

	*same = false;
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, old);
	sqlite3_bind_int64(s, 2, new_);
	ret = store_value(st, s, "compare releases", &v, NULL);
	*same = v != 0;
	return ret < 0 ? ret : 0;
}

/*
 * The sites of the files of f (or of sel: f in one section) whose blob
 * differs, +1 in the new release and -1 in the old, summed per (section,
 * rule, path, use_key(text)): a positive sum is added, a negative one
 * removed; a change of spacing or of a comment alone neither (usetext.h).
 */
#define TREND_DIFF(files) \
	"changed AS (" \
	"  SELECT path, sid, new_oid AS oid, ?2 AS rel, 1 AS sign FROM " files \
	"  WHERE new_oid IS NOT NULL AND (new_oid IS NOT old_oid OR " TREND_REACHED ") " \
	"  AND " TREND_COUNTED("?2", files) \
	"  UNION ALL " \
	"  SELECT path, sid, old_oid, ?1, -1 FROM " files \
	"  WHERE old_oid IS NOT NULL AND (old_oid IS NOT new_oid OR " TREND_REACHED ") " \
	"  AND " TREND_COUNTED("?1", files) "), " \
	"s AS (SELECT c.sid, c.path, c.sign, use_key(bs.text) AS text, " SITE_RULE("c.rel", "c.path") " AS rule " \
	"  FROM changed c JOIN releases r ON r.id = c.rel " \
	"  JOIN blob_sites bs ON bs.oid = c.oid AND bs.ruleset = r.ruleset), " \
	"d AS (SELECT sid, rule, sum(sign) AS n FROM s " \
	"  WHERE rule IS NOT NULL AND (?3 IS NULL OR rule = ?3) " \
	"  GROUP BY sid, rule, path, text) "

/*
 * A file whose blob is the same in both releases is compared too when a
 * site of it is reached in either (its WARN may count as warn-on-user in
 * one and warn-on in the other) or is a constant vla in either: the same
 * sites cancel out.
 */
#define TREND_REACHED \
	"(path IN (SELECT path FROM release_reach WHERE release_id IN (?1, ?2)) " \
	"OR path IN (SELECT path FROM release_vlaconst WHERE release_id IN (?1, ?2)))"

/*
 * Only a file of @files with a row in file_counts of release @rel has a
 * site that counts there (FILE_COUNTS_SQL: one for each rule with a
 * counted site; a constant vla has none): the others' blob_sites are not
 * looked up.
 */
#define TREND_COUNTED(rel, files) \
	"EXISTS (SELECT 1 FROM file_counts fc0 WHERE fc0.release_id = " rel \
	" AND fc0.path = " files ".path)"

#define TREND_SEL \
	"sel AS (SELECT f.* FROM f JOIN subsystems s ON s.id = f.sid " \
	"  WHERE ?4 IS NULL OR s.name = ?4) "

/*
 * The files of releases @old and @new_ whose blob differs, or that only
 * one of them has, in temp.trend_changed: one walk of both file lists in
 * path order, instead of looking each path of one release up in the
 * other (most of what comparing two releases cost, ~0.1 s for two
 * releases of 58 000 files that differ in a few hundred).  TREND_CHANGED
 * adds the files with the same blob whose sites may count otherwise in
 * each release: the comparison's sums are those of every path of both.
 */
static const char trend_clear_sql[] = "DELETE FROM temp.trend_changed";

/*
 * A file with the same blob in both releases is compared (TREND_DIFF) when
 * its reached WARN lines or constant vlas differ between them: its sites
 * may count under another rule in each.  One whose reach and vla rows are
 * the same in both has the same sites under the same rules, which cancel
 * out: a group of sum 0, whose section and rule have that file's uses in
 * the new release anyway (kmig report prints their row for its count), so
 * it adds nothing a report or a page shows, and it is not looked up;
 * unless the releases were scanned under different rule sets, whose
 * sites of one blob may differ: then every file reached or with a
 * constant vla in either is, as TREND_REACHED says.
 */
#define TREND_OTHER_RULES \
	"(SELECT a.ruleset IS NOT b.ruleset FROM releases a, releases b " \
	"  WHERE a.id = ?1 AND b.id = ?2)"

/*
 * The paths r are few: CROSS JOIN keeps them the outer loop, where the
 * planner would scan every file of a release that shares its files
 * (migration 13's view) and look each up among them.
 */
#define TREND_CHANGED \
	"f AS (SELECT path, new_oid, old_oid, sid FROM temp.trend_changed " \
	"  UNION ALL " \
	"  SELECT n.path, n.oid, o.oid, n.subsystem_id FROM (" GRAPH_CHANGED_PATHS \
	"    UNION SELECT path FROM release_reach WHERE release_id IN (?1, ?2) AND " TREND_OTHER_RULES \
	"    UNION SELECT path FROM release_vlaconst WHERE release_id IN (?1, ?2) AND " TREND_OTHER_RULES \
	"  ) r " \
	"  CROSS JOIN release_files n ON n.release_id = ?2 AND n.path = r.path " \
	"  JOIN release_files o ON o.release_id = ?1 AND o.path = r.path AND o.oid = n.oid) "

/*
 * The counts in release @old (?1) of each of its files with uses, in the
 * section the file has in @new_ (?2), or in @old when @new_ lacks it: what
 * a join of every path of both releases with the old file counts gives,
 * looking up only the files with uses.
 */
#define TREND_BEFORE \
	"b AS (SELECT fc.rule, fc.count, coalesce(" RELEASE_FILE_SECTION("?2", "fc.path") ", " \
	RELEASE_FILE_SECTION("?1", "fc.path") ") AS sid " \
	"  FROM file_counts fc WHERE fc.release_id = ?1 AND (?3 IS NULL OR fc.rule = ?3)) "

static int trend_add(struct store *st, const char *path, const char *new_oid,
		     const char *old_oid, long long sid)
{
	static const char add_sql[] =
		"INSERT INTO temp.trend_changed(path, new_oid, old_oid, sid) "
		"VALUES (?1, ?2, ?3, ?4)";
	sqlite3_stmt *s = store_stmt(st, add_sql);

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, path, -1, SQLITE_STATIC);
	store_bind_text(s, 2, new_oid);
	store_bind_text(s, 3, old_oid);
	sqlite3_bind_int64(s, 4, sid);
	return store_done(st, s, "compare releases");
}

/*
 * Releases ?1 and ?2 that share one root's files (migration 13: each is
 * the root or shares the other's) differ only at the paths of their own
 * rows (?3: ?1 has its own beside the root's, ?4: ?2 has): a few thousand
 * lookups instead of two walks of 58,000 files.  Either's row of a path
 * may be a tombstone.
 */
#define TREND_OWN_OID(rel) \
	"(SELECT x.oid FROM release_files x WHERE x.release_id = " rel " AND x.path = c.path)"

static const char trend_shared_sql[] =
	"INSERT INTO temp.trend_changed(path, new_oid, old_oid, sid) "
	"SELECT path, n_oid, o_oid, sid FROM (SELECT c.path, "
	TREND_OWN_OID("?2") " AS n_oid, " TREND_OWN_OID("?1") " AS o_oid, "
	"coalesce(" RELEASE_FILE_SECTION("?2", "c.path") ", "
	RELEASE_FILE_SECTION("?1", "c.path") ") AS sid "
	"  FROM (SELECT path FROM release_file_rows WHERE release_id = ?1 AND ?3 "
	"    UNION SELECT path FROM release_file_rows WHERE release_id = ?2 AND ?4) c) "
	"WHERE n_oid IS NOT o_oid";

/* 1 when @old and @new_ share a root (trend_shared_sql), 0, or negative. */
static int trend_shared(struct store *st, long long old, long long new_)
{
	static const char sql[] =
		"SELECT a.files_base IS NOT NULL, b.files_base IS NOT NULL "
		"FROM releases a, releases b WHERE a.id = ?1 AND b.id = ?2 "
		"AND coalesce(a.files_base, a.id) = coalesce(b.files_base, b.id)";
	sqlite3_stmt *s = store_stmt(st, sql), *ins;
	int rc, own_old, own_new;

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, old);
	sqlite3_bind_int64(s, 2, new_);
	rc = sqlite3_step(s);
	own_old = sqlite3_column_int(s, 0);
	own_new = sqlite3_column_int(s, 1);
	sqlite3_reset(s);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return store_dberr(st, "compare releases");
	ins = store_stmt(st, trend_shared_sql);
	if (!ins)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(ins, 1, old);
	sqlite3_bind_int64(ins, 2, new_);
	sqlite3_bind_int(ins, 3, own_old);
	sqlite3_bind_int(ins, 4, own_new);
	if (store_done(st, ins, "compare releases"))
		return KMIG_EGENERIC;
	return 1;
}

static int trend_fill(struct store *st, long long old, long long new_)
{
	static const char create_sql[] =
		"CREATE TEMP TABLE IF NOT EXISTS trend_changed (path TEXT PRIMARY KEY, "
		"new_oid TEXT, old_oid TEXT, sid INTEGER NOT NULL) WITHOUT ROWID";
	struct file_walk o, n;	/* stepped side by side */
	int ro, rn, ret;

	if (store_exec(st, create_sql) || store_exec(st, "SAVEPOINT trend_fill"))
		return KMIG_EGENERIC;
	ret = store_exec(st, trend_clear_sql);
	if (!ret)
		ret = trend_shared(st, old, new_);
	if (ret) {
		ret = ret < 0 ? ret : 0;
		goto out_release;
	}
	ret = file_walk_start(st, &o, old, 0);
	if (ret)
		goto out_release;
	ret = file_walk_start(st, &n, new_, 1);
	if (ret)
		goto out_end_old;
	ro = file_walk_next(&o);
	rn = file_walk_next(&n);
	while (!ret) {
		int c;

		/* an error of either list ends the walk, before another step */
		if (ro < 0 || rn < 0) {
			ret = ro < 0 ? ro : rn;
			break;
		}
		if (!ro && !rn)
			break;
		c = !ro ? 1 : !rn ? -1 : strcmp(o.path, n.path);
		if (c < 0) {
			ret = trend_add(st, o.path, NULL, o.oid, o.sid);
			ro = file_walk_next(&o);
		} else if (c > 0) {
			ret = trend_add(st, n.path, n.oid, NULL, n.sid);
			rn = file_walk_next(&n);
		} else {
			if (strcmp(o.oid, n.oid))
				ret = trend_add(st, n.path, n.oid, o.oid, n.sid);
			ro = file_walk_next(&o);
			rn = file_walk_next(&n);
		}
	}
	file_walk_end(&n);
out_end_old:
	file_walk_end(&o);
out_release:
	/* one transaction for the rows: not one a row */
	if (!ret && store_exec(st, "RELEASE trend_fill"))
		ret = KMIG_EGENERIC;
	if (ret)
		store_exec(st, "ROLLBACK TO trend_fill; RELEASE trend_fill");
	return ret;
}

/*
 * The statements of one comparison: the sites added and removed
 * (@changes), and the counts in the old release (@before, or @counts when
 * both releases have the same sections).  Their parameters: ?1 the old
 * release, ?2 the new one, ?3 a rule or NULL, ?4 (where used) a section
 * or NULL.
 */
struct trend_sql {
	const char *changes, *before, *counts;
};

static void trend_bind(sqlite3_stmt *s, long long old, long long new_,
		       const char *rule, const char *subsystem)
{
	sqlite3_bind_int64(s, 1, old);
	sqlite3_bind_int64(s, 2, new_);
	store_bind_text(s, 3, rule);
	if (sqlite3_bind_parameter_count(s) >= 4)
		store_bind_text(s, 4, subsystem);
}

/* Run @q on releases @old and @new_: what store.h's comparisons return. */
static int trend_run(struct store *st, const struct trend_sql *q,
		     long long old, long long new_, const char *rule,
		     const char *subsystem, struct count_rows *added,
		     struct count_rows *removed, struct count_rows *before)
{
	sqlite3_stmt *s;
	bool same;

	if (trend_fill(st, old, new_))
		return KMIG_EGENERIC;
	s = store_stmt(st, q->changes);
	if (!s)
		return KMIG_EGENERIC;
	trend_bind(s, old, new_, rule, subsystem);
	if (collect_changes(st, s, added, removed) || store_exec(st, trend_clear_sql))
		return KMIG_EGENERIC;
	if (!before)
		return 0;
	if (same_sections(st, old, new_, &same))
		return KMIG_EGENERIC;
	s = store_stmt(st, same ? q->counts : q->before);
	if (!s)
		return KMIG_EGENERIC;
	trend_bind(s, old, new_, rule, subsystem);
	return collect_rows(st, s, before);
}

int store_site_changes(struct store *st, long long old, long long new_,
		       const char *rule, const char *subsystem,
		       struct count_rows *added, struct count_rows *removed,
		       struct count_rows *before)
{
	static const struct trend_sql q = {
		.changes =
		"WITH " TREND_CHANGED ", " TREND_SEL ", " TREND_DIFF("sel")
		"SELECT NULL, rule, sum(CASE WHEN n > 0 THEN n ELSE 0 END), "
		"       sum(CASE WHEN n < 0 THEN -n ELSE 0 END) FROM d GROUP BY rule ORDER BY rule",
		.before =
		"WITH " TREND_BEFORE
		"SELECT NULL, b.rule, sum(b.count) FROM b JOIN subsystems s ON s.id = b.sid "
		"WHERE ?4 IS NULL OR s.name = ?4 GROUP BY b.rule ORDER BY b.rule",
		.counts =
		"SELECT NULL, c.rule, sum(c.count) FROM counts c "
		"JOIN subsystems s ON s.id = c.subsystem_id "
		"WHERE c.release_id = ?1 AND ?2 IS NOT NULL AND (?3 IS NULL OR c.rule = ?3) "
		"AND (?4 IS NULL OR s.name = ?4) GROUP BY c.rule ORDER BY c.rule",
	};

	return trend_run(st, &q, old, new_, rule, subsystem, added, removed,
			 before);
}

int store_section_changes(struct store *st, long long old, long long new_,
			  const char *rule, struct count_rows *added,
			  struct count_rows *removed, struct count_rows *before)
{
	static const struct trend_sql q = {
		.changes =
		"WITH " TREND_CHANGED ", " TREND_DIFF("f")
		"SELECT s.name, d.rule, sum(CASE WHEN n > 0 THEN n ELSE 0 END), "
		"       sum(CASE WHEN n < 0 THEN -n ELSE 0 END) FROM d "
		"JOIN subsystems s ON s.id = d.sid "
		"GROUP BY s.name, d.rule ORDER BY s.name, d.rule",
		.before =
		"WITH " TREND_BEFORE
		"SELECT s.name, b.rule, sum(b.count) FROM b JOIN subsystems s ON s.id = b.sid "
		"GROUP BY s.name, b.rule ORDER BY s.name, b.rule",
		.counts =
		"SELECT s.name, c.rule, c.count FROM counts c "
		"JOIN subsystems s ON s.id = c.subsystem_id "
		"WHERE c.release_id = ?1 AND ?2 IS NOT NULL AND (?3 IS NULL OR c.rule = ?3) "
		"ORDER BY s.name, c.rule",
	};

	return trend_run(st, &q, old, new_, rule, NULL, added, removed, before);
}

int store_subsystem_exists(struct store *st, const char *name)
{
	static const char sql[] =
		"SELECT 1 FROM subsystems WHERE name = ?1 "
		"UNION ALL SELECT 1 FROM commit_changes WHERE subsystem = ?1 LIMIT 1";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
	return store_exists(st, s, "read subsystems");
}

int store_scan_tune(struct store *st)
{
	/*
	 * A release joins its ~55 000 files with the blob cache: with
	 * SQLite's default 2 MB page cache most of that is pread() of pages
	 * just evicted.  Since the blobs are written and their facts read in
	 * blob id order, 8 MB does as well as 32 did (cold scan of 21
	 * releases, a point release or a new line's graph in a later run),
	 * and the resident set is 20-25 MB smaller.
	 */
	return store_exec(st, "PRAGMA cache_size = -8192");
}

/* The rule sets, blobs or sites that neither a release nor the rules use. */
#define STALE_RULESET \
	"WHERE ruleset NOT IN (SELECT ruleset FROM releases) AND ruleset != ?1"

int store_prune_blobs(struct store *st, long long *pruned)
{
	static const char stale_sql[] =
		"SELECT 1 FROM blob_rulesets " STALE_RULESET " LIMIT 1";
	enum { PRUNE_SITES, PRUNE_BLOBS, PRUNE_RULESETS, PRUNE_HEADERS, PRUNE_N };
	/* in this order: the sites before their blobs */
	static const char *const prune_sql[PRUNE_N] = {
		[PRUNE_SITES] = "DELETE FROM blob_sites " STALE_RULESET,
		[PRUNE_BLOBS] = "DELETE FROM blobs " STALE_RULESET,
		[PRUNE_RULESETS] = "DELETE FROM blob_rulesets " STALE_RULESET,
		/* the header masks of other rule data (relinfo.c) */
		[PRUNE_HEADERS] = "DELETE FROM relinfo_headers WHERE facts != ?2",
	};
	sqlite3_stmt *s;
	size_t i;
	int ret;

	*pruned = 0;
	/* most runs: nothing to prune, known without reading the blobs */
	s = store_stmt(st, stale_sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, rules_hash(), -1, SQLITE_STATIC);
	ret = store_exists(st, s, "read blob rule sets");
	if (ret <= 0)
		return ret;

	if (store_begin(st))
		return KMIG_EGENERIC;
	for (i = 0; i < PRUNE_N; i++) {
		s = store_stmt(st, prune_sql[i]);
		if (!s)
			goto out_rollback;
		sqlite3_bind_text(s, 1, rules_hash(), -1, SQLITE_STATIC);
		if (i == PRUNE_HEADERS)
			sqlite3_bind_text(s, 2, relinfo_facts_hash(), -1,
					  SQLITE_STATIC);
		if (store_done(st, s, "write"))
			goto out_rollback;
		if (i == PRUNE_BLOBS)
			*pruned = sqlite3_changes(st->db);
	}
	return store_commit(st);

out_rollback:
	store_rollback(st);
	return KMIG_EGENERIC;
}
