/*
 * test_window.c: figures of a time window, found by binary search and
 * from what d9m_model_finish() derives once (span lives, scheduling
 * delays), against the plain scans they replaced: every row of every
 * table tested against the window, spans paired event by event; flame
 * trees of the window count each of its samples once. Random
 * traces on a coarse time grid, so equal timestamps and equal durations
 * (the tie rules) are common.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/wire.h"
#include "mktrace.h"
#include "model/figures/analysis.h"
#include "model/core/table.h"
#include "model/core/timeline.h"
#include "model/queries/flame.h"
#include "model/queries/worst.h"
#include "model/queries/window.h"
#include "model/queries/lanes.h"
#include "model/queries/series.h"
#include "model/queries/spanset.h"
#include "suites.h"

#define NWORKERS	3
#define NTASKS		8	/* task 8 is never woken */

/* One worker's life: unparks, polls of random tasks with samples and
 * spans inside and across them, parks. */
static void
random_worker(struct mt *t, uint64_t *s, unsigned w)
{
	static const char *const names[] = { "a", "b", "c" };
	static const char *const locs[] = { "x.rs:1:1", "y.rs:2:2" };
	const uint64_t f[][2] = { { 0x10, 0x20 }, { 0x30, 0x20 } };
	uint64_t ts = 10 * (rnd(s) % 4), cpu = 0;

	for (int step = 0; step < 40; step++) {
		uint64_t r = rnd(s), task = 1 + r % NTASKS;

		ts += 10 * (1 + r % 3);
		if (r % 7 == 0) {
			mt_park(t, ts, w, cpu, 100 + w);
			ts += 10 * (1 + r % 5);
			cpu += 10 * (r % 3);
			mt_unpark(t, ts, w, cpu, 100 + w, r % 2 ? 0 :
			    r % 2000000);
			continue;
		}
		mt_poll_start(t, ts, w, task, locs[r % 2]);
		if (r % 3 == 0)
			mt_cpu(t, ts + 10 * (r % 2), 100 + w, (r >> 8) % 2, 2,
			    f[(r >> 9) % 2]);
		if (r % 4 != 3)
			mt_span(t, (int)((r >> 12) % 10 < 4 ? 0 :
			    (r >> 12) % 10 < 9 ? 1 : 2), ts + 10 * (r % 2), w,
			    1 + (r >> 16) % 5, names[(r >> 20) % 3]);
		ts += 10 * ((r >> 24) % 4);
		if (r % 11 != 0)	/* else open-ended */
			mt_poll_end(t, ts, w);
		if ((r >> 28) % 3 == 0)
			mt_wake(t, ts - 5 * ((r >> 30) % 3), 1 + (r >> 32) %
			    NTASKS, 1 + (r >> 36) % (NTASKS - 1), w);
	}
}

static struct d9m_model *
random_trace(uint64_t seed)
{
	struct mt t;
	uint64_t s = seed * 0x9e3779b97f4a7c15ull | 1;

	mt_begin(&t);
	for (unsigned w = 0; w < NWORKERS; w++) {
		mt_unpark(&t, 0, w, 0, 100 + w, 0);
		random_worker(&t, &s, w);
	}
	return mt_finish(&t);
}

/* ---- the plain scans ---- */

static uint64_t
clip(const struct d9m_window *w, uint64_t s, uint64_t e)
{
	s = s < w->lo ? w->lo : s;
	e = e > w->hi ? w->hi : e;
	return e > s ? e - s : 0;
}

