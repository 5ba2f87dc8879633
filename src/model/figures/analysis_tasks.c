/*
 * analysis_tasks.c: tasks by spawn location, poll durations per location,
 * the task-leak heuristics (ANALYSIS 5.2 and 15 #17), scheduling delays
 * (5.1, with the stale-wake fix of 15 #8) and wake chains (5.3).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/pages.h"
#include "base/hmap.h"
#include "model/figures/analysis.h"
#include "model/figures/byname.h"
#include "model/queries/samples.h"
#include "model/queries/select.h"
#include "model/core/table.h"

/* Then by the location's text, not its string id (d9m_str_cmp). */
static int
cmp_loc(const void *x, const void *y, void *ctx)
{
	const struct d9m_loc_fig *a = x, *b = y;

	if (a->poll.max != b->poll.max)
		return a->poll.max > b->poll.max ? -1 : 1;
	if (a->tasks != b->tasks)
		return a->tasks > b->tasks ? -1 : 1;
	return d9m_str_cmp(ctx, a->loc, b->loc);
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

/* The polls in the window grouped by location into rows: the group of
 * figure l starts at fill[l] (on return: ends there). */
static void
poll_rows(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a, uint32_t *slot, size_t *nl, size_t *fill,
    uint32_t *rows)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t s = 0; s < m->nworkers; s++) {
			size_t i0, i1;

			d9m_window_polls(m, s, &o->win, &i0, &i1);
			for (size_t i = i0; i < i1; i++) {
				struct d9m_loc_fig *f = loc_fig(a, slot,
				    m->strs.n, nl, m->polls.loc[i]);

				if (pass == 0)
					f->poll.count++;
				else
					rows[fill[f - a->locs]++] = (uint32_t)i;
			}
		}
		/* pass 0 counted: offsets from the counts */
		for (size_t l = 0, sum = 0; pass == 0 && l < *nl; l++) {
			fill[l] = sum;
			sum += a->locs[l].poll.count;
		}
	}
}

/* The durations of the polls rows[0 .. n): a source for d9m_pct_pass. */
struct durs {
	const struct d9m_model *m;
	const uint32_t	*rows;
	size_t		 n;
};

static size_t
fill_durs(void *ctx, size_t *cursor, uint64_t *buf, size_t cap)
{
	const struct durs *d = ctx;
	size_t k = 0;

	for (; *cursor < d->n && k < cap; ++*cursor) {
		uint32_t r = d->rows[*cursor];

		buf[k++] = d->m->polls.end[r] - d->m->polls.start[r];
	}
	return k;
}

