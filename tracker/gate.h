/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gate.h - the uses a change adds and removes (shared by "kmig check" and
 * "kmig log").
 *
 * A change is a pair of trees.  Only the in-scope files it touches are
 * looked at: the sites of their blobs before and after (from the blob
 * cache when a database is given, else lexed, and then cached) are
 * compared as multisets of (rule, whitespace-normalised source line) over
 * all touched files together, so code moved within a file, between files
 * or with a rename is neither new nor removed, while a second copy of an
 * existing line is new.  Which of several identical lines is "the new
 * one" is decided by the diff: a site in a file that gained copies of the
 * line, on an added line, is preferred.
 *
 * Patches (git format-patch mboxes, series of them, or plain unified
 * diffs) are applied in memory: gate_mempack() makes the repository write
 * new objects to memory, so nothing is written to the user's repository.
 *
 * The implementation, one file per job: gate.c (the gate, its blobs and
 * gate_diff_trees()), gate-diff.c (gate_touch(): the tree walk and the
 * changed lines), gate-lex.c (gate_blobs_load(): cache, lexing, cache
 * transaction), gate-compare.c (gate_compare()), gate-apply.c (patches;
 * the patch text itself is read by patch.h) and gate-allow.c (the
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
	const char *text;	/* whitespace-normalised source line */
	bool on_change;		/* on a line the diff adds (or deletes) */
	int allow;		/* allowlist entry index, or -1 */
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

struct gate {
	git_repository *repo;
	struct store *st;	/* blob cache, or NULL */
	int jobs;		/* lexer threads */
	bool inmem;		/* objects in memory: lex in this thread */
	struct gate_blobs *blobs;
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
 * gate_diff_trees - gate_touch + gate_blobs_load + gate_compare for one
 * change, with changed lines.
 */
int gate_diff_trees(struct gate *g, git_tree *old, git_tree *new_,
		    struct gate_touched *t, struct gate_change *out);

/* ---- patches ---- */

/* gate_mempack - make @repo write new objects to memory only. */
int gate_mempack(git_repository *repo);

/*
 * gate_apply_patch - apply the patch text @buf (@len bytes; a git
 * format-patch mbox with one or more messages, or a plain unified diff)
 * named @name to @base, in memory (call gate_mempack() first).  *@old and
 * *@out receive the trees before and after, holding only the files the
 * patch names (and .kmig-allow), which is all gate_touch() needs.
 * *@subject receives the first message's subject (NULL for a plain diff),
 * *@npatches the number of messages applied.  A patch that does not apply
 * is an error naming the first failing file and hunk.
 */
int gate_apply_patch(git_tree **old, git_tree **out, char **subject,
		     size_t *npatches, git_repository *repo, git_tree *base,
		     const char *name, const char *buf, size_t len);

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

#endif
