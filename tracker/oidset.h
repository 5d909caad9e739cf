/* SPDX-License-Identifier: GPL-2.0 */
/*
 * oidset.h - a set of git object ids (open addressing), optionally with a
 * size_t value per id (a map, e.g. id -> index into the caller's array).
 * Not thread-safe for writers; concurrent readers are fine once filled.
 *
 * A zeroed struct (or OIDSET_INIT) is an empty set; oidset_clear() frees
 * it and leaves it empty and reusable.
 */
#ifndef KMIG_OIDSET_H
#define KMIG_OIDSET_H

#include <git2.h>
#include <stdbool.h>
#include <stddef.h>

struct oidset {
	git_oid *slots;
	unsigned char *used;	/* 0: empty; else a tag of the slot's id */
	size_t *values;		/* per slot, or NULL until oidset_put() */
	size_t n, cap;
};
#define OIDSET_INIT { NULL, NULL, NULL, 0, 0 }

/* oidset_add - insert @oid; returns true when it was not there yet. */
bool oidset_add(struct oidset *s, const git_oid *oid);
/* oidset_has - whether @oid is in @s. */
bool oidset_has(const struct oidset *s, const git_oid *oid);
/*
 * oidset_put - insert @oid with @value, or set the value of an @oid
 * already there; returns true when it was not there yet.
 */
bool oidset_put(struct oidset *s, const git_oid *oid, size_t value);
/*
 * oidset_get - the value oidset_put() gave @oid into *@value; false when
 * @oid is not in @s (ids added by oidset_add() have the value 0).
 */
bool oidset_get(const struct oidset *s, const git_oid *oid, size_t *value);
/*
 * oidset_reserve - room for @n ids in all without growing again (a set
 * filled from a count known beforehand).
 */
void oidset_reserve(struct oidset *s, size_t n);
/* oidset_clear - free the set's memory; @s is empty afterwards. */
void oidset_clear(struct oidset *s);

#endif
