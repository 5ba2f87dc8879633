/*
 * fd.c: the descriptors libd9rec keeps are above the standard three. A
 * daemon that closed its standard input, output and error before
 * d9rec_open would otherwise see a segment file (or the lock) take
 * descriptor 1 or 2, and every line its code or a library writes to
 * stdout or stderr would go into the trace; a later dup2() onto 0 to 2
 * (freopen of stderr) would close the recorder's file under it.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "rec/rec.h"

int
d9rec_fd_high(int fd)
{
	int high, err;

	if (fd < 0 || fd > STDERR_FILENO)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	err = errno;
	close(fd);
	errno = err;
	return high;
}
