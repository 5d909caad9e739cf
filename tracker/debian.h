/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debian.h - find, download and unpack Debian's linux-source packages.
 *
 * Uses the package manager's own tools (apt-get update and download,
 * apt-cache, dpkg-deb, tar); nothing is installed on the system, and the
 * machine's apt configuration is neither changed nor used for sources.
 * kmig keeps its own under $KMIG_HOME/apt:
 *
 *	sources.list	written from the suites data (the "suite" records of
 *			tracker/debian/suites, found through datadir.h:
 *			$KMIG_DEBIAN_DIR/suites overrides it), each source
 *			with target=Packages (no other index is fetched) and
 *			signed by the Debian archive keyring unless the
 *			record names its own signed-by= or trusted=
 *	lists/		the package lists (Dir::State::Lists)
 *	cache/		apt's cache (Dir::Cache)
 *	lists.stamp	the sources the lists were made from (its mtime:
 *			when), written by a fully successful update
 *	update.log, download.log   the last apt-get run's output
 *	lock		flock()ed while the sources and lists are checked
 *			and updated: concurrent kmigs update once
 *
 * Every apt command gets -o Dir::Etc::SourceList, Dir::Etc::SourceParts
 * (/dev/null), Dir::State::Lists, Dir::Cache, Debug::NoLocking=1 (no
 * lock of the machine's), Acquire::Languages=none, Acquire::GzipIndexes
 * (lists kept compressed), Dir::Cache::pkgcache=pkgcache.bin (apt-cache
 * answers in milliseconds), and as root APT::Sandbox::User=root.  The module state is per process and for one
 * thread.
 */
#ifndef KMIG_DEBIAN_H
#define KMIG_DEBIAN_H

#include "util.h"

struct deb_version {
	char *package;		/* linux-source-6.1 */
	char *upstream;		/* 6.1.192; 6.13-rc7 for 6.13~rc7-1~exp1 */
	char *debian;		/* 6.1.192-3 */
	char *suite;		/* bookworm-security ("a,b" when several) */
};

/* The package lists are refreshed when older than this (seconds). */
#define DEB_LISTS_MAX_AGE (24 * 60 * 60)
/* A "no such version" error names at most this many versions. */
#define DEB_VERSIONS_SHOWN 12

/*
 * deb_setup - read the suites data, write $KMIG_HOME/apt/sources.list
 * when it differs, and run "apt-get update" when @update, or when the
 * lists are missing, older than DEB_LISTS_MAX_AGE, or were made from
 * other sources.  Done once per process (again when @update); every
 * function below calls it first.  Returns 0, or negative with the error
 * recorded: a suite apt could not fetch (or has no index of afterwards)
 * is named in it ("cannot reach the Debian suite sid (URL)").
 */
int deb_setup(bool update);

/*
 * deb_default_lines - the kernel lines ("6.1") of the suites data's
 * "default" records, in file order.  *lines is the module's (valid until
 * exit); 0 or negative with the error recorded.
 */
int deb_default_lines(char *const **lines, size_t *n);

struct deb_list {
	struct deb_version *v;
	size_t n, alloc;
};

/*
 * deb_available - append to @out every version of linux-source-X.Y the
 * suites offer: the packages in line order (5.10, 6.1, 6.12, ...), each
 * newest first (apt's order), a version offered by several suites once.
 * With @package NULL, every linux-source-X.Y; else only that package.
 * Caller clears @out with deb_list_clear().  0 or negative.
 */
int deb_available(struct deb_list *out, const char *package);
void deb_list_clear(struct deb_list *l);

/*
 * deb_resolve - map a user's VERSION ("6.1.192" or "6.1.192-3"; a
 * release candidate "6.13-rc7" or "6.13~rc7") to an available package
 * version (the newest Debian revision of an upstream version).  Fills @out (caller clears with deb_version_clear()).
 * Returns 0; KMIG_EUSAGE for a string that is no version; KMIG_ENOTFOUND
 * when the line or the version is not offered (the message names the
 * lines, or the line's versions); other negative codes for apt failures.
 */
int deb_resolve(struct deb_version *out, const char *version);
void deb_version_clear(struct deb_version *v);

/*
 * deb_version_tag - the tag an import of VERSION @version makes ("v6.1.192"
 * for "6.1.192", "v6.1.192-3" and "v6.1.192"; "v6.13-rc7" for the release
 * candidate "6.13~rc7-1~exp1", "6.13~rc7" and "6.13-rc7"), without apt:
 * *@tag, which the caller frees.  The version is checked as deb_resolve() does:
 * "v"?X.Y[.Z...] (util.h's kernel_version_len()), then nothing or '-' or
 * '~' and a Debian revision.  Returns 0, or KMIG_EUSAGE with the message
 * recorded and *@tag NULL.
 */
int deb_version_tag(char **tag, const char *version);

/*
 * deb_fetch - path of the .deb in @debs_dir, downloading it with
 * "apt-get download" (output in $KMIG_HOME/apt/download.log) when not
 * already there.  The file, cached or downloaded, must have the size and
 * SHA256 the package lists give its version (apt-cache show).  apt-get
 * download writes in a directory of its own (@debs_dir/.download-PID)
 * and the checked package is renamed into place, so that a download cut
 * short leaves no part of it under the package's name.  A cached file
 * that fails the check (one an older kmig left, a disk error) is deleted
 * and downloaded again: *@bad then says what was wrong with it (caller
 * frees; NULL when nothing was).  Caller frees *path.  0; KMIG_EDATA
 * when the download itself fails the check; other negative codes.
 */
int deb_fetch(char **path, char **bad, const struct deb_version *v,
	      const char *debs_dir);

/* What unpack_source() gives. */
struct unpacked {
	char *root;		/* the tree's top directory */
	bool dated;		/* the package's changelog gave the date */
	long long date;		/* Unix time of the version's changelog entry */
	int tz;			/* its UTC offset in minutes */
	long long line_date;	/* first upload of the X.Y line as a release, or 0 */
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
/*
 * deb_changelog_line_date - the date of the oldest entry of the Debian
 * changelog @text for a release of the kernel line of @debver ("6.1" for
 * "6.1.192-3"): an entry whose version is X.Y, X.Y-N or X.Y.Z-N without
 * "~" (release candidates are not releases).  *@when in Unix seconds.
 * Returns 0 or KMIG_ENOTFOUND with the message recorded.
 */
int deb_changelog_line_date(const char *text, const char *debver,
			    long long *when);

int deb_changelog_date(const char *text, const char *version, long long *when,
		       int *tz);

#endif
