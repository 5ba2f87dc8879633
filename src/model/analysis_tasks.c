/*
 * analysis_tasks.c: tasks by spawn location, poll durations per location,
 * the task-leak heuristics (ANALYSIS 5.2 and 15 #17), scheduling delays
 * (5.1, with the stale-wake fix of 15 #8) and wake chains (5.3).
 */
#include <stdlib.h>
#include <string.h>

#include "model/analysis.h"
#include "model/table.h"

static int
cmp_loc(const void *x, const void *y)
{
	const struct d9m_loc_fig *a = x, *b = y;

	if (a->poll.max != b->poll.max)
		return a->poll.max > b->poll.max ? -1 : 1;
	if (a->tasks != b->tasks)
		return a->tasks > b->tasks ? -1 : 1;
	return a->loc < b->loc ? -1 : a->loc > b->loc;
}

/* Reference rule: replay +1 at spawns, -1 at terminations. */
static void
leak_reference(const struct d9m_model *m, struct d9m_analysis *a)
{
	const struct d9m_tasks *t = &m->tasks;
	uint64_t *ts = malloc((2 * t->n + 1) * sizeof *ts);
	uint32_t *perm = malloc((2 * t->n + 1) * sizeof *perm);
	int8_t *step = malloc(2 * t->n + 1);
	size_t n = 0, pre = 0;
	long long run, peak;

	if (ts == NULL || perm == NULL || step == NULL)
		goto out;
	for (size_t i = 0; i < t->n; i++)
		if (t->flags[i] & D9M_TASK_SPAWNED) {
			ts[n] = t->spawn_ts[i];
			step[n++] = 1;
		}
	for (size_t i = 0; i < t->n; i++)
		if (t->flags[i] & D9M_TASK_TERMINATED) {
			ts[n] = t->term_ts[i];
			step[n++] = -1;
			pre += !(t->flags[i] & D9M_TASK_SPAWNED);
		}
	if (n == 0 || d9m_sort_perm(ts, n, perm) < 0)
		goto out;
	run = peak = (long long)pre;
	for (size_t i = 0; i < n; i++) {
		run += step[perm[i]];
		if (run > peak)
			peak = run;
	}
	a->leak_pre_existing = pre;
	a->leak_peak = (size_t)peak;
	a->leak_alive = run > 0 ? (size_t)run : 0;
	a->leak_ref = run > peak / 2.0 && run == peak && run > 0;
out:
	free(ts);
	free(perm);
	free(step);
}

/* The figure of a location, created on first use; slot maps string id
 * (nstr for "unknown") to the figure's index. */
static struct d9m_loc_fig *
loc_fig(struct d9m_analysis *a, uint32_t *slot, size_t nstr, size_t *nl,
    uint32_t loc)
{
	size_t k = loc == D9_NONE ? nstr : loc;

	if (slot[k] == D9_NONE) {
		a->locs[*nl].loc = loc;
		slot[k] = (uint32_t)(*nl)++;
	}
	return &a->locs[slot[k]];
}

