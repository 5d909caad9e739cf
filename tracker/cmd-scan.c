// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-scan.c - count every deprecated-API use per release, subsystem and
 * file; blobs already lexed under the same rule set are never lexed again.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "maintainers.h"
#include "maintcache.h"
#include "oidset.h"
#include "relinfo.h"
#include "reach.h"
#include "repo.h"
#include "rules.h"
#include "scan.h"
#include "store.h"

static const char usage[] =
	"usage: kmig scan [--tags GLOB]... [--include-rc] [--jobs N] [--reach-depth N]\n"
	"                 [--prune]\n"
	"\n"
	"Scan release tags (default: every tag matching v[0-9]* except -rc tags,\n"
	"in version order): count every rule's uses per release, per subsystem\n"
	"(that release's MAINTAINERS) and per file, and record the use sites.\n"
	"Only blobs never lexed under the current rule set are lexed; each\n"
	"release is committed on its own, so an interrupted scan resumes.\n"
	"\n"
	"  --tags GLOB     scan tags matching GLOB (repeatable; each must match)\n"
	"  --include-rc    include -rc tags\n"
	"  -j, --jobs N    lexer threads (default: CPUs)\n"
	"  --reach-depth N warn-on-user: WARN sites within N direct calls of an\n"
	"                  entry point user space drives (default 3; 0: in the\n"
	"                  entry points only).  A release scanned at another depth\n"
	"                  gets its call graph again from the cache (no lexing),\n"
	"                  its warn-on and warn-on-user counted again\n"
	"  --prune         remove from the database the releases whose tags the\n"
	"                  repository no longer has (a line each: 'TAG: pruned');\n"
	"                  without it each is a warning, and stays in the reports\n"
	"\n"
	"The call graph's facts of the last release are kept for the next run\n"
	"in DB-graph next to the database (a cache: safe to delete).\n"
	"\n"
	"Prints one line per release: tag, files, blobs lexed, uses.\n";

/*
 * The release last stored in this run with the current rules and reach
 * depth (written, or found up to date): a point release after it copies
 * the file counts of the files it did not change
 * (store_release_finish_from()).  Its files are moved here from its plan
 * when it was written, read back from the database when it was skipped.
 */
struct scan_base {
	long long rel;			/* 0: none */
	char *tag;
	bool loaded;			/* files holds its files */
	struct scan_files files;
	git_oid tree;			/* its tree's id, or zero: unknown */
};

/*
 * A release's deprecated.rst and include/ read in a thread (relinfo.h),
 * from the start of its write to after its commit: with a repository of
 * its own, the scan's relinfo cache its own while it runs.
 */
struct relinfo_job {
	bool busy;			/* a thread to join */
	bool have;			/* stored already: nothing to read */
	pthread_t tid;
	git_repository *repo;		/* the thread's, opened once */
	git_oid tree;
	char key[RELINFO_KEY_LEN];
	struct relinfo ri;
	size_t nread;			/* headers read before */
	int ret;
	char *err;
	double secs;
};

struct scan_state {
	struct kmig_ctx *ctx;
	git_repository *repo;
	struct store *st;
	struct oidset cached;
	bool cached_loaded;	/* read on the first release to lex */
	struct maint_cache maint;
	struct scan_pool *pool;	/* started on the first release to lex */
	int jobs;
	unsigned int reach_depth;
	uint64_t lexed, lexed_bytes;
	struct relinfo_cache relinfo;	/* header blobs read (relinfo.h) */
	struct relinfo_job rjob;
	struct reach_cache *graphs;	/* the last release's parsed facts */
	char *image;			/* the graphs' cache between runs */
	bool later;			/* the store had releases at the start */
	bool image_tried;		/* restored, or tried to */
	bool image_dirty;		/* a graph made: save it at the end */
	/* graph_cache_restore_start()'s restore, until it is waited for */
	bool image_busy;
	bool image_thread;		/* in image_tid, to join */
	pthread_t image_tid;
	int image_ret;
	size_t image_blobs;
	double image_secs;
	/* graph_cache_save_start()'s thread, while it may run */
	bool save_busy;
	pthread_t save_tid;
	int save_ret;
	char *save_err;
	double save_secs;
	struct facts_packer *unpack;	/* for the facts of the lexed blobs */
	struct scan_base base;
};

static int cmp_tags(const void *a, const void *b)
{
	return version_cmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The tags matching @globs (default v[0-9]*), each once, in version
 * order; without @include_rc none with "-rc", *@nrc counting those left
 * out.
 */
static int list_tags(git_repository *repo, char **globs, size_t nglobs,
		     bool include_rc, char ***out, size_t *n, size_t *nrc)
{
	static char *dflt = "v[0-9]*";
	char **rcs = NULL;	/* the -rc tags left out */
	size_t i, j, alloc = 0, nrcs = 0, arcs = 0;

	*out = NULL;
	*n = 0;
	if (!nglobs) {
		globs = &dflt;
		nglobs = 1;
	}
	for (i = 0; i < nglobs; i++) {
		git_strarray tags = { 0 };

		if (git_tag_list_match(&tags, globs[i], repo) < 0) {
			free_strv(rcs, nrcs);
			free_strv(*out, *n);
			*out = NULL;
			*n = 0;
			return kmig_err_git("cannot list tags");
		}
		/* a mistyped --tags among others would go unscanned unsaid */
		if (!tags.count && globs != &dflt) {
			git_strarray_dispose(&tags);
			free_strv(rcs, nrcs);
			free_strv(*out, *n);
			*out = NULL;
			*n = 0;
			return kmig_err("--tags '%s' matches no tag of the repository",
					globs[i]);
		}
		for (j = 0; j < tags.count; j++) {
			const char *t = tags.strings[j];
			size_t k;
			bool dup = false;

			for (k = 0; k < *n; k++)
				if (!strcmp((*out)[k], t))
					dup = true;
			for (k = 0; k < nrcs; k++)
				if (!strcmp(rcs[k], t))
					dup = true;
			if (dup)
				continue;
			if (!include_rc && strstr(t, "-rc")) {
				ALLOC_GROW(rcs, nrcs + 1, arcs);
				rcs[nrcs++] = xstrdup(t);
				continue;
			}
			ALLOC_GROW(*out, *n + 1, alloc);
			(*out)[(*n)++] = xstrdup(t);
		}
		git_strarray_dispose(&tags);
	}
	*nrc = nrcs;
	free_strv(rcs, nrcs);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_tags);
	return 0;
}

/*
 * The releases of @old whose tags the repository no longer has: with
 * @prune removed from the database in one transaction, a line each on
 * stdout; else a warning each on stderr.  *@left: the releases kept.
 */
