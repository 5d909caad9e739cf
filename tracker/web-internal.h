/* SPDX-License-Identifier: GPL-2.0 */
/*
 * web-internal.h - what the files of kmig web share; not for other modules
 * (their interface is web.h).
 *
 * The dashboard is written in three steps: web-data.c loads the releases,
 * rules and subsystems with their totals from the store into struct web
 * (and, one release at a time, that release's files); the page builders
 * (web-page-*.c) turn them into pages with the frame and table cells of
 * web-frame.c, the forecasts of web-forecast.c, the charts of web-chart.c
 * and the escaping and page names of web-html.c; web.c drives them and
 * writes the files, and web-replace.c swaps the finished site in.
 *
 *   web.c            web_generate(): the order of the pages; files, assets;
 *                    web_split(): work on two threads
 *   web-replace.c    web_replace(): the atomic directory swap
 *   web-html.c       escaping, URLs, page names
 *   web-frame.c      page frame (head, navigation, footer) and cells
 *   web-forecast.c   the forecast cells (forecast.h fits the line)
 *   web-chart.c      SVG line charts and sparklines
 *   web-data.c       loading from the store, lookups, rankings
 *   web-page-rules.c index.html and a page per rule
 *   web-page-subs.c  subsystems.html and a page per subsystem
 *   web-page-release.c  a page per release and its file drill-down pages
 *   web-page-branch.c   branch.html: steps, builds, boots, bisections
 *   web-page-log.c      log.html: kmig log
 *
 * Every builder appends to w->out.page between page_begin() and
 * page_end(); every string from the store goes through html_escape().
 * Functions that return int return 0 or a negative code with the error
 * recorded (kmig_err()); none prints.
 */
#ifndef KMIG_WEB_INTERNAL_H
#define KMIG_WEB_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "forecast.h"
#include "relinfo.h"
#include "rules.h"
#include "store.h"
#include "util.h"
#include "web.h"

#define DEFAULT_SITES_PER_PAGE 4000
/* Release columns shown in per-subsystem tables (charts show them all). */
#define MAX_RELEASE_COLUMNS 8
/* Releases, newest first, whose files and use sites get drill-down pages. */
#define MAX_DRILL_RELEASES 10
/* Colour classes s0...s17 of chart series in the style sheet. */
#define NSERIES_COLOURS 18

/* ---- the site being written ---- */

/* A subsystem (MAINTAINERS section) with uses in some release. */
struct sub {
	char *name;
	char *page;
	long long *cnt;		/* [rule * nrel + release] */
	long long *tot;		/* [release] */
	long long added[RULE__COUNT], removed[RULE__COUNT];	/* last release */
	long long moved[RULE__COUNT];				/* last release */
	long long added_tot, removed_tot;
	/*
	 * [release], since the previous one (as kmig report --trend): delta =
	 * added - removed over the files in the section now, and the uses
	 * moved in (negative: out) with files changing section.
	 */
	long long *delta, *moved_tot;
};

/* A file with uses in one release. */
struct rel_file {
	char *path;
	char *subsystem;
	struct sbuf rules;	/* "strcpy 2, bug-on 1" */
	long long uses;
	size_t page;
};

/* One drill-down page of a release: files of one top directory. */
struct rel_page {
	char *dir;		/* top directory, "" for top-level files */
	size_t first, n;	/* files */
	long long sites;
	bool written;
};

struct rel_id {
	long long id;
	size_t index;
};

/*
 * The site being written, in parts: what is loaded from the store once
 * (releases, rules and subsystems with their totals), the files of the
 * release whose pages are being written, and the output.
 */

/* The releases in scan order, with their totals over every rule. */
struct web_releases {
	struct release_info *v;
	size_t n;
	struct rel_id *ids;	/* sorted by id, for the release lookup */
	const char **tags;	/* [release], borrowed from v */
	char **pages;		/* [release] page names */
	long long *tot;		/* [release] */
	long long *added;	/* [release], release >= 1 */
	long long *removed;
};

/* The rules, with their totals per release. */
struct web_rules {
	char *pages[RULE__COUNT];
	long long *tot;		/* [rule * nrel + release] */
	long long *added;	/* [rule * nrel + release], release >= 1 */
	long long *removed;
	struct relinfo_since since;	/* documented / replacement since */
};

/* The subsystems with uses, sorted by name. */
struct web_subs {
	struct sub *v;
	size_t n, alloc;
};

/*
 * One release's files and their drill-down pages.  The files at the top of
 * the tree come first, then the others, each part in path order: a top
 * directory's files are adjacent, as its pages are ("a.c" < "a/x.c" <
 * "b.c" in path order).
 */
