// SPDX-License-Identifier: GPL-2.0
/*
 * packread.c - version-2 pack indexes, libdeflate inflation, delta chains
 * through a per-reader LRU cache.  See packread.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libdeflate.h>
#include <zlib.h>

#include "packread.h"
#include "util.h"

#define PACK_OFS_BITS	40
#define PACK_OFS_MASK	((UINT64_C(1) << PACK_OFS_BITS) - 1)
#define PACK_MAX	(1u << 23)
#define CHAIN_MAX	10000		/* deeper than any git repack makes */

enum {
	OBJ_OFS_DELTA = 6,
	OBJ_REF_DELTA = 7,
};

struct pack {
	char *path;			/* the .pack, for messages */
	int fd;
	uint64_t size;
	struct pack_index ix;		/* the mapped .idx */
	uint64_t *ends;			/* sorted offsets, then size - 20 */
};

struct packset {
	struct pack *v;
	size_t n, alloc;
};

int pack_index_parse(struct pack_index *ix, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	memset(ix, 0, sizeof(*ix));
	if (len < 8 + 1024 + 40 || memcmp(p, "\377tOc", 4) || pack_be32(p + 4) != 2)
		return 1;
	ix->buf = p;
	ix->len = len;
	ix->fan = p + 8;
	ix->n = pack_be32(ix->fan + 255 * 4);
	ix->sha = ix->fan + 1024;
	ix->crc = ix->sha + (size_t)ix->n * GIT_OID_RAWSZ;
	ix->off32 = ix->crc + (size_t)ix->n * 4;
	ix->off64 = ix->off32 + (size_t)ix->n * 4;
	/* the 64-bit table, then the two checksums at least */
	if ((size_t)(ix->off64 - p) + 40 > len)
		return 1;
	return 0;
}

uint64_t pack_index_offset(const struct pack_index *ix, uint32_t i)
{
	uint64_t o = pack_be32(ix->off32 + (size_t)i * 4);
	const unsigned char *q;

	if (!(o & 0x80000000u))
		return o;
	q = ix->off64 + (size_t)(o & 0x7fffffffu) * 8;
	/* inside the 64-bit table, before the two trailing checksums */
	if (q < ix->off64 || (size_t)(q + 8 - ix->buf) > ix->len - 40)
		return PACK_POS_NONE;
	return (uint64_t)pack_be32(q) << 32 | pack_be32(q + 4);
}

int pack_index_find(const struct pack_index *ix, const unsigned char *id,
		    uint32_t *i)
{
	uint32_t lo = id[0] ? pack_be32(ix->fan + (id[0] - 1) * 4) : 0;
	uint32_t hi = pack_be32(ix->fan + id[0] * 4);

	if (hi > ix->n || lo > hi)
		return 1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = memcmp(ix->sha + (size_t)mid * GIT_OID_RAWSZ, id,
			       GIT_OID_RAWSZ);

		if (c < 0) {
			lo = mid + 1;
		} else if (c > 0) {
			hi = mid;
		} else {
			*i = mid;
			return 0;
		}
	}
	return 1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void pack_release(struct pack *p)
{
	if (p->ix.buf)
		munmap((void *)p->ix.buf, p->ix.len);
	if (p->fd >= 0)
		close(p->fd);
	free(p->ends);
	free(p->path);
}

