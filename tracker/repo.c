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

#include "packwrite.h"
#include "repo.h"

int repo_blob_read(git_repository *repo, const git_oid *oid, struct sbuf *out)
{
	git_blob *blob = NULL;

	if (git_blob_lookup(&blob, repo, oid) < 0)
		return kmig_err_git("cannot read blob");
	sbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return 0;
}

int repo_blob_id_at(git_tree *tree, const char *path, git_oid *out)
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
		git_oid_cpy(out, git_tree_entry_id(te));
	else
		ret = kmig_errcode(KMIG_ENOTFOUND, "'%s' is not a file", path);
	git_tree_entry_free(te);
	return ret;
}

int repo_blob_at(git_repository *repo, git_tree *tree, const char *path,
		 struct sbuf *out)
{
	git_oid id;
	int ret = repo_blob_id_at(tree, path, &id);

	return ret ? ret : repo_blob_read(repo, &id, out);
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

int repo_open_or_init(git_repository **out, const char *path, bool *created)
{
	struct stat st;

	git_repository *tmp = NULL;
	char *dir, *slash, *part;
	size_t n;
	int ret = 0;

	*out = NULL;
	*created = false;
	if (stat(path, &st) == 0)
		return repo_open(out, path);
	/*
	 * Made next to @path and renamed into place, so that a process
	 * killed while git_repository_init() writes never leaves a half
	 * repository at @path (a leftover "*.init-PID" is harmless).
	 */
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir_p(dir)) {
			free(dir);
			return KMIG_EGENERIC;
		}
	}
	free(dir);
	n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	part = xasprintf("%.*s.init-%d", (int)n, path, (int)getpid());
	rm_rf(part);
	if (git_repository_init(&tmp, part, 1) < 0) {
		ret = kmig_err_git("cannot create repository");
		goto out_part;
	}
	git_repository_free(tmp);
	if (rename(part, path)) {
		ret = kmig_err("cannot create repository '%s': %s", path,
			       strerror(errno));
		goto out_part;
	}
	free(part);
	*created = true;
	return repo_open(out, path);
out_part:
	rm_rf(part);
	free(part);
	return ret;
}

int repo_resolve_commit(git_commit **out, git_repository *repo, const char *rev)
{
	git_object *obj = NULL;
	int ret;

	*out = NULL;
	/*
	 * "" is no revision, though git_reference_dwim() resolves it (to
	 * HEAD's target) and would make it look like a broken reference.
	 */
	if (!*rev)
		return kmig_errcode(KMIG_ENOTFOUND, "unknown revision ''");
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

static bool rev_exists(git_repository *repo, const char *rev)
{
	git_object *o = NULL;

	if (git_revparse_single(&o, repo, rev) < 0) {
		git_error_clear();
		return false;
	}
	git_object_free(o);
	return true;
}

int repo_unknown_revision(git_repository *repo, const char *arg)
{
	const char *dots = strstr(arg, "..");
	char *left;
	int ret;

	if (!dots)
		return kmig_err("unknown revision '%s'", arg);
	left = xstrndup(arg, (size_t)(dots - arg));
	dots += dots[2] == '.' ? 3 : 2;
	if (*left && !rev_exists(repo, left))
		ret = kmig_err("unknown revision '%s' in '%s'", left, arg);
	else if (*dots && !rev_exists(repo, dots))
		ret = kmig_err("unknown revision '%s' in '%s'", dots, arg);
	else
		ret = kmig_err("unknown revision '%s'", arg);
	free(left);
	return ret;
}

/* A directory being written: blobs by workers into a pack, then trees. */
struct wfile {
	char *path;		/* full path on disk */
	const char *name;	/* points into path */
	git_filemode_t mode;
	git_oid oid;
	git_oid base;		/* the base tree's blob at this path */
	bool has_base;
	uint64_t size;
};

struct wdir {
	const char *name;
	char *path;
	struct wdir **dirs;
	size_t ndirs, adirs;
	size_t *files;		/* indexes into the file array */
	size_t nfiles, afiles;
	git_oid base;		/* the base tree's tree at this path */
	bool has_base;
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

/*
 * Note, for every file and directory of @d, the id of the same path in
 * @bt (the previous release's tree): the delta bases.
 */
static int map_base(git_repository *repo, struct walk *w, struct wdir *d,
		    const git_tree *bt)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < d->nfiles; i++) {
		struct wfile *f = &w->files[d->files[i]];
		const git_tree_entry *e = git_tree_entry_byname(bt, f->name);

		if (e && git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
			f->base = *git_tree_entry_id(e);
			f->has_base = true;
		}
	}
	for (i = 0; i < d->ndirs && !ret; i++) {
		struct wdir *sub = d->dirs[i];
		const git_tree_entry *e = git_tree_entry_byname(bt, sub->name);
		git_tree *st = NULL;

		if (!e || git_tree_entry_type(e) != GIT_OBJECT_TREE)
			continue;
		sub->base = *git_tree_entry_id(e);
		sub->has_base = true;
		if (git_tree_lookup(&st, repo, &sub->base) < 0)
			return kmig_err_git("cannot read the previous tree");
		ret = map_base(repo, w, sub, st);
		git_tree_free(st);
	}
	return ret;
}

struct hash_job {
	struct walk *w;
	struct packwriter *pw;
	size_t next;
	pthread_mutex_t lock;
	int ret;
	char err[512];
	struct progress *prog;
	size_t done;
};

