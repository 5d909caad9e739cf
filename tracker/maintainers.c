// SPDX-License-Identifier: GPL-2.0
/*
 * maintainers.c - parse a MAINTAINERS file and map paths to sections.
 *
 * Parsing follows get_maintainer.pl: a field is a line "X:<blank>value"
 * starting in column 0; blank lines and '#' comment lines are ignored; a
 * section starts with the field that follows a non-field line, which is
 * the section's title (but for "X<blank>value" right after a field: a
 * field whose colon is missing, ignored).  When the file has the usual header, parsing
 * starts after the line beginning "Maintainers List", so the indented
 * examples in the header never count.
 *
 * Matching uses an index instead of trying ~20,000 F: patterns per path.
 * Every F: pattern has an "anchor": the pattern itself when it contains no
 * wildcard (it names a file or a directory), otherwise its literal
 * leading directory, i.e. the components before the first one holding a
 * wildcard ("" when the first component has one, as in "*").  A pattern can only match a path
 * that equals its anchor or lies below it, so for a path we look up the
 * anchors "", each ancestor directory and the path itself in a hash table
 * and test only the patterns found there.  X: patterns are tested only for
 * a section about to become the best candidate, and N: regular expressions
 * only when no F: pattern other than a catch-all matched.
 *
 * After maintainers_parse() nothing is modified, so concurrent
 * maintainers_match() calls are safe (regexec() is thread-safe).
 */
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "maintainers.h"
#include "util.h"

enum {
	PAT_DIR = 1 << 0,	/* written with a trailing '/' */
	PAT_WILD = 1 << 1,	/* contains '*', '?', '[' or '\\' */
	PAT_CATCHALL = 1 << 2,	/* "*", with or without '/' (THE REST) */
};

struct pattern {
	char *core;		/* the pattern without its trailing '/' */
	uint32_t core_len;
	uint32_t len;		/* length of the text as written: the rank */
	uint32_t ncomp;		/* components in core */
	uint32_t anchor_len;	/* core[0..anchor_len) is the index key */
	uint32_t sect;
	uint32_t flags;
};

struct nregex {
	regex_t re;
	char *literal;		/* non-NULL: a plain substring, no regexec */
	uint32_t sect;
};

struct section {
	char *title;
	uint32_t x_first, x_count;	/* into m->xpats */
};

struct bucket {
	const char *key;	/* NULL: empty */
	uint32_t key_len;
	uint32_t hash;
	uint32_t first, count;	/* into m->order */
};

struct maintainers {
	struct section *sects;
	size_t nsects, sects_alloc;
	struct pattern *fpats;
	size_t nfpats, fpats_alloc;
	struct pattern *xpats;
	size_t nxpats, xpats_alloc;
	struct nregex *nres;
	size_t nnres, nres_alloc;
	size_t ignored;		/* malformed lines (maintainers_ignored()) */
	uint32_t *order;	/* F: pattern indices grouped by anchor */
	struct bucket *buckets;
	size_t nbuckets;	/* a power of two, or 0 */
};

/*
 * Match bracket expression at *pp (just after '['), against c.  Returns
 * 1 on match, 0 on mismatch, -1 if the bracket is unterminated (then '['
 * is an ordinary character).  On success *pp points after the ']'.
 */
static int bracket_match(const char **pp, const char *pe, char c)
{
	const char *p = *pp;
	bool neg = false, found = false;

	if (p < pe && (*p == '!' || *p == '^')) {
		neg = true;
		p++;
	}
	if (p < pe && *p == ']') {
		found = c == ']';
		p++;
	}
	while (p < pe && *p != ']') {
		char lo = *p, hi = *p;

		if (p + 2 < pe && p[1] == '-' && p[2] != ']') {
			hi = p[2];
			p += 3;
		} else {
			p++;
		}
		if ((unsigned char)c >= (unsigned char)lo &&
		    (unsigned char)c <= (unsigned char)hi)
			found = true;
	}
	if (p >= pe)
		return -1;
	*pp = p + 1;
	return found != neg && c != '/';
}

