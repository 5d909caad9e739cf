// SPDX-License-Identifier: GPL-2.0
/*
 * lexsites.c - print kmig's use sites of each file named on the command
 * line, one "PATH:LINE:RULE:TEXT" per line (for the precision scripts here;
 * they build it against the objects of "make").
 */
#include <stdio.h>
#include <stdlib.h>

#include "lexer.h"
#include "rules.h"
#include "util.h"

int main(int argc, char **argv)
{
	int i, status = 0;

	for (i = 1; i < argc; i++) {
		struct sbuf sb = SBUF_INIT;
		struct site_list sl = { 0 };
		size_t j;

		if (sbuf_read_file(&sb, argv[i]) ||
		    lex_buffer(sb.buf ? sb.buf : "", sb.len, &sl)) {
			fprintf(stderr, "lexsites: %s: %s\n", argv[i], kmig_errmsg());
			status = 2;
			sbuf_release(&sb);
			continue;
		}
		for (j = 0; j < sl.n; j++)
			printf("%s:%u:%s:%s\n", argv[i], sl.v[j].line,
			       rules[sl.v[j].rule].id,
			       sl.v[j].text ? sl.v[j].text : "");
		site_list_clear(&sl);
		sbuf_release(&sb);
	}
	return status;
}
