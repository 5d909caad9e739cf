// SPDX-License-Identifier: GPL-2.0
/*
 * test-lexer.c - the rule matchers, with exact expected counts, lines,
 * enclosing functions and normalised source lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <cmocka.h>

#include "lex-internal.h"
#include "lexer.h"
#include "rules.h"
#include "util.h"

/* Lex @src from an exact-size copy (no NUL: overreads show under ASan). */
static void lex(const char *src, struct site_list *l)
{
	size_t len = strlen(src);
	char *copy = xmalloc(len);

	memcpy(copy, src, len);
	assert_int_equal(lex_buffer(copy, len, l), 0);
	free(copy);
}

/* Every site as "rule:line:func:text\n". */
static char *dump(const char *src)
{
	struct site_list l = SITE_LIST_INIT;
	struct sbuf sb = SBUF_INIT;
	size_t i;

	lex(src, &l);
	for (i = 0; i < l.n; i++)
		sbuf_addf(&sb, "%s:%u:%s:%s\n", rules[l.v[i].rule].id,
			  l.v[i].line, l.v[i].func ? l.v[i].func : "-",
			  l.v[i].text);
	site_list_clear(&l);
	return sbuf_detach(&sb);
}

/* Number of sites of rule @id in @src. */
static int count(const char *src, const char *id)
{
	struct site_list l = SITE_LIST_INIT;
	int r = rule_lookup(id), n = 0;
	size_t i;

	assert_true(r >= 0);
	lex(src, &l);
	for (i = 0; i < l.n; i++)
		n += l.v[i].rule == r;
	site_list_clear(&l);
	return n;
}

#define assert_dump(src, want)                                               \
	do {                                                                 \
		char *got_ = dump(src);                                      \
		assert_string_equal(got_, (want));                           \
		free(got_);                                                  \
	} while (0)

/* ------------------------------------------------------------------ */

static void test_rules_table(void **state)
{
	static const char *const ids[] = {
		"deprecated-attr", "bug", "bug-on", "warn-on", "warn-on-user",
		"alloc-arith", "alloc-obj", "simple-strto", "strcpy",
		"strncpy", "strlcpy", "printk-p", "vla",
		"fallthrough-comment", "flex-array-zero", "flex-array-one",
		"kmap", "idr",
	};
	const char *h;
	int i;

	(void)state;
	assert_int_equal(RULE__COUNT, ARRAY_SIZE(ids));
	for (i = 0; i < RULE__COUNT; i++) {
		assert_string_equal(rules[i].id, ids[i]);
		assert_int_equal(rule_lookup(ids[i]), i);
		assert_non_null(rules[i].title);
		assert_non_null(rules[i].source);
		assert_non_null(rules[i].advice);
		assert_true(strlen(rules[i].advice) > 10);
		if (rules[i].kind == MATCH_CALL ||
		    rules[i].kind == MATCH_CALL_ANYWHERE ||
		    rules[i].kind == MATCH_IDENT_ANYWHERE ||
		    rules[i].kind == MATCH_ALLOC_ARITH ||
		    rules[i].kind == MATCH_ALLOC_OBJ)
			assert_non_null(rules[i].names);
	}
	assert_int_equal(rule_lookup("nope"), -1);
	assert_int_equal(rule_lookup(NULL), -1);
	assert_string_equal(rules[RULE_STRLCPY].source, "strlcpy()");
	assert_string_equal(rules[RULE_BUG_ON].source, "BUG() and BUG_ON()");
	assert_int_equal(rules[RULE_WARN_ON_USER].kind, MATCH_DERIVED);
	assert_non_null(strstr(rules[RULE_WARN_ON_USER].title, "instead of warn-on"));

	h = rules_hash();
	assert_int_equal(strlen(h), 16);
	assert_int_equal(strspn(h, "0123456789abcdef"), 16);
	assert_ptr_equal(rules_hash(), h);	/* computed once */
}

static void test_call_lexical(void **state)
{
	(void)state;
	/* comments, strings and character literals never match */
	assert_int_equal(count("void f(void)\n{\n"
			       "\t/* strcpy(a, b); */\n"
			       "\t// strcpy(a, b);\n"
			       "\tputs(\"strcpy(a, b)\");\n"
			       "\tputs(\"\\\" strcpy(a, b)\");\n"
			       "\tc = '\"'; strcpy(a, b); c = '\"';\n"
			       "\tc = '\\''; strcpy(a, b); c = '\\'';\n"
			       "}\n", "strcpy"), 2);
	/* a // comment continued by backslash-newline */
	assert_int_equal(count("void f(void)\n{\n"
			       "\t// a comment \\\n"
			       "\tstrcpy(a, b);\n"
			       "\tstrcpy(a, b);\n"
			       "}\n", "strcpy"), 1);
	/* a string literal continued by backslash-newline */
	assert_int_equal(count("void f(void)\n{\n"
			       "\tputs(\"abc \\\n"
			       "strcpy(a, b)\");\n"
			       "}\n", "strcpy"), 0);
	/* members and longer identifiers */
	assert_int_equal(count("void f(void)\n{\n"
			       "\tp->strcpy(a, b);\n"
			       "\tq.strcpy(a, b);\n"
			       "\tq . strcpy(a, b);\n"
			       "\tstrcpy_s(a, b);\n"
			       "\tmy_strcpy(a, b);\n"
			       "\t__strcpy(a, b);\n"
			       "\tstrcpy2(a, b);\n"
			       "\tx = strcpy;\n"
			       "\tstrcpy(a, b);\n"
			       "}\n", "strcpy"), 1);
	/* '(' after whitespace, comments, newlines and continuations */
	assert_int_equal(count("void f(void)\n{\n"
			       "\tstrcpy (a, b);\n"
			       "\tstrcpy /* x */ (a, b);\n"
			       "\tstrcpy\n\t\t(a, b);\n"
			       "\tstrcpy \\\n(a, b);\n"
			       "\t(strcpy)(a, b);\n"
			       "}\n", "strcpy"), 4);
	/* any brace nesting */
	assert_int_equal(count("int f(int x)\n{\n\tif (x) {\n\t\tdo {\n"
			       "\t\t\tBUG_ON(x);\n\t\t} while (0);\n\t}\n"
			       "\t{ { BUG_ON(1); } }\n}\n", "bug-on"), 2);
	/* each rule's names */
	assert_int_equal(count("void f(void)\n{\n\tBUG();\n\tBUG_ON(1);\n"
			       "\tBUGGY();\n}\n", "bug"), 1);
	assert_int_equal(count("void f(void)\n{\n\tWARN(1, \"x\");\n"
			       "\tWARN_ON(1);\n\tWARN_ONCE(1, \"x\");\n"
			       "\tWARN_ON_ONCE(1);\n\tWARN_ON_SMP(1);\n"
			       "\tWARNING(1);\n}\n", "warn-on"), 4);
	assert_int_equal(count("void f(void)\n{\n\tsimple_strtol(a, b, 0);\n"
			       "\tsimple_strtoll(a, b, 0);\n"
			       "\tsimple_strtoul(a, b, 0);\n"
			       "\tsimple_strtoull(a, b, 0);\n"
			       "\tkstrtoul(a, 0, &v);\n}\n", "simple-strto"), 4);
	assert_int_equal(count("void f(void)\n{\n\tstrncpy(a, b, 4);\n"
			       "\tstrlcpy(a, b, 4);\n\tstrscpy(a, b, 4);\n}\n",
			       "strncpy"), 1);
	assert_int_equal(count("void f(void)\n{\n\tstrncpy(a, b, 4);\n"
			       "\tstrlcpy(a, b, 4);\n\tstrscpy(a, b, 4);\n}\n",
			       "strlcpy"), 1);
	assert_int_equal(count("void f(void)\n{\n\tkmap(p);\n"
			       "\tkmap_atomic(p);\n\tkmap_local_page(p);\n"
			       "\tkunmap(p);\n}\n", "kmap"), 2);
}

