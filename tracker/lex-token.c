// SPDX-License-Identifier: GPL-2.0
/*
 * lex-token.c - pass 1 of the lexer, lex_tokenize(): comments, string and
 * character literals, numbers, identifiers and punctuators, with line
 * numbers.  Backslash-newline continuations are skipped.  A '#' first on
 * a line starts a directive: "#define" becomes a T_DEFINE token, the
 * body's tokens follow and a T_EOD token closes the logical line; the
 * conditional directives (#if..., #elif, #else, #endif) become one T_COND
 * token each; every other directive (#include, #undef, ...) produces no
 * tokens at all.
 *
 * Two rules are decided here, on the way: comments that are GCC
 * fall-through markers (lex_fallthrough_comment()) become T_FT tokens,
 * and string literals count their plain %p conversions (printk-p).
 *
 * This is the lexer's hottest code: identifiers are scanned 16 bytes at a
 * time with SSE2, whitespace in runs, and the helpers of lex_tokenize()
 * are inlined into its loop.
 */
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <string.h>

#include "lex-internal.h"
#include "util.h"

enum { C_OTHER, C_WS, C_NL, C_ID, C_DIGIT, C_PUNCT };

static const unsigned char cclass[256] = {
	[' '] = C_WS, ['\t'] = C_WS, ['\r'] = C_WS, ['\f'] = C_WS,
	['\v'] = C_WS, ['\n'] = C_NL,
	['a' ... 'z'] = C_ID, ['A' ... 'Z'] = C_ID, ['_'] = C_ID,
	['$'] = C_ID, ['0' ... '9'] = C_DIGIT,
	[0x80 ... 0xff] = C_ID,
	['!' ... '#'] = C_PUNCT, ['%' ... '/'] = C_PUNCT,
	[':' ... '@'] = C_PUNCT, ['[' ... '^'] = C_PUNCT,
	['`'] = C_PUNCT, ['{' ... '~'] = C_PUNCT,
};

static const bool idch[256] = {
	['a' ... 'z'] = true, ['A' ... 'Z'] = true, ['_'] = true,
	['$'] = true, ['0' ... '9'] = true, [0x80 ... 0xff] = true,
};

static inline bool is_idch(unsigned char c)
{
	return idch[c];
}

/*
 * The end of the identifier characters from @q: 16 bytes at a time with
 * SSE2 (letters, digits, '_', '$' and every byte >= 0x80, as idch[]).
 * Scanning identifiers is the largest single cost of lexing C.
 */
static inline const char *idch_end(const char *q, const char *e)
{
#ifdef __SSE2__
	const __m128i lo_a = _mm_set1_epi8('a' - 1), hi_z = _mm_set1_epi8('z' + 1);
	const __m128i lo_0 = _mm_set1_epi8('0' - 1), hi_9 = _mm_set1_epi8('9' + 1);
	const __m128i us = _mm_set1_epi8('_'), dollar = _mm_set1_epi8('$');
	const __m128i fold = _mm_set1_epi8(0x20);

	while (e - q >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)q);
		__m128i l = _mm_or_si128(v, fold);
		__m128i alpha = _mm_and_si128(_mm_cmpgt_epi8(l, lo_a),
					      _mm_cmplt_epi8(l, hi_z));
		__m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, lo_0),
					      _mm_cmplt_epi8(v, hi_9));
		__m128i sym = _mm_or_si128(_mm_cmpeq_epi8(v, us),
					   _mm_cmpeq_epi8(v, dollar));
		unsigned int m = (unsigned int)_mm_movemask_epi8(
			_mm_or_si128(_mm_or_si128(alpha, digit), sym)) |
			(unsigned int)_mm_movemask_epi8(v);	/* >= 0x80 */

		if (m != 0xffff)
			return q + __builtin_ctz(~m);
		q += 16;
	}
#endif
	while (q < e && is_idch((unsigned char)*q))
		q++;
	return q;
}