/* Load one index and open its pack; 1 when the pair is not usable. */
static int pack_load(struct pack *p, const char *idx_path)
{
	unsigned char hdr[12];
	struct stat st;
	size_t len = strlen(idx_path);
	void *map;
	uint32_t i;
	int fd;

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	p->path = xasprintf("%.*s.pack", (int)(len - 4), idx_path);
	fd = open(idx_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	if (fstat(fd, &st) < 0 || st.st_size < 8 + 1024 + 40) {
		close(fd);
		return 1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return 1;
	if (pack_index_parse(&p->ix, map, (size_t)st.st_size)) {
		munmap(map, (size_t)st.st_size);
		return 1;
	}

	p->fd = open(p->path, O_RDONLY | O_CLOEXEC);
	if (p->fd < 0 || fstat(p->fd, &st) < 0 || st.st_size < 32 ||
	    pread(p->fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) ||
	    memcmp(hdr, "PACK", 4) || (pack_be32(hdr + 4) != 2 && pack_be32(hdr + 4) != 3) ||
	    pack_be32(hdr + 8) != p->ix.n)
		return 1;
	p->size = (uint64_t)st.st_size;

	p->ends = xmalloc(((size_t)p->ix.n + 1) * sizeof(*p->ends));
	for (i = 0; i < p->ix.n; i++) {
		p->ends[i] = pack_index_offset(&p->ix, i);
		if (p->ends[i] < 12 || p->ends[i] >= p->size - 20)
			return 1;
	}
	qsort(p->ends, p->ix.n, sizeof(*p->ends), cmp_u64);
	p->ends[p->ix.n] = p->size - 20;
	return 0;
}

int packset_open(struct packset **out, const char *repo_path)
{
	struct packset *ps = xcalloc(1, sizeof(*ps));
	char *dir = xasprintf("%sobjects/pack", repo_path);
	DIR *d = opendir(dir);
	struct dirent *de;

	*out = ps;
	while (d && (de = readdir(d)) && ps->n < PACK_MAX) {
		size_t len = strlen(de->d_name);
		char *path;

		if (len < 5 || strcmp(de->d_name + len - 4, ".idx"))
			continue;
		ALLOC_GROW(ps->v, ps->n + 1, ps->alloc);
		path = xasprintf("%s/%s", dir, de->d_name);
		if (pack_load(&ps->v[ps->n], path))
			pack_release(&ps->v[ps->n]);
		else
			ps->n++;
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
	return 0;
}

void packset_free(struct packset *ps)
{
	size_t i;

	if (!ps)
		return;
	for (i = 0; i < ps->n; i++)
		pack_release(&ps->v[i]);
	free(ps->v);
	free(ps);
}

size_t packset_count(const struct packset *ps)
{
	return ps ? ps->n : 0;
}

void packset_drop_pages(const struct packset *ps)
{
	size_t i;

	for (i = 0; ps && i < ps->n; i++)
		/* read-only and private: nothing written is lost; advice only */
		(void)madvise((void *)ps->v[i].ix.buf, ps->v[i].ix.len,
			      MADV_DONTNEED);
}

int packset_find(const struct packset *ps, const git_oid *oid, uint64_t *pos)
{
	const unsigned char *id = oid->id;
	size_t k;

	for (k = 0; ps && k < ps->n; k++) {
		const struct pack *p = &ps->v[k];
		uint32_t i;
		uint64_t o;

		if (pack_index_find(&p->ix, id, &i))
			continue;
		o = pack_index_offset(&p->ix, i);
		if (o == PACK_POS_NONE || o > PACK_OFS_MASK)
			continue;
		*pos = (uint64_t)k << PACK_OFS_BITS | o;
		return 0;
	}
	return KMIG_ENOTFOUND;
}

/* ------------------------------------------------------------------ */
/* The reader's cache: chained hash on the position, LRU list.         */

struct centry {
	uint64_t pos;
	unsigned char *data;
	size_t len, cap;		/* cap: data's size, len + 1 or more */
	int type;
	struct centry *hnext, *prev;
	struct centry *next;		/* or the next dropped entry */
};

#define CACHE_BUCKETS 4096

/*
 * The buffers of dropped entries are kept for the next objects: a reader
 * took a buffer from malloc and gave one back for nearly every object it
 * read, and the scan's threads share one malloc arena (scan.c), whose
 * lock they waited on.  A buffer of up to SPARE_MAX bytes is made at the
 * size of a class, four a doubling from SPARE_MIN, and a kept one up to
 * SPARE_REACH classes larger than asked for serves; a larger buffer is
 * made at its size and freed when dropped.  At most SPARE_BYTES are kept.
 * For AddressSanitizer a kept buffer is poisoned, and so are the bytes of
 * a buffer in use past the object's NUL.
 */
#define SPARE_MIN	((size_t)4096)
#define SPARE_MAX	((size_t)1 << 20)
#define SPARE_CLASSES	33		/* SPARE_MIN, 4 a doubling */
#define SPARE_REACH	4
#define SPARE_BYTES	((size_t)1 << 20)

struct pack_reader {
	const struct packset *ps;
	struct libdeflate_decompressor *dd;
	struct centry *bucket[CACHE_BUCKETS];
	struct centry *head, *tail;	/* most, least recently used */
	size_t bytes, limit;
	struct centry *free_entries;	/* dropped, linked by next */
	/* the kept buffers, each class's linked by their first bytes */
	unsigned char *spare[SPARE_CLASSES];
	uint64_t spare_set;		/* the classes with a buffer */
	size_t spare_bytes;
	unsigned char *in;		/* the compressed extent */
	size_t in_alloc;
	uint64_t in_pos;		/* whose first in_have bytes in holds */
	size_t in_have;
	unsigned char *delta;		/* an inflated delta */
	size_t delta_alloc;
	struct link {			/* the deltas being resolved */
		uint64_t pos, size;
		size_t zoff, zlen;	/* compressed data, in kept */
	} *chain;
	size_t chain_alloc;
	size_t last_depth;		/* the last read's deltas, in chain */
	uint64_t last_base;		/* and the object below them */
	unsigned char *kept;
	size_t kept_alloc;
	z_stream zs;			/* pack_reader_size()'s, once used */
	bool zs_ready;
};

static size_t bucket_of(uint64_t pos)
{
	return (size_t)((pos * UINT64_C(0x9e3779b97f4a7c15)) >> 52) &
	       (CACHE_BUCKETS - 1);
}

static void lru_unlink(struct pack_reader *r, struct centry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		r->head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		r->tail = e->prev;
	e->prev = e->next = NULL;
}

static void lru_push_front(struct pack_reader *r, struct centry *e)
{
	e->prev = NULL;
	e->next = r->head;
	if (r->head)
		r->head->prev = e;
	r->head = e;
	if (!r->tail)
		r->tail = e;
}

static struct centry *cache_get(struct pack_reader *r, uint64_t pos)
{
	struct centry *e;

	for (e = r->bucket[bucket_of(pos)]; e; e = e->hnext)
		if (e->pos == pos) {
			lru_unlink(r, e);
			lru_push_front(r, e);
			return e;
		}
	return NULL;
}

/* The size of the buffers of class @c. */
static size_t spare_size(unsigned int c)
{
	unsigned int k;

	if (!c)
		return SPARE_MIN;
	k = 12 + (c - 1) / 4;
	return ((size_t)1 << k) + ((c - 1) % 4 + 1) * ((size_t)1 << (k - 2));
}

/* The smallest class whose buffers hold @n bytes (n <= SPARE_MAX). */
static unsigned int spare_class(size_t n)
{
	unsigned int k;
	size_t step;

	if (n <= SPARE_MIN)
		return 0;
	k = 63 - (unsigned int)__builtin_clzll((unsigned long long)n - 1);
	step = (size_t)1 << (k - 2);
	return 1 + (k - 12) * 4 +
	       (unsigned int)((n - ((size_t)1 << k) + step - 1) / step - 1);
}

/* A buffer of at least @n bytes, its size in *@cap: buf_put() it back. */
static unsigned char *buf_get(struct pack_reader *r, size_t n, size_t *cap)
{
	unsigned char *p;
	unsigned int c;
	uint64_t near;

	if (n > SPARE_MAX) {
		*cap = n;
		return big_alloc(n);
	}
	c = spare_class(n);
	near = (r->spare_set >> c) & ((UINT64_C(1) << (SPARE_REACH + 1)) - 1);
	if (!near) {
		*cap = spare_size(c);
		p = big_alloc(*cap);
	} else {
		c += (unsigned int)__builtin_ctzll(near);
		p = r->spare[c];
		*cap = spare_size(c);
		kmig_unpoison(p, *cap);
		memcpy(&r->spare[c], p, sizeof(r->spare[c]));
		if (!r->spare[c])
			r->spare_set &= ~(UINT64_C(1) << c);
		r->spare_bytes -= *cap;
	}
	kmig_poison(p + n, *cap - n);	/* a read past the object's end */
	return p;
}

/* Take back buffer @p of @cap bytes, as buf_get() gave it. */
static void buf_put(struct pack_reader *r, unsigned char *p, size_t cap)
{
	unsigned int c;

	kmig_unpoison(p, cap);
	if (cap > SPARE_MAX || r->spare_bytes + cap > SPARE_BYTES) {
		big_free(p, cap);
		return;
	}
	c = spare_class(cap);
	memcpy(p, &r->spare[c], sizeof(r->spare[c]));
	kmig_poison(p, cap);
	r->spare[c] = p;
	r->spare_set |= UINT64_C(1) << c;
	r->spare_bytes += cap;
}

/* Free the kept buffers and entries. */
static void spares_free(struct pack_reader *r)
{
	unsigned int c;

	for (c = 0; c < SPARE_CLASSES; c++)
		while (r->spare[c]) {
			unsigned char *p = r->spare[c];

			kmig_unpoison(p, spare_size(c));
			memcpy(&r->spare[c], p, sizeof(r->spare[c]));
			big_free(p, spare_size(c));
		}
	r->spare_set = 0;
	r->spare_bytes = 0;
	while (r->free_entries) {
		struct centry *e = r->free_entries;

		r->free_entries = e->next;
		free(e);
	}
}

static void cache_drop(struct pack_reader *r, struct centry *e)
{
	struct centry **pp = &r->bucket[bucket_of(e->pos)];

	while (*pp != e)
		pp = &(*pp)->hnext;
	*pp = e->hnext;
	lru_unlink(r, e);
	r->bytes -= big_footprint(e->cap);
	buf_put(r, e->data, e->cap);
	e->next = r->free_entries;
	r->free_entries = e;
}

/*
 * Take ownership of @data (buf_get() of @cap bytes, @len + 1 or more);
 * evicts the oldest entries but this one.
 */
static struct centry *cache_put(struct pack_reader *r, uint64_t pos,
				unsigned char *data, size_t len, size_t cap,
				int type)
{
	struct centry *e = r->free_entries;
	size_t b = bucket_of(pos);

	if (e)
		r->free_entries = e->next;
	else
		e = xmalloc(sizeof(*e));
	e->pos = pos;
	e->data = data;
	e->len = len;
	e->cap = cap;
	e->type = type;
	e->hnext = r->bucket[b];
	r->bucket[b] = e;
	lru_push_front(r, e);
	r->bytes += big_footprint(cap);
	while (r->bytes > r->limit && r->tail != e)
		cache_drop(r, r->tail);
	return e;
}

struct pack_reader *pack_reader_new(const struct packset *ps,
				    size_t cache_bytes)
{
	struct pack_reader *r = xcalloc(1, sizeof(*r));

	r->ps = ps;
	r->limit = cache_bytes;
	r->in_pos = PACK_POS_NONE;
	r->dd = libdeflate_alloc_decompressor();
	if (!r->dd) {
		free(r);
		return NULL;
	}
	return r;
}

void pack_reader_free(struct pack_reader *r)
{
	if (!r)
		return;
	while (r->tail)
		cache_drop(r, r->tail);
	spares_free(r);
	libdeflate_free_decompressor(r->dd);
	if (r->zs_ready)
		inflateEnd(&r->zs);
	free(r->in);
	free(r->delta);
	free(r->chain);
	free(r->kept);
	free(r);
}

/* ------------------------------------------------------------------ */
/* Reading one entry.                                                  */

struct entry {
	int type;
	uint64_t size;			/* inflated size */
	uint64_t base;			/* deltas: the base's position */
	const unsigned char *z;		/* the compressed stream */
	size_t zlen;
};

static int corrupt(const struct pack *p, uint64_t off, const char *what)
{
	return kmig_err("corrupt pack %s at offset %llu: %s", p->path,
			(unsigned long long)off, what);
}

/*
 * Read the entry at @pos into r->in, at most its first @max bytes, and
 * parse its header.  What r->in holds of it already (a size asked for
 * first) is not read again.
 */
static int entry_read_part(struct pack_reader *r, uint64_t pos,
			   struct entry *en, size_t max)
{
	size_t k = (size_t)(pos >> PACK_OFS_BITS);
	uint64_t off = pos & PACK_OFS_MASK, end;
	const struct pack *p;
	const unsigned char *c, *e;
	size_t lo, hi, len, have;
	unsigned int shift;
	ssize_t got;

	if (k >= r->ps->n)
		return kmig_err("no pack number %zu", k);
	p = &r->ps->v[k];
	/* the entry ends where the next one starts */
	lo = 0;
	hi = p->ix.n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->ends[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= p->ix.n || p->ends[lo] != off)
		return corrupt(p, off, "no object starts there");
	end = p->ends[lo + 1];
	if (end <= off || end - off > SIZE_MAX / 2)
		return corrupt(p, off, "bad entry length");
	len = (size_t)(end - off);
	if (len > max)
		len = max;
	have = r->in_pos == pos ? r->in_have : 0;
	if (have > len)
		have = len;
	if (len > r->in_alloc) {
		r->in_alloc = len + len / 4;
		r->in = xrealloc(r->in, r->in_alloc);	/* the bytes it has */
	}
	r->in_pos = PACK_POS_NONE;
	got = have == len ? 0 :
	      pread(p->fd, r->in + have, len - have, (off_t)(off + have));
	if (got != (ssize_t)(len - have))
		return kmig_err("cannot read %s at offset %llu: %s", p->path,
				(unsigned long long)off,
				got < 0 ? strerror(errno) : "short read");
	r->in_pos = pos;
	r->in_have = len;

	c = r->in;
	e = r->in + len;
	en->type = (*c >> 4) & 7;
	en->size = *c & 15;
	shift = 4;
	while (*c & 0x80) {
		if (++c >= e || shift > 57)
			return corrupt(p, off, "bad header");
		en->size |= (uint64_t)(*c & 0x7f) << shift;
		shift += 7;
	}
	c++;
	en->base = PACK_POS_NONE;
	if (en->type == OBJ_OFS_DELTA) {
		uint64_t back;

		if (c >= e)
			return corrupt(p, off, "bad delta offset");
		back = *c & 0x7f;
		while (*c & 0x80) {
			if (++c >= e || back >= (UINT64_C(1) << 56))
				return corrupt(p, off, "bad delta offset");
			back = ((back + 1) << 7) | (*c & 0x7f);
		}
		c++;
		if (!back || back > off)
			return corrupt(p, off, "delta base outside the pack");
		en->base = (uint64_t)k << PACK_OFS_BITS | (off - back);
	} else if (en->type == OBJ_REF_DELTA) {
		git_oid base;

		if (e - c < GIT_OID_RAWSZ)
			return corrupt(p, off, "bad delta base");
		memcpy(base.id, c, GIT_OID_RAWSZ);
		c += GIT_OID_RAWSZ;
		if (packset_find(r->ps, &base, &en->base)) {
			char hex[GIT_OID_HEXSZ + 1];

			git_oid_tostr(hex, sizeof(hex), &base);
			return kmig_errcode(KMIG_ENOTFOUND,
				"pack %s at offset %llu: delta base %s is in no pack",
				p->path, (unsigned long long)off, hex);
		}
	} else if (en->type < GIT_OBJECT_COMMIT || en->type > GIT_OBJECT_TAG ||
		   en->type == 5) {
		return corrupt(p, off, "unknown object type");
	}
	if (en->size > SIZE_MAX / 2)
		return corrupt(p, off, "object too large");
	en->z = c;
	en->zlen = (size_t)(e - c);
	return 0;
}

static int entry_read(struct pack_reader *r, uint64_t pos, struct entry *en)
{
	return entry_read_part(r, pos, en, SIZE_MAX);
}

/*
 * Deflate expands at most 1032:1: a header claiming more than that of its
 * compressed data is corrupt (and must not make us allocate it).
 */
static int check_size(struct pack_reader *r, uint64_t pos,
		      const struct entry *en)
{
	if (en->size > (uint64_t)en->zlen * 1032 + 1024)
		return corrupt(&r->ps->v[pos >> PACK_OFS_BITS],
			       pos & PACK_OFS_MASK,
			       "size larger than its data can inflate to");
	return 0;
}

static int inflate_to(struct pack_reader *r, uint64_t pos,
		      const struct entry *en, unsigned char *out)
{
	size_t got_in = 0;
	enum libdeflate_result res;

	res = libdeflate_zlib_decompress_ex(r->dd, en->z, en->zlen, out,
					    (size_t)en->size, &got_in, NULL);
	if (res != LIBDEFLATE_SUCCESS)
		return corrupt(&r->ps->v[pos >> PACK_OFS_BITS],
			       pos & PACK_OFS_MASK,
			       res == LIBDEFLATE_SHORT_OUTPUT ?
			       "inflated size differs from the header" :
			       "bad zlib stream");
	return 0;
}

static uint64_t delta_size(const unsigned char **pp, const unsigned char *e,
			   bool *ok)
{
	const unsigned char *p = *pp;
	uint64_t v = 0;
	unsigned int shift = 0;

	do {
		if (p >= e || shift > 63) {
			*ok = false;
			return 0;
		}
		v |= (uint64_t)(*p & 0x7f) << shift;
		shift += 7;
	} while (*p++ & 0x80);
	*pp = p;
	return v;
}

/*
 * Apply the delta in r->delta (@dlen bytes) to @base; a new buffer
 * (buf_get(), its size in *@ocap).  The
 * instructions are checked in a first pass (every copy inside the base,
 * every insert inside the delta, the sizes adding up to the declared
 * result), so the buffer is only allocated for a delta that is sound.
 */
static int delta_apply(struct pack_reader *r, uint64_t pos,
		       const unsigned char *base, size_t blen, size_t dlen,
		       unsigned char **out, size_t *olen, size_t *ocap)
{
	const struct pack *pk = &r->ps->v[pos >> PACK_OFS_BITS];
	const unsigned char *start = r->delta, *e = r->delta + dlen, *p;
	unsigned char *dst, *d;
	uint64_t src_size, dst_size, total = 0;
	bool ok = true;
	int pass;

	p = start;
	src_size = delta_size(&p, e, &ok);
	dst_size = delta_size(&p, e, &ok);
	if (!ok || src_size != blen || dst_size > SIZE_MAX / 2)
		return corrupt(pk, pos & PACK_OFS_MASK,
			       "delta does not fit its base");
	start = p;
	dst = NULL;
	for (pass = 0; pass < 2; pass++) {
		d = dst;
		for (p = start; p < e;) {
			unsigned char cmd = *p++;

			if (cmd & 0x80) {
				uint64_t co = 0, cs = 0;
				int i;

				for (i = 0; i < 4; i++)
					if (cmd & (1u << i)) {
						if (p >= e)
							goto bad;
						co |= (uint64_t)*p++ << (8 * i);
					}
				for (i = 0; i < 3; i++)
					if (cmd & (0x10u << i)) {
						if (p >= e)
							goto bad;
						cs |= (uint64_t)*p++ << (8 * i);
					}
				if (!cs)
					cs = 0x10000;
				if (pass) {
					memcpy(d, base + co, (size_t)cs);
					d += cs;
				} else if (co + cs > blen ||
					   (total += cs) > dst_size) {
					goto bad;
				}
			} else if (cmd) {
				if (pass) {
					memcpy(d, p, cmd);
					d += cmd;
				} else if (cmd > e - p ||
					   (total += cmd) > dst_size) {
					goto bad;
				}
				p += cmd;
			} else {
				goto bad;
			}
		}
		if (!pass) {
			if (total != dst_size)
				goto bad;
			dst = buf_get(r, (size_t)dst_size + 1, ocap);
		}
	}
	dst[dst_size] = '\0';
	*out = dst;
	*olen = (size_t)dst_size;
	return 0;
bad:
	return corrupt(pk, pos & PACK_OFS_MASK, "bad delta");
}

/*
 * Enough of an entry for its header and its delta's two sizes; and the
 * whole of most entries, which pack_reader_read() then does not read again.
 */
#define PEEK_BYTES 8192

size_t pack_reader_bases(const struct pack_reader *r, uint64_t *out,
			 size_t max)
{
	size_t n = 0, i;

	if (!r->last_depth)
		return 0;
	for (i = 1; i < r->last_depth && n < max; i++)
		out[n++] = r->chain[i].pos;
	if (n < max)
		out[n++] = r->last_base;
	return n;
}

int pack_reader_size(struct pack_reader *r, uint64_t pos, uint64_t *size)
{
	struct centry *c = cache_get(r, pos);
	unsigned char head[20];		/* two varints of at most 10 bytes */
	const unsigned char *p = head, *end;
	struct entry en;
	bool ok = true;
	int ret;

	if (c) {
		*size = c->len;
		return 0;
	}
	ret = entry_read_part(r, pos, &en, PEEK_BYTES);
	if (ret)
		return ret;
	if (en.base == PACK_POS_NONE) {
		*size = en.size;
		return 0;
	}
	/* a delta: the first bytes it inflates to are its base's size, then its result's */
	if (!r->zs_ready) {
		if (inflateInit(&r->zs) != Z_OK)
			return KMIG_ENOTFOUND;
		r->zs_ready = true;
	} else if (inflateReset(&r->zs) != Z_OK) {
		return KMIG_ENOTFOUND;
	}
	r->zs.next_in = (unsigned char *)en.z;
	r->zs.avail_in = (uInt)en.zlen;
	r->zs.next_out = head;
	r->zs.avail_out = sizeof(head);
	switch (inflate(&r->zs, Z_SYNC_FLUSH)) {
	case Z_OK:
	case Z_STREAM_END:
	case Z_BUF_ERROR:
		break;
	default:
		return KMIG_ENOTFOUND;	/* pack_reader_read() says why */
	}
	end = head + sizeof(head) - r->zs.avail_out;
	delta_size(&p, end, &ok);
	*size = delta_size(&p, end, &ok);
	return ok ? 0 : KMIG_ENOTFOUND;
}

/* Enough of an entry for its header and a ref-delta's base id. */
#define HEAD_BYTES 32

int pack_reader_base(struct pack_reader *r, uint64_t pos, uint64_t *base)
{
	struct entry en;
	int ret = entry_read_part(r, pos, &en, HEAD_BYTES);

	if (ret)
		return ret;
	*base = en.base;
	return 0;
}

void pack_reader_trim(struct pack_reader *r)
{
	while (r->bytes > r->limit && r->tail)
		cache_drop(r, r->tail);
}

int pack_reader_read(struct pack_reader *r, uint64_t pos,
		     struct pack_object *obj)
{
	struct centry *c = NULL;
	struct entry en;
	size_t depth = 0, used = 0, ndeltas;
	uint64_t cur = pos;
	int ret;

	r->last_depth = 0;

	/*
	 * Down the chain to a cached object or a whole one, keeping each
	 * delta's compressed data (r->kept) for the way back up.
	 */
	for (;;) {
		unsigned char *data;
		size_t cap;
		struct link *l;

		c = cache_get(r, cur);
		if (c)
			break;
		ret = entry_read(r, cur, &en);
		if (ret)
			return ret;
		ret = check_size(r, cur, &en);
		if (ret)
			return ret;
		if (en.base == PACK_POS_NONE) {
			data = buf_get(r, (size_t)en.size + 1, &cap);
			ret = inflate_to(r, cur, &en, data);
			if (ret) {
				buf_put(r, data, cap);
				return ret;
			}
			data[en.size] = '\0';
			c = cache_put(r, cur, data, (size_t)en.size, cap,
				      en.type);
			break;
		}
		if (depth >= CHAIN_MAX)
			return corrupt(&r->ps->v[cur >> PACK_OFS_BITS],
				       cur & PACK_OFS_MASK, "delta chain too long");
		ALLOC_GROW(r->chain, depth + 1, r->chain_alloc);
		l = &r->chain[depth++];
		l->pos = cur;
		l->size = en.size;
		l->zoff = used;
		l->zlen = en.zlen;
		if (en.zlen) {
			ALLOC_GROW(r->kept, used + en.zlen, r->kept_alloc);
			memcpy(r->kept + used, en.z, en.zlen);
			used += en.zlen;
		}
		cur = en.base;
	}

	ndeltas = depth;
	/* back up, applying each delta to the object below it */
	while (depth--) {
		const struct link *l = &r->chain[depth];
		unsigned char *data = NULL;
		size_t len = 0, cap = 0;

		en.size = l->size;
		en.z = l->zlen ? r->kept + l->zoff : NULL;
		en.zlen = l->zlen;
		if (en.size + 1 > r->delta_alloc) {
			free(r->delta);
			r->delta_alloc = (size_t)en.size + 1;
			r->delta = xmalloc(r->delta_alloc);
		}
		ret = inflate_to(r, l->pos, &en, r->delta);
		if (ret)
			return ret;
		ret = delta_apply(r, l->pos, c->data, c->len, (size_t)en.size,
				  &data, &len, &cap);
		if (ret)
			return ret;
		c = cache_put(r, l->pos, data, len, cap, c->type);
	}
	obj->data = c->data;
	obj->len = c->len;
	obj->type = c->type;
	r->last_depth = ndeltas;
	r->last_base = cur;
	return 0;
}
