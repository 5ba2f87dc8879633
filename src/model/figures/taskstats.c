/*
 * taskstats.c: see taskstats.h. One pass over the window's polls and one
 * over its wakes fill a row per task; the rows with the most busy and
 * scheduled time are kept. The lints read each task's polls over the
 * whole trace (m->task_polls).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/search.h"
#include "base/vec.h"
#include "model/figures/analysis.h"
#include "model/figures/taskstats.h"
#include "model/queries/wake.h"
#include "model/queries/window.h"

#define MS		1000000ull
#define LONG_POLL	(10 * MS)	/* never-yields */
#define SELF_MIN	10		/* self-wake: wakes at least */

/* Tasks by (source, id): the same order however the rows were read. */
static int
cmp_task(const struct d9m_model *m, uint32_t a, uint32_t b)
{
	uint64_t ka = m->tasks.id[a], kb = m->tasks.id[b];

	if (m->tasks.group[a] != m->tasks.group[b])
		return m->tasks.group[a] < m->tasks.group[b] ? -1 : 1;
	return ka < kb ? -1 : ka > kb;
}

/* The busiest first (busy + scheduled), then by task. */
static int
cmp_stat(const void *x, const void *y, void *ctx)
{
	const struct d9m_task_stat *a = x, *b = y;
	uint64_t ka = a->busy + a->sched, kb = b->busy + b->sched;

	if (ka != kb)
		return ka > kb ? -1 : 1;
	return cmp_task(ctx, a->task, b->task);
}

static int
cmp_lint(const void *x, const void *y, void *ctx)
{
	const struct d9m_task_lint *a = x, *b = y;
	int c = cmp_task(ctx, a->task, b->task);

	return c != 0 ? c : strcmp(a->kind, b->kind);
}

/* The task's life in the window: from its spawn (or its first poll or
 * wake in it) to its end (or the window's, or the trace's). */
static uint64_t
life(const struct d9m_model *m, const struct d9m_window *w, uint32_t t,
    uint64_t first)
{
	uint64_t lo = w->lo > m->min_ts ? w->lo : m->min_ts;
	uint64_t hi = w->hi < m->max_ts ? w->hi : m->max_ts;
	uint64_t a = m->tasks.spawn_ts[t], b = m->tasks.term_ts[t];

	if (a == D9M_ABSENT || a > first)
		a = first;
	if (a < lo)
		a = lo;
	if (b == D9M_ABSENT || b > hi)
		b = hi;
	return b > a ? b - a : 0;
}