static inline bool is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static void __attribute__((noinline)) tok_grow(struct lexer *lx)
{
	ALLOC_GROW(lx->t, lx->nt + 1, lx->at);
}

static inline struct tok *tok_push(struct lexer *lx, int type, size_t off,
				   size_t len, unsigned int line)
{
	struct tok *t;

	if (__builtin_expect(lx->nt >= lx->at, 0))
		tok_grow(lx);
	t = &lx->t[lx->nt++];
	t->off = (uint32_t)off;
	t->len = (uint32_t)len;
	t->line = line;
	t->type = (uint8_t)type;
	t->sub = 0;
	t->nump = 0;
	t->pad = 0;
	t->word = -1;
	t->pad2 = 0;
	return t;
}

/* Length of a punctuator at @p and its enum punct. */
static size_t punct_len(const char *p, const char *e, int *sub)
{
	char c = p[0], d = p + 1 < e ? p[1] : 0;

	static const uint8_t single[256] = {
		['('] = P_LPAREN, [')'] = P_RPAREN, ['['] = P_LBRACK,
		[']'] = P_RBRACK, ['{'] = P_LBRACE, ['}'] = P_RBRACE,
		[';'] = P_SEMI, [','] = P_COMMA, [':'] = P_COLON,
	};

	*sub = single[(unsigned char)c];
	if (*sub != P_OTHER)
		return 1;
	switch (c) {
	case '.':
		if (d == '.' && p + 2 < e && p[2] == '.')
			return 3;
		*sub = P_DOT;
		return 1;
	case '-':
		if (d == '>') {
			*sub = P_ARROW;
			return 2;
		}
		if (d == '-' || d == '=')
			return 2;
		*sub = P_MINUS;
		return 1;
	case '+':
		if (d == '+' || d == '=')
			return 2;
		*sub = P_PLUS;
		return 1;
	case '*':
		if (d == '=')
			return 2;
		*sub = P_STAR;
		return 1;
	case '=':
		if (d == '=')
			return 2;
		*sub = P_ASSIGN;
		return 1;
	case '#':
		if (d == '#') {
			*sub = P_HASHHASH;
			return 2;
		}
		return 1;
	case '<':
	case '>':
		if (d == c)
			return p + 2 < e && p[2] == '=' ? 3 : 2;
		return d == '=' ? 2 : 1;
	case '&':
	case '|':
		return d == c || d == '=' ? 2 : 1;
	case '!':
	case '/':
	case '%':
	case '^':
		return d == '=' ? 2 : 1;
	default:
		return 1;
	}
}

/* A directive's effect on the rest of its logical line. */
enum { DIR_NONE, DIR_DEFINE, DIR_SKIP };

/* The conditional directive whose name starts at @q, or 0. */
static int directive_cond(const char *q, const char *e)
{
	static const struct {
		const char *name;
		int cond;
	} conds[] = {
		{ "if", COND_IF }, { "ifdef", COND_IF }, { "ifndef", COND_IF },
		{ "elif", COND_ELSE }, { "elifdef", COND_ELSE },
		{ "elifndef", COND_ELSE }, { "else", COND_ELSE },
		{ "endif", COND_ENDIF },
	};
	size_t i, n = 0;

	while (q + n < e && is_idch((unsigned char)q[n]))
		n++;
	for (i = 0; i < ARRAY_SIZE(conds); i++)
		if (strlen(conds[i].name) == n && !memcmp(q, conds[i].name, n))
			return conds[i].cond;
	return 0;
}

/* The newlines in [p, e): a loop the compiler vectorises. */
static unsigned int count_nl(const char *p, const char *e)
{
	unsigned int n = 0;

	for (; p < e; p++)
		n += *p == '\n';
	return n;
}

