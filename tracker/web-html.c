// SPDX-License-Identifier: GPL-2.0
/*
 * web-html.c - escaping for HTML and URLs, source links, and safe, unique
 * page file names.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "web-internal.h"

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
		default: {
			unsigned char c = (unsigned char)*s;
			size_t n;

			if (c >= 0x20 && c != 0x7f && c < 0x80)
				continue;
			if (c == '\t' || c == '\n')
				continue;
			/* well-formed UTF-8 as it is; a control byte (C1
			 * controls included: HTML allows none), another
			 * encoding's (latin-1) is U+FFFD, as in JSON */
			n = c >= 0x80 ? utf8_printable((const unsigned char *)s) : 0;
			if (n) {
				s += n - 1;
				continue;
			}
			rep = "&#xFFFD;";
			break;
		}
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
	sbuf_addf(&sb, "-%08x.html", fnv32(name, strlen(name)));
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

char *files_page_name(const char *base, size_t page)
{
	return xasprintf("%s-%zu.html", base, page + 1);
}
