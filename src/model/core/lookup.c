/*
 * lookup.c: the model's look-ups by id, row and time on a finished
 * model (declared in model.h): worker slots, the poll at a time, a
 * thread's worker, metadata, rows of one model in another, whether its
 * columns are mapped.
 */
#include <string.h>

#include "base/search.h"
#include "base/vec.h"
#include "model/core/model.h"
#include "model/core/pairs.h"
#include "model/core/table.h"

/* A lane, a worker id or a gap sought by (group or worker, value). */
struct at {
	const struct d9m_model	*m;
	uint32_t		 g;
	uint64_t		 x;
};

static int
lane_before(const void *ctx, size_t i)
{
	const struct at *q = ctx;
	const struct d9m_worker *w = &q->m->workers[i];

	return w->group < q->g || (w->group == q->g && w->own < q->x);
}

uint32_t
d9m_worker_slot_of(const struct d9m_model *m, uint32_t g, uint64_t own)
{
	const struct at q = { m, g, own };
	size_t lo = d9_partition(0, m->nworkers, &q, lane_before);

	return lo < m->nworkers && m->workers[lo].group == g &&
	    m->workers[lo].own == own ? (uint32_t)lo : D9_NONE;
}

uint32_t
d9m_worker_slot(const struct d9m_model *m, uint32_t id)
{
	if (id >= m->wids.n)
		return D9_NONE;
	return d9m_worker_slot_of(m, m->wids.group[id], m->wids.own[id]);
}

static int
lane_starts_by(const void *ctx, size_t i)
{
	const struct at *q = ctx;

	return q->m->workers[i].poll0 <= q->x;
}

uint32_t
d9m_poll_worker(const struct d9m_model *m, size_t p)
{
	const struct at q = { m, 0, p };
	/* the last lane starting at or before p: the ranges follow each
	 * other, the empty ones included */
	size_t lo = d9_partition(0, m->nworkers, &q, lane_starts_by);

	return lo > 0 ? (uint32_t)(lo - 1) : 0;
}

uint32_t
d9m_poll_worker_id(const struct d9m_model *m, size_t p)
{
	return m->workers[d9m_poll_worker(m, p)].id;
}

const char *
d9m_meta_get(const struct d9m_model *m, const char *key)
{
	uint32_t k = d9_intern_find(&m->strs, key, strlen(key));

	if (k == D9_NONE)
		return NULL;
	for (size_t i = m->meta.n; i-- > 0; )
		if (m->meta.key[i] == k)
			return d9m_str(m, m->meta.val[i]);
	return NULL;
}

uint32_t
d9m_lane_remap(const struct d9m_model *o, const struct d9m_model *n,
    uint32_t s)
{
	return d9m_worker_slot_of(n, o->workers[s].group, o->workers[s].own);
}

uint32_t
d9m_str_remap(const struct d9m_model *o, const struct d9m_model *n,
    uint32_t s)
{
	uint32_t len;
	const char *p;

	if (s >= o->strs.n)
		return D9_NONE;
	p = d9_intern_str(&o->strs, s, &len);
	return d9_intern_find(&n->strs, p, len);
}

uint32_t
d9m_task_remap(const struct d9m_model *o, const struct d9m_model *n,
    uint32_t t)
{
	return t < o->tasks.n ? d9m_task_find(n, o->tasks.id[t]) : D9_NONE;
}

uint32_t
d9m_poll_remap(const struct d9m_model *o, const struct d9m_model *n, uint32_t p)
{
	uint32_t w;
	uint64_t t;
	size_t lo, hi;

	if (p == D9_NONE || p >= o->polls.n ||
	    (w = d9m_lane_remap(o, n, d9m_poll_worker(o, p))) == D9_NONE)
		return D9_NONE;
	t = o->polls.start[p];
	lo = n->workers[w].poll0;
	hi = lo + n->workers[w].npolls;
	lo += d9_bisect_u64(d9m_row(n->polls.start, lo), 0, hi - lo, t);
	return lo < n->polls.n && n->polls.start[lo] == t &&
	    d9m_poll_worker(n, lo) == w ? (uint32_t)lo : D9_NONE;
}

uint32_t
d9m_poll_at(const struct d9m_model *m, uint32_t w, uint64_t ts)
{
	const struct d9m_worker *wk;
	size_t lo, hi;

	if (w >= m->nworkers)
		return D9_NONE;
	wk = &m->workers[w];
	lo = wk->poll0;
	hi = wk->poll0 + wk->npolls;
	lo = d9_upper_u64(m->polls.start, lo, hi, ts);
	return lo > wk->poll0 ? (uint32_t)(lo - 1) : D9_NONE;
}

static int
gap_before(const void *ctx, size_t i)
{
	const struct at *q = ctx;
	const struct d9m_gaps *g = &q->m->gaps;

	return g->worker[i] < q->g || (g->worker[i] == q->g &&
	    g->start[i] < q->x);
}

int
d9m_in_gap(const struct d9m_model *m, uint32_t wid, uint64_t a, uint64_t b)
{
	const struct d9m_gaps *g = &m->gaps;
	const struct at q = { m, wid, b };
	/* the last gap of wid that starts before b: a worker's gaps follow
	 * each other, so only it may reach past a */
	size_t lo = d9_partition(0, g->n, &q, gap_before);

	return lo > 0 && g->worker[lo - 1] == wid && g->end[lo - 1] > a;
}

/* Where gap row g of worker slot w blocked in place: from the start of
 * the open-ended poll the hand-off ended (the poll that called
 * block_in_place: the worker's next event came from another thread) to
 * the gap's end; UINT64_MAX when no such poll is there. */
static uint64_t
in_place_start(const struct d9m_model *m, uint32_t w, size_t g)
{
	uint64_t end = m->gaps.end[g];
	uint32_t p = end > 0 ? d9m_poll_at(m, w, end - 1) : D9_NONE;

	if (p == D9_NONE || !(m->polls.flags[p] & D9M_POLL_OPEN_ENDED) ||
	    m->polls.end[p] < end)
		return UINT64_MAX;
	return m->polls.start[p] > m->gaps.start[g] ? m->polls.start[p] :
	    m->gaps.start[g];
}

int
d9m_in_place(const struct d9m_model *m, uint32_t w, uint64_t a, uint64_t b)
{
	const struct d9m_gaps *g = &m->gaps;
	uint32_t wid = m->workers[w].id;
	const struct at q = { m, wid, b };
	size_t lo = d9_partition(0, g->n, &q, gap_before);

	/* a worker's gaps follow each other: back while they reach a */
	for (; lo > 0 && g->worker[lo - 1] == wid && g->end[lo - 1] > a; lo--)
		if (in_place_start(m, w, lo - 1) < b)
			return 1;
	return 0;
}


uint32_t
d9m_tid_worker(const struct d9m_model *m, uint32_t tid, uint32_t def)
{
	return d9m_pairs_get(m->tidmap_tid, m->tidmap_worker, m->tidmap_n, tid,
	    def);
}

int
d9m_model_mapped(const struct d9m_model *m)
{
	return m->backing.free != NULL;
}
