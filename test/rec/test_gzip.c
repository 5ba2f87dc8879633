/*
 * test_gzip.c: the default compression, gzip in Huffman codes only
 * (src/rec/gzfast.c), on inputs that reach each of its paths: nothing,
 * one byte, one value repeated (a lone symbol), random bytes (stored
 * blocks), counts that make a Huffman code deeper than deflate's 15
 * bits, block and read boundaries. Every output must be one gzip member
 * that zlib inflates back to the input, with the right CRC and size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "rec/rec.h"
#include "rectest.h"

/* in[0..n) through d9rec_gzip_fast_fd; the gzip bytes (*out_n). */
static uint8_t *
gz(const uint8_t *in, size_t n, size_t *out_n)
{
	FILE *fi = tmpfile(), *fo = tmpfile();
	uint8_t *out;
	long len;

	ck_assert(fi != NULL && fo != NULL);
	ck_assert_uint_eq(fwrite(in, 1, n, fi), n);
	ck_assert_int_eq(fflush(fi), 0);
	rewind(fi);
	ck_assert_int_eq(d9rec_gzip_fast_fd(fileno(fi), fileno(fo)), 0);
	len = lseek(fileno(fo), 0, SEEK_END);
	ck_assert_int_ge(len, 18);
	out = malloc((size_t)len);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(pread(fileno(fo), out, (size_t)len, 0), len);
	fclose(fi);
	fclose(fo);
	*out_n = (size_t)len;
	return out;
}

/* The gzip of in[0..n) inflates to in[0..n), member end exactly at the
 * end of the bytes; its size. */
static size_t
round_trip(const uint8_t *in, size_t n)
{
	size_t zn, cap = n + 1;
	uint8_t *z = gz(in, n, &zn), *back = malloc(cap);
	z_stream s;

	ck_assert_ptr_nonnull(back);
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(inflateInit2(&s, 15 + 16), Z_OK);
	s.next_in = z;
	s.avail_in = (uInt)zn;
	s.next_out = back;
	s.avail_out = (uInt)cap;
	ck_assert_int_eq(inflate(&s, Z_FINISH), Z_STREAM_END);
	ck_assert_uint_eq(s.avail_in, 0);
	ck_assert_uint_eq(s.total_out, n);
	ck_assert(n == 0 || memcmp(back, in, n) == 0);
	inflateEnd(&s);
	free(back);
	free(z);
	return zn;
}

/* n bytes, byte i drawn from a skewed distribution (small values far
 * more often), like a trace's: compressible without repeats. */
static uint8_t *
skewed(size_t n, unsigned seed)
{
	uint8_t *p = malloc(n ? n : 1);

	ck_assert_ptr_nonnull(p);
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(((seed >> 16) & 0xff) * ((seed >> 8) & 0xff) >>
		    8 >> ((seed >> 24) & 7));
	}
	return p;
}

START_TEST(test_gzip_small)
{
	static const uint8_t one[1] = { 'x' }, two[2] = { 0, 255 };

	round_trip(one, 0);
	round_trip(one, 1);
	round_trip(two, 2);
}
END_TEST

START_TEST(test_gzip_one_value)
{
	uint8_t *p = malloc(100000);

	ck_assert_ptr_nonnull(p);
	memset(p, 0, 100000);		/* symbol 0 and the end of block */
	ck_assert_uint_lt(round_trip(p, 100000), 100000 / 7);
	memset(p, 'a', 100000);
	ck_assert_uint_lt(round_trip(p, 100000), 100000 / 7);
	free(p);
}
END_TEST

START_TEST(test_gzip_random)
{
	uint8_t *p = malloc(300000);
	unsigned x = 7;

	ck_assert_ptr_nonnull(p);
	for (size_t i = 0; i < 300000; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (uint8_t)(x >> 16);
	}
	/* stored blocks: hardly larger than the input */
	ck_assert_uint_le(round_trip(p, 300000), 300000 + 300000 / 1000 + 64);
	free(p);
}
END_TEST

/* Counts that grow a little faster than Fibonacci's (each the sum of
 * the two before it, plus one) over 19 values: a Huffman code 19 bits
 * deep, which must be flattened to 15. */
START_TEST(test_gzip_deep_code)
{
	uint8_t *p = malloc(30000);
	size_t n = 0, a = 1, b = 1, c;

	ck_assert_ptr_nonnull(p);
	for (int v = 0; v < 19; v++) {
		for (size_t k = 0; k < a; k++)
			p[n++] = (uint8_t)(v * 11);
		c = a + b + 1;
		a = b;
		b = c;
	}
	ck_assert_uint_lt(n, 30000);
	ck_assert_uint_lt(round_trip(p, n), n / 3);
	free(p);
}
END_TEST

/* Around the 32 KiB blocks and the 1 MiB reads. */
START_TEST(test_gzip_boundaries)
{
	static const size_t sizes[] = { 32767, 32768, 32769, 65535, 65536,
	    (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 12345 };

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		uint8_t *p = skewed(sizes[i], (unsigned)i);
		size_t zn = round_trip(p, sizes[i]);

		ck_assert_uint_lt(zn, sizes[i] * 3 / 4);
		free(p);
	}
}
END_TEST

TCase *
rt_tcase_gzip(void)
{
	TCase *tc = tcase_create("gzip");

	tcase_add_test(tc, test_gzip_small);
	tcase_add_test(tc, test_gzip_one_value);
	tcase_add_test(tc, test_gzip_random);
	tcase_add_test(tc, test_gzip_deep_code);
	tcase_add_test(tc, test_gzip_boundaries);
	return tc;
}
