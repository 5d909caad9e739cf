// SPDX-License-Identifier: GPL-2.0
/*
 * store.c - open, create and migrate the database; transactions.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store-internal.h"
#include "usetext.h"

extern const char kmig_schema_sql[];

#define MIGRATION_MARK "-- migration: "

/*
 * db_reason - @msg, SQLite's message for @db's last error, followed by the
 * system's when it is an I/O error: "disk I/O error" alone does not tell
 * a full disk from a failing one.  The caller frees it.
 */
static char *db_reason(sqlite3 *db, const char *msg)
{
	int err = db ? sqlite3_system_errno(db) : 0;

	if (!db || (sqlite3_errcode(db) & 0xff) != SQLITE_IOERR || !err)
		return xstrdup(msg);
	return xasprintf("%s (%s)", msg, strerror(err));
}

int store_dberr(struct store *st, const char *what)
{
	char *why = db_reason(st->db, sqlite3_errmsg(st->db));

	kmig_err("database '%s': %s: %s", st->path, what, why);
	free(why);
	return KMIG_EGENERIC;
}

/* store_prepare - prepare @sql; on failure records the error, *out NULL. */
static int store_prepare(struct store *st, sqlite3_stmt **out, const char *sql)
{
	*out = NULL;
	if (sqlite3_prepare_v2(st->db, sql, -1, out, NULL) != SQLITE_OK)
		return store_dberr(st, "prepare");
	return 0;
}

sqlite3_stmt *store_stmt(struct store *st, const char *sql)
{
	struct store_cached *c;
	size_t i;

	for (i = 0; i < st->ncache; i++) {
		c = &st->cache[i];
		if (c->sql == sql) {
			sqlite3_reset(c->stmt);
			sqlite3_clear_bindings(c->stmt);
			return c->stmt;
		}
	}
	ALLOC_GROW(st->cache, st->ncache + 1, st->acache);
	c = &st->cache[st->ncache];
	if (store_prepare(st, &c->stmt, sql))
		return NULL;
	c->sql = sql;
	st->ncache++;
	return c->stmt;
}

int store_done(struct store *st, sqlite3_stmt *s, const char *what)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_dberr(st, what);
	return 0;
}

int store_exists(struct store *st, sqlite3_stmt *s, const char *what)
{
	return store_value(st, s, what, NULL, NULL);
}

int store_value(struct store *st, sqlite3_stmt *s, const char *what,
		long long *num, char **text)
{
	int rc = sqlite3_step(s);

	if (rc == SQLITE_ROW) {
		if (num)
			*num = sqlite3_column_int64(s, 0);
		if (text)
			*text = store_col_dup(s, 0);
	}
	sqlite3_reset(s);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc != SQLITE_DONE)
		return store_dberr(st, what);
	return 0;
}

sqlite3_stmt *store_oid_put_stmt(struct store *st, const char *fn,
				 const char *has_sql, const char *insert_sql,
				 const char *replace_sql, const char *oid,
				 const char *ruleset)
{
	sqlite3_stmt *s = store_txn_stmt(st, fn, has_sql);
	int have;

	if (!s)
		return NULL;
	sqlite3_bind_text(s, 1, oid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, ruleset, -1, SQLITE_TRANSIENT);
	have = store_exists(st, s, "read blob cache");
	if (have < 0)
		return NULL;
	return store_stmt(st, have ? replace_sql : insert_sql);
}

int store_need_txn(struct store *st, const char *fn)
{
	if (!sqlite3_get_autocommit(st->db))
		return 0;
	return kmig_err("database '%s': %s outside a transaction", st->path, fn);
}

sqlite3_stmt *store_txn_stmt(struct store *st, const char *fn, const char *sql)
{
	return store_need_txn(st, fn) ? NULL : store_stmt(st, sql);
}

int store_exec(struct store *st, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		char *why = db_reason(st->db, msg ? msg : "error");

		kmig_err("database '%s': %s", st->path, why);
		free(why);
		sqlite3_free(msg);
		return KMIG_EGENERIC;
	}
	return 0;
}

void store_bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

char *store_col_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t ? xstrdup((const char *)t) : NULL;
}

const char *store_sqlite_version(void)
{
	return sqlite3_libversion();
}

#define WALK_OWN_SQL \
	"SELECT path, oid, subsystem_id FROM release_file_rows WHERE release_id = ?1 ORDER BY path"
#define WALK_BASE_SQL \
	"SELECT path, oid, subsystem_id FROM release_file_rows " \
	"WHERE release_id = (SELECT files_base FROM releases WHERE id = ?1) ORDER BY path"

