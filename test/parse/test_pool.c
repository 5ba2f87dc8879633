/*
 * test_pool.c: the string/stack pool map of one batch (FORMAT.md 2.7):
 * any u32 id, redefinition wins and resets the sink's cache slot, clear
 * at a header, memory proportional to the entries actually defined.
 */
#include <stdint.h>

#include "base/intern.h"
#include "parse/pool.h"
#include "suites.h"

static const uint8_t bytes[] = "0123456789";

START_TEST(empty_pool)
{
	struct d9p_pool p;

	d9p_pool_init(&p);
	ck_assert_ptr_null(d9p_pool_get(&p, 0));
	ck_assert_ptr_null(d9p_pool_get(&p, UINT32_MAX));
	d9p_pool_clear(&p);
	d9p_pool_free(&p);
	d9p_pool_free(&p);
}
END_TEST

START_TEST(define_and_redefine)
{
	struct d9p_pool p;
	struct d9p_pool_entry *e;

	d9p_pool_init(&p);
	ck_assert_int_eq(d9p_pool_put(&p, 0, bytes, 3), 0);
	ck_assert_int_eq(d9p_pool_put(&p, UINT32_MAX, bytes + 1, 0), 0);
	e = d9p_pool_get(&p, 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_eq(e->p, bytes);
	ck_assert_uint_eq(e->len, 3);
	ck_assert_uint_eq(e->cache, D9_NONE);
	e->cache = 42;			/* what a sink does */
	ck_assert_uint_eq(d9p_pool_get(&p, 0)->cache, 42);
	/* the latest definition wins and forgets the cache */
	ck_assert_int_eq(d9p_pool_put(&p, 0, bytes + 5, 2), 0);
	e = d9p_pool_get(&p, 0);
	ck_assert_ptr_eq(e->p, bytes + 5);
	ck_assert_uint_eq(e->len, 2);
	ck_assert_uint_eq(e->cache, D9_NONE);
	ck_assert_uint_eq(p.n, 2);
	e = d9p_pool_get(&p, UINT32_MAX);
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->len, 0);
	ck_assert_ptr_null(d9p_pool_get(&p, 1));
	/* UINT32_MAX marks free slots; a length that big cannot be stored */
	ck_assert_int_eq(d9p_pool_put(&p, 5, bytes, UINT32_MAX), -1);
	ck_assert_ptr_null(d9p_pool_get(&p, 5));
	d9p_pool_free(&p);
}
END_TEST

START_TEST(growth_keeps_entries)
{
	struct d9p_pool p;

	d9p_pool_init(&p);
	for (uint32_t i = 0; i < 5000; i++)
		ck_assert_int_eq(d9p_pool_put(&p, i * 2654435761u, bytes,
		    i % 10), 0);
	ck_assert_uint_eq(p.n, 5000);
	ck_assert_uint_le(p.cap, 16384);
	for (uint32_t i = 0; i < 5000; i++) {
		struct d9p_pool_entry *e = d9p_pool_get(&p, i * 2654435761u);

		ck_assert_ptr_nonnull(e);
		ck_assert_uint_eq(e->len, i % 10);
	}
	ck_assert_ptr_null(d9p_pool_get(&p, 1));
	d9p_pool_free(&p);
}
END_TEST

/* Ids that collide in the hash's low bits still work (probing). */
START_TEST(colliding_ids)
{
	struct d9p_pool p;

	d9p_pool_init(&p);
	for (uint32_t i = 0; i < 1000; i++)
		ck_assert_int_eq(d9p_pool_put(&p, i << 20, bytes, 1), 0);
	for (uint32_t i = 0; i < 1000; i++)
		ck_assert_ptr_nonnull(d9p_pool_get(&p, i << 20));
	ck_assert_ptr_null(d9p_pool_get(&p, 1000u << 20));
	d9p_pool_free(&p);
}
END_TEST

START_TEST(clear_between_batches)
{
	struct d9p_pool p;

	d9p_pool_init(&p);
	for (uint32_t i = 0; i < 100; i++)
		d9p_pool_put(&p, i, bytes, 1);
	d9p_pool_clear(&p);
	ck_assert_uint_eq(p.n, 0);
	for (uint32_t i = 0; i < 100; i++)
		ck_assert_ptr_null(d9p_pool_get(&p, i));
	ck_assert_int_eq(d9p_pool_put(&p, 7, bytes, 4), 0);
	ck_assert_uint_eq(d9p_pool_get(&p, 7)->len, 4);
	ck_assert_uint_eq(p.n, 1);
	d9p_pool_free(&p);
}
END_TEST

/* Writers number entries 0, 1, ... or from 1, and the row of an id's
 * number is tried first: every id still finds its own entry, whatever
 * order or numbering the ids come in, and a row holding another id is
 * not taken for it. */
START_TEST(numbered_ids)
{
	static const uint32_t order[] = { 5, 3, 1, 0, 2, 4, 9, 6 };
	struct d9p_pool p;

	for (uint32_t from = 0; from < 2; from++) {
		d9p_pool_init(&p);
		for (uint32_t i = 0; i < 300; i++)
			ck_assert_int_eq(d9p_pool_put(&p, from + i, bytes + i % 10,
			    i), 0);
		for (uint32_t i = 0; i < 300; i++)
			ck_assert_uint_eq(d9p_pool_get(&p, from + i)->len, i);
		ck_assert_ptr_null(d9p_pool_get(&p, from + 300));
		ck_assert_ptr_null(d9p_pool_get(&p, from + 301));
		d9p_pool_free(&p);
	}
	d9p_pool_init(&p);
	for (size_t i = 0; i < sizeof order / sizeof *order; i++)
		ck_assert_int_eq(d9p_pool_put(&p, order[i], bytes,
		    order[i] + 100), 0);
	/* row 0 holds id 5, row 1 id 3, ...: each id its own entry */
	for (size_t i = 0; i < sizeof order / sizeof *order; i++)
		ck_assert_uint_eq(d9p_pool_get(&p, order[i])->len,
		    order[i] + 100);
	ck_assert_ptr_null(d9p_pool_get(&p, 7));
	ck_assert_ptr_null(d9p_pool_get(&p, 8));
	/* a redefinition keeps its row */
	ck_assert_int_eq(d9p_pool_put(&p, 1, bytes, 77), 0);
	ck_assert_uint_eq(d9p_pool_get(&p, 1)->len, 77);
	ck_assert_uint_eq(p.n, sizeof order / sizeof *order);
	d9p_pool_free(&p);
}
END_TEST

Suite *
suite_pool(void)
{
	Suite *s = suite_create("pool");
	TCase *tc = tcase_create("map");

	tcase_add_test(tc, empty_pool);
	tcase_add_test(tc, define_and_redefine);
	tcase_add_test(tc, growth_keeps_entries);
	tcase_add_test(tc, colliding_ids);
	tcase_add_test(tc, clear_between_batches);
	tcase_add_test(tc, numbered_ids);
	suite_add_tcase(s, tc);
	return s;
}
