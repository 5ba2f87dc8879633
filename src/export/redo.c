/* redo.c: see redo.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "export/redo.h"
#include "export/source.h"
#include "export/tables.h"

/* Remove name from every folder depth levels below dir (the partitions
 * service=, date=, host=): 0, or -1 when one could not be removed. */
static int
clear_below(char *dir, size_t len, size_t cap, int depth, const char *name)
{
	struct dirent *e;
	DIR *d;
	int rc = 0;

	if (depth == 0) {
		if (snprintf(dir + len, cap - len, "/%s", name) >=
		    (int)(cap - len))
			return -1;
		rc = unlink(dir) < 0 && errno != ENOENT ? -1 : 0;
		dir[len] = '\0';
		return rc;
	}
	if ((d = opendir(dir)) == NULL)
		return 0;		/* no such partition: nothing there */
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);

		if (e->d_name[0] == '.' || len + 1 + n >= cap)
			continue;
		dir[len] = '/';
		memcpy(dir + len + 1, e->d_name, n + 1);
		if (clear_below(dir, len + 1 + n, cap, depth - 1, name) < 0)
			rc = -1;
		dir[len] = '\0';
	}
	closedir(d);
	return rc;
}

int
d9x_redo_clear(const char *outdir, const char *key)
{
	char dir[4096], name[48];
	int rc = 0, n;

	snprintf(name, sizeof name, "%s.parquet", key);
	for (size_t t = 0; t < D9X_T_COUNT; t++) {
		n = snprintf(dir, sizeof dir, "%s/%s", outdir,
		    d9x_tables[t].name);
		if (n >= (int)sizeof dir ||
		    clear_below(dir, (size_t)n, sizeof dir, 3, name) < 0)
			rc = -1;
	}
	return rc;
}