static void
check_workers(const struct d9m_model *m, const struct d9m_window *w,
    const struct d9m_analysis *a)
{
	for (size_t s = 0; s < m->nworkers; s++) {
		const struct d9m_worker *wk = &m->workers[s];
		uint64_t act = 0, parked = 0;
		size_t polls = 0, parks = 0, acts = 0;
		double wsum = 0, wlen = 0;

		for (size_t i = wk->poll0; i < wk->poll0 + wk->npolls; i++)
			polls += d9m_in_window(w, m->polls.start[i]);
		for (size_t i = wk->park0; i < wk->park0 + wk->nparks; i++) {
			parked += clip(w, m->parks.start[i], m->parks.end[i]);
			parks += d9m_in_window(w, m->parks.start[i]);
		}
		for (size_t i = wk->act0; i < wk->act0 + wk->nacts; i++) {
			uint64_t len = clip(w, m->actives.start[i],
			    m->actives.end[i]);
			double r = m->actives.ratio[i];

			act += len;
			if (!d9m_in_window(w, m->actives.start[i]))
				continue;
			acts++;
			r = r < 0 ? 0 : r > 1 ? 1 : r;
			wsum += r * (double)len;
			wlen += (double)len;
		}
		ck_assert_uint_eq(a->workers[s].polls, polls);
		ck_assert_uint_eq(a->workers[s].parks, parks);
		ck_assert_uint_eq(a->workers[s].actives, acts);
		ck_assert_uint_eq(a->workers[s].active_ns, act);
		ck_assert_uint_eq(a->workers[s].parked_ns, parked);
		ck_assert(a->workers[s].cpu_ratio_weighted ==
		    (wlen > 0 ? wsum / wlen : 0));
	}
}

static void
check_polls_cpu(const struct d9m_model *m, const struct d9m_window *w,
    const struct d9m_analysis *a)
{
	size_t np = 0, samples = 0, on = 0, inpoll = 0, events = 0;

	for (size_t i = 0; i < m->polls.n; i++)
		np += d9m_in_window(w, m->polls.start[i]);
	for (size_t i = 0; i < m->cpu.n; i++) {
		if (!d9m_in_window(w, m->cpu.ts[i]))
			continue;
		samples++;
		on += m->cpu.source[i] == D9_SOURCE_CPU;
		inpoll += m->cpu.source[i] == D9_SOURCE_SCHED &&
		    m->cpu.poll[i] != D9_NONE;
	}
	for (size_t i = 0; i < m->rt.n; i++)
		events += d9m_in_window(w, m->rt.ts[i]);
	for (size_t i = 0; i < m->wakes.n; i++)
		events += d9m_in_window(w, m->wakes.ts[i]);
	ck_assert_uint_eq(a->event_count, events);
	ck_assert_uint_eq(a->npolls, np);
	ck_assert_uint_eq(a->cpu_samples, samples);
	ck_assert_uint_eq(a->on_cpu, on);
	ck_assert_uint_eq(a->off_in_poll, inpoll);
	/* the worst polls' samples: every sample attached to the poll */
	for (size_t k = 0; k < a->nworst; k++) {
		size_t n[2] = { 0, 0 }, g[2] = { 0, 0 };

		for (size_t i = 0; i < m->cpu.n; i++)
			if (m->cpu.poll[i] == a->worst[k].poll)
				n[m->cpu.source[i] == D9_SOURCE_SCHED]++;
		for (size_t i = 0; i < a->worst[k].ncpu; i++)
			g[0] += a->worst[k].cpu[i].count;
		for (size_t i = 0; i < a->worst[k].noff; i++)
			g[1] += a->worst[k].off[i].count;
		ck_assert_uint_eq(g[0], n[0]);
		ck_assert_uint_eq(g[1], n[1]);
	}
}