int
d9m_an_tasks(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	const struct d9m_tasks *t = &m->tasks;
	uint32_t *slot = malloc((m->strs.n + 1) * sizeof *slot);
	uint8_t *seen = calloc(t->n + 1, 1);
	uint64_t lo = m->min_ts, end = m->max_ts, mid;
	uint32_t *rows = NULL;
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
	/* which tasks are in the window: spawned, polled or ended in it */
	for (size_t s = 0; s < m->nworkers; s++) {
		size_t i0, i1;

		d9m_window_polls(m, s, &o->win, &i0, &i1);
		for (size_t i = i0; i < i1; i++)
			if (m->polls.task[i] != D9_NONE)
				seen[m->polls.task[i]] = 1;
	}
	for (size_t i = 0; i < t->n; i++)
		if (((t->flags[i] & D9M_TASK_SPAWNED) &&
		    d9m_in_window(&o->win, t->spawn_ts[i])) ||
		    ((t->flags[i] & D9M_TASK_TERMINATED) &&
		    d9m_in_window(&o->win, t->term_ts[i])))
			seen[i] = 1;
	/* one figure per location; D9_NONE is stored in the last slot */
	a->locs = calloc(m->strs.n + 1, sizeof *a->locs);
	fill = calloc(m->strs.n + 1, sizeof *fill);
	alive_mid = calloc(m->strs.n + 1, sizeof *alive_mid);
	rows = malloc((m->polls.n ? m->polls.n : 1) * sizeof *rows);
	if (a->locs == NULL || fill == NULL || rows == NULL ||
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
	poll_rows(m, o, a, slot, &nl, fill, rows);
	for (size_t l = 0, sum = 0; l < nl; l++) {
		struct d9m_loc_fig *f = &a->locs[l];
		struct durs d = { m, rows + sum, f->poll.count };
		const struct d9m_values src = { fill_durs, &d,
		    f->poll.count };

		sum += f->poll.count;
		if (d9m_pct_pass(&src, &f->poll) < 0)
			goto out;
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
	qsort_r(a->locs, nl, sizeof *a->locs, cmp_loc, (void *)m);
	leak_reference(m, a);
	rc = 0;
out:
	free(slot);
	free(seen);
	free(rows);
	free(fill);
	free(alive_mid);
	return rc;
}

/* Whether poll p comes before poll q in task order (m->task_polls: by
 * task, then start, then row), the order the worst delay is picked in. */
static int
task_order_before(const struct d9m_model *m, uint32_t p, uint32_t q)
{
	if (m->polls.task[p] != m->polls.task[q])
		return m->polls.task[p] < m->polls.task[q];
	if (m->polls.start[p] != m->polls.start[q])
		return m->polls.start[p] < m->polls.start[q];
	return p < q;
}

/* The scheduling delays of the polls in the window, worker by worker:
 * the source d9m_pct_pass reads them from (no copy of them). */
struct delays {
	const struct d9m_model *m;
	size_t		*lo, *hi;	/* per worker: its window's polls */
	const uint32_t	*col;		/* poll_sched or poll_sched_ref */
};

static size_t
fill_delays(void *ctx, size_t *cursor, uint64_t *buf, size_t cap)
{
	const struct delays *d = ctx;
	size_t k = 0, c = *cursor, s = 0, skip = c;

	/* the cursor counts the rows of the workers' ranges in turn */
	for (; s < d->m->nworkers && skip >= d->hi[s] - d->lo[s]; s++)
		skip -= d->hi[s] - d->lo[s];
	for (; s < d->m->nworkers && k < cap; s++, skip = 0)
		for (size_t i = d->lo[s] + skip; i < d->hi[s] && k < cap;
		    i++, c++) {
			uint64_t v = d->col[i];

			if (v != D9M_SCHED_NO_WAKE && v != D9M_SCHED_NONE)
				buf[k++] = v;
		}
	*cursor = c;
	return k;
}

int
d9m_an_sched(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	struct delays d = { m, calloc(m->nworkers + 1, sizeof *d.lo),
	    calloc(m->nworkers + 1, sizeof *d.hi), m->poll_sched };
	const struct d9m_values src = { fill_delays, &d, 0 };	/* counted */
	uint64_t worst = 0;
	int rc = -1;

	if (d.lo == NULL || d.hi == NULL)
		goto out;
	for (size_t s = 0; s < m->nworkers; s++) {
		d9m_window_polls(m, s, &o->win, &d.lo[s], &d.hi[s]);
		for (size_t i = d.lo[s]; i < d.hi[s]; i++) {
			uint64_t v = m->poll_sched[i];

			if (v == D9M_SCHED_NO_WAKE)
				a->sched_no_wake++;
			if (v == D9M_SCHED_NO_WAKE || v == D9M_SCHED_NONE)
				continue;
			a->sched_over1ms += v > 1000000;
			a->sched_over5ms += v > 5000000;
			/* the first delay may be 0: no poll to order it by */
			if (a->sched_worst_poll == D9_NONE || v > worst ||
			    (v == worst && task_order_before(m, (uint32_t)i,
			    a->sched_worst_poll))) {
				worst = v;
				a->sched_worst_poll = (uint32_t)i;
			}
		}
		for (size_t i = d.lo[s]; i < d.hi[s]; i++)
			a->sched_ref_over1ms += m->poll_sched_ref[i] !=
			    D9M_SCHED_NONE && m->poll_sched_ref[i] > 1000000;
	}
	if ((rc = d9m_pct_pass(&src, &a->sched)) < 0)
		goto out;
	d.col = m->poll_sched_ref;	/* dial9's rule, for its figure */
	rc = d9m_pct_pass(&src, &a->sched_ref);
out:
	free(d.lo);
	free(d.hi);
	return rc;
}

/* Sort g by (stack, segment). */
static int
by_stack(struct d9m_idle_group *g, size_t n)
{
	uint64_t *key = malloc((n + 1) * sizeof *key);
	uint32_t *perm = malloc((n + 1) * sizeof *perm);
	struct d9m_idle_group *t = malloc((n + 1) * sizeof *t);
	int rc = -1;

	if (key != NULL && perm != NULL && t != NULL) {
		for (size_t i = 0; i < n; i++)
			key[i] = (uint64_t)g[i].stack << 32 | g[i].seg;
		if ((rc = d9m_sort_perm(key, n, perm)) == 0) {
			for (size_t i = 0; i < n; i++)
				t[i] = g[perm[i]];
			memcpy(g, t, n * sizeof *g);
		}
	}
	free(key);
	free(perm);
	free(t);
	return rc;
}

/* Groups whose stacks show the same names are one (byname.h): the
 * same wait recorded in two segments is one row. */
static int
merge_by_name(const struct d9m_model *m, const struct d9m_resolver *r,
    struct d9m_idle_group *g, size_t *n)
{
	uint32_t *id = d9m_name_ids_of(m, r, 0, g, *n, sizeof *g,
	    offsetof(struct d9m_idle_group, stack),
	    offsetof(struct d9m_idle_group, seg));
	size_t k = 0;

	if (id == NULL)
		return -1;
	for (size_t i = 0; i < *n; i++) {
		if (id[i] == k) {
			g[k++] = g[i];
			continue;
		}
		g[id[i]].count += g[i].count;
		g[id[i]].idle_ns += g[i].idle_ns;
	}
	*n = k;
	free(id);
	return 0;
}

static int
cmp_idle_ns(const void *x, const void *y, void *ctx)
{
	const struct d9m_idle_group *a = x, *b = y;

	if (a->idle_ns != b->idle_ns)
		return a->idle_ns > b->idle_ns ? -1 : 1;
	return d9m_stack_cmp(ctx, a->stack, b->stack);
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
	struct d9m_idle_group *g;
	struct d9_hmap at;		/* (stack, segment) -> row of g */
	size_t n = 0, i0, i1;
	int rc = -1;

	if (m->dumps.n == 0)
		return 0;
	d9_hmap_init(&at);
	d9m_window_rows(m->dumps.ts, m->dumps.n, &o->win, &i0, &i1);
	g = d9_pages_alloc((i1 - i0 + 1) * sizeof *g);
	if (g == NULL)
		return -1;
	/* summed by (stack, segment) as they come (sums of integers: the
	 * order does not matter), then the groups by (stack, segment) */
	for (size_t i = i0; i < i1; i++) {
		uint64_t idle = d9m_dump_idle(m, i), key;
		uint32_t r;

		if (idle == UINT64_MAX)
			continue;
		a->dumps++;
		key = (uint64_t)m->dumps.stack[i] << 32 | m->dumps.seg[i];
		if ((r = d9_hmap_get(&at, key)) == D9_NONE) {
			if (d9_hmap_put(&at, key, (uint32_t)n) < 0)
				goto out;
			g[n].stack = m->dumps.stack[i];
			g[n].seg = m->dumps.seg[i];
			g[n].count = 0;
			g[n].idle_ns = 0;
			g[n].label = NULL;
			r = (uint32_t)n++;
		}
		g[r].count++;
		g[r].idle_ns += idle;
	}
	if (by_stack(g, n) < 0 || merge_by_name(m, o->resolver, g, &n) < 0)
		goto out;
	qsort_r(g, n, sizeof *g, cmp_idle_ns, (void *)m);
	rc = 0;
out:
	d9_hmap_free(&at);
	if (rc < 0) {
		free(g);
		return -1;
	}
	a->idle = g;
	a->nidle = n;
	return 0;
}