struct web_files {
	struct rel_file *v;
	size_t n, alloc;
	size_t ntop;		/* the top-level files, v[0] to v[ntop - 1] */
	struct rel_page *pages;
	size_t npages, apages;
	char *base;		/* "files-<slug>-<hash>" of the release */
};

/* Where and how the pages are written. */
struct web_output {
	const char *dir;
	const struct web_opts *opts;
	size_t per_page;	/* use sites per drill-down page */
	char *stamp;		/* generation time in the footer */
	struct sbuf page;	/* the page being built */
	struct web_progress *progress;	/* shared by the threads */
};

/*
 * The pages written so far, counted for web_opts.page_written by every
 * thread that writes pages (pages_releases()), under @lock.
 */
struct web_progress {
	pthread_mutex_t lock;
	size_t written;
};

struct web {
	struct store *st;
	struct web_releases rel;
	struct web_rules rule;
	struct web_subs sub;
	/* the newest release's files are kept for the subsystem pages */
	struct web_files files;
	struct web_output out;
};

/* ---- web.c: files in the site, work on two threads ---- */

/* web_write_file - write @len bytes of @buf to @dir/@name. */
int web_write_file(const char *dir, const char *name, const char *buf,
		   size_t len);

/* A share of web_split()'s work: what it is told. */
struct web_share {
	void *data;		/* the caller's, the same for both shares */
	void *arg;		/* the caller's, this share's own */
	size_t index;		/* 0: the main thread's share, 1: the second's */
	size_t count;		/* 2, or 1 when alone: all the work */
	atomic_bool *stop;	/* a share failed: take no more work */
};

/*
 * web_split - run @run on this thread with @mine as its share's arg and,
 * when @other is not NULL, at the same time on a second thread with
 * @other; both get @data, in which a share writes only its own items or
 * atomics.  Returns when both are done.  A share picks its part of the
 * work by index and count (every count-th item from index) or from a
 * counter in @data; a second thread that cannot start is no error:
 * @mine's share is then all of it (count 1).  @run returns 0 or a
 * negative code with the error recorded on its own thread; a failed share
 * sets *stop, which a share of many items checks between them.  Returns
 * 0, else @mine's error, else @other's, recorded again on this thread.
 * What @data, @mine and @other point to is the caller's to set up and
 * free, whether or not the second thread ran.
 */
int web_split(int (*run)(struct web_share *sh), void *data, void *mine,
	      void *other);

/* ---- web-html.c: page names ---- */

/* files_page_name - "<base>-<page + 1>.html", a drill-down page (caller frees). */
char *files_page_name(const char *base, size_t page);

/* ---- web-data.c: loading and lookups ---- */

/*
 * web_load - load the releases, rules and subsystems with their totals
 * into @w (w->st set); KMIG_ENOTFOUND when no release is scanned.
 */
int web_load(struct web *w);
/* web_data_free - free what web_load() and web_files_load() loaded. */
void web_data_free(struct web *w);
/*
 * web_files_load - load the files with uses in release @rel into w->files
 * and split them into drill-down pages (web_files_free() frees them).
 */
int web_files_load(struct web *w, size_t rel);
/* web_files_free - free w->files and empty it for the next release. */
void web_files_free(struct web *w);
/* has_uses - whether one of the @n counts @v is not zero. */
bool has_uses(const long long *v, size_t n);
/* find_sub - the subsystem named @name, or NULL (also for a NULL @name). */
struct sub *find_sub(struct web *w, const char *name);

/* A subsystem in a ranking: most uses first, then by name. */
struct ranked {
	size_t index;		/* into w->sub.v */
	long long key;
	const char *name;
};

/* Which subsystems rank_subs() ranks. */
enum rank_filter {
	RANK_ALL,		/* every subsystem */
	/*
	 * Those with a use in some release, or with a change at the release
	 * ranked by (one with no use left, or whose only news is removals,
	 * counts in the sums of the release's changes).
	 */
	RANK_EVER,
	/* those with a use at the release ranked by, or a change there */
	RANK_AT,
};

/*
 * rank_subs - the subsystems picked by @filter, ranked by their uses of
 * rule @rule (RULE__COUNT: of all rules) at release @at, most first, ties
 * by name.  Sets *@n; the caller frees the array.
 */
struct ranked *rank_subs(struct web *w, size_t rule, size_t at,
			 enum rank_filter filter, size_t *n);

/* ---- web-frame.c: the page frame and table cells ---- */

/* page_begin - start w->out.page: head, navigation and the <h1> @title. */
void page_begin(struct web *w, const char *title);
/* page_end - add the footer and write w->out.page as @name in the site. */
int page_end(struct web *w, const char *name);