/* Scheduling delays, task by task as ANALYSIS 5.1 reads. */
static void
check_sched(const struct d9m_model *m, const struct d9m_window *w,
    const struct d9m_analysis *a)
{
	uint64_t *d = malloc((m->polls.n + 1) * sizeof *d), worst = 0;
	size_t n = 0, no_wake = 0;
	uint32_t worst_poll = D9_NONE;
	struct d9m_pct pct;

	for (uint32_t t = 0; t < m->tasks.n; t++) {
		const size_t *off = m->task_polls_off;
		int woken = 0;

		for (size_t i = 0; i < m->wakes.n; i++)
			woken |= m->wakes.woken[i] == t;
		for (size_t k = off[t]; woken && k < off[t + 1]; k++) {
			uint32_t p = m->task_polls[k], prev = k > off[t] ?
			    m->task_polls[k - 1] : D9_NONE;
			uint64_t start = m->polls.start[p], wk = 0, dd;
			int have = 0;

			if (!d9m_in_window(w, start))
				continue;
			for (size_t i = 0; i < m->wakes.n; i++)
				if (m->wakes.woken[i] == t &&
				    m->wakes.ts[i] <= start && (!have ||
				    m->wakes.ts[i] >= wk)) {
					wk = m->wakes.ts[i];
					have = 1;
				}
			if (!have || (prev != D9_NONE &&
			    wk <= m->polls.start[prev])) {
				no_wake += prev != D9_NONE;
				continue;
			}
			if (prev != D9_NONE && wk <= m->polls.end[prev])
				wk = m->polls.end[prev];
			if (start <= wk || (dd = start - wk) >= 1000000000)
				continue;
			d[n++] = dd;
			if (dd > worst) {
				worst = dd;
				worst_poll = p;
			}
		}
	}
	d9m_pct_of(d, n, &pct);
	ck_assert_uint_eq(a->sched.count, pct.count);
	ck_assert_uint_eq(a->sched.p50, pct.p50);
	ck_assert_uint_eq(a->sched.p99, pct.p99);
	ck_assert_uint_eq(a->sched.max, pct.max);
	ck_assert_uint_eq(a->sched_no_wake, no_wake);
	ck_assert_uint_eq(a->sched_worst_poll, worst_poll);
	free(d);
}

/* ANALYSIS 6 event by event over the whole trace: a record per span id
 * until its close; an enter opens a pair unless one is open, an exit
 * closes it. */
struct rec {
	uint64_t	id, open_ts, first, last_start, last_end;
	uint32_t	name, worker, open_worker;
	size_t		nsegs;
	int		open, live;
};

static size_t
ref_pair(const struct d9m_model *m, struct rec *r, uint32_t *cnt)
{
	const struct d9m_spanev *e = &m->spanev;
	size_t n = 0;

	for (size_t i = 0; i < e->n; i++) {
		struct rec *x = NULL;
		uint32_t w, p;

		for (size_t k = 0; k < n; k++)
			if (r[k].live && r[k].id == e->id[i])
				x = &r[k];
		if (D9M_EV(m, kind, i) == D9M_SPAN_ENTER) {
			if (x == NULL) {
				x = &r[n++];
				memset(x, 0, sizeof *x);
				x->id = e->id[i];
				x->name = D9M_EV(m, name, i);
				x->live = 1;
			} else if (x->open)
				continue;
			x->open = 1;
			x->open_ts = e->ts[i];
			x->open_worker = D9M_EV(m, worker, i);
		} else if (D9M_EV(m, kind, i) == D9M_SPAN_CLOSE && x != NULL)
			x->open = x->live = 0;
		else if (D9M_EV(m, kind, i) == D9M_SPAN_EXIT && x != NULL &&
		    x->open) {
			x->open = 0;
			if (x->nsegs == 0 || x->open_ts < x->first)
				x->first = x->open_ts;
			if (x->nsegs == 0 || x->open_ts >= x->last_start) {
				x->last_start = x->open_ts;
				x->last_end = e->ts[i];
			}
			x->nsegs++;
			w = d9m_worker_slot(m, x->open_worker);
			p = w == D9_NONE ? D9_NONE :
			    d9m_poll_at(m, w, x->open_ts);
			if (p != D9_NONE && e->ts[i] <= m->polls.end[p])
				cnt[p]++;
		}
	}
	return n;
}

