// SPDX-License-Identifier: GPL-2.0
/*
 * lex-match.c - the rule matchers: what each rule kind (enum rule_kind,
 * rules.def) accepts, decided at the tokens lex_scan() hands over, and
 * the site list they fill.
 *
 *   fallthrough-comment  lex_fallthrough_comment() (from lex_tokenize())
 *   call rules, alloc-obj, alloc-arith  lex_match_word()
 *   (warn-on-user is decided per release from the call graph: reach.h)
 *   vla                  lex_match_vla(), at each block-scope statement
 *   flex-array-zero/-one lex_struct_token() and lex_struct_end()
 *
 * printk-p is counted by the tokenizer (lex-token.c) while it scans each
 * string literal.
 */
#define _GNU_SOURCE	/* memmem */
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "lex-internal.h"
#include "rules.h"
#include "util.h"

/*
 * GCC's documented regular expressions, each matched against the whole
 * comment text (between the delimiters), case sensitively:
 *
 *   -fallthrough
 *   @fallthrough@
 *   lint -fallthrough[ \t]*
 *   [ \t.!]*(ELSE,? |INTENTIONAL(LY)? )?FALL(S | |-)?THR(OUGH|U)[ \t.!]*(-[^\n\r]*)?
 *   [ \t.!]*(Else,? |Intentional(ly)? )?Fall((s | |-)[Tt]|t)hr(ough|u)[ \t.!]*(-[^\n\r]*)?
 *   [ \t.!]*([Ee]lse,? |[Ii]ntentional(ly)? )?fall(s | |-)?thr(ough|u)[ \t.!]*(-[^\n\r]*)?
 *
 * None of the optional groups can be taken wrongly (what follows each
 * cannot start like it), so a deterministic left-to-right match is exact.
 */
struct cur {
	const char *p, *e;
};

static bool eat(struct cur *c, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(c->e - c->p) < n || memcmp(c->p, lit, n))
		return false;
	c->p += n;
	return true;
}

static bool peek_in(const struct cur *c, const char *set)
{
	return c->p < c->e && *c->p && strchr(set, *c->p);
}

/* [ \t.!]*(-[^\n\r]*)?$ */
static bool ft_tail(struct cur c)
{
	while (peek_in(&c, " \t.!"))
		c.p++;
	if (c.p == c.e)
		return true;
	if (*c.p != '-')
		return false;
	for (c.p++; c.p < c.e; c.p++)
		if (*c.p == '\n' || *c.p == '\r')
			return false;
	return true;
}

/* THR(OUGH|U) / thr(ough|u), the "thr" already eaten */
static bool ft_ough(struct cur *c, bool upper)
{
	if (upper)
		return eat(c, "OUGH") || eat(c, "U");
	return eat(c, "ough") || eat(c, "u");
}

static bool ft_upper(struct cur c)
{
	if (eat(&c, "ELSE")) {
		eat(&c, ",");
		if (!eat(&c, " "))
			return false;
	} else if (eat(&c, "INTENTIONAL")) {
		eat(&c, "LY");
		if (!eat(&c, " "))
			return false;
	}
	if (!eat(&c, "FALL"))
		return false;
	if (!eat(&c, "S ") && !eat(&c, " "))
		eat(&c, "-");
	if (!eat(&c, "THR") || !ft_ough(&c, true))
		return false;
	return ft_tail(c);
}

static bool ft_capital(struct cur c)
{
	if (eat(&c, "Else")) {
		eat(&c, ",");
		if (!eat(&c, " "))
			return false;
	} else if (eat(&c, "Intentional")) {
		eat(&c, "ly");
		if (!eat(&c, " "))
			return false;
	}
	if (!eat(&c, "Fall"))
		return false;
	if (eat(&c, "s ") || eat(&c, " ") || eat(&c, "-")) {
		if (!eat(&c, "T") && !eat(&c, "t"))
			return false;
	} else if (!eat(&c, "t")) {
		return false;
	}
	if (!eat(&c, "hr") || !ft_ough(&c, false))
		return false;
	return ft_tail(c);
}

static bool ft_lower(struct cur c)
{
	if (eat(&c, "Else") || eat(&c, "else")) {
		eat(&c, ",");
		if (!eat(&c, " "))
			return false;
	} else if (eat(&c, "Intentional") || eat(&c, "intentional")) {
		eat(&c, "ly");
		if (!eat(&c, " "))
			return false;
	}
	if (!eat(&c, "fall"))
		return false;
	if (!eat(&c, "s ") && !eat(&c, " "))
		eat(&c, "-");
	if (!eat(&c, "thr") || !ft_ough(&c, false))
		return false;
	return ft_tail(c);
}

bool lex_fallthrough_comment(const char *s, size_t len)
{
	struct cur c = { s, s + len };

	if (len == 12 && !memcmp(s, "-fallthrough", 12))
		return true;
	if (len == 13 && !memcmp(s, "@fallthrough@", 13))
		return true;
	if (eat(&c, "lint -fallthrough")) {
		while (peek_in(&c, " \t"))
			c.p++;
		return c.p == c.e;
	}
	c.p = s;
	while (peek_in(&c, " \t.!"))
		c.p++;
	if (c.p == c.e)
		return false;
	switch (*c.p) {
	case 'E': case 'I': case 'F':
		return ft_upper(c) || ft_capital(c) || ft_lower(c);
	case 'e': case 'i': case 'f':
		return ft_lower(c);
	default:
		return false;
	}
}

