// SPDX-License-Identifier: GPL-2.0
/*
 * test-oidset.c - the set of object ids against a plain list: ids that
 * share their slot, their tag or both, growth, reserve and the values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "oidset.h"
#include "util.h"
#include "unit-util.h"

/* Id number @k: its bytes from a counter, so every id differs. */
static void make_oid(git_oid *oid, uint32_t k, bool same_slot, bool same_tag)
{
	uint32_t x = k * 2654435761u;
	size_t i;

	for (i = 0; i < sizeof(oid->id); i++)
		oid->id[i] = (unsigned char)(x >> (8 * (i % 4)) ^ i);
	memcpy(oid->id + 16, &k, 4);	/* unique */
	if (same_slot)
		memset(oid->id, 0x5a, 8);	/* one start for all */
	if (same_tag)
		oid->id[8] = 0x42;
}

static void check_set(bool same_slot, bool same_tag, uint32_t n)
{
	struct oidset s = OIDSET_INIT;
	git_oid oid;
	size_t v;
	uint32_t k;

	for (k = 0; k < n; k++) {
		make_oid(&oid, k, same_slot, same_tag);
		assert_true(oidset_add(&s, &oid));
		assert_false(oidset_add(&s, &oid));
	}
	assert_int_equal(s.n, n);
	for (k = 0; k < 2 * n; k++) {
		make_oid(&oid, k, same_slot, same_tag);
		assert_int_equal(oidset_has(&s, &oid), k < n);
		if (k < n) {
			assert_true(oidset_get(&s, &oid, &v));
			assert_int_equal(v, 0);
		} else {
			assert_false(oidset_get(&s, &oid, &v));
		}
	}
	/* values: new ids and ids already there */
	for (k = 0; k < 2 * n; k += 2) {
		make_oid(&oid, k, same_slot, same_tag);
		assert_int_equal(oidset_put(&s, &oid, k + 7), k >= n);
	}
	for (k = 0; k < 2 * n; k++) {
		bool there = k < n || !(k & 1);

		make_oid(&oid, k, same_slot, same_tag);
		assert_int_equal(oidset_get(&s, &oid, &v), there);
		if (there)
			assert_int_equal(v, k & 1 ? 0 : k + 7);
	}
	assert_true(s.n * 2 <= s.cap);
	oidset_clear(&s);
	assert_int_equal(s.n, 0);
	make_oid(&oid, 0, same_slot, same_tag);
	assert_false(oidset_has(&s, &oid));
}

static void test_spread(void **state)
{
	(void)state;
	check_set(false, false, 5000);
}

static void test_same_tag(void **state)
{
	(void)state;
	check_set(false, true, 5000);
}

static void test_same_slot(void **state)
{
	(void)state;
	check_set(true, false, 700);
	check_set(true, true, 700);
}

/* Ids alike but for bytes @at..@at+3: every byte of an id is compared. */
static void test_one_part(void **state)
{
	static const size_t parts[] = { 4, 8, 9, 12, 16 };
	struct oidset s = OIDSET_INIT;
	git_oid oid;
	size_t p;
	uint32_t k;

	(void)state;
	for (p = 0; p < ARRAY_SIZE(parts); p++) {
		for (k = 0; k < 300; k++) {
			memset(oid.id, 0x33, sizeof(oid.id));
			memcpy(oid.id + parts[p], &k, 4);
			assert_true(oidset_add(&s, &oid));
		}
		for (k = 0; k < 600; k++) {
			memset(oid.id, 0x33, sizeof(oid.id));
			memcpy(oid.id + parts[p], &k, 4);
			assert_int_equal(oidset_has(&s, &oid), k < 300);
		}
		oidset_clear(&s);
	}
}

static void test_reserve(void **state)
{
	struct oidset s = OIDSET_INIT;
	git_oid oid;
	size_t cap;
	uint32_t k;

	(void)state;
	oidset_reserve(&s, 3000);
	cap = s.cap;
	assert_true(cap >= 6000);
	for (k = 0; k < 3000; k++) {
		make_oid(&oid, k, false, false);
		assert_true(oidset_put(&s, &oid, k));
	}
	assert_int_equal(s.cap, cap);	/* no growth */
	oidset_reserve(&s, 100);	/* never shrinks */
	assert_int_equal(s.cap, cap);
	oidset_reserve(&s, 2 * cap);	/* grows, keeps the values */
	assert_true(s.cap >= 4 * cap);
	for (k = 0; k < 3000; k++) {
		size_t v;

		make_oid(&oid, k, false, false);
		assert_true(oidset_get(&s, &oid, &v));
		assert_int_equal(v, k);
	}
	oidset_clear(&s);
}

/* Ids already there, added or put again, never grow the set. */
static void test_again(void **state)
{
	struct oidset s = OIDSET_INIT;
	git_oid oid;
	size_t cap, v;
	uint32_t k;

	(void)state;
	make_oid(&oid, 0, false, false);
	assert_true(oidset_put(&s, &oid, 5));	/* first call: a put */
	assert_true(oidset_get(&s, &oid, &v));
	assert_int_equal(v, 5);
	/* up to the limit: one id more would grow it */
	for (k = 1; (s.n + 1) * 2 <= s.cap; k++) {
		make_oid(&oid, k, false, false);
		assert_true(oidset_add(&s, &oid));
	}
	cap = s.cap;
	for (k = 0; k < s.n; k++) {
		make_oid(&oid, k, false, false);
		assert_false(oidset_add(&s, &oid));
		assert_false(oidset_put(&s, &oid, k));
	}
	assert_int_equal(s.cap, cap);
	make_oid(&oid, (uint32_t)s.n, false, false);
	assert_true(oidset_add(&s, &oid));	/* a new one does */
	assert_true(s.cap > cap);
	oidset_clear(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_same_tag),
		cmocka_unit_test(test_same_slot),
		cmocka_unit_test(test_one_part),
		cmocka_unit_test(test_reserve),
		cmocka_unit_test(test_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
