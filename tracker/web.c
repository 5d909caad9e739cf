// SPDX-License-Identifier: GPL-2.0
/*
 * web.c - the static HTML dashboard: building blocks (escaping, safe page
 * names, forecast, SVG charts) and the pages.
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
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kmig.h"
#include "rules.h"
#include "store.h"
#include "web.h"

#define DEFAULT_SITES_PER_PAGE 4000
/* Release columns shown in per-subsystem tables (charts show them all). */
#define MAX_RELEASE_COLUMNS 8
/* Releases, newest first, whose files and use sites get drill-down pages. */
#define MAX_DRILL_RELEASES 10
/* Newest commits listed on the log page. */
#define MAX_LOG_COMMITS 5000
#define NSERIES_COLOURS 18
/* Evidence longer than this is folded into a <details> element. */
#define EVIDENCE_INLINE 100

/* ---- building blocks ---- */

void html_escape(struct sbuf *sb, const char *s)
{
	const char *start;

	if (!s)
		return;
	for (start = s; *s; s++) {
		const char *rep;

		switch (*s) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = "&quot;";
			break;
		case '\'':
			rep = "&#39;";
			break;
		default:
			continue;
		}
		sbuf_add(sb, start, (size_t)(s - start));
		sbuf_addstr(sb, rep);
		start = s + 1;
	}
	sbuf_add(sb, start, (size_t)(s - start));
}

void url_escape(struct sbuf *sb, const char *s, bool keep_slash)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
		    c == '~' || (keep_slash && c == '/')) {
			sbuf_addch(sb, c);
		} else {
			sbuf_addch(sb, '%');
			sbuf_addch(sb, hex[c >> 4]);
			sbuf_addch(sb, hex[c & 15]);
		}
	}
}

char *source_link(const char *tmpl, const char *tag, const char *path,
		  long long line)
{
	struct sbuf sb = SBUF_INIT;
	const char *p;

	if (!tmpl)
		return NULL;
	for (p = tmpl; *p; ) {
		if (!strncmp(p, "{tag}", 5)) {
			url_escape(&sb, tag, false);
			p += 5;
		} else if (!strncmp(p, "{path}", 6)) {
			url_escape(&sb, path, true);
			p += 6;
		} else if (!strncmp(p, "{line}", 6)) {
			sbuf_addf(&sb, "%lld", line);
			p += 6;
		} else {
			sbuf_addch(&sb, *p++);
		}
	}
	return sbuf_detach(&sb);
}

static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

char *web_page_name(const char *prefix, const char *name)
{
	struct sbuf sb = SBUF_INIT;
	size_t slug_start, slug_len = 0;
	const char *p;

	sbuf_addstr(&sb, prefix);
	sbuf_addch(&sb, '-');
	slug_start = sb.len;
	for (p = name; *p && slug_len < 40; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			sbuf_addch(&sb, c);
		} else if (c >= 'A' && c <= 'Z') {
			sbuf_addch(&sb, c - 'A' + 'a');
		} else {
			if (sb.len == slug_start || sb.buf[sb.len - 1] == '-')
				continue;
			sbuf_addch(&sb, '-');
		}
		slug_len = sb.len - slug_start;
	}
	while (sb.len > slug_start && sb.buf[sb.len - 1] == '-')
		sb.len--;
	if (sb.len == slug_start)
		sbuf_addch(&sb, 'x');
	sbuf_addf(&sb, "-%08x.html", fnv1a(name));
	return sbuf_detach(&sb);
}

static bool name_taken(char *const *names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static int cmp_name_index(const void *a, const void *b, void *arg)
{
	char *const *names = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(names[x], names[y]);

	if (c)
		return c;
	return x < y ? -1 : x > y;
}

void web_names_unique(char **names, size_t n)
{
	char **orig;
	size_t *idx, i;

	if (n < 2)
		return;
	orig = xmalloc(n * sizeof(*orig));
	memcpy(orig, names, n * sizeof(*orig));
	idx = xmalloc(n * sizeof(*idx));
	for (i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_name_index, orig);
	for (i = 1; i < n; i++) {
		const char *name = orig[idx[i]];
		size_t len = strlen(name);
		bool html = len > 5 && !strcmp(name + len - 5, ".html");
		char *base, *cand = NULL;
		int k;

		if (strcmp(orig[idx[i - 1]], name))
			continue;
		base = xstrndup(name, html ? len - 5 : len);
		for (k = 2; ; k++) {
			free(cand);
			cand = xasprintf("%s-%d%s", base, k, html ? ".html" : "");
			if (!name_taken(names, n, cand))
				break;
		}
		free(base);
		names[idx[i]] = cand;
	}
	for (i = 0; i < n; i++)
		if (names[i] != orig[i])
			free(orig[i]);
	free(idx);
	free(orig);
}

void forecast_fit(const long long *v, size_t n, struct forecast *out)
{
	size_t w = n < FORECAST_WINDOW ? n : FORECAST_WINDOW;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, mx, my, den;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->window = w;
	if (n < 2) {
		out->kind = FORECAST_NO_DATA;
		return;
	}
	for (i = 0; i < w; i++) {
		double x = (double)i, y = (double)v[n - w + i];

		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
	}
	mx = sx / (double)w;
	my = sy / (double)w;
	den = sxx - (double)w * mx * mx;
	out->slope = den > 0 ? (sxy - (double)w * mx * my) / den : 0;
	if (v[n - 1] == 0) {
		out->kind = FORECAST_ZERO;
		return;
	}
	if (out->slope > -1e-9) {
		out->kind = FORECAST_NOT_CONVERGING;
		return;
	}
	out->kind = FORECAST_CONVERGING;
	out->releases = (long long)ceil((double)v[n - 1] / -out->slope - 1e-9);
	if (out->releases < 1)
		out->releases = 1;
}

/* ---- SVG charts ---- */

#define CHART_W 760
#define CHART_H 300
#define CHART_ML 64
#define CHART_MR 20
#define CHART_MT 14
#define CHART_MB 76

static double chart_f(long long v, bool log_scale)
{
	if (v < 0)
		v = 0;
	return log_scale ? log10(1.0 + (double)v) : (double)v;
}

/* Ticks for 0..max: linear steps of 1, 2 or 5 times a power of ten. */
static size_t chart_ticks(long long max, bool log_scale, long long *ticks,
			  size_t nmax)
{
	size_t n = 0;

	ticks[n++] = 0;
	if (log_scale) {
		long long t = 1;

		for (;;) {
			ticks[n++] = t;
			if (t >= max || n == nmax || t > LLONG_MAX / 10)
				break;
			t *= 10;
		}
	} else {
		double raw = max > 0 ? (double)max / 5.0 : 1.0;
		double mag = pow(10.0, floor(log10(raw)));
		long long step;

		if (raw <= mag)
			step = (long long)mag;
		else if (raw <= 2 * mag)
			step = (long long)(2 * mag);
		else if (raw <= 5 * mag)
			step = (long long)(5 * mag);
		else
			step = (long long)(10 * mag);
		if (step < 1)
			step = 1;
		while (n < nmax && ticks[n - 1] < max)
			ticks[n] = ticks[n - 1] + step, n++;
		if (n == 1)
			ticks[n++] = step;
	}
	return n;
}

void svg_line_chart(struct sbuf *sb, const char *id, const char *caption,
		    const char *const *xlabels, size_t nx,
		    const struct chart_series *s, size_t ns, bool log_scale)
{
	const double pw = CHART_W - CHART_ML - CHART_MR;
	const double ph = CHART_H - CHART_MT - CHART_MB;
	long long max = 0, ticks[24];
	size_t i, j, nticks, label_step;
	double top;

	for (j = 0; j < ns; j++)
		for (i = 0; i < nx; i++)
			if (s[j].v[i] > max)
				max = s[j].v[i];
	nticks = chart_ticks(max, log_scale, ticks, ARRAY_SIZE(ticks));
	top = chart_f(ticks[nticks - 1], log_scale);
	if (top <= 0)
		top = 1;

#define X(i) (nx > 1 ? CHART_ML + pw * (double)(i) / (double)(nx - 1) : CHART_ML + pw / 2)
#define Y(v) (CHART_MT + ph - ph * chart_f((v), log_scale) / top)

	sbuf_addf(sb, "<svg class=\"chart\" id=\"%s\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-labelledby=\"%s-t\" data-points=\"%zu\" data-series=\"%zu\">\n<title id=\"%s-t\">",
		  id, CHART_W, CHART_H, CHART_W, CHART_H, id, nx, ns, id);
	html_escape(sb, caption);
	sbuf_addstr(sb, "</title>\n");
	for (i = 0; i < nticks; i++) {
		double y = Y(ticks[i]);

		sbuf_addf(sb, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			  "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%lld</text>\n",
			  CHART_ML, CHART_W - CHART_MR, y, y, CHART_ML - 6, y + 4,
			  ticks[i]);
	}
	sbuf_addf(sb, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
		  CHART_ML, CHART_W - CHART_MR, CHART_MT + ph, CHART_MT + ph);
	sbuf_addf(sb, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%.1f\"/>\n",
		  CHART_ML, CHART_ML, CHART_MT, CHART_MT + ph);
	if (log_scale)
		sbuf_addf(sb, "<text x=\"%d\" y=\"%d\">log scale</text>\n",
			  CHART_ML + 6, CHART_MT + 10);
	label_step = nx > 24 ? (nx + 23) / 24 : 1;
	for (i = 0; i < nx; i++) {
		if (i % label_step && i != nx - 1)
			continue;
		sbuf_addf(sb, "<text class=\"xl\" text-anchor=\"end\" transform=\"translate(%.1f %.1f) rotate(-35)\">",
			  X(i), CHART_MT + ph + 14);
		html_escape(sb, xlabels[i]);
		sbuf_addstr(sb, "</text>\n");
	}
	for (j = 0; j < ns; j++) {
		sbuf_addf(sb, "<g class=\"series s%zu\" data-name=\"", j % NSERIES_COLOURS);
		html_escape(sb, s[j].name);
		sbuf_addstr(sb, "\"><polyline points=\"");
		for (i = 0; i < nx; i++)
			sbuf_addf(sb, "%s%.1f,%.1f", i ? " " : "", X(i), Y(s[j].v[i]));
		sbuf_addstr(sb, "\"/>\n");
		for (i = 0; i < nx; i++) {
			sbuf_addf(sb, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"><title>",
				  X(i), Y(s[j].v[i]));
			html_escape(sb, s[j].name);
			sbuf_addstr(sb, " in ");
			html_escape(sb, xlabels[i]);
			sbuf_addf(sb, ": %lld</title></circle>\n", s[j].v[i]);
		}
		sbuf_addstr(sb, "</g>\n");
	}
	sbuf_addstr(sb, "</svg>\n");
#undef X
#undef Y
}

void svg_sparkline(struct sbuf *sb, const long long *v, const char *const *xlabels,
		   size_t n)
{
	const double w = 100, h = 24, pad = 3;
	long long min = 0, max = 0;
	double range;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!i || v[i] < min)
			min = v[i];
		if (!i || v[i] > max)
			max = v[i];
	}
	range = max > min ? (double)(max - min) : 1;

