// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-scan.c - count every deprecated-API use per release, subsystem and
 * file; blobs already lexed under the same rule set are never lexed again.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kmig.h"
#include "maintainers.h"
#include "maintcache.h"
#include "oidset.h"
#include "repo.h"
#include "rules.h"
#include "scan.h"
#include "store.h"

static const char usage[] =
	"usage: kmig scan [--tags GLOB]... [--include-rc] [--jobs N]\n"
	"\n"
	"Scan release tags (default: every tag matching v[0-9]* except -rc tags,\n"
	"in version order): count every rule's uses per release, per subsystem\n"
	"(that release's MAINTAINERS) and per file, and record the use sites.\n"
	"Only blobs never lexed under the current rule set are lexed; each\n"
	"release is committed on its own, so an interrupted scan resumes.\n"
	"\n"
	"  --tags GLOB     scan tags matching GLOB (repeatable)\n"
	"  --include-rc    include -rc tags\n"
	"  --jobs N        lexer threads (default: CPUs)\n"
	"\n"
	"Prints one line per release: tag, files, blobs lexed, uses.\n";

struct scan_state {
	struct kmig_ctx *ctx;
	git_repository *repo;
	struct store *st;
	struct oidset cached;
	bool cached_loaded;	/* read on the first release to lex */
	struct maint_cache maint;
	int jobs;
	uint64_t lexed, lexed_bytes;
};

static int cmp_tags(const void *a, const void *b)
{
	return version_cmp(*(char *const *)a, *(char *const *)b);
}

static int list_tags(git_repository *repo, char **globs, size_t nglobs,
		     bool include_rc, char ***out, size_t *n)
{
	static char *dflt = "v[0-9]*";
	size_t i, j, alloc = 0;

	*out = NULL;
	*n = 0;
	if (!nglobs) {
		globs = &dflt;
		nglobs = 1;
	}
	for (i = 0; i < nglobs; i++) {
		git_strarray tags = { 0 };

		if (git_tag_list_match(&tags, globs[i], repo) < 0)
			return kmig_err_git("cannot list tags");
		for (j = 0; j < tags.count; j++) {
			const char *t = tags.strings[j];
			size_t k;
			bool dup = false;

			if (!include_rc && strstr(t, "-rc"))
				continue;
			for (k = 0; k < *n; k++)
				if (!strcmp((*out)[k], t))
					dup = true;
			if (dup)
				continue;
			ALLOC_GROW(*out, *n + 1, alloc);
			(*out)[(*n)++] = xstrdup(t);
		}
		git_strarray_dispose(&tags);
	}
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_tags);
	return 0;
}

/*
 * A tag naming a tree, not a commit: linux.git's v2.6.11 (the history
 * starts at v2.6.12-rc2).  Such a release has no commit to record.
 */
static bool tag_names_tree(git_repository *repo, const char *tag)
{
	git_object *obj = NULL, *peeled = NULL;
	git_reference *ref = NULL;
	char *name = xasprintf("refs/tags/%s", tag);
	bool tree;
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
		return false;
	/* peeling ANY goes through tags only (a commit would give its tree) */
	if (git_object_type(obj) == GIT_OBJECT_TAG)
		tree = !git_object_peel(&peeled, obj, GIT_OBJECT_ANY) &&
		       git_object_type(peeled) == GIT_OBJECT_TREE;
	else
		tree = git_object_type(obj) == GIT_OBJECT_TREE;
	git_object_free(peeled);
	git_object_free(obj);
	return tree;
}