/*
 * Allocators whose size is argument 2 (alloc-arith), devm_kmemdup()'s
 * argument 3; the rest: 1.
 */
static int alloc_size_argno(const char *s, size_t len)
{
	static const char *const second[] = {
		"devm_kmalloc", "devm_kzalloc", "krealloc", "kvrealloc",
		"kmemdup", "kvmemdup",
	};
	size_t i;

	if (len == 12 && !memcmp(s, "devm_kmemdup", 12))
		return 3;
	for (i = 0; i < ARRAY_SIZE(second); i++)
		if (strlen(second[i]) == len && !memcmp(second[i], s, len))
			return 2;
	return 1;
}

void lex_add_site(struct lexer *lx, int rule, size_t off, unsigned int line)
{
	struct tsite *s;

	ALLOC_GROW(lx->s, lx->ns + 1, lx->as);
	s = &lx->s[lx->ns];
	s->off = off;
	s->seq = lx->ns++;
	s->rule = rule;
	s->line = line;
	s->func_off = lx->st.func_off;
	s->func_len = lx->st.func_len;
	s->dep_off = 0;
	s->dep_len = 0;
}

#ifdef __SSE2__
/* The lower-case letters among the 16 bytes at @p, a bit each. */
static inline unsigned int lower16(const char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)p);

	/* signed: the bytes >= 0x80 are below 'a' */
	return (unsigned int)_mm_movemask_epi8(
		_mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('a' - 1)),
			      _mm_cmplt_epi8(v, _mm_set1_epi8('z' + 1))));
}
#endif

/*
 * The register headers define tens of thousands of upper-case names of
 * 20 to 60 bytes each (drivers/gpu/drm/amd/include/asic_reg/): 16 bytes
 * at a time, the last 16 overlapping the ones before.
 */
bool lex_all_upper(const char *s, size_t len)
{
#ifdef __SSE2__
	if (len >= 16) {
		size_t i;

		for (i = 0; i + 16 <= len; i += 16)
			if (lower16(s + i))
				return false;
		return i == len || !lower16(s + len - 16);
	}
#endif
	while (len--) {
		if (*s >= 'a' && *s <= 'z')
			return false;
		s++;
	}
	return true;
}

size_t lex_skip_group(const struct lexer *lx, size_t i, size_t end)
{
	int depth = 0;

	for (; i < end; i++) {
		const struct tok *t = &lx->t[i];

		int d;

		if (t->type == T_EOD || t->type == T_DEFINE)
			return i;
		d = tok_nesting(t);
		if (d > 0)
			depth++;
		else if (d < 0 && --depth <= 0)
			return i + 1;
	}
	return end;
}

static bool name_in(const char *s, size_t len, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(v[i]) == len && !memcmp(v[i], s, len))
			return true;
	return false;
}

static bool scalar_type(const struct lexer *lx, const struct tok *t);

/* Kernel macros whose value is a constant whatever their arguments. */
static bool const_macro(const char *s, size_t len)
{
	static const char *const v[] = {
		"sizeof_field", "offsetof", "offsetofend", "__same_type",
	};

	return name_in(s, len, v, ARRAY_SIZE(v));
}

/* min()/max() and friends: constant when their arguments are. */
static bool minmax_macro(const char *s, size_t len)
{
	static const char *const v[] = {
		"min", "max", "min_t", "max_t", "min3", "max3", "clamp",
		"clamp_t", "clamp_val", "umin", "umax",
		"round_up", "round_down", "roundup", "rounddown",
	};

	return name_in(s, len, v, ARRAY_SIZE(v));
}

/*
 * struct_size(p, member, n), struct_size_t(type, member, n) and
 * flex_array_size(p, member, n): constant when n is (include/linux/
 * overflow.h chooses the constant expression then).
 */
static bool size_macro(const char *s, size_t len)
{
	static const char *const v[] = {
		"struct_size", "struct_size_t", "flex_array_size",
	};

	return name_in(s, len, v, ARRAY_SIZE(v));
}

/* Is @s (@len bytes) a constant of the buffer so far? */
static bool buffer_const(const struct lexer *lx, const char *s, size_t len)
{
	if (lex_idset_has(lx, &lx->consts, s, len) ||
	    lex_idset_has(lx, &lx->enums, s, len))
		return true;
	return lex_idset_has(lx, &lx->macros, s, len) &&
	       !lex_idset_has(lx, &lx->vars, s, len);
}

/* The dependency names of the buffer's macro @s (@len bytes), or NULL. */
static const struct dmacro *dmacro_find(const struct lexer *lx, const char *s,
					size_t len)
{
	size_t i;

	if (!lex_idset_has(lx, &lx->dmacros, s, len) ||
	    lex_idset_has(lx, &lx->vars, s, len))
		return NULL;
	for (i = 0; i < lx->ndm; i++)
		if (lx->dm[i].len == len &&
		    !memcmp(lx->buf + lx->dm[i].off, s, len))
			return &lx->dm[i];
	return NULL;
}

