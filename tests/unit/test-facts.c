// SPDX-License-Identifier: GPL-2.0
/*
 * test-facts.c - the stored form of the call-graph facts (facts.h):
 * round trips, short texts stored as they are, rows written by zlib
 * before, and damaged data refused.
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

/*
 * A text shorter than FACTS_RAW_BELOW is stored as it is, a longer one
 * compressed; both read back.  A short text beginning with a zlib
 * stream's first byte (no lexer's text does) is compressed.
 */
static void test_short_texts(void **state)
{
	struct facts_packer *pk = facts_packer_new();
	struct facts_z z = { 0 };
	struct sbuf out = SBUF_INIT;
	char *text = sample(40);
	size_t n, len = strlen(text);

	(void)state;
	assert_true(len > FACTS_RAW_BELOW + 2);
	for (n = 1; n <= FACTS_RAW_BELOW + 2; n++) {
		char *t = xstrndup(text, n);

		assert_int_equal(facts_pack(pk, t, &z), 0);
		assert_int_equal(z.len, n);
		if (n < FACTS_RAW_BELOW) {
			assert_int_equal(z.zlen, n);
			assert_memory_equal(z.data, t, n);
		} else {
			assert_int_equal(z.data[0], 0x78);
		}
		assert_int_equal(facts_unpack(pk, z.data, z.zlen, z.len, &out), 0);
		assert_string_equal(out.buf, t);
		free(t);
	}
	assert_int_equal(facts_pack(pk, "x 1 2", &z), 0);
	assert_int_equal(z.data[0], 0x78);
	assert_int_equal(facts_unpack(pk, z.data, z.zlen, z.len, &out), 0);
	assert_string_equal(out.buf, "x 1 2");
	/* a stored text read with another length: refused */
	assert_int_equal(facts_pack(pk, "n a b", &z), 0);
	assert_int_equal(facts_unpack(pk, z.data, z.zlen, z.len + 1, &out), KMIG_EGENERIC);
	facts_z_clear(&z);
	sbuf_release(&out);
	free(text);
	facts_packer_free(pk);
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
		cmocka_unit_test(test_short_texts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
