/*
 * timeline.c: see timeline.h. Runtime events are bucketed by worker with
 * a counting pass over the time-sorted table, which keeps equal
 * timestamps in arrival order (the reference's stable sort).
 */
#include <stdlib.h>
#include <string.h>

#include "base/pages.h"
#include "base/search.h"
#include "base/vec.h"
#include "base/wire.h"
#include "model/queries/appev.h"
#include "model/core/build.h"
#include "model/core/frames.h"
#include "model/core/groups.h"
#include "model/core/ids.h"
#include "model/core/kshare.h"
#include "model/core/loss.h"
#include "model/core/pairs.h"
#include "model/core/par.h"
#include "model/core/table.h"
#include "model/core/tables.h"
#include "model/figures/runtimes.h"
#include "model/queries/samples.h"
#include "model/core/sched.h"
#include "model/core/spans.h"
#include "model/core/timeline.h"
#include "model/core/twins.h"
#include "model/core/walk.h"

void
d9m_timeline_free(struct d9m_model *m)
{
	d9m_tab_free(&m->polls, &d9m_desc_polls);
	d9m_tab_free(&m->parks, &d9m_desc_periods);
	d9m_tab_free(&m->actives, &d9m_desc_periods);
	d9m_tab_free(&m->gaps, &d9m_desc_gaps);
	d9m_runtimes_free(m);
	free(m->workers);
	m->workers = NULL;
	m->nworkers = 0;
	free(m->cpu.worker);
	free(m->cpu.poll);
	free(m->cpu.lane);
	m->cpu.worker = m->cpu.poll = NULL;
	m->cpu.lane = NULL;
	free(m->wakes.by_woken);
	free(m->wakes.by_woken_off);
	m->wakes.by_woken = m->wakes.by_woken_off = NULL;
	free(m->task_polls);
	free(m->task_polls_off);
	free(m->poll_sched);
	free(m->poll_sched_ref);
	m->task_polls = NULL;
	m->task_polls_off = NULL;
	m->poll_sched = NULL;
	m->poll_sched_ref = NULL;
	free(m->spanev.next);
	free(m->spanev.first);
	m->spanev.next = NULL;
	m->spanev.first = NULL;
	d9m_spans_free(&m->spans);
	free(m->seg_rate);
	m->seg_rate = NULL;
	free(m->seg_sched);
	m->seg_sched = NULL;
	free(m->group_cover);
	m->group_cover = NULL;
	free(m->rt.lq);
	m->rt.lq = NULL;
	free(m->sym_seg_off);
	m->sym_seg_off = NULL;
	free(m->seg_twin);
	free(m->dump_idle);
	free(m->sym_stacks);
	m->seg_twin = NULL;
	m->dump_idle = m->sym_stacks = NULL;
	m->nsym_stacks = 0;
	d9m_appev_free(m);
}

void
d9m_model_seal(struct d9m_model *m)
{
	if (d9m_model_mapped(m) || !m->finished)
		return;
	/* the span events became the span instances (m->spans) */
	d9m_tab_free(&m->spanev, &d9m_desc_spanev);
	d9m_tab_free(&m->spanx, &d9m_desc_spanx);
	d9m_tab_free(&m->spantags, &d9m_desc_spantags);
	d9m_builder_free(m);
}

/* Lanes by source group, then id. */
static int
cmp_lane(const void *a, const void *b)
{
	const struct d9m_worker *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->own < y->own ? -1 : x->own > y->own;
}

/* The distinct workers of runtime events (their tags say them all), by
 * group and id. The ids 254 and 255 (of any source group) name no
 * worker (FORMAT 5: the blocking pool, a thread that is not a worker):
 * no lane. */
