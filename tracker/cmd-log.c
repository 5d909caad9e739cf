// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-log.c - attribute added and removed deprecated uses to the commits
 * of a range, and record them in the database for the dashboard.
 *
 * Three passes: (1) walk the range, and for each commit not yet recorded
 * list the in-scope files it touches against its first parent; (2) get
 * the sites of every touched blob at once (blob cache, else lexed with
 * --jobs threads); (3) per commit, the multiset difference (gate.h),
 * attributed to subsystems by the MAINTAINERS of the commit's own tree
 * (a use removed with its file: of the parent's tree),
 * recorded.  Commits already recorded under the current rule set are read
 * back from the database.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "gate.h"
#include "maintainers.h"
#include "maintcache.h"
#include "oidset.h"
#include "repo.h"
#include "rules.h"
#include "store.h"

static const char usage[] =
	"usage: kmig log [--rule ID] [--subsystem NAME] [--all] [--jobs N]\n"
	"                [--format text|csv|json] A..B\n"
	"\n"
	"For each non-merge commit in A..B, oldest first: per rule the deprecated\n"
	"uses added and removed (against the first parent, compared like 'kmig\n"
	"check': moved code is neither), with commit id, author, date and subject;\n"
	"totals at the end.  Without a call graph: warn-on-user by the function's\n"
	"name, a vla's size by the changed files' own definitions (as 'kmig check'\n"
	"without a scanned release; the text says so in a note).  Results are\n"
	"recorded in the database (tables commits and commit_changes) per\n"
	"subsystem of the commit's own MAINTAINERS, and read back on the next\n"
	"run.  Only the blobs the commits touch are lexed.\n"
	"\n"
	"  --rule ID          only this rule\n"
	"  --subsystem NAME   only uses in files of this MAINTAINERS section\n"
	"  --all              also list commits without changes (text, json)\n"
	"  -j, --jobs N       lexer threads (default: CPUs)\n"
	"  --format FMT       text (default), csv or json\n"
	"\n"
	"CSV: commit,date,author,email,subject,rule,added,removed  (one row per\n"
	"commit and rule with a change; no total rows).\n";

enum { FMT_TEXT, FMT_CSV, FMT_JSON };

struct log_commit {
	git_oid id;
	char *name, *email;
	long long date;
	char *subject;
	git_oid maint;		/* MAINTAINERS blob of its tree, or zero */
	git_oid pmaint;		/* its first parent's, or zero */
	bool stored;		/* changes read from the database */
	struct gate_touched touched;
	struct commit_changes changes;
};

struct log_state {
	git_repository *repo;
	struct store *st;
	struct gate g;
	struct log_commit *v;
	size_t n, alloc;
	size_t merges;		/* merge commits of the range, not attributed */
	struct maint_cache maint;
	const char *rule, *subsystem;
	bool all;
	int fmt;
};

static void log_commit_clear(struct log_commit *c)
{
	free(c->name);
	free(c->email);
	free(c->subject);
	gate_touched_clear(&c->touched);
	commit_changes_clear(&c->changes);
}

/*
 * The key a commit's changes are recorded under: the release hash (the
 * lexer, the rules and reach.c, which classifies WARNs) and the version
 * of log's own attribution, LOG_VERSION, bumped whenever log attributes
 * differently, so that a commit an older kmig recorded is attributed
 * again rather than read back.  2: a use removed with its file goes to
 * the section of the parent's MAINTAINERS.
 */
#define LOG_VERSION 2

static const char *log_key(void)
{
	static char key[64];

	if (!key[0])	/* the command's thread only */
		snprintf(key, sizeof(key), "%s.%d", release_hash(), LOG_VERSION);
	return key;
}

/* Pass 1: the commits of the range, and the files of those not recorded. */
static int walk_range(struct log_state *s, const git_oid *from,
		      const git_oid *to)
{
	const char *ruleset = log_key();
	git_revwalk *walk = NULL;
	struct progress *prog;
	git_oid oid;
	int ret = 0, rc;

	if (git_revwalk_new(&walk, s->repo) < 0)
		return kmig_err_git("cannot walk history");
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (git_revwalk_push(walk, to) < 0 || git_revwalk_hide(walk, from) < 0) {
		ret = kmig_err_git("cannot walk history");
		goto out_free_walk;
	}
	prog = progress_start("commits", 0);
	while ((rc = git_revwalk_next(&oid, walk)) == 0) {
		git_commit *commit = NULL, *parent = NULL;
		git_tree *tree = NULL, *ptree = NULL;
		const git_signature *sig;
		struct log_commit *c;

		if (git_commit_lookup(&commit, s->repo, &oid) < 0) {
			ret = kmig_err_git("cannot read commit");
			break;
		}
		if (git_commit_parentcount(commit) > 1) {
			s->merges++;
			git_commit_free(commit);
			continue;
		}
		ALLOC_GROW(s->v, s->n + 1, s->alloc);
		c = &s->v[s->n++];
		memset(c, 0, sizeof(*c));
		git_oid_cpy(&c->id, &oid);
		sig = git_commit_author(commit);
		c->name = xstrdup(sig->name ? sig->name : "");
		c->email = xstrdup(sig->email ? sig->email : "");
		c->date = (long long)sig->when.time;
		c->subject = xstrdup(git_commit_summary(commit) ?
				     git_commit_summary(commit) : "");
		ret = store_commit_get(s->st, repo_oid_str(&oid), ruleset,
				       &c->changes);
		if (!ret) {
			c->stored = true;
			goto next;
		}
		if (ret != KMIG_ENOTFOUND)
			goto next;
		ret = 0;
		if (git_commit_tree(&tree, commit) < 0 ||
		    (git_commit_parentcount(commit) &&
		     (git_commit_parent(&parent, commit, 0) < 0 ||
		      git_commit_tree(&ptree, parent) < 0))) {
			ret = kmig_err_git("cannot read commit tree");
			goto next;
		}
		/* no MAINTAINERS: c->maint (c->pmaint) stays the zero id */
		ret = repo_blob_id_at(tree, "MAINTAINERS", &c->maint);
		if (ret == KMIG_ENOTFOUND)
			ret = 0;
		if (!ret && ptree) {
			ret = repo_blob_id_at(ptree, "MAINTAINERS", &c->pmaint);
			if (ret == KMIG_ENOTFOUND)
				ret = 0;
		}
		if (!ret)
			ret = gate_touch(&s->g, ptree, tree, false, &c->touched);
next:
		git_tree_free(ptree);
		git_tree_free(tree);
		git_commit_free(parent);
		git_commit_free(commit);
		if (ret)
			break;
		progress_update(prog, s->n, NULL);
	}
	progress_stop(prog);
	if (!ret && rc != GIT_ITEROVER)
		ret = kmig_err_git("cannot walk history");
out_free_walk:
	git_revwalk_free(walk);
	return ret;
}

static void count_site(struct commit_changes *ch, const char *subsystem,
		       int rule, bool added)
{
	struct commit_change *c = NULL;
	size_t i;

	for (i = 0; i < ch->n; i++)
		if (!strcmp(ch->v[i].subsystem, subsystem) &&
		    !strcmp(ch->v[i].rule, rules[rule].id)) {
			c = &ch->v[i];
			break;
		}
	if (!c) {
		ALLOC_GROW(ch->v, ch->n + 1, ch->alloc);
		c = &ch->v[ch->n++];
		c->subsystem = xstrdup(subsystem);
		c->rule = xstrdup(rules[rule].id);
		c->added = c->removed = 0;
	}
	if (added)
		c->added++;
	else
		c->removed++;
}

/* Changes in subsystem, then rule order: store_commit_get()'s order. */
static int cmp_change(const void *a, const void *b)
{
	const struct commit_change *x = a, *y = b;
	int c = strcmp(x->subsystem, y->subsystem);

	return c ? c : strcmp(x->rule, y->rule);
}

/*
 * The section of each removed site: that of its path in the commit's
 * MAINTAINERS @m, or in its parent's @pm when the commit deleted the
 * file (a driver removed with its section), as the trend gives a file
 * gone from the newer release the section it had in the older.
 */
static void count_removed(struct commit_changes *changes,
			  const struct gate_touched *t,
			  const struct gate_sites *removed,
			  const struct maintainers *m,
			  const struct maintainers *pm)
{
	const char **after = NULL;
	size_t i;

	if (m != pm && removed->n) {
		after = xcalloc(t->after.n ? t->after.n : 1, sizeof(*after));
		for (i = 0; i < t->after.n; i++)
			after[i] = t->after.v[i].path;
		qsort(after, t->after.n, sizeof(*after), cmp_strp);
	}
	for (i = 0; i < removed->n; i++) {
		const struct gate_site *s = &removed->v[i];
		const struct maintainers *sm = m;

		if (after && !bsearch(&s->path, after, t->after.n,
				      sizeof(*after), cmp_strp))
			sm = pm;
		count_site(changes, sm ? maintainers_match(sm, s->path) :
			   MAINTAINERS_NONE, s->rule, false);
	}
	free(after);
}

static int attribute(struct log_state *s, struct log_commit *c)
{
	const struct maintainers *m = NULL, *pm = NULL;
	struct gate_change ch;
	size_t i;
	int ret;

	ret = gate_compare(&s->g, &c->touched, &ch);
	if (ret)
		return ret;
	if (ch.added.n || ch.removed.n)
		ret = maint_cache_get(&s->maint, s->repo, &c->maint, &m);
	pm = m;
	if (!ret && ch.removed.n && git_oid_cmp(&c->pmaint, &c->maint))
		ret = maint_cache_get(&s->maint, s->repo, &c->pmaint, &pm);
	for (i = 0; !ret && i < ch.added.n; i++)
		count_site(&c->changes, m ? maintainers_match(m, ch.added.v[i].path) :
			   MAINTAINERS_NONE, ch.added.v[i].rule, true);
	if (!ret)
		count_removed(&c->changes, &c->touched, &ch.removed, m, pm);
	gate_change_clear(&ch);
	/* the same order as a recorded commit read back on the next run */
	if (!ret && c->changes.n)
		qsort(c->changes.v, c->changes.n, sizeof(*c->changes.v),
		      cmp_change);
	return ret;
}

/* Pass 3: attribute and record, a transaction per 500 commits. */
static int record(struct log_state *s)
{
	const char *ruleset = log_key();
	struct progress *prog = progress_start("recording", s->n);
	size_t i, pending = 0;
	int ret = 0;

	for (i = 0; i < s->n && !ret; i++) {
		struct log_commit *c = &s->v[i];
		char *author;

		if (c->stored)
			continue;
		ret = attribute(s, c);
		if (ret)
			break;
		if (!pending) {
			ret = store_begin(s->st);
			if (ret)
				break;
		}
		author = xasprintf("%s <%s>", c->name, c->email);
		ret = store_commit_put(s->st, repo_oid_str(&c->id), author,
				       c->date, c->subject, ruleset, &c->changes);
		free(author);
		gate_touched_clear(&c->touched);
		if (ret) {
			store_rollback(s->st);
			pending = 0;
			break;
		}
		if (++pending == 500) {
			ret = store_commit(s->st);
			pending = 0;
		}
		progress_update(prog, i + 1, NULL);
	}
	if (pending && !ret)
		ret = store_commit(s->st);
	progress_stop(prog);
	return ret;
}

/* record_range - the range as kmig log was given it, with its commits. */
static int record_range(struct log_state *s, const char *range,
			const git_oid *from, const git_oid *to)
{
	const char **ids = xcalloc(s->n ? s->n : 1, sizeof(*ids));
	char from_hex[GIT_OID_HEXSZ + 1], to_hex[GIT_OID_HEXSZ + 1];
	size_t i;
	int ret;

	for (i = 0; i < s->n; i++)
		ids[i] = xstrdup(repo_oid_str(&s->v[i].id));
	git_oid_tostr(from_hex, sizeof(from_hex), from);
	git_oid_tostr(to_hex, sizeof(to_hex), to);
	ret = store_log_range_put(s->st, range, from_hex, to_hex, ids, s->n);
	for (i = 0; i < s->n; i++)
		free((char *)ids[i]);
	free(ids);
	return ret;
}

/* Per-rule totals of a commit's changes, filtered; returns true if any. */
static bool rule_totals(const struct log_state *s, const struct commit_changes *ch,
			long long *added, long long *removed)
{
	bool any = false;
	size_t i;

	memset(added, 0, RULE__COUNT * sizeof(*added));
	memset(removed, 0, RULE__COUNT * sizeof(*removed));
	for (i = 0; i < ch->n; i++) {
		const struct commit_change *c = &ch->v[i];
		int r = rule_lookup(c->rule);

		if (r < 0 || (s->rule && strcmp(s->rule, c->rule)) ||
		    (s->subsystem && strcmp(s->subsystem, c->subsystem)))
			continue;
		added[r] += c->added;
		removed[r] += c->removed;
		if (c->added || c->removed)
			any = true;
	}
	return any;
}

static void fmt_date(char *buf, size_t n, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, n, "%Y-%m-%d", &tm);
}

