// SPDX-License-Identifier: GPL-2.0
/*
 * test-reach.c - the release's call graph (reach.h) built from the
 * lexer's function facts: entry points, resolution of static and global
 * names, the walk's depth, the call path, the name fallback.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <sqlite3.h>

#include "lexer.h"
#include "reach.h"
#include "repo.h"
#include "rules.h"
#include "store.h"
#include "unit-util.h"
#include "util.h"

/* Add @src as file @path of @r, with the facts the lexer finds. */
static void add(struct reach *r, const char *path, const char *src)
{
	struct site_list l = SITE_LIST_INIT;

	assert_int_equal(lex_buffer(src, strlen(src), &l), 0);
	assert_int_equal(reach_add_file(r, path, l.funcs), 0);
	site_list_clear(&l);
}

/* The call path to line @line of @path, or "-" when not reached. */
static char *path_to(struct reach *r, const char *path, unsigned int line)
{
	char *chain = NULL;

	if (!reach_site(r, path, line, &chain))
		return xstrdup("-");
	assert_non_null(chain);
	return chain;
}

static void assert_path(struct reach *r, const char *path, unsigned int line,
			const char *want)
{
	char *got = path_to(r, path, line);

	assert_string_equal(got, want);
	free(got);
}

/* Line @line of @path is reached, by whichever path. */
static void assert_path_reached(struct reach *r, const char *path,
				unsigned int line)
{
	char *got = path_to(r, path, line);

	assert_string_not_equal(got, "-");
	free(got);
}

static struct reach *rds(unsigned int depth)
{
	struct reach *r = reach_new(depth);

	add(r, "net/rds/af_rds.c",
	    "static const struct proto_ops rds_proto_ops = {\n"
	    "\t.sendmsg = rds_sendmsg,\n};\n"
	    "static int __init rds_init(void)\n{\n\treturn rds_setup();\n}\n"
	    "module_init(rds_init);\n");
	add(r, "net/rds/send.c",
	    "int rds_sendmsg(struct socket *sock, int n)\n{\n"
	    "\tvoid (*cb)(void) = rds_done;\n"
	    "\trm->sg = rds_message_alloc_sgs(rm, n);\n\tcb();\n"
	    "\treturn helper(n);\n}\n"
	    "static int helper(int n)\n{\n\treturn WARN_ON(n);\n}\n");
	add(r, "net/rds/message.c",
	    "void rds_done(void)\n{\n\tWARN_ON(1);\n}\n"
	    "int rds_setup(void)\n{\n\tWARN_ON(1);\n\treturn 0;\n}\n"
	    "struct scatterlist *rds_message_alloc_sgs(struct rds_message *rm, int nents)\n{\n"
	    "\tWARN_ON(rm->m_used_sgs + nents > rm->m_total_sgs);\n"
	    "\tWARN_ON(!nents);\n\treturn NULL;\n}\n");
	add(r, "drivers/foo/foo.c",
	    "static int helper(int n)\n{\n\treturn WARN_ON(!n);\n}\n");
	reach_build(r);
	return r;
}

static void test_rds(void **state)
{
	struct reach *r = rds(REACH_DEFAULT_DEPTH);

	(void)state;
	assert_path(r, "net/rds/message.c", 12,
		    "rds_sendmsg (net/rds/send.c:1) \xe2\x86\x92 "
		    "rds_message_alloc_sgs (net/rds/message.c:10)");
	assert_path(r, "net/rds/message.c", 13,
		    "rds_sendmsg (net/rds/send.c:1) \xe2\x86\x92 "
		    "rds_message_alloc_sgs (net/rds/message.c:10)");
	/* through a function pointer only, from module init only: no */
	assert_path(r, "net/rds/message.c", 3, "-");
	assert_path(r, "net/rds/message.c", 7, "-");
	/* the static helper of send.c, not the one of foo.c */
	assert_path(r, "net/rds/send.c", 10,
		    "rds_sendmsg (net/rds/send.c:1) \xe2\x86\x92 helper (net/rds/send.c:8)");
	assert_path(r, "drivers/foo/foo.c", 3, "-");
	/* outside any function, or an unknown file */
	assert_path(r, "net/rds/af_rds.c", 2, "-");
	assert_path(r, "nope.c", 1, "-");
	assert_int_equal(reach_entries(r), 1);
	assert_int_equal(reach_reached(r), 3);
	assert_int_equal(reach_functions(r), 7);
	reach_free(r);

	r = rds(0);
	assert_path(r, "net/rds/message.c", 12, "-");
	assert_path(r, "net/rds/send.c", 2, "rds_sendmsg (net/rds/send.c:1)");
	reach_free(r);
}