/* Past the first argument (a type) of the call whose args start at @i. */
static size_t skip_type_arg(const struct lexer *lx, size_t i, size_t b)
{
	int depth = 0;

	for (; i < b; i++) {
		const struct tok *t = &lx->t[i];

		if (t->type != T_PUNCT)
			continue;
		if (t->sub == P_LPAREN || t->sub == P_LBRACK)
			depth++;
		else if (t->sub == P_RPAREN || t->sub == P_RBRACK)
			depth--;
		else if (t->sub == P_COMMA && depth == 0)
			return i + 1;
		if (depth < 0)
			return i;
	}
	return b;
}

/*
 * The next name of the blank-separated list [*@p, @e): *@w and *@n, and
 * *@p past it; false at the end.
 */
static bool deps_next(const char **p, const char *e, const char **w, size_t *n)
{
	const char *q;

	while (*p < e && **p == ' ')
		(*p)++;
	if (*p >= e)
		return false;
	q = memchr(*p, ' ', (size_t)(e - *p));
	if (!q)
		q = e;
	*w = *p;
	*n = (size_t)(q - *p);
	*p = q;
	return true;
}

/* Append the name @s (@len bytes) to the blank-separated list @deps once. */
static void deps_add(struct sbuf *deps, const char *s, size_t len)
{
	const char *p = deps->buf, *w;
	size_t n;

	while (p && deps_next(&p, deps->buf + deps->len, &w, &n))
		if (n == len && !memcmp(w, s, len))
			return;
	if (deps->len)
		sbuf_addch(deps, ' ');
	sbuf_add(deps, s, len);
}

/* Keep the list @deps in lx->deps: *@off and *@len say where. */
static void deps_keep(struct lexer *lx, const struct sbuf *deps,
		      uint32_t *off, uint32_t *len)
{
	sbuf_addch(&lx->deps, ' ');
	*off = (uint32_t)lx->deps.len;
	*len = (uint32_t)deps->len;
	sbuf_add(&lx->deps, deps->buf, deps->len);
}

/* How deep deps_add_name() follows the buffer's macros defined by macros. */
#define DMACRO_DEPTH 8

/*
 * Add the plain name @s (@len bytes) to @deps: a macro of the buffer that
 * is constant when some names are adds those names instead (those that
 * are not constants of the buffer by now: "#define a (b * 2)" before
 * "#define b 4" makes a constant).
 */
static void deps_add_name(const struct lexer *lx, struct sbuf *deps,
			  const char *s, size_t len, int depth)
{
	const struct dmacro *m = dmacro_find(lx, s, len);
	const char *p, *w;
	size_t n;

	if (!m || depth >= DMACRO_DEPTH) {
		deps_add(deps, s, len);
		return;
	}
	p = lx->deps.buf + m->dep_off;
	while (deps_next(&p, lx->deps.buf + m->dep_off + m->dep_len, &w, &n))
		if (!buffer_const(lx, w, n))
			deps_add_name(lx, deps, w, n, depth + 1);
}

/*
 * Is the expression in tokens [a, b) constant: every identifier all upper
 * case, ignoring sizeof(...)/__alignof__(...), sizeof_field()/offsetof(),
 * the arguments of an all-upper-case macro call, and min()/max() (and
 * _t, 3, clamp forms: their arguments decide)?  With @heur, lower-case
 * const variables, enumerators and object-like macros with constant
 * bodies defined earlier in the buffer count as constant too.
 *
 * With @deps non-NULL, a plain name that is none of these (not called,
 * not a member after '.' or '->') is appended to @deps instead of making
 * the expression non-constant: the caller decides by what the release
 * defines (a header's enumerator or macro).  The result is then true
 * when nothing else is non-constant.
 */
static bool expr_const(const struct lexer *lx, size_t a, size_t b, bool heur,
		       struct sbuf *deps)
{
	size_t i = a;

