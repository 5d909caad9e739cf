/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmig.h - the command layer: global context and the dispatch table.
 *
 * Each subcommand lives in its own cmd-<name>.c and exports one
 * "const struct kmig_cmd cmd_<name>", declared in builtin.h and listed in
 * kmig.c's table.  A command
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
	/* is NAME one of its subcommands ("kmig help branch apply")? or NULL */
	bool (*has_subcommand)(const char *name);
};

/*
 * cmd_fail - print "kmig: <message>" on stderr and return @status.
 * cmd_fail_last - the same with the module's recorded kmig_errmsg().
 * cmd_warn - "kmig: warning: <message>" on stderr.
 * The message's control bytes (and bytes of no UTF-8 character) are
 * written as C escapes (fput_line_escaped()): one line, whatever it names.
 */
int cmd_fail(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cmd_fail_last(int status);
void cmd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cmd_usage_error - "kmig <cmd>: <msg>" plus a hint; returns 2. */
int cmd_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * cmd_empty_value - the usage error "@opt needs @what" of command @cmd
 * (status 2) when @val is "", else 0: an empty directory, tag or name
 * is no value ("--series ''" would name "/series").
 */
int cmd_empty_value(const char *cmd, const char *opt, const char *val,
		    const char *what);
/* finish_stdout - flush stdout; 0, or 2 with a message on write error. */
int finish_stdout(int status);
/*
 * stdout_hold - keep what the command prints on stdout in memory from
 * here (a report prints its rows as it reads them from the database).
 * @text: the output is text for a terminal, whose paths, function names,
 * source lines and subjects come from repositories and patches: their
 * control bytes (but tab and newline) are written as \xNN, so none can
 * drive the terminal (an escape sequence in a source line).  Paths,
 * function and section names are C-quoted before they get here
 * (text_name() in util.h), so none of theirs is left to this.
 * stdout_release - write the held output to the real stdout unless
 * @status is an error (2): then drop it, so an error part-way leaves no
 * partial output; returns finish_stdout(@status).  stdout_hold() returns
 * 0, or 2 with a message.
 */
int stdout_hold(bool text);
int stdout_release(int status);

/*
 * Option parsing helpers for commands.  kmig.c sets opterr = 0 before a
 * command runs, so getopt_long() prints nothing: every usage error is the
 * one line the command prints.
 *
 * parse_choice - parse a --format argument against a NULL-terminated list
 * ("text", "csv", "json"); returns the index or -1.
 */
int parse_choice(const char *arg, const char *const *choices);
/*
 * opt_uint - parse @arg, the value of option @opt ("--jobs") of command
 * @cmd ("scan"), as a decimal integer between @min and @max (parse_ulong()
 * in util.h: digits only) into @out.  Returns 0, or prints one usage line
 * "kmig scan: --jobs: '2x' is not a number between 1 and 1024 (see 'kmig
 * help scan')" and returns KMIG_EXIT_ERROR.
 */
int opt_uint(const char *cmd, const char *opt, const char *arg,
	     unsigned long min, unsigned long max, unsigned long *out);
/*
 * cmd_bad_option - the usage line for getopt_long()'s '?' (an unknown
 * option, or a missing value), naming the option from @argv as getopt left
 * it: "kmig <cmd>: unknown option or missing value '--bogus' (see ...)".
 * Returns KMIG_EXIT_ERROR.
 */
int cmd_bad_option(const char *cmd, char **argv);

/* The largest --jobs any command takes. */
#define KMIG_MAX_JOBS 1024

#endif
