/* SPDX-License-Identifier: GPL-2.0 */
/*
 * datadir.h - where kmig finds the files it reads at run time.
 *
 * kmig's runtime data is its guest (qemu/init.c, compiled for each QEMU
 * boot), the kernel configuration fragment (qemu/kmig.config), the
 * semantic patches of "kmig convert" (tracker/cocci/RULE.cocci) and the
 * Debian suites of "kmig import" (tracker/debian/suites).  Each kind of
 * data is one directory, looked up once, in this order:
 *
 *	1. the environment: $KMIG_QEMU_DIR, $KMIG_COCCI_DIR,
 *	   $KMIG_DEBIAN_DIR (when set and not empty, used as given, without
 *	   checking it);
 *	2. the source tree the binary was built in: qemu/, tracker/cocci/,
 *	   tracker/debian/ next to the executable (./kmig of a checkout), or
 *	   two levels up (the unit tests in build/tests/);
 *	3. the installed data of "make install": share/kmig/qemu/,
 *	   share/kmig/cocci/ and share/kmig/debian/ of the prefix the
 *	   executable is in
 *	   (PREFIX/bin/kmig: a prefix that was moved still works), then the
 *	   $(PREFIX)/share/kmig compiled in by the Makefile (KMIG_DATADIR).
 *
 * The first directory that exists wins; the current directory never
 * plays a part.  The executable is /proc/self/exe (symbolic links
 * resolved).  Results are cached for the life of the process; not for
 * use from several threads before the first call returns.
 */
#ifndef KMIG_DATADIR_H
#define KMIG_DATADIR_H

enum datadir_kind {
	DATADIR_QEMU,		/* init.c, kmig.config */
	DATADIR_COCCI,		/* RULE.cocci */
	DATADIR_DEBIAN,		/* suites */
};

/*
 * datadir_find - the directory of @kind, looked up as above.  Returns a
 * static string, or NULL with the error recorded (it names the
 * environment variable to set).
 */
const char *datadir_find(enum datadir_kind kind);

/*
 * datadir_file - "<datadir_find(@kind)>/<name>" when that file is
 * readable (caller frees), else NULL with the error recorded.
 */
char *datadir_file(enum datadir_kind kind, const char *name);

/*
 * datadir_series - the default series directory of "kmig branch" and
 * "kmig convert": ./branch-patches when it is a directory, else
 * branch-patches/ of the source tree next to the executable when there
 * is one, else "branch-patches" (so the error names it).  Caller frees;
 * never NULL.  The series is the user's, not installed data.
 */
char *datadir_series(void);

#endif
