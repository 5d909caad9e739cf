// SPDX-License-Identifier: GPL-2.0
/*
 * oidset.c - open-addressing hash set of object ids; ids are already
 * uniformly distributed, so their first bytes are the hash.
 */
#include <stdlib.h>
#include <string.h>

#include "oidset.h"
#include "util.h"

static size_t slot_of(const git_oid *oid, size_t cap)
{
	size_t h;

	memcpy(&h, oid->id, sizeof(h));
	return h & (cap - 1);
}

static void insert(struct oidset *s, const git_oid *oid)
{
	size_t i = slot_of(oid, s->cap);

	while (s->used[i])
		i = (i + 1) & (s->cap - 1);
	s->used[i] = 1;
	git_oid_cpy(&s->slots[i], oid);
	s->n++;
}

static void grow(struct oidset *s)
{
	struct oidset old = *s;
	size_t i;

	s->cap = old.cap ? old.cap * 2 : 1024;
	s->slots = xcalloc(s->cap, sizeof(*s->slots));
	s->used = xcalloc(s->cap, 1);
	s->n = 0;
	for (i = 0; i < old.cap; i++)
		if (old.used[i])
			insert(s, &old.slots[i]);
	free(old.slots);
	free(old.used);
}

bool oidset_has(const struct oidset *s, const git_oid *oid)
{
	size_t i;

	if (!s->cap)
		return false;
	for (i = slot_of(oid, s->cap); s->used[i]; i = (i + 1) & (s->cap - 1))
		if (!git_oid_cmp(&s->slots[i], oid))
			return true;
	return false;
}

bool oidset_add(struct oidset *s, const git_oid *oid)
{
	if (oidset_has(s, oid))
		return false;
	if ((s->n + 1) * 2 > s->cap)
		grow(s);
	insert(s, oid);
	return true;
}

void oidset_clear(struct oidset *s)
{
	free(s->slots);
	free(s->used);
	memset(s, 0, sizeof(*s));
}
