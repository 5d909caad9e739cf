// SPDX-License-Identifier: GPL-2.0
/*
 * store-web.c - SQL of the dashboard (kmig web).  Every query streams its
 * rows to a callback so that the largest (use sites of a release) never
 * sits in memory whole.
 */
#include "store-internal.h"

static const char *col_text(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

/* Step @s to the end, calling @row for each row; 0, the callback's value or -1. */
static int each_row(struct store *st, sqlite3_stmt *s, const char *what,
		    int (*row)(sqlite3_stmt *s, void *fn, void *data),
		    void *fn, void *data)
{
	int rc, ret = 0;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ret = row(s, fn, data);
		if (ret)
			break;
	}
	sqlite3_reset(s);
	if (!ret && rc != SQLITE_DONE)
		return store_dberr(st, what);
	return ret;
}

static int count_row(sqlite3_stmt *s, void *fn, void *data)
{
	struct web_count r = {
		.release = sqlite3_column_int64(s, 0),
		.subsystem = col_text(s, 1),
		.rule = col_text(s, 2),
		.count = sqlite3_column_int64(s, 3),
	};

	return ((web_count_fn *)fn)(data, &r);
}

int store_web_counts(struct store *st, web_count_fn *fn, void *data)
{
	static const char sql[] =
		"SELECT c.release_id, s.name, c.rule, c.count FROM counts c "
		"JOIN subsystems s ON s.id = c.subsystem_id "
		"WHERE c.count != 0 ORDER BY s.name, c.rule, c.release_id";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	return each_row(st, s, "read counts", count_row, (void *)fn, data);
}

static int file_count_row(sqlite3_stmt *s, void *fn, void *data)
{
	struct web_file_count r = {
		.path = col_text(s, 0),
		.subsystem = col_text(s, 1),
		.rule = col_text(s, 2),
		.count = sqlite3_column_int64(s, 3),
	};

	return ((web_file_count_fn *)fn)(data, &r);
}

int store_web_file_counts(struct store *st, long long release,
			  web_file_count_fn *fn, void *data)
{
	static const char sql[] =
		"SELECT fc.path, s.name, fc.rule, fc.count FROM file_counts fc "
		"JOIN subsystems s ON s.id = " RELEASE_FILE_SECTION("?1", "fc.path") " "
		"WHERE fc.release_id = ?1 AND fc.count != 0 ORDER BY fc.path, fc.rule";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	return each_row(st, s, "read file counts", file_count_row, (void *)fn, data);
}

static int site_row(sqlite3_stmt *s, void *fn, void *data)
{
	struct web_site r = {
		.path = col_text(s, 0),
		.rule = col_text(s, 1),
		.line = sqlite3_column_int64(s, 2),
		.func = col_text(s, 3),
		.text = col_text(s, 4),
		.chain = col_text(s, 5),
	};

	return ((web_site_fn *)fn)(data, &r);
}

/*
 * Only the files with a row in file_counts have a site that counts
 * (FILE_COUNTS_SQL: a row for each file and rule with at least one), about
 * a quarter of a release's files: looking up the blob_sites of the others
 * as well read most of that index again for every release page.  Sites of
 * one line and rule come in the order the lexer found them (rowid).
 */
int store_web_sites(struct store *st, long long release, web_site_fn *fn,
		    void *data)
{
	static const char sql[] =
		"SELECT rf.path, CASE WHEN rr.chain IS NULL THEN bs.rule ELSE 'warn-on-user' END AS srule, "
		"bs.line, bs.func, bs.text, rr.chain "
		"FROM (SELECT DISTINCT path FROM file_counts WHERE release_id = ?1) fc "
		"JOIN release_files rf ON rf.release_id = ?1 AND rf.path = fc.path "
		"JOIN releases r ON r.id = rf.release_id "
		"JOIN blob_sites bs ON bs.oid = rf.oid AND bs.ruleset = r.ruleset "
		"LEFT JOIN release_reach rr ON bs.rule = 'warn-on' AND rr.release_id = rf.release_id "
		"AND rr.path = rf.path AND rr.line = bs.line "
		"WHERE NOT " SITE_VLA_CONST("rf.release_id", "rf.path") " "
		"ORDER BY rf.path, bs.line, srule, bs.rowid";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, release);
	return each_row(st, s, "read use sites", site_row, (void *)fn, data);
}

