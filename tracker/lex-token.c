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
 * This is the lexer's hottest code: one class table and one computed
 * jump per token (a copy at the end of each case); identifiers, block
 * comments and string bodies are scanned 16 bytes at a time with SSE2,
 * whitespace in runs; most identifiers that are no keyword or rule name
 * are told by one load; and the helpers of lex_tokenize() are inlined
 * into its loop, its state in locals.
 */
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <string.h>

#include "lex-internal.h"
#include "util.h"

/*
 * The byte classes of the main loop: one table lookup and one jump per
 * token.  C_PUNCT is every byte that is a punctuator of its own or the
 * start of a longer one (control bytes too: each is a one-byte T_PUNCT).
 */
enum {
	C_PUNCT, C_WS, C_NL, C_ID, C_DIGIT, C_SLASH, C_QUOTE, C_BSLASH,
	C_DOT, C_HASH, C_LBRACE, C_OPEN, C_CLOSE,
};

static const unsigned char cclass[256] = {
	[' '] = C_WS, ['\t'] = C_WS, ['\r'] = C_WS, ['\f'] = C_WS,
	['\v'] = C_WS, ['\n'] = C_NL,
	['a' ... 'z'] = C_ID, ['A' ... 'Z'] = C_ID, ['_'] = C_ID,
	['$'] = C_ID, ['0' ... '9'] = C_DIGIT,
	[0x80 ... 0xff] = C_ID,
	['/'] = C_SLASH, ['"'] = C_QUOTE, ['\''] = C_QUOTE,
	['\\'] = C_BSLASH, ['.'] = C_DOT, ['#'] = C_HASH,
	['{'] = C_LBRACE, ['('] = C_OPEN, ['['] = C_OPEN,
	['}'] = C_CLOSE, [')'] = C_CLOSE, [']'] = C_CLOSE,
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

/*
 * The end of the blanks (C_WS) from @q: runs of spaces and tabs 16 bytes
 * at a time with SSE2, for the long ones (the alignment of a register
 * header's values, often 60 blanks and more).
 */
static inline const char *blank_end(const char *q, const char *e)
{
	for (;;) {
#ifdef __SSE2__
		const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');

		while (e - q >= 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)q);
			unsigned int m = (unsigned int)_mm_movemask_epi8(
				_mm_or_si128(_mm_cmpeq_epi8(v, sp),
					     _mm_cmpeq_epi8(v, tab)));

			if (m != 0xffff) {
				q += __builtin_ctz(~m);
				break;
			}
			q += 16;
		}
#endif
		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= e || cclass[(unsigned char)*q] != C_WS)
			return q;
		q++;	/* '\r', '\f' or '\v' */
	}
}

static inline bool is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/*
 * The tokenizer's state, in locals of lex_tokenize() (the helpers are
 * inlined and its address never escapes, so it lives in registers): tp
 * is the next free token, tlim the end of the array.  Each step of the
 * main loop writes at most one token, so the room is checked once a
 * step, and the array grown out of line.
 */
struct tz {
	const char *b, *e;
	struct tok *tp, *tlim;
	unsigned int line;
};

/* Room for one more token from @tp on; returns where @tp is then. */
static struct tok *__attribute__((noinline)) tok_grow(struct lexer *lx,
						       struct tok *tp)
{
	lx->nt = (size_t)(tp - lx->t);
	lex_tok_reserve(lx, lx->nt + 1);
	return lx->t + lx->nt;
}

static inline void tok_set(struct tok *t, int type, size_t off, size_t len,
			   unsigned int line, int sub)
{
	t->off = (uint32_t)off;
	t->len = (uint32_t)len;
	t->line = line;
	t->type = (uint8_t)type;
	t->sub = (uint8_t)sub;
	t->word = -1;
}

/*
 * Punctuators: the enum punct of each byte alone, and which second bytes
 * make a longer one ("+=", "++", "->", "<<=", "...", "##").
 */
enum { X_EQ = 1, X_DBL = 2, X_SHIFT = 4, X_ARROW = 8 };

