/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gate.h - the uses a change adds and removes (shared by "kmig check" and
 * "kmig log").
 *
 * A change is a pair of trees.  Only the in-scope files it touches are
 * looked at: the sites of their blobs before and after (from the blob
 * cache when a database is given, else lexed, and then cached) are
 * compared as multisets of (rule, whitespace-normalised source text: the
 * line, or a wrapped call's lines joined, lexer.h) over
 * all touched files together, so code moved within a file, between files
 * or with a rename is neither new nor removed, while a second copy of an
 * existing line is new.  Which of several identical lines is "the new
 * one" is decided by the diff: a site in a file that gained copies of the
 * line, on an added line, is preferred.
 *
 * Patches (git format-patch mboxes, series of them, or plain unified
 * diffs) are applied by "git apply --cached" on a temporary index and
 * object directory, so nothing is written to the user's repository.
 *
 * The implementation, one file per job: gate.c (the gate, its blobs and
 * gate_diff_trees()), gate-diff.c (gate_touch(): the tree walk and the
 * changed lines), gate-lex.c (gate_blobs_load(): cache, lexing, cache
 * transaction), gate-compare.c (gate_compare()), gate-apply.c (patches,
 * with git apply; mbox and headers are read by patch.h) and gate-allow.c (the
 * allowlist).  gate-internal.h is what they share.
 *
 * All functions return 0 or a negative code with the message recorded by
 * kmig_err(); out-structures are the caller's to clear.
 */
#ifndef KMIG_GATE_H
#define KMIG_GATE_H

#include <git2.h>
#include <stdbool.h>

#include "lexer.h"
#include "util.h"

struct store;

/* One use site of a change, in the tree after (added) or before (removed). */
struct gate_site {
	int rule;
	unsigned int line;
	const char *path;	/* belongs to the struct gate_change */
	const char *func;	/* enclosing function, NULL at file scope */
	const char *text;	/* whitespace-normalised source text (lexer.h) */
	const char *chain;	/* warn-on-user: the call path (reach.h), or NULL */
	const char *deps;	/* vla: names a header may define (struct site) */
	bool on_change;		/* on a line the diff adds (or deletes) */
	int allow;		/* allowlist entry index, or -1 */
	int patch;		/* patch of a series that added it, or -1 */
	bool info;		/* the base does not deprecate it (gate_judge()) */
};

struct gate_sites {
	struct gate_site *v;
	size_t n, alloc;
};

/* A touched in-scope file on one side of a change. */
struct gate_file {
	char *path;
	git_oid oid;
	unsigned int *changed;	/* sorted changed line numbers, or NULL */
	size_t nchanged;
};

struct gate_files {
	struct gate_file *v;
	size_t n, alloc;
};

/* The files a change touches: before (old side) and after (new side). */
struct gate_touched {
	struct gate_files before, after;
};
void gate_touched_clear(struct gate_touched *t);

/* The result: added and removed sites, ordered by path and line. */
struct gate_change {
	struct gate_sites added, removed;
};
void gate_change_clear(struct gate_change *c);

/* Blob id -> sites, filled by gate_blobs_load(). */
struct gate_blobs;
struct reach;
struct reach_cache;

struct gate {
	git_repository *repo;
	struct store *st;	/* blob cache, or NULL */
	int jobs;		/* lexer threads */
	bool inmem;		/* objects only @repo sees (a patch's): lex in this thread */
	struct gate_blobs *blobs;
	/*
	 * warn-on-user: the call graphs before and after the change
	 * (gate_reach()), or none: then, with reach_names (the default),
	 * by the enclosing function's name (reach_name_heuristic()).
	 */
	struct reach *reach_before, *reach_after;
	struct reach_cache *reach_cache;	/* the base's facts, parsed once */
	/*
	 * kmig scan's graph cache (reach_cache_save()), or NULL: the base's
	 * facts from it when they were saved under the base's rule set.
	 */
	const char *graph_image;
	bool reach_names;
	char **chains;		/* the gate_site.chain strings */
	size_t nchains, achains;
	/* statistics */
	size_t lexed, cached;
	uint64_t lexed_bytes;
};

/* gate_init / gate_release - a gate on @repo, the blob cache @st or NULL. */
void gate_init(struct gate *g, git_repository *repo, struct store *st,
	       int jobs);
void gate_release(struct gate *g);

/*
 * gate_touch - the in-scope files that differ between @old (NULL: the
 * empty tree) and @new_.  With @lines, the changed line numbers of each
 * file are computed too (needs the blobs' contents; for check, not log).
 * Every blob is registered with the gate for gate_blobs_load().
 */
int gate_touch(struct gate *g, git_tree *old, git_tree *new_, bool lines,
	       struct gate_touched *out);

/*
 * gate_blobs_load - get the sites of every registered blob: from the
 * cache, else lexed (threads, unless g->inmem) and then cached.
 * @prog may be NULL.
 */
int gate_blobs_load(struct gate *g, struct progress *prog);

/*
 * gate_compare - the multiset difference of a loaded change (see above).
 * Path and text pointers of @out point into @t and the gate: keep both.
 */
int gate_compare(struct gate *g, const struct gate_touched *t,
		 struct gate_change *out);

/*
 * gate_reach - build the call graphs of both sides of the loaded change
 * @t (gate-reach.c): release @base (an id of the store: its cached facts)
 * with the touched files before, and after, the change in place of
 * theirs; a walk of @depth calls.  Only when a touched file has a WARN
 * site (else nothing is needed).  Sets g->reach_names to false.  Call
 * between gate_blobs_load() and gate_compare().
 */
int gate_reach(struct gate *g, long long base, unsigned int depth,
	       const struct gate_touched *t);

/*
 * gate_diff_trees - gate_touch + gate_blobs_load + gate_compare for one
 * change, with changed lines.
 */
int gate_diff_trees(struct gate *g, git_tree *old, git_tree *new_,
		    struct gate_touched *t, struct gate_change *out);

/*
 * gate_tree_has - whether @tree has @path (NULL or "" never), as a
 * directory when @dir, else as anything else (a file, link or submodule).
 */
bool gate_tree_has(git_tree *tree, const char *path, bool dir);

/* ---- judging by the base ---- */

struct relinfo;

/*
 * gate_judge - set ->info on each site of @s whose rule the base @ri
 * does not deprecate (relinfo_in_force(): its deprecated.rst lacks the
 * section, or its include/ defines no replacement); such a use is listed
 * but does not fail the check.  Returns how many.
 */
size_t gate_judge(struct gate_sites *s, const struct relinfo *ri);

/*
 * gate_sites_filter - drop the sites of @s whose rule fails the --rule
 * globs @want (none: every rule) or matches a --skip-rule glob @skip.
 */
void gate_sites_filter(struct gate_sites *s, char *const *want, size_t nwant,
		       char *const *skip, size_t nskip);

/* ---- patches ---- */

/* One patch file or mbox as the user gave it. */
struct gate_patch_input {
	const char *name;	/* for messages ("<stdin>" for standard input) */
	const char *buf;
	size_t len;
};

/* One patch of a series, applied. */
struct gate_patch {
	char *name;		/* the input it came from */
	char *subject;		/* Subject: with its tags ("[PATCH 2/3] ..."), NULL for a plain diff */
	char *label;		/* for messages: "'NAME'" or "'NAME' (message N)" */
	int strip;		/* the -p it applied with (1 or 0) */
	bool recount;		/* applied with --recount (wrong line counts) */
	git_tree *tree;		/* the whole tree after it */
};

/* A hunk that applied away from where its header said. */
struct gate_offset {
	size_t patch;		/* index into the series */
	char *path;
	unsigned int hunk;	/* 1-based, within the file */
	long line;		/* where it applied */
	long offset;		/* lines from its header's position */
};

struct gate_series {
	struct gate_patch *v;
	size_t n, alloc;
	char *cover;		/* the cover letter's subject (tags kept), or NULL */
	struct gate_offset *off;
	size_t noff, aoff;
	void *priv;		/* the temporary index and objects */
};

/*
 * gate_series_apply - apply the patches of @in (@nin inputs in order; each
 * a git format-patch mbox of one or more messages, or a plain unified diff:
 * diff -u, diff -ruN, git diff, git diff --no-prefix) to @base, one after
 * the other, with "git apply --cached" on a temporary index and object
 * directory: offsets as git apply takes them, nothing written to the
 * repository.  The prefix is detected per patch: -p1, else -p0, whichever
 * makes the paths it changes exist; hunk line counts that do not match
 * their bodies get --recount.  A message without a diff is the cover
 * letter.  The trees stay readable through @repo until
 * gate_series_clear().  An error names the patch and the first failing
 * file and hunk, or the prefixes tried.  Clear @s in every case.
 */
int gate_series_apply(struct gate_series *s, git_repository *repo,
		      git_tree *base, const struct gate_patch_input *in,
		      size_t nin);
void gate_series_clear(struct gate_series *s);

/*
 * gate_series_drop_objects - remove the temporary index and objects now
 * (gate_series_clear() does it too): tree and blob handles already read
 * stay valid, nothing more of the patched trees can be read.
 */
void gate_series_drop_objects(struct gate_series *s);

/*
 * gate_series_attribute - set ->patch of each site of @added (the uses
 * @base to the last tree of @s adds) to the patch that added it: the
 * latest patch whose own change adds the same use, in the same file if
 * one does.  -1 when none does (a use only the whole series makes new).
 */
int gate_series_attribute(struct gate *g, const struct gate_series *s,
			  git_tree *base, struct gate_sites *added);

/* ---- allowlist ---- */

struct gate_allow_entry {
	char *path;	/* glob, pathname semantics */
	char *func;	/* glob or NULL: any function */
	char *rule;	/* glob over rule ids */
	char *reason;	/* text after '#', or NULL */
	unsigned int lineno;
};

struct gate_allow {
	char *name;	/* where it came from, for messages */
	struct gate_allow_entry *v;
	size_t n, alloc;
};
void gate_allow_clear(struct gate_allow *a);

/*
 * gate_allow_parse - parse an allowlist: lines "PATH[:FUNCTION] RULE
 * [# reason]", blank lines and '#' comments ignored.  A malformed line or
 * an unknown rule is an error naming @name:line.
 */
int gate_allow_parse(struct gate_allow *out, const char *name,
		     const char *buf, size_t len);

/* gate_allow_apply - set ->allow of each site of @s; returns how many. */
size_t gate_allow_apply(const struct gate_allow *a, struct gate_sites *s);

/*
 * gate_allow_unmatched - the entries of @a whose PATH matches no file of
 * @tree (a typo, or a directory written without its '/'): their indexes
 * into *@out (malloc'd, the caller's); returns how many.
 */
size_t gate_allow_unmatched(const struct gate_allow *a, git_tree *tree,
			    size_t **out);

#endif