static void test_definitions(void **state)
{
	struct reach *r = reach_new(REACH_DEFAULT_DEPTH);

	(void)state;
	add(r, "kernel/sys.c",
	    "SYSCALL_DEFINE1(poke, int, x)\n{\n\treturn arch_poke(x) + inl(x);\n}\n");
	add(r, "arch/x86/kernel/poke.c", "int arch_poke(int x)\n{\n\treturn WARN_ON(x);\n}\n");
	add(r, "arch/arm/kernel/poke.c", "int arch_poke(int x)\n{\n\treturn WARN_ON(x);\n}\n");
	add(r, "include/linux/inl.h", "static inline int inl(int x)\n{\n\treturn WARN_ON(x);\n}\n");
	add(r, "arch/x86/kernel/entry.c",
	    "static const struct file_operations f = { .write = x_write };\n"
	    "static ssize_t x_write(int x)\n{\n\treturn arch_poke(x);\n}\n");
	add(r, "drivers/s/s.c",
	    "static DEVICE_ATTR_RW(speed);\n"
	    "static ssize_t speed_store(int x)\n{\n\treturn WARN_ON(x);\n}\n");
	reach_build(r);
	/* a name defined twice: each definition, and the path says so */
	assert_path(r, "arch/arm/kernel/poke.c", 3,
		    "sys_poke (kernel/sys.c:1) \xe2\x86\x92 arch_poke (arch/arm/kernel/poke.c:1, one of 2 definitions)");
	/* a static inline function of a header is found by name */
	assert_path(r, "include/linux/inl.h", 3,
		    "sys_poke (kernel/sys.c:1) \xe2\x86\x92 inl (include/linux/inl.h:1)");
	/* from arch/x86, only arch/x86's definition */
	assert_path(r, "arch/x86/kernel/poke.c", 3,
		    "sys_poke (kernel/sys.c:1) \xe2\x86\x92 arch_poke (arch/x86/kernel/poke.c:1, one of 2 definitions)");
	assert_path(r, "drivers/s/s.c", 4, "speed_store (drivers/s/s.c:2)");
	assert_int_equal(reach_entries(r), 3);
	reach_free(r);
}

static void test_arch(void **state)
{
	struct reach *r = reach_new(REACH_DEFAULT_DEPTH);

	(void)state;
	add(r, "arch/arm/kernel/entry.c",
	    "static const struct file_operations f = { .write = a_write };\n"
	    "static ssize_t a_write(int x)\n{\n\treturn arch_poke(x);\n}\n");
	add(r, "arch/x86/kernel/poke.c", "int arch_poke(int x)\n{\n\treturn WARN_ON(x);\n}\n");
	add(r, "arch/arm/kernel/poke.c", "int arch_poke(int x)\n{\n\treturn WARN_ON(x);\n}\n");
	reach_build(r);
	assert_path(r, "arch/x86/kernel/poke.c", 3, "-");
	assert_path(r, "arch/arm/kernel/poke.c", 3,
		    "a_write (arch/arm/kernel/entry.c:2) \xe2\x86\x92 arch_poke (arch/arm/kernel/poke.c:1)");
	reach_free(r);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"f 0 1 2 0\n", "n a\nf 1 1 2 0\n", "n a\nf 0 x 2 0\n",
		"n a\nf 0 1 2 0 7\n", "n a\ne 0 3 1\n", "n a\nz\n",
	};
	struct reach *r = reach_new(1);
	size_t i;
	char name[16];

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(name, sizeof(name), "f%zu.c", i);
		assert_int_equal(reach_add_file(r, name, bad[i]), KMIG_EGENERIC);
	}
	assert_int_equal(reach_add_file(r, "ok.c", NULL), 0);
	assert_int_equal(reach_add_file(r, "ok.c", NULL), KMIG_EGENERIC);
	reach_build(r);
	assert_int_equal(reach_functions(r), 0);
	assert_int_equal(reach_site(r, "f0.c", 1, NULL), 0);
	reach_free(r);
	reach_free(NULL);
}

static void test_consts(void **state)
{
	struct reach *r = reach_new(1);

	(void)state;
	add(r, "include/linux/hwmon.h",
	    "enum hwmon_sensor_types { hwmon_chip, hwmon_max };\n"
	    "#define chained (base * 2)\n#define base 4\n"
	    "#define loop_a (loop_b + 1)\n#define loop_b (loop_a + 1)\n"
	    "#define dangling (nowhere + 1)\n");
	/* a .c file's constants are its own, not the release's */
	add(r, "drivers/x.c", "enum { local_max };\n#define Local 3\n");
	reach_build(r);
	assert_true(reach_consts_cover(r, "hwmon_max"));
	assert_true(reach_consts_cover(r, "hwmon_chip hwmon_max"));
	assert_true(reach_consts_cover(r, "chained"));
	assert_false(reach_consts_cover(r, "hwmon_max n"));
	assert_false(reach_consts_cover(r, "local_max"));
	assert_false(reach_consts_cover(r, "Local"));
	assert_false(reach_consts_cover(r, "loop_a"));	/* a cycle ends */
	assert_false(reach_consts_cover(r, "dangling"));
	assert_false(reach_consts_cover(r, ""));
	assert_false(reach_consts_cover(r, NULL));
	reach_free(r);
}

/* The "blobs" of test_cache: sources by a one-byte blob id. */
static const char *const cache_src[] = {
	"static const struct proto_ops ops = { .sendmsg = f_sendmsg };\n"
	"int f_sendmsg(int n)\n{\n\treturn g(n);\n}\n",
	"int g(int n)\n{\n\treturn WARN_ON(n);\n}\n",
	"int g(int n)\n{\n\treturn h(n);\n}\nint h(int n)\n{\n\treturn WARN_ON(n);\n}\n",
	"enum { size_max = 8 };\n",
	"#include <linux/types.h>\n",	/* no facts at all */
	"int zz_only(int a)\n{\n\treturn yy_only(a) + XX_ONLY;\n}\n",
	"#define size_lim (size_max * 2)\n",	/* a "d" record */
	"int v(int n)\n{\n\tchar a[size_max];\n\tchar b[n];\n\treturn WARN_ON(n);\n}\n",
};