static int commit_row(sqlite3_stmt *s, void *fn, void *data)
{
	struct web_commit_change r = {
		.commit = col_text(s, 0),
		.author = col_text(s, 1),
		.date = sqlite3_column_int64(s, 2),
		.subject = col_text(s, 3),
		.subsystem = col_text(s, 4),
		.rule = col_text(s, 5),
		.added = sqlite3_column_int64(s, 6),
		.removed = sqlite3_column_int64(s, 7),
	};

	return ((web_commit_fn *)fn)(data, &r);
}

int store_web_commit_changes(struct store *st, web_commit_fn *fn, void *data)
{
	static const char sql[] =
		"SELECT c.commit_id, c.author, c.date, c.subject, cc.subsystem, cc.rule, "
		"       cc.added, cc.removed "
		"FROM commits c JOIN commit_changes cc ON cc.commit_id = c.commit_id "
		"ORDER BY c.date DESC, c.commit_id, cc.subsystem, cc.rule";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	return each_row(st, s, "read commits", commit_row, (void *)fn, data);
}

static int range_row(sqlite3_stmt *s, void *fn, void *data)
{
	struct web_range_change r = {
		.range = (const char *)sqlite3_column_text(s, 0),
		.rule = (const char *)sqlite3_column_text(s, 1),
		.commits = sqlite3_column_int64(s, 2),
		.added = sqlite3_column_int64(s, 3),
		.removed = sqlite3_column_int64(s, 4),
	};

	return ((web_range_fn *)fn)(data, &r);
}

int store_web_range_changes(struct store *st, web_range_fn *fn, void *data)
{
	static const char sql[] =
		"SELECT lr.range, cc.rule, count(DISTINCT cc.commit_id), sum(cc.added), "
		"       sum(cc.removed) "
		"FROM log_ranges lr JOIN log_range_commits lc ON lc.range_id = lr.id "
		"JOIN commit_changes cc ON cc.commit_id = lc.commit_id "
		"GROUP BY lr.range, cc.rule "
		"UNION ALL "
		"SELECT NULL, cc.rule, count(DISTINCT cc.commit_id), sum(cc.added), "
		"       sum(cc.removed) FROM commit_changes cc "
		"WHERE NOT EXISTS (SELECT 1 FROM log_range_commits lc "
		"  WHERE lc.commit_id = cc.commit_id) "
		"GROUP BY cc.rule "
		"ORDER BY 1, 2";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	return each_row(st, s, "read log ranges", range_row, (void *)fn, data);
}

static int step_row(sqlite3_stmt *s, void *fn, void *data)
{
	struct web_step r = {
		.branch = col_text(s, 0),
		.base = col_text(s, 1),
		.position = sqlite3_column_int64(s, 2),
		.patch = col_text(s, 3),
		.subject = col_text(s, 4),
		.status = col_text(s, 5),
		.commit = col_text(s, 6),
		.evidence = col_text(s, 7),
		.test_status = col_text(s, 8),
		.updated_at = sqlite3_column_int64(s, 9),
		.build_id = sqlite3_column_int64(s, 10),
		.build_status = col_text(s, 11),
		.boot_id = sqlite3_column_int64(s, 12),
		.boot_status = col_text(s, 13),
	};

	return ((web_step_fn *)fn)(data, &r);
}

int store_web_steps(struct store *st, web_step_fn *fn, void *data)
{
	static const char sql[] =
		"WITH st AS (SELECT bs.*, "
		"  (SELECT b.id FROM builds b WHERE b.commit_id = bs.commit_id "
		"   ORDER BY b.created_at DESC, b.id DESC LIMIT 1) AS build_id "
		"  FROM branch_steps bs) "
		"SELECT st.branch, st.base, st.position, st.patch, st.subject, st.status, "
		"       st.commit_id, st.evidence, st.test_status, st.updated_at, "
		"       st.build_id, b.status, "
		"       (SELECT o.id FROM boots o WHERE o.build_id = st.build_id "
		"        ORDER BY o.created_at DESC, o.id DESC LIMIT 1) AS boot_id, "
		"       (SELECT o.status FROM boots o WHERE o.build_id = st.build_id "
		"        ORDER BY o.created_at DESC, o.id DESC LIMIT 1) "
		"FROM st LEFT JOIN builds b ON b.id = st.build_id "
		"ORDER BY st.branch, st.position";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	return each_row(st, s, "read branch steps", step_row, (void *)fn, data);
}

