/* SPDX-License-Identifier: GPL-2.0 */
/*
 * patch.h - the one reader of patch text: mbox splitting, header lines,
 * subjects, the diff inside a message, and commit message trailers.  Used
 * by "kmig check" (gate-apply.c), "kmig branch" (branch.c, series.c) and
 * "kmig convert" (series.c); what a format-patch message looks like is
 * described in series.h.
 *
 * The rules, the same for every command:
 *  - an mbox is split at "From <40 hex digits> " lines (what git
 *    format-patch writes); text before the first such line belongs to the
 *    first message;
 *  - a header ends at the next line that does not start with a blank or
 *    tab (folded lines are joined, without their line break); the headers
 *    end at the first empty line;
 *  - a subject is whitespace-normalised (runs of blanks become one blank)
 *    and loses every leading "[...]" tag and "Re:" (any case), as git
 *    mailinfo does;
 *  - a trailer is a "Key: value" line of the message's trailer block (its
 *    last paragraph, as git interpret-trailers and git_message_trailers()
 *    decide), never a line of the body above it.
 *
 * Nothing here prints.  The mbox, header and trailer functions record no
 * error: they return a value or NULL/false.  diff_parse() records its
 * error with kmig_err().  Every returned string is malloc'd and the
 * caller's.
 */
#ifndef KMIG_PATCH_H
#define KMIG_PATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* patch_line_len - length of the line at @p (up to @end), with its '\n'. */
size_t patch_line_len(const char *p, const char *end);

/* patch_line_chomp - the same length without the line's '\n'. */
size_t patch_line_chomp(const char *p, const char *end);

/* patch_trim_dup - the @len bytes at @s without surrounding white space. */
char *patch_trim_dup(const char *s, size_t len);

/*
 * patch_without_crs - a copy of the @*len bytes at @p without the CR of
 * each CR LF, when its first line ends in CR LF (a mailer's, or an
 * editor's on another system), as git am (git mailsplit) and patch(1)
 * read it; *@len becomes its length.  NULL (nothing to do) when the first
 * line ends in LF alone.  Caller frees.
 */
char *patch_without_crs(const char *p, size_t *len);

/*
 * patch_path_dup - the path of @len bytes at @s as a diff header names it:
 * without surrounding white space, and a C-quoted path (git's quoting of
 * names with a '"', a '\', control or non-ASCII bytes: "a/caf\303\251.c")
 * decoded.  A quoted path that is not closed, is empty, has text after
 * its closing quote or holds an escape git does not write is returned as
 * written, quotes and all.
 */
char *patch_path_dup(const char *s, size_t len);

/* patch_starts - whether the text at @p (up to @end) starts with @prefix. */
bool patch_starts(const char *p, const char *end, const char *prefix);

/*
 * patch_is_from_line - whether @p starts an mbox message: git
 * format-patch's "From <40 hex> " line, or another mailer's "From SENDER
 * DATE" with a ctime() date ("From mboxrd@z Thu Jan  1 00:00:00 1970").
 */
bool patch_is_from_line(const char *p, const char *end);

/*
 * patch_is_mbox - whether the @len bytes at @buf look like mail: a
 * "From <hex> " line, or a "From:" or "Subject:" header at the start.
 * Anything else is taken for a plain diff (maybe with text before it).
 */
bool patch_is_mbox(const char *buf, size_t len);

/* One message of an mbox: @len bytes at @start, inside the caller's text. */
struct patch_span {
	const char *start;
	size_t len;
};

/*
 * patch_mbox_split - the messages of the mbox @buf (@len bytes) into
 * *@out (malloc'd array, pointers into @buf); returns their number,
 * at least 1 when @len > 0.
 */
size_t patch_mbox_split(struct patch_span **out, const char *buf, size_t len);

/*
 * patch_header_next - the header line at *@p (before @end), unfolded,
 * into @hdr (reset first) and *@p moved past it.  Returns false, with
 * *@p past the empty line, at the end of the headers (or of the text).
 */
bool patch_header_next(const char **p, const char *end, struct sbuf *hdr);

/*
 * patch_header_value - when @hdr is a "@key:" header (any case), its
 * value without surrounding white space and with its RFC 2047 encoded
 * words decoded (patch_header_decode(); malloc'd); else NULL.
 */
char *patch_header_value(const struct sbuf *hdr, const char *key);

/*
 * patch_header_decode - @v with its RFC 2047 encoded words
 * ("=?UTF-8?q?J=C3=B6rg?=", B or Q, as git format-patch writes a name or
 * subject that is not ASCII) decoded to UTF-8 (malloc'd), the blanks
 * between two of them dropped.  Only UTF-8, US-ASCII and ISO-8859-1 are
 * decoded; a word in another charset, or one that would hold a NUL, stays
 * as it is.
 */
