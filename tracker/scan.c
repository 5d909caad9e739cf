// SPDX-License-Identifier: GPL-2.0
/*
 * scan.c - walk trees for in-scope files; lex blobs in worker threads.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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

struct lex_job {
	const char *repo_path;
	const git_oid *oids;
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

	if (git_repository_open(&repo, job->repo_path) < 0) {
		kmig_err_git("cannot open repository");
		job_fail(job);
		return NULL;
	}
	for (;;) {
		git_blob *blob = NULL;
		size_t i;

		pthread_mutex_lock(&job->lock);
		if (job->ret || job->next >= job->n) {
			pthread_mutex_unlock(&job->lock);
			break;
		}
		i = job->next++;
		pthread_mutex_unlock(&job->lock);

		if (git_blob_lookup(&blob, repo, &job->oids[i]) < 0) {
			kmig_err_git("cannot read blob");
			job_fail(job);
			break;
		}
		job->bytes[i] = (uint64_t)git_blob_rawsize(blob);
		if (lex_buffer(git_blob_rawcontent(blob),
			       (size_t)git_blob_rawsize(blob),
			       &job->results[i])) {
			git_blob_free(blob);
			job_fail(job);
			break;
		}
		git_blob_free(blob);
		pthread_mutex_lock(&job->lock);
		job->done++;
		if ((job->done & 255) == 0)
			progress_update(job->prog, job->done, NULL);
		pthread_mutex_unlock(&job->lock);
	}
	git_repository_free(repo);
	return NULL;
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
	pthread_mutex_init(&job.lock, NULL);
	tids = xcalloc((size_t)jobs, sizeof(*tids));
	for (i = 0; i < jobs; i++)
		pthread_create(&tids[i], NULL, lex_worker, &job);
	for (i = 0; i < jobs; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	pthread_mutex_destroy(&job.lock);
	if (job.ret)
		return kmig_err("%s", job.err);
	return 0;
}