static int prune_gone(struct scan_state *s, const struct release_info *old,
		      size_t nold, bool prune, size_t *left)
{
	const char **gone = xcalloc(nold ? nold : 1, sizeof(*gone));
	size_t i, ngone = 0;
	bool txn = false;
	int ret = 0;

	*left = nold;
	for (i = 0; i < nold; i++) {
		char *ref = xasprintf("refs/tags/%s", old[i].tag);
		git_oid oid;
		int rc = git_reference_name_to_id(&oid, s->repo, ref);

		free(ref);
		if (rc != GIT_ENOTFOUND) {
			if (rc < 0) {
				ret = kmig_err_git("cannot read the tags");
				break;
			}
			continue;
		}
		gone[ngone++] = old[i].tag;
		if (!prune) {
			fprintf(stderr, "kmig: warning: %s is no longer a tag of the repository: 'kmig scan --prune' removes it from the database\n",
				old[i].tag);
			continue;
		}
		if (!txn) {
			ret = store_begin(s->st);
			if (ret)
				break;
			txn = true;
		}
		ret = store_release_delete(s->st, old[i].tag);
		if (ret)
			break;
	}
	if (txn) {
		if (!ret)
			ret = store_commit(s->st);
		else
			store_rollback(s->st);
	}
	if (!ret && prune) {
		/* said once the transaction holds */
		for (i = 0; i < ngone; i++)
			printf("%s: pruned (no longer a tag)\n", gone[i]);
		*left = nold - ngone;
	}
	free(gone);
	return ret;
}

/*
 * What a tag names when it is not a commit: "tree" (linux.git's v2.6.11,
 * the history starts at v2.6.12-rc2) or "blob"; NULL for a commit, or when
 * it cannot be read (resolving it says why).  Such a release has no
 * commit to record.
 */
static const char *tag_non_commit(git_repository *repo, const char *tag)
{
	git_object *obj = NULL, *peeled = NULL;
	git_reference *ref = NULL;
	char *name = xasprintf("refs/tags/%s", tag);
	const char *what = NULL;
	git_object_t type;
	int err;

	/* not git_revparse_single(): libgit2 1.5 leaks on a corrupt object */
	err = git_reference_lookup(&ref, repo, name);
	free(name);
	if (!err && git_reference_target(ref))
		err = git_object_lookup(&obj, repo, git_reference_target(ref),
					GIT_OBJECT_ANY);
	else if (!err)
		err = -1;
	git_reference_free(ref);
	if (err < 0)
		return NULL;
	/* peeling ANY goes through tags only (a commit would give its tree) */
	type = git_object_type(obj);
	if (type == GIT_OBJECT_TAG)
		type = git_object_peel(&peeled, obj, GIT_OBJECT_ANY) ?
		       GIT_OBJECT_INVALID : git_object_type(peeled);
	if (type == GIT_OBJECT_TREE)
		what = "tree";
	else if (type == GIT_OBJECT_BLOB)
		what = "blob";
	git_object_free(peeled);
	git_object_free(obj);
	return what;
}

/*
 * One release, in two halves: plan_release() (resolve, walk the tree, find
 * the blobs to lex, queue them on the pool) and write_release() (wait for
 * them, one transaction, the result line).  cmd_scan_fn() plans releases
 * i + 1 .. i + PLAN_AHEAD before writing release i, so the tree walks and
 * the database work run while the workers lex.  Each release planned
 * ahead holds its lexing results until it is written: two is as fast as
 * three here, with a lower peak (bench/README.md, eighth round).
 */
#define PLAN_AHEAD 2

struct release_plan {
	const char *tag;
	bool skip;			/* nothing to write */
	const char *skip_line;		/* printed instead, or NULL */
	char *recommit;			/* the old commit: only its id changes */
	long long regraph;		/* release id: only its call graph again */
	long long regraph_files;
	bool recount;			/* regraph: kmig counts otherwise now */
	long long old_id;		/* skipped: the stored release */
	git_commit *commit;
	char commit_hex[GIT_OID_HEXSZ + 1];
	struct scan_files files;
	git_oid maint_oid;
	const struct maintainers *maint;
	git_oid *todo;
	size_t ntodo;
	struct site_list *results;
	uint64_t *bytes;
	struct facts_z *facts;		/* the results' call-graph facts, packed */
	struct scan_batch *batch;	/* queued, not waited for yet */
	bool last;			/* the run's last release */
	/* from_base: a quarter of its files or fewer changed since the base */
	bool from_base;
	const char **changed;		/* files_diff() with the base */
	size_t nchanged;
	char **own;			/* the strings changed holds, if its own */
	size_t nown;
};

static void plan_clear(struct scan_state *s, struct release_plan *p)
{
	size_t i;

	if (p->batch)	/* never leave a batch writing into freed arrays */
		scan_pool_wait(s->pool, p->batch, NULL, NULL);
	if (p->results)
		for (i = 0; i < p->ntodo; i++)
			site_list_clear(&p->results[i]);
	if (p->facts)
		for (i = 0; i < p->ntodo; i++)
			facts_z_clear(&p->facts[i]);
	free(p->facts);
	free(p->results);
	free(p->bytes);
	free(p->todo);
	scan_files_clear(&p->files);
	free(p->recommit);
	free(p->changed);
	free_strv(p->own, p->nown);
	git_commit_free(p->commit);
	memset(p, 0, sizeof(*p));
}