static const uint8_t psub[256] = {
	['('] = P_LPAREN, [')'] = P_RPAREN, ['['] = P_LBRACK,
	[']'] = P_RBRACK, ['{'] = P_LBRACE, ['}'] = P_RBRACE,
	[';'] = P_SEMI, [','] = P_COMMA, [':'] = P_COLON,
	['.'] = P_DOT, ['-'] = P_MINUS, ['+'] = P_PLUS, ['*'] = P_STAR,
	['='] = P_ASSIGN,
};

static const uint8_t pext[256] = {
	['-'] = X_EQ | X_DBL | X_ARROW, ['+'] = X_EQ | X_DBL,
	['*'] = X_EQ, ['='] = X_EQ, ['#'] = X_DBL,
	['<'] = X_EQ | X_DBL | X_SHIFT, ['>'] = X_EQ | X_DBL | X_SHIFT,
	['&'] = X_EQ | X_DBL, ['|'] = X_EQ | X_DBL,
	['!'] = X_EQ, ['/'] = X_EQ, ['%'] = X_EQ, ['^'] = X_EQ,
};

/* Length of the punctuator at @p (not '.') and its enum punct. */
static inline size_t punct_len(const char *p, const char *e, int *sub)
{
	unsigned char c = (unsigned char)p[0];
	unsigned char d = p + 1 < e ? (unsigned char)p[1] : 0;
	unsigned int x = pext[c];

	*sub = psub[c];
	if (__builtin_expect(!x, 1))
		return 1;
	if (d == '=' && (x & X_EQ)) {
		*sub = P_OTHER;
		return 2;
	}
	if (d == c && (x & X_DBL)) {
		*sub = c == '#' ? P_HASHHASH : P_OTHER;
		if (x & X_SHIFT)
			return p + 2 < e && p[2] == '=' ? 3 : 2;
		return 2;
	}
	if (d == '>' && (x & X_ARROW)) {
		*sub = P_ARROW;
		return 2;
	}
	return 1;
}

/*
 * The end of the backslash-newline at @p (a '\\', maybe a '\r', a
 * newline), or NULL when @p starts none: a line continued.
 */
static inline const char *bslash_newline(const char *p, const char *e)
{
	const char *q = p + 1;

	if (q < e && *q == '\r')
		q++;
	return q < e && *q == '\n' ? q + 1 : NULL;
}

/* A directive's effect on the rest of its logical line. */
enum { DIR_NONE, DIR_DEFINE, DIR_SKIP };

/*
 * The name of the directive whose '#' is at @p: past the blanks and
 * backslash-newlines after it, those lines counted into *@line.
 */
static inline const char *directive_name(const char *p, const char *e,
					 unsigned int *line)
{
	const char *q = p + 1;

	for (;;) {
		if (q < e && (*q == ' ' || *q == '\t')) {
			q++;
		} else if (q + 1 < e && q[0] == '\\' && q[1] == '\n') {
			q += 2;
			(*line)++;
		} else {
			return q;
		}
	}
}

/* Is the directive name at @q "define"? */
static inline bool directive_define(const char *q, const char *e)
{
	return e - q >= 6 && !memcmp(q, "define", 6) &&
	       (q + 6 == e || !is_idch((unsigned char)q[6]));
}

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

/* The index in lex_words of the identifier @p (@len bytes), or -1. */
static inline int word_index(const char *p, size_t len)
{
	unsigned int h;

	/* most identifiers are no word: their bucket is empty */
	if (len > lex_words.maxlen)
		return -1;
	h = lex_word_hash(p, len);
	if (lex_words.first[h] < 0)
		return -1;
	return lex_word_find_hashed(p, len, h);
}

/* The identifier at @p; returns its end. */
static inline const char *lex_ident(struct tz *z, const char *p)
{
	const char *q = idch_end(p + 1, z->e);
	size_t len = (size_t)(q - p);
	struct tok *t = z->tp++;
	int w = word_index(p, len);

	tok_set(t, T_IDENT, (size_t)(p - z->b), len, z->line, 0);
	if (w >= 0) {
		t->word = (int16_t)w;
		t->sub = lex_words.w[w].cls;
	}
	return q;
}

/* The end of the number at @p (a digit, or '.' and a digit). */
static inline const char *number_end(const char *p, const char *e)
{
	const char *q = p + 1;

	while (q < e) {
		unsigned char d = (unsigned char)*q;

		if (is_idch(d) || d == '.') {
			q++;
		} else if (d == '+' || d == '-') {
			unsigned char x = (unsigned char)(q[-1] | 0x20);

			if (x != 'e' && x != 'p')
				break;
			q++;
		} else {
			break;
		}
	}
	return q;
}

