// SPDX-License-Identifier: GPL-2.0
/*
 * repo.c - libgit2 helpers: open, resolve, and write a directory as a tree.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>
#include <git2/sys/odb_backend.h>
#include <zlib.h>

#include "repo.h"

int ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

int repo_blob_read(git_repository *repo, const git_oid *oid, struct sbuf *out)
{
	git_blob *blob = NULL;

	if (git_blob_lookup(&blob, repo, oid) < 0)
		return kmig_err_git("cannot read blob");
	sbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return 0;
}

int repo_blob_at(git_repository *repo, git_tree *tree, const char *path,
		 struct sbuf *out)
{
	git_tree_entry *te = NULL;
	int ret;

	if (!path)
		return kmig_errcode(KMIG_ENOTFOUND, "no path");
	ret = git_tree_entry_bypath(&te, tree, path);
	if (ret == GIT_ENOTFOUND)
		return kmig_errcode(KMIG_ENOTFOUND, "'%s' is not in the tree", path);
	if (ret < 0)
		return kmig_err_git("cannot read tree");
	if (git_tree_entry_type(te) == GIT_OBJECT_BLOB)
		ret = repo_blob_read(repo, git_tree_entry_id(te), out);
	else
		ret = kmig_errcode(KMIG_ENOTFOUND, "'%s' is not a file", path);
	git_tree_entry_free(te);
	return ret;
}

const char *repo_oid_str(const git_oid *oid)
{
	static __thread char buf[GIT_OID_HEXSZ + 1];

	git_oid_tostr(buf, sizeof(buf), oid);
	return buf;
}

/* ---- the loose object guard (see repo.h) ---- */

struct loose_guard {
	git_odb_backend parent;
	char *objects;		/* ".../objects/" */
};

/* 0 when the loose object @oid is absent or inflates to its end. */
static int guard_check(struct loose_guard *g, const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1], *path;
	unsigned char in[16384], out[65536];
	z_stream z = { 0 };
	int fd, zret = Z_OK, ret = 0;
	ssize_t n = 0;

	git_oid_tostr(hex, sizeof(hex), oid);
	path = xasprintf("%s%.2s/%s", g->objects, hex, hex + 2);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return 0;	/* not loose: another backend's business */
	if (inflateInit(&z) != Z_OK) {
		close(fd);
		return 0;
	}
	while (zret != Z_STREAM_END) {
		if (!z.avail_in) {
			n = read(fd, in, sizeof(in));
			if (n <= 0)
				break;
			z.next_in = in;
			z.avail_in = (unsigned int)n;
		}
		z.next_out = out;
		z.avail_out = sizeof(out);
		zret = inflate(&z, Z_NO_FLUSH);
		if (zret != Z_OK && zret != Z_STREAM_END &&
		    !(zret == Z_BUF_ERROR && !z.avail_in))
			break;
	}
	if (zret != Z_STREAM_END) {
		git_error_set(GIT_ERROR_ODB, "loose object %s is corrupt: %s",
			      hex, n < 0 ? strerror(errno) :
			      z.msg ? z.msg : "truncated");
		ret = GIT_ERROR;
	}
	inflateEnd(&z);
	close(fd);
	return ret;
}

static int guard_read(void **data, size_t *len, git_object_t *type,
		      git_odb_backend *b, const git_oid *oid)
{
	(void)data;
	(void)len;
	(void)type;
	return guard_check((struct loose_guard *)b, oid) ?: GIT_PASSTHROUGH;
}

static int guard_read_header(size_t *len, git_object_t *type,
			     git_odb_backend *b, const git_oid *oid)
{
	(void)len;
	(void)type;
	return guard_check((struct loose_guard *)b, oid) ?: GIT_PASSTHROUGH;
}

static void guard_free(git_odb_backend *b)
{
	free(((struct loose_guard *)b)->objects);
	free(b);
}

