// SPDX-License-Identifier: GPL-2.0
/*
 * series.c - quilt series files and git format-patch mbox messages.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "repo.h"
#include "series.h"

/* ---- dates ---- */

static const char *const wdays[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
				      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

void rfc2822_date(char *buf, size_t size, long long time, int offset)
{
	time_t t = (time_t)(time + (long long)offset * 60);
	struct tm tm;
	int off = offset < 0 ? -offset : offset;

	gmtime_r(&t, &tm);
	snprintf(buf, size, "%s, %d %s %d %02d:%02d:%02d %c%02d%02d",
		 wdays[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
		 tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 offset < 0 ? '-' : '+', off / 60, off % 60);
}

int rfc2822_parse(const char *s, long long *time, int *offset)
{
	char mon[4] = "", zone[8] = "";
	struct tm tm = { 0 };
	int day, year, h, m, sec = 0, i, z;
	const char *comma = strchr(s, ',');

	if (comma)
		s = comma + 1;
	/* the seconds are optional (RFC 2822) */
	if (sscanf(s, " %d %3s %d %d:%d:%d %7s", &day, mon, &year, &h, &m,
		   &sec, zone) != 7 &&
	    (sec = 0, sscanf(s, " %d %3s %d %d:%d %7s", &day, mon, &year, &h,
			     &m, zone) != 6))
		return KMIG_EGENERIC;
	for (i = 0; i < 12; i++)
		if (!strcasecmp(mon, months[i]))
			break;
	if (i == 12 || (zone[0] != '+' && zone[0] != '-') ||
	    strlen(zone) != 5)
		return KMIG_EGENERIC;
	z = atoi(zone + 1);
	*offset = (z / 100) * 60 + z % 100;
	if (zone[0] == '-')
		*offset = -*offset;
	tm.tm_year = year - 1900;
	tm.tm_mon = i;
	tm.tm_mday = day;
	tm.tm_hour = h;
	tm.tm_min = m;
	tm.tm_sec = sec;
	*time = (long long)timegm(&tm) - (long long)*offset * 60;
	return 0;
}

/* ---- mbox ---- */

void mbox_patch_clear(struct mbox_patch *p)
{
	free(p->commit);
	free(p->author_name);
	free(p->author_email);
	free(p->subject);
	free(p->body);
	free(p->diff);
	patch_files_free(p->files, p->nfiles);
	memset(p, 0, sizeof(*p));
}

static void parse_author(struct mbox_patch *p, const char *v)
{
	/* the innermost <...> is the address ("A <b <c@d>>": c@d) */
	const char *lt = strrchr(v, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	char *name;
	size_t n;

	free(p->author_name);	/* a repeated From: header: the last wins */
	free(p->author_email);
	if (!lt || !gt) {
		const char *lp = strchr(v, '('), *rp = lp ? strrchr(lp, ')') : NULL;

		if (lp && rp) {	/* "addr (Name)" or "(Name) addr", RFC 822's comment */
			char *before = patch_trim_dup(v, (size_t)(lp - v));

			if (*before) {
				p->author_email = before;
			} else {
				free(before);
				p->author_email = patch_trim_dup(rp + 1, strlen(rp + 1));
			}
			p->author_name = patch_trim_dup(lp + 1, (size_t)(rp - lp - 1));
		} else {
			p->author_email = patch_trim_dup(v, strlen(v));
			p->author_name = xstrdup(p->author_email);
		}
		if (!strchr(p->author_email, '@'))
			p->author_email[0] = '\0';
		goto out_name;
	}
	name = patch_trim_dup(v, strcspn(v, "<"));
	n = strlen(name);
	if (n >= 2 && name[0] == '"' && name[n - 1] == '"') {
		memmove(name, name + 1, n - 2);
		name[n - 2] = '\0';
	}
	p->author_name = name;
	p->author_email = xstrndup(lt + 1, (size_t)(gt - lt - 1));
out_name:
	/* an address alone ("<a@b>") is the name too, as git am takes it */
	if (!*p->author_name && *p->author_email) {
		free(p->author_name);
		p->author_name = xstrdup(p->author_email);
	}
}

/*
 * unsafe_path - @p itself when it is absolute or has a "..", "." or
 * ".git" component (git apply refuses such paths too), else NULL.
 */
static const char *unsafe_path(const char *p)
{
	const char *c = p;

	if (!p)
		return NULL;
	if (*p == '/')
		return p;
	while (*c) {
		size_t n = strcspn(c, "/");

		if ((n == 1 && c[0] == '.') || (n == 2 && !strncmp(c, "..", 2)) ||
		    (n == 4 && !strncasecmp(c, ".git", 4)))
			return p;
		c += n;
		if (*c)
			c++;
	}
	return NULL;
}

int mbox_parse(struct mbox_patch *out, const char *buf, size_t len,
	       const char *name)
{
	char *own = patch_without_crs(buf, &len);
	const char *p = own ? own : buf, *e = p + len, *body, *diff = NULL;
	struct patch_span *msgs = NULL;
	struct sbuf hdr = SBUF_INIT;
	size_t n, end;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	n = patch_mbox_split(&msgs, p, len);
	free(msgs);
	if (n > 1) {
		ret = kmig_err("patch '%s' holds %zu messages: list each in the series as a file of its own",
			       name, n);
		goto out;
	}
	n = patch_line_chomp(p, e);
	if (patch_starts(p, e, "From ")) {
		const char *sp = memchr(p + 5, ' ', n - 5);

		out->commit = xstrndup(p + 5, sp ? (size_t)(sp - p - 5) : n - 5);
		p += patch_line_len(p, e);
	}
	while (patch_header_next(&p, e, &hdr)) {
		char *v;

		if ((v = patch_header_value(&hdr, "From"))) {
			parse_author(out, v);
		} else if ((v = patch_header_value(&hdr, "Date"))) {
			if (rfc2822_parse(v, &out->time, &out->offset)) {
				ret = kmig_err("patch '%s': cannot parse date '%s'",
					       name, hdr.buf + 5);
				free(v);
				goto out;
			}
		} else if ((v = patch_header_value(&hdr, "Subject"))) {
			free(out->subject);
			out->subject = patch_subject(v);
		}
		free(v);
	}
	if (!out->author_name || !out->subject || !out->time) {
		ret = kmig_err("patch '%s': not a git format-patch message (From:, Date: and Subject: needed)",
			       name);
		goto out;
	}
	/*
	 * An in-body "From:" (git format-patch --from, a patch sent by
	 * another than its author) names the author, as git am takes it.
	 */
	while (p < e && patch_line_chomp(p, e) == 0)
		p += patch_line_len(p, e);
	if (patch_starts(p, e, "From: ") &&
	    memchr(p, '@', patch_line_chomp(p, e))) {	/* an address, not prose */
		char *v = xstrndup(p + 6, patch_line_chomp(p, e) - 6);
		char *d = patch_header_decode(v);	/* RFC 2047, as git am */

		parse_author(out, d ? d : v);
		free(d);
		free(v);
		p += patch_line_len(p, e);
	}
	/* body: up to "---" or the first "diff --git" */
	body = p;
	while (p < e) {
		n = patch_line_chomp(p, e);
		if (patch_starts(p, e, "diff --git ")) {
			diff = p;
			break;
		}
		if (patch_starts(p, e, "---") &&
		    (n == 3 || isspace((unsigned char)p[3])))
			break;
		p += patch_line_len(p, e);
	}
	out->body = patch_trim_dup(body, (size_t)(p - body));
	if (!diff) {
		for (; p < e; p += patch_line_len(p, e))
			if (patch_starts(p, e, "diff --git ")) {
				diff = p;
				break;
			}
	}
	if (!diff) {
		ret = kmig_err("patch '%s': no diff found", name);
		goto out;
	}
	if (memchr(diff, '\0', (size_t)(e - diff))) {
		ret = kmig_err("patch '%s': NUL byte in the diff", name);
		goto out;
	}
	out->diff = xstrndup(diff, (size_t)(e - diff));
	ret = diff_parse(&out->files, &out->nfiles, &out->afiles, out->diff,
			 (size_t)(e - diff), &end);
	if (ret) {
		ret = kmig_err("patch '%s': %s", name, kmig_errmsg());
		goto out;
	}
	out->diff_len = end;
	for (n = 0; n < out->nfiles; n++) {
		const char *bad = unsafe_path(out->files[n].old_path);

		if (!bad)
			bad = unsafe_path(out->files[n].new_path);
		if (bad) {
			ret = kmig_err("patch '%s': unsafe path '%s'", name, bad);
			goto out;
		}
	}
	/* hunk pointers point into out->diff, which is not moved: cut only */
	out->diff[end] = '\0';
out:
	sbuf_release(&hdr);
	free(own);
	return ret;
}

int mbox_read(struct mbox_patch *out, const char *path)
{
	struct sbuf sb = SBUF_INIT;
	const char *base = strrchr(path, '/');
	int ret;

	memset(out, 0, sizeof(*out));
	ret = sbuf_read_file(&sb, path);
	if (!ret)
		ret = mbox_parse(out, sb.buf ? sb.buf : "", sb.len,
				 base ? base + 1 : path);
	sbuf_release(&sb);
	return ret;
}

char *mbox_message(const struct mbox_patch *p)
{
	if (!p->body || !*p->body)
		return xasprintf("%s\n", p->subject);
	return xasprintf("%s\n\n%s\n", p->subject, p->body);
}

/* ---- writing ---- */

void mbox_format(struct sbuf *out, const char *commit, const char *name,
		 const char *email, long long time, int offset,
		 const char *message, const char *diffstat, const char *diff)
{
	const char *p = message, *e = message + strlen(message), *body;
	struct sbuf subject = SBUF_INIT;
	char date[64];
	size_t n;

	/* the subject: the first paragraph, joined */
	while (p < e && (n = patch_line_chomp(p, e)) > 0) {
		char *t = patch_trim_dup(p, n);

		if (subject.len && *t)
			sbuf_addch(&subject, ' ');
		sbuf_addstr(&subject, t);
		free(t);
		p += patch_line_len(p, e);
	}
	while (p < e && patch_line_chomp(p, e) == 0)
		p += patch_line_len(p, e);
	body = p;
	n = (size_t)(e - body);
	while (n && (body[n - 1] == '\n' || body[n - 1] == ' '))
		n--;

	rfc2822_date(date, sizeof(date), time, offset);
	sbuf_addf(out, "From %s Mon Sep 17 00:00:00 2001\n",
		  commit ? commit : "0000000000000000000000000000000000000000");
	sbuf_addf(out, "From: %s <%s>\n", name, email);
	sbuf_addf(out, "Date: %s\n", date);
	sbuf_addf(out, "Subject: [PATCH] %s\n\n", subject.buf ? subject.buf : "");
	if (n) {
		sbuf_add(out, body, n);
		sbuf_addch(out, '\n');
	}
	sbuf_addstr(out, "---\n");
	if (diffstat && *diffstat) {
		sbuf_addstr(out, diffstat);
		if (diffstat[strlen(diffstat) - 1] != '\n')
			sbuf_addch(out, '\n');
	}
	sbuf_addch(out, '\n');
	sbuf_addstr(out, diff);
	if (*diff && diff[strlen(diff) - 1] != '\n')
		sbuf_addch(out, '\n');
	sbuf_addstr(out, "-- \nkmig " "0.1.0" "\n\n");
	sbuf_release(&subject);
}

/* ---- diffstat ---- */

static int decimal_width(size_t n)
{
	int w = 1;

	while (n >= 10) {
		n /= 10;
		w++;
	}
	return w;
}

/* git's scale_linear(): @it of @max in @width columns, at least one. */
static int scale_linear(size_t it, int width, size_t max)
{
	return it ? 1 + (int)(it * (size_t)(width - 1) / max) : 0;
}

/*
 * quote_path - @path as git's quote_c_style() with core.quotePath (the
 * default) writes it: as it is, or in double quotes with \" \\ \t \n ...
 * and octal escapes for other control bytes and bytes >= 0x80.  Returns
 * whether it quoted.
 */
static bool quote_path(struct sbuf *out, const char *path)
{
	return sbuf_add_cquoted(out, path, CQUOTE_HIGH);
}

static bool needs_quote(const char *path)
{
	struct sbuf sb = SBUF_INIT;
	bool yes = quote_path(&sb, path);

	sbuf_release(&sb);
	return yes;
}

/*
 * rename_name - "old => new" as git's pprint_rename() writes it: the
 * common leading directories and trailing path components outside
 * braces, "drivers/{old => new}/x.c".
 */
static void rename_name(struct sbuf *out, const char *a, const char *b)
{
	size_t len_a = strlen(a), len_b = strlen(b), pfx = 0, sfx = 0;
	const char *oa = a, *ob = b;
	ptrdiff_t a_mid, b_mid;

	if (needs_quote(a) || needs_quote(b)) {
		quote_path(out, a);
		sbuf_addstr(out, " => ");
		quote_path(out, b);
		return;
	}
	while (*oa && *ob && *oa == *ob) {
		if (*oa == '/')
			pfx = (size_t)(oa - a) + 1;
		oa++;
		ob++;
	}
	/* from the NULs back; into the prefix's slash when there is one */
	oa = a + len_a;
	ob = b + len_b;
	while (oa >= a + pfx - (pfx ? 1 : 0) && ob >= b + pfx - (pfx ? 1 : 0) &&
	       *oa == *ob) {
		if (*oa == '/')
			sfx = len_a - (size_t)(oa - a);
		if (oa == a || ob == b)
			break;
		oa--;
		ob--;
	}
	a_mid = (ptrdiff_t)len_a - (ptrdiff_t)(pfx + sfx);
	b_mid = (ptrdiff_t)len_b - (ptrdiff_t)(pfx + sfx);
	if (pfx + sfx) {
		sbuf_add(out, a, pfx);
		sbuf_addch(out, '{');
	}
	sbuf_add(out, a + pfx, a_mid > 0 ? (size_t)a_mid : 0);
	sbuf_addstr(out, " => ");
	sbuf_add(out, b + pfx, b_mid > 0 ? (size_t)b_mid : 0);
	if (pfx + sfx) {
		sbuf_addch(out, '}');
		sbuf_addstr(out, a + len_a - sfx);
	}
}

/* The name of @f in the graph: its path, or its rename. */
static char *stat_name(const struct diffstat_file *f)
{
	struct sbuf sb = SBUF_INIT;

	if (f->old_name && strcmp(f->old_name, f->name))
		rename_name(&sb, f->old_name, f->name);
	else
		quote_path(&sb, f->name);
	return sbuf_detach(&sb);
}

/* git's diff_summary(): "create mode", "rename", "mode change" lines. */
static void diffstat_summary(struct sbuf *out, const struct diffstat_file *f)
{
	bool renamed = f->old_name && strcmp(f->old_name, f->name);

	if (!f->old_mode && f->new_mode) {
		sbuf_addf(out, " create mode %06o ", f->new_mode);
		quote_path(out, f->name);
		sbuf_addch(out, '\n');
		return;
	}
	if (f->old_mode && !f->new_mode) {
		sbuf_addf(out, " delete mode %06o ", f->old_mode);
		quote_path(out, f->name);
		sbuf_addch(out, '\n');
		return;
	}
	if (renamed) {
		sbuf_addstr(out, " rename ");
		rename_name(out, f->old_name, f->name);
		sbuf_addf(out, " (%d%%)\n", f->similarity);
	}
	if (f->old_mode && f->new_mode && f->old_mode != f->new_mode) {
		sbuf_addf(out, " mode change %06o => %06o", f->old_mode,
			  f->new_mode);
		if (!renamed) {
			sbuf_addch(out, ' ');
			quote_path(out, f->name);
		}
		sbuf_addch(out, '\n');
	}
}

/* The widths are those of git's show_stats() (diff.c), without --stat-name-width. */
void diffstat_format(struct sbuf *out, const struct diffstat_file *f, size_t n,
		     int width)
{
	size_t max_len = 0, max_change = 0, ins = 0, del = 0, i;
	int number_width = 0, bin_width = 0, name_width, graph_width;
	char **names;

	if (!n) {
		sbuf_addstr(out, " 0 files changed\n");
		return;
	}
	names = xcalloc(n, sizeof(*names));
	for (i = 0; i < n; i++) {
		names[i] = stat_name(&f[i]);
		if (strlen(names[i]) > max_len)
			max_len = strlen(names[i]);
		if (f[i].binary) {
			/* "Bin XXX -> YYY bytes", the count's column "Bin" */
			int w = 14 + decimal_width(f[i].added) +
				decimal_width(f[i].deleted);

			if (w > bin_width)
				bin_width = w;
			number_width = 3;
			continue;
		}
		if (f[i].added + f[i].deleted > max_change)
			max_change = f[i].added + f[i].deleted;
		ins += f[i].added;
		del += f[i].deleted;
	}
	if (decimal_width(max_change) > number_width)
		number_width = decimal_width(max_change);
	if (width < 16 + 6 + number_width)
		width = 16 + 6 + number_width;
	if (max_change > INT_MAX / 2)
		graph_width = INT_MAX / 2;
	else if ((int)max_change + 4 > bin_width)
		graph_width = (int)max_change;
	else
		graph_width = bin_width - 4;
	name_width = max_len > INT_MAX / 2 ? INT_MAX / 2 : (int)max_len;
	if (name_width + number_width + 6 + graph_width > width) {
		if (graph_width > width * 3 / 8 - number_width - 6) {
			graph_width = width * 3 / 8 - number_width - 6;
			if (graph_width < 6)
				graph_width = 6;
		}
		if (name_width > width - number_width - 6 - graph_width)
			name_width = width - number_width - 6 - graph_width;
		else
			graph_width = width - number_width - 6 - name_width;
	}
	for (i = 0; i < n; i++) {
		const char *name = names[i], *prefix = "";
		size_t len = (size_t)name_width, total = f[i].added + f[i].deleted;
		size_t add = f[i].added, rm = f[i].deleted;
		int padding;

		if (strlen(name) > len) {
			const char *slash;

			prefix = "...";
			len = len > 3 ? len - 3 : 0;
			name += strlen(name) - len;
			slash = strchr(name, '/');
			if (slash)
				name = slash;
		}
		padding = (int)len - (int)strlen(name);
		if (padding < 0)
			padding = 0;
		if (f[i].binary) {
			sbuf_addf(out, " %s%s%*s | %*s", prefix, name, padding, "",
				  number_width, "Bin");
			if (f[i].added || f[i].deleted)
				sbuf_addf(out, " %zu -> %zu bytes", f[i].deleted,
					  f[i].added);
			sbuf_addch(out, '\n');
			continue;
		}
		if ((size_t)graph_width <= max_change) {
			size_t scaled = (size_t)scale_linear(total, graph_width, max_change);

			if (scaled < 2 && add && rm)
				scaled = 2;
			if (add < rm) {
				add = (size_t)scale_linear(add, graph_width, max_change);
				rm = scaled - add;
			} else {
				rm = (size_t)scale_linear(rm, graph_width, max_change);
				add = scaled - rm;
			}
		}
		sbuf_addf(out, " %s%s%*s | %*zu%s", prefix, name, padding, "",
			  number_width, total, total ? " " : "");
		for (; add; add--)
			sbuf_addch(out, '+');
		for (; rm; rm--)
			sbuf_addch(out, '-');
		sbuf_addch(out, '\n');
	}
	sbuf_addf(out, " %zu file%s changed", n, n == 1 ? "" : "s");
	if (ins || !del)
		sbuf_addf(out, ", %zu insertion%s(+)", ins, ins == 1 ? "" : "s");
	if (del || !ins)
		sbuf_addf(out, ", %zu deletion%s(-)", del, del == 1 ? "" : "s");
	sbuf_addch(out, '\n');
	for (i = 0; i < n; i++) {
		diffstat_summary(out, &f[i]);
		free(names[i]);
	}
	free(names);
}

/* The size of the blob @id (0 for the zero id: no such side). */
static int blob_size(size_t *size, git_odb *odb, const git_oid *id)
{
	git_object_t type;
	size_t len = 0;

	*size = 0;
	if (git_oid_is_zero(id))
		return 0;
	if (git_odb_read_header(&len, &type, odb, id) < 0)
		return kmig_err_git("cannot read a blob's size");
	*size = len;
	return 0;
}

int diffstat_diff(struct sbuf *out, git_repository *repo, git_diff *diff,
		  int width)
{
	size_t n = git_diff_num_deltas(diff), i;
	struct diffstat_file *f = xcalloc(n ? n : 1, sizeof(*f));
	git_odb *odb = NULL;
	int ret = 0;

	if (git_repository_odb(&odb, repo) < 0) {
		ret = kmig_err_git("cannot open the object database");
		goto out_free;
	}
	for (i = 0; !ret && i < n; i++) {
		const git_diff_delta *d;
		git_patch *patch = NULL;

		if (git_patch_from_diff(&patch, diff, i) < 0 ||
		    git_patch_line_stats(NULL, &f[i].added, &f[i].deleted, patch) < 0) {
			ret = kmig_err_git("cannot diff");
			git_patch_free(patch);
			break;
		}
		f[i].binary = git_patch_get_delta(patch)->flags & GIT_DIFF_FLAG_BINARY;
		git_patch_free(patch);
		d = git_diff_get_delta(diff, i);
		f[i].name = d->status == GIT_DELTA_DELETED ? d->old_file.path :
			    d->new_file.path;
		if (d->status == GIT_DELTA_RENAMED || d->status == GIT_DELTA_COPIED) {
			f[i].old_name = d->old_file.path;
			f[i].similarity = (int)d->similarity;
		}
		f[i].old_mode = d->status == GIT_DELTA_ADDED ? 0 : d->old_file.mode;
		f[i].new_mode = d->status == GIT_DELTA_DELETED ? 0 : d->new_file.mode;
		if (f[i].binary) {
			ret = blob_size(&f[i].deleted, odb, &d->old_file.id);
			if (!ret)
				ret = blob_size(&f[i].added, odb, &d->new_file.id);
			if (!ret && git_oid_equal(&d->old_file.id, &d->new_file.id))
				f[i].added = f[i].deleted = 0;
		}
	}
	if (!ret)
		diffstat_format(out, f, n, width);
	git_odb_free(odb);
out_free:
	free(f);
	return ret;
}

/* ---- series file ---- */

void series_clear(struct series *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->names[i]);
	free(s->names);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}

char *series_path(const struct series *s, const char *name)
{
	return xasprintf("%s/%s", s->dir, name);
}

/*
 * series_options - the options after the patch @name on line @lineno of
 * the series file @path: quilt's strip level of a git format-patch, -p1
 * or -pab, is what kmig applies; any other (-p0, -R: a reversed patch)
 * would be applied otherwise than the series says, so it is an error.
 * A '#' starts a comment.
 */
static int series_options(const char *path, size_t lineno, const char *name,
			  char *opts)
{
	char *save = NULL, *w;

	for (w = opts ? strtok_r(opts, " \t", &save) : NULL; w && *w != '#';
	     w = strtok_r(NULL, " \t", &save))
		if (strcmp(w, "-p1") && strcmp(w, "-pab"))
			return kmig_err("%s:%zu: option '%s' of '%s': kmig applies git format-patch patches with -p1 only",
					path, lineno, w, name);
	return 0;
}

/*
 * entry_name - the patch name on the series line of @len bytes at @p (a
 * new string), *@opts what follows it on the line (in that string, or
 * NULL); NULL for a comment or blank line.
 */
static char *entry_name(const char *p, size_t len, char **opts)
{
	char *name = patch_trim_dup(p, len), *sp = strpbrk(name, " \t");

	*opts = NULL;
	if (sp) {
		*sp = '\0';
		*opts = sp + 1;
	}
	if (!*name || *name == '#') {
		free(name);
		return NULL;
	}
	return name;
}

int series_read(struct series *out, const char *dir, bool missing_ok)
{
	struct sbuf sb = SBUF_INIT;
	char *path = xasprintf("%s/series", dir);
	const char *p, *e;
	size_t lineno = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->dir = xstrdup(dir);
	if (access(path, F_OK) && errno == ENOENT && missing_ok)
		goto out;
	ret = sbuf_read_file(&sb, path);
	if (ret)
		goto out;
	p = sb.buf ? sb.buf : "";
	e = p + sb.len;
	for (; p < e; p += patch_line_len(p, e)) {
		char *sp, *name = entry_name(p, patch_line_chomp(p, e), &sp);

		lineno++;
		if (!name)
			continue;
		/* quilt allows options after the name ("-p1"): check them */
		ret = series_options(path, lineno, name, sp);
		if (ret) {
			free(name);
			goto out;
		}
		ALLOC_GROW(out->names, out->n + 1, out->alloc);
		out->names[out->n++] = name;
	}
out:
	free(path);
	sbuf_release(&sb);
	return ret;
}

int series_append(const char *dir, const char *name)
{
	char *path = xasprintf("%s/series", dir);
	FILE *f = fopen(path, "a+");
	bool nl = true;	/* the file ends its last line */
	int ret = 0;

	if (!f) {
		ret = kmig_err("cannot open '%s': %s", path, strerror(errno));
		goto out;
	}
	if (!fseek(f, -1, SEEK_END))
		nl = fgetc(f) == '\n';
	fseek(f, 0, SEEK_END);	/* between a read and a write */
	fprintf(f, "%s%s\n", nl ? "" : "\n", name);
	if (fclose(f))
		ret = kmig_err("cannot write '%s': %s", path, strerror(errno));
out:
	free(path);
	return ret;
}

/* An entry line of the old series file, and the lines just above it. */
struct old_entry {
	char *name;
	const char *line;	/* the whole line: options and comment kept */
	size_t len;
	const char *above;	/* comments and blank lines since the entry before */
	size_t above_len;
	bool written;		/* above written */
};

/*
 * old_entries - the entries of the series text @p..@e, in order; *@tail:
 * the lines after the last one (all of them when there is none).
 */
static size_t old_entries(struct old_entry **out, const char *p, const char *e,
			  const char **tail)
{
	const char *above = p;
	size_t n = 0, alloc = 0;

	*out = NULL;
	for (; p < e; p += patch_line_len(p, e)) {
		char *opts, *name = entry_name(p, patch_line_chomp(p, e), &opts);

		if (!name)
			continue;
		ALLOC_GROW(*out, n + 1, alloc);
		/* the whole line: its own line end (CR LF) too */
		(*out)[n] = (struct old_entry){ name, p, patch_line_len(p, e),
						above, (size_t)(p - above), false };
		n++;
		above = p + patch_line_len(p, e);
	}
	*tail = above;
	return n;
}

/*
 * The lines @s (@len bytes, whole lines but maybe the last) into @out,
 * the last ended with @eol if it has no line end.
 */
static void add_lines(struct sbuf *out, const char *s, size_t len,
		      const char *eol)
{
	sbuf_add(out, s, len);
	if (len && s[len - 1] != '\n')
		sbuf_addstr(out, eol);
}

/* The lines above the old entries up to @k not yet written. */
static void add_above(struct sbuf *out, struct old_entry *ent, size_t k,
		      const char *eol)
{
	size_t j;

	for (j = 0; j <= k; j++)
		if (!ent[j].written) {
			add_lines(out, ent[j].above, ent[j].above_len, eol);
			ent[j].written = true;
		}
}

void series_format(struct sbuf *out, const char *dir, char *const *names,
		   size_t n)
{
	struct sbuf old = SBUF_INIT;
	char *path = xasprintf("%s/series", dir);
	struct old_entry *ent = NULL;
	const char *tail = NULL, *eol = "\n";
	size_t nent = 0, first, i, k;

	if (!access(path, F_OK) && !sbuf_read_file(&old, path) && old.len) {
		nent = old_entries(&ent, old.buf, old.buf + old.len, &tail);
		/* new lines end as the file's first line does */
		first = patch_line_len(old.buf, old.buf + old.len);
		if (first >= 2 && old.buf[first - 1] == '\n' &&
		    old.buf[first - 2] == '\r')
			eol = "\r\n";
	}
	/*
	 * The lines above the first entry stay on top.  An entry kept is
	 * written as it was (its -p1, its comment) under the comments and
	 * blank lines above it, and above those of an entry dropped before
	 * it; a new name is written alone.
	 */
	if (nent) {
		add_above(out, ent, 0, eol);
	} else if (tail) {	/* comments only */
		add_lines(out, tail, old.len, eol);
		tail = NULL;
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < nent && strcmp(ent[k].name, names[i]); k++)
			;
		if (k == nent) {
			sbuf_addf(out, "%s%s", names[i], eol);
			continue;
		}
		add_above(out, ent, k, eol);
		add_lines(out, ent[k].line, ent[k].len, eol);
	}
	if (nent)
		add_above(out, ent, nent - 1, eol);
	if (tail)
		add_lines(out, tail, (size_t)(old.buf + old.len - tail), eol);
	for (k = 0; k < nent; k++)
		free(ent[k].name);
	free(ent);
	sbuf_release(&old);
	free(path);
}

int series_write(const char *dir, char *const *names, size_t n)
{
	struct sbuf out = SBUF_INIT;
	char *path = xasprintf("%s/series", dir);
	int ret;

	series_format(&out, dir, names, n);
	ret = write_file_replace(path, out.buf, out.len);
	sbuf_release(&out);
	free(path);
	return ret;
}

int series_next_number(const struct series *s)
{
	int max = 0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		int v = atoi(s->names[i]);

		if (isdigit((unsigned char)s->names[i][0]) && v > max)
			max = v;
	}
	return max + 1;
}