#define SX(i) (n > 1 ? pad + (w - 2 * pad) * (double)(i) / (double)(n - 1) : w / 2)
#define SY(x) (max > min ? h - pad - (h - 2 * pad) * (double)((x) - min) / range : h / 2)

	sbuf_addf(sb, "<svg class=\"spark\" viewBox=\"0 0 100 24\" width=\"100\" height=\"24\" data-points=\"%zu\"><polyline points=\"",
		  n);
	for (i = 0; i < n; i++)
		sbuf_addf(sb, "%s%.1f,%.1f", i ? " " : "", SX(i), SY(v[i]));
	sbuf_addstr(sb, "\"/>");
	for (i = 0; i < n; i++) {
		sbuf_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"><title>", SX(i),
			  SY(v[i]), i == n - 1 ? "2.5" : "1.5");
		html_escape(sb, xlabels[i]);
		sbuf_addf(sb, ": %lld</title></circle>", v[i]);
	}
	sbuf_addstr(sb, "</svg>");
#undef SX
#undef SY
}

/* ---- the site ---- */

struct sub {
	char *name;
	char *page;
	long long *cnt;		/* [rule * nrel + release] */
	long long *tot;		/* [release] */
	long long added[RULE__COUNT], removed[RULE__COUNT];	/* last release */
	long long added_tot, removed_tot;
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
	struct rel_id *ids;	/* sorted by id, for rel_index() */
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
};

/* The subsystems with uses, sorted by name. */
struct web_subs {
	struct sub *v;
	size_t n, alloc;
};

/* One release's files and their drill-down pages. */
struct web_files {
	struct rel_file *v;
	size_t n, alloc;
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
	size_t written;		/* pages written so far */
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

static int write_file(const char *dir, const char *name, const char *buf,
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

/*
 * copy_log - copy the log at @src into the site as logs/@name: 1 when
 * copied, 0 when @src cannot be read (the page says so), negative when
 * the site cannot be written.
 */
static int copy_log(struct web *w, const char *src, const char *name)
{
	char buf[65536], *logs, *dst;
	int in, out, ret = 1;
	ssize_t n;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return 0;
	logs = xasprintf("%s/logs", w->out.dir);
	dst = xasprintf("%s/%s", logs, name);
	if (mkdir(logs, 0777) < 0 && errno != EEXIST) {
		ret = kmig_err("cannot create directory '%s': %s", logs, strerror(errno));
		goto out_free;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (out < 0) {
		ret = kmig_err("cannot create '%s': %s", dst, strerror(errno));
		goto out_free;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, (size_t)n) != n) {
			ret = kmig_err("cannot write '%s': %s", dst, strerror(errno));
			break;
		}
	}
	if (n < 0 && ret > 0)
		ret = 0;	/* unreadable: reported as not available */
	if (close(out) < 0 && ret > 0)
		ret = kmig_err("cannot write '%s': %s", dst, strerror(errno));
	if (ret == 0)
		unlink(dst);
out_free:
	close(in);
	free(dst);
	free(logs);
	return ret;
}

static int cmp_rel_id(const void *a, const void *b)
{
	const struct rel_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static long rel_index(struct web *w, long long id)
{
	struct rel_id k = { id, 0 }, *hit;

	hit = bsearch(&k, w->rel.ids, w->rel.n, sizeof(k), cmp_rel_id);
	return hit ? (long)hit->index : -1;
}

static int cmp_sub_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct sub *)elem)->name);
}

static struct sub *find_sub(struct web *w, const char *name)
{
	if (!name)
		return NULL;
	return bsearch(name, w->sub.v, w->sub.n, sizeof(*w->sub.v), cmp_sub_name);
}

static int load_count(void *data, const struct web_count *c)
{
	struct web *w = data;
	long ri = rel_index(w, c->release);
	int r = rule_lookup(c->rule);
	struct sub *s;

	if (ri < 0 || r < 0 || !c->subsystem)
		return 0;
	if (!w->sub.n || strcmp(w->sub.v[w->sub.n - 1].name, c->subsystem)) {
		ALLOC_GROW(w->sub.v, w->sub.n + 1, w->sub.alloc);
		s = &w->sub.v[w->sub.n++];
		memset(s, 0, sizeof(*s));
		s->name = xstrdup(c->subsystem);
		s->cnt = xcalloc(RULE__COUNT * w->rel.n, sizeof(*s->cnt));
		s->tot = xcalloc(w->rel.n, sizeof(*s->tot));
	}
	s = &w->sub.v[w->sub.n - 1];
	s->cnt[r * w->rel.n + ri] += c->count;
	s->tot[ri] += c->count;
	w->rule.tot[r * w->rel.n + ri] += c->count;
	w->rel.tot[ri] += c->count;
	return 0;
}

static int load_change(void *data, const struct web_change *c)
{
	struct web *w = data;
	struct sub *s = find_sub(w, c->subsystem);
	int r = rule_lookup(c->rule);

	if (!s || r < 0)
		return 0;
	s->added[r] += c->added;
	s->removed[r] += c->removed;
	s->added_tot += c->added;
	s->removed_tot += c->removed;
	return 0;
}

static int load(struct web *w)
{
	size_t i, n, r;
	char **names;
	int ret;

	ret = store_releases(w->st, &w->rel.v, &w->rel.n);
	if (ret)
		return ret;
	n = w->rel.n;
	if (!n)
		return kmig_errcode(KMIG_ENOTFOUND, "no release is scanned (run 'kmig scan')");
	w->rel.ids = xcalloc(n, sizeof(*w->rel.ids));
	w->rel.tags = xcalloc(n, sizeof(*w->rel.tags));
	w->rel.pages = xcalloc(n, sizeof(*w->rel.pages));
	for (i = 0; i < n; i++) {
		w->rel.ids[i].id = w->rel.v[i].id;
		w->rel.ids[i].index = i;
		w->rel.tags[i] = w->rel.v[i].tag;
		w->rel.pages[i] = web_page_name("release", w->rel.v[i].tag);
	}
	web_names_unique(w->rel.pages, n);
	qsort(w->rel.ids, n, sizeof(*w->rel.ids), cmp_rel_id);
	for (r = 0; r < RULE__COUNT; r++)
		w->rule.pages[r] = web_page_name("rule", rules[r].id);
	web_names_unique(w->rule.pages, RULE__COUNT);
	w->rule.tot = xcalloc(RULE__COUNT * n, sizeof(*w->rule.tot));
	w->rule.added = xcalloc(RULE__COUNT * n, sizeof(*w->rule.added));
	w->rule.removed = xcalloc(RULE__COUNT * n, sizeof(*w->rule.removed));
	w->rel.tot = xcalloc(n, sizeof(*w->rel.tot));
	w->rel.added = xcalloc(n, sizeof(*w->rel.added));
	w->rel.removed = xcalloc(n, sizeof(*w->rel.removed));

	ret = store_web_counts(w->st, load_count, w);
	if (ret)
		return ret;
	names = xcalloc(w->sub.n ? w->sub.n : 1, sizeof(*names));
	for (i = 0; i < w->sub.n; i++)
		names[i] = web_page_name("sub", w->sub.v[i].name);
	web_names_unique(names, w->sub.n);
	for (i = 0; i < w->sub.n; i++)
		w->sub.v[i].page = names[i];
	free(names);

	/* added and removed per rule for every release, as kmig report --trend */
	for (i = 1; i < n; i++) {
		struct count_rows add = { 0 }, rem = { 0 };
		size_t j;

		ret = store_site_changes(w->st, w->rel.v[i - 1].id, w->rel.v[i].id,
					 NULL, NULL, &add, &rem);
		for (j = 0; !ret && j < add.n; j++) {
			int rr = rule_lookup(add.v[j].rule);

			if (rr < 0)
				continue;
			w->rule.added[rr * n + i] += add.v[j].count;
			w->rule.removed[rr * n + i] += rem.v[j].count;
			w->rel.added[i] += add.v[j].count;
			w->rel.removed[i] += rem.v[j].count;
		}
		count_rows_clear(&add);
		count_rows_clear(&rem);
		if (ret)
			return ret;
	}
	/* per subsystem, for the newest release only */
	if (n > 1)
		return store_web_changes(w->st, w->rel.v[n - 2].id, w->rel.v[n - 1].id,
					 load_change, w);
	return 0;
}

/* ---- page frame and cells ---- */

static void page_begin(struct web *w, const char *title)
{
	struct sbuf *sb = &w->out.page;

	sbuf_reset(sb);
	sbuf_addstr(sb,
		    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<meta name=\"color-scheme\" content=\"light dark\">\n"
		    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'\">\n"
		    "<link rel=\"icon\" href=\"data:,\">\n"
		    "<link rel=\"stylesheet\" href=\"style.css\">\n"
		    "<script src=\"sort.js\" defer></script>\n<title>");
	html_escape(sb, title);
	sbuf_addstr(sb, " - kmig</title>\n</head>\n<body>\n<header><nav>"
		    "<a class=\"home\" href=\"index.html\">kmig</a>"
		    "<a href=\"subsystems.html\">Subsystems</a>");
	sbuf_addf(sb, "<a href=\"%s\">Release ", w->rel.pages[w->rel.n - 1]);
	html_escape(sb, w->rel.tags[w->rel.n - 1]);
	sbuf_addstr(sb, "</a><a href=\"branch.html\">Branch</a>"
		    "<a href=\"log.html\">Log</a></nav></header>\n<main>\n<h1>");
	html_escape(sb, title);
	sbuf_addstr(sb, "</h1>\n");
}

static int page_end(struct web *w, const char *name)
{
	struct sbuf *sb = &w->out.page;

	int ret;

	sbuf_addf(sb, "</main>\n<footer>Generated by kmig %s on %s from its database; "
		  "the dashboard is a pure function of it.</footer>\n</body>\n</html>\n",
		  KMIG_VERSION, w->out.stamp);
	ret = write_file(w->out.dir, name, sb->buf, sb->len);
	if (!ret && w->out.opts->page_written)
		w->out.opts->page_written(w->out.opts->data, ++w->out.written);
	return ret;
}

