// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-import.c - build or extend the kernel repository from Debian's
 * linux-source packages (or a local tarball): one commit and one
 * annotated tag per version, in version order, on a linear history.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "child.h"
#include "debian.h"
#include "repo.h"
#include "store.h"

static const char usage[] =
	"usage: kmig import [--update] [--jobs N] [VERSION...]\n"
	"       kmig import [--update] --list\n"
	"       kmig import --tarball FILE --tag TAG\n"
	"\n"
	"Build or extend the kernel repository (--repo, a bare repository) from\n"
	"Debian's linux-source-X.Y packages: each VERSION (6.1.192, or a Debian\n"
	"version like 6.1.192-3; two of one X.Y.Z are an error; a release\n"
	"candidate 6.13~rc7-1~exp1 is v6.13-rc7) is downloaded\n"
	"with 'apt-get download' into $KMIG_HOME/debs (reused when present\n"
	"with the size and SHA256 the package lists give, else deleted and\n"
	"downloaded again; all of them before any is unpacked), unpacked,\n"
	"and committed as one commit with an annotated tag vX.Y.Z, in\n"
	"version order, on a linear history; an older version is inserted in\n"
	"order, the commits after it re-created on their trees and their tags\n"
	"moved.  A package's commit and tag carry the date of its Debian\n"
	"changelog entry.  Only commits and tags kmig import made are\n"
	"re-created (a version that would go before anyone else's is refused;\n"
	"a newer one is appended), and a repository that is not bare is\n"
	"refused.  Existing tags are skipped.  Without VERSION: the newest\n"
	"version of each default line of the Debian suites data (5.10, 6.1,\n"
	"6.12, 7.2, 7.3).  Objects are packed at the end.  kmig keeps its\n"
	"own apt configuration in $KMIG_HOME/apt; the machine's is not changed.\n"
	"\n"
	"  --list            print every version the Debian suites offer: line,\n"
	"                    version, Debian version, suite, newest first, and\n"
	"                    'imported' for the tags --repo has (a --repo that\n"
	"                    is no repository is an error)\n"
	"  --update          refresh the package lists first (else: when older\n"
	"                    than 24 hours or the suites data changed); not\n"
	"                    with --tarball, which reads no package list\n"
	"  --tarball FILE    import a local kernel tarball instead (needs --tag)\n"
	"  --tag TAG         the tag for --tarball: a kernel release tag, vX.Y,\n"
	"                    vX.Y.Z or vX.Y-rcN (numbers without leading zeros)\n"
	"  -j, --jobs N      threads writing blobs (default: CPUs)\n";

/*
 * The author, committer and tagger of everything kmig import writes: how
 * it knows its own commits and tags (import_owned()), the only ones it
 * re-creates.
 */
#define IMPORT_NAME "kmig import"
#define IMPORT_EMAIL "kmig@localhost"

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

/* Version order; items of one tag (a default line twice) by Debian version. */
static int cmp_items(const void *a, const void *b)
{
	const struct import_item *x = a, *y = b;
	int c = version_cmp(x->tag, y->tag);

	if (c || !x->v.debian || !y->v.debian)
		return c;
	return strcmp(x->v.debian, y->v.debian);
}

/* Is @items[@i] (sorted) a second item of the tag the one before has? */
static bool item_dup(const struct import_item *items, size_t i)
{
	return i && !strcmp(items[i].tag, items[i - 1].tag);
}

/*
 * Check each VERSION (@argv, @argc of them) without apt: a kernel version
 * (deb_version_tag()), and no two of them importing the same tag ("6.1.192
 * 6.1.192-2": which one would be meant?).  0, or 2 with the error printed.
 */
static int check_versions(int argc, char **argv)
{
	char **tags = xcalloc((size_t)argc + 1, sizeof(*tags));
	int i, j, status = 0;

	for (i = 0; i < argc && !status; i++) {
		if (deb_version_tag(&tags[i], argv[i])) {
			status = cmd_fail_last(KMIG_EXIT_ERROR);
			break;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(tags[j], tags[i])) {
				status = cmd_usage_error("import",
							 "'%s' and '%s' both import %s: give one of them",
							 argv[j], argv[i], tags[i]);
				break;
			}
	}
	free_strv(tags, (size_t)argc);
	return status;
}

/* Column widths of the --list table (header included). */
static void list_widths(const struct deb_list *l, int w[3])
{
	static const char *const head[] = { "line", "version", "debian" };
	size_t i;
	int k;

	for (k = 0; k < 3; k++)
		w[k] = (int)strlen(head[k]);
	for (i = 0; i < l->n; i++) {
		const struct deb_version *v = &l->v[i];
		int n[3] = { (int)(strlen(v->package) - strlen("linux-source-")),
			     (int)strlen(v->upstream), (int)strlen(v->debian) };

		for (k = 0; k < 3; k++)
			if (n[k] > w[k])
				w[k] = n[k];
	}
}

