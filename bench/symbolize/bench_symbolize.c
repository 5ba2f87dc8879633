/*
 * bench_symbolize.c: how fast the DWARF index is built and queried, on
 * the big generated program (gen_big.c), against binutils addr2line:
 *
 *	bench-symbolize BINARY
 *
 * prints, one "key=value" a line: the file size, index_build_s (best of
 * three builds in this process), index_isolated_s (best of three builds
 * in a child process, handed back through a pipe and checked: what
 * d9top does) and index_mb (the size handed back), lookup_us (100,000
 * random addresses inside functions on a fresh index), lookup_warm_us
 * (same addresses again), cached_us (through the symbolizer's
 * per-address cache), then
 * addr2line_us and d9top_addr2line_us: wall time per address of
 * `addr2line -f -i -C` and of our --addr2line on 20,000 of the addresses
 * (process start and index build included), and addr2line_ratio, the
 * first over lookup_us. Targets: index under 0.3 s, lookup under 20 us.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/addr2line.h"
#include "symbolize/dwarf.h"
#include "symbolize/elffile.h"
#include "symbolize/symbolizer.h"

#define NLOOKUP		100000
#define NADDR2LINE	20000

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* NLOOKUP addresses inside sized code symbols, picked by xorshift. */
static uint64_t *
sample(const char *bin)
{
	struct d9s_elffile f;
	struct d9_err e;
	uint64_t *a, x = 0x2545f4914f6cdd1dULL, total = 0;
	size_t i, k, n = 0;

	if (d9s_elffile_open(&f, bin, &e) != 0) {
		fprintf(stderr, "bench-symbolize: %s: %s\n", bin, e.msg);
		return NULL;
	}
	for (i = 0; i < f.syms.n; i++)
		if (f.syms.sym[i].size > 0)
			total += f.syms.sym[i].size;
	if (total == 0 || (a = malloc(NLOOKUP * sizeof *a)) == NULL) {
		d9s_elffile_close(&f);
		return NULL;
	}
	while (n < NLOOKUP) {
		uint64_t pick;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		pick = x % total;
		for (k = 0; k < f.syms.n; k++) {
			if (pick < f.syms.sym[k].size) {
				a[n++] = f.syms.sym[k].addr + pick;
				break;
			}
			pick -= f.syms.sym[k].size;
		}
	}
	d9s_elffile_close(&f);
	return a;
}

static int
write_addrs(const char *path, const uint64_t *a, size_t n)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (f == NULL)
		return -1;
	for (i = 0; i < n; i++)
		fprintf(f, "%" PRIx64 "\n", a[i]);
	return fclose(f);
}

