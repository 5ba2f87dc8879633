/*
 * file.c: see file.h. O_NONBLOCK only matters for the open itself (a FIFO
 * without a writer would block there); it is cleared again, and regular
 * files ignore it anyway.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"

int
d9_file_open(const char *path, uint64_t max, uint64_t *size,
    struct d9_err *e)
{
	struct stat st;
	int fd, flags;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		d9_err_set(e, D9_ERR_IO, 0, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == -1) {
		d9_err_set(e, D9_ERR_IO, 0, "%s", strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		d9_err_set(e, D9_ERR_IO, 0, "not a regular file");
		close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size > max) {
		d9_err_set(e, D9_ERR_TOO_BIG, 0, "larger than %llu MiB, not "
		    "read", (unsigned long long)(max >> 20));
		close(fd);
		return -1;
	}
	if ((flags = fcntl(fd, F_GETFL)) != -1)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	if (size != NULL)
		*size = (uint64_t)st.st_size;
	return fd;
}

const char *
d9_file_not_private(const struct stat *sb)
{
	if (sb->st_uid != geteuid())
		return "it belongs to another user";
	if (sb->st_mode & (S_IWGRP | S_IWOTH))
		return "its group or other users may write to it";
	return NULL;
}