/* The number at @p; returns its end. */
static inline const char *lex_number(struct tz *z, const char *p)
{
	const char *q = number_end(p, z->e);

	tok_set(z->tp++, T_NUMBER, (size_t)(p - z->b), (size_t)(q - p),
		z->line, 0);
	return q;
}

/* The bits set in @x (< 2^16), without a popcnt instruction. */
static inline unsigned int popcount16(unsigned int x)
{
	x = x - ((x >> 1) & 0x5555);
	x = (x & 0x3333) + ((x >> 2) & 0x3333);
	x = (x + (x >> 4)) & 0x0f0f;
	return (x + (x >> 8)) & 0x1f;
}

/*
 * The first "* /" (without the blank) from @q in [q, e), with the
 * newlines before it counted into *@nl; NULL if there is none.
 */
static inline const char *comment_end(const char *q, const char *e,
				      unsigned int *nl)
{
	unsigned int n = 0;

#ifdef __SSE2__
	const __m128i star = _mm_set1_epi8('*'), slash = _mm_set1_epi8('/');
	const __m128i lf = _mm_set1_epi8('\n');

	while (e - q >= 17) {
		__m128i a = _mm_loadu_si128((const __m128i *)q);
		__m128i b = _mm_loadu_si128((const __m128i *)(q + 1));
		unsigned int m = (unsigned int)_mm_movemask_epi8(
			_mm_and_si128(_mm_cmpeq_epi8(a, star),
				      _mm_cmpeq_epi8(b, slash)));
		unsigned int l = (unsigned int)_mm_movemask_epi8(
			_mm_cmpeq_epi8(a, lf));

		if (m) {
			unsigned int k = (unsigned int)__builtin_ctz(m);

			*nl += n + popcount16(l & ((1u << k) - 1));
			return q + k;
		}
		n += popcount16(l);
		q += 16;
	}
#endif
	for (; q + 1 < e; q++) {
		if (q[0] == '*' && q[1] == '/') {
			*nl += n;
			return q;
		}
		n += q[0] == '\n';
	}
	if (q < e)
		n += q[0] == '\n';
	*nl += n;
	return NULL;
}

/*
 * The end of the block or line comment at @p, its lines counted into
 * *@line, the end of its text (before the delimiter) in *@tend.
 */
static inline const char *comment_skip(const char *p, const char *e,
				       unsigned int *line, const char **tend)
{
	const char *text = p + 2, *q;

	if (p[1] == '*') {
		q = comment_end(text, e, line);
		*tend = q ? q : e;
		return q ? q + 2 : e;
	}
	for (q = text;; q++) {
		q = memchr(q, '\n', (size_t)(e - q));
		if (!q) {
			q = e;
			break;
		}
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
	*tend = q;
	if (q > text && q[-1] == '\r')
		(*tend)--;	/* CRLF line end */
	return q;
}

/*
 * The block or line comment at @p, its lines counted into z->line;
 * returns its end.  A fall-through marker becomes a T_FT token.
 */
static inline const char *lex_comment(struct tz *z, const char *p)
{
	const char *text = p + 2, *tend, *q;
	unsigned int l0 = z->line;

	q = comment_skip(p, z->e, &z->line, &tend);
	if (lex_fallthrough_comment(text, (size_t)(tend - text)))
		tok_set(z->tp++, T_FT, (size_t)(p - z->b), (size_t)(q - p),
			l0, 0);
	return q;
}

/* The next '\\', @c, newline or '%' from @q in [q, e), or e. */
static inline const char *literal_stop(const char *q, const char *e, char c)
{
#ifdef __SSE2__
	const __m128i bs = _mm_set1_epi8('\\'), quote = _mm_set1_epi8(c);
	const __m128i lf = _mm_set1_epi8('\n'), pct = _mm_set1_epi8('%');

	while (e - q >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)q);
		unsigned int m = (unsigned int)_mm_movemask_epi8(
			_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, bs),
						  _mm_cmpeq_epi8(v, quote)),
				     _mm_or_si128(_mm_cmpeq_epi8(v, lf),
						  _mm_cmpeq_epi8(v, pct))));

		if (m)
			return q + __builtin_ctz(m);
		q += 16;
	}
