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