	while (i < b) {
		const struct tok *t = &lx->t[i];
		const char *s = lx->buf + t->off;
		size_t n;

		if (t->type != T_IDENT) {
			i++;
			continue;
		}
		n = next_sig(lx, i);
		if (t->word >= 0 && t->sub == W_SIZEOF) {
			if (n < b && is_punct(&lx->t[n], P_LPAREN)) {
				i = lex_skip_group(lx, n, b);
				continue;
			}
			/* sizeof unary-expression: *&, a name, postfix */
			for (i = n; i < b && lx->t[i].type == T_PUNCT &&
			     (lx->t[i].sub == P_STAR || *(lx->buf + lx->t[i].off) == '&');
			     i++)
				;
			if (i < b && lx->t[i].type == T_IDENT)
				i++;
			while (i < b) {
				const struct tok *u = &lx->t[i];

				if ((is_punct(u, P_DOT) || is_punct(u, P_ARROW)) &&
				    i + 1 < b && lx->t[i + 1].type == T_IDENT)
					i += 2;
				else if (is_punct(u, P_LBRACK))
					i = lex_skip_group(lx, i, b);
				else
					break;
			}
			continue;
		}
		if (t->word >= 0 && t->sub != W_NAME) {
			i++;			/* a keyword */
			continue;
		}
		if (n < b && is_punct(&lx->t[n], P_LPAREN) &&
		    const_macro(s, t->len)) {
			i = lex_skip_group(lx, n, b);	/* sizeof_field(T, m) */
			continue;
		}
		if (n < b && is_punct(&lx->t[n], P_LPAREN) &&
		    size_macro(s, t->len)) {
			size_t x, y;

			if (!lex_call_arg(lx, n, 3, &x, &y) ||
			    !expr_const(lx, x, y, heur, deps))
				return false;
			i = lex_skip_group(lx, n, b);
			continue;
		}
		if (scalar_type(lx, t)) {
			i++;			/* a cast's type: (u16)12 */
			continue;
		}
		if (n < b && is_punct(&lx->t[n], P_LPAREN) &&
		    minmax_macro(s, t->len)) {
			i = n + 1;		/* min(A, B): its arguments decide */
			if (s[t->len - 1] == 't' && s[t->len - 2] == '_')
				i = skip_type_arg(lx, i, b);
			continue;
		}
		if (lex_all_upper(s, t->len)) {
			if (n < b && is_punct(&lx->t[n], P_LPAREN))
				i = lex_skip_group(lx, n, b);
			else
				i++;
			continue;
		}
		if (heur && buffer_const(lx, s, t->len)) {
			i++;
			continue;
		}
		if (deps && (n >= b || !is_punct(&lx->t[n], P_LPAREN)) &&
		    !(i > a && (is_punct(&lx->t[i - 1], P_DOT) ||
				is_punct(&lx->t[i - 1], P_ARROW)))) {
			/* a macro of the buffer: the names its body needs */
			deps_add_name(lx, deps, s, t->len, 0);
			i++;
			continue;
		}
		return false;
	}
	return true;
}

bool lex_define_const(struct lexer *lx, size_t name)
{
	struct sbuf deps = SBUF_INIT;
	struct dmacro *m;
	size_t i, end;
	bool ok;

	/* an upper-case name is a constant wherever it is used: no need */
	if (lex_all_upper(lx->buf + lx->t[name].off, lx->t[name].len))
		return false;

	for (end = name + 1; end < lx->nt && lx->t[end].type != T_EOD &&
	     lx->t[end].type != T_DEFINE; end++) {
		const struct tok *t = &lx->t[end];

		/* a statement, an initializer, a string: no constant */
		if (t->type == T_STRING || t->type == T_COND ||
		    is_punct(t, P_LBRACE) || is_punct(t, P_SEMI) ||
		    is_punct(t, P_HASHHASH) ||
		    (t->type == T_IDENT && t->word >= 0 &&
		     (t->sub == W_STMT || t->sub == W_STRUCT ||
		      t->sub == W_ENUM || t->sub == W_ATTR)))
			return false;
	}
	for (i = name + 1; i < end && lx->t[i].type == T_FT; i++)
		;
	if (i == end)
		return false;		/* an empty body: a flag macro */
	ok = expr_const(lx, name + 1, end, true, &deps);
	if (!ok || !deps.len) {
		sbuf_release(&deps);
		return ok;
	}
	/* constant if the names it needs are: record them */
	if (!dmacro_find(lx, lx->buf + lx->t[name].off, lx->t[name].len)) {
		ALLOC_GROW(lx->dm, lx->ndm + 1, lx->adm);
		m = &lx->dm[lx->ndm++];
		m->off = lx->t[name].off;
		m->len = lx->t[name].len;
		deps_keep(lx, &deps, &m->dep_off, &m->dep_len);
		lex_idset_add(lx, &lx->dmacros, m->off, m->len);
	}
	sbuf_release(&deps);
	return false;
}

/* Does token @t end an operand (so a following '*' is binary)? */
static bool ends_operand(const struct tok *t)
{
	switch (t->type) {
	case T_IDENT:
		return t->word < 0 || t->sub == W_NAME;
	case T_NUMBER:
	case T_STRING:
	case T_CHAR:
		return true;
	case T_PUNCT:
		return t->sub == P_RPAREN || t->sub == P_RBRACK;
	default:
		return false;
	}
}

/*
 * The tokens [*@a, *@b) of argument @argno (1-based) of the call whose
 * '(' is token @lp.  False when the call has no such argument or is cut
 * by the end of a #define.
 */
bool lex_call_arg(const struct lexer *lx, size_t lp, int argno,
		  size_t *a, size_t *b)
{
	size_t i;
	int depth = 0, arg = 1;

	*a = lp + 1;
	for (i = lp + 1; i < lx->nt; i++) {
		const struct tok *t = &lx->t[i];
		int d = tok_nesting(t);

		if (t->type == T_EOD || t->type == T_DEFINE)
			return false;
		if (d > 0) {
			depth++;
		} else if (d < 0) {
			if (depth-- == 0) {
				*b = i;
				return arg == argno;
			}
		} else if (is_punct(t, P_COMMA) && depth == 0) {
			if (arg == argno) {
				*b = i;
				return true;
			}
			arg++;
			*a = i + 1;
		}
	}
	return false;
}