static void test_scope(void **state)
{
	(void)state;
	/* file-scope declarations and definitions do not count */
	assert_int_equal(count("char *strcpy(char *, const char *);\n"
			       "extern char *strcpy(char *d, const char *s);\n"
			       "char *strcpy(char *d, const char *s)\n"
			       "{\n\treturn d;\n}\n", "strcpy"), 0);
	/* #define bodies count; the macro name never does */
	assert_int_equal(count("#define strcpy(d, s) my_copy(d, s)\n"
			       "#define cp(d, s) strcpy(d, s)\n"
			       "#define cp2(d, s) \\\n"
			       "\tdo { \\\n"
			       "\t\tstrcpy(d, s); \\\n"
			       "\t} while (0)\n"
			       "#define CP strcpy\n"
			       "#undef strcpy\n"
			       "#define strcpy (x)\n"
			       "(a, b);\n", "strcpy"), 2);
	/* other directives are not code */
	assert_int_equal(count("#if defined(strcpy) || strcpy(x)\n"
			       "#include \"strcpy(x).h\"\n"
			       "#error do not strcpy(x) here, it's bad\n"
			       "void f(void)\n{\n"
			       "#ifdef X /* comment \n spanning */ BUG_ON(1)\n"
			       "\tstrcpy(a, b);\n"
			       "#endif\n}\n", "strcpy"), 1);
	assert_int_equal(count("void f(void)\n{\n"
			       "#if X\n\tBUG_ON(x);\n#else\n\tBUG_ON(y);\n"
			       "#endif\n}\n", "bug-on"), 2);
	/* #if 0 blocks are code too */
	assert_int_equal(count("void f(void)\n{\n#if 0\n"
			       "\tstrcpy(a, b);\n#endif\n}\n", "strcpy"), 1);
	/*
	 * "anywhere" rules count at file scope, but not a macro's name, nor
	 * the body of the macro that defines the interface
	 */
	assert_int_equal(count("static DEFINE_IDR(foo_idr);\n"
			       "void f(void)\n{\n\tidr_init(&i);\n"
			       "\tidr_init_base(&i, 1);\n\tida_init(&a);\n}\n"
			       "#define DEFINE_IDR(name) struct idr name = "
			       "IDR_INIT(name)\n"
			       "#define idr_init(idr) idr_init_base(idr, 0)\n"
			       "#undef idr_init\n", "idr"), 3);
	/*
	 * the definition of a call rule's own name is the interface, not a
	 * use of it (include/linux/idr.h, include/asm-generic/bug.h,
	 * lib/vsprintf.c); a wrapper of another name is a use
	 */
	assert_dump("static inline void idr_init_base(struct idr *idr, int base)\n"
		    "{\n\txa_init(&idr->idr_rt);\n}\n"
		    "static inline void idr_init(struct idr *idr)\n"
		    "{\n\tidr_init_base(idr, 0);\n}\n"
		    "#define BUG_ON(c) do { if (unlikely(c)) BUG(); } while (0)\n"
		    "#define WARN_ON_ONCE(c) WARN_ON(c)\n"
		    "long simple_strtol(const char *cp, char **endp, int base)\n"
		    "{\n\treturn simple_strtoul(cp, endp, base);\n}\n"
		    "#define VM_BUG_ON(c) BUG_ON(c)\n"
		    "static void g(void)\n{\n\tidr_init(&i);\n\tBUG();\n}\n",
		    "bug-on:15:VM_BUG_ON:#define VM_BUG_ON(c) BUG_ON(c)\n"
		    "idr:18:g:idr_init(&i);\n"
		    "bug:19:g:BUG();\n");
	assert_int_equal(count("#define __deprecated\n"
			       "int old_api(void) __deprecated;\n"
			       "struct s { int x __deprecated; };\n"
			       "/* __deprecated */\n"
			       "void __deprecated f(void);\n"
			       "int __deprecated_x;\n", "deprecated-attr"), 3);
	/* file-scope initializers are inside braces */
	assert_int_equal(count("static int x[] = { BUG_ON(1) };\n",
			       "bug-on"), 1);
	/*
	 * so are the arguments of a macro called at file scope, whose code
	 * the macro puts in a function (ath11k's trace.h); a prototype of a
	 * rule's name is not a call
	 */
	assert_int_equal(count("TRACE_EVENT(foo,\n\tTP_fast_assign(\n"
			       "\t\tWARN_ON_ONCE(vsnprintf(b, 8, f) >= 8);\n"
			       "\t),\n\tTP_printk(\"%s\", b)\n);\n",
			       "warn-on"), 1);
	assert_int_equal(count("DEFINE_GUARD(g, struct s *, BUG_ON(!_T),\n"
			       "\tunlock(_T))\n"
			       "int BUG_ON(int x);\n"
			       "void f(void (*BUG_ON)(int));\n", "bug-on"), 1);
	/*
	 * but not inside a prototype's parentheses: an unevaluated
	 * __typeof__(), a parameter's size, a parameter list the #if
	 * branches leave unbalanced (the depth stays open after it)
	 */
	assert_int_equal(count("static __typeof__(strcpy(a, b)) tp1;\n"
			       "void f(char buf[sizeof(strcpy(a, b))]);\n"
			       "#if 1\nint h(int a\n#else\nint h(int a, int b\n"
			       "#endif\n);\n"
			       "extern char *strcpy(char *, const char *);\n",
			       "strcpy"), 0);
}

static void test_conditionals(void **state)
{
	(void)state;
	/* alternatives that each open a brace do not unbalance the file */
	assert_dump("static void f(int i)\n{\n"
		    "#ifdef __BIG_ENDIAN\n\tfor (i = 0; i < 4; i++) {\n"
		    "#elif defined(X)\n\twhile (i) {\n"
		    "#else\n\tfor (i = 3; i >= 0; i--) {\n#endif\n"
		    "\t\tBUG_ON(i);\n\t}\n}\n"
		    "char *strcpy(char *, const char *);\n"
		    "static int g(void)\n{\n\tBUG();\n}\n",
		    "bug-on:10:f:BUG_ON(i);\n"
		    "bug:16:g:BUG();\n");
	/* the same for a function header; nested conditionals */
	assert_dump("#if A\nint f(int a) {\n#else\nint f(int a, int b) {\n"
		    "#endif\n#ifdef B\n#if C\n\tif (a) {\n#endif\n#endif\n"
		    "\tBUG();\n"
		    "#ifdef B\n#if C\n\t}\n#endif\n#endif\n}\n"
		    "int x = 1;\n"
		    "int h(void)\n{\n\tBUG();\n}\n",
		    "bug:11:f:BUG();\n"
		    "bug:21:h:BUG();\n");
	/* balanced branches are all scanned lexically */
	assert_int_equal(count("struct a {\n\tint n;\n"
			       "#if __STDC_VERSION__ >= 199901L\n"
			       "\tu64 regs[];\n#elif defined(__GNUC__)\n"
			       "\tu64 regs[0];\n#endif\n};\n",
			       "flex-array-zero"), 1);
	assert_int_equal(count("void f(void)\n{\n#if 0\n\tBUG();\n#else\n"
			       "\tBUG();\n#endif\n}\n", "bug"), 2);
	/* stray #else/#endif are ignored */
	assert_int_equal(count("#endif\n#else\nvoid f(void)\n{\n\tBUG();\n}\n"
			       "#if X\n", "bug"), 1);
}

/*
 * A call wrapped onto several lines is one text, its lines joined without
 * comments; re-wrapping it gives the same text.
 */
static void test_wrapped_calls(void **state)
{
	struct sbuf sb = SBUF_INIT;
	char *got;
	int i;

	(void)state;
	assert_dump("void f(char *d, const char *s)\n{\n"
		    "\tstrcpy(d, // the destination\n"
		    "\t       s);\n"
		    "\tif (WARN_ON(d && /* why */\n"
		    "\t\t    \"x\\\"//y\" && '\"')) {\n"
		    "\t\treturn;\n"
		    "\t}\n"
		    "\tBUG_ON(d\n"
		    "\t       == s); BUG_ON(1);\n"
		    "}\n",
		    "strcpy:3:f:strcpy(d, s);\n"
		    "warn-on:5:f:if (WARN_ON(d && \"x\\\"//y\" && '\"')) {\n"
		    "bug-on:9:f:BUG_ON(d == s); BUG_ON(1);\n"
		    "bug-on:10:f:== s); BUG_ON(1);\n");
	/* the same call on one line: the same text */
	assert_dump("void f(char *d, const char *s)\n{\n"
		    "\tstrcpy(d, s);\n}\n",
		    "strcpy:3:f:strcpy(d, s);\n");
	/* unbalanced: the line alone */
	assert_dump("void f(void)\n{\n\tBUG_ON(a,\n\tb;\n",
		    "bug-on:3:f:BUG_ON(a,\n");
	/* a macro body cut by its end: the line alone */
	assert_dump("#define M(a) BUG_ON(a, \\\n b\n",
		    "bug-on:1:M:#define M(a) BUG_ON(a, \\\n");
	/* a call of more than 16 lines: its line alone */
	sbuf_addstr(&sb, "void f(void)\n{\n\tBUG_ON(a");
	for (i = 0; i < 20; i++)
		sbuf_addf(&sb, " +\n\t\t%c", 'b' + i);
	sbuf_addstr(&sb, ");\n}\n");
	got = dump(sb.buf);
	assert_string_equal(got, "bug-on:3:f:BUG_ON(a +\n");
	free(got);
	/* 16 lines are joined */
	sbuf_reset(&sb);
	sbuf_addstr(&sb, "void f(void)\n{\n\tBUG_ON(a");
	for (i = 0; i < 15; i++)
		sbuf_addf(&sb, " +\n\t\t%c", 'b' + i);
	sbuf_addstr(&sb, ");\n}\n");
	got = dump(sb.buf);
	assert_string_equal(got, "bug-on:3:f:BUG_ON(a + b + c + d + e + f + g + h + "
			    "i + j + k + l + m + n + o + p);\n");
	free(got);
	/* a printk format: to the ')' of the call it is in */
	assert_dump("void f(void *p)\n{\n\tpr_info(\"at %p\\n\",\n\t\tp);\n"
		    "\tchar *s = \"%p\";\n\tx = y;\n}\n",
		    "printk-p:3:f:pr_info(\"at %p\\n\", p);\n"
		    "printk-p:5:f:char *s = \"%p\";\n");
	/* a line that begins inside a comment; directives, comments and
	 * continued lines between the arguments are no part of the text */
	assert_dump("void f(void)\n{\n\t/*\n\t * see https://x/y */ strcpy(d,\n"
		    "#ifdef X\n\t\ts // a \\\n still comment\n#endif\n"
		    "\t\t); x = \"a // b\";\n}\n",
		    "strcpy:4:f:strcpy(d, s ); x = \"a // b\";\n");
	/*
	 * a fall-through comment between the name and its '(' (no marker
	 * there: GCC's precede a label)
	 */
	assert_dump("void f(void)\n{\n\tBUG_ON /* fall through */ (a\n\t\t);\n}\n",
		    "bug-on:3:f:BUG_ON (a );\n");
	sbuf_release(&sb);
}