static void add_link(struct sbuf *sb, const char *href, const char *text)
{
	sbuf_addstr(sb, "<a href=\"");
	html_escape(sb, href);
	sbuf_addstr(sb, "\">");
	html_escape(sb, text);
	sbuf_addstr(sb, "</a>");
}

static void add_sub_link(struct web *w, struct sbuf *sb, const char *name)
{
	struct sub *s = find_sub(w, name);

	if (s)
		add_link(sb, s->page, name);
	else
		html_escape(sb, name);
}

static void td_text(struct sbuf *sb, const char *s)
{
	sbuf_addstr(sb, "<td>");
	html_escape(sb, s);
	sbuf_addstr(sb, "</td>");
}

static void td_num(struct sbuf *sb, long long v)
{
	sbuf_addf(sb, "<td class=\"num\">%lld</td>", v);
}

static void td_none(struct sbuf *sb)
{
	sbuf_addstr(sb, "<td class=\"num\" data-v=\"\">&mdash;</td>");
}

static void td_delta(struct sbuf *sb, long long d, bool known)
{
	if (!known) {
		td_none(sb);
		return;
	}
	if (!d) {
		sbuf_addstr(sb, "<td class=\"num\" data-v=\"0\">0</td>");
		return;
	}
	sbuf_addf(sb, "<td class=\"num%s\" data-v=\"%lld\">%+lld</td>",
		  d > 0 ? " up" : " down", d, d);
}

/* Uses added (shown +N) or removed (shown -N) in a release. */
static void td_change(struct sbuf *sb, long long v, bool added, bool known)
{
	if (!known) {
		td_none(sb);
		return;
	}
	if (!v) {
		sbuf_addstr(sb, "<td class=\"num\" data-v=\"0\">0</td>");
		return;
	}
	sbuf_addf(sb, "<td class=\"num %s\" data-v=\"%lld\">%c%lld</td>",
		  added ? "up" : "down", v, added ? '+' : '-', v);
}

static void format_date(char *buf, size_t len, long long t, const char *fmt)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm) || !strftime(buf, len, fmt, &tm))
		snprintf(buf, len, "-");
}

static void td_forecast(struct web *w, struct sbuf *sb, const long long *v)
{
	struct forecast f;
	size_t n = w->rel.n, i;

	forecast_fit(v, n, &f);
	switch (f.kind) {
	case FORECAST_NO_DATA:
		sbuf_addstr(sb, "<td data-v=\"\" class=\"muted\">needs two releases</td>");
		return;
	case FORECAST_ZERO:
		for (i = 0; i < n && !v[i]; i++)
			;
		sbuf_addf(sb, "<td data-v=\"0\">%s</td>", i == n ? "no uses" : "reached zero");
		return;
	case FORECAST_NOT_CONVERGING:
		sbuf_addf(sb, "<td class=\"fc\" data-v=\"1000000000\" title=\"slope %+.1f per release over the last %zu releases\">not converging</td>",
			  f.slope, f.window);
		return;
	case FORECAST_CONVERGING:
		break;
	}
	sbuf_addf(sb, "<td class=\"fc\" data-v=\"%lld\" title=\"slope %+.1f per release over the last %zu releases\">in &asymp;%lld release%s</td>",
		  f.releases, f.slope, f.window, f.releases, f.releases == 1 ? "" : "s");
}

static void forecast_method(struct sbuf *sb)
{
	sbuf_addf(sb, "<p class=\"note\" id=\"forecast-method\"><b>Forecast method.</b> A least-squares "
		  "line is fitted to the counts of the last %d scanned releases (fewer when fewer are "
		  "scanned), x being the position in release order, so one step is one scanned "
		  "release, whatever its distance in time. When the line falls, the count reaches zero "
		  "after &lceil;count &divide; fall per release&rceil; more releases at that pace; a flat "
		  "or rising line is &ldquo;not converging&rdquo;.</p>\n",
		  FORECAST_WINDOW);
}

static void warn_on_user_note(struct sbuf *sb)
{
	sbuf_addstr(sb, "<p class=\"note\">warn-on-user is a heuristic: WARN uses in handlers named "
		    "*_sendmsg, *_recvmsg, *_setsockopt, *_getsockopt, *_ioctl or *_store, which user "
		    "space drives directly.</p>\n");
}