static int
find_workers(struct d9m_model *m)
{
	uint8_t *seen = calloc(m->wids.n + 1, 1);
	size_t n = 0;

	if (seen == NULL)
		return -1;
	for (size_t i = 0; i < m->rttags.n; i++) {
		uint32_t w = m->rttags.worker[i];

		if (d9m_wid_lane(m, w) && !seen[w]) {
			seen[w] = 1;
			n++;
		}
	}
	m->workers = calloc(n ? n : 1, sizeof *m->workers);
	if (m->workers == NULL) {
		free(seen);
		return -1;
	}
	n = 0;
	for (uint32_t w = 0; w < m->wids.n; w++) {
		if (!seen[w])
			continue;
		m->workers[n].id = w;
		m->workers[n].runtime = D9_NONE;
		m->workers[n].group = m->wids.group[w];
		m->workers[n].own = m->wids.own[w];
		n++;
	}
	free(seen);
	if (n > 0)
		qsort(m->workers, n, sizeof *m->workers, cmp_lane);
	m->nworkers = n;
	return 0;
}

/* The gaps by thread (ANALYSIS 3: a sample of either thread of a
 * hand-off, while it lasts, is of no worker): each gap under its two
 * threads, by (tid, start), with the latest end so far of each tid's
 * run, so that a look-up stops at the first entry that ends before. */
struct tid_gaps {
	size_t		 n;
	uint64_t	*key;		/* tid << 32 | gap row */
	uint64_t	*reach;		/* the latest end up to here */
};