static int
lint(struct d9m_analysis *a, size_t *cap, const char *kind, uint32_t t,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int
lint(struct d9m_analysis *a, size_t *cap, const char *kind, uint32_t t,
    const char *fmt, ...)
{
	struct d9m_task_lint *l;
	va_list ap;

	if (d9_grow(&a->task_lints, cap, a->ntask_lints + 1,
	    sizeof *a->task_lints) < 0)
		return -1;
	l = &a->task_lints[a->ntask_lints++];
	l->kind = kind;
	l->task = t;
	va_start(ap, fmt);
	vsnprintf(l->text, sizeof l->text, fmt, ap);
	va_end(ap);
	return 0;
}

/* The lints of task t over the whole trace. */
static int
lints(const struct d9m_model *m, const struct d9m_task_stat *s,
    struct d9m_analysis *a, size_t *cap)
{
	uint32_t t = s->task;
	size_t p0 = m->task_polls_off[t], p1 = m->task_polls_off[t + 1];
	uint64_t id = m->tasks.id[t], half = (m->max_ts - m->min_ts) / 2;

	if (s->wakes >= SELF_MIN && 2 * s->self_wakes > s->wakes &&
	    lint(a, cap, "self-wake", t, "task %" PRIu64 " woke itself %zu "
	    "of %zu times: a loop of yields that keeps its worker busy", id,
	    s->self_wakes, s->wakes) < 0)
		return -1;
	if (p1 - p0 == 1) {
		uint32_t p = m->task_polls[p0];
		uint64_t d = m->polls.end[p] - m->polls.start[p];

		if (d > LONG_POLL && lint(a, cap, "never-yields", t, "task %"
		    PRIu64 " ran %.3f ms in its only poll: it never yields "
		    "its worker", id, (double)d / MS) < 0)
			return -1;
	}
	if (p1 > p0 && m->tasks.term_ts[t] == D9M_ABSENT && half > 0) {
		uint64_t last = m->polls.end[m->task_polls[p1 - 1]];

		if (m->max_ts - last > half && lint(a, cap, "long-idle", t,
		    "task %" PRIu64 " is alive at the end and was not polled "
		    "in its last %.3f ms (over half the trace)", id,
		    (double)(m->max_ts - last) / MS) < 0)
			return -1;
	}
	return 0;
}

int
d9m_an_taskstats(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	size_t nt = m->tasks.n, n = 0, cap = 0, w0, w1;
	struct d9m_task_stat *s = calloc(nt + 1, sizeof *s);
	uint64_t *first = malloc((nt + 1) * sizeof *first);
	int rc = -1;

	if (s == NULL || first == NULL)
		goto out;
	for (size_t t = 0; t < nt; t++) {
		s[t].task = (uint32_t)t;
		first[t] = UINT64_MAX;
	}
	for (size_t k = 0; k < m->nworkers; k++) {
		size_t i0, i1;

		d9m_window_polls(m, k, &o->win, &i0, &i1);
		for (size_t i = i0; i < i1; i++) {
			uint32_t t = m->polls.task[i];
			uint64_t d = m->poll_sched[i];

			if (t == D9_NONE)
				continue;
			s[t].polls++;
			s[t].busy += m->polls.end[i] - m->polls.start[i];
			if (d != D9M_SCHED_NONE && d != D9M_SCHED_NO_WAKE)
				s[t].sched += d;
			if (m->polls.start[i] < first[t])
				first[t] = m->polls.start[i];
		}
	}
	d9m_window_rows(m->wakes.ts, m->wakes.n, &o->win, &w0, &w1);
	for (size_t i = w0; i < w1; i++) {
		uint32_t t = m->wakes.woken[i];

		if (t == D9_NONE)
			continue;
		s[t].wakes++;
		s[t].self_wakes += m->wakes.waker[i] == t;
		if (m->wakes.ts[i] < first[t])
			first[t] = m->wakes.ts[i];
	}
	for (size_t t = 0; t < nt; t++) {
		uint64_t l;

		if (s[t].polls == 0 && s[t].wakes == 0)
			continue;
		l = life(m, &o->win, (uint32_t)t, first[t]);
		s[t].idle = l > s[t].busy + s[t].sched ? l - s[t].busy -
		    s[t].sched : 0;
		if (lints(m, &s[t], a, &cap) < 0)
			goto out;
		s[n++] = s[t];
	}
	qsort_r(s, n, sizeof *s, cmp_stat, (void *)m);
	if (a->ntask_lints > 0)	/* none: no array at all */
		qsort_r(a->task_lints, a->ntask_lints, sizeof *a->task_lints,
		    cmp_lint, (void *)m);
	a->ntask_stats_all = n;
	a->ntask_stats = o->all_tasks || n < D9M_TASK_STATS ? n :
	    D9M_TASK_STATS;
	a->task_stats = s;
	s = NULL;
	rc = 0;
out:
	free(s);
	free(first);
	return rc;
}

/* The lower bounds of the bins: 0, then 1, 2, 5 x 10^k ns from 1 us. */
static const uint64_t hist_lo[D9M_HIST_BINS] = { 0,
	1000ull, 2000ull, 5000ull, 10000ull, 20000ull, 50000ull,
	100000ull, 200000ull, 500000ull, 1000000ull, 2000000ull, 5000000ull,
	10000000ull, 20000000ull, 50000000ull, 100000000ull, 200000000ull,
	500000000ull, 1000000000ull, 2000000000ull, 5000000000ull,
	10000000000ull };

uint64_t
d9m_hist_lo(size_t k)
{
	return k < D9M_HIST_BINS ? hist_lo[k] : UINT64_MAX;
}

/* The bin of duration d: the last whose lower bound is at most d. */
static size_t
hist_bin(uint64_t d)
{
	return d9_upper_u64(hist_lo, 1, D9M_HIST_BINS, d) - 1;
}

void
d9m_task_hist(const struct d9m_model *m, const struct d9m_query *q,
    struct d9m_task_hist *h)
{
	const struct d9m_window *w = &q->win;
	uint32_t t = q->task;
	size_t i0, i1;

	memset(h, 0, sizeof *h);
	h->longest = D9_NONE;
	if (t >= m->tasks.n)
		return;
	i0 = w->lo > 0 ? d9m_task_polls_after(m, t, w->lo - 1) :
	    m->task_polls_off[t];
	i1 = d9m_task_polls_after(m, t, w->hi);
	for (size_t i = i0; i < i1; i++) {
		uint32_t p = m->task_polls[i];
		uint64_t d = m->polls.end[p] - m->polls.start[p];

		h->count[hist_bin(d)]++;
		h->polls++;
		if (h->longest == D9_NONE || d > h->max) {
			h->max = d;
			h->longest = p;
		}
	}
}

size_t
d9m_task_stat_next(const struct d9m_model *m, const struct d9m_analysis *a,
    uint32_t loc, size_t from)
{
	for (size_t i = from; i < a->ntask_stats; i++)
		if (a->task_stats[i].task < m->tasks.n &&
		    m->tasks.loc[a->task_stats[i].task] == loc)
			return i;
	return a->ntask_stats;
}

const struct d9m_task_stat *
d9m_task_stat_of(const struct d9m_analysis *a, uint32_t t)
{
	for (size_t i = 0; i < a->ntask_stats; i++)
		if (a->task_stats[i].task == t)
			return &a->task_stats[i];
	return NULL;
}
