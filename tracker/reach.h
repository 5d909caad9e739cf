/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reach.h - warn-on-user by reachability: which WARN sites user space can
 * reach through direct calls, and the call path that shows it.
 *
 * The facts come per blob from the lexer (struct site_list.funcs,
 * lex-funcs.c, cached in the store like the use sites); the graph is a
 * release's (or, for "kmig check", a scanned base release with the
 * changed files in place of theirs), so it is built here, per release,
 * from the cache: a blob's cached facts never depend on the other files.
 *
 *  - Entry points: the functions named by entry.def's records (ops
 *    members such as ".sendmsg = f", attribute macros naming foo_store,
 *    functions defined with SYSCALL_DEFINEn / COMPAT_SYSCALL_DEFINEn).
 *  - Calls: a call of NAME from a file resolves to the definitions of
 *    NAME in that file when it has one (static or not); else to every
 *    non-static definition of NAME in the release, and every static one
 *    in a header (a static inline function is defined where it is
 *    included).  A name with several definitions reaches each of them,
 *    and the path says "one of N definitions".  Calls through function
 *    pointers are not followed (there is no name to resolve).
 *  - A function is reached when a breadth-first walk from the entry points
 *    gets there within @depth calls (0: the entry points only); its path
 *    is a shortest one.
 *
 * A WARN site is warn-on-user when its enclosing function (the function
 * whose lines hold it) is reached; it then counts as warn-on-user instead
 * of warn-on.  Where no graph can be built (kmig check without a scanned
 * base, kmig log) reach_name_heuristic() decides by the function's name.
 *
 * Library code: no printing; errors through kmig_err().
 */
#ifndef KMIG_REACH_H
#define KMIG_REACH_H

#include <git2.h>
#include <stdbool.h>
#include <stddef.h>

#define REACH_DEFAULT_DEPTH 3
#define REACH_MAX_DEPTH 20

struct reach;
struct reach_cache;
struct site_list;
struct store;

/*
 * A cache of parsed facts by blob id, shared by the graphs of several
 * releases (kmig scan keeps one for its run): a point release then parses
 * only the facts of its new blobs, and the identifiers are interned once.
 * It must outlive the graphs made with it.
 *
 * reach_cache_trim() drops the blobs no graph used (and reach_cache_add()
 * did not add) since the last trim: reach_release() trims once it has
 * loaded the release's graph, so the cache holds one release's blobs.
 * reach_cache_blobs() - the blobs it holds.
 */
struct reach_cache *reach_cache_new(void);
void reach_cache_free(struct reach_cache *c);
void reach_cache_trim(struct reach_cache *c);
size_t reach_cache_blobs(const struct reach_cache *c);

/*
 * reach_cache_mark - count blob @oid as used, so the next
 * reach_cache_trim() keeps it (nothing when it is not cached).  kmig scan
 * marks the next release's blobs and trims before it waits for their
 * lexing: the rest would go at that release's trim anyway, and at a new
 * line that is most of the cache.
 */
void reach_cache_mark(struct reach_cache *c, const git_oid *oid);

/*
 * reach_cache_compact - drop the identifiers no cached blob uses any
 * more (an earlier line's, once its blobs are trimmed), the others kept
 * in their order and renumbered, each old chunk of names freed once copied
 * (the names take about once their size meanwhile, not twice).  No graph
 * made with @c may be alive.
 * reach_release() does it when the names grew by a quarter since the
 * last time, so a run over several lines does not keep every line's.
 * reach_cache_names() - the identifiers interned.
 */
void reach_cache_compact(struct reach_cache *c);
size_t reach_cache_names(const struct reach_cache *c);

/*
 * reach_cache_save - write what @c holds (each blob's parsed facts and
 * its warn-on and vla sites) to the file @path, through a temporary file
 * renamed over it, for a later run's reach_cache_restore(); @c's names
 * are compacted first.  @ruleset: release_hash(), which covers the facts
 * (rules_hash()) and this file's layout (reach.c).
 * reach_cache_restore - fill the empty @c from the file @path, *@nblobs
 * the blobs it held: KMIG_ENOTFOUND when there is none, or it was written
 * under another rule set or is damaged (@c stays empty: the caller reads
 * the store instead).
 */
int reach_cache_save(struct reach_cache *c, const char *path,
		     const char *ruleset);
int reach_cache_restore(struct reach_cache *c, const char *path,
			const char *ruleset, size_t *nblobs);

/*
 * reach_cache_add - blob @oid as the lexer just gave it: its facts
 * @funcs (NULL: none; modified), parsed unless cached, and its warn-on and
 * vla sites from @sites.  reach_release() then neither reads the facts
 * from the store nor joins the release's sites there, when every blob of
 * the release came so.
 */
void reach_cache_add(struct reach_cache *c, const git_oid *oid, char *funcs,
		     const struct site_list *sites);

/*
 * reach_new - an empty graph for a walk of @depth calls, with a private
 * cache; reach_new_cached() - the same with @cache (NULL: private).
 */
struct reach *reach_new(unsigned int depth);
struct reach *reach_new_cached(unsigned int depth, struct reach_cache *cache);
/* reach_free - free @r; NULL is a no-op (the shared cache stays). */
void reach_free(struct reach *r);

