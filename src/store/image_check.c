/*
 * image_check.c: see image_check.h. The columns of the tables are named
 * here by descriptor and column; the walk names the other arrays where
 * it maps them (image_walk.c).
 */
#include <stddef.h>
#include <string.h>

#include "base/hmap.h"
#include "base/search.h"
#include "store/image_check.h"
#include "model/core/tables.h"

#define ICK(d, T, f, to, fl)	{ &(d), offsetof(struct T, f), (to), (fl) }
#define NONE	D9I_ICK_NONE

/* The columns of the tables that hold rows or ids of another. */
static const struct colref {
	const struct d9m_tabdesc *d;
	size_t			 off;
	enum d9i_ick_to		 to;
	unsigned		 flags;
} refs[] = {
	ICK(d9m_desc_wakes, d9m_wakes, waker, D9I_TO_TASK, NONE),
	ICK(d9m_desc_wakes, d9m_wakes, woken, D9I_TO_TASK, NONE),
	ICK(d9m_desc_queue, d9m_queue, runtime, D9I_TO_STR, NONE),
	ICK(d9m_desc_tasks, d9m_tasks, loc, D9I_TO_STR, NONE),
	ICK(d9m_desc_tasks, d9m_tasks, group, D9I_TO_GROUP, NONE),
	ICK(d9m_desc_cpu, d9m_cpu, stack, D9I_TO_STACK, NONE),
	ICK(d9m_desc_cpu, d9m_cpu, seg, D9I_TO_SEG, 0),
	ICK(d9m_desc_dumps, d9m_dumps, task, D9I_TO_TASK, NONE),
	ICK(d9m_desc_dumps, d9m_dumps, stack, D9I_TO_STACK, NONE),
	ICK(d9m_desc_dumps, d9m_dumps, seg, D9I_TO_SEG, 0),
	ICK(d9m_desc_allocs, d9m_allocs, stack, D9I_TO_STACK, NONE),
	ICK(d9m_desc_allocs, d9m_allocs, seg, D9I_TO_SEG, 0),
	ICK(d9m_desc_overflow, d9m_overflow, seg, D9I_TO_SEG, 0),
	ICK(d9m_desc_spanev, d9m_spanev, tag, D9I_TO_SPANTAG, 0),
	ICK(d9m_desc_spantags, d9m_spantags, name, D9I_TO_STR, NONE),
	ICK(d9m_desc_spantags, d9m_spantags, fields, D9I_TO_LIST, NONE),
	ICK(d9m_desc_metrics, d9m_metrics, name, D9I_TO_STR, NONE),
	ICK(d9m_desc_metrics, d9m_metrics, unit, D9I_TO_STR, NONE),
	ICK(d9m_desc_msamples, d9m_msamples, metric, D9I_TO_METRIC, 0),
	ICK(d9m_desc_custom, d9m_custom, name, D9I_TO_STR, NONE),
	ICK(d9m_desc_custom, d9m_custom, fields, D9I_TO_LIST, NONE),
	ICK(d9m_desc_custom, d9m_custom, seg, D9I_TO_SEG, 0),
	ICK(d9m_desc_symbols, d9m_symbols, seg, D9I_TO_SEG, D9I_ICK_ASC),
	ICK(d9m_desc_symbols, d9m_symbols, name, D9I_TO_STR, NONE),
	ICK(d9m_desc_symbols, d9m_symbols, file, D9I_TO_STR, NONE),
	ICK(d9m_desc_maps, d9m_maps, seg, D9I_TO_SEG, 0),
	ICK(d9m_desc_maps, d9m_maps, path, D9I_TO_STR, NONE),
	ICK(d9m_desc_maps, d9m_maps, build_id, D9I_TO_STR, NONE),
	ICK(d9m_desc_clock, d9m_clock, seg, D9I_TO_SEG, 0),
	ICK(d9m_desc_meta, d9m_meta, seg, D9I_TO_SEG, 0),
	ICK(d9m_desc_meta, d9m_meta, key, D9I_TO_STR, NONE),
	ICK(d9m_desc_meta, d9m_meta, val, D9I_TO_STR, NONE),
	ICK(d9m_desc_segs, d9m_segs, input, D9I_TO_STR, NONE),
	ICK(d9m_desc_segs, d9m_segs, group, D9I_TO_GROUP, NONE),
	ICK(d9m_desc_groups, d9m_groups, service, D9I_TO_STR, NONE),
	ICK(d9m_desc_groups, d9m_groups, host, D9I_TO_STR, NONE),
	ICK(d9m_desc_groups, d9m_groups, boot, D9I_TO_STR, NONE),
	ICK(d9m_desc_polls, d9m_polls, task, D9I_TO_TASK, NONE),
	ICK(d9m_desc_polls, d9m_polls, loc, D9I_TO_STR, NONE),
	ICK(d9m_desc_periods, d9m_periods, worker, D9I_TO_SLOT, 0),
	/* worker columns hold rows of wids (ids.h) */
	ICK(d9m_desc_wids, d9m_wids, group, D9I_TO_GROUP, 0),
	ICK(d9m_desc_wakes, d9m_wakes, worker, D9I_TO_WID, 0),
	ICK(d9m_desc_tasks, d9m_tasks, spawn_worker, D9I_TO_WID, NONE),
	ICK(d9m_desc_cpu, d9m_cpu, wire_worker, D9I_TO_WID, 0),
	ICK(d9m_desc_spantags, d9m_spantags, worker, D9I_TO_WID, 0),
	ICK(d9m_desc_gaps, d9m_gaps, worker, D9I_TO_WID, 0),
};