char *patch_header_decode(const char *v);

/* patch_subject - @raw as a subject: normalised, tags and "Re:" dropped. */
char *patch_subject(const char *raw);

/*
 * patch_message_subject - the subject (patch_subject()) of the first
 * Subject: header of the message @msg (@len bytes), or NULL.
 */
char *patch_message_subject(const char *msg, size_t len);

/*
 * patch_body_decode - the message @msg (@len bytes) with its body decoded
 * when its Content-Transfer-Encoding is quoted-printable or base64 (as
 * some mailers send a patch, and git am reads it), or when it is a MIME
 * multipart: then its text parts (text/plain, text/x-patch, text/x-diff,
 * an attachment named *.patch or *.diff), each decoded, in their order,
 * nested multiparts and forwarded mails (message/rfc822) included, a last
 * part without the closing delimiter to the end; HTML, signatures and
 * images are left out.
 * The headers as they are, then the decoded body; *@outlen its length.
 * NULL (nothing to do) for a single part with any other encoding or none.
 * Caller frees.
 */
char *patch_body_decode(const char *msg, size_t len, size_t *outlen);

/*
 * patch_find_diff - the diff in the text @p..@end: from the first
 * "diff --git " line (or a "--- " line followed by "+++ "), up to a
 * final "-- " signature line followed by at most two short lines of
 * plain text (git format-patch's version signature).  Returns false,
 * with *@dstart NULL, when there is no diff.
 */
bool patch_find_diff(const char *p, const char *end, const char **dstart,
		     const char **dend);

/*
 * patch_trailer - the value of the last "@key:" (any case) trailer of
 * @message's trailer block (malloc'd), or NULL; with @line non-NULL,
 * *@line and *@line_len receive the trailer's line in @message,
 * its '\n' included.
 */
char *patch_trailer(const char *message, const char *key, const char **line,
		    size_t *line_len);
/*
 * patch_trailer_values - every "@key:" (any case) trailer of @message's
 * trailer block, in message order, each trimmed and malloc'd: *@out
 * (NULL when none, caller frees each and the array), *@n their number.
 * Returns 0, or KMIG_EGENERIC (no error recorded) when libgit2 cannot
 * parse the message.
 */
int patch_trailer_values(const char *message, const char *key, char ***out,
			 size_t *n);

/* ---- unified diffs (files and hunks from libgit2) ---- */

struct patch_hunk {
	const char *text;	/* "@@ ..." line through its last line */
	size_t len;
	unsigned long old_start, old_lines, new_start, new_lines;
};

struct patch_file {
	char *old_path;		/* NULL when the patch creates the file */
	char *new_path;		/* NULL when the patch deletes the file */
	char *old_mode;		/* "deleted file mode" value, or NULL */
	char *new_mode;		/* "new file mode" value, or NULL */
	bool special;		/* binary, rename or copy: header-only handling */
	const char *header;	/* "diff --git" line up to the first hunk */
	size_t header_len;
	struct patch_hunk *hunks;
	size_t nhunks, ahunks;
};

/*
 * diff_parse - split the unified diff @diff (@len bytes, starting at its
 * first "diff --git " line) into files and hunks, appended to *@files
 * (*@nfiles used, *@afiles allocated).  Files, paths, modes and hunks are
 * libgit2's reading (git_diff_from_buffer(), git_patch_get_hunk(),
 * git_patch_get_line_in_hunk()); only the extent of each file's header,
 * which libgit2 does not give, is read here.  The diff ends after the last
 * hunk (or header) not followed by another file, so a "-- " signature or
 * any text after it is never taken for diff content; *@end receives its
 * length.  Hunk and header pointers point into @diff.  Returns 0, or a
 * negative code with the message recorded ("no diff found", "malformed
 * hunk header '...'", "truncated hunk in 'PATH'").  Free the files with
 * patch_files_free() in every case.
 */
int diff_parse(struct patch_file **files, size_t *nfiles, size_t *afiles,
	       const char *diff, size_t len, size_t *end);
/* patch_files_free - free @nfiles files of @files and the array. */
void patch_files_free(struct patch_file *files, size_t nfiles);

/*
 * patch_file_text - append to @out a minimal unified diff for file @f
 * holding its hunks whose index is set in @pick (NULL: all hunks),
 * reversed (old and new swapped) when @reverse; an empty context line is
 * written with its space.  Returns KMIG_EUSAGE for a reversal of a
 * rename, copy or binary patch, which kmig does not do.
 */
int patch_file_text(struct sbuf *out, const struct patch_file *f,
		    const bool *pick, bool reverse);

#endif
