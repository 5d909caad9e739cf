// SPDX-License-Identifier: GPL-2.0
/*
 * web-page-branch.c - branch.html: the conversion branch (patches x bases,
 * the steps of each branch), builds, boots with their copied logs, and
 * bisections.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmig.h"
#include "web-internal.h"

/* Evidence longer than this is folded into a <details> element. */
#define EVIDENCE_INLINE 100

struct step_copy {
	char *branch, *base, *patch, *subject, *status, *commit, *evidence;
	char *test_status, *build_status, *boot_status;
	long long position, build_id, boot_id;
};

struct step_list {
	struct step_copy *v;
	size_t n, alloc;
};

static int copy_step(void *data, const struct web_step *s)
{
	struct step_list *l = data;
	struct step_copy *c;

	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	c = &l->v[l->n++];
	c->branch = xstrdup_or_null(s->branch);
	c->base = xstrdup_or_null(s->base);
	c->patch = xstrdup_or_null(s->patch);
	c->subject = xstrdup_or_null(s->subject);
	c->status = xstrdup_or_null(s->status);
	c->commit = xstrdup_or_null(s->commit);
	c->evidence = xstrdup_or_null(s->evidence);
	c->test_status = xstrdup_or_null(s->test_status);
	c->build_status = xstrdup_or_null(s->build_status);
	c->boot_status = xstrdup_or_null(s->boot_status);
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

/* A link to build or boot (@kind) @id on this page and its @status; a dash for none. */
static void add_run(struct sbuf *sb, const char *kind, long long id,
		    const char *status)
{
	if (!id) {
		sbuf_addstr(sb, "&mdash;");
		return;
	}
	sbuf_addf(sb, "<a href=\"#%s-%lld\">#%lld</a> ", kind, id, id);
	add_status(sb, status);
}

/* The cell of @patch on @branch: the step's status, test status and evidence. */
static void matrix_cell(struct sbuf *sb, const struct step_list *l,
			const char *branch, const char *patch)
{
	const struct step_copy *c = NULL;
	size_t k;

	for (k = 0; k < l->n; k++)
		if (same(l->v[k].branch, branch) && same(l->v[k].patch, patch)) {
			c = &l->v[k];
			break;
		}
	if (!c) {
		sbuf_addstr(sb, "<td class=\"muted\">&mdash;</td>");
		return;
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

static void branch_matrix(struct web *w, const struct step_list *l)
{
	struct sbuf *sb = &w->out.page;
	size_t *cols = xcalloc(l->n, sizeof(*cols)), ncols = 0;
	size_t *rows = xcalloc(l->n, sizeof(*rows)), nrows = 0;
	size_t i, j;

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
		for (j = 0; j < ncols; j++)
			matrix_cell(sb, l, l->v[cols[j]].branch, p->patch);
		sbuf_addstr(sb, "</tr>\n");
	}
	sbuf_addstr(sb, "</tbody>\n</table></div>\n");
	free(cols);
	free(rows);
}

/* A step's evidence: its start as the summary of a <details> element when long. */
static void add_step_evidence(struct sbuf *sb, const char *evidence)
{
	size_t len = EVIDENCE_INLINE;
	char *head;

	if (!evidence || strlen(evidence) <= EVIDENCE_INLINE) {
		html_escape(sb, evidence);
		return;
	}
	/* whole characters: a cut UTF-8 one would be U+FFFD */
	while (len && ((unsigned char)evidence[len] & 0xc0) == 0x80)
		len--;
	head = xstrndup(evidence, len);
	sbuf_addstr(sb, "<details><summary>");
	html_escape(sb, head);
	sbuf_addstr(sb, "&hellip;</summary>");
	html_escape(sb, evidence);
	sbuf_addstr(sb, "</details>");
	free(head);
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
		add_step_evidence(sb, c->evidence);
		sbuf_addstr(sb, "</td><td>");
		add_commit(sb, c->commit);
		sbuf_addstr(sb, "</td><td>");
		add_status(sb, c->test_status);
		sbuf_addstr(sb, "</td><td>");
		add_run(sb, "build", c->build_id, c->build_status);
		sbuf_addstr(sb, "</td><td>");
		add_run(sb, "boot", c->boot_id, c->boot_status);
		sbuf_addstr(sb, "</td></tr>\n");
	}
	if (l->n)
		sbuf_addstr(sb, "</tbody>\n</table></div>\n");
}

/* The rows of one section of branch.html. */
struct rows_state {
	struct web *w;
	size_t n;		/* rows (bisections: runs) so far */
	const char *head;	/* the table's opening, before the first row */
};

/* row_begin - count a row, opening the table at the first; the page. */
static struct sbuf *row_begin(struct rows_state *rs)
{
	struct sbuf *sb = &rs->w->out.page;

	if (!rs->n++)
		sbuf_addstr(sb, rs->head);
	return sb;
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
	/* where it was is this machine's business, not the site's */
	sbuf_addstr(sb, "<span class=\"muted\" title=\"the log could not be read when "
		    "the site was written\">not available</span>");
	return 0;
}

/*
 * The log cell (a link to @src copied as logs/@kind-@id.txt) and the date
 * cell that end a build's or a boot's row.
 */
static int add_log_and_date(struct web *w, const char *kind, long long id,
			    const char *src, long long created_at)
{
	char date[32], *name = xasprintf("%s-%lld.txt", kind, id);
	int ret;

	ret = add_log_link(w, src, name);
	free(name);
	format_date(date, sizeof(date), created_at, "%Y-%m-%d %H:%M");
	sbuf_addf(&w->out.page, "</td><td>%s</td></tr>\n", date);
	return ret;
}

static const char builds_head[] =
	"<div class=\"scroll\"><table class=\"sortable\" id=\"builds\">\n<thead><tr>"
	"<th class=\"num\">Build</th><th>Commit</th><th>Config</th><th>Status</th>"
	"<th class=\"num\">Seconds</th><th>Log</th><th>Date</th></tr></thead>\n<tbody>\n";

static int add_build(void *data, const struct web_build *b)
{
	struct rows_state *rs = data;
	struct sbuf *sb = row_begin(rs);

	sbuf_addf(sb, "<tr id=\"build-%lld\"><td class=\"num\">%lld</td><td>", b->id, b->id);
	add_commit(sb, b->commit);
	sbuf_addstr(sb, "</td><td><code>");
	html_escape(sb, b->config_hash);
	sbuf_addstr(sb, "</code></td><td>");
	add_status(sb, b->status);
	sbuf_addf(sb, "</td><td class=\"num\">%.1f</td><td>", b->seconds);
	return add_log_and_date(rs->w, "build", b->id, b->log_path, b->created_at);
}

static const char boots_head[] =
	"<div class=\"scroll\"><table class=\"sortable\" id=\"boots\">\n<thead><tr>"
	"<th class=\"num\">Boot</th><th class=\"num\">Build</th><th>Commit</th><th>Tests</th>"
	"<th>Status</th><th class=\"num\">Seconds</th><th>Findings</th><th>Console</th>"
	"<th>Date</th></tr></thead>\n<tbody>\n";

static int add_boot(void *data, const struct web_boot *b)
{
	struct rows_state *rs = data;
	struct sbuf *sb = row_begin(rs);

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
	return add_log_and_date(rs->w, "boot", b->id, b->console_path, b->created_at);
}

static const char bases_head[] =
	"<div class=\"scroll\"><table class=\"sortable\" id=\"bases\">\n<thead><tr>"
	"<th>Release</th><th>Commit</th><th>Build</th><th class=\"num\">Build seconds</th>"
	"<th>Build log</th><th>Boot</th><th>Console</th><th>RDS test</th>"
	"<th>RDS errno cases</th></tr></thead>\n<tbody>\n";

/*
 * The guest's result of test @test in @results ("KMIG-TEST rds PASS
 * detail" lines): *@verdict and *@detail point into @results (lengths in
 * *@vlen, *@dlen); false when the test has no line.
 */
static bool test_result(const char *results, const char *test,
			const char **verdict, size_t *vlen,
			const char **detail, size_t *dlen)
{
	const char *p = results;
	size_t n = strlen(test);

	while (p && *p) {
		size_t len = strcspn(p, "\n");

		if (!strncmp(p, "KMIG-TEST ", 10) && len > 11 + n &&
		    !strncmp(p + 10, test, n) && p[10 + n] == ' ') {
			*verdict = p + 11 + n;
			*vlen = strcspn(*verdict, " \n");
			*detail = *verdict + *vlen;
			if (**detail == ' ')
				(*detail)++;
			*dlen = (size_t)(p + len - *detail);
			return true;
		}
		p += len + (p[len] == '\n');
	}
	return false;
}

static int add_base(void *data, const struct web_base *b)
{
	struct rows_state *rs = data;
	struct sbuf *sb = row_begin(rs);
	const char *verdict, *detail;
	size_t vlen, dlen;
	char *name;
	int ret;

	sbuf_addstr(sb, "<tr>");
	td_text(sb, b->tag);
	sbuf_addstr(sb, "<td>");
	add_commit(sb, b->commit);
	sbuf_addstr(sb, "</td><td>");
	if (b->build_id)
		sbuf_addf(sb, "<a href=\"#build-%lld\">", b->build_id);
	add_status(sb, b->build_status);
	if (b->build_id)
		sbuf_addstr(sb, "</a>");
	sbuf_addf(sb, "</td><td class=\"num\">%.1f</td><td>", b->build_seconds);
	name = xasprintf("build-%lld.txt", b->build_id);
	ret = add_log_link(rs->w, b->build_log, name);
	free(name);
	if (ret)
		return ret;
	sbuf_addstr(sb, "</td><td>");
	if (b->boot_id)
		sbuf_addf(sb, "<a href=\"#boot-%lld\">", b->boot_id);
	add_status(sb, b->boot_id ? b->boot_status : "not booted");
	if (b->boot_id)
		sbuf_addstr(sb, "</a>");
	sbuf_addstr(sb, "</td><td>");
	name = xasprintf("boot-%lld.txt", b->boot_id);
	ret = add_log_link(rs->w, b->console_path, name);
	free(name);
	if (ret)
		return ret;
	sbuf_addstr(sb, "</td><td>");
	if (test_result(b->results, "rds", &verdict, &vlen, &detail, &dlen)) {
		char *v = xstrndup(verdict, vlen), *d = xstrndup(detail, dlen);
		const char *cases = strstr(d, " sendmsg errno cases");

		add_status(sb, !strcmp(v, "PASS") ? "pass" : "fail");
		sbuf_addstr(sb, "</td><td>");
		if (cases) {
			const char *num = cases;

			while (num > d && num[-1] >= '0' && num[-1] <= '9')
				num--;
			sbuf_addf(sb, "%.*s checked", (int)(cases - num), num);
		} else {
			html_escape(sb, d);
		}
		free(v);
		free(d);
	} else {
		sbuf_addstr(sb, "&mdash;</td><td>&mdash;");
	}
	sbuf_addstr(sb, "</td></tr>\n");
	return 0;
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

static int rows_bases(struct web *w, struct rows_state *rs)
{
	return store_web_bases(w->st, add_base, rs);
}

static int rows_builds(struct web *w, struct rows_state *rs)
{
	return store_web_builds(w->st, add_build, rs);
}

static int rows_boots(struct web *w, struct rows_state *rs)
{
	return store_web_boots(w->st, add_boot, rs);
}

static int rows_bisects(struct web *w, struct rows_state *rs)
{
	return store_web_bisects(w->st, add_bisect, rs);
}

/*
 * A section of rows from the store: the rows callback opens its table at
 * the first row (with @head, or per bisection), the section closes it with
 * @close, or says @none.
 */
struct row_section {
	const char *heading;
	const char *head;
	int (*rows)(struct web *w, struct rows_state *rs);
	const char *close;
	const char *none;
};

static const struct row_section row_sections[] = {
	{ "Bases", bases_head, rows_bases, "</tbody>\n</table></div>\n",
	  "no release has been booted as a base (kmig boot --bases)" },
	{ "Builds", builds_head, rows_builds, "</tbody>\n</table></div>\n",
	  "no kernel has been built (kmig boot)" },
	{ "Boots", boots_head, rows_boots, "</tbody>\n</table></div>\n",
	  "no kernel has been booted (kmig boot)" },
	{ "Bisections", NULL, rows_bisects, "</tbody>\n</table>\n",
	  "no bisection has run (kmig bisect)" },
};

static int add_row_section(struct web *w, const struct row_section *s)
{
	struct sbuf *sb = &w->out.page;
	struct rows_state rs = { w, 0, s->head };
	int ret;

	sbuf_addf(sb, "<h2>%s</h2>\n", s->heading);
	ret = s->rows(w, &rs);
	if (ret)
		return ret;
	if (rs.n)
		sbuf_addstr(sb, s->close);
	else
		no_data(sb, s->none);
	return 0;
}

int page_branch(struct web *w)
{
	struct sbuf *sb = &w->out.page;
	struct step_list steps = { 0 };
	size_t i;
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
	for (i = 0; i < ARRAY_SIZE(row_sections); i++) {
		ret = add_row_section(w, &row_sections[i]);
		if (ret)
			goto out_clear_steps;
	}
	ret = page_end(w, "branch.html");
out_clear_steps:
	step_list_clear(&steps);
	return ret;
}