/* one pair of statements per slot: store_stmt() caches by address */
static const char walk_own_sql[2][sizeof(WALK_OWN_SQL)] = {
	WALK_OWN_SQL, WALK_OWN_SQL
};
static const char walk_base_sql[2][sizeof(WALK_BASE_SQL)] = {
	WALK_BASE_SQL, WALK_BASE_SQL
};

int file_walk_start(struct store *st, struct file_walk *w, long long release,
		    unsigned int slot)
{
	memset(w, 0, sizeof(*w));
	w->st = st;
	if (slot >= ARRAY_SIZE(walk_own_sql))
		return kmig_err("file_walk_start: no slot %u", slot);
	w->own = store_stmt(st, walk_own_sql[slot]);
	w->base = w->own ? store_stmt(st, walk_base_sql[slot]) : NULL;
	if (!w->base)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(w->own, 1, release);
	sqlite3_bind_int64(w->base, 1, release);
	w->ro = sqlite3_step(w->own);
	w->rb = sqlite3_step(w->base);
	return 0;
}

static const char *walk_text(sqlite3_stmt *s, int rc, int col)
{
	return rc == SQLITE_ROW ? (const char *)sqlite3_column_text(s, col) : NULL;
}

int file_walk_next(struct file_walk *w)
{
	const char *po, *pb, *oid;
	int c;

	if (w->took & 1)
		w->ro = sqlite3_step(w->own);
	if (w->took & 2)
		w->rb = sqlite3_step(w->base);
	w->took = 0;
	for (;;) {
		if ((w->ro != SQLITE_ROW && w->ro != SQLITE_DONE) ||
		    (w->rb != SQLITE_ROW && w->rb != SQLITE_DONE))
			return store_dberr(w->st, "read release files");
		po = walk_text(w->own, w->ro, 0);
		pb = walk_text(w->base, w->rb, 0);
		if ((w->ro == SQLITE_ROW && !po) || (w->rb == SQLITE_ROW && !pb))
			return store_dberr(w->st, "read release files");
		if (!po && !pb)
			return 0;
		c = !po ? 1 : !pb ? -1 : strcmp(po, pb);
		if (c > 0) {	/* the base's, not overridden */
			w->took = 2;
			w->path = pb;
			w->oid = walk_text(w->base, w->rb, 1);
			w->sid = sqlite3_column_int64(w->base, 2);
			return w->oid ? 1 : store_dberr(w->st, "read release files");
		}
		/* its own row, over the base's of the same path */
		w->took = c ? 1 : 3;
		oid = walk_text(w->own, w->ro, 1);
		if (!oid)
			return store_dberr(w->st, "read release files");
		if (*oid) {
			w->path = po;
			w->oid = oid;
			w->sid = sqlite3_column_int64(w->own, 2);
			return 1;
		}
		/* a tombstone: the file is gone */
		w->ro = sqlite3_step(w->own);
		if (c == 0)
			w->rb = sqlite3_step(w->base);
		w->took = 0;
	}
}

void file_walk_end(struct file_walk *w)
{
	if (w->own)
		sqlite3_reset(w->own);
	if (w->base)
		sqlite3_reset(w->base);
	w->own = w->base = NULL;
}

/* The newest migration number in the embedded schema. */
int store_schema_version(void)
{
	const char *p = kmig_schema_sql;
	int v = 0;

	while ((p = strstr(p, MIGRATION_MARK))) {
		p += strlen(MIGRATION_MARK);
		v = atoi(p);
	}
	return v;
}

/* The SQL text of migration @n (caller frees), or NULL. */
static char *migration_sql(int n)
{
	const char *p = kmig_schema_sql, *start = NULL, *end;

	while ((p = strstr(p, MIGRATION_MARK))) {
		p += strlen(MIGRATION_MARK);
		if (atoi(p) == n) {
			start = strchr(p, '\n');
			break;
		}
	}
	if (!start)
		return NULL;
	end = strstr(start, MIGRATION_MARK);
	return end ? xstrndup(start, (size_t)(end - start)) : xstrdup(start);
}

/*
 * query_int - run the cached one-row @sql and store its first column in
 * *@out (0 when it returns no row); 0 or negative with the error recorded.
 */
static int query_int(struct store *st, const char *sql, int *out)
{
	sqlite3_stmt *s = store_stmt(st, sql);
	long long v = 0;
	int ret = s ? store_value(st, s, "read schema", &v, NULL) : KMIG_EGENERIC;

	*out = (int)v;
	return ret < 0 ? ret : 0;
}

/*
 * current_version - the schema version of the database: PRAGMA
 * user_version since migration 3; before it, the row of the table
 * schema_version (which migration 3 drops).  0 for an empty database.
 */
