/*
 * walk.c: see walk.h. The runtime events are read in time order, each
 * worker's walk kept in a state of its own, instead of through a list
 * of the rows grouped by worker (a u32 per event, 92 MB for the 23 M of
 * dir-116). A worker's rows come in the same order either way, so it
 * sees the same events; its polls, parks and active periods are counted
 * in a first walk and placed in a second, grouped by worker as before.
 */
#include <stdint.h>
#include <stdlib.h>

#include "base/pages.h"
#include "model/core/table.h"
#include "model/core/tables.h"
#include "model/core/timeline.h"
#include "model/core/walk.h"

struct open_poll {
	int		 open;
	size_t		 at;		/* its place in the start order */
	uint64_t	 start;
	uint32_t	 task, loc;
	uint8_t		 lq;
};

/* The polls' rows in the order their starts were walked (the placing
 * walk's): a row is listed when its poll starts, before it is known
 * whether it ends; one still open at the end is taken out again. */
struct starts {
	uint32_t	*row;
	size_t		 n;
};

/* What the walk of one worker knows so far. */
struct walk {
	struct open_poll op;
	int		 have_park, have_unpark;
	uint64_t	 park_ts, unpark_ts, unpark_cpu;
	/* its polls, parks and actives: counted, then the next row of
	 * each in its range */
	size_t		 npolls, nparks, nacts;
	/* gaps: its thread while unparked, the last one seen, when */
	uint32_t	 cur, last;
	uint64_t	 last_ts;
};

/* Gaps where a worker's OS thread changed (ANALYSIS 3), by start. */
static int
find_gaps(struct d9m_model *m, const uint32_t *slot, struct walk *wk)
{
	for (size_t r = 0; r < m->rt.n; r++) {
		uint32_t w = slot[m->rt.tag[r]], tid, expect;
		uint8_t kind = D9M_RT(m, kind, r);
		struct walk *k = &wk[w];

		if (w == D9_NONE || (kind != D9M_RT_PARK &&
		    kind != D9M_RT_UNPARK))
			continue;
		tid = m->parkinfo.tid[m->rt.a[r]];
		if (tid == D9_NONE)
			continue;
		expect = k->cur != D9_NONE ? k->cur : k->last;
		if (expect != D9_NONE && tid != expect) {
			size_t g = d9m_tab_push(&m->gaps, &d9m_desc_gaps);

			if (g == SIZE_MAX)
				return -1;
			m->gaps.worker[g] = m->workers[w].id;
			m->gaps.from_tid[g] = expect;
			m->gaps.to_tid[g] = tid;
			m->gaps.start[g] = k->last_ts;
			m->gaps.end[g] = m->rt.ts[r];
		}
		k->cur = kind == D9M_RT_UNPARK ? tid : D9_NONE;
		k->last = tid;
		k->last_ts = m->rt.ts[r];
	}
	return 0;
}

/* The gaps by worker, each worker's by start as found (d9m_in_gap). */
static int
sort_gaps(struct d9m_model *m)
{
	size_t n = m->gaps.n;
	uint64_t *key = malloc((n + 1) * sizeof *key);
	uint32_t *perm = malloc((n + 1) * sizeof *perm);
	int rc = -1;

	if (key != NULL && perm != NULL) {
		for (size_t g = 0; g < n; g++)
			key[g] = m->gaps.worker[g];
		if (d9m_sort_perm(key, n, perm) == 0 &&
		    d9m_tab_permute(&m->gaps, &d9m_desc_gaps, perm, n) == 0)
			rc = 0;
	}
	free(key);
	free(perm);
	return rc;
}

static void
put_period(struct d9m_periods *p, size_t r, uint32_t w, uint64_t start,
    uint64_t end)
{
	p->start[r] = start;
	p->end[r] = end;
	p->worker[r] = w;
	p->sched_wait[r] = D9M_ABSENT;
	p->ratio[r] = 0;
}

static void
emit_poll(struct d9m_model *m, uint32_t w, struct walk *k, uint64_t end,
    int open_ended, int place)
{
	size_t r = m->workers[w].poll0 + k->npolls++;

	k->op.open = 0;
	if (!place)
		return;
	m->polls.start[r] = k->op.start;
	m->polls.end[r] = end;
	m->polls.task[r] = k->op.task;
	m->polls.loc[r] = k->op.loc;
	m->polls.lq[r] = k->op.lq;
	m->polls.flags[r] = open_ended ? D9M_POLL_OPEN_ENDED : 0;
}

