// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-import.c - build or extend the kernel repository from Debian's
 * linux-source packages (or a local tarball): one commit and one
 * annotated tag per version, in version order, on a linear history.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "child.h"
#include "debian.h"
#include "repo.h"
#include "store.h"

static const char usage[] =
	"usage: kmig import [--jobs N] [VERSION...]\n"
	"       kmig import --list\n"
	"       kmig import --tarball FILE --tag TAG\n"
	"\n"
	"Build or extend the kernel repository (--repo, a bare repository) from\n"
	"Debian's linux-source-X.Y packages: each VERSION (6.1.192, or a Debian\n"
	"version like 6.1.192-3) is downloaded with 'apt-get download' into\n"
	"$KMIG_HOME/debs (reused when present), unpacked, and committed as one\n"
	"commit with an annotated tag vX.Y.Z, in version order, on a linear\n"
	"history.  Existing tags are skipped.  Without VERSION: the newest\n"
	"linux-source-6.1 and linux-source-6.12.  Objects are packed at the end.\n"
	"\n"
	"  --list            print the versions the package manager offers\n"
	"  --tarball FILE    import a local kernel tarball instead (needs --tag)\n"
	"  --tag TAG         the tag for --tarball\n"
	"  --jobs N          threads writing blobs (default: CPUs)\n";

static const char *const default_packages[] = {
	"linux-source-6.1", "linux-source-6.12", NULL
};

struct import_item {
	char *tag;
	char *deb;		/* or NULL */
	char *tarball;		/* or NULL */
	char *message;		/* tag message */
	struct deb_version v;
};

static void item_clear(struct import_item *it)
{
	free(it->tag);
	free(it->deb);
	free(it->tarball);
	free(it->message);
	deb_version_clear(&it->v);
}

static int cmp_items(const void *a, const void *b)
{
	const struct import_item *x = a, *y = b;

	return version_cmp(x->tag, y->tag);
}

static int print_list(struct kmig_ctx *ctx)
{
	struct deb_list l = { 0 };
	git_repository *repo = NULL;
	size_t i;
	int ret;

	ret = deb_available(&l, NULL);
	if (ret)
		return cmd_fail_last(KMIG_EXIT_ERROR);
	if (access(ctx->repo_path, F_OK) == 0)
		repo_open(&repo, ctx->repo_path);
	for (i = 0; i < l.n; i++) {
		char *tag = xasprintf("v%s", l.v[i].upstream);

		printf("%-20s %-24s %-12s%s\n", l.v[i].package, l.v[i].debian,
		       tag, repo && repo_tag_exists(repo, tag) ? " imported" : "");
		free(tag);
	}
	git_repository_free(repo);
	deb_list_clear(&l);
	return finish_stdout(0);
}

/* The newest v* tag already in the repository, or NULL. */
static char *newest_tag(git_repository *repo)
{
	git_strarray tags = { 0 };
	char *best = NULL;
	size_t i;

	if (git_tag_list_match(&tags, "v[0-9]*", repo) < 0)
		return NULL;
	for (i = 0; i < tags.count; i++)
		if (!best || version_cmp(tags.strings[i], best) > 0) {
			free(best);
			best = xstrdup(tags.strings[i]);
		}
	git_strarray_dispose(&tags);
	return best;
}

/* Commit time: the mtime of the tree's top Makefile (else now). */
static git_time_t tree_time(const char *root)
{
	char *mk = xasprintf("%s/Makefile", root);
	struct stat st;
	git_time_t t = stat(mk, &st) == 0 ? (git_time_t)st.st_mtime :
					     (git_time_t)time(NULL);

	free(mk);
	return t;
}