struct getter {
	unsigned int calls;
};

/* The function facts the lexer finds in @len bytes at @src. */
static char *lexed_facts(const char *src, size_t len)
{
	struct site_list l = SITE_LIST_INIT;
	char *funcs;

	assert_int_equal(lex_buffer(src, len, &l), 0);
	funcs = l.funcs;
	l.funcs = NULL;
	site_list_clear(&l);
	return funcs;
}

/* Facts of blob @oid (its first byte indexes cache_src) for reach_add_blob(). */
static int get_facts(void *data, const git_oid *oid, char **funcs)
{
	struct getter *g = data;
	const char *src = cache_src[oid->id[0]];

	g->calls++;
	*funcs = lexed_facts(src, strlen(src));
	return 0;
}

/* Add blob number @id as @path of @r, its facts from @get. */
static void add_blob_from(struct reach *r, const char *path, unsigned char id,
			  int (*get)(void *, const git_oid *, char **),
			  struct getter *g)
{
	git_oid oid;

	memset(&oid, 0, sizeof(oid));
	oid.id[0] = id;
	assert_int_equal(reach_add_blob(r, path, &oid, get, g), 0);
}

static void add_blob(struct reach *r, const char *path, unsigned char id,
		     struct getter *g)
{
	add_blob_from(r, path, id, get_facts, g);
}

/*
 * Two releases through one cache: the second takes the unchanged blobs
 * from it, and finds what a graph of its own finds; a trim keeps only
 * what the last graph used.
 */
static void test_cache(void **state)
{
	struct reach_cache *c = reach_cache_new();
	struct getter g = { 0 };
	struct reach *r, *own;
	git_oid oid;

	(void)state;
	r = reach_new_cached(REACH_DEFAULT_DEPTH, c);
	add_blob(r, "net/f/af.c", 0, &g);
	add_blob(r, "net/f/g.c", 1, &g);
	add_blob(r, "include/f.h", 3, &g);
	add_blob(r, "include/t.h", 4, &g);
	reach_build(r);
	assert_int_equal(g.calls, 4);
	assert_path(r, "net/f/g.c", 3,
		    "f_sendmsg (net/f/af.c:2) \xe2\x86\x92 g (net/f/g.c:1)");
	assert_true(reach_consts_cover(r, "size_max"));
	reach_free(r);
	reach_cache_trim(c);
	assert_int_equal(reach_cache_blobs(c), 4);

	/* the next release: g.c changed, the headers are gone */
	r = reach_new_cached(REACH_DEFAULT_DEPTH, c);
	add_blob(r, "net/f/af.c", 0, &g);
	add_blob(r, "net/f/g.c", 2, &g);
	reach_build(r);
	assert_int_equal(g.calls, 5);	/* only the new blob was read */
	own = reach_new(REACH_DEFAULT_DEPTH);
	add(own, "net/f/af.c", cache_src[0]);
	add(own, "net/f/g.c", cache_src[2]);
	reach_build(own);
	assert_path(r, "net/f/g.c", 7,
		    "f_sendmsg (net/f/af.c:2) \xe2\x86\x92 g (net/f/g.c:1) \xe2\x86\x92 h (net/f/g.c:5)");
	assert_path(own, "net/f/g.c", 7,
		    "f_sendmsg (net/f/af.c:2) \xe2\x86\x92 g (net/f/g.c:1) \xe2\x86\x92 h (net/f/g.c:5)");
	assert_int_equal(reach_reached(r), reach_reached(own));
	assert_int_equal(reach_functions(r), reach_functions(own));
	assert_false(reach_consts_cover(r, "size_max"));
	/* a path added twice is refused, its blob cached or not */
	memset(&oid, 0, sizeof(oid));
	assert_int_equal(reach_add_blob(r, "net/f/af.c", &oid, get_facts, &g),
			 KMIG_EGENERIC);
	reach_free(r);
	reach_free(own);
	reach_cache_trim(c);	/* the blob without facts goes too */
	assert_int_equal(reach_cache_blobs(c), 2);
	reach_cache_free(c);
	reach_cache_free(NULL);
}

/*
 * Marked blobs survive a trim before any graph used them (kmig scan marks
 * the next release's); the others go, and are read again when needed.
 */
static void test_cache_mark(void **state)
{
	struct reach_cache *c = reach_cache_new();
	struct getter g = { 0 };
	struct reach *r;
	git_oid oid;

	(void)state;
	r = reach_new_cached(REACH_DEFAULT_DEPTH, c);
	add_blob(r, "net/f/af.c", 0, &g);
	add_blob(r, "net/f/g.c", 1, &g);
	add_blob(r, "include/f.h", 3, &g);
	add_blob(r, "include/t.h", 4, &g);
	reach_free(r);
	reach_cache_trim(c);
	assert_int_equal(reach_cache_blobs(c), 4);

	memset(&oid, 0, sizeof(oid));
	oid.id[0] = 0;
	reach_cache_mark(c, &oid);
	oid.id[0] = 3;
	reach_cache_mark(c, &oid);
	oid.id[0] = 2;			/* not cached: nothing */
	reach_cache_mark(c, &oid);
	reach_cache_trim(c);
	assert_int_equal(reach_cache_blobs(c), 2);

	r = reach_new_cached(REACH_DEFAULT_DEPTH, c);
	add_blob(r, "net/f/af.c", 0, &g);
	add_blob(r, "include/f.h", 3, &g);
	assert_int_equal(g.calls, 4);	/* both kept */
	add_blob(r, "net/f/g.c", 1, &g);
	assert_int_equal(g.calls, 5);	/* dropped: read again */
	reach_build(r);
	assert_path(r, "net/f/g.c", 3,
		    "f_sendmsg (net/f/af.c:2) \xe2\x86\x92 g (net/f/g.c:1)");
	reach_free(r);
	reach_cache_free(c);
}

