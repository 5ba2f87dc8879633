/*
 * samples.c: see samples.h. The rates are read once per finished model;
 * a window's live set sorts the frees of the window by (address,
 * allocation time) and looks each allocation up in them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pages.h"
#include "base/wire.h"
#include "model/queries/samples.h"
#include "model/core/table.h"
#include "model/core/timeline.h"
#include "model/queries/wake.h"
#include "model/queries/window.h"

/* A metadata value that is a plain decimal number in 1 .. max: 1 and
 * *v, else 0. */
static int
meta_number(const char *s, uint64_t max, uint64_t *v)
{
	size_t k = 0;

	*v = 0;
	while (s[k] >= '0' && s[k] <= '9' && *v <= max)
		*v = *v * 10 + (uint64_t)(s[k++] - '0');
	return k > 0 && s[k] == '\0' && *v >= 1 && *v <= max;
}

/* The duty cycle that every segment names alike (duty[s] % of cycle[s]
 * ms sampled, 0: not said), into m->sched_cycle_ns and m->sched_on_ns;
 * both 0 when segments disagree or one does not say. */
static void
shared_cycle(struct d9m_model *m, const uint64_t *duty, const uint64_t *cycle)
{
	size_t s = 0;

	m->sched_cycle_ns = m->sched_on_ns = 0;
	while (s < m->segs.n && duty[s] != 0 && duty[s] < 100 &&
	    duty[s] == duty[0] && cycle[s] != 0 && cycle[s] == cycle[0])
		s++;
	if (m->segs.n == 0 || s < m->segs.n)
		return;
	m->sched_cycle_ns = cycle[0] * 1000000u;
	m->sched_on_ns = m->sched_cycle_ns / 100 * duty[0];
}

/*
 * From the metadata, once: each segment's d9rec.sched_sample_period (a
 * plain decimal number in 1 .. D9M_SCHED_PERIOD_MAX, else 1: every
 * switch), the smallest d9rec.sched_duty_pct (m->sched_duty, 100 when
 * none says) and the duty cycle all segments share
 * (d9rec.sched_duty_cycle_ms: shared_cycle).
 */
static int
sched_periods(struct d9m_model *m)
{
	uint32_t kp = d9_intern_find(&m->strs, "d9rec.sched_sample_period",
	    25);
	uint32_t kd = d9_intern_find(&m->strs, "d9rec.sched_duty_pct", 20);
	uint32_t kh = d9_intern_find(&m->strs, "d9rec.cpu_frequency_hz", 22);
	uint32_t kh2 = d9_intern_find(&m->strs, "cpu.profile.frequency_hz",
	    24);
	uint32_t kc = d9_intern_find(&m->strs, "d9rec.sched_duty_cycle_ms",
	    25);
	uint64_t *duty = calloc(m->segs.n + 1, sizeof *duty);
	uint64_t *cycle = calloc(m->segs.n + 1, sizeof *cycle);

	free(m->seg_sched);
	m->seg_sched = malloc((m->segs.n + 1) * sizeof *m->seg_sched);
	if (m->seg_sched == NULL || duty == NULL || cycle == NULL) {
		free(duty);
		free(cycle);
		return -1;
	}
	for (size_t i = 0; i <= m->segs.n; i++)
		m->seg_sched[i] = 1;
	m->sched_duty = 100;
	m->cpu_hz = 0;
	for (size_t i = 0; i < m->meta.n; i++) {
		uint32_t k = m->meta.key[i], seg = m->meta.seg[i];
		const char *val = d9m_str(m, m->meta.val[i]);
		uint64_t v;

		if (seg > m->segs.n || k == D9_NONE)
			continue;
		if (k == kp && meta_number(val, D9M_SCHED_PERIOD_MAX, &v))
			m->seg_sched[seg] = (uint32_t)v;
		else if (k == kd && meta_number(val, 100, &v)) {
			duty[seg] = v;
			if (v < m->sched_duty)
				m->sched_duty = (uint32_t)v;
		} else if (k == kc && meta_number(val, D9M_SCHED_CYCLE_MAX,
		    &v))
			cycle[seg] = v;
		else if ((k == kh || k == kh2) && meta_number(val, 100000,
		    &v) && v > 0 && (m->cpu_hz == 0 || v < m->cpu_hz))
			m->cpu_hz = (uint32_t)v;
	}
	shared_cycle(m, duty, cycle);
	free(duty);
	free(cycle);
	return 0;
}

int
d9m_sched_off(const struct d9m_model *m, uint64_t t0, uint64_t t1)
{
	uint64_t c = m->sched_cycle_ns, base;

	if (c == 0 || t1 < t0)
		return 0;
	base = t0 / c * c;
	return t0 >= base + m->sched_on_ns + D9M_SCHED_LATE && t1 < base + c;
}