/*
 * The table of every version the suites offer; "imported" marks the tags
 * of the repository, when there is one (a path that is no repository is
 * an error, found before apt runs); the package lists refreshed first
 * when @update.
 */
static int print_list(struct kmig_ctx *ctx, bool update)
{
	struct deb_list l = { 0 };
	git_repository *repo = NULL;
	size_t i;
	int w[3];

	if (access(ctx->repo_path, F_OK) == 0 && repo_open(&repo, ctx->repo_path))
		return cmd_fail_last(KMIG_EXIT_ERROR);
	if ((update && deb_setup(true)) || deb_available(&l, NULL)) {
		git_repository_free(repo);
		return cmd_fail_last(KMIG_EXIT_ERROR);
	}
	if (!l.n) {
		git_repository_free(repo);
		deb_list_clear(&l);
		return cmd_fail(KMIG_EXIT_ERROR,
				"the Debian suites offer no linux-source-X.Y package");
	}
	list_widths(&l, w);
	printf("%-*s  %-*s  %-*s  %s\n", w[0], "line", w[1], "version", w[2],
	       "debian", "suite");
	for (i = 0; i < l.n; i++) {
		const struct deb_version *v = &l.v[i];
		char *tag = xasprintf("v%s", v->upstream);
		bool have = repo && repo_tag_exists(repo, tag);

		printf("%-*s  %-*s  %-*s  %s%s\n", w[0],
		       v->package + strlen("linux-source-"), w[1], v->upstream,
		       w[2], v->debian, v->suite, have ? "  imported" : "");
		free(tag);
	}
	git_repository_free(repo);
	deb_list_clear(&l);
	return finish_stdout(0);
}

/*
 * The newest version of each default line (the suites data's "default"
 * records) into @items; 0, or 2 with the error printed.
 */
