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
#include "store-count.h"
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
 * store_value - store_exists() of @s, a query of one value (its first
 * column, its first row), that also reads the value when there is a row:
 * as an integer into *@num and as a copy of its text into *@text (NULL
 * for SQL NULL; the caller frees), each unless NULL.  Without a row both
 * are left as they were.  1, 0 or KMIG_EGENERIC, as store_exists().
 */
int store_value(struct store *st, sqlite3_stmt *s, const char *what,
		long long *num, char **text);
/*
 * store_need_txn - 0 when the caller holds a transaction (store_begin());
 * else KMIG_EGENERIC with "<fn> outside a transaction" recorded: the
 * functions documented "caller holds a transaction" write several rows
 * that must commit together.
 */
int store_need_txn(struct store *st, const char *fn);
/*
 * store_txn_stmt - store_stmt() of @sql for @fn, a writer whose caller
 * holds a transaction: NULL with the error recorded when it does not
 * (store_need_txn()) or the statement cannot be prepared.
 */
sqlite3_stmt *store_txn_stmt(struct store *st, const char *fn, const char *sql);
/*
 * store_oid_put_stmt - the statement that writes the row keyed by
 * (@oid, @ruleset): @insert_sql when @has_sql (a query of that row, ?1
 * and ?2) finds none, else @replace_sql; NULL with the error recorded.
 * The caller holds a transaction (@fn, as store_txn_stmt()), so no
 * other writer adds the row in between, and binds the statement.
 *
 * The blob cache's writers insert a new row with a plain INSERT and only
 * an existing one with INSERT OR REPLACE: a statement that may delete a
 * row of a table with foreign keys opens a statement journal, and while
 * a release's transaction spills pages from the cache, each page spilled
 * during such a statement is copied into its journal first, past 64 KB
 * into a temporary file (bench/README, the twenty-second round).
 */
sqlite3_stmt *store_oid_put_stmt(struct store *st, const char *fn,
				 const char *has_sql, const char *insert_sql,
				 const char *replace_sql, const char *oid,
				 const char *ruleset);
/* store_exec - run SQL without results (no parameters, not cached). */
int store_exec(struct store *st, const char *sql);
/* Bind helpers that accept NULL as SQL NULL. */
void store_bind_text(sqlite3_stmt *s, int i, const char *v);
/* store_col_dup - a copy of a text column, or NULL. */
char *store_col_dup(sqlite3_stmt *s, int i);

/*
 * RELEASE_FILE_SECTION - the section id (SQL) of file @path of release
 * @rel (SQL expressions), NULL when the release lacks it: a probe of the
 * release's own rows and, without one, of its files_base's (migration 13),
 * where a join with the view release_files takes three probes for a file
 * of a release that shares them (a tombstone is -1 until nullif()).
 */
#define RELEASE_FILE_SECTION(rel, path) \
	"nullif(coalesce((SELECT CASE WHEN x.oid = '' THEN -1 ELSE x.subsystem_id END " \
	"  FROM release_file_rows x WHERE x.release_id = " rel " AND x.path = " path "), " \
	"(SELECT x.subsystem_id FROM release_file_rows x WHERE x.release_id = " \
	"  (SELECT files_base FROM releases WHERE id = " rel ") AND x.path = " path ")), -1)"

/*
 * struct file_walk - the files of a release in path order (migration 13):
 * a merge of its own rows and, when it shares them, its files_base's, each
 * a walk of the primary key, where a walk of the view release_files costs
 * a probe more per file and a sort.  file_walk_start() begins one on statement pair
 * @slot (0 or 1: two walks side by side); file_walk_next() makes the next
 * file current (path, oid, sid, valid until the next call): 1, 0 at the
 * end, or negative with the error recorded; file_walk_end() resets it.
 */
struct file_walk {
	struct store *st;
	sqlite3_stmt *own, *base;
	int ro, rb;		/* the last step of each */
	int took;		/* 1 own, 2 base, 3 both: to step on */
	const char *path, *oid;
	long long sid;
};
int file_walk_start(struct store *st, struct file_walk *w, long long release,
		    unsigned int slot);
int file_walk_next(struct file_walk *w);
void file_walk_end(struct file_walk *w);

/* store_subsystems_forget - drop the subsystem ids remembered (store-scan.c). */
void store_subsystems_forget(struct store *st);

#endif
