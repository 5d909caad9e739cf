/* SPDX-License-Identifier: GPL-2.0 */
/*
 * facts.h - the stored form of a blob's call-graph facts (the lexer's
 * struct site_list.funcs text): zlib-format data made and read with
 * libdeflate, with the text's length beside it (blob_funcs.size).  The
 * format is plain zlib, so rows written by zlib's compress2() before
 * read the same.
 *
 * kmig scan packs in its lexing workers, one packer per thread, so the
 * thread that writes the database only stores the bytes and a release
 * in flight holds its facts compressed.
 *
 * Library code: no printing; errors through kmig_err().
 */
#ifndef KMIG_FACTS_H
#define KMIG_FACTS_H

#include <stddef.h>

#include "util.h"

/* Facts larger than this are refused (a lexer's text is far smaller). */
#define FACTS_MAX ((size_t)1 << 30)

struct facts_z {
	unsigned char *data;	/* malloc'd, NULL when len is 0 */
	size_t zlen, len;	/* compressed and text lengths */
};

struct facts_packer;

/* facts_packer_new - a compressor for one thread; _free: NULL is a no-op. */
struct facts_packer *facts_packer_new(void);
void facts_packer_free(struct facts_packer *pk);

/*
 * facts_pack - compress the NUL-terminated @text into *@out (cleared
 * first).  Returns 0, or KMIG_EGENERIC when @text is too large.
 */
int facts_pack(struct facts_packer *pk, const char *text, struct facts_z *out);
void facts_z_clear(struct facts_z *z);

/*
 * facts_unpack - the text of @zlen bytes at @z, stored with text length
 * @len, into @out (reset, NUL-terminated).  Returns 0, or KMIG_EGENERIC
 * when the data do not inflate to exactly @len bytes.  The decompressor
 * is @pk's.
 */
int facts_unpack(struct facts_packer *pk, const void *z, size_t zlen,
		 size_t len, struct sbuf *out);

#endif
