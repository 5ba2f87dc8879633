/*
 * d9rec-gzip.c: what compressing a sealed segment costs, by compression.
 *
 *	d9rec-gzip [SEGMENT]
 *
 * The segment: the file given, or one that this program records first
 * (one thread, 400 000 polls of 2 to 9 us of work among 64 tasks, each
 * poll waking the next task and allocating, as a service's worker
 * would: real timestamps, not a tight loop's). Each compression runs on
 * it 7 times from the page cache into a temporary file; the best run
 * counts. Printed per compression: MB/s of segment and how many times
 * smaller the file is; then gzip_fast_speedup=X, the default's speed
 * against D9REC_COMPRESS_GZIP's (deflate level 1), measured in the same
 * run.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "d9rec.h"
#include "rec/rec.h"

#define POLLS	400000
#define TASKS	64
#define RUNS	7

/* A segment of POLLS polls in dir; its path into path. */
static int
record(const char *dir, char *path, size_t len)
{
	struct d9rec_options o;
	struct d9rec_thread *t;
	d9rec_writer *w;
	uint64_t x = 1;
	uint32_t loc;
	void *buf = NULL;

	d9rec_options_init(&o);
	o.dir = dir;
	o.compression = D9REC_COMPRESS_NONE;
	o.cpu_profile = o.sched_profile = 0;
	o.max_file_size = (uint64_t)256 << 20;	/* one segment */
	if (d9rec_open(&w, &o) < 0)
		return -1;
	loc = d9rec_location(w, "bench/rec/d9rec-gzip.c:1:1");
	t = d9rec_thread_register(w, NULL, 0);
	for (uint64_t i = 0; i < POLLS; i++) {
		uint64_t task = 1 + i % TASKS;
		int work = 500 + (int)(x % 1800);

		d9rec_poll_start(t, task, loc, (unsigned)(x % 5));
		for (int k = 0; k < work; k++)
			x = x * 6364136223846793005u + 1442695040888963407u;
		d9rec_free(buf);
		buf = d9rec_malloc(32 + (size_t)(x % 512));
		d9rec_wake(t, task, 1 + (i + 1) % TASKS);
		d9rec_poll_end(t);
	}
	d9rec_free(buf);
	d9rec_thread_unregister(&t);
	if (d9rec_close(&w) < 0)
		return -1;
	snprintf(path, len, "%s/trace.0.bin", dir);
	return 0;
}

/* The best of RUNS runs of f on path: seconds; the output's size. */
static double
run(int (*f)(int, int), const char *path, const char *dir, off_t *out_size)
{
	char out[512];
	double best = 1e9;

	snprintf(out, sizeof out, "%s/out.gz", dir);
	for (int r = 0; r < RUNS; r++) {
		int in = open(path, O_RDONLY), o = open(out, O_WRONLY | O_CREAT |
		    O_TRUNC, 0600);
		uint64_t t0 = d9rec_mono_ns();
		double t;
		struct stat sb;
		int rc = in >= 0 && o >= 0 ? f(in, o) : -1;

		t = (double)(d9rec_mono_ns() - t0) * 1e-9;
		if (rc < 0 || fstat(o, &sb) < 0) {
			fprintf(stderr, "d9rec-gzip: %s failed\n", path);
			exit(1);
		}
		*out_size = sb.st_size;
		best = t < best ? t : best;
		close(in);
		close(o);
	}
	unlink(out);
	return best;
}

int
main(int argc, char **argv)
{
	static const struct {
		const char	*name;
		int		(*f)(int, int);
	} kinds[] = {
		{ "gzip-fast (default)", d9rec_gzip_fast_fd },
		{ "gzip (deflate level 1)", d9rec_gzip_fd },
		{ "zstd (level 3)", d9rec_zstd_fd },
	};
	char dir[] = "/tmp/d9rec-gzip-XXXXXX", path[512], cmd[64];
	double s[3];
	struct stat sb;

	if (mkdtemp(dir) == NULL)
		return 1;
	if (argc > 1)
		snprintf(path, sizeof path, "%s", argv[1]);
	else if (record(dir, path, sizeof path) < 0)
		return 1;
	if (stat(path, &sb) < 0 || sb.st_size == 0) {
		fprintf(stderr, "d9rec-gzip: no segment at %s\n", path);
		return 1;
	}
	printf("segment: %.1f MB\n", (double)sb.st_size / 1e6);
	for (int k = 0; k < 3; k++) {
		off_t out;

		s[k] = run(kinds[k].f, path, dir, &out);
		printf("%-24s %6.0f MB/s, %.2fx smaller\n", kinds[k].name,
		    (double)sb.st_size / s[k] / 1e6, (double)sb.st_size /
		    (double)out);
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	printf("gzip_fast_speedup=%.2f\n", s[1] / s[0]);
	return 0;
}
