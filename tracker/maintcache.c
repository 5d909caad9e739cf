// SPDX-License-Identifier: GPL-2.0
/*
 * maintcache.c - LRU cache of parsed MAINTAINERS files by blob id.
 */
#include <string.h>

#include "maintcache.h"
#include "util.h"

int maint_cache_get(struct maint_cache *c, git_repository *repo,
		    const git_oid *oid, const struct maintainers **out)
{
	struct maint_cache_slot *victim = &c->slot[0];
	struct maintainers *m = NULL;
	git_blob *blob = NULL;
	size_t i;

	*out = NULL;
	if (git_oid_is_zero(oid))
		return 0;
	for (i = 0; i < MAINT_CACHE_SLOTS; i++) {
		struct maint_cache_slot *s = &c->slot[i];

		if (s->m && !git_oid_cmp(&s->oid, oid)) {
			s->used = ++c->clock;
			*out = s->m;
			return 0;
		}
		if (s->used < victim->used)
			victim = s;
	}
	if (git_blob_lookup(&blob, repo, oid) < 0)
		return kmig_err_git("cannot read MAINTAINERS");
	if (maintainers_parse(&m, git_blob_rawcontent(blob),
			      (size_t)git_blob_rawsize(blob))) {
		git_blob_free(blob);
		return KMIG_EGENERIC;
	}
	git_blob_free(blob);
	maintainers_free(victim->m);
	git_oid_cpy(&victim->oid, oid);
	victim->m = m;
	victim->used = ++c->clock;
	*out = m;
	return 0;
}

int maint_cache_has(struct maint_cache *c, git_repository *repo,
		    const git_oid *oid, const char *name)
{
	const struct maintainers *m = NULL;
	int ret = maint_cache_get(c, repo, oid, &m);

	if (!ret && m)
		ret = maintainers_has(m, name);
	return ret;
}

void maint_cache_release(struct maint_cache *c)
{
	size_t i;

	for (i = 0; i < MAINT_CACHE_SLOTS; i++)
		maintainers_free(c->slot[i].m);
	memset(c, 0, sizeof(*c));
}
