// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-report.c - per-release reports (text, CSV, JSON) and the trend.
 */
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtin.h"
#include "forecast.h"
#include "maintcache.h"
#include "relinfo.h"
#include "repo.h"
#include "rules.h"
#include "store.h"

static const char usage[] =
	"usage: kmig report [TAG] [--rule ID]... [--skip-rule ID]... [--subsystem NAME]\n"
	"                   [--by rule|subsystem|file] [--top N] [--format text|csv|json]\n"
	"       kmig report --trend [--rule ID]... [--skip-rule ID]... [--subsystem NAME]\n"
	"                   [--by subsystem] [--format text|csv|json]\n"
	"       kmig report [TAG] --reach [--format text|csv|json]\n"
	"\n"
	"Report the counts of a scanned release (default: the newest), with the\n"
	"delta against the previous scanned release.  Text groups by rule unless\n"
	"--by says otherwise; CSV defaults to --by subsystem:\n"
	"  --by subsystem   release,subsystem,rule,count,delta  (non-zero rows)\n"
	"  --by file        release,path,rule,count,delta       (non-zero rows)\n"
	"  --by rule        release,rule,count            (every rule, zeros too)\n"
	"(delta: against the previous release, empty for the first).  --top N\n"
	"keeps the N largest groups, largest first (text default: 20); with\n"
	"--by rule, the N rules with the most uses (default: every rule).\n"
	"--trend: every scanned release in version order with its count and,\n"
	"since the previous release, the uses added and removed (a use is a rule,\n"
	"path and whitespace-normalised text, a wrapped call's lines joined,\n"
	"spacing and comments not counted;\n"
	"each file's uses are compared as multisets, so a use moved to another\n"
	"file is removed and added), the delta = added - removed over the files\n"
	"of the section now, and the uses moved in (or out) with files a\n"
	"MAINTAINERS change put in another section.\n"
	"--trend --by subsystem: one such row per release, subsystem and rule\n"
	"(release,subsystem,rule,count,delta,added,removed,moved).  --trend takes\n"
	"no --top, and no other --by.\n"
	"Text and JSON give each rule's forecast over the releases up to TAG: least\n"
	"squares of count on release date (a Debian package: the first Debian\n"
	"release of its X.Y line), \"zero by YYYY-MM\" at that pace or \"not\n"
	"converging\", with the slope per year (--trend: a final forecast line).\n"
	"--subsystem NAME keeps one section of the release's MAINTAINERS (--trend:\n"
	"of any scanned release's); one that no scanned file is in counts 0.\n"
	"--rule ID and --skip-rule ID (globs over rule ids, repeatable) keep only\n"
	"the matching rules, or drop them; totals cover the rules kept.\n"
	"Text and JSON also give, per rule, \"documented since\" (the first scanned\n"
	"release whose own deprecated.rst has its section) and \"replacement since\"\n"
	"(the first whose include/ defines a replacement), as 'kmig rules' does.\n"
	"\n"
	"--reach: the release's call graph (default: the newest): its entry points,\n"
	"the functions reached within the scan's --reach-depth direct calls, and\n"
	"every warn-on-user site with its call path from the entry point, e.g.\n"
	"  path:line: f (file:line) \xe2\x86\x92 g (file:line): WARN_ON(x);\n"
	"(CSV: release,path,line,path_of_calls,text).  Calls through function\n"
	"pointers are not followed.\n";

enum { FMT_TEXT, FMT_CSV, FMT_JSON };

struct report_opts {
	const char *rule;	/* the one rule the store filters by, or NULL */
	const char *label;	/* the rule filter as shown, or NULL */
	char **want, **skip;	/* --rule and --skip-rule globs */
	size_t nwant, awant, nskip, askip;
	struct relinfo_since since;	/* per rule, from the scanned releases */
	const char *subsystem;
	/*
	 * the tag of the release whose MAINTAINERS has the section
	 * --subsystem names when no scanned file is in it, else NULL
	 */
	const char *empty_in;
	const char *repo_path;
	enum count_by by;
	bool by_given;
	long top;
	int fmt;
};

struct total {
	const char *key;
	long long count;
	size_t first, nrows;	/* its rows in the count_rows it sums */
};

static int cmp_total_key(const void *a, const void *b)
{
	const struct total *x = a, *y = b;

	return strcmp(x->key ? x->key : "", y->key ? y->key : "");
}

static int cmp_total_count(const void *a, const void *b)
{
	const struct total *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return cmp_total_key(a, b);
}

/* Rule @r passes the --rule/--skip-rule globs of @o. */
static bool rule_ok(const struct report_opts *o, int r)
{
	return rule_globs_match(r, o->want, o->nwant, o->skip, o->nskip);
}

/* Drop the rows of @rows from @from on whose rule fails the filter. */
static void filter_rows(const struct report_opts *o, struct count_rows *rows,
			size_t from)
{
	size_t i, k = from;

	if (!rows)
		return;
	for (i = from; i < rows->n; i++) {
		int r = rule_lookup(rows->v[i].rule);

		if (r >= 0 && rule_ok(o, r)) {
			rows->v[k++] = rows->v[i];
		} else {
			free(rows->v[i].key);
			free(rows->v[i].rule);
		}
	}
	rows->n = k;
}

/* store_counts() with the rule filter of @o. */
static int counts(const struct report_opts *o, struct store *st,
		  long long release, enum count_by by, const char *subsystem,
		  struct count_rows *out)
{
	size_t from = out->n;
	int ret = store_counts(st, release, by, o->rule, subsystem, out);

	if (!ret)
		filter_rows(o, out, from);
	return ret;
}

/* store_site_changes() with the rule filter of @o. */
static int site_changes(const struct report_opts *o, struct store *st,
			long long old, long long new_, struct count_rows *added,
			struct count_rows *removed, struct count_rows *before)
{
	size_t fa = added->n, fr = removed->n, fb = before ? before->n : 0;
	int ret = store_site_changes(st, old, new_, o->rule, o->subsystem,
				     added, removed, before);

	if (!ret) {
		filter_rows(o, added, fa);
		filter_rows(o, removed, fr);
		filter_rows(o, before, fb);
	}
	return ret;
}

