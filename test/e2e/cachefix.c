/* cachefix.c: see cachefix.h. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cachefix.h"
#include "run.h"
#include "../settle.h"

void
fix_init(struct fix *f)
{
	char xdg[80];

	snprintf(f->dir, sizeof f->dir, "/tmp/d9cache-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(f->dir));
	snprintf(xdg, sizeof xdg, "%s/xdg", f->dir);
	snprintf(f->idx, sizeof f->idx, "%s/d9top", xdg);
	ck_assert_int_eq(setenv("XDG_CACHE_HOME", xdg, 1), 0);
}


void
fix_free(struct fix *f)
{
	char *cmd;

	settle_index(f->idx);	/* a writer could make the index again */

	ck_assert_int_ne(asprintf(&cmd, "rm -rf '%s'", f->dir), -1);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
}

/* How many entries the index holds, once written; the path of the last
 * in *path. */
int
entries(const struct fix *f, char *path, size_t len)
{
	DIR *d;
	struct dirent *de;
	int n = 0;

	settle_index(f->idx);
	if ((d = opendir(f->idx)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);

		if (l > 4 && strcmp(de->d_name + l - 4, ".img") == 0) {
			n++;
			if (path != NULL)
				snprintf(path, len, "%s/%s", f->idx, de->d_name);
		}
	}
	closedir(d);
	return n;
}

/* Make an entry look unused since 2001, so that a read shows. */
void
age(const char *path)
{
	struct timespec ts[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

	ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

int
was_read(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && sb.st_mtim.tv_sec > 1000000000;
}

/* stdout of d9top args, which must exit 0. */
char *
out_of(const char *args, size_t *n)
{
	struct run_result r;
	char *o;

	ck_assert_int_eq(run_d9top(&r, NULL, "%s", args), 0);
	o = r.out;
	*n = r.nout;
	r.out = NULL;
	run_free(&r);
	return o;
}

void
same(const char *args, const char *want, size_t nwant)
{
	size_t n;
	char *got = out_of(args, &n);

	ck_assert_msg(n == nwant && memcmp(got, want, n) == 0,
	    "d9top %s: %zu bytes differ from the %zu read from the traces",
	    args, n, nwant);
	free(got);
}

void
copy_trace_as(const char *dir, const char *name, const char *as)
{
	char *src = trace_path(name), *cmd;

	ck_assert_int_ne(asprintf(&cmd, "cp '%s' '%s/%s'", src, dir,
	    as != NULL ? as : ""), -1);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	free(src);
}

/* The figures of dir read through the index equal those from the
 * traces, and differ from before (malloc'd, the caller frees them). */
char *
dir_matches(const char *dir, const char *before)
{
	char args[256], *want;
	size_t n;

	snprintf(args, sizeof args, "--no-cache --json %s", dir);
	want = out_of(args, &n);
	snprintf(args, sizeof args, "--json %s", dir);
	same(args, want, n);
	same(args, want, n);
	ck_assert(before == NULL || strcmp(before, want) != 0);
	return want;
}