int repo_guard_loose(git_repository *repo)
{
	struct loose_guard *g = xcalloc(1, sizeof(*g));
	git_odb *odb = NULL;

	git_odb_init_backend(&g->parent, GIT_ODB_BACKEND_VERSION);
	g->parent.read = guard_read;
	g->parent.read_header = guard_read_header;
	g->parent.free = guard_free;
	g->objects = xasprintf("%sobjects/", git_repository_commondir(repo));
	/* the packed backend's priority: before the loose one (1) */
	if (git_repository_odb(&odb, repo) < 0 ||
	    git_odb_add_backend(odb, &g->parent, 2) < 0) {
		git_odb_free(odb);
		guard_free(&g->parent);
		return kmig_err_git("cannot open the object database");
	}
	git_odb_free(odb);
	return 0;
}

/*
 * owned_by_other - @path looks like a repository (a .git, or a bare HEAD)
 * owned by another user: what git refuses as of dubious ownership.
 * libgit2 1.5 reports that as a missing safe.directory, not GIT_EOWNER.
 */
static bool owned_by_other(const char *path)
{
	static const char *const marks[] = { ".git", "HEAD" };
	struct stat st;
	size_t i;
	bool other = false;

	for (i = 0; i < ARRAY_SIZE(marks) && !other; i++) {
		char *p = xasprintf("%s/%s", path, marks[i]);

		other = stat(p, &st) == 0 && st.st_uid != geteuid();
		free(p);
	}
	return other;
}

int repo_open(git_repository **out, const char *path)
{
	struct stat st;
	int ret;

	*out = NULL;
	if (stat(path, &st) < 0)
		return kmig_err("repository '%s' does not exist (run 'kmig import' or pass --repo)",
				path);
	ret = git_repository_open_ext(out, path, GIT_REPOSITORY_OPEN_NO_SEARCH,
				      NULL);
	if (ret == GIT_EOWNER || (ret < 0 && owned_by_other(path)))
		return kmig_err("repository '%s' is owned by another user: git refuses it as of dubious ownership (git config --global --add safe.directory '%s')",
				path, path);
	if (ret < 0)
		return kmig_err("'%s' is not a git repository", path);
	if (repo_guard_loose(*out)) {
		git_repository_free(*out);
		*out = NULL;
		return KMIG_EGENERIC;
	}
	return 0;
}

int repo_open_or_init(git_repository **out, const char *path)
{
	struct stat st;

	*out = NULL;
	if (stat(path, &st) == 0)
		return repo_open(out, path);
	if (mkdir_p(path))
		return KMIG_EGENERIC;
	if (git_repository_init(out, path, 1) < 0)
		return kmig_err_git("cannot create repository");
	return 0;
}

int repo_resolve_commit(git_commit **out, git_repository *repo, const char *rev)
{
	git_object *obj = NULL;
	int ret;

	*out = NULL;
	ret = git_revparse_single(&obj, repo, rev);
	if (ret < 0) {
		const git_error *e = git_error_last();
		char *why = xstrdup(e ? e->message : "unknown error");
		git_reference *ref = NULL;
		char hex[GIT_OID_HEXSZ + 1];

		/* A reference to an object that is missing or corrupt. */
		if (!git_reference_dwim(&ref, repo, rev) &&
		    git_reference_target(ref)) {
			git_oid_tostr(hex, sizeof(hex), git_reference_target(ref));
			ret = kmig_err("cannot read object %s ('%s'): %s", hex,
				       rev, ret == GIT_ENOTFOUND ?
				       "missing" : why);
		} else if (ret == GIT_ENOTFOUND || ret == GIT_EINVALIDSPEC ||
			   ret == GIT_EAMBIGUOUS) {
			ret = kmig_errcode(KMIG_ENOTFOUND,
					   "unknown revision '%s'", rev);
		} else {
			ret = kmig_err("cannot resolve '%s': %s", rev, why);
		}
		git_reference_free(ref);
		free(why);
		return ret;
	}
	ret = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	if (ret < 0) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), git_object_id(obj));
		ret = kmig_err("'%s' does not name a commit: %s %s", rev,
			       git_object_type2string(git_object_type(obj)), hex);
	}
	git_object_free(obj);
	return ret < 0 ? ret : 0;
}

bool repo_tag_exists(git_repository *repo, const char *tag)
{
	git_reference *ref = NULL;
	char *name = xasprintf("refs/tags/%s", tag);
	int ret = git_reference_lookup(&ref, repo, name);

	free(name);
	git_reference_free(ref);
	return ret == 0;
}

