// SPDX-License-Identifier: GPL-2.0
/*
 * packwrite.c - a version-2 pack and index written directly: the base
 * pack copied verbatim, new objects appended (whole or as OBJ_OFS_DELTA
 * against the base pack), the index computed here.  See packwrite.h.
 */
#define _GNU_SOURCE	/* copy_file_range() */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libdeflate.h>
#include <openssl/evp.h>

#include "delta.h"
#include "oidset.h"
#include "packread.h"
#include "packwrite.h"
#include "util.h"

#define OBJ_OFS_DELTA	6
#define OBJ_REF_DELTA	7
#define TMP_PACK	"tmp_pack_kmig_"
#define TMP_IDX		"tmp_idx_kmig_"
#define COPY_CHUNK	(4u << 20)
#define READER_CACHE	(8u << 20)
#define DEPTH_UNKNOWN	-1
#define DEPTH_WALK_MAX	10000
#define PACKWRITE_LEVEL	6	/* libdeflate level of new objects */

struct pw_entry {
	git_oid oid;
	uint64_t off;
	uint32_t crc;
};

struct pw_by_off {
	uint64_t off;
	uint32_t i;		/* index into base[] */
};

struct packwriter {
	char *packdir;		/* ".../objects/pack" */
	char *repo_path;
	char *tmp_path;
	int fd;
	uint64_t pos;		/* end of the objects written */
	uint64_t large;

	/* the base pack: its entries in id order, by offset, chain depths */
	char *base_path;	/* ".../pack-X" without the extension */
	int base_fd;
	struct pw_entry *base;
	size_t nbase;
	struct pw_by_off *by_off;
	short *depth;
	struct packset *ps;	/* to read base objects */

	pthread_mutex_t lock;
	struct pw_entry *ents;	/* new objects, in pack order */
	size_t n, alloc;
	struct oidset added;
	size_t deltas;
	int failed;
};

struct packwrite_worker {
	struct packwriter *pw;
	struct libdeflate_compressor *comp;
	struct pack_reader *reader;
	EVP_MD_CTX *md;
	struct sbuf delta;
	unsigned char *z;
	size_t zcap;
};

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static int cmp_entry(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct pw_entry *)a)->oid,
			   &((const struct pw_entry *)b)->oid);
}

static int cmp_by_off(const void *a, const void *b)
{
	uint64_t x = ((const struct pw_by_off *)a)->off;
	uint64_t y = ((const struct pw_by_off *)b)->off;

	return x < y ? -1 : x > y;
}

static int write_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return kmig_err("cannot write pack: %s",
					n < 0 ? strerror(errno) : "short write");
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* Read the pack index @path into @sb and view it as one: 0, else 1. */
static int idx_read(struct sbuf *sb, const char *path, struct pack_index *ix)
{
	sbuf_reset(sb);
	if (sbuf_read_file(sb, path))
		return 1;
	return pack_index_parse(ix, sb->buf, sb->len);
}

/*
 * Load the version-2 index @idx_path into @pw's base table when it holds
 * @want.  1 when it does not (or is unusable), 0 when loaded.
 */