static int select_defaults(struct import_item **items, size_t *nitems,
			   size_t *aitems)
{
	struct deb_list l = { 0 };
	struct import_item *it;
	char *const *lines;
	size_t nlines, i, j;
	int status = KMIG_EXIT_ERROR;

	if (deb_default_lines(&lines, &nlines) || deb_available(&l, NULL)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	for (i = 0; i < nlines; i++) {
		char *pkg = xasprintf("linux-source-%s", lines[i]);

		/* deb_available() lists each package newest first */
		for (j = 0; j < l.n && strcmp(l.v[j].package, pkg); j++)
			;
		free(pkg);
		if (j == l.n) {
			cmd_fail(KMIG_EXIT_ERROR,
				 "the Debian suites offer no linux-source-%s (a default line of the suites data)",
				 lines[i]);
			goto out;
		}
		ALLOC_GROW(*items, *nitems + 1, *aitems);
		it = memset(&(*items)[(*nitems)++], 0, sizeof((*items)[0]));
		it->v.package = xstrdup(l.v[j].package);
		it->v.upstream = xstrdup(l.v[j].upstream);
		it->v.debian = xstrdup(l.v[j].debian);
		it->v.suite = xstrdup(l.v[j].suite);
	}
	status = 0;
out:
	deb_list_clear(&l);
	return status;
}

/*
 * The history is one first-parent chain, oldest first.  An import inserts
 * each new version before the first tagged commit of a newer version (or
 * at the tip) and re-creates every commit after the first insertion: same
 * tree, author, committer and message, new parent.  Tags on re-created
 * commits move with them (an annotated tag keeps its tagger and message).
 *
 * All objects are written first; then the ref updates and the database's
 * commit ids go to a journal ($GIT_DIR/kmig-import.journal, written whole
 * and renamed into place), are applied, and the journal is removed.  A run
 * killed before the rename leaves only unreachable objects; one killed
 * after it is completed by the next run (journal_replay()).
 */
struct link {
	git_oid old;			/* existing commit; zero for a new one */
	git_oid new;			/* after the rebuild */
	git_oid tree;			/* new: the imported tree */
	const char *tag;		/* the v* tag of this commit, or NULL */
	struct import_item *it;		/* new: the item */
	git_signature *sig;		/* new: author, committer and tagger */
	bool dated;			/* new: sig has the Debian changelog's date */
	long long line_date;		/* new: its line's first Debian release */
	size_t files;			/* new: for the result line */
	uint64_t bytes;
};

struct chain {
	struct link *v;
	size_t n, alloc;
	char *branch;			/* the history's branch ref */
	git_strarray tags;		/* v* tags */
	git_oid *tag_commit;		/* each tag peeled */
};

static void chain_clear(struct chain *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		git_signature_free(c->v[i].sig);
	free(c->v);
	free(c->branch);
	git_strarray_dispose(&c->tags);
	free(c->tag_commit);
	memset(c, 0, sizeof(*c));
}

/* Read HEAD's branch and its first-parent chain, and the v* tags. */
static int chain_read(struct chain *c, git_repository *repo)
{
	git_reference *head = NULL;
	git_commit *cm = NULL;
	git_oid id;
	size_t i, j;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	if (git_tag_list_match(&c->tags, "v[0-9]*", repo) < 0)
		return kmig_err_git("cannot list tags");
	c->tag_commit = xcalloc(c->tags.count + 1, sizeof(*c->tag_commit));
	for (i = 0; i < c->tags.count; i++) {
		git_object *obj = NULL, *peeled = NULL;
		char *ref = xasprintf("refs/tags/%s", c->tags.strings[i]);

		if (git_revparse_single(&obj, repo, ref) == 0 &&
		    git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) == 0)
			git_oid_cpy(&c->tag_commit[i], git_object_id(peeled));
		git_object_free(peeled);
		git_object_free(obj);
		free(ref);
	}
	if (git_repository_head(&head, repo) < 0) {
		/* an unborn HEAD names the branch the first import creates */
		if (git_reference_lookup(&head, repo, "HEAD") == 0 &&
		    git_reference_type(head) == GIT_REFERENCE_SYMBOLIC)
			c->branch = xstrdup(git_reference_symbolic_target(head));
		else
			c->branch = xstrdup("refs/heads/master");
		git_reference_free(head);
		return 0;
	}
	c->branch = xstrdup(git_reference_name(head));
	git_oid_cpy(&id, git_reference_target(head));
	git_reference_free(head);
	for (;;) {
		if (git_commit_lookup(&cm, repo, &id) < 0) {
			ret = kmig_err_git("cannot read the history");
			break;
		}
		ALLOC_GROW(c->v, c->n + 1, c->alloc);
		memset(&c->v[c->n], 0, sizeof(c->v[0]));
		git_oid_cpy(&c->v[c->n].old, &id);
		git_oid_cpy(&c->v[c->n].new, &id);
		c->n++;
		if (!git_commit_parentcount(cm))
			break;
		git_oid_cpy(&id, git_commit_parent_id(cm, 0));
		git_commit_free(cm);
		cm = NULL;
	}
	git_commit_free(cm);
	/* oldest first; then each commit's newest-version tag */
	for (i = 0; i < c->n / 2; i++) {
		struct link t = c->v[i];

		c->v[i] = c->v[c->n - 1 - i];
		c->v[c->n - 1 - i] = t;
	}
	for (i = 0; i < c->n; i++)
		for (j = 0; j < c->tags.count; j++)
			if (git_oid_equal(&c->tag_commit[j], &c->v[i].old) &&
			    (!c->v[i].tag ||
			     version_cmp(c->tags.strings[j], c->v[i].tag) > 0))
				c->v[i].tag = c->tags.strings[j];
	return ret;
}

/* Insert new link @l before the first commit tagged newer than @tag. */
static void chain_insert(struct chain *c, const struct link *l, const char *tag)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].tag && version_cmp(c->v[i].tag, tag) > 0)
			break;
	ALLOC_GROW(c->v, c->n + 1, c->alloc);
	memmove(&c->v[i + 1], &c->v[i], (c->n - i) * sizeof(c->v[0]));
	c->v[i] = *l;
	c->n++;
}

/* Was @sig kmig import's (IMPORT_NAME, IMPORT_EMAIL)? */
static bool import_owned(const git_signature *sig)
{
	return sig && !strcmp(sig->name, IMPORT_NAME) &&
	       !strcmp(sig->email, IMPORT_EMAIL);
}

/*
 * chain_check_rewrite - may @tag, about to be inserted first, re-create
 * the commits after its place?  Only when kmig import wrote each of them
 * (its committer) and made each annotated v* tag on them (its tagger): a
 * commit or a tag of anyone else's history is never rewritten (a signed
 * tag would lose its signature).  Appending after the tip rewrites
 * nothing.  0, or KMIG_ECONFLICT with the message naming the first such
 * commit or tag.
 */
