/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store.h - the database.  Every SQL statement of kmig lives in the store
 * module (store.c and store-<area>.c); nothing else includes sqlite3.h.
 *
 * store_open() creates or migrates the database (schema from db/schema.sql,
 * embedded), sets WAL mode and foreign keys, and refuses a database newer
 * than this kmig.  All functions return 0 or a negative code with the
 * message recorded by kmig_err().  Strings returned through out-parameters
 * are the caller's to free.  A struct store is used by one thread at a time.
 */
#ifndef KMIG_STORE_H
#define KMIG_STORE_H

#include <stdint.h>
#include "util.h"

struct store;

int store_open(struct store **out, const char *path);
void store_close(struct store *st);
/* Version of the SQLite library in use. */
const char *store_sqlite_version(void);
/* Version of the schema this kmig creates. */
int store_schema_version(void);
int store_begin(struct store *st);
int store_commit(struct store *st);
void store_rollback(struct store *st);

/* ---- tracker (store-scan.c) ---- */

/* ---- gate (store-gate.c) ---- */

/* ---- branch (store-branch.c) ---- */

/* ---- builds, boots, bisects (store-boot.c) ---- */

#endif