/* An active period [unpark, park] of worker w at its PARK row r. */
static void
emit_active(struct d9m_model *m, uint32_t w, struct walk *k, uint32_t r,
    int place)
{
	uint64_t ts = m->rt.ts[r], cpu = m->parkinfo.cpu_ns[m->rt.a[r]];
	size_t p = m->workers[w].act0 + k->nacts;

	k->have_unpark = 0;
	if (d9m_in_gap(m, m->workers[w].id, k->unpark_ts, ts))
		return;
	k->nacts++;
	if (!place)
		return;
	put_period(&m->actives, p, w, k->unpark_ts, ts);
	if (ts == k->unpark_ts)
		m->actives.ratio[p] = 1.0;
	else {
		double r8 = (double)(int64_t)(cpu - k->unpark_cpu) /
		    (double)(ts - k->unpark_ts);

		m->actives.ratio[p] = r8 > 1 ? 1 : r8;
	}
}

/* ANALYSIS 2: row r of worker w; place (bs): write the rows counted
 * before, and list the polls' rows as they start. */
static void
step(struct d9m_model *m, uint32_t w, struct walk *k, uint32_t r,
    struct starts *bs)
{
	int place = bs != NULL;
	uint64_t ts = m->rt.ts[r];
	uint32_t a = m->rt.a[r];

	switch (D9M_RT(m, kind, r)) {
	case D9M_RT_POLL_START:
		if (k->op.open)
			emit_poll(m, w, k, ts, 1, place);
		k->op.open = 1;
		k->op.start = ts;
		if (place) {	/* the row it gets when it is emitted */
			k->op.at = bs->n;
			bs->row[bs->n++] = (uint32_t)(m->workers[w].poll0 +
			    k->npolls);
		}
		k->op.task = m->taskloc.task[a];
		k->op.loc = m->taskloc.loc[a];
		k->op.lq = D9M_RT(m, lq, r);
		break;
	case D9M_RT_POLL_END:
		if (k->op.open)
			emit_poll(m, w, k, ts, 0, place);
		break;
	case D9M_RT_PARK:
		if (k->op.open)
			emit_poll(m, w, k, ts, 1, place);
		k->have_park = 1;
		k->park_ts = ts;
		if (k->have_unpark)
			emit_active(m, w, k, r, place);
		break;
	case D9M_RT_UNPARK:
		if (k->have_park) {
			size_t p = m->workers[w].park0 + k->nparks++;

			if (place) {
				put_period(&m->parks, p, w, k->park_ts, ts);
				m->parks.sched_wait[p] =
				    m->parkinfo.sched_wait[a];
			}
			k->have_park = 0;
		}
		k->have_unpark = 1;
		k->unpark_ts = ts;
		k->unpark_cpu = m->parkinfo.cpu_ns[a];
		break;
	}
}

/* Rows walked between releases of what the last walk has read. */
#define SPENT_STEP	(1u << 18)

/*
 * The pages of col wholly in its first bytes go back to the system, from
 * *done (NULL: col's start) on: nothing reads them again. The
 * last finishing drops the runtime events' tags and row pointers once the
 * workers are walked; their pages go as the placing walk passes them,
 * while it fills the polls, at the finishing's peak.
 */
static void
release_spent(const void *col, size_t bytes, const void **done)
{
	const char *from = *done != NULL ? *done : col;
	const char *end = (const char *)col + bytes;

	if (end > from)
		*done = d9_pages_drop_whole(from, (size_t)(end - from));
}

/* Walk every worker's rows; bs: the second walk, placing. */
static void
walk_all(struct d9m_model *m, const uint32_t *slot, struct walk *wk,
    struct starts *bs)
{
	int place = bs != NULL;
	const void *tag_done = NULL, *a_done = NULL;