static void test_sites_detail(void **state)
{
	(void)state;
	assert_dump("#include <linux/string.h>\n"
		    "\n"
		    "static int foo_probe(struct device *dev)\n"
		    "{\n"
		    "\tchar  buf[16];\n"
		    "\n"
		    "\tstrcpy(buf,\t\"x\");   \n"
		    "\tif (dev) {\n"
		    "\t\tWARN_ON(1);\n"
		    "\t}\n"
		    "\treturn 0;\n"
		    "}\n"
		    "\n"
		    "#define CP(d, s) \\\n"
		    "\tstrlcpy(d, s, \\\n"
		    "\t\tsizeof(d))\n"
		    "static long __init bar_ioctl(void) __acquires(x)\n"
		    "{\n"
		    "\tBUG();\n"
		    "}\n"
		    "static BUG_ON(x);\n",
		    "strcpy:7:foo_probe:strcpy(buf, \"x\");\n"
		    "warn-on:9:foo_probe:WARN_ON(1);\n"
		    "strlcpy:15:CP:strlcpy(d, s, sizeof(d))\n"
		    "bug:19:bar_ioctl:BUG();\n");
	/* __attribute__ before the name; a struct returned by value */
	assert_dump("__printf(1, 2) __attribute__((cold)) int f(const char *f, ...)\n"
		    "{\n\tBUG();\n}\n"
		    "struct foo g(int x)\n{\n\tBUG();\n}\n"
		    "struct foo *h(int x)\n{\n\tBUG();\n}\n"
		    "SYSCALL_DEFINE1(k, int, x)\n{\n\tBUG();\n}\n",
		    "bug:3:f:BUG();\n"
		    "bug:7:g:BUG();\n"
		    "bug:11:h:BUG();\n"
		    "bug:15:SYSCALL_DEFINE1:BUG();\n");
	/* sites come out in source order, whatever the rule */
	assert_dump("struct a {\n\tint n;\n\tu8 d[0];\n};\n"
		    "void f(void)\n{\n\tstruct b {\n\t\tint x;\n"
		    "\t\tint y[1];\n\t} v;\n\tBUG();\n}\n",
		    "flex-array-zero:3:-:u8 d[0];\n"
		    "flex-array-one:9:f:int y[1];\n"
		    "bug:11:f:BUG();\n");
}

static void test_alloc_arith(void **state)
{
	(void)state;
#define BODY(x) "void f(void)\n{\n\t" x "\n}\n"
	assert_int_equal(count(BODY("p = kmalloc(n * sizeof(*p), GFP_KERNEL);"),
			       "alloc-arith"), 1);
	/* the _node forms of the zeroing allocators (lib/sbitmap.c) */
	assert_int_equal(count(BODY("m = kvzalloc_node(nr * sizeof(*m), f, node);\n"
				    "\tv = vzalloc_node(n * size, node);"),
			       "alloc-arith"), 2);
	assert_int_equal(count(BODY("p = kmalloc(2 * PAGE_SIZE, GFP_KERNEL);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = kmalloc(sizeof(a) * ARRAY_SIZE(b), GFP_KERNEL);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = kmalloc(len + 1, GFP_KERNEL);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = kmalloc(sizeof(*h) + n * sizeof(u32), GFP_KERNEL);"),
			       "alloc-arith"), 1);
	/* '*' after '(' or an operator is a dereference */
	assert_int_equal(count(BODY("p = kmalloc(*sz, GFP_KERNEL);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = kmalloc(*sz + 4, GFP_KERNEL);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = kmalloc(4 + *sz, GFP_KERNEL);"),
			       "alloc-arith"), 0);
	/* nested parentheses: only the argument's top level counts */
	assert_int_equal(count(BODY("p = kzalloc(foo(a * b, c), GFP_KERNEL);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = kzalloc(size_mul(n, m), GFP_KERNEL);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = kzalloc(foo(a, b) * (c + d), GFP_KERNEL);"),
			       "alloc-arith"), 1);
	assert_int_equal(count(BODY("p = kzalloc(sizeof(struct x) * MAX(a, b), GFP_KERNEL);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = vmalloc(PAGE_SIZE * nr_pages);"),
			       "alloc-arith"), 1);
	assert_int_equal(count(BODY("p = vmalloc(sizeof(x[i * 2]) * N);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = vzalloc(sizeof *p * n);"),
			       "alloc-arith"), 1);
	assert_int_equal(count(BODY("p = vzalloc(sizeof *p * N);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = vzalloc(__alignof__(x) * 4);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = kvmalloc(a->n * b->m);"),
			       "alloc-arith"), 1);
	assert_int_equal(count(BODY("p = kmalloc_node(n * 4, GFP_KERNEL, node);"),
			       "alloc-arith"), 1);
	assert_int_equal(count(BODY("p = kzalloc_node(N * 4, gfp * 2, node);"),
			       "alloc-arith"), 0);
	/* the size is argument 2 of these */
	assert_int_equal(count(BODY("p = devm_kzalloc(dev, n * sizeof(*p), GFP_KERNEL);"),
			       "alloc-arith"), 1);
	assert_int_equal(count(BODY("p = devm_kmalloc(dev, (n) * 4, GFP_KERNEL);"),
			       "alloc-arith"), 1);
	assert_int_equal(count(BODY("p = devm_kzalloc(n * dev, 4, GFP_KERNEL);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = krealloc(p, n * 2, GFP_KERNEL);"),
			       "alloc-arith"), 1);
	/* the duplicators: kmemdup_array() (net/bluetooth/mgmt.c) */
	assert_int_equal(count(BODY("p = kmemdup(s, n * sizeof(*s), GFP_KERNEL);\n"
				    "\tq = kvmemdup(s, cnt * 8, GFP_KERNEL);\n"
				    "\tr = devm_kmemdup(dev, s, n * sizeof(*s), GFP_KERNEL);"),
			       "alloc-arith"), 3);
	assert_int_equal(count(BODY("p = kmemdup(a * b, len, GFP_KERNEL);\n"
				    "\tr = devm_kmemdup(dev, s, len, n * 2);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = kvrealloc(p, old, new, GFP_KERNEL);"),
			       "alloc-arith"), 0);
	/* allocators outside the list, members, comments */
	assert_int_equal(count(BODY("p = kcalloc(n, sizeof(*p), GFP_KERNEL);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = ops->kmalloc(n * 4, GFP_KERNEL);"),
			       "alloc-arith"), 0);
	assert_int_equal(count(BODY("p = kmalloc(n /* * 4 */, GFP_KERNEL);"),
			       "alloc-arith"), 0);
	/* spread over lines, reported at the allocator (no alloc-obj: the
	 * size is no sizeof() alone) */
	assert_dump(BODY("x = 1; p = kzalloc(sizeof(*p) +\n"
			 "\t\t    count * sizeof(p->item[0]),\n"
			 "\t\t    GFP_KERNEL);"),
		    "alloc-arith:3:f:x = 1; p = kzalloc(sizeof(*p) + count * sizeof(p->item[0]), GFP_KERNEL);\n");
	/* inside a #define */
	assert_int_equal(count("#define ALLOC(n) kmalloc((n) * 8, GFP_KERNEL)\n",
			       "alloc-arith"), 1);
	/* not at file scope */
	assert_int_equal(count("void *p = kmalloc(n * 4, GFP_KERNEL);\n",
			       "alloc-arith"), 0);
}

