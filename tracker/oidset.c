// SPDX-License-Identifier: GPL-2.0
/*
 * oidset.c - open-addressing hash set of object ids; ids are already
 * uniformly distributed, so their first bytes are the hash.
 */
#include <stdint.h>
#include <stdio.h>
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

/*
 * The byte a used slot keeps in s->used: never 0 (empty), and from bytes
 * of the id that slot_of() does not look at, so a probe passes most other
 * ids without reading their slot (a cache miss in a set of a release's
 * blobs).
 */
static unsigned char tag_of(const git_oid *oid)
{
	return oid->id[8] | 1;
}

static bool oid_same(const git_oid *a, const git_oid *b)
{
	uint64_t x[2], y[2];
	uint32_t u, v;

	memcpy(x, a->id, 16);
	memcpy(y, b->id, 16);
	memcpy(&u, a->id + 16, 4);
	memcpy(&v, b->id + 16, 4);
	return !((x[0] ^ y[0]) | (x[1] ^ y[1]) | (u ^ v));
}

/* The slot of @oid, or of the empty slot where it would go. */
static size_t find_slot(const struct oidset *s, const git_oid *oid)
{
	size_t i = slot_of(oid, s->cap), mask = s->cap - 1;
	unsigned char tag = tag_of(oid);

	for (; s->used[i]; i = (i + 1) & mask)
		if (s->used[i] == tag && oid_same(&s->slots[i], oid))
			break;
	return i;
}

/* Set empty slot @i to @oid and @value. */
static void fill_slot(struct oidset *s, size_t i, const git_oid *oid,
		      size_t value)
{
	s->used[i] = tag_of(oid);
	git_oid_cpy(&s->slots[i], oid);
	if (s->values)
		s->values[i] = value;
	s->n++;
}

/* A table of @cap slots (a power of two) holding what @s holds. */
static void rehash(struct oidset *s, size_t cap)
{
	struct oidset old = *s;
	size_t i;

	s->cap = cap;
	s->slots = xmalloc(s->cap * sizeof(*s->slots));
	s->used = xcalloc(s->cap, 1);
	s->values = old.values ? xmalloc(s->cap * sizeof(*s->values)) : NULL;
	s->n = 0;
	for (i = 0; i < old.cap; i++)
		if (old.used[i])
			fill_slot(s, find_slot(s, &old.slots[i]), &old.slots[i],
				  old.values ? old.values[i] : 0);
	free(old.slots);
	free(old.used);
	free(old.values);
}

/* At most half full: probes stay short. */
static bool too_full(const struct oidset *s, size_t n)
{
	return n * 2 > s->cap;
}

void oidset_reserve(struct oidset *s, size_t n)
{
	size_t cap = s->cap ? s->cap : 1024;

	if (n > SIZE_MAX / 4 / sizeof(*s->slots)) {
		fputs("kmig: too many object ids\n", stderr);
		abort();
	}
	while (n * 2 > cap)
		cap *= 2;
	if (cap != s->cap)
		rehash(s, cap);
}

/*
 * The slot of @oid, after growing the set when it would be too full with
 * one id more: an id already there neither grows it nor moves.
 */
static size_t slot_to_fill(struct oidset *s, const git_oid *oid)
{
	size_t i = s->cap ? find_slot(s, oid) : 0;

	if (s->cap && s->used[i])
		return i;
	if (too_full(s, s->n + 1)) {
		oidset_reserve(s, s->n + 1);
		i = find_slot(s, oid);
	}
	return i;
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
	size_t i = slot_to_fill(s, oid);

	if (s->used[i])
		return false;
	fill_slot(s, i, oid, 0);
	return true;
}

bool oidset_put(struct oidset *s, const git_oid *oid, size_t value)
{
	size_t i = slot_to_fill(s, oid);

	if (!s->values)
		s->values = xcalloc(s->cap, sizeof(*s->values));
	if (s->used[i]) {
		s->values[i] = value;
		return false;
	}
	fill_slot(s, i, oid, value);
	return true;
}

void oidset_clear(struct oidset *s)
{
	free(s->slots);
	free(s->used);
	free(s->values);
	memset(s, 0, sizeof(*s));
}
