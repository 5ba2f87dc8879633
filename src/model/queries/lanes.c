/*
 * lanes.c: see lanes.h. Everything here is a pure function of a finished
 * model; the model is never written.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/search.h"
#include "base/intern.h"
#include "model/core/model.h"
#include "model/core/table.h"
#include "model/queries/worst.h"
#include "base/vec.h"
#include "model/queries/lanes.h"

static uint64_t
dur(const struct d9m_model *m, size_t p)
{
	return m->polls.end[p] - m->polls.start[p];
}

/* Sorting context-free: keys packed with the row. */
struct kv {
	uint64_t	k1, k2;
	uint32_t	row;
};

static int
cmp_kv(const void *x, const void *y)
{
	const struct kv *a = x, *b = y;

	if (a->k1 != b->k1)
		return a->k1 < b->k1 ? -1 : 1;
	if (a->k2 != b->k2)
		return a->k2 < b->k2 ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

static int
lanes(const struct d9m_model *m, struct d9m_lanes *ix)
{
	size_t nb = 0;

	/* zeroed: the slot past the last worker's is written to the index
	 * too (an entry's bytes are the same each time it is written) */
	ix->busy = calloc(m->polls.n + m->nworkers + 1, sizeof *ix->busy);
	ix->boff = malloc((m->nworkers + 1) * sizeof *ix->boff);
	if (ix->busy == NULL || ix->boff == NULL)
		return -1;
	for (size_t w = 0; w < m->nworkers; w++) {
		ix->boff[w] = nb;
		nb += (m->workers[w].npolls + D9M_BLOCK - 1) / D9M_BLOCK;
	}
	ix->boff[m->nworkers] = nb;
	ix->bmax = calloc(nb ? nb : 1, sizeof *ix->bmax);
	if (ix->bmax == NULL)
		return -1;
	for (size_t w = 0; w < m->nworkers; w++) {
		const struct d9m_worker *wk = &m->workers[w];
		uint64_t *b = ix->busy + wk->poll0 + w, sum = 0;

		for (size_t i = 0; i < wk->npolls; i++) {
			uint64_t d = dur(m, wk->poll0 + i);
			uint64_t *mx = &ix->bmax[ix->boff[w] + i / D9M_BLOCK];

			b[i] = sum;
			sum += d;
			if (d > *mx)
				*mx = d;
		}
		b[wk->npolls] = sum;
	}
	return 0;
}

static int
orders(const struct d9m_model *m, struct d9m_lanes *ix)
{
	size_t n = m->polls.n, nl = 0;
	uint32_t *by_start = malloc((n ? n : 1) * sizeof *by_start);

	/* by start, equal starts by row: the radix sort is stable */
	if (by_start == NULL || d9m_polls_by_dur(m, &ix->by_dur) < 0 ||
	    d9m_sort_perm(m->polls.start, n, by_start) < 0) {
		free(by_start);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		nl += dur(m, i) > 1000000;
	ix->longp = malloc((nl ? nl : 1) * sizeof *ix->longp);
	if (ix->longp == NULL) {
		free(by_start);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (dur(m, by_start[i]) > 1000000)
			ix->longp[ix->nlong++] = by_start[i];
	free(by_start);
	return 0;
}

static int
active_series(const struct d9m_model *m, struct d9m_lanes *ix)
{
	const struct d9m_tasks *t = &m->tasks;
	struct kv *k = malloc((2 * t->n + 1) * sizeof *k);
	size_t n = 0, pre = 0;
	long long run;

	if (k == NULL)
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		if (t->flags[i] & D9M_TASK_SPAWNED) {
			k[n].k1 = t->spawn_ts[i];
			k[n].k2 = 0;
			k[n++].row = 1;
		}
		if (t->flags[i] & D9M_TASK_TERMINATED) {
			k[n].k1 = t->term_ts[i];
			k[n].k2 = 1;
			k[n++].row = 0;
			pre += !(t->flags[i] & D9M_TASK_SPAWNED);
		}
	}
	qsort(k, n, sizeof *k, cmp_kv);
	ix->act_ts = malloc((n + 1) * sizeof *ix->act_ts);
	ix->act_val = malloc((n + 1) * sizeof *ix->act_val);
	if (ix->act_ts == NULL || ix->act_val == NULL) {
		free(k);
		return -1;
	}
	ix->nact = 0;
	if (pre > 0 && n > 0) {	/* alive before the trace: taskLeak's rule */
		ix->act_ts[0] = 0;
		ix->act_val[0] = (uint32_t)pre;
		ix->nact = 1;
	}
	run = (long long)pre;
	for (size_t i = 0; i < n; i++) {
		run += k[i].row ? 1 : -1;
		ix->act_ts[ix->nact] = k[i].k1;
		ix->act_val[ix->nact++] = run > 0 ? (uint32_t)run : 0;
	}
	free(k);
	return 0;
}

struct d9m_lanes *
d9m_lanes_build(const struct d9m_model *m)
{
	struct d9m_lanes *ix = calloc(1, sizeof *ix);

	if (ix == NULL)
		return NULL;
	if (lanes(m, ix) < 0 || orders(m, ix) < 0 || active_series(m, ix) < 0)
		d9m_lanes_free(&ix);
	return ix;
}

void
d9m_lanes_free(struct d9m_lanes **pix)
{
	struct d9m_lanes *ix = *pix;

	if (ix == NULL)
		return;
	if (ix->mapped) {
		free(ix);
		*pix = NULL;
		return;
	}
	free(ix->busy);
	free(ix->bmax);
	free(ix->boff);
	free(ix->by_dur);
	free(ix->longp);
	free(ix->act_ts);
	free(ix->act_val);
	free(ix);
	*pix = NULL;
}

size_t
d9m_first_poll(const struct d9m_model *m, uint32_t w, uint64_t ts)
{
	const struct d9m_worker *wk = &m->workers[w];

	/* polls of a lane do not overlap: ends are sorted like starts */
	return wk->poll0 + d9m_lower(d9m_row(m->polls.end, wk->poll0),
	    wk->npolls, ts);
}

/* The busy ns of slot w in [a, b) from its rows i (the first ending at
 * or after a, starting before b) to j (the first starting at or after
 * b). */
static uint64_t
busy_rows(const struct d9m_model *m, const struct d9m_lanes *ix, uint32_t w,
    size_t i, size_t j, uint64_t a, uint64_t b)
{
	const struct d9m_worker *wk = &m->workers[w];
	const uint64_t *busy = ix->busy + wk->poll0 + w;
	uint64_t sum = busy[j - wk->poll0] - busy[i - wk->poll0];

	if (m->polls.start[i] < a)
		sum -= a - m->polls.start[i];
	if (m->polls.end[j - 1] > b)
		sum -= m->polls.end[j - 1] - b;
	return sum;
}

/* The longest of rows [i, j) of slot w, the first of them when several
 * are as long: the rows before the first whole block and after the last
 * one are read, the whole blocks only through their maxima, then the
 * one block that holds the longest: O(cell / 64 + 3 * 64) reads. */
static uint32_t
longest_rows(const struct d9m_model *m, const struct d9m_lanes *ix,
    uint32_t w, size_t i, size_t j)
{
	const struct d9m_worker *wk = &m->workers[w];
	const uint64_t *bmax = ix->bmax + ix->boff[w];
	/* the whole blocks: rows [b0, b1) */
	size_t b0 = wk->poll0 + (i - wk->poll0 + D9M_BLOCK - 1) / D9M_BLOCK *
	    D9M_BLOCK, b1 = wk->poll0 + (j - wk->poll0) / D9M_BLOCK * D9M_BLOCK;
	uint64_t best = 0;
	size_t r, blk = SIZE_MAX;

	if (i >= j)
		return D9_NONE;
	if (b0 >= b1)
		b0 = b1 = j;	/* no whole block: every row is read */
	for (r = i; r < b0; r++)
		best = dur(m, r) > best ? dur(m, r) : best;
	for (r = b0; r < b1; r += D9M_BLOCK)
		if (blk == SIZE_MAX || bmax[(r - wk->poll0) / D9M_BLOCK] >
		    bmax[(blk - wk->poll0) / D9M_BLOCK])
			blk = r;
	if (blk != SIZE_MAX && bmax[(blk - wk->poll0) / D9M_BLOCK] > best)
		best = bmax[(blk - wk->poll0) / D9M_BLOCK];
	for (r = b1; r < j; r++)
		best = dur(m, r) > best ? dur(m, r) : best;
	/* the first row that long: before the blocks, in the first block
	 * of that maximum, or after them */
	for (r = i; r < b0; r++)
		if (dur(m, r) == best)
			return (uint32_t)r;
	if (blk != SIZE_MAX && bmax[(blk - wk->poll0) / D9M_BLOCK] == best)
		for (r = blk; r < blk + D9M_BLOCK; r++)
			if (dur(m, r) == best)
				return (uint32_t)r;
	for (r = b1; r < j; r++)
		if (dur(m, r) == best)
			return (uint32_t)r;
	return (uint32_t)i;	/* not reached: some row is that long */
}

uint64_t
d9m_busy(const struct d9m_model *m, const struct d9m_lanes *ix, uint32_t w,
    uint64_t a, uint64_t b)
{
	const struct d9m_worker *wk = &m->workers[w];
	size_t i = d9m_first_poll(m, w, a), j, end = wk->poll0 + wk->npolls;

	if (i >= end || m->polls.start[i] >= b)
		return 0;
	j = d9m_lower(d9m_row(m->polls.start, i), end - i, b) + i;	/* first >= b */
	return busy_rows(m, ix, w, i, j, a, b);
}

uint32_t
d9m_longest(const struct d9m_model *m, const struct d9m_lanes *ix,
    uint32_t w, uint64_t a, uint64_t b)
{
	const struct d9m_worker *wk = &m->workers[w];
	size_t i = d9m_first_poll(m, w, a), end = wk->poll0 + wk->npolls, j;

	if (i >= end || m->polls.start[i] >= b)
		return D9_NONE;
	j = d9m_lower(d9m_row(m->polls.start, i), end - i, b) + i;
	return longest_rows(m, ix, w, i, j);
}

/* The first of rows [lo, hi) of ascending v at or above key, hi when
 * none, found from lo by doubling steps: O(log of the distance). */
static size_t
gallop(const uint64_t *v, size_t lo, size_t hi, uint64_t key)
{
	size_t at = lo, step = 1, top;

	if (lo >= hi || v[lo] >= key)
		return lo;
	/* v[at] < key */
	while (at + step < hi && v[at + step] < key) {
		at += step;
		step *= 2;
	}
	top = at + step < hi ? at + step + 1 : hi;
	return at + 1 + d9m_lower(v + at + 1, top - at - 1, key);
}

void
d9m_lane_cells(const struct d9m_model *m, const struct d9m_lanes *ix,
    uint32_t w, const uint64_t *edges, size_t ncols, uint64_t *busy,
    uint64_t *longest)
{
	const struct d9m_worker *wk = &m->workers[w];
	size_t i = wk->poll0, j = wk->poll0, end = wk->poll0 + wk->npolls;
	size_t step = 0;	/* rows the last column held */

	for (size_t c = 0; c < ncols; c++) {
		uint64_t a = edges[c], b = edges[c + 1];
		size_t lo, at;
		uint32_t p;

		busy[c] = longest[c] = 0;
		if (wk->npolls == 0)
			continue;
		/* both bounds only move on as the edges do; ends are sorted:
		 * when the row before the last column's end ends before a,
		 * every row before it does, and the search starts there */
		lo = j > i && m->polls.end[j - 1] < a ? j : i;
		i = gallop(m->polls.end, lo, end, a);
		if (i >= end || m->polls.start[i] >= b)
			continue;
		/* columns are alike: this one likely holds as many rows as
		 * the last, so the search starts where that puts its end,
		 * backwards when that is past it */
		lo = j > i ? j : i;
		at = lo + step < end ? lo + step : end;
		if (at > lo && m->polls.start[at - 1] >= b)
			at = lo + d9m_lower(m->polls.start + lo, at - lo, b);
		else
			at = gallop(m->polls.start, at, end, b);
		step = at - lo;
		j = at;
		busy[c] = busy_rows(m, ix, w, i, j, a, b);
		if (busy[c] > 0 && (p = longest_rows(m, ix, w, i, j)) !=
		    D9_NONE)
			longest[c] = dur(m, p);
	}
}

uint32_t
d9m_active_at(const struct d9m_lanes *ix, uint64_t ts)
{
	size_t i = d9m_lower(ix->act_ts, ix->nact, ts + 1);

	return i ? ix->act_val[i - 1] : 0;
}

void
d9m_lane_filtered(const struct d9m_model *m, uint32_t w, uint32_t loc,
    uint32_t t, const uint64_t *edges, size_t ncols, uint64_t *busy,
    uint64_t *longest)
{
	const struct d9m_worker *wk = &m->workers[w];
	size_t end = wk->poll0 + wk->npolls;

	memset(busy, 0, ncols * sizeof *busy);
	memset(longest, 0, ncols * sizeof *longest);
	if (ncols == 0)
		return;
	for (size_t i = d9m_first_poll(m, w, edges[0]); i < end &&
	    m->polls.start[i] < edges[ncols]; i++) {
		uint64_t st = m->polls.start[i], en = m->polls.end[i];
		size_t c = d9_bisect_u64(edges, 0, ncols + 1, st + 1);

		if ((loc != D9_NONE && m->polls.loc[i] != loc) ||
		    (t != D9_NONE && m->polls.task[i] != t))
			continue;
		for (c = c > 0 ? c - 1 : 0; c < ncols && edges[c] <= en; c++) {
			uint64_t a = st > edges[c] ? st : edges[c];
			uint64_t b = en < edges[c + 1] ? en : edges[c + 1];

			if (b > a)
				busy[c] += b - a;
			if (en - st > longest[c])
				longest[c] = en - st;
			if (longest[c] == 0)
				longest[c] = 1;
		}
	}
}
