/* SPDX-License-Identifier: GPL-2.0 */
/*
 * packread.h - read objects straight from a repository's pack files.
 *
 * The scan's hot path reads every in-scope blob of a release.  libgit2
 * inflates with zlib's streaming interface and keeps a 16 MB delta-base
 * cache, so a kernel pack's long delta chains inflate the same bases
 * again.  This module reads the version-2 pack indexes once, inflates
 * with libdeflate (whole-buffer: the pack header gives the size) and
 * resolves delta chains through a per-reader cache of recent objects.
 * It only reads: objects that are in no pack (loose objects, alternates)
 * are not found, and callers fall back to libgit2 for them.
 *
 *	struct packset *ps;
 *	struct pack_reader *r;
 *	struct pack_object obj;
 *	uint64_t pos;
 *
 *	packset_open(&ps, git_repository_path(repo));
 *	if (!packset_find(ps, &oid, &pos)) {		// sort by pos: pack order
 *		r = pack_reader_new(ps, 32 << 20);	// one per thread
 *		pack_reader_read(r, pos, &obj);		// obj.data until the next read
 *		pack_reader_free(r);
 *	}
 *	packset_free(ps);
 *
 * Data integrity is zlib's: every inflated stream's Adler-32 is checked,
 * and a delta's declared sizes must match (as "git cat-file" and libgit2
 * without strict hash verification).  A corrupt pack is an error naming
 * the pack and the offset, never a crash.
 */
#ifndef KMIG_PACKREAD_H
#define KMIG_PACKREAD_H

#include <stddef.h>
#include <stdint.h>

#include <git2.h>

struct packset;
struct pack_reader;

/* A position: the pack's number << 40 | the object's offset in it. */
#define PACK_POS_NONE (~(uint64_t)0)

/* pack_be32 - the big-endian 32-bit number at @p (pack and index fields). */
static inline uint32_t pack_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/*
 * A version-2 pack index (.idx) in memory, as git writes it: the fan-out
 * table, the sorted ids, their CRC32s, 32-bit offsets and the 64-bit
 * offsets table.  The pointers point into the caller's buffer.
 */
struct pack_index {
	const unsigned char *buf;
	size_t len;
	uint32_t n;			/* objects */
	const unsigned char *fan, *sha, *crc, *off32, *off64;
};

/*
 * pack_index_parse - view the @len bytes at @buf as a version-2 index:
 * 0, or 1 when they are not one (bad magic or version, too short for
 * its object count).  Never reads outside @buf.
 */
int pack_index_parse(struct pack_index *ix, const void *buf, size_t len);

/*
 * pack_index_offset - the pack offset of the @i-th object (@i < ix->n),
 * resolving the 64-bit table; PACK_POS_NONE when it points outside the
 * table's part of the index (before its two trailing checksums).
 */
uint64_t pack_index_offset(const struct pack_index *ix, uint32_t i);

/*
 * pack_index_find - the position of @id (GIT_OID_RAWSZ bytes) in @ix's
 * sorted ids, through the fan-out table: 0 with it in *@i, or 1.
 */
int pack_index_find(const struct pack_index *ix, const unsigned char *id,
		    uint32_t *i);

struct pack_object {
	const unsigned char *data;	/* NUL-terminated, owned by the reader */
	size_t len;
	int type;			/* GIT_OBJECT_BLOB, ... */
};

/*
 * packset_open - load the indexes of @repo_path's objects/pack (the
 * path ends with '/', as git_repository_path() gives it).  Packs without
 * a usable version-2 index are skipped; no pack at all is not an error.
 */
int packset_open(struct packset **out, const char *repo_path);
void packset_free(struct packset *ps);
/* packset_count - the number of packs loaded. */
size_t packset_count(const struct packset *ps);

/* packset_find - the position of @oid: 0, or KMIG_ENOTFOUND. */
int packset_find(const struct packset *ps, const git_oid *oid, uint64_t *pos);

/*
 * packset_drop_pages - take the indexes' pages out of the resident set
 * (a kernel pack's index is 8 MB); the next lookup faults them back in
 * from the page cache.  Safe while other threads look up.
 */
void packset_drop_pages(const struct packset *ps);

/*
 * pack_reader_new - a reader with a cache of at most @cache_bytes of
 * inflated objects (the last object read is kept even when larger).
 * A reader is for one thread; any number share a packset.
 */
struct pack_reader *pack_reader_new(const struct packset *ps,
				    size_t cache_bytes);
void pack_reader_free(struct pack_reader *r);

/* pack_reader_read - the object at @pos, its deltas applied. */
int pack_reader_read(struct pack_reader *r, uint64_t pos,
		     struct pack_object *obj);
/*
 * pack_reader_size - the size of the object at @pos, known without
 * inflating it: from its entry's header, or for a delta from the first
 * bytes of the delta.  KMIG_ENOTFOUND when those bytes do not tell, or
 * another negative code when the entry cannot be read; either way
 * pack_reader_read() then says what is wrong, if anything.
 */
int pack_reader_size(struct pack_reader *r, uint64_t pos, uint64_t *size);
/*
 * pack_reader_bases - the positions of the delta bases the last
 * successful pack_reader_read() went through to reach its object, nearest
 * first, at most @max of them into @out; how many.  0 when that object
 * was cached or whole.  They were cached on the way (the cache may have
 * dropped the larger ones since).
 */
size_t pack_reader_bases(const struct pack_reader *r, uint64_t *out,
			 size_t max);
/*
 * pack_reader_base - the position of the delta base of the entry at @pos
 * (only its header is read), or PACK_POS_NONE for a whole object.
 */
int pack_reader_base(struct pack_reader *r, uint64_t pos, uint64_t *base);
/*
 * pack_reader_trim - drop cached objects down to the cache's size, the
 * last one read too (a giant one would otherwise stay until the next).
 */
void pack_reader_trim(struct pack_reader *r);

#endif