/*
 * A compaction drops the names of the blobs gone, and the graph of the
 * blobs left is the same: every name of theirs moved (the gone blob's
 * names came first, so each id changes).
 */
static void test_cache_compact(void **state)
{
	struct reach_cache *c = reach_cache_new();
	struct getter g = { 0 };
	struct reach *r, *own;
	size_t names;

	(void)state;
	r = reach_new_cached(REACH_DEFAULT_DEPTH, c);
	add_blob(r, "drivers/z.c", 5, &g);
	add_blob(r, "include/f.h", 3, &g);
	add_blob(r, "include/l.h", 6, &g);
	add_blob(r, "net/f/af.c", 0, &g);
	add_blob(r, "net/f/g.c", 2, &g);
	reach_build(r);
	reach_free(r);
	reach_cache_trim(c);
	r = reach_new_cached(REACH_DEFAULT_DEPTH, c);	/* z.c is gone */
	add_blob(r, "include/f.h", 3, &g);
	add_blob(r, "include/l.h", 6, &g);
	add_blob(r, "net/f/af.c", 0, &g);
	add_blob(r, "net/f/g.c", 2, &g);
	reach_free(r);
	reach_cache_trim(c);
	assert_int_equal(reach_cache_blobs(c), 4);

	names = reach_cache_names(c);
	reach_cache_compact(c);
	assert_true(reach_cache_names(c) < names);
	assert_true(reach_cache_names(c) > 0);

	r = reach_new_cached(REACH_DEFAULT_DEPTH, c);
	add_blob(r, "include/f.h", 3, &g);
	add_blob(r, "include/l.h", 6, &g);
	add_blob(r, "net/f/af.c", 0, &g);
	add_blob(r, "net/f/g.c", 2, &g);
	reach_build(r);
	assert_int_equal(g.calls, 5);	/* all from the cache */
	own = reach_new(REACH_DEFAULT_DEPTH);
	add(own, "include/f.h", cache_src[3]);
	add(own, "include/l.h", cache_src[6]);
	add(own, "net/f/af.c", cache_src[0]);
	add(own, "net/f/g.c", cache_src[2]);
	reach_build(own);
	assert_path(r, "net/f/g.c", 7,
		    "f_sendmsg (net/f/af.c:2) \xe2\x86\x92 g (net/f/g.c:1) \xe2\x86\x92 h (net/f/g.c:5)");
	assert_int_equal(reach_entries(r), reach_entries(own));
	assert_int_equal(reach_reached(r), reach_reached(own));
	assert_int_equal(reach_functions(r), reach_functions(own));
	assert_true(reach_consts_cover(r, "size_max"));
	assert_true(reach_consts_cover(r, "size_lim"));
	reach_free(r);
	reach_free(own);
	reach_cache_free(c);
}

/*
 * Blobs of test_cache_compact_chunks: blob @id defines a chain of
 * MANY_FNS functions with long names of its own (more than a chunk of
 * names each), the first an entry point, the last with a WARN_ON.  The
 * other blobs' entry points call blob 1's helper, and their operations
 * name blob 1's callback: names that only a call and a reference keep
 * once blob 1 is gone.
 */
#define MANY_FNS 30000
#define MANY_HELPER_LINE (7 + 4 * MANY_FNS + 1)	/* blob 1's helper */

static int get_many(void *data, const git_oid *oid, char **funcs)
{
	struct getter *g = data;
	struct sbuf sb = SBUF_INIT;
	unsigned int i, id = oid->id[0];

	g->calls++;
	if (id == 1)
		sbuf_addstr(&sb, "static const struct proto_ops ops = { .sendmsg = blob1_sendmsg };\n");
	else
		sbuf_addf(&sb, "static const struct proto_ops ops = { .sendmsg = blob%u_sendmsg, .ioctl = blob1_callback };\n",
			  id);
	sbuf_addf(&sb, "int blob%u_sendmsg(int a)\n{\n\ta++;\n", id);
	sbuf_addstr(&sb, id == 1 ? "\ta--;\n" : "\tblob1_helper(a);\n");
	sbuf_addf(&sb, "\treturn blob%u_a_rather_long_function_name_0(a);\n}\n", id);
	for (i = 0; i < MANY_FNS; i++) {
		sbuf_addf(&sb, "int blob%u_a_rather_long_function_name_%u(int a)\n{\n",
			  id, i);
		if (i + 1 < MANY_FNS)
			sbuf_addf(&sb, "\treturn blob%u_a_rather_long_function_name_%u(a);\n}\n",
				  id, i + 1);
		else
			sbuf_addstr(&sb, "\treturn WARN_ON(a);\n}\n");
	}
	if (id == 1)
		sbuf_addstr(&sb, "int blob1_helper(int a)\n{\n\treturn WARN_ON(a);\n}\n"
			    "void blob1_callback(int a)\n{\n\tWARN_ON(a);\n}\n");
	*funcs = lexed_facts(sb.buf, sb.len);
	sbuf_release(&sb);
	return 0;
}

