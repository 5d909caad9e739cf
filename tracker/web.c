// SPDX-License-Identifier: GPL-2.0
/*
 * web.c - the static HTML dashboard: web_generate() writes the assets and
 * the pages in order (web-internal.h lists the files that build them);
 * web_split() runs the slow independent parts on two threads.
 *
 * The site is flat: every page sits in one directory next to style.css and
 * sort.js, copied build and console logs in logs/.  Pages:
 *
 *   index.html                 one row per rule, the chart of all rules
 *   rule-<slug>-<hash>.html    a rule: totals, subsystems, forecasts
 *   subsystems.html            every subsystem with uses
 *   sub-<slug>-<hash>.html     a subsystem: rules x releases
 *   release-<slug>-<hash>.html a release: the content of kmig report
 *   files-<slug>-<hash>-N.html a release's files and use sites, split by
 *                              top directory and at most sites_per_page
 *   branch.html, log.html      conversion branch, builds, boots, bisects;
 *                              kmig log
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kmig.h"
#include "web-internal.h"

int web_write_file(const char *dir, const char *name, const char *buf,
		   size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f) {
		ret = kmig_err("cannot create '%s': %s", path, strerror(errno));
		goto out_free_path;
	}
	if (fwrite(buf, 1, len, f) != len)
		ret = kmig_err("cannot write '%s': %s", path, strerror(errno));
	if (fclose(f) && !ret)
		ret = kmig_err("cannot write '%s': %s", path, strerror(errno));
out_free_path:
	free(path);
	return ret;
}

/* A share of web_split()'s work with what it returned. */
struct split_thread {
	struct web_share sh;
	int (*run)(struct web_share *sh);
	int ret;
	char err[1024];		/* the error, from the thread's own buffer */
};

static void *split_run(void *arg)
{
	struct split_thread *t = arg;

	t->ret = t->run(&t->sh);
	if (t->ret) {
		atomic_store(t->sh.stop, true);
		snprintf(t->err, sizeof(t->err), "%s", kmig_errmsg());
	}
	return NULL;
}

int web_split(int (*run)(struct web_share *sh), void *data, void *mine,
	      void *other)
{
	atomic_bool stop = false;
	struct split_thread t[2] = {
		{ .sh = { data, mine, 0, 1, &stop }, .run = run },
		{ .sh = { data, other, 1, 2, &stop }, .run = run },
	};
	pthread_t tid;
	bool two = other && !pthread_create(&tid, NULL, split_run, &t[1]);

	t[0].sh.count = two ? 2 : 1;
	split_run(&t[0]);
	if (two)
		pthread_join(tid, NULL);
	/* t[1].ret stays 0 when the second thread did not run */
	if (!t[0].ret && t[1].ret)
		return kmig_errcode(t[1].ret, "%s", t[1].err);
	return t[0].ret;
}

static void web_free(struct web *w)
{
	web_data_free(w);
	free(w->out.stamp);
	sbuf_release(&w->out.page);
}

static int write_assets(struct web *w)
{
	static const char marker[] =
		"A site written by kmig web: kmig replaces this directory whenever it regenerates the site.\n";
	int ret;

	ret = web_write_file(w->out.dir, "style.css", kmig_web_css, strlen(kmig_web_css));
	if (!ret)
		ret = web_write_file(w->out.dir, "sort.js", kmig_web_js, strlen(kmig_web_js));
	if (!ret)
		ret = web_write_file(w->out.dir, WEB_MARKER, marker, strlen(marker));
	return ret;
}

/*
 * The steps of web_generate(), in order: the release pages first, as they
 * leave the newest release's files for the subsystem pages.
 */
static int (*const generate_steps[])(struct web *w) = {
	web_load,
	write_assets,
	pages_releases,
	page_index,
	pages_rules,
	page_subsystems,
	pages_subs,
	page_branch,
	page_log,
};

int web_generate(struct store *st, const char *dir, const struct web_opts *o)
{
	struct web_progress progress = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct web w = { .st = st, .out = { .dir = dir, .opts = o, .progress = &progress } };
	/* reproducible builds' variable: the same site from the same database */
	time_t now = (time_t)source_date();
	struct tm tm;
	char stamp[64];
	size_t i;
	int ret = 0;

	/* not format_date(): its "-" for 0 is no date, and 0 is the epoch here */
	if (!gmtime_r(&now, &tm) ||
	    !strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(stamp, sizeof(stamp), "-");
	w.out.stamp = xstrdup(stamp);
	for (i = 0; !ret && i < ARRAY_SIZE(generate_steps); i++)
		ret = generate_steps[i](&w);
	web_free(&w);
	return ret;
}
