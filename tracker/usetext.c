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
	/*
	 * a text of comments alone (a fall-through comment's line): the
	 * words of its comments are the text, after @pre ("/" "*", which no
	 * text with code starts with)
	 */
	bool comments;
	const char *pre;
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

/* Whether @c, at the end of a text but for blanks, continues the line. */
static bool line_continued(const char *c)
{
	return *c == '\\' && !c[1 + strspn(c + 1, " \t")];
}

/*
 * The next character of a text of comments alone: their words, the
 * comment marks and blanks between them one space between two word
 * characters, else nothing.
 */
static char comment_next(struct text_walk *w)
{
	bool gap = false;
	char c;

	if (*w->pre)
		return *w->pre++;
	for (;;) {
		if (*w->p == ' ' || *w->p == '\t')
			w->p++;
		else if ((w->p[0] == '/' && (w->p[1] == '*' || w->p[1] == '/')) ||
			 (w->p[0] == '*' && w->p[1] == '/'))
			w->p += 2;
		else
			break;
		gap = true;
	}
	if (gap && is_ident_char(w->last) && is_ident_char(*w->p)) {
		w->last = ' ';
		return ' ';
	}
	c = *w->p;
	if (!c || line_continued(w->p))
		return 0;
	w->p++;
	w->last = c;
	return c;
}

/*
 * At the closing quote of a string literal that another follows (blanks
 * and comments between): past the next one's opening quote, so adjacent
 * literals read as the one string C makes of them, and true.
 */
static bool string_continued(struct text_walk *w)
{
	struct text_walk t = *w;

	t.quote = 0;
	skip_gap(&t);
	if (*t.p != '"')
		return false;
	w->p = t.p + 1;
	return true;
}

/*
 * The next character of @w's text without its spaces and comments but for
 * one space between two word characters, and the spaces inside a string
 * or character literal; 0 at the end.
 */
static char text_next(struct text_walk *w)
{
	char c;

	if (w->comments)
		return comment_next(w);
again:
	if (!w->quote && skip_gap(w) && is_ident_char(w->last) && is_ident_char(*w->p)) {
		w->last = ' ';
		return ' ';
	}
	c = *w->p;
	if (!w->quote && line_continued(w->p))
		c = 0;	/* a #define body's line continued: not the use's */
	if (!c)
		return 0;
	w->p++;
	if (w->quote) {
		if (w->escaped)
			w->escaped = false;
		else if (c == '\\')
			w->escaped = true;
		else if (c == '"' && w->quote == '"' && string_continued(w))
			goto again;	/* "a " "b" reads "a b" (no recursion: a
					 * line of a million "" is input too) */
		else if (c == w->quote)
			w->quote = 0;
	} else if (c == '"' || c == '\'') {
		w->quote = c;
	}
	w->last = c;
	return c;
}

/*
 * Start a walk of @text: a text of comments alone (nothing else to
 * compare) is compared by the words of its comments, so that two
 * fall-through comments are one use only when they say the same.
 */
static void walk_init(struct text_walk *w, const char *text)
{
	struct text_walk probe = { .p = text };

	memset(w, 0, sizeof(*w));
	w->p = text;
	w->pre = "";
	if (!text_next(&probe) && (strstr(text, "/*") || strstr(text, "//"))) {
		w->comments = true;
		w->pre = "/*";
	}
}

int use_text_cmp(const char *a, const char *b)
{
	struct text_walk x, y;
	char ca, cb;

	walk_init(&x, a);
	walk_init(&y, b);

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
	struct text_walk w;
	size_t n = 0;

	walk_init(&w, text);

	while ((out[n] = text_next(&w)))
		n++;
	return n;
}
