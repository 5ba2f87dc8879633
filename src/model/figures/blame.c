/*
 * blame.c: see blame.h. A worker's polls do not overlap and are sorted by
 * start, so the polls overlapping an interval are a run found by one
 * search; a wait is under a second (ANALYSIS 5.1), so the polls whose
 * waits can overlap P start within a second of its end.
 */
#include "model/figures/blame.h"
#include "model/queries/lanes.h"
#include "model/queries/window.h"

#define MAX_WAIT	1000000000ull	/* longest scheduling delay kept */

static uint64_t
overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

static int
has_wait(const struct d9m_model *m, size_t q)
{
	uint64_t d = m->poll_sched[q];

	return d != D9M_SCHED_NONE && d != D9M_SCHED_NO_WAKE && d > 0;
}

/* Whether worker slot w was parked at some time in [a, b). */
static int
parked(const struct d9m_model *m, uint32_t w, uint64_t a, uint64_t b)
{
	const struct d9m_worker *wk = &m->workers[w];
	size_t i = d9m_lower(d9m_row(m->parks.start, wk->park0), wk->nparks,
	    b);

	/* the last park starting before b */
	return i > 0 && m->parks.end[wk->park0 + i - 1] > a;
}

void
d9m_held_by(const struct d9m_model *m, uint32_t p, struct d9m_held *h)
{
	uint32_t w = d9m_poll_worker(m, p);
	uint64_t tp = m->polls.start[p], tw;
	size_t end;

	h->why = D9M_HELD_ELSEWHERE;
	h->poll = D9_NONE;
	h->overlap = 0;
	if (w == D9_NONE || !has_wait(m, p))
		return;
	tw = tp - m->poll_sched[p];
	end = m->workers[w].poll0 + m->workers[w].npolls;
	for (size_t q = d9m_first_poll(m, w, tw); q < end &&
	    m->polls.start[q] < tp; q++) {
		uint64_t o = overlap(m->polls.start[q], m->polls.end[q], tw, tp);

		if (q == p || m->polls.task[q] == m->polls.task[p] || o == 0)
			continue;
		if (o > h->overlap) {
			h->overlap = o;
			h->poll = (uint32_t)q;
		}
	}
	if (h->poll != D9_NONE)
		h->why = D9M_HELD_POLL;
	else if (parked(m, w, tw, tp))
		h->why = D9M_HELD_PARKED;
}

void
d9m_delayed_by(const struct d9m_model *m, uint32_t p, struct d9m_delayed *d,
    uint32_t *polls, size_t max)
{
	uint32_t w = d9m_poll_worker(m, p);
	uint64_t s = m->polls.start[p], e = m->polls.end[p];
	size_t end;

	d->tasks = 0;
	d->total = 0;
	if (w == D9_NONE)
		return;
	end = m->workers[w].poll0 + m->workers[w].npolls;
	for (size_t q = p + 1; q < end && m->polls.start[q] <= e + MAX_WAIT;
	    q++) {
		uint64_t o;

		if (!has_wait(m, q) || m->polls.task[q] == m->polls.task[p])
			continue;
		o = overlap(s, e, m->polls.start[q] - m->poll_sched[q],
		    m->polls.start[q]);
		if (o == 0)
			continue;
		if (polls != NULL && d->tasks < max)
			polls[d->tasks] = (uint32_t)q;
		d->tasks++;
		d->total += o;
	}
}