static void print_rules(const long long *added, const long long *removed)
{
	int r;

	for (r = 0; r < RULE__COUNT; r++)
		if (added[r] || removed[r])
			printf("    %-22s +%-6lld -%lld\n", rules[r].id, added[r],
			       removed[r]);
}

static void print_text(const struct log_state *s, const char *range)
{
	long long added[RULE__COUNT], removed[RULE__COUNT];
	long long tadded[RULE__COUNT] = { 0 }, tremoved[RULE__COUNT] = { 0 };
	size_t i, with = 0;
	int r;

	for (i = 0; i < s->n; i++) {
		const struct log_commit *c = &s->v[i];
		char date[32];

		bool any = rule_totals(s, &c->changes, added, removed);

		with += any;
		if (!any && !s->all)
			continue;
		fmt_date(date, sizeof(date), c->date);
		printf("%.12s %s %s  %s\n", repo_oid_str(&c->id), date, c->name,
		       c->subject);
		print_rules(added, removed);
		for (r = 0; r < RULE__COUNT; r++) {
			tadded[r] += added[r];
			tremoved[r] += removed[r];
		}
	}
	printf("total %s: %zu commit%s, %zu with changes\n", range, s->n,
	       s->n == 1 ? "" : "s", with);
	print_rules(tadded, tremoved);
	/* log builds no call graph: as kmig check without a scanned release */
	if (tadded[RULE_WARN_ON] || tremoved[RULE_WARN_ON] ||
	    tadded[RULE_WARN_ON_USER] || tremoved[RULE_WARN_ON_USER])
		printf("note: warn-on-user by function name only (*_sendmsg, *_recvmsg, *_setsockopt, *_getsockopt, *_ioctl, *_store); kmig scan and 'kmig report' count it by the call graph\n");
	if (tadded[RULE_VLA] || tremoved[RULE_VLA])
		printf("note: vla sizes judged by the changed files' own definitions only: a size the headers make constant counts here, not in kmig scan and 'kmig report'\n");
	/* what a merge's own resolution changed is in no commit's count */
	if (s->merges)
		printf("note: %zu merge commit%s not attributed: a use a merge's resolution adds or removes counts in 'kmig check %s', not here\n",
		       s->merges, s->merges == 1 ? "" : "s", range);
}

