/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series.h - the conversion branch's patch series: a quilt "series" file
 * and git format-patch mbox files.
 *
 * A series directory holds "series" (one patch file name per line, '#'
 * comments and blank lines ignored; after a name, quilt's -p1 or -pab,
 * any other option is an error) and the patches it names.  A patch is
 * one mbox message as git format-patch writes it:
 *
 *	From <commit> Mon Sep 17 00:00:00 2001
 *	From: Author Name <author@example.org>
 *	Date: Sun, 16 Dec 2018 09:01:08 +0200
 *	Subject: [PATCH] subject line
 *
 *	message body
 *	---
 *	 diffstat
 *
 *	diff --git a/... b/...
 *	...
 *	--
 *	signature
 *
 * Parsing follows git mailinfo where it matters for kmig, with the rules
 * of patch.h (headers, subjects) and its diff_parse() (files and hunks
 * read by libgit2): the message ends at the first "---" line or the first
 * "diff --git" line, and the diff ends after the last hunk (hunk line
 * counts decide, so a trailing "-- " signature is never mistaken for diff
 * content).  RFC 2047 encoded words in headers are kept as they are.
 *
 * Ownership: every string in the structures below is owned by the
 * structure and freed by the matching *_clear() function; pointers into
 * mbox_patch.diff (hunk and header texts) stay valid as long as the patch.
 */
#ifndef KMIG_SERIES_H
#define KMIG_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "patch.h"
#include "util.h"

struct mbox_patch {
	char *commit;		/* from the "From <commit>" line, or NULL */
	char *author_name;
	char *author_email;
	long long time;		/* Unix seconds */
	int offset;		/* minutes east of UTC */
	char *subject;		/* without the leading [PATCH ...] tags */
	char *body;		/* message after the subject, trimmed, may be "" */
	char *diff;		/* "diff --git" through the last hunk */
	size_t diff_len;
	struct patch_file *files;
	size_t nfiles, afiles;
};

/*
 * mbox_parse - parse the @len bytes of one format-patch message; @name
 * names the patch in error messages.  A message without a diff is an
 * error.  Clear @out with mbox_patch_clear() in every case.
 */
int mbox_parse(struct mbox_patch *out, const char *buf, size_t len,
	       const char *name);
/* mbox_read - mbox_parse() of the file at @path. */
int mbox_read(struct mbox_patch *out, const char *path);
void mbox_patch_clear(struct mbox_patch *p);

/* mbox_message - the commit message: subject, blank line, body (malloc'd). */
char *mbox_message(const struct mbox_patch *p);

/*
 * mbox_format - append a format-patch message to @out: @commit (NULL:
 * all zeros) in the "From " line, author, date in RFC 2822 form at
 * @offset minutes east of UTC, "[PATCH] " + the first paragraph of
 * @message as the subject, the rest as the body, "---", @diffstat (may
 * be NULL), a blank line, @diff, and a "-- " signature.
 */
void mbox_format(struct sbuf *out, const char *commit, const char *name,
		 const char *email, long long time, int offset,
		 const char *message, const char *diffstat, const char *diff);

/*
 * One file of a diffstat: its path and the lines it adds and removes,
 * and what git's summary lines say of it.  A file of two modes 0 was
 * changed in place (modes unknown: no summary line).
 */
struct diffstat_file {
	const char *name;	/* the path (of a rename: the new one) */
	size_t added, deleted;	/* lines; of a binary file: the bytes of
				 * the new and the old blob (0 and 0: same) */
	const char *old_name;	/* a rename's old path, else NULL */
	int similarity;		/* a rename's, in percent */
	unsigned int old_mode;	/* 0: created */
	unsigned int new_mode;	/* 0: deleted */
	bool binary;
};
/*
 * diffstat_format - append the diffstat of the @n files @f as git
 * format-patch writes it (--stat=@width, 72 for a mail), as git's
 * show_stats() and diff_summary() do: the names shortened from the left
 * ("...") and the +/- graph scaled to fit the width, a rename as
 * "dir/{old => new}/x.c", a binary file as "Bin 100 -> 123 bytes", names
 * C-quoted where git quotes them; then the summary line (" 2 files
 * changed, 3 insertions(+), 1 deletion(-)"; binary files count as files
 * only), then a line for each file created, deleted, renamed or whose
 * mode changed (" create mode 100644 x.c", " mode change 100644 =>
 * 100755 x.sh").
 */
void diffstat_format(struct sbuf *out, const struct diffstat_file *f, size_t n,
		     int width);
/*
 * diffstat_diff - diffstat_format() of the files of @diff (in its order;
 * renames found or not by the caller), binary files as libgit2 finds them
 * (the patch of @diff has a "GIT binary patch" for them).  0, or negative
 * with the error recorded.
 */
int diffstat_diff(struct sbuf *out, git_repository *repo, git_diff *diff,
		  int width);

/* rfc2822_date - "Sun, 16 Dec 2018 09:01:08 +0200" into @buf (>= 40 bytes). */
void rfc2822_date(char *buf, size_t size, long long time, int offset);
/* rfc2822_parse - the reverse; 0, or negative when @s is not such a date. */
int rfc2822_parse(const char *s, long long *time, int *offset);

/* The series file. */
struct series {
	char *dir;
	char **names;		/* patch file names, in order */
	size_t n, alloc;
};
/*
 * series_read - read @dir/series; a missing series file is an error
 * unless @missing_ok (then the series is empty), and so is an option
 * other than -p1 or -pab after a name (-p0, -R).
 */
int series_read(struct series *out, const char *dir, bool missing_ok);
void series_clear(struct series *s);
/* series_path - "@dir/@name" (malloc'd). */
char *series_path(const struct series *s, const char *name);
/* series_append - add @name to the end of @dir/series (created if needed). */
int series_append(const char *dir, const char *name);
/*
 * series_write - rewrite @dir/series with @names, keeping what the old
 * file has besides its names: the lines of an entry kept stay as they
 * were (its -p1, a comment after it), comments and blank lines stay
 * above the entry they were above (that of an entry dropped: above the
 * next entry kept), a new name is a line of its own.  Written with
 * write_file_replace(): the old file or the new one, never a part.
 */
int series_write(const char *dir, char *const *names, size_t n);
/* series_format - the text series_write() writes, added to @out. */
void series_format(struct sbuf *out, const char *dir, char *const *names,
		   size_t n);
/* series_next_number - 1 + the highest "NNNN-" prefix among @s's names. */
int series_next_number(const struct series *s);

/*
 * patch_file_name - "NNNN-<subject slug>.patch" as git format-patch names
 * it (the slug keeps [A-Za-z0-9_.] and turns runs of others into '-',
 * at most 52 characters).  malloc'd.
 */
char *patch_file_name(int number, const char *subject);

/*
 * series_deprecated_reason - the first paragraph of the section titled
 * @title of Documentation/process/deprecated.rst in @tree, re-wrapped at
 * 72 columns, rst ``markup`` removed (malloc'd); NULL when the file or
 * the section is missing.
 */
char *series_deprecated_reason(git_repository *repo, git_tree *tree,
			       const char *title);

#endif