/*
 * alloc-arith: the call whose '(' is token @lp; the size is argument
 * @argno.  Split it at top-level binary '+'/'-' into terms; true if a
 * term is a product (top-level binary '*') with a non-constant factor.
 */
static bool alloc_arith(const struct lexer *lx, size_t lp, int argno)
{
	size_t i, a, b, fs, prev;
	int depth = 0;
	bool product = false, nonconst = false;

	if (!lex_call_arg(lx, lp, argno, &a, &b))
		return false;
	fs = a;
	prev = SIZE_MAX;
	for (i = a; i <= b; i++) {
		const struct tok *t = &lx->t[i];
		bool binary;

		if (i < b && t->type == T_FT)
			continue;
		if (i < b)
			depth += tok_nesting(t);
		if (i < b && (depth != 0 || t->type != T_PUNCT ||
			      (t->sub != P_STAR && t->sub != P_PLUS &&
			       t->sub != P_MINUS))) {
			prev = i;
			continue;
		}
		binary = i == b ||
			 (prev != SIZE_MAX && ends_operand(&lx->t[prev]));
		if (!binary) {
			prev = i;
			continue;
		}
		/* end of a factor */
		if (!expr_const(lx, fs, i, false, NULL))
			nonconst = true;
		fs = i + 1;
		if (i < b && t->sub == P_STAR) {
			product = true;
		} else {
			/* end of a term */
			if (product && nonconst)
				return true;
			product = false;
			nonconst = false;
		}
		prev = i;
	}
	return false;
}

/*
 * vla: at a statement start @i in a function body, a declaration
 * "type-ish tokens, name, [expr]..." followed by ';', '=' or ','.
 * Returns the name's token index, or 0 when it is no VLA.
 */
static size_t vla_check(const struct lexer *lx, size_t i, struct sbuf *deps)
{
	const struct tok *t = &lx->t[i];
	size_t j, name;
	bool vla = false;

	if (t->type != T_IDENT)
		return 0;
	if (t->word >= 0 && (t->sub == W_STMT || t->sub == W_SIZEOF ||
			     t->sub == W_ATTR))
		return 0;
	name = i;
	for (j = i;;) {
		t = &lx->t[j];
		if (t->type == T_IDENT) {
			/* static and extern arrays cannot be VLAs */
			if (t->word >= 0 && t->sub == W_KEYWORD &&
			    ((t->len == 6 &&
			      !memcmp(lx->buf + t->off, "static", 6)) ||
			     (t->len == 6 &&
			      !memcmp(lx->buf + t->off, "extern", 6))))
				return 0;
			name = j;
		} else if (is_punct(t, P_STAR)) {
			name = 0;
		} else {
			break;
		}
		j = next_sig(lx, j);
		if (j >= lx->nt)
			return 0;
	}
	/* need at least one type token before the name */
	if (!name || name == i || !is_punct(t, P_LBRACK))
		return 0;
	while (j < lx->nt && is_punct(&lx->t[j], P_LBRACK)) {
		size_t k = lex_skip_group(lx, j, lx->nt);

		if (k <= j + 1 || !is_punct(&lx->t[k - 1], P_RBRACK))
			return 0;
		if (!expr_const(lx, j + 1, k - 1, true, deps))
			vla = true;
		j = k < lx->nt && lx->t[k].type == T_FT ? next_sig(lx, k) : k;
	}
	if (j >= lx->nt)
		return 0;
	t = &lx->t[j];
	if (!is_punct(t, P_SEMI) && !is_punct(t, P_ASSIGN) &&
	    !is_punct(t, P_COMMA))
		return 0;
	if (vla)
		sbuf_reset(deps);	/* a VLA whatever the names are */
	return vla || deps->len ? name : 0;
}

void lex_match_vla(struct lexer *lx, size_t i)
{
	struct sbuf deps = SBUF_INIT;
	size_t name = vla_check(lx, i, &deps);

	if (name) {
		lex_add_site(lx, RULE_VLA, lx->t[name].off, lx->t[name].line);
		if (deps.len)
			deps_keep(lx, &deps, &lx->s[lx->ns - 1].dep_off,
				  &lx->s[lx->ns - 1].dep_len);
	}
	if (deps.buf)		/* most statements are no declarator[...] */
		sbuf_release(&deps);
}

static bool tok_is(const struct lexer *lx, const struct tok *t, const char *s)
{
	size_t n = strlen(s);

	return t->type == T_IDENT && t->len == n && !memcmp(lx->buf + t->off, s, n);
}

bool lex_ft_before_label(const struct lexer *lx, size_t i)
{
	size_t n;

	for (i++; i < lx->nt; i++) {
		const struct tok *t = &lx->t[i];

		if (t->type == T_FT || t->type == T_COND)
			continue;
		if (t->type != T_IDENT)
			return false;
		if (tok_is(lx, t, "case") || tok_is(lx, t, "default"))
			return true;
		/* a user label, which a case label must follow */
		n = next_sig(lx, i);
		if (t->word >= 0 || n >= lx->nt || !is_punct(&lx->t[n], P_COLON))
			return false;
		i = n;
	}
	return false;
}