static void test_alloc_obj(void **state)
{
	(void)state;
	/* v7.3's deprecated.rst: struct objects, single, array and flexible */
	assert_int_equal(count(BODY("p = kmalloc(sizeof(*p), GFP_KERNEL);\n"
				    "\tp = kzalloc(sizeof(*p), GFP_KERNEL);\n"
				    "\tp = kcalloc(n, sizeof(*p), GFP_KERNEL);\n"
				    "\tp = kmalloc_array(n, sizeof(struct foo), GFP_KERNEL);\n"
				    "\tp = kmalloc_array(sizeof(*p), n, GFP_KERNEL);\n"
				    "\tp = kvmalloc(sizeof(struct foo), GFP_KERNEL);\n"
				    "\tp = kvzalloc(sizeof *p, GFP_KERNEL);\n"
				    "\tp = kvcalloc(n, sizeof(p[0]), GFP_KERNEL);\n"
				    "\tp = kvmalloc_array(n, sizeof(*p), GFP_KERNEL);\n"
				    "\tstruct foo *q = kzalloc(sizeof(*q), GFP_KERNEL);\n"
				    "\tp->x = /* c */ kmalloc(sizeof(*p->x), GFP_KERNEL);\n"
				    "\tp = kmalloc(struct_size(p, items, n), GFP_KERNEL);\n"
				    "\tp = kzalloc((sizeof(struct foo *)), GFP_KERNEL);\n"
				    "\tp = kzalloc_node(sizeof(*p), GFP_KERNEL, node);\n"
				    "\tp = devm_kzalloc(dev, sizeof(*p), GFP_KERNEL);\n"
				    "\tp = devm_kcalloc(dev, n, sizeof(*p), GFP_KERNEL);"),
			       "alloc-obj"), 16);
	/* not struct objects: byte and scalar buffers, strings, void * */
	assert_int_equal(count(BODY("buf = kmalloc(len, GFP_KERNEL);\n"
				    "\tbuf = kzalloc(PAGE_SIZE, GFP_KERNEL);\n"
				    "\tbuf = kmalloc(sizeof(u8), GFP_KERNEL);\n"
				    "\tv = kmalloc(sizeof(int), GFP_KERNEL);\n"
				    "\tv = kcalloc(n, sizeof(unsigned long), GFP_KERNEL);\n"
				    "\tv = kmalloc_array(n, sizeof(u32 *), GFP_KERNEL);\n"
				    "\tv = kmalloc(sizeof(void *), GFP_KERNEL);\n"
				    "\tv = kmalloc(sizeof(\"abc\"), GFP_KERNEL);\n"
				    "\tp = kmalloc(sizeof(*p) + len, GFP_KERNEL);\n"
				    "\tp = kmalloc(n * sizeof(*p), GFP_KERNEL);\n"
				    "\tp = kmalloc_array(n, 4, GFP_KERNEL);"),
			       "alloc-obj"), 0);
	/* a pointer to a scalar declared in the function: a byte buffer ... */
	assert_int_equal(count("int f(u8 *b, int n)\n{\n"
			       "\tu32 *w;\n"
			       "\tb = kmalloc(sizeof(b[0]) , GFP_KERNEL);\n"
			       "\tw = kcalloc(n, sizeof(w[0]), GFP_KERNEL);\n"
			       "\treturn 0;\n}\n", "alloc-obj"), 0);
	/* ... but sizeof(*ptr) is the object it points to (as the cocci script) */
	assert_int_equal(count("int f(u8 *b)\n{\n"
			       "\tb = kmalloc(sizeof(*b), GFP_KERNEL);\n"
			       "\treturn 0;\n}\n", "alloc-obj"), 1);
	/* not assignments, or not the allocators */
	assert_int_equal(count(BODY("if (p == kmalloc(sizeof(*p), GFP_KERNEL)) {}\n"
				    "\tp += kmalloc(sizeof(*p), GFP_KERNEL);\n"
				    "\tp != kmalloc(sizeof(*p), GFP_KERNEL);\n"
				    "\tp <= kmalloc(sizeof(*p), GFP_KERNEL);\n"
				    "\treturn kmalloc(sizeof(*p), GFP_KERNEL);\n"
				    "\tp = (void *)kmalloc(sizeof(*p), GFP_KERNEL);\n"
				    "\tp = vmalloc(sizeof(*p));\n"
				    "\tp = ops.kmalloc(sizeof(*p), GFP_KERNEL);\n"
				    "\tfoo(kmalloc(sizeof(*p), GFP_KERNEL));"),
			       "alloc-obj"), 0);
}

static void test_printk_p(void **state)
{
	(void)state;
	assert_int_equal(count(BODY("pr_info(\"%p %pS %pK %px %p\\n\", a, b, c, d, e);"),
			       "printk-p"), 2);
	assert_int_equal(count(BODY("pr_info(\"%%p %%%p 100%% %p, %p5 %p_ %p\", a);"),
			       "printk-p"), 4);
	assert_int_equal(count(BODY("pr_info(\"%\" \"p\" \"%p\" \"S\", a);"),
			       "printk-p"), 1);
	assert_int_equal(count(BODY("/* \"%p\" */ c = '%'; d = 'p';\n"
				    "\t// printk(\"%p\");"),
			       "printk-p"), 0);
	assert_int_equal(count("#define P(x) pr_info(\"%p\", x)\n"
			       "#include \"%p.h\"\n"
			       "#error %p\n"
			       "static const char fmt[] = \"at %p\\n\";\n",
			       "printk-p"), 2);
	assert_dump(BODY("pr_info(\"%p\\n\", p);"),
		    "printk-p:3:f:pr_info(\"%p\\n\", p);\n");
	/*
	 * a field width, precision or flags before the 'p' is still a plain
	 * %p (net/sunrpc/clnt.c, drivers/accel/ivpu/ivpu_gem.c,
	 * drivers/scsi/esp_scsi.c); an extension after them is not, nor
	 * prose after a '%'
	 */
	assert_int_equal(count(BODY("pr_info(\"%8p %-9p [%1p:%1p] %*p %.8p %#p\", a);"),
			       "printk-p"), 7);
	assert_int_equal(count(BODY("pr_info(\"%8pS %*pbl %-9px %%8p %8x 100% p %-s\", a);"),
			       "printk-p"), 0);
}

/* The vla site on the only line of @body holding one, with its deps. */
static void assert_vla_deps(const char *src, const char *deps)
{
	struct site_list l = SITE_LIST_INIT;
	size_t i, n = 0;

	assert_int_equal(lex_buffer(src, strlen(src), &l), 0);
	for (i = 0; i < l.n; i++) {
		if (strcmp(rules[l.v[i].rule].id, "vla"))
			continue;
		n++;
		if (deps)
			assert_string_equal(l.v[i].deps, deps);
		else
			assert_null(l.v[i].deps);
	}
	assert_int_equal(n, 1);
	site_list_clear(&l);
}

/* The facts' "k" and "d" records of @src. */
static void assert_consts(const char *src, const char *records)
{
	struct site_list l = SITE_LIST_INIT;
	struct sbuf sb = SBUF_INIT;
	const char *p;

	assert_int_equal(lex_buffer(src, strlen(src), &l), 0);
	for (p = l.funcs; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);

		if (*p == 'k' || *p == 'd')
			sbuf_add(&sb, p, n);
		p += n;
	}
	assert_string_equal(sb.buf ? sb.buf : "", records);
	sbuf_release(&sb);
	site_list_clear(&l);
}

static void test_vla_deps(void **state)
{
	(void)state;
	/* what a header of the release may make constant */
	assert_vla_deps(BODY("int nr_count[hwmon_max];"), "hwmon_max");
	assert_vla_deps(BODY("char b[Ar5416RateSize * 2 + n];"), "Ar5416RateSize n");
	assert_vla_deps(BODY("char b[len + len];"), "len");
	/* no name decides: a VLA whatever the release defines */
	assert_vla_deps(BODY("u8 h[p->len];"), NULL);
	assert_vla_deps(BODY("u8 h[get_len()];"), NULL);
	assert_vla_deps(BODY("u8 h[s.len + N];"), NULL);
	/* a macro of the file that needs a header's name */
	assert_vla_deps("#define LPxx_MAX (LPxx_PAGE * 4)\n"
			BODY("u8 p[LPxx_MAX];"), "LPxx_PAGE");
	/* the file's own constants, casts, round_up, struct_size */
	assert_int_equal(count("#define nr_local 8\n" BODY("char b[nr_local];"),
			       "vla"), 0);
	assert_int_equal(count("#define NumRates ((u16)12)\n" BODY("char b[NumRates];"),
			       "vla"), 0);
	assert_int_equal(count(BODY("u8 d[round_up(MT_SIZE, 16)];"), "vla"), 0);
	assert_int_equal(count(BODY("u8 d[struct_size_t(struct f, data, 55)];"),
			       "vla"), 0);
	assert_int_equal(count(BODY("u8 d[struct_size((struct f *)0, data, N)];"),
			       "vla"), 0);
	assert_int_equal(count(BODY("u8 d[struct_size(p, data, n)];"), "vla"), 1);
	assert_int_equal(count(BODY("char c[max((size_t)HASH_MAX, MAX_TAG)];"),
			       "vla"), 0);
	/* a function-like or empty macro, or one of a call, is no constant */
	assert_int_equal(count("#define nr_f(x) 8\n#define nr_e\n#define nr_c f()\n"
			       BODY("char b[nr_f]; char c[nr_e]; char d[nr_c];"),
			       "vla"), 3);
	assert_consts("enum e { e_a, e_max };\n#define Ar5416RateSize 16\n"
		      "#define later_a (later_b * 2)\n#define fn(x) x\n#define flag\n"
		      "#define str \"s\"\n",
		      "k e_max e_a Ar5416RateSize\nd later_a later_b\n");
	assert_consts("int x;\n", "");
	/* a macro of the file defined by one that comes later */
	assert_int_equal(count("#define a_len (b_len * 2)\n#define b_len 4\n"
			       BODY("char x[a_len];"), "vla"), 0);
	assert_vla_deps("#define a_len (b_len * 2)\n#define b_len (c_len + 1)\n"
			BODY("char x[a_len];"), "c_len");
	/* also declared as a variable: no constant (include/linux/cpumask.h) */
	assert_consts("#ifndef _H\n#if NR_CPUS == 1\n#define nr_cpu_ids ((unsigned int)NR_CPUS)\n"
		      "#else\nextern unsigned int nr_cpu_ids;\n#endif\n"
		      "#ifdef CONFIG_X\n#define Foo_max 16\n#else\n#define Foo_max 0\n#endif\n"
		      "#if A\n#define Bar_n 1\n#elif B\n#define Bar_n 2\n#else\n#define Baz_n 3\n#endif\n"
		      "#ifndef Only_if\n#define Only_if 8\n#endif\n#endif\n",
		      "k Bar_n Baz_n Foo_max Only_if\n");
	assert_int_equal(count("#if NR_CPUS == 1\n#define nr_cpu_ids 1U\n#else\n"
			       "extern unsigned int nr_cpu_ids;\n#endif\n"
			       BODY("int x[nr_cpu_ids];"), "vla"), 1);
}