static void add_many(struct reach *r, const char *path, unsigned char id,
		     struct getter *g)
{
	add_blob_from(r, path, id, get_many, g);
}

/*
 * A compaction over several chunks of names: the first blob's names (the
 * first chunks) go, the others move down across chunk boundaries, and
 * the graph of what is left is the one the same blobs give at first.
 */
static void test_cache_compact_chunks(void **state)
{
	struct reach_cache *c = reach_cache_new();
	struct getter g = { 0 };
	struct reach *r;
	size_t names, functions, reached, entries;

	(void)state;
	r = reach_new_cached(REACH_DEFAULT_DEPTH, c);
	add_many(r, "drivers/a.c", 1, &g);
	add_many(r, "drivers/b.c", 2, &g);
	add_many(r, "drivers/c.c", 3, &g);
	reach_build(r);
	functions = reach_functions(r);
	reached = reach_reached(r);
	entries = reach_entries(r);
	assert_int_equal(entries, 4);	/* the callback too */
	assert_path_reached(r, "drivers/a.c", MANY_HELPER_LINE + 2);
	assert_path_reached(r, "drivers/a.c", MANY_HELPER_LINE + 6);
	reach_free(r);
	reach_cache_trim(c);

	r = reach_new_cached(REACH_DEFAULT_DEPTH, c);	/* a.c is gone */
	add_many(r, "drivers/b.c", 2, &g);
	add_many(r, "drivers/c.c", 3, &g);
	reach_free(r);
	reach_cache_trim(c);
	names = reach_cache_names(c);
	reach_cache_compact(c);
	assert_in_range(reach_cache_names(c), 2 * (MANY_FNS + 1),
			names - MANY_FNS - 1);

	r = reach_new_cached(REACH_DEFAULT_DEPTH, c);
	add_many(r, "drivers/b.c", 2, &g);
	add_many(r, "drivers/c.c", 3, &g);
	add_many(r, "drivers/a.c", 1, &g);	/* back: parsed again */
	reach_build(r);
	assert_int_equal(g.calls, 4);
	assert_int_equal(reach_entries(r), entries);
	assert_int_equal(reach_functions(r), functions);
	assert_int_equal(reach_reached(r), reached);
	assert_path(r, "drivers/c.c", 10,
		    "blob3_sendmsg (drivers/c.c:2) \xe2\x86\x92 blob3_a_rather_long_function_name_0 (drivers/c.c:8)");
	/* blob 1's helper and callback: reached from the other blobs only */
	assert_path_reached(r, "drivers/a.c", MANY_HELPER_LINE + 2);
	assert_path_reached(r, "drivers/a.c", MANY_HELPER_LINE + 6);
	reach_free(r);
	reach_cache_free(c);
}

/* "path:line chain" of each reached and each constant vla site of @tag. */
static char *graph_rows(const char *db, const char *tag)
{
	static const char sql[] =
		"SELECT 'reach ' || path || ':' || line || ' ' || chain FROM release_reach "
		"WHERE release_id = (SELECT id FROM releases WHERE tag = ?1) "
		"UNION ALL SELECT 'vla ' || path || ':' || line || ' ' || deps FROM release_vlaconst "
		"WHERE release_id = (SELECT id FROM releases WHERE tag = ?1) "
		"UNION ALL SELECT 'stats ' || reach_entries || ' ' || reach_reached FROM releases "
		"WHERE tag = ?1 ORDER BY 1";

	return test_sql_rows(db, sql, tag);
}

/*
 * Releases @ta and @tb of @db have the same graph rows and statistics
 * (@sa, @sb): @ta's rows, for the caller to look into and free.
 */
static char *same_graphs(const char *db, const char *ta, const char *tb,
			 const struct reach_stats *sa,
			 const struct reach_stats *sb)
{
	char *a = graph_rows(db, ta), *b = graph_rows(db, tb);

	assert_int_equal(sa->entries, sb->entries);
	assert_int_equal(sa->reached, sb->reached);
	assert_string_equal(a, b);
	free(b);
	return a;
}

/* Blob @id (cache_src) into @st, its facts and sites; into @c too if not NULL. */
static void put_src(struct store *st, struct reach_cache *c, unsigned char id,
		    git_oid *oid)
{
	const char *src = cache_src[id];
	struct site_list l = SITE_LIST_INIT;
	const char *ruleset = rules_hash();
	char *funcs;

	memset(oid, 0, sizeof(*oid));
	oid->id[0] = id;
	assert_int_equal(lex_buffer(src, strlen(src), &l), 0);
	assert_int_equal(store_blob_put(st, repo_oid_str(oid), ruleset,
					strlen(src), &l), 0);
	assert_int_equal(store_blob_funcs_put(st, repo_oid_str(oid), ruleset,
					      l.funcs), 0);
	if (c) {
		funcs = l.funcs ? xstrdup(l.funcs) : NULL;
		reach_cache_add(c, oid, funcs, &l);
		free(funcs);
	}
	site_list_clear(&l);
}

