// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-lexer.c - libFuzzer harness for the lexer and rule matcher
 * (lex_buffer()).  The input is one C source buffer, not NUL-terminated.
 *
 * Checked beyond "no crash, no sanitizer report": every site names a
 * known rule and a line inside the buffer, has its text, and lexing with
 * function bodies skimmed (lex-token.c's body_skim()) gives the same
 * sites, dependencies and call-graph facts as lexing every body in full
 * (struct lex_scratch.full).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct site_list a = SITE_LIST_INIT, b = SITE_LIST_INIT;
	struct lex_scratch full = LEX_SCRATCH_INIT;
	char *buf = malloc(size ? size : 1);
	unsigned int lines = 1;
	size_t i;

	if (!buf)
		abort();
	memcpy(buf, data, size);	/* exact size: over-reads are caught */
	for (i = 0; i < size; i++)
		if (buf[i] == '\n')
			lines++;
	full.full = true;
	if (lex_buffer(buf, size, &a) || lex_buffer_with(buf, size, &b, &full))
		abort();
	lex_scratch_release(&full);
	if (a.n != b.n || !a.funcs != !b.funcs ||
	    (a.funcs && strcmp(a.funcs, b.funcs)))
		abort();
	for (i = 0; i < a.n; i++) {
		const struct site *s = &a.v[i], *t = &b.v[i];

		if (s->rule < 0 || s->rule >= RULE__COUNT)
			abort();
		if (s->line < 1 || s->line > lines)
			abort();
		if (!s->text)
			abort();
		if (s->rule != t->rule || s->line != t->line ||
		    strcmp(s->text, t->text) ||
		    (!s->func != !t->func) ||
		    (s->func && strcmp(s->func, t->func)) ||
		    (!s->deps != !t->deps) ||
		    (s->deps && strcmp(s->deps, t->deps)))
			abort();
	}
	site_list_clear(&a);
	site_list_clear(&b);
	free(a.v);
	free(b.v);
	free(buf);
	return 0;
}