static int scan_release(struct scan_state *s, const char *tag)
{
	struct scan_files files = { 0 };
	struct release_info old;
	const struct maintainers *maint;
	struct site_list *results = NULL;
	struct oidset queued = OIDSET_INIT;
	struct progress *prog = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_oid maint_oid, *todo = NULL;
	uint64_t *bytes = NULL, total_bytes = 0;
	size_t ntodo = 0, i;
	long long rel, uses = 0;
	char commit_hex[GIT_OID_HEXSZ + 1], maint_hex[GIT_OID_HEXSZ + 1];
	const char *ruleset = rules_hash();
	struct timespec t0, t1;
	double secs;
	int ret;

	if (tag_names_tree(s->repo, tag)) {
		fprintf(stderr, "warning: %s names a tree, not a commit: skipped\n",
			tag);
		return 0;
	}
	ret = repo_resolve_commit(&commit, s->repo, tag);
	if (ret)
		return ret;
	git_oid_tostr(commit_hex, sizeof(commit_hex), git_commit_id(commit));
	ret = store_release_get(s->st, tag, &old);
	if (!ret) {
		bool same = !strcmp(old.commit, commit_hex) &&
			    !strcmp(old.ruleset, ruleset);

		release_info_clear(&old);
		if (same) {
			printf("%s: up to date\n", tag);
			goto out;
		}
	} else if (ret != KMIG_ENOTFOUND) {
		goto out;
	}
	ret = 0;
	if (!s->cached_loaded) {
		ret = store_cached_blobs(s->st, ruleset, &s->cached);
		if (ret)
			goto out;
		s->cached_loaded = true;
	}
	if (git_commit_tree(&tree, commit) < 0) {
		ret = kmig_err_git("cannot read tree");
		goto out;
	}
	ret = scan_tree_files(&files, &maint_oid, tree);
	if (ret)
		goto out;
	ret = maint_cache_get(&s->maint, s->repo, &maint_oid, &maint);
	if (ret)
		goto out;
	if (!maint || !maintainers_count(maint))
		fprintf(stderr, "warning: %s: %s: every file is in %s\n", tag,
			maint ? "MAINTAINERS has no sections" :
				"no top-level MAINTAINERS file",
			MAINTAINERS_NONE);
	if (maint && maintainers_ignored(maint))
		fprintf(stderr, "warning: %s: MAINTAINERS: %zu malformed lines ignored\n",
			tag, maintainers_ignored(maint));

	todo = xcalloc(files.n ? files.n : 1, sizeof(*todo));
	for (i = 0; i < files.n; i++) {
		const git_oid *oid = &files.v[i].oid;

		if (oidset_has(&s->cached, oid) || !oidset_add(&queued, oid))
			continue;
		git_oid_cpy(&todo[ntodo++], oid);
	}
	results = xcalloc(ntodo ? ntodo : 1, sizeof(*results));
	bytes = xcalloc(ntodo ? ntodo : 1, sizeof(*bytes));
	prog = progress_start(tag, ntodo);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = scan_lex_blobs(git_repository_path(s->repo), todo, ntodo, s->jobs,
			     results, bytes, prog);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	progress_stop(prog);
	if (ret)
		goto out;

	ret = store_begin(s->st);
	if (ret)
		goto out;
	git_oid_tostr(maint_hex, sizeof(maint_hex), &maint_oid);
	ret = store_release_start(s->st, &rel, tag, commit_hex,
				  (long long)git_commit_time(commit), ruleset,
				  maint ? maint_hex : NULL);
	for (i = 0; !ret && i < ntodo; i++) {
		ret = store_blob_put(s->st, repo_oid_str(&todo[i]), ruleset,
				     bytes[i], &results[i]);
		total_bytes += bytes[i];
	}
	for (i = 0; !ret && i < files.n; i++) {
		const char *sub = maint ? maintainers_match(maint, files.v[i].path) :
					  MAINTAINERS_NONE;

		ret = store_release_file(s->st, rel, files.v[i].path,
					 repo_oid_str(&files.v[i].oid), sub);
	}
	if (!ret)
		ret = store_release_finish(s->st, rel, (long long)files.n);
	if (ret) {
		store_rollback(s->st);
		goto out;
	}
	ret = store_commit(s->st);
	if (ret)
		goto out;
	for (i = 0; i < ntodo; i++)
		oidset_add(&s->cached, &todo[i]);
	s->lexed += ntodo;
	s->lexed_bytes += total_bytes;
	{
		struct count_rows rows = { 0 };

		if (!store_counts(s->st, rel, BY_RULE, NULL, NULL, &rows))
			for (i = 0; i < rows.n; i++)
				uses += rows.v[i].count;
		count_rows_clear(&rows);
	}
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("%s: %zu files, %zu blobs lexed, %lld uses\n", tag, files.n,
	       ntodo, uses);
	progress_note("%s: lexed %.1f MB in %.2fs (%.0f MB/s)\n", tag,
		total_bytes / 1e6, secs, secs > 0 ? total_bytes / 1e6 / secs : 0.0);
out:
	if (results)
		for (i = 0; i < ntodo; i++)
			site_list_clear(&results[i]);
	free(results);
	free(bytes);
	free(todo);
	oidset_clear(&queued);
	scan_files_clear(&files);
	git_tree_free(tree);
	git_commit_free(commit);
	return ret;
}

static int cmd_scan_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tags", required_argument, NULL, 't' },
		{ "include-rc", no_argument, NULL, 'r' },
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct scan_state s = { 0 };
	char **globs = NULL, **tags = NULL;
	size_t nglobs = 0, aglobs = 0, ntags = 0, i;
	bool include_rc = false;
	int opt, status = KMIG_EXIT_ERROR;

	s.ctx = ctx;
	s.jobs = ncpus();
	while ((opt = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			ALLOC_GROW(globs, nglobs + 1, aglobs);
			globs[nglobs++] = optarg;
			break;
		case 'r':
			include_rc = true;
			break;
		case 'j':
			s.jobs = atoi(optarg);
			if (s.jobs < 1) {
				free(globs);
				return cmd_usage_error("scan", "--jobs needs a positive number");
			}
			break;
		default:
			free(globs);
			return cmd_usage_error("scan", "unknown option");
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
	if (store_open(&s.st, ctx->db_path) || store_scan_tune(s.st)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	if (list_tags(s.repo, globs, nglobs, include_rc, &tags, &ntags)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	if (!ntags) {
		cmd_fail(KMIG_EXIT_ERROR, "no release tags to scan in '%s'",
			 ctx->repo_path);
		goto out;
	}
	for (i = 0; i < ntags; i++) {
		progress_note("[%zu/%zu] scanning %s\n", i + 1, ntags, tags[i]);
		if (scan_release(&s, tags[i])) {
			cmd_fail(KMIG_EXIT_ERROR, "scan of %s failed: %s", tags[i],
				 kmig_errmsg());
			goto out;
		}
		fflush(stdout);
	}
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
out:
	maint_cache_release(&s.maint);
	for (i = 0; i < ntags; i++)
		free(tags[i]);
	free(tags);
	free(globs);
	oidset_clear(&s.cached);
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
