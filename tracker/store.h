/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store.h - the database.  Every SQL statement of kmig lives in the store
 * module (store.c and store-<area>.c); nothing else includes sqlite3.h.
 *
 * store_open() creates or migrates the database (schema from db/schema.sql,
 * embedded; the version is PRAGMA user_version), sets WAL mode and foreign
 * keys, and refuses a database newer than this kmig.  All functions return
 * 0 or a negative code with the message recorded by kmig_err(); none
 * prints.  Strings returned through out-parameters are the caller's to
 * free.  A struct store is used by one thread at a time.
 *
 * Transactions.  Each function below says which of three it is:
 *   "Caller holds a transaction": it writes several rows that belong
 *	together (a blob and its sites, a release's files); the caller
 *	brackets a batch of calls with store_begin() and store_commit() (or
 *	store_rollback() on error) and the function fails, recording
 *	"<function> outside a transaction", when called without one.
 *   "Opens its own transaction": the caller must not hold one (SQLite
 *	transactions do not nest; store_begin() would fail).
 *   "No transaction needed": one SQL statement, atomic and consistent by
 *	itself; within a caller's transaction it is part of it.
 */
#ifndef KMIG_STORE_H
#define KMIG_STORE_H

#include <stdint.h>
#include "util.h"

struct store;

/*
 * store_open - open (creating @path and its directory if needed) the
 * database into *@out, applying the migrations it lacks; *@out is NULL on
 * error.  Opens its own transaction (the migration, even when none is
 * needed: BEGIN IMMEDIATE waits up to 30 s for another writer).
 */
int store_open(struct store **out, const char *path);
/*
 * store_open_readonly - open the existing database @path read-only into
 * *@out (NULL on error), never creating it or its directory, and never
 * writing to it: KMIG_ENOTFOUND when @path does not exist, an error when
 * its schema is newer than this kmig's.  An older schema is migrated
 * first (as store_open() does: the one write, which needs write access).
 * In a directory this process cannot write, the database is read as
 * immutable (SQLite takes no locks there): a writer elsewhere at the same
 * time is not seen.  Every writing function fails on such a store.
 */
int store_open_readonly(struct store **out, const char *path);
/*
 * store_close - finalize the cached statements and close; NULL is a no-op.
 * A transaction still open is rolled back.
 */
void store_close(struct store *st);
/* The path @st was opened from (for a second connection to it). */
const char *store_path(const struct store *st);
/* Version of the SQLite library in use.  No database access. */
const char *store_sqlite_version(void);
/* Version of the schema this kmig creates.  No database access. */
int store_schema_version(void);
/*
 * store_begin - start a write transaction (BEGIN IMMEDIATE: takes the
 * write lock now, waiting up to 30 s for another writer).  Must not be
 * nested.  Returns 0 or negative (e.g. the database is busy or read-only).
 */
int store_begin(struct store *st);
/* store_commit - commit the transaction of store_begin(). */
int store_commit(struct store *st);
/* store_rollback - undo the transaction of store_begin(); cannot fail. */
void store_rollback(struct store *st);

/* ---- tracker (store-scan.c) ---- */

struct oidset;
struct site_list;

struct release_info {
	long long id;
	char *tag;
	char *commit;
	char *ruleset;		/* rules_hash() of its blobs' sites */
	char *counted_by;	/* release_hash() of its counts, or NULL */
	long long date;
	long long files;
	char *date_source;	/* "debian-changelog", or NULL: the commit time */
	long long line_date;	/* the first Debian upload of its X.Y line, or 0 */
};

/*
 * release_trend_date - the date the forecast puts @r at: the first Debian
 * release of its kernel line when known (a point release of a long-term
 * line holds that line's code), else its own date.
 */
static inline long long release_trend_date(const struct release_info *r)
{
	return r->line_date ? r->line_date : r->date;
}
void release_info_clear(struct release_info *r);

/*
 * store_release_get - the scanned release @tag into @out (cleared first),
 * or KMIG_ENOTFOUND.  No transaction needed.
 */
int store_release_get(struct store *st, const char *tag, struct release_info *out);
/*
 * store_release_date - the date (Unix time) of @release is @date: the
 * time of the commit it is now recorded at.  The caller holds the
 * transaction.
 */
int store_release_date(struct store *st, long long release, long long date);
/*
 * store_release_dates - record where the date of @release (an id of
 * store_release_start()) comes from, @source: "debian-changelog", or NULL
 * for the commit time as such; and @line_date, the Unix time (0: unknown)
 * the release's kernel line was first released in Debian, which the
 * forecast regresses on.  The caller holds the transaction.
 */
int store_release_dates(struct store *st, long long release,
			const char *source, long long line_date);
/*
 * store_release_recommit - release @tag, scanned at commit @old_commit,
 * is now commit @new_commit with the same tree (kmig import re-created it
 * on a new parent): record the new commit id, keeping its counts and
 * files (kmig scan records the new commit's dates with it:
 * store_release_date(), store_release_dates()).  No row changes when @tag is not scanned or was scanned at
 * another commit.  The caller holds the transaction (store_begin()).
 */
int store_release_recommit(struct store *st, const char *tag,
			   const char *old_commit, const char *new_commit);
/*
 * store_releases - every scanned release in version order, *@n of them in
 * *@out (free with release_infos_free()).  No transaction needed.
 */
int store_releases(struct store *st, struct release_info **out, size_t *n);
void release_infos_free(struct release_info *v, size_t n);
/*
 * store_scan_tune - a page cache sized for scanning whole releases (for
 * the life of @st).  No transaction needed.
 */
int store_scan_tune(struct store *st);
/*
 * store_checkpoint_behind - from now on, a thread with a connection of
 * its own copies the write-ahead log into the database file after each
 * store_commit(), while the caller goes on: a commit no longer waits for
 * SQLite's automatic checkpoint (about 0.2-0.3 s of a release's write);
 * the writer checkpoints itself only when the thread falls 64 MB behind.
 * Without a second CPU, or when the thread cannot start, SQLite's own
 * checkpoints stay.  store_checkpoint_stop() (and store_close(), which
 * then checkpoints what is left) ends it.
 */
void store_checkpoint_behind(struct store *st);
void store_checkpoint_stop(struct store *st);
/*
 * store_cached_blobs - add every blob cached under @ruleset to @out.
 * No transaction needed.
 */
int store_cached_blobs(struct store *st, const char *ruleset, struct oidset *out);
/*
 * store_blob_put - cache a lexed blob and its use sites (replacing the
 * blob's row; call it once per blob).  Caller holds a transaction.
 */
int store_blob_put(struct store *st, const char *oid, const char *ruleset,
		   uint64_t bytes, const struct site_list *sites);
/*
 * store_blob_sites - append the cached sites of blob @oid to @out;
 * KMIG_ENOTFOUND when the blob is not cached under @ruleset.  No
 * transaction needed.
 */
int store_blob_sites(struct store *st, const char *oid, const char *ruleset,
		     struct site_list *out);
/*
 * store_prune_blobs - drop cached blobs of rule sets that neither the
 * current rules nor any release use any more; *pruned counts them.
 * Opens its own transaction, only when there is such a rule set (the
 * blob_rulesets table says, without reading the blobs).
 */
int store_prune_blobs(struct store *st, long long *pruned);

/*
 * store_release_maintainers - the MAINTAINERS blob id (hex) release
 * @release was scanned with, in *@oid (caller frees), or NULL (none, or
 * no such release).
 */
int store_release_maintainers(struct store *st, long long release,
			      char **oid);

/*
 * store_release_subsystems - give each file row of release @release's own
 * (not those it shares with its files_base, which that release's own
 * call sets) the section @section(@data, path) names, where it differs;
 * *@moved counts the rows changed.  The caller holds the transaction and
 * counts the release again (store_release_finish()).
 */
int store_release_subsystems(struct store *st, long long release,
			     const char *(*section)(const void *data, const char *path),
			     const void *data, size_t *moved);

/*
 * store_release_delete - remove release @tag and everything recorded for
 * it (counts, file rows, sites reached); the releases that share its file
 * rows get them as their own first.  The caller holds the transaction.
 * No such release: nothing to do.
 */
int store_release_delete(struct store *st, const char *tag);

/*
 * store_release_start - (re)create release @tag, dropping an older scan
 * of it; *@id is the new release.  Caller holds a transaction (the same
 * one as the release's store_release_file() and store_release_finish()).
 */
int store_release_start(struct store *st, long long *id, const char *tag,
			const char *commit, long long date, const char *ruleset,
			const char *maintainers_oid);
/*
 * store_release_file - record an in-scope file of the release and its
 * subsystem (created on first use).  Caller holds a transaction.
 */
int store_release_file(struct store *st, long long release, const char *path,
		       const char *oid, const char *subsystem);
/* One in-scope file of a release, for store_release_files(). */
struct store_file {
	const char *path;
	const char *oid;	/* 40 hex digits */
	const char *subsystem;
};
/*
 * store_release_files - store_release_file() of each of the @n files of
 * @v, in that order, many rows a statement.  Caller holds a transaction.
 */
int store_release_files(struct store *st, long long release,
			const struct store_file *v, size_t n);
/*
 * store_release_files_from - release @release shares the file rows of
 * release @base (its files_base, migration 13) for every path but the
 * @nchanged of @changed (the files new, gone or with another blob, in
 * either release; in strcmp() order, each once, or nothing is written and
 * it fails), when both releases have the same MAINTAINERS blob (so the
 * same sections) and the rows it holds of its own stay under a quarter of
 * @base's files (store_release_finish() of @base recorded them): then
 * *@copied is true and the caller stores the rows of the changed paths the
 * release has, and store_release_files_gone() of those it lacks; else
 * nothing is written and *@copied is false (the caller stores every row).  After store_release_start(), before the release's
 * other file rows.  Caller holds a transaction.
 */
int store_release_files_from(struct store *st, long long release,
			     long long base, const char *const *changed,
			     size_t nchanged, bool *copied);
/*
 * store_release_files_gone - after store_release_files_from() set
 * *copied: the @n paths of @gone, files of release @base that release
 * @release does not have.  Caller holds a transaction.
 */
int store_release_files_gone(struct store *st, long long release,
			     long long base, const char *const *gone,
			     size_t n);
/*
 * store_release_finish - materialise the release's counts and record its
 * number of @files and that release_hash() counted it (counted_by); after
 * every store_release_file().  Caller holds a transaction.
 */
int store_release_finish(struct store *st, long long release, long long files);
/*
 * store_release_counts_copy - the first half of
 * store_release_finish_from(), beside the release's call graph (it needs
 * none): the file counts of release @base copied to @release for every
 * path but the @nchanged of @changed (in strcmp() order, each once), when
 * both were scanned under the same rule set and counted by the same
 * release step (counted_by); else nothing.  Caller holds
 * a transaction.
 */
int store_release_counts_copy(struct store *st, long long release,
			      long long base, const char *const *changed,
			      size_t nchanged);
/*
 * store_release_finish_from - store_release_finish() for a release most
 * of whose files have the blob they have in release @base, scanned under
 * the same rule set (a point release after the one before it): the
 * @nchanged paths of @changed are the files new, gone or with another blob
 * (in either release).  After store_release_counts_copy() with the same
 * arguments, and the release's call graph: the file counts it copied stay,
 * unless a site of the file is reached or a constant vla in either release
 * (its rule may differ); those and the changed files are counted from
 * their sites.
 * The counts are the same as store_release_finish()'s, which it falls
 * back on when @base was scanned under other rules.  Caller holds a
 * transaction.
 */
int store_release_finish_from(struct store *st, long long release,
			      long long base, const char *const *changed,
			      size_t nchanged, long long files);

/* Report queries.  A count row: key is the subsystem or path, or NULL. */
enum count_by { BY_RULE, BY_SUBSYSTEM, BY_FILE };
struct count_row {
	char *key;
	char *rule;
	long long count;
};
struct count_rows {
	struct count_row *v;
	size_t n, alloc;
};
void count_rows_clear(struct count_rows *r);
/*
 * store_counts - non-zero counts of @release grouped @by, optionally only
 * rule @rule and subsystem @subsystem (NULL: all), ordered by key, rule;
 * appended to @out.  No transaction needed.
 */
int store_counts(struct store *st, long long release, enum count_by by,
		 const char *rule, const char *subsystem, struct count_rows *out);
/*
 * store_site_changes - uses added and removed from release @old to @new
 * per rule.  A use is (rule, path, normalised text); each path's uses are
 * compared as multisets (only files whose blob differs), so a use is
 * neither added nor removed when its file moves to another section.  A
 * path belongs to its section in @new (in @old when @new lacks it); with
 * @subsystem only the paths of that section count.  Rows: key NULL, rule,
 * count = added in @added and removed in @removed (appended, one row per
 * rule with changes).  @before (may be NULL) gets per rule the count in
 * @old of the same paths, so that for every rule
 *	count in @new - before = added - removed.
 * No transaction needed.
 */
int store_site_changes(struct store *st, long long old, long long new_,
		       const char *rule, const char *subsystem,
		       struct count_rows *added, struct count_rows *removed,
		       struct count_rows *before);
/*
 * store_section_changes - store_site_changes() for every section at once
 * (and optionally only rule @rule): rows keyed by section, ordered by
 * section and rule, appended to @added and @removed (the same keys, one
 * row per section and rule with changes) and to @before (the count in
 * @old of the paths of the section, as store_site_changes() defines
 * them).  No transaction needed.
 */
int store_section_changes(struct store *st, long long old, long long new_,
			  const char *rule, struct count_rows *added,
			  struct count_rows *removed, struct count_rows *before);
/*
 * store_subsystem_exists - 1 when @name is a known subsystem (of a
 * scanned release or of a commit kmig log recorded), 0 when not,
 * negative on error.  No transaction needed.
 */
int store_subsystem_exists(struct store *st, const char *name);

/* ---- warn-on-user reachability (store-reach.c) ---- */

/*
 * store_blob_funcs_put - cache the function facts @data (lexer.h's
 * site_list.funcs; NULL: nothing to store) of blob @oid, after its
 * store_blob_put().  Caller holds a transaction.
 */
int store_blob_funcs_put(struct store *st, const char *oid,
			 const char *ruleset, const char *data);
/*
 * store_blob_funcs_put_z - the same for facts already packed (facts.h;
 * len 0: nothing to store).
 */
struct facts_z;
int store_blob_funcs_put_z(struct store *st, const char *oid,
			   const char *ruleset, const struct facts_z *z);
/*
 * store_blob_funcs - the cached function facts of blob @oid into *@out
 * (the caller's), NULL when there are none.  No transaction needed.
 */
int store_blob_funcs(struct store *st, const char *oid, const char *ruleset,
		     char **out);
/*
 * store_release_blobs - call @fn for every file of release @release in
 * path order, with its blob id and the release's ruleset (the strings are
 * valid during the call); a non-zero return stops and is returned.  No
 * transaction needed.
 */
typedef int store_release_blob_fn(void *data, const char *path,
				  const char *oid, const char *ruleset);
int store_release_blobs(struct store *st, long long release,
			store_release_blob_fn *fn, void *data);
/*
 * store_rule_sites - the same for every site of rule @rule or @rule2 (ids
 * of rules.def, as recorded per blob: "warn-on", "vla"; @rule2 may be
 * NULL) in @release, with its rule and struct site.deps (NULL for most
 * sites).
 */
typedef int store_rule_site_fn(void *data, const char *path,
			       unsigned int line, const char *rule,
			       const char *deps);
int store_rule_sites(struct store *st, long long release, const char *rule,
		     const char *rule2,
		     store_rule_site_fn *fn, void *data);
/*
 * store_reach_put - the warn-on site(s) on @line of @path in @release are
 * reached by user space through @chain.  Caller holds a transaction.
 */
int store_reach_put(struct store *st, long long release, const char *path,
		    unsigned int line, const char *chain);
/*
 * store_reach_stats - record the release's walk @depth and its numbers of
 * entry points and reached functions.  Caller holds a transaction.
 */
int store_reach_stats(struct store *st, long long release, unsigned int depth,
		      size_t entries, size_t reached);
/*
 * store_reach_clear - forget release @release's reached sites, constant
 * vla sites and counts
 * (before its graph is computed again and store_release_finish() counts
 * again).  Caller holds a transaction.
 */
int store_reach_clear(struct store *st, long long release);
/*
 * store_reach_info - the release's walk: *@depth (-1: not computed),
 * entry points, functions reached and reached sites (@sites NULL: not
 * counted, a join over the release's files that costs tens of ms).  No
 * transaction needed.
 */
int store_reach_info(struct store *st, long long release, int *depth,
		     long long *entries, long long *reached, long long *sites);
/*
 * store_reach_sites - @fn for each reached warn-on site of @release by
 * path and line (two on one line are two calls, as they count twice as
 * warn-on-user): its path, line, call path and source line.  No
 * transaction needed.
 */
typedef int store_reach_chain_fn(void *data, const char *path,
				 unsigned int line, const char *chain,
				 const char *text);
int store_reach_sites(struct store *st, long long release,
		      store_reach_chain_fn *fn, void *data);

/*
 * store_vla_const_put - the vla site(s) on @line of @path in @release that
 * depend on @deps are of constant size: the release's headers define every name they depend
 * on (they are not counted).  Caller holds a transaction.
 */
int store_vla_const_put(struct store *st, long long release, const char *path,
			unsigned int line, const char *deps);

/* ---- gate (store-gate.c) ---- */

/* Uses of one rule added and removed by a commit in one subsystem. */
struct commit_change {
	char *subsystem;
	char *rule;
	long long added, removed;
};
struct commit_changes {
	struct commit_change *v;
	size_t n, alloc;
};
void commit_changes_clear(struct commit_changes *c);
/*
 * store_commit_put - record commit @commit (replacing an older record):
 * @author "Name <email>", @date Unix time, the rule set @ruleset used,
 * and its non-zero @changes per (subsystem, rule).  Caller holds a
 * transaction (kmig log commits one per batch of commits).
 */
int store_commit_put(struct store *st, const char *commit, const char *author,
		     long long date, const char *subject, const char *ruleset,
		     const struct commit_changes *changes);
/*
 * store_commit_get - the changes of @commit recorded under @ruleset,
 * ordered by subsystem and rule, appended to @out; KMIG_ENOTFOUND when
 * not recorded.  No transaction needed.
 */
int store_commit_get(struct store *st, const char *commit, const char *ruleset,
		     struct commit_changes *out);

/*
 * store_log_range_put - record that kmig log attributed range @range
 * (from @from to @to, commit ids) and that its commits are the @n
 * @commits (each already recorded with store_commit_put()), replacing an
 * older record of @range.  Opens its own transaction.
 */
int store_log_range_put(struct store *st, const char *range, const char *from,
			const char *to, const char *const *commits, size_t n);

/* ---- branch (store-branch.c) ---- */

/* One step of "kmig branch apply": a patch of the series on a branch. */
struct branch_step {
	char *branch;		/* e.g. "kmig/v6.1.192" */
	char *base;		/* the base tag */
	int position;		/* 1-based position in the series */
	char *patch;		/* patch file name */
	char *subject;
	char *status;		/* applied/upstream/superseded/conflict */
	char *commit;		/* the branch commit (applied), or NULL */
	char *evidence;		/* one fact a line, or NULL */
	char *test_status;	/* set by "kmig branch test", or NULL */
	/*
	 * when the step was applied: store_branch_latest() goes by it, so a
	 * test of an older branch (store_branch_set_test()) does not move it
	 */
	long long updated_at;
};
struct branch_steps {
	struct branch_step *v;
	size_t n, alloc;
};
void branch_steps_clear(struct branch_steps *s);
/*
 * store_branch_reset - forget every step of @branch (a new apply).  No
 * transaction needed.
 */
int store_branch_reset(struct store *st, const char *branch);
/*
 * store_branch_step_put - record (insert or replace) step @s; updated_at
 * 0 means now.  No transaction needed: each step is committed as it is
 * applied, so an interrupted apply keeps the steps done.
 */
int store_branch_step_put(struct store *st, const struct branch_step *s);
/*
 * store_branch_steps - the steps of @branch in series order, into @out
 * (cleared first).  No transaction needed.
 */
int store_branch_steps(struct store *st, const char *branch,
		       struct branch_steps *out);
/*
 * store_branch_set_test - record the "kmig branch test" result of step
 * @position of @branch ("pass", "compile-fail", "build-fail", "boot-fail",
 * "untested");
 * KMIG_ENOTFOUND when there is no such step.  No transaction needed.
 */
int store_branch_set_test(struct store *st, const char *branch, int position,
			  const char *test_status);
/*
 * store_branch_latest - the branch applied last (the most recent step
 * applied; a test result does not count), in *@branch
 * (caller frees); KMIG_ENOTFOUND when no branch was ever applied.  No
 * transaction needed.
 */
int store_branch_latest(struct store *st, char **branch);

/*
 * ---- builds, boots, bisects (store-boot.c) ----
 *
 * No transaction needed by any: each is one statement, committed at once
 * so that a build, boot or bisection step interrupted later is kept.
 */

/*
 * store_build_add - record a kernel build: @status "ok" or "failed",
 * @config_hash the configuration recipe (kbuild.h); *@id the new row,
 * @log_path may be NULL.
 */
int store_build_add(struct store *st, const char *commit,
		    const char *config_hash, const char *status,
		    double seconds, const char *log_path, int64_t *id);
/* store_build_find - newest "ok" build of @commit; KMIG_ENOTFOUND if none. */
int store_build_find(struct store *st, const char *commit,
		     const char *config_hash, int64_t *id);
/* One boot attempt as recorded (strings borrowed, may be NULL). */
struct store_boot {
	const char *status;	/* "pass", "fail", "timeout", "flaky" (passed
				 * after a failed attempt) */
	double seconds;
	const char *findings;	/* one a line */
	const char *console_path;	/* NULL: not kept */
	int attempt;		/* 1 the first boot, 2 the first retry... */
	const char *results;	/* the guest's KMIG-TEST lines */
};
/*
 * store_boot_add - record a QEMU boot attempt @b of build @build_id:
 * @tests the comma-separated test names; *@id the new row.
 */
int store_boot_add(struct store *st, int64_t build_id, const char *tests,
		   const struct store_boot *b, int64_t *id);
/*
 * store_bisect_start - a new bisection, status "running", owned by this
 * process (bisects.owner, util.h's proc_owner()); *@id its row.  First
 * the running bisections whose kmig is gone get status "interrupted".
 */
int store_bisect_start(struct store *st, const char *good, const char *bad,
		       const char *tests, int64_t *id);
/*
 * store_bisect_status - the status to show of a bisection recorded with
 * @status by @owner: "interrupted" for a "running" one whose kmig is gone
 * (killed: no final status was written), else @status.
 */
const char *store_bisect_status(const char *status, const char *owner);
/* store_bisect_step - step @seq tested @commit: "good", "bad" or "skip". */
int store_bisect_step(struct store *st, int64_t bisect_id, int seq,
		      const char *commit, const char *verdict);
/*
 * store_bisect_finish - final @status ("found", "ambiguous", "unreliable",
 * "error")
 * with the first bad commit and the finding that made it bad.
 */
int store_bisect_finish(struct store *st, int64_t bisect_id,
			const char *status, const char *first_bad,
			const char *finding);

/*
 * store_bisect_checks - the false-positive checks of bisection
 * @bisect_id ("verify PASS, revert n/a") and its report's recipients
 * ("To: ...\nCc: ..."), either may be NULL.
 */
int store_bisect_checks(struct store *st, int64_t bisect_id,
			const char *checks, const char *recipients);
/*
 * store_base_boot - kmig boot --bases booted release @tag (@commit):
 * replaces that release's row; @boot_id 0 when the build failed.
 */
int store_base_boot(struct store *st, const char *tag, const char *commit,
		    int64_t build_id, int64_t boot_id);

/* ---- web (store-web.c) ---- */

/*
 * The dashboard's queries stream their rows to a callback; the strings of
 * a row are valid during the call only.  A callback returning non-zero
 * stops the query, which then returns that value.  No transaction needed:
 * each is one statement, one snapshot of the database.
 */

/* A per-release count of (subsystem, rule), ordered by subsystem name. */
struct web_count {
	long long release;
	const char *subsystem;
	const char *rule;
	long long count;
};
typedef int web_count_fn(void *data, const struct web_count *row);
int store_web_counts(struct store *st, web_count_fn *fn, void *data);

/* The (path, rule) counts of a release with the file's subsystem, by path. */
struct web_file_count {
	const char *path;
	const char *subsystem;
	const char *rule;
	long long count;
};
typedef int web_file_count_fn(void *data, const struct web_file_count *row);
int store_web_file_counts(struct store *st, long long release,
			  web_file_count_fn *fn, void *data);

/* The use sites of a release, ordered by path, line and rule. */
struct web_site {
	const char *path;
	const char *rule;
	long long line;
	const char *func;	/* NULL at file scope */
	const char *text;
	const char *chain;	/* warn-on-user: the call path, else NULL */
};
typedef int web_site_fn(void *data, const struct web_site *row);
int store_web_sites(struct store *st, long long release, web_site_fn *fn,
		    void *data);

/* kmig log: one row per commit and (subsystem, rule), newest commit first. */
struct web_commit_change {
	const char *commit;
	const char *author;
	long long date;
	const char *subject;
	const char *subsystem;
	const char *rule;
	long long added;
	long long removed;
};
typedef int web_commit_fn(void *data, const struct web_commit_change *row);
int store_web_commit_changes(struct store *st, web_commit_fn *fn, void *data);

/*
 * kmig log per range and rule: the commits of the range with changes of
 * the rule and their sum, ordered by range and rule; range NULL for the
 * commits recorded in no range (by a kmig before ranges were recorded).
 */
struct web_range_change {
	const char *range;
	const char *rule;
	long long commits;
	long long added;
	long long removed;
};
typedef int web_range_fn(void *data, const struct web_range_change *row);
int store_web_range_changes(struct store *st, web_range_fn *fn, void *data);

/*
 * Conversion branch steps by branch and position, with the newest build
 * of the step's commit and the newest boot of that build (0/NULL: none).
 */
struct web_step {
	const char *branch;
	const char *base;
	long long position;
	const char *patch;
	const char *subject;
	const char *status;
	const char *commit;
	const char *evidence;
	const char *test_status;
	long long updated_at;
	long long build_id;
	const char *build_status;
	long long boot_id;
	const char *boot_status;
};
typedef int web_step_fn(void *data, const struct web_step *row);
int store_web_steps(struct store *st, web_step_fn *fn, void *data);

/* Builds, newest first. */
struct web_build {
	long long id;
	const char *commit;
	const char *config_hash;
	const char *status;
	double seconds;
	const char *log_path;
	long long created_at;
};
typedef int web_build_fn(void *data, const struct web_build *row);
int store_web_builds(struct store *st, web_build_fn *fn, void *data);

/* Boots with their build's commit, newest first. */
struct web_boot {
	long long id;
	long long build_id;
	const char *commit;
	const char *tests;
	const char *status;
	double seconds;
	const char *findings;
	const char *console_path;
	long long created_at;
};
typedef int web_boot_fn(void *data, const struct web_boot *row);
int store_web_boots(struct store *st, web_boot_fn *fn, void *data);

/*
 * The releases of kmig boot --bases in version order (oldest first),
 * with their build and boot (boot_id 0, strings NULL: did not boot).
 */
struct web_base {
	const char *tag;
	const char *commit;
	long long build_id;
	const char *build_status;
	double build_seconds;
	const char *build_log;
	long long boot_id;
	const char *boot_status;
	const char *results;	/* the guest's KMIG-TEST lines */
	const char *findings;
	const char *console_path;
};
typedef int web_base_fn(void *data, const struct web_base *row);
int store_web_bases(struct store *st, web_base_fn *fn, void *data);

/* Bisections, newest first, each followed by its steps (row.seq >= 0). */
struct web_bisect {
	long long id;
	const char *good;
	const char *bad;
	const char *tests;
	const char *first_bad;
	const char *finding;
	const char *status;	/* store_bisect_status(): running, interrupted, found... */
	long long created_at;
	long long seq;		/* -1: the bisection itself; else a step */
	const char *step_commit;
	const char *verdict;
};
typedef int web_bisect_fn(void *data, const struct web_bisect *row);
int store_web_bisects(struct store *st, web_bisect_fn *fn, void *data);

#endif