static int
cmp_tid_gap(const void *a, const void *b, void *ctx)
{
	const struct d9m_gaps *g = ctx;
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	uint64_t sx = g->start[(uint32_t)x], sy = g->start[(uint32_t)y];

	if (x >> 32 != y >> 32)
		return x >> 32 < y >> 32 ? -1 : 1;
	if (sx != sy)
		return sx < sy ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int
tid_gaps_make(const struct d9m_model *m, struct tid_gaps *t)
{
	const struct d9m_gaps *g = &m->gaps;

	t->n = 2 * g->n;
	t->key = malloc((t->n + 1) * sizeof *t->key);
	t->reach = malloc((t->n + 1) * sizeof *t->reach);
	if (t->key == NULL || t->reach == NULL)
		return -1;
	for (size_t i = 0; i < g->n; i++) {
		t->key[2 * i] = (uint64_t)g->from_tid[i] << 32 | i;
		t->key[2 * i + 1] = (uint64_t)g->to_tid[i] << 32 | i;
	}
	qsort_r(t->key, t->n, sizeof *t->key, cmp_tid_gap, (void *)g);
	for (size_t i = 0; i < t->n; i++) {
		uint64_t end = g->end[(uint32_t)t->key[i]];

		t->reach[i] = i > 0 && t->key[i - 1] >> 32 == t->key[i] >> 32 &&
		    t->reach[i - 1] > end ? t->reach[i - 1] : end;
	}
	return 0;
}

struct tid_at {
	const struct d9m_model	*m;
	const struct tid_gaps	*t;
	uint32_t		 tid;
	uint64_t		 ts;
};

/* Entry i is of a lower tid, or of tid and starts at or before ts. */
static int
tid_at_before(const void *ctx, size_t i)
{
	const struct tid_at *q = ctx;
	uint32_t k = (uint32_t)(q->t->key[i] >> 32);

	return k < q->tid || (k == q->tid &&
	    q->m->gaps.start[(uint32_t)q->t->key[i]] <= q->ts);
}

/* Whether a gap of thread tid holds ts. */
static int
tid_in_gap(const struct d9m_model *m, const struct tid_gaps *t, uint32_t tid,
    uint64_t ts)
{
	const struct tid_at q = { m, t, tid, ts };
	/* the first entry of tid starting after ts */
	size_t lo = d9_partition(0, t->n, &q, tid_at_before);

	for (; lo > 0 && t->key[lo - 1] >> 32 == tid &&
	    t->reach[lo - 1] > ts; lo--)
		if (m->gaps.end[(uint32_t)t->key[lo - 1]] > ts)
			return 1;
	return 0;
}

/* ANALYSIS 1 step 2-3 and section 4. */
static int
attribute_cpu(struct d9m_model *m)
{
	struct d9m_cpu *c = &m->cpu;
	size_t n = c->n ? c->n : 1;
	struct tid_gaps tg = { 0 };
	int rc = -1;

	c->worker = malloc(n * sizeof *c->worker);
	c->poll = malloc(n * sizeof *c->poll);
	c->lane = malloc(n);
	if (c->worker == NULL || c->poll == NULL || c->lane == NULL ||
	    tid_gaps_make(m, &tg) < 0)
		goto out;
	for (size_t i = 0; i < c->n; i++) {
		uint32_t w = d9m_tid_worker(m, c->tid[i], c->wire_worker[i]);
		uint32_t slot, p;

		if (tg.n > 0 && tid_in_gap(m, &tg, c->tid[i], c->ts[i]))
			w = D9_NONE;
		c->worker[i] = w;
		slot = d9m_worker_slot(m, w);
		c->lane[i] = slot != D9_NONE;
		c->poll[i] = D9_NONE;
		if (slot == D9_NONE)
			continue;
		p = d9m_poll_at(m, slot, c->ts[i]);
		if (p != D9_NONE && c->ts[i] <= m->polls.end[p])
			c->poll[i] = p;
	}
	rc = 0;
out:
	free(tg.key);
	free(tg.reach);
	return rc;
}

static int
index_wakes(struct d9m_model *m)
{
	struct d9m_wakes *wk = &m->wakes;
	size_t nt = m->tasks.n, named;

	wk->by_woken_off = d9_pages_calloc(nt + 2, sizeof *wk->by_woken_off);
	wk->by_woken = d9_pages_alloc((wk->n ? wk->n : 1) *
	    sizeof *wk->by_woken);
	if (wk->by_woken_off == NULL || wk->by_woken == NULL)
		return -1;
	for (size_t i = 0; i < wk->n; i++)
		if (wk->woken[i] != D9_NONE)
			wk->by_woken_off[wk->woken[i] + 2]++;
	for (size_t t = 0; t < nt; t++)
		wk->by_woken_off[t + 2] += wk->by_woken_off[t + 1];
	/* wakes of task 0 (woken D9_NONE) after every task's, in order */
	named = wk->by_woken_off[nt + 1];
	for (size_t i = 0; i < wk->n; i++)
		wk->by_woken[wk->woken[i] != D9_NONE ?
		    wk->by_woken_off[wk->woken[i] + 1]++ : named++] =
		    (uint32_t)i;
	return 0;
}

/* Poll rows grouped by task, each group sorted by start (perm: the
 * rows by start, stable). */
static int
index_task_polls(struct d9m_model *m, const uint32_t *perm)
{
	size_t np = m->polls.n, nt = m->tasks.n;
	size_t *o = d9_pages_calloc(nt + 2, sizeof *o);
	uint32_t *r = d9_pages_alloc((np ? np : 1) * sizeof *r);

	if (o == NULL || r == NULL) {
		free(o);
		free(r);
		return -1;
	}
	for (size_t i = 0; i < np; i++)
		if (m->polls.task[i] != D9_NONE)
			o[m->polls.task[i] + 2]++;
	for (size_t t = 0; t < nt; t++)
		o[t + 2] += o[t + 1];
	for (size_t i = 0; i < np; i++) {
		uint32_t p = perm[i];

		if (m->polls.task[p] != D9_NONE)
			r[o[m->polls.task[p] + 1]++] = p;
	}
	m->task_polls = r;
	m->task_polls_off = o;
	return 0;
}

/* What is derived from the polls in start order (perm: their rows by
 * start, stable, as the walk gives them). */
static int
polls_by_start(struct d9m_model *m, const uint32_t *perm)
{
	return index_task_polls(m, perm) < 0 ||
	    d9m_sched_derive(m, perm) < 0 ? -1 : 0;
}

static int
sort_job(void *arg)
{
	const struct d9m_tabref *t = arg;

	return d9m_tab_sort(t->tab, t->desc);
}

/* What does not read the tables sorted by time: the tids' pairs, and
 * the symbols (unsorted by time) ordered for lookups, kernel names
 * shared among them after that. */
static int
index_job(void *arg)
{
	struct d9m_model *m = arg;

	return d9m_builder_sort_tids(m) < 0 || d9m_symbols_index(m) < 0 ||
	    d9m_kernel_names_share(m) < 0 ? -1 : 0;
}

/* Every table by time, on two threads, the indexes beside them. */
static int
sort_tables(struct d9m_model *m)
{
	struct d9m_tabref t[D9M_NTABLES];
	struct d9m_job jobs[D9M_NTABLES + 1];
	size_t n = 0, k = 0, all = d9m_model_tables(m, t);

	/* the tables not kept by time stay out: the index job has some */
	for (size_t i = 0; i < all; i++)
		if (t[i].desc->ts_off != SIZE_MAX)
			t[n++] = t[i];

	/* largest first, so that the two threads end together */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && d9m_tab_n(t[j].tab) >
		    d9m_tab_n(t[j - 1].tab); j--) {
			struct d9m_tabref x = t[j];

			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	/* the index job beside the largest table: it takes as long as a
	 * table of millions of rows (58 segments: 32 ms; listed last, it
	 * ended the sorts alone) */
	if (n > 0)
		jobs[k++] = (struct d9m_job){ sort_job, &t[0] };
	jobs[k++] = (struct d9m_job){ index_job, m };
	for (size_t i = 1; i < n; i++)
		jobs[k++] = (struct d9m_job){ sort_job, &t[i] };
	return d9m_par_run(jobs, k);
}

/* A trace without runtime events (a program libd9rec records without
 * a runtime: CPU samples, allocations, spans, its own events): the
 * first and last time of the other events, tables sorted, so that the
 * window holds them (the clock syncs' times are not events). */
static void
others(struct d9m_model *m, uint64_t *lo, uint64_t *hi)
{
	struct d9m_tabref t[D9M_NTABLES];
	size_t n = d9m_model_tables(m, t);

	for (size_t i = 0; i < n; i++) {
		const struct d9m_tabdesc *d = t[i].desc;
		size_t rows = d9m_tab_n(t[i].tab);
		const uint64_t *ts;

		if (d->ts_off == SIZE_MAX || d == &d9m_desc_clock || rows == 0)
			continue;
		ts = *(const uint64_t *const *)(const void *)
		    ((const char *)t[i].tab + d->ts_off);
		if (ts[0] < *lo)
			*lo = ts[0];
		if (ts[rows - 1] > *hi)
			*hi = ts[rows - 1];
	}
}

static void
bounds(struct d9m_model *m)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	if (m->rt.n) {
		lo = m->rt.ts[0];
		hi = m->rt.ts[m->rt.n - 1];
	}
	if (m->wakes.n) {
		lo = m->wakes.ts[0] < lo ? m->wakes.ts[0] : lo;
		hi = m->wakes.ts[m->wakes.n - 1] > hi ?
		    m->wakes.ts[m->wakes.n - 1] : hi;
	}
	if (m->queue.n) {
		lo = m->queue.ts[0] < lo ? m->queue.ts[0] : lo;
		hi = m->queue.ts[m->queue.n - 1] > hi ?
		    m->queue.ts[m->queue.n - 1] : hi;
	}
	if (lo == UINT64_MAX)
		others(m, &lo, &hi);
	m->min_ts = lo == UINT64_MAX ? 0 : lo;
	m->max_ts = hi;
	m->rt_events = m->rt.n + m->wakes.n + m->queue.n;
}

