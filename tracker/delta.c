// SPDX-License-Identifier: GPL-2.0
/*
 * delta.c - git delta encoder: a block index of the base, a rolling hash
 * over the target, greedy extension of each match.  See delta.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "delta.h"

#define HASH_MUL	0x01000193u	/* the rolling hash's multiplier */
#define COPY_MAX	0x10000		/* per copy op, as git writes them */
#define INSERT_MAX	127

struct delta_index {
	uint32_t *slot;		/* base offset + 1 per bucket, 0 = empty */
	unsigned int shift;
};

/* M^(DELTA_BLOCK - 1), to roll the oldest byte out. */
static uint32_t hash_out_factor(void)
{
	uint32_t f = 1;
	int i;

	for (i = 0; i < DELTA_BLOCK - 1; i++)
		f *= HASH_MUL;
	return f;
}

static uint32_t hash_block(const unsigned char *p)
{
	uint32_t h = 0;
	int i;

	for (i = 0; i < DELTA_BLOCK; i++)
		h = h * HASH_MUL + p[i];
	return h;
}

static inline uint32_t bucket(const struct delta_index *ix, uint32_t h)
{
	return (h * 0x9e3779b1u) >> ix->shift;
}

static void put_size(struct sbuf *out, uint64_t v)
{
	unsigned char b[10];
	int n = 0;

	do {
		b[n] = v & 0x7f;
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	sbuf_add(out, b, (size_t)n);
}

static void put_insert(struct sbuf *out, const unsigned char *p, size_t n)
{
	while (n) {
		size_t k = n > INSERT_MAX ? INSERT_MAX : n;

		sbuf_addch(out, (int)k);
		sbuf_add(out, p, k);
		p += k;
		n -= k;
	}
}

static void put_copy(struct sbuf *out, size_t off, size_t n)
{
	while (n) {
		size_t k = n > COPY_MAX ? COPY_MAX : n;
		unsigned char b[8], cmd = 0x80;
		int len = 1, i;

		for (i = 0; i < 4; i++)
			if ((off >> (8 * i)) & 0xff) {
				cmd |= 1u << i;
				b[len++] = (off >> (8 * i)) & 0xff;
			}
		/* a size of 0x10000 is written as no size bytes */
		for (i = 0; i < 3 && k != COPY_MAX; i++)
			if ((k >> (8 * i)) & 0xff) {
				cmd |= 0x10u << i;
				b[len++] = (k >> (8 * i)) & 0xff;
			}
		b[0] = cmd;
		sbuf_add(out, b, (size_t)len);
		off += k;
		n -= k;
	}
}

int delta_create(const unsigned char *base, size_t blen,
		 const unsigned char *target, size_t tlen, size_t max_len,
		 struct sbuf *out)
{
	struct delta_index ix;
	size_t nblocks, nslots = 1, i, pending = 0;
	uint32_t h = 0, out_f = hash_out_factor();
	int ret = 0;

	sbuf_reset(out);
	/* offsets are 32-bit in the copy ops (and in the index) */
	if (blen < DELTA_BLOCK || blen > UINT32_MAX - 1)
		return KMIG_ENOTFOUND;
	nblocks = blen / DELTA_BLOCK;
	ix.shift = 32;
	while (nslots < nblocks * 2) {
		nslots <<= 1;
		ix.shift--;
	}
	ix.slot = xcalloc(nslots, sizeof(*ix.slot));
	/* later blocks first, so a bucket keeps the earliest block */
	for (i = nblocks; i-- > 0;)
		ix.slot[bucket(&ix, hash_block(base + i * DELTA_BLOCK))] =
			(uint32_t)(i * DELTA_BLOCK + 1);

	put_size(out, blen);
	put_size(out, tlen);
	if (tlen >= DELTA_BLOCK)
		h = hash_block(target);
	for (i = 0; i + DELTA_BLOCK <= tlen;) {
		uint32_t s = ix.slot[bucket(&ix, h)];
		size_t bo, len, back;

		if (s && !memcmp(base + s - 1, target + i, DELTA_BLOCK)) {
			bo = s - 1;
			len = DELTA_BLOCK;
			while (bo + len < blen && i + len < tlen &&
			       base[bo + len] == target[i + len])
				len++;
			back = 0;
			while (back < pending && back < bo &&
			       base[bo - back - 1] == target[i - back - 1])
				back++;
			put_insert(out, target + i - pending, pending - back);
			put_copy(out, bo - back, len + back);
			pending = 0;
			i += len;
			if (out->len > max_len) {
				ret = KMIG_ENOTFOUND;
				goto out_free;
			}
			if (i + DELTA_BLOCK <= tlen)
				h = hash_block(target + i);
			continue;
		}
		if (i + DELTA_BLOCK < tlen)
			h = (h - target[i] * out_f) * HASH_MUL +
			    target[i + DELTA_BLOCK];
		i++;
		pending++;
		if (pending > 4096 && out->len + pending > max_len) {
			ret = KMIG_ENOTFOUND;
			goto out_free;
		}
	}
	pending += tlen - i;
	put_insert(out, target + tlen - pending, pending);
	if (out->len > max_len)
		ret = KMIG_ENOTFOUND;
out_free:
	free(ix.slot);
	return ret;
}