static int chain_check_rewrite(const struct chain *c, git_repository *repo,
			       const char *tag)
{
	size_t i, j;
	int ret = 0;

	for (i = 0; i < c->n; i++)
		if (c->v[i].tag && version_cmp(c->v[i].tag, tag) > 0)
			break;
	for (; !ret && i < c->n; i++) {
		const struct link *l = &c->v[i];
		git_commit *cm = NULL;

		if (l->it)
			continue;
		if (git_commit_lookup(&cm, repo, &l->old) < 0)
			return kmig_err_git("cannot read the history");
		if (!import_owned(git_commit_committer(cm))) {
			const char *subject = git_commit_summary(cm);

			ret = kmig_errcode(KMIG_ECONFLICT,
					   "%s would go before commit %.12s (\"%.60s\", committed by <%s>), which kmig import did not write: it re-creates only its own commits (import into a repository of its own)",
					   tag, repo_oid_str(&l->old),
					   subject ? subject : "",
					   git_commit_committer(cm)->email);
		}
		git_commit_free(cm);
		for (j = 0; !ret && j < c->tags.count; j++) {
			char *ref = xasprintf("refs/tags/%s", c->tags.strings[j]);
			git_reference *r = NULL;
			git_tag *t = NULL;

			if (!git_oid_equal(&c->tag_commit[j], &l->old))
				goto next;
			if (git_reference_lookup(&r, repo, ref) < 0) {
				ret = kmig_err_git("cannot read tag");
				goto next;
			}
			/* a lightweight tag just moves; an annotated one is re-made */
			if (git_tag_lookup(&t, repo, git_reference_target(r)) == 0 &&
			    !import_owned(git_tag_tagger(t)))
				ret = kmig_errcode(KMIG_ECONFLICT,
						   "%s would go before tag %s, which kmig import did not make: it re-makes only its own tags (import into a repository of its own)",
						   tag, c->tags.strings[j]);
next:
			git_tag_free(t);
			git_reference_free(r);
			free(ref);
		}
	}
	return ret;
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

/*
 * The delta base for a release @tag about to be inserted: the tree of the
 * release just before its place in the chain, else of the one just after
 * it; *out NULL when the chain is empty.  Any tree in a pack will do; the
 * nearest version shares the most.
 */
static int chain_base(git_tree **out, const struct chain *c,
		      git_repository *repo, const char *tag)
{
	const struct link *l;
	git_commit *cm = NULL;
	size_t i;
	int ret = 0;

	*out = NULL;
	if (!c->n)
		return 0;
	for (i = 0; i < c->n; i++)
		if (c->v[i].tag && version_cmp(c->v[i].tag, tag) > 0)
			break;
	l = &c->v[i ? i - 1 : 0];
	if (l->it) {
		if (git_tree_lookup(out, repo, &l->tree) < 0)
			ret = kmig_err_git("cannot read a tree of the history");
		return ret;
	}
	if (git_commit_lookup(&cm, repo, &l->old) < 0 ||
	    git_commit_tree(out, cm) < 0)
		ret = kmig_err_git("cannot read the history's tree");
	git_commit_free(cm);
	return ret;
}

/*
 * Unpack @it and write its tree into the pack, deltified against @base
 * (or NULL): a new link, not yet in the chain.
 */
static int import_tree(struct link *l, git_repository *repo,
		       struct import_item *it, const git_tree *base,
		       const char *tmpdir, int jobs)
{
	struct unpacked u = { 0 };
	int ret;

	memset(l, 0, sizeof(*l));
	progress_note("importing %s from %s\n", it->tag,
		it->deb ? it->deb : it->tarball);
	ret = rm_rf(tmpdir);
	if (!ret)
		ret = unpack_source(&u, it->deb, it->v.debian, it->tarball, tmpdir);
	if (ret)
		goto out;
	ret = repo_write_dir_tree(&l->tree, repo, u.root, base, jobs,
				  &l->files, &l->bytes);
	if (ret)
		goto out;
	/* a package's own date (its changelog); a tarball's Makefile mtime */
	if (git_signature_new(&l->sig, IMPORT_NAME, IMPORT_EMAIL,
			      u.dated ? (git_time_t)u.date : tree_time(u.root),
			      u.dated ? u.tz : 0) < 0) {
		ret = kmig_err_git("cannot make signature");
		goto out;
	}
	l->it = it;
	l->tag = it->tag;
	l->dated = u.dated;
	l->line_date = u.line_date;
out:
	unpacked_clear(&u);
	rm_rf(tmpdir);
	return ret;
}

/* Re-create commit l->old on @parent (NULL: a root), into l->new. */
static int recommit(git_repository *repo, struct link *l, git_commit *parent)
{
	git_commit *old = NULL;
	git_tree *tree = NULL;
	const git_commit *parents[64];
	unsigned int i, np = 0;
	int ret = 0;

	if (git_commit_lookup(&old, repo, &l->old) < 0)
		return kmig_err_git("cannot read commit");
	if (git_commit_tree(&tree, old) < 0) {
		ret = kmig_err_git("cannot read commit");
		goto out;
	}
	if (parent)
		parents[np++] = parent;
	for (i = 1; i < git_commit_parentcount(old) && np < ARRAY_SIZE(parents); i++) {
		git_commit *p = NULL;

		if (git_commit_parent(&p, old, i) < 0) {
			ret = kmig_err_git("cannot read parent");
			goto out;
		}
		parents[np++] = p;
	}
	if (git_commit_create(&l->new, repo, NULL, git_commit_author(old),
			      git_commit_committer(old),
			      git_commit_message_encoding(old),
			      git_commit_message(old), tree, np, parents) < 0)
		ret = kmig_err_git("cannot create commit");
out:
	for (i = parent ? 1 : 0; i < np; i++)
		git_commit_free((git_commit *)parents[i]);
	git_tree_free(tree);
	git_commit_free(old);
	return ret;
}

/* A new version's commit on @parent, into l->new. */
static int newcommit(git_repository *repo, struct link *l, git_commit *parent)
{
	git_tree *tree = NULL;
	char line[64] = "";
	char *msg;
	int ret = 0;

	if (git_tree_lookup(&tree, repo, &l->tree) < 0)
		return kmig_err_git("cannot read written tree");
	if (l->dated && l->line_date)
		snprintf(line, sizeof(line), "Line-Date: %lld\n", l->line_date);
	/* the scan labels the date by the trailer (cmd-scan.c's date_source()) */
	/* and the forecast's date by Line-Date (cmd-scan.c's line_date()) */
	msg = xasprintf("Linux %s\n\n%s\n%s%s", l->it->tag + 1, l->it->message,
			l->dated ? "\nDate-Source: debian-changelog\n" : "",
			line);
	if (git_commit_create_v(&l->new, repo, NULL, l->sig, l->sig, NULL, msg,
				tree, parent ? 1 : 0, parent) < 0)
		ret = kmig_err_git("cannot create commit");
	free(msg);
	git_tree_free(tree);
	return ret;
}

/* The tag object (or, for a lightweight tag, commit) @name moves to. */
static int moved_tag(git_oid *out, git_repository *repo, const char *name,
		     const git_oid *commit)
{
	git_reference *ref = NULL;
	git_tag *tag = NULL;
	git_object *target = NULL;
	char *refname = xasprintf("refs/tags/%s", name);
	int ret = 0;

	if (git_reference_lookup(&ref, repo, refname) < 0) {
		ret = kmig_err_git("cannot read tag");
		goto out;
	}
	if (git_tag_lookup(&tag, repo, git_reference_target(ref)) < 0) {
		git_oid_cpy(out, commit);	/* lightweight */
		goto out;
	}
	if (git_object_lookup(&target, repo, commit, GIT_OBJECT_COMMIT) < 0 ||
	    git_tag_annotation_create(out, repo, name, target, git_tag_tagger(tag),
				      git_tag_message(tag)) < 0)
		ret = kmig_err_git("cannot create tag");
out:
	git_object_free(target);
	git_tag_free(tag);
	git_reference_free(ref);
	free(refname);
	return ret;
}

/* The longest ref name a journal line holds (journal_replay()'s %255s). */
#define JOURNAL_REF_MAX 255

/*
 * journal_bad_ref - is @name no ref journal_replay() can apply?  Then the
 * error is recorded.
 */
static bool journal_bad_ref(const char *name)
{
	int valid = 0;

	if (strlen(name) <= JOURNAL_REF_MAX &&
	    git_reference_name_is_valid(&valid, name) == 0 && valid)
		return false;
	kmig_err("'%s' is not a valid ref name", name);
	return true;
}

/* Journal "ref NAME OID": only a ref journal_replay() can apply. */
static int journal_ref(struct sbuf *journal, const char *name,
		       const git_oid *oid)
{
	if (journal_bad_ref(name))
		return KMIG_EUSAGE;
	sbuf_addf(journal, "ref %s %s\n", name, repo_oid_str(oid));
	return 0;
}

/* journal_ref() of refs/tags/@tag. */
static int journal_tag(struct sbuf *journal, const char *tag,
		       const git_oid *oid)
{
	char *name = xasprintf("refs/tags/%s", tag);
	int ret = journal_ref(journal, name, oid);

	free(name);
	return ret;
}

/*
 * Write every commit from the first new link on, and the tags; the
 * journal text (ref and release lines) into @journal.
 */
static int chain_write(struct chain *c, git_repository *repo,
		       struct sbuf *journal)
{
	git_commit *parent = NULL;
	size_t i, j, first;
	int ret = 0;

	for (first = 0; first < c->n && !c->v[first].it; first++)
		;
	if (first == c->n)
		return 0;
	if (first && git_commit_lookup(&parent, repo, &c->v[first - 1].new) < 0)
		return kmig_err_git("cannot read commit");
	for (i = first; i < c->n; i++) {
		struct link *l = &c->v[i];

		ret = l->it ? newcommit(repo, l, parent) : recommit(repo, l, parent);
		git_commit_free(parent);
		parent = NULL;
		if (ret)
			return ret;
		if (git_commit_lookup(&parent, repo, &l->new) < 0)
			return kmig_err_git("cannot read commit");
		if (l->it) {
			git_oid tag;

			if (git_tag_annotation_create(&tag, repo, l->it->tag,
						      (git_object *)parent, l->sig,
						      l->it->message) < 0) {
				ret = kmig_err_git("cannot create tag");
				break;
			}
			ret = journal_tag(journal, l->it->tag, &tag);
			if (ret)
				break;
			continue;
		}
		for (j = 0; j < c->tags.count; j++) {
			git_oid tag;

			if (!git_oid_equal(&c->tag_commit[j], &l->old))
				continue;
			ret = moved_tag(&tag, repo, c->tags.strings[j], &l->new);
			if (ret)
				break;
			ret = journal_tag(journal, c->tags.strings[j], &tag);
			if (ret)
				break;
			sbuf_addf(journal, "release %s %s", c->tags.strings[j],
				  repo_oid_str(&l->old));
			sbuf_addf(journal, " %s\n", repo_oid_str(&l->new));
		}
		if (ret)
			break;
	}
	git_commit_free(parent);
	if (!ret)
		ret = journal_ref(journal, c->branch, &c->v[c->n - 1].new);
	return ret;
}

/*
 * The crash test's hook (tests/cli/t0013-import-crash.sh): with
 * KMIG_TEST_KILL_AT=@point, kmig dies by SIGKILL there.
 */
static void test_kill_point(const char *point)
{
	const char *at = getenv("KMIG_TEST_KILL_AT");

	if (at && !strcmp(at, point))
		raise(SIGKILL);
}

static char *journal_path(git_repository *repo)
{
	return xasprintf("%s/kmig-import.journal", git_repository_path(repo));
}

/* Write @text to the journal: whole, or not at all. */
static int journal_write(git_repository *repo, const struct sbuf *text)
{
	char *path = journal_path(repo), *tmp = xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	int ret = 0;

	if (!f || fwrite(text->buf, 1, text->len, f) != text->len ||
	    fflush(f) || fsync(fileno(f))) {
		ret = kmig_err("cannot write '%s': %s", path, strerror(errno));
		if (f)
			fclose(f);
		unlink(tmp);
	} else if (fclose(f) || rename(tmp, path)) {
		/* f is closed (or gone) whatever fclose() returned */
		ret = kmig_err("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	free(path);
	return ret;
}

/* Remove a lock file libgit2 left when a run was killed (we hold the import lock). */
static void drop_stale_lock(git_repository *repo, const char *ref)
{
	char *lock = xasprintf("%s/%s.lock", git_repository_path(repo), ref);

	unlink(lock);
	free(lock);
}

/* journal_pending - has an interrupted import left its journal? */
static bool journal_pending(git_repository *repo)
{
	char *path = journal_path(repo);
	bool yes = access(path, F_OK) == 0;

	free(path);
	return yes;
}

/*
 * Apply the journal, if any: the refs, then the releases' commit ids in
 * the database; then remove it.  *@applied is set when there was one.
 */
static int journal_replay(git_repository *repo, struct store *st, bool *applied)
{
	char *path = journal_path(repo), *line, *save = NULL;
	struct sbuf sb = SBUF_INIT;
	char **lines = NULL;
	size_t n = 0, alloc = 0, i;
	int ret = 0;

	*applied = false;
	if (access(path, F_OK) < 0)
		goto out;
	ret = sbuf_read_file(&sb, path);
	if (ret)
		goto out;
	sbuf_addch(&sb, '\0');	/* a string even when empty */
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		ALLOC_GROW(lines, n + 1, alloc);
		lines[n++] = line;
	}
	/*
	 * Every line is checked before any is applied: a journal that cannot
	 * be applied (an older kmig journalled any --tag) would fail every
	 * import; removing it gives that one import up (its objects stay
	 * unreachable) and changes nothing else.
	 */
	for (i = 0; i < n; i++) {
		char a[256], b[64], c[64], extra;
		git_oid oid;

		if (sscanf(lines[i], "release %255s %63s %63s %c", a, b, c,
			   &extra) == 3)
			continue;
		if (sscanf(lines[i], "ref %255s %63s %c", a, b, &extra) != 2 ||
		    git_oid_fromstr(&oid, b) < 0 || journal_bad_ref(a)) {
			ret = kmig_err("'%s' cannot be applied (line '%.80s'): remove that file to give up the interrupted import",
				       path, lines[i]);
			goto out;
		}
	}
	/* the refs first: a run killed before the database finishes here */
	for (i = 0; !ret && i < n; i++) {
		char a[256], b[64], c[64];
		git_reference *ref = NULL;
		git_oid oid;

		if (sscanf(lines[i], "release %255s %63s %63s", a, b, c) == 3)
			continue;
		sscanf(lines[i], "ref %255s %63s", a, b);
		git_oid_fromstr(&oid, b);
		drop_stale_lock(repo, a);
		if (git_reference_create(&ref, repo, a, &oid, 1, "kmig import") < 0)
			ret = kmig_err_git("cannot update ref");
		git_reference_free(ref);
	}
	test_kill_point("refs");
	if (!ret)
		ret = store_begin(st);
	for (i = 0; !ret && i < n; i++) {
		char a[256], b[64], c[64];

		if (sscanf(lines[i], "release %255s %63s %63s", a, b, c) == 3 &&
		    store_release_recommit(st, a, b, c)) {
			store_rollback(st);
			ret = KMIG_EGENERIC;
		}
	}
	if (!ret)
		ret = store_commit(st);
	test_kill_point("database");
	if (!ret && unlink(path) < 0)
		ret = kmig_err("cannot remove '%s': %s", path, strerror(errno));
	if (!ret)
		*applied = true;
out:
	free(lines);
	sbuf_release(&sb);
	free(path);
	return ret;
}

/* Write the chain's objects, then journal and apply the ref updates. */
static int commit_chain(struct chain *c, git_repository *repo, struct store *st,
			struct sbuf *journal, bool *applied)
{
	int ret = chain_write(c, repo, journal);

	if (ret)
		return ret;
	test_kill_point("objects");
	ret = journal_write(repo, journal);
	if (ret)
		return ret;
	test_kill_point("journal");
	return journal_replay(repo, st, applied);
}

/*
 * kmig import writes into a bare repository: refs move and history is
 * re-created without a work tree or index to follow.  0, or KMIG_EUSAGE
 * with the message recorded.
 */
static int check_bare(git_repository *repo, const char *path)
{
	if (git_repository_is_bare(repo))
		return 0;
	return kmig_errcode(KMIG_EUSAGE,
			    "'%s' is not a bare repository: kmig import writes only into a bare repository (--repo; a new path is made bare)",
			    path);
}

/* An existing --repo is a bare repository: 0, or 2 with the error printed. */
static int check_repo_path(const char *path)
{
	git_repository *repo = NULL;
	int ret;

	if (access(path, F_OK) < 0)
		return 0;		/* made, bare, by this import */
	ret = repo_open(&repo, path);
	if (!ret)
		ret = check_bare(repo, path);
	git_repository_free(repo);
	return ret ? cmd_fail_last(KMIG_EXIT_ERROR) : 0;
}

/* One import at a time per repository: a lock released when kmig dies. */
static int import_lock(git_repository *repo, int *fd)
{
	char *path = xasprintf("%s/kmig-import.lock", git_repository_path(repo));
	int ret = 0;

	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0)
		ret = kmig_err("cannot open '%s': %s", path, strerror(errno));
	else if (flock(*fd, LOCK_EX | LOCK_NB) < 0)
		ret = kmig_err("another kmig import is running on '%s'",
			       git_repository_path(repo));
	free(path);
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
		{ "update", no_argument, NULL, 'u' },
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
	char *debs = NULL, *tmpdir = NULL, *unpack = NULL, *bad = NULL;
	struct chain chain = { 0 };
	struct sbuf journal = SBUF_INIT;
	bool list = false, update = false, replayed = false, jobs_set = false;
	/* made by this run: removed again when it fails before committing */
	bool new_repo = false, committing = false;
	int lockfd = -1;
	unsigned long n;
	int jobs = ncpus(), opt, status = KMIG_EXIT_ERROR;

	while ((opt = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			list = true;
			break;
		case 'u':
			update = true;
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
			jobs_set = true;
			break;
		default:
			return cmd_bad_option("import", argv);
		}
	}
	/* every usage check before anything is read, fetched or written */
	if (list && (tarball || tag || jobs_set || optind < argc))
		return cmd_usage_error("import", "--list takes no VERSION, --tarball, --tag nor --jobs");
	if (!tarball != !tag)
		return cmd_usage_error("import", "--tarball and --tag go together");
	if (tarball && optind < argc)
		return cmd_usage_error("import", "--tarball takes no VERSION");
	if (tarball && update)
		return cmd_usage_error("import", "--update does not go with --tarball (no package list is read)");
	if (tag && !is_release_tag(tag))
		return cmd_usage_error("import",
				       "tag '%s' is not a kernel release tag (vX.Y, vX.Y.Z, vX.Y-rcN)",
				       tag);
	if (!list && !tarball && check_versions(argc - optind, argv + optind))
		return KMIG_EXIT_ERROR;
	if (list)
		return print_list(ctx, update);
	if (tarball && access(tarball, R_OK) < 0)
		return cmd_fail(KMIG_EXIT_ERROR, "cannot read tarball '%s': %s",
				tarball, strerror(errno));
	/* before apt: a repository kmig will not write is refused first */
	if (check_repo_path(ctx->repo_path))
		return KMIG_EXIT_ERROR;
	if (update && deb_setup(true))
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
	} else if (select_defaults(&items, &nitems, &aitems)) {
		goto out;
	}
	for (i = 0; i < nitems; i++) {
		struct import_item *it = &items[i];

		if (it->tarball)
			continue;
		it->tag = xasprintf("v%s", it->v.upstream);
		it->message = xasprintf("Debian package %s version %s",
					it->v.package, it->v.debian);
		if (!is_release_tag(it->tag)) {
			cmd_fail(KMIG_EXIT_ERROR,
				 "%s version %s gives no kernel release tag ('%s')",
				 it->v.package, it->v.debian, it->tag);
			goto out;
		}
	}
	qsort(items, nitems, sizeof(items[0]), cmp_items);

	if (repo_open_or_init(&repo, ctx->repo_path, &new_repo) ||
	    check_bare(repo, ctx->repo_path)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	/* the database only when there is something to record in it */
	if (import_lock(repo, &lockfd) ||
	    (journal_pending(repo) && store_open(&st, ctx->db_path)) ||
	    journal_replay(repo, st, &replayed)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	if (replayed)
		printf("completed an interrupted import\n");
	tmpdir = xasprintf("%s/tmp", ctx->home);
	rm_stale(tmpdir, "import-", ".log", NULL);	/* what killed imports left */
	/* the oldest version to import decides what is re-created */
	for (i = 0; i < nitems && repo_tag_exists(repo, items[i].tag); i++)
		;
	if (chain_read(&chain, repo) ||
	    (i < nitems && chain_check_rewrite(&chain, repo, items[i].tag))) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	debs = xasprintf("%s/debs", ctx->home);
	unpack = xasprintf("%s/import-%d", tmpdir, (int)getpid());
	/*
	 * Every package first: a version the mirror lists but cannot serve
	 * fails the run before minutes of unpacking the others, not after.
	 */
	for (i = 0; i < nitems; i++) {
		struct import_item *it = &items[i];

		if (it->tarball || item_dup(items, i) ||
		    repo_tag_exists(repo, it->tag))
			continue;
		if (deb_fetch(&it->deb, &bad, &it->v, debs)) {
			cmd_fail_last(KMIG_EXIT_ERROR);
			goto out;
		}
		if (bad)
			fprintf(stderr, "kmig: warning: %s: deleted and downloaded again\n",
				bad);
		free(bad);
		bad = NULL;
	}
	for (i = 0; i < nitems; i++) {
		struct import_item *it = &items[i];
		git_tree *base = NULL;
		struct link l;

		if (item_dup(items, i))
			continue;
		if (repo_tag_exists(repo, it->tag)) {
			printf("%s already imported, skipped\n", it->tag);
			continue;
		}
		if (chain_base(&base, &chain, repo, it->tag) ||
		    import_tree(&l, repo, it, base, unpack, jobs)) {
			cmd_fail(KMIG_EXIT_ERROR, "import of %s failed: %s", it->tag,
				 kmig_errmsg());
			git_tree_free(base);
			goto out;
		}
		git_tree_free(base);
		base = NULL;
		chain_insert(&chain, &l, it->tag);
		done++;
	}
	committing = true;	/* a journal from here on: the next run completes it */
	if (done && ((!st && store_open(&st, ctx->db_path)) ||
		     commit_chain(&chain, repo, st, &journal, &replayed))) {
		cmd_fail(KMIG_EXIT_ERROR, "import failed: %s", kmig_errmsg());
		goto out;
	}
	for (i = 0; done && i < chain.n; i++) {
		const struct link *l = &chain.v[i];

		if (l->it)
			printf("%s %s %zu files %.1f MB\n", l->tag,
			       repo_oid_str(&l->new), l->files, l->bytes / 1e6);
		else if (l->tag && !git_oid_equal(&l->old, &l->new))
			printf("%s re-created as %s (same tree)\n", l->tag,
			       repo_oid_str(&l->new));
	}
	if ((done || replayed) && pack_repo(git_repository_path(repo))) {
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
	free(unpack);
	chain_clear(&chain);
	sbuf_release(&journal);
	git_repository_free(repo);
	store_close(st);
	/*
	 * That run imports nothing: not even the empty repository it made.
	 * Only under the import lock, which every import of it waits for.
	 */
	if (status != KMIG_EXIT_OK && !committing && new_repo && lockfd >= 0)
		rm_rf(ctx->repo_path);
	if (lockfd >= 0)
		close(lockfd);
	return status;
}

const struct kmig_cmd cmd_import = {
	.name = "import",
	.fn = cmd_import_fn,
	.summary = "build the kernel repository from Debian linux-source packages",
	.usage = usage,
};
