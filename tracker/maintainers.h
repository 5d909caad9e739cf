/* SPDX-License-Identifier: GPL-2.0 */
/*
 * maintainers.h - parse a MAINTAINERS file and map paths to sections.
 *
 * Matching follows the rules of the MAINTAINERS header / get_maintainer.pl:
 * F: patterns (a trailing '/' matches everything below; '*' and '?' match
 * within one path component; a pattern naming a directory without '/' also
 * matches below it), X: excludes, N: regular expressions.  The most
 * specific section wins: the longest matching F: pattern; N: matches rank
 * below any F: match except the catch-all patterns "*" and "*" "/" (THE
 * REST), which rank below everything; ties go to the first section in
 * file order.  No match at all gives "(none)".
 */
#ifndef KMIG_MAINTAINERS_H
#define KMIG_MAINTAINERS_H

#include <stdbool.h>
#include <stddef.h>

#define MAINTAINERS_NONE "(none)"

struct maintainers;

/* maintainers_parse - parse @len bytes; *out is the caller's to free. */
int maintainers_parse(struct maintainers **out, const char *buf, size_t len);
/*
 * maintainers_match - the section title for @path (repository-relative,
 * no leading '/'), or MAINTAINERS_NONE.  The string belongs to @m.
 * Thread-safe for concurrent readers.
 */
const char *maintainers_match(const struct maintainers *m, const char *path);
/* Number of sections parsed. */
size_t maintainers_count(const struct maintainers *m);
/*
 * maintainers_has - whether @title is a section of @m (NULL: none), or
 * MAINTAINERS_NONE, the group of the files no section matches.
 */
bool maintainers_has(const struct maintainers *m, const char *title);
/*
 * Number of malformed lines ignored: F:/X: patterns that are empty, "/"
 * or hold a NUL byte, empty or uncompilable N: expressions, fields before
 * any section title, a field without its colon ("W<tab>value").
 */
size_t maintainers_ignored(const struct maintainers *m);
void maintainers_free(struct maintainers *m);

#endif