static int current_version(struct store *st, int *out)
{
	static const char table_sql[] =
		"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'";
	static const char legacy_sql[] = "SELECT version FROM schema_version";
	static const char pragma_sql[] = "PRAGMA user_version";
	int legacy, ret;

	ret = query_int(st, table_sql, &legacy);
	if (ret)
		return ret;
	return query_int(st, legacy ? legacy_sql : pragma_sql, out);
}

static int newer_err(struct store *st, int have)
{
	return kmig_err("database '%s' has schema version %d, newer than this kmig (%d); upgrade kmig",
			st->path, have, store_schema_version());
}

/*
 * check_database - the schema version of @st's database into *@have and
 * its number of tables into *@tables (both 0 for a new, empty file);
 * refuse, before anything is written to it, a database newer than this
 * kmig and one that is no kmig database: a file SQLite cannot read, or
 * an SQLite database of another program (tables or a version, but no
 * table releases, which migration 1 made).
 */
static int check_database(struct store *st, int *have, int *tables)
{
	static const char tables_sql[] = "SELECT count(*) FROM sqlite_master";
	static const char ours_sql[] =
		"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'releases'";
	int ours;

	*have = *tables = 0;
	if (current_version(st, have) || query_int(st, tables_sql, tables) ||
	    query_int(st, ours_sql, &ours)) {
		if (sqlite3_errcode(st->db) == SQLITE_NOTADB)
			return kmig_err("database '%s' is not a kmig database: %s",
					st->path, sqlite3_errmsg(st->db));
		return KMIG_EGENERIC;
	}
	if (*have > store_schema_version())
		return newer_err(st, *have);
	if ((*tables || *have) && !ours)
		return kmig_err("database '%s' is not a kmig database (it has no table 'releases')",
				st->path);
	return 0;
}

/*
 * migrate - apply, in one transaction, every migration above the
 * database's version, each followed by PRAGMA user_version; refuse a
 * database newer than this kmig (one may have migrated it since
 * check_database()).
 */
static int migrate(struct store *st)
{
	int have, want = store_schema_version(), n;

	if (store_exec(st, "BEGIN IMMEDIATE"))
		return KMIG_EGENERIC;
	if (current_version(st, &have))
		goto out_rollback;
	if (have > want) {
		newer_err(st, have);
		goto out_rollback;
	}
	for (n = have + 1; n <= want; n++) {
		char *sql = migration_sql(n), *upd;
		int ret;

		if (!sql) {
			kmig_err("embedded schema lacks migration %d", n);
			goto out_rollback;
		}
		ret = store_exec(st, sql);
		free(sql);
		if (ret)
			goto out_rollback;
		upd = xasprintf("PRAGMA user_version = %d", n);
		ret = store_exec(st, upd);
		free(upd);
		if (ret)
			goto out_rollback;
	}
	return store_exec(st, "COMMIT");

out_rollback:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return KMIG_EGENERIC;
}

/*
 * not_a_file - an error when @path exists and is no regular file (a
 * directory, a device): SQLite would say "disk I/O error" and leave a
 * -journal beside it.
 */
static int not_a_file(const char *path)
{
	struct stat sb;

	if (stat(path, &sb) < 0 || S_ISREG(sb.st_mode))
		return 0;
	return kmig_err("database '%s' is not a regular file", path);
}

/* SQL use_key(text): use_text_key() of a site's text (the trend's identity). */
static void sql_use_key(sqlite3_context *c, int argc, sqlite3_value **v)
{
	const char *text = (const char *)sqlite3_value_text(v[0]);
	char *key;
	size_t n;

	(void)argc;
	if (!text) {
		if (sqlite3_value_type(v[0]) == SQLITE_NULL)
			sqlite3_result_null(c);
		else
			sqlite3_result_error_nomem(c);
		return;
	}
	key = sqlite3_malloc64(strlen(text) + 1);
	if (!key) {
		sqlite3_result_error_nomem(c);
		return;
	}
	n = use_text_key(text, key);
	sqlite3_result_text64(c, key, n, sqlite3_free, SQLITE_UTF8);
}

/* The SQL functions kmig's statements call, on @st's connection. */
static int add_functions(struct store *st)
{
	if (sqlite3_create_function_v2(st->db, "use_key", 1,
				       SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
				       sql_use_key, NULL, NULL, NULL) != SQLITE_OK)
		return store_dberr(st, "register SQL functions");
	return 0;
}

