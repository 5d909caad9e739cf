// SPDX-License-Identifier: GPL-2.0
/*
 * web-replace.c - web_replace(): move a freshly written site over the old
 * one atomically, refusing to replace a directory kmig web did not write.
 * Generic but for the marker check.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmig.h"
#include "web.h"

int web_replace_check(const char *dir, bool *exists)
{
	struct stat sb;
	char *marker;
	int ret = 0;

	*exists = false;
	if (lstat(dir, &sb) < 0) {
		if (errno != ENOENT)
			return kmig_err("cannot access '%s': %s", dir, strerror(errno));
		return 0;
	}
	if (!S_ISDIR(sb.st_mode))
		return kmig_err("'%s' exists and is not a directory", dir);
	*exists = true;
	marker = xasprintf("%s/%s", dir, WEB_MARKER);
	if (access(marker, F_OK) < 0 && !dir_is_empty(dir))
		ret = kmig_err("'%s' is not a site written by kmig web (no %s in it); refusing to replace it",
			       dir, WEB_MARKER);
	free(marker);
	return ret;
}

int web_replace(const char *tmp, const char *dir, char **left)
{
	char *old;
	bool exists;
	int ret;

	*left = NULL;
	ret = web_replace_check(dir, &exists);
	if (ret)
		return ret;
	if (!exists) {
		if (rename(tmp, dir) < 0)
			return kmig_err("cannot rename '%s' to '%s': %s", tmp, dir,
					strerror(errno));
		return 0;
	}
	/* swap atomically where the file system can; tmp then holds the old site */
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE) == 0) {
		old = xstrdup(tmp);
	} else {
		old = xasprintf("%s.old-%ld", dir, (long)getpid());
		if (rename(dir, old) < 0) {
			ret = kmig_err("cannot rename '%s' to '%s': %s", dir, old,
				       strerror(errno));
			goto out_free_old;
		}
		if (rename(tmp, dir) < 0) {
			ret = kmig_err("cannot rename '%s' to '%s': %s", tmp, dir,
				       strerror(errno));
			rename(old, dir);	/* put the old site back */
			goto out_free_old;
		}
	}
	/* the new site is in place: an old copy left is no failure of it */
	if (rm_rf(old)) {
		*left = old;
		return 0;
	}
out_free_old:
	free(old);
	return ret;
}
