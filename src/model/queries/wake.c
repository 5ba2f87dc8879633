/*
 * wake.c: see wake.h. Wakes are indexed by woken task (m->wakes.by_woken,
 * by time within a task) and polls by task (m->task_polls, by start), so
 * each hop costs two binary searches.
 */
#include <string.h>

#include "base/search.h"
#include "model/queries/wake.h"
#include "model/queries/window.h"

size_t
d9m_task_polls_after(const struct d9m_model *m, uint32_t t, uint64_t ts)
{
	return d9_upper_rows(m->polls.start, m->task_polls,
	    m->task_polls_off[t], m->task_polls_off[t + 1], ts);
}

uint32_t
d9m_last_wake(const struct d9m_model *m, uint32_t t, uint64_t ts)
{
	const struct d9m_wakes *w = &m->wakes;
	size_t a;

	if (t == D9_NONE || t >= m->tasks.n)
		return D9_NONE;
	a = d9_upper_rows(w->ts, w->by_woken, w->by_woken_off[t],
	    w->by_woken_off[t + 1], ts);
	return a > w->by_woken_off[t] ? w->by_woken[a - 1] : D9_NONE;
}

uint32_t
d9m_task_poll_at(const struct d9m_model *m, uint32_t t, uint64_t ts)
{
	size_t k;

	if (t == D9_NONE || t >= m->tasks.n)
		return D9_NONE;
	k = d9m_task_polls_after(m, t, ts);
	return k > m->task_polls_off[t] ? m->task_polls[k - 1] : D9_NONE;
}

uint32_t
d9m_task_last_poll(const struct d9m_model *m, uint32_t t,
    const struct d9m_window *w)
{
	uint32_t p = d9m_task_poll_at(m, t, w->hi);

	return p != D9_NONE && m->polls.start[p] >= w->lo ? p : D9_NONE;
}

uint32_t
d9m_wake_of(const struct d9m_model *m, uint32_t p, uint64_t *eff)
{
	uint32_t t = m->polls.task[p], k, prev = D9_NONE;
	size_t i;

	if (t == D9_NONE)
		return D9_NONE;
	/* the task's poll before p: p's place among its polls by start */
	for (i = d9m_task_polls_after(m, t, m->polls.start[p]);
	    i > m->task_polls_off[t]; i--)
		if (m->task_polls[i - 1] == p) {
			if (i - 1 > m->task_polls_off[t])
				prev = m->task_polls[i - 2];
			break;
		}
	k = d9m_last_wake(m, t, m->polls.start[p]);
	if (k == D9_NONE)
		return D9_NONE;
	if (prev != D9_NONE && m->wakes.ts[k] <= m->polls.start[prev])
		return D9_NONE;		/* stale: that poll consumed it */
	*eff = m->wakes.ts[k];
	if (prev != D9_NONE && *eff <= m->polls.end[prev])
		*eff = m->polls.end[prev];
	return k;
}

static int
in_chain(const struct d9m_hop *h, size_t n, uint32_t t)
{
	for (size_t i = 0; i < n; i++)
		if (h[i].task == t)
			return 1;
	return 0;
}

size_t
d9m_chain(const struct d9m_model *m, uint32_t t, uint32_t p, uint64_t ts,
    const struct d9m_window *w, struct d9m_hop *out, size_t max)
{
	size_t n = 0;

	while (t != D9_NONE && n < max) {
		struct d9m_hop *h = &out[n++];
		uint64_t eff = 0;

		memset(h, 0, sizeof *h);
		h->task = t;
		h->poll = p;
		h->waker = D9_NONE;
		h->wake = p != D9_NONE ? d9m_wake_of(m, p, &eff) :
		    d9m_last_wake(m, t, ts);
		if (h->wake == D9_NONE || m->wakes.ts[h->wake] < w->lo) {
			h->wake = D9_NONE;
			break;
		}
		if (p != D9_NONE)
			h->delay = m->polls.start[p] - eff;
		h->waker = m->wakes.waker[h->wake];
		ts = m->wakes.ts[h->wake];
		t = h->waker;
		if (t != D9_NONE && in_chain(out, n, t))
			break;		/* a cycle */
		p = d9m_task_poll_at(m, t, ts);
	}
	return n;
}

size_t
d9m_task_chain(const struct d9m_model *m, uint64_t id,
    const struct d9m_window *w, struct d9m_hop *out, size_t max)
{
	uint32_t t = d9m_task_find(m, id);

	if (t == D9_NONE)
		return 0;
	return d9m_chain(m, t, d9m_task_last_poll(m, t, w), w->hi, w, out,
	    max);
}