/*
 * glob_seg_match - fnmatch(FNM_PATHNAME)-style match of the whole of
 * pattern [p, pe) against the whole of [s, se): '*' and '?' and brackets
 * never match '/'.  Because '/' only matches itself, the '/'s of pattern
 * and string pair up, so one backtracking point (the last '*' in the
 * current component) is enough.
 *
 * Not fnmatch(3), on purpose: it matches a prefix of the path in place
 * (fnmatch needs a NUL-terminated copy per candidate pattern, on the
 * scan's hot path), and its semantics differ from fnmatch's where
 * MAINTAINERS patterns could reach them: an unterminated '[' is a literal
 * here (fnmatch fails), '\' inside brackets is a literal here (fnmatch
 * escapes), "[." "[=" "[:" are not collating or class syntax here, and
 * "\/" matches '/' here (not under FNM_PATHNAME).  The section a file
 * belongs to is persisted by the scan, so it must not change.
 */
static bool glob_seg_match(const char *p, const char *pe,
			   const char *s, const char *se)
{
	const char *star_p = NULL, *star_s = NULL;

	while (s < se) {
		if (p < pe && *p == '*') {
			while (p < pe && *p == '*')
				p++;
			star_p = p;
			star_s = s;
			continue;
		}
		if (p < pe) {
			const char *q = p;
			int r;

			switch (*p) {
			case '?':
				if (*s != '/') {
					p++;
					s++;
					continue;
				}
				break;
			case '[':
				q = p + 1;
				r = bracket_match(&q, pe, *s);
				if (r == 1) {
					p = q;
					s++;
					continue;
				}
				if (r == -1 && *s == '[') {
					p++;
					s++;
					continue;
				}
				break;
			case '\\':
				if (p + 1 < pe)
					q = p + 1;
				/* fall through */
			default:
				if (*q == *s) {
					if (*s == '/')
						star_p = NULL;
					p = q + 1;
					s++;
					continue;
				}
				break;
			}
		}
		/* Mismatch: let the last '*' swallow one more character. */
		if (!star_p || *star_s == '/')
			return false;
		p = star_p;
		s = ++star_s;
	}
	while (p < pe && *p == '*')
		p++;
	return p == pe;
}

/* A path split into components, computed once per maintainers_match(). */
struct path_info {
	const char *s;
	size_t len;
	size_t ncomp;
	const size_t *ends;	/* ends[k]: the end of component k + 1 */
};

/*
 * pattern_match - does @pat match the path @pi?  @anchored: the path is
 * known to start with the pattern's anchor (found through the index).
 */
static bool pattern_match(const struct pattern *pat,
			  const struct path_info *pi, bool anchored)
{
	size_t end, skip = 0;
	bool below;

	if (pat->ncomp > pi->ncomp)
		return false;
	below = pat->ncomp < pi->ncomp;
	/* The path itself: not for "dir/" patterns. */
	if ((pat->flags & PAT_DIR) && !below)
		return false;
	/*
	 * Below: "dir/" patterns always, a literal name as a directory
	 * without '/', wildcards never (get_maintainer.pl adds the '/' only
	 * to names that are directories).
	 */
	if (below && (pat->flags & (PAT_DIR | PAT_WILD)) == PAT_WILD)
		return false;
	end = pi->ends[pat->ncomp - 1];
	if (!(pat->flags & PAT_WILD))
		return anchored || (end == pat->core_len &&
				    !memcmp(pat->core, pi->s, end));
	/* Skip the anchor and its '/': the path has them already. */
	if (anchored && pat->anchor_len)
		skip = pat->anchor_len + 1;
	return glob_seg_match(pat->core + skip, pat->core + pat->core_len,
			      pi->s + skip, pi->s + end);
}

static bool section_excludes(const struct maintainers *m, uint32_t sect,
			     const struct path_info *pi)
{
	const struct section *sc = &m->sects[sect];
	uint32_t i;

	for (i = 0; i < sc->x_count; i++)
		if (pattern_match(&m->xpats[sc->x_first + i], pi, false))
			return true;
	return false;
}

static bool is_wild_char(char c)
{
	return c == '*' || c == '?' || c == '[' || c == '\\';
}