static int import_one(git_repository *repo, struct import_item *it,
		      const char *tmpdir, int jobs)
{
	git_signature *sig = NULL;
	git_commit *parent = NULL;
	git_tree *tree = NULL, *base = NULL;
	git_oid tree_id, commit_id, tag_id;
	git_object *cobj = NULL;
	char *root = NULL, *msg = NULL;
	const char *branch = "refs/heads/master";
	git_reference *head = NULL;
	size_t files = 0;
	uint64_t bytes = 0;
	int ret;

	progress_note("importing %s from %s\n", it->tag,
		it->deb ? it->deb : it->tarball);
	ret = rm_rf(tmpdir);
	if (!ret)
		ret = unpack_source(&root, it->deb, it->tarball, tmpdir);
	if (ret)
		goto out;
	/* HEAD's commit is the parent; its tree the delta base */
	if (git_repository_head(&head, repo) == 0 &&
	    (git_commit_lookup(&parent, repo, git_reference_target(head)) < 0 ||
	     git_commit_tree(&base, parent) < 0)) {
		ret = kmig_err_git("cannot read HEAD");
		goto out;
	}
	ret = repo_write_dir_tree(&tree_id, repo, root, base, jobs, &files,
				  &bytes);
	if (ret)
		goto out;
	if (git_signature_new(&sig, "kmig import", "kmig@localhost",
			      tree_time(root), 0) < 0) {
		ret = kmig_err_git("cannot make signature");
		goto out;
	}
	if (git_tree_lookup(&tree, repo, &tree_id) < 0) {
		ret = kmig_err_git("cannot read written tree");
		goto out;
	}
	/* HEAD's branch (created by the first import) is the history */
	if (head)
		branch = git_reference_name(head);
	msg = xasprintf("Linux %s\n\n%s\n", it->tag + 1, it->message);
	if (git_commit_create_v(&commit_id, repo, NULL, sig, sig, NULL, msg,
				tree, parent ? 1 : 0, parent) < 0) {
		ret = kmig_err_git("cannot create commit");
		goto out;
	}
	if (git_object_lookup(&cobj, repo, &commit_id, GIT_OBJECT_COMMIT) < 0 ||
	    git_tag_create(&tag_id, repo, it->tag, cobj, sig, it->message, 0) < 0) {
		ret = kmig_err_git("cannot create tag");
		goto out;
	}
	{
		git_reference *ref = NULL;

		if (git_reference_create(&ref, repo, branch, &commit_id, 1,
					 "kmig import") < 0) {
			ret = kmig_err_git("cannot update branch");
			goto out;
		}
		git_reference_free(ref);
	}
	printf("%s %s %zu files %.1f MB\n", it->tag, repo_oid_str(&commit_id),
	       files, bytes / 1e6);
	ret = rm_rf(tmpdir);
out:
	if (ret)
		rm_rf(tmpdir);
	git_reference_free(head);
	git_object_free(cobj);
	git_commit_free(parent);
	git_tree_free(tree);
	git_tree_free(base);
	git_signature_free(sig);
	free(root);
	free(msg);
	return ret;
}

/*
 * The blobs and trees are in kmig's pack already (repo_write_dir_tree());
 * pack the few loose commits and tags (incrementally: no -a).
 */
static int pack_repo(const char *path)
{
	char *argv[] = { "git", "-C", (char *)path, "repack", "-d", "-q",
			 NULL };
	int ret;

	progress_note("packing objects\n");
	ret = child_run_status(&(struct child_opts){ .argv = argv,
						     .kill_signal = SIGTERM });
	if (ret > 0)
		return kmig_err("git repack failed with status %d", ret);
	return ret;
}