static int hash_one(struct packwrite_worker *pk, struct wfile *f,
		    struct sbuf *sb)
{
	sbuf_reset(sb);
	if (f->mode == GIT_FILEMODE_LINK) {
		char target[4096];
		ssize_t n = readlink(f->path, target, sizeof(target));

		if (n < 0)
			return kmig_err("cannot read link '%s': %s", f->path,
					strerror(errno));
		sbuf_add(sb, target, (size_t)n);
	} else if (sbuf_read_file(sb, f->path)) {
		return KMIG_EGENERIC;
	}
	return packwrite_add(pk, GIT_OBJECT_BLOB, sb->buf ? sb->buf : "",
			     sb->len, f->has_base ? &f->base : NULL, &f->oid);
}

static void *hash_worker(void *arg)
{
	struct hash_job *job = arg;
	struct packwrite_worker *pk = packwrite_worker_new(job->pw);
	struct sbuf sb = SBUF_INIT;

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
		if (hash_one(pk, &job->w->files[i], &sb)) {
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
	sbuf_release(&sb);
	packwrite_worker_free(pk);
	return NULL;
}

struct tent {
	const char *name;
	size_t len;
	git_filemode_t mode;
	const git_oid *oid;
};

/* git's tree order: names compared as if directories ended with '/'. */
static int cmp_tent(const void *a, const void *b)
{
	const struct tent *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, n);
	unsigned char cx, cy;

	if (c)
		return c;
	cx = x->len > n ? (unsigned char)x->name[n] :
	     x->mode == GIT_FILEMODE_TREE ? '/' : 0;
	cy = y->len > n ? (unsigned char)y->name[n] :
	     y->mode == GIT_FILEMODE_TREE ? '/' : 0;
	return cx - cy;
}

/* Write @d's tree (its subtrees first); a zero id for an empty tree. */
static int write_trees(git_oid *out, struct packwrite_worker *pk,
		       struct walk *w, struct wdir *d)
{
	struct tent *ents = xcalloc(d->ndirs + d->nfiles + 1, sizeof(*ents));
	git_oid *sub = xcalloc(d->ndirs + 1, sizeof(*sub));
	struct sbuf sb = SBUF_INIT;
	size_t i, n = 0;
	int ret = 0;

	for (i = 0; i < d->ndirs; i++) {
		ret = write_trees(&sub[i], pk, w, d->dirs[i]);
		if (ret)
			goto out_free;
		/* git does not store empty directories */
		if (git_oid_is_zero(&sub[i]))
			continue;
		ents[n++] = (struct tent){ d->dirs[i]->name,
					   strlen(d->dirs[i]->name),
					   GIT_FILEMODE_TREE, &sub[i] };
	}
	for (i = 0; i < d->nfiles; i++) {
		struct wfile *f = &w->files[d->files[i]];

		ents[n++] = (struct tent){ f->name, strlen(f->name), f->mode,
					   &f->oid };
	}
	memset(out, 0, sizeof(*out));
	if (!n)
		goto out_free;
	qsort(ents, n, sizeof(*ents), cmp_tent);
	for (i = 0; i < n; i++) {
		sbuf_addf(&sb, "%o %s", (unsigned int)ents[i].mode, ents[i].name);
		sbuf_addch(&sb, 0);
		sbuf_add(&sb, ents[i].oid->id, GIT_OID_RAWSZ);
	}
	ret = packwrite_add(pk, GIT_OBJECT_TREE, sb.buf, sb.len,
			    d->has_base ? &d->base : NULL, out);
out_free:
	sbuf_release(&sb);
	free(sub);
	free(ents);
	return ret;
}

/* The workers: every blob of @w into @pw. */
static int write_blobs(struct packwriter *pw, struct walk *w, int jobs)
{
	struct hash_job job = { 0 };
	pthread_t *tids;
	int i, ret = 0;

	job.w = w;
	job.pw = pw;
	pthread_mutex_init(&job.lock, NULL);
	job.prog = progress_start("writing blobs", w->nfiles);
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
	if (job.ret)
		ret = kmig_err("%s", job.err);
	return ret;
}

int repo_write_dir_tree(git_oid *out, git_repository *repo, const char *dir,
			const git_tree *base, int jobs, size_t *files,
			uint64_t *bytes)
{
	struct walk w = { 0 };
	struct wdir *root = xcalloc(1, sizeof(*root));
	struct packwriter *pw = NULL;
	struct packwrite_worker *pk;
	git_odb *odb = NULL;
	int ret;

	root->path = xstrdup(dir);
	root->name = "";
	ret = walk_dir(&w, root);
	if (!ret && base) {
		root->base = *git_tree_id(base);
		root->has_base = true;
		ret = map_base(repo, &w, root, base);
	}
	if (!ret)
		ret = packwrite_begin(&pw, git_repository_path(repo),
				      base ? git_tree_id(base) : NULL);
	if (ret)
		goto out_free;
	ret = write_blobs(pw, &w, jobs);
	if (!ret) {
		pk = packwrite_worker_new(pw);
		ret = write_trees(out, pk, &w, root);
		packwrite_worker_free(pk);
	}
	if (!ret && git_oid_is_zero(out))
		ret = kmig_err("'%s' holds no files", dir);
	if (ret) {
		packwrite_abort(pw);
		goto out_free;
	}
	ret = packwrite_finish(pw);
	/* libgit2 learns of the new pack (the base pack is gone) */
	if (!ret && (git_repository_odb(&odb, repo) < 0 ||
		     git_odb_refresh(odb) < 0))
		ret = kmig_err_git("cannot reload the object database");
	git_odb_free(odb);
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
