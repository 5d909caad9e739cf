// SPDX-License-Identifier: GPL-2.0
/*
 * scan.c - walk trees for in-scope files; lex blobs in worker threads.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repo.h"
#include "scan.h"

void scan_files_clear(struct scan_files *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i].path);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

struct walk_ctx {
	struct scan_files *out;
	git_oid *maintainers;
	struct sbuf path;
};

static int walk_cb(const char *root, const git_tree_entry *e, void *payload)
{
	struct walk_ctx *w = payload;
	const char *name = git_tree_entry_name(e);
	struct scan_file *f;

	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		return 0;
	if (!*root && !strcmp(name, "MAINTAINERS")) {
		git_oid_cpy(w->maintainers, git_tree_entry_id(e));
		return 0;
	}
	if (git_tree_entry_filemode(e) == GIT_FILEMODE_LINK)
		return 0;
	sbuf_reset(&w->path);
	sbuf_addstr(&w->path, root);
	sbuf_addstr(&w->path, name);
	if (!path_in_scope(w->path.buf))
		return 0;
	ALLOC_GROW(w->out->v, w->out->n + 1, w->out->alloc);
	f = &w->out->v[w->out->n++];
	f->path = xstrdup(w->path.buf);
	git_oid_cpy(&f->oid, git_tree_entry_id(e));
	return 0;
}

int scan_tree_files(struct scan_files *out, git_oid *maintainers,
		    git_tree *tree)
{
	struct walk_ctx w = { out, maintainers, SBUF_INIT };
	int ret = 0;

	memset(maintainers, 0, sizeof(*maintainers));
	if (git_tree_walk(tree, GIT_TREEWALK_PRE, walk_cb, &w) < 0)
		ret = kmig_err_git("cannot walk tree");
	sbuf_release(&w.path);
	return ret;
}

/*
 * Pack order.  Blobs read in the order of the tree walk jump around the
 * pack, and libgit2's small delta-base cache then inflates the same bases
 * again and again.  Read in pack order (what "git cat-file --unordered"
 * does), a delta's base was usually inflated just before.  The order only
 * changes the speed: results are stored by index.
 */
struct pack_pos {
	uint64_t key;		/* pack number << 40 | offset; ~0: not packed */
	size_t i;
};

static int cmp_pack_pos(const void *a, const void *b)
{
	const struct pack_pos *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* Offsets of @oids in one version-2 pack index; unpacked ones unchanged. */
static void idx_positions(const char *path, uint64_t packno, const git_oid *oids,
			  struct pack_pos *pos, size_t n)
{
	const unsigned char *m, *fan, *sha, *off32, *off64;
	struct stat st;
	uint32_t cnt;
	size_t i;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || st.st_size < 8 + 1024) {
		close(fd);
		return;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return;
	fan = m + 8;
	cnt = be32(fan + 255 * 4);
	sha = fan + 1024;
	off32 = sha + (size_t)cnt * (GIT_OID_RAWSZ + 4);
	off64 = off32 + (size_t)cnt * 4;
	if (memcmp(m, "\377tOc", 4) || be32(m + 4) != 2 ||
	    (size_t)(off64 - m) > (size_t)st.st_size)
		goto out;
	for (i = 0; i < n; i++) {
		const unsigned char *id = oids[pos[i].i].id;
		uint32_t lo = id[0] ? be32(fan + (id[0] - 1) * 4) : 0;
		uint32_t hi = be32(fan + id[0] * 4);

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			int c = memcmp(sha + (size_t)mid * GIT_OID_RAWSZ, id,
				       GIT_OID_RAWSZ);

			if (c < 0) {
				lo = mid + 1;
			} else if (c > 0) {
				hi = mid;
			} else {
				uint64_t o = be32(off32 + (size_t)mid * 4);

				if (o & 0x80000000u) {
					const unsigned char *p = off64 + (o & 0x7fffffffu) * 8;

					if ((size_t)(p + 8 - m) > (size_t)st.st_size)
						break;
					o = (uint64_t)be32(p) << 32 | be32(p + 4);
				}
				if (pos[i].key == ~(uint64_t)0)
					pos[i].key = packno << 40 | (o & ((1ull << 40) - 1));
				break;
			}
		}
	}
out:
	munmap((void *)m, (size_t)st.st_size);
}