/* store_section_changes() with the rule filter of @o. */
static int section_changes(const struct report_opts *o, struct store *st,
			   long long old, long long new_,
			   struct count_rows *added, struct count_rows *removed,
			   struct count_rows *before)
{
	size_t fa = added->n, fr = removed->n, fb = before->n;
	int ret = store_section_changes(st, old, new_, o->rule, added, removed,
					before);

	if (!ret) {
		filter_rows(o, added, fa);
		filter_rows(o, removed, fr);
		filter_rows(o, before, fb);
	}
	return ret;
}

/* Sum rows per key (rows ordered by key). */
static struct total *totals_by_key(const struct count_rows *rows, size_t *n)
{
	struct total *t = xcalloc(rows->n ? rows->n : 1, sizeof(*t));
	size_t i;

	*n = 0;
	for (i = 0; i < rows->n; i++) {
		const char *k = rows->v[i].key ? rows->v[i].key : rows->v[i].rule;

		if (!*n || strcmp(t[*n - 1].key, k)) {
			t[*n].key = k;
			t[(*n)++].first = i;
		}
		t[*n - 1].count += rows->v[i].count;
		t[*n - 1].nrows++;
	}
	return t;
}

/*
 * with_gone - @t (its *@n groups in key order) with a group of no rows
 * and count 0 added for each key of @ot (@on, key order) that @t lacks:
 * what had uses in the release before and has none now (a file deleted
 * or renamed), so the groups' deltas add up to the release's.  The added
 * groups are at the end; @t is reallocated.
 */
static struct total *with_gone(struct total *t, size_t *n,
			       const struct total *ot, size_t on)
{
	size_t i, live = *n;

	for (i = 0; i < on; i++)
		if (!bsearch(&ot[i], t, live, sizeof(*t), cmp_total_key)) {
			t = xrealloc(t, (*n + 1) * sizeof(*t));
			t[(*n)++] = (struct total){ .key = ot[i].key };
		}
	return t;
}

static long long lookup_total(struct total *t, size_t n, const char *key,
			      bool *found)
{
	struct total k = { .key = key }, *hit;

	hit = bsearch(&k, t, n, sizeof(*t), cmp_total_key);
	*found = hit != NULL;
	return hit ? hit->count : 0;
}

static long long rule_count(const struct count_rows *rows, const char *rule)
{
	size_t i;

	for (i = 0; i < rows->n; i++)
		if (!strcmp(rows->v[i].rule, rule))
			return rows->v[i].count;
	return 0;
}

/*
 * The rules --by rule lists into @idx (RULE__COUNT entries), in order:
 * every rule --rule keeps, in rule order, or with @top >= 0 (--top) the
 * @top of them with the most uses in @cur, most first (ties in rule
 * order).  How many.
 */
static size_t listed_rules(const struct report_opts *o, long top,
			   const struct count_rows *cur, int *idx)
{
	long long c[RULE__COUNT];
	size_t n = 0, i, k;

	for (i = 0; i < RULE__COUNT; i++) {
		if (!rule_ok(o, (int)i))
			continue;
		c[i] = rule_count(cur, rules[i].id);
		/* insertion in count order: the list is a score long */
		for (k = n; top >= 0 && k > 0 && c[idx[k - 1]] < c[i]; k--)
			idx[k] = idx[k - 1];
		idx[k] = (int)i;
		n++;
	}
	if (top >= 0 && (size_t)top < n)
		n = (size_t)top;
	return n;
}

/*
 * The forecasts of every rule ([rule]) and of their total ([RULE__COUNT])
 * over the releases @rels[0..@n), with the filters of @o.
 */
static int fit_forecasts(struct store *st, const struct release_info *rels,
			 size_t n, const struct report_opts *o,
			 struct forecast *out)
{
	long long *dates = xcalloc(n ? n : 1, sizeof(*dates));
	long long *v = xcalloc((RULE__COUNT + 1) * (n ? n : 1), sizeof(*v));
	size_t i, r;
	int ret = 0;

	for (i = 0; i < n; i++) {
		struct count_rows c = { 0 };

		dates[i] = release_trend_date(&rels[i]);
		ret = counts(o, st, rels[i].id, BY_RULE, o->subsystem, &c);
		if (ret) {
			count_rows_clear(&c);
			goto out;
		}
		for (r = 0; r < RULE__COUNT; r++) {
			v[r * n + i] = rule_count(&c, rules[r].id);
			v[RULE__COUNT * n + i] += v[r * n + i];
		}
		count_rows_clear(&c);
	}
	for (r = 0; r <= RULE__COUNT; r++)
		forecast_fit(dates, &v[r * n], n, &out[r]);
out:
	free(v);
	free(dates);
	return ret;
}

/* One text line: "  NAME  <forecast>". */
static void print_forecast_line(const char *name, const struct forecast *f)
{
	struct sbuf sb = SBUF_INIT;

	forecast_text(&sb, f);
	printf("  %-20s %s\n", name, sb.buf);
	sbuf_release(&sb);
}

/* The forecast block of the text report: a line per rule shown, and the total. */
static void print_forecasts_text(const struct report_opts *o,
				 const struct forecast *fc, const int *idx,
				 size_t n)
{
	size_t i;

	printf("forecast (%s, over %zu release%s):\n", FORECAST_METHOD,
	       fc[RULE__COUNT].points, fc[RULE__COUNT].points == 1 ? "" : "s");
	if (o->by == BY_RULE)
		for (i = 0; i < n; i++)
			print_forecast_line(rules[idx[i]].id, &fc[idx[i]]);
	if (o->by != BY_RULE || !o->rule)
		print_forecast_line(o->rule ? o->rule : "total", &fc[RULE__COUNT]);
}

/* The forecast as a JSON object. */
static void print_forecast_json(const struct forecast *f)
{
	struct sbuf sb = SBUF_INIT;
	char month[16];

	printf("{\"slope_per_year\": ");
	if (f->fitted)
		printf("%.4f", f->slope);
	else
		printf("null");
	printf(", \"zero_by\": ");
	if (forecast_converging(f) && f->zero_at) {
		forecast_month(month, sizeof(month), f->zero_at);
		json_string(stdout, month);
	} else {
		printf("null");
	}
	forecast_text(&sb, f);
	printf(", \"converging\": %s, \"releases\": %zu, \"text\": ",
	       forecast_converging(f) ? "true" : "false", f->points);
	json_string(stdout, sb.buf);
	printf(", \"method\": \"" FORECAST_METHOD "\"}");
	sbuf_release(&sb);
}

