/* io.c: see io.h. */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "base/io.h"

int
d9_write_all(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n > 0) {
		ssize_t k = write(fd, b, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = EIO;
			return -1;
		}
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

ssize_t
d9_read_full(int fd, void *p, size_t n)
{
	uint8_t *b = p;
	size_t got = 0;

	while (got < n) {
		ssize_t k = read(fd, b + got, n - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

int
d9_pread_full(int fd, void *p, size_t n, uint64_t off)
{
	uint8_t *b = p;

	while (n > 0) {
		ssize_t r = pread(fd, b, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 1;
		b += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}
