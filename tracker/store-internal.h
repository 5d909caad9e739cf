/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store-internal.h - shared by the store-*.c files only.
 */
#ifndef KMIG_STORE_INTERNAL_H
#define KMIG_STORE_INTERNAL_H

#include <sqlite3.h>
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
	 * The last subsystem name looked up and its id: files come in path
	 * order, and neighbours share their MAINTAINERS section.  Cleared
	 * on rollback (the id may be of a row rolled back).
	 */
	char *last_sub;
	long long last_sub_id;
};

/* store_dberr - record "<what>: <sqlite message>" and return -1. */
int store_dberr(struct store *st, const char *what);
/* store_prepare - prepare @sql; on failure records the error, *out NULL. */
int store_prepare(struct store *st, sqlite3_stmt **out, const char *sql);
/*
 * store_stmt - a prepared statement for the string literal @sql, cached
 * for the life of @st (keyed by the literal's address) and reset with its
 * bindings cleared; NULL with the error recorded.  Do not finalize it.
 */
sqlite3_stmt *store_stmt(struct store *st, const char *sql);
/* store_done - step a statement that returns no rows; 0 or -1. */
int store_done(struct store *st, sqlite3_stmt *s);
/*
 * store_row_exists - run the cached @sql bound to the text values @a and
 * @b: 1 when it returns a row, 0 when none, negative on error (@what
 * names the read in the message).
 */
int store_row_exists(struct store *st, const char *sql, const char *a,
		     const char *b, const char *what);
/* store_exec - run SQL without results. */
int store_exec(struct store *st, const char *sql);
/* Bind helpers that accept NULL as SQL NULL. */
void store_bind_text(sqlite3_stmt *s, int i, const char *v);
/* store_col_dup - a copy of a text column, or NULL. */
char *store_col_dup(sqlite3_stmt *s, int i);

#endif