static void print_csv(const struct log_state *s)
{
	long long added[RULE__COUNT], removed[RULE__COUNT];
	size_t i;
	int r;

	printf("commit,date,author,email,subject,rule,added,removed\n");
	for (i = 0; i < s->n; i++) {
		const struct log_commit *c = &s->v[i];

		if (!rule_totals(s, &c->changes, added, removed))
			continue;
		for (r = 0; r < RULE__COUNT; r++) {
			if (!added[r] && !removed[r])
				continue;
			printf("%s,", repo_oid_str(&c->id));
			json_date(stdout, c->date, false);
			putchar(',');
			csv_field(stdout, c->name);
			putchar(',');
			csv_field(stdout, c->email);
			putchar(',');
			csv_field(stdout, c->subject);
			printf(",%s,%lld,%lld\n", rules[r].id, added[r], removed[r]);
		}
	}
}

static void print_json(const struct log_state *s, const char *range,
		       const git_oid *from, const git_oid *to)
{
	long long added[RULE__COUNT], removed[RULE__COUNT];
	long long tadded[RULE__COUNT] = { 0 }, tremoved[RULE__COUNT] = { 0 };
	size_t i, j, shown = 0;
	int r;

	printf("{\n  \"range\": ");
	json_string(stdout, range);
	printf(", \"from\": \"%s\"", repo_oid_str(from));
	printf(", \"to\": \"%s\",\n  \"rule\": ", repo_oid_str(to));
	json_string(stdout, s->rule);
	printf(", \"subsystem\": ");
	json_string(stdout, s->subsystem);
	printf(", \"commits_examined\": %zu,\n  \"commits\": [", s->n);
	for (i = 0; i < s->n; i++) {
		const struct log_commit *c = &s->v[i];
		bool first = true;

		if (!rule_totals(s, &c->changes, added, removed) && !s->all)
			continue;
		printf("%s\n    {\"commit\": \"%s\", \"author\": ", shown++ ? "," : "",
		       repo_oid_str(&c->id));
		json_string(stdout, c->name);
		printf(", \"email\": ");
		json_string(stdout, c->email);
		printf(", \"date\": ");
		json_date(stdout, c->date, true);
		printf(", \"subject\": ");
		json_string(stdout, c->subject);
		printf(",\n     \"rules\": [");
		for (r = 0; r < RULE__COUNT; r++) {
			tadded[r] += added[r];
			tremoved[r] += removed[r];
			if (!added[r] && !removed[r])
				continue;
			printf("%s{\"rule\": \"%s\", \"added\": %lld, \"removed\": %lld}",
			       first ? "" : ", ", rules[r].id, added[r], removed[r]);
			first = false;
		}
		printf("],\n     \"subsystems\": [");
		first = true;
		for (j = 0; j < c->changes.n; j++) {
			const struct commit_change *ch = &c->changes.v[j];

			if ((s->rule && strcmp(s->rule, ch->rule)) ||
			    (s->subsystem && strcmp(s->subsystem, ch->subsystem)))
				continue;
			printf("%s{\"subsystem\": ", first ? "" : ", ");
			json_string(stdout, ch->subsystem);
			printf(", \"rule\": \"%s\", \"added\": %lld, \"removed\": %lld}",
			       ch->rule, ch->added, ch->removed);
			first = false;
		}
		printf("]}");
	}
	printf("%s],\n  \"totals\": [", shown ? "\n  " : "");
	shown = 0;
	for (r = 0; r < RULE__COUNT; r++) {
		if (!tadded[r] && !tremoved[r])
			continue;
		printf("%s\n    {\"rule\": \"%s\", \"added\": %lld, \"removed\": %lld}",
		       shown++ ? "," : "", rules[r].id, tadded[r], tremoved[r]);
	}
	printf("%s]\n}\n", shown ? "\n  " : "");
}