#endif
	for (; q < e; q++)
		if (*q == '\\' || *q == c || *q == '\n' || *q == '%')
			break;
	return q;
}

/*
 * A character of a conversion's flags, field width or precision, which
 * vsprintf() takes before a 'p' as before any conversion: "%8p", "%-9p"
 * and "%*p" print the hashed pointer as "%p" does (checkpatch's
 * vsprintf check, %[\*\d\.]*p, reads them so too).  No ' ' flag: "100% p"
 * is prose.
 */
static inline bool pct_width(char c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '#' ||
	       c == '.' || c == '*';
}

/*
 * The end of the string or character literal at @p, its escaped newlines
 * counted into *@line, a string's plain %p conversions into *@nump.
 */
static inline const char *literal_skip(const char *p, const char *e,
				       unsigned int *line, unsigned int *nump)
{
	const char c = *p;
	const char *q = p + 1;

	while (q < e) {
		q = literal_stop(q, e, c);
		if (q >= e)
			break;
		if (*q == '\\') {
			if (q + 1 < e && q[1] == '\n')
				(*line)++;
			q += 2;
			continue;
		}
		if (*q == c || *q == '\n')
			break;
		/* '%' */
		if (c == '"' && q + 1 < e) {
			const char *r = q + 1;

			if (*r == '%') {
				q++;
			} else {
				/* a field width, precision or flags: "%8p" */
				while (r < e && pct_width(*r))
					r++;
				if (r < e && *r == 'p' &&
				    (r + 1 >= e ||
				     !is_alnum((unsigned char)r[1])))
					(*nump)++;
			}
		}
		q++;
	}
	if (q < e && *q == c)
		q++;
	if (q > e)
		q = e;
	return q;
}

/*
 * The string or character literal at @p, its escaped newlines counted
 * into z->line; returns its end.  A string counts its plain %p.
 */
static inline const char *lex_literal(struct tz *z, const char *p)
{
	unsigned int l0 = z->line, nump = 0;
	const char *q = literal_skip(p, z->e, &z->line, &nump);

	tok_set(z->tp++, *p == '"' ? T_STRING : T_CHAR, (size_t)(p - z->b),
		(size_t)(q - p), l0, 0);
	z->tp[-1].nump = nump > 255 ? 255 : (uint8_t)nump;
	return q;
}

/*
 * The directive whose '#' is at @p (first on its line, outside any
 * directive): a T_DEFINE or T_COND token, *@dir for the rest of the line;
 * returns where tokenizing goes on (after "define", or at the name of any
 * other directive, whose line is then skipped).
 */
static inline const char *lex_directive(struct tz *z, const char *p, int *dir)
{
	const char *const e = z->e;
	const char *q = directive_name(p, e, &z->line);
	int cond;

	if (directive_define(q, e)) {
		tok_set(z->tp++, T_DEFINE, (size_t)(p - z->b),
			(size_t)(q + 6 - p), z->line, 0);
		*dir = DIR_DEFINE;
		return q + 6;
	}
	cond = directive_cond(q, e);
	if (cond)
		tok_set(z->tp++, T_COND, (size_t)(p - z->b), 1, z->line, cond);
	*dir = DIR_SKIP;
	return q;
}

/* The punctuator at @p; returns its end. */
static inline const char *lex_punct(struct tz *z, const char *p)
{
	int sub;
	size_t n = punct_len(p, z->e, &sub);

	tok_set(z->tp++, T_PUNCT, (size_t)(p - z->b), n, z->line, sub);
	return p + n;
}