int
d9m_an_tasks(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	const struct d9m_tasks *t = &m->tasks;
	uint32_t *slot = malloc((m->strs.n + 1) * sizeof *slot);
	uint8_t *seen = calloc(t->n + 1, 1);
	uint64_t *durs = NULL, lo = m->min_ts, end = m->max_ts, mid;
	size_t *fill = NULL, *alive_mid = NULL, nl = 0;
	int rc = -1;

	if (slot == NULL || seen == NULL)
		goto out;
	/* the span of the trace as tasks see it: runtime and task events */
	for (size_t i = 0; i < t->n; i++) {
		if (t->spawn_ts[i] != D9M_ABSENT && t->spawn_ts[i] < lo)
			lo = t->spawn_ts[i];
		if (t->spawn_ts[i] != D9M_ABSENT && t->spawn_ts[i] > end)
			end = t->spawn_ts[i];
		if (t->term_ts[i] != D9M_ABSENT && t->term_ts[i] > end)
			end = t->term_ts[i];
	}
	lo = o->win.lo > lo ? o->win.lo : lo;
	end = o->win.hi < end ? o->win.hi : end;
	mid = lo + (end > lo ? end - lo : 0) / 2;
	for (size_t i = 0; i <= m->strs.n; i++)
		slot[i] = D9_NONE;
	/* which tasks are in the window: spawned or polled in it */
	for (size_t i = 0; i < m->polls.n; i++)
		if (m->polls.task[i] != D9_NONE &&
		    d9m_in_window(&o->win, m->polls.start[i]))
			seen[m->polls.task[i]] = 1;
	for (size_t i = 0; i < t->n; i++)
		if ((t->flags[i] & D9M_TASK_SPAWNED) &&
		    d9m_in_window(&o->win, t->spawn_ts[i]))
			seen[i] = 1;
	/* one figure per location; D9_NONE is stored in the last slot */
	a->locs = calloc(m->strs.n + 1, sizeof *a->locs);
	fill = calloc(m->strs.n + 1, sizeof *fill);
	alive_mid = calloc(m->strs.n + 1, sizeof *alive_mid);
	durs = malloc((m->polls.n ? m->polls.n : 1) * sizeof *durs);
	if (a->locs == NULL || fill == NULL || durs == NULL ||
	    alive_mid == NULL)
		goto out;
	for (size_t i = 0; i < t->n; i++) {
		struct d9m_loc_fig *f;

		a->tasks_spawned += (t->flags[i] & D9M_TASK_SPAWNED) &&
		    seen[i];
		a->tasks_terminated += (t->flags[i] & D9M_TASK_TERMINATED) &&
		    d9m_in_window(&o->win, t->term_ts[i]);
		if (!seen[i])
			continue;
		a->tasks_seen++;
		if (t->loc[i] == D9_NONE)
			continue;
		f = loc_fig(a, slot, m->strs.n, &nl, t->loc[i]);
		f->tasks++;
		if (!(t->flags[i] & D9M_TASK_SPAWNED))
			continue;
		f->spawned++;
		if (t->term_ts[i] == D9M_ABSENT || t->term_ts[i] > end) {
			f->alive++;
			if (end - t->spawn_ts[i] > f->oldest_alive_ns)
				f->oldest_alive_ns = end - t->spawn_ts[i];
		}
		if (t->spawn_ts[i] <= mid && (t->term_ts[i] == D9M_ABSENT ||
		    t->term_ts[i] > mid))
			alive_mid[f - a->locs]++;
	}
	for (size_t i = 0; i < m->polls.n; i++)
		if (d9m_in_window(&o->win, m->polls.start[i]))
			loc_fig(a, slot, m->strs.n, &nl,
			    m->polls.loc[i])->poll.count++;
	/* durations grouped by location: offsets from counts */
	for (size_t l = 0, sum = 0; l < nl; l++) {
		fill[l] = sum;
		sum += a->locs[l].poll.count;
	}
	for (size_t i = 0; i < m->polls.n; i++)
		if (d9m_in_window(&o->win, m->polls.start[i]))
			durs[fill[loc_fig(a, slot, m->strs.n, &nl,
			    m->polls.loc[i]) - a->locs]++] =
			    m->polls.end[i] - m->polls.start[i];
	for (size_t l = 0, sum = 0; l < nl; l++) {
		struct d9m_loc_fig *f = &a->locs[l];

		d9m_pct_of(durs + sum, f->poll.count, &f->poll);
		sum += f->poll.count;
		/* better leak rule: many alive, most never ended, growing */
		if (f->alive >= 10 && f->alive * 2 >= f->spawned &&
		    f->alive * 2 >= alive_mid[l] * 3 &&
		    f->alive > a->leak_loc_alive) {
			a->leak_suspected = 1;
			a->leak_loc = f->loc;
			a->leak_loc_alive = f->alive;
		}
	}
	a->nlocs = nl;
	qsort(a->locs, nl, sizeof *a->locs, cmp_loc);
	leak_reference(m, a);
	rc = 0;
out:
	free(slot);
	free(seen);
	free(durs);
	free(fill);
	free(alive_mid);
	return rc;
}

/* Last wake of task t with lo < ts <= hi, or D9_NONE. */
static uint32_t
last_wake(const struct d9m_model *m, uint32_t t, uint64_t lo, int have_lo,
    uint64_t hi)
{
	const struct d9m_wakes *w = &m->wakes;
	size_t a = w->by_woken_off[t], b = w->by_woken_off[t + 1];

	while (a < b) {
		size_t mid = (a + b) / 2;

		if (w->ts[w->by_woken[mid]] <= hi)
			a = mid + 1;
		else
			b = mid;
	}
	if (a == w->by_woken_off[t])
		return D9_NONE;
	a--;
	if (have_lo && w->ts[w->by_woken[a]] <= lo)
		return D9_NONE;
	return w->by_woken[a];
}