/* The text's note on a --subsystem section with no file in scope. */
static void print_empty_note(const struct report_opts *o)
{
	if (!o->empty_in)
		return;
	printf("note: '");
	text_name(stdout, o->subsystem);
	printf("', a section of %s's MAINTAINERS, has no file in the scan's scope in any scanned release\n",
	       o->empty_in);
}

static void print_text(const struct release_info *rel,
		       const struct release_info *prev,
		       const struct report_opts *o, const struct count_rows *cur,
		       const struct count_rows *old, const struct forecast *fc)
{
	const char *keyname = o->by == BY_RULE ? "rule" :
			      o->by == BY_SUBSYSTEM ? "subsystem" : "file";
	long long total = 0, ptotal = 0;
	int idx[RULE__COUNT];
	size_t i, k, shown = 0;

	printf("release %s", rel->tag);
	if (prev)
		printf(" (delta against %s)", prev->tag);
	if (o->label)
		printf(", rule %s", o->label);
	if (o->subsystem) {
		printf(", subsystem ");
		text_name(stdout, o->subsystem);
	}
	if (rel->date_source) {	/* only a date the package itself gave */
		struct tm tm;
		time_t t = (time_t)rel->date;
		char day[16];

		gmtime_r(&t, &tm);
		strftime(day, sizeof(day), "%Y-%m-%d", &tm);
		printf(", Debian date %s", day);
	}
	printf("\n");
	if (o->by == BY_RULE) {
		size_t nok = 0;

		shown = listed_rules(o, o->top, cur, idx);
		printf("%-22s %9s", keyname, "count");
		if (prev)
			printf(" %9s", "delta");
		printf("\n");
		for (i = 0; i < RULE__COUNT; i++) {
			if (!rule_ok(o, (int)i))
				continue;
			nok++;
			total += rule_count(cur, rules[i].id);
			ptotal += prev ? rule_count(old, rules[i].id) : 0;
		}
		for (i = 0; i < shown; i++) {
			const char *id = rules[idx[i]].id;
			long long c = rule_count(cur, id);

			printf("%-22s %9lld", id, c);
			if (prev)
				printf(" %+9lld", c - rule_count(old, id));
			printf("\n");
		}
		if (shown < nok)
			printf("... %zu more (use --top)\n", nok - shown);
	} else {
		size_t n, pn = 0;
		struct total *t = totals_by_key(cur, &n);
		struct total *pt = prev ? totals_by_key(old, &pn) : NULL;
		long top = o->top >= 0 ? o->top : 20;

		for (i = 0; i < n; i++)
			total += t[i].count;
		for (i = 0; i < pn; i++)
			ptotal += pt[i].count;
		t = with_gone(t, &n, pt, pn);
		qsort(t, n, sizeof(*t), cmp_total_count);
		printf("%9s", "count");
		if (prev)
			printf(" %9s", "delta");
		printf("  %s\n", keyname);
		shown = n < (size_t)top ? n : (size_t)top;
		for (i = 0; i < shown; i++) {
			bool found;
			long long p = prev ? lookup_total(pt, pn, t[i].key, &found) : 0;

			printf("%9lld", t[i].count);
			if (prev)
				printf(" %+9lld", t[i].count - p);
			printf("  ");
			text_name(stdout, t[i].key);
			putchar('\n');
		}
		if (shown < n)
			printf("%9s  ... %zu more (use --top)\n", "", n - shown);
		free(t);
		free(pt);
	}
	if (o->by == BY_RULE)
		printf("%-22s %9lld", "total", total);
	else
		printf("%9lld", total);
	if (prev)
		printf(" %+9lld", total - ptotal);
	if (o->by != BY_RULE)
		printf("  total");
	printf("\n");
	print_forecasts_text(o, fc, idx, shown);
	if (o->by == BY_RULE && o->since.nknown) {
		printf("since (the first scanned release whose own deprecated.rst has the section / whose include/ defines a replacement):\n");
		for (k = 0; k < shown; k++) {
			i = (size_t)idx[k];
			printf("  %-20s documented %-12s replacement %s\n",
			       rules[i].id,
			       !rules[i].sections ? "-" :
			       o->since.doc[i] ? o->since.doc[i] : "none",
			       !rules[i].repl ? "-" :
			       o->since.repl[i] ? o->since.repl[i] : "none");
		}
	}
	print_empty_note(o);
	if (rule_ok(o, RULE_WARN_ON_USER))
		printf("note: warn-on-user is a WARN user space reaches through direct calls from an entry point, counted instead of warn-on ('kmig report --reach' shows the call paths)\n");
}

static struct total *listed_groups(const struct count_rows *cur,
				   const struct report_opts *o, size_t *n);

/* One (key, rule) row of a listed group: its count now and its delta. */
typedef void group_row_fn(const struct release_info *rel, const char *keyname,
			  const char *key, const char *rule, long long count,
			  const long long *delta, bool *first);

/*
 * each_group_row - the rows of group @g of @cur merged with the rows of
 * its key in @old (@ot, @on: old's groups), by rule: a rule the key had
 * before and has no more is a row of count 0, so the deltas of a group
 * add up to the delta of its key the text shows.  @old NULL: no previous
 * release (delta NULL).
 */
static void each_group_row(const struct total *g, const struct count_rows *cur,
			   const struct count_rows *old, const struct total *ot,
			   size_t on, group_row_fn *fn, const struct release_info *rel,
			   const char *keyname, bool *first)
{
	const struct total k = { .key = g->key }, *og = NULL;
	size_t i = g->first, end = g->first + g->nrows, j = 0, oend = 0;

	if (old && on)
		og = bsearch(&k, ot, on, sizeof(*ot), cmp_total_key);
	if (og) {
		j = og->first;
		oend = og->first + og->nrows;
	}
	while (i < end || j < oend) {
		int c = i >= end ? 1 : j >= oend ? -1 :
			strcmp(cur->v[i].rule, old->v[j].rule);
		long long now = c <= 0 ? cur->v[i].count : 0;
		long long before = c >= 0 ? old->v[j].count : 0;
		long long delta = now - before;

		fn(rel, keyname, g->key, c <= 0 ? cur->v[i].rule : old->v[j].rule,
		   now, old ? &delta : NULL, first);
		if (c <= 0)
			i++;
		if (c >= 0)
			j++;
	}
}

