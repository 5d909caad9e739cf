/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store-internal.h - shared by the store-*.c files only.
 *
 * One SQLite style for the whole store: every statement is a string
 * literal run through store_stmt(), prepared once and cached for the life
 * of the struct store; a failure is recorded once with store_dberr() (or
 * kmig_err()) and the function returns a negative KMIG_E* code, which the
 * command layer prints.  Writes that must be atomic with others call
 * store_need_txn() first (see store.h for who holds the transaction).
 */
#ifndef KMIG_STORE_INTERNAL_H
#define KMIG_STORE_INTERNAL_H

#include <sqlite3.h>
#include "facts.h"
#include "store.h"

struct store_cached {
	const char *sql;	/* identity: the string literal's address */
	sqlite3_stmt *stmt;
};

struct store {
	sqlite3 *db;
	char *path;
	struct store_cached *cache;
	size_t ncache, acache;
	/*
	 * The subsystem names looked up and their ids (open addressing,
	 * store-scan.c): a release's 50,000 files name a few thousand
	 * sections, and files in path order change section every fifth
	 * file.  Cleared on rollback (an id may be of a row rolled back).
	 */
	char **sub_name;
	long long *sub_id;
	size_t sub_cap, sub_n;
	struct facts_packer *facts;	/* blob_funcs' (de)compressor, lazily */
	struct store_ckpt *ckpt;	/* store_checkpoint_behind()'s, or NULL */
};

/*
 * store_dberr - record "database '<path>': <what>: <sqlite message>";
 * returns KMIG_EGENERIC.
 */
int store_dberr(struct store *st, const char *what);
/*
 * store_stmt - a prepared statement for the string literal @sql, cached
 * for the life of @st (keyed by the literal's address) and reset with its
 * bindings cleared; NULL with the error recorded.  Do not finalize it.
 */
sqlite3_stmt *store_stmt(struct store *st, const char *sql);
/*
 * store_done - step @s, a statement that returns no rows, and reset it;
 * 0, or KMIG_EGENERIC with "<what>: <sqlite message>" recorded.
 */
int store_done(struct store *st, sqlite3_stmt *s, const char *what);
/*
 * store_exists - step @s, a query that may return a row, and reset it:
 * 1 when it returned one, 0 when none, or KMIG_EGENERIC with
 * "<what>: <sqlite message>" recorded.
 */
int store_exists(struct store *st, sqlite3_stmt *s, const char *what);
/*
 * store_need_txn - 0 when the caller holds a transaction (store_begin());
 * else KMIG_EGENERIC with "<fn> outside a transaction" recorded: the
 * functions documented "caller holds a transaction" write several rows
 * that must commit together.
 */
int store_need_txn(struct store *st, const char *fn);
/* store_exec - run SQL without results (no parameters, not cached). */
int store_exec(struct store *st, const char *sql);
/* Bind helpers that accept NULL as SQL NULL. */
void store_bind_text(sqlite3_stmt *s, int i, const char *v);
/* store_col_dup - a copy of a text column, or NULL. */
char *store_col_dup(sqlite3_stmt *s, int i);

/*
 * The files of a trend step from release ?1 to ?2: every path of either
 * release, with both blobs and the section it belongs to, the new
 * release's (or the old one's for a file the new release lacks).  A
 * MAINTAINERS change moves a file, with its uses, to another section; its
 * uses are compared as those of one path.
 */
#define TREND_FILES \
	"f AS (" \
	"  SELECT n.path, n.oid AS new_oid, o.oid AS old_oid, n.subsystem_id AS sid " \
	"  FROM release_files n LEFT JOIN release_files o " \
	"    ON o.release_id = ?1 AND o.path = n.path " \
	"  WHERE n.release_id = ?2 " \
	"  UNION ALL " \
	"  SELECT o.path, NULL, o.oid, o.subsystem_id FROM release_files o " \
	"  WHERE o.release_id = ?1 AND NOT EXISTS (SELECT 1 FROM release_files n " \
	"    WHERE n.release_id = ?2 AND n.path = o.path)) "

/*
 * Is the site bs of file @path a vla of constant size in release @rel
 * (release_vlaconst: the release's headers define the names it depends
 * on)?  Such a site is no use of any rule.
 */
#define SITE_VLA_CONST(rel, path) \
	"(bs.deps IS NOT NULL AND EXISTS (SELECT 1 FROM release_vlaconst rv " \
	"  WHERE rv.release_id = " rel " AND rv.path = " path " AND rv.line = bs.line " \
	"  AND rv.deps = bs.deps))"

/*
 * The rule a site bs (a row of blob_sites) of file @path (an SQL
 * expression) counts under in release @rel: a warn-on site user space
 * reaches (release_reach, reach.h) is warn-on-user instead; NULL for a
 * vla of constant size (SITE_VLA_CONST), which does not count.
 */
#define SITE_RULE(rel, path) \
	"(CASE WHEN bs.rule = 'warn-on' AND EXISTS (SELECT 1 FROM release_reach rr " \
	"  WHERE rr.release_id = " rel " AND rr.path = " path " AND rr.line = bs.line) " \
	"  THEN 'warn-on-user' " \
	"  WHEN " SITE_VLA_CONST(rel, path) " THEN NULL ELSE bs.rule END)"

/*
 * The file counts of a release's files (all, or those @where selects):
 * a row for each file and rule with at least one counted site, none for
 * a file without one.  The web's sites and the trend's comparisons rely
 * on that (TREND_COUNTED, store_web_sites()): it is here, in the
 * matcher's hash, so a change to it re-counts every release.
 */
#define FILE_COUNTS_SQL(where) \
	"INSERT INTO file_counts(release_id, path, rule, count) " \
	"SELECT rf.release_id, rf.path, " SITE_RULE("rf.release_id", "rf.path") " AS srule, count(*) " \
	"FROM release_files rf JOIN releases r ON r.id = rf.release_id " \
	"JOIN blob_sites bs ON bs.oid = rf.oid AND bs.ruleset = r.ruleset " \
	"WHERE rf.release_id = ?1 " where " GROUP BY rf.path, srule HAVING srule IS NOT NULL"

/*
 * The sites of the files of f (or of sel: f in one section) whose blob
 * differs, +1 in the new release and -1 in the old, summed per (section,
 * rule, path, text): a positive sum is added, a negative one removed.
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
	"s AS (SELECT c.sid, c.path, c.sign, bs.text, " SITE_RULE("c.rel", "c.path") " AS rule " \
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

/* store_subsystems_forget - drop the subsystem ids remembered (store-scan.c). */
void store_subsystems_forget(struct store *st);

#endif