static void
check_spans(const struct d9m_model *m, const struct d9m_window *w,
    const struct d9m_analysis *a)
{
	struct rec *r = calloc(m->spanev.n + 1, sizeof *r);
	uint32_t *cnt = calloc(m->polls.n + 1, sizeof *cnt);
	uint32_t unknown = d9_intern_find(&m->strs, "unknown", 7);
	size_t n = ref_pair(m, r, cnt), total = 0, unmatched = 0, max = 0,
	    over = 0;
	uint32_t row = D9_NONE;

	for (size_t i = 0; i < n; i++) {
		unmatched += r[i].open && r[i].live &&
		    d9m_in_window(w, r[i].open_ts);
		total += r[i].nsegs > 0 && d9m_in_window(w, r[i].first);
	}
	for (size_t p = 0; p < m->polls.n; p++) {
		over += cnt[p] > 20;
		if (cnt[p] > max) {
			max = cnt[p];
			row = (uint32_t)p;
		}
	}
	ck_assert_uint_eq(a->unmatched_spans, unmatched);
	ck_assert_uint_eq(a->spans_total, total);
	ck_assert_uint_eq(a->spans_poll_max, max);
	ck_assert_uint_eq(a->spans_poll_row, row);
	ck_assert_uint_eq(a->spans_polls_over20, over);
	for (size_t f = 0; f < a->nspans; f++) {
		uint64_t *d = malloc((n + 1) * sizeof *d);
		size_t k = 0, out = 0;
		struct d9m_pct pct;

		for (size_t i = 0; i < n; i++)
			if (r[i].nsegs > 0 && d9m_in_window(w, r[i].first) &&
			    (r[i].name != D9_NONE ? r[i].name : unknown) ==
			    a->spans[f].name)
				d[k++] = r[i].last_end - r[i].first;
		d9m_pct_of(d, k, &pct);
		for (size_t j = 0; k >= 10 && j < k; j++)
			out += d[j] > 10 * d[k / 2];
		ck_assert_uint_eq(a->spans[f].dur.count, pct.count);
		ck_assert_uint_eq(a->spans[f].dur.p50, pct.p50);
		ck_assert_uint_eq(a->spans[f].dur.p99, pct.p99);
		ck_assert_uint_eq(a->spans[f].dur.max, pct.max);
		ck_assert_uint_eq(a->spans[f].outliers, out);
		total -= k;
		free(d);
	}
	ck_assert_uint_eq(total, 0);	/* every name has its figure */
	free(r);
	free(cnt);
}

/* The spans view's instances (spanset) are the analysis's: the lives
 * that first enter in the window, whole, grouped by name with the same
 * figures, longest first within a name. */
static void
check_span_set(const struct d9m_model *m, const struct d9m_window *w,
    const struct d9m_analysis *a)
{
	struct d9m_query q = D9M_QUERY_INIT;
	struct d9m_spanset *s;

	q.win = *w;
	s = d9m_spanset_build(m, &q);
	size_t n = 0, open = 0;

	for (size_t i = 0; i < m->spans.n; i++)
		n += d9m_in_window(w, m->spans.start[i]);
	for (size_t i = 0; i < m->spans.nopen; i++)
		open += d9m_in_window(w, m->spans.open_ts[i]);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->n, n);
	ck_assert_uint_eq(s->unmatched, open);
	ck_assert_uint_eq(s->unmatched, a->unmatched_spans);
	ck_assert_uint_eq(s->nnames, a->nspans);
	for (size_t i = 0; i < s->nnames; i++) {
		const struct d9m_span_name *nm = &s->names[i];

		ck_assert_uint_eq(nm->name, a->spans[i].name);
		ck_assert_uint_eq(nm->dur.count, a->spans[i].dur.count);
		ck_assert_uint_eq(nm->dur.p50, a->spans[i].dur.p50);
		ck_assert_uint_eq(nm->dur.p99, a->spans[i].dur.p99);
		ck_assert_uint_eq(nm->dur.max, a->spans[i].dur.max);
		for (size_t k = 0; k < nm->dur.count; k++) {
			const struct d9m_span *v = &s->v[nm->first + k];

			ck_assert(d9m_in_window(w, v->start));
			ck_assert_uint_eq(v->name, nm->name);
			if (k > 0)
				ck_assert_uint_le(v->end - v->start,
				    v[-1].end - v[-1].start);
		}
	}
	d9m_spanset_free(&s);
}

/* The browser's w steps through the window's polls in the order of the
 * report's worst polls. */
