// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-facts.c - libFuzzer harness for the call-graph facts as kmig reads
 * them back from its database: the stored form (facts.h) and the parser
 * and graph of reach.c (reach_add_file(), reach_add_blob() through a
 * shared cache, reach_build(), reach_site(), reach_consts_cover()).
 *
 * The input is facts text: its first line names the file (a path; ".h"
 * makes it a header), the rest is the text, given to two files of one
 * release and to the same files through a cache, as kmig scan does for
 * two releases.  Checked: a record is refused only as malformed, the
 * graphs of the private and the cached path agree, every reached line has
 * a call path, the text survives facts_pack()/facts_unpack().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "reach.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct one {
	const char *text;
};

static int get(void *data, const git_oid *oid, char **funcs)
{
	const struct one *o = data;

	(void)oid;
	*funcs = xstrdup(o->text);
	return 0;
}

/* The graph of @text at @path and "lib/other.c", private or via @cache. */
static struct reach *graph(const char *path, const char *text,
			   struct reach_cache *cache)
{
	struct reach *r = reach_new_cached(2, cache);
	struct one o = { text };
	git_oid oid;
	int ret;

	memset(&oid, 0, sizeof(oid));
	if (cache) {
		if (reach_add_blob(r, path, &oid, get, &o))
			abort();
		oid.id[0] = 1;
		if (reach_add_blob(r, "lib/other.c", &oid, get, &o))
			abort();
	} else {
		ret = reach_add_file(r, path, text);
		if (ret && ret != KMIG_EGENERIC)
			abort();
		ret = reach_add_file(r, "lib/other.c", text);
		if (ret && ret != KMIG_EGENERIC)
			abort();
	}
	reach_build(r);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *nl, *path, *text;
	struct reach_cache *cache = reach_cache_new();
	struct facts_packer *pk = facts_packer_new();
	struct facts_z z = { 0 };
	struct sbuf out = SBUF_INIT;
	struct reach *a, *b;
	unsigned int line;
	size_t i;

	memcpy(buf, data, size);
	buf[size] = '\0';
	for (i = 0; i < size; i++)	/* facts are text: no NUL inside */
		if (!buf[i])
			buf[i] = ' ';
	nl = strchr(buf, '\n');
	path = buf;
	text = nl ? nl + 1 : buf + size;
	if (nl)
		*nl = '\0';
	if (!*path || !strcmp(path, "lib/other.c"))
		path = "x.c";

	a = graph(path, text, NULL);
	b = graph(path, text, cache);
	/* the second release: both blobs from the cache */
	reach_free(b);
	reach_cache_trim(cache);
	b = graph(path, text, cache);
	if (reach_functions(a) != reach_functions(b) ||
	    reach_reached(a) != reach_reached(b) ||
	    reach_entries(a) != reach_entries(b))
		abort();
	for (line = 0; line < 64; line++) {
		char *ca = NULL, *cb = NULL;
		int ra = reach_site(a, path, line, &ca);
		int rb = reach_site(b, path, line, &cb);

		if (ra != rb || (ra && (!ca || !cb || strcmp(ca, cb))))
			abort();
		free(ca);
		free(cb);
	}
	if (reach_consts_cover(a, text) != reach_consts_cover(b, text))
		abort();

	if (facts_pack(pk, text, &z) ||
	    facts_unpack(pk, z.data, z.zlen, z.len, &out) ||
	    strcmp(out.buf, text))
		abort();

	sbuf_release(&out);
	facts_z_clear(&z);
	facts_packer_free(pk);
	reach_free(a);
	reach_free(b);
	reach_cache_free(cache);
	free(buf);
	return 0;
}
