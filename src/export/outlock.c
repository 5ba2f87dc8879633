/* outlock.c: see outlock.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/file.h"
#include "export/leaf.h"
#include "export/outlock.h"

#define WAIT_STEP_NS	50000000L	/* between tries for the lock */

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

/* Wait for the lock on fd, looking at cancel between tries (the signals
 * that set it reach no other thread: a blocking flock would not end): 0,
 * or -1 with errno (ECANCELED once cancel is set). */
static int
wait_lock(int fd, const _Atomic int *cancel)
{
	for (;;) {
		struct timespec ts = { 0, WAIT_STEP_NS };

		if (cancel != NULL && atomic_load(cancel) != 0) {
			errno = ECANCELED;
			return -1;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		nanosleep(&ts, NULL);
	}
}

int
d9x_outlock(const char *outdir, void (*note)(void *, const char *),
    void *ctx, const _Atomic int *cancel, char *err, size_t errlen)
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
		rc = wait_lock(fd, cancel);
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", path, errno == ECANCELED ?
		    "interrupted" : strerror(errno));
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