static void
check_worst(const struct d9m_model *m, const uint32_t *by_dur,
    const struct d9m_window *w, const struct d9m_analysis *a)
{
	size_t pos = 0;

	for (size_t i = 0; i < a->nworst; i++)
		ck_assert_uint_eq(d9m_worst_next(m, by_dur, w, &pos),
		    a->worst[i].poll);
	if (a->nworst < 5)
		ck_assert_uint_eq(d9m_worst_next(m, by_dur, w, &pos), D9_NONE);
}

/* Flame trees: every sample of the window counted once, at the root and
 * down each path. */
static void
check_flames(const struct d9m_model *m, const struct d9m_window *w)
{
	for (int t = 0; t < 4; t++) {
		int off = t & 1;
		struct d9m_query q = D9M_QUERY_INIT;
		struct d9m_flame *f;
		size_t n = 0;
		double kids = 0;

		q.kind = off ? D9M_F_OFF : D9M_F_CPU;
		q.win = *w;
		q.flags = t >> 1 ? D9M_Q_INVERT : 0;
		f = d9m_flame_build(m, NULL, &q);
		for (size_t i = 0; i < m->cpu.n; i++)
			n += d9m_in_window(w, m->cpu.ts[i]) &&
			    (m->cpu.source[i] == D9_SOURCE_SCHED) == off;
		ck_assert_ptr_nonnull(f);
		ck_assert_uint_eq(f->samples, n);
		ck_assert(f->nodes[0].w == (double)n);
		for (uint32_t k = 0; k < f->nodes[0].nkids; k++)
			kids += f->nodes[f->kids[f->nodes[0].kid0 + k]].w;
		ck_assert(kids == (double)n);
		d9m_flame_free(&f);
	}
}

/* --window's milliseconds, for the browser and the report alike: from
 * the first event, to the nearest ns, an open end to the last. */
START_TEST(test_window_ms)
{
	struct d9m_model m;
	struct d9m_window w;

	memset(&m, 0, sizeof m);
	m.min_ts = 1000000000;
	w = d9m_window_ms(&m, 20.0000007, 300);
	ck_assert_uint_eq(w.lo, 1000000000 + 20000001);
	ck_assert_uint_eq(w.hi, 1000000000 + 300000000);
	w = d9m_window_ms(&m, 0, -1);
	ck_assert_uint_eq(w.lo, m.min_ts);
	ck_assert_uint_eq(w.hi, UINT64_MAX);
	w = d9m_window_ms(&m, 1.0000004, 1e300);
	ck_assert_uint_eq(w.lo, 1000000000 + 1000000);
	ck_assert_uint_eq(w.hi, UINT64_MAX);
}
END_TEST

/* The worker series over ncols columns from w.lo: every poll and every
 * unpark of the worker looked at, against d9m_series. */
/* want[c] := the largest value at a time in [e[c], e[c + 1]). */
static void
put_max(const uint64_t *e, size_t nc, uint64_t ts, double value,
    double *want)
{
	for (size_t c = 0; c < nc; c++)
		if (ts >= e[c] && ts < e[c + 1] && value > want[c])
			want[c] = value;
}

/* d9m_series of kind k for worker slot s against want. */
static void
check_kind(const struct d9m_model *m, enum d9m_series_kind k, uint32_t s,
    const uint64_t *e, size_t nc, const double *want)
{
	struct d9m_query q = D9M_QUERY_INIT;
	double v[8];

	q.kind = (int)k;
	q.worker = s;
	ck_assert_int_eq(d9m_series(m, &q, e, nc, v), 0);
	for (size_t c = 0; c < nc; c++)
		ck_assert_double_eq(v[c], want[c]);
}

/* The worker series over random columns from w.lo: every poll and every
 * unpark of the worker looked at, against d9m_series. */
