// SPDX-License-Identifier: GPL-2.0
/*
 * patch.c - mbox splitting, headers, subjects, the diff of a message and
 * trailers (the rules are in patch.h).
 */
#define _GNU_SOURCE
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

/* git format-patch's "From <40 hex> Mon Sep 17 00:00:00 2001". */
static bool format_patch_from(const char *p, const char *end)
{
	int i;

	if (end - p < 46)
		return false;
	for (i = 5; i < 45; i++)
		if (!p[i] || !strchr("0123456789abcdef", p[i]))
			return false;
	return p[45] == ' ';
}

static bool digits(const char *p, const char *end, int n)
{
	for (; n > 0; n--, p++)
		if (p >= end || *p < '0' || *p > '9')
			return false;
	return true;
}

/*
 * An mbox separator of another mailer: "From SENDER DATE", the date as
 * ctime() writes it ("Thu Jan  1 00:00:00 1970", lore's and b4's), maybe
 * with a zone after the year ("... 1970 +0000"): a sender, and the line
 * ending in "H:MM:SS YEAR".  A line of a commit message that starts
 * "From " has no such tail.
 */
static bool mbox_from(const char *p, const char *end)
{
	const char *e = p + patch_line_chomp(p, end), *t;

	while (e > p + 5 && (e[-1] == '\r' || e[-1] == ' '))
		e--;
	if (e - p < 5 + 2 + 13 || p[5] == ' ')
		return false;	/* no sender, or no room for a time and year */
	if ((e[-5] == '+' || e[-5] == '-') && e[-6] == ' ' && digits(e - 4, e, 4))
		e -= 6;		/* a zone after the year */
	if (e - p < 5 + 2 + 13)
		return false;
	/* " H:MM:SS YYYY" or " HH:MM:SS YYYY" at the end */
	t = e - 13;
	if (!digits(e - 4, e, 4) || (e[-4] != '1' && e[-4] != '2') ||
	    e[-5] != ' ' || !digits(t + 6, e, 2) || t[5] != ':' ||
	    !digits(t + 3, e, 2) || t[2] != ':' || !digits(t + 1, e, 1))
		return false;
	if (t[0] != ' ' && !(digits(t, e, 1) && t[-1] == ' '))
		return false;
	/* a sender: a word between "From " and the date */
	return memchr(p + 5, ' ', (size_t)(t - (p + 5))) != NULL;
}

