// SPDX-License-Identifier: GPL-2.0
/*
 * store-boot.c - kernel builds, QEMU boots and bisections (tables builds,
 * boots, bisects, bisect_steps); declared in store.h.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store-internal.h"

int store_build_add(struct store *st, const char *commit,
		    const char *config_hash, const char *status,
		    double seconds, const char *log_path, int64_t *id)
{
	static const char sql[] =
		"INSERT INTO builds(commit_id, config_hash, status, seconds, log_path, created_at) "
		"VALUES (?, ?, ?, ?, ?, ?)";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	store_bind_text(s, 1, commit);
	store_bind_text(s, 2, config_hash);
	store_bind_text(s, 3, status);
	sqlite3_bind_double(s, 4, seconds);
	store_bind_text(s, 5, log_path);
	sqlite3_bind_int64(s, 6, (sqlite3_int64)time(NULL));
	if (store_done(st, s, "insert build"))
		return KMIG_EGENERIC;
	*id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

int store_build_find(struct store *st, const char *commit,
		     const char *config_hash, int64_t *id)
{
	static const char sql[] =
		"SELECT id FROM builds WHERE commit_id = ? AND config_hash = ? AND status = 'ok' "
		"ORDER BY id DESC LIMIT 1";
	sqlite3_stmt *s = store_stmt(st, sql);
	long long v;
	int ret;

	if (!s)
		return KMIG_EGENERIC;
	store_bind_text(s, 1, commit);
	store_bind_text(s, 2, config_hash);
	ret = store_value(st, s, "find build", &v, NULL);
	if (ret <= 0)
		return ret ? ret : KMIG_ENOTFOUND;
	*id = v;
	return 0;
}

int store_boot_add(struct store *st, int64_t build_id, const char *tests,
		   const struct store_boot *b, int64_t *id)
{
	static const char sql[] =
		"INSERT INTO boots(build_id, tests, status, seconds, findings, console_path, "
		"created_at, attempt, results) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, build_id);
	store_bind_text(s, 2, tests);
	store_bind_text(s, 3, b->status);
	sqlite3_bind_double(s, 4, b->seconds);
	store_bind_text(s, 5, b->findings);
	store_bind_text(s, 6, b->console_path);
	sqlite3_bind_int64(s, 7, (sqlite3_int64)time(NULL));
	sqlite3_bind_int(s, 8, b->attempt > 0 ? b->attempt : 1);
	store_bind_text(s, 9, b->results);
	if (store_done(st, s, "insert boot"))
		return KMIG_EGENERIC;
	*id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

/* Mark the running bisections whose kmig is gone 'interrupted'. */
static int bisect_mark_interrupted(struct store *st)
{
	static const char sel[] =
		"SELECT id, owner FROM bisects WHERE status = 'running'";
	static const char upd[] =
		"UPDATE bisects SET status = 'interrupted' WHERE id = ? AND status = 'running'";
	sqlite3_stmt *s = store_stmt(st, sel), *u;
	int64_t *gone = NULL;
	size_t n = 0, alloc = 0, i;
	int rc, ret = 0;

	if (!s)
		return KMIG_EGENERIC;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (!proc_owner_gone((const char *)sqlite3_column_text(s, 1)))
			continue;
		ALLOC_GROW(gone, n + 1, alloc);
		gone[n++] = sqlite3_column_int64(s, 0);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		ret = store_dberr(st, "read running bisections");
		goto out_free;
	}
	for (i = 0; i < n && !ret; i++) {
		u = store_stmt(st, upd);
		if (!u) {
			ret = KMIG_EGENERIC;
			break;
		}
		sqlite3_bind_int64(u, 1, gone[i]);
		ret = store_done(st, u, "mark bisection interrupted");
	}
out_free:
	free(gone);
	return ret;
}

const char *store_bisect_status(const char *status, const char *owner)
{
	if (status && !strcmp(status, "running") && proc_owner_gone(owner))
		return "interrupted";
	return status;
}

int store_bisect_start(struct store *st, const char *good, const char *bad,
		       const char *tests, int64_t *id)
{
	static const char sql[] =
		"INSERT INTO bisects(good, bad, tests, status, created_at, owner) "
		"VALUES (?, ?, ?, 'running', ?, ?)";
	sqlite3_stmt *s;
	char *owner;
	int ret;

	if (bisect_mark_interrupted(st))
		return KMIG_EGENERIC;
	s = store_stmt(st, sql);
	if (!s)
		return KMIG_EGENERIC;
	owner = proc_owner();
	store_bind_text(s, 1, good);
	store_bind_text(s, 2, bad);
	store_bind_text(s, 3, tests);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)time(NULL));
	store_bind_text(s, 5, owner);
	ret = store_done(st, s, "insert bisect");
	free(owner);
	if (ret)
		return ret;
	*id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

int store_bisect_step(struct store *st, int64_t bisect_id, int seq,
		      const char *commit, const char *verdict)
{
	static const char sql[] =
		"INSERT INTO bisect_steps(bisect_id, seq, commit_id, verdict) VALUES (?, ?, ?, ?)";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, bisect_id);
	sqlite3_bind_int(s, 2, seq);
	store_bind_text(s, 3, commit);
	store_bind_text(s, 4, verdict);
	return store_done(st, s, "insert bisect step");
}

int store_bisect_finish(struct store *st, int64_t bisect_id,
			const char *status, const char *first_bad,
			const char *finding)
{
	static const char sql[] =
		"UPDATE bisects SET status = ?, first_bad = ?, finding = ? WHERE id = ?";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	store_bind_text(s, 1, status);
	store_bind_text(s, 2, first_bad);
	store_bind_text(s, 3, finding);
	sqlite3_bind_int64(s, 4, bisect_id);
	return store_done(st, s, "update bisect");
}

int store_bisect_checks(struct store *st, int64_t bisect_id,
			const char *checks, const char *recipients)
{
	static const char sql[] =
		"UPDATE bisects SET checks = ?, recipients = ? WHERE id = ?";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	store_bind_text(s, 1, checks);
	store_bind_text(s, 2, recipients);
	sqlite3_bind_int64(s, 3, bisect_id);
	return store_done(st, s, "update bisect checks");
}

int store_base_boot(struct store *st, const char *tag, const char *commit,
		    int64_t build_id, int64_t boot_id)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO base_boots(tag, sort_key, commit_id, build_id, boot_id, "
		"recorded_at) VALUES (?, ?, ?, ?, ?, ?)";
	sqlite3_stmt *s = store_stmt(st, sql);
	char *key;
	int ret;

	if (!s)
		return KMIG_EGENERIC;
	key = version_sort_key(tag);
	store_bind_text(s, 1, tag);
	store_bind_text(s, 2, key);
	store_bind_text(s, 3, commit);
	sqlite3_bind_int64(s, 4, build_id);
	if (boot_id)
		sqlite3_bind_int64(s, 5, boot_id);
	else
		sqlite3_bind_null(s, 5);
	sqlite3_bind_int64(s, 6, (sqlite3_int64)time(NULL));
	ret = store_done(st, s, "record base boot");
	free(key);
	return ret;
}
