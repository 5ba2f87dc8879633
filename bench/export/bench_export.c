/*
 * bench_export.c: d9top --export parquet on a host's directory (issue
 * 34): bench-dir's 58 copies of demo-2026-06 (bench/dir/hostdir.h,
 * shared with it: the same pool of copies), and 4 times as many with
 * --scale 1,4. Each figure against `cat DIR/(all) | gzip -dc` in the
 * same run (best of 3, page cache warm):
 *
 *   d9top --export parquet OUT DIR      cold: OUT empty (goal <= 1.5x,
 *                                       peak RSS <= 256 MiB)
 *   the same, one worker                cold, D9TOP_EXPORT_WORKERS=1: the
 *                                       reading thread ahead of the one
 *                                       folding (what two workers beat)
 *   the same again                      nothing new: no input read
 *   cat DIR/(all) | d9top --export ... -  the same segments on stdin, OUT
 *                                       empty (peak RSS: a segment at a
 *                                       time, not the stream)
 *
 * then the tables' sizes under OUT and the rows they hold.
 *
 * Usage: bench-export D9TOP D9SHIFT TRACE WORK [--copies N]
 *        [--scale 1,4]
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hostdir.h"
#include "measure.h"

#define DEF_COPIES	58
#define MAX_SCALES	4

static const char *const tables[] = { "polls", "wakes", "parks", "tasks",
	"samples", "stacks", "allocations", "spans", "runtime_metrics",
	"metrics", "segments" };
#define NTABLES	(sizeof tables / sizeof tables[0])

/* Bytes and .parquet files under path. */
static void
tree_bytes(const char *path, uint64_t *bytes, uint64_t *files)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char sub[PATH_MAX];
		struct stat st;
		size_t n = strlen(e->d_name);

		if (e->d_name[0] == '.' || snprintf(sub, sizeof sub, "%s/%s",
		    path, e->d_name) >= (int)sizeof sub ||
		    lstat(sub, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			tree_bytes(sub, bytes, files);
		else if (n > 8 && strcmp(e->d_name + n - 8, ".parquet") == 0) {
			*bytes += (uint64_t)st.st_size;
			(*files)++;
		}
	}
	closedir(d);
}

static int
export_run(const char *d9top, const char *out, const char *dir,
    struct d9b_run *r, char *const env[])
{
	char *argv[] = { (char *)d9top, "--export", "parquet", (char *)out,
	    "--quiet", (char *)dir, NULL };

	if (d9b_run(argv, env, NULL, NULL, r) != 0) {
		fprintf(stderr, "bench-export: d9top --export failed (status "
		    "%d)\n", r->status);
		return -1;
	}
	return 0;
}

/* cat dir/(all) | d9top --export parquet out --quiet - */
static int
stdin_run(const char *d9top, const char *out, const char *dir,
    struct d9b_run *r)
{
	char *argv[] = { "sh", "-c", "cat \"$1\"/* | \"$2\" --export parquet "
	    "\"$3\" --quiet -", "sh", (char *)dir, (char *)d9top,
	    (char *)out, NULL };

	if (d9b_rmtree(out) < 0 || d9b_run(argv, NULL, NULL, NULL, r) != 0) {
		fprintf(stderr, "bench-export: the export of stdin failed "
		    "(status %d)\n", r->status);
		return -1;
	}
	return d9b_rmtree(out);
}

static void
print_tables(const char *out, double raw_mib)
{
	uint64_t total = 0, nfiles = 0;

	printf("%-18s %10s %6s\n", "table", "MB", "files");
	for (size_t t = 0; t < NTABLES; t++) {
		char p[PATH_MAX];
		uint64_t b = 0, f = 0;

		if (snprintf(p, sizeof p, "%s/%s", out, tables[t]) >=
		    (int)sizeof p)
			continue;
		tree_bytes(p, &b, &f);
		printf("%-18s %10.2f %6llu\n", tables[t], (double)b / 1e6,
		    (unsigned long long)f);
		total += b;
		nfiles += f;
	}
	printf("%-18s %10.2f %6llu  (%.1f %% of the %.1f MiB decoded)\n",
	    "all", (double)total / 1e6, (unsigned long long)nfiles,
	    100.0 * (double)total / (raw_mib * 1048576), raw_mib);
}

