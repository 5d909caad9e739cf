/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-boot.h - option parsing and printing shared by the commands that
 * build and boot kernels (cmd-boot.c, cmd-bisect.c, cmd-branch.c).
 */
#ifndef KMIG_CMD_BOOT_H
#define KMIG_CMD_BOOT_H

#include "boottest.h"

struct boot_args {
	struct boottest_opts opts;
	const char **tests;	/* from --test, owned (names point at argv) */
	size_t ntests;
};

/* The options every building and booting command takes (getopt_long). */
#define BOOT_COMMON_LONGOPTS					\
	{ "test", required_argument, NULL, 't' },		\
	{ "timeout", required_argument, NULL, 'T' },		\
	{ "accel", required_argument, NULL, 'a' }
/* --retries N: kmig boot and kmig bisect. */
#define BOOT_RETRY_LONGOPTS					\
	{ "retries", required_argument, NULL, 'R' }
/* ... and those of the commands that keep logs and images per commit. */
#define BOOT_KEEP_LONGOPTS					\
	{ "keep-log", no_argument, NULL, 'k' },			\
	{ "rebuild", no_argument, NULL, 'r' }

/* --retries: at most this many retries of a failed boot. */
#define BOOT_MAX_RETRIES 10

/*
 * boot_parse_common - handle one of the options of BOOT_COMMON_LONGOPTS,
 * BOOT_RETRY_LONGOPTS and BOOT_KEEP_LONGOPTS, as returned by
 * getopt_long().
 * Returns 0, or 2 after printing the usage error.
 */
int boot_parse_common(const char *cmd, int c, const char *arg,
		      struct boot_args *a);

/* boot_print_result - the "kmig boot" result lines on stdout. */
void boot_print_result(const struct boottest_result *r);
/*
 * boot_note - the kbuild_note_fn of these commands: "kmig: MSG" on
 * stderr; progress lines only when stderr is a terminal or
 * $KMIG_PROGRESS is set, the lock wait always.
 */
void boot_note(void *data, enum kbuild_note kind, const char *msg);
/* boot_warn_missing - warn on stderr about fragment options that did
 * not survive the configuration. */
void boot_warn_missing(const struct boottest_result *r);

#endif
