/* settle.c: see settle.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "settle.h"

void
settle_index(const char *idx)
{
	DIR *d = opendir(idx);
	struct dirent *de;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);
		int fd;

		if (l <= 5 || strcmp(de->d_name + l - 5, ".lock") != 0 ||
		    (fd = openat(dirfd(d), de->d_name, O_RDONLY)) < 0)
			continue;
		while (flock(fd, LOCK_SH) < 0 && errno == EINTR)
			continue;
		close(fd);
	}
	closedir(d);
}
