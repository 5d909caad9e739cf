// SPDX-License-Identifier: GPL-2.0
/*
 * lex-scope.c - the scope policy: which files of a tree kmig lexes at all
 * (path_in_scope(), lexer.h).  The same for `kmig scan` and `kmig check`.
 */
#include <stdbool.h>
#include <string.h>

#include "lexer.h"
#include "util.h"

bool path_in_scope(const char *path)
{
	static const char *const skip[] = {
		"tools/", "scripts/", "Documentation/", "usr/",
	};
	size_t i, n;

	if (!path)
		return false;
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	while (path[0] == '/')
		path++;
	n = strlen(path);
	if (n < 3 || path[n - 2] != '.' ||
	    (path[n - 1] != 'c' && path[n - 1] != 'h'))
		return false;
	for (i = 0; i < ARRAY_SIZE(skip); i++)
		if (!strncmp(path, skip[i], strlen(skip[i])))
			return false;
	return true;
}
