// SPDX-License-Identifier: GPL-2.0
/*
 * store-boot.c - kernel builds, QEMU boots and bisections (tables builds,
 * boots, bisects, bisect_steps); declared in store.h.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store-internal.h"

/* Run a prepared INSERT/UPDATE to completion; finalizes @s. */
static int step_done(struct store *st, sqlite3_stmt *s, const char *what,
		     int64_t *id)
{
	int ret = 0;

	if (sqlite3_step(s) != SQLITE_DONE)
		ret = store_dberr(st, what);
	else if (id)
		*id = sqlite3_last_insert_rowid(st->db);
	sqlite3_finalize(s);
	return ret;
}

int store_build_add(struct store *st, const char *commit,
		    const char *config_hash, const char *status,
		    double seconds, const char *log_path, int64_t *id)
{
	sqlite3_stmt *s;

	if (store_prepare(st, &s,
			  "INSERT INTO builds(commit_id, config_hash, status,"
			  " seconds, log_path, created_at)"
			  " VALUES (?, ?, ?, ?, ?, ?)"))
		return -1;
	store_bind_text(s, 1, commit);
	store_bind_text(s, 2, config_hash);
	store_bind_text(s, 3, status);
	sqlite3_bind_double(s, 4, seconds);
	store_bind_text(s, 5, log_path);
	sqlite3_bind_int64(s, 6, (sqlite3_int64)time(NULL));
	return step_done(st, s, "insert build", id);
}

int store_build_find(struct store *st, const char *commit,
		     const char *config_hash, int64_t *id)
{
	sqlite3_stmt *s;
	int rc, ret = 0;

	if (store_prepare(st, &s,
			  "SELECT id FROM builds WHERE commit_id = ?"
			  " AND config_hash = ? AND status = 'ok'"
			  " ORDER BY id DESC LIMIT 1"))
		return -1;
	store_bind_text(s, 1, commit);
	store_bind_text(s, 2, config_hash);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(s, 0);
	else if (rc == SQLITE_DONE)
		ret = KMIG_ENOTFOUND;
	else
		ret = store_dberr(st, "find build");
	sqlite3_finalize(s);
	return ret;
}

int store_boot_add(struct store *st, int64_t build_id, const char *tests,
		   const char *status, double seconds, const char *findings,
		   const char *console_path, int64_t *id)
{
	sqlite3_stmt *s;

	if (store_prepare(st, &s,
			  "INSERT INTO boots(build_id, tests, status, seconds,"
			  " findings, console_path, created_at)"
			  " VALUES (?, ?, ?, ?, ?, ?, ?)"))
		return -1;
	sqlite3_bind_int64(s, 1, build_id);
	store_bind_text(s, 2, tests);
	store_bind_text(s, 3, status);
	sqlite3_bind_double(s, 4, seconds);
	store_bind_text(s, 5, findings);
	store_bind_text(s, 6, console_path);
	sqlite3_bind_int64(s, 7, (sqlite3_int64)time(NULL));
	return step_done(st, s, "insert boot", id);
}

int store_bisect_start(struct store *st, const char *good, const char *bad,
		       const char *tests, int64_t *id)
{
	sqlite3_stmt *s;

	if (store_prepare(st, &s,
			  "INSERT INTO bisects(good, bad, tests, status,"
			  " created_at) VALUES (?, ?, ?, 'running', ?)"))
		return -1;
	store_bind_text(s, 1, good);
	store_bind_text(s, 2, bad);
	store_bind_text(s, 3, tests);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)time(NULL));
	return step_done(st, s, "insert bisect", id);
}

int store_bisect_step(struct store *st, int64_t bisect_id, int seq,
		      const char *commit, const char *verdict)
{
	sqlite3_stmt *s;

	if (store_prepare(st, &s,
			  "INSERT INTO bisect_steps(bisect_id, seq, commit_id,"
			  " verdict) VALUES (?, ?, ?, ?)"))
		return -1;
	sqlite3_bind_int64(s, 1, bisect_id);
	sqlite3_bind_int(s, 2, seq);
	store_bind_text(s, 3, commit);
	store_bind_text(s, 4, verdict);
	return step_done(st, s, "insert bisect step", NULL);
}

int store_bisect_finish(struct store *st, int64_t bisect_id,
			const char *status, const char *first_bad,
			const char *finding)
{
	sqlite3_stmt *s;

	if (store_prepare(st, &s,
			  "UPDATE bisects SET status = ?, first_bad = ?,"
			  " finding = ? WHERE id = ?"))
		return -1;
	store_bind_text(s, 1, status);
	store_bind_text(s, 2, first_bad);
	store_bind_text(s, 3, finding);
	sqlite3_bind_int64(s, 4, bisect_id);
	return step_done(st, s, "update bisect", NULL);
}