static void
check_series(const struct d9m_model *m, const struct d9m_window *w,
    uint64_t *s)
{
	uint64_t e[9];
	size_t nc = 1 + rnd(s) % 8;

	e[0] = w->lo;
	for (size_t c = 1; c <= nc; c++)
		e[c] = e[c - 1] + 5 + 5 * (rnd(s) % 20);
	for (uint32_t k = 0; k < m->nworkers; k++) {
		const struct d9m_worker *wk = &m->workers[k];
		double lq[8] = { 0 }, sw[8] = { 0 };

		for (size_t i = wk->poll0; i < wk->poll0 + wk->npolls; i++)
			put_max(e, nc, m->polls.start[i], m->polls.lq[i], lq);
		for (size_t i = wk->park0; i < wk->park0 + wk->nparks; i++)
			if (m->parks.sched_wait[i] != D9M_ABSENT)
				put_max(e, nc, m->parks.end[i],
				    (double)m->parks.sched_wait[i], sw);
		check_kind(m, D9M_S_LOCAL_QUEUE, k, e, nc, lq);
		check_kind(m, D9M_S_SCHED_WAIT, k, e, nc, sw);
	}
}

START_TEST(test_windows_match_scans)
{
	struct d9m_model *m = random_trace((uint64_t)_i + 1);
	struct d9m_lanes *ix = d9m_lanes_build(m);
	uint64_t s = (uint64_t)_i * 31 + 7;

	ck_assert_uint_gt(m->spanev.n, 20);
	for (int k = 0; k < 40; k++) {
		struct d9m_window w = D9M_WHOLE;
		struct d9m_analysis_opts o = { w, 5, 0, NULL, 0 };
		struct d9m_analysis a;

		/* the whole trace, then bounds on and between events */
		if (k > 0) {
			w.lo = m->min_ts + 5 * (rnd(&s) % 120);
			w.hi = k % 9 == 0 ? UINT64_MAX : k % 7 == 0 ?
			    w.lo - 5 : w.lo + 5 * (rnd(&s) % 100);
			w.lo = k % 8 == 0 ? 0 : w.lo;
		}
		o.win = w;
		ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
		check_workers(m, &w, &a);
		check_polls_cpu(m, &w, &a);
		check_sched(m, &w, &a);
		check_spans(m, &w, &a);
		check_span_set(m, &w, &a);
		check_worst(m, ix->by_dur, &w, &a);
		check_flames(m, &w);
		if (w.hi != UINT64_MAX && w.lo > 0)
			check_series(m, &w, &s);
		d9m_analysis_free(&a);
	}
	d9m_lanes_free(&ix);
	d9m_model_free(&m);
}
END_TEST

/* A lane of 3000 polls with durations on a coarse grid (ties are
 * common) and a gap now and then, for the timeline's cells. */
static struct d9m_model *
long_lane(uint64_t *s)
{
	struct mt t;
	uint64_t ts = 100;

	mt_begin(&t);
	mt_unpark(&t, 0, 0, 0, 100, 0);
	for (int i = 0; i < 3000; i++) {
		uint64_t r = rnd(s);

		ts += r % 5 == 0 ? 10 * (r >> 8) % 200 : 0;
		mt_poll_start(&t, ts, 0, 1 + r % 4, "x.rs:1:1");
		ts += 10 * ((r >> 16) % 6);
		mt_poll_end(&t, ts, 0);
	}
	return mt_finish(&t);
}

/* The timeline's cells (d9m_lane_cells, d9m_longest) on random columns,
 * some narrower than a poll, some holding hundreds of blocks' worth,
 * against a scan of every poll: busy time, and the longest poll, the
 * first of those as long. */
