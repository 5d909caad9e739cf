// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-maintainers.c - libFuzzer harness for the MAINTAINERS parser and
 * path matcher (maintainers_parse(), maintainers_match()).
 *
 * The input is a MAINTAINERS file.  Every F:, X: and N: value in it is
 * also matched as a path (so the patterns meet paths that look like them),
 * as are a few fixed kernel paths.  Checked: parsing never fails on any
 * input, matching always returns a title.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "maintainers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const fixed[] = {
	"", "MAINTAINERS", "Makefile", "net/rds/send.c", "include/linux/slab.h",
	"drivers/net/ethernet/intel/e1000/e1000_main.c", "a/b/c/d/e/f/g.h",
	"arch/x86/kernel/cpu/bugs.c", "fs/ext4/inode.c",
};

static void check(const struct maintainers *m, const char *path)
{
	const char *t = maintainers_match(m, path);

	if (!t)
		abort();
	(void)strlen(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct maintainers *m = NULL;
	char *buf = malloc(size ? size : 1);
	const char *p, *end;
	size_t i;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	if (maintainers_parse(&m, buf, size) || !m)
		abort();
	(void)maintainers_count(m);
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		check(m, fixed[i]);
	/* Match the pattern values themselves, and their stems. */
	for (p = buf, end = buf + size; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		if (e - p > 3 && (p[0] == 'F' || p[0] == 'X' || p[0] == 'N') &&
		    p[1] == ':') {
			const char *v = p + 2;
			char *path;

			while (v < e && (*v == ' ' || *v == '\t'))
				v++;
			path = strndup(v, (size_t)(e - v));
			if (!path)
				abort();
			check(m, path);
			if (strlen(path) > 1) {
				path[strlen(path) - 1] = '\0';
				check(m, path);
			}
			free(path);
		}
		p = nl ? nl + 1 : end;
	}
	maintainers_free(m);
	free(buf);
	return 0;
}
