/*
 * fuzz_gzip.c: libd9rec's default compression (src/rec/gzfast.c) on any
 * bytes must give one gzip member that zlib inflates back to the same
 * bytes, and never be more than a little larger than them. The input
 * goes through memory files (memfd), as a sealed segment goes through
 * its file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "rec/rec.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(int ok)
{
	if (!ok)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int in = memfd_create("in", 0), out = memfd_create("out", 0);
	uint8_t *z, *back = malloc(size + 1);
	off_t zn;
	z_stream s;

	check(in >= 0 && out >= 0 && back != NULL);
	check(write(in, data, size) == (ssize_t)size);
	check(lseek(in, 0, SEEK_SET) == 0);
	check(d9rec_gzip_fast_fd(in, out) == 0);
	zn = lseek(out, 0, SEEK_END);
	/* stored blocks at worst: 5 bytes per 32 KiB, header, trailer */
	check(zn >= 20 && (size_t)zn <= size + size / 4096 + 64);
	z = malloc((size_t)zn);
	check(z != NULL && pread(out, z, (size_t)zn, 0) == zn);
	memset(&s, 0, sizeof s);
	check(inflateInit2(&s, 15 + 16) == Z_OK);
	s.next_in = z;
	s.avail_in = (uInt)zn;
	s.next_out = back;
	s.avail_out = (uInt)size + 1;
	check(inflate(&s, Z_FINISH) == Z_STREAM_END);
	check(s.avail_in == 0 && s.total_out == size);
	check(size == 0 || memcmp(back, data, size) == 0);
	inflateEnd(&s);
	free(z);
	free(back);
	close(in);
	close(out);
	return 0;
}
