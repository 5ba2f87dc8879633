/*
 * bench_load.c: load-and-analyse speed and memory of d9top on a real
 * trace, as ratios against a baseline measured in the same run:
 *   - wall time of `d9top --json FILE` vs `gzip -dc FILE` (best of 2N,
 *     run by turns),
 *   - peak RSS of d9top vs the decompressed trace size,
 *   - 8 copies of the file concatenated (multi-member gzip) in one run,
 *   - decompression of FILE in memory: zlib streaming as the reader did
 *     it vs libdeflate whole (MB/s of output; inflate.c),
 *   - `d9top --json --no-cache` on FILE and on a directory of gzip
 *     segments with the whole-file path and prefetch on vs off
 *     (D9TOP_STREAM=1), wall and CPU. The directory is $D9_BENCH_SEGDIR,
 *     or one D9DEMO records (--seconds 12 --rotate-ms 1000: 12
 *     segments), removed afterwards.
 * Usage: bench-load D9TOP TRACE.gz [runs [D9DEMO]]
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inflate.h"
#include "measure.h"

/* Run argv with stdout to /dev/null (env: one NAME=VALUE more, or
 * NULL; measure.h does the run); wall seconds, *rss_kb = peak RSS, *cpu
 * = user + system seconds of the child. */
static double
run_env(char *const argv[], char *env, long *rss_kb, double *cpu)
{
	char *envv[] = { env, NULL };
	struct d9b_run r;

	if (d9b_run(argv, env != NULL ? envv : NULL, NULL, NULL, &r) != 0) {
		fprintf(stderr, "bench-load: %s failed\n", argv[0]);
		exit(1);
	}
	if (rss_kb)
		*rss_kb = (long)(r.rss_mib * 1024);
	*cpu = r.cpu;
	return r.wall;
}

static double
run(char *const argv[], long *rss_kb, double *cpu)
{
	return run_env(argv, NULL, rss_kb, cpu);
}

/* Best wall time of runs; *cpu gets the best CPU time. */
static double
best_env(char *const argv[], char *env, int runs, long *rss_kb, double *cpu)
{
	double b = 1e9, c;

	*cpu = 1e9;
	for (int i = 0; i < runs; i++) {
		double t = run_env(argv, env, rss_kb, &c);

		b = t < b ? t : b;
		*cpu = c < *cpu ? c : *cpu;
	}
	return b;
}

static double
best(char *const argv[], int runs, long *rss_kb, double *cpu)
{
	return best_env(argv, NULL, runs, rss_kb, cpu);
}

/* The best wall and CPU times of a and b, run by turns (a, b, a, b ...):
 * a machine whose speed drifts (a VM's host) gives both the same
 * moments. b's peak RSS to *rss_kb. */
static void
best_pair(char *const a[], char *const b[], int runs, double *ta,
    double *ca, double *tb, double *cb, long *rss_kb)
{
	*ta = *tb = *ca = *cb = 1e9;
	for (int i = 0; i < runs; i++) {
		double c, t = run(a, NULL, &c);

		*ta = t < *ta ? t : *ta;
		*ca = c < *ca ? c : *ca;
		t = run(b, rss_kb, &c);
		*tb = t < *tb ? t : *tb;
		*cb = c < *cb ? c : *cb;
	}
}

/* d9top --json --no-cache on path, as it reads by default (files a
 * prefetch reached whole, a lone file streamed on two cores or more) and
 * with D9TOP_STREAM=1; the figures' names start with what. */
static void
on_off(const char *what, char *d9top, char *path, int runs)
{
	char *d[] = { d9top, "--json", "--quiet", "--no-cache", path, NULL };
	char off[] = "D9TOP_STREAM=1";
	double t_on, t_off, c_on, c_off;

	t_off = best_env(d, off, runs, NULL, &c_off);
	t_on = best_env(d, NULL, runs, NULL, &c_on);
	printf("%s_stream_s=%.4f\n%s_whole_s=%.4f (the default paths)\n"
	    "%s_wall_ratio=%.2f (default / stream)\n", what, t_off, what, t_on,
	    what, t_on / t_off);
	printf("%s_stream_cpu_s=%.4f\n%s_whole_cpu_s=%.4f\n"
	    "%s_cpu_ratio=%.2f (default / stream)\n", what, c_off, what, c_on,
	    what, c_on / c_off);
}