START_TEST(test_lane_cells_match_scans)
{
	uint64_t s = (uint64_t)_i * 977 + 3, e[41], busy[40], longest[40];
	struct d9m_model *m = long_lane(&s);
	struct d9m_lanes *ix = d9m_lanes_build(m);
	const struct d9m_worker *wk = &m->workers[0];
	size_t nc = 1 + rnd(&s) % 40;

	ck_assert_uint_eq(m->nworkers, 1);
	e[0] = m->min_ts + 5 * (rnd(&s) % 200);
	for (size_t c = 1; c <= nc; c++)
		e[c] = e[c - 1] + (rnd(&s) % 3 == 0 ? 5 * (rnd(&s) % 4) :
		    5 * (rnd(&s) % 4000));
	d9m_lane_cells(m, ix, 0, e, nc, busy, longest);
	for (size_t c = 0; c < nc; c++) {
		uint64_t a = e[c], b = e[c + 1], sum = 0, best = 0;
		uint32_t row = D9_NONE;

		for (size_t i = wk->poll0; i < wk->poll0 + wk->npolls; i++) {
			uint64_t ps = m->polls.start[i], pe = m->polls.end[i];

			if (pe < a || ps >= b)
				continue;
			sum += (pe < b ? pe : b) - (ps > a ? ps : a);
			if (row == D9_NONE || pe - ps > best) {
				best = pe - ps;
				row = (uint32_t)i;
			}
		}
		ck_assert_uint_eq(busy[c], sum);
		ck_assert_uint_eq(longest[c], sum > 0 ? best : 0);
		ck_assert_uint_eq(d9m_busy(m, ix, 0, a, b), sum);
		ck_assert_uint_eq(d9m_longest(m, ix, 0, a, b), row);
	}
	d9m_lanes_free(&ix);
	d9m_model_free(&m);
}
END_TEST

/* Lives: a close ends one, the id starts another; a re-enter while open
 * keeps the first enter; a window holds the lives that start in it,
 * whole (the browser and the report alike). */
START_TEST(test_span_lives)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_spanset *s;
	struct d9m_window w110 = { 110, 350 }, w90 = { 90, 350 };
	struct d9m_query q = D9M_QUERY_INIT;

	mt_begin(&t);
	mt_span(&t, 1, 50, 0, 7, "w");		/* exit before any enter */
	mt_span(&t, 0, 100, 0, 7, "w");
	mt_span(&t, 0, 120, 0, 7, "w");		/* re-enter: kept at 100 */
	mt_span(&t, 1, 150, 0, 7, "w");
	mt_span(&t, 0, 200, 1, 9, "v");
	mt_span(&t, 2, 300, 0, 7, "");		/* close: 7 may be reused */
	mt_span(&t, 0, 400, 0, 7, "w");
	mt_span(&t, 1, 450, 0, 7, "w");
	m = mt_finish(&t);
	/* the close at 300 ends the life of 7: the enter at 400 is a new
	 * one; the re-enter at 120 stays inside the first */
	ck_assert_uint_eq(m->spans.n, 2);	/* 100..150, 400..450 */
	ck_assert_uint_eq(m->spans.start[1], 400);
	ck_assert_uint_eq(m->spans.dur[1], 50);
	ck_assert_uint_eq(m->spans.start[0], 100);
	ck_assert_uint_eq(m->spans.dur[0], 50);
	ck_assert_uint_eq(m->spans.nopen, 1);	/* 9 never exits */
	ck_assert_uint_eq(m->spans.open_ts[0], 200);
	/* from 110: the life of 7 began at 100, outside; 9 never exits */
	q.win = w110;
	s = d9m_spanset_build(m, &q);
	ck_assert_uint_eq(s->n, 0);
	ck_assert_uint_eq(s->unmatched, 1);
	d9m_spanset_free(&s);
	/* from 90: the life 100..150 whole, the re-enter at 120 inside it */
	q.win = w90;
	s = d9m_spanset_build(m, &q);
	ck_assert_uint_eq(s->n, 1);
	ck_assert_uint_eq(s->v[0].start, 100);
	ck_assert_uint_eq(s->v[0].end, 150);
	ck_assert_uint_eq(s->unmatched, 1);
	d9m_spanset_free(&s);
	d9m_model_free(&m);
}
END_TEST

/* d9m_lower against a scan, on columns a bisection, an even spread and
 * the gallop all see differently: evenly spread, clustered at either
 * end, runs of equal values, steps of 2^40 and the extremes of u64. */
