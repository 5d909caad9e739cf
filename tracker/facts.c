// SPDX-License-Identifier: GPL-2.0
/*
 * facts.c - compress and inflate the stored call-graph facts (facts.h).
 */
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"

/* The facts are text that compresses about threefold at level 1 already. */
#define FACTS_LEVEL 1
/* The largest compression buffer a packer keeps for the next text. */
#define FACTS_BUF_KEEP ((size_t)1 << 20)

struct facts_packer {
	struct libdeflate_compressor *c;
	struct libdeflate_decompressor *d;
	unsigned char *buf;	/* compressed into, then copied at its size */
	size_t abuf;
};

struct facts_packer *facts_packer_new(void)
{
	return xcalloc(1, sizeof(struct facts_packer));
}

void facts_packer_free(struct facts_packer *pk)
{
	if (!pk)
		return;
	if (pk->c)
		libdeflate_free_compressor(pk->c);
	if (pk->d)
		libdeflate_free_decompressor(pk->d);
	free(pk->buf);
	free(pk);
}

void facts_z_clear(struct facts_z *z)
{
	free(z->data);
	memset(z, 0, sizeof(*z));
}

int facts_pack(struct facts_packer *pk, const char *text, struct facts_z *out)
{
	size_t len = strlen(text), bound;

	facts_z_clear(out);
	if (len >= FACTS_MAX)
		return kmig_err("function facts too large (%zu bytes)", len);
	if (!len)
		return 0;
	if (!pk->c) {
		pk->c = libdeflate_alloc_compressor(FACTS_LEVEL);
		if (!pk->c)
			return kmig_err("out of memory for a compressor");
	}
	/*
	 * The bound is more than the text: packs waiting to be written
	 * (a whole release's) would hold three times their size.
	 */
	bound = libdeflate_zlib_compress_bound(pk->c, len);
	ALLOC_GROW(pk->buf, bound, pk->abuf);
	out->zlen = libdeflate_zlib_compress(pk->c, text, len, pk->buf, bound);
	if (!out->zlen)		/* cannot happen within the bound */
		return kmig_err("cannot compress function facts");
	out->data = xmalloc(out->zlen);
	memcpy(out->data, pk->buf, out->zlen);
	out->len = len;
	if (pk->abuf > FACTS_BUF_KEEP) {	/* a giant blob's */
		free(pk->buf);
		pk->buf = NULL;
		pk->abuf = 0;
	}
	return 0;
}

int facts_unpack(struct facts_packer *pk, const void *z, size_t zlen,
		 size_t len, struct sbuf *out)
{
	size_t got = 0;

	sbuf_reset(out);
	if (len >= FACTS_MAX || (!z && zlen))
		return kmig_err("malformed function facts");
	sbuf_grow(out, len + 1);
	if (len) {
		if (!pk->d) {
			pk->d = libdeflate_alloc_decompressor();
			if (!pk->d)
				return kmig_err("out of memory for a decompressor");
		}
		if (libdeflate_zlib_decompress(pk->d, z, zlen, out->buf, len,
					       &got) != LIBDEFLATE_SUCCESS ||
		    got != len)
			return kmig_err("malformed function facts");
	}
	out->len = len;
	out->buf[len] = '\0';
	return 0;
}