static void card(struct sbuf *sb, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void card(struct sbuf *sb, const char *label, const char *fmt, ...)
{
	va_list ap;

	sbuf_addstr(sb, "<div class=\"card\"><b>");
	va_start(ap, fmt);
	sbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	sbuf_addstr(sb, "</b>");
	html_escape(sb, label);
	sbuf_addstr(sb, "</div>");
}

/* Header cells for the last MAX_RELEASE_COLUMNS releases; the first index. */
static size_t release_columns(struct web *w, struct sbuf *sb)
{
	size_t first = w->rel.n > MAX_RELEASE_COLUMNS ? w->rel.n - MAX_RELEASE_COLUMNS : 0;
	size_t i;

	for (i = first; i < w->rel.n; i++) {
		sbuf_addstr(sb, "<th class=\"num\">");
		html_escape(sb, w->rel.tags[i]);
		sbuf_addstr(sb, "</th>");
	}
	return first;
}

static void release_columns_note(struct web *w, struct sbuf *sb)
{
	if (w->rel.n > MAX_RELEASE_COLUMNS)
		sbuf_addf(sb, "<p class=\"note\">The table shows the last %d of %zu releases; the chart shows them all.</p>\n",
			  MAX_RELEASE_COLUMNS, w->rel.n);
}

/* ---- index ---- */

static int page_index(struct web *w)
{
	struct sbuf *sb = &w->out.page;
	struct chart_series series[RULE__COUNT];
	size_t n = w->rel.n, last = n - 1, i, r, nsubs;
	bool prev = n > 1;
	char date[32];

	page_begin(w, "Deprecated kernel API uses");
	sbuf_addstr(sb, "<p>Uses of the deprecated kernel interfaces that kmig tracks, per scanned release. ");
	sbuf_addf(sb, "Newest release: <a href=\"%s\">", w->rel.pages[last]);
	html_escape(sb, w->rel.tags[last]);
	sbuf_addf(sb, "</a>; %zu release%s scanned.</p>\n<div class=\"cards\">", n, n == 1 ? "" : "s");
	card(sb, "uses in the newest release", "%lld", w->rel.tot[last]);
	if (prev) {
		card(sb, "since the previous release", "%+lld", w->rel.tot[last] - w->rel.tot[last - 1]);
		card(sb, "uses added", "%lld", w->rel.added[last]);
		card(sb, "uses removed", "%lld", w->rel.removed[last]);
	}
	for (i = 0, nsubs = 0; i < w->sub.n; i++)
		nsubs += w->sub.v[i].tot[last] != 0;
	card(sb, "subsystems with uses", "%zu", nsubs);
	sbuf_addstr(sb, "</div>\n<h2>All rules across releases</h2>\n<div class=\"scroll\">");
	for (r = 0; r < RULE__COUNT; r++) {
		series[r].name = rules[r].id;
		series[r].v = &w->rule.tot[r * n];
	}
	svg_line_chart(sb, "chart-rules", "Uses per rule and release (log scale)",
		       w->rel.tags, n, series, RULE__COUNT, true);
	sbuf_addstr(sb, "</div>\n<ul class=\"legend\">");
	for (r = 0; r < RULE__COUNT; r++) {
		sbuf_addf(sb, "<li class=\"s%zu\">", r % NSERIES_COLOURS);
		add_link(sb, w->rule.pages[r], rules[r].id);
		sbuf_addstr(sb, "</li>");
	}
	sbuf_addstr(sb, "</ul>\n<h2>Rules</h2>\n<div class=\"scroll\"><table class=\"sortable\" id=\"rules\">\n"
		    "<thead><tr><th>Rule</th><th>Title</th><th class=\"num\">Uses</th><th>Releases</th>"
		    "<th class=\"num\">Delta</th><th class=\"num\">Added</th><th class=\"num\">Removed</th>"
		    "<th>Forecast</th></tr></thead>\n<tbody>\n");
	for (r = 0; r < RULE__COUNT; r++) {
		const long long *v = &w->rule.tot[r * n];

		sbuf_addf(sb, "<tr data-rule=\"%s\"><td>", rules[r].id);
		add_link(sb, w->rule.pages[r], rules[r].id);
		sbuf_addstr(sb, "</td>");
		td_text(sb, rules[r].title);
		td_num(sb, v[last]);
		sbuf_addf(sb, "<td data-v=\"%lld\">", prev ? v[last] - v[last - 1] : 0);
		svg_sparkline(sb, v, w->rel.tags, n);
		sbuf_addstr(sb, "</td>");
		td_delta(sb, prev ? v[last] - v[last - 1] : 0, prev);
		td_change(sb, w->rule.added[r * n + last], true, prev);
		td_change(sb, w->rule.removed[r * n + last], false, prev);
		td_forecast(w, sb, v);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n<tfoot><tr><td>total</td><td></td>");
	td_num(sb, w->rel.tot[last]);
	sbuf_addstr(sb, "<td>");
	svg_sparkline(sb, w->rel.tot, w->rel.tags, n);
	sbuf_addstr(sb, "</td>");
	td_delta(sb, prev ? w->rel.tot[last] - w->rel.tot[last - 1] : 0, prev);
	td_change(sb, w->rel.added[last], true, prev);
	td_change(sb, w->rel.removed[last], false, prev);
	td_forecast(w, sb, w->rel.tot);
	sbuf_addstr(sb, "</tr></tfoot>\n</table></div>\n");
	warn_on_user_note(sb);

	sbuf_addstr(sb, "<h2>Releases</h2>\n<div class=\"scroll\"><table class=\"sortable\" id=\"releases\">\n"
		    "<thead><tr><th>Release</th><th>Date</th><th>Commit</th><th class=\"num\">Files</th>"
		    "<th class=\"num\">Uses</th><th class=\"num\">Delta</th><th class=\"num\">Added</th>"
		    "<th class=\"num\">Removed</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < n; i++) {
		const struct release_info *rel = &w->rel.v[i];

		format_date(date, sizeof(date), rel->date, "%Y-%m-%d");
		sbuf_addstr(sb, "<tr><td>");
		add_link(sb, w->rel.pages[i], rel->tag);
		sbuf_addf(sb, "</td><td>%s</td><td><code>%.12s</code></td>", date,
			  rel->commit ? rel->commit : "");
		td_num(sb, rel->files);
		td_num(sb, w->rel.tot[i]);
		td_delta(sb, i ? w->rel.tot[i] - w->rel.tot[i - 1] : 0, i > 0);
		td_change(sb, w->rel.added[i], true, i > 0);
		td_change(sb, w->rel.removed[i], false, i > 0);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n"
		    "<p>Also: <a href=\"subsystems.html\">every subsystem</a>, "
		    "<a href=\"branch.html\">the conversion branch, builds, boots and bisections</a>, "
		    "<a href=\"log.html\">per-commit attribution (kmig log)</a>.</p>\n");
	forecast_method(sb);
	return page_end(w, "index.html");
}

/* ---- rules ---- */

struct ranked {
	size_t index;
	long long key;
	const char *name;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int page_rule(struct web *w, size_t r)
{
	struct sbuf *sb = &w->out.page;
	size_t n = w->rel.n, last = n - 1, i, first, nr = 0;
	const long long *v = &w->rule.tot[r * n];
	struct chart_series series = { rules[r].id, v };
	struct ranked *rank;
	bool prev = n > 1;
	char *title = xasprintf("Rule %s", rules[r].id);

	page_begin(w, title);
	free(title);
	sbuf_addstr(sb, "<p>");
	html_escape(sb, rules[r].title);
	sbuf_addstr(sb, ".</p>\n<p>Source: ");
	html_escape(sb, rules[r].source);
	sbuf_addstr(sb, ". Instead: ");
	html_escape(sb, rules[r].advice);
	sbuf_addstr(sb, ".</p>\n");
	if (r == RULE_WARN_ON_USER)
		warn_on_user_note(sb);
	sbuf_addstr(sb, "<h2>Uses per release</h2>\n<div class=\"scroll\">");
	svg_line_chart(sb, "chart-rule", "Uses per release", w->rel.tags, n, &series, 1, false);
	sbuf_addstr(sb, "</div>\n<div class=\"scroll\"><table class=\"sortable\" id=\"trend\">\n"
		    "<thead><tr><th>Release</th><th class=\"num\">Uses</th><th class=\"num\">Delta</th>"
		    "<th class=\"num\">Added</th><th class=\"num\">Removed</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < n; i++) {
		sbuf_addstr(sb, "<tr><td>");
		add_link(sb, w->rel.pages[i], w->rel.tags[i]);
		sbuf_addstr(sb, "</td>");
		td_num(sb, v[i]);
		td_delta(sb, i ? v[i] - v[i - 1] : 0, i > 0);
		td_change(sb, w->rule.added[r * n + i], true, i > 0);
		td_change(sb, w->rule.removed[r * n + i], false, i > 0);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n<h2>Forecast</h2>\n<table id=\"forecast\"><tbody><tr><th>");
	html_escape(sb, rules[r].id);
	sbuf_addstr(sb, "</th>");
	td_forecast(w, sb, v);
	sbuf_addstr(sb, "</tr></tbody></table>\n");

	rank = xcalloc(w->sub.n ? w->sub.n : 1, sizeof(*rank));
	for (i = 0; i < w->sub.n; i++) {
		const long long *c = &w->sub.v[i].cnt[r * n];
		size_t k;

		for (k = 0; k < n && !c[k]; k++)
			;
		if (k == n)
			continue;
		rank[nr].index = i;
		rank[nr].key = c[last];
		rank[nr].name = w->sub.v[i].name;
		nr++;
	}
	qsort(rank, nr, sizeof(*rank), cmp_ranked);
	sbuf_addf(sb, "<h2>Subsystems</h2>\n<p>%zu subsystem%s with uses in a scanned release, most uses in ",
		  nr, nr == 1 ? "" : "s");
	html_escape(sb, w->rel.tags[last]);
	sbuf_addstr(sb, " first; added and removed since the previous release.</p>\n");
	if (nr) {
		sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"subsystems\">\n<thead><tr><th>Subsystem</th>");
		first = release_columns(w, sb);
		sbuf_addstr(sb, "<th class=\"num\">Delta</th><th class=\"num\">Added</th>"
			    "<th class=\"num\">Removed</th><th>Forecast</th></tr></thead>\n<tbody>\n");
		for (i = 0; i < nr; i++) {
			struct sub *s = &w->sub.v[rank[i].index];
			const long long *c = &s->cnt[r * n];
			size_t k;

			sbuf_addstr(sb, "<tr><td>");
			add_link(sb, s->page, s->name);
			sbuf_addstr(sb, "</td>");
			for (k = first; k < n; k++)
				td_num(sb, c[k]);
			td_delta(sb, prev ? c[last] - c[last - 1] : 0, prev);
			td_change(sb, s->added[r], true, prev);
			td_change(sb, s->removed[r], false, prev);
			td_forecast(w, sb, c);
			sbuf_addstr(sb, "</tr>\n");
		}
		sbuf_addstr(sb, "</tbody>\n</table></div>\n");
		release_columns_note(w, sb);
	} else {
		sbuf_addstr(sb, "<p class=\"nodata\">No uses in any scanned release.</p>\n");
	}
	free(rank);
	forecast_method(sb);
	return page_end(w, w->rule.pages[r]);
}

/* ---- subsystems ---- */

static int page_subsystems(struct web *w)
{
	struct sbuf *sb = &w->out.page;
	size_t n = w->rel.n, last = n - 1, i;
	struct ranked *rank = xcalloc(w->sub.n ? w->sub.n : 1, sizeof(*rank));
	bool prev = n > 1;

	page_begin(w, "Subsystems");
	sbuf_addf(sb, "<p>%zu MAINTAINERS section%s with uses in a scanned release (a file belongs to "
		  "the section of its own release&rsquo;s MAINTAINERS file), most uses in ",
		  w->sub.n, w->sub.n == 1 ? "" : "s");
	html_escape(sb, w->rel.tags[last]);
	sbuf_addstr(sb, " first.</p>\n");
	for (i = 0; i < w->sub.n; i++) {
		rank[i].index = i;
		rank[i].key = w->sub.v[i].tot[last];
		rank[i].name = w->sub.v[i].name;
	}
	qsort(rank, w->sub.n, sizeof(*rank), cmp_ranked);
	if (!w->sub.n) {
		sbuf_addstr(sb, "<p class=\"nodata\">No uses in any scanned release.</p>\n");
		goto out;
	}
	sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"subsystems\">\n<thead><tr><th>Subsystem</th>"
		    "<th class=\"num\">Uses</th><th>Releases</th><th class=\"num\">Delta</th><th class=\"num\">Added</th>"
		    "<th class=\"num\">Removed</th><th>Forecast</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < w->sub.n; i++) {
		struct sub *s = &w->sub.v[rank[i].index];

		sbuf_addstr(sb, "<tr><td>");
		add_link(sb, s->page, s->name);
		sbuf_addstr(sb, "</td>");
		td_num(sb, s->tot[last]);
		sbuf_addf(sb, "<td data-v=\"%lld\">", prev ? s->tot[last] - s->tot[last - 1] : 0);
		svg_sparkline(sb, s->tot, w->rel.tags, n);
		sbuf_addstr(sb, "</td>");
		td_delta(sb, prev ? s->tot[last] - s->tot[last - 1] : 0, prev);
		td_change(sb, s->added_tot, true, prev);
		td_change(sb, s->removed_tot, false, prev);
		td_forecast(w, sb, s->tot);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n");
out:
	forecast_method(sb);
	free(rank);
	return page_end(w, "subsystems.html");
}

static int cmp_file_sub(const void *a, const void *b, void *arg)
{
	const struct rel_file *files = arg;
	const struct rel_file *x = &files[*(const size_t *)a], *y = &files[*(const size_t *)b];
	int c = strcmp(x->subsystem, y->subsystem);

	return c ? c : strcmp(x->path, y->path);
}

static char *files_page_name(const char *base, size_t page)
{
	return xasprintf("%s-%zu.html", base, page + 1);
}

static int page_sub(struct web *w, struct sub *s, const size_t *by_sub, size_t *cursor)
{
	struct sbuf *sb = &w->out.page;
	size_t n = w->rel.n, last = n - 1, r, k, first, nfiles = 0;
	struct chart_series series = { "all rules", s->tot };
	bool prev = n > 1;
	char *title = xasprintf("Subsystem %s", s->name);

	page_begin(w, title);
	free(title);
	sbuf_addstr(sb, "<div class=\"cards\">");
	card(sb, "uses in the newest release", "%lld", s->tot[last]);
	if (prev) {
		card(sb, "since the previous release", "%+lld", s->tot[last] - s->tot[last - 1]);
		card(sb, "uses added", "%lld", s->added_tot);
		card(sb, "uses removed", "%lld", s->removed_tot);
	}
	sbuf_addstr(sb, "</div>\n<h2>Uses per release</h2>\n<div class=\"scroll\">");
	svg_line_chart(sb, "chart-sub", "Uses per release, all rules", w->rel.tags, n, &series, 1, false);
	sbuf_addstr(sb, "</div>\n<h2>Rules &times; releases</h2>\n<div class=\"scroll\"><table class=\"sortable\" id=\"rules\">\n<thead><tr><th>Rule</th>");
	first = release_columns(w, sb);
	sbuf_addstr(sb, "<th class=\"num\">Delta</th><th class=\"num\">Added</th>"
		    "<th class=\"num\">Removed</th><th>Forecast</th></tr></thead>\n<tbody>\n");
	for (r = 0; r < RULE__COUNT; r++) {
		const long long *c = &s->cnt[r * n];

		for (k = 0; k < n && !c[k]; k++)
			;
		if (k == n)
			continue;
		sbuf_addstr(sb, "<tr><td>");
		add_link(sb, w->rule.pages[r], rules[r].id);
		sbuf_addstr(sb, "</td>");
		for (k = first; k < n; k++)
			td_num(sb, c[k]);
		td_delta(sb, prev ? c[last] - c[last - 1] : 0, prev);
		td_change(sb, s->added[r], true, prev);
		td_change(sb, s->removed[r], false, prev);
		td_forecast(w, sb, c);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n");
	release_columns_note(w, sb);

	sbuf_addstr(sb, "<h2>Files with uses in ");
	html_escape(sb, w->rel.tags[last]);
	sbuf_addstr(sb, "</h2>\n");
	while (*cursor < w->files.n && strcmp(w->files.v[by_sub[*cursor]].subsystem, s->name) < 0)
		(*cursor)++;
	for (k = *cursor; k < w->files.n && !strcmp(w->files.v[by_sub[k]].subsystem, s->name); k++) {
		const struct rel_file *f = &w->files.v[by_sub[k]];
		char *page = files_page_name(w->files.base, f->page);

		if (!nfiles++)
			sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"files\">\n"
				    "<thead><tr><th>File</th><th class=\"num\">Uses</th><th>Rules</th></tr></thead>\n<tbody>\n");
		sbuf_addstr(sb, "<tr><td class=\"path\"><a href=\"");
		html_escape(sb, page);
		sbuf_addf(sb, "#f%zu\">", by_sub[k]);
		html_escape(sb, f->path);
		sbuf_addstr(sb, "</a></td>");
		td_num(sb, f->uses);
		td_text(sb, f->rules.buf);
		sbuf_addstr(sb, "</tr>\n");
		free(page);
	}
	*cursor = k;
	if (nfiles)
		sbuf_addstr(sb, "</tbody>\n</table></div>\n");
	else
		sbuf_addstr(sb, "<p class=\"nodata\">No files with uses in this release.</p>\n");
	forecast_method(sb);
	return page_end(w, s->page);
}

static int pages_subs(struct web *w)
{
	size_t *by_sub = xcalloc(w->files.n ? w->files.n : 1, sizeof(*by_sub));
	size_t i, cursor = 0;
	int ret = 0;

	for (i = 0; i < w->files.n; i++)
		by_sub[i] = i;
	qsort_r(by_sub, w->files.n, sizeof(*by_sub), cmp_file_sub, w->files.v);
	for (i = 0; !ret && i < w->sub.n; i++)
		ret = page_sub(w, &w->sub.v[i], by_sub, &cursor);
	free(by_sub);
	return ret;
}

/* ---- releases and their files ---- */

static void rel_files_free(struct web *w)
{
	size_t i;

	for (i = 0; i < w->files.n; i++) {
		free(w->files.v[i].path);
		free(w->files.v[i].subsystem);
		sbuf_release(&w->files.v[i].rules);
	}
	for (i = 0; i < w->files.npages; i++)
		free(w->files.pages[i].dir);
	free(w->files.v);
	free(w->files.pages);
	free(w->files.base);
	w->files.v = NULL;
	w->files.pages = NULL;
	w->files.base = NULL;
	w->files.n = w->files.alloc = w->files.npages = w->files.apages = 0;
}

static int load_file_count(void *data, const struct web_file_count *c)
{
	struct web *w = data;
	struct rel_file *f;

	if (!w->files.n || strcmp(w->files.v[w->files.n - 1].path, c->path)) {
		ALLOC_GROW(w->files.v, w->files.n + 1, w->files.alloc);
		f = &w->files.v[w->files.n++];
		memset(f, 0, sizeof(*f));
		f->path = xstrdup(c->path);
		f->subsystem = xstrdup(c->subsystem ? c->subsystem : "");
	}
	f = &w->files.v[w->files.n - 1];
	sbuf_addf(&f->rules, "%s%s %lld", f->rules.len ? ", " : "", c->rule, c->count);
	f->uses += c->count;
	return 0;
}

static size_t top_dir_len(const char *path)
{
	const char *slash = strchr(path, '/');

	return slash ? (size_t)(slash - path) : 0;
}

/* Split the files into pages: one top directory each, sites_per_page at most. */
static void plan_pages(struct web *w)
{
	struct rel_page *p = NULL;
	size_t i;

	for (i = 0; i < w->files.n; i++) {
		struct rel_file *f = &w->files.v[i];
		size_t dl = top_dir_len(f->path);

		if (!p || strlen(p->dir) != dl || strncmp(p->dir, f->path, dl) ||
		    (p->sites && p->sites + f->uses > (long long)w->out.per_page)) {
			ALLOC_GROW(w->files.pages, w->files.npages + 1, w->files.apages);
			p = &w->files.pages[w->files.npages++];
			memset(p, 0, sizeof(*p));
			p->dir = xstrndup(f->path, dl);
			p->first = i;
		}
		f->page = w->files.npages - 1;
		p->n++;
		p->sites += f->uses;
	}
}

struct sites_state {
	struct web *w;
	size_t rel;
	size_t cur;		/* file cursor */
	size_t open_page;	/* SIZE_MAX: none */
	size_t open_file;
};

static void dir_label(struct sbuf *sb, const char *dir)
{
	if (*dir) {
		html_escape(sb, dir);
		sbuf_addch(sb, '/');
	} else {
		sbuf_addstr(sb, "(top level)");
	}
}

static void files_page_begin(struct web *w, size_t rel, size_t k)
{
	struct sbuf *sb = &w->out.page;
	struct rel_page *p = &w->files.pages[k];
	size_t i, part = 1, parts = 0;
	struct sbuf title = SBUF_INIT;

	for (i = 0; i < w->files.npages; i++) {
		if (strcmp(w->files.pages[i].dir, p->dir))
			continue;
		parts++;
		if (i < k)
			part++;
	}
	sbuf_addf(&title, "%s: %s%s", w->rel.tags[rel], *p->dir ? p->dir : "(top level)",
		  *p->dir ? "/" : "");
	if (parts > 1)
		sbuf_addf(&title, " (part %zu of %zu)", part, parts);
	page_begin(w, title.buf);
	sbuf_release(&title);
	sbuf_addstr(sb, "<p><a href=\"");
	html_escape(sb, w->rel.pages[rel]);
	sbuf_addstr(sb, "\">Release ");
	html_escape(sb, w->rel.tags[rel]);
	sbuf_addstr(sb, "</a>");
	if (k > 0) {
		char *prev = files_page_name(w->files.base, k - 1);

		sbuf_addf(sb, " &middot; <a href=\"%s\" rel=\"prev\">previous page</a>", prev);
		free(prev);
	}
	if (k + 1 < w->files.npages) {
		char *next = files_page_name(w->files.base, k + 1);

		sbuf_addf(sb, " &middot; <a href=\"%s\" rel=\"next\">next page</a>", next);
		free(next);
	}
	sbuf_addf(sb, "</p>\n<p>%zu file%s with %lld use%s: ", p->n, p->n == 1 ? "" : "s",
		  p->sites, p->sites == 1 ? "" : "s");
	html_escape(sb, w->files.v[p->first].path);
	if (p->n > 1) {
		sbuf_addstr(sb, " to ");
		html_escape(sb, w->files.v[p->first + p->n - 1].path);
	}
	sbuf_addstr(sb, ".</p>\n");
	sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"files\">\n<thead><tr><th>File</th>"
		    "<th>Subsystem</th><th class=\"num\">Uses</th><th>Rules</th></tr></thead>\n<tbody>\n");
	for (i = p->first; i < p->first + p->n; i++) {
		const struct rel_file *f = &w->files.v[i];

		sbuf_addf(sb, "<tr><td class=\"path\"><a href=\"#f%zu\">", i);
		html_escape(sb, f->path);
		sbuf_addstr(sb, "</a></td><td>");
		add_sub_link(w, sb, f->subsystem);
		sbuf_addstr(sb, "</td>");
		td_num(sb, f->uses);
		td_text(sb, f->rules.buf);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n<h2>Use sites</h2>\n");
}

static int files_page_end(struct web *w, size_t k)
{
	char *name = files_page_name(w->files.base, k);
	int ret = page_end(w, name);

	w->files.pages[k].written = true;
	free(name);
	return ret;
}

static void file_section_begin(struct web *w, size_t rel, size_t i)
{
	struct sbuf *sb = &w->out.page;
	const struct rel_file *f = &w->files.v[i];
	char *url = source_link(w->out.opts->source_url, w->rel.tags[rel], f->path, 1);

	sbuf_addf(sb, "<section id=\"f%zu\"><h3>", i);
	if (url)
		add_link(sb, url, f->path);
	else
		html_escape(sb, f->path);
	sbuf_addstr(sb, "</h3>\n<table class=\"sites\">\n<thead><tr><th>Site</th><th>Rule</th>"
		    "<th>Function</th><th>Source line</th></tr></thead>\n<tbody>\n");
	free(url);
}

static const char file_section_end[] = "</tbody>\n</table></section>\n";

static int add_site(void *data, const struct web_site *s)
{
	struct sites_state *ss = data;
	struct web *w = ss->w;
	struct sbuf *sb = &w->out.page;
	struct rel_file *f;
	char *url;
	int ret;

	while (ss->cur < w->files.n && strcmp(w->files.v[ss->cur].path, s->path) < 0)
		ss->cur++;
	if (ss->cur == w->files.n || strcmp(w->files.v[ss->cur].path, s->path))
		return 0;
	f = &w->files.v[ss->cur];
	if (f->page != ss->open_page) {
		if (ss->open_page != SIZE_MAX) {
			sbuf_addstr(sb, file_section_end);
			ret = files_page_end(w, ss->open_page);
			if (ret)
				return ret;
		}
		files_page_begin(w, ss->rel, f->page);
		ss->open_page = f->page;
		ss->open_file = SIZE_MAX;
	}
	if (ss->open_file != ss->cur) {
		if (ss->open_file != SIZE_MAX)
			sbuf_addstr(sb, file_section_end);
		file_section_begin(w, ss->rel, ss->cur);
		ss->open_file = ss->cur;
	}
	url = source_link(w->out.opts->source_url, w->rel.tags[ss->rel], s->path, s->line);
	sbuf_addf(sb, "<tr><td class=\"path\" data-v=\"%lld\">", s->line);
	sbuf_addstr(sb, url ? "<a href=\"" : "");
	if (url) {
		html_escape(sb, url);
		sbuf_addstr(sb, "\">");
	}
	html_escape(sb, s->path);
	sbuf_addf(sb, ":%lld%s</td><td>", s->line, url ? "</a>" : "");
	html_escape(sb, s->rule);
	sbuf_addstr(sb, "</td><td><code>");
	html_escape(sb, s->func ? s->func : "");
	sbuf_addstr(sb, "</code></td><td class=\"src\">");
	html_escape(sb, s->text);
	sbuf_addstr(sb, "</td></tr>\n");
	free(url);
	return 0;
}

static int pages_files(struct web *w, size_t rel)
{
	struct sites_state ss = { w, rel, 0, SIZE_MAX, SIZE_MAX };
	size_t k;
	int ret;

	ret = store_web_sites(w->st, w->rel.v[rel].id, add_site, &ss);
	if (ret)
		return ret;
	if (ss.open_page != SIZE_MAX) {
		sbuf_addstr(&w->out.page, file_section_end);
		ret = files_page_end(w, ss.open_page);
		if (ret)
			return ret;
	}
	/* a page whose files lost their sites would leave dangling links */
	for (k = 0; !ret && k < w->files.npages; k++) {
		if (w->files.pages[k].written)
			continue;
		files_page_begin(w, rel, k);
		ret = files_page_end(w, k);
	}
	return ret;
}

static int page_release(struct web *w, size_t i)
{
	struct sbuf *sb = &w->out.page;
	const struct release_info *rel = &w->rel.v[i];
	size_t n = w->rel.n, r, k, nsubs = 0;
	struct ranked *rank;
	bool prev = i > 0, drill = i + MAX_DRILL_RELEASES >= n;
	char date[32], *base, *title;
	int ret;

	/* "release-<slug>-<hash>[-N].html" -> "files-<slug>-<hash>[-N]": unique too */
	base = xasprintf("files-%s", w->rel.pages[i] + strlen("release-"));
	base[strlen(base) - strlen(".html")] = '\0';
	w->files.base = base;
	ret = store_web_file_counts(w->st, rel->id, load_file_count, w);
	if (ret)
		return ret;
	plan_pages(w);
	if (drill) {
		ret = pages_files(w, i);
		if (ret)
			return ret;
	}

	title = xasprintf("Release %s", rel->tag);
	page_begin(w, title);
	free(title);
	format_date(date, sizeof(date), rel->date, "%Y-%m-%d");
	sbuf_addf(sb, "<p>Commit <code>%s</code>, %s; %lld files scanned",
		  rel->commit ? rel->commit : "", date, rel->files);
	if (prev) {
		sbuf_addstr(sb, "; deltas against <a href=\"");
		html_escape(sb, w->rel.pages[i - 1]);
		sbuf_addstr(sb, "\">");
		html_escape(sb, w->rel.tags[i - 1]);
		sbuf_addstr(sb, "</a>");
	}
	sbuf_addstr(sb, ".</p>\n<div class=\"cards\">");
	card(sb, "uses", "%lld", w->rel.tot[i]);
	if (prev) {
		card(sb, "since the previous release", "%+lld", w->rel.tot[i] - w->rel.tot[i - 1]);
		card(sb, "uses added", "%lld", w->rel.added[i]);
		card(sb, "uses removed", "%lld", w->rel.removed[i]);
	}
	card(sb, "files with uses", "%zu", w->files.n);
	sbuf_addstr(sb, "</div>\n<h2>Rules</h2>\n<div class=\"scroll\"><table class=\"sortable\" id=\"rules\">\n"
		    "<thead><tr><th>Rule</th><th class=\"num\">Uses</th><th class=\"num\">Delta</th>"
		    "<th class=\"num\">Added</th><th class=\"num\">Removed</th></tr></thead>\n<tbody>\n");
	for (r = 0; r < RULE__COUNT; r++) {
		const long long *v = &w->rule.tot[r * n];

		sbuf_addstr(sb, "<tr><td>");
		add_link(sb, w->rule.pages[r], rules[r].id);
		sbuf_addstr(sb, "</td>");
		td_num(sb, v[i]);
		td_delta(sb, prev ? v[i] - v[i - 1] : 0, prev);
		td_change(sb, w->rule.added[r * n + i], true, prev);
		td_change(sb, w->rule.removed[r * n + i], false, prev);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n<tfoot><tr><td>total</td>");
	td_num(sb, w->rel.tot[i]);
	td_delta(sb, prev ? w->rel.tot[i] - w->rel.tot[i - 1] : 0, prev);
	td_change(sb, w->rel.added[i], true, prev);
	td_change(sb, w->rel.removed[i], false, prev);
	sbuf_addstr(sb, "</tr></tfoot>\n</table></div>\n");
	warn_on_user_note(sb);

	sbuf_addstr(sb, "<h2>Files and use sites</h2>\n");
	if (!drill)
		sbuf_addf(sb, "<p class=\"note\">Use sites are listed for the newest %d releases only.</p>\n",
			  MAX_DRILL_RELEASES);
	if (!w->files.npages) {
		sbuf_addstr(sb, "<p class=\"nodata\">No file has a use in this release.</p>\n");
	} else {
		sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"dirs\">\n"
			    "<thead><tr><th>Directory</th><th class=\"num\">Files with uses</th>"
			    "<th class=\"num\">Uses</th><th>Pages</th></tr></thead>\n<tbody>\n");
		for (k = 0; k < w->files.npages; ) {
			size_t j, files = 0;
			long long uses = 0;

			for (j = k; j < w->files.npages && !strcmp(w->files.pages[j].dir, w->files.pages[k].dir); j++) {
				files += w->files.pages[j].n;
				uses += w->files.pages[j].sites;
			}
			sbuf_addstr(sb, "<tr><td class=\"path\">");
			if (drill)
				sbuf_addf(sb, "<a href=\"%s-%zu.html\">", w->files.base, k + 1);
			dir_label(sb, w->files.pages[k].dir);
			sbuf_addstr(sb, drill ? "</a></td>" : "</td>");
			td_num(sb, (long long)files);
			td_num(sb, uses);
			sbuf_addstr(sb, "<td>");
			for (; k < j; k++) {
				const struct rel_page *p = &w->files.pages[k];

				if (!drill)
					continue;
				sbuf_addf(sb, "<a href=\"%s-%zu.html\" title=\"", w->files.base, k + 1);
				html_escape(sb, w->files.v[p->first].path);
				sbuf_addstr(sb, " &hellip; ");
				html_escape(sb, w->files.v[p->first + p->n - 1].path);
				sbuf_addf(sb, "\">%zu</a> ", k + 1);
			}
			sbuf_addstr(sb, "</td></tr>\n");
		}
		sbuf_addstr(sb, "</tbody>\n</table></div>\n");
	}

	rank = xcalloc(w->sub.n ? w->sub.n : 1, sizeof(*rank));
	for (k = 0; k < w->sub.n; k++) {
		if (!w->sub.v[k].tot[i])
			continue;
		rank[nsubs].index = k;
		rank[nsubs].key = w->sub.v[k].tot[i];
		rank[nsubs].name = w->sub.v[k].name;
		nsubs++;
	}
	qsort(rank, nsubs, sizeof(*rank), cmp_ranked);
	sbuf_addf(sb, "<h2>Subsystems</h2>\n<p>%zu subsystem%s with uses.</p>\n", nsubs,
		  nsubs == 1 ? "" : "s");
	if (nsubs) {
		sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"subsystems\">\n"
			    "<thead><tr><th>Subsystem</th><th class=\"num\">Uses</th>"
			    "<th class=\"num\">Delta</th></tr></thead>\n<tbody>\n");
		for (k = 0; k < nsubs; k++) {
			struct sub *s = &w->sub.v[rank[k].index];

			sbuf_addstr(sb, "<tr><td>");
			add_link(sb, s->page, s->name);
			sbuf_addstr(sb, "</td>");
			td_num(sb, s->tot[i]);
			td_delta(sb, prev ? s->tot[i] - s->tot[i - 1] : 0, prev);
			sbuf_addstr(sb, "</tr>\n");
		}
		sbuf_addstr(sb, "</tbody>\n</table></div>\n");
	}
	free(rank);

	return page_end(w, w->rel.pages[i]);
}

static int pages_releases(struct web *w)
{
	size_t i;
	int ret = 0;

	if (!w->out.opts->sites_per_page)
		w->out.per_page = DEFAULT_SITES_PER_PAGE;
	else
		w->out.per_page = w->out.opts->sites_per_page;
	for (i = 0; !ret && i < w->rel.n; i++) {
		ret = page_release(w, i);
		/* keep the newest release's files for the subsystem pages */
		if (ret || i + 1 < w->rel.n)
			rel_files_free(w);
	}
	return ret;
}

/* ---- conversion branch, builds, boots, bisections ---- */

struct step_copy {
	char *branch, *base, *patch, *subject, *status, *commit, *evidence;
	char *test_status, *build_status, *boot_status;
	long long position, build_id, boot_id;
};

struct step_list {
	struct step_copy *v;
	size_t n, alloc;
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static int copy_step(void *data, const struct web_step *s)
{
	struct step_list *l = data;
	struct step_copy *c;

	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	c = &l->v[l->n++];
	c->branch = dup_or_null(s->branch);
	c->base = dup_or_null(s->base);
	c->patch = dup_or_null(s->patch);
	c->subject = dup_or_null(s->subject);
	c->status = dup_or_null(s->status);
	c->commit = dup_or_null(s->commit);
	c->evidence = dup_or_null(s->evidence);
	c->test_status = dup_or_null(s->test_status);
	c->build_status = dup_or_null(s->build_status);
	c->boot_status = dup_or_null(s->boot_status);
	c->position = s->position;
	c->build_id = s->build_id;
	c->boot_id = s->boot_id;
	return 0;
}

static void step_list_clear(struct step_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct step_copy *c = &l->v[i];

		free(c->branch);
		free(c->base);
		free(c->patch);
		free(c->subject);
		free(c->status);
		free(c->commit);
		free(c->evidence);
		free(c->test_status);
		free(c->build_status);
		free(c->boot_status);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* A status word as text with a class for its colour (st-<word>, safe chars only). */
static void add_status(struct sbuf *sb, const char *status)
{
	const char *p;

	if (!status || !*status) {
		sbuf_addstr(sb, "&mdash;");
		return;
	}
	sbuf_addstr(sb, "<span class=\"st-");
	for (p = status; *p; p++)
		sbuf_addch(sb, (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ? *p : '-');
	sbuf_addstr(sb, "\">");
	html_escape(sb, status);
	sbuf_addstr(sb, "</span>");
}

static void add_commit(struct sbuf *sb, const char *commit)
{
	char *short_id;

	if (!commit || !*commit) {
		sbuf_addstr(sb, "&mdash;");
		return;
	}
	short_id = xstrndup(commit, 12);
	sbuf_addstr(sb, "<code title=\"");
	html_escape(sb, commit);
	sbuf_addstr(sb, "\">");
	html_escape(sb, short_id);
	sbuf_addstr(sb, "</code>");
	free(short_id);
}

/* Evidence text: inline when short, folded in a <details> element when long. */
static void add_evidence(struct sbuf *sb, const char *evidence)
{
	if (!evidence || !*evidence)
		return;
	if (strlen(evidence) <= EVIDENCE_INLINE) {
		sbuf_addstr(sb, "<br><span class=\"muted\">");
		html_escape(sb, evidence);
		sbuf_addstr(sb, "</span>");
		return;
	}
	sbuf_addstr(sb, "<details class=\"muted\"><summary>evidence</summary>");
	html_escape(sb, evidence);
	sbuf_addstr(sb, "</details>");
}

static bool same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static void branch_matrix(struct web *w, const struct step_list *l)
{
	struct sbuf *sb = &w->out.page;
	size_t *cols = xcalloc(l->n, sizeof(*cols)), ncols = 0;
	size_t *rows = xcalloc(l->n, sizeof(*rows)), nrows = 0;
	size_t i, j, k;

	/* columns: the first step of each branch; rows: the first step of each patch */
	for (i = 0; i < l->n; i++) {
		if (!ncols || !same(l->v[cols[ncols - 1]].branch, l->v[i].branch))
			cols[ncols++] = i;
		for (j = 0; j < nrows && !same(l->v[rows[j]].patch, l->v[i].patch); j++)
			;
		if (j == nrows)
			rows[nrows++] = i;
	}
	sbuf_addstr(sb, "<div class=\"scroll\"><table id=\"matrix\">\n<thead><tr><th>Patch</th>");
	for (j = 0; j < ncols; j++) {
		sbuf_addstr(sb, "<th>");
		html_escape(sb, l->v[cols[j]].branch);
		sbuf_addstr(sb, "<br><span class=\"muted\">on ");
		html_escape(sb, l->v[cols[j]].base);
		sbuf_addstr(sb, "</span></th>");
	}
	sbuf_addstr(sb, "</tr></thead>\n<tbody>\n");
	for (i = 0; i < nrows; i++) {
		const struct step_copy *p = &l->v[rows[i]];

		sbuf_addstr(sb, "<tr><td><code>");
		html_escape(sb, p->patch);
		sbuf_addstr(sb, "</code><br>");
		html_escape(sb, p->subject);
		sbuf_addstr(sb, "</td>");
		for (j = 0; j < ncols; j++) {
			const struct step_copy *c = NULL;

			for (k = 0; k < l->n; k++)
				if (same(l->v[k].branch, l->v[cols[j]].branch) &&
				    same(l->v[k].patch, p->patch)) {
					c = &l->v[k];
					break;
				}
			if (!c) {
				sbuf_addstr(sb, "<td class=\"muted\">&mdash;</td>");
				continue;
			}
			sbuf_addstr(sb, "<td>");
			add_status(sb, c->status);
			if (c->test_status) {
				sbuf_addstr(sb, " &middot; ");
				add_status(sb, c->test_status);
			}
			add_evidence(sb, c->evidence);
			sbuf_addstr(sb, "</td>");
		}
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n");
	free(cols);
	free(rows);
}

static void branch_steps(struct web *w, const struct step_list *l)
{
	struct sbuf *sb = &w->out.page;
	size_t i, nb = 0;

	for (i = 0; i < l->n; i++) {
		const struct step_copy *c = &l->v[i];

		if (!i || !same(l->v[i - 1].branch, c->branch)) {
			if (i)
				sbuf_addstr(sb, "</tbody>\n</table></div>\n");
			sbuf_addstr(sb, "<h3>Branch ");
			html_escape(sb, c->branch);
			sbuf_addstr(sb, " on ");
			html_escape(sb, c->base);
			sbuf_addf(sb, "</h3>\n<div class=\"scroll\"><table class=\"sortable steps\" id=\"steps-%zu\">\n"
				  "<thead><tr><th class=\"num\">#</th><th>Patch</th><th>Status</th><th>Evidence</th>"
				  "<th>Commit</th><th>Test</th><th>Build</th><th>Boot</th></tr></thead>\n<tbody>\n",
				  ++nb);
		}
		sbuf_addf(sb, "<tr><td class=\"num\">%lld</td><td><code>", c->position);
		html_escape(sb, c->patch);
		sbuf_addstr(sb, "</code><br>");
		html_escape(sb, c->subject);
		sbuf_addstr(sb, "</td><td>");
		add_status(sb, c->status);
		sbuf_addstr(sb, "</td><td>");
		if (c->evidence && strlen(c->evidence) > EVIDENCE_INLINE) {
			char *head = xstrndup(c->evidence, EVIDENCE_INLINE);

			sbuf_addstr(sb, "<details><summary>");
			html_escape(sb, head);
			sbuf_addstr(sb, "&hellip;</summary>");
			html_escape(sb, c->evidence);
			sbuf_addstr(sb, "</details>");
			free(head);
		} else {
			html_escape(sb, c->evidence);
		}
		sbuf_addstr(sb, "</td><td>");
		add_commit(sb, c->commit);
		sbuf_addstr(sb, "</td><td>");
		add_status(sb, c->test_status);
		sbuf_addstr(sb, "</td><td>");
		if (c->build_id) {
			sbuf_addf(sb, "<a href=\"#build-%lld\">#%lld</a> ", c->build_id, c->build_id);
			add_status(sb, c->build_status);
		} else {
			sbuf_addstr(sb, "&mdash;");
		}
		sbuf_addstr(sb, "</td><td>");
		if (c->boot_id) {
			sbuf_addf(sb, "<a href=\"#boot-%lld\">#%lld</a> ", c->boot_id, c->boot_id);
			add_status(sb, c->boot_status);
		} else {
			sbuf_addstr(sb, "&mdash;");
		}
		sbuf_addstr(sb, "</td></tr>\n");
	}
	if (l->n)
		sbuf_addstr(sb, "</tbody>\n</table></div>\n");
}

struct rows_state {
	struct web *w;
	size_t n;
};

/* A link to the copied log, or why there is none. */
static int add_log_link(struct web *w, const char *src, const char *name)
{
	struct sbuf *sb = &w->out.page;
	int ret;

	if (!src || !*src) {
		sbuf_addstr(sb, "&mdash;");
		return 0;
	}
	ret = copy_log(w, src, name);
	if (ret < 0)
		return ret;
	if (ret) {
		sbuf_addf(sb, "<a href=\"logs/%s\">log</a>", name);
		return 0;
	}
	sbuf_addstr(sb, "<span class=\"muted\" title=\"");
	html_escape(sb, src);
	sbuf_addstr(sb, "\">not available</span>");
	return 0;
}

static const char builds_head[] =
	"<div class=\"scroll\"><table class=\"sortable\" id=\"builds\">\n<thead><tr>"
	"<th class=\"num\">Build</th><th>Commit</th><th>Config</th><th>Status</th>"
	"<th class=\"num\">Seconds</th><th>Log</th><th>Date</th></tr></thead>\n<tbody>\n";

static int add_build(void *data, const struct web_build *b)
{
	struct rows_state *rs = data;
	struct sbuf *sb = &rs->w->out.page;
	char date[32], *name;
	int ret;

	if (!rs->n++)
		sbuf_addstr(sb, builds_head);
	sbuf_addf(sb, "<tr id=\"build-%lld\"><td class=\"num\">%lld</td><td>", b->id, b->id);
	add_commit(sb, b->commit);
	sbuf_addstr(sb, "</td><td><code>");
	html_escape(sb, b->config_hash);
	sbuf_addstr(sb, "</code></td><td>");
	add_status(sb, b->status);
	sbuf_addf(sb, "</td><td class=\"num\">%.1f</td><td>", b->seconds);
	name = xasprintf("build-%lld.txt", b->id);
	ret = add_log_link(rs->w, b->log_path, name);
	free(name);
	format_date(date, sizeof(date), b->created_at, "%Y-%m-%d %H:%M");
	sbuf_addf(sb, "</td><td>%s</td></tr>\n", date);
	return ret;
}

static const char boots_head[] =
	"<div class=\"scroll\"><table class=\"sortable\" id=\"boots\">\n<thead><tr>"
	"<th class=\"num\">Boot</th><th class=\"num\">Build</th><th>Commit</th><th>Tests</th>"
	"<th>Status</th><th class=\"num\">Seconds</th><th>Findings</th><th>Console</th>"
	"<th>Date</th></tr></thead>\n<tbody>\n";

static int add_boot(void *data, const struct web_boot *b)
{
	struct rows_state *rs = data;
	struct sbuf *sb = &rs->w->out.page;
	char date[32], *name;
	int ret;

	if (!rs->n++)
		sbuf_addstr(sb, boots_head);
	sbuf_addf(sb, "<tr id=\"boot-%lld\"><td class=\"num\">%lld</td>"
		  "<td class=\"num\"><a href=\"#build-%lld\">%lld</a></td><td>",
		  b->id, b->id, b->build_id, b->build_id);
	add_commit(sb, b->commit);
	sbuf_addstr(sb, "</td>");
	td_text(sb, b->tests);
	sbuf_addstr(sb, "<td>");
	add_status(sb, b->status);
	sbuf_addf(sb, "</td><td class=\"num\">%.1f</td><td class=\"src\">", b->seconds);
	html_escape(sb, b->findings);
	sbuf_addstr(sb, "</td><td>");
	name = xasprintf("boot-%lld.txt", b->id);
	ret = add_log_link(rs->w, b->console_path, name);
	free(name);
	format_date(date, sizeof(date), b->created_at, "%Y-%m-%d %H:%M");
	sbuf_addf(sb, "</td><td>%s</td></tr>\n", date);
	return ret;
}

static int add_bisect(void *data, const struct web_bisect *b)
{
	struct rows_state *rs = data;
	struct sbuf *sb = &rs->w->out.page;
	char date[32];

	if (b->seq >= 0) {
		sbuf_addf(sb, "<tr><td class=\"num\">%lld</td><td>", b->seq);
		add_commit(sb, b->step_commit);
		sbuf_addstr(sb, "</td><td>");
		add_status(sb, b->verdict);
		sbuf_addstr(sb, "</td></tr>\n");
		return 0;
	}
	if (rs->n++)
		sbuf_addstr(sb, "</tbody>\n</table>\n");
	format_date(date, sizeof(date), b->created_at, "%Y-%m-%d %H:%M");
	sbuf_addf(sb, "<h3 id=\"bisect-%lld\">Bisection #%lld (%s)</h3>\n<p>Good ", b->id, b->id, date);
	add_commit(sb, b->good);
	sbuf_addstr(sb, ", bad ");
	add_commit(sb, b->bad);
	sbuf_addstr(sb, ", tests ");
	html_escape(sb, b->tests);
	sbuf_addstr(sb, ": ");
	add_status(sb, b->status);
	if (b->first_bad) {
		sbuf_addstr(sb, "; first bad commit ");
		add_commit(sb, b->first_bad);
	}
	if (b->finding) {
		sbuf_addstr(sb, "; finding <code>");
		html_escape(sb, b->finding);
		sbuf_addstr(sb, "</code>");
	}
	sbuf_addf(sb, ".</p>\n<table class=\"bisect\" id=\"bisect-steps-%lld\">\n"
		  "<thead><tr><th class=\"num\">Step</th><th>Commit</th><th>Verdict</th></tr></thead>\n<tbody>\n",
		  b->id);
	return 0;
}

static void no_data(struct sbuf *sb, const char *what)
{
	sbuf_addstr(sb, "<p class=\"nodata\">No data yet: ");
	html_escape(sb, what);
	sbuf_addstr(sb, ".</p>\n");
}

static int page_branch(struct web *w)
{
	struct sbuf *sb = &w->out.page;
	struct step_list steps = { 0 };
	struct rows_state rs = { w, 0 };
	int ret;

	page_begin(w, "Conversion branch, builds and boots");
	ret = store_web_steps(w->st, copy_step, &steps);
	if (ret)
		goto out_clear_steps;
	sbuf_addstr(sb, "<h2>Patches &times; bases</h2>\n");
	if (steps.n) {
		branch_matrix(w, &steps);
		sbuf_addstr(sb, "<h2>Steps</h2>\n");
		branch_steps(w, &steps);
	} else {
		no_data(sb, "no conversion branch has been applied (kmig branch)");
	}
	sbuf_addstr(sb, "<h2>Builds</h2>\n");
	ret = store_web_builds(w->st, add_build, &rs);
	if (ret)
		goto out_clear_steps;
	if (rs.n)
		sbuf_addstr(sb, "</tbody>\n</table></div>\n");
	else
		no_data(sb, "no kernel has been built (kmig boot)");
	sbuf_addstr(sb, "<h2>Boots</h2>\n");
	rs.n = 0;
	ret = store_web_boots(w->st, add_boot, &rs);
	if (ret)
		goto out_clear_steps;
	if (rs.n)
		sbuf_addstr(sb, "</tbody>\n</table></div>\n");
	else
		no_data(sb, "no kernel has been booted (kmig boot)");
	sbuf_addstr(sb, "<h2>Bisections</h2>\n");
	rs.n = 0;
	ret = store_web_bisects(w->st, add_bisect, &rs);
	if (ret)
		goto out_clear_steps;
	if (rs.n)
		sbuf_addstr(sb, "</tbody>\n</table>\n");
	else
		no_data(sb, "no bisection has run (kmig bisect)");
	ret = page_end(w, "branch.html");
out_clear_steps:
	step_list_clear(&steps);
	return ret;
}

/* ---- kmig log ---- */

struct log_state {
	struct web *w;
	struct sbuf rows;
	struct sbuf changes;
	char *commit;
	long long added, removed;
	size_t ncommits;
	long long rule_added[RULE__COUNT], rule_removed[RULE__COUNT];
	size_t rule_commits[RULE__COUNT], rule_seen[RULE__COUNT];
};

static void log_flush(struct log_state *ls)
{
	struct sbuf *sb = &ls->rows;

	if (!ls->commit || ls->ncommits > MAX_LOG_COMMITS)
		goto out;
	sbuf_addf(sb, "<td class=\"num up\" data-v=\"%lld\">+%lld</td>"
		  "<td class=\"num down\" data-v=\"%lld\">-%lld</td><td>%s</td></tr>\n",
		  ls->added, ls->added, ls->removed, ls->removed, ls->changes.buf);
out:
	free(ls->commit);
	ls->commit = NULL;
	sbuf_reset(&ls->changes);
}

static int add_commit_change(void *data, const struct web_commit_change *c)
{
	struct log_state *ls = data;
	struct sbuf *sb = &ls->rows;
	int r = rule_lookup(c->rule);

	if (!ls->commit || strcmp(ls->commit, c->commit)) {
		char date[32];

		log_flush(ls);
		ls->commit = xstrdup(c->commit);
		ls->added = ls->removed = 0;
		if (++ls->ncommits <= MAX_LOG_COMMITS) {
			format_date(date, sizeof(date), c->date, "%Y-%m-%d");
			sbuf_addstr(sb, "<tr><td>");
			add_commit(sb, c->commit);
			sbuf_addf(sb, "</td><td>%s</td>", date);
			td_text(sb, c->author);
			td_text(sb, c->subject);
		}
	}
	ls->added += c->added;
	ls->removed += c->removed;
	if (r >= 0) {
		ls->rule_added[r] += c->added;
		ls->rule_removed[r] += c->removed;
		if (ls->rule_seen[r] != ls->ncommits) {
			ls->rule_seen[r] = ls->ncommits;
			ls->rule_commits[r]++;
		}
	}
	if (ls->changes.len)
		sbuf_addstr(&ls->changes, "<br>");
	if (r >= 0)
		add_link(&ls->changes, ls->w->rule.pages[r], c->rule);
	else
		html_escape(&ls->changes, c->rule);
	sbuf_addstr(&ls->changes, " (");
	add_sub_link(ls->w, &ls->changes, c->subsystem);
	sbuf_addf(&ls->changes, ") +%lld -%lld", c->added, c->removed);
	return 0;
}

static int page_log(struct web *w)
{
	struct sbuf *sb = &w->out.page;
	struct log_state ls = { .w = w };
	size_t r;
	int ret;

	page_begin(w, "Per-commit attribution (kmig log)");
	ret = store_web_commit_changes(w->st, add_commit_change, &ls);
	if (ret)
		goto out_release;
	log_flush(&ls);
	if (!ls.ncommits) {
		no_data(sb, "no commit has been attributed (kmig log)");
		ret = page_end(w, "log.html");
		goto out_release;
	}
	sbuf_addf(sb, "<p>%zu commit%s added or removed uses.</p>\n<h2>Per rule</h2>\n"
		  "<div class=\"scroll\"><table class=\"sortable\" id=\"log-rules\">\n<thead><tr><th>Rule</th>"
		  "<th class=\"num\">Commits</th><th class=\"num\">Added</th><th class=\"num\">Removed</th>"
		  "</tr></thead>\n<tbody>\n", ls.ncommits, ls.ncommits == 1 ? "" : "s");
	for (r = 0; r < RULE__COUNT; r++) {
		if (!ls.rule_commits[r])
			continue;
		sbuf_addstr(sb, "<tr><td>");
		add_link(sb, w->rule.pages[r], rules[r].id);
		sbuf_addstr(sb, "</td>");
		td_num(sb, (long long)ls.rule_commits[r]);
		td_change(sb, ls.rule_added[r], true, true);
		td_change(sb, ls.rule_removed[r], false, true);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n<h2>Commits</h2>\n");
	if (ls.ncommits > MAX_LOG_COMMITS)
		sbuf_addf(sb, "<p class=\"note\">The newest %d of %zu commits.</p>\n",
			  MAX_LOG_COMMITS, ls.ncommits);
	sbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\" id=\"commits\">\n<thead><tr>"
		    "<th>Commit</th><th>Date</th><th>Author</th><th>Subject</th><th class=\"num\">Added</th>"
		    "<th class=\"num\">Removed</th><th>Changes</th></tr></thead>\n<tbody>\n");
	sbuf_add(sb, ls.rows.buf, ls.rows.len);
	sbuf_addstr(sb, "</tbody>\n</table></div>\n");
	ret = page_end(w, "log.html");
out_release:
	free(ls.commit);
	sbuf_release(&ls.rows);
	sbuf_release(&ls.changes);
	return ret;
}

/* ---- the whole site ---- */

static void web_free(struct web *w)
{
	size_t i;

	rel_files_free(w);
	for (i = 0; i < w->sub.n; i++) {
		free(w->sub.v[i].name);
		free(w->sub.v[i].page);
		free(w->sub.v[i].cnt);
		free(w->sub.v[i].tot);
	}
	free(w->sub.v);
	for (i = 0; w->rel.pages && i < w->rel.n; i++)
		free(w->rel.pages[i]);
	free(w->rel.pages);
	for (i = 0; i < RULE__COUNT; i++)
		free(w->rule.pages[i]);
	free(w->rule.tot);
	free(w->rule.added);
	free(w->rule.removed);
	free(w->rel.tot);
	free(w->rel.added);
	free(w->rel.removed);
	free(w->rel.ids);
	free(w->rel.tags);
	release_infos_free(w->rel.v, w->rel.n);
	free(w->out.stamp);
	sbuf_release(&w->out.page);
}

static int write_assets(struct web *w)
{
	static const char marker[] =
		"A site written by kmig web: kmig replaces this directory whenever it regenerates the site.\n";
	int ret;

	ret = write_file(w->out.dir, "style.css", kmig_web_css, strlen(kmig_web_css));
	if (!ret)
		ret = write_file(w->out.dir, "sort.js", kmig_web_js, strlen(kmig_web_js));
	if (!ret)
		ret = write_file(w->out.dir, WEB_MARKER, marker, strlen(marker));
	return ret;
}

int web_generate(struct store *st, const char *dir, const struct web_opts *o)
{
	struct web w = { .st = st, .out = { .dir = dir, .opts = o } };
	char stamp[64];
	size_t r;
	int ret;

	format_date(stamp, sizeof(stamp), (long long)time(NULL), "%Y-%m-%d %H:%M UTC");
	w.out.stamp = xstrdup(stamp);
	ret = load(&w);
	if (!ret)
		ret = write_assets(&w);
	if (!ret)
		ret = pages_releases(&w);
	if (!ret)
		ret = page_index(&w);
	for (r = 0; !ret && r < RULE__COUNT; r++)
		ret = page_rule(&w, r);
	if (!ret)
		ret = page_subsystems(&w);
	if (!ret)
		ret = pages_subs(&w);
	if (!ret)
		ret = page_branch(&w);
	if (!ret)
		ret = page_log(&w);
	web_free(&w);
	return ret;
}

static bool dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool empty = true;

	if (!d)
		return false;
	while (empty && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

int web_replace(const char *tmp, const char *dir)
{
	struct stat sb;
	char *marker, *old = NULL;
	int ret = 0;

	if (lstat(dir, &sb) < 0) {
		if (errno != ENOENT)
			return kmig_err("cannot access '%s': %s", dir, strerror(errno));
		if (rename(tmp, dir) < 0)
			return kmig_err("cannot rename '%s' to '%s': %s", tmp, dir,
					strerror(errno));
		return 0;
	}
	if (!S_ISDIR(sb.st_mode))
		return kmig_err("'%s' exists and is not a directory", dir);
	marker = xasprintf("%s/%s", dir, WEB_MARKER);
	if (access(marker, F_OK) < 0 && !dir_is_empty(dir)) {
		ret = kmig_err("'%s' is not a site written by kmig web (no %s in it); refusing to replace it",
			       dir, WEB_MARKER);
		goto out_free_marker;
	}
	/* swap atomically where the file system can; tmp then holds the old site */
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE) == 0) {
		ret = rm_rf(tmp);
		goto out_free_marker;
	}
	old = xasprintf("%s.old-%ld", dir, (long)getpid());
	if (rename(dir, old) < 0) {
		ret = kmig_err("cannot rename '%s' to '%s': %s", dir, old, strerror(errno));
		goto out_free_old;
	}
	if (rename(tmp, dir) < 0) {
		ret = kmig_err("cannot rename '%s' to '%s': %s", tmp, dir, strerror(errno));
		rename(old, dir);	/* put the old site back */
		goto out_free_old;
	}
	ret = rm_rf(old);
out_free_old:
	free(old);
out_free_marker:
	free(marker);
	return ret;
}
