// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-rules.c - list the rules with their source and replacement advice.
 */
#include <getopt.h>
#include <string.h>

#include "builtin.h"
#include "relinfo.h"
#include "rules.h"
#include "store.h"

static const char usage[] =
	"usage: kmig rules [--format text|json]\n"
	"\n"
	"List the rules kmig counts: id, title, source (the section of\n"
	"Documentation/process/deprecated.rst, or checkpatch), the advice and the\n"
	"replacements it names.  With a database of scanned releases (--db), also\n"
	"per rule \"documented since\": the first scanned release whose own\n"
	"deprecated.rst has the rule's section, and \"replacement since\": the\n"
	"first whose include/ defines one of its replacements ('-': the rule has\n"
	"no section (checkpatch) or names no replacement identifier; 'none': no\n"
	"scanned release has it).  'kmig check' judges a change by its base's\n"
	"own deprecated.rst and include/.\n";

static void json_list(const char *const *v)
{
	for (; v && *v; v++) {
		json_string(stdout, *v);
		if (v[1])
			printf(", ");
	}
}

/* "-" (no section / no replacement), "none" (no release has it) or a tag. */
static const char *since_text(const struct relinfo_since *s, int r, bool doc)
{
	if (doc ? !rules[r].sections : !rules[r].repl)
		return "-";
	if (doc ? !s->doc[r] : !s->repl[r])
		return "none";
	return doc ? s->doc[r] : s->repl[r];
}

static int cmd_rules_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "text", "json", NULL };
	struct relinfo_since since = { 0 };
	struct store *st = NULL;
	bool have_since = false;
	int opt, fmt = 0, i, ret;

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
	/* the database is optional: without it, no since-columns */
	ret = store_open_readonly(&st, ctx->db_path);
	if (!ret) {
		ret = relinfo_since_load(st, &since);
		store_close(st);
		if (ret)
			return cmd_fail_last(KMIG_EXIT_ERROR);
		have_since = since.nknown > 0;
	} else if (ret != KMIG_ENOTFOUND) {
		return cmd_fail_last(KMIG_EXIT_ERROR);
	}
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
			printf(", \"sections\": [");
			json_list(rules[i].sections);
			printf("], \"replacements\": [");
			json_list(rules[i].repl);
			printf("]");
			/* always there: null without a scanned release */
			printf(", \"documented_since\": ");
			json_string(stdout, have_since ? since.doc[i] : NULL);
			printf(", \"replacement_since\": ");
			json_string(stdout, have_since ? since.repl[i] : NULL);
			printf("}");
		}
		printf("\n]}\n");
		relinfo_since_clear(&since);
		return finish_stdout(0);
	}
	for (i = 0; i < RULE__COUNT; i++) {
		printf("%-20s %s\n", rules[i].id, rules[i].title);
		printf("%-20s source: %s\n", "", rules[i].source);
		printf("%-20s advice: %s\n", "", rules[i].advice);
		if (rules[i].repl) {
			const char *const *n;

			printf("%-20s replacements:", "");
			for (n = rules[i].repl; *n; n++)
				printf(" %s", *n);
			printf("\n");
		}
		if (have_since)
			printf("%-20s documented since: %s; replacement since: %s\n",
			       "", since_text(&since, i, true),
			       since_text(&since, i, false));
	}
	relinfo_since_clear(&since);
	return finish_stdout(0);
}

const struct kmig_cmd cmd_rules = {
	.name = "rules",
	.fn = cmd_rules_fn,
	.summary = "list the rules with their source and replacement advice",
	.usage = usage,
};