/* Release @tag of the @n files @paths, blobs @oids. */
static long long put_files(struct store *st, const char *tag,
			   const char *const *paths, const git_oid *const *oids,
			   size_t n)
{
	long long rel;
	size_t i;

	assert_int_equal(store_release_start(st, &rel, tag,
					     "0123456789012345678901234567890123456789",
					     1000, rules_hash(), NULL), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(store_release_file(st, rel, paths[i],
						    repo_oid_str(oids[i]), "X"), 0);
	return rel;
}

/*
 * reach_release_prepare() + reach_release_write() from a cache the lexer
 * filled record what reach_release() records from the store alone; a blob
 * the cache lacks leaves it to the store until reach_cache_load() read its
 * facts, and its sites then come from the store in the write.
 */
static void test_prepare(void **state)
{
	static const char *const paths[] = {
		"drivers/v.c", "include/f.h", "lib/zz.c", "net/f/af.c", "net/f/g.c",
	};
	static const unsigned char ids[] = { 7, 3, 5, 0, 1 };
	const char *ruleset = rules_hash();
	struct reach_cache *c = reach_cache_new();
	struct reach_stats sa = { 0 }, sb = { 0 };
	struct reach_prep *prep = NULL;
	char *dir = test_tmpdir(), *db, *a, *b;
	const git_oid *oids[5];
	git_oid oid[5];
	struct store *st;
	long long rel[4];
	size_t i;

	(void)state;
	assert_non_null(dir);
	db = xasprintf("%s/kmig.db", dir);
	assert_int_equal(store_open(&st, db), 0);
	assert_int_equal(store_begin(st), 0);
	for (i = 0; i < 5; i++) {
		/* lib/zz.c's blob in the store only, as one trimmed since */
		put_src(st, ids[i] == 5 ? NULL : c, ids[i], &oid[i]);
		oids[i] = &oid[i];
	}
	/* without lib/zz.c: v1 from the store alone, v2 from the cache */
	{
		const char *p4[] = { paths[0], paths[1], paths[3], paths[4] };
		const git_oid *o4[] = { oids[0], oids[1], oids[3], oids[4] };

		rel[0] = put_files(st, "v1", p4, o4, 4);
		rel[1] = put_files(st, "v2", p4, o4, 4);
		assert_int_equal(reach_release(st, rel[0], REACH_DEFAULT_DEPTH,
					       NULL, &sa), 0);
		assert_int_equal(reach_release_prepare(p4, o4, 4, ruleset,
						       REACH_DEFAULT_DEPTH, c,
						       &prep), 0);
	}
	assert_non_null(prep);
	assert_int_equal(reach_cache_blobs(c), 4);	/* lib/zz.c's never came */
	assert_int_equal(reach_release_write(st, rel[1], REACH_DEFAULT_DEPTH, c,
					     prep, &sb), 0);
	assert_int_equal(sa.entries, sb.entries);
	assert_int_equal(sa.reached, sb.reached);
	assert_int_equal(sb.sites, 1);		/* g()'s WARN_ON; nothing calls v() */
	assert_int_equal(sb.sites_read, 0);
	assert_false(sb.sites_joined);

	/* with it: not from the cache alone, then its facts loaded */
	rel[2] = put_files(st, "v3", paths, oids, 5);
	rel[3] = put_files(st, "v4", paths, oids, 5);
	assert_int_equal(reach_release(st, rel[2], REACH_DEFAULT_DEPTH, NULL, &sa), 0);
	prep = (struct reach_prep *)1;
	assert_int_equal(reach_release_prepare(paths, oids, 5, ruleset,
					       REACH_DEFAULT_DEPTH, c, &prep), 0);
	assert_null(prep);
	assert_int_equal(reach_cache_load(c, st, ruleset, oids, 5), 0);
	assert_int_equal(reach_release_prepare(paths, oids, 5, ruleset,
					       REACH_DEFAULT_DEPTH, c, &prep), 0);
	assert_non_null(prep);
	assert_int_equal(reach_release_write(st, rel[3], REACH_DEFAULT_DEPTH, c,
					     prep, &sb), 0);
	/* lib/zz.c's sites from the store: more than an eighth, so joined */
	assert_true(sb.sites_joined);
	assert_int_equal(store_commit(st), 0);

	a = graph_rows(db, "v1");
	b = graph_rows(db, "v2");
	assert_string_equal(a, b);
	assert_non_null(strstr(b, "reach net/f/g.c:3 f_sendmsg"));
	assert_non_null(strstr(b, "vla drivers/v.c:3 size_max\n"));
	assert_null(strstr(b, "drivers/v.c:4"));
	free(a);
	free(b);
	a = graph_rows(db, "v3");
	b = graph_rows(db, "v4");
	assert_string_equal(a, b);
	free(a);
	free(b);
	assert_int_equal(reach_cache_blobs(c), 5);
	/* one prepared and not written: freed (LeakSanitizer would tell) */
	assert_int_equal(reach_release_prepare(paths, oids, 5, ruleset,
					       REACH_DEFAULT_DEPTH, c, &prep), 0);
	assert_non_null(prep);
	reach_prep_free(prep);
	reach_prep_free(NULL);

	store_close(st);
	reach_cache_free(c);
	free(db);
	assert_int_equal(test_tmpdir_remove(dir), 0);
}

/* The image @path with the 32 bits at @off set to @v, or cut to @off bytes (@cut). */
static void image_poke(const char *path, long off, uint32_t v, bool cut)
{
	FILE *f;

	if (cut) {
		assert_int_equal(truncate(path, off), 0);
		return;
	}
	f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, off, SEEK_SET), 0);
	assert_int_equal(fwrite(&v, sizeof(v), 1, f), 1);
	assert_int_equal(fclose(f), 0);
}