static int cmp_oid(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

/*
 * True when commit @old_hex (a release's scanned commit, possibly gone
 * from the repository) has the tree of @commit: kmig import re-created it
 * on a new parent.
 */
static bool same_tree(git_repository *repo, const char *old_hex,
		      git_commit *commit)
{
	git_commit *old = NULL;
	git_oid oid;
	bool same;

	if (git_oid_fromstr(&oid, old_hex) < 0 ||
	    git_commit_lookup(&old, repo, &oid) < 0)
		return false;
	same = git_oid_equal(git_commit_tree_id(old), git_commit_tree_id(commit));
	git_commit_free(old);
	return same;
}

static void *graph_cache_restore_run(void *data)
{
	struct scan_state *s = data;
	double t0 = mono_now();

	s->image_ret = reach_cache_restore(s->graphs, s->image, release_hash(),
					   &s->image_blobs);
	s->image_secs = mono_now() - t0;
	return NULL;
}

/*
 * The graphs' cache of the last run (reach_cache_save()), once, when a
 * release's graph needs the facts of files this run did not lex (most of
 * a point release's, all of a graph made again): read from one file
 * instead of parsed again from the store.  A missing, stale or damaged
 * file is no error: the store has the facts.
 *
 * plan_release() starts it in a thread for the first release it plans
 * to write, before that release's tree is walked and its blobs lexed: it
 * runs beside them.  graph_cache_restore_wait() joins it before anything
 * else uses s->graphs.
 */
static void graph_cache_restore_start(struct scan_state *s)
{
	if (s->image_tried || reach_cache_blobs(s->graphs))
		return;
	s->image_tried = true;
	/* a new database's first release lexes all: no use for a stale one */
	if (!s->later || access(s->image, F_OK))
		return;
	s->image_busy = true;
	s->image_thread = !pthread_create(&s->image_tid, NULL,
					  graph_cache_restore_run, s);
	if (!s->image_thread)	/* no thread: at once */
		graph_cache_restore_run(s);
}

/*
 * graph_cache_restore_start()'s restore is done (its thread joined):
 * s->graphs is the scan's.  True when it restored the cache.
 */
static bool graph_cache_restore_wait(struct scan_state *s)
{
	if (!s->image_busy)
		return false;
	if (s->image_thread)
		pthread_join(s->image_tid, NULL);
	s->image_busy = s->image_thread = false;
	if (s->image_ret)
		return false;
	progress_note("graph cache: the facts of %zu blobs from '%s' (%.2fs)\n",
		      s->image_blobs, s->image, s->image_secs);
	/*
	 * The restored facts are the last run's: a trim that drops none of
	 * them makes them a generation older than what this run marks, so
	 * the next narrowing (or graph) drops those its release does not use.
	 */
	reach_cache_trim(s->graphs);
	return true;
}

static int plan_release(struct scan_state *s, const char *tag,
			struct release_plan *p)
{
	const char *ruleset = rules_hash(), *what;
	struct release_info old;
	git_tree *tree = NULL;
	size_t i;
	int ret;

	memset(p, 0, sizeof(*p));
	p->tag = tag;
	what = tag_non_commit(s->repo, tag);
	if (what) {
		fprintf(stderr, "warning: %s names a %s, not a commit: skipped\n",
			tag, what);
		p->skip = true;
		return 0;
	}
	ret = repo_resolve_commit(&p->commit, s->repo, tag);
	if (ret)
		return ret;
	git_oid_tostr(p->commit_hex, sizeof(p->commit_hex),
		      git_commit_id(p->commit));
	ret = store_release_get(s->st, tag, &old);
	if (!ret) {
		bool same_rules = !strcmp(old.ruleset, ruleset);
		bool same = same_rules && !strcmp(old.commit, p->commit_hex);

		if (!same && same_rules && same_tree(s->repo, old.commit, p->commit))
			p->recommit = xstrdup(old.commit);
		if (same || p->recommit) {
			int depth;
			long long e, r;

			ret = store_reach_info(s->st, old.id, &depth, &e, &r,
					       NULL);
			if (ret) {
				release_info_clear(&old);
				return ret;
			}
			p->recount = !old.counted_by ||
				     strcmp(old.counted_by, release_hash());
			if (depth != (int)s->reach_depth || p->recount) {
				p->regraph = old.id;
				p->regraph_files = old.files;
			}
			p->old_id = old.id;
		}
		release_info_clear(&old);
		if (same || p->recommit) {
			p->skip = true;
			p->skip_line = p->regraph ? NULL : same ? "up to date" :
				       "same tree at a new commit, counts kept";
			return 0;
		}
	} else if (ret != KMIG_ENOTFOUND) {
		return ret;
	}
	graph_cache_restore_start(s);	/* beside the tree walk and lexing */
	if (!s->cached_loaded) {
		ret = store_cached_blobs(s->st, ruleset, &s->cached);
		if (ret)
			return ret;
		s->cached_loaded = true;
	}
	if (git_commit_tree(&tree, p->commit) < 0)
		return kmig_err_git("cannot read tree");
	ret = scan_tree_files(&p->files, &p->maint_oid, tree);
	git_tree_free(tree);
	if (ret)
		return ret;
	ret = maint_cache_get(&s->maint, s->repo, &p->maint_oid, &p->maint);
	if (ret)
		return ret;
	if (!p->maint || !maintainers_count(p->maint))
		fprintf(stderr, "warning: %s: %s: every file is in %s\n", tag,
			p->maint ? "MAINTAINERS has no sections" :
				   "no top-level MAINTAINERS file",
			MAINTAINERS_NONE);
	if (p->maint && maintainers_ignored(p->maint))
		fprintf(stderr, "warning: %s: MAINTAINERS: %zu malformed lines ignored\n",
			tag, maintainers_ignored(p->maint));

	/*
	 * The blobs nobody lexed: not in the cache, not queued by an earlier
	 * release of this run (the set holds both from here on).
	 */
	p->todo = xcalloc(p->files.n ? p->files.n : 1, sizeof(*p->todo));
	for (i = 0; i < p->files.n; i++) {
		const git_oid *oid = &p->files.v[i].oid;

		if (oidset_add(&s->cached, oid))
			git_oid_cpy(&p->todo[p->ntodo++], oid);
	}
	/*
	 * In blob id order, as the blob tables are keyed: each row lands
	 * next to the one before instead of on a random page (the workers
	 * read them in pack order whatever this order is).
	 */
	qsort(p->todo, p->ntodo, sizeof(*p->todo), cmp_oid);
	p->results = xcalloc(p->ntodo ? p->ntodo : 1, sizeof(*p->results));
	p->bytes = xcalloc(p->ntodo ? p->ntodo : 1, sizeof(*p->bytes));
	p->facts = xcalloc(p->ntodo ? p->ntodo : 1, sizeof(*p->facts));
	if (!p->ntodo)
		return 0;
	if (!s->pool) {
		ret = scan_pool_start(&s->pool, git_repository_path(s->repo),
				      s->jobs);
		if (ret)
			return ret;
	}
	p->batch = scan_pool_submit(s->pool, p->todo, p->ntodo, p->results,
				    p->bytes, p->facts);
	return 0;
}

/*
 * "debian-changelog" when kmig import dated @commit from the package's
 * Debian changelog (its message's Date-Source trailer), else NULL.
 */
static const char *date_source(git_commit *commit)
{
	static const char trailer[] = "\nDate-Source: debian-changelog\n";
	const char *msg = git_commit_message(commit);

	return msg && strstr(msg, trailer) ? "debian-changelog" : NULL;
}

/*
 * The Unix time of @commit's "Line-Date:" trailer (kmig import: the first
 * Debian release of the kernel line), or 0.
 */
static long long line_date(git_commit *commit)
{
	static const char trailer[] = "\nLine-Date: ";
	const char *msg = git_commit_message(commit), *p;

	p = msg ? strstr(msg, trailer) : NULL;
	return p ? strtoll(p + strlen(trailer), NULL, 10) : 0;
}

/*
 * The release's graph computed in a thread while the writing thread
 * records its file rows (reach_release_prepare(): the cache and the plan's
 * file list only, no store).
 */
struct graph_job {
	struct scan_state *s;
	const struct release_plan *p;
	struct reach_prep *prep;	/* NULL: the store is needed */
	int ret;
	char *err;
	double waited;			/* the writing thread's, for the graph */
};

/* Are @f's paths in strcmp() order, each once (release_files() needs it)? */
static bool files_sorted(const struct scan_files *f)
{
	size_t i;

	for (i = 1; i < f->n; i++)
		if (strcmp(f->v[i - 1].path, f->v[i].path) >= 0)
			return false;
	return true;
}

static void *graph_job_run(void *data)
{
	struct graph_job *j = data;
	size_t n = j->p->files.n, i;
	const struct scan_file **f = xcalloc(n ? n : 1, sizeof(*f));
	const char **paths = xcalloc(n ? n : 1, sizeof(*paths));
	const git_oid **oids = xcalloc(n ? n : 1, sizeof(*oids));

	for (i = 0; i < n; i++)
		f[i] = &j->p->files.v[i];
	/*
	 * in the store's order (byte order of the paths), as reach_release():
	 * a tree walk gives them so (git orders a tree's entries as their
	 * paths), and a sort of sorted paths still cost the graph ~10 ms
	 */
	if (!files_sorted(&j->p->files))
		qsort(f, n, sizeof(*f), scan_file_cmp);
	for (i = 0; i < n; i++) {
		paths[i] = f[i]->path;
		oids[i] = &f[i]->oid;
	}
	j->ret = reach_release_prepare(paths, oids, n, rules_hash(),
				       j->s->reach_depth, j->s->graphs,
				       &j->prep);
	if (j->ret)	/* kmig_err()'s message is the thread's own */
		j->err = xstrdup(kmig_errmsg());
	free(oids);
	free(paths);
	free(f);
	return NULL;
}

/*
 * The facts of the release's blobs that the graphs' cache lacks (a file
 * back at an earlier release's blob, trimmed since), from the store before
 * the graph's thread starts: it reads no store.
 */
static int load_graph_facts(struct scan_state *s, const struct release_plan *p)
{
	size_t n = p->files.n, i;
	const git_oid **oids = xcalloc(n ? n : 1, sizeof(*oids));
	int ret;

	for (i = 0; i < n; i++)
		oids[i] = &p->files.v[i].oid;
	ret = reach_cache_load(s->graphs, s->st, rules_hash(), oids, n);
	free(oids);
	return ret;
}

/*
 * Keep only the graphs' cached facts that release @next uses, before its
 * lexing is waited for: its graph would drop the others anyway.  At a new
 * line that frees most of the cache (and its names) while the workers lex
 * the line's new blobs, when the scan's memory peaks.  A release with
 * nothing to write (up to date, or only its graph again) leaves the cache
 * as it is: the one after it may use them.
 */
static void graph_cache_narrow(struct scan_state *s,
			       const struct release_plan *next)
{
	size_t before, i;

	if (next->skip)
		return;
	graph_cache_restore_wait(s);
	before = reach_cache_blobs(s->graphs);
	for (i = 0; i < next->files.n; i++)
		reach_cache_mark(s->graphs, &next->files.v[i].oid);
	reach_cache_trim(s->graphs);
	if (reach_cache_blobs(s->graphs) < before - before / 4)
		reach_cache_compact(s->graphs);
}

/*
 * The graphs' cache for release @p's graph, keeping only the facts of its
 * files: for a release that lexes most of them (a new line) the cache
 * would otherwise hold two releases.
 */
static void graph_cache_restore(struct scan_state *s, struct release_plan *p)
{
	graph_cache_restore_start(s);
	if (graph_cache_restore_wait(s))
		graph_cache_narrow(s, p);
}

static void *graph_cache_save_run(void *data)
{
	struct scan_state *s = data;
	double t0 = mono_now();

	s->save_ret = reach_cache_save(s->graphs, s->image, release_hash());
	if (s->save_ret)	/* kmig_err()'s message is the thread's own */
		s->save_err = xstrdup(kmig_errmsg());
	s->save_secs = mono_now() - t0;
	return NULL;
}

/*
 * The graphs' cache for the next run, written in a thread once the run's
 * last graph is made: beside that release's counts and commit, which do
 * not use the graphs.  graph_cache_save() waits for it.
 */
static void graph_cache_save_start(struct scan_state *s)
{
	if (!s->image_dirty || s->save_busy)
		return;
	s->save_busy = !pthread_create(&s->save_tid, NULL,
				       graph_cache_save_run, s);
}

/* The graphs' cache for the next run, when this one made a graph. */
static void graph_cache_save(struct scan_state *s)
{
	if (s->save_busy) {
		pthread_join(s->save_tid, NULL);
		s->save_busy = false;
	} else if (s->image_dirty) {
		graph_cache_save_run(s);
	} else {
		return;
	}
	s->image_dirty = false;
	if (s->save_ret)
		fprintf(stderr, "kmig: warning: graph cache not saved: %s\n",
			s->save_err);
	else
		progress_note("graph cache: the facts of %zu blobs saved to '%s' (%.2fs)\n",
			      reach_cache_blobs(s->graphs), s->image,
			      s->save_secs);
	free(s->save_err);
	s->save_err = NULL;
}

/*
 * The release's call graph from the cache: which WARN sites are reached.
 * @job (may be NULL): the graph prepared beside the file rows.
 */
static int release_graph(struct scan_state *s, const char *tag, long long rel,
			 struct graph_job *job)
{
	struct reach_stats st = { 0 };
	double t0 = mono_now() - (job ? job->waited : 0);
	bool prepared = job && job->prep;
	char how[64];
	int ret;

	if (job && job->ret)
		return kmig_errcode(job->ret, "%s", job->err);
	s->image_dirty = true;
	if (prepared) {
		ret = reach_release_write(s->st, rel, s->reach_depth, s->graphs,
					  job->prep, &st);
		job->prep = NULL;
	} else {
		ret = reach_release(s->st, rel, s->reach_depth, s->graphs, &st);
	}
	if (ret)
		return ret;
	if (st.sites_joined)
		snprintf(how, sizeof(how), "joined in the store");
	else
		snprintf(how, sizeof(how), "from memory%s and %zu blobs read",
			 prepared ? " beside the file rows" : "", st.sites_read);
	progress_note("%s: call graph: %zu entry points, %zu functions within %u calls, %zu WARN sites reached, sites %s (%.2fs)\n",
		      tag, st.entries, st.reached, s->reach_depth, st.sites,
		      how, mono_now() - t0);
	return 0;
}

/* Blob @oid as just lexed, its facts @z and sites, into the graphs' cache. */
static int graph_cache_add(struct scan_state *s, const git_oid *oid,
			   const struct facts_z *z,
			   const struct site_list *sites)
{
	struct sbuf text = SBUF_INIT;
	int ret = 0;

	if (z->len) {
		if (!s->unpack)
			s->unpack = facts_packer_new();
		ret = facts_unpack(s->unpack, z->data, z->zlen, z->len, &text);
	}
	if (!ret)
		reach_cache_add(s->graphs, oid, z->len ? text.buf : NULL,
				sites);
	sbuf_release(&text);
	return ret;
}

static void base_clear(struct scan_base *b)
{
	scan_files_clear(&b->files);
	free(b->tag);
	memset(b, 0, sizeof(*b));
}

/*
 * Release @rel (@tag) is the base; @files (moved from, or NULL) its files,
 * @commit (or NULL) its commit.
 */
static void base_set(struct scan_state *s, long long rel, const char *tag,
		     struct scan_files *files, const git_commit *commit)
{
	base_clear(&s->base);
	s->base.rel = rel;
	s->base.tag = xstrdup(tag);
	if (commit)
		git_oid_cpy(&s->base.tree, git_commit_tree_id(commit));
	if (files) {
		s->base.files = *files;
		memset(files, 0, sizeof(*files));
		s->base.loaded = true;
	}
}

static int base_add_file(void *data, const char *path, const char *oid,
			 const char *ruleset)
{
	struct scan_files *f = data;
	struct scan_file *e;

	(void)ruleset;
	ALLOC_GROW(f->v, f->n + 1, f->alloc);
	e = &f->v[f->n];
	if (git_oid_fromstr(&e->oid, oid) < 0)
		return kmig_err("release file '%s': bad blob id '%s'", path, oid);
	e->path = xstrdup(path);
	f->n++;
	return 0;
}

/*
 * The paths of @a and @b (each in path order) that are in one only or
 * have another blob, into *@out (pointers into the lists, the caller
 * frees the array); false when a list is not in path order.
 */
static bool files_diff(const struct scan_files *a, const struct scan_files *b,
		       const char ***out, size_t *n)
{
	size_t i = 0, j = 0, alloc = 0;
	int c;

	*out = NULL;
	*n = 0;
	if (!files_sorted(a) || !files_sorted(b))
		return false;
	while (i < a->n || j < b->n) {
		c = i == a->n ? 1 : j == b->n ? -1 :
		    strcmp(a->v[i].path, b->v[j].path);
		ALLOC_GROW(*out, *n + 1, alloc);
		if (c < 0) {
			(*out)[(*n)++] = a->v[i++].path;
		} else if (c > 0) {
			(*out)[(*n)++] = b->v[j++].path;
		} else {
			if (!git_oid_equal(&a->v[i].oid, &b->v[j].oid))
				(*out)[(*n)++] = b->v[j].path;
			i++;
			j++;
		}
	}
	return true;
}

/*
 * base_changes() from the base's tree when its files were not read in
 * this run (a point release in a run of its own): the subtrees that
 * differ, not the base's 58,000 file rows read back from the database.
 */
static int tree_changes(struct scan_state *s, struct release_plan *p)
{
	git_tree *a = NULL, *b = NULL;
	size_t i;
	int ret = 0;

	if (git_tree_lookup(&a, s->repo, &s->base.tree) < 0 ||
	    git_commit_tree(&b, p->commit) < 0) {
		ret = kmig_err_git("cannot read tree");
		goto out_free_trees;
	}
	ret = scan_tree_changes(s->repo, a, b, &p->own, &p->nown);
	if (ret)
		goto out_free_trees;
	p->changed = xcalloc(p->nown ? p->nown : 1, sizeof(*p->changed));
	for (i = 0; i < p->nown; i++)
		p->changed[i] = p->own[i];
	p->nchanged = p->nown;
	p->from_base = files_sorted(&p->files) && p->nchanged <= p->files.n / 4;
out_free_trees:
	git_tree_free(a);
	git_tree_free(b);
	return ret;
}

/*
 * Whether release @p is written from the base (p->from_base): a quarter
 * of its files or fewer changed since (a point release after the one
 * before it), p->changed the paths new, gone or with another blob.
 */
static int base_changes(struct scan_state *s, struct release_plan *p)
{
	int ret;

	if (!s->base.rel)
		return 0;
	if (!s->base.loaded && !git_oid_is_zero(&s->base.tree) && p->commit)
		return tree_changes(s, p);
	if (!s->base.loaded) {
		ret = store_release_blobs(s->st, s->base.rel, base_add_file,
					  &s->base.files);
		if (ret)
			return ret;
		s->base.loaded = true;
	}
	p->from_base = files_diff(&s->base.files, &p->files, &p->changed,
				  &p->nchanged) &&
		       p->nchanged <= p->files.n / 4;
	return 0;
}

/* The file rows release_files() hands to store_release_files() at once. */
#define FILE_BATCH 256

/*
 * Release @p's file rows, FILE_BATCH at a time: the base's rows shared
 * for the files it did not change, when it can (store_release_files_from()),
 * and a tombstone for each file gone; else every file's.
 */
static int release_files(struct scan_state *s, struct release_plan *p,
			 long long rel)
{
	struct store_file batch[FILE_BATCH];
	char hex[FILE_BATCH][GIT_OID_HEXSZ + 1];
	const char **gone = NULL;
	bool copied = false;
	size_t i, c = 0, k = 0, written = 0, ngone = 0, agone = 0;
	int ret = 0;

	if (p->from_base) {
		ret = store_release_files_from(s->st, rel, s->base.rel,
					       p->changed, p->nchanged, &copied);
		if (ret)
			return ret;
	}
	for (i = 0; i < p->files.n; i++) {
		const struct scan_file *f = &p->files.v[i];

		if (copied) {	/* both in path order */
			while (c < p->nchanged && strcmp(p->changed[c], f->path) < 0) {
				ALLOC_GROW(gone, ngone + 1, agone);
				gone[ngone++] = p->changed[c++];
			}
			if (c == p->nchanged || strcmp(p->changed[c], f->path))
				continue;
			c++;
		}
		git_oid_tostr(hex[k], sizeof(hex[k]), &f->oid);
		batch[k].path = f->path;
		batch[k].oid = hex[k];
		batch[k].subsystem = p->maint ?
			maintainers_match(p->maint, f->path) :
			MAINTAINERS_NONE;
		written++;
		if (++k == FILE_BATCH) {
			ret = store_release_files(s->st, rel, batch, k);
			if (ret)
				goto out_free_gone;
			k = 0;
		}
	}
	if (k)
		ret = store_release_files(s->st, rel, batch, k);
	for (; copied && c < p->nchanged; c++) {
		ALLOC_GROW(gone, ngone + 1, agone);
		gone[ngone++] = p->changed[c];
	}
	if (!ret && copied)
		ret = store_release_files_gone(s->st, rel, s->base.rel, gone, ngone);
	if (!ret && copied)
		progress_note("%s: file rows shared with %s; %zu files changed, %zu rows written, %zu gone\n",
			      p->tag, s->base.tag, p->nchanged, written, ngone);
out_free_gone:
	free(gone);
	return ret;
}

/*
 * Count release @rel: from the base's counts when p->from_base, else from
 * every file's sites.  Both give the same rows.
 */
static int finish_release(struct scan_state *s, struct release_plan *p,
			  long long rel)
{
	int ret;

	if (!p->from_base)
		return store_release_finish(s->st, rel, (long long)p->files.n);
	ret = store_release_finish_from(s->st, rel, s->base.rel,
					p->changed, p->nchanged,
					(long long)p->files.n);
	if (!ret)
		progress_note("%s: counts from %s; changed files counted again: %zu\n",
			      p->tag, s->base.tag, p->nchanged);
	return ret;
}

/* The count of rule @rule in release @rel into *@out (0: no use). */
static int rule_count(struct store *st, long long rel, const char *rule,
		      long long *out)
{
	struct count_rows rows = { 0 };
	size_t i;
	int ret;

	*out = 0;
	ret = store_counts(st, rel, BY_RULE, rule, NULL, &rows);
	for (i = 0; !ret && i < rows.n; i++)
		*out += rows.v[i].count;
	count_rows_clear(&rows);
	return ret;
}

static const char *maint_section(const void *data, const char *path)
{
	return data ? maintainers_match(data, path) : MAINTAINERS_NONE;
}

/*
 * A release counted by another kmig: its files' sections again from its
 * MAINTAINERS (kmig's reading of it may have changed: N: as Perl reads
 * it), *@moved counting the files whose section changed.
 */
static int resection_release(struct scan_state *s, struct release_plan *p,
			     size_t *moved)
{
	const struct maintainers *m = NULL;
	char *hex = NULL;
	git_oid oid;
	int ret = store_release_maintainers(s->st, p->regraph, &hex);

	if (!ret && hex) {
		if (git_oid_fromstr(&oid, hex) < 0)
			ret = kmig_err("database '%s': release %s: bad MAINTAINERS id '%s'",
				       store_path(s->st), p->tag, hex);
		else
			ret = maint_cache_get(&s->maint, s->repo, &oid, &m);
	}
	free(hex);
	if (!ret)
		ret = store_release_subsystems(s->st, p->regraph, maint_section,
					       m, moved);
	return ret;
}

/*
 * A release scanned at another --reach-depth, or counted by another
 * release step (release_hash()): its graph and counts again, from the
 * blobs' cached sites and facts.  At another depth a WARN site may count
 * under the other of warn-on and warn-on-user: the line gives both.
 */
static int regraph_release(struct scan_state *s, struct release_plan *p)
{
	long long user = 0, warn = 0;
	size_t moved = 0;
	int ret = store_begin(s->st);

	if (ret)
		return ret;
	graph_cache_restore(s, p);	/* lexes none */
	if (p->recount)
		ret = resection_release(s, p, &moved);
	if (!ret)
		ret = store_reach_clear(s->st, p->regraph);
	if (!ret)
		ret = release_graph(s, p->tag, p->regraph, NULL);
	if (!ret)
		ret = store_release_finish(s->st, p->regraph, p->regraph_files);
	if (ret) {
		store_rollback(s->st);
		return ret;
	}
	ret = store_commit(s->st);
	if (!ret && !p->recount)
		ret = rule_count(s->st, p->regraph, "warn-on-user", &user);
	if (!ret && !p->recount)
		ret = rule_count(s->st, p->regraph, "warn-on", &warn);
	if (ret)
		return ret;
	if (p->recount && moved)
		printf("%s: counted again from its cached blobs (kmig's counting changed), %zu file%s in another MAINTAINERS section\n",
		       p->tag, moved, moved == 1 ? "" : "s");
	else if (p->recount)
		printf("%s: counted again from its cached blobs (kmig's counting changed)\n",
		       p->tag);
	else
		printf("%s: call graph again (reach depth %u), counted again: %lld warn-on-user, %lld warn-on\n",
		       p->tag, s->reach_depth, user, warn);
	base_set(s, p->regraph, p->tag, NULL, p->commit);
	return 0;
}

/*
 * The new blobs' facts into the graphs' cache (graph_cache_add(): unpack
 * and parse each) in a thread of its own while the writing thread stores
 * the same blobs: the two take about as long.  Only for the run's last
 * release, with FILL_MIN new blobs or more: the workers have nothing left
 * to lex then, so the thread has a core, and the results of releases
 * lexed ahead are not in memory (earlier in a cold scan of 21 releases the
 * thread saved 1-2 s but its allocations, in a malloc arena of their own,
 * took the peak resident set from 292 to 299-301 MB).  @done is how many
 * it has taken, so the writer frees the results behind both.
 */
#define FILL_MIN 256

struct cache_fill {
	struct scan_state *s;
	struct release_plan *p;
	size_t done;		/* __atomic: blobs taken */
	bool stop;		/* __atomic: the writer failed, give up */
	int ret;
	char *err;
};

static void *cache_fill_run(void *data)
{
	struct cache_fill *f = data;
	size_t i;

	for (i = 0; i < f->p->ntodo && !__atomic_load_n(&f->stop, __ATOMIC_RELAXED);
	     i++) {
		f->ret = graph_cache_add(f->s, &f->p->todo[i], &f->p->facts[i],
					 &f->p->results[i]);
		if (f->ret) {	/* kmig_err()'s message is the thread's own */
			f->err = xstrdup(kmig_errmsg());
			break;
		}
		__atomic_store_n(&f->done, i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* Release @p's blobs [*@from, @to) are stored and in the cache: free them. */
static void blobs_free(struct release_plan *p, size_t *from, size_t to)
{
	for (; *from < to; (*from)++) {
		site_list_clear(&p->results[*from]);
		facts_z_clear(&p->facts[*from]);
	}
}

static int write_release(struct scan_state *s, struct release_plan *p)
{
	const char *ruleset = rules_hash();
	struct progress *prog = NULL;
	struct count_rows rows = { 0 };
	char maint_hex[GIT_OID_HEXSZ + 1];
	uint64_t total_bytes = 0;
	long long rel, uses = 0;
	double t0, tl, t1, t2, t3, secs, restored;
	struct graph_job job = { 0 };
	struct cache_fill fill = { 0 };
	bool threaded, filling;
	pthread_t tid, fill_tid;
	size_t i, freed = 0, taken, beside = 0;
	int ret = 0;

	if (p->recommit) {	/* the new commit, with its own dates */
		ret = store_begin(s->st);
		if (ret)
			return ret;
		ret = store_release_recommit(s->st, p->tag, p->recommit,
					     p->commit_hex);
		if (!ret)
			ret = store_release_date(s->st, p->old_id,
						 (long long)git_commit_time(p->commit));
		if (!ret)
			ret = store_release_dates(s->st, p->old_id,
						  date_source(p->commit),
						  line_date(p->commit));
		if (ret) {
			store_rollback(s->st);
			return ret;
		}
		ret = store_commit(s->st);
		if (ret)
			return ret;
	}
	if (p->regraph)
		return regraph_release(s, p);
	if (p->skip) {
		if (p->skip_line)
			printf("%s: %s\n", p->tag, p->skip_line);
		if (p->old_id)
			base_set(s, p->old_id, p->tag, NULL, p->commit);
		return 0;
	}
	t0 = mono_now();
	if (p->batch) {
		prog = progress_start(p->tag, p->ntodo);
		ret = scan_pool_wait(s->pool, p->batch, prog, &beside);
		p->batch = NULL;
		progress_stop(prog);
		if (ret)
			return ret;
	}
	secs = mono_now() - t0;

	/* the graph's time, not the blobs' */
	restored = mono_now();
	graph_cache_restore(s, p);
	restored = mono_now() - restored;
	ret = store_begin(s->st);
	if (ret)
		return ret;
	git_oid_tostr(maint_hex, sizeof(maint_hex), &p->maint_oid);
	ret = store_release_start(s->st, &rel, p->tag, p->commit_hex,
				  (long long)git_commit_time(p->commit), ruleset,
				  p->maint ? maint_hex : NULL);
	if (!ret)
		ret = store_release_dates(s->st, rel, date_source(p->commit),
					  line_date(p->commit));
	fill.s = s;
	fill.p = p;
	filling = p->last && p->ntodo >= FILL_MIN &&
		  !pthread_create(&fill_tid, NULL, cache_fill_run, &fill);
	for (i = 0; !ret && i < p->ntodo; i++) {
		ret = store_blob_put(s->st, repo_oid_str(&p->todo[i]), ruleset,
				     p->bytes[i], &p->results[i]);
		if (!ret)
			ret = store_blob_funcs_put_z(s->st,
						     repo_oid_str(&p->todo[i]),
						     ruleset, &p->facts[i]);
		if (!ret && !filling)
			ret = graph_cache_add(s, &p->todo[i], &p->facts[i],
					      &p->results[i]);
		/* stored and in the cache: nothing reads them again */
		taken = filling ? __atomic_load_n(&fill.done, __ATOMIC_ACQUIRE) :
				  i + 1;
		blobs_free(p, &freed, taken < i + 1 ? taken : i + 1);
		total_bytes += p->bytes[i];
	}
	if (filling) {
		if (ret)
			__atomic_store_n(&fill.stop, true, __ATOMIC_RELAXED);
		pthread_join(fill_tid, NULL);
		if (!ret && fill.ret)
			ret = kmig_errcode(fill.ret, "%s", fill.err);
		free(fill.err);
	}
	blobs_free(p, &freed, p->ntodo);
	job.s = s;
	job.p = p;
	tl = mono_now();
	if (!ret)
		ret = load_graph_facts(s, p);
	t1 = mono_now();
	/* the facts read and the wait for the thread: the graph's time */
	job.waited = t1 - tl + restored;
	threaded = !ret && !pthread_create(&tid, NULL, graph_job_run, &job);
	if (!ret)
		ret = base_changes(s, p);
	if (!ret)
		ret = release_files(s, p, rel);
	/* the base's file counts too, while the graph's thread runs */
	if (!ret && p->from_base)
		ret = store_release_counts_copy(s->st, rel, s->base.rel,
						p->changed, p->nchanged);
	t2 = mono_now();
	if (threaded) {
		pthread_join(tid, NULL);
		job.waited += mono_now() - t2;
	}
	if (!ret)
		ret = release_graph(s, p->tag, rel, threaded ? &job : NULL);
	if (!ret && p->last)
		graph_cache_save_start(s);	/* nothing uses the graphs now */
	reach_prep_free(job.prep);
	free(job.err);
	t3 = mono_now();
	if (!ret)
		ret = finish_release(s, p, rel);
	if (ret) {
		store_rollback(s->st);
		return ret;
	}
	ret = store_commit(s->st);
	if (ret)
		return ret;
	progress_note("%s: wrote %zu blobs in %.2fs, %zu files in %.2fs, counts and commit in %.2fs\n",
		      p->tag, p->ntodo, tl - t0 - secs - restored, p->files.n, t2 - t1,
		      mono_now() - t3);
	s->lexed += p->ntodo;
	s->lexed_bytes += total_bytes;
	if (!store_counts(s->st, rel, BY_RULE, NULL, NULL, &rows))
		for (i = 0; i < rows.n; i++)
			uses += rows.v[i].count;
	count_rows_clear(&rows);
	/* the wait only: the other release's lexing overlaps */
	printf("%s: %zu files, %zu blobs lexed, %lld uses\n", p->tag,
	       p->files.n, p->ntodo, uses);
	if (beside)
		progress_note("%s: %zu blobs lexed beside their delta bases, read for the release before\n",
			      p->tag, beside);
	progress_note("%s: lexed %.1f MB, waited %.2fs for the lexer\n", p->tag,
		total_bytes / 1e6, secs);
	base_set(s, rel, p->tag, &p->files, p->commit);
	return 0;
}

/*
 * The releases' deprecated.rst sections and defined replacements
 * (relinfo.h): stored ones of the same content are reused, so a warm
 * re-scan reads no header, and a release with a changed include/ reads
 * only the header blobs no scan read before (relinfo_headers).
 */
static void *relinfo_job_run(void *data)
{
	struct scan_state *s = data;
	struct relinfo_job *j = &s->rjob;
	git_tree *tree = NULL;
	double t0 = mono_now();

	/* repo_open(): a truncated loose object is an error, not a hang */
	j->ret = j->repo ? 0 :
		 repo_open(&j->repo, git_repository_path(s->repo));
	if (!j->ret && git_tree_lookup(&tree, j->repo, &j->tree) < 0)
		j->ret = kmig_err_git("cannot read tree");
	if (!j->ret)
		j->ret = relinfo_read_tree(&j->ri, j->repo, tree, &s->relinfo);
	git_tree_free(tree);
	if (j->ret)	/* kmig_err()'s message is the thread's own */
		j->err = xstrdup(kmig_errmsg());
	j->secs = mono_now() - t0;
	return NULL;
}

/*
 * The facts of release @p (relinfo.h): when the store has none of its
 * key, its tree is read in a thread beside the release's write, which
 * scan_relinfo() waits for; else there, as when the thread cannot start.
 */
static int relinfo_job_start(struct scan_state *s, struct release_plan *p)
{
	struct relinfo_job *j = &s->rjob;
	git_tree *tree = NULL;
	int ret;

	if (git_commit_tree(&tree, p->commit) < 0)
		return kmig_err_git("cannot read tree");
	ret = relinfo_scan_prepare(s->st, tree, &s->relinfo, j->key, &j->ri,
				   &j->have);
	git_oid_cpy(&j->tree, git_tree_id(tree));
	git_tree_free(tree);
	if (ret || j->have)
		return ret;
	j->nread = s->relinfo.nread;
	j->busy = !pthread_create(&j->tid, NULL, relinfo_job_run, s);
	return 0;
}

/* Wait for the thread relinfo_job_start() started, if any. */
static void relinfo_job_wait(struct scan_state *s)
{
	if (!s->rjob.busy)
		return;
	pthread_join(s->rjob.tid, NULL);
	s->rjob.busy = false;
}

/*
 * The release's deprecated.rst sections and defined replacements, read
 * by relinfo_job_start()'s thread (or here, without one), stored.
 */
static int scan_relinfo(struct scan_state *s, struct release_plan *p)
{
	struct relinfo_job *j = &s->rjob;
	int ret;

	if (j->busy)
		relinfo_job_wait(s);
	else if (!j->have)
		relinfo_job_run(s);
	if (!j->have && j->ret) {
		ret = kmig_errcode(j->ret, "%s", j->err);
		free(j->err);
		j->err = NULL;
		return ret;
	}
	ret = relinfo_scan_store(s->st, p->tag, j->key, &j->ri, j->have,
				 &s->relinfo);
	if (!ret && !j->have)
		progress_note("%s: read deprecated.rst and include/ (%zu headers not read before) in %.2fs\n",
			      p->tag, s->relinfo.nread - j->nread, j->secs);
	return ret;
}

static int cmd_scan_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tags", required_argument, NULL, 't' },
		{ "include-rc", no_argument, NULL, 'r' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "reach-depth", required_argument, NULL, 'd' },
		{ "prune", no_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct scan_state s = { 0 };
	struct release_plan plan[PLAN_AHEAD + 1] = { 0 };
	struct release_info *old = NULL;
	char **globs = NULL, **tags = NULL;
	size_t nglobs = 0, aglobs = 0, ntags = 0, nrc = 0, planned = 0, nold = 0, i;
	bool include_rc = false, prune = false;
	unsigned long n;
	int opt, status = KMIG_EXIT_ERROR;

	s.ctx = ctx;
	s.jobs = ncpus();
	s.reach_depth = REACH_DEFAULT_DEPTH;
	while ((opt = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			if (!*optarg) {
				free(globs);
				return cmd_usage_error("scan", "--tags: empty pattern");
			}
			ALLOC_GROW(globs, nglobs + 1, aglobs);
			globs[nglobs++] = optarg;
			break;
		case 'r':
			include_rc = true;
			break;
		case 'p':
			prune = true;
			break;
		case 'j':
			if (opt_uint("scan", "--jobs", optarg, 1, KMIG_MAX_JOBS, &n)) {
				free(globs);
				return KMIG_EXIT_ERROR;
			}
			s.jobs = (int)n;
			break;
		case 'd':
			if (opt_uint("scan", "--reach-depth", optarg, 0,
				     REACH_MAX_DEPTH, &n)) {
				free(globs);
				return KMIG_EXIT_ERROR;
			}
			s.reach_depth = (unsigned int)n;
			break;
		default:
			free(globs);
			return cmd_bad_option("scan", argv);
		}
	}
	if (optind < argc) {
		free(globs);
		return cmd_usage_error("scan", "unexpected argument '%s'", argv[optind]);
	}
	scan_tune_libgit2();
	if (repo_open(&s.repo, ctx->repo_path)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	/* no tags: an error before the database is created */
	if (list_tags(s.repo, globs, nglobs, include_rc, &tags, &ntags, &nrc)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	/* --prune of a repository without tags: the pruning only */
	if (!ntags && nrc && !prune) {
		cmd_fail(KMIG_EXIT_ERROR, "no release tags to scan in '%s' (%zu -rc tag%s left out: --include-rc scans them)",
			 ctx->repo_path, nrc, nrc == 1 ? "" : "s");
		goto out;
	}
	if (!ntags && !prune) {
		cmd_fail(KMIG_EXIT_ERROR, "no release tags to scan in '%s'",
			 ctx->repo_path);
		goto out;
	}
	if (store_open(&s.st, ctx->db_path) || store_scan_tune(s.st)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	if (store_releases(s.st, &old, &nold)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	if (prune_gone(&s, old, nold, prune, &i)) {
		release_infos_free(old, nold);
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	s.later = i > 0;
	release_infos_free(old, nold);
	if (!ntags) {		/* --prune, and nothing to scan */
		status = finish_stdout(KMIG_EXIT_OK);
		goto out;
	}
	store_checkpoint_behind(s.st);
	s.graphs = reach_cache_new();
	s.image = xasprintf("%s-graph", ctx->db_path);
	/*
	 * Plan up to PLAN_AHEAD releases beyond the one being written: the
	 * writes of releases with few new blobs then overlap the lexing of
	 * the next large one.
	 */
	for (i = 0; i < ntags; i++) {
		struct release_plan *cur = &plan[i % ARRAY_SIZE(plan)];

		while (planned < ntags && planned <= i + PLAN_AHEAD) {
			progress_note("[%zu/%zu] scanning %s\n", planned + 1,
				ntags, tags[planned]);
			if (plan_release(&s, tags[planned],
					 &plan[planned % ARRAY_SIZE(plan)])) {
				cmd_fail(KMIG_EXIT_ERROR, "scan of %s failed: %s",
					 tags[planned], kmig_errmsg());
				goto out_plans;
			}
			planned++;
		}
		cur->last = i + 1 == ntags;
		if ((cur->commit && relinfo_job_start(&s, cur)) ||
		    write_release(&s, cur) ||
		    (cur->commit && scan_relinfo(&s, cur))) {
			cmd_fail(KMIG_EXIT_ERROR, "scan of %s failed: %s", tags[i],
				 kmig_errmsg());
			goto out_plans;
		}
		fflush(stdout);
		plan_clear(&s, cur);
		if (i + 1 < planned)
			graph_cache_narrow(&s,
					   &plan[(i + 1) % ARRAY_SIZE(plan)]);
	}
	graph_cache_save(&s);
	{
		long long pruned;

		if (store_prune_blobs(s.st, &pruned)) {
			cmd_fail_last(KMIG_EXIT_ERROR);
			goto out;
		}
		if (pruned)
			progress_note("pruned %lld blobs cached under older rules\n",
				pruned);
	}
	progress_note("%zu releases, %llu blobs lexed (%.1f MB)\n", ntags,
		(unsigned long long)s.lexed, s.lexed_bytes / 1e6);
	status = finish_stdout(KMIG_EXIT_OK);
out_plans:
	for (i = 0; i < ARRAY_SIZE(plan); i++)
		plan_clear(&s, &plan[i]);
out:
	scan_pool_stop(s.pool);
	maint_cache_release(&s.maint);
	free_strv(tags, ntags);
	free(globs);
	oidset_clear(&s.cached);
	relinfo_job_wait(&s);	/* it uses the cache */
	relinfo_cache_clear(&s.relinfo);
	free(s.rjob.err);
	git_repository_free(s.rjob.repo);
	graph_cache_restore_wait(&s);
	if (s.save_busy)	/* a failed run: its cache is written all the same */
		graph_cache_save(&s);
	reach_cache_free(s.graphs);
	free(s.image);
	facts_packer_free(s.unpack);
	base_clear(&s.base);
	store_close(s.st);
	git_repository_free(s.repo);
	return status;
}

const struct kmig_cmd cmd_scan = {
	.name = "scan",
	.fn = cmd_scan_fn,
	.summary = "count deprecated API uses per release, subsystem and file",
	.usage = usage,
};
