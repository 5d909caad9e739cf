/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmig.h - the command layer: global context and the dispatch table.
 *
 * Each subcommand lives in its own cmd-<name>.c and exports one
 * "const struct kmig_cmd cmd_<name>" listed in kmig.c's table.  A command
 * function parses its own options (getopt_long, argv[0] is the command
 * name), calls the modules, prints results on stdout and returns the exit
 * status.  Only the command layer prints errors, through cmd_fail().
 */
#ifndef KMIG_KMIG_H
#define KMIG_KMIG_H

#include "util.h"

#define KMIG_VERSION "0.1.0"

struct kmig_ctx {
	const char *home;	/* $KMIG_HOME */
	const char *repo_path;	/* --repo, $KMIG_REPO, or $KMIG_HOME/linux */
	const char *db_path;	/* --db, $KMIG_DB, or $KMIG_HOME/kmig.db */
};

struct kmig_cmd {
	const char *name;
	int (*fn)(struct kmig_ctx *ctx, int argc, char **argv);
	const char *summary;	/* one line for "kmig --help" */
	const char *usage;	/* full text for "kmig help NAME" / --help */
};

/*
 * cmd_fail - print "kmig: <message>" on stderr and return @status.
 * cmd_fail_last - the same with the module's recorded kmig_errmsg().
 */
int cmd_fail(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cmd_fail_last(int status);
/* cmd_usage_error - "kmig <cmd>: <msg>" plus a hint; returns 2. */
int cmd_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* finish_stdout - flush stdout; 0, or 2 with a message on write error. */
int finish_stdout(int status);

/*
 * Option parsing helpers for commands: parse a --format argument against
 * a list ("text", "csv", "json"); returns the index or -1.
 */
int parse_choice(const char *arg, const char *const *choices);

#endif
