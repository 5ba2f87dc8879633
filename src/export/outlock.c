/* outlock.c: see outlock.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "export/leaf.h"
#include "export/outlock.h"

/* outdir made and checked: 0, or -1 with why in err. */
static int
outdir_take(const char *outdir, char *err, size_t errlen)
{
	char path[4096];
	const char *why;
	struct stat sb;

	if (snprintf(path, sizeof path, "%s", outdir) >= (int)sizeof path) {
		errno = ENAMETOOLONG;
		snprintf(err, errlen, "%s: %s", outdir, strerror(errno));
		return -1;
	}
	if (d9x_mkdirs(path) < 0 || stat(outdir, &sb) < 0) {
		snprintf(err, errlen, "%s: %s", outdir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "%s: not a directory", outdir);
		return -1;
	}
	if ((why = d9_file_not_private(&sb)) != NULL) {
		snprintf(err, errlen, "%s: refused: %s (mode %04o): anyone who "
		    "can write there could plant links that send the tables "
		    "elsewhere; export into a directory only you can write",
		    outdir, why, (unsigned)(sb.st_mode & 07777));
		return -1;
	}
	return 0;
}

int
d9x_outlock(const char *outdir, void (*note)(void *, const char *),
    void *ctx, char *err, size_t errlen)
{
	char path[4096];
	int fd, rc;

	if (outdir_take(outdir, err, errlen) < 0)
		return -1;
	if (snprintf(path, sizeof path, "%s/%s", outdir, D9X_OUTLOCK) >=
	    (int)sizeof path) {
		snprintf(err, errlen, "%s: %s", outdir, strerror(ENAMETOOLONG));
		return -1;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
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
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
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
