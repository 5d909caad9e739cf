// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-rules.c - list the rules with their source and replacement advice.
 */
#include <getopt.h>
#include <string.h>

#include "builtin.h"
#include "rules.h"

static const char usage[] =
	"usage: kmig rules [--format text|json]\n"
	"\n"
	"List the rules kmig counts: id, title, source (the section of\n"
	"Documentation/process/deprecated.rst, or checkpatch) and the advice.\n";

static int cmd_rules_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "text", "json", NULL };
	int opt, fmt = 0, i;

	(void)ctx;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			fmt = parse_choice(optarg, formats);
			if (fmt < 0)
				return cmd_usage_error("rules", "unknown format '%s'", optarg);
			break;
		default:
			return cmd_bad_option("rules", argv);
		}
	}
	if (optind < argc)
		return cmd_usage_error("rules", "unexpected argument '%s'", argv[optind]);
	if (fmt == 1) {
		printf("{\"ruleset\": ");
		json_string(stdout, rules_hash());
		printf(", \"rules\": [");
		for (i = 0; i < RULE__COUNT; i++) {
			printf("%s\n  {\"id\": ", i ? "," : "");
			json_string(stdout, rules[i].id);
			printf(", \"title\": ");
			json_string(stdout, rules[i].title);
			printf(", \"source\": ");
			json_string(stdout, rules[i].source);
			printf(", \"advice\": ");
			json_string(stdout, rules[i].advice);
			printf("}");
		}
		printf("\n]}\n");
		return finish_stdout(0);
	}
	for (i = 0; i < RULE__COUNT; i++) {
		printf("%-20s %s\n", rules[i].id, rules[i].title);
		printf("%-20s source: %s\n", "", rules[i].source);
		printf("%-20s advice: %s\n", "", rules[i].advice);
	}
	return finish_stdout(0);
}

const struct kmig_cmd cmd_rules = {
	.name = "rules",
	.fn = cmd_rules_fn,
	.summary = "list the rules with their source and replacement advice",
	.usage = usage,
};