int store_open(struct store **out, const char *path)
{
	struct store *st;
	char *dir, *slash;
	int have, tables;

	*out = NULL;
	if (not_a_file(path))
		return KMIG_EGENERIC;
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (access(dir, F_OK) < 0 && mkdir_p(dir) < 0) {
			free(dir);
			return kmig_err("cannot create database '%s': %s", path,
					kmig_errmsg());
		}
	}
	free(dir);

	st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	if (sqlite3_open_v2(path, &st->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		kmig_err("cannot open database '%s': %s", path,
			 st->db ? sqlite3_errmsg(st->db) : "out of memory");
		goto out_close;
	}
	sqlite3_busy_timeout(st->db, 30000);
	/* before journal_mode, which writes a database not in WAL mode */
	if (add_functions(st) || check_database(st, &have, &tables) ||
	    store_exec(st, "PRAGMA journal_mode = WAL") ||
	    store_exec(st, "PRAGMA foreign_keys = ON") ||
	    store_exec(st, "PRAGMA synchronous = NORMAL"))
		goto out_close;
	if (migrate(st))
		goto out_close;
	*out = st;
	return 0;

out_close:
	store_close(st);
	return KMIG_EGENERIC;
}

/*
 * The oldest schema a read-only command reads as it is when it cannot
 * migrate it: migration 16 changed how blob_funcs is stored, not what any
 * statement reads from it.
 */
#define SCHEMA_RO_OLDEST 15

/*
 * check_version_ro - a read-only database cannot be migrated: refuse one
 * older than SCHEMA_RO_OLDEST or newer than this kmig.
 */
static int check_version_ro(struct store *st)
{
	int have, want = store_schema_version();

	if (current_version(st, &have))
		return KMIG_EGENERIC;
	if (have < SCHEMA_RO_OLDEST)
		return kmig_err("database '%s' has schema version %d, older than this kmig (%d); run 'kmig scan' to migrate it",
				st->path, have, want);
	if (have > want)
		return newer_err(st, have);
	return 0;
}

