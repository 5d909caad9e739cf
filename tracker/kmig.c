// SPDX-License-Identifier: GPL-2.0
/*
 * kmig.c - main(): global options and the dispatch table.
 */
#include <errno.h>
#include <getopt.h>
#include <git2.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "store.h"

/* The dispatch table: one entry per cmd-<name>.c. */
static const struct kmig_cmd *const commands[] = {
	&cmd_import,
	&cmd_scan,
	&cmd_report,
	&cmd_rules,
	&cmd_check,
	&cmd_log,
	&cmd_boot,
	&cmd_bisect,
	&cmd_branch,
	&cmd_convert,
	&cmd_web,
};

static const char main_usage[] =
	"usage: kmig [--repo DIR] [--db FILE] COMMAND [ARGS]\n"
	"       kmig -h|--help [COMMAND [SUBCOMMAND]] | --version | help [COMMAND [SUBCOMMAND]]\n"
	"\n"
	"Track and drive deprecated kernel API migrations.\n"
	"\n"
	"Global options:\n"
	"  --repo DIR   kernel git repository (default $KMIG_REPO, else $KMIG_HOME/linux)\n"
	"  --db FILE    database (default $KMIG_DB, else $KMIG_HOME/kmig.db)\n"
	"  KMIG_HOME defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/kmig\n"
	"\n"
	"Exit status: 0 success, 1 negative verdict, 2 error, 125 cannot test.\n"
	"\n"
	"Commands:\n";

/* "@prefix" and the message @fmt makes, one line on stderr, then @suffix. */
static void say_line(const char *prefix, const char *suffix, const char *fmt,
		     va_list ap)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_vaddf(&sb, fmt, ap);
	fputs(prefix, stderr);
	fput_line_escaped(stderr, sb.buf ? sb.buf : "");
	fputs(suffix, stderr);
	fputc('\n', stderr);
	sbuf_release(&sb);
}

int cmd_fail(int status, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	say_line("kmig: ", "", fmt, ap);
	va_end(ap);
	return status;
}

void cmd_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	say_line("kmig: warning: ", "", fmt, ap);
	va_end(ap);
}

int cmd_fail_last(int status)
{
	return cmd_fail(status, "%s", kmig_errmsg());
}

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
	char *prefix = xasprintf("kmig %s: ", cmd);
	char *suffix = xasprintf(" (see 'kmig help %s')", cmd);
	va_list ap;

	va_start(ap, fmt);
	say_line(prefix, suffix, fmt, ap);
	va_end(ap);
	free(prefix);
	free(suffix);
	return KMIG_EXIT_ERROR;
}

int cmd_empty_value(const char *cmd, const char *opt, const char *val,
		    const char *what)
{
	if (!val || *val)
		return 0;
	return cmd_usage_error(cmd, "%s needs %s", opt, what);
}

int finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout))
		return cmd_fail(KMIG_EXIT_ERROR, "cannot write standard output");
	return status;
}

static FILE *real_stdout;	/* while stdout_hold() holds it */
static char *held_buf;
static size_t held_len;
static bool held_text;

int stdout_hold(bool text)
{
	FILE *mem;

	if (fflush(stdout))
		return cmd_fail(KMIG_EXIT_ERROR, "cannot write standard output");
	mem = open_memstream(&held_buf, &held_len);
	if (!mem)
		return cmd_fail(KMIG_EXIT_ERROR, "cannot hold standard output: %s",
				strerror(errno));
	real_stdout = stdout;
	stdout = mem;	/* glibc's stdout is a variable */
	held_text = text;
	return 0;
}

/* @buf (@len bytes) on stdout, its control bytes but tab and newline as \xNN. */
static bool write_text(const char *buf, size_t len)
{
	size_t i, run = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if ((c >= 0x20 && c != 0x7f) || c == '\n' || c == '\t')
			continue;
		if (fwrite(buf + run, 1, i - run, stdout) != i - run ||
		    printf("\\x%02x", c) < 0)
			return false;
		run = i + 1;
	}
	return fwrite(buf + run, 1, len - run, stdout) == len - run;
}

