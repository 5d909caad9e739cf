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

/* The slot of @oid, or of the empty slot where it would go. */
static size_t find_slot(const struct oidset *s, const git_oid *oid)
{
	size_t i = slot_of(oid, s->cap);

	while (s->used[i] && git_oid_cmp(&s->slots[i], oid))
		i = (i + 1) & (s->cap - 1);
	return i;
}

static void insert(struct oidset *s, const git_oid *oid, size_t value)
{
	size_t i = find_slot(s, oid);

	s->used[i] = 1;
	git_oid_cpy(&s->slots[i], oid);
	if (s->values)
		s->values[i] = value;
	s->n++;
}

static void grow(struct oidset *s)
{
	struct oidset old = *s;
	size_t i;

	s->cap = old.cap ? old.cap * 2 : 1024;
	s->slots = xcalloc(s->cap, sizeof(*s->slots));
	s->used = xcalloc(s->cap, 1);
	s->values = old.values ? xcalloc(s->cap, sizeof(*s->values)) : NULL;
	s->n = 0;
	for (i = 0; i < old.cap; i++)
		if (old.used[i])
			insert(s, &old.slots[i], old.values ? old.values[i] : 0);
	free(old.slots);
	free(old.used);
	free(old.values);
}

bool oidset_has(const struct oidset *s, const git_oid *oid)
{
	return s->cap && s->used[find_slot(s, oid)];
}

bool oidset_get(const struct oidset *s, const git_oid *oid, size_t *value)
{
	size_t i;

	if (!s->cap)
		return false;
	i = find_slot(s, oid);
	if (!s->used[i])
		return false;
	*value = s->values ? s->values[i] : 0;
	return true;
}

bool oidset_add(struct oidset *s, const git_oid *oid)
{
	if (oidset_has(s, oid))
		return false;
	if ((s->n + 1) * 2 > s->cap)
		grow(s);
	insert(s, oid, 0);
	return true;
}

bool oidset_put(struct oidset *s, const git_oid *oid, size_t value)
{
	size_t i;

	if (!s->values && s->cap)
		s->values = xcalloc(s->cap, sizeof(*s->values));
	if (s->cap) {
		i = find_slot(s, oid);
		if (s->used[i]) {
			s->values[i] = value;
			return false;
		}
	}
	if ((s->n + 1) * 2 > s->cap)
		grow(s);
	if (!s->values)
		s->values = xcalloc(s->cap, sizeof(*s->values));
	insert(s, oid, value);
	return true;
}

void oidset_clear(struct oidset *s)
{
	free(s->slots);
	free(s->used);
	free(s->values);
	memset(s, 0, sizeof(*s));
}
