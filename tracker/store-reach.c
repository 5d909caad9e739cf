// SPDX-License-Identifier: GPL-2.0
/*
 * store-reach.c - SQL of warn-on-user's reachability (reach.h): each
 * blob's function facts, each release's reached WARN sites and graph
 * statistics.
 */
#include <stdlib.h>
#include <string.h>

#include "store-internal.h"

/*
 * Column @i of @s (a blob_funcs row: size at @i, data at @i + 1)
 * uncompressed into @buf (grown as needed; NUL-terminated).
 */
static int funcs_column(struct store *st, sqlite3_stmt *s, int i,
			struct sbuf *buf)
{
	sqlite3_int64 size = sqlite3_column_int64(s, i);
	const void *z = sqlite3_column_blob(s, i + 1);
	int zlen = sqlite3_column_bytes(s, i + 1);

	if (!st->facts)
		st->facts = facts_packer_new();
	if (size < 0 || facts_unpack(st->facts, z, (size_t)zlen, (size_t)size, buf))
		return kmig_err("database '%s': malformed function facts", st->path);
	return 0;
}

int store_blob_funcs_put_z(struct store *st, const char *oid,
			   const char *ruleset, const struct facts_z *z)
{
	static const char has_sql[] =
		"SELECT 1 FROM blob_funcs WHERE oid = ?1 AND ruleset = ?2";
	static const char new_sql[] =
		"INSERT INTO blob_funcs(oid, ruleset, size, data) VALUES (?, ?, ?, ?)";
	static const char sql[] =
		"INSERT OR REPLACE INTO blob_funcs(oid, ruleset, size, data) VALUES (?, ?, ?, ?)";
	sqlite3_stmt *s;

	if (store_need_txn(st, "store_blob_funcs_put"))
		return KMIG_EGENERIC;
	if (!z->len)
		return 0;
	s = store_oid_put_stmt(st, "store_blob_funcs_put", has_sql, new_sql,
			       sql, oid, ruleset);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, oid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, ruleset, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 3, (sqlite3_int64)z->len);
	sqlite3_bind_blob(s, 4, z->data, (int)z->zlen, SQLITE_STATIC);
	return store_done(st, s, "write");
}

int store_blob_funcs_put(struct store *st, const char *oid,
			 const char *ruleset, const char *data)
{
	struct facts_z z = { 0 };
	int ret;

	if (!data)
		return store_need_txn(st, "store_blob_funcs_put") ?
		       KMIG_EGENERIC : 0;
	if (!st->facts)
		st->facts = facts_packer_new();
	ret = facts_pack(st->facts, data, &z);
	if (!ret)
		ret = store_blob_funcs_put_z(st, oid, ruleset, &z);
	facts_z_clear(&z);
	return ret;
}

int store_blob_funcs(struct store *st, const char *oid, const char *ruleset,
		     char **out)
{
	static const char sql[] =
		"SELECT size, data FROM blob_funcs WHERE oid = ? AND ruleset = ?";
	sqlite3_stmt *s = store_stmt(st, sql);
	struct sbuf buf = SBUF_INIT;
	int rc, ret = 0;

	*out = NULL;
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, oid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, ruleset, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		ret = funcs_column(st, s, 0, &buf);
		if (!ret)
			*out = sbuf_detach(&buf);
	}
	sqlite3_reset(s);
	sbuf_release(&buf);
	if (ret)
		return ret;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_dberr(st, "read blob functions");
	return 0;
}

int store_release_blobs(struct store *st, long long release,
			store_release_blob_fn *fn, void *data)
{
	static const char rules_sql[] = "SELECT ruleset FROM releases WHERE id = ?";
	sqlite3_stmt *s = store_stmt(st, rules_sql);
	struct file_walk w;
	char *ruleset = NULL;
	int rc, ret;

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	ret = store_value(st, s, "read release files", NULL, &ruleset);
	if (ret <= 0)
		return ret;	/* 0: no such release, no files */
	if (!ruleset)
		return store_dberr(st, "read release files");
	ret = file_walk_start(st, &w, release, 0);
	while (!ret && (rc = file_walk_next(&w)) > 0)
		ret = fn(data, w.path, w.oid, ruleset);
	file_walk_end(&w);
	free(ruleset);
	if (ret)
		return ret;
	return rc < 0 ? rc : 0;
}

/*
 * Call @fn with each row of @s (a path, a line and two texts) until it
 * returns non-zero: that value; else 0, or the error of reading @what.
 */
static int each_line_row(struct store *st, sqlite3_stmt *s,
			 store_rule_site_fn *fn, void *data, const char *what)
{
	int rc, ret = 0;

	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW)
		ret = fn(data, (const char *)sqlite3_column_text(s, 0),
			 (unsigned int)sqlite3_column_int(s, 1),
			 (const char *)sqlite3_column_text(s, 2),
			 (const char *)sqlite3_column_text(s, 3));
	sqlite3_reset(s);
	if (ret)
		return ret;
	if (rc != SQLITE_DONE)
		return store_dberr(st, what);
	return 0;
}

