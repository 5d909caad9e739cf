// SPDX-License-Identifier: GPL-2.0
/*
 * store-branch.c - SQL of the conversion branch (table branch_steps).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store-internal.h"

static void branch_step_clear(struct branch_step *s)
{
	free(s->branch);
	free(s->base);
	free(s->patch);
	free(s->subject);
	free(s->status);
	free(s->commit);
	free(s->evidence);
	free(s->test_status);
	memset(s, 0, sizeof(*s));
}

void branch_steps_clear(struct branch_steps *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		branch_step_clear(&s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

int store_branch_reset(struct store *st, const char *branch)
{
	static const char sql[] = "DELETE FROM branch_steps WHERE branch = ?";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, branch, -1, SQLITE_TRANSIENT);
	return store_done(st, s, "write");
}

int store_branch_step_put(struct store *st, const struct branch_step *b)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO branch_steps(branch, base, position, patch, subject, "
		"status, commit_id, evidence, test_status, updated_at) "
		"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	store_bind_text(s, 1, b->branch);
	store_bind_text(s, 2, b->base);
	sqlite3_bind_int(s, 3, b->position);
	store_bind_text(s, 4, b->patch);
	store_bind_text(s, 5, b->subject);
	store_bind_text(s, 6, b->status);
	store_bind_text(s, 7, b->commit);
	store_bind_text(s, 8, b->evidence);
	store_bind_text(s, 9, b->test_status);
	sqlite3_bind_int64(s, 10, b->updated_at ? b->updated_at : (long long)time(NULL));
	return store_done(st, s, "write");
}

int store_branch_steps(struct store *st, const char *branch,
		       struct branch_steps *out)
{
	static const char sql[] =
		"SELECT branch, base, position, patch, subject, status, commit_id, "
		"evidence, test_status, updated_at FROM branch_steps "
		"WHERE branch = ? ORDER BY position";
	sqlite3_stmt *s = store_stmt(st, sql);
	int rc;

	memset(out, 0, sizeof(*out));
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, branch, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct branch_step *b;

		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		b = &out->v[out->n++];
		b->branch = store_col_dup(s, 0);
		b->base = store_col_dup(s, 1);
		b->position = sqlite3_column_int(s, 2);
		b->patch = store_col_dup(s, 3);
		b->subject = store_col_dup(s, 4);
		b->status = store_col_dup(s, 5);
		b->commit = store_col_dup(s, 6);
		b->evidence = store_col_dup(s, 7);
		b->test_status = store_col_dup(s, 8);
		b->updated_at = sqlite3_column_int64(s, 9);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_dberr(st, "read branch steps");
	return 0;
}

int store_branch_set_test(struct store *st, const char *branch, int position,
			  const char *test_status)
{
	static const char sql[] =
		"UPDATE branch_steps SET test_status = ? "
		"WHERE branch = ? AND position = ?";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	store_bind_text(s, 1, test_status);
	sqlite3_bind_text(s, 2, branch, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(s, 3, position);
	if (store_done(st, s, "write"))
		return KMIG_EGENERIC;
	if (!sqlite3_changes(st->db))
		return kmig_errcode(KMIG_ENOTFOUND, "no step %d on branch '%s'",
				    position, branch);
	return 0;
}

int store_branch_latest(struct store *st, char **branch)
{
	static const char sql[] =
		"SELECT branch FROM branch_steps ORDER BY updated_at DESC, rowid DESC LIMIT 1";
	sqlite3_stmt *s = store_stmt(st, sql);
	int ret;

	*branch = NULL;
	if (!s)
		return KMIG_EGENERIC;
	ret = store_value(st, s, "read branch steps", NULL, branch);
	if (ret)
		return ret < 0 ? ret : 0;
	return kmig_errcode(KMIG_ENOTFOUND,
			    "no branch applied yet (run 'kmig branch apply')");
}