/* @path restores nothing under @ruleset, and leaves the cache empty. */
static void assert_no_image(const char *path, const char *ruleset)
{
	struct reach_cache *c = reach_cache_new();
	size_t n = 1;

	assert_int_equal(reach_cache_restore(c, path, ruleset, &n), KMIG_ENOTFOUND);
	assert_int_equal(n, 0);
	assert_int_equal(reach_cache_blobs(c), 0);
	assert_int_equal(reach_cache_names(c), 0);
	reach_cache_free(c);
}

/*
 * A cache saved (reach_cache_save()) and restored in a later run holds
 * the same: the graph of a release from it records the same rows, its
 * sites known without the store.  An image of other rules, cut short,
 * with a name out of range, or none at all restores nothing; a cache in
 * use is not restored into.
 */
static void test_cache_image(void **state)
{
	static const char *const paths[] = {
		"drivers/v.c", "include/f.h", "include/l.h", "net/f/af.c", "net/f/g.c",
	};
	static const unsigned char ids[] = { 7, 3, 6, 0, 2 };
	const char *ruleset = rules_hash();
	struct reach_cache *c = reach_cache_new(), *back = reach_cache_new();
	struct reach_stats sa = { 0 }, sb = { 0 };
	struct reach_prep *prep = NULL;
	char *dir = test_tmpdir(), *db, *img, *a;
	const git_oid *oids[5];
	git_oid oid[5];
	struct store *st;
	long long rel[2];
	uint64_t names_bytes;
	size_t i, n = 0;
	FILE *f;

	(void)state;
	assert_non_null(dir);
	db = xasprintf("%s/kmig.db", dir);
	img = xasprintf("%s/kmig.db-graph", dir);
	assert_int_equal(store_open(&st, db), 0);
	assert_int_equal(store_begin(st), 0);
	for (i = 0; i < 5; i++) {
		put_src(st, c, ids[i], &oid[i]);
		oids[i] = &oid[i];
	}
	rel[0] = put_files(st, "i1", paths, oids, 5);
	rel[1] = put_files(st, "i2", paths, oids, 5);
	assert_no_image(img, ruleset);		/* none yet */
	assert_int_equal(reach_cache_save(c, img, ruleset), 0);

	/* the saved cache's graph, and the restored one's */
	assert_int_equal(reach_release_prepare(paths, oids, 5, ruleset,
					       REACH_DEFAULT_DEPTH, c, &prep), 0);
	assert_non_null(prep);
	assert_int_equal(reach_release_write(st, rel[0], REACH_DEFAULT_DEPTH, c,
					     prep, &sa), 0);
	assert_int_equal(reach_cache_restore(back, img, ruleset, &n), 0);
	assert_int_equal(n, 5);
	assert_int_equal(reach_cache_restore(back, img, ruleset, &n), KMIG_EGENERIC);
	assert_int_equal(reach_release_prepare(paths, oids, 5, ruleset,
					       REACH_DEFAULT_DEPTH, back, &prep), 0);
	assert_non_null(prep);		/* every blob's facts restored */
	assert_int_equal(reach_release_write(st, rel[1], REACH_DEFAULT_DEPTH,
					     back, prep, &sb), 0);
	assert_false(sb.sites_joined);	/* and their sites */
	assert_int_equal(sb.sites_read, 0);
	assert_int_equal(store_commit(st), 0);
	a = same_graphs(db, "i1", "i2", &sa, &sb);
	assert_non_null(strstr(a, "reach net/f/g.c:7 f_sendmsg"));
	assert_non_null(strstr(a, "vla drivers/v.c:3 size_max\n"));
	free(a);

	/* other rules; a name id out of range; cut short */
	assert_no_image(img, "other rules");
	f = fopen(img, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 72, SEEK_SET), 0);	/* names_bytes */
	assert_int_equal(fread(&names_bytes, sizeof(names_bytes), 1, f), 1);
	fclose(f);
	/* the first blob's first function's name: after its id, flags, sizes */
	image_poke(img, (long)(96 + names_bytes + 20 + 4 + 24), 0xfffffffe, false);
	assert_no_image(img, ruleset);
	assert_int_equal(reach_cache_save(c, img, ruleset), 0);
	/* the first blob's sites, flagged as not known */
	image_poke(img, (long)(96 + names_bytes + 20), 1, false);
	assert_no_image(img, ruleset);
	assert_int_equal(reach_cache_save(c, img, ruleset), 0);
	image_poke(img, (long)(96 + names_bytes + 10), 0, true);
	assert_no_image(img, ruleset);

	store_close(st);
	reach_cache_free(c);
	reach_cache_free(back);
	free(db);
	free(img);
	assert_int_equal(test_tmpdir_remove(dir), 0);
}

/*
 * Many blobs' facts (a release's graph in a later run) are read by a
 * thread while the caller parses them: the graph is the one of the same
 * facts loaded a few at a time, and a malformed row among them fails the
 * load with the store's message.
 */
#define LOAD_MANY 400