/* Remove the files of dir (no subdirectories), then dir. */
static void
remove_dir(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	char path[4096];

	while (dp != NULL && (de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		unlink(path);
	}
	if (dp != NULL)
		closedir(dp);
	rmdir(dir);
}

/* The segment directory: $D9_BENCH_SEGDIR, or recorded into tmp by
 * d9demo (NULL: none). *made: tmp is to be removed. */
static char *
segment_dir(char *d9demo, char *tmp, int *made)
{
	char *env = getenv("D9_BENCH_SEGDIR");
	double c;

	*made = 0;
	if (env != NULL && *env != '\0')
		return env;
	if (d9demo == NULL || mkdtemp(tmp) == NULL)
		return NULL;
	rmdir(tmp);	/* d9demo makes it */
	{
		char *r[] = { d9demo, "--out", tmp, "--seconds", "12",
		    "--rotate-ms", "1000", NULL };

		run(r, NULL, &c);
	}
	*made = 1;
	return tmp;
}

/* Files in dir whose names do not start with a dot. */
static int
count_files(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (dp != NULL && (de = readdir(dp)) != NULL)
		n += de->d_name[0] != '.';
	if (dp != NULL)
		closedir(dp);
	return n;
}

/* Where the time of d9top --json --no-cache on trace goes
 * (D9TOP_TIMES): the line of the fastest of runs. */
static void
print_times(char *d9top, char *trace, int runs)
{
	char *d[] = { d9top, "--json", "--quiet", "--no-cache", trace, NULL };
	char *env[] = { "D9TOP_TIMES=1", NULL }, errp[] =
	    "/tmp/bench-load-times-XXXXXX", line[256], best[256] = "";
	double fastest = 1e9;
	struct d9b_run r;
	int fd = mkstemp(errp);

	if (fd < 0)
		return;
	close(fd);
	for (int i = 0; i < runs; i++) {
		FILE *f;

		if (d9b_run(d, env, NULL, errp, &r) != 0 ||
		    (f = fopen(errp, "r")) == NULL)
			break;
		if (fgets(line, sizeof line, f) != NULL && r.wall < fastest &&
		    strncmp(line, "d9top: times: ", 14) == 0) {
			fastest = r.wall;
			snprintf(best, sizeof best, "%s", line + 14);
		}
		fclose(f);
	}
	unlink(errp);
	printf("d9top_times=%s", best[0] != '\0' ? best : "none\n");
}

/* The machine's load (figures on a busy machine are noisy). */
static void
print_load(const char *when)
{
	double l[3];

	if (getloadavg(l, 3) == 3)
		printf("load_%s=%.2f %.2f %.2f (1, 5, 15 min)\n", when, l[0],
		    l[1], l[2]);
}

int
main(int argc, char **argv)
{
	char *d9top, *trace, x8[] = "/tmp/bench-load-x8-XXXXXX";
	char segs[] = "/tmp/bench-load-segs-XXXXXX", *dir;
	int runs = argc > 3 ? atoi(argv[3]) : 7, fd, made;
	long rss = 0, raw;
	double tg, td, t8, cg, cd, c8;

	if (argc < 3) {
		fprintf(stderr, "usage: bench-load D9TOP TRACE.gz [runs "
		    "[D9DEMO]]\n");
		return 2;
	}
	d9top = argv[1];
	trace = argv[2];
	print_load("start");
	{
		char *g[] = { "gzip", "-dc", trace, NULL };
		char *d[] = { d9top, "--json", "--quiet", "--no-cache", trace, NULL };

		best_pair(g, d, 2 * runs, &tg, &cg, &td, &cd, &rss);
	}
	raw = (long)d9b_gunzip_bytes(trace);
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
		char *d[] = { d9top, "--json", "--quiet", "--no-cache", x8, NULL };
		long rss8;

		t8 = best(d, runs > 3 ? 3 : runs, &rss8, &c8);
		printf("x8_peak_rss_mib=%.1f\n", (double)rss8 / 1024);
	}
	unlink(x8);
	printf("gzip_dc_s=%.4f\n", tg);
	printf("d9top_json_s=%.4f\n", td);
	printf("ratio_vs_gzip=%.2f (wall; target <= 1.0, issue 33)\n",
	    td / tg);
	printf("gzip_dc_cpu_s=%.4f\n", cg);
	printf("d9top_json_cpu_s=%.4f\n", cd);
	printf("cpu_ratio_vs_gzip=%.2f (user+sys, steadier on a busy "
	    "machine)\n", cd / cg);
	printf("raw_mib=%.2f\n", (double)raw / 1048576);
	printf("peak_rss_mib=%.1f (target <= 32)\n", (double)rss / 1024);
	printf("rss_vs_raw=%.2f\n", (double)rss * 1024 / (double)raw);
	print_times(d9top, trace, runs);
	printf("x8_s=%.3f (wall; target < 1)\n", t8);
	printf("x8_cpu_s=%.3f\n", c8);
	bench_inflate(trace, runs < 15 ? 15 : runs);	/* 40 ms a run */
	on_off("file", d9top, trace, runs);
	if ((dir = segment_dir(argc > 4 ? argv[4] : NULL, segs, &made)) ==
	    NULL)
		printf("dir: no segment directory (D9_BENCH_SEGDIR, D9DEMO)\n");
	else {
		printf("dir_segments=%d (%s)\n", count_files(dir),
		    made ? "d9demo, 12 s" : dir);
		on_off("dir", d9top, dir, runs > 5 ? 5 : runs);
	}
	if (made)
		remove_dir(segs);
	print_load("end");
	return 0;
}