/* A directory being written: files are hashed by workers, then trees. */
struct wfile {
	char *path;		/* full path on disk */
	const char *name;	/* points into path */
	git_filemode_t mode;
	git_oid oid;
	uint64_t size;
};

struct wdir {
	const char *name;
	char *path;
	struct wdir **dirs;
	size_t ndirs, adirs;
	size_t *files;		/* indexes into the file array */
	size_t nfiles, afiles;
};

struct walk {
	struct wfile *files;
	size_t nfiles, afiles;
	uint64_t bytes;
};

static void wdir_free(struct wdir *d)
{
	size_t i;

	for (i = 0; i < d->ndirs; i++)
		wdir_free(d->dirs[i]);
	free(d->dirs);
	free(d->files);
	free(d->path);
	free(d);
}

static int walk_dir(struct walk *w, struct wdir *d)
{
	DIR *dh;
	struct dirent *de;
	int ret = 0;

	dh = opendir(d->path);
	if (!dh)
		return kmig_err("cannot read directory '%s': %s", d->path,
				strerror(errno));
	while ((de = readdir(dh))) {
		struct stat st;
		char *p;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, ".git"))
			continue;
		p = xasprintf("%s/%s", d->path, de->d_name);
		if (lstat(p, &st) < 0) {
			ret = kmig_err("cannot stat '%s': %s", p, strerror(errno));
			free(p);
			break;
		}
		if (S_ISDIR(st.st_mode)) {
			struct wdir *sub = xcalloc(1, sizeof(*sub));

			sub->path = p;
			sub->name = strrchr(p, '/') + 1;
			ALLOC_GROW(d->dirs, d->ndirs + 1, d->adirs);
			d->dirs[d->ndirs++] = sub;
			ret = walk_dir(w, sub);
			if (ret)
				break;
		} else if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) {
			struct wfile *f;

			ALLOC_GROW(w->files, w->nfiles + 1, w->afiles);
			f = &w->files[w->nfiles];
			memset(f, 0, sizeof(*f));
			f->path = p;
			f->name = strrchr(p, '/') + 1;
			f->size = (uint64_t)st.st_size;
			if (S_ISLNK(st.st_mode))
				f->mode = GIT_FILEMODE_LINK;
			else if (st.st_mode & 0111)
				f->mode = GIT_FILEMODE_BLOB_EXECUTABLE;
			else
				f->mode = GIT_FILEMODE_BLOB;
			w->bytes += f->size;
			ALLOC_GROW(d->files, d->nfiles + 1, d->afiles);
			d->files[d->nfiles++] = w->nfiles++;
		} else {
			free(p);	/* sockets, fifos: not content */
		}
	}
	closedir(dh);
	return ret;
}

struct hash_job {
	struct walk *w;
	const char *repo_path;
	size_t next;
	pthread_mutex_t lock;
	int ret;
	char err[512];
	struct progress *prog;
	size_t done;
};

static int hash_one(git_odb *odb, struct wfile *f)
{
	struct sbuf sb = SBUF_INIT;
	int ret;

	if (f->mode == GIT_FILEMODE_LINK) {
		char target[4096];
		ssize_t n = readlink(f->path, target, sizeof(target));

		if (n < 0)
			return kmig_err("cannot read link '%s': %s", f->path,
					strerror(errno));
		sbuf_add(&sb, target, (size_t)n);
	} else if (sbuf_read_file(&sb, f->path)) {
		return KMIG_EGENERIC;
	}
	ret = git_odb_write(&f->oid, odb, sb.buf ? sb.buf : "", sb.len,
			    GIT_OBJECT_BLOB);
	sbuf_release(&sb);
	if (ret < 0)
		return kmig_err_git("cannot write blob");
	return 0;
}