static void test_vla(void **state)
{
	(void)state;
	assert_int_equal(count(BODY("char buf[len];"), "vla"), 1);
	assert_int_equal(count(BODY("char buf[16];"), "vla"), 0);
	/* constant macros, min/max of constants, enumerators */
	assert_int_equal(count(BODY("char buf[sizeof_field(struct frame, un)];"),
			       "vla"), 0);
	assert_int_equal(count(BODY("char buf[offsetof(struct frame, un)];"),
			       "vla"), 0);
	assert_int_equal(count(BODY("u8 b[max(sizeof(struct a), sizeof(struct b))];"),
			       "vla"), 0);
	assert_int_equal(count(BODY("u8 b[min_t(size_t, A_LEN, 16)];"), "vla"), 0);
	assert_int_equal(count(BODY("u8 b[max(len, 16)];"), "vla"), 1);
	assert_int_equal(count(BODY("u8 b[min_t(size_t, len, 16)];"), "vla"), 1);
	assert_int_equal(count("enum hwmon_sensor_types { hwmon_chip, hwmon_max };\n"
			       BODY("int nr_count[hwmon_max];"), "vla"), 0);
	assert_int_equal(count(BODY("int nr_count[ARRAY_SIZE(tbl) + 1];"), "vla"), 0);
	assert_int_equal(count(BODY("char buf[BUF_LEN + 1];"), "vla"), 0);
	assert_int_equal(count(BODY("char buf[len + 1];"), "vla"), 1);
	assert_int_equal(count(BODY("u8 buf[sizeof(struct foo) * 2];"), "vla"), 0);
	assert_int_equal(count(BODY("u8 buf[sizeof(*p)];"), "vla"), 0);
	assert_int_equal(count(BODY("unsigned long m[BITS_TO_LONGS(nbits)];"),
			       "vla"), 0);
	assert_int_equal(count(BODY("unsigned long m[BITS_TO_LONGS(n)] = { 0 };"),
			       "vla"), 0);
	assert_int_equal(count(BODY("struct foo *v[n], *w;"), "vla"), 1);
	assert_int_equal(count(BODY("int m[4][n];"), "vla"), 1);
	assert_int_equal(count(BODY("int m[N][M] = { };"), "vla"), 0);
	assert_int_equal(count(BODY("static const char names[][8] = { \"a\" };"),
			       "vla"), 0);
	assert_int_equal(count(BODY("static int v[n];"), "vla"), 0);
	assert_int_equal(count(BODY("u8 v[n] __aligned(8);"), "vla"), 0);
	/* not declarations */
	assert_int_equal(count(BODY("x[i] = 3;\n\t*p[i] = 3;\n\ta->b[i] = 1;\n"
				    "\tfoo(x[i]);\n\treturn x[i];\n"
				    "\telse x[i] = 0;\n\t(void)x[i];\n"
				    "\ty = (u8)x[i];\n\tcase 1: x[i] = 0;"),
			       "vla"), 0);
	/* parameters, struct members and file scope */
	assert_int_equal(count("int f(int n, char buf[n]);\n"
			       "int g(int n, char buf[n])\n{\n\treturn 0;\n}\n"
			       "char fs[n];\n"
			       "void h(void)\n{\n\tstruct s {\n\t\tint a[n];\n"
			       "\t\tint b;\n\t} v;\n\tfor (int i[n]; ;) {}\n}\n",
			       "vla"), 0);
	/* const variables and enumerators count as constant (heuristic) */
	assert_int_equal(count("enum { nr_slots = 4, nr_other };\n"
			       "static const int max_len = 16;\n"
			       "void f(int n)\n{\n"
			       "\tconst int local = 3;\n"
			       "\tchar a[nr_slots];\n"
			       "\tchar b[nr_other * 2];\n"
			       "\tchar c[max_len + 1];\n"
			       "\tchar d[local];\n"
			       "\tchar e[n];\n"
			       "}\n", "vla"), 1);
	/* only declared names, not names used in a const cast */
	assert_int_equal(count("void f(int n, void *p)\n{\n"
			       "\tconst int a = 1, b = 2;\n"
			       "\tx = (const char *)n;\n"
			       "\tchar c[a + b];\n"
			       "\tchar d[n];\n"
			       "}\n", "vla"), 1);
	/* in nested blocks, reported at the array's name */
	assert_dump("int f(int n)\n{\n\tif (n) {\n\t\tint x;\n"
		    "\t\tchar tmp[n * 2];\n\t}\n\treturn 0;\n}\n",
		    "vla:5:f:char tmp[n * 2];\n");
	/* not in #define bodies */
	assert_int_equal(count("#define BUF(n) do { char b[n]; } while (0)\n",
			       "vla"), 0);
}

static bool ft(const char *comment)
{
	char *src = xasprintf("void f(int x)\n{\n\tswitch (x) {\n\tcase 1:\n"
			      "\t\tx++;\n\t\t%s\n\tcase 2:\n\t\tbreak;\n"
			      "\t}\n}\n", comment);
	int n = count(src, "fallthrough-comment");

	free(src);
	assert_true(n <= 1);
	return n == 1;
}

static void test_fallthrough(void **state)
{
	static const char *const yes[] = {
		"/* fall through */", "/* fallthrough */", "/* fallthru */",
		"/* fall-through */", "/* falls through */", "/* Fall through */",
		"/* Fall Through */", "/* Fallthrough */", "/* Fall-through */",
		"/* Falls through */", "/* Fall-thru */", "/* FALLTHROUGH */",
		"/* FALL THROUGH */", "/* FALLTHRU */", "/* FALLS THROUGH */",
		"/* FALL-THROUGH */", "/*fallthrough*/", "/*-fallthrough*/",
		"/*@fallthrough@*/", "/*lint -fallthrough */",
		"/* ... fall through ... */", "/* fall through! */",
		"/* fall through - to the next case */",
		"/* FALLTHROUGH -- it's a UDP packet */",
		"/* else fall through */", "/* Else fall through */",
		"/* Else, fall through */", "/* ELSE FALLTHRU */",
		"/* intentional fallthrough */", "/* Intentionally fall through */",
		"/* INTENTIONALLY FALL THROUGH */", "/* Intentional Fallthrough */",
		"// fall through", "// fallthrough", "//fallthrough",
		"// Fall through.", "//-fallthrough",
		"/*\tfall through\t*/",
	};
	static const char *const no[] = {
		"/* fall through to foo */", "/* fallthrough; */",
		"/* FallThrough */", "/* fALLthrough */", "/* fall thru: */",
		"/* Fall-through: */", "/* falling through */",
		"/* XXX fallthrough */", "/* - fallthrough */",
		"/* -fallthrough */", "/* lint fallthrough */",
		"/*\n * fall through\n */", "/* fall through - a\n b */",
		"/* Fallsthrough */", "/* FALLSTHROUGH */", "/* fall throught */",
		"/* INTENTIONAL fallthrough */", "/* else  fall through */",
		"/* fallback */", "fallthrough;", "\"/* fall through */\";",
		"/* ELSE, fallthrough */",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!ft(yes[i]))
			fail_msg("not matched: %s", yes[i]);
	}
	for (i = 0; i < ARRAY_SIZE(no); i++) {
		if (ft(no[i]))
			fail_msg("matched: %s", no[i]);
	}
	assert_dump("void f(int x)\n{\n\tswitch (x) {\n\tcase 1:\n"
		    "\t\tx++;  /* Fall through */\n"
		    "\tcase 2:\n\t\tbreak;\n\t}\n}\n",
		    "fallthrough-comment:5:f:x++; /* Fall through */\n");
	/*
	 * GCC's markers are followed, after other comments, by a case or
	 * default label or by user labels before one; kmig skips #if lines
	 * too.  Before a '}', a statement or a label of its own (a goto's:
	 * mm/memory.c, net/bluetooth/selftest.c) a comment is no marker, nor
	 * at the end of a #define.
	 */
	assert_dump("void f(int x)\n{\n\tswitch (x) {\n"
		    "\tcase 1:\n\t\tx++;\n\t\t/* fall through */\n"
		    "\t\t/* to 2 */\n\tcase 2:\n"
		    "\t\tx++;\n\t\t/* fall through */\n#ifdef Y\n"
		    "\tdefault:\n#endif\n"
		    "\t\tx++; // fallthrough\n\tagain: out:\n\tcase 3:\n"
		    "\t\tbreak;\n\t}\n}\n",
		    "fallthrough-comment:6:f:/* fall through */\n"
		    "fallthrough-comment:10:f:/* fall through */\n"
		    "fallthrough-comment:14:f:x++; // fallthrough\n");
	assert_int_equal(count("void f(int x)\n{\n\tswitch (x) {\n"
			       "\tcase 1:\n\t\tif (x) {\n\t\t\tx++;\n"
			       "\t\t\t/* fall through */\n\t\t}\n"
			       "\t\tx--;\n\t\t/* fall through */\n"
			       "\t\treturn;\n\tcase 2:\n\t\tbreak;\n\t}\n"
			       "\tif (x)\n\t\tx++;\n\t/* fall through */\n"
			       "out:\n\treturn;\n}\n"
			       "#define C(n) case n: /* fall through */\n"
			       "int x; /* fallthrough */\n",
			       "fallthrough-comment"), 0);
}