static void csv_group_row(const struct release_info *rel, const char *keyname,
			  const char *key, const char *rule, long long count,
			  const long long *delta, bool *first)
{
	(void)keyname;
	(void)first;
	csv_field(stdout, rel->tag);
	putchar(',');
	csv_field(stdout, key);
	printf(",%s,%lld,", rule, count);
	if (delta)
		printf("%lld", *delta);
	putchar('\n');
}

static void json_group_row(const struct release_info *rel, const char *keyname,
			   const char *key, const char *rule, long long count,
			   const long long *delta, bool *first)
{
	(void)rel;
	printf("%s\n  {\"%s\": ", *first ? "" : ",", keyname);
	json_string(stdout, key);
	printf(", \"rule\": \"%s\", \"count\": %lld, \"delta\": ", rule, count);
	if (delta)
		printf("%lld}", *delta);
	else
		printf("null}");
	*first = false;
}

/* List the groups of @cur (all, or --top N) with each_group_row(). */
static void print_groups(const struct release_info *rel, const char *keyname,
			 const struct report_opts *o, const struct count_rows *cur,
			 const struct count_rows *old, group_row_fn *fn)
{
	size_t i, n, on = 0;
	struct total *t = listed_groups(cur, o, &n);
	struct total *ot = old ? totals_by_key(old, &on) : NULL;
	bool first = true;

	/* all groups, in key order, those gone since too; --top: this release's */
	if (o->top < 0 && ot) {
		t = with_gone(t, &n, ot, on);
		qsort(t, n, sizeof(*t), cmp_total_key);
	}
	for (i = 0; i < n; i++)
		each_group_row(&t[i], cur, old, ot, on, fn, rel, keyname, &first);
	free(t);
	free(ot);
}

/*
 * The groups of @cur to list: all in key order, or with --top the N with
 * the largest counts, largest first.  *@n of them; caller frees.
 */
static struct total *listed_groups(const struct count_rows *cur,
				   const struct report_opts *o, size_t *n)
{
	struct total *t = totals_by_key(cur, n);

	if (o->top >= 0) {
		qsort(t, *n, sizeof(*t), cmp_total_count);
		if ((size_t)o->top < *n)
			*n = (size_t)o->top;
	}
	return t;
}

static void print_csv(const struct release_info *rel, bool has_prev,
		      const struct report_opts *o, const struct count_rows *cur,
		      const struct count_rows *old)
{
	size_t i;

	if (o->by == BY_RULE) {
		int idx[RULE__COUNT];
		size_t n = listed_rules(o, o->top, cur, idx);

		printf("release,rule,count\n");
		for (i = 0; i < n; i++) {
			csv_field(stdout, rel->tag);
			printf(",%s,%lld\n", rules[idx[i]].id,
			       rule_count(cur, rules[idx[i]].id));
		}
		return;
	}
	printf("release,%s,rule,count,delta\n", o->by == BY_SUBSYSTEM ? "subsystem" : "path");
	print_groups(rel, NULL, o, cur, has_prev ? old : NULL, csv_group_row);
}

static void print_json(const struct release_info *rel,
		       const struct release_info *prev,
		       const struct report_opts *o, const struct count_rows *cur,
		       const struct count_rows *old, const struct count_rows *rule_rows,
		       const struct count_rows *oldkeys, const struct forecast *fc)
{
	const char *keyname = o->by == BY_SUBSYSTEM ? "subsystem" : "path";
	long long total = 0;
	int idx[RULE__COUNT];
	size_t i, k, nlisted;
	bool first = true;

	printf("{\"release\": ");
	json_string(stdout, rel->tag);
	printf(", \"commit\": ");
	json_string(stdout, rel->commit);
	printf(", \"date\": ");
	json_date(stdout, rel->date, true);
	printf(", \"files\": %lld, \"previous\": ", rel->files);
	json_string(stdout, prev ? prev->tag : NULL);
	printf(", \"date_source\": ");
	json_string(stdout, rel->date_source ? rel->date_source : "commit");
	printf(", \"rule\": ");
	json_string(stdout, o->label);
	printf(", \"subsystem\": ");
	json_string(stdout, o->subsystem);
	printf(", \"by\": \"%s\",\n \"rules\": {", o->by == BY_RULE ? "rule" : keyname);
	for (i = 0; i < RULE__COUNT; i++)
		if (rule_ok(o, (int)i))
			total += rule_count(rule_rows, rules[i].id);
	/* --top applies to the rules of --by rule, to the groups otherwise */
	nlisted = listed_rules(o, o->by == BY_RULE ? o->top : -1, rule_rows, idx);
	for (k = 0; k < nlisted; k++) {
		long long c;

		i = (size_t)idx[k];
		c = rule_count(rule_rows, rules[i].id);
		printf("%s\"%s\": {\"count\": %lld, \"delta\": ", first ? "" : ", ",
		       rules[i].id, c);
		if (prev)
			printf("%lld", c - rule_count(old, rules[i].id));
		else
			printf("null");
		printf(", \"forecast\": ");
		print_forecast_json(&fc[i]);
		if (o->since.nknown) {
			printf(", \"documented_since\": ");
			json_string(stdout, o->since.doc[i]);
			printf(", \"replacement_since\": ");
			json_string(stdout, o->since.repl[i]);
		}
		printf("}");
		first = false;
	}
	printf("},\n \"total\": %lld, \"forecast\": ", total);
	print_forecast_json(&fc[RULE__COUNT]);
	if (o->by != BY_RULE) {
		printf(",\n \"counts\": [");
		print_groups(rel, keyname, o, cur, prev ? oldkeys : NULL, json_group_row);
		printf("\n ]");
	}
	printf("}\n");
}

/*
 * fail_unscanned - the error for @tag, which the database has no release
 * of: no such tag in the repository, or not scanned.  Returns the status.
 */
static int fail_unscanned(const char *repo_path, const char *tag)
{
	git_repository *repo = NULL;
	int status;

	if (!repo_open(&repo, repo_path) && !repo_tag_exists(repo, tag))
		status = cmd_fail(KMIG_EXIT_ERROR, "tag '%s' does not exist in '%s'",
				  tag, repo_path);
	else
		status = cmd_fail(KMIG_EXIT_ERROR, "release '%s' is not scanned (run 'kmig scan')",
				  tag);
	git_repository_free(repo);
	return status;
}