static int
one_scale(struct d9b_hostdir *h, const char *d9top, const char *work,
    int copies)
{
	char dir[PATH_MAX], out[PATH_MAX];
	struct d9b_run base, cold, again, in, one;
	char *one_env[] = { "D9TOP_EXPORT_WORKERS=1", NULL };
	char inout[PATH_MAX];
	double gz, raw, load[3];
	int built;

	if (d9b_hostdir_make(h, copies, dir, sizeof dir, &built) < 0)
		return -1;
	gz = (double)d9b_dir_bytes(dir) / 1e6;
	raw = (double)h->raw * copies / 1048576;
	printf("\n== %d copies: %.1f MB gzip, %.1f MiB decoded, %.1f M "
	    "events\n", copies, gz, raw, (double)h->frames * copies / 1e6);
	snprintf(out, sizeof out, "%s/parquet-%d", work, copies);
	if (d9b_gzip_baseline(dir, &base) < 0 || d9b_rmtree(out) < 0 ||
	    export_run(d9top, out, dir, &one, one_env) < 0 ||
	    d9b_rmtree(out) < 0 ||
	    export_run(d9top, out, dir, &cold, NULL) < 0 ||
	    export_run(d9top, out, dir, &again, NULL) < 0)
		return -1;
	snprintf(inout, sizeof inout, "%s/parquet-stdin-%d", work, copies);
	if (stdin_run(d9top, inout, dir, &in) < 0)
		return -1;
	if (getloadavg(load, 3) == 3)	/* others' work slows the wall */
		printf("load average %.2f %.2f %.2f (CPU time is the steadier "
		    "figure)\n", load[0], load[1], load[2]);
	printf("%-34s %7s %7s %8s %7s  %s\n", "", "wall s", "cpu s",
	    "peak MiB", "x base", "goal");
	printf("%-34s %7.2f %7.2f %8.1f %7.3f\n", "cat DIR/* | gzip -dc",
	    base.wall, base.cpu, base.rss_mib, 1.0);
	printf("%-34s %7.2f %7.2f %8.1f %7.3f  <= 1.5x, <= 256 MiB\n",
	    "d9top --export parquet, cold", cold.wall, cold.cpu,
	    cold.rss_mib, cold.wall / base.wall);
	printf("%-34s %7.2f %7.2f %8.1f %7.3f\n", "the same, one worker",
	    one.wall, one.cpu, one.rss_mib, one.wall / base.wall);
	printf("%-34s %7.2f %7.2f %8.1f %7.3f\n",
	    "the same again (nothing new)", again.wall, again.cpu,
	    again.rss_mib, again.wall / base.wall);
	printf("%-34s %7.2f %7.2f %8.1f %7.3f  <= 256 MiB\n",
	    "cat DIR/* | d9top --export ... -", in.wall, in.cpu, in.rss_mib,
	    in.wall / base.wall);
	print_tables(out, raw);
	printf("result copies=%d baseline_s=%.3f baseline_cpu_s=%.3f "
	    "export_s=%.3f export_x=%.3f export_cpu_s=%.3f export_cpu_x=%.3f "
	    "peak_rss_mib=%.1f one_worker_s=%.3f one_worker_cpu_s=%.3f "
	    "again_s=%.3f stdin_peak_rss_mib=%.1f\n", copies, base.wall,
	    base.cpu, cold.wall, cold.wall / base.wall, cold.cpu, cold.cpu /
	    base.cpu, cold.rss_mib, one.wall, one.cpu, again.wall,
	    in.rss_mib);
	fflush(stdout);
	return d9b_rmtree(out);
}

int
main(int argc, char **argv)
{
	int copies = DEF_COPIES, scale[MAX_SCALES] = { 1 }, nscale = 1;
	struct d9b_hostdir h;

	if (argc < 5) {
		fprintf(stderr, "usage: bench-export D9TOP D9SHIFT TRACE WORK "
		    "[--copies N] [--scale 1,4]\n");
		return 2;
	}
	for (int i = 5; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--copies") == 0)
			copies = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--scale") == 0) {
			char *s = argv[i + 1], *end;

			for (nscale = 0; nscale < MAX_SCALES; s = end + 1) {
				scale[nscale++] = (int)strtol(s, &end, 10);
				if (*end != ',')
					break;
			}
		}
	}
	if (copies < 1 || copies > 4096)
		return 2;
	if (d9b_hostdir_open(&h, argv[4], argv[2], argv[3], 2) < 0)
		return 1;
	printf("bench-export: d9top --export parquet against cat | gzip -dc "
	    "(the 2-core machine)\n");
	for (int i = 0; i < nscale; i++)
		if (scale[i] < 1 || scale[i] > 64 ||
		    one_scale(&h, argv[1], argv[4], copies * scale[i]) < 0)
			return 1;
	return 0;
}