/*
 * The MAINTAINERS blob of commit @id in *@maint: 0, KMIG_ENOTFOUND (the
 * tree has none) or an error.
 */
static int maint_of(struct log_state *s, const git_oid *id, git_oid *maint)
{
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	int ret;

	if (git_commit_lookup(&commit, s->repo, id) < 0 ||
	    git_commit_tree(&tree, commit) < 0)
		ret = kmig_err_git("cannot read commit tree");
	else
		ret = repo_blob_id_at(tree, "MAINTAINERS", maint);
	git_tree_free(tree);
	git_commit_free(commit);
	return ret;
}

/*
 * Whether @name is a section of the MAINTAINERS in the tree of commit @id
 * (or MAINTAINERS_NONE): 1, 0 (also without MAINTAINERS) or an error.
 */
static int section_at(struct log_state *s, const git_oid *id, const char *name)
{
	git_oid maint;
	int ret = maint_of(s, id, &maint);

	if (ret == KMIG_ENOTFOUND)
		return 0;	/* no MAINTAINERS: no section */
	return ret ? ret : maint_cache_has(&s->maint, s->repo, &maint, name);
}

/*
 * Whether @name is a section of the MAINTAINERS of a commit of the range
 * (one added and renamed again inside it, its commits' changes
 * attributed to it): 1, 0 or an error.  Each MAINTAINERS blob is read
 * once and parsed only when its text holds the name: no lexing.
 */