/*
 * section_in_maintainers - whether @name is a section of the MAINTAINERS
 * that one of the releases @rels[0..@n) was scanned with, the newest
 * first: *@tag is the first release that has it, or NULL (none has it,
 * or has a MAINTAINERS).  0, or negative with the error recorded (the
 * repository or a MAINTAINERS blob cannot be read).
 */
static int section_in_maintainers(struct store *st, const char *repo_path,
				  const struct release_info *rels, size_t n,
				  const char *name, const char **tag)
{
	struct maint_cache mc = MAINT_CACHE_INIT;
	git_repository *repo = NULL;
	size_t i = n;
	int ret;

	*tag = NULL;
	ret = repo_open(&repo, repo_path);
	while (!ret && !*tag && i-- > 0) {
		char *hex = NULL;
		git_oid oid;

		ret = store_release_maintainers(st, rels[i].id, &hex);
		if (!ret && hex && git_oid_fromstr(&oid, hex) < 0)
			ret = kmig_err("release '%s' has a bad MAINTAINERS id '%s'",
				       rels[i].tag, hex);
		else if (!ret && hex)
			ret = maint_cache_has(&mc, repo, &oid, name);
		if (ret > 0) {
			*tag = rels[i].tag;
			ret = 0;
		}
		free(hex);
	}
	maint_cache_release(&mc);
	git_repository_free(repo);
	return ret;
}

/*
 * check_subsystem - --subsystem names a section: one the database has
 * files (or kmig log's changes) of, or else one of the MAINTAINERS of the
 * releases @rels[0..@n) (the release reported, or every release for
 * --trend), which no file in the scan's scope falls in (o->empty_in names
 * the release).  0, or the exit status of the error.
 */
static int check_subsystem(struct store *st, struct report_opts *o,
			   const struct release_info *rels, size_t n)
{
	int known;

	if (!o->subsystem)
		return 0;
	known = store_subsystem_exists(st, o->subsystem);
	if (known < 0)
		return cmd_fail_last(KMIG_EXIT_ERROR);
	if (known)
		return 0;
	if (section_in_maintainers(st, o->repo_path, rels, n, o->subsystem,
				   &o->empty_in))
		return cmd_fail(KMIG_EXIT_ERROR, "unknown subsystem '%s' (MAINTAINERS not read: %s)",
				o->subsystem, kmig_errmsg());
	if (o->empty_in)
		return 0;
	if (n == 1)
		return cmd_fail(KMIG_EXIT_ERROR, "unknown subsystem '%s': no section of %s's MAINTAINERS",
				o->subsystem, rels[0].tag);
	return cmd_fail(KMIG_EXIT_ERROR, "unknown subsystem '%s': no section of a scanned release's MAINTAINERS",
			o->subsystem);
}

static int do_report(struct store *st, const char *repo_path, const char *tag,
		     struct report_opts *o)
{
	struct release_info *rels = NULL, *rel = NULL, *prev = NULL;
	struct count_rows cur = { 0 }, old = { 0 }, byrule = { 0 }, oldrule = { 0 };
	struct forecast fc[RULE__COUNT + 1];
	size_t n, i;
	int status = KMIG_EXIT_ERROR;

	if (store_releases(st, &rels, &n))
		return cmd_fail_last(KMIG_EXIT_ERROR);
	if (!n) {
		cmd_fail(KMIG_EXIT_ERROR, "no release is scanned (run 'kmig scan')");
		goto out;
	}
	for (i = 0; i < n; i++)
		if (!tag || !strcmp(rels[i].tag, tag)) {
			rel = &rels[i];
			prev = i ? &rels[i - 1] : NULL;
			if (tag)
				break;
		}
	if (!rel) {
		fail_unscanned(repo_path, tag);
		goto out;
	}
	if (check_subsystem(st, o, rel, 1))
		goto out;
	if (counts(o, st, rel->id, o->by, o->subsystem, &cur) ||
	    counts(o, st, rel->id, BY_RULE, o->subsystem, &byrule) ||
	    (prev && counts(o, st, prev->id, o->by, o->subsystem, &old)) ||
	    (prev && counts(o, st, prev->id, BY_RULE, o->subsystem, &oldrule)) ||
	    (o->fmt != FMT_CSV &&
	     fit_forecasts(st, rels, (size_t)(rel - rels) + 1, o, fc))) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out;
	}
	switch (o->fmt) {
	case FMT_TEXT:
		print_text(rel, prev, o, &cur, &old, fc);
		break;
	case FMT_CSV:
		print_csv(rel, prev != NULL, o, &cur, &old);
		break;
	default:
		print_json(rel, prev, o, &cur, &oldrule, &byrule, &old, fc);
	}
	status = finish_stdout(KMIG_EXIT_OK);
out:
	count_rows_clear(&cur);
	count_rows_clear(&old);
	count_rows_clear(&byrule);
	count_rows_clear(&oldrule);
	release_infos_free(rels, n);
	return status;
}

static long long sum_rows(const struct count_rows *r)
{
	long long s = 0;
	size_t i;

	for (i = 0; i < r->n; i++)
		s += r->v[i].count;
	return s;
}

/*
 * trend_releases - every scanned release into *@rels, and --subsystem
 * checked against them (check_subsystem()); an exit status.
 */
static int trend_releases(struct store *st, struct report_opts *o,
			  struct release_info **rels, size_t *n)
{
	int status;

	if (store_releases(st, rels, n))
		return cmd_fail_last(KMIG_EXIT_ERROR);
	if (!*n)
		status = cmd_fail(KMIG_EXIT_ERROR, "no release is scanned (run 'kmig scan')");
	else
		status = check_subsystem(st, o, *rels, *n);
	if (status)
		release_infos_free(*rels, *n);
	return status;
}

/*
 * One step of the trend: the count of release @i and, against release
 * @i - 1, its delta, the uses added and removed and the uses moved in (or
 * out, negative) with files that changed section.  The delta is over the
 * same files (those of the section now), so delta = added - removed;
 * the count moved by the step is moved + delta.
 */
struct trend_step {
	long long count, delta, added, removed, moved;
};

static int trend_step(struct store *st, const struct release_info *rels,
		      size_t i, const struct report_opts *o, long long prev_count,
		      struct trend_step *t)
{
	struct count_rows c = { 0 }, add = { 0 }, rem = { 0 }, before = { 0 };
	int ret;

