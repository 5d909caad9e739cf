// SPDX-License-Identifier: GPL-2.0
/*
 * store-gate.c - SQL of the gate: per-commit attribution of added and
 * removed uses (the commits and commit_changes tables, for "kmig log"
 * and the dashboard).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store-internal.h"

void commit_changes_clear(struct commit_changes *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].subsystem);
		free(c->v[i].rule);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

int store_commit_put(struct store *st, const char *commit, const char *author,
		     long long date, const char *subject, const char *ruleset,
		     const struct commit_changes *changes)
{
	/*
	 * An update, not a delete and insert: deleting the commit would
	 * cascade to log_range_commits, taking it out of the ranges
	 * recorded before.
	 */
	static const char ins_sql[] =
		"INSERT INTO commits(commit_id, author, date, subject, ruleset) "
		"VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(commit_id) DO UPDATE SET "
		"author = ?2, date = ?3, subject = ?4, ruleset = ?5";
	static const char del_sql[] = "DELETE FROM commit_changes WHERE commit_id = ?";
	static const char chg_sql[] =
		"INSERT INTO commit_changes(commit_id, subsystem, rule, added, removed) "
		"VALUES (?, ?, ?, ?, ?)";
	sqlite3_stmt *s;
	size_t i;

	s = store_txn_stmt(st, "store_commit_put", ins_sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, commit, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, author, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 3, date);
	sqlite3_bind_text(s, 4, subject, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 5, ruleset, -1, SQLITE_TRANSIENT);
	if (store_done(st, s, "write"))
		return KMIG_EGENERIC;
	s = store_stmt(st, del_sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, commit, -1, SQLITE_TRANSIENT);
	if (store_done(st, s, "write"))
		return KMIG_EGENERIC;
	for (i = 0; i < changes->n; i++) {
		const struct commit_change *c = &changes->v[i];

		if (!c->added && !c->removed)
			continue;
		s = store_stmt(st, chg_sql);
		if (!s)
			return KMIG_EGENERIC;
		sqlite3_bind_text(s, 1, commit, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 2, c->subsystem, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 3, c->rule, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(s, 4, c->added);
		sqlite3_bind_int64(s, 5, c->removed);
		if (store_done(st, s, "write"))
			return KMIG_EGENERIC;
	}
	return 0;
}

int store_commit_get(struct store *st, const char *commit, const char *ruleset,
		     struct commit_changes *out)
{
	/*
	 * One statement, so one snapshot: no row when the commit is not
	 * recorded under @ruleset, one row of NULLs when it changed nothing.
	 */
	static const char sql[] =
		"SELECT cc.subsystem, cc.rule, cc.added, cc.removed FROM commits c "
		"LEFT JOIN commit_changes cc ON cc.commit_id = c.commit_id "
		"WHERE c.commit_id = ? AND c.ruleset = ? ORDER BY cc.subsystem, cc.rule";
	sqlite3_stmt *s = store_stmt(st, sql);
	bool recorded = false;
	int rc;

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, commit, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, ruleset, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct commit_change *c;

		recorded = true;
		if (sqlite3_column_type(s, 0) == SQLITE_NULL)
			continue;
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		c = &out->v[out->n++];
		c->subsystem = store_col_dup(s, 0);
		c->rule = store_col_dup(s, 1);
		c->added = sqlite3_column_int64(s, 2);
		c->removed = sqlite3_column_int64(s, 3);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_dberr(st, "read commit changes");
	return recorded ? 0 : KMIG_ENOTFOUND;
}

int store_log_range_put(struct store *st, const char *range, const char *from,
			const char *to, const char *const *commits, size_t n)
{
	static const char del_sql[] = "DELETE FROM log_ranges WHERE range = ?";
	static const char ins_sql[] =
		"INSERT INTO log_ranges(range, from_commit, to_commit, recorded_at) "
		"VALUES (?, ?, ?, ?)";
	static const char mem_sql[] =
		"INSERT OR IGNORE INTO log_range_commits(range_id, commit_id) VALUES (?, ?)";
	sqlite3_stmt *s;
	long long id;
	size_t i;

	if (store_begin(st))
		return KMIG_EGENERIC;
	s = store_stmt(st, del_sql);
	if (!s)
		goto out_rollback;
	sqlite3_bind_text(s, 1, range, -1, SQLITE_TRANSIENT);
	if (store_done(st, s, "write"))
		goto out_rollback;
	s = store_stmt(st, ins_sql);
	if (!s)
		goto out_rollback;
	sqlite3_bind_text(s, 1, range, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, from, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 3, to, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)time(NULL));
	if (store_done(st, s, "write"))
		goto out_rollback;
	id = sqlite3_last_insert_rowid(st->db);
	for (i = 0; i < n; i++) {
		s = store_stmt(st, mem_sql);
		if (!s)
			goto out_rollback;
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, commits[i], -1, SQLITE_TRANSIENT);
		if (store_done(st, s, "write"))
			goto out_rollback;
	}
	return store_commit(st);

out_rollback:
	store_rollback(st);
	return KMIG_EGENERIC;
}