static int section_in_range(struct log_state *s, const git_oid *from,
			    const git_oid *to, const char *name)
{
	struct oidset seen = OIDSET_INIT;
	git_revwalk *walk = NULL;
	git_oid oid;
	int ret = 0, rc;

	if (git_revwalk_new(&walk, s->repo) < 0)
		return kmig_err_git("cannot walk history");
	if (git_revwalk_push(walk, to) < 0 || git_revwalk_hide(walk, from) < 0) {
		ret = kmig_err_git("cannot walk history");
		goto out_free_walk;
	}
	while (!ret && (rc = git_revwalk_next(&oid, walk)) == 0) {
		git_blob *blob = NULL;
		git_oid maint;

		ret = maint_of(s, &oid, &maint);
		if (ret == KMIG_ENOTFOUND) {
			ret = 0;	/* no MAINTAINERS: no section */
			continue;
		}
		if (ret || !oidset_add(&seen, &maint))
			continue;
		if (git_blob_lookup(&blob, s->repo, &maint) < 0) {
			ret = kmig_err_git("cannot read MAINTAINERS");
			continue;
		}
		if (memmem(git_blob_rawcontent(blob),
			   (size_t)git_blob_rawsize(blob), name, strlen(name)))
			ret = maint_cache_has(&s->maint, s->repo, &maint, name);
		git_blob_free(blob);
	}
	if (!ret && rc != GIT_ITEROVER)
		ret = kmig_err_git("cannot walk history");
	oidset_clear(&seen);
out_free_walk:
	git_revwalk_free(walk);
	return ret;
}

