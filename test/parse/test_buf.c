/*
 * test_buf.c: the base layer the parser stands on: the bounds-checked
 * cursor (fixed-width reads, LEB128 edge cases of FORMAT.md 2.1), the
 * arena that holds a batch's schemas and pools, and the error record.
 */
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "suites.h"

START_TEST(fixed_width_little_endian)
{
	static const uint8_t p[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	struct d9_buf b = { p, sizeof p, 0 };
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	ck_assert_int_eq(d9_buf_u8(&b, &u8), 0);
	ck_assert_uint_eq(u8, 1);
	ck_assert_int_eq(d9_buf_u16(&b, &u16), 0);
	ck_assert_uint_eq(u16, 0x0302);
	ck_assert_int_eq(d9_buf_u24(&b, &u32), 0);
	ck_assert_uint_eq(u32, 0x060504);
	ck_assert_int_eq(d9_buf_u32(&b, &u32), 0);
	ck_assert_uint_eq(u32, 0x0a090807);
	ck_assert_uint_eq(d9_buf_left(&b), 1);
	b.pos = 0;
	ck_assert_int_eq(d9_buf_u64(&b, &u64), 0);
	ck_assert_uint_eq(u64, 0x0807060504030201ull);
}
END_TEST

START_TEST(reads_past_the_end_fail_in_place)
{
	static const uint8_t p[] = { 0xff, 0xff, 0xff };
	struct d9_buf b = { p, sizeof p, 1 };
	const uint8_t *q = NULL;
	uint32_t u32 = 7;
	uint64_t u64 = 7;
	uint16_t u16;
	uint8_t u8;

	ck_assert_int_eq(d9_buf_u24(&b, &u32), -1);
	ck_assert_int_eq(d9_buf_u32(&b, &u32), -1);
	ck_assert_int_eq(d9_buf_u64(&b, &u64), -1);
	ck_assert_uint_eq(u32, 7);
	ck_assert_uint_eq(u64, 7);
	ck_assert_int_eq(d9_buf_bytes(&b, 3, &q), -1);
	ck_assert_ptr_null(q);
	ck_assert_int_eq(d9_buf_bytes(&b, SIZE_MAX, &q), -1);
	ck_assert_int_eq(d9_buf_skip(&b, SIZE_MAX), -1);
	ck_assert_uint_eq(b.pos, 1);
	ck_assert_int_eq(d9_buf_u16(&b, &u16), 0);
	ck_assert_int_eq(d9_buf_u8(&b, &u8), -1);
	ck_assert_int_eq(d9_buf_u16(&b, &u16), -1);
	ck_assert_int_eq(d9_buf_bytes(&b, 0, &q), 0);
	ck_assert_uint_eq(b.pos, 3);
}
END_TEST

struct leb_case {
	uint8_t		 len;
	uint8_t		 p[12];
	int		 rc;
	uint64_t	 v;
};

static const struct leb_case leb_cases[] = {
	{ 1, { 0x00 }, 0, 0 },
	{ 1, { 0x7f }, 0, 127 },
	{ 2, { 0x80, 0x01 }, 0, 128 },
	{ 2, { 0xac, 0x02 }, 0, 300 },
	/* non-minimal encodings decode (FORMAT.md 2.1) */
	{ 2, { 0x80, 0x00 }, 0, 0 },
	{ 3, { 0xff, 0x80, 0x00 }, 0, 127 },
	{ 10, { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 },
	    0, 0 },
	/* 10 bytes is the maximum: 2^64 - 1 and 2^63 */
	{ 10, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 },
	    0, UINT64_MAX },
	{ 10, { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 },
	    0, 1ull << 63 },
	/* a 10th byte above 1 overflows 64 bits */
	{ 10, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02 },
	    -2, 0 },
	{ 10, { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7e },
	    -2, 0 },
	/* an 11th byte is too long, even when it adds nothing */
	{ 11, { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	    0x00 }, -2, 0 },
	{ 11, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81,
	    0x00 }, -2, 0 },
	/* cut off: more bytes may come */
	{ 0, { 0 }, -1, 0 },
	{ 1, { 0x80 }, -1, 0 },
	{ 9, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, -1, 0 },
};