/* The local queue of each runtime event as the analysis reads it. */
static int
derive_lq(struct d9m_model *m)
{
	if ((m->rt.lq = d9_pages_alloc(m->rt.n ? m->rt.n : 1)) == NULL)
		return -1;
	for (size_t i = 0; i < m->rt.n; i++)
		m->rt.lq[i] = D9M_RT(m, kind, i) == D9M_RT_POLL_END ? 0 :
		    D9M_RT(m, lq, i);
	return 0;
}

/* Finishing for the last time: what only the walk of the workers reads
 * of the runtime events goes (model.h, struct d9m_rt). */
static void
drop_rt(struct d9m_model *m)
{
	free(m->rt.tag);
	free(m->rt.a);
	m->rt.tag = m->rt.a = NULL;
	d9m_tab_free(&m->rttags, &d9m_desc_rttags);
	d9m_tab_free(&m->taskloc, &d9m_desc_taskloc);
	d9m_tab_free(&m->parkinfo, &d9m_desc_parkinfo);
}

/* The twins of the segments (twins.h). */
static int
derive_twins(struct d9m_model *m)
{
	m->seg_twin = malloc((m->segs.n + 1) * sizeof *m->seg_twin);
	return m->seg_twin == NULL ? -1 : d9m_seg_twins(m, m->seg_twin);
}