int store_rule_sites(struct store *st, long long release, const char *rule,
		     const char *rule2, store_rule_site_fn *fn, void *data)
{
	static const char sql[] =
		"SELECT rf.path, bs.line, bs.rule, bs.deps FROM release_files rf "
		"JOIN releases r ON r.id = rf.release_id "
		"JOIN blob_sites bs ON bs.oid = rf.oid AND bs.ruleset = r.ruleset "
		"WHERE rf.release_id = ?1 AND (bs.rule = ?2 OR bs.rule = ?3)";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	sqlite3_bind_text(s, 2, rule, -1, SQLITE_TRANSIENT);
	store_bind_text(s, 3, rule2);
	return each_line_row(st, s, fn, data, "read release sites");
}

int store_reach_put(struct store *st, long long release, const char *path,
		    unsigned int line, const char *chain)
{
	static const char sql[] =
		"INSERT OR IGNORE INTO release_reach(release_id, path, line, chain) VALUES (?, ?, ?, ?)";
	sqlite3_stmt *s;

	s = store_txn_stmt(st, "store_reach_put", sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	sqlite3_bind_text(s, 2, path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(s, 3, (int)line);
	sqlite3_bind_text(s, 4, chain ? chain : "", -1, SQLITE_TRANSIENT);
	return store_done(st, s, "write");
}

int store_reach_stats(struct store *st, long long release, unsigned int depth,
		      size_t entries, size_t reached)
{
	static const char sql[] =
		"UPDATE releases SET reach_depth = ?2, reach_entries = ?3, reach_reached = ?4 WHERE id = ?1";
	sqlite3_stmt *s;

	s = store_txn_stmt(st, "store_reach_stats", sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	sqlite3_bind_int(s, 2, (int)depth);
	sqlite3_bind_int64(s, 3, (sqlite3_int64)entries);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)reached);
	return store_done(st, s, "write");
}

int store_reach_clear(struct store *st, long long release)
{
	static const char reach_sql[] = "DELETE FROM release_reach WHERE release_id = ?";
	static const char files_sql[] = "DELETE FROM file_counts WHERE release_id = ?";
	static const char counts_sql[] = "DELETE FROM counts WHERE release_id = ?";
	static const char vla_sql[] = "DELETE FROM release_vlaconst WHERE release_id = ?";
	const char *const sqls[] = { reach_sql, files_sql, counts_sql, vla_sql };
	size_t i;

	if (store_need_txn(st, "store_reach_clear"))
		return KMIG_EGENERIC;
	for (i = 0; i < ARRAY_SIZE(sqls); i++) {
		sqlite3_stmt *s = store_stmt(st, sqls[i]);

		if (!s)
			return KMIG_EGENERIC;
		sqlite3_bind_int64(s, 1, release);
		if (store_done(st, s, "write"))
			return KMIG_EGENERIC;
	}
	return 0;
}

/*
 * The warn-on sites user space reaches in release @rel, rr (release_reach)
 * joined with bs (blob_sites): one row per site, as SITE_RULE counts them
 * (two WARN_ON()s on a reached line are two warn-on-user uses).
 */
#define REACH_SITES(rel) \
	"release_reach rr JOIN releases r ON r.id = rr.release_id " \
	"JOIN release_files rf ON rf.release_id = rr.release_id AND rf.path = rr.path " \
	"JOIN blob_sites bs ON bs.oid = rf.oid AND bs.ruleset = r.ruleset " \
	"AND bs.line = rr.line AND bs.rule = 'warn-on' " \
	"WHERE rr.release_id = " rel

int store_reach_info(struct store *st, long long release, int *depth,
		     long long *entries, long long *reached, long long *sites)
{
	static const char sql[] =
		"SELECT reach_depth, reach_entries, reach_reached, "
		"(SELECT count(*) FROM " REACH_SITES("?1") ") "
		"FROM releases WHERE id = ?1";
	static const char sql_nosites[] =
		"SELECT reach_depth, reach_entries, reach_reached "
		"FROM releases WHERE id = ?1";
	sqlite3_stmt *s = store_stmt(st, sites ? sql : sql_nosites);
	int rc;

	*depth = -1;
	*entries = *reached = 0;
	if (sites)
		*sites = 0;
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL) {
		*depth = sqlite3_column_int(s, 0);
		*entries = sqlite3_column_int64(s, 1);
		*reached = sqlite3_column_int64(s, 2);
		if (sites)
			*sites = sqlite3_column_int64(s, 3);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_dberr(st, "read release");
	return 0;
}

int store_reach_sites(struct store *st, long long release,
		      store_reach_chain_fn *fn, void *data)
{
	static const char sql[] =
		"SELECT rr.path, rr.line, rr.chain, bs.text FROM " REACH_SITES("?1") " "
		"ORDER BY rr.path, rr.line, bs.rowid";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	return each_line_row(st, s, fn, data, "read reached sites");
}

int store_vla_const_put(struct store *st, long long release, const char *path,
			unsigned int line, const char *deps)
{
	static const char sql[] =
		"INSERT OR IGNORE INTO release_vlaconst(release_id, path, line, deps) "
		"VALUES (?, ?, ?, ?)";
	sqlite3_stmt *s;

	s = store_txn_stmt(st, "store_vla_const_put", sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	sqlite3_bind_text(s, 2, path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(s, 3, (int)line);
	sqlite3_bind_text(s, 4, deps, -1, SQLITE_TRANSIENT);
	return store_done(st, s, "write");
}
