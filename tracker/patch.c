// SPDX-License-Identifier: GPL-2.0
/*
 * patch.c - mbox splitting, headers, subjects, the diff of a message and
 * trailers (the rules are in patch.h).
 */
#include <ctype.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "patch.h"

size_t patch_line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
}

bool patch_starts(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - p) >= n && !memcmp(p, prefix, n);
}

bool patch_is_from_line(const char *p, const char *end)
{
	int i;

	if (!patch_starts(p, end, "From ") || end - p < 46)
		return false;
	for (i = 5; i < 45; i++)
		if (!p[i] || !strchr("0123456789abcdef", p[i]))
			return false;
	return p[45] == ' ';
}

bool patch_is_mbox(const char *buf, size_t len)
{
	const char *end = buf + len;

	return patch_is_from_line(buf, end) || patch_starts(buf, end, "From:") ||
	       patch_starts(buf, end, "Subject:");
}

size_t patch_mbox_split(struct patch_span **out, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	size_t n = 0, alloc = 0;

	*out = NULL;
	while (p < end) {
		const char *m = p;

		for (p += patch_line_len(p, end); p < end &&
		     !patch_is_from_line(p, end); p += patch_line_len(p, end))
			;
		ALLOC_GROW(*out, n + 1, alloc);
		(*out)[n].start = m;
		(*out)[n++].len = (size_t)(p - m);
	}
	return n;
}

/* An empty line (or "\r\n"): the end of the headers. */
static bool blank_line(const char *p, size_t n)
{
	return n == 0 || (n == 1 && p[0] == '\n') ||
	       (p[0] == '\r' && (n == 1 || (n == 2 && p[1] == '\n')));
}

/* @n bytes at @p without the line break. */
static size_t chomp(const char *p, size_t n)
{
	return n && p[n - 1] == '\n' ? n - 1 : n;
}

bool patch_header_next(const char **p, const char *end, struct sbuf *hdr)
{
	size_t n;

	sbuf_reset(hdr);
	if (*p >= end)
		return false;
	n = patch_line_len(*p, end);
	if (blank_line(*p, n)) {
		*p += n;
		return false;
	}
	sbuf_add(hdr, *p, chomp(*p, n));
	*p += n;
	while (*p < end && (**p == ' ' || **p == '\t')) {
		n = patch_line_len(*p, end);
		sbuf_add(hdr, *p, chomp(*p, n));	/* keeps the blank */
		*p += n;
	}
	return true;
}

static char *trim_dup(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return xstrndup(s, len);
}

char *patch_header_value(const struct sbuf *hdr, const char *key)
{
	size_t n = strlen(key);

	if (hdr->len <= n || strncasecmp(hdr->buf, key, n) || hdr->buf[n] != ':')
		return NULL;
	return trim_dup(hdr->buf + n + 1, hdr->len - n - 1);
}

char *patch_subject(const char *raw)
{
	char *s = normalize_ws(raw, strlen(raw)), *t = s, *ret;

	for (;;) {
		while (*t == ' ')
			t++;
		if (*t == '[') {
			char *close = strchr(t, ']');

			if (!close)
				break;
			t = close + 1;
			continue;
		}
		if (!strncasecmp(t, "re:", 3)) {
			t += 3;
			continue;
		}
		break;
	}
	ret = xstrdup(t);
	free(s);
	return ret;
}

char *patch_message_subject(const char *msg, size_t len)
{
	const char *p = msg, *end = msg + len;
	struct sbuf hdr = SBUF_INIT;
	char *subject = NULL;

	while (patch_header_next(&p, end, &hdr)) {
		char *v = patch_header_value(&hdr, "Subject");

		if (!v)
			continue;
		free(subject);
		subject = patch_subject(v);
		free(v);
	}
	sbuf_release(&hdr);
	return subject;
}

bool patch_find_diff(const char *p, const char *end, const char **dstart,
		     const char **dend)
{
	const char *q, *sig = NULL;

	*dstart = NULL;
	for (q = p; q < end; q += patch_line_len(q, end)) {
		const char *next = q + patch_line_len(q, end);

		if (patch_starts(q, end, "diff --git ") ||
		    (patch_starts(q, end, "--- ") && next < end &&
		     patch_starts(next, end, "+++ "))) {
			*dstart = q;
			break;
		}
	}
	if (!*dstart)
		return false;
	*dend = end;
	/* the last "-- " line, if only a short signature follows it */
	for (q = *dstart; q < end; q += patch_line_len(q, end))
		if (patch_starts(q, end, "-- \n") || patch_starts(q, end, "-- \r\n"))
			sig = q;
	if (sig) {
		const char *r = sig + patch_line_len(sig, end);
		int lines = 0;
		bool plain = true;

		for (; r < end; r += patch_line_len(r, end)) {
			if (patch_line_len(r, end) <= 1)
				continue;
			lines++;
			if (strchr(" +-@\\", *r) || patch_starts(r, end, "diff "))
				plain = false;
		}
		if (plain && lines <= 2)
			*dend = sig;
	}
	return true;
}

/* Whether the line at @p is "@key: @value" (any case, blanks around). */
static bool is_trailer_line(const char *p, size_t n, const char *key,
			    const char *value)
{
	size_t k = strlen(key);
	char *v;
	bool same;

	if (n <= k || strncasecmp(p, key, k) || p[k] != ':')
		return false;
	v = trim_dup(p + k + 1, n - k - 1);
	same = !strcmp(v, value);
	free(v);
	return same;
}

char *patch_trailer(const char *message, const char *key, const char **line,
		    size_t *line_len)
{
	git_message_trailer_array arr = { 0 };
	const char *value = NULL, *p, *end = message + strlen(message);
	char *ret;
	size_t i;

	if (line) {
		*line = NULL;
		*line_len = 0;
	}
	if (git_message_trailers(&arr, message) < 0)
		return NULL;
	for (i = 0; i < arr.count; i++)
		if (!strcasecmp(arr.trailers[i].key, key))
			value = arr.trailers[i].value;
	if (!value) {
		git_message_trailer_array_free(&arr);
		return NULL;
	}
	ret = trim_dup(value, strlen(value));
	git_message_trailer_array_free(&arr);
	/* the trailer block is the last paragraph: its last such line */
	for (p = message; line && p < end; p += patch_line_len(p, end)) {
		size_t n = patch_line_len(p, end);

		if (is_trailer_line(p, chomp(p, n), key, ret)) {
			*line = p;
			*line_len = n;
		}
	}
	return ret;
}