int stdout_release(int status)
{
	FILE *mem = stdout;
	bool bad;

	if (!real_stdout)
		return finish_stdout(status);
	stdout = real_stdout;
	real_stdout = NULL;
	bad = ferror(mem) != 0;
	if (fclose(mem) || bad) {
		free(held_buf);
		held_buf = NULL;
		return cmd_fail(KMIG_EXIT_ERROR, "cannot hold standard output");
	}
	if (status != KMIG_EXIT_ERROR && held_len &&
	    !(held_text ? write_text(held_buf, held_len) :
	      fwrite(held_buf, 1, held_len, stdout) == held_len))
		status = cmd_fail(KMIG_EXIT_ERROR, "cannot write standard output");
	free(held_buf);
	held_buf = NULL;
	return status == KMIG_EXIT_ERROR ? status : finish_stdout(status);
}

int parse_choice(const char *arg, const char *const *choices)
{
	int i;

	for (i = 0; choices[i]; i++)
		if (!strcmp(arg, choices[i]))
			return i;
	return -1;
}

int opt_uint(const char *cmd, const char *opt, const char *arg,
	     unsigned long min, unsigned long max, unsigned long *out)
{
	if (parse_ulong(arg, min, max, out))
		return cmd_usage_error(cmd, "%s: %s", opt, kmig_errmsg());
	return 0;
}

/* The option getopt_long() stopped at: argv[optind - 1], or -<optopt>. */
static void bad_option_name(char **argv, char *buf, size_t size)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";

	if (optopt && strncmp(arg, "--", 2))
		snprintf(buf, size, "-%c", optopt);
	else
		snprintf(buf, size, "%s", arg);
}

int cmd_bad_option(const char *cmd, char **argv)
{
	char name[256];

	bad_option_name(argv, name, sizeof(name));
	return cmd_usage_error(cmd, "unknown option or missing value '%s'", name);
}

static const struct kmig_cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static int print_main_usage(FILE *f)
{
	size_t i;

	fputs(main_usage, f);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\nRun 'kmig help COMMAND' for a command's options.\n", f);
	return 0;
}

static const char help_usage[] =
	"usage: kmig help [COMMAND [SUBCOMMAND]]\n"
	"\n"
	"Without COMMAND, list the commands; else show COMMAND's usage and\n"
	"options (the same as 'kmig COMMAND --help').\n";

/*
 * The subcommand of @argv (argv[0] the command), as usage_of() finds it:
 * the first word after the --help and -h ones, unless it is an option;
 * else NULL.
 */
static const char *first_word(int argc, char **argv)
{
	int i = 1;

	while (i < argc && (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")))
		i++;
	return i < argc && argv[i][0] != '-' ? argv[i] : NULL;
}

/* "kmig branch test" has options of its own (cmd-branch-test.c). */
extern const char branch_test_usage[];

/*
 * The usage of command @c run as @argv (argv[0] the command): its
 * subcommand is the first word after it that is no --help or -h, so
 * that "kmig branch --help test" is branch test's, as "kmig branch test
 * --help" is.
 */
static const char *usage_of(const struct kmig_cmd *c, int argc, char **argv)
{
	const char *sub = first_word(argc, argv);

	if (!strcmp(c->name, "branch") && sub && !strcmp(sub, "test"))
		return branch_test_usage;
	return c->usage;
}

/* kmig help [COMMAND [SUBCOMMAND]]: @argv[0] is "help". */
static int cmd_help(int argc, char **argv)
{
	const struct kmig_cmd *c;

	if (argc < 2) {
		print_main_usage(stdout);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "help")) {
		if (argc > 2)
			return cmd_usage_error("help", "unexpected argument '%s'", argv[2]);
		fputs(help_usage, stdout);
		return finish_stdout(0);
	}
	c = find_cmd(argv[1]);
	if (!c)
		return cmd_fail(KMIG_EXIT_ERROR, "unknown command '%s'", argv[1]);
	/* a topic that is no subcommand is a typo, not the command's help */
	if (argc > 3)
		return cmd_usage_error("help", "unexpected argument '%s'", argv[3]);
	if (argc == 3 && !(c->has_subcommand && c->has_subcommand(argv[2])))
		return cmd_usage_error("help", "'%s' has no subcommand '%s'",
				       argv[1], argv[2]);
	fputs(usage_of(c, argc - 1, argv + 1), stdout);
	return finish_stdout(0);
}

static bool wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	}
	return false;
}