/*
 * Function bodies (issue 20): most of a kernel file is function bodies,
 * and most bodies hold nothing a rule matches; pass 2 takes from such a
 * body only the names it calls and the const variables it declares.  So
 * at a '{' where a function body may open, body_skim() walks the body
 * without writing tokens: it gives up (NULL) at anything pass 2 would do
 * more with, and else returns the end of the body, the '}' line in
 * *@linep and the calls and constants in lx->skc and lx->skk, for
 * pass 2 to replay (lex-scan.c).
 *
 * It gives up at a rule name (the matchers), a fall-through comment, a
 * string with %p, a struct, union or enum body (the flexible-array
 * rules, enumerators), an attribute after a struct tag, ".NAME =" with a
 * NAME of entry.def (entry points), deeper nesting than SKIM_DEPTH, a
 * #define, a '#' not first on its line, a conditional directive whose
 * branches leave the braces elsewhere than its #if found them (pass 2
 * would restore a state); and in the brackets of what may be an array's
 * declarator (a '[' after two names, or after a '*' and a name, or after
 * such brackets: what vla_check() reads) at anything but numbers,
 * operators and names without a lower-case letter, which make a constant
 * size and no vla.  Everything else is lexed as lex_tokenize() lexes it,
 * with the same helpers (other directives, which make no tokens, skipped
 * with their lines; a name before a conditional directive followed by
 * nothing for pass 2), and the statement state pass 2 keeps for the
 * constants (a "const" statement, its right-hand side, the parentheses
 * open in each brace) tracked the same way.
 */
#define SKIM_DEPTH 64

/*
 * The end of a directive's line from @p, after its name: the newline
 * that ends it (or @e), its comments, literals and continued lines
 * skipped as lex_tokenize() skips them, their lines counted into *@line.
 */
static const char *directive_end(const char *p, const char *e,
				 unsigned int *line)
{
	const char *q, *tend;
	unsigned int nump;

	while (p < e) {
		switch (cclass[(unsigned char)*p]) {
		case C_NL:
			return p;
		case C_SLASH:
			if (p + 1 < e && (p[1] == '*' || p[1] == '/'))
				p = comment_skip(p, e, line, &tend);
			else
				p++;
			break;
		case C_QUOTE:
			nump = 0;
			p = literal_skip(p, e, line, &nump);
			break;
		case C_BSLASH:
			q = bslash_newline(p, e);
			if (q)
				(*line)++;
			p = q ? q : p + 1;
			break;
		default:	/* no token holds a byte of the cases above */
			p++;
			break;
		}
	}
	return p;
}

/* What body_skim() keeps of the last two tokens. */
enum { K_OTHER, K_NAME, K_WORD, K_STAR, K_DOT, K_ARROW, K_DIM };

