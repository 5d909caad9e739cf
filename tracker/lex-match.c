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
#include <stdint.h>
#include <string.h>

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

/* Allocators whose size is argument 2 (alloc-arith); the rest: 1. */
static int alloc_size_argno(const char *s, size_t len)
{
	static const char *const second[] = {
		"devm_kmalloc", "devm_kzalloc", "krealloc", "kvrealloc",
	};
	size_t i;

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
}

static bool all_upper(const char *s, size_t len)
{
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

		if (t->type == T_EOD || t->type == T_DEFINE)
			return i;
		if (t->type != T_PUNCT)
			continue;
		if (t->sub == P_LPAREN || t->sub == P_LBRACK ||
		    t->sub == P_LBRACE)
			depth++;
		else if (t->sub == P_RPAREN || t->sub == P_RBRACK ||
			 t->sub == P_RBRACE)
			if (--depth <= 0)
				return i + 1;
	}
	return end;
}

/*
 * Is the expression in tokens [a, b) constant: every identifier all upper
 * case, ignoring sizeof(...)/__alignof__(...) and the arguments of an
 * all-upper-case macro call?  With @heur, lower-case const variables
 * and enumerators declared earlier in the buffer count as constant too.
 */
static bool expr_const(const struct lexer *lx, size_t a, size_t b, bool heur)
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
		if (all_upper(s, t->len)) {
			if (n < b && is_punct(&lx->t[n], P_LPAREN))
				i = lex_skip_group(lx, n, b);
			else
				i++;
			continue;
		}
		if (heur && (lex_idset_has(lx, &lx->consts, s, t->len) ||
			     lex_idset_has(lx, &lx->enums, s, t->len))) {
			i++;
			continue;
		}
		return false;
	}
	return true;
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

		if (t->type == T_EOD || t->type == T_DEFINE)
			return false;
		if (t->type != T_PUNCT)
			continue;
		if (t->sub == P_LPAREN || t->sub == P_LBRACK ||
		    t->sub == P_LBRACE) {
			depth++;
		} else if (t->sub == P_RPAREN || t->sub == P_RBRACK ||
			   t->sub == P_RBRACE) {
			if (depth-- == 0) {
				*b = i;
				return arg == argno;
			}
		} else if (t->sub == P_COMMA && depth == 0) {
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
		if (i < b && t->type == T_PUNCT) {
			if (t->sub == P_LPAREN || t->sub == P_LBRACK ||
			    t->sub == P_LBRACE)
				depth++;
			else if (t->sub == P_RPAREN || t->sub == P_RBRACK ||
				 t->sub == P_RBRACE)
				depth--;
		}
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
		if (!expr_const(lx, fs, i, false))
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
static size_t vla_check(const struct lexer *lx, size_t i)
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
		if (!expr_const(lx, j + 1, k - 1, true))
			vla = true;
		j = k < lx->nt && lx->t[k].type == T_FT ? next_sig(lx, k) : k;
	}
	if (j >= lx->nt)
		return 0;
	t = &lx->t[j];
	if (!is_punct(t, P_SEMI) && !is_punct(t, P_ASSIGN) &&
	    !is_punct(t, P_COMMA))
		return 0;
	return vla ? name : 0;
}

void lex_match_vla(struct lexer *lx, size_t i)
{
	size_t name = vla_check(lx, i);

	if (name)
		lex_add_site(lx, RULE_VLA, lx->t[name].off, lx->t[name].line);
}

/* An identifier that may be a call of a rule's function. */
void lex_match_word(struct lexer *lx, size_t i)
{
	const struct tok *t = &lx->t[i];
	const struct word *w = &lex_words.w[t->word];
	const struct tok *pv = lex_prev(lx);
	bool code = lx->in_define || lx->nfr > 0;
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
			if (call)
				lex_add_site(lx, r, t->off, t->line);
			break;
		case MATCH_CALL:
			if (!call || !code)
				break;
			lex_add_site(lx, r, t->off, t->line);
			break;
		case MATCH_ALLOC_OBJ:
			if (call && code && pv && is_punct(pv, P_ASSIGN))
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
	else if (dim == DIM_ONE)
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
