/* statm.c: see statm.h. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "base/statm.h"

size_t
d9_statm(enum d9_statm_field f)
{
	char buf[128];
	unsigned long long v[3];
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	ssize_t got = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);

	if (fd >= 0)
		close(fd);
	if (got <= 0 || (unsigned)f > D9_STATM_SHARED)
		return 0;
	buf[got] = '\0';
	if (sscanf(buf, "%llu %llu %llu", &v[0], &v[1], &v[2]) != 3 ||
	    v[f] > SIZE_MAX / pg)
		return 0;
	return (size_t)v[f] * pg;
}
