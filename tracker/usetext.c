// SPDX-License-Identifier: GPL-2.0
/*
 * usetext.c - when two use sites' source lines are the same use
 * (usetext.h).
 */
#include <stdbool.h>
#include <string.h>

#include "usetext.h"
#include "util.h"

/* A walk of a site's text as use_text_cmp() compares it. */
struct text_walk {
	const char *p;
	char last;		/* the character given before, or 0 */
	char quote;		/* in a string or character literal: its quote */
	bool escaped;		/* after a backslash in one */
};

/*
 * Past the spaces and comments at w->p (outside a literal): a comment is
 * a space between tokens, a block comment the line does not close runs
 * to its end.  A "//" with the end of a block comment after it is no
 * comment: the line began inside a block comment that holds a URL.
 * Whether there were any.
 */
static bool skip_gap(struct text_walk *w)
{
	bool gap = false;

	for (;;) {
		if (*w->p == ' ' || *w->p == '\t') {
			w->p++;
		} else if (w->p[0] == '/' && w->p[1] == '*') {
			const char *e = strstr(w->p + 2, "*/");

			w->p = e ? e + 2 : w->p + strlen(w->p);
		} else if (w->p[0] == '/' && w->p[1] == '/' && !strstr(w->p + 2, "*/")) {
			/* not in a block comment the line began inside (a URL) */
			w->p += strlen(w->p);
		} else {
			return gap;
		}
		gap = true;
	}
}

/*
 * The next character of @w's text without its spaces and comments but for
 * one space between two word characters, and the spaces inside a string
 * or character literal; 0 at the end.
 */
static char text_next(struct text_walk *w)
{
	char c;

	if (!w->quote && skip_gap(w) && is_ident_char(w->last) && is_ident_char(*w->p)) {
		w->last = ' ';
		return ' ';
	}
	c = *w->p;
	if (!w->quote && c == '\\' && !w->p[1 + strspn(w->p + 1, " \t")])
		c = 0;	/* a #define body's line continued: not the use's */
	if (!c)
		return 0;
	w->p++;
	if (w->quote) {
		if (w->escaped)
			w->escaped = false;
		else if (c == '\\')
			w->escaped = true;
		else if (c == w->quote)
			w->quote = 0;
	} else if (c == '"' || c == '\'') {
		w->quote = c;
	}
	w->last = c;
	return c;
}

int use_text_cmp(const char *a, const char *b)
{
	struct text_walk x = { .p = a }, y = { .p = b };
	char ca, cb;

	do {
		ca = text_next(&x);
		cb = text_next(&y);
		if (ca != cb)
			return (unsigned char)ca < (unsigned char)cb ? -1 : 1;
	} while (ca);
	return 0;
}

size_t use_text_key(const char *text, char *out)
{
	struct text_walk w = { .p = text };
	size_t n = 0;

	while ((out[n] = text_next(&w)))
		n++;
	return n;
}
