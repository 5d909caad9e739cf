// SPDX-License-Identifier: GPL-2.0
/*
 * repo.c - libgit2 helpers: open, resolve, and write a directory as a tree.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repo.h"

int ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

const char *repo_oid_str(const git_oid *oid)
{
	static __thread char buf[GIT_OID_HEXSZ + 1];

	git_oid_tostr(buf, sizeof(buf), oid);
	return buf;
}

int repo_open(git_repository **out, const char *path)
{
	struct stat st;

	*out = NULL;
	if (stat(path, &st) < 0)
		return kmig_err("repository '%s' does not exist (run 'kmig import' or pass --repo)",
				path);
	if (git_repository_open_ext(out, path, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0)
		return kmig_err("'%s' is not a git repository", path);
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
	if (git_revparse_single(&obj, repo, rev) < 0)
		return kmig_errcode(KMIG_ENOTFOUND, "unknown revision '%s'", rev);
	ret = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (ret < 0)
		return kmig_err("'%s' does not name a commit", rev);
	return 0;
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
