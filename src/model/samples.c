/*
 * samples.c: see samples.h. The rates are read once per finished model;
 * a window's live set sorts the frees of the window by (address,
 * allocation time) and looks each allocation up in them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/wire.h"
#include "model/samples.h"
#include "model/table.h"
#include "model/timeline.h"
#include "model/window.h"

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
	return 0;
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
	uint64_t	addr, ts;
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
d9m_alloc_live(const struct d9m_model *m, const struct d9m_window *w,
    size_t *a0, size_t *a1, uint8_t **live)
{
	struct fkey *fk;
	size_t f0, f1, nf = 0;

	*live = NULL;
	d9m_window_rows(m->frees.ts, m->frees.n, w, &f0, &f1);
	d9m_window_rows(m->allocs.ts, m->allocs.n, w, a0, a1);
	fk = malloc((f1 - f0 + 1) * sizeof *fk);
	*live = malloc(*a1 - *a0 + 1);
	if (fk == NULL || *live == NULL) {
		free(fk);
		free(*live);
		*live = NULL;
		return -1;
	}
	for (size_t i = f0; i < f1; i++) {
		fk[nf].addr = m->frees.addr[i];
		fk[nf++].ts = m->frees.alloc_ts[i];
	}
	qsort(fk, nf, sizeof *fk, cmp_fkey);
	for (size_t i = *a0; i < *a1; i++) {
		struct fkey k = { m->allocs.addr[i], m->allocs.ts[i] };

		(*live)[i - *a0] = bsearch(&k, fk, nf, sizeof *fk,
		    cmp_fkey) == NULL;
	}
	free(fk);
	return 0;
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
