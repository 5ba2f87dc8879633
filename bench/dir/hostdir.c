/* hostdir.c: see hostdir.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostdir.h"
#include "measure.h"
#include "shift.h"

#define MS	1000000ull

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int
d9b_rmtree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

uint64_t
d9b_dir_bytes(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	uint64_t n = 0;

	while (d != NULL && (e = readdir(d)) != NULL) {
		struct stat st;

		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ==
		    0 && S_ISREG(st.st_mode))
			n += (uint64_t)st.st_size;
	}
	if (d != NULL)
		closedir(d);
	return n;
}

/* D: the trace's time range from d9shift --range, rounded up to a ms;
 * and its event frames of every kind. */
static int
shift_step(struct d9b_hostdir *h)
{
	char out[128];
	char *argv[] = { (char *)h->shift, "--range", (char *)h->trace, NULL };
	uint64_t first, last;

	if (d9b_capture(argv, out, sizeof out) != 0 ||
	    sscanf(out, "%" SCNu64 " %" SCNu64 " %" SCNu64, &first, &last,
	    &h->frames) != 3 ||
	    last < first) {
		fprintf(stderr, "bench-dir: d9shift --range failed on the "
		    "trace\n");
		return -1;
	}
	h->d_ns = (last - first + MS - 1) / MS * MS;
	return 0;
}

static int
stamp_text(const struct d9b_hostdir *h, char *t, size_t cap)
{
	struct stat a;
	char real[PATH_MAX];

	if (stat(h->trace, &a) < 0 || realpath(h->trace, real) == NULL)
		return -1;
	snprintf(t, cap, "d9shift copies %d\ntrace %s\nsize %lld mtime "
	    "%lld.%09ld\nshift %" PRIu64 "\n", D9B_SHIFT_VERSION, real,
	    (long long)a.st_size, (long long)a.st_mtim.tv_sec,
	    a.st_mtim.tv_nsec, h->d_ns);
	return 0;
}

/* Empty the pool and the directories made of it. */
static int
reset_pool(const struct d9b_hostdir *h, const char *pool)
{
	DIR *d = opendir(h->work);
	struct dirent *e;
	char p[PATH_MAX + 256];
	int rc = d9b_rmtree(pool);

	while (rc == 0 && d != NULL && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "dir-", 4) != 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", h->work, e->d_name);
		rc = d9b_rmtree(p);
	}
	if (d != NULL)
		closedir(d);
	return rc;
}

int
d9b_hostdir_open(struct d9b_hostdir *h, const char *work, const char *shift,
    const char *trace, int jobs)
{
	char pool[PATH_MAX + 8], stamp[PATH_MAX + 16], want[2 * PATH_MAX],
	    have[2 * PATH_MAX] = "";
	FILE *f;
	size_t n;

	memset(h, 0, sizeof *h);
	if ((mkdir(work, 0755) < 0 && errno != EEXIST) ||
	    realpath(work, h->work) == NULL) {
		fprintf(stderr, "bench-dir: cannot make %s: %s\n", work,
		    strerror(errno));
		return -1;
	}
	h->shift = shift;
	h->trace = trace;
	h->jobs = jobs;
	if ((h->raw = d9b_gunzip_bytes(trace)) == 0) {
		fprintf(stderr, "bench-dir: cannot read the trace\n");
		return -1;
	}
	if (shift_step(h) < 0 || stamp_text(h, want, sizeof want) < 0)
		return -1;
	snprintf(pool, sizeof pool, "%s/pool", h->work);
	snprintf(stamp, sizeof stamp, "%s/stamp", pool);
	if ((f = fopen(stamp, "r")) != NULL) {
		n = fread(have, 1, sizeof have - 1, f);
		have[n] = '\0';
		fclose(f);
	}
	if (strcmp(have, want) == 0)
		return 0;
	if (reset_pool(h, pool) < 0 || mkdir(pool, 0755) < 0 ||
	    (f = fopen(stamp, "w")) == NULL) {
		fprintf(stderr, "bench-dir: cannot make %s: %s\n", pool,
		    strerror(errno));
		return -1;
	}
	fputs(want, f);
	return fclose(f) == 0 ? 0 : -1;
}

static pid_t
start_copy(const struct d9b_hostdir *h, int k)
{
	char out[PATH_MAX + 64], ns[32];
	pid_t pid;

	snprintf(out, sizeof out, "%s/pool/trace.%d.bin.gz", h->work, k);
	snprintf(ns, sizeof ns, "%" PRIu64, (uint64_t)k * h->d_ns);
	if ((pid = fork()) == 0) {
		execl(h->shift, h->shift, h->trace, out, ns, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Write the copies below n that the pool lacks, jobs at a time. */
static int
fill_pool(const struct d9b_hostdir *h, int n, int *built)
{
	int running = 0, failed = 0, st;
	char p[PATH_MAX + 64];

	*built = 0;
	for (int k = 0; k < n || running > 0; ) {
		snprintf(p, sizeof p, "%s/pool/trace.%d.bin.gz", h->work, k);
		if (k < n && !failed && running < h->jobs) {
			if (access(p, F_OK) != 0) {
				if (start_copy(h, k) < 0)
					failed = 1;
				else {
					running++;
					(*built)++;
				}
			}
			k++;
			continue;
		}
		if (running == 0)
			break;
		if (wait(&st) < 0)
			return -1;
		running--;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			failed = 1;
	}
	if (failed)
		fprintf(stderr, "bench-dir: d9shift failed\n");
	return failed ? -1 : 0;
}

int
d9b_hostdir_make(struct d9b_hostdir *h, int n, char *dir, size_t cap,
    int *built)
{
	char from[PATH_MAX + 64], to[PATH_MAX + 64];

	if (fill_pool(h, n, built) < 0)
		return -1;
	snprintf(dir, cap, "%s/dir-%d", h->work, n);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		goto fail;
	for (int k = 0; k < n; k++) {
		struct stat a, b;

		snprintf(from, sizeof from, "%s/pool/trace.%d.bin.gz", h->work,
		    k);
		snprintf(to, sizeof to, "%s/trace.%d.bin.gz", dir, k);
		if (stat(from, &a) < 0)
			goto fail;
		if (lstat(to, &b) == 0 && a.st_ino == b.st_ino &&
		    a.st_dev == b.st_dev)
			continue;
		unlink(to);
		if (link(from, to) < 0)
			goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "bench-dir: cannot make %s: %s\n", dir,
	    strerror(errno));
	return -1;
}

int
d9b_hostdir_grow(struct d9b_hostdir *h, const char *dir, int n, char *added,
    size_t cap)
{
	char from[PATH_MAX + 64];
	int built;

	if (fill_pool(h, n + 1, &built) < 0)
		return -1;
	snprintf(from, sizeof from, "%s/pool/trace.%d.bin.gz", h->work, n);
	snprintf(added, cap, "%s/trace.%d.bin.gz", dir, n);
	unlink(added);
	if (link(from, added) < 0) {
		fprintf(stderr, "bench-dir: cannot make %s: %s\n", added,
		    strerror(errno));
		return -1;
	}
	return 0;
}