/* ---- alloc-obj (v7.3's deprecated.rst, scripts/coccinelle/api/kmalloc_objs.cocci) ---- */

/*
 * Integer and character types: a sizeof() of one, or of a pointer to one,
 * sizes a byte or scalar buffer, not a struct object.  The cocci script's
 * INTEGRAL list, with the signed and plain C types the section's "struct
 * objects" also leaves out.
 */
static bool scalar_type(const struct lexer *lx, const struct tok *t)
{
	static const char *const names[] = {
		"char", "short", "int", "long", "signed", "unsigned", "_Bool",
		"bool", "float", "double",
		"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
		"__u8", "__u16", "__u32", "__u64", "__s8", "__s16", "__s32",
		"__s64", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
		"int8_t", "int16_t", "int32_t", "int64_t", "uchar", "ushort",
		"uint", "ulong", "__le16", "__le32", "__le64", "__be16",
		"__be32", "__be64", "wchar_t", "size_t", "ssize_t",
	};
	size_t i;

	if (t->type != T_IDENT)
		return false;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (tok_is(lx, t, names[i]))
			return true;
	return false;
}

static bool is_const_word(const struct lexer *lx, const struct tok *t)
{
	return tok_is(lx, t, "const") || tok_is(lx, t, "volatile");
}

/* Strip the parentheses around the whole of [*a, *b). */
static void strip_parens(const struct lexer *lx, size_t *a, size_t *b)
{
	while (*b - *a >= 2 && is_punct(&lx->t[*a], P_LPAREN) &&
	       lex_skip_group(lx, *a, *b) == *b)
		(*a)++, (*b)--;
}

/*
 * Tokens [a, b) are exactly "sizeof(X)" (or "sizeof X") with X an object
 * or a type that is no scalar, string or void pointer: a struct object's
 * size.
 */
static bool obj_sizeof(const struct lexer *lx, size_t a, size_t b)
{
	const struct tok *t;
	size_t oa, ob, i;
	bool star = false, scalar = false, type = true, isvoid = false;

	strip_parens(lx, &a, &b);
	if (b <= a + 1 || !tok_is(lx, &lx->t[a], "sizeof"))
		return false;
	oa = a + 1;
	ob = b;
	if (is_punct(&lx->t[oa], P_LPAREN)) {
		if (lex_skip_group(lx, oa, b) != b)
			return false;	/* sizeof(x) + y, sizeof(x) * n */
		oa++;
		ob--;
	}
	if (oa >= ob)
		return false;
	/* sizeof *p, sizeof(*p), sizeof(p->q), sizeof(struct foo), ... */
	for (i = oa; i < ob; i++) {
		t = &lx->t[i];
		if (t->type == T_STRING)
			return false;	/* a string literal */
		if (is_punct(t, P_STAR)) {
			star = true;
		} else if (t->type == T_IDENT) {
			if (scalar_type(lx, t))
				scalar = true;
			else if (tok_is(lx, t, "void"))
				isvoid = true;
		} else {
			type = false;	/* an expression */
		}
	}
	if (is_punct(&lx->t[oa], P_STAR))
		return true;		/* *ptr: the pointee */
	if (!type)
		return true;		/* p->member, array[0], ... */
	if (isvoid && star)
		return false;		/* sizeof(void *) */
	if (scalar && (lx->t[oa].type == T_IDENT || star))
		return false;		/* u8, int, char *, unsigned long */
	return !isvoid || star;
}

/* [a, b) is exactly struct_size(...) or struct_size_t(...). */
static bool flex_size(const struct lexer *lx, size_t a, size_t b)
{
	strip_parens(lx, &a, &b);
	if (b <= a + 1 || (!tok_is(lx, &lx->t[a], "struct_size") &&
			   !tok_is(lx, &lx->t[a], "struct_size_t")))
		return false;
	return is_punct(&lx->t[a + 1], P_LPAREN) &&
	       lex_skip_group(lx, a + 1, b) == b;
}

/*
 * The variable assigned at the '=' before token @call is declared, in the
 * current function, as a pointer to a scalar ("u8 *buf", "char **v"): a
 * byte buffer, whatever its size expression.
 */
static bool lhs_scalar_pointer(const struct lexer *lx, size_t call)
{
	size_t eq, i, name;
	const struct tok *nt;

	if (call < 2 || !lx->st.func_len || lx->in_define)
		return false;
	eq = call - 1;
	while (eq > 0 && lx->t[eq].type == T_FT)
		eq--;
	name = eq - 1;
	nt = &lx->t[name];
	if (nt->type != T_IDENT)
		return false;	/* p->buf, a[i]: not looked up */
	for (i = name + 1; i-- > 0 && lx->t[i].off >= lx->st.func_off;) {
		size_t j = i;
		bool star = false;

		if (lx->t[i].type != T_IDENT || lx->t[i].len != nt->len ||
		    memcmp(lx->buf + lx->t[i].off, lx->buf + nt->off, nt->len))
			continue;
		while (j > 0 && (is_punct(&lx->t[j - 1], P_STAR) ||
				 is_const_word(lx, &lx->t[j - 1]))) {
			star |= is_punct(&lx->t[j - 1], P_STAR);
			j--;
		}
		if (star && j > 0 && scalar_type(lx, &lx->t[j - 1]))
			return true;
		if (star && j > 0 && lx->t[j - 1].type == T_IDENT)
			return false;	/* declared as another pointer */
	}
	return false;
}