/* The identifier at @p; returns its end. */
static inline const char *lex_ident(struct lexer *lx, const char *p,
				    unsigned int line, int dir)
{
	const char *q = idch_end(p + 1, lx->buf + lx->len);
	struct tok *t;
	int w;

	if (dir == DIR_SKIP)
		return q;
	w = lex_word_find(p, (size_t)(q - p));
	t = tok_push(lx, T_IDENT, (size_t)(p - lx->buf), (size_t)(q - p),
		     line);
	if (w >= 0) {
		t->word = (int16_t)w;
		t->sub = lex_words.w[w].cls;
	}
	return q;
}

/* The number at @p (a digit, or '.' and a digit); returns its end. */
static inline const char *lex_number(struct lexer *lx, const char *p,
				     unsigned int line, int dir)
{
	const char *const e = lx->buf + lx->len;
	const char *q = p + 1;

	while (q < e) {
		unsigned char d = (unsigned char)*q;

		if ((d == '+' || d == '-') && strchr("eEpP", q[-1]))
			q++;
		else if (is_idch(d) || d == '.')
			q++;
		else
			break;
	}
	if (dir != DIR_SKIP)
		tok_push(lx, T_NUMBER, (size_t)(p - lx->buf), (size_t)(q - p),
			 line);
	return q;
}

/*
 * The block or line comment at @p, its lines counted into *@line;
 * returns its end.  A fall-through marker becomes a T_FT token.
 */
static inline const char *lex_comment(struct lexer *lx, const char *p,
				      unsigned int *line, int dir)
{
	const char *const e = lx->buf + lx->len;
	const char *text = p + 2, *tend, *q;
	unsigned int l0 = *line;

	if (p[1] == '*') {
		/*
		 * The end: memchr for each '*' (not memmem, which
		 * sanitizers check to the buffer's end on every call),
		 * then the comment's lines.
		 */
		for (q = text;; q++) {
			q = memchr(q, '*', (size_t)(e - q));
			if (!q || q + 1 >= e) {
				q = NULL;
				break;
			}
			if (q[1] == '/')
				break;
		}
		tend = q ? q : e;
		*line += count_nl(text, tend);
		q = q ? q + 2 : e;
	} else {
		for (q = text; q < e; q++) {
			if (*q != '\n')
				continue;
			if (q > text && q[-1] == '\\') {
				(*line)++;
				continue;
			}
			if (q > text + 1 && q[-1] == '\r' && q[-2] == '\\') {
				(*line)++;
				continue;
			}
			break;
		}
		tend = q;
		if (tend > text && tend[-1] == '\r')
			tend--;	/* CRLF line end */
	}
	if (dir != DIR_SKIP &&
	    lex_fallthrough_comment(text, (size_t)(tend - text)))
		tok_push(lx, T_FT, (size_t)(p - lx->buf), (size_t)(q - p), l0);
	return q;
}

/*
 * The string or character literal at @p, its escaped newlines counted
 * into *@line; returns its end.  A string counts its plain %p.
 */
static inline const char *lex_literal(struct lexer *lx, const char *p,
				      unsigned int *line, int dir)
{
	const char *const e = lx->buf + lx->len;
	const char c = *p;
	unsigned int l0 = *line, nump = 0;
	const char *q;
	struct tok *t;

	for (q = p + 1; q < e; q++) {
		if (*q == '\\') {
			if (q + 1 < e && q[1] == '\n')
				(*line)++;
			q++;
			continue;
		}
		if (*q == c || *q == '\n')
			break;
		if (*q == '%' && c == '"' && q + 1 < e) {
			if (q[1] == '%') {
				q++;
			} else if (q[1] == 'p' &&
				   (q + 2 >= e ||
				    !is_alnum((unsigned char)q[2]))) {
				nump++;
			}
		}
	}
	if (q < e && *q == c)
		q++;
	if (q > e)
		q = e;
	if (dir != DIR_SKIP) {
		t = tok_push(lx, c == '"' ? T_STRING : T_CHAR,
			     (size_t)(p - lx->buf), (size_t)(q - p), l0);
		t->nump = nump > 255 ? 255 : (uint8_t)nump;
	}
	return q;
}