/* add_link - <a href="@href">@text</a>, both escaped. */
void add_link(struct sbuf *sb, const char *href, const char *text);
/* add_sub_link - a link to subsystem @name's page, or its name when it has none. */
void add_sub_link(struct web *w, struct sbuf *sb, const char *name);
/* add_commit - an abbreviated commit id with the full one as its title. */
void add_commit(struct sbuf *sb, const char *commit);
/* no_data - the paragraph "No data yet: @what." */
void no_data(struct sbuf *sb, const char *what);
/* warn_on_user_note - the paragraph on what warn-on-user counts. */
void warn_on_user_note(struct sbuf *sb);
/* card - a summary card: the number formatted from @fmt over @label. */
void card(struct sbuf *sb, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * change_cards - the card @label with @v at release @i and, after the
 * first release, the cards of its change: delta, uses @added and @removed.
 */
void change_cards(struct sbuf *sb, const char *label, const long long *v,
		  size_t i, long long added, long long removed);
/*
 * format_date - @t (seconds since the epoch) in UTC as @fmt into @buf;
 * "-" for 0.
 */
void format_date(char *buf, size_t len, long long t, const char *fmt);

/* td_text, td_num - a cell with escaped text, a right-aligned number. */
void td_text(struct sbuf *sb, const char *s);
void td_num(struct sbuf *sb, long long v);
/* td_delta - a signed change; a dash when not @known. */
void td_delta(struct sbuf *sb, long long d, bool known);
/* td_change - uses added (shown +N) or removed (shown -N); a dash when not @known. */
void td_change(struct sbuf *sb, long long v, bool added, bool known);
/*
 * td_changes - the cells delta, added and removed of the per-release
 * counts @v at release @i, with the uses @added and @removed there; dashes
 * for the first release.
 */
void td_changes(struct sbuf *sb, const long long *v, size_t i, long long added,
		long long removed);
/*
 * td_sub_delta - a section's delta @d (added - removed) with the uses
 * @moved in or out with files, when not 0; a dash when not @known.
 */
void td_sub_delta(struct sbuf *sb, bool known, long long d, long long moved);
/*
 * td_sub_changes - the cells delta (with the uses @moved in or out, when
 * not 0), added and removed of a section's change since the previous
 * release (delta = @added - @removed); dashes when not @known.
 */
void td_sub_changes(struct sbuf *sb, bool known, long long added,
		    long long removed, long long moved);
/*
 * sub_change_cards - change_cards() of a section: delta = @added -
 * @removed, and the uses @moved in or out with files when not 0.
 */
void sub_change_cards(struct sbuf *sb, const char *label, const long long *v,
		      size_t i, long long added, long long removed,
		      long long moved);
/* sections_note - the paragraph on what a section's delta and moved mean. */
void sections_note(struct sbuf *sb);
/* td_sparkline - a cell with the sparkline of @v, sorted by the newest delta. */
void td_sparkline(struct web *w, struct sbuf *sb, const long long *v);

/*
 * A counts table: a row per rule or subsystem (@what heads the first
 * column, @id is the table's), a column for each of the newest
 * MAX_RELEASE_COLUMNS releases, then delta, added, removed and forecast.
 * counts_row() adds a row linking @name to @href with the per-release
 * counts @c (a section's row, with td_sub_changes(), when @moved is not
 * NULL: the uses *@moved in or out with files); counts_table_end() closes the table with a note when releases
 * were left out.
 */
void counts_table_begin(struct web *w, struct sbuf *sb, const char *id,
			const char *what);
void counts_row(struct web *w, struct sbuf *sb, const char *href,
		const char *name, const long long *c, long long added,
		long long removed, const long long *moved);
void counts_table_end(struct web *w, struct sbuf *sb);

/* ---- web-forecast.c ---- */

/*
 * td_forecast - the forecast cell for the per-release counts @v (one per
 * release, in release order), fitted over the releases' dates.
 */
void td_forecast(struct web *w, struct sbuf *sb, const long long *v);
/* forecast_method - the paragraph that explains the forecast. */
void forecast_method(struct sbuf *sb);

/*
 * ---- the page builders, in the order web_generate() calls them ----
 * Each writes its page or pages into the site: 0 or negative.
 */

/*
 * pages_releases - a page per release, drill-down pages for the newest
 * MAX_DRILL_RELEASES; leaves the newest release's files in w->files.
 */
int pages_releases(struct web *w);
/* page_index - index.html: every rule and release. */
int page_index(struct web *w);
/* pages_rules - a page per rule. */
int pages_rules(struct web *w);
/* page_subsystems - subsystems.html. */
int page_subsystems(struct web *w);
/* pages_subs - a page per subsystem (needs the newest release's files). */
int pages_subs(struct web *w);
/* page_branch, page_log - branch.html (copies build and console logs), log.html. */
int page_branch(struct web *w);
int page_log(struct web *w);

#endif