int
d9m_rates_derive(struct d9m_model *m)
{
	uint32_t key = d9_intern_find(&m->strs, "memory.sample_rate_bytes",
	    24);

	free(m->seg_rate);
	m->seg_rate = malloc((m->segs.n + 1) * sizeof *m->seg_rate);
	if (m->seg_rate == NULL)
		return -1;
	for (size_t i = 0; i <= m->segs.n; i++)
		m->seg_rate[i] = D9M_DEFAULT_RATE;
	m->alloc_rate = D9M_DEFAULT_RATE;
	m->alloc_rate_meta = 0;
	for (size_t i = 0; key != D9_NONE && i < m->meta.n; i++) {
		unsigned long long v;

		if (m->meta.key[i] != key || m->meta.seg[i] > m->segs.n)
			continue;
		v = strtoull(d9m_str(m, m->meta.val[i]), NULL, 10);
		if (v > 0) {
			m->seg_rate[m->meta.seg[i]] = v;
			m->alloc_rate = v;
			m->alloc_rate_meta = 1;
		}
	}
	return sched_periods(m);
}

enum d9m_cpu_class
d9m_cpu_class(const struct d9m_model *m, size_t i)
{
	switch (m->cpu.source[i]) {
	case D9_SOURCE_CPU:
		return D9M_ON_CPU;
	case D9_SOURCE_SCHED:
		return D9M_OFF_CPU;
	default:
		return D9M_OTHER_CPU;
	}
}

uint32_t
d9m_cpu_weight(const struct d9m_model *m, size_t i)
{
	uint32_t seg = m->cpu.seg[i];

	if (m->cpu.source[i] != D9_SOURCE_SCHED || m->seg_sched == NULL ||
	    seg > m->segs.n)
		return 1;
	return m->seg_sched[seg];
}

void
d9m_alloc_weight(const struct d9m_model *m, size_t i, double *wb, double *wc)
{
	uint64_t s = m->allocs.size[i], seg = m->allocs.seg[i];
	uint64_t rate = seg < m->segs.n ? m->seg_rate[seg] : m->alloc_rate;
	double x = (double)s / (double)rate, p;

	if (s == 0) {
		*wb = *wc = 0;
		return;
	}
	if (x > 50) {
		*wb = (double)s;
		*wc = 1;
		return;
	}
	p = -expm1(-x);		/* 1 - exp(-s/R) without cancellation */
	*wb = (double)s / p;
	*wc = 1 / p;
}

struct fkey {
	uint64_t	addr, ts;	/* the allocation named */
	uint64_t	at;		/* the free's own time */
};

static int
cmp_fkey(const void *x, const void *y)
{
	const struct fkey *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

int
d9m_alloc_freed(const struct d9m_model *m, const struct d9m_window *w,
    size_t *a0, size_t *a1, uint64_t **freed)
{
	struct fkey *fk;
	size_t f0, f1, nf = 0;

	d9m_window_rows(m->frees.ts, m->frees.n, w, &f0, &f1);
	d9m_window_rows(m->allocs.ts, m->allocs.n, w, a0, a1);
	fk = malloc((f1 - f0 + 1) * sizeof *fk);
	*freed = malloc((*a1 - *a0 + 1) * sizeof **freed);
	if (fk == NULL || *freed == NULL) {
		free(fk);
		free(*freed);
		*freed = NULL;
		return -1;
	}
	for (size_t i = f0; i < f1; i++) {
		fk[nf].addr = m->frees.addr[i];
		fk[nf].ts = m->frees.alloc_ts[i];
		fk[nf++].at = m->frees.ts[i];
	}
	qsort(fk, nf, sizeof *fk, cmp_fkey);
	for (size_t i = *a0; i < *a1; i++) {
		struct fkey k = { m->allocs.addr[i], m->allocs.ts[i], 0 };
		const struct fkey *f = bsearch(&k, fk, nf, sizeof *fk,
		    cmp_fkey);

		(*freed)[i - *a0] = f != NULL ? f->at : UINT64_MAX;
	}
	free(fk);
	return 0;
}

int
d9m_alloc_live(const struct d9m_model *m, const struct d9m_window *w,
    size_t *a0, size_t *a1, uint8_t **live)
{
	uint64_t *freed;

	*live = NULL;
	if (d9m_alloc_freed(m, w, a0, a1, &freed) < 0)
		return -1;
	if ((*live = malloc(*a1 - *a0 + 1)) != NULL)
		for (size_t i = *a0; i < *a1; i++)
			(*live)[i - *a0] = freed[i - *a0] == UINT64_MAX;
	free(freed);
	return *live != NULL ? 0 : -1;
}

int
d9m_wstack_merge(const struct d9m_wstack *v, size_t n,
    struct d9m_wstack **out, size_t *nout)
{
	uint64_t *key = malloc((n ? n : 1) * sizeof *key);
	uint32_t *p = malloc((n ? n : 1) * sizeof *p);
	struct d9m_wstack *g = malloc((n ? n : 1) * sizeof *g);
	size_t k = 0;

	*out = NULL;
	*nout = 0;
	for (size_t i = 0; key != NULL && i < n; i++)
		key[i] = (uint64_t)v[i].stack << 32 | v[i].seg;
	if (key == NULL || p == NULL || g == NULL ||
	    d9m_sort_perm(key, n, p) < 0) {
		free(key);
		free(p);
		free(g);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && key[p[i]] == key[p[i - 1]]) {
			g[k - 1].w += v[p[i]].w;
			g[k - 1].n += v[p[i]].n;
		} else
			g[k++] = v[p[i]];
	}
	free(key);
	free(p);
	*out = g;
	*nout = k;
	return 0;
}