/*
 * The directive whose '#' is at @p (first on its line, outside any
 * directive): a T_DEFINE or T_COND token, *@dir for the rest of the line;
 * returns where tokenizing goes on (after "define", or at the name of any
 * other directive, whose line is then skipped).
 */
static inline const char *lex_directive(struct lexer *lx, const char *p,
					unsigned int *line, int *dir)
{
	const char *const e = lx->buf + lx->len;
	const char *q = p + 1;
	struct tok *t;
	int cond;

	for (;;) {
		if (q < e && (*q == ' ' || *q == '\t')) {
			q++;
		} else if (q + 1 < e && q[0] == '\\' && q[1] == '\n') {
			q += 2;
			(*line)++;
		} else {
			break;
		}
	}
	if (e - q >= 6 && !memcmp(q, "define", 6) &&
	    (q + 6 == e || !is_idch((unsigned char)q[6]))) {
		tok_push(lx, T_DEFINE, (size_t)(p - lx->buf),
			 (size_t)(q + 6 - p), *line);
		*dir = DIR_DEFINE;
		return q + 6;
	}
	cond = directive_cond(q, e);
	if (cond) {
		t = tok_push(lx, T_COND, (size_t)(p - lx->buf), 1, *line);
		t->sub = (uint8_t)cond;
	}
	*dir = DIR_SKIP;
	return q;
}

/* The punctuator at @p; returns its end. */
static inline const char *lex_punct(struct lexer *lx, const char *p,
				    unsigned int line, int dir)
{
	int sub;
	size_t n = punct_len(p, lx->buf + lx->len, &sub);
	struct tok *t;

	if (dir != DIR_SKIP) {
		t = tok_push(lx, T_PUNCT, (size_t)(p - lx->buf), n, line);
		t->sub = (uint8_t)sub;
	}
	return p + n;
}

void lex_tokenize(struct lexer *lx)
{
	const char *const b = lx->buf, *const e = b + lx->len;
	const char *p = b, *q;
	unsigned int line = 1;
	bool bol = true;
	int dir = DIR_NONE;

	while (p < e) {
		unsigned char c = (unsigned char)*p;

		switch (cclass[c]) {
		case C_NL:
			line++;
			p++;
			bol = true;
			if (dir == DIR_DEFINE)
				tok_push(lx, T_EOD, (size_t)(p - 1 - b), 0,
					 line - 1);
			dir = DIR_NONE;
			continue;
		case C_WS:	/* runs of indentation and alignment */
			p++;
			while (p < e && cclass[(unsigned char)*p] == C_WS)
				p++;
			continue;
		case C_ID:
			p = lex_ident(lx, p, line, dir);
			bol = false;
			continue;
		case C_DIGIT:
			p = lex_number(lx, p, line, dir);
			bol = false;
			continue;
		default:
			break;
		}

		if (c == '/' && p + 1 < e && (p[1] == '*' || p[1] == '/')) {
			p = lex_comment(lx, p, &line, dir);
			continue;	/* bol kept: "# ..." may follow */
		}
		if (c == '"' || c == '\'') {
			p = lex_literal(lx, p, &line, dir);
			bol = false;
			continue;
		}
		if (c == '\\') {	/* backslash-newline */
			q = p + 1;
			if (q < e && *q == '\r')
				q++;
			if (q < e && *q == '\n') {
				line++;
				p = q + 1;
				continue;
			}
		}
		if (c == '.' && p + 1 < e &&
		    cclass[(unsigned char)p[1]] == C_DIGIT)
			p = lex_number(lx, p, line, dir);
		else if (c == '#' && bol && dir == DIR_NONE)
			p = lex_directive(lx, p, &line, &dir);
		else
			p = lex_punct(lx, p, line, dir);
		bol = false;
	}
	if (dir == DIR_DEFINE)
		tok_push(lx, T_EOD, lx->len, 0, line);
}
