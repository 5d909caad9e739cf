/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recipients.h - who to tell about a commit that broke something: the
 * To: and Cc: of kmig bisect's report.
 *
 *	To: the commit's author, then the M: (maintainers) of the
 *	    MAINTAINERS sections of the files it touches
 *	Cc: the people of its Signed-off-by, Reviewed-by, Acked-by,
 *	    Tested-by and Reported-by trailers (in that key order, each
 *	    key's in message order; patch.h's trailer block), then the
 *	    sections' R: (reviewers) and L: (lists)
 *
 * The MAINTAINERS is the one of the commit's own tree (the release it is
 * in); sections are matched with maintainers.h (the most specific section
 * of each file).  Each address appears once, in the first place it was
 * found (compared without case, by the part in <> when there is one).
 * Nothing prints; functions return 0 or negative with kmig_err().
 */
#ifndef KMIG_RECIPIENTS_H
#define KMIG_RECIPIENTS_H

#include <git2.h>
#include <stddef.h>

struct recipients {
	char **to;		/* "Name <addr>" or "addr", malloc'd */
	size_t nto;
	char **cc;
	size_t ncc;
	char **sections;	/* the MAINTAINERS section titles matched */
	size_t nsections;
};

/*
 * recipients_from - the recipients of a commit by @author ("Name <addr>")
 * with message @message touching @paths, under MAINTAINERS text
 * @maintainers (@len bytes).  *@r is the caller's (recipients_release).
 */
int recipients_from(const char *author, const char *message,
		    const char *maintainers, size_t len,
		    const char *const *paths, size_t npaths,
		    struct recipients *r);

/*
 * recipients_of_commit - recipients_from() for commit @id (40 hex) of
 * @repo: its author, message, the paths its first-parent diff touches
 * (old and new names) and its tree's MAINTAINERS (none: no section).
 */
int recipients_of_commit(git_repository *repo, const char *id,
			 struct recipients *r);

/* recipients_format - "To: a, b\nCc: c\n" (a line is left out when it
 * has nobody; caller frees). */
char *recipients_format(const struct recipients *r);

void recipients_release(struct recipients *r);

#endif