/* Seconds binutils addr2line takes for the addresses in path. */
static double
time_binutils(const char *bin, const char *path)
{
	double t0;
	pid_t pid;
	int status;

	fflush(stdout);			/* or the child repeats our output */
	t0 = now();
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		if (freopen(path, "r", stdin) == NULL ||
		    freopen("/dev/null", "w", stdout) == NULL)
			_exit(127);
		execlp("addr2line", "addr2line", "-f", "-i", "-C", "-e", bin,
		    (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return now() - t0;
}

static double
time_ours(const char *bin, const char *path)
{
	char *argv[] = { "-e", (char *)bin };
	FILE *in = fopen(path, "r"), *out = fopen("/dev/null", "w");
	double t0 = now();
	int rc = -1;

	if (in != NULL && out != NULL)
		rc = d9a_addr2line_stream(2, argv, in, out, stderr);
	if (in != NULL)
		fclose(in);
	if (out != NULL)
		fclose(out);
	return rc == 0 ? now() - t0 : -1;
}

static int
bench_index(const char *bin, double *best)
{
	struct d9s_dwarf_stats st;
	struct d9s_dwarf *d;
	struct d9_err e;
	int i;

	*best = 1e9;
	for (i = 0; i < 3; i++) {
		double t0 = now(), t;

		if (d9s_dwarf_open(&d, bin, &e) != 0) {
			fprintf(stderr, "bench-symbolize: %s: %s\n", bin,
			    e.msg);
			return -1;
		}
		t = now() - t0;
		if (t < *best)
			*best = t;
		if (i == 0) {
			d9s_dwarf_stats(d, &st);
			printf("cus=%zu\ndies=%zu\nfuncs=%zu\n", st.cus,
			    st.dies, st.funcs);
		}
		d9s_dwarf_free(&d);
	}
	printf("index_build_s=%.3f\n", *best);
	return 0;
}

static int
bench_isolated(const char *bin)
{
	struct d9s_dwarf *d;
	struct d9_err e;
	double best = 1e9;
	size_t size = 0;

	for (int i = 0; i < 3; i++) {
		double t0 = now(), t;

		if (d9s_dwarf_read(&d, bin, 60000, &e) != 0) {
			fprintf(stderr, "bench-symbolize: %s: %s\n", bin,
			    e.msg);
			return -1;
		}
		if ((t = now() - t0) < best)
			best = t;
		size = d9s_dwarf_size(d);
		d9s_dwarf_free(&d);
	}
	printf("index_isolated_s=%.3f\nindex_mb=%.1f\n", best,
	    (double)size / 1e6);
	return 0;
}

/* Two passes of raw lookups on one fresh index; returns us/lookup of the
 * first pass. */
static double
bench_lookup(const char *bin, const uint64_t *a)
{
	struct d9s_frame fr[D9S_MAX_FRAMES];
	struct d9s_dwarf_stats st;
	struct d9s_dwarf *d;
	struct d9_err e;
	double t0, cold, warm;
	size_t i, frames = 0;

	if (d9s_dwarf_open(&d, bin, &e) != 0)
		return -1;
	t0 = now();
	for (i = 0; i < NLOOKUP; i++) {
		int n = d9s_dwarf_lookup(d, a[i], fr, D9S_MAX_FRAMES, &e);

		frames += n > 0 ? (size_t)n : 0;
	}
	cold = (now() - t0) / NLOOKUP * 1e6;
	t0 = now();
	for (i = 0; i < NLOOKUP; i++)
		d9s_dwarf_lookup(d, a[i], fr, D9S_MAX_FRAMES, &e);
	warm = (now() - t0) / NLOOKUP * 1e6;
	d9s_dwarf_stats(d, &st);
	printf("line_rows=%zu\nframes_per_lookup=%.2f\nlookup_us=%.2f\n"
	    "lookup_warm_us=%.2f\n", st.rows, (double)frames / NLOOKUP, cold,
	    warm);
	d9s_dwarf_free(&d);
	return cold;
}

static void
bench_cached(const char *bin, const uint64_t *a)
{
	const struct d9s_frame *fr;
	struct d9s_symbolizer *sym;
	struct d9_err e;
	size_t i, n;
	uint32_t mod;
	double t0;

	if (d9s_symbolizer_new(&sym, &e) != 0)
		return;
	if (d9s_symbolizer_add(sym, bin, NULL, 0, &mod, &e) == 0) {
		for (i = 0; i < NLOOKUP; i++)
			d9s_symbolizer_lookup(sym, mod, a[i], 0, &fr, &n, &e);
		t0 = now();
		for (i = 0; i < NLOOKUP; i++)
			d9s_symbolizer_lookup(sym, mod, a[i], 0, &fr, &n, &e);
		printf("cached_us=%.3f\n", (now() - t0) / NLOOKUP * 1e6);
	}
	d9s_symbolizer_free(&sym);
}

int
main(int argc, char **argv)
{
	char path[] = "/tmp/d9s-bench.XXXXXX";
	uint64_t *a;
	struct stat st;
	double index_s, lookup_us, tb, to;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: bench-symbolize BINARY\n");
		return 2;
	}
	if ((a = sample(argv[1])) == NULL)
		return 1;
	printf("binary=%s\n", argv[1]);
	if (stat(argv[1], &st) == 0)
		printf("binary_mb=%.1f\n", (double)st.st_size / 1e6);
	if (bench_index(argv[1], &index_s) != 0 ||
	    bench_isolated(argv[1]) != 0 ||
	    (lookup_us = bench_lookup(argv[1], a)) < 0) {
		free(a);
		return 1;
	}
	bench_cached(argv[1], a);
	if ((fd = mkstemp(path)) == -1 || close(fd) != 0 ||
	    write_addrs(path, a, NADDR2LINE) != 0) {
		perror(path);
		free(a);
		return 1;
	}
	tb = time_binutils(argv[1], path);
	to = time_ours(argv[1], path);
	unlink(path);
	if (tb > 0)
		printf("addr2line_us=%.2f\naddr2line_ratio=%.1f\n",
		    tb / NADDR2LINE * 1e6, tb / NADDR2LINE * 1e6 / lookup_us);
	if (to > 0)
		printf("d9top_addr2line_us=%.2f\n", to / NADDR2LINE * 1e6);
	printf("index_target=%s\nlookup_target=%s\n", index_s < 0.3 ? "met" :
	    "missed", lookup_us < 20 ? "met" : "missed");
	free(a);
	return 0;
}
