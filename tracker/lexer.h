/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lexer.h - find deprecated-API use sites in one C source buffer.
 *
 * A lexical scanner, no preprocessing: comments, string and character
 * literals, backslash-newline continuations and preprocessor lines are
 * understood; #if 0 blocks are scanned as code.  See rules.def and the
 * README's "Rules" section for the matching semantics of each rule.
 *
 * The functions are pure and thread-safe: no global state.
 *
 * Implemented in lexer.c (the entry points), lex-token.c (tokenizer),
 * lex-scan.c (the walk over the tokens), lex-match.c (rule matchers),
 * lex-words.c (keywords and rule names) and lex-scope.c (path_in_scope());
 * what they share is in lex-internal.h.
 */
#ifndef KMIG_LEXER_H
#define KMIG_LEXER_H

#include <stdbool.h>
#include <stddef.h>

struct site {
	int rule;		/* enum rule_id */
	unsigned int line;	/* 1-based physical line of the match */
	char *func;		/* enclosing function or macro name, or NULL */
	/*
	 * That source line, whitespace-normalised.  For a site at a call's
	 * name whose call closes on a later line (16 lines at most), the
	 * code of every line from the site's to the ')' one, joined: its
	 * tokens without the comments, directives or backslash-newlines
	 * between them; for a printk-p format among a call's arguments,
	 * every line from the call's name's to its ')' one, joined alike.
	 */
	char *text;
	/*
	 * vla only: the plain names its size depends on that the buffer
	 * does not define, blank-separated, or NULL.  The site is a VLA
	 * unless the release's headers define every one of them as an
	 * enumerator or a constant macro (the "k" facts below; reach.h).
	 */
	char *deps;
};

/*
 * struct site_list.funcs: the call graph facts of the buffer (lex-funcs.c),
 * for reach.h, and its constants (reach_consts_cover()); NULL when it has none
 * of them.  Text, one record a line, fields separated by one blank:
 *
 *   n NAME...                    every name below, by index from 0
 *   f NAME LINE END STATIC CALLEE...
 *                                a function defined on LINE..END (the
 *                                closing brace), STATIC 1 or 0, and the
 *                                names it calls directly, each once
 *   e KIND NAME LINE             NAME is an entry point (entry.def): KIND
 *                                ".member", the attribute macro or the
 *                                SYSCALL_DEFINEn that names it
 *
 *   k IDENT...                   the identifiers (not indexes) the buffer
 *                                defines as enumerators or as object-like
 *                                macros with constant bodies
 *   d IDENT DEP...               an object-like macro whose body is constant
 *                                when the identifiers DEP are
 *
 * NAME, KIND and CALLEE are indexes into the "n" line.  Lexing fills it;
 * store_blob_sites() leaves it NULL (store_blob_funcs() reads it).
 */
struct site_list {
	struct site *v;
	size_t n, alloc;
	char *funcs;
};
#define SITE_LIST_INIT { NULL, 0, 0, NULL }

/*
 * lex_buffer - append every use site in @buf (@len bytes, need not be
 * NUL-terminated) to @out, in order of position.  Returns 0, or negative
 * only on impossible input (never for malformed C, which is scanned as
 * well as it can be).
 */
int lex_buffer(const char *buf, size_t len, struct site_list *out);

/*
 * lex_buffer_with - lex_buffer() reusing the memory in @scratch (one per
 * thread; start with LEX_SCRATCH_INIT, free with lex_scratch_release()),
 * so lexing many buffers in a row does not allocate and fault in fresh
 * memory for each.
 */
struct lex_scratch {
	void *tok;
	size_t alloc;
	/*
	 * full: lex every function body token by token, never skimmed
	 * (lex-token.c's body_skim()): the reference the skimming must
	 * equal, for the tests and lexbench --full
	 */
	bool full;
	/* function bodies skimmed, their bytes, buffers lexed twice */
	unsigned long skimmed, relexed;
	unsigned long long skimmed_bytes;
	/* the lexer's other arrays, emptied, for the next call (lexer.c) */
	void *keep;
};
#define LEX_SCRATCH_INIT { NULL, 0, false, 0, 0, 0, NULL }

int lex_buffer_with(const char *buf, size_t len, struct site_list *out,
		    struct lex_scratch *scratch);
void lex_scratch_release(struct lex_scratch *scratch);

/* site_list_clear - free every site's strings and empty the list. */
void site_list_clear(struct site_list *l);

/*
 * path_in_scope - true for .c and .h files outside the user-space and
 * host trees: tools/, scripts/, Documentation/, usr/ and samples/bpf/ at
 * the top, a tools/ or Documentation/ directory anywhere.
 */
bool path_in_scope(const char *path);

#endif