static void test_flex_arrays(void **state)
{
	(void)state;
	assert_int_equal(count("struct a {\n\tint n;\n\tu8 data[0];\n};\n",
			       "flex-array-zero"), 1);
	assert_int_equal(count("struct a {\n\tint n;\n\tu8 data[1];\n};\n",
			       "flex-array-one"), 1);
	assert_int_equal(count("struct a {\n\tint n;\n\tu8 data[];\n};\n"
			       "struct b {\n\tu8 data[0];\n\tint n;\n};\n"
			       "struct c {\n\tu8 data[1];\n\tint n;\n};\n"
			       "struct d {\n\tu8 data[2];\n};\n"
			       "struct e {\n\tu8 data[10];\n};\n"
			       "struct f { int x; };\n"
			       "struct g {};\n",
			       "flex-array-zero") +
			 count("struct a {\n\tint n;\n\tu8 data[];\n};\n"
			       "struct b {\n\tu8 data[0];\n\tint n;\n};\n"
			       "struct c {\n\tu8 data[1];\n\tint n;\n};\n"
			       "struct d {\n\tu8 data[2];\n};\n",
			       "flex-array-one"), 0);
	/* last dimension; several declarators; attributes; unions */
	assert_int_equal(count("struct a { int n; u8 d[4][0]; };\n"
			       "struct b { int n; u8 d[0][4]; };\n"
			       "struct c { int n, d[0]; };\n"
			       "struct d { int n[0], m; };\n"
			       "union e { int n; u8 d[0]; };\n"
			       "struct f { int n; u64 d[0] __aligned(8); };\n"
			       "struct g { int n; u8 d[ 0 ]; } __packed;\n"
			       "typedef struct { int n; u8 d[0]; } h_t;\n"
			       "struct __attribute__((packed)) i { u8 d[0]; };\n",
			       "flex-array-zero"), 7);
	/* nested bodies are separate; the outer member after them counts */
	assert_int_equal(count("struct a {\n\tint n;\n\tunion {\n"
			       "\t\tu8 x[0];\n\t\tu32 y[0];\n\t};\n};\n"
			       "struct b {\n\tstruct {\n\t\tu8 x[0];\n\t\tint z;\n"
			       "\t} s[0];\n};\n"
			       "struct c {\n\tstruct {\n\t\tint z;\n\t} s;\n};\n",
			       "flex-array-zero"), 2);
	/* not struct bodies: initializers, functions, function pointers */
	assert_int_equal(count("static int t[] = { x[0] };\n"
			       "void f(void)\n{\n\tx = (struct s){ .a = y[0] };\n"
			       "\ty = z[1];\n}\n"
			       "struct foo *g(void)\n{\n\treturn t[0];\n}\n"
			       "struct k { int (*fn)(int a[0]); };\n"
			       "struct m { int x[N]; int y[0 + 1]; };\n",
			       "flex-array-zero") +
			 count("void f(void)\n{\n\tx = (struct s){ .a = y[1] };\n}\n",
			       "flex-array-one"), 0);
	/* reported at the member's line, in a #define body too */
	assert_dump("struct a {\n\tint n;\n\tu8 data\n\t\t[0];\n};\n"
		    "#define DECL struct b { int n; u8 d[1]; }\n",
		    "flex-array-zero:3:-:u8 data\n"
		    "flex-array-one:6:DECL:#define DECL struct b { int n; u8 d[1]; }\n");
	/*
	 * a union's trailing [1] is no flexible array (READ_ONCE()'s
	 * "union { typeof(x) __val; char __c[1]; }"), its [0] is; a
	 * struct after it, or around it, is itself again
	 */
	assert_int_equal(count("#define READ_ONCE(x) ({ union { typeof(x) __val; "
			       "char __c[1]; } __u; __u.__val; })\n"
			       "union a { u64 q; u32 d[1]; };\n"
			       "struct b { int n; union { int x; u8 c[1]; } u; };\n",
			       "flex-array-one"), 0);
	assert_int_equal(count("union a { u64 q; u32 d[1]; };\n"
			       "struct b { int n; u8 d[1]; };\n"
			       "struct c { union { int x; u8 y[4]; } u; u8 d[1]; };\n",
			       "flex-array-one"), 2);
	assert_int_equal(count("union a { u64 q; u32 d[0]; };\n",
			       "flex-array-zero"), 1);
	/* a #define inside the body does not hide the last member */
	assert_int_equal(count("struct a {\n\tint n;\n\tu8 d[0];\n"
			       "#define A_MAX 4\n};\n", "flex-array-zero"), 1);
}

/*
 * One use, one rule: the lexer reports a WARN as warn-on only, whatever
 * its function is called; whether user space reaches it (warn-on-user
 * instead) is decided per release from the call graph (reach.h,
 * test-reach.c).
 */
static void test_warn_on_once(void **state)
{
	(void)state;
	assert_dump("static int foo_sendmsg(struct socket *s)\n{\n"
		    "\tWARN_ON(1);\n\tBUG_ON(1);\n}\n"
		    "static long bar_ioctl(struct file *f)\n{\n"
		    "\tif (x)\n\t\tWARN_ON_ONCE(1);\n}\n"
		    "static ssize_t baz_store(struct device *d)\n{\n"
		    "\tWARN(1, \"x\");\n}\n"
		    "#define x_store(a) WARN_ON(a)\n",
		    "warn-on:3:foo_sendmsg:WARN_ON(1);\n"
		    "bug-on:4:foo_sendmsg:BUG_ON(1);\n"
		    "warn-on:9:bar_ioctl:WARN_ON_ONCE(1);\n"
		    "warn-on:13:baz_store:WARN(1, \"x\");\n"
		    "warn-on:15:x_store:#define x_store(a) WARN_ON(a)\n");
}

/* The function facts of @src (struct site_list.funcs), or "" for none. */
static char *funcs(const char *src)
{
	struct site_list l = SITE_LIST_INIT;
	char *f;

	lex(src, &l);
	f = xstrdup(l.funcs ? l.funcs : "");
	site_list_clear(&l);
	return f;
}

static void assert_funcs(const char *src, const char *want)
{
	char *got = funcs(src);

	assert_string_equal(got, want);
	free(got);
}

static void test_funcs(void **state)
{
	(void)state;
	/* definitions, static or not, lines, direct calls each once */
	assert_funcs("static int a(int x)\n{\n\tb(x);\n\tb(c(x));\n"
		     "\ts->ops->d(x);\n\tWARN_ON(x);\n\treturn e.f(x);\n}\n"
		     "int\ng(void) { return a(1); }\n",
		     "n a b c g\nf 0 1 8 1 1 2\nf 3 10 10 0 0\n");
	/* declarations, macros and initializers are no functions */
	assert_funcs("int a(void);\n#define B(x) c(x)\nstatic int v = d(1);\n", "");
	/* calls in a #define body inside a function are not the function's */
	assert_funcs("void f(void)\n{\n#define G(x) g(x)\n\th();\n}\n",
		     "n f h\nf 0 1 5 0 1\n");
	/* entry points: ops members, attribute macros, system calls */
	assert_funcs("static const struct proto_ops o = {\n"
		     "\t.owner = THIS_MODULE,\n\t.sendmsg = rds_sendmsg,\n"
		     "\t.recvmsg = &rds_recvmsg,\n\t.poll = NULL,\n"
		     "\t.release = rds_release,\n\t.ioctl = pick(x),\n};\n"
		     "static DEVICE_ATTR_RW(speed);\n"
		     "static DEVICE_ATTR(mode, 0644, mode_show, mode_store);\n"
		     "SYSCALL_DEFINE3(sendmsg, int, fd, struct user_msghdr __user *, msg,\n"
		     "\t\tunsigned int, flags)\n{\n\treturn __sys_sendmsg(fd, msg, flags);\n}\n",
		     "n .sendmsg rds_sendmsg .recvmsg rds_recvmsg speed_store DEVICE_ATTR_RW mode_store DEVICE_ATTR sys_sendmsg SYSCALL_DEFINE3 __sys_sendmsg\n"
		     "f 8 11 15 0 10\n"
		     "e 0 1 3\ne 2 3 4\ne 5 4 9\ne 7 6 10\ne 9 8 11\n");
	/* an unclosed body ends at the last line */
	assert_funcs("void f(void)\n{\n\tg();\n", "n f g\nf 0 1 3 0 1\n");
}

/* Everything lexing @l gives, as text: sites with their deps, and funcs. */
static char *list_text(const struct site_list *l)
{
	struct sbuf sb = SBUF_INIT;
	size_t i;

	for (i = 0; i < l->n; i++)
		sbuf_addf(&sb, "%s:%u:%s:%s:%s\n", rules[l->v[i].rule].id,
			  l->v[i].line, l->v[i].func ? l->v[i].func : "-",
			  l->v[i].text, l->v[i].deps ? l->v[i].deps : "-");
	sbuf_addf(&sb, "%s", l->funcs ? l->funcs : "");
	return sbuf_detach(&sb);
}

/*
 * Lex @src with function bodies skimmed and in full: the same sites and
 * facts; the bodies skimmed and the buffers lexed twice must be @skimmed
 * and @relexed.  Returns the text (the caller frees it).
 */
static char *lex_both(const char *src, unsigned long skimmed,
		      unsigned long relexed)
{
	struct lex_scratch fast = LEX_SCRATCH_INIT, full = LEX_SCRATCH_INIT;
	struct site_list a = SITE_LIST_INIT, b = SITE_LIST_INIT;
	size_t len = strlen(src);
	char *copy = xmalloc(len ? len : 1), *ta, *tb;

	memcpy(copy, src, len);
	full.full = true;
	assert_int_equal(lex_buffer_with(copy, len, &a, &fast), 0);
	assert_int_equal(lex_buffer_with(copy, len, &b, &full), 0);
	ta = list_text(&a);
	tb = list_text(&b);
	assert_string_equal(ta, tb);
	assert_int_equal(fast.skimmed, skimmed);
	assert_int_equal(fast.relexed, relexed);
	assert_int_equal(full.skimmed, 0);
	site_list_clear(&a);
	site_list_clear(&b);
	free(a.v);
	free(b.v);
	lex_scratch_release(&fast);
	lex_scratch_release(&full);
	free(copy);
	free(tb);
	return ta;
}