/*
 * reach_add_file - file @path of the release with its facts @funcs (the
 * lexer's text, copied; NULL: a file without functions).  Add each path
 * once, before reach_build().  Returns 0, or KMIG_EGENERIC when @funcs
 * is malformed (the file is then left out).
 */
int reach_add_file(struct reach *r, const char *path, const char *funcs);

/*
 * reach_add_blob - file @path holding blob @oid: its facts from the
 * graph's cache, else from @get (called with @data; *@funcs the lexer's
 * text, malloc'd, or NULL for a blob without functions), which are then
 * cached.  Malformed facts leave the file without functions.  Returns 0,
 * @get's error, or KMIG_EGENERIC for a path added twice.
 */
int reach_add_blob(struct reach *r, const char *path, const git_oid *oid,
		   int (*get)(void *data, const git_oid *oid, char **funcs),
		   void *data);

/* reach_build - resolve every call and entry point, and walk. */
void reach_build(struct reach *r);

/*
 * reach_site - after reach_build(): 1 when the function enclosing line
 * @line of @path is reached, with *@chain (when @chain is non-NULL) its
 * call path "f (path:line) → g (path:line)" from the entry point, malloc'd
 * for the caller; 0 when not (or the line is in no function).
 */
int reach_site(const struct reach *r, const char *path, unsigned int line,
	       char **chain);

/*
 * reach_consts_cover - does some header added define every name of the
 * blank-separated @deps (a vla site's struct site.deps) as an enumerator
 * or a constant macro (the facts' "k" records)?  False for NULL or "".
 * The graph carries the release's constants so that one pass over its
 * facts serves both (reach_release() records the constant vla sites).
 */
bool reach_consts_cover(const struct reach *r, const char *deps);

/* Statistics after reach_build(): entry point functions, functions reached. */
size_t reach_entries(const struct reach *r);
size_t reach_reached(const struct reach *r);
/* reach_functions - the functions added. */
size_t reach_functions(const struct reach *r);

/*
 * reach_name_heuristic - the fallback where no graph can be built: a
 * function named *_sendmsg, *_recvmsg, *_setsockopt, *_getsockopt,
 * *_ioctl or *_store.  @func may be NULL (false).
 */
bool reach_name_heuristic(const char *func);

/*
 * reach_release - the release step of "kmig scan": build the graph of
 * release @release from the cached facts of its files, record each of its
 * warn-on sites that is reached (with its path) and the release's
 * statistics and @depth, and each vla site of constant size by the
 * release's headers (reach_consts_cover(), release_vlaconst).  Call after
 * the release's files are recorded,
 * before store_release_finish() (which counts a reached site as
 * warn-on-user).  The caller holds the transaction.  *@stats receives
 * the statistics.
 * @cache (may be NULL) holds the facts of earlier releases' blobs; it is
 * trimmed to this release's (reach_cache_trim()), and its names may be
 * renumbered (reach_cache_compact()): no other graph made with @cache may
 * be alive.
 * struct reach_stats: sites_joined - the release's warn-on and vla sites
 * came from a join in the store, else from the cache (reach_cache_add())
 * with those of sites_read blobs read from the store one by one.
 */
struct reach_stats {
	size_t entries, reached;	/* entry points, functions reached */
	size_t sites;			/* WARN sites reached */
	size_t sites_read;
	bool sites_joined;
};

int reach_release(struct store *st, long long release, unsigned int depth,
		  struct reach_cache *cache, struct reach_stats *stats);

/*
 * reach_release() in two steps, so that a thread can build the graph while
 * the caller writes the release's file rows:
 * reach_cache_load - read into @c from @st the facts of those of the @n
 * blobs @oids it lacks (rule set @ruleset).
 * reach_release_prepare - the graph of the @n files @paths (in byte
 * order, as the store lists them) with blobs @oids, from @cache alone (no
 * store), built into *@out.  *@out stays NULL when the cache lacks a
 * blob's facts: reach_release() then reads them.  The cache is trimmed
 * as by reach_release(); no other thread may use it meanwhile.
 * reach_release_write - the rest of reach_release() for @release with
 * what @prep built: its sites classified (the cache's, the few it lacks
 * read from @st, or all joined there), the rows written, @cache's names
 * compacted if due; frees @prep.  The caller holds the transaction.
 * reach_prep_free - free @prep unused (NULL: a no-op).
 */
struct reach_prep;
int reach_cache_load(struct reach_cache *c, struct store *st,
		     const char *ruleset, const git_oid *const *oids, size_t n);
int reach_release_prepare(const char *const *paths,
			  const git_oid *const *oids, size_t n,
			  const char *ruleset, unsigned int depth,
			  struct reach_cache *cache, struct reach_prep **out);
int reach_release_write(struct store *st, long long release,
			unsigned int depth, struct reach_cache *cache,
			struct reach_prep *prep, struct reach_stats *stats);
void reach_prep_free(struct reach_prep *prep);

/*
 * reach_load_release - a graph of release @release's cached facts into
 * *@out (not built: the caller may add more files first), leaving out
 * the paths for which @skip returns true (@skip may be NULL), facts
 * taken from @cache where it has them (NULL: none).  No transaction
 * needed.
 */
int reach_load_release(struct store *st, long long release,
		       unsigned int depth, struct reach_cache *cache,
		       bool (*skip)(void *data, const char *path), void *data,
		       struct reach **out);

#endif
