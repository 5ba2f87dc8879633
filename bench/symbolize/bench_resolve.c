/*
 * bench_resolve.c: what naming every frame through a resolver costs
 * next to loading the trace:
 *
 *	bench-resolve TRACE [runs]
 *
 * load_s: d9m_model_load + d9m_model_finish (best of runs). Then every
 * distinct (segment, stack) of the CPU samples, allocations and task
 * dumps, which is what d9top's views and reports name, is expanded to
 * named frames (d9m_stack_frames) with the resolver d9top makes
 * (frames_with_resolver_s: the first pass, files opened and caches
 * cold) and with none (frames_s). load_with_resolver_s = load_s +
 * frames_with_resolver_s; overhead_pct = frames_with_resolver_s / load_s
 * in percent (target under 10). For scale, per_event_* expand the stack
 * of every event instead, as if nothing were grouped. For a dial9 trace
 * the resolver only sees the addresses the trace leaves unnamed (and
 * kernel ones).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/core/frames.h"
#include "model/core/model.h"
#include "symbolize/resolver.h"

#define MAX_FRAMES	512

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct d9m_model *
load(const char *path, double *secs)
{
	const char *paths[] = { path };
	struct d9m_model *m = d9m_model_new();
	struct d9p_read_stats st;
	double t0 = now();

	if (m == NULL || d9m_model_load(m, paths, 1, NULL, NULL, NULL,
	    &st) < 0 || d9m_model_finish(m) < 0 || st.read_ok == 0) {
		fprintf(stderr, "bench-resolve: cannot load %s\n", path);
		d9m_model_free(&m);
		return NULL;
	}
	*secs = now() - t0;
	return m;
}

struct segstack {
	uint32_t	seg, stack;
};

static int
cmp_ss(const void *a, const void *b)
{
	const struct segstack *x = a, *y = b;

	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	return x->stack < y->stack ? -1 : x->stack > y->stack;
}

/* The distinct (segment, stack) pairs of every event with a stack. */
static struct segstack *
distinct(const struct d9m_model *m, size_t *n)
{
	size_t cap = m->cpu.n + m->allocs.n + m->dumps.n, k = 0, j = 0;
	struct segstack *v = malloc((cap ? cap : 1) * sizeof *v);

	if (v == NULL)
		return NULL;
	for (size_t i = 0; i < m->cpu.n; i++)
		v[k++] = (struct segstack){ m->cpu.seg[i], m->cpu.stack[i] };
	for (size_t i = 0; i < m->allocs.n; i++)
		v[k++] = (struct segstack){ m->allocs.seg[i],
		    m->allocs.stack[i] };
	for (size_t i = 0; i < m->dumps.n; i++)
		v[k++] = (struct segstack){ m->dumps.seg[i], m->dumps.stack[i] };
	qsort(v, k, sizeof *v, cmp_ss);
	for (size_t i = 0; i < k; i++)
		if (j == 0 || cmp_ss(&v[j - 1], &v[i]) != 0)
			v[j++] = v[i];
	*n = j;
	return v;
}

static double
stacks_frames(const struct d9m_model *m, const struct d9m_resolver *r,
    const struct segstack *v, size_t n, size_t *nframes)
{
	struct d9m_frame *f = malloc(MAX_FRAMES * sizeof *f);
	double t0 = now();

	*nframes = 0;
	if (f == NULL)
		return 0;
	for (size_t i = 0; i < n; i++)
		*nframes += d9m_stack_frames(m, r, v[i].seg, v[i].stack, f,
		    MAX_FRAMES);
	t0 = now() - t0;
	free(f);
	return t0;
}

/* Seconds to expand every event's stack; *nframes counts the frames. */
static double
all_frames(const struct d9m_model *m, const struct d9m_resolver *r,
    size_t *nframes)
{
	struct d9m_frame *f = malloc(MAX_FRAMES * sizeof *f);
	double t0 = now();

	*nframes = 0;
	if (f == NULL)
		return 0;
	for (size_t i = 0; i < m->cpu.n; i++)
		*nframes += d9m_stack_frames(m, r, m->cpu.seg[i],
		    m->cpu.stack[i], f, MAX_FRAMES);
	for (size_t i = 0; i < m->allocs.n; i++)
		*nframes += d9m_stack_frames(m, r, m->allocs.seg[i],
		    m->allocs.stack[i], f, MAX_FRAMES);
	for (size_t i = 0; i < m->dumps.n; i++)
		*nframes += d9m_stack_frames(m, r, m->dumps.seg[i],
		    m->dumps.stack[i], f, MAX_FRAMES);
	t0 = now() - t0;
	free(f);
	return t0;
}

int
main(int argc, char **argv)
{
	struct d9s_resolver_opts o;
	struct d9m_resolver *r;
	struct d9m_model *m = NULL;
	struct d9_err e;
	double load_s = 1e9, plain_s, res_s, ev_plain_s, ev_res_s;
	size_t nplain, nres, nstacks, ev_nplain, ev_nres;
	struct segstack *ss;
	int runs = argc > 2 ? atoi(argv[2]) : 3;

	if (argc < 2) {
		fprintf(stderr, "usage: bench-resolve TRACE [runs]\n");
		return 2;
	}
	for (int i = 0; i < (runs > 0 ? runs : 1); i++) {
		double s;

		d9m_model_free(&m);
		if ((m = load(argv[1], &s)) == NULL)
			return 1;
		if (s < load_s)
			load_s = s;
	}
	if ((ss = distinct(m, &nstacks)) == NULL)
		return 1;
	memset(&o, 0, sizeof o);
	if (d9s_resolver_new(NULL, &o, &r, &e) != 0) {
		fprintf(stderr, "bench-resolve: %s\n", e.msg);
		return 1;
	}
	res_s = stacks_frames(m, r, ss, nstacks, &nres);
	plain_s = stacks_frames(m, NULL, ss, nstacks, &nplain);
	ev_res_s = all_frames(m, r, &ev_nres);
	ev_plain_s = all_frames(m, NULL, &ev_nplain);
	printf("trace=%s\n", argv[1]);
	printf("events=%zu\nstacks=%zu\nframes=%zu\n", m->cpu.n +
	    m->allocs.n + m->dumps.n, nstacks, nres);
	printf("load_s=%.4f\n", load_s);
	printf("frames_s=%.4f\n", plain_s);
	printf("frames_with_resolver_s=%.4f\n", res_s);
	printf("load_with_resolver_s=%.4f\n", load_s + res_s);
	printf("overhead_pct=%.2f\n", 100 * res_s / load_s);
	printf("per_event_frames=%zu\n", ev_nres);
	printf("per_event_frames_s=%.4f\n", ev_plain_s);
	printf("per_event_frames_with_resolver_s=%.4f\n", ev_res_s);
	d9s_resolver_free(&r);
	d9m_model_free(&m);
	free(ss);
	return nplain == nres && ev_nplain == ev_nres ? 0 : 1;
}