/* pattern_init - fill @pat from the value @v of an F: or X: line. */
static int pattern_init(struct pattern *pat, const char *v, size_t len,
			uint32_t sect)
{
	size_t core_len = len, i, comp_start = 0;
	bool wild = false;

	memset(pat, 0, sizeof(*pat));
	while (core_len && v[core_len - 1] == '/')
		core_len--;
	/* An empty pattern or "/" would match nothing sensible; nor would
	 * one holding a NUL byte, which no path has. */
	if (!core_len || len > UINT32_MAX / 2 || memchr(v, '\0', len))
		return -1;
	pat->core = xstrndup(v, core_len);
	pat->core_len = core_len;
	pat->len = len;
	pat->sect = sect;
	pat->ncomp = 1;
	if (core_len < len)
		pat->flags |= PAT_DIR;
	for (i = 0; i < core_len; i++) {
		if (v[i] == '/') {
			pat->ncomp++;
			if (!wild)
				comp_start = i + 1;
		} else if (is_wild_char(v[i])) {
			wild = true;
		}
	}
	if (wild) {
		pat->flags |= PAT_WILD;
		/* anchor: the components before the first wildcard one */
		pat->anchor_len = comp_start ? comp_start - 1 : 0;
	} else {
		pat->anchor_len = core_len;
	}
	if (core_len == 1 && v[0] == '*')
		pat->flags |= PAT_CATCHALL;
	return 0;
}

/* Is @re free of ERE metacharacters, so a substring search will do? */
static bool regex_is_literal(const char *re)
{
	if (!*re)
		return false;
	for (; *re; re++)
		if (strchr(".[]()*+?{}|^$\\", *re))
			return false;
	return true;
}

/*
 * Would glibc's regcomp() blow up on @re?  It copies the operand of each
 * '+' and of each "{m,n}" (n times), and copies nest: "a++++..." or
 * "((a{99}){99}){99}" takes exponential time and memory.  Bound the
 * product of the copy factors; the real files' N: lines have at most one
 * '+' and no braces.
 */
static bool regex_too_costly(const char *re)
{
	double cost = 1;
	const char *p;

	for (p = re; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '+') {
			cost *= 2;
		} else if (*p == '{') {
			unsigned long n = 0, max = 0;

			for (p++; *p && *p != '}'; p++) {
				if (*p >= '0' && *p <= '9') {
					n = n * 10 + (unsigned long)(*p - '0');
					if (n > 100000)
						n = 100000;
				} else {
					n = 0;
				}
				if (n > max)
					max = n;
			}
			cost *= (double)max + 1;
			if (!*p)
				break;
		}
	}
	return cost > 4096;
}

/*
 * The Perl regex @re (get_maintainer.pl matches N: with Perl) as a POSIX
 * ERE for glibc's regcomp(): "\d" and "\D" become [0-9] and [^0-9]; in a
 * bracket, where POSIX takes a backslash literally, "\d", "\w" and "\s"
 * become 0-9, [:alnum:]_ and [:space:], "\-", "\]", "\^" and "\["
 * collating symbols ("[.-.]"), and any other "\X" plain X ("\bmxc[^\d]"
 * in v7.3.4's MAINTAINERS).  glibc reads \b, \w and \s outside brackets
 * as Perl does; "\<", "\>", "\`" and "\'", its anchors, become the
 * plain characters Perl matches.  Caller frees.
 */
static char *perl_to_posix(const char *re)
{
	struct sbuf sb = SBUF_INIT;
	bool in = false;	/* in a bracket expression */
	const char *p;

	for (p = re; *p; p++) {
		if (*p != '\\' || !p[1]) {
			if (!in && *p == '[') {
				in = true;
				sbuf_addch(&sb, *p);
				/* "[^]..." and "[]...": the ']' is a member */
				if (p[1] == '^')
					sbuf_addch(&sb, *++p);
				if (p[1] == ']')
					sbuf_addch(&sb, *++p);
				continue;
			}
			if (in && *p == '[' && p[1] == ':') {
				const char *e = strstr(p + 2, ":]");

				if (e) {	/* [:alpha:] whole */
					sbuf_add(&sb, p, (size_t)(e + 2 - p));
					p = e + 1;
					continue;
				}
			}
			if (in && *p == ']')
				in = false;
			sbuf_addch(&sb, *p);
			continue;
		}
		p++;
		if (!in) {
			if (*p == 'd') {
				sbuf_addstr(&sb, "[0-9]");
			} else if (*p == 'D') {
				sbuf_addstr(&sb, "[^0-9]");
			} else if (strchr("<>`'", *p)) {
				/* glibc's anchors, Perl's plain characters */
				sbuf_addch(&sb, *p);
			} else {
				sbuf_addch(&sb, '\\');
				sbuf_addch(&sb, *p);
			}
		} else if (*p == 'd') {
			sbuf_addstr(&sb, "0-9");
		} else if (*p == 'w') {
			sbuf_addstr(&sb, "[:alnum:]_");
		} else if (*p == 's') {
			sbuf_addstr(&sb, "[:space:]");
		} else if (strchr("-]^[", *p)) {
			/*
			 * Perl's "\-", "\]", "\^" and "\[" are the character;
			 * plain, POSIX would read a range, the bracket's end,
			 * a negation or a class: a collating symbol is it.
			 */
			sbuf_addstr(&sb, "[.");
			sbuf_addch(&sb, *p);
			sbuf_addstr(&sb, ".]");
		} else {
			sbuf_addch(&sb, *p);
		}
	}
	return sbuf_detach(&sb);
}