int
d9m_poll_samples(const struct d9m_model *m, uint32_t p, enum d9m_cpu_class c,
    uint32_t **rows, size_t *n)
{
	struct d9m_window w = { m->polls.start[p], m->polls.end[p] };
	size_t i0, i1;

	*n = 0;
	d9m_window_rows(m->cpu.ts, m->cpu.n, &w, &i0, &i1);
	if ((*rows = malloc((i1 - i0 + 1) * sizeof **rows)) == NULL)
		return -1;
	for (size_t i = i0; i < i1; i++) {
		enum d9m_cpu_class k = d9m_cpu_class(m, i);

		if (m->cpu.poll[i] == p && k != D9M_OTHER_CPU &&
		    (c == D9M_OTHER_CPU || k == c))
			(*rows)[(*n)++] = (uint32_t)i;
	}
	return 0;
}

uint32_t
d9m_poll_of_tid(const struct d9m_model *m, uint32_t tid, uint64_t ts)
{
	uint32_t w = d9m_tid_worker(m, tid, D9_NONE), slot, p;

	slot = w == D9_NONE ? D9_NONE : d9m_worker_slot(m, w);
	if (slot == D9_NONE)
		return D9_NONE;
	p = d9m_poll_at(m, slot, ts);
	return p != D9_NONE && ts <= m->polls.end[p] ? p : D9_NONE;
}

/* The idle gap of dump row i, along a walk of the dumps in time order:
 * next[t] is task t's first poll not started by the rows so far. */
static uint64_t
idle_at(const struct d9m_model *m, size_t *next, size_t i)
{
	const uint32_t *rows = m->task_polls;
	uint32_t t = m->dumps.task[i];
	uint64_t ts = m->dumps.ts[i], end, after;
	size_t k;

	if (t == D9_NONE || t >= m->tasks.n)
		return UINT64_MAX;
	/* the task's first poll starting after the stamp: its polls are
	 * by start and the stamps come in time order */
	for (k = next[t]; k < m->task_polls_off[t + 1] &&
	    m->polls.start[rows[k]] <= ts; k++)
		;
	next[t] = k;
	if (k == m->task_polls_off[t])
		return UINT64_MAX;
	k--;
	end = m->polls.end[rows[k]];
	after = k + 1 < m->task_polls_off[t + 1] ?
	    m->polls.start[rows[k + 1]] : m->max_ts;
	return after > end ? after - end : 0;
}

int
d9m_dumps_derive(struct d9m_model *m)
{
	size_t *next = d9_pages_alloc((m->tasks.n + 1) * sizeof *next);

	m->dump_idle = d9_pages_alloc((m->dumps.n + 1) * sizeof *m->dump_idle);
	if (next == NULL || m->dump_idle == NULL) {
		free(next);
		return -1;
	}
	for (size_t t = 0; t < m->tasks.n; t++)
		next[t] = m->task_polls_off[t];
	for (size_t i = 0; i < m->dumps.n; i++)
		m->dump_idle[i] = idle_at(m, next, i);
	free(next);
	return 0;
}

uint64_t
d9m_dump_idle(const struct d9m_model *m, size_t i)
{
	return m->dump_idle[i];
}

/* Row i of the CPU samples, then of the allocations, then of the
 * dumps: its stack and segment. */
static void
stack_row(const struct d9m_model *m, size_t i, uint32_t *st, uint32_t *seg)
{
	if (i < m->cpu.n) {
		*st = m->cpu.stack[i];
		*seg = m->cpu.seg[i];
	} else if ((i -= m->cpu.n) < m->allocs.n) {
		*st = m->allocs.stack[i];
		*seg = m->allocs.seg[i];
	} else {
		i -= m->allocs.n;
		*st = m->dumps.stack[i];
		*seg = m->dumps.seg[i];
	}
}

int
d9m_sym_stacks_derive(struct d9m_model *m)
{
	uint8_t *seen = calloc(m->stacks.n ? m->stacks.n : 1, 1);
	size_t n = 0;

	m->sym_stacks = malloc((m->stacks.n + 1) * sizeof *m->sym_stacks);
	if (seen == NULL || m->sym_stacks == NULL) {
		free(seen);
		return -1;
	}
	for (size_t i = 0; i < m->cpu.n + m->allocs.n + m->dumps.n; i++) {
		uint32_t st, seg;

		stack_row(m, i, &st, &seg);
		if (st >= m->stacks.n || seen[st])
			continue;
		seen[st] = 1;
		m->sym_stacks[n++] = (uint64_t)st << 32 | seg;
	}
	m->nsym_stacks = n;
	free(seen);
	return 0;
}