unsigned
d9i_icheck_col(struct d9m_model *m, const struct d9m_tabref *t, size_t col,
    enum d9i_ick_to *to)
{
	const struct d9m_tabdesc *d = t->desc;
	size_t off = d->cols[col].off;

	/* the rows of one worker are searched by start */
	*to = t->tab == &m->polls && off == offsetof(struct d9m_polls, start) ?
	    D9I_TO_POLL_RUNS : t->tab == &m->parks &&
	    off == offsetof(struct d9m_periods, start) ? D9I_TO_PARK_RUNS :
	    t->tab == &m->actives && off == offsetof(struct d9m_periods,
	    start) ? D9I_TO_ACT_RUNS : D9I_TO_NOTHING;
	if (*to != D9I_TO_NOTHING)
		return D9I_ICK_ASC | D9I_ICK_RUNS;
	for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++)
		if (refs[i].d == d && refs[i].off == off) {
			*to = refs[i].to;
			return refs[i].flags;
		}
	return d->ts_off == off ? D9I_ICK_ASC : 0;
}

/* n as the bound of a u32 id (every id is below 2^32 rows). */
static uint64_t
u32_bound(uint64_t n)
{
	return n < UINT32_MAX ? n : UINT32_MAX;
}

uint64_t
d9i_icheck_bound(const struct d9m_model *m, enum d9i_ick_to to)
{
	switch (to) {
	case D9I_TO_NOTHING:	return UINT64_MAX;
	case D9I_TO_STR:	return m->strs.n;
	case D9I_TO_STACK:	return m->stacks.n;
	case D9I_TO_LIST:	return m->lists.n;
	case D9I_TO_TASK:	return m->tasks.n;
	case D9I_TO_SEG:	return m->segs.n;
	case D9I_TO_GROUP:	return m->groups.n;
	case D9I_TO_POLL:	return m->polls.n;
	case D9I_TO_CUSTOM:	return m->custom.n;
	case D9I_TO_METRIC:	return m->metrics.n;
	case D9I_TO_SLOT:	return m->nworkers;
	case D9I_TO_WID:	return m->wids.n;
	case D9I_TO_RTGROUP:	return m->nruntimes;
	case D9I_TO_SPAN:	return m->spans.n;
	case D9I_TO_WAKE:	return m->wakes.n;
	case D9I_TO_SYMBOL:	return m->symbols.n;
	case D9I_TO_SPANTAG:	return m->spantags.n;
	case D9I_TO_POLL_RUNS: case D9I_TO_PARK_RUNS: case D9I_TO_ACT_RUNS:
		return UINT64_MAX;
	case D9I_TO_STACK_SEG:	return u32_bound(m->stacks.n) << 32 |
				    u32_bound(m->segs.n);
	case D9I_TO_POLLS_ALL:	return m->polls.n + 1;
	case D9I_TO_WAKES_ALL:	return m->wakes.n + 1;
	case D9I_TO_SYMBOLS_ALL: return m->symbols.n + 1;
	}
	return 0;
}