static void add_field(struct maintainers *m, char type, const char *v,
		      size_t len)
{
	uint32_t sect = m->nsects - 1;
	struct section *sc = &m->sects[sect];
	struct pattern pat;
	struct nregex *nr;
	char *s;

	switch (type) {
	case 'F':
		if (pattern_init(&pat, v, len, sect)) {
			m->ignored++;
			return;
		}
		ALLOC_GROW(m->fpats, m->nfpats + 1, m->fpats_alloc);
		m->fpats[m->nfpats++] = pat;
		break;
	case 'X':
		if (pattern_init(&pat, v, len, sect)) {
			m->ignored++;
			return;
		}
		/* A section's fields are contiguous, so are its X: lines. */
		if (!sc->x_count)
			sc->x_first = m->nxpats;
		ALLOC_GROW(m->xpats, m->nxpats + 1, m->xpats_alloc);
		m->xpats[m->nxpats++] = pat;
		sc->x_count++;
		break;
	case 'N':
		if (!len) {
			m->ignored++;
			return;
		}
		s = xstrndup(v, len);
		ALLOC_GROW(m->nres, m->nnres + 1, m->nres_alloc);
		nr = &m->nres[m->nnres];
		memset(nr, 0, sizeof(*nr));
		nr->sect = sect;
		if (regex_is_literal(s)) {
			nr->literal = s;
		} else if (regex_too_costly(s)) {
			free(s);
			m->ignored++;
			return;
		} else {
			/* A regex POSIX cannot compile is ignored. */
			char *posix = perl_to_posix(s);
			int rc = regcomp(&nr->re, posix, REG_EXTENDED | REG_NOSUB);

			free(posix);
			free(s);
			if (rc) {
				m->ignored++;
				return;
			}
		}
		m->nnres++;
		break;
	default:
		break;
	}
}

/*
 * A field line: an uppercase letter, ':', then blanks (or the end of the
 * line), in column 0.  Sets the value to the trimmed rest of the line.
 */
static bool parse_field(const char *l, size_t len, const char **v,
			size_t *vlen)
{
	size_t i = 2;

	if (len < 2 || l[0] < 'A' || l[0] > 'Z' || l[1] != ':')
		return false;
	if (len > 2 && l[2] != ' ' && l[2] != '\t')
		return false;
	while (i < len && (l[i] == ' ' || l[i] == '\t'))
		i++;
	*v = l + i;
	*vlen = len - i;
	return true;
}

static bool is_blank_or_comment(const char *l, size_t len)
{
	size_t i = 0;

	while (i < len && (l[i] == ' ' || l[i] == '\t' || l[i] == '\f' ||
			   l[i] == '\v'))
		i++;
	return i == len || l[i] == '#';
}

static size_t trim_end(const char *l, size_t len)
{
	while (len && (l[len - 1] == ' ' || l[len - 1] == '\t' ||
		       l[len - 1] == '\r'))
		len--;
	return len;
}

/* Where sections begin: after the "Maintainers List" line, if any. */
static size_t sections_start(const char *buf, size_t len)
{
	static const char marker[] = "Maintainers List";
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;

		if (end - pos >= sizeof(marker) - 1 &&
		    !memcmp(buf + pos, marker, sizeof(marker) - 1))
			return nl ? end + 1 : len;
		pos = end + 1;
	}
	return 0;
}

struct akey {
	const char *key;
	uint32_t len;
	uint32_t idx;
};

