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

/* What unpack_source() gives. */
struct unpacked {
	char *root;		/* the tree's top directory */
	bool dated;		/* the package's changelog gave the date */
	long long date;		/* Unix time of the version's changelog entry */
	int tz;			/* its UTC offset in minutes */
};
void unpacked_clear(struct unpacked *u);

/*
 * unpack_source - unpack the kernel tarball inside @deb (or the tarball
 * @tarball itself when @deb is NULL) into @dir.  out->root receives the
 * tree's top directory (the single top-level directory of the archive, if
 * any; caller frees with unpacked_clear()).  For a .deb, the date of its
 * changelog.Debian.gz's first entry, which must be version @debver, is in
 * out->date (out->dated set).  tar skips members outside @dir ("../",
 * absolute names); a symlink pointing outside the tree is refused
 * (KMIG_EUSAGE).  Returns 0 or negative with the message recorded (naming
 * the archive); on error out is empty and @dir may hold partial content.
 */
int unpack_source(struct unpacked *out, const char *deb, const char *debver,
		  const char *tarball, const char *dir);

/*
 * deb_changelog_date - the date of the first entry of the Debian changelog
 * @text (" -- Name <mail>  Sun, 15 Nov 2026 23:30:52 +0100"): *@when in
 * Unix seconds, *@tz the offset in minutes east of UTC.  When @version is
 * not NULL, the entry's version (the header's parenthesised part) must be
 * it.  Returns 0 or KMIG_ENOTFOUND with the message recorded.
 */
int deb_changelog_date(const char *text, const char *version, long long *when,
		       int *tz);

#endif
