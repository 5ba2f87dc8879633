/*
 * sched.c: the scheduling delay of every poll (ANALYSIS 5.1, stale wakes
 * excluded, 15 #8), derived once per finished model into m->poll_sched.
 */
#include <stdlib.h>

#include "base/pages.h"
#include "model/core/sched.h"

/* What the walk by time knows of a task. */
struct task_state {
	uint64_t	wake;		/* its last wake so far, D9M_ABSENT */
	uint64_t	ref_from;	/* dial9's effective wake of it */
	uint64_t	prev_start, prev_end;	/* its previous poll */
	int		polled;		/* it has a previous poll */
};

/* dial9's rule: from the last wake before the poll, or from the end of
 * the task's poll that was running at that wake; never cleared. */
static uint32_t
ref_delay(const struct task_state *ts, uint64_t start)
{
	uint64_t d;

	if (ts->wake == D9M_ABSENT || start <= ts->ref_from ||
	    (d = start - ts->ref_from) >= D9M_SCHED_MAX)
		return D9M_SCHED_NONE;
	return (uint32_t)d;
}

/* Scheduling delay of a poll starting at start of a task in state ts. */
static uint32_t
sched_delay(const struct task_state *ts, uint64_t start)
{
	uint64_t wake = ts->wake, d;

	/* the wake must have come since the previous poll started */
	if (wake == D9M_ABSENT || (ts->polled && wake <= ts->prev_start))
		return ts->polled ? D9M_SCHED_NO_WAKE : D9M_SCHED_NONE;
	/* a wake while the previous poll still ran is stale (15 #8) */
	if (ts->polled && wake <= ts->prev_end)
		wake = ts->prev_end;
	if (start <= wake || (d = start - wake) >= D9M_SCHED_MAX)
		return D9M_SCHED_NONE;
	return (uint32_t)d;
}

/*
 * ANALYSIS 5.1 for every poll, into m->poll_sched: the delay from the
 * task's last wake since its previous poll started to this poll's start.
 * Polls and wakes are walked together by time, remembering per task its
 * last wake and its previous poll.
 */
int
d9m_sched_derive(struct d9m_model *m, const uint32_t *by_start)
{
	const struct d9m_wakes *w = &m->wakes;
	size_t nt = m->tasks.n, j = 0;
	struct task_state *st = d9_pages_alloc((nt ? nt : 1) * sizeof *st);

	m->poll_sched = d9_pages_alloc((m->polls.n ? m->polls.n : 1) *
	    sizeof *m->poll_sched);
	m->poll_sched_ref = d9_pages_alloc((m->polls.n ? m->polls.n : 1) *
	    sizeof *m->poll_sched_ref);
	if (st == NULL || m->poll_sched == NULL || m->poll_sched_ref == NULL) {
		free(st);
		return -1;
	}
	for (size_t t = 0; t < nt; t++) {
		st[t].wake = D9M_ABSENT;
		st[t].polled = 0;
	}
	for (size_t k = 0; k < m->polls.n; k++) {
		uint32_t p = by_start[k], t = m->polls.task[p];
		uint64_t start = m->polls.start[p];

		for (; j < w->n && w->ts[j] <= start; j++) {
			struct task_state *x;

			if (w->woken[j] == D9_NONE)
				continue;
			x = &st[w->woken[j]];
			x->wake = x->ref_from = w->ts[j];
			/* the task's polls so far all began before it */
			if (x->polled && w->ts[j] <= x->prev_end)
				x->ref_from = x->prev_end;
		}
		m->poll_sched[p] = m->poll_sched_ref[p] = D9M_SCHED_NONE;
		if (t == D9_NONE)
			continue;
		/* a task never woken is not instrumented */
		if (w->by_woken_off[t] != w->by_woken_off[t + 1]) {
			m->poll_sched[p] = sched_delay(&st[t], start);
			m->poll_sched_ref[p] = ref_delay(&st[t], start);
		}
		st[t].prev_start = start;
		st[t].prev_end = m->polls.end[p];
		st[t].polled = 1;
	}
	free(st);
	return 0;
}
