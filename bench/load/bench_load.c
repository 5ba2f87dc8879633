/*
 * bench_load.c: load-and-analyse speed and memory of d9top on a real
 * trace, as ratios against a baseline measured in the same run:
 *   - wall time of `d9top --json FILE` vs `gzip -dc FILE` (best of N),
 *   - peak RSS of d9top vs the decompressed trace size,
 *   - 8 copies of the file concatenated (multi-member gzip) in one run.
 * Usage: bench-load D9TOP TRACE.gz [runs]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run argv with stdout to /dev/null; wall seconds, *rss_kb = peak RSS,
 * *cpu = user + system seconds of the child. */
static double
run(char *const argv[], long *rss_kb, double *cpu)
{
	struct rusage ru;
	double t0 = now();
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &st, 0, &ru) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0) {
		fprintf(stderr, "bench-load: %s failed\n", argv[0]);
		exit(1);
	}
	if (rss_kb)
		*rss_kb = ru.ru_maxrss;
	*cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return now() - t0;
}

/* Best wall time of runs; *cpu gets the best CPU time. */
static double
best(char *const argv[], int runs, long *rss_kb, double *cpu)
{
	double b = 1e9, c;

	*cpu = 1e9;
	for (int i = 0; i < runs; i++) {
		double t = run(argv, rss_kb, &c);

		b = t < b ? t : b;
		*cpu = c < *cpu ? c : *cpu;
	}
	return b;
}

static long
raw_size(const char *path)
{
	gzFile g = gzopen(path, "rb");
	char buf[1 << 16];
	long n = 0;
	int r;

	if (g == NULL)
		return 0;
	while ((r = gzread(g, buf, sizeof buf)) > 0)
		n += r;
	gzclose(g);
	return n;
}

int
main(int argc, char **argv)
{
	char *d9top, *trace, x8[] = "/tmp/bench-load-x8-XXXXXX";
	int runs = argc > 3 ? atoi(argv[3]) : 7, fd;
	long rss = 0, raw;
	double tg, td, t8, cg, cd, c8;

	if (argc < 3) {
		fprintf(stderr, "usage: bench-load D9TOP TRACE.gz [runs]\n");
		return 2;
	}
	d9top = argv[1];
	trace = argv[2];
	{
		char *g[] = { "gzip", "-dc", trace, NULL };
		char *d[] = { d9top, "--json", "--quiet", trace, NULL };

		tg = best(g, runs, NULL, &cg);
		td = best(d, runs, &rss, &cd);
	}
	raw = raw_size(trace);
	/* 8 copies back to back: one multi-member gzip stream */
	fd = mkstemp(x8);
	for (int i = 0; i < 8; i++) {
		FILE *in = fopen(trace, "rb");
		char buf[1 << 16];
		size_t r;

		while (in && (r = fread(buf, 1, sizeof buf, in)) > 0)
			if (write(fd, buf, r) != (ssize_t)r)
				return 1;
		if (in)
			fclose(in);
	}
	close(fd);
	{
		char *d[] = { d9top, "--json", "--quiet", x8, NULL };
		long rss8;

		t8 = best(d, runs > 3 ? 3 : runs, &rss8, &c8);
		printf("x8_peak_rss_mib=%.1f\n", (double)rss8 / 1024);
	}
	unlink(x8);
	printf("gzip_dc_s=%.4f\n", tg);
	printf("d9top_json_s=%.4f\n", td);
	printf("ratio_vs_gzip=%.2f (wall; target <= 2)\n", td / tg);
	printf("gzip_dc_cpu_s=%.4f\n", cg);
	printf("d9top_json_cpu_s=%.4f\n", cd);
	printf("cpu_ratio_vs_gzip=%.2f (user+sys, steadier on a busy "
	    "machine)\n", cd / cg);
	printf("raw_mib=%.2f\n", (double)raw / 1048576);
	printf("peak_rss_mib=%.1f (target <= 32)\n", (double)rss / 1024);
	printf("rss_vs_raw=%.2f\n", (double)rss * 1024 / (double)raw);
	printf("x8_s=%.3f (wall; target < 1)\n", t8);
	printf("x8_cpu_s=%.3f\n", c8);
	return 0;
}