	memset(t, 0, sizeof(*t));
	ret = counts(o, st, rels[i].id, BY_RULE, o->subsystem, &c);
	if (!ret && i)
		ret = site_changes(o, st, rels[i - 1].id, rels[i].id, &add,
					   &rem, &before);
	if (!ret) {
		t->count = sum_rows(&c);
		t->added = sum_rows(&add);
		t->removed = sum_rows(&rem);
		t->delta = t->count - sum_rows(&before);
		t->moved = sum_rows(&before) - prev_count;
	}
	count_rows_clear(&c);
	count_rows_clear(&add);
	count_rows_clear(&rem);
	count_rows_clear(&before);
	return ret;
}

static int do_trend(struct store *st, struct report_opts *o)
{
	struct release_info *rels = NULL;
	long long *dates = NULL, *counts = NULL;
	size_t n, i;
	long long prev_count = 0;
	int status = KMIG_EXIT_ERROR;

	status = trend_releases(st, o, &rels, &n);
	if (status)
		return status;
	status = KMIG_EXIT_ERROR;
	dates = xcalloc(n, sizeof(*dates));
	counts = xcalloc(n, sizeof(*counts));
	if (o->fmt == FMT_TEXT)
		printf("%-16s %9s %9s %9s %9s %9s\n", "release", "count", "delta",
		       "added", "removed", "moved");
	else if (o->fmt == FMT_CSV)
		printf("release,count,delta,added,removed,moved\n");
	else
		printf("[");
	for (i = 0; i < n; i++) {
		struct trend_step t;

		if (trend_step(st, rels, i, o, prev_count, &t)) {
			cmd_fail_last(KMIG_EXIT_ERROR);
			goto out;
		}
		if (o->fmt == FMT_TEXT) {
			printf("%-16s %9lld", rels[i].tag, t.count);
			if (i)
				printf(" %+9lld %9lld %9lld %+9lld\n", t.delta,
				       t.added, t.removed, t.moved);
			else
				printf(" %9s %9s %9s %9s\n", "-", "-", "-", "-");
		} else if (o->fmt == FMT_CSV) {
			csv_field(stdout, rels[i].tag);
			if (i)
				printf(",%lld,%lld,%lld,%lld,%lld\n", t.count,
				       t.delta, t.added, t.removed, t.moved);
			else
				printf(",%lld,,,,\n", t.count);
		} else {
			printf("%s\n {\"release\": ", i ? "," : "");
			json_string(stdout, rels[i].tag);
			printf(", \"count\": %lld", t.count);
			if (i)
				printf(", \"delta\": %lld, \"added\": %lld, \"removed\": %lld, \"moved\": %lld}",
				       t.delta, t.added, t.removed, t.moved);
			else
				printf(", \"delta\": null, \"added\": null, \"removed\": null, \"moved\": null}");
		}
		dates[i] = release_trend_date(&rels[i]);
		counts[i] = t.count;
		prev_count = t.count;
	}
	if (o->fmt == FMT_JSON)
		printf("\n]\n");
	else if (o->fmt == FMT_TEXT && n > 1)
		printf("note: delta = added - removed, over the files of the section now; moved: uses that came (or left, negative) with files changing section\n"
		       "note: a use is matched per file: one moved to another file is removed there and added here ('kmig check' matches across files)\n");
	if (o->fmt == FMT_TEXT) {
		struct sbuf sb = SBUF_INIT;
		struct forecast fc;

		print_empty_note(o);
		forecast_fit(dates, counts, n, &fc);
		forecast_text(&sb, &fc);
		/* the releases the line is fitted to, as report's forecast says */
		printf("forecast: %s; %s, over %zu release%s\n", sb.buf, FORECAST_METHOD,
		       fc.points, fc.points == 1 ? "" : "s");
		sbuf_release(&sb);
	}
	status = finish_stdout(KMIG_EXIT_OK);
out:
	free(dates);
	free(counts);
	release_infos_free(rels, n);
	return status;
}

/* One (section, rule) of a trend step by section. */
struct sec_row {
	const char *sub, *rule;
	long long count, prev, added, removed, before;
};

static int cmp_sec_row(const void *a, const void *b)
{
	const struct sec_row *x = a, *y = b;
	int c = strcmp(x->sub, y->sub);

	return c ? c : strcmp(x->rule, y->rule);
}

/* Add @rows to @v, each count into the field at byte offset @field. */
static void sec_rows_add(struct sec_row **v, size_t *n, size_t *alloc,
			 const struct count_rows *rows, size_t field)
{
	size_t i;

	for (i = 0; i < rows->n; i++) {
		struct sec_row *r;

		ALLOC_GROW(*v, *n + 1, *alloc);
		r = &(*v)[(*n)++];
		memset(r, 0, sizeof(*r));
		r->sub = rows->v[i].key;
		r->rule = rows->v[i].rule;
		*(long long *)((char *)r + field) = rows->v[i].count;
	}
}

/* Sort @v and sum the rows of each (section, rule); returns the new count. */
static size_t sec_rows_merge(struct sec_row *v, size_t n)
{
	size_t i, m = 0;

	if (n)
		qsort(v, n, sizeof(*v), cmp_sec_row);
	for (i = 0; i < n; i++) {
		struct sec_row *r = &v[m - (m && !cmp_sec_row(&v[m - 1], &v[i]))];

		if (r == &v[m]) {
			v[m++] = v[i];
			continue;
		}
		r->count += v[i].count;
		r->prev += v[i].prev;
		r->added += v[i].added;
		r->removed += v[i].removed;
		r->before += v[i].before;
	}
	return m;
}