/*
 * Finishing's three jobs on two threads, in the order they are taken:
 * the timeline (the workers walked into polls, parks and gaps, then what
 * reads them and the wakes); the spans, which count the spans inside
 * polls once the timeline job made them (nothing writes them after);
 * the CPU samples' workers and polls, taken by the thread that paired
 * the spans while the other ends the timeline (58 segments: 480 -> 430
 * ms, where the span job's thread had stood idle for 95 ms at the end).
 * Nothing that the walk does not need is made before it is done and the
 * runtime events' tags are dropped: that is the peak.
 */
struct finish {
	struct d9m_model *m;
	struct d9m_gate	 polls;		/* the walk made the polls */
};

static int
derive_timeline(void *arg)
{
	struct finish *f = arg;
	struct d9m_model *m = f->m;
	uint32_t *by_start = NULL;
	int rc = -1;

	/* the groups' coverage reads the workers of the runtime events */
	if (find_workers(m) < 0 || derive_lq(m) < 0 ||
	    d9m_groups_cover(m) < 0 || d9m_walk_workers(m, &by_start) < 0)
		goto out;
	d9m_gate_open(&f->polls, 1);
	if (m->last)
		drop_rt(m);
	if (index_wakes(m) < 0 || polls_by_start(m, by_start) < 0 ||
	    d9m_rates_derive(m) < 0 || d9m_loss_derive(m) < 0 ||
	    d9m_appev_derive(m) < 0 || d9m_runtimes_derive(m) < 0 ||
	    d9m_dumps_derive(m) < 0 || d9m_sym_stacks_derive(m) < 0 ||
	    derive_twins(m) < 0)
		goto out;
	rc = 0;
out:
	free(by_start);
	d9m_gate_open(&f->polls, -1);	/* if the polls failed */
	return rc;
}

static int
pair_spans(void *arg)
{
	struct finish *f = arg;

	return d9m_spans_pair(f->m, &f->polls);
}

static int
derive_cpu(void *arg)
{
	struct finish *f = arg;

	return d9m_gate_wait(&f->polls) < 0 ? -1 : attribute_cpu(f->m);
}

int
d9m_model_finish(struct d9m_model *m)
{
	struct finish f = { .m = m };
	/* each gate's opener before its waiters (par.h) */
	const struct d9m_job jobs[] = { { derive_timeline, &f },
		{ pair_spans, &f }, { derive_cpu, &f } };
	int rc;

	if (d9m_model_mapped(m))
		return 0;		/* mapped: finished when written */
	d9m_timeline_free(m);
	if (sort_tables(m) < 0)
		return -1;
	bounds(m);		/* before the span job may drop span events */
	d9m_gate_init(&f.polls);
	rc = d9m_par_run(jobs, sizeof jobs / sizeof jobs[0]);
	d9m_gate_destroy(&f.polls);
	if (rc == 0)
		m->finished = 1;
	return rc;
}

int
d9m_model_finish_last(struct d9m_model *m)
{
	int rc;

	m->last = 1;
	rc = d9m_model_finish(m);
	m->last = 0;
	if (rc == 0)
		d9m_model_seal(m);
	else			/* maybe in part dropped: no more use */
		d9m_tab_free(&m->spanev, &d9m_desc_spanev);
	return rc;
}
