// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-packread.c - libFuzzer harness for the pack reader (packread.c):
 * entry headers, delta offsets and references, inflation, delta
 * instructions, chains and the cache, on packs as damaged as the input.
 *
 * Input: byte 0 is the number of objects N (1-32); then N little-endian
 * 16-bit offsets of the objects in the body; then the body, the pack's
 * bytes after its 12-byte header.  The harness writes the pack (header,
 * body, a 20-byte trailer) and a version-2 index whose object names are
 * 01 00..00, 02 00..00, ... in offset order (a reference delta names its
 * base that way), then reads every object with a one-byte cache (every
 * chain resolved from its bottom) and again with a large one.  Checked:
 * no crash, no leak, and both reads of an object agree.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "packread.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir, *pack_path, *idx_path;

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* util.h's write_file(), which cannot fail here */
static void write_or_abort(const char *path, const void *buf, size_t len)
{
	if (write_file(path, buf, len))
		abort();
}

static int setup(void)
{
	char tmpl[] = "/tmp/kmig-fuzz-packread-XXXXXX";
	char *sub;

	if (!mkdtemp(tmpl))
		abort();
	dir = xasprintf("%s/", tmpl);
	sub = xasprintf("%sobjects/pack", dir);
	if (mkdir_p(sub))
		abort();
	pack_path = xasprintf("%s/pack-fuzz.pack", sub);
	idx_path = xasprintf("%s/pack-fuzz.idx", sub);
	free(sub);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	unsigned char *pack, *idx, *p;
	uint32_t off[32];
	size_t n, body, i, psize, isize;
	struct packset *ps = NULL;
	struct pack_reader *small, *large;

	if (!ready)
		ready = !setup();
	if (size < 1)
		return 0;
	n = data[0];
	if (n < 1 || n > 32 || size < 1 + 2 * n)
		return 0;
	body = size - 1 - 2 * n;
	for (i = 0; i < n; i++)
		off[i] = 12u + (uint32_t)(data[1 + 2 * i] | data[2 + 2 * i] << 8);

	psize = 12 + body + 20;
	pack = xcalloc(1, psize);
	memcpy(pack, "PACK", 4);
	put32(pack + 4, 2);
	put32(pack + 8, (uint32_t)n);
	memcpy(pack + 12, data + 1 + 2 * n, body);
	write_or_abort(pack_path, pack, psize);

	/* version 2: magic, version, fan-out, names, CRCs, offsets, trailer */
	isize = 8 + 1024 + n * (20 + 4 + 4) + 40;
	idx = xcalloc(1, isize);
	memcpy(idx, "\377tOc", 4);
	put32(idx + 4, 2);
	for (i = 0; i < 256; i++) {
		/* names 01.., 02.., ...: first bytes 1..n */
		size_t below = i < 1 ? 0 : (i > n ? n : i);

		put32(idx + 8 + 4 * i, (uint32_t)below);
	}
	p = idx + 8 + 1024;
	for (i = 0; i < n; i++)
		p[20 * i] = (unsigned char)(i + 1);
	p += 20 * n + 4 * n;		/* CRCs stay zero */
	for (i = 0; i < n; i++)
		put32(p + 4 * i, off[i]);
	write_or_abort(idx_path, idx, isize);

	if (packset_open(&ps, dir))
		abort();
	small = pack_reader_new(ps, 1);
	large = pack_reader_new(ps, (size_t)1 << 20);
	if (!small || !large)
		abort();
	for (i = 0; i < n; i++) {
		struct pack_object a, b;
		unsigned char *copy = NULL;
		git_oid oid;
		uint64_t pos;
		int ra, rb;

		memset(&oid, 0, sizeof(oid));
		oid.id[0] = (unsigned char)(i + 1);
		if (packset_find(ps, &oid, &pos))
			continue;	/* the pack was refused */
		ra = pack_reader_read(small, pos, &a);
		if (!ra) {
			copy = xmalloc(a.len + 1);
			memcpy(copy, a.data, a.len + 1);
		}
		rb = pack_reader_read(large, pos, &b);
		if (!ra != !rb)
			abort();
		if (!ra && (a.len != b.len || a.type != b.type ||
			    memcmp(copy, b.data, b.len) || b.data[b.len]))
			abort();
		free(copy);
	}
	pack_reader_free(small);
	pack_reader_free(large);
	packset_free(ps);
	free(pack);
	free(idx);
	return 0;
}