static bool same_tokens(const struct lexer *lx, size_t a, size_t b, size_t c,
			size_t d)
{
	for (; a < b && c < d; a++, c++)
		if (lx->t[a].len != lx->t[c].len ||
		    memcmp(lx->buf + lx->t[a].off, lx->buf + lx->t[c].off,
			   lx->t[a].len))
			return false;
	return a == b && c == d;
}

/*
 * [a, b) is exactly sizeof(*LHS), LHS the left side of the '=' before the
 * allocator @call ("p", "x->p", "*pp"): the object the pointer points to,
 * whatever its type (the cocci script's first case).
 */
static bool sizeof_deref_lhs(const struct lexer *lx, size_t a, size_t b,
			     size_t call)
{
	size_t eq = call - 1, ls;

	strip_parens(lx, &a, &b);
	if (b <= a + 2 || !tok_is(lx, &lx->t[a], "sizeof"))
		return false;
	a++;
	if (is_punct(&lx->t[a], P_LPAREN)) {
		if (lex_skip_group(lx, a, b) != b)
			return false;
		a++;
		b--;
	}
	if (a >= b || !is_punct(&lx->t[a], P_STAR))
		return false;
	a++;
	while (eq > 0 && lx->t[eq].type == T_FT)
		eq--;
	for (ls = eq; ls > 0; ls--) {
		const struct tok *t = &lx->t[ls - 1];

		if (t->type != T_IDENT && !is_punct(t, P_DOT) &&
		    !is_punct(t, P_ARROW) && !is_punct(t, P_STAR))
			break;
		if (t->type == T_IDENT && t->word >= 0 && t->sub != W_NAME)
			break;	/* a keyword: the declaration's type */
	}
	/* "struct foo *p =": the declarator's '*' is no part of LHS */
	while (ls < eq && is_punct(&lx->t[ls], P_STAR) && ls > 0 &&
	       lx->t[ls - 1].type == T_IDENT)
		ls++;
	while (ls < eq && lx->t[ls].type == T_IDENT && ls + 1 < eq &&
	       (lx->t[ls + 1].type == T_IDENT || is_punct(&lx->t[ls + 1], P_STAR)))
		ls++;	/* type names before the declarator */
	while (ls < eq && is_punct(&lx->t[ls], P_STAR) && ls + 1 < eq &&
	       lx->t[ls + 1].type == T_IDENT && ls > 0 &&
	       lx->t[ls - 1].type == T_IDENT)
		ls++;
	return ls < eq && same_tokens(lx, a, b, ls, eq);
}

/* The allocator at token @i ('(' at @lp) allocates a struct object. */
static bool alloc_obj(const struct lexer *lx, size_t i, size_t lp)
{
	const struct tok *t = &lx->t[i];
	const char *s = lx->buf + t->off;
	bool devm = t->len > 5 && !memcmp(s, "devm_", 5);
	bool array = memmem(s, t->len, "calloc", 6) ||
		     memmem(s, t->len, "_array", 6);
	int first = devm ? 2 : 1;
	size_t a, b;

	if (!array && lex_call_arg(lx, lp, first, &a, &b) &&
	    sizeof_deref_lhs(lx, a, b, i))
		return true;
	if (lhs_scalar_pointer(lx, i))
		return false;
	if (!array)
		return lex_call_arg(lx, lp, first, &a, &b) &&
		       (obj_sizeof(lx, a, b) || flex_size(lx, a, b));
	/* kcalloc(n, sizeof(*p)) or, swapped, kcalloc(sizeof(*p), n) */
	if (lex_call_arg(lx, lp, first + 1, &a, &b) && obj_sizeof(lx, a, b))
		return true;
	return lex_call_arg(lx, lp, first, &a, &b) && obj_sizeof(lx, a, b);
}

/* An identifier that may be a call of a rule's function. */
/* Does rule @r count calls (rules.def's MATCH_CALL and MATCH_CALL_ANYWHERE)? */
static inline bool call_rule(int r)
{
	return rules[r].kind == MATCH_CALL || rules[r].kind == MATCH_CALL_ANYWHERE;
}

/*
 * Is the walk in the body of a function or macro named like one of the
 * call rules' own names?  That body is the interface, not a use of it:
 * "#define BUG_ON(c) do { if (c) BUG(); } while (0)", "#define
 * WARN_ON_ONCE(c) WARN_ON(c)", lib/vsprintf.c's simple_strtol() calling
 * simple_strtoul(), include/linux/idr.h's idr_init() calling
 * idr_init_base().
 */
static bool in_own_definition(const struct lexer *lx)
{
	uint32_t m;
	int w;

	if (!lx->st.func_len)
		return false;
	w = lex_word_find(lx->buf + lx->st.func_off, lx->st.func_len);
	if (w < 0)
		return false;
	for (m = lex_words.w[w].rules; m; m &= m - 1)
		if (call_rule(__builtin_ctz(m)))
			return true;
	return false;
}