int
d9m_an_sched(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	const uint32_t *rows = m->task_polls;
	const size_t *off = m->task_polls_off;
	size_t n = 0;
	uint64_t *delays, worst = 0;

	delays = malloc((m->polls.n ? m->polls.n : 1) * sizeof *delays);
	if (delays == NULL)
		return -1;
	for (size_t t = 0; t < m->tasks.n; t++) {
		if (m->wakes.by_woken_off[t] == m->wakes.by_woken_off[t + 1])
			continue;	/* never woken: not instrumented */
		for (size_t k = off[t]; k < off[t + 1]; k++) {
			uint32_t p = rows[k], prev = k > off[t] ? rows[k - 1] :
			    D9_NONE, wk;
			uint64_t start = m->polls.start[p], eff, d;

			if (!d9m_in_window(&o->win, start))
				continue;
			wk = last_wake(m, (uint32_t)t, prev != D9_NONE ?
			    m->polls.start[prev] : 0, prev != D9_NONE, start);
			if (wk == D9_NONE) {
				a->sched_no_wake += prev != D9_NONE;
				continue;
			}
			eff = m->wakes.ts[wk];
			if (prev != D9_NONE && eff <= m->polls.end[prev])
				eff = m->polls.end[prev];
			if (start <= eff || (d = start - eff) >= 1000000000)
				continue;
			delays[n++] = d;
			a->sched_over1ms += d > 1000000;
			a->sched_over5ms += d > 5000000;
			if (d > worst) {
				worst = d;
				a->sched_worst_poll = p;
			}
		}
	}
	d9m_pct_of(delays, n, &a->sched);
	free(delays);
	return 0;
}

size_t
d9m_wake_chain(const struct d9m_model *m, uint64_t task,
    const struct d9m_window *w, uint64_t *out, size_t max)
{
	uint32_t t = d9m_task_find(m, task);
	size_t n = 0;

	if (max == 0)
		return 0;
	out[n++] = task;
	while (t != D9_NONE && n < max) {
		uint32_t wk = last_wake(m, t, 0, 0, w->hi), waker;

		if (wk == D9_NONE || m->wakes.ts[wk] < w->lo)
			break;
		waker = m->wakes.waker[wk];
		if (waker == D9_NONE)
			break;
		for (size_t i = 0; i < n; i++)
			if (out[i] == m->tasks.id[waker])
				return n;	/* a cycle */
		out[n++] = m->tasks.id[waker];
		t = waker;
	}
	return n;
}

static int
cmp_idle(const void *x, const void *y)
{
	const struct d9m_idle_group *a = x, *b = y;

	if (a->stack != b->stack)
		return a->stack < b->stack ? -1 : 1;
	return a->seg < b->seg ? -1 : a->seg > b->seg;
}

static int
cmp_idle_ns(const void *x, const void *y)
{
	const struct d9m_idle_group *a = x, *b = y;

	if (a->idle_ns != b->idle_ns)
		return a->idle_ns > b->idle_ns ? -1 : 1;
	return a->stack < b->stack ? -1 : a->stack > b->stack;
}

/*
 * ANALYSIS 5.4 with the right rule (15 #16): a TaskDumpEvent is stamped
 * with the start of the poll after which the task went idle, so it
 * describes the gap from that poll's end to the task's next poll (or
 * the end of the trace), and weighs that gap.
 */
int
d9m_an_dumps(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	const uint32_t *rows = m->task_polls;
	const size_t *off = m->task_polls_off;
	struct d9m_idle_group *g;
	size_t n = 0;

	if (m->dumps.n == 0)
		return 0;
	g = malloc(m->dumps.n * sizeof *g);
	if (g == NULL)
		return -1;
	for (size_t i = 0; i < m->dumps.n; i++) {
		uint32_t t = m->dumps.task[i];
		size_t lo, hi, k;
		uint64_t ts = m->dumps.ts[i], end, next;

		if (t == D9_NONE || !d9m_in_window(&o->win, ts))
			continue;
		/* the task's last poll starting at or before the stamp */
		lo = off[t];
		hi = off[t + 1];
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (m->polls.start[rows[mid]] <= ts)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == off[t])
			continue;
		k = lo - 1;
		end = m->polls.end[rows[k]];
		next = k + 1 < off[t + 1] ? m->polls.start[rows[k + 1]] :
		    m->max_ts;
		g[n].stack = m->dumps.stack[i];
		g[n].seg = m->dumps.seg[i];
		g[n].count = 1;
		g[n++].idle_ns = next > end ? next - end : 0;
	}
	a->dumps = n;
	qsort(g, n, sizeof *g, cmp_idle);
	{
		size_t k = 0;

		for (size_t i = 0; i < n; i++) {
			if (k > 0 && g[k - 1].stack == g[i].stack &&
			    g[k - 1].seg == g[i].seg) {
				g[k - 1].count++;
				g[k - 1].idle_ns += g[i].idle_ns;
			} else
				g[k++] = g[i];
		}
		n = k;
	}
	qsort(g, n, sizeof *g, cmp_idle_ns);
	a->idle = g;
	a->nidle = n;
	return 0;
}
