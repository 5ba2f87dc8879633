/* marks.c: see marks.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/marks.h"
#include "export/source.h"

/* Whether s is a mark of folder's kind. */
static int
valid(const char *folder, const char *s)
{
	size_t n = strlen(s);
	char key[33];

	if (n < 32)
		return 0;
	memcpy(key, s, 32);
	key[32] = '\0';
	if (!d9x_is_key(key))
		return 0;
	if (strcmp(folder, D9X_MARKS_WHOLE) != 0)
		return n == 32;
	if (n < 34 || n >= D9X_MARK_MAX || s[32] != '-')
		return 0;
	for (size_t i = 33; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

int
d9x_marks_scan(const char *outdir, const char *folder,
    struct d9_intern *names)
{
	char path[4096];
	struct dirent *e;
	DIR *d;
	int rc = 1;

	if (snprintf(path, sizeof path, "%s/%s", outdir, folder) >=
	    (int)sizeof path || (d = opendir(path)) == NULL)
		return 0;
	while (rc == 1 && (e = readdir(d)) != NULL)
		if (valid(folder, e->d_name) && d9_intern(names, e->d_name,
		    strlen(e->d_name)) == D9_NONE)
			rc = -1;
	closedir(d);
	return rc;
}

void
d9x_marks_prune(const char *outdir, const struct d9_intern *keys)
{
	char path[4096];
	struct dirent *e;
	DIR *d;
	int dfd;

	if (snprintf(path, sizeof path, "%s/%s", outdir, D9X_MARKS_WHOLE) >=
	    (int)sizeof path || (d = opendir(path)) == NULL)
		return;
	dfd = dirfd(d);
	while ((e = readdir(d)) != NULL)
		if (valid(D9X_MARKS_WHOLE, e->d_name) &&
		    d9_intern_find(keys, e->d_name, 32) == D9_NONE)
			unlinkat(dfd, e->d_name, 0);
	closedir(d);
}

int
d9x_marks_folder(const char *outdir, const char *folder)
{
	char path[4096];

	if (snprintf(path, sizeof path, "%s/%s", outdir, folder) >=
	    (int)sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return mkdir(path, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

int
d9x_mark(const char *outdir, const char *folder, const char *name)
{
	char path[4096];
	int fd;

	if (snprintf(path, sizeof path, "%s/%s/%s", outdir, folder, name) >=
	    (int)sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (d9x_marks_folder(outdir, folder) < 0)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -1;
	return close(fd);
}

void
d9x_unmark(const char *outdir, const char *folder, const char *name)
{
	char path[4096];

	if (snprintf(path, sizeof path, "%s/%s/%s", outdir, folder, name) <
	    (int)sizeof path)
		unlink(path);
}

void
d9x_whole_name(const char *key, unsigned long long size,
    char name[D9X_MARK_MAX])
{
	snprintf(name, D9X_MARK_MAX, "%.32s-%llu", key, size);
}
