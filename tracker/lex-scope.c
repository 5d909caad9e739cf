// SPDX-License-Identifier: GPL-2.0
/*
 * lex-scope.c - the scope policy: which files of a tree kmig lexes at all
 * (path_in_scope(), lexer.h).  The same for `kmig scan` and `kmig check`.
 */
#include <stdbool.h>
#include <string.h>

#include "lexer.h"
#include "util.h"

/*
 * What is no kernel code: the user-space and host trees at the top, a
 * tools/ or Documentation/ directory anywhere (arch/x86/tools/relocs.c,
 * arch/s390/tools/gen_facilities.c, drivers/staging/greybus/Documentation/
 * firmware/firmware.c: every .c and .h under one in v7.3.4 is a host or
 * user-space program) and samples/bpf/ (user-space loaders and BPF
 * programs: its VLAs were 9 of v7.3.4's 11).  The kernel's own samples/
 * modules stay in.
 */
static const char *const skip_top[] = {
	"tools/", "scripts/", "Documentation/", "usr/", "samples/bpf/",
};

static const char *const skip_dir[] = {
	"/tools/", "/Documentation/",
};

bool path_in_scope(const char *path)
{
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
	for (i = 0; i < ARRAY_SIZE(skip_top); i++)
		if (!strncmp(path, skip_top[i], strlen(skip_top[i])))
			return false;
	for (i = 0; i < ARRAY_SIZE(skip_dir); i++)
		if (strstr(path, skip_dir[i]))
			return false;
	return true;
}
