// SPDX-License-Identifier: GPL-2.0
/*
 * lex-words.c - the lexer's identifier table: the C keywords the rules
 * care about (each with its enum word_class) and every rule's names (with
 * the bit of each rule that names it), hashed on (length, first and last
 * byte) for lex-token.c, which looks up every identifier whose bucket is
 * not empty with lex_word_find_hashed().
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lex-internal.h"
#include "rules.h"
#include "util.h"

static const struct {
	const char *s;
	enum word_class cls;
} keywords[] = {
	{ "struct", W_STRUCT }, { "union", W_STRUCT }, { "enum", W_ENUM },
	{ "const", W_CONST },
	{ "sizeof", W_SIZEOF }, { "__alignof__", W_SIZEOF },
	{ "__alignof", W_SIZEOF }, { "_Alignof", W_SIZEOF },
	{ "alignof", W_SIZEOF },
	{ "return", W_STMT }, { "else", W_STMT }, { "do", W_STMT },
	{ "case", W_STMT }, { "default", W_STMT }, { "goto", W_STMT },
	{ "if", W_STMT }, { "while", W_STMT }, { "for", W_STMT },
	{ "switch", W_STMT }, { "break", W_STMT }, { "continue", W_STMT },
	{ "typeof", W_STMT }, { "__typeof__", W_STMT },
	{ "__typeof", W_STMT }, { "asm", W_STMT }, { "__asm__", W_STMT },
	{ "__asm", W_STMT },
	{ "void", W_KEYWORD }, { "char", W_KEYWORD }, { "short", W_KEYWORD },
	{ "int", W_KEYWORD }, { "long", W_KEYWORD }, { "float", W_KEYWORD },
	{ "double", W_KEYWORD }, { "signed", W_KEYWORD },
	{ "__signed__", W_KEYWORD }, { "unsigned", W_KEYWORD },
	{ "_Bool", W_KEYWORD }, { "bool", W_KEYWORD },
	{ "volatile", W_KEYWORD }, { "__volatile__", W_KEYWORD },
	{ "static", W_KEYWORD }, { "extern", W_KEYWORD },
	{ "register", W_KEYWORD }, { "auto", W_KEYWORD },
	{ "inline", W_KEYWORD }, { "__inline__", W_KEYWORD },
	{ "__inline", W_KEYWORD }, { "restrict", W_KEYWORD },
	{ "__restrict", W_KEYWORD }, { "__restrict__", W_KEYWORD },
	{ "typedef", W_KEYWORD }, { "__const", W_KEYWORD },
	{ "__const__", W_KEYWORD },
	{ "__attribute__", W_ATTR }, { "__attribute", W_ATTR },
	{ "__printf", W_ATTR }, { "__scanf", W_ATTR },
	{ "__section", W_ATTR }, { "__aligned", W_ATTR },
	{ "__alloc_size", W_ATTR }, { "__acquires", W_ATTR },
	{ "__releases", W_ATTR }, { "__must_hold", W_ATTR },
	{ "__cond_acquires", W_ATTR }, { "__cond_releases", W_ATTR },
	{ "__diag_ignore", W_ATTR }, { "__no_sanitize_or_inline", W_ATTR },
};

struct word_table lex_words;

static inline uint64_t load64(const char *s)
{
	uint64_t v;

	memcpy(&v, s, sizeof(v));
	return v;
}

static inline uint32_t load32(const char *s)
{
	uint32_t v;

	memcpy(&v, s, sizeof(v));
	return v;
}

/*
 * Are the @len bytes at @a and @b equal?  Loads that stay inside both
 * (two overlapping ones up to 16 bytes), no memcmp() call: an identifier
 * that hashes to a word's bucket is most often that keyword.
 */
static inline bool same_bytes(const char *a, const char *b, size_t len)
{
	if (len >= 8) {
		if (len > 16)
			return !memcmp(a, b, len);
		return load64(a) == load64(b) &&
		       load64(a + len - 8) == load64(b + len - 8);
	}
	if (len >= 4)
		return load32(a) == load32(b) &&
		       load32(a + len - 4) == load32(b + len - 4);
	return a[0] == b[0] && a[len / 2] == b[len / 2] &&
	       a[len - 1] == b[len - 1];
}

static int word_find(const struct word_table *wt, const char *s, size_t len,
		     unsigned int h)
{
	int i;

	for (i = wt->first[h]; i >= 0; i = wt->next[i])
		if (wt->w[i].len == len && same_bytes(wt->w[i].s, s, len))
			return i;
	return -1;
}

int lex_word_find_hashed(const char *s, size_t len, unsigned int h)
{
	return word_find(&lex_words, s, len, h);
}

int lex_word_find(const char *s, size_t len)
{
	if (len > lex_words.maxlen)
		return -1;
	return word_find(&lex_words, s, len, lex_word_hash(s, len));
}

static int word_add(struct word_table *wt, const char *s, int cls)
{
	size_t len = strlen(s);
	int i = len && len <= wt->maxlen ?
		word_find(wt, s, len, lex_word_hash(s, len)) : -1;

	if (i >= 0)
		return i;
	if (wt->n >= MAX_WORDS || len > 255 || !len)
		abort();	/* the tables above are too big: a bug */
	i = wt->n++;
	wt->w[i].s = s;
	wt->w[i].len = (unsigned char)len;
	wt->w[i].cls = (unsigned char)cls;
	wt->w[i].rules = 0;
	wt->next[i] = wt->first[lex_word_hash(s, len)];
	wt->first[lex_word_hash(s, len)] = (short)i;
	if (len > wt->maxlen)
		wt->maxlen = (unsigned char)len;
	return i;
}

void lex_words_init(void)
{
	const char *const *n;
	size_t i;
	int r, w;

	memset(lex_words.first, 0xff, sizeof(lex_words.first));
	for (i = 0; i < ARRAY_SIZE(keywords); i++)
		word_add(&lex_words, keywords[i].s, keywords[i].cls);
	for (r = 0; r < RULE__COUNT; r++) {
		if (!rules[r].names)
			continue;
		for (n = rules[r].names; *n; n++) {
			w = word_add(&lex_words, *n, W_NAME);
			lex_words.w[w].rules |= 1u << r;
		}
	}
}
