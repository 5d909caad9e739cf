// SPDX-License-Identifier: GPL-2.0
/*
 * test-facts.c - the stored form of the call-graph facts (facts.h):
 * round trips, rows written by zlib before, and damaged data refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "facts.h"
#include "util.h"

static char *sample(size_t lines)
{
	struct sbuf sb = SBUF_INIT;
	size_t i;

	for (i = 0; i < lines; i++)
		sbuf_addf(&sb, "n name_%zu other_%zu\nf 0 %zu %zu 1 1\n", i, i % 7,
			  i, i + 3);
	return sbuf_detach(&sb);
}

static void test_round_trip(void **state)
{
	struct facts_packer *pk = facts_packer_new();
	struct facts_z z = { 0 };
	struct sbuf out = SBUF_INIT;
	char *text = sample(5000);

	(void)state;
	assert_int_equal(facts_pack(pk, text, &z), 0);
	assert_int_equal(z.len, strlen(text));
	assert_true(z.zlen > 0 && z.zlen < z.len / 2);
	assert_int_equal(facts_unpack(pk, z.data, z.zlen, z.len, &out), 0);
	assert_string_equal(out.buf, text);
	/* the empty text packs to nothing and unpacks to "" */
	assert_int_equal(facts_pack(pk, "", &z), 0);
	assert_null(z.data);
	assert_int_equal(z.len, 0);
	assert_int_equal(facts_unpack(pk, NULL, 0, 0, &out), 0);
	assert_string_equal(out.buf, "");
	facts_z_clear(&z);
	sbuf_release(&out);
	free(text);
	facts_packer_free(pk);
	facts_packer_free(NULL);
}

/* Rows of databases written with zlib's compress2() read the same. */
static void test_zlib_rows(void **state)
{
	struct facts_packer *pk = facts_packer_new();
	struct sbuf out = SBUF_INIT;
	char *text = sample(300);
	uLongf zlen = compressBound(strlen(text));
	Bytef *z = malloc(zlen);

	(void)state;
	assert_int_equal(compress2(z, &zlen, (const Bytef *)text, strlen(text), 1), Z_OK);
	assert_int_equal(facts_unpack(pk, z, zlen, strlen(text), &out), 0);
	assert_string_equal(out.buf, text);
	/* a wrong length, a cut or damaged stream: refused */
	assert_int_equal(facts_unpack(pk, z, zlen, strlen(text) + 1, &out), KMIG_EGENERIC);
	assert_int_equal(facts_unpack(pk, z, zlen, strlen(text) - 1, &out), KMIG_EGENERIC);
	assert_int_equal(facts_unpack(pk, z, zlen / 2, strlen(text), &out), KMIG_EGENERIC);
	z[zlen / 2] ^= 0x5a;
	assert_int_equal(facts_unpack(pk, z, zlen, strlen(text), &out), KMIG_EGENERIC);
	assert_int_equal(facts_unpack(pk, NULL, 4, 4, &out), KMIG_EGENERIC);
	free(z);
	sbuf_release(&out);
	free(text);
	facts_packer_free(pk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_zlib_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