static int build_row(sqlite3_stmt *s, void *fn, void *data)
{
	struct web_build r = {
		.id = sqlite3_column_int64(s, 0),
		.commit = col_text(s, 1),
		.config_hash = col_text(s, 2),
		.status = col_text(s, 3),
		.seconds = sqlite3_column_double(s, 4),
		.log_path = col_text(s, 5),
		.created_at = sqlite3_column_int64(s, 6),
	};

	return ((web_build_fn *)fn)(data, &r);
}

int store_web_builds(struct store *st, web_build_fn *fn, void *data)
{
	static const char sql[] =
		"SELECT id, commit_id, config_hash, status, seconds, log_path, created_at "
		"FROM builds ORDER BY created_at DESC, id DESC";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	return each_row(st, s, "read builds", build_row, (void *)fn, data);
}

static int boot_row(sqlite3_stmt *s, void *fn, void *data)
{
	struct web_boot r = {
		.id = sqlite3_column_int64(s, 0),
		.build_id = sqlite3_column_int64(s, 1),
		.commit = col_text(s, 2),
		.tests = col_text(s, 3),
		.status = col_text(s, 4),
		.seconds = sqlite3_column_double(s, 5),
		.findings = col_text(s, 6),
		.console_path = col_text(s, 7),
		.created_at = sqlite3_column_int64(s, 8),
	};

	return ((web_boot_fn *)fn)(data, &r);
}

int store_web_boots(struct store *st, web_boot_fn *fn, void *data)
{
	static const char sql[] =
		"SELECT o.id, o.build_id, b.commit_id, o.tests, o.status, o.seconds, "
		"       o.findings, o.console_path, o.created_at "
		"FROM boots o JOIN builds b ON b.id = o.build_id "
		"ORDER BY o.created_at DESC, o.id DESC";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	return each_row(st, s, "read boots", boot_row, (void *)fn, data);
}

static int base_row(sqlite3_stmt *s, void *fn, void *data)
{
	struct web_base r = {
		.tag = col_text(s, 0),
		.commit = col_text(s, 1),
		.build_id = sqlite3_column_int64(s, 2),
		.build_status = col_text(s, 3),
		.build_seconds = sqlite3_column_double(s, 4),
		.build_log = col_text(s, 5),
		.boot_id = sqlite3_column_int64(s, 6),
		.boot_status = col_text(s, 7),
		.results = col_text(s, 8),
		.findings = col_text(s, 9),
		.console_path = col_text(s, 10),
	};

	return ((web_base_fn *)fn)(data, &r);
}

int store_web_bases(struct store *st, web_base_fn *fn, void *data)
{
	static const char sql[] =
		"SELECT a.tag, a.commit_id, b.id, b.status, b.seconds, b.log_path, "
		"       o.id, o.status, o.results, o.findings, o.console_path "
		"FROM base_boots a LEFT JOIN builds b ON b.id = a.build_id "
		"LEFT JOIN boots o ON o.id = a.boot_id ORDER BY a.sort_key";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	return each_row(st, s, "read base boots", base_row, (void *)fn, data);
}

static int bisect_row(sqlite3_stmt *s, void *fn, void *data)
{
	struct web_bisect r = {
		.id = sqlite3_column_int64(s, 0),
		.good = col_text(s, 1),
		.bad = col_text(s, 2),
		.tests = col_text(s, 3),
		.first_bad = col_text(s, 4),
		.finding = col_text(s, 5),
		.status = store_bisect_status(col_text(s, 6), col_text(s, 11)),
		.created_at = sqlite3_column_int64(s, 7),
		.seq = sqlite3_column_int64(s, 8),
		.step_commit = col_text(s, 9),
		.verdict = col_text(s, 10),
	};

	return ((web_bisect_fn *)fn)(data, &r);
}

int store_web_bisects(struct store *st, web_bisect_fn *fn, void *data)
{
	static const char sql[] =
		"SELECT b.id, b.good, b.bad, b.tests, b.first_bad, b.finding, b.status, "
		"       b.created_at, -1, NULL, NULL, b.owner FROM bisects b "
		"UNION ALL "
		"SELECT b.id, b.good, b.bad, b.tests, b.first_bad, b.finding, b.status, "
		"       b.created_at, s.seq, s.commit_id, s.verdict, b.owner "
		"FROM bisects b JOIN bisect_steps s ON s.bisect_id = b.id "
		"ORDER BY 8 DESC, 1 DESC, 9";
	sqlite3_stmt *s = store_stmt(st, sql);

	if (!s)
		return KMIG_EGENERIC;
	return each_row(st, s, "read bisections", bisect_row, (void *)fn, data);
}