static int cmd_import_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "tarball", required_argument, NULL, 't' },
		{ "tag", required_argument, NULL, 'T' },
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct import_item *items = NULL;
	size_t nitems = 0, aitems = 0, i, done = 0;
	const char *tarball = NULL, *tag = NULL;
	git_repository *repo = NULL;
	struct store *st = NULL;
	char *debs = NULL, *tmpdir = NULL, *newest = NULL;
	bool list = false;
	unsigned long n;
	int jobs = ncpus(), opt, status = KMIG_EXIT_ERROR;

	while ((opt = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			list = true;
			break;
		case 't':
			tarball = optarg;
			break;
		case 'T':
			tag = optarg;
			break;
		case 'j':
			if (opt_uint("import", "--jobs", optarg, 1, KMIG_MAX_JOBS, &n))
				return KMIG_EXIT_ERROR;
			jobs = (int)n;
			break;
		default:
			return cmd_bad_option("import", argv);
		}
	}
	if (list)
		return print_list(ctx);
	if (!tarball != !tag)
		return cmd_usage_error("import", "--tarball and --tag go together");
	if (tarball && optind < argc)
		return cmd_usage_error("import", "--tarball takes no VERSION");
	if (tag && strncmp(tag, "v", 1))
		return cmd_usage_error("import", "tag '%s' must start with 'v'", tag);

	if (tarball && access(tarball, R_OK) < 0)
		return cmd_fail(KMIG_EXIT_ERROR, "cannot read tarball '%s': %s",
				tarball, strerror(errno));
	if (store_open(&st, ctx->db_path))
		return cmd_fail_last(KMIG_EXIT_ERROR);

	if (tarball) {
		ALLOC_GROW(items, nitems + 1, aitems);
		memset(&items[nitems], 0, sizeof(items[0]));
		items[nitems].tag = xstrdup(tag);
		items[nitems].tarball = xstrdup(tarball);
		items[nitems].message = xasprintf("Imported by kmig from tarball %s",
						  strrchr(tarball, '/') ?
						  strrchr(tarball, '/') + 1 : tarball);
		nitems++;
	} else if (optind < argc) {
		for (; optind < argc; optind++) {
			struct deb_version v;

			if (deb_resolve(&v, argv[optind])) {
				cmd_fail_last(KMIG_EXIT_ERROR);
				goto out;
			}
			ALLOC_GROW(items, nitems + 1, aitems);
			memset(&items[nitems], 0, sizeof(items[0]));
			items[nitems].v = v;
			nitems++;
		}
	} else {
		for (i = 0; default_packages[i]; i++) {
			struct deb_list l = { 0 };

			if (deb_available(&l, default_packages[i])) {
				cmd_fail_last(KMIG_EXIT_ERROR);
				goto out;
			}
			if (!l.n) {
				cmd_fail(KMIG_EXIT_ERROR,
					 "the package manager offers no %s (run 'apt-get update')",
					 default_packages[i]);
				deb_list_clear(&l);
				goto out;
			}
			ALLOC_GROW(items, nitems + 1, aitems);
			memset(&items[nitems], 0, sizeof(items[0]));
			items[nitems].v = l.v[0];
			memset(&l.v[0], 0, sizeof(l.v[0]));
			deb_list_clear(&l);
			nitems++;
		}
	}
	for (i = 0; i < nitems; i++) {
		struct import_item *it = &items[i];

		if (it->tarball)
			continue;
		it->tag = xasprintf("v%s", it->v.upstream);
		it->message = xasprintf("Debian package %s version %s",
					it->v.package, it->v.debian);
	}
	qsort(items, nitems, sizeof(items[0]), cmp_items);

	if (repo_open_or_init(&repo, ctx->repo_path)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	newest = newest_tag(repo);
	debs = xasprintf("%s/debs", ctx->home);
	tmpdir = xasprintf("%s/tmp/import-%d", ctx->home, (int)getpid());
	for (i = 0; i < nitems; i++) {
		struct import_item *it = &items[i];

		if (i && !strcmp(it->tag, items[i - 1].tag))
			continue;
		if (repo_tag_exists(repo, it->tag)) {
			printf("%s already imported, skipped\n", it->tag);
			continue;
		}
		if (newest && version_cmp(it->tag, newest) < 0) {
			cmd_fail(KMIG_EXIT_ERROR,
				 "cannot import %s after %s: the history is in version order (import into a new --repo)",
				 it->tag, newest);
			goto out;
		}
		if (!it->tarball && deb_fetch(&it->deb, &it->v, debs)) {
			cmd_fail_last(KMIG_EXIT_ERROR);
			goto out;
		}
		if (import_one(repo, it, tmpdir, jobs)) {
			cmd_fail(KMIG_EXIT_ERROR, "import of %s failed: %s", it->tag,
				 kmig_errmsg());
			goto out;
		}
		free(newest);
		newest = xstrdup(it->tag);
		done++;
	}
	if (done && pack_repo(git_repository_path(repo))) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	status = finish_stdout(KMIG_EXIT_OK);
out:
	for (i = 0; i < nitems; i++)
		item_clear(&items[i]);
	free(items);
	free(debs);
	free(tmpdir);
	free(newest);
	git_repository_free(repo);
	store_close(st);
	return status;
}

const struct kmig_cmd cmd_import = {
	.name = "import",
	.fn = cmd_import_fn,
	.summary = "build the kernel repository from Debian linux-source packages",
	.usage = usage,
};
