/*
 * bench_window.c: what the browser computes in the background for a
 * time window (spans, the full analysis, CPU and off-CPU flame trees),
 * timed on a synthetic trace of N events (default 10 million) for the
 * whole trace and for narrower windows in its middle. A window's cost
 * should follow the events in it, not the size of the trace.
 *   bench-window [EVENTS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "gen.h"
#include "model/figures/analysis.h"
#include "model/queries/flame.h"
#include "model/queries/lanes.h"
#include "model/queries/spanset.h"

#define RUNS	3	/* best of */

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

enum job { J_SPANS, J_REPORT, J_CPU, J_OFF, J_COUNT };

static const char *const job_names[J_COUNT] = { "spans", "report",
	"cpu flame", "off-cpu flame" };

/* One computation of job j over [lo, hi]; returns its time in ms. */
static double
run_job(const struct d9m_model *m, enum job j,
    uint64_t lo, uint64_t hi)
{
	double t0 = now_ms();

	if (j == J_SPANS) {
		struct d9m_query q = D9M_QUERY_INIT;
		struct d9m_spanset *s;

		q.win = (struct d9m_window){ lo, hi };
		s = d9m_spanset_build(m, &q);

		d9m_spanset_free(&s);
	} else if (j == J_REPORT) {
		struct d9m_analysis a;
		struct d9m_analysis_opts o;

		memset(&o, 0, sizeof o);
		o.win.lo = lo;
		o.win.hi = hi;
		o.worst = 10;
		if (d9m_analyze(m, &o, &a) == 0)
			d9m_analysis_free(&a);
	} else {
		struct d9m_query q = D9M_QUERY_INIT;
		struct d9m_flame *f;

		q.kind = j == J_CPU ? D9M_F_CPU : D9M_F_OFF;
		q.win.lo = lo;
		q.win.hi = hi;
		f = d9m_flame_build(m, NULL, &q);
		d9m_flame_free(&f);
	}
	return now_ms() - t0;
}

static struct d9m_model *
load(uint64_t want)
{
	struct gen_buf b = { NULL, 0, 0 };
	struct d9m_model *m = d9m_model_new();
	struct d9p_read_stats st;
	char path[64];
	const char *paths[1] = { path };
	uint64_t n = gen_trace(&b, want, 8);
	int fd = memfd_create("trace", 0);

	if (m == NULL || fd < 0 || write(fd, b.p, b.n) != (ssize_t)b.n) {
		perror("bench-window");
		exit(1);
	}
	free(b.p);
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if (d9m_model_load(m, paths, 1, NULL, NULL, NULL, &st) < 0 ||
	    d9m_model_finish(m) < 0) {
		fprintf(stderr, "bench-window: cannot load the trace\n");
		exit(1);
	}
	close(fd);
	printf("window trace: %llu events\n", (unsigned long long)n);
	return m;
}

int
main(int argc, char **argv)
{
	uint64_t want = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
	struct d9m_model *m = load(want);
	struct d9m_lanes *ix = d9m_lanes_build(m);
	uint64_t span = m->max_ts - m->min_ts;

	if (ix == NULL)
		return 1;
	for (uint64_t div = 1; div <= 10000; div *= 10) {
		uint64_t lo = m->min_ts + span / 2 - span / div / 2,
		    hi = lo + span / div;

		printf("window 1/%-6llu", (unsigned long long)div);
		for (int j = 0; j < J_COUNT; j++) {
			double best = 0;

			for (int r = 0; r < RUNS; r++) {
				double ms = run_job(m, (enum job)j, lo, hi);

				best = r == 0 || ms < best ? ms : best;
			}
			printf("  %s %8.2f ms", job_names[j], best);
		}
		printf("\n");
	}
	d9m_lanes_free(&ix);
	d9m_model_free(&m);
	return 0;
}