static size_t *pack_order(const char *repo_path, const git_oid *oids, size_t n)
{
	struct pack_pos *pos = xcalloc(n, sizeof(*pos));
	size_t *order = xcalloc(n, sizeof(*order)), i;
	char *dir = xasprintf("%sobjects/pack", repo_path);
	DIR *d = opendir(dir);
	struct dirent *de;
	uint64_t packno = 0;

	for (i = 0; i < n; i++) {
		pos[i].key = ~(uint64_t)0;
		pos[i].i = i;
	}
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char *path;

		if (len < 5 || strcmp(de->d_name + len - 4, ".idx"))
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		idx_positions(path, packno++ & 0xffffff, oids, pos, n);
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
	qsort(pos, n, sizeof(*pos), cmp_pack_pos);
	for (i = 0; i < n; i++)
		order[i] = pos[i].i;
	free(pos);
	return order;
}

struct lex_job {
	const char *repo_path;
	const git_oid *oids;
	const size_t *order;
	size_t n, next, done;
	struct site_list *results;
	uint64_t *bytes;
	struct progress *prog;
	pthread_mutex_t lock;
	int ret;
	char err[512];
};

static void job_fail(struct lex_job *job)
{
	pthread_mutex_lock(&job->lock);
	if (!job->ret) {
		job->ret = KMIG_EGENERIC;
		snprintf(job->err, sizeof(job->err), "%s", kmig_errmsg());
	}
	pthread_mutex_unlock(&job->lock);
}

static void *lex_worker(void *arg)
{
	struct lex_job *job = arg;
	git_repository *repo = NULL;
	git_odb *odb = NULL;
	struct lex_scratch scratch = LEX_SCRATCH_INIT;

	if (git_repository_open(&repo, job->repo_path) < 0 ||
	    repo_guard_loose(repo) < 0 ||
	    git_repository_odb(&odb, repo) < 0) {
		kmig_err_git("cannot open repository");
		job_fail(job);
		git_repository_free(repo);
		return NULL;
	}
	for (;;) {
		git_odb_object *blob = NULL;
		size_t i;

		pthread_mutex_lock(&job->lock);
		if (job->ret || job->next >= job->n) {
			pthread_mutex_unlock(&job->lock);
			break;
		}
		i = job->order[job->next++];
		pthread_mutex_unlock(&job->lock);

		/* straight from the object database: no object cache, no copy */
		if (git_odb_read(&blob, odb, &job->oids[i]) < 0) {
			kmig_err("cannot read blob %s: %s",
				 repo_oid_str(&job->oids[i]),
				 git_error_last() ? git_error_last()->message :
						    "unknown error");
			job_fail(job);
			break;
		}
		job->bytes[i] = (uint64_t)git_odb_object_size(blob);
		if (lex_buffer_with(git_odb_object_data(blob),
				    git_odb_object_size(blob), &job->results[i],
				    &scratch)) {
			git_odb_object_free(blob);
			job_fail(job);
			break;
		}
		git_odb_object_free(blob);
		pthread_mutex_lock(&job->lock);
		job->done++;
		if ((job->done & 255) == 0)
			progress_update(job->prog, job->done, NULL);
		pthread_mutex_unlock(&job->lock);
	}
	lex_scratch_release(&scratch);
	git_odb_free(odb);
	git_repository_free(repo);
	return NULL;
}

void scan_tune_libgit2(void)
{
	/*
	 * zlib already checks every inflated object (Adler-32); hashing each
	 * blob again with SHA-1 (collision-detecting) would cost about a fifth
	 * of the scan.  git cat-file does not re-hash either.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/*
	 * Pack windows count in the resident set: map 16 MB at a time and
	 * at most 64 MB of them (libgit2 maps 1 GB windows, up to 8 GB, by
	 * default).  Read in pack order, windows are rarely mapped twice.
	 */
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, (size_t)16 << 20);
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, (size_t)64 << 20);
}

int scan_lex_blobs(const char *repo_path, const git_oid *oids, size_t n,
		   int jobs, struct site_list *results, uint64_t *bytes,
		   struct progress *prog)
{
	struct lex_job job = { 0 };
	pthread_t *tids;
	int i;

	if (!n)
		return 0;
	if (jobs < 1)
		jobs = 1;
	if ((size_t)jobs > n)
		jobs = (int)n;
	job.repo_path = repo_path;
	job.oids = oids;
	job.n = n;
	job.results = results;
	job.bytes = bytes;
	job.prog = prog;
	scan_tune_libgit2();
	job.order = pack_order(repo_path, oids, n);
	pthread_mutex_init(&job.lock, NULL);
	tids = xcalloc((size_t)jobs, sizeof(*tids));
	for (i = 0; i < jobs; i++)
		pthread_create(&tids[i], NULL, lex_worker, &job);
	for (i = 0; i < jobs; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	free((void *)job.order);
	pthread_mutex_destroy(&job.lock);
	if (job.ret)
		return kmig_err("%s", job.err);
	return 0;
}
