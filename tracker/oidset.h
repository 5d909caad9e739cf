/* SPDX-License-Identifier: GPL-2.0 */
/*
 * oidset.h - a set of git object ids (open addressing).  Not thread-safe
 * for writers; concurrent readers are fine once filled.
 */
#ifndef KMIG_OIDSET_H
#define KMIG_OIDSET_H

#include <git2.h>
#include <stdbool.h>
#include <stddef.h>

struct oidset {
	git_oid *slots;
	unsigned char *used;
	size_t n, cap;
};
#define OIDSET_INIT { NULL, NULL, 0, 0 }

/* oidset_add - insert @oid; returns true when it was not there yet. */
bool oidset_add(struct oidset *s, const git_oid *oid);
bool oidset_has(const struct oidset *s, const git_oid *oid);
void oidset_clear(struct oidset *s);

#endif