char *patch_file_name(int number, const char *subject)
{
	struct sbuf sb = SBUF_INIT;
	const size_t max = 52;
	size_t start;
	bool dash = false;
	const char *p;

	sbuf_addf(&sb, "%04d-", number);
	start = sb.len;
	for (p = subject; *p && sb.len - start < max; p++) {
		if (isalnum((unsigned char)*p) || *p == '.' || *p == '_') {
			if (dash && sb.len > start)
				sbuf_addch(&sb, '-');
			dash = false;
			if (sb.len - start < max)
				sbuf_addch(&sb, *p);
		} else {
			dash = true;
		}
	}
	while (sb.len > start && (sb.buf[sb.len - 1] == '.' || sb.buf[sb.len - 1] == '-'))
		sb.buf[--sb.len] = '\0';
	sbuf_addstr(&sb, ".patch");
	return sbuf_detach(&sb);
}

char *series_deprecated_reason(git_repository *repo, git_tree *tree,
			       const char *title)
{
	struct sbuf rst = SBUF_INIT, para = SBUF_INIT, out = SBUF_INIT;
	const char *p, *e;
	char *save = NULL, *word;
	int state = 0;		/* 0: title, 1: underline, 2: text */
	size_t col = 0;

	if (repo_blob_at(repo, tree, "Documentation/process/deprecated.rst", &rst) ||
	    !rst.len) {
		sbuf_release(&rst);
		return NULL;
	}
	p = rst.buf;
	e = rst.buf + rst.len;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(e - p);

		if (state == 0 && n == strlen(title) && !memcmp(p, title, n)) {
			state = 1;
		} else if (state == 1) {
			state = 2;	/* the "-----" line */
		} else if (state == 2) {
			if (!n && para.len)
				break;	/* the end of the first paragraph */
			sbuf_add(&para, p, n);
			sbuf_addch(&para, ' ');
		}
		p = nl ? nl + 1 : e;
	}
	if (!para.len) {
		sbuf_release(&rst);
		sbuf_release(&para);
		return NULL;
	}
	for (word = strtok_r(para.buf, " \t", &save); word;
	     word = strtok_r(NULL, " \t", &save)) {
		struct sbuf w = SBUF_INIT;
		const char *q;

		for (q = word; *q; q++)
			if (strncmp(q, "``", 2))
				sbuf_addch(&w, *q);
			else
				q++;
		if (!w.len) {
			sbuf_release(&w);
			continue;
		}
		if (col && col + 1 + w.len > 72) {
			sbuf_addch(&out, '\n');
			col = 0;
		} else if (col) {
			sbuf_addch(&out, ' ');
			col++;
		}
		sbuf_add(&out, w.buf, w.len);
		col += w.len;
		sbuf_release(&w);
	}
	sbuf_release(&rst);
	sbuf_release(&para);
	return out.len ? sbuf_detach(&out) : NULL;
}