static void print_sec_row(const struct report_opts *o, const char *tag,
			  const struct sec_row *r, bool first, bool has_prev)
{
	long long delta = r->count - r->before, moved = r->before - r->prev;

	if (o->fmt == FMT_TEXT) {
		printf("%-16s %-22s %9lld", tag, r->rule, r->count);
		if (has_prev)
			printf(" %+9lld %9lld %9lld %+9lld", delta, r->added,
			       r->removed, moved);
		else
			printf(" %9s %9s %9s %9s", "-", "-", "-", "-");
		printf("  ");
		text_name(stdout, r->sub);
		putchar('\n');
	} else if (o->fmt == FMT_CSV) {
		csv_field(stdout, tag);
		putchar(',');
		csv_field(stdout, r->sub);
		printf(",%s,%lld", r->rule, r->count);
		if (has_prev)
			printf(",%lld,%lld,%lld,%lld\n", delta, r->added, r->removed,
			       moved);
		else
			printf(",,,,\n");
	} else {
		printf("%s\n {\"release\": ", first ? "" : ",");
		json_string(stdout, tag);
		printf(", \"subsystem\": ");
		json_string(stdout, r->sub);
		printf(", \"rule\": \"%s\", \"count\": %lld", r->rule, r->count);
		if (has_prev)
			printf(", \"delta\": %lld, \"added\": %lld, \"removed\": %lld, \"moved\": %lld}",
			       delta, r->added, r->removed, moved);
		else
			printf(", \"delta\": null, \"added\": null, \"removed\": null, \"moved\": null}");
	}
}

/*
 * The trend by section: one row per release, section and rule with uses
 * (or changes), each as a row of do_trend() with --subsystem and --rule.
 */
static int trend_sections(struct store *st, const struct release_info *rels,
			  size_t i, const struct report_opts *o, bool *first)
{
	struct count_rows cur = { 0 }, prev = { 0 }, add = { 0 }, rem = { 0 },
			  before = { 0 };
	struct sec_row *v = NULL;
	size_t n = 0, alloc = 0, j;
	int ret;

	ret = counts(o, st, rels[i].id, BY_SUBSYSTEM, o->subsystem, &cur);
	if (!ret && i)
		ret = counts(o, st, rels[i - 1].id, BY_SUBSYSTEM, NULL, &prev);
	if (!ret && i)
		ret = section_changes(o, st, rels[i - 1].id, rels[i].id, &add,
					      &rem, &before);
	if (ret)
		goto out;
	sec_rows_add(&v, &n, &alloc, &cur, offsetof(struct sec_row, count));
	sec_rows_add(&v, &n, &alloc, &prev, offsetof(struct sec_row, prev));
	sec_rows_add(&v, &n, &alloc, &add, offsetof(struct sec_row, added));
	sec_rows_add(&v, &n, &alloc, &rem, offsetof(struct sec_row, removed));
	sec_rows_add(&v, &n, &alloc, &before, offsetof(struct sec_row, before));
	n = sec_rows_merge(v, n);
	for (j = 0; j < n; j++) {
		if (o->subsystem && strcmp(o->subsystem, v[j].sub))
			continue;
		print_sec_row(o, rels[i].tag, &v[j], *first, i > 0);
		*first = false;
	}
out:
	free(v);
	count_rows_clear(&cur);
	count_rows_clear(&prev);
	count_rows_clear(&add);
	count_rows_clear(&rem);
	count_rows_clear(&before);
	return ret;
}

static int do_trend_by_section(struct store *st, struct report_opts *o)
{
	struct release_info *rels = NULL;
	bool first = true;
	size_t n, i;
	int status = KMIG_EXIT_ERROR;

	status = trend_releases(st, o, &rels, &n);
	if (status)
		return status;
	status = KMIG_EXIT_ERROR;
	if (o->fmt == FMT_TEXT)
		printf("%-16s %-22s %9s %9s %9s %9s %9s  %s\n", "release", "rule",
		       "count", "delta", "added", "removed", "moved", "subsystem");
	else if (o->fmt == FMT_CSV)
		printf("release,subsystem,rule,count,delta,added,removed,moved\n");
	else
		printf("[");
	for (i = 0; i < n; i++)
		if (trend_sections(st, rels, i, o, &first)) {
			cmd_fail_last(KMIG_EXIT_ERROR);
			goto out;
		}
	if (o->fmt == FMT_JSON)
		printf("\n]\n");
	else if (o->fmt == FMT_TEXT)
		print_empty_note(o);
	status = finish_stdout(KMIG_EXIT_OK);
out:
	release_infos_free(rels, n);
	return status;
}

/*
 * Check the --rule/--skip-rule globs of @o (0, or the usage error's exit
 * status) and set o->rule (one exact --rule: the store filters) and
 * o->label.
 */
static int report_rule_filter(struct report_opts *o)
{
	struct sbuf sb = SBUF_INIT;
	size_t i;

	if (rule_globs_check(o->want, o->nwant, "--rule") ||
	    rule_globs_check(o->skip, o->nskip, "--skip-rule"))
		return cmd_fail_last(KMIG_EXIT_ERROR);	/* it names kmig rules */
	if (o->nwant == 1 && !o->nskip && rule_lookup(o->want[0]) >= 0)
		o->rule = o->want[0];
	for (i = 0; i < o->nwant; i++)
		sbuf_addf(&sb, "%s%s", i ? "," : "", o->want[i]);
	for (i = 0; i < o->nskip; i++)
		sbuf_addf(&sb, "%s!%s", sb.len ? "," : "", o->skip[i]);
	o->label = sb.len ? sbuf_detach(&sb) : NULL;
	sbuf_release(&sb);
	return 0;
}

struct reach_print {
	const char *tag;
	int fmt;
	size_t n;
};

static int reach_row(void *data, const char *path, unsigned int line,
		     const char *chain, const char *text)
{
	struct reach_print *p = data;

	if (p->fmt == FMT_CSV) {
		csv_field(stdout, p->tag);
		printf(",");
		csv_field(stdout, path);
		printf(",%u,", line);
		csv_field(stdout, chain);
		printf(",");
		csv_field(stdout, text);
		printf("\n");
	} else if (p->fmt == FMT_JSON) {
		printf("%s\n    {\"path\": ", p->n ? "," : "");
		json_string(stdout, path);
		printf(", \"line\": %u, \"reached\": ", line);
		json_string(stdout, chain);
		printf(", \"text\": ");
		json_string(stdout, text);
		printf("}");
	} else {
		text_name(stdout, path);
		printf(":%u: ", line);
		text_name(stdout, chain);	/* its paths */
		printf(": %s\n", text ? text : "");
	}
	p->n++;
	return 0;
}