START_TEST(test_lower_matches_scan)
{
	const size_t sizes[] = { 0, 1, 63, 64, 65, 1000, 100003 };
	uint64_t r = 0x9e3779b97f4a7c15u + (uint64_t)_i, *v;
	size_t n = sizes[(size_t)_i % 7];

	v = malloc((n + 1) * sizeof *v);
	ck_assert_ptr_nonnull(v);
	for (size_t i = 0, t = 0; i < n; i++) {
		uint64_t d;

		switch (_i % 5) {
		case 0:			/* even */
			d = 1000 + rnd(&r) % 50;
			break;
		case 1:			/* most at the start, a long tail */
			d = i < n - n / 16 ? rnd(&r) % 3 :
			    rnd(&r) % ((uint64_t)1 << 40);
			break;
		case 2:			/* a jump, then most at the end */
			d = i == n / 16 ? (uint64_t)1 << 50 :
			    rnd(&r) % 3;
			break;
		case 3:			/* equal runs */
			d = rnd(&r) % 8 == 0;
			break;
		default:		/* the whole range */
			d = n ? UINT64_MAX / n * (rnd(&r) % 2) : 0;
		}
		t += d;
		v[i] = t;
	}
	for (int k = 0; k < 2000; k++) {
		uint64_t x = k % 4 == 0 && n ? v[rnd(&r) % n] +
		    (uint64_t)(k % 8 == 4) : rnd(&r) >> (k % 64);
		size_t want = 0;

		if (k == 0 || k == 1)
			x = k == 0 ? 0 : UINT64_MAX;
		while (want < n && v[want] < x)
			want++;
		ck_assert_uint_eq(d9m_lower(v, n, x), want);
	}
	free(v);
}
END_TEST

/* Polls of one task starting at the same time on two workers, the
 * later worker's event first: each task's polls are listed by start,
 * then by row (the worker's order), as a stable sort by start lists
 * them, whatever order the events came in; per: the starts at each
 * time (a few, or as many as a forged trace may hold). */
static void
check_ties(unsigned per)
{
	struct mt t;
	struct d9m_model *m;
	size_t seen = 0;

	mt_begin(&t);
	mt_unpark(&t, 0, 0, 0, 100, 0);
	mt_unpark(&t, 0, 1, 0, 101, 0);
	for (uint64_t k = 0; k < 6; k++) {
		uint64_t ts = 100 + 100 * k;

		mt_wake(&t, ts - 50, 0, 5, 0);
		for (uint64_t i = 0; i < per; i++)	/* task 5 on both */
			mt_poll_start(&t, ts, (i + k + 1) % 2,
			    5 + (i == per - 1), "x.rs:1:1");
		mt_poll_end(&t, ts + 20, 1);
		mt_poll_end(&t, ts + 30, 0);
	}
	m = mt_finish(&t);
	ck_assert_ptr_nonnull(m);
	for (uint32_t task = 0; task < m->tasks.n; task++) {
		const size_t *off = m->task_polls_off;

		for (size_t k = off[task]; k < off[task + 1]; k++) {
			uint32_t p = m->task_polls[k];

			ck_assert_uint_eq(m->polls.task[p], task);
			if (k > off[task]) {
				uint32_t q = m->task_polls[k - 1];

				ck_assert(m->polls.start[q] <
				    m->polls.start[p] || (m->polls.start[q] ==
				    m->polls.start[p] && q < p));
			}
			seen++;
		}
	}
	ck_assert_uint_eq(seen, m->polls.n);
	ck_assert_uint_ge(m->polls.n, 6 * (size_t)per);
	d9m_model_free(&m);
}

START_TEST(test_task_polls_ties)
{
	check_ties(3);
	check_ties(5000);
}
END_TEST

Suite *
window_suite(void)
{
	Suite *s = suite_create("window");
	TCase *tc = tcase_create("scans");

	tcase_add_loop_test(tc, test_windows_match_scans, 0, 30);
	tcase_add_loop_test(tc, test_lane_cells_match_scans, 0, 40);
	tcase_add_test(tc, test_span_lives);
	tcase_add_test(tc, test_task_polls_ties);
	tcase_add_test(tc, test_window_ms);
	tcase_add_loop_test(tc, test_lower_matches_scan, 0, 35);
	suite_add_tcase(s, tc);
	return s;
}