static void test_load_many(void **state)
{
	const char *ruleset = rules_hash();
	struct reach_cache *c = reach_cache_new();
	struct reach_stats sa = { 0 }, sb = { 0 };
	struct reach_prep *prep = NULL;
	char *dir = test_tmpdir(), *db, *a, *sql;
	const git_oid **oids = xcalloc(LOAD_MANY, sizeof(*oids));
	char **paths = xcalloc(LOAD_MANY, sizeof(*paths));
	git_oid *oid = xcalloc(LOAD_MANY, sizeof(*oid));
	struct store *st;
	long long rel[2];
	sqlite3 *h;
	size_t i;

	(void)state;
	assert_non_null(dir);
	db = xasprintf("%s/kmig.db", dir);
	assert_int_equal(store_open(&st, db), 0);
	assert_int_equal(store_begin(st), 0);
	for (i = 0; i < LOAD_MANY; i++) {
		struct site_list l = SITE_LIST_INIT;
		char *src = xasprintf("%sint step_%zu(int n)\n{\n\treturn %s;\n}\n",
				      i ? "" : "static const struct proto_ops ops = { .sendmsg = step_0 };\n",
				      i, i == 2 || i == 300 ? "WARN_ON(n)" :
				      "step_next(n) + shared_helper(n)");

		/* step_i calls step_(i + 1): step_next renamed per file */
		if (!strstr(src, "WARN_ON")) {
			char *next = xasprintf("step_%zu", i + 1);
			char *p = strstr(src, "step_next");
			char *t = xasprintf("%.*s%s%s", (int)(p - src), src, next,
					    p + strlen("step_next"));

			free(src);
			free(next);
			src = t;
		}
		oid[i].id[0] = (unsigned char)(i >> 8);
		oid[i].id[1] = (unsigned char)i;
		oid[i].id[2] = 0x5a;
		oids[i] = &oid[i];
		paths[i] = xasprintf("net/m/f%03zu.c", i);
		assert_int_equal(lex_buffer(src, strlen(src), &l), 0);
		assert_int_equal(store_blob_put(st, repo_oid_str(&oid[i]), ruleset,
						strlen(src), &l), 0);
		assert_int_equal(store_blob_funcs_put(st, repo_oid_str(&oid[i]),
						      ruleset, l.funcs), 0);
		site_list_clear(&l);
		free(src);
	}
	rel[0] = put_files(st, "m1", (const char *const *)paths, oids, LOAD_MANY);
	rel[1] = put_files(st, "m2", (const char *const *)paths, oids, LOAD_MANY);
	/* all at once from the store: read by the thread */
	assert_int_equal(reach_release(st, rel[0], REACH_DEFAULT_DEPTH, NULL, &sa), 0);
	/* a hundred at a time: read and parsed in turn */
	for (i = 0; i < LOAD_MANY; i += 100)
		assert_int_equal(reach_cache_load(c, st, ruleset, oids + i, 100), 0);
	assert_int_equal(reach_cache_blobs(c), LOAD_MANY);
	assert_int_equal(reach_release_prepare((const char *const *)paths, oids,
					       LOAD_MANY, ruleset,
					       REACH_DEFAULT_DEPTH, c, &prep), 0);
	assert_non_null(prep);
	assert_int_equal(reach_release_write(st, rel[1], REACH_DEFAULT_DEPTH, c,
					     prep, &sb), 0);
	assert_int_equal(store_commit(st), 0);
	a = same_graphs(db, "m1", "m2", &sa, &sb);
	assert_non_null(strstr(a, "reach net/m/f002.c:3 step_0"));
	assert_null(strstr(a, "net/m/f300.c"));
	free(a);

	/* one malformed row among them: the load fails, saying so */
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	sql = xasprintf("UPDATE blob_funcs SET data = x'00' WHERE oid = '%s'",
			repo_oid_str(&oid[LOAD_MANY / 2]));
	assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	free(sql);
	reach_cache_free(c);
	c = reach_cache_new();
	assert_int_not_equal(reach_cache_load(c, st, ruleset, oids, LOAD_MANY), 0);
	assert_non_null(strstr(kmig_errmsg(), "malformed function facts"));

	store_close(st);
	reach_cache_free(c);
	for (i = 0; i < LOAD_MANY; i++)
		free(paths[i]);
	free(paths);
	free(oids);
	free(oid);
	free(db);
	assert_int_equal(test_tmpdir_remove(dir), 0);
}

static void test_name_heuristic(void **state)
{
	(void)state;
	assert_true(reach_name_heuristic("foo_sendmsg"));
	assert_true(reach_name_heuristic("bar_ioctl"));
	assert_true(reach_name_heuristic("baz_store"));
	assert_false(reach_name_heuristic("ioctl"));
	assert_false(reach_name_heuristic("foo_ioctl_helper"));
	assert_false(reach_name_heuristic("restore"));
	assert_false(reach_name_heuristic(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rds),
		cmocka_unit_test(test_definitions),
		cmocka_unit_test(test_arch),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_consts),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_cache_mark),
		cmocka_unit_test(test_cache_compact),
		cmocka_unit_test(test_cache_compact_chunks),
		cmocka_unit_test(test_prepare),
		cmocka_unit_test(test_load_many),
		cmocka_unit_test(test_cache_image),
		cmocka_unit_test(test_name_heuristic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
