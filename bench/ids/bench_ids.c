/*
 * bench_ids.c: the cost of many distinct worker and thread ids (issue 31
 * item 3). For each count N (default 100000, 400000, 1000000) a trace of
 * N workers, each on a thread of its own with a thread name
 * (test/fixtures/mktrace.h, mt_many_workers), is read by d9top --json
 * --no-cache into /dev/null; prints the seconds of each (wall and CPU)
 * and the ratios of the largest to the smallest, beside the ratio of
 * their counts (equal: linear).
 *   bench-ids D9TOP [N ...]
 *   bench-ids --write N FILE [FIRST_ID]	(the trace alone, to profile)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure.h"
#include "mktrace.h"

/* Seconds d9top takes for the trace at path; < 0 when it failed. */
static double
run(const char *d9top, const char *path, struct d9b_run *r)
{
	char *argv[] = { (char *)d9top, "--json", "--no-cache", "--quiet",
	    (char *)path, NULL };

	return d9b_run(argv, NULL, NULL, NULL, r) == 0 ? r->wall : -1;
}

/* mt_write without its assertions (no Check test runs here). */
static char *
write_trace(const struct mt *t)
{
	char *path = strdup("/tmp/d9bench-ids-XXXXXX");
	int fd = path != NULL ? mkstemp(path) : -1;

	if (fd < 0 || write(fd, t->tg.p, t->tg.n) != (ssize_t)t->tg.n) {
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

int
main(int argc, char **argv)
{
	size_t counts[16] = { 100000, 400000, 1000000 }, nc = 3;
	double secs[16], cpu[16];

	if (argc < 2) {
		fprintf(stderr, "usage: bench-ids D9TOP [N ...]\n"
		    "       bench-ids --write N FILE [FIRST_ID]\n");
		return 2;
	}
	if (strcmp(argv[1], "--write") == 0 && argc >= 4) {
		struct mt t;
		FILE *f = fopen(argv[3], "wb");

		mt_begin(&t);
		mt_many_workers(&t, argc > 4 ? strtoull(argv[4], NULL, 0) : 0,
		    strtoul(argv[2], NULL, 10), 1000);
		if (f == NULL || fwrite(t.tg.p, 1, t.tg.n, f) != t.tg.n ||
		    fclose(f) != 0) {
			perror(argv[3]);
			return 1;
		}
		tg_free(&t.tg);
		return 0;
	}
	if (argc > 2) {
		nc = 0;
		for (int i = 2; i < argc && nc < 16; i++)
			counts[nc++] = strtoul(argv[i], NULL, 10);
	}
	for (size_t i = 0; i < nc; i++) {
		struct d9b_run r;
		struct mt t;
		char *path;

		mt_begin(&t);
		mt_many_workers(&t, 0, counts[i], 1000);
		if ((path = write_trace(&t)) == NULL) {
			perror("bench-ids: /tmp");
			return 1;
		}
		secs[i] = run(argv[1], path, &r);
		cpu[i] = r.cpu;
		printf("%8zu workers and threads (%5.1f MB): %7.2f s (CPU "
		    "%.2f s, peak RSS %.0f MiB)\n", counts[i],
		    (double)t.tg.n / 1e6, secs[i], r.cpu, r.rss_mib);
		fflush(stdout);
		unlink(path);
		free(path);
		tg_free(&t.tg);
		if (secs[i] < 0) {
			fprintf(stderr, "bench-ids: d9top failed\n");
			return 1;
		}
	}
	if (nc > 1 && secs[0] > 0 && cpu[0] > 0)
		printf("ratio %zu/%zu: %.1f, of CPU time %.1f (linear: %.1f)\n",
		    counts[nc - 1], counts[0], secs[nc - 1] / secs[0],
		    cpu[nc - 1] / cpu[0],
		    (double)counts[nc - 1] / (double)counts[0]);
	return 0;
}