/*
 * --subsystem NAME names a known section: one of the MAINTAINERS at
 * either end of the range, though no commit of it changed a use there,
 * or one the database has (a scan's or a recorded change's), or one of
 * the MAINTAINERS of a commit inside the range.  Asked before the range
 * is lexed and recorded, and without creating the database @db_path: a
 * mistyped name costs no lexing.  1 known, 0 not.
 */
static int subsystem_known(struct log_state *s, const git_oid *from,
			   const git_oid *to, const char *db_path)
{
	int known = section_at(s, to, s->subsystem);

	if (!known)
		known = section_at(s, from, s->subsystem);
	if (!known && !access(db_path, F_OK)) {
		if (store_open(&s->st, db_path))
			return KMIG_EGENERIC;
		known = store_subsystem_exists(s->st, s->subsystem);
	}
	if (!known)
		known = section_in_range(s, from, to, s->subsystem);
	return known;
}

static int parse_range(git_repository *repo, const char *arg, git_oid *from,
		       git_oid *to)
{
	git_revspec spec;
	git_object *a = NULL, *b = NULL;
	int ret = 0;

	memset(&spec, 0, sizeof(spec));
	if (git_revparse(&spec, repo, arg) < 0) {
		/* libgit2 keeps the left side of a range whose right fails */
		git_object_free(spec.from);
		git_object_free(spec.to);
		return repo_unknown_revision(repo, arg);
	}
	if (!(spec.flags & GIT_REVSPEC_RANGE) ||
	    (spec.flags & GIT_REVSPEC_MERGE_BASE)) {
		ret = kmig_err("'%s' is not a range A..B", arg);
		goto out_free;
	}
	if (git_object_peel(&a, spec.from, GIT_OBJECT_COMMIT) < 0 ||
	    git_object_peel(&b, spec.to, GIT_OBJECT_COMMIT) < 0) {
		ret = kmig_err("'%s' does not name a range of commits", arg);
		goto out_free;
	}
	git_oid_cpy(from, git_object_id(a));
	git_oid_cpy(to, git_object_id(b));
out_free:
	git_object_free(a);
	git_object_free(b);
	git_object_free(spec.from);
	git_object_free(spec.to);
	return ret;
}