static const char *body_skim(struct lexer *lx, const char *p,
			     const char *e, unsigned int *linep)
{
	const size_t nc0 = lx->nskc, nk0 = lx->nskk;
	const char *name = NULL, *q, *tend;
	unsigned int line = *linep, nump;
	int rp[SKIM_DEPTH], depth = 0, k1 = K_OTHER, k2 = K_OTHER, kind, sub;
	bool tag = false, kconst = false, rhs = false, dim = false, bol = false;
	int conds[SKIM_DEPTH], nconds = 0, cond;
	size_t n, nlen = 0;

	rp[0] = 0;
	for (p++; p < e;) {
		switch (cclass[(unsigned char)*p]) {
		case C_WS:
			p++;
			if (p < e && cclass[(unsigned char)*p] == C_WS)
				p = blank_end(p + 1, e);
			continue;
		case C_NL:
			line++;
			p++;
			bol = true;
			continue;
		case C_ID: {
			const struct word *wd = NULL;
			int w;

			q = idch_end(p + 1, e);
			n = (size_t)(q - p);
			if (dim && !lex_all_upper(p, n))
				goto give_up;
			w = word_index(p, n);
			if (w >= 0)
				wd = &lex_words.w[w];
			if (!wd) {
				name = p;
				nlen = n;
				kind = K_NAME;
			} else if (wd->rules || (tag && wd->cls == W_ATTR)) {
				goto give_up;
			} else {
				if (wd->cls == W_STRUCT || wd->cls == W_ENUM)
					tag = true;
				else if (wd->cls == W_CONST)
					kconst = true;
				kind = K_WORD;
			}
			k2 = k1;
			k1 = kind;
			p = q;
			bol = false;
			continue;
		}
		case C_DIGIT:
			p = number_end(p, e);
			kind = K_OTHER;
			break;
		case C_SLASH:
			if (p + 1 < e && (p[1] == '*' || p[1] == '/')) {
				q = comment_skip(p, e, &line, &tend);
				if (lex_fallthrough_comment(p + 2,
							    (size_t)(tend - p - 2)))
					goto give_up;
				p = q;
				continue;
			}
			goto punct;
		case C_QUOTE:
			nump = 0;
			p = literal_skip(p, e, &line, &nump);
			if (nump || dim)
				goto give_up;
			kind = K_OTHER;
			break;
		case C_BSLASH:
			q = bslash_newline(p, e);
			if (q) {
				line++;
				p = q;
				continue;
			}
			goto punct;
		case C_DOT:
			if (p + 1 < e && cclass[(unsigned char)p[1]] == C_DIGIT) {
				p = number_end(p, e);
				kind = K_OTHER;
			} else if (e - p >= 3 && p[1] == '.' && p[2] == '.') {
				p += 3;
				kind = K_OTHER;
			} else {
				p++;
				kind = K_DOT;
			}
			break;
		case C_HASH:
			if (!bol)
				goto give_up;
			q = directive_name(p, e, &line);
			if (directive_define(q, e))
				goto give_up;
			cond = directive_cond(q, e);
			if (cond == COND_IF) {
				if (nconds == SKIM_DEPTH)
					goto give_up;
				conds[nconds++] = depth;
			} else if (cond) {
				if (!nconds || conds[nconds - 1] != depth)
					goto give_up;
				nconds -= cond == COND_ENDIF;
			}
			/* a T_COND token: no punctuator follows the name */
			if (cond && k1 == K_NAME)
				k1 = K_OTHER;
			p = directive_end(q, e, &line);
			bol = false;
			continue;
		default:
punct:
			n = punct_len(p, e, &sub);
			kind = K_OTHER;
			if (dim && (sub == P_LPAREN || sub == P_LBRACE ||
				    sub == P_LBRACK))
				goto give_up;
			switch (sub) {
			case P_LPAREN:
				if (k1 == K_NAME && k2 != K_DOT && k2 != K_ARROW) {
					ALLOC_GROW(lx->skc, lx->nskc + 1,
						   lx->askc);
					lx->skc[lx->nskc].off =
						(uint32_t)(name - lx->buf);
					lx->skc[lx->nskc++].len = (uint32_t)nlen;
				}
				rp[depth]++;
				break;
			case P_RPAREN:
				if (rp[depth])
					rp[depth]--;
				break;
			case P_LBRACE:
				if (tag || ++depth == SKIM_DEPTH)
					goto give_up;
				rp[depth] = 0;
				kconst = rhs = false;
				break;
			case P_RBRACE:
				if (!depth) {
					if (nconds)	/* ends in a branch */
						goto give_up;
					*linep = line;
					return p + 1;
				}
				depth--;
				kconst = rhs = false;
				break;
			case P_LBRACK:
				dim = k1 == K_DIM ||
				      ((k1 == K_NAME || k1 == K_WORD) &&
				       (k2 == K_NAME || k2 == K_WORD ||
					k2 == K_STAR));
				break;
			case P_RBRACK:
				if (dim) {
					dim = false;
					kind = K_DIM;
				}
				break;
			case P_ASSIGN:
				if (k1 == K_NAME && k2 == K_DOT &&
				    lex_entry_member(name, nlen))
					goto give_up;
				break;
			case P_STAR:
				kind = K_STAR;
				break;
			case P_ARROW:
				kind = K_ARROW;
				break;
			default:
				break;
			}
			/* a const variable declared: what scan_ident() adds */
			if (k1 == K_NAME && kconst && !rhs && !rp[depth] &&
			    (sub == P_ASSIGN || sub == P_SEMI || sub == P_COMMA ||
			     sub == P_LBRACK)) {
				ALLOC_GROW(lx->skk, lx->nskk + 1, lx->askk);
				lx->skk[lx->nskk].off = (uint32_t)(name - lx->buf);
				lx->skk[lx->nskk++].len = (uint32_t)nlen;
			}
			/* and the statement state scan_punct() keeps */
			if (!rp[depth]) {
				if (sub == P_SEMI)
					kconst = rhs = false;
				else if (sub == P_COMMA)
					rhs = false;
				else if (sub == P_ASSIGN)
					rhs = true;
			}
			p += n;
			break;
		}
		/* a token other than a name: a struct tag's body cannot follow */
		tag = false;
		bol = false;
		k2 = k1;
		k1 = kind;
	}
give_up:
	lx->nskc = nc0;
	lx->nskk = nk0;
	return NULL;
}