static void assert_skim(const char *src, unsigned long skimmed,
			unsigned long relexed, const char *want)
{
	char *got = lex_both(src, skimmed, relexed);

	assert_string_equal(got, want);
	free(got);
}

static void test_skim(void **state)
{
	char *got;

	(void)state;
	/*
	 * fuzz finding 18 (tests/fuzz/README.md): a printk-p format's walk
	 * back to its call's name crossed braces, into a body lexed in full
	 * but skimmed otherwise; it stops at any brace now
	 */
	got = lex_both("f(){\n\ng({\n\n(\n\n\n}\n}\n()\n{\n\n{()\n{\n)\n}\n())\"%p",
		       1, 0);
	assert_string_equal(got, "printk-p:17:-:())\"%p:-\nn f g\nf 0 1 9 0 1\n");
	free(got);
	/*
	 * a body with nothing a rule matches is skimmed: its calls in
	 * order (not after '.' or '->', no keyword, no upper-case macro),
	 * its end line past comments, strings, characters and continued
	 * lines that hold braces and parentheses
	 */
	assert_skim("static int f(struct s *p)\n{\n"
		    "\tconst int k = 3, *q = g(1);\n"
		    "\tchar buf[32 + SZ], c = '{';\n"
		    "\t/* } x( */ // }\n"
		    "\tif (p->h(x) && s.i(y)) { j(\"}(\", k); }\n"
		    "\tp->a.b = 1;\n"
		    "\treturn MAX(k(), 2) + \\\n\t\tsizeof(struct s) + l\t(3);\n}\n"
		    "int m(void) { return f(0); }\n",
		    2, 0,
		    "n f g j k l m\nf 0 1 10 1 1 2 3 4\nf 5 11 11 0 0\n");
	/* what a rule or a fact needs: the body lexed in full */
	assert_skim("void f(char *d)\n{\n\tstrcpy(d, \"x\");\n}\n", 0, 0,
		    "strcpy:3:f:strcpy(d, \"x\");:-\nn f strcpy\nf 0 1 4 0 1\n");
	assert_skim("void f(int n)\n{\n\tint a[n];\n\tg(a);\n}\n", 0, 0,
		    "vla:3:f:int a[n];:n\nn f g\nf 0 1 5 0 1\n");
	assert_skim("void f(void)\n{\n\tpr_info(\"%p\", f);\n}\n", 0, 0,
		    "printk-p:3:f:pr_info(\"%p\", f);:-\nn f pr_info\nf 0 1 4 0 1\n");
	assert_skim("void f(int x)\n{\n\tswitch (x) {\n\tcase 1:\n\t\tg();\n"
		    "\t\t/* fall through */\n\tcase 2:\n\t\tbreak;\n\t}\n}\n",
		    0, 0,
		    "fallthrough-comment:6:f:/* fall through */:-\n"
		    "n f g\nf 0 1 10 0 1\n");
	assert_skim("void f(void)\n{\n#define G(x) g(x)\n\tG(1);\n}\n", 0, 0,
		    "n f\nf 0 1 5 0\n");
	/*
	 * directives: a conditional whose branches leave the braces as
	 * they were, a name before one (no call), other directives with
	 * their comments and continued lines; one that ends the body in a
	 * branch, or a '#' not first on its line, is lexed in full
	 */
	assert_skim("void f(void)\n{\n#ifdef A\n\tg();\n#elif B /* x\n*/\n"
		    "\th();\n#else\n#endif\n\ti\n#if C\n(1);\n#endif\n"
		    "#pragma foo \"}\" \\\n }\n# include <j.h> // }\n\tk();\n}\n",
		    1, 0, "n f g h k\nf 0 1 18 0 1 2 3\n");
	assert_skim("void f(void)\n{\n#ifdef A\n\tg();\n#else\n\tif (x) {\n#endif\n"
		    "\t}\n}\n", 0, 0, "n f g\nf 0 1 8 0 1\n");
	assert_skim("void f(void)\n{\n#ifdef A\n\tg();\n}\n#else\n\th();\n}\n#endif\n",
		    0, 0, "n f g\nf 0 1 5 0 1\n");
	assert_skim("void f(void)\n{\n\tg(a #b);\n}\n", 0, 0,
		    "n f g\nf 0 1 4 0 1\n");
	assert_skim("void f(void)\n{\n\tstruct t { int n; char c[0]; } v;\n}\n",
		    0, 0, "flex-array-zero:3:f:struct t { int n; char c[0]; } v;:-\n"
		    "n f\nf 0 1 4 0\n");
	assert_skim("void f(struct proto_ops *o)\n{\n\to->x = 1;\n"
		    "\t*o = (struct proto_ops){ .sendmsg = s, };\n}\n", 0, 0,
		    "n f .sendmsg s\nf 0 1 5 0\ne 1 2 4\n");
	/* a constant declared in a skimmed body makes a later size constant */
	assert_skim("void f(void)\n{\n\tconst int k = 4;\n\tg(k);\n}\n"
		    "void h(void)\n{\n\tchar b[k];\n\tg(b);\n}\n", 1, 0,
		    "n f g h\nf 0 1 5 0 1\nf 2 6 10 0 1\n");
	/*
	 * a use's text joined from lines that take a skimmed body's tokens
	 * (a call wrapped at file scope on a one-line function's line)
	 */
	assert_skim("static int f(void) { return g(0); } static int x = "
		    "FOO(strlcpy(a,\n\tb));\n", 0, 1,
		    "strlcpy:1:-:static int f(void) { return g(0); } static int x = "
		    "FOO(strlcpy(a, b));:-\nn f g\nf 0 1 1 1 1\n");
	/*
	 * pass 1 guessed a function body wrongly (the #else branch closed
	 * what the #ifdef branch did): the buffer is lexed again in full
	 */
	assert_skim("void f(void)\n{\n\tif (a) {\n#ifdef A\n\t}\n#else\n\t}\n"
		    "#endif\n\twhile (g(x)) {\n\t\th();\n\t}\n}\n", 0, 1,
		    "n f g h\nf 0 1 12 0 1 2\n");
	/*
	 * a site's text that spans lines takes the tokens of its first and
	 * last lines: a skimmed body on one of them, or one its ')' is
	 * looked for in, is lexed again in full
	 */
	assert_skim("void f(void) { g(); } void h(char *d) { strcpy(d,\n"
		    "\t\"x\"); }\n", 0, 1,
		    "strcpy:1:h:void f(void) { g(); } void h(char *d) "
		    "{ strcpy(d, \"x\"); }:-\n"
		    "n f g h strcpy\nf 0 1 1 0 1\nf 2 1 2 0 3\n");
	assert_skim("void h(char *d) { strcpy(d,\n\t\"x\"); } "
		    "void f(void) { g(); }\n", 0, 1,
		    "strcpy:1:h:void h(char *d) { strcpy(d, \"x\"); } "
		    "void f(void) { g(); }:-\n"
		    "n h strcpy f g\nf 0 1 2 0 1\nf 2 2 2 0 3\n");
	assert_skim("char *s = \"%p\"\nvoid f(void)\n{\n\tx);\n}\n)\n", 0, 1,
		    "printk-p:1:-:char *s = \"%p\":-\nn f\nf 0 2 5 0\n");
	/*
	 * a body inside a group a walk from a '(' or '[' counts (any closer
	 * closing any opener) is not skimmed: the call's argument or the
	 * array size would hold its tokens
	 */
	assert_skim("FOO(kmalloc(N * M[[))\nvoid F(void)\n{\n\tg();\n}\n])\n",
		    0, 0, "alloc-arith:1:-:FOO(kmalloc(N * M[[)):-\n"
		    "n F g\nf 0 2 5 0 1\n");
	assert_skim("void f(void)\n{\n\tint a[[ }\nvoid G(void)\n{\n\tg();\n}\n"
		    "][N];\n}\n", 0, 0,
		    "vla:3:f:int a[[ }:-\nn f G g\nf 0 1 3 0\nf 1 4 7 0 2\n");
	/*
	 * an #else branch that returns into a function opened before a
	 * skimmed body: the walk back to the function's start for the
	 * pointer's declaration (alloc-obj) would miss that body's "u8 *q"
	 */
	assert_skim("void f(void)\n{\n\tstruct foo *q;\n#ifdef A\n\tx();\n"
		    "#else\n}\nvoid g(void)\n{\n\tu8 *q;\n}\n#endif\n"
		    "\tq = kmalloc(sizeof(struct foo), GFP_KERNEL);\n}\n", 0, 1,
		    "n f x g\nf 0 1 7 0 1\nf 2 8 11 0\n");
	assert_skim("void f(void)\n{\n\tstruct foo *q;\n#ifdef A\n}\n"
		    "void g(void)\n{\n\tu8 *q;\n}\n#else\n"
		    "\tq = kmalloc(sizeof(struct foo), GFP_KERNEL);\n}\n#endif\n",
		    0, 1, "n f g\nf 0 1 5 0\nf 1 6 9 0\n");
}