static int cmp_akey(const void *a, const void *b)
{
	const struct akey *ka = a, *kb = b;
	int c = memcmp(ka->key, kb->key, ka->len < kb->len ? ka->len : kb->len);

	if (c)
		return c;
	if (ka->len != kb->len)
		return ka->len < kb->len ? -1 : 1;
	/* Keep file order within a group (not needed, but deterministic). */
	return ka->idx < kb->idx ? -1 : 1;
}

static bool same_akey(const struct akey *a, const struct akey *b)
{
	return a->len == b->len && !memcmp(a->key, b->key, a->len);
}

static void build_index(struct maintainers *m)
{
	struct akey *keys;
	size_t i, j, ngroups = 0;

	if (!m->nfpats)
		return;
	keys = xmalloc(m->nfpats * sizeof(*keys));
	for (i = 0; i < m->nfpats; i++) {
		keys[i].key = m->fpats[i].core;
		keys[i].len = m->fpats[i].anchor_len;
		keys[i].idx = i;
	}
	qsort(keys, m->nfpats, sizeof(*keys), cmp_akey);
	m->order = xmalloc(m->nfpats * sizeof(*m->order));
	for (i = 0; i < m->nfpats; i++) {
		m->order[i] = keys[i].idx;
		if (!i || !same_akey(&keys[i - 1], &keys[i]))
			ngroups++;
	}
	m->nbuckets = 16;
	while (m->nbuckets < 2 * ngroups)
		m->nbuckets *= 2;
	m->buckets = xcalloc(m->nbuckets, sizeof(*m->buckets));

	for (i = 0; i < m->nfpats; i = j) {
		uint32_t h = fnv32(keys[i].key, keys[i].len);
		size_t b = h & (m->nbuckets - 1);

		for (j = i + 1; j < m->nfpats && same_akey(&keys[i], &keys[j]);)
			j++;
		while (m->buckets[b].key)
			b = (b + 1) & (m->nbuckets - 1);
		m->buckets[b].key = keys[i].key;
		m->buckets[b].key_len = keys[i].len;
		m->buckets[b].hash = h;
		m->buckets[b].first = i;
		m->buckets[b].count = j - i;
	}
	free(keys);
}

int maintainers_parse(struct maintainers **out, const char *buf, size_t len)
{
	struct maintainers *m;
	const char *title = NULL;
	size_t title_len = 0, pos;
	bool in_section = false, after_field = false;

	if (!out || (!buf && len))
		return kmig_errcode(KMIG_EUSAGE, "maintainers: bad arguments");
	m = xcalloc(1, sizeof(*m));
	for (pos = sections_start(buf, len); pos < len;) {
		const char *l = buf + pos, *nl = memchr(l, '\n', len - pos);
		size_t llen = nl ? (size_t)(nl - l) : len - pos, vlen;
		const char *v;

		pos += llen + 1;
		llen = trim_end(l, llen);
		if (is_blank_or_comment(l, llen)) {
			after_field = false;
			continue;
		}
		if (!parse_field(l, llen, &v, &vlen)) {
			/*
			 * "W<tab>https://..." among a section's fields is
			 * one whose colon is missing (v5.10's INVENSENSE
			 * ICM-426xx section), not the title of a section of
			 * the F: lines below it: left out, as a malformed
			 * field.
			 */
			if (after_field && llen > 2 && l[0] >= 'A' &&
			    l[0] <= 'Z' && (l[1] == ' ' || l[1] == '\t')) {
				m->ignored++;
				continue;
			}
			after_field = false;
			title = l;
			title_len = llen;
			in_section = false;
			continue;
		}
		if (!in_section) {
			struct section *sc;

			if (!title) {
				m->ignored++;	/* fields without a title */
				continue;
			}
			ALLOC_GROW(m->sects, m->nsects + 1, m->sects_alloc);
			sc = &m->sects[m->nsects++];
			memset(sc, 0, sizeof(*sc));
			while (title_len && (*title == ' ' || *title == '\t')) {
				title++;
				title_len--;
			}
			sc->title = xstrndup(title, title_len);
			title = NULL;
			in_section = true;
		}
		add_field(m, l[0], v, vlen);
		after_field = true;
	}
	build_index(m);
	*out = m;
	return 0;
}

static const struct bucket *lookup(const struct maintainers *m,
				   const char *key, size_t key_len,
				   uint32_t h)
{
	size_t b = h & (m->nbuckets - 1);

	for (;; b = (b + 1) & (m->nbuckets - 1)) {
		const struct bucket *bk = &m->buckets[b];

		if (!bk->key)
			return NULL;
		if (bk->hash == h && bk->key_len == key_len &&
		    !memcmp(bk->key, key, key_len))
			return bk;
	}
}

