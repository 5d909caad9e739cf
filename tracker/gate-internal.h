/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gate-internal.h - what the gate's files (gate.c, gate-diff.c,
 * gate-lex.c, gate-compare.c, gate-apply.c) share; not for other modules,
 * which use gate.h.
 */
#ifndef KMIG_GATE_INTERNAL_H
#define KMIG_GATE_INTERNAL_H

#include "gate.h"
#include "oidset.h"
#include "scan.h"

/* One blob the gate needs: its sites once loaded. */
struct gate_blob {
	git_oid oid;
	struct site_list sites;
	bool loaded;
};

/* The gate's blobs, in registration order, indexed by id. */
struct gate_blobs {
	struct gate_blob *v;
	size_t n, alloc;
	struct oidset index;	/* id -> index into v */
	size_t nloaded;		/* v[0..nloaded) are all loaded */
};

/* gate_blobs_find - the blob @oid of @b, or NULL when not registered. */
struct gate_blob *gate_blobs_find(const struct gate_blobs *b,
				  const git_oid *oid);
/* gate_blobs_want - register @oid with @b (once); gate_blobs_load() loads it. */
void gate_blobs_want(struct gate_blobs *b, const git_oid *oid);

#endif