static void *hash_worker(void *arg)
{
	struct hash_job *job = arg;
	git_repository *repo = NULL;
	git_odb *odb = NULL;

	if (git_repository_open(&repo, job->repo_path) < 0 ||
	    git_repository_odb(&odb, repo) < 0) {
		pthread_mutex_lock(&job->lock);
		if (!job->ret) {
			job->ret = kmig_err_git("cannot open object database");
			snprintf(job->err, sizeof(job->err), "%s", kmig_errmsg());
		}
		pthread_mutex_unlock(&job->lock);
		goto out;
	}
	for (;;) {
		size_t i;

		pthread_mutex_lock(&job->lock);
		if (job->ret || job->next >= job->w->nfiles) {
			pthread_mutex_unlock(&job->lock);
			break;
		}
		i = job->next++;
		job->done++;
		if (job->done % 512 == 0)
			progress_update(job->prog, job->done, NULL);
		pthread_mutex_unlock(&job->lock);
		if (hash_one(odb, &job->w->files[i])) {
			pthread_mutex_lock(&job->lock);
			if (!job->ret) {
				job->ret = KMIG_EGENERIC;
				snprintf(job->err, sizeof(job->err), "%s",
					 kmig_errmsg());
			}
			pthread_mutex_unlock(&job->lock);
			break;
		}
	}
out:
	git_odb_free(odb);
	git_repository_free(repo);
	return NULL;
}

static int write_trees(git_oid *out, git_repository *repo, struct walk *w,
		       struct wdir *d)
{
	git_treebuilder *tb = NULL;
	size_t i;
	int ret = 0;

	if (git_treebuilder_new(&tb, repo, NULL) < 0)
		return kmig_err_git("cannot build tree");
	for (i = 0; i < d->ndirs; i++) {
		git_oid sub;

		ret = write_trees(&sub, repo, w, d->dirs[i]);
		if (ret)
			goto out_free_tb;
		/* git does not store empty directories */
		if (git_oid_is_zero(&sub))
			continue;
		if (git_treebuilder_insert(NULL, tb, d->dirs[i]->name, &sub,
					   GIT_FILEMODE_TREE) < 0) {
			ret = kmig_err_git("cannot add directory to tree");
			goto out_free_tb;
		}
	}
	for (i = 0; i < d->nfiles; i++) {
		struct wfile *f = &w->files[d->files[i]];

		if (git_treebuilder_insert(NULL, tb, f->name, &f->oid,
					   f->mode) < 0) {
			ret = kmig_err_git("cannot add file to tree");
			goto out_free_tb;
		}
	}
	if (git_treebuilder_entrycount(tb) == 0) {
		memset(out, 0, sizeof(*out));
		goto out_free_tb;
	}
	if (git_treebuilder_write(out, tb) < 0)
		ret = kmig_err_git("cannot write tree");
out_free_tb:
	git_treebuilder_free(tb);
	return ret;
}

int repo_write_dir_tree(git_oid *out, git_repository *repo, const char *dir,
			int jobs, size_t *files, uint64_t *bytes)
{
	struct walk w = { 0 };
	struct wdir *root = xcalloc(1, sizeof(*root));
	struct hash_job job = { 0 };
	pthread_t *tids;
	int i, ret;

	root->path = xstrdup(dir);
	root->name = "";
	ret = walk_dir(&w, root);
	if (ret)
		goto out_free;

	job.w = &w;
	job.repo_path = git_repository_path(repo);
	pthread_mutex_init(&job.lock, NULL);
	job.prog = progress_start("writing blobs", w.nfiles);
	if (jobs < 1)
		jobs = 1;
	tids = xcalloc((size_t)jobs, sizeof(*tids));
	for (i = 0; i < jobs; i++)
		pthread_create(&tids[i], NULL, hash_worker, &job);
	for (i = 0; i < jobs; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	progress_stop(job.prog);
	pthread_mutex_destroy(&job.lock);
	if (job.ret) {
		ret = kmig_err("%s", job.err);
		goto out_free;
	}
	ret = write_trees(out, repo, &w, root);
	if (!ret && git_oid_is_zero(out))
		ret = kmig_err("'%s' holds no files", dir);
	if (files)
		*files = w.nfiles;
	if (bytes)
		*bytes = w.bytes;
out_free:
	for (size_t k = 0; k < w.nfiles; k++)
		free(w.files[k].path);
	free(w.files);
	wdir_free(root);
	return ret;
}
