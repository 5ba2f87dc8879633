/*
 * inflate.c: see inflate.h. The file is read into memory once; each
 * way is timed over the same bytes, best of runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#if defined(D9P_LIBDEFLATE)
#include <libdeflate.h>
#endif

#include "inflate.h"

#define CHUNK	(256 * 1024)

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint8_t *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p = NULL;
	long len;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET) != 0 || (p = malloc((size_t)len)) == NULL ||
	    fread(p, 1, (size_t)len, f) != (size_t)len) {
		free(p);
		p = NULL;
	}
	if (f != NULL)
		fclose(f);
	*n = p != NULL ? (size_t)len : 0;
	return p;
}

/* Decoded bytes by zlib, streaming; 0 on an error. */
static size_t
by_zlib(const uint8_t *in, size_t n, uint8_t *out)
{
	z_stream z;
	size_t total = 0;
	int r = Z_OK;

	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, 15 + 32) != Z_OK)
		return 0;
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	while (z.avail_in > 0 && (r == Z_OK || r == Z_STREAM_END)) {
		if (r == Z_STREAM_END && inflateReset(&z) != Z_OK)
			break;
		z.next_out = out;
		z.avail_out = CHUNK;
		r = inflate(&z, Z_NO_FLUSH);
		total += CHUNK - z.avail_out;
	}
	inflateEnd(&z);
	return r == Z_OK || r == Z_STREAM_END ? total : 0;
}

#if defined(D9P_LIBDEFLATE)
/* Decoded bytes by libdeflate into *out (grown as whole.c grows it). */
static size_t
by_libdeflate(struct libdeflate_decompressor *d, const uint8_t *in, size_t n,
    uint8_t **out, size_t *cap)
{
	size_t pos = 0, total = 0;

	while (pos < n) {
		size_t used, got;
		enum libdeflate_result r = libdeflate_gzip_decompress_ex(d,
		    in + pos, n - pos, *out + total, *cap - total, &used, &got);

		if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
			uint8_t *q = realloc(*out, *cap * 2);

			if (q == NULL)
				return 0;
			*out = q;
			*cap *= 2;
			continue;
		}
		if (r != LIBDEFLATE_SUCCESS)
			return 0;
		pos += used;
		total += got;
	}
	return total;
}
#endif

void
bench_inflate(const char *path, int runs)
{
	size_t n, got = 0;
	uint8_t *in = slurp(path, &n), *chunk = malloc(CHUNK);
	double tz = 1e9;

	if (in == NULL || chunk == NULL || n < 18) {
		printf("inflate: cannot read %s\n", path);
		free(in);
		free(chunk);
		return;
	}
	for (int i = 0; i < runs; i++) {
		double t0 = now();

		got = by_zlib(in, n, chunk);
		if (now() - t0 < tz)
			tz = now() - t0;
	}
	printf("inflate_zlib_mb_s=%.0f (streaming, %.2f MB out)\n",
	    (double)got / tz / 1e6, (double)got / 1e6);
#if defined(D9P_LIBDEFLATE)
	{
		struct libdeflate_decompressor *d =
		    libdeflate_alloc_decompressor();
		size_t cap = (size_t)in[n - 4] | (size_t)in[n - 3] << 8 |
		    (size_t)in[n - 2] << 16 | (size_t)in[n - 1] << 24;
		uint8_t *out;
		double tl = 1e9;

		cap = cap > 0 ? cap : 1;
		out = malloc(cap);
		for (int i = 0; d != NULL && out != NULL && i < runs; i++) {
			double t0 = now();

			got = by_libdeflate(d, in, n, &out, &cap);
			if (now() - t0 < tl)
				tl = now() - t0;
		}
		printf("inflate_libdeflate_mb_s=%.0f (whole buffer)\n",
		    (double)got / tl / 1e6);
		printf("inflate_speedup=%.2f (libdeflate / zlib)\n", tz / tl);
		free(out);
		libdeflate_free_decompressor(d);
	}
#else
	printf("inflate_libdeflate_mb_s: built without libdeflate\n");
#endif
	free(chunk);
	free(in);
}