static const char *env_or(const char *name, const char *dflt)
{
	const char *e = getenv(name);

	return e && *e ? e : dflt;
}

/* Parse the global options and run the command; returns the exit status. */
static int dispatch(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const struct kmig_cmd *c;
	char name[256];
	bool help = false;
	int opt, ret;

	opterr = 0;	/* every usage error is one line, ours */
	/* '+': stop at the first non-option, the command name. */
	while ((opt = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (opt) {
		case 'r':
		case 'd':
			/*
			 * An empty path is no default: SQLite opens a
			 * temporary database for "" (a scan's results
			 * gone, its call graph written to "./-graph").
			 */
			if (!*optarg) {
				return cmd_fail(KMIG_EXIT_ERROR,
						"--%s needs a %s, not '' (see 'kmig --help')",
						opt == 'r' ? "repo" : "db",
						opt == 'r' ? "directory" : "file");
			}
			/* "DIR/": a directory, which a scan would create */
			if (opt == 'd' && optarg[strlen(optarg) - 1] == '/') {
				return cmd_fail(KMIG_EXIT_ERROR,
						"--db needs a file, not the directory '%s' (see 'kmig --help')",
						optarg);
			}
			if (opt == 'r')
				ctx->repo_path = optarg;
			else
				ctx->db_path = optarg;
			break;
		case 'h':
			help = true;
			break;
		case 'V':
			/* a word after it is a mistake; options are ignored, as git does */
			if (optind < argc && argv[optind][0] != '-') {
				return cmd_fail(KMIG_EXIT_ERROR,
						"--version takes no argument, not '%s' (see 'kmig --help')",
						argv[optind]);
			}
			printf("kmig %s (libgit2 %s, sqlite %s)\n", KMIG_VERSION,
			       LIBGIT2_VERSION, store_sqlite_version());
			return finish_stdout(0);
		default:
			bad_option_name(argv, name, sizeof(name));
			return cmd_fail(KMIG_EXIT_ERROR,
					"unknown option or missing value '%s' (see 'kmig --help')",
					name);
		}
	}
	/* "kmig --help [COMMAND [SUBCOMMAND]]" is "kmig help ...", as git's */
	if (help)
		return cmd_help(argc - optind + 1, argv + optind - 1);
	if (optind >= argc) {
		print_main_usage(stderr);
		return KMIG_EXIT_ERROR;
	}
	argc -= optind;
	argv += optind;
	if (!strcmp(argv[0], "help"))
		return cmd_help(argc, argv);
	c = find_cmd(argv[0]);
	if (!c)
		return cmd_fail(KMIG_EXIT_ERROR,
				"'%s' is not a kmig command (see 'kmig --help')",
				argv[0]);
	if (wants_help(argc, argv)) {
		const char *sub = first_word(argc, argv);

		/* "kmig branch bogus --help": a typo, as "kmig help branch bogus" */
		if (c->has_subcommand && sub && !c->has_subcommand(sub))
			return cmd_usage_error(c->name, "'%s' has no subcommand '%s'",
					       c->name, sub);
		fputs(usage_of(c, argc, argv), stdout);
		return finish_stdout(0);
	}
	git_libgit2_init();
	optind = 0;	/* reset getopt for the command (GNU: full reinit) */
	ret = c->fn(ctx, argc, argv);
	git_libgit2_shutdown();
	return ret;
}

int main(int argc, char **argv)
{
	struct kmig_ctx ctx = { 0 };
	char *repo_default, *db_default;
	int ret;

	/*
	 * A reader that closes the pipe (kmig report | head) ends kmig
	 * quietly, as any filter, also when the caller ignores SIGPIPE
	 * (systemd's IgnoreSIGPIPE=yes): not "cannot write standard output".
	 */
	signal(SIGPIPE, SIG_DFL);
	ctx.home = kmig_home();
	repo_default = xasprintf("%s/linux", ctx.home);
	db_default = xasprintf("%s/kmig.db", ctx.home);
	ctx.repo_path = env_or("KMIG_REPO", repo_default);
	ctx.db_path = env_or("KMIG_DB", db_default);
	ret = dispatch(&ctx, argc, argv);
	free(repo_default);
	free(db_default);
	return ret;
}