void lex_drop_definition(struct lexer *lx, uint32_t off)
{
	size_t j, k = lx->ns;

	while (k > 0 && lx->s[k - 1].off >= off)
		k--;
	for (j = k; j < lx->ns; j++)
		if (lx->s[j].off != off || !call_rule(lx->s[j].rule))
			lx->s[k++] = lx->s[j];
	lx->ns = k;
}

void lex_match_word(struct lexer *lx, size_t i)
{
	const struct tok *t = &lx->t[i];
	const struct word *w = &lex_words.w[t->word];
	const struct tok *pv = lex_prev(lx);
	/*
	 * Code: a function or #define body, or the arguments of an
	 * upper-case macro called at file scope ("TRACE_EVENT(...
	 * TP_fast_assign(...))", "DEFINE_GUARD(..., lock(_T), ...)"), whose
	 * calls the macro puts in a function.  Not a declaration's "NAME(",
	 * nor what is inside a prototype's parentheses ("__typeof__(...)",
	 * a parameter list that #if branches leave unbalanced).
	 */
	bool code = lx->in_define || lx->nfr > 0 ||
		    (lx->st.paren > 0 && lx->st.macro_args);
	bool call, member;
	size_t n;
	uint32_t m;
	int r;

	member = pv && pv->type == T_PUNCT &&
		 (pv->sub == P_DOT || pv->sub == P_ARROW ||
		  pv->sub == P_HASHHASH);
	n = next_sig(lx, i);
	call = !member && n < lx->nt && is_punct(&lx->t[n], P_LPAREN);

	for (m = w->rules; m; m &= m - 1) {
		r = __builtin_ctz(m);
		switch (rules[r].kind) {
		case MATCH_IDENT_ANYWHERE:
			lex_add_site(lx, r, t->off, t->line);
			break;
		case MATCH_CALL_ANYWHERE:
			if (call && !in_own_definition(lx))
				lex_add_site(lx, r, t->off, t->line);
			break;
		case MATCH_CALL:
			if (!call || !code || in_own_definition(lx))
				break;
			lex_add_site(lx, r, t->off, t->line);
			break;
		case MATCH_ALLOC_OBJ:
			if (call && code && pv && is_punct(pv, P_ASSIGN) &&
			    alloc_obj(lx, i, n))
				lex_add_site(lx, r, t->off, t->line);
			break;
		case MATCH_ALLOC_ARITH:
			if (call && code &&
			    alloc_arith(lx, n,
					alloc_size_argno(lx->buf + t->off,
							 t->len)))
				lex_add_site(lx, r, t->off, t->line);
			break;
		default:
			break;
		}
	}
}

void lex_struct_end(struct lexer *lx, struct frame *f)
{
	int dim = f->cur_any ? f->cur_dim : f->last_dim;
	uint32_t off = f->cur_any ? f->cur_off : f->last_off;
	uint32_t line = f->cur_any ? f->cur_line : f->last_line;

	if (dim == DIM_ZERO)
		lex_add_site(lx, RULE_FLEX_ARRAY_ZERO, off, line);
	else if (dim == DIM_ONE && !f->is_union)
		lex_add_site(lx, RULE_FLEX_ARRAY_ONE, off, line);
}

void lex_struct_token(struct lexer *lx, struct frame *f, size_t i)
{
	const struct tok *t = &lx->t[i];
	const struct tok *pv = lex_prev(lx);

	if (lx->st.paren != f->paren)
		return;
	if (t->type == T_PUNCT) {
		switch (t->sub) {
		case P_SEMI:
			if (f->brk)
				return;
			f->last_dim = f->cur_dim;
			f->last_off = f->cur_off;
			f->last_line = f->cur_line;
			f->cur_dim = DIM_NONE;
			f->cur_any = false;
			return;
		case P_COMMA:
			if (!f->brk)
				f->cur_dim = DIM_NONE;
			return;
		case P_LBRACK:
			if (f->brk++ == 0) {
				size_t n = next_sig(lx, i), m;
				int dim = DIM_OTHER;

				m = n < lx->nt ? next_sig(lx, n) : n;
				if (m < lx->nt && is_punct(&lx->t[m], P_RBRACK) &&
				    lx->t[n].type == T_NUMBER &&
				    lx->t[n].len == 1) {
					if (lx->buf[lx->t[n].off] == '0')
						dim = DIM_ZERO;
					else if (lx->buf[lx->t[n].off] == '1')
						dim = DIM_ONE;
				}
				if (pv && pv->type == T_IDENT) {
					f->cur_off = pv->off;
					f->cur_line = pv->line;
				} else if (f->cur_dim == DIM_NONE) {
					f->cur_off = t->off;
					f->cur_line = t->line;
				}
				f->cur_dim = (int8_t)dim;
			}
			f->cur_any = true;
			return;
		case P_RBRACK:
			if (f->brk)
				f->brk--;
			return;
		case P_RBRACE:
			return;		/* our own end */
		default:
			break;
		}
	}
	f->cur_any = true;
}