START_TEST(leb128_edges)
{
	const struct leb_case *c = &leb_cases[_i];
	uint8_t p[16];
	struct d9_buf b;
	uint64_t v = 12345;

	/* a trailing byte proves the cursor stops at the end of the value */
	memcpy(p, c->p, c->len);
	p[c->len] = 0x55;
	b = (struct d9_buf){ p, (size_t)c->len + (c->rc == -1 ? 0 : 1), 0 };
	ck_assert_int_eq(d9_buf_leb128(&b, &v), c->rc);
	if (c->rc == 0) {
		ck_assert_uint_eq(v, c->v);
		ck_assert_uint_eq(b.pos, c->len);
	} else {
		ck_assert_uint_eq(v, 12345);
		ck_assert_uint_eq(b.pos, 0);
	}
}
END_TEST

START_TEST(arena_alignment_and_reuse)
{
	struct d9_arena a;
	void *first, *p;

	d9_arena_init(&a, 1024);
	first = d9_arena_alloc(&a, 3, 1);
	ck_assert_ptr_nonnull(first);
	for (size_t align = 1; align <= 64; align *= 2) {
		p = d9_arena_alloc(&a, 5, align);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq((uintptr_t)p % align, 0);
		memset(p, 0xaa, 5);
	}
	/* big allocations get a chunk of their own, the head keeps filling */
	p = d9_arena_alloc(&a, 100000, 8);
	ck_assert_ptr_nonnull(p);
	memset(p, 0xbb, 100000);
	p = d9_arena_alloc(&a, 8, 8);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(a.used, 3 + 5 * 7 + 100000 + 8);
	d9_arena_reset(&a);
	ck_assert_uint_eq(a.used, 0);
	ck_assert_ptr_eq(d9_arena_alloc(&a, 3, 1), first);
	p = d9_arena_memdup(&a, "abc", 0);
	ck_assert_ptr_nonnull(p);
	p = d9_arena_memdup(&a, "abc", 4);
	ck_assert_str_eq(p, "abc");
	d9_arena_free(&a);
	d9_arena_free(&a);
}
END_TEST

/* Every allocation must fit whatever the chunk size; sanitizers see it. */
START_TEST(arena_small_chunks)
{
	struct d9_arena a;

	d9_arena_init(&a, 64);
	for (size_t size = 1; size < 600; size += 37) {
		uint8_t *p = d9_arena_alloc(&a, size, 8);

		ck_assert_ptr_nonnull(p);
		memset(p, 0xcc, size);
	}
	ck_assert_ptr_null(d9_arena_alloc(&a, SIZE_MAX - 4, 8));
	ck_assert_ptr_null(d9_arena_alloc(&a, SIZE_MAX, 1));
	d9_arena_reset(&a);
	ck_assert_ptr_nonnull(d9_arena_alloc(&a, 500, 16));
	d9_arena_free(&a);
}
END_TEST

START_TEST(err_record)
{
	struct d9_err e;

	d9_err_clear(&e);
	ck_assert_int_eq(d9_err_set(&e, D9_ERR_BAD_TAG, 17, "tag 0x%02x", 7),
	    -D9_ERR_BAD_TAG);
	ck_assert_int_eq(e.code, D9_ERR_BAD_TAG);
	ck_assert_uint_eq(e.off, 17);
	ck_assert_str_eq(e.msg, "tag 0x07");
	ck_assert_int_eq(d9_err_set(NULL, D9_ERR_IO, 0, "x"), -D9_ERR_IO);
	ck_assert_str_eq(d9_err_name(D9_ERR_TRUNCATED), "truncated");
	ck_assert_str_eq(d9_err_name(-D9_ERR_BAD_MAGIC), "not a dial9 trace");
	ck_assert_str_eq(d9_err_name(D9_ERR_COUNT), "unknown error");
	ck_assert_str_eq(d9_err_name(-1000), "unknown error");
	d9_err_clear(&e);
	ck_assert_int_eq(e.code, 0);
	ck_assert_str_eq(e.msg, "");
}
END_TEST

Suite *
suite_buf(void)
{
	Suite *s = suite_create("buf");
	TCase *tc;

	tc = tcase_create("cursor");
	tcase_add_test(tc, fixed_width_little_endian);
	tcase_add_test(tc, reads_past_the_end_fail_in_place);
	suite_add_tcase(s, tc);
	tc = tcase_create("leb128");
	tcase_add_loop_test(tc, leb128_edges, 0,
	    (int)(sizeof leb_cases / sizeof leb_cases[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("arena");
	tcase_add_test(tc, arena_alignment_and_reuse);
	tcase_add_test(tc, arena_small_chunks);
	suite_add_tcase(s, tc);
	tc = tcase_create("err");
	tcase_add_test(tc, err_record);
	suite_add_tcase(s, tc);
	return s;
}