static void test_malformed(void **state)
{
	static const char *const inputs[] = {
		"", "\n", "}", "}}}{", "/*", "//", "\"", "'", "#", "#define",
		"#define X(", "#define X(a", "strcpy", "strcpy(",
		"void f(void) { strcpy(", "void f(void) { p = kmalloc(n *",
		"struct a { u8 d[0]", "struct a { u8 d[", "enum {", "\\",
		"void f(void) { char b[n", "x = '\\", "\"\\", "/* *",
		"#define A \\", "int x[] = { [0] = 1 };", "))))((((",
		"void f(void) { } } } BUG_ON(1); { BUG_ON(1); }",
	};
	struct site_list l = SITE_LIST_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(inputs); i++) {
		lex(inputs[i], &l);
		site_list_clear(&l);
	}
	assert_int_equal(lex_buffer(NULL, 0, &l), 0);
	assert_int_equal(l.n, 0);
	assert_int_equal(count("struct a { int n; u8 d[0]", "flex-array-zero"),
			 1);
	/* extra '}' do not take the brace depth below zero */
	assert_int_equal(count("}\n}\nBUG_ON(1);\n", "bug-on"), 0);
	/* appending to a non-empty list */
	lex("void f(void) { BUG(); }", &l);
	lex("void g(void) { BUG(); }", &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[1].func, "g");
	site_list_clear(&l);
	assert_int_equal(l.n, 0);
	assert_null(l.v);
}

/*
 * Long runs of blanks (blank_end(): 16 bytes at a time), across 16-byte
 * boundaries, with '\f' and '\v' among them and at the buffer's end:
 * the same tokens and lines as any blank, skimmed and in full.
 */
static void test_blanks(void **state)
{
	static const char b40[] = "                                        ";
	char src[1024];

	(void)state;
	snprintf(src, sizeof(src),
		 "#define A%s1\n"
		 "void f(char *d)\n{\n"
		 "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t \f\v%sg(d);%s\n"
		 "\t%sstrcpy(d,%s\"x\");\n}\n%s",
		 b40, b40 + 23, b40 + 10, b40 + 7, b40 + 7, b40);
	assert_dump(src, "strcpy:5:f:strcpy(d, \"x\");\n");
	snprintf(src, sizeof(src),
		 "#define A%s1\n"
		 "void f(char *d)\n{\n"
		 "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t \f\v%sg(d);%s\n"
		 "%s}\nint h(void) { return f(0); }%s",
		 b40, b40 + 23, b40 + 10, b40, b40);
	assert_skim(src, 2, 0, "n f g h\nf 0 2 5 0 1\nf 2 6 6 0 0\n");
}

static void test_crlf(void **state)
{
	(void)state;
	assert_dump("void f(void)\r\n{\r\n\tstrcpy(a, \\\r\n b);\r\n"
		    "\tBUG();\r\n}\r\n",
		    "strcpy:3:f:strcpy(a, b);\n"
		    "bug:5:f:BUG();\n");
	assert_int_equal(count("void f(int x)\r\n{\r\n\tswitch (x) {\r\n"
			       "\tcase 1:\r\n\t\tx++;\r\n"
			       "\t\t// fall through\r\n"
			       "\tcase 2:\r\n\t\tbreak;\r\n\t}\r\n}\r\n",
			       "fallthrough-comment"), 1);
}

struct thread_arg {
	const char *src;
	char *want;
	int ok;
};

static void *thread_main(void *p)
{
	struct thread_arg *a = p;
	int i;

	a->ok = 1;
	for (i = 0; i < 200; i++) {
		char *got = dump(a->src);

		if (strcmp(got, a->want))
			a->ok = 0;
		free(got);
	}
	return NULL;
}

static void test_threads(void **state)
{
	static const char src[] =
		"struct a { int n; u8 d[0]; };\n"
		"static int foo_ioctl(int n)\n{\n\tchar b[n];\n"
		"\tWARN_ON(1);\n\tp = kmalloc(n * 4, GFP_KERNEL);\n"
		"\t/* fall through */\n\tstrcpy(a, \"%p\");\n}\n";
	struct thread_arg args[4];
	pthread_t th[4];
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		args[i].src = src;
		args[i].want = dump(src);
		assert_non_null(strstr(args[i].want, "vla:4:foo_ioctl"));
		assert_int_equal(pthread_create(&th[i], NULL, thread_main,
						&args[i]), 0);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		assert_true(args[i].ok);
		free(args[i].want);
	}
}

static void test_path_in_scope(void **state)
{
	(void)state;
	assert_true(path_in_scope("kernel/fork.c"));
	assert_true(path_in_scope("include/linux/slab.h"));
	assert_true(path_in_scope("init.c"));
	assert_true(path_in_scope("arch/x86/usr/x.h"));
	assert_true(path_in_scope("toolsx/a.c"));
	assert_true(path_in_scope("drivers/mytools/x.c"));
	assert_true(path_in_scope("samples/kobject/kobject-example.c"));
	assert_true(path_in_scope("samples/bpfx/a.c"));
	assert_false(path_in_scope("drivers/tools/x.c"));
	assert_false(path_in_scope("arch/x86/tools/relocs.c"));
	assert_false(path_in_scope("drivers/staging/greybus/Documentation/firmware/firmware.c"));
	assert_false(path_in_scope("samples/bpf/tracex3_user.c"));
	assert_false(path_in_scope("samples/bpf/xdp_sample.bpf.h"));
	assert_false(path_in_scope("tools/perf/builtin-top.c"));
	assert_false(path_in_scope("scripts/mod/modpost.c"));
	assert_false(path_in_scope("Documentation/foo.c"));
	assert_false(path_in_scope("usr/gen_init_cpio.c"));
	assert_false(path_in_scope("kernel/fork.o"));
	assert_false(path_in_scope("kernel/Makefile"));
	assert_false(path_in_scope("arch/x86/entry/entry_64.S"));
	assert_false(path_in_scope("kernel/fork.cc"));
	assert_false(path_in_scope("kernel/fork.c.orig"));
	assert_false(path_in_scope(NULL));
}

/*
 * Identifiers of every length around the 16-byte blocks of the vector
 * scan: '$' and bytes >= 0x80 are identifier characters, so no rule word
 * is found inside a longer name; a name may end the buffer exactly.
 */
static void test_long_identifiers(void **state)
{
	struct sbuf sb = SBUF_INIT;
	char name[64];
	int n;

	(void)state;
	sbuf_addstr(&sb, "void f(int a)\n{\n");
	for (n = 1; n <= 40; n++) {
		memset(name, 'x', (size_t)n);
		name[n] = '\0';
		sbuf_addf(&sb, "\t%s = %s_BUG_ON(a) + %s$BUG_ON(a);\n", name,
			  name, name);
		sbuf_addf(&sb, "\tBUG_ON(%s);\n", name);
		sbuf_addf(&sb, "\t\xc3\xa9%sBUG_ON(a); %s\xc3\xa9 = 1;\n", name,
			  name);
	}
	sbuf_addstr(&sb, "}\n");
	assert_int_equal(count(sb.buf, "bug-on"), 40);
	sbuf_release(&sb);

	/* the buffer ends inside an identifier, at and around 16 and 32 */
	for (n = 10; n <= 40; n++) {
		sbuf_addstr(&sb, "void f(int a)\n{\n\tBUG_ON(a);\n}\n");
		while (sb.len % 64 != (size_t)n)
			sbuf_addch(&sb, 'y');
		assert_int_equal(count(sb.buf, "bug-on"), 1);
		sbuf_release(&sb);
	}
}

/*
 * lex_all_upper() takes 16 bytes at a time from 16 on, the last block
 * overlapping: every length up to 70, a lower-case letter at every place
 * (or none), among the bytes next to 'a'..'z' and bytes >= 0x80, which
 * are no lower-case letter.
 */
static void test_all_upper(void **state)
{
	static const char fill[] = "A_`{\x80Z9\xff@[";
	char buf[80] = { 0 };
	size_t len, at, i;

	(void)state;
	for (len = 0; len <= 70; len++) {
		for (i = 0; i < len; i++)
			buf[i] = fill[i % (sizeof(fill) - 1)];
		assert_true(lex_all_upper(buf, len));
		for (at = 0; at < len; at++) {
			char keep = buf[at];

			buf[at] = at % 2 ? 'a' : 'z';
			assert_false(lex_all_upper(buf, len));
			buf[at] = keep;
		}
	}
	/* a letter just past the end is not looked at */
	memset(buf, 'Q', sizeof(buf));
	buf[33] = 'q';
	assert_true(lex_all_upper(buf, 33));
	assert_false(lex_all_upper(buf, 34));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_table),
		cmocka_unit_test(test_call_lexical),
		cmocka_unit_test(test_scope),
		cmocka_unit_test(test_conditionals),
		cmocka_unit_test(test_sites_detail),
		cmocka_unit_test(test_wrapped_calls),
		cmocka_unit_test(test_alloc_arith),
		cmocka_unit_test(test_alloc_obj),
		cmocka_unit_test(test_printk_p),
		cmocka_unit_test(test_vla),
		cmocka_unit_test(test_vla_deps),
		cmocka_unit_test(test_fallthrough),
		cmocka_unit_test(test_flex_arrays),
		cmocka_unit_test(test_warn_on_once),
		cmocka_unit_test(test_funcs),
		cmocka_unit_test(test_skim),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_blanks),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_path_in_scope),
		cmocka_unit_test(test_long_identifiers),
		cmocka_unit_test(test_all_upper),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
