/* outlock.c: see outlock.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>

#include "export/outlock.h"

int
d9x_outlock(const char *outdir, void (*note)(void *, const char *),
    void *ctx)
{
	char path[4096];
	int fd, rc;

	if (snprintf(path, sizeof path, "%s/%s", outdir, D9X_OUTLOCK) >=
	    (int)sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (fd < 0)
		return -1;
	while ((rc = flock(fd, LOCK_EX | LOCK_NB)) < 0 && errno == EINTR)
		;
	if (rc < 0 && errno == EWOULDBLOCK) {
		if (note != NULL) {
			char msg[4200];

			snprintf(msg, sizeof msg, "%s: another d9top is "
			    "exporting here: waiting for it to end", outdir);
			note(ctx, msg);
		}
		while ((rc = flock(fd, LOCK_EX)) < 0 && errno == EINTR)
			;
	}
	if (rc < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

void
d9x_outlock_free(int fd)
{
	if (fd >= 0)
		close(fd);	/* the lock goes with it */
}