static int base_try(struct packwriter *pw, const char *idx_path,
		    const git_oid *want)
{
	struct sbuf sb = SBUF_INIT;
	struct pack_index ix;
	uint32_t at;
	size_t n, i;
	int found = 0;

	if (idx_read(&sb, idx_path, &ix) || pack_index_find(&ix, want->id, &at))
		goto out;
	found = 1;
	n = ix.n;
	pw->base = xmalloc((n ? n : 1) * sizeof(*pw->base));
	pw->by_off = xmalloc((n ? n : 1) * sizeof(*pw->by_off));
	for (i = 0; i < n; i++) {
		uint64_t off = pack_index_offset(&ix, (uint32_t)i);

		if (off == PACK_POS_NONE) {
			found = 0;
			break;
		}
		memcpy(pw->base[i].oid.id, ix.sha + i * GIT_OID_RAWSZ, GIT_OID_RAWSZ);
		pw->base[i].crc = pack_be32(ix.crc + i * 4);
		pw->base[i].off = off;
		pw->by_off[i].off = off;
		pw->by_off[i].i = (uint32_t)i;
	}
	if (!found) {
		free(pw->base);
		free(pw->by_off);
		pw->base = NULL;
		pw->by_off = NULL;
		goto out;
	}
	pw->nbase = n;
	qsort(pw->by_off, n, sizeof(*pw->by_off), cmp_by_off);
	pw->depth = xmalloc((n ? n : 1) * sizeof(*pw->depth));
	for (i = 0; i < n; i++)
		pw->depth[i] = DEPTH_UNKNOWN;
out:
	sbuf_release(&sb);
	return found ? 0 : 1;
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

/* Remove the temporary files of writers that died (no flock held). */
static void remove_stale(const char *packdir)
{
	DIR *dh = opendir(packdir);
	struct dirent *de;

	if (!dh)
		return;
	while ((de = readdir(dh))) {
		char *p;
		int fd;

		if (strncmp(de->d_name, TMP_PACK, strlen(TMP_PACK)) &&
		    strncmp(de->d_name, TMP_IDX, strlen(TMP_IDX)))
			continue;
		p = xasprintf("%s/%s", packdir, de->d_name);
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
			unlink(p);
		if (fd >= 0)
			close(fd);
		free(p);
	}
	closedir(dh);
}

/* Find the pack holding @base and load its index; 0 also when none. */
static int find_base(struct packwriter *pw, const git_oid *base)
{
	DIR *dh = opendir(pw->packdir);
	struct dirent *de;
	int ret = 0;

	if (!dh)
		return 0;
	while ((de = readdir(dh))) {
		char *idx;

		if (strncmp(de->d_name, "pack-", 5) || !has_suffix(de->d_name, ".idx"))
			continue;
		idx = xasprintf("%s/%s", pw->packdir, de->d_name);
		if (!base_try(pw, idx, base)) {
			pw->base_path = xstrndup(idx, strlen(idx) - 4);
			free(idx);
			break;
		}
		free(idx);
	}
	closedir(dh);
	if (pw->base_path) {
		char *pack = xasprintf("%s.pack", pw->base_path);
		unsigned char hdr[12];
		struct stat st;

		pw->base_fd = open(pack, O_RDONLY | O_CLOEXEC);
		if (pw->base_fd < 0 || fstat(pw->base_fd, &st) < 0 ||
		    st.st_size < 32 ||
		    pread(pw->base_fd, hdr, 12, 0) != 12 ||
		    memcmp(hdr, "PACK", 4) || pack_be32(hdr + 4) != 2 ||
		    pack_be32(hdr + 8) != pw->nbase)
			ret = kmig_err("cannot use pack '%s' as a base: %s", pack,
				       pw->base_fd < 0 ? strerror(errno) :
				       "not a version-2 pack matching its index");
		else
			pw->pos = (uint64_t)st.st_size - 20;
		free(pack);
	}
	return ret;
}

/* Copy the base pack's objects (everything between header and trailer). */
static int copy_base(struct packwriter *pw)
{
	loff_t in = 12, out = 12;
	uint64_t left = pw->pos - 12;
	unsigned char *buf = NULL;

	while (left) {
		ssize_t n = copy_file_range(pw->base_fd, &in, pw->fd, &out,
					    left > (1u << 30) ? (1u << 30) : left, 0);

		if (n > 0) {
			left -= (uint64_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (errno != EXDEV && errno != ENOSYS &&
			       errno != EINVAL && errno != EOPNOTSUPP)) {
			free(buf);
			return kmig_err("cannot copy the base pack: %s",
					n ? strerror(errno) : "short file");
		}
		/* no copy_file_range here: read and write */
		if (!buf)
			buf = xmalloc(COPY_CHUNK);
		n = pread(pw->base_fd, buf, left > COPY_CHUNK ? COPY_CHUNK : left, in);
		if (n <= 0) {
			free(buf);
			return kmig_err("cannot read the base pack: %s",
					n ? strerror(errno) : "short file");
		}
		if (write_all(pw->fd, buf, (size_t)n, (uint64_t)out)) {
			free(buf);
			return KMIG_EGENERIC;
		}
		in += n;
		out += n;
		left -= (uint64_t)n;
	}
	free(buf);
	return 0;
}

/* A locked temporary file in the pack directory. */
static int tmp_open(char **path, const char *dir, const char *prefix)
{
	int fd;

	*path = xasprintf("%s/%sXXXXXX", dir, prefix);
	fd = mkstemp(*path);
	if (fd < 0) {
		int ret = kmig_err("cannot create '%s': %s", *path,
				   strerror(errno));

		free(*path);
		*path = NULL;
		return ret;
	}
	if (flock(fd, LOCK_EX) < 0) {
		int ret = kmig_err("cannot lock '%s': %s", *path, strerror(errno));

		close(fd);
		unlink(*path);
		free(*path);
		*path = NULL;
		return ret;
	}
	return fd;
}

int packwrite_begin(struct packwriter **out, const char *repo_path,
		    const git_oid *base)
{
	struct packwriter *pw = xcalloc(1, sizeof(*pw));
	static const unsigned char hdr[12] = { 'P', 'A', 'C', 'K', 0, 0, 0, 2 };
	int ret;

	*out = NULL;
	pw->repo_path = xstrdup(repo_path);
	pw->packdir = xasprintf("%sobjects/pack", repo_path);
	pw->fd = -1;
	pw->base_fd = -1;
	pw->pos = 12;
	pw->large = UINT64_C(1) << 31;
	pthread_mutex_init(&pw->lock, NULL);
	if (mkdir_p(pw->packdir)) {
		ret = KMIG_EGENERIC;
		goto out_free;
	}
	remove_stale(pw->packdir);
	if (base) {
		ret = find_base(pw, base);
		if (ret)
			goto out_free;
	}
	ret = packset_open(&pw->ps, repo_path);
	if (ret)
		goto out_free;
	pw->fd = tmp_open(&pw->tmp_path, pw->packdir, TMP_PACK);
	if (pw->fd < 0) {
		ret = pw->fd;
		goto out_free;
	}
	ret = write_all(pw->fd, hdr, sizeof(hdr), 0);
	if (!ret && pw->base_path)
		ret = copy_base(pw);
	if (ret)
		goto out_free;
	*out = pw;
	return 0;
out_free:
	packwrite_abort(pw);
	return ret;
}

void packwrite_set_large_offset(struct packwriter *pw, uint64_t limit)
{
	pw->large = limit;
}

void packwrite_get_stats(const struct packwriter *pw,
			 struct packwrite_stats *st)
{
	st->base_objects = pw->nbase;
	st->objects = pw->n;
	st->deltas = pw->deltas;
}

static void free_pw(struct packwriter *pw)
{
	if (pw->fd >= 0)
		close(pw->fd);
	if (pw->base_fd >= 0)
		close(pw->base_fd);
	packset_free(pw->ps);
	pthread_mutex_destroy(&pw->lock);
	oidset_clear(&pw->added);
	free(pw->ents);
	free(pw->base);
	free(pw->by_off);
	free(pw->depth);
	free(pw->base_path);
	free(pw->tmp_path);
	free(pw->packdir);
	free(pw->repo_path);
	free(pw);
}

void packwrite_abort(struct packwriter *pw)
{
	if (!pw)
		return;
	if (pw->tmp_path)
		unlink(pw->tmp_path);
	free_pw(pw);
}

struct packwrite_worker *packwrite_worker_new(struct packwriter *pw)
{
	struct packwrite_worker *w = xcalloc(1, sizeof(*w));

	w->pw = pw;
	w->comp = libdeflate_alloc_compressor(PACKWRITE_LEVEL);
	w->md = EVP_MD_CTX_new();
	if (!w->comp || !w->md)
		abort();	/* as xmalloc() does */
	w->reader = pack_reader_new(pw->ps, READER_CACHE);
	return w;
}

void packwrite_worker_free(struct packwrite_worker *w)
{
	if (!w)
		return;
	libdeflate_free_compressor(w->comp);
	EVP_MD_CTX_free(w->md);
	pack_reader_free(w->reader);
	sbuf_release(&w->delta);
	free(w->z);
	free(w);
}

/* The index in base[] of @oid, or -1. */
static long base_find(const struct packwriter *pw, const git_oid *oid)
{
	size_t lo = 0, hi = pw->nbase;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = git_oid_cmp(&pw->base[mid].oid, oid);

		if (!c)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static long base_at(const struct packwriter *pw, uint64_t off)
{
	size_t lo = 0, hi = pw->nbase;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pw->by_off[mid].off == off)
			return pw->by_off[mid].i;
		if (pw->by_off[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The delta base of base[@i] (an index), -1 for a whole object, -2 bad. */
static long base_parent(const struct packwriter *pw, long i)
{
	unsigned char h[64];
	uint64_t off = pw->base[i].off, rel;
	ssize_t n = pread(pw->base_fd, h, sizeof(h), (off_t)off);
	size_t k = 0;
	int type;

	if (n < 2)
		return -2;
	type = (h[0] >> 4) & 7;
	while (h[k] & 0x80)
		if (++k >= (size_t)n - 1 || k > 10)
			return -2;
	k++;
	if (type == OBJ_REF_DELTA) {
		git_oid id;

		if (k + GIT_OID_RAWSZ > (size_t)n)
			return -2;
		memcpy(id.id, h + k, GIT_OID_RAWSZ);
		return base_find(pw, &id) < 0 ? -2 : base_find(pw, &id);
	}
	if (type != OBJ_OFS_DELTA)
		return -1;
	rel = h[k] & 0x7f;
	while (h[k] & 0x80) {
		if (++k >= (size_t)n || k > 20)
			return -2;
		rel = ((rel + 1) << 7) | (h[k] & 0x7f);
	}
	if (rel > off)
		return -2;
	return base_at(pw, off - rel) < 0 ? -2 : base_at(pw, off - rel);
}

/* The delta chain length of base[@i] (0: whole), or a huge value. */
static int base_depth(struct packwriter *pw, long i)
{
	long chain[PACKWRITE_MAX_DEPTH + 1];
	int len = 0, d;

	while (pw->depth[i] == DEPTH_UNKNOWN) {
		long p = base_parent(pw, i);

		if (p == -1) {
			pw->depth[i] = 0;
			break;
		}
		if (p < 0 || len > PACKWRITE_MAX_DEPTH) {
			pw->depth[i] = DEPTH_WALK_MAX;
			break;
		}
		chain[len++] = i;
		i = p;
	}
	d = pw->depth[i];
	while (len--) {
		d = d >= DEPTH_WALK_MAX ? DEPTH_WALK_MAX : d + 1;
		pw->depth[chain[len]] = (short)d;
	}
	return d;
}

static void object_id(struct packwrite_worker *w, git_object_t type,
		      const void *data, size_t len, git_oid *oid)
{
	char hdr[64];
	int n = snprintf(hdr, sizeof(hdr), "%s %zu", git_object_type2string(type),
			 len);

	EVP_DigestInit_ex(w->md, EVP_sha1(), NULL);
	EVP_DigestUpdate(w->md, hdr, (size_t)n + 1);
	EVP_DigestUpdate(w->md, data, len);
	EVP_DigestFinal_ex(w->md, oid->id, NULL);
}

/* Try a delta against @base_i; 0 with w->delta filled, else nonzero. */
static int try_delta(struct packwrite_worker *w, long base_i, git_object_t type,
		     const void *data, size_t len)
{
	struct packwriter *pw = w->pw;
	struct pack_object obj;
	uint64_t pos;
	int depth;

	pthread_mutex_lock(&pw->lock);
	depth = base_depth(pw, base_i);
	pthread_mutex_unlock(&pw->lock);
	if (depth >= PACKWRITE_MAX_DEPTH)
		return 1;
	if (packset_find(pw->ps, &pw->base[base_i].oid, &pos) ||
	    pack_reader_read(w->reader, pos, &obj) || obj.type != (int)type)
		return 1;
	return delta_create(obj.data, obj.len, data, len, len / 2, &w->delta);
}

static size_t entry_header(unsigned char *h, int type, uint64_t size)
{
	size_t n = 0;
	unsigned char c = (unsigned char)(type << 4 | (size & 15));

	size >>= 4;
	while (size) {
		h[n++] = c | 0x80;
		c = size & 0x7f;
		size >>= 7;
	}
	h[n++] = c;
	return n;
}

static size_t ofs_encode(unsigned char *h, uint64_t rel)
{
	unsigned char tmp[16];
	size_t n = sizeof(tmp) - 1;

	tmp[n] = rel & 0x7f;
	while (rel >>= 7)
		tmp[--n] = 0x80 | (--rel & 0x7f);
	memcpy(h, tmp + n, sizeof(tmp) - n);
	return sizeof(tmp) - n;
}

int packwrite_add(struct packwrite_worker *w, git_object_t type,
		  const void *data, size_t len, const git_oid *delta_base,
		  git_oid *oid)
{
	struct packwriter *pw = w->pw;
	const void *payload = data;
	size_t plen = len, zlen, hlen;
	unsigned char h[40];
	long bi = -1;
	int ptype = (int)type, ret = 0;
	uint32_t crc;

	object_id(w, type, data, len, oid);
	if (base_find(pw, oid) >= 0)
		return 0;
	pthread_mutex_lock(&pw->lock);
	ret = oidset_has(&pw->added, oid);
	pthread_mutex_unlock(&pw->lock);
	if (ret)
		return 0;
	if (delta_base && len >= 2 * DELTA_BLOCK)
		bi = base_find(pw, delta_base);
	if (bi >= 0 && !try_delta(w, bi, type, data, len)) {
		payload = w->delta.buf;
		plen = w->delta.len;
		ptype = OBJ_OFS_DELTA;
	}
	zlen = libdeflate_zlib_compress_bound(w->comp, plen);
	if (zlen > w->zcap) {
		free(w->z);
		w->zcap = zlen;
		w->z = xmalloc(zlen);
	}
	zlen = libdeflate_zlib_compress(w->comp, payload, plen, w->z, w->zcap);
	if (!zlen)
		return kmig_err("cannot compress an object of %zu bytes", plen);

	pthread_mutex_lock(&pw->lock);
	if (pw->failed) {
		ret = kmig_err("pack writer failed earlier");
		goto out_unlock;
	}
	if (!oidset_add(&pw->added, oid))
		goto out_unlock;	/* another worker was first */
	hlen = entry_header(h, ptype, plen);
	if (ptype == OBJ_OFS_DELTA)
		hlen += ofs_encode(h + hlen, pw->pos - pw->base[bi].off);
	crc = libdeflate_crc32(0, h, hlen);
	crc = libdeflate_crc32(crc, w->z, zlen);
	ret = write_all(pw->fd, h, hlen, pw->pos);
	if (!ret)
		ret = write_all(pw->fd, w->z, zlen, pw->pos + hlen);
	if (ret) {
		pw->failed = 1;
		goto out_unlock;
	}
	ALLOC_GROW(pw->ents, pw->n + 1, pw->alloc);
	pw->ents[pw->n].oid = *oid;
	pw->ents[pw->n].off = pw->pos;
	pw->ents[pw->n].crc = crc;
	pw->n++;
	pw->pos += hlen + zlen;
	if (ptype == OBJ_OFS_DELTA)
		pw->deltas++;
out_unlock:
	pthread_mutex_unlock(&pw->lock);
	return ret;
}

/* SHA-1 of the file's first @len bytes. */
static int hash_file(int fd, uint64_t len, unsigned char *sha)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned char *buf = xmalloc(COPY_CHUNK);
	uint64_t off = 0;
	int ret = 0;

	if (!md)
		abort();	/* as xmalloc() does */
	EVP_DigestInit_ex(md, EVP_sha1(), NULL);
	while (off < len) {
		ssize_t n = pread(fd, buf, len - off > COPY_CHUNK ?
				  COPY_CHUNK : (size_t)(len - off), (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = kmig_err("cannot read back the pack: %s",
				       n ? strerror(errno) : "short file");
			break;
		}
		EVP_DigestUpdate(md, buf, (size_t)n);
		off += (uint64_t)n;
	}
	EVP_DigestFinal_ex(md, sha, NULL);
	EVP_MD_CTX_free(md);
	free(buf);
	return ret;
}

/* The version-2 index of @all (@n entries, sorted) for pack @sha. */
static void build_idx(struct sbuf *out, const struct pw_entry *all, size_t n,
		      const unsigned char *sha, uint64_t large)
{
	unsigned char b[8], idx_sha[GIT_OID_RAWSZ];
	size_t i, k, nlarge = 0;
	uint32_t fan[256] = { 0 };

	sbuf_add(out, "\377tOc\0\0\0\2", 8);
	for (i = 0; i < n; i++)
		fan[all[i].oid.id[0]]++;
	for (k = 0, i = 0; k < 256; k++) {
		i += fan[k];
		put_be32(b, (uint32_t)i);
		sbuf_add(out, b, 4);
	}
	for (i = 0; i < n; i++)
		sbuf_add(out, all[i].oid.id, GIT_OID_RAWSZ);
	for (i = 0; i < n; i++) {
		put_be32(b, all[i].crc);
		sbuf_add(out, b, 4);
	}
	for (i = 0; i < n; i++) {
		if (all[i].off >= large || all[i].off >= UINT64_C(1) << 31)
			put_be32(b, 0x80000000u | (uint32_t)nlarge++);
		else
			put_be32(b, (uint32_t)all[i].off);
		sbuf_add(out, b, 4);
	}
	for (i = 0; i < n; i++) {
		if (!(all[i].off >= large || all[i].off >= UINT64_C(1) << 31))
			continue;
		put_be32(b, (uint32_t)(all[i].off >> 32));
		put_be32(b + 4, (uint32_t)all[i].off);
		sbuf_add(out, b, 8);
	}
	sbuf_add(out, sha, GIT_OID_RAWSZ);
	EVP_Digest(out->buf, out->len, idx_sha, NULL, EVP_sha1(), NULL);
	sbuf_add(out, idx_sha, GIT_OID_RAWSZ);
}

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0 || fsync(fd) < 0)
		ret = kmig_err("cannot sync '%s': %s", dir, strerror(errno));
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Remove the base pack and the files git keeps next to it. */
static void remove_base(const char *base)
{
	static const char *const ext[] = { ".bitmap", ".rev", ".idx", ".pack" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ext); i++) {
		char *p = xasprintf("%s%s", base, ext[i]);

		unlink(p);
		free(p);
	}
}

/* Is every object of the pack index @idx_path in @all (sorted)? */
static bool pack_contained(const char *idx_path, const struct pw_entry *all,
			   size_t n)
{
	struct sbuf sb = SBUF_INIT;
	struct pack_index ix;
	const unsigned char *sha;
	size_t k, lo = 0;
	bool ret = false;

	if (idx_read(&sb, idx_path, &ix))
		goto out;
	sha = ix.sha;
	/* both sorted: one merge pass */
	for (k = 0; k < ix.n; k++) {
		while (lo < n && memcmp(all[lo].oid.id, sha + k * GIT_OID_RAWSZ,
					GIT_OID_RAWSZ) < 0)
			lo++;
		if (lo == n || memcmp(all[lo].oid.id, sha + k * GIT_OID_RAWSZ,
				      GIT_OID_RAWSZ))
			goto out;
	}
	ret = true;
out:
	sbuf_release(&sb);
	return ret;
}

/*
 * Remove the packs (the base pack, and any left by a killed run) whose
 * every object is in the new pack @name, whose entries are @all.
 */
static void remove_redundant(struct packwriter *pw, const char *name,
			     const struct pw_entry *all, size_t n)
{
	DIR *dh = opendir(pw->packdir);
	struct dirent *de;

	if (!dh)
		return;
	while ((de = readdir(dh))) {
		char *idx, *base;

		if (strncmp(de->d_name, "pack-", 5) || !has_suffix(de->d_name, ".idx"))
			continue;
		idx = xasprintf("%s/%s", pw->packdir, de->d_name);
		base = xstrndup(idx, strlen(idx) - 4);
		if (strcmp(base, name) && pack_contained(idx, all, n))
			remove_base(base);
		free(base);
		free(idx);
	}
	closedir(dh);
}

int packwrite_finish(struct packwriter *pw)
{
	unsigned char hdr[12] = { 'P', 'A', 'C', 'K', 0, 0, 0, 2 };
	unsigned char sha[GIT_OID_RAWSZ];
	struct pw_entry *all = NULL;
	struct sbuf idx = SBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1], *idx_tmp = NULL, *name = NULL, *p;
	size_t n, i;
	int ret, ifd = -1;
	git_oid id;

	if (pw->failed) {
		ret = kmig_err("pack writer failed earlier");
		goto out_abort;
	}
	if (!pw->n) {		/* nothing new: the base pack stays */
		ret = 0;
		goto out_abort;
	}
	n = pw->nbase + pw->n;
	if (n > UINT32_MAX) {
		ret = kmig_err("too many objects for one pack");
		goto out_abort;
	}
	put_be32(hdr + 8, (uint32_t)n);
	ret = write_all(pw->fd, hdr, sizeof(hdr), 0);
	if (!ret)
		ret = hash_file(pw->fd, pw->pos, sha);
	if (!ret)
		ret = write_all(pw->fd, sha, sizeof(sha), pw->pos);
	if (!ret && (fsync(pw->fd) < 0 || fchmod(pw->fd, 0444) < 0))
		ret = kmig_err("cannot sync the pack: %s", strerror(errno));
	if (ret)
		goto out_abort;

	all = xmalloc(n * sizeof(*all));
	if (pw->nbase)
		memcpy(all, pw->base, pw->nbase * sizeof(*all));
	memcpy(all + pw->nbase, pw->ents, pw->n * sizeof(*all));
	qsort(all, n, sizeof(*all), cmp_entry);
	for (i = 1; i < n; i++)
		if (!git_oid_cmp(&all[i - 1].oid, &all[i].oid)) {
			ret = kmig_err("object %s twice in the pack",
				       git_oid_tostr(hex, sizeof(hex), &all[i].oid));
			goto out_abort;
		}
	build_idx(&idx, all, n, sha, pw->large);
	ifd = tmp_open(&idx_tmp, pw->packdir, TMP_IDX);
	if (ifd < 0) {
		ret = ifd;
		goto out_abort;
	}
	ret = write_all(ifd, idx.buf, idx.len, 0);
	if (!ret && (fsync(ifd) < 0 || fchmod(ifd, 0444) < 0))
		ret = kmig_err("cannot sync the pack index: %s", strerror(errno));
	if (ret)
		goto out_unlink_idx;

	memcpy(id.id, sha, GIT_OID_RAWSZ);
	name = xasprintf("%s/pack-%s", pw->packdir,
			 git_oid_tostr(hex, sizeof(hex), &id));
	p = xasprintf("%s.pack", name);
	if (rename(pw->tmp_path, p) < 0) {
		ret = kmig_err("cannot rename the pack to '%s': %s", p,
			       strerror(errno));
		free(p);
		goto out_unlink_idx;
	}
	free(p);
	free(pw->tmp_path);
	pw->tmp_path = NULL;
	p = xasprintf("%s.idx", name);
	if (rename(idx_tmp, p) < 0) {
		ret = kmig_err("cannot rename the pack index to '%s': %s", p,
			       strerror(errno));
		free(p);
		goto out_unlink_idx;
	}
	free(p);
	ret = fsync_dir(pw->packdir);
	if (!ret)
		remove_redundant(pw, name, all, n);
	goto out_close;
out_unlink_idx:
	unlink(idx_tmp);
out_close:
	if (ifd >= 0)
		close(ifd);
out_abort:
	free(idx_tmp);
	free(name);
	free(all);
	sbuf_release(&idx);
	packwrite_abort(pw);
	return ret;
}