/*
 * Does the '{' whose tokens before it end at @tp (and start at lx->t)
 * look like the opening of a function body to pass 2: a "name(" and no
 * struct, union or enum tag pending since the last ';', brace or
 * directive?  A guess: pass 2 decides, and a wrong guess costs a second
 * lexing of the buffer, never a different result.
 */
static bool skim_wanted(const struct lexer *lx, const struct tok *tp)
{
	const struct tok *t, *start = tp - lx->t > 64 ? tp - 64 : lx->t;
	const struct tok *prev = NULL;
	bool cand = false, tag = false;
	int paren = 0, tag_paren = 0;

	if (tp == lx->t || !(tp[-1].type == T_IDENT ||
			     (tp[-1].type == T_PUNCT && tp[-1].sub == P_RPAREN)))
		return false;
	for (t = tp - 1;; t--) {
		if (t->type > T_PUNCT ||
		    (t->type == T_PUNCT && (t->sub == P_SEMI ||
					    t->sub == P_LBRACE ||
					    t->sub == P_RBRACE))) {
			t++;
			break;
		}
		if (t == start) {
			if (t != lx->t)
				return false;
			break;
		}
	}
	for (; t < tp; t++) {
		if (t->type == T_FT)
			continue;
		if (tag && paren <= tag_paren && t->type != T_IDENT &&
		    !(t->type == T_PUNCT && t->sub == P_LPAREN && prev &&
		      prev->type == T_IDENT && prev->word >= 0 &&
		      prev->sub == W_ATTR))
			tag = false;
		if (t->type == T_IDENT && t->word >= 0 &&
		    (t->sub == W_STRUCT || t->sub == W_ENUM)) {
			tag = true;
			tag_paren = paren;
		}
		if (t->type == T_PUNCT && t->sub == P_LPAREN) {
			if (prev && prev->type == T_IDENT &&
			    (prev->word < 0 || prev->sub == W_NAME))
				cand = true;
			paren++;
		} else if (t->type == T_PUNCT && t->sub == P_RPAREN && paren) {
			paren--;
		}
		prev = t;
	}
	return cand && !tag;
}

/*
 * The main loop dispatches on the class of each token's first byte with
 * a computed goto at the end of every case (NEXT), not one switch: each
 * copy of the jump is predicted from what came before it.
 *
 * The rest of a skipped directive's line (#include, #undef, #error...)
 * is tokenized like any line, and its tokens dropped at its end: @skip
 * is where they start.
 */
void lex_tokenize(struct lexer *lx)
{
	static const void *const go[] = {
		[C_PUNCT] = &&punct, [C_WS] = &&ws, [C_NL] = &&nl,
		[C_ID] = &&ident, [C_DIGIT] = &&digit, [C_SLASH] = &&slash,
		[C_QUOTE] = &&quote, [C_BSLASH] = &&bslash, [C_DOT] = &&dot,
		[C_HASH] = &&hash, [C_LBRACE] = &&lbrace, [C_OPEN] = &&open,
		[C_CLOSE] = &&close,
	};
	const char *const b = lx->buf, *const e = b + lx->len;
	const char *p = b, *q;
	struct tz z;
	struct tok *skip = NULL;
	bool bol = true;
	int dir = DIR_NONE;
	/*
	 * the groups open outside directives, counted as the token walks
	 * count them (tok_nesting(): any closer closes any opener): only a
	 * '{' outside all of them is skimmed (body_skim()), or a walk from a
	 * call's '(' or an array's '[' (lex_call_arg(), lex_skip_group(),
	 * close_paren()) would see fewer tokens in it than lexing in full
	 */
	unsigned int nest = 0;

	if (!lx->len)
		return;	/* and lx->t may be NULL */
	z.b = b;
	z.e = e;
	z.tp = lx->t + lx->nt;
	z.tlim = lx->t + lx->at;
	z.line = 1;

#define NEXT do {							\
		if (__builtin_expect(p >= e, 0))			\
			goto done;					\
		if (__builtin_expect(z.tp >= z.tlim, 0))		\
			goto grow;					\
		goto *go[cclass[(unsigned char)*p]];			\
	} while (0)

	NEXT;