/* kmig report [TAG] --reach: the release's graph and reached sites. */
static int do_reach(struct store *st, const char *repo_path, const char *tag,
		    int fmt)
{
	struct release_info *rels = NULL, *rel = NULL;
	struct reach_print p = { NULL, fmt, 0 };
	long long entries, reached, sites;
	size_t n, i;
	int depth, ret;

	if (store_releases(st, &rels, &n))
		return cmd_fail_last(KMIG_EXIT_ERROR);
	for (i = 0; i < n; i++)
		if (!tag || !strcmp(rels[i].tag, tag))
			rel = &rels[i];
	if (!rel) {
		release_infos_free(rels, n);
		return tag ? fail_unscanned(repo_path, tag) :
			     cmd_fail(KMIG_EXIT_ERROR, "no release is scanned (run 'kmig scan')");
	}
	p.tag = rel->tag;
	ret = store_reach_info(st, rel->id, &depth, &entries, &reached, &sites);
	if (!ret && depth < 0) {
		ret = cmd_fail(KMIG_EXIT_ERROR, "release '%s' has no call graph (scanned by an older kmig: run 'kmig scan')",
			       rel->tag);
		release_infos_free(rels, n);
		return ret;
	}
	if (!ret) {
		if (fmt == FMT_CSV) {
			printf("release,path,line,path_of_calls,text\n");
		} else if (fmt == FMT_JSON) {
			printf("{\n  \"release\": ");
			json_string(stdout, rel->tag);
			printf(", \"depth\": %d, \"entry_points\": %lld, \"reached\": %lld, \"sites\": [",
			       depth, entries, reached);
		} else {
			printf("%s: warn-on-user by call graph, %d calls deep (calls through function pointers not followed)\n",
			       rel->tag, depth);
			printf("entry points: %lld\nfunctions reached: %lld\nwarn-on-user sites: %lld\n",
			       entries, reached, sites);
		}
		ret = store_reach_sites(st, rel->id, reach_row, &p);
		if (!ret && fmt == FMT_JSON)
			printf("%s]\n}\n", p.n ? "\n  " : "");
	}
	release_infos_free(rels, n);
	if (ret)
		return cmd_fail_last(KMIG_EXIT_ERROR);
	return finish_stdout(KMIG_EXIT_OK);
}

static int cmd_report_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rule", required_argument, NULL, 'r' },
		{ "skip-rule", required_argument, NULL, 'S' },
		{ "subsystem", required_argument, NULL, 's' },
		{ "by", required_argument, NULL, 'b' },
		{ "top", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'f' },
		{ "trend", no_argument, NULL, 't' },
		{ "reach", no_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "text", "csv", "json", NULL };
	static const char *const bys[] = { "rule", "subsystem", "file", NULL };
	struct report_opts o = { .top = -1 };
	struct store *st = NULL;
	char *label = NULL;
	bool trend = false, reach = false;
	unsigned long n;
	int opt, status = KMIG_EXIT_ERROR;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			ALLOC_GROW(o.want, o.nwant + 1, o.awant);
			o.want[o.nwant++] = optarg;
			break;
		case 'S':
			ALLOC_GROW(o.skip, o.nskip + 1, o.askip);
			o.skip[o.nskip++] = optarg;
			break;
		case 's':
			/* one: the filter and the JSON name a single section */
			if (o.subsystem) {
				status = cmd_usage_error("report", "--subsystem given twice ('%s', '%s'): report takes one",
							 o.subsystem, optarg);
				goto out_free;
			}
			o.subsystem = optarg;
			break;
		case 'b': {
			int b = parse_choice(optarg, bys);

			if (b < 0) {
				status = cmd_usage_error("report", "--by takes rule, subsystem or file, not '%s'",
								 optarg);
				goto out_free;
			}
			o.by = (enum count_by)b;
			o.by_given = true;
			break;
		}
		case 'n':
			if (opt_uint("report", "--top", optarg, 1, INT_MAX, &n)) {
				status = KMIG_EXIT_ERROR;
				goto out_free;
			}
			o.top = (long)n;
			break;
		case 'f':
			o.fmt = parse_choice(optarg, formats);
			if (o.fmt < 0) {
				status = cmd_usage_error("report", "unknown format '%s'", optarg);
				goto out_free;
			}
			break;
		case 't':
			trend = true;
			break;
		case 'R':
			reach = true;
			break;
		default:
			status = cmd_bad_option("report", argv);
			goto out_free;
		}
	}
	status = report_rule_filter(&o);
	label = (char *)o.label;
	if (status)
		goto out_free;
	status = KMIG_EXIT_ERROR;
	if (argc - optind > 1) {
		status = cmd_usage_error("report", "unexpected argument '%s'", argv[optind + 1]);
		goto out_free;
	}
	if (trend && optind < argc) {
		status = cmd_usage_error("report", "--trend takes no TAG");
		goto out_free;
	}
	if (trend && o.top >= 0) {
		status = cmd_usage_error("report", "--trend takes no --top");
		goto out_free;
	}
	if (trend && o.by_given && o.by != BY_SUBSYSTEM) {
		status = cmd_usage_error("report", "--trend takes --by subsystem only");
		goto out_free;
	}
	if (reach && (trend || o.by_given || o.top >= 0 || o.nwant || o.nskip || o.subsystem)) {
		status = cmd_usage_error("report", "--reach takes only TAG and --format");
		goto out_free;
	}
	if (!o.by_given)
		o.by = o.fmt == FMT_CSV ? BY_SUBSYSTEM : BY_RULE;
	o.repo_path = ctx->repo_path;
	if (store_open_readonly(&st, ctx->db_path)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_free;
	}
	if (relinfo_since_load(st, &o.since)) {
		store_close(st);
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_free;
	}
	/* the rows are printed as they are read: none on an error part-way */
	status = stdout_hold(o.fmt == FMT_TEXT);
	if (!status) {
		status = reach ? do_reach(st, ctx->repo_path,
					  optind < argc ? argv[optind] : NULL, o.fmt) :
			 trend && o.by_given ? do_trend_by_section(st, &o) :
			 trend ? do_trend(st, &o) :
			 do_report(st, ctx->repo_path,
				   optind < argc ? argv[optind] : NULL, &o);
		status = stdout_release(status);
	}
	store_close(st);
out_free:
	relinfo_since_clear(&o.since);
	free(o.want);
	free(o.skip);
	free(label);
	return status;
}

const struct kmig_cmd cmd_report = {
	.name = "report",
	.fn = cmd_report_fn,
	.summary = "report counts per release, rule, subsystem or file; --trend",
	.usage = usage,
};
