/* SPDX-License-Identifier: GPL-2.0 */
/*
 * web.h - the static HTML dashboard (kmig web).
 *
 * web_generate() writes every page of the site into a directory from the
 * database alone; the helpers below it are the building blocks, exported
 * for the unit tests.  Every string that comes from a repository or the
 * database goes through html_escape() (text and double-quoted attribute
 * values alike); page file names come from web_page_name(), never from the
 * raw names.  Pages use only the embedded style.css and sort.js of the site
 * itself: no external URL, so the site opens from file:// as well as from
 * any static web server.
 */
#ifndef KMIG_WEB_H
#define KMIG_WEB_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct store;

/* The embedded web/style.css and web/sort.js (build/web-assets.c). */
extern const char kmig_web_css[];
extern const char kmig_web_js[];

/* Name of the marker file that identifies a directory written by kmig web. */
#define WEB_MARKER ".kmig-web"

struct web_opts {
	/*
	 * Link use sites to a source browser: {tag}, {path} and {line} are
	 * replaced by the URL-escaped release tag, file path and line; NULL
	 * for no links.
	 */
	const char *source_url;
	/* Use sites per file drill-down page (0: the default, 4000). */
	size_t sites_per_page;
	/* Called after each page written (progress for the command layer). */
	void (*page_written)(void *data, size_t pages);
	void *data;
};

/*
 * web_generate - write the site for the database @st into the existing,
 * empty directory @dir.  0 or negative with the error recorded.
 */
int web_generate(struct store *st, const char *dir, const struct web_opts *o);

/*
 * web_replace - move the directory @tmp over @dir atomically: an existing
 * @dir must be a site written by kmig web (it holds WEB_MARKER) or empty;
 * it is renamed aside, @tmp renamed to @dir, then the old one removed.
 * Negative with the error recorded when @dir is not replaced (the old site
 * then in place); 0 once it is, with *@left the path of the old site's
 * copy that could not be removed (malloc'd, its error recorded), or NULL.
 */
int web_replace(const char *tmp, const char *dir, char **left);
/*
 * web_replace_check - whether web_replace() may replace @dir: it does not
 * exist (*@exists false), or is a directory that holds WEB_MARKER or is
 * empty.  0, or negative with the error recorded.
 */
int web_replace_check(const char *dir, bool *exists);

/* ---- building blocks ---- */

/* html_escape - append @s with & < > " ' as character references. */
void html_escape(struct sbuf *sb, const char *s);
/*
 * url_escape - append @s percent-encoded (RFC 3986 unreserved characters
 * kept, and '/' too when @keep_slash).
 */
void url_escape(struct sbuf *sb, const char *s, bool keep_slash);
/*
 * source_link - the URL for a use site from the --source-url @tmpl, or
 * NULL when @tmpl is NULL (caller frees).
 */
char *source_link(const char *tmpl, const char *tag, const char *path,
		  long long line);

/*
 * web_page_name - a safe, stable file name "<prefix>-<slug>-<hash>.html"
 * for @name: the slug keeps lower-case ASCII letters and digits (runs of
 * anything else become one '-', at most 40 characters), the hash is eight
 * hex digits of FNV-1a over the whole name, so names that slug alike do not
 * clash and nothing in @name can reach outside the site.  Caller frees.
 */
char *web_page_name(const char *prefix, const char *name);
/*
 * web_names_unique - make the @n file names unique in place: a name equal
 * to an earlier one gets "-2", "-3"... before ".html".
 */
void web_names_unique(char **names, size_t n);

/*
 * Charts: inline SVG with axes, labels, one point per release and a
 * <title> per point.  Colours come from the style sheet (classes s0...),
 * so they follow the light and dark schemes.
 */
struct chart_series {
	const char *name;
	const long long *v;	/* one value per x label */
};

/*
 * svg_line_chart - a line chart of @ns series over @nx labelled points;
 * @log_scale plots log10(1 + value) (for series of very different sizes).
 * @id is the element id, @caption the accessible title.
 */
void svg_line_chart(struct sbuf *sb, const char *id, const char *caption,
		    const char *const *xlabels, size_t nx,
		    const struct chart_series *s, size_t ns, bool log_scale);
/* svg_sparkline - a small line of @v with a <title> per point. */
void svg_sparkline(struct sbuf *sb, const long long *v, const char *const *xlabels,
		   size_t n);

#endif