/* open_ro - open @uri (a file: URI) read-only into @st->db. */
static int open_ro(struct store *st, const char *uri)
{
	size_t i;

	/* a reopen: the cached statements belong to the old connection */
	for (i = 0; i < st->ncache; i++)
		sqlite3_finalize(st->cache[i].stmt);
	st->ncache = 0;
	if (st->db)
		sqlite3_close(st->db);
	st->db = NULL;
	if (sqlite3_open_v2(uri, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return kmig_err("cannot open database '%s': %s", st->path,
				st->db ? sqlite3_errmsg(st->db) : "out of memory");
	sqlite3_busy_timeout(st->db, 30000);
	return add_functions(st);
}

/* uri_path - @path %-escaped for a file: URI (caller frees). */
static char *uri_path(const char *path)
{
	struct sbuf sb = SBUF_INIT;

	for (; *path; path++) {
		if (*path == '%' || *path == '?' || *path == '#')
			sbuf_addf(&sb, "%%%02X", (unsigned char)*path);
		else
			sbuf_addch(&sb, *path);
	}
	return sbuf_detach(&sb);
}

int store_open_readonly(struct store **out, const char *path)
{
	struct store *st;
	char *upath, *uri, *dir;
	bool dir_ro, migrated = false;
	int have, tables, ret = KMIG_EGENERIC;

	*out = NULL;
	if (access(path, F_OK) < 0)
		return kmig_errcode(KMIG_ENOTFOUND,
				    "database '%s' does not exist (run 'kmig scan' first)",
				    path);
	if (not_a_file(path))
		return KMIG_EGENERIC;
	dir = path_parent(path);
	dir_ro = access(dir, W_OK) < 0;
	free(dir);

	st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	upath = uri_path(path);
	/*
	 * In WAL mode even a reader needs the -shm file, which SQLite cannot
	 * create in a directory we cannot write: there the database is read
	 * as immutable (no locks, no WAL), since no writer of ours can work
	 * there either.
	 */
	uri = xasprintf("file:%s?mode=ro%s", upath, dir_ro ? "&immutable=1" : "");
	free(upath);
	if (open_ro(st, uri) || check_database(st, &have, &tables))
		goto out_close;
	if (!have && !tables) {
		/* an empty file: not written to make one */
		ret = kmig_errcode(KMIG_ENOTFOUND,
				   "database '%s' is empty (run 'kmig scan' first)",
				   path);
		goto out_close;
	}
	if (have < store_schema_version() && !migrated &&
	    !(have >= SCHEMA_RO_OLDEST && (dir_ro || access(path, W_OK) < 0))) {
		/* an older schema is migrated once: the one write, if allowed */
		struct store *rw;

		if (store_open(&rw, path))
			goto out_close;
		store_close(rw);
		migrated = true;
		if (open_ro(st, uri))
			goto out_close;
	}
	if (check_version_ro(st))
		goto out_close;
	free(uri);
	*out = st;
	return 0;

out_close:
	free(uri);
	store_close(st);
	return ret;
}

const char *store_path(const struct store *st)
{
	return st->path;
}

/*
 * The checkpointer of store_checkpoint_behind(): a thread with its own
 * connection that copies the WAL into the database file after each
 * commit, while the writer goes on with the next transaction.
 */
struct store_ckpt {
	sqlite3 *db;
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool pending, stop;
	int autockpt;		/* the writer's wal_autocheckpoint before */
};

/*
 * The writer's own checkpoints meanwhile: only past 64 MB of WAL.  SQLite
 * starts the WAL over only when a transaction begins after everything was
 * copied, so commits that come faster than the thread copies them would
 * make it grow without end; past this, the writer copies what is left.
 */
#define CKPT_BACKSTOP_PAGES 16384

static void *ckpt_main(void *arg)
{
	struct store_ckpt *c = arg;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		while (!c->pending && !c->stop)
			pthread_cond_wait(&c->wake, &c->lock);
		if (c->stop)	/* the writer's close checkpoints the rest */
			break;
		c->pending = false;
		pthread_mutex_unlock(&c->lock);
		/* passive: neither waits for the writer nor makes it wait */
		sqlite3_wal_checkpoint_v2(c->db, NULL, SQLITE_CHECKPOINT_PASSIVE,
					  NULL, NULL);
		pthread_mutex_lock(&c->lock);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

/* The integer a one-row PRAGMA query gives, or -1. */
static int pragma_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s = NULL;
	int v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return v;
}

static void ckpt_free(struct store_ckpt *c)
{
	pthread_cond_destroy(&c->wake);
	pthread_mutex_destroy(&c->lock);
	sqlite3_close(c->db);
	free(c);
}

void store_checkpoint_behind(struct store *st)
{
	struct store_ckpt *c;

	if (st->ckpt || ncpus() < 2)
		return;
	c = xcalloc(1, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->wake, NULL);
	/*
	 * The read opens the connection's WAL: a checkpoint on a
	 * connection that never read the database does nothing.
	 */
	if (sqlite3_open_v2(st->path, &c->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
	    sqlite3_exec(c->db, "PRAGMA synchronous = NORMAL", NULL, NULL,
			 NULL) != SQLITE_OK ||
	    sqlite3_exec(c->db, "SELECT 1 FROM sqlite_master LIMIT 1", NULL,
			 NULL, NULL) != SQLITE_OK)
		goto out_free;
	c->autockpt = pragma_int(st->db, "PRAGMA wal_autocheckpoint");
	if (c->autockpt < 0 ||
	    sqlite3_wal_autocheckpoint(st->db, CKPT_BACKSTOP_PAGES) != SQLITE_OK)
		goto out_free;
	if (pthread_create(&c->tid, NULL, ckpt_main, c)) {
		sqlite3_wal_autocheckpoint(st->db, c->autockpt);
		goto out_free;
	}
	st->ckpt = c;
	return;

out_free:
	ckpt_free(c);
}

/* Set the checkpointer's @flag (pending or stop) and wake it. */
static void ckpt_wake(struct store_ckpt *c, bool *flag)
{
	pthread_mutex_lock(&c->lock);
	*flag = true;
	pthread_cond_signal(&c->wake);
	pthread_mutex_unlock(&c->lock);
}

void store_checkpoint_stop(struct store *st)
{
	struct store_ckpt *c = st->ckpt;

	if (!c)
		return;
	ckpt_wake(c, &c->stop);
	pthread_join(c->tid, NULL);
	sqlite3_wal_autocheckpoint(st->db, c->autockpt);
	ckpt_free(c);
	st->ckpt = NULL;
}

void store_close(struct store *st)
{
	size_t i;

	if (!st)
		return;
	store_checkpoint_stop(st);
	for (i = 0; i < st->ncache; i++)
		sqlite3_finalize(st->cache[i].stmt);
	free(st->cache);
	store_subsystems_forget(st);
	facts_packer_free(st->facts);
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

int store_begin(struct store *st)
{
	return store_exec(st, "BEGIN IMMEDIATE");
}

int store_commit(struct store *st)
{
	int ret = store_exec(st, "COMMIT");

	if (!ret && st->ckpt)	/* its pages to copy */
		ckpt_wake(st->ckpt, &st->ckpt->pending);
	return ret;
}

void store_rollback(struct store *st)
{
	store_subsystems_forget(st);
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}
