/* SPDX-License-Identifier: GPL-2.0 */
/*
 * maintcache.h - parsed MAINTAINERS files by blob id, a small LRU cache
 * shared by "kmig scan" (one MAINTAINERS per release) and "kmig log" (one
 * per commit, mostly the same blob).  A pointer returned by
 * maint_cache_get() stays valid until MAINT_CACHE_SLOTS other blobs have
 * been asked for, or the cache is freed.  One thread.
 */
#ifndef KMIG_MAINTCACHE_H
#define KMIG_MAINTCACHE_H

#include <git2.h>

#include "maintainers.h"

#define MAINT_CACHE_SLOTS 8

struct maint_cache_slot {
	git_oid oid;
	struct maintainers *m;
	unsigned long used;
};

struct maint_cache {
	struct maint_cache_slot slot[MAINT_CACHE_SLOTS];
	unsigned long clock;
};
#define MAINT_CACHE_INIT { .clock = 0 }

/*
 * maint_cache_get - the parsed MAINTAINERS blob @oid of @repo in *out;
 * *out is NULL for the zero id (a tree without MAINTAINERS).
 */
int maint_cache_get(struct maint_cache *c, git_repository *repo,
		    const git_oid *oid, const struct maintainers **out);
/*
 * maint_cache_has - is @name (or MAINTAINERS_NONE) a section of the
 * MAINTAINERS blob @oid (maint_cache_get())?  1, 0 (also for the zero
 * id) or negative.
 */
int maint_cache_has(struct maint_cache *c, git_repository *repo,
		    const git_oid *oid, const char *name);
void maint_cache_release(struct maint_cache *c);

#endif
