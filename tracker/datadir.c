// SPDX-License-Identifier: GPL-2.0
/*
 * datadir.c - kmig's runtime data directories; see datadir.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"
#include "util.h"

/* $(PREFIX)/share/kmig, from the Makefile. */
#ifndef KMIG_DATADIR
#define KMIG_DATADIR "/usr/local/share/kmig"
#endif

static const struct {
	const char *env;	/* the override */
	const char *src;	/* in the source tree */
	const char *inst;	/* under share/kmig */
	const char *what;	/* for the error message */
} kinds[] = {
	[DATADIR_QEMU] = { "KMIG_QEMU_DIR", "qemu", "qemu", "qemu/ directory" },
	[DATADIR_COCCI] = { "KMIG_COCCI_DIR", "tracker/cocci", "cocci",
			    "semantic patches" },
	[DATADIR_DEBIAN] = { "KMIG_DEBIAN_DIR", "tracker/debian", "debian",
			     "Debian suites" },
};

/* exe_dir - the directory of the running executable, or NULL (static). */
static const char *exe_dir(void)
{
	static char *dir;
	static bool done;
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (done)
		return dir;
	done = true;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	dir = xstrdup(exe);
	return dir;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Take @path (freed otherwise) when it is a directory. */
static bool take_dir(char **out, char *path)
{
	if (is_dir(path)) {
		*out = path;
		return true;
	}
	free(path);
	return false;
}

static char *lookup(enum datadir_kind kind)
{
	const char *env = getenv(kinds[kind].env), *exe = exe_dir();
	const char *slash = exe ? strrchr(exe, '/') : NULL;
	char *dir;

	if (env && *env)
		return xstrdup(env);
	if (exe &&
	    (take_dir(&dir, xasprintf("%s/%s", exe, kinds[kind].src)) ||
	     /* build/tests/test-* and build-asan/tests/test-* */
	     take_dir(&dir, xasprintf("%s/../../%s", exe, kinds[kind].src))))
		return dir;
	/* PREFIX/bin/kmig: PREFIX/share/kmig */
	if (slash && take_dir(&dir, xasprintf("%.*s/share/kmig/%s",
					      (int)(slash - exe), exe,
					      kinds[kind].inst)))
		return dir;
	if (take_dir(&dir, xasprintf("%s/%s", KMIG_DATADIR, kinds[kind].inst)))
		return dir;
	return NULL;
}

const char *datadir_find(enum datadir_kind kind)
{
	static char *found[ARRAY_SIZE(kinds)];

	if (!found[kind])
		found[kind] = lookup(kind);
	if (!found[kind])
		kmig_err("cannot find kmig's %s (set %s)", kinds[kind].what,
			 kinds[kind].env);
	return found[kind];
}

char *datadir_file(enum datadir_kind kind, const char *name)
{
	const char *dir = datadir_find(kind);
	char *path;

	if (!dir)
		return NULL;
	path = xasprintf("%s/%s", dir, name);
	if (access(path, R_OK)) {
		kmig_err("cannot read '%s': %s", path, strerror(errno));
		free(path);
		return NULL;
	}
	return path;
}

char *datadir_series(void)
{
	const char *exe = exe_dir();
	char *dir;

	if (is_dir("branch-patches"))
		return xstrdup("branch-patches");
	if (exe && take_dir(&dir, xasprintf("%s/branch-patches", exe)))
		return dir;
	return xstrdup("branch-patches");
}
