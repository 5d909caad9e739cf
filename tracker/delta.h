/* SPDX-License-Identifier: GPL-2.0 */
/*
 * delta.h - git's binary delta format: an encoder.
 *
 * A delta turns a base buffer into a target buffer: the two sizes as
 * little-endian base-128 numbers, then "copy" ops (offset and length in
 * the base) and "insert" ops (up to 127 literal bytes).  The encoder
 * indexes the base in 16-byte blocks, finds each block of the target by a
 * rolling hash, and extends every match forwards and backwards (greedy,
 * one candidate per hash bucket).  It is the format "git index-pack",
 * libgit2 and tracker/packread.c apply (OBJ_OFS_DELTA, OBJ_REF_DELTA);
 * the tests check its output through packread.c.
 */
#ifndef KMIG_DELTA_H
#define KMIG_DELTA_H

#include <stddef.h>

#include "util.h"

/* The block the base is indexed in, and the shortest copy encoded. */
#define DELTA_BLOCK 16

/*
 * delta_create - replace @out's content with the delta from @base
 * (@blen bytes) to @target (@tlen bytes).  Returns 0, or KMIG_ENOTFOUND
 * (no message recorded, @out's content undefined) when the delta would
 * be longer than @max_len bytes or the base is shorter than one block.
 */
int delta_create(const unsigned char *base, size_t blen,
		 const unsigned char *target, size_t tlen, size_t max_len,
		 struct sbuf *out);

#endif
