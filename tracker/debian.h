/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debian.h - find, download and unpack Debian's linux-source packages.
 *
 * Uses the package manager's own tools (apt-cache, apt-get download,
 * dpkg-deb, tar); nothing is installed on the system.
 */
#ifndef KMIG_DEBIAN_H
#define KMIG_DEBIAN_H

#include "util.h"

struct deb_version {
	char *package;		/* linux-source-6.1 */
	char *upstream;		/* 6.1.192 */
	char *debian;		/* 6.1.192-3 */
};

struct deb_list {
	struct deb_version *v;
	size_t n, alloc;
};

/*
 * deb_available - every linux-source-X.Y version the package manager
 * offers, newest first within a package.  With @package NULL, all
 * linux-source-X.Y packages; else only that one.
 */
int deb_available(struct deb_list *out, const char *package);
void deb_list_clear(struct deb_list *l);

/*
 * deb_resolve - map a user's VERSION ("6.1.192" or "6.1.192-3") to an
 * available package version (the newest Debian revision of an upstream
 * version).  Fills @out (caller clears with deb_version_clear()).
 */
int deb_resolve(struct deb_version *out, const char *version);
void deb_version_clear(struct deb_version *v);

/*
 * deb_fetch - path of the .deb in @debs_dir, downloading it with
 * "apt-get download" when not already there.  Caller frees *path.
 */
int deb_fetch(char **path, const struct deb_version *v, const char *debs_dir);

/*
 * unpack_source - unpack the kernel tarball inside @deb (or the tarball
 * @tarball itself when @deb is NULL) into @dir; *root receives the tree's
 * top directory (the single top-level directory of the archive, if any).
 */
int unpack_source(char **root, const char *deb, const char *tarball,
		  const char *dir);

#endif
