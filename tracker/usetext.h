/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usetext.h - when two use sites' source lines are the same use.
 *
 * A site's text is its source line, whitespace-normalised by the lexer (a
 * call wrapped onto several lines: those lines joined, lexer.h), so a call
 * whose arguments are re-wrapped is the same use.  A backslash that ends
 * a text (a #define body's line continued) is no part of it.
 * Two sites of one rule are the same use when their texts are equal
 * without their spaces and comments (a comment is a space between
 * tokens), but for one space between two word characters and those inside
 * a string or character literal: a change of spacing or of a comment
 * alone (strcpy( d,s ) to strcpy(d, s), a comment after it) neither adds
 * nor removes a use, while "%s %s" is not "%s%s".  A text of comments
 * alone (a fall-through comment's line), which would so be empty, is
 * compared by the words of its comments instead.  Adjacent string
 * literals ("a " "b") compare as the one string C makes of them ("a b").  The gate (kmig check,
 * kmig log), kmig branch's superseded (on first lines up to a comma, branch.h) and the trend (kmig report --trend,
 * the web) use the same identity.
 */
#ifndef KMIG_USETEXT_H
#define KMIG_USETEXT_H

#include <stddef.h>

/*
 * use_text_cmp - 0 when @a and @b are the same use's text; else their
 * order, that of their use_text_key()s.
 */
int use_text_cmp(const char *a, const char *b);
/*
 * use_text_key - @text as use_text_cmp() compares it, NUL-terminated into
 * @out (strlen(@text) + 1 bytes or more); its length.
 */
size_t use_text_key(const char *text, char *out);

#endif