/* Does @p rank above @best (longer text; on a tie, earlier section)? */
static inline bool ranks_above(const struct pattern *p,
			       const struct pattern *best)
{
	return !best || p->len > best->len ||
	       (p->len == best->len && p->sect < best->sect);
}

static void consider(const struct maintainers *m, const struct bucket *bk,
		     const struct path_info *pi,
		     const struct pattern **best, const struct pattern **rest)
{
	uint32_t i;

	for (i = 0; i < bk->count; i++) {
		const struct pattern *p = &m->fpats[m->order[bk->first + i]];
		const struct pattern **slot =
			(p->flags & PAT_CATCHALL) ? rest : best;

		if (!ranks_above(p, *slot) || !pattern_match(p, pi, true))
			continue;
		if (section_excludes(m, p->sect, pi))
			continue;
		*slot = p;
	}
}

#define STACK_COMPS 64

const char *maintainers_match(const struct maintainers *m, const char *path)
{
	const struct pattern *best = NULL, *rest = NULL;
	size_t stack_ends[STACK_COMPS], *ends = stack_ends, i, n;
	const char *title = MAINTAINERS_NONE;
	const struct bucket *bk;
	struct path_info pi;
	uint32_t h = FNV32_INIT;	/* FNV-1a, incremental over the prefixes */

	if (!m || !path || !*path)
		return MAINTAINERS_NONE;
	pi.s = path;
	pi.len = strlen(path);
	for (i = 0, n = 1; i < pi.len; i++)
		n += path[i] == '/';
	if (n > STACK_COMPS)
		ends = xmalloc(n * sizeof(*ends));
	for (i = 0, n = 0; i < pi.len; i++)
		if (path[i] == '/')
			ends[n++] = i;
	ends[n++] = pi.len;
	pi.ncomp = n;
	pi.ends = ends;

	if (m->nbuckets) {
		/* Anchors: "", every ancestor directory, the path itself. */
		bk = lookup(m, path, 0, h);
		if (bk)
			consider(m, bk, &pi, &best, &rest);
		for (i = 0; i < pi.len; i++) {
			h = fnv32_byte(h, (unsigned char)path[i]);
			if (i + 1 == pi.len || path[i + 1] == '/') {
				bk = lookup(m, path, i + 1, h);
				if (bk)
					consider(m, bk, &pi, &best, &rest);
			}
		}
	}
	if (best) {
		title = m->sects[best->sect].title;
		goto out;
	}

	/* N: regexes rank below F: matches; sections in file order. */
	for (i = 0; i < m->nnres; i++) {
		const struct nregex *nr = &m->nres[i];
		bool hit;

		if (nr->literal)
			hit = strstr(path, nr->literal) != NULL;
		else
			hit = !regexec(&nr->re, path, 0, NULL, 0);
		if (hit && !section_excludes(m, nr->sect, &pi)) {
			title = m->sects[nr->sect].title;
			goto out;
		}
	}
	if (rest)
		title = m->sects[rest->sect].title;
out:
	if (ends != stack_ends)
		free(ends);
	return title;
}

size_t maintainers_count(const struct maintainers *m)
{
	return m ? m->nsects : 0;
}

bool maintainers_has(const struct maintainers *m, const char *title)
{
	size_t i;

	if (!strcmp(title, MAINTAINERS_NONE))
		return true;
	for (i = 0; m && i < m->nsects; i++)
		if (!strcmp(m->sects[i].title, title))
			return true;
	return false;
}

size_t maintainers_ignored(const struct maintainers *m)
{
	return m ? m->ignored : 0;
}

void maintainers_free(struct maintainers *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nsects; i++)
		free(m->sects[i].title);
	for (i = 0; i < m->nfpats; i++)
		free(m->fpats[i].core);
	for (i = 0; i < m->nxpats; i++)
		free(m->xpats[i].core);
	for (i = 0; i < m->nnres; i++) {
		if (m->nres[i].literal)
			free(m->nres[i].literal);
		else
			regfree(&m->nres[i].re);
	}
	free(m->sects);
	free(m->fpats);
	free(m->xpats);
	free(m->nres);
	free(m->order);
	free(m->buckets);
	free(m);
}