bool patch_is_from_line(const char *p, const char *end)
{
	if (!patch_starts(p, end, "From "))
		return false;
	return format_patch_from(p, end) || mbox_from(p, end);
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

size_t patch_line_chomp(const char *p, const char *end)
{
	return chomp(p, patch_line_len(p, end));
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

char *patch_trim_dup(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return xstrndup(s, len);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/*
 * b64_feed - add the base64 digit @v (0..63) to the bits of @acc and
 * @bits; true with the next decoded byte in *@byte once there is one.
 */
static bool b64_feed(unsigned int *acc, int *bits, int v, unsigned char *byte)
{
	*acc = (*acc << 6 | (unsigned int)v) & 0xffffff;
	*bits += 6;
	if (*bits < 8)
		return false;
	*bits -= 8;
	*byte = (unsigned char)(*acc >> *bits);
	return true;
}

/* One byte of text in @charset (utf-8 or latin-1) appended as UTF-8. */
static void add_byte(struct sbuf *out, unsigned char c, bool latin1)
{
	if (latin1 && c >= 0x80) {
		sbuf_addch(out, (char)(0xc0 | c >> 6));
		sbuf_addch(out, (char)(0x80 | (c & 0x3f)));
	} else {
		sbuf_addch(out, (char)c);
	}
}

/*
 * encoded_word - decode the RFC 2047 encoded word "=?CHARSET?B|Q?TEXT?="
 * at @s into @out; its length, or 0 when it is none or in a charset other
 * than UTF-8, US-ASCII or ISO-8859-1 (then it stays as it is).
 */
static size_t encoded_word(struct sbuf *out, const char *s)
{
	const char *cs = s + 2, *q1, *q2, *end, *t;
	size_t csl, start = out->len;
	bool latin1, b;
	unsigned int acc = 0;
	int bits = 0;

	if (strncmp(s, "=?", 2) || !(q1 = strchr(cs, '?')) || !q1[1] ||
	    q1[2] != '?' || !(end = strstr(q1 + 3, "?=")))
		return 0;
	q2 = q1 + 2;
	csl = (size_t)(q1 - cs);
	if (memchr(cs, '*', csl))	/* RFC 2231 language: charset first */
		csl = (size_t)((const char *)memchr(cs, '*', csl) - cs);
	latin1 = (csl == 10 && !strncasecmp(cs, "iso-8859-1", 10)) ||
		 (csl == 6 && !strncasecmp(cs, "latin1", 6));
	if (!latin1 && !(csl == 5 && !strncasecmp(cs, "utf-8", 5)) &&
	    !(csl == 8 && !strncasecmp(cs, "us-ascii", 8)))
		return 0;
	b = tolower((unsigned char)q1[1]) == 'b';
	if (!b && tolower((unsigned char)q1[1]) != 'q')
		return 0;
	for (t = q2 + 1; t < end; t++) {
		if (b) {
			int v = b64val((unsigned char)*t);
			unsigned char c;

			/* v < 0: '=' padding */
			if (v >= 0 && b64_feed(&acc, &bits, v, &c))
				add_byte(out, c, latin1);
		} else if (*t == '_') {
			sbuf_addch(out, ' ');
		} else if (*t == '=' && t + 2 < end && hexval(t[1]) >= 0 &&
			   hexval(t[2]) >= 0) {
			add_byte(out, (unsigned char)(hexval(t[1]) << 4 | hexval(t[2])),
				 latin1);
			t += 2;
		} else {
			add_byte(out, (unsigned char)*t, latin1);
		}
	}
	if (out->len > start && memchr(out->buf + start, '\0', out->len - start)) {
		out->len = start;	/* a NUL inside: not decoded */
		out->buf[start] = '\0';
		return 0;
	}
	return (size_t)(end + 2 - s);
}

char *patch_header_decode(const char *v)
{
	struct sbuf out = SBUF_INIT;
	const char *p = v;

	while (*p) {
		size_t n = encoded_word(&out, p);

		if (!n) {
			sbuf_addch(&out, *p++);
			continue;
		}
		p += n;
		/* white space between two encoded words is dropped (6.2) */
		for (;;) {
			const char *q = p;

			while (*q == ' ' || *q == '\t')
				q++;
			if (q == p || !(n = encoded_word(&out, q)))
				break;
			p = q + n;
		}
	}
	return sbuf_detach(&out);
}

char *patch_header_value(const struct sbuf *hdr, const char *key)
{
	size_t n = strlen(key);
	char *v, *d;

	if (hdr->len <= n || strncasecmp(hdr->buf, key, n) || hdr->buf[n] != ':')
		return NULL;
	v = patch_trim_dup(hdr->buf + n + 1, hdr->len - n - 1);
	if (!strstr(v, "=?"))
		return v;
	d = patch_header_decode(v);
	free(v);
	return d;
}

/* Quoted-printable @p..@end into @out: "=XX" a byte, "=" at a line end none. */
static void qp_decode(struct sbuf *out, const char *p, const char *end)
{
	while (p < end) {
		const char *q = p + 1;

		if (*p != '=') {
			sbuf_addch(out, *p++);
			continue;
		}
		if (q + 1 < end && hexval((unsigned char)q[0]) >= 0 &&
		    hexval((unsigned char)q[1]) >= 0) {
			sbuf_addch(out, (char)(hexval((unsigned char)q[0]) << 4 |
					       hexval((unsigned char)q[1])));
			p = q + 2;
			continue;
		}
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q < end && *q == '\r')
			q++;
		if (q == end || *q == '\n') {
			p = q < end ? q + 1 : q;	/* a soft line break */
			continue;
		}
		sbuf_addch(out, *p++);
	}
}

/*
 * Base64 @p..@end into @out; other bytes (line breaks) skipped.  A '='
 * ends a quantum, its left-over bits dropped: a body some mailer encoded
 * a line at a time, each padded, reads as git am reads it.
 */
static void b64_decode(struct sbuf *out, const char *p, const char *end)
{
	unsigned int acc = 0;
	int bits = 0;

	for (; p < end; p++) {
		int v = b64val((unsigned char)*p);
		unsigned char c;

		if (*p == '=')
			bits = 0;
		if (v >= 0 && b64_feed(&acc, &bits, v, &c))
			sbuf_addch(out, (char)c);
	}
}

/*
 * The parameter @name of the header value @v ("boundary" of a
 * Content-Type), its quotes removed, or NULL.  Caller frees.
 */
static char *header_param(const char *v, const char *name)
{
	size_t n = strlen(name);
	const char *p = strchr(v, ';'), *q;

	while (p) {
		for (p++; isspace((unsigned char)*p); p++)
			;
		if (!strncasecmp(p, name, n) && p[n] == '=') {
			p += n + 1;
			if (*p == '"') {
				q = strchr(++p, '"');
				return q ? xstrndup(p, (size_t)(q - p)) : NULL;
			}
			for (q = p; *q && *q != ';' && !isspace((unsigned char)*q); q++)
				;
			return q > p ? xstrndup(p, (size_t)(q - p)) : NULL;
		}
		p = strchr(p, ';');
	}
	return NULL;
}

/* An RFC 2231 value after its "charset'language'" prefix, if it has one. */
static const char *rfc2231_text(const char *v)
{
	const char *q = strchr(v, '\'');

	q = q ? strchr(q + 1, '\'') : NULL;
	return q ? q + 1 : v;
}

/*
 * The parameter @name of the header value @v, plain or in RFC 2231's form,
 * as long file names are sent: "name*=utf-8''a.patch", or continued,
 * "name*0*=utf-8''a-; name*1=b.patch", the pieces joined in their order
 * (percent escapes kept: only the name's end is read).  NULL if none.
 */
static char *header_param_any(const char *v, const char *name)
{
	struct sbuf sb = SBUF_INIT;
	char *key, *piece = header_param(v, name);
	unsigned int k;

	if (piece)
		return piece;
	key = xasprintf("%s*", name);
	piece = header_param(v, key);
	free(key);
	if (piece) {
		sbuf_addstr(&sb, rfc2231_text(piece));
		free(piece);
		return sbuf_detach(&sb);
	}
	for (k = 0; k <= 65; k++) {	/* at most 66 pieces */
		bool ext = true;	/* "name*K*=": only the first has a prefix */

		key = xasprintf("%s*%u*", name, k);
		piece = header_param(v, key);
		free(key);
		if (!piece) {
			ext = false;
			key = xasprintf("%s*%u", name, k);
			piece = header_param(v, key);
			free(key);
		}
		if (!piece)
			break;
		sbuf_addstr(&sb, ext && !k ? rfc2231_text(piece) : piece);
		free(piece);
	}
	if (!sb.len) {
		sbuf_release(&sb);
		return NULL;
	}
	return sbuf_detach(&sb);
}

/* The headers of a MIME entity that decide what its body is. */
struct mime_head {
	char *type;		/* Content-Type, NULL: text/plain */
	char *disp;		/* Content-Disposition */
	bool qp, b64;
};

/* Read the headers from *@p on, leaving *@p at the body. */
static void mime_head_read(struct mime_head *h, const char **p,
			   const char *end)
{
	struct sbuf hdr = SBUF_INIT;
	char *v;

	memset(h, 0, sizeof(*h));
	while (patch_header_next(p, end, &hdr)) {
		if ((v = patch_header_value(&hdr, "Content-Transfer-Encoding"))) {
			h->qp = !strcasecmp(v, "quoted-printable");
			h->b64 = !strcasecmp(v, "base64");
			free(v);
		} else if ((v = patch_header_value(&hdr, "Content-Type"))) {
			free(h->type);
			h->type = v;
		} else if ((v = patch_header_value(&hdr, "Content-Disposition"))) {
			free(h->disp);
			h->disp = v;
		}
	}
	sbuf_release(&hdr);
}

static void mime_head_release(struct mime_head *h)
{
	free(h->type);
	free(h->disp);
}

static bool type_is(const char *type, const char *what)
{
	size_t n = strlen(what);

	return type && !strncasecmp(type, what, n) &&
	       (!type[n] || type[n] == ';' || isspace((unsigned char)type[n]) ||
		what[n - 1] == '/');
}

/* The boundary of a multipart (not empty), or NULL.  Caller frees. */
static char *mime_boundary(const struct mime_head *h)
{
	char *b = type_is(h->type, "multipart/") ?
		  header_param(h->type, "boundary") : NULL;

	if (b && !*b) {
		free(b);
		b = NULL;
	}
	return b;
}

/* Does the file name @name end in .patch or .diff? */
static bool patch_name(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return (n > 6 && !strcasecmp(name + n - 6, ".patch")) ||
	       (n > 5 && !strcasecmp(name + n - 5, ".diff"));
}

/*
 * Is a part with these headers text a patch may be in, as git am takes
 * it: text/plain (the default) and the patch types, an attachment named
 * *.patch or *.diff whatever its type; not HTML, signatures or images.
 */
static bool mime_text(const struct mime_head *h)
{
	char *name;
	bool named;

	if (!h->type || type_is(h->type, "text/plain") ||
	    type_is(h->type, "text/x-patch") || type_is(h->type, "text/x-diff") ||
	    type_is(h->type, "text/x-c"))
		return true;
	name = h->disp ? header_param_any(h->disp, "filename") : NULL;
	if (!name)
		name = header_param_any(h->type, "name");
	named = patch_name(name);
	free(name);
	return named;
}

/* The body @p..@end in its transfer encoding @h into @out. */
static void mime_body(struct sbuf *out, const struct mime_head *h,
		      const char *p, const char *end)
{
	if (h->qp)
		qp_decode(out, p, end);
	else if (h->b64)
		b64_decode(out, p, end);
	else
		sbuf_add(out, p, (size_t)(end - p));
	if (out->len && out->buf[out->len - 1] != '\n')
		sbuf_addch(out, '\n');
}

/* Is the line @p (@n bytes, its newline included) "--@b" or "--@b--"? */
static bool mime_delimiter(const char *p, size_t n, const char *b, size_t bn,
			   bool *close)
{
	n = chomp(p, n);
	if (n < bn + 2 || p[0] != '-' || p[1] != '-' || memcmp(p + 2, b, bn))
		return false;
	p += bn + 2;
	n -= bn + 2;
	*close = n >= 2 && p[0] == '-' && p[1] == '-';
	if (*close) {
		p += 2;
		n -= 2;
	}
	while (n && (*p == ' ' || *p == '\t' || *p == '\r')) {
		p++;
		n--;
	}
	return !n;
}

#define MIME_DEPTH 4

static void mime_parts(struct sbuf *out, const char *p, const char *end,
		       const char *b, int depth);

/*
 * The MIME entity @p..@end (its headers, then its body) at @depth into
 * @out: a multipart's text parts, the entity of a message/rfc822 (a mail
 * forwarded as an attachment, its headers left out), or a text part
 * decoded; nothing for any other part.
 */
static void mime_entity(struct sbuf *out, const char *p, const char *end,
			int depth)
{
	struct mime_head h;
	char *nb;

	mime_head_read(&h, &p, end);
	if (type_is(h.type, "multipart/")) {
		nb = mime_boundary(&h);
		if (nb && depth < MIME_DEPTH)
			mime_parts(out, p, end, nb, depth + 1);
		free(nb);
	} else if (type_is(h.type, "message/rfc822")) {
		struct sbuf msg = SBUF_INIT;

		/* some mailers encode it, though RFC 2046 says not to */
		if (h.qp || h.b64) {
			mime_body(&msg, &h, p, end);
			p = end;	/* nothing decoded: nothing to read */
			if (msg.len) {
				p = msg.buf;
				end = msg.buf + msg.len;
			}
		}
		if (p < end && depth < MIME_DEPTH)
			mime_entity(out, p, end, depth + 1);
		sbuf_release(&msg);
	} else if (mime_text(&h)) {
		mime_body(out, &h, p, end);
	}
	mime_head_release(&h);
}

/*
 * The text parts of the multipart body @p..@end (boundary @b), each
 * decoded, into @out in their order; nested multiparts (an alternative
 * inside a mixed one) and forwarded messages up to MIME_DEPTH.  A last
 * part without the closing delimiter ends at @end, as git am reads it.
 */
static void mime_parts(struct sbuf *out, const char *p, const char *end,
		       const char *b, int depth)
{
	size_t bn = strlen(b);
	const char *part = NULL;
	bool close = false;

	while (p < end && !close) {
		size_t n = patch_line_len(p, end);

		if (!mime_delimiter(p, n, b, bn, &close)) {
			p += n;
			continue;
		}
		if (part) {
			/* the line break before the delimiter is the delimiter's */
			const char *pend = p;

			if (pend > part && pend[-1] == '\n')
				pend--;
			if (pend > part && pend[-1] == '\r')
				pend--;
			mime_entity(out, part, pend, depth);
		}
		p += n;
		part = p;
	}
	if (part && !close && part < end)
		mime_entity(out, part, end, depth);
}

char *patch_body_decode(const char *msg, size_t len, size_t *outlen)
{
	const char *p = msg, *end = msg + len;
	struct sbuf out = SBUF_INIT;
	struct mime_head h;
	char *b;

	mime_head_read(&h, &p, end);
	b = mime_boundary(&h);
	if (!b && !h.qp && !h.b64) {
		mime_head_release(&h);
		return NULL;
	}
	sbuf_add(&out, msg, (size_t)(p - msg));
	if (b)
		mime_parts(&out, p, end, b, 1);
	else if (h.qp)
		qp_decode(&out, p, end);
	else
		b64_decode(&out, p, end);
	free(b);
	mime_head_release(&h);
	*outlen = out.len;
	return sbuf_detach(&out);
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
		if (!subject)	/* the first Subject: header counts, as before */
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
	v = patch_trim_dup(p + k + 1, n - k - 1);
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
	if (git_message_trailers(&arr, message) < 0) {
		git_message_trailer_array_free(&arr);
		return NULL;
	}
	for (i = 0; i < arr.count; i++)
		if (!strcasecmp(arr.trailers[i].key, key))
			value = arr.trailers[i].value;
	if (!value) {
		git_message_trailer_array_free(&arr);
		return NULL;
	}
	ret = patch_trim_dup(value, strlen(value));
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

int patch_trailer_values(const char *message, const char *key, char ***out,
			 size_t *n)
{
	git_message_trailer_array arr = { 0 };
	size_t i;

	*out = NULL;
	*n = 0;
	if (git_message_trailers(&arr, message) < 0) {
		git_message_trailer_array_free(&arr);
		return KMIG_EGENERIC;
	}
	for (i = 0; i < arr.count; i++) {
		const char *v = arr.trailers[i].value;

		if (strcasecmp(arr.trailers[i].key, key))
			continue;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = patch_trim_dup(v, strlen(v));
	}
	git_message_trailer_array_free(&arr);
	return 0;
}

/* ---- unified diffs ---- */

/* The lines a file's header holds after its "diff --git" line. */
static const char *const header_lines[] = {
	"--- ", "+++ ", "new file mode ", "deleted file mode ", "rename ",
	"copy ", "Binary files ", "GIT binary patch", "index ", "old mode ",
	"new mode ", "similarity index ", "dissimilarity index ", NULL
};

/* The length of the file header at @p: "diff --git" and header lines. */
static size_t header_extent(const char *p, const char *end)
{
	const char *q = p + patch_line_len(p, end);
	size_t i;

	while (q < end) {
		for (i = 0; header_lines[i]; i++)
			if (patch_starts(q, end, header_lines[i]))
				break;
		if (!header_lines[i])
			break;
		q += patch_line_len(q, end);
	}
	return (size_t)(q - p);
}

/*
 * Whether the header (@hlen bytes at @p) repeats a rename, copy or
 * similarity line.  libgit2 1.5 leaks the first path of a repeated
 * rename block, and git never writes one: such a header is refused
 * before libgit2 sees it.
 */
static bool header_repeats(const char *p, size_t hlen)
{
	static const char *const once[] = {
		"rename from ", "rename to ", "copy from ", "copy to ",
		"similarity index ", "dissimilarity index ",
	};
	const char *end = p + hlen;
	unsigned int seen = 0;
	size_t i;

	for (; p < end; p += patch_line_len(p, end))
		for (i = 0; i < ARRAY_SIZE(once); i++) {
			if (!patch_starts(p, end, once[i]))
				continue;
			if (seen & (1u << i))
				return true;
			seen |= 1u << i;
		}
	return false;
}

/*
 * The length, after the backslash at @q (before @eol), of an escape git
 * writes in a C-quoted path: 1 for \" \\ \a \b \f \n \r \t \v, 3 for three
 * octal digits, the first at most 3, other than \000 (a NUL, which no path
 * holds); 0 for anything else.
 */
static size_t quoted_escape(const char *q, const char *eol)
{
	if (q + 1 >= eol)
		return 0;
	if (q[1] && strchr("\"\\abfnrtv", q[1]))
		return 1;
	if (q + 3 < eol && q[1] >= '0' && q[1] <= '3' &&
	    q[2] >= '0' && q[2] <= '7' && q[3] >= '0' && q[3] <= '7' &&
	    (q[1] != '0' || q[2] != '0' || q[3] != '0'))
		return 3;
	return 0;
}

char *patch_without_crs(const char *p, size_t *len)
{
	const char *end = p + *len, *nl = memchr(p, '\n', *len);
	char *out, *o;

	if (!nl || nl == p || nl[-1] != '\r')
		return NULL;
	o = out = xmalloc(*len + 1);
	for (; p < end; p++)
		if (*p != '\r' || p + 1 == end || p[1] != '\n')
			*o++ = *p;
	*o = '\0';
	*len = (size_t)(o - out);
	return out;
}

char *patch_path_dup(const char *s, size_t len)
{
	static const char esc_in[] = "\"\\abfnrtv";
	static const char esc_out[] = "\"\\\a\b\f\n\r\t\v";
	char *path = patch_trim_dup(s, len), *out;
	const char *q, *eol = path + strlen(path);
	size_t n = 0, esc;

	if (path[0] != '"')
		return path;
	out = xmalloc(strlen(path));
	for (q = path + 1; q < eol && *q != '"'; q++) {
		if (*q != '\\') {
			out[n++] = *q;
			continue;
		}
		esc = quoted_escape(q, eol);
		if (!esc)
			goto as_written;
		if (esc == 1)
			out[n++] = esc_out[strchr(esc_in, q[1]) - esc_in];
		else
			out[n++] = (char)((q[1] - '0') * 64 + (q[2] - '0') * 8 +
					  (q[3] - '0'));
		q += esc;
	}
	if (q >= eol || q + 1 != eol || !n)
		goto as_written;
	out[n] = '\0';
	free(path);
	return out;
as_written:
	free(out);
	return path;
}

/*
 * Whether a path line of the header (@hlen bytes at @p) opens a C-quoted
 * path it never closes, quotes an empty path, or holds an escape git does
 * not write.  libgit2 1.5 leaks its path buffer on such a rename or copy
 * line (found by fuzz-patch), and git never writes one.
 */
static bool header_unquoted(const char *p, size_t hlen)
{
	static const char *const paths[] = {
		"rename from ", "rename to ", "copy from ", "copy to ",
		"--- ", "+++ ",
	};
	const char *end = p + hlen;
	size_t i;

	for (; p < end; p += patch_line_len(p, end))
		for (i = 0; i < ARRAY_SIZE(paths); i++) {
			const char *q = p + strlen(paths[i]);
			const char *eol = p + patch_line_chomp(p, end);
			const char *open;
			size_t esc;

			if (!patch_starts(p, end, paths[i]) || q >= eol ||
			    *q != '"')
				continue;
			for (open = q++; q < eol && *q != '"'; q++) {
				if (*q != '\\')
					continue;
				esc = quoted_escape(q, eol);
				if (!esc)
					return true;
				q += esc;
			}
			if (q >= eol || q == open + 1)
				return true;
		}
	return false;
}

/* The next "diff --git " line after the one at @p, or @end. */
static const char *next_file(const char *p, const char *end)
{
	for (p += patch_line_len(p, end); p < end &&
	     !patch_starts(p, end, "diff --git "); p += patch_line_len(p, end))
		;
	return p;
}

void patch_files_free(struct patch_file *files, size_t nfiles)
{
	size_t i;

	for (i = 0; i < nfiles; i++) {
		free(files[i].old_path);
		free(files[i].new_path);
		free(files[i].old_mode);
		free(files[i].new_mode);
		free(files[i].hunks);
	}
	free(files);
}

/*
 * The path a file's header names, for the message about a file libgit2
 * could not read (so read here): the "+++ " path, else the "--- " path,
 * else "?".
 */
static char *header_path(const char *chunk, size_t hlen)
{
	const char *p, *end = chunk + hlen, *path = NULL, *tab;
	size_t n = 0;

	for (p = chunk; p < end; p += patch_line_len(p, end)) {
		bool plus = patch_starts(p, end, "+++ ");

		if ((!plus && !patch_starts(p, end, "--- ")) ||
		    patch_starts(p + 4, end, "/dev/null") || (path && !plus))
			continue;
		path = p + 4;
		/* up to a tab or the line's end, within the chunk */
		n = patch_line_chomp(path, end);
		tab = memchr(path, '\t', n);
		if (tab)
			n = (size_t)(tab - path);
		if (n > 2 && (path[0] == 'a' || path[0] == 'b') && path[1] == '/') {
			path += 2;
			n -= 2;
		}
	}
	return path ? xstrndup(path, n) : xstrdup("?");
}

/* libgit2 does not read the file at @chunk: say why as kmig always did. */
static int chunk_error(const char *chunk, size_t clen)
{
	const git_error *e = git_error_last();
	const char *msg = e && e->message ? e->message : "malformed diff";
	const char *at = strstr(msg, "at line "), *p = chunk, *end = chunk + clen;
	long line = at ? strtol(at + 8, NULL, 10) : 0;
	char *path;
	int ret;

	if (strstr(msg, "hunk header")) {
		while (--line > 0 && p < end)
			p += patch_line_len(p, end);
		if (!at || p >= end)	/* no line number: the first hunk */
			for (p = chunk; p < end && !patch_starts(p, end, "@@ ");
			     p += patch_line_len(p, end))
				;
		line = (long)chomp(p, p < end ? patch_line_len(p, end) : 0);
		return kmig_err("malformed hunk header '%.*s'",
				(int)(line > 60 ? 60 : line), p);
	}
	if (!strstr(msg, "hunk") && !strstr(msg, "instruction"))
		return kmig_err("cannot parse the diff: %s", msg);
	path = header_path(chunk, header_extent(chunk, end));
	ret = kmig_err("truncated hunk in '%s'", path);
	free(path);
	return ret;
}

static bool is_eofnl(char origin)
{
	return origin == GIT_DIFF_LINE_CONTEXT_EOFNL ||
	       origin == GIT_DIFF_LINE_ADD_EOFNL ||
	       origin == GIT_DIFF_LINE_DEL_EOFNL;
}

/* Hunk @h of @patch, read from @chunk, into @out. */
static int read_hunk(struct patch_hunk *out, git_patch *patch, size_t h,
		     const char *chunk)
{
	const git_diff_hunk *hunk;
	const git_diff_line *first, *last;
	const char *start;
	size_t nlines;
	bool bare;	/* the last line has no prefix */

	if (git_patch_get_hunk(&hunk, &nlines, patch, h) < 0 || !nlines ||
	    git_patch_get_line_in_hunk(&first, patch, h, 0) < 0 ||
	    git_patch_get_line_in_hunk(&last, patch, h, nlines - 1) < 0 ||
	    first->content_offset < 1 || last->content_offset < 1)
		return kmig_err_git("cannot read a hunk");
	/* the "@@" line is the line before the first line of the hunk */
	start = chunk + first->content_offset - 1;
	while (start > chunk && start[-1] != '\n')
		start--;
	out->text = start;
	/*
	 * A line's content follows its one-character prefix, except for an
	 * empty line read as context (git apply takes it so too), which has
	 * no prefix: its content is its newline.
	 */
	bare = is_eofnl(last->origin) ||
	       (last->content_len == 1 && chunk[last->content_offset] == '\n');
	out->len = (size_t)(chunk + last->content_offset + last->content_len +
			    (bare ? 0 : 1) - start);
	out->old_start = (unsigned long)hunk->old_start;
	out->old_lines = (unsigned long)hunk->old_lines;
	out->new_start = (unsigned long)hunk->new_start;
	out->new_lines = (unsigned long)hunk->new_lines;
	return 0;
}

/*
 * Whether the header (@hlen bytes at @chunk) names an absolute path
 * ("a//x", "+++ /x"): libgit2 drops the leading '/', so "/x" and "x"
 * would be the same file, and git apply refuses such a patch.
 */
static bool absolute_in_header(const char *chunk, size_t hlen)
{
	const char *p, *end = chunk + hlen;
	size_t n = patch_line_chomp(chunk, end);

	if (memmem(chunk, n, " a//", 4) || memmem(chunk, n, " b//", 4))
		return true;
	for (p = chunk + patch_line_len(chunk, end); p < end;
	     p += patch_line_len(p, end)) {
		if (!patch_starts(p, end, "--- ") && !patch_starts(p, end, "+++ "))
			continue;
		if (patch_starts(p + 4, end, "a//") || patch_starts(p + 4, end, "b//") ||
		    (p + 4 < end && p[4] == '/' &&
		     !patch_starts(p + 4, end, "/dev/null")))
			return true;
	}
	return false;
}

/* @path as the patch names it: absolute when the header says so. */
static char *file_path(const char *path, bool absolute)
{
	return absolute ? xasprintf("/%s", path) : xstrdup(path);
}

/*
 * The end of a binary file's patch whose header (@hlen bytes at @chunk,
 * up to @end) ends with git's "GIT binary patch" line: its two blocks,
 * each "literal N" or "delta N", base85 lines and an empty line.  The
 * header's end for any other file.
 */
static size_t binary_end(const char *chunk, size_t hlen, const char *end)
{
	static const char mark[] = "\nGIT binary patch\n";
	const char *p = chunk + hlen;
	int blocks;

	if ((size_t)(p - chunk) < sizeof(mark) - 1 ||
	    memcmp(p - (sizeof(mark) - 1), mark, sizeof(mark) - 1))
		return hlen;
	for (blocks = 0; blocks < 2 && p < end; blocks++) {
		if (!patch_starts(p, end, "literal ") && !patch_starts(p, end, "delta "))
			break;
		do
			p += patch_line_len(p, end);
		while (p < end && patch_line_chomp(p, end));
		if (p < end)	/* the empty line */
			p += patch_line_len(p, end);
	}
	return (size_t)(p - chunk);
}

/*
 * The file at @chunk (@clen bytes, up to the next file) into @f; *@used
 * receives the length of its header and hunks.
 */
static int read_file(struct patch_file *f, const char *chunk, size_t clen,
		     size_t *used)
{
	git_diff *diff = NULL;
	git_patch *patch = NULL;
	const git_diff_delta *d;
	size_t h, n;
	bool abs;
	int ret = 0;

	memset(f, 0, sizeof(*f));
	h = header_extent(chunk, chunk + clen);
	if (header_repeats(chunk, h) || header_unquoted(chunk, h) ||
	    memchr(chunk, '\0', h))
		return kmig_err("malformed file header '%.*s'",
				(int)patch_line_chomp(chunk, chunk + clen), chunk);
	if (git_diff_from_buffer(&diff, chunk, clen) < 0)
		return chunk_error(chunk, clen);
	if (!git_diff_num_deltas(diff) || git_patch_from_diff(&patch, diff, 0) < 0) {
		ret = kmig_err_git("cannot read the diff");
		goto out_free_diff;
	}
	d = git_patch_get_delta(patch);
	f->header = chunk;
	f->header_len = header_extent(chunk, chunk + clen);
	f->special = d->status == GIT_DELTA_RENAMED ||
		     d->status == GIT_DELTA_COPIED ||
		     (d->flags & GIT_DIFF_FLAG_BINARY);
	abs = absolute_in_header(chunk, f->header_len);
	if (d->status != GIT_DELTA_ADDED)
		f->old_path = file_path(d->old_file.path, abs);
	if (d->status != GIT_DELTA_DELETED)
		f->new_path = file_path(d->new_file.path, abs);
	if (d->status == GIT_DELTA_ADDED)
		f->new_mode = xasprintf("%06o", (unsigned int)d->new_file.mode);
	if (d->status == GIT_DELTA_DELETED)
		f->old_mode = xasprintf("%06o", (unsigned int)d->old_file.mode);
	/*
	 * A binary file's data (libgit2 does not flag one read from text)
	 * belongs to its header: patch_file_text() writes it whole.
	 */
	*used = binary_end(chunk, f->header_len, chunk + clen);
	if (*used > f->header_len) {
		f->header_len = *used;
		f->special = true;
	}
	n = git_patch_num_hunks(patch);
	for (h = 0; h < n && !ret; h++) {
		ALLOC_GROW(f->hunks, f->nhunks + 1, f->ahunks);
		ret = read_hunk(&f->hunks[f->nhunks], patch, h, chunk);
		if (!ret)
			*used = (size_t)(f->hunks[f->nhunks].text +
					 f->hunks[f->nhunks].len - chunk);
		f->nhunks++;
	}
	git_patch_free(patch);
out_free_diff:
	git_diff_free(diff);
	return ret;
}

int diff_parse(struct patch_file **files, size_t *nfiles, size_t *afiles,
	       const char *diff, size_t len, size_t *end)
{
	const char *p = diff, *e = diff + len;
	int ret = 0;

	*end = 0;
	if (!patch_starts(p, e, "diff --git "))
		return kmig_err("no diff found");
	while (p < e && patch_starts(p, e, "diff --git ")) {
		const char *next = next_file(p, e);
		size_t used = 0;

		ALLOC_GROW(*files, *nfiles + 1, *afiles);
		ret = read_file(&(*files)[*nfiles], p, (size_t)(next - p), &used);
		(*nfiles)++;
		if (ret)
			return ret;
		*end = (size_t)(p + used - diff);
		if (p + used != next)
			break;	/* the signature or trailing text */
		p = next;
	}
	return 0;
}

/* ---- the text of one file's patch ---- */

/*
 * "@side/@path" as git writes it in a diff header: C-quoted when the path
 * has a control character, a byte >= 0x80, '"' or '\\' (libgit2 reads
 * back only such a path in its quotes), and also when it begins or ends
 * with a space, which an unquoted "diff --git" line cannot delimit.
 */
static void add_path(struct sbuf *out, const char *side, const char *path)
{
	char *full = xasprintf("%s/%s", side, path);
	size_t n = strlen(path);
	bool edge = n && (path[0] == ' ' || path[n - 1] == ' ');

	sbuf_add_cquoted(out, full, CQUOTE_HIGH | (edge ? CQUOTE_ALWAYS : 0));
	free(full);
}

static void add_path_line(struct sbuf *out, const char *prefix, const char *side,
			  const char *path)
{
	if (!path) {
		sbuf_addf(out, "%s/dev/null\n", prefix);
		return;
	}
	sbuf_addstr(out, prefix);
	add_path(out, side, path);
	sbuf_addch(out, '\n');
}

/*
 * Hunk @h as it is, except that an empty line (a context line whose space
 * a mailer dropped) is written as " \n": libgit2 does not read an empty
 * line as the last byte of a patch, and git writes the space.
 */
static void add_hunk(struct sbuf *out, const struct patch_hunk *h)
{
	const char *p = h->text, *e = h->text + h->len, *run = p;
	size_t n;

	for (p += patch_line_len(p, e); p < e; p += n) {
		n = patch_line_len(p, e);
		if (n != 1 || *p != '\n')
			continue;
		sbuf_add(out, run, (size_t)(p - run));
		sbuf_addstr(out, " \n");
		run = p + 1;
	}
	sbuf_add(out, run, (size_t)(e - run));
}

int patch_file_text(struct sbuf *out, const struct patch_file *f,
		    const bool *pick, bool reverse)
{
	const char *oldp = reverse ? f->new_path : f->old_path;
	const char *newp = reverse ? f->old_path : f->new_path;
	const char *newmode = reverse ? f->old_mode : f->new_mode;
	const char *delmode = reverse ? f->new_mode : f->old_mode;
	size_t i;

	if (f->special) {
		if (reverse)
			return kmig_errcode(KMIG_EUSAGE,
					    "cannot reverse a rename, copy or binary patch");
		sbuf_add(out, f->header, f->header_len);
	} else {
		sbuf_addstr(out, "diff --git ");
		add_path(out, "a", oldp ? oldp : newp);
		sbuf_addch(out, ' ');
		add_path(out, "b", newp ? newp : oldp);
		sbuf_addch(out, '\n');
		if (newmode)
			sbuf_addf(out, "new file mode %s\n", newmode);
		if (delmode)
			sbuf_addf(out, "deleted file mode %s\n", delmode);
		add_path_line(out, "--- ", "a", oldp);
		add_path_line(out, "+++ ", "b", newp);
	}
	for (i = 0; i < f->nhunks; i++) {
		const struct patch_hunk *h = &f->hunks[i];
		const char *p = h->text, *e = h->text + h->len, *ctx;
		size_t n;

		if (pick && !pick[i])
			continue;
		if (!reverse) {
			add_hunk(out, h);
			continue;
		}
		n = patch_line_chomp(p, e);
		ctx = memmem(p + 2, n - 2, "@@", 2);
		sbuf_addf(out, "@@ -%lu,%lu +%lu,%lu @@%.*s\n", h->new_start,
			  h->new_lines, h->old_start, h->old_lines,
			  ctx ? (int)(n - (size_t)(ctx + 2 - p)) : 0,
			  ctx ? ctx + 2 : "");
		for (p += patch_line_len(p, e); p < e; p += patch_line_len(p, e)) {
			n = patch_line_chomp(p, e);
			if (n && (p[0] == '-' || p[0] == '+')) {
				sbuf_addch(out, p[0] == '-' ? '+' : '-');
				sbuf_add(out, p + 1, n - 1);
			} else {
				sbuf_add(out, n ? p : " ", n ? n : 1);
			}
			sbuf_addch(out, '\n');
		}
	}
	return 0;
}