	for (size_t w = 0; w < m->nworkers; w++) {
		wk[w] = (struct walk){ .cur = D9_NONE, .last = D9_NONE };
		if (!place)
			m->workers[w].poll0 = m->workers[w].park0 =
			    m->workers[w].act0 = 0;
	}
	for (size_t r = 0; r < m->rt.n; r++) {
		uint32_t w = slot[m->rt.tag[r]];

		if (w != D9_NONE)
			step(m, w, &wk[w], (uint32_t)r, bs);
		if (place && m->last && (r + 1) % SPENT_STEP == 0) {
			release_spent(m->rt.tag, (r + 1) * sizeof *m->rt.tag,
			    &tag_done);
			release_spent(m->rt.a, (r + 1) * sizeof *m->rt.a,
			    &a_done);
		}
	}
	for (size_t w = 0; w < m->nworkers; w++) {
		if (wk[w].have_park) {
			size_t p = m->workers[w].park0 + wk[w].nparks++;

			if (place)
				put_period(&m->parks, p, w, wk[w].park_ts,
				    m->max_ts);
		}
		if (place && wk[w].op.open)	/* never emitted */
			bs->row[wk[w].op.at] = UINT32_MAX;
		m->workers[w].npolls = wk[w].npolls;
		m->workers[w].nparks = wk[w].nparks;
		m->workers[w].nacts = wk[w].nacts;
	}
}

/* Size the tables for the rows counted, each worker's range after the
 * previous one's. */
static int
place_ranges(struct d9m_model *m)
{
	size_t np = 0, nk = 0, na = 0;

	for (size_t w = 0; w < m->nworkers; w++) {
		struct d9m_worker *x = &m->workers[w];

		x->poll0 = np;
		x->park0 = nk;
		x->act0 = na;
		np += x->npolls;
		nk += x->nparks;
		na += x->nacts;
	}
	if (d9m_tab_reserve(&m->polls, &d9m_desc_polls, np) < 0 ||
	    d9m_tab_reserve(&m->parks, &d9m_desc_periods, nk) < 0 ||
	    d9m_tab_reserve(&m->actives, &d9m_desc_periods, na) < 0)
		return -1;
	m->polls.n = np;
	m->parks.n = nk;
	m->actives.n = na;
	return 0;
}

/* Polls starting at one time: a few of several workers, sorted by
 * insertion; more (only a forged trace has them) by qsort. */
#define TIES_FEW	16

static int
row_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * bs's rows of polls that were emitted, in the order of their starts,
 * stable by row where starts are equal (as sorting the rows by start
 * would give them): the walk met equal starts of several workers in the
 * order their events came, not by row.
 */
static void
starts_order(const struct d9m_model *m, struct starts *bs)
{
	const uint64_t *start = m->polls.start;
	size_t n = 0;

	for (size_t i = 0; i < bs->n; i++)
		if (bs->row[i] != UINT32_MAX)
			bs->row[n++] = bs->row[i];
	bs->n = n;
	for (size_t i = 0; i < n; ) {
		size_t j = i + 1;

		while (j < n && start[bs->row[j]] == start[bs->row[i]])
			j++;
		if (j - i > TIES_FEW)	/* a forged trace's */
			qsort(bs->row + i, j - i, sizeof *bs->row, row_cmp);
		else
			for (size_t a = i + 1; a < j; a++)
				for (size_t b = a; b > i &&
				    bs->row[b] < bs->row[b - 1]; b--) {
					uint32_t t = bs->row[b];

					bs->row[b] = bs->row[b - 1];
					bs->row[b - 1] = t;
				}
		i = j;
	}
}

int
d9m_walk_workers(struct d9m_model *m, uint32_t **by_start)
{
	uint32_t *slot = malloc((m->rttags.n + 1) * sizeof *slot);
	struct walk *wk = malloc((m->nworkers + 1) * sizeof *wk);
	struct starts bs = { NULL, 0 };
	int rc = -1;

	if (slot == NULL || wk == NULL)
		goto out;
	/* the worker slot of each tag */
	for (size_t t = 0; t < m->rttags.n; t++)
		slot[t] = d9m_worker_slot(m, m->rttags.worker[t]);
	for (size_t w = 0; w < m->nworkers; w++)
		wk[w] = (struct walk){ .cur = D9_NONE, .last = D9_NONE };
	/* every gap first: an active period that overlaps one is left out */
	if (find_gaps(m, slot, wk) < 0 || sort_gaps(m) < 0)
		goto out;
	walk_all(m, slot, wk, NULL);
	/* at most one poll of each worker starts and is never emitted */
	if (place_ranges(m) < 0 || (bs.row = d9_pages_alloc((m->polls.n +
	    m->nworkers + 1) * sizeof *bs.row)) == NULL)
		goto out;
	walk_all(m, slot, wk, &bs);
	starts_order(m, &bs);
	*by_start = bs.row;
	bs.row = NULL;
	rc = 0;
out:
	free(bs.row);
	free(slot);
	free(wk);
	return rc;
}