grow:
	if (skip) {	/* keep it valid across the realloc */
		size_t k = (size_t)(skip - lx->t);

		z.tp = tok_grow(lx, z.tp);
		skip = lx->t + k;
	} else {
		z.tp = tok_grow(lx, z.tp);
	}
	z.tlim = lx->t + lx->at;
	goto *go[cclass[(unsigned char)*p]];
nl:
	z.line++;
	p++;
	bol = true;
	if (__builtin_expect(dir != DIR_NONE, 0)) {
		if (dir == DIR_DEFINE)
			tok_set(z.tp++, T_EOD, (size_t)(p - 1 - b), 0,
				z.line - 1, 0);
		else
			z.tp = skip;
		dir = DIR_NONE;
	}
	NEXT;
ws:	/* runs of indentation and alignment */
	p++;
	if (p < e && cclass[(unsigned char)*p] == C_WS)
		p = blank_end(p + 1, e);
	NEXT;
ident:
	p = lex_ident(&z, p);
	bol = false;
	NEXT;
digit:
	p = lex_number(&z, p);
	bol = false;
	NEXT;
slash:
	if (p + 1 < e && (p[1] == '*' || p[1] == '/')) {
		p = lex_comment(&z, p);
		NEXT;	/* bol kept: "# ..." may follow */
	}
	goto punct;
quote:
	p = lex_literal(&z, p);
	bol = false;
	NEXT;
bslash:	/* backslash-newline */
	q = bslash_newline(p, e);
	if (q) {
		z.line++;
		p = q;
		NEXT;
	}
	goto punct;
dot:
	bol = false;
	if (p + 1 < e && cclass[(unsigned char)p[1]] == C_DIGIT) {
		p = lex_number(&z, p);
	} else if (e - p >= 3 && p[1] == '.' && p[2] == '.') {
		tok_set(z.tp++, T_PUNCT, (size_t)(p - b), 3, z.line, P_OTHER);
		p += 3;
	} else {
		tok_set(z.tp++, T_PUNCT, (size_t)(p - b), 1, z.line, P_DOT);
		p++;
	}
	NEXT;
hash:
	if (bol && dir == DIR_NONE) {
		p = lex_directive(&z, p, &dir);
		if (dir == DIR_SKIP)
			skip = z.tp;
		bol = false;
		NEXT;
	}
	goto punct;
lbrace:
	if (dir != DIR_NONE)
		goto punct;
	if (!nest && !lx->full && z.tlim - z.tp >= 2 && skim_wanted(lx, z.tp)) {
		const size_t c0 = lx->nskc, k0 = lx->nskk;
		unsigned int l1 = z.line;

		q = body_skim(lx, p, e, &l1);
		if (q) {
			struct skim_body *sb;

			ALLOC_GROW(lx->skb, lx->nskb + 1, lx->askb);
			sb = &lx->skb[lx->nskb++];
			sb->lbrace = (uint32_t)(p - b);
			sb->call = (uint32_t)c0;
			sb->ncall = (uint32_t)(lx->nskc - c0);
			sb->konst = (uint32_t)k0;
			sb->nkonst = (uint32_t)(lx->nskk - k0);
			lx->skim_bytes += (size_t)(q - p);
			tok_set(z.tp++, T_PUNCT, (size_t)(p - b), 1, z.line,
				P_LBRACE);
			z.tp[-1].word = 0;
			z.line = l1;
			tok_set(z.tp++, T_PUNCT, (size_t)(q - 1 - b), 1, z.line,
				P_RBRACE);
			p = q;
			bol = false;
			NEXT;
		}
	}
	nest++;
	goto punct;
open:	/* '(' and '[' */
	if (dir == DIR_NONE)
		nest++;
	goto punct;
close:	/* ')', ']' and '}' */
	if (dir == DIR_NONE && nest)
		nest--;
	goto punct;
punct:
	p = lex_punct(&z, p);
	bol = false;
	NEXT;
#undef NEXT

done:
	if (dir == DIR_DEFINE) {
		if (z.tp >= z.tlim)
			z.tp = tok_grow(lx, z.tp);
		tok_set(z.tp++, T_EOD, lx->len, 0, z.line, 0);
	} else if (dir == DIR_SKIP) {
		z.tp = skip;
	}
	lx->nt = (size_t)(z.tp - lx->t);
}