/* The first row of a worker's in the table of runs: row i's worker's,
 * or (when i starts none) the next worker's. */
static size_t
first_row(const struct d9m_worker *k, uint8_t runs)
{
	return runs == D9I_TO_POLL_RUNS ? k->poll0 :
	    runs == D9I_TO_PARK_RUNS ? k->park0 : k->act0;
}

/* Whether row i starts a worker's rows in the table of runs (the
 * workers' rows follow each other: image_walk.c). */
struct run_key {
	const struct d9m_model	*m;
	uint8_t			 runs;
	uint64_t		 i;
};

static int
run_before(const void *ctx, size_t w)
{
	const struct run_key *k = ctx;

	return first_row(&k->m->workers[w], k->runs) < k->i;
}

static int
run_start(const struct d9m_model *m, uint8_t runs, uint64_t i)
{
	const struct run_key k = { m, runs, i };
	size_t lo = d9_partition(0, m->nworkers, &k, run_before);

	return lo < m->nworkers && first_row(&m->workers[lo], runs) == i;
}

/* Elements [i0, i1) of c, v at element i0 (i0 > 0 compares with the one
 * before, v[-1], which the caller's bytes hold). The value loops only
 * take the largest value, which vectorises: they read every index
 * column of the file, about as fast as the sum reads it. */
#define SCAN(T) do {							\
	const T *v = (const T *)(const void *)p;			\
	uint64_t bad = 0, b = c->bound, n = i1 - i0;			\
	T top = 0;							\
									\
	/* in order: a pass that only tells, then (a worker's rows begin	\
	 * lower than the last worker's end) one that finds */		\
	if (c->flags & D9I_ICK_ASC) {					\
		for (uint64_t i = i0 ? 0 : 1; i < n; i++)		\
			bad |= v[i] < v[(int64_t)i - 1];		\
		for (uint64_t i = i0 ? 0 : 1; bad && i < n; i++)	\
			if (v[i] < v[(int64_t)i - 1] && (!(c->flags &	\
			    D9I_ICK_RUNS) || !run_start(m, c->runs,	\
			    i0 + i)))					\
				return -1;				\
		bad = 0;						\
	}								\
	if (b == UINT64_MAX)						\
		return 0;						\
	if (c->flags & D9I_ICK_PAIR) {					\
		for (uint64_t i = 0; i < n; i++)			\
			bad |= ((uint64_t)v[i] >> 32 >= b >> 32) |	\
			    ((uint32_t)v[i] >= (uint32_t)b);		\
		return bad ? -1 : 0;					\
	}								\
	/* the largest value (+ 1 with a none: D9_NONE wraps to 0) */	\
	if ((c->flags & D9I_ICK_NONE) && sizeof(T) == 4) {		\
		for (uint64_t i = 0; i < n; i++) {			\
			T x = (T)(v[i] + 1);				\
			top = x > top ? x : top;			\
		}							\
		return top > b ? -1 : 0;				\
	}								\
	for (uint64_t i = 0; i < n; i++)				\
		if (!(c->flags & D9I_ICK_NONE) || v[i] != (T)D9_NONE)	\
			top = v[i] > top ? v[i] : top;			\
	return n > 0 && top >= b ? -1 : 0;				\
} while (0)

static int
scan(const struct d9m_model *m, const struct d9i_icheck *c, const uint8_t *p,
    uint64_t i0, uint64_t i1)
{
	switch (c->elem) {
	case 1: SCAN(uint8_t);
	case 4: SCAN(uint32_t);
	case 8: SCAN(uint64_t);
	}
	return -1;
}

struct end_key {
	const struct d9i_icheck	*c;
	uint64_t		 a;
};

/* Check i ends at or before a. */
static int
ends_before(const void *ctx, size_t i)
{
	const struct end_key *k = ctx;

	return k->c[i].off + k->c[i].n * k->c[i].elem <= k->a;
}