static int cmd_log_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rule", required_argument, NULL, 'r' },
		{ "subsystem", required_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "text", "csv", "json", NULL };
	struct log_state s = { 0 };
	struct progress *prog;
	const char *range;
	git_oid from, to;
	unsigned long n;
	int opt, jobs = ncpus(), status = KMIG_EXIT_ERROR;
	size_t i;

	while ((opt = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			if (rule_lookup(optarg) < 0)
				return cmd_fail(KMIG_EXIT_ERROR, "--rule: unknown rule '%s' (see 'kmig rules')",
						optarg);
			/* one: the JSON and the filter name a single rule */
			if (s.rule)
				return cmd_usage_error("log", "--rule given twice ('%s', '%s'): log takes one",
						       s.rule, optarg);
			s.rule = optarg;
			break;
		case 's':
			if (s.subsystem)
				return cmd_usage_error("log", "--subsystem given twice ('%s', '%s'): log takes one",
						       s.subsystem, optarg);
			s.subsystem = optarg;
			break;
		case 'a':
			s.all = true;
			break;
		case 'j':
			if (opt_uint("log", "--jobs", optarg, 1, KMIG_MAX_JOBS, &n))
				return KMIG_EXIT_ERROR;
			jobs = (int)n;
			break;
		case 'f':
			s.fmt = parse_choice(optarg, formats);
			if (s.fmt < 0)
				return cmd_usage_error("log", "unknown format '%s'", optarg);
			break;
		default:
			return cmd_bad_option("log", argv);
		}
	}
	if (optind >= argc)
		return cmd_usage_error("log", "name a range A..B");
	range = argv[optind++];
	if (optind < argc)
		return cmd_usage_error("log", "unexpected argument '%s'", argv[optind]);

	/* a bad range or section: an error before the database is created */
	if (repo_open(&s.repo, ctx->repo_path) ||
	    parse_range(s.repo, range, &from, &to))
		goto out_fail;
	if (s.subsystem) {
		int known = subsystem_known(&s, &from, &to, ctx->db_path);

		if (known < 0)
			goto out_fail;
		if (!known) {
			status = cmd_fail(KMIG_EXIT_ERROR, "unknown subsystem '%s'",
					  s.subsystem);
			goto out;
		}
	}
	if (!s.st && store_open(&s.st, ctx->db_path))
		goto out_fail;
	gate_init(&s.g, s.repo, s.st, jobs);
	if (walk_range(&s, &from, &to))
		goto out_fail;
	prog = progress_start("lexing", 0);
	if (gate_blobs_load(&s.g, prog)) {
		progress_stop(prog);
		goto out_fail;
	}
	progress_stop(prog);
	if (record(&s) || record_range(&s, range, &from, &to))
		goto out_fail;
	status = stdout_hold(s.fmt == FMT_TEXT);
	if (status)
		goto out;
	if (s.fmt == FMT_CSV)
		print_csv(&s);
	else if (s.fmt == FMT_JSON)
		print_json(&s, range, &from, &to);
	else
		print_text(&s, range);
	status = stdout_release(KMIG_EXIT_OK);
	goto out;

out_fail:
	status = cmd_fail_last(KMIG_EXIT_ERROR);
out:
	for (i = 0; i < s.n; i++)
		log_commit_clear(&s.v[i]);
	free(s.v);
	maint_cache_release(&s.maint);
	gate_release(&s.g);
	store_close(s.st);
	git_repository_free(s.repo);
	return status;
}

const struct kmig_cmd cmd_log = {
	.name = "log",
	.fn = cmd_log_fn,
	.summary = "attribute added and removed deprecated uses to the commits of a range",
	.usage = usage,
};
