/*
 * compress.c: compressing a sealed segment file, read from one
 * descriptor and written to another, as gzip or zstd (FORMAT 1.1).
 *
 * gzip is what dial9's tools read, and what compressing costs most of:
 * with libdeflate (when the build found it) each MiB of the segment
 * becomes one gzip member, about 2.5 times faster than zlib's deflate
 * at level 1 and a little smaller (readers take multi-member gzip:
 * FORMAT 1.1); without it, zlib at level 1 writes one member. zstd at
 * level 3 is streamed.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#ifdef D9REC_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "base/io.h"
#include "rec/rec.h"

#ifdef D9REC_LIBDEFLATE

#define MEMBER	((size_t)1 << 20)	/* input bytes per gzip member */

int
d9rec_gzip_fd(int in, int out)
{
	struct libdeflate_compressor *z = libdeflate_alloc_compressor(1);
	size_t cap = z ? libdeflate_gzip_compress_bound(z, MEMBER) : 0;
	uint8_t *ib = malloc(MEMBER), *ob = malloc(cap ? cap : 1);
	int rc = z != NULL && ib != NULL && ob != NULL ? 0 : -1;
	ssize_t k = 0;

	while (rc == 0 && (k = d9_read_full(in, ib, MEMBER)) > 0) {
		size_t n = libdeflate_gzip_compress(z, ib, (size_t)k, ob, cap);

		if (n == 0 || d9_write_all(out, ob, n) < 0)
			rc = -1;
	}
	if (k < 0)
		rc = -1;
	free(ib);
	free(ob);
	if (z != NULL)
		libdeflate_free_compressor(z);
	return rc;
}

#else

int
d9rec_gzip_fd(int in, int out)
{
	uint8_t ib[1 << 16], ob[1 << 16];
	z_stream z;
	ssize_t k;
	int rc = 0, zr;

	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		return -1;
	do {
		k = read(in, ib, sizeof ib);
		if (k < 0) {
			rc = -1;
			break;
		}
		z.next_in = ib;
		z.avail_in = (uInt)k;
		do {
			z.next_out = ob;
			z.avail_out = sizeof ob;
			zr = deflate(&z, k == 0 ? Z_FINISH : Z_NO_FLUSH);
			if (zr == Z_STREAM_ERROR || d9_write_all(out, ob,
			    sizeof ob - z.avail_out) < 0) {
				rc = -1;
				break;
			}
		} while (z.avail_out == 0);
	} while (rc == 0 && k > 0);
	deflateEnd(&z);
	return rc;
}

#endif

int
d9rec_zstd_fd(int in, int out)
{
	uint8_t ib[1 << 16], ob[1 << 16];
	ZSTD_CStream *z = ZSTD_createCStream();
	ZSTD_inBuffer zi;
	ZSTD_outBuffer zo;
	size_t r;
	ssize_t k;
	int rc = 0;

	if (z == NULL || ZSTD_isError(ZSTD_initCStream(z, 3))) {
		ZSTD_freeCStream(z);
		return -1;
	}
	do {
		if ((k = read(in, ib, sizeof ib)) < 0) {
			rc = -1;
			break;
		}
		zi.src = ib;
		zi.size = (size_t)k;
		zi.pos = 0;
		do {
			zo.dst = ob;
			zo.size = sizeof ob;
			zo.pos = 0;
			r = k == 0 ? ZSTD_endStream(z, &zo) :
			    ZSTD_compressStream(z, &zo, &zi);
			if (ZSTD_isError(r) || d9_write_all(out, ob, zo.pos) < 0) {
				rc = -1;
				break;
			}
		} while (k == 0 ? r != 0 : zi.pos < zi.size);
	} while (rc == 0 && k > 0);
	ZSTD_freeCStream(z);
	return rc;
}