int
d9i_icheck_run(const struct d9m_model *m, const struct d9i_icheck *c,
    size_t n, const uint8_t *p, uint64_t a, uint64_t e)
{
	const struct end_key key = { c, a };
	/* the first check that ends after a */
	size_t lo = d9_partition(0, n, &key, ends_before);

	for (size_t k = lo; k < n && c[k].off < e; k++) {
		uint64_t from = a > c[k].off ? a : c[k].off;
		uint64_t end = c[k].off + c[k].n * c[k].elem, i0, i1;

		end = end < e ? end : e;
		/* each element is checked in the block holding its first
		 * byte (it may end in the next one's first bytes) */
		i0 = (from - c[k].off + c[k].elem - 1) / c[k].elem;
		i1 = (end - c[k].off + c[k].elem - 1) / c[k].elem;
		if (i0 < i1 && scan(m, &c[k], p + (c[k].off + i0 * c[k].elem -
		    a), i0, i1) < 0)
			return -1;
	}
	return 0;
}

static int
id_ok(uint32_t id, uint64_t n, int none)
{
	return id < n || (none && id == D9_NONE);
}

/* Whether worker row b's lane comes after a's: lanes are by (source,
 * id), strictly (d9m_worker_slot searches them). Both rows checked. */
static int
lane_after(const struct d9m_model *m, uint32_t a, uint32_t b)
{
	if (m->wids.group[a] != m->wids.group[b])
		return m->wids.group[a] < m->wids.group[b];
	return m->wids.own[a] < m->wids.own[b];
}

/* Workers: by (source, id) (searched), their groups and names (their
 * rows: the walk, image_walk.c). */
static int
workers_ok(const struct d9m_model *m)
{
	for (size_t s = 0; s < m->nworkers; s++) {
		const struct d9m_worker *w = &m->workers[s];

		if (!id_ok(w->id, m->wids.n, 0) || (s > 0 &&
		    !lane_after(m, m->workers[s - 1].id, w->id)) ||
		    w->group != m->wids.group[w->id] ||
		    w->own != m->wids.own[w->id] ||
		    !id_ok(w->runtime, m->strs.n, 1) ||
		    !id_ok(w->group, m->groups.n ? m->groups.n : 1, 0) ||
		    !id_ok(w->rtgroup, m->nruntimes, 0))
			return 0;
	}
	for (size_t g = 0; g < m->nruntimes; g++)
		if (!id_ok(m->runtimes[g].name, m->strs.n, 0))
			return 0;
	return 1;
}

/* Field lists: (key id << 32 | value id) pairs, both strings (or none,
 * where interning ran out of memory). */
static int
lists_ok(const struct d9m_model *m)
{
	for (size_t i = 0; i < m->lists.n; i++) {
		const uint8_t *p = (const uint8_t *)m->lists.blob[i];
		uint32_t len = m->lists.len[i];

		if (len % 8)
			return 0;
		for (uint32_t k = 0; k < len; k += 8) {
			uint64_t kv;

			memcpy(&kv, p + k, 8);
			if (!id_ok((uint32_t)(kv >> 32), m->strs.n, 1) ||
			    !id_ok((uint32_t)kv, m->strs.n, 1))
				return 0;
		}
	}
	return 1;
}

int
d9i_icheck_model(const struct d9m_model *m, const char **why)
{
	size_t nt = m->tasks.n;

	*why = "a column holds a row beyond its table";
	/* the span events of a model not sealed: an event of the 0.5
	 * dialect or single names its row of spanx */
	for (size_t i = 0; i < m->spanev.n; i++)
		if (!D9M_EV(m, legacy, i) && m->spanev.id[i] >= m->spanx.n)
			return -1;
	if (m->task_polls_off[nt + 1] != m->task_polls_off[nt] ||
	    m->task_polls_off[0] != 0 || m->wakes.by_woken_off[0] != 0 ||
	    !id_ok(m->spans.poll_row, m->polls.n, 1) ||
	    /* the poll with the most spans, when one has any (spans.c) */
	    (m->spans.poll_row == D9_NONE && (m->spans.poll_max > 0 ||
	    m->spans.polls_over20 > 0)) || !workers_ok(m))
		return -1;
	if (!lists_ok(m)) {
		*why = "a field list names no string";
		return -1;
	}
	return 0;
}
