// SPDX-License-Identifier: GPL-2.0
/*
 * lex-words.c - the lexer's identifier table: the C keywords the rules
 * care about (each with its enum word_class) and every rule's names (with
 * the bit of each rule that names it), hashed for lex-token.c's
 * word_find() on every identifier.
 */
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

static inline unsigned int word_hash(const char *s, size_t len)
{
	return ((unsigned int)len * 97u + (unsigned char)s[0] * 7u +
		(unsigned char)s[len - 1]) & (WORD_HASH - 1);
}

static int word_find(const struct word_table *wt, const char *s, size_t len)
{
	int i;

	if (len > wt->maxlen)
		return -1;
	for (i = wt->first[word_hash(s, len)]; i >= 0; i = wt->next[i])
		if (wt->w[i].len == len && !memcmp(wt->w[i].s, s, len))
			return i;
	return -1;
}

int lex_word_find(const char *s, size_t len)
{
	return word_find(&lex_words, s, len);
}

static int word_add(struct word_table *wt, const char *s, int cls)
{
	size_t len = strlen(s);
	int i = word_find(wt, s, len);

	if (i >= 0)
		return i;
	if (wt->n >= MAX_WORDS || len > 255 || !len)
		abort();	/* the tables above are too big: a bug */
	i = wt->n++;
	wt->w[i].s = s;
	wt->w[i].len = (unsigned char)len;
	wt->w[i].cls = (unsigned char)cls;
	wt->w[i].rules = 0;
	wt->next[i] = wt->first[word_hash(s, len)];
	wt->first[word_hash(s, len)] = (short)i;
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
