/*
 * poi.c: see poi.h. Each kind is a pass over what starts in the window
 * (polls by worker, parks by worker, CPU samples, spawns); off-CPU
 * samples are classified once per distinct (stack, segment). Kinds keep
 * their worst D9M_POI_MAX, ranked by value (earlier first on ties).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/search.h"
#include "base/vec.h"
#include "model/core/ids.h"
#include "model/core/loss.h"
#include "model/figures/poi.h"
#include "model/queries/samples.h"
#include "model/core/table.h"
#include "model/figures/verdict.h"

#define MS	1000000

static const char *const names[D9M_POI_COUNT] = { "long-poll",
	"sched-delay", "kernel-wait", "off-cpu-in-poll", "spawn-delay",
	"uninstrumented", "events-lost" };

const char *
d9m_poi_name(enum d9m_poi_kind k)
{
	return (unsigned)k < D9M_POI_COUNT ? names[k] : "?";
}

/* A point found: only those kept get their text (text_of), from the
 * point and arg (the off-CPU class; the overflow row, D9_NONE for what
 * the recorder's counters say). */
struct cand {
	uint64_t	 start, dur, value;
	uint32_t	 worker, task, poll, arg;
	enum d9m_poi_kind kind;
};

struct acc {
	struct cand	*v[D9M_POI_COUNT];
	size_t		 n[D9M_POI_COUNT], cap[D9M_POI_COUNT];
	int		 oom;
};

static void
add(struct acc *c, enum d9m_poi_kind k, uint64_t start, uint64_t dur,
    uint64_t value, uint32_t worker, uint32_t task, uint32_t poll,
    uint32_t arg)
{
	if (c->oom || d9_grow(&c->v[k], &c->cap[k], c->n[k] + 1,
	    sizeof *c->v[k]) < 0) {
		c->oom = 1;
		return;
	}
	c->v[k][c->n[k]++] = (struct cand){ start, dur, value, worker, task,
	    poll, arg, k };
}

static const char *
loc_of(const struct d9m_model *m, uint32_t loc)
{
	return loc == D9_NONE ? "(unknown)" : d9m_str(m, loc);
}

static uint64_t
task_id(const struct d9m_model *m, uint32_t t)
{
	return t == D9_NONE ? 0 : m->tasks.id[t];
}

/* A task that no spawn and no wake names: its polls are not traced. */
static int
uninstrumented(const struct d9m_model *m, uint32_t t)
{
	return t != D9_NONE && !(m->tasks.flags[t] & D9M_TASK_SPAWNED) &&
	    m->wakes.by_woken_off[t] == m->wakes.by_woken_off[t + 1];
}

/* Long polls, scheduling delays and uninstrumented polls. */
static void
polls(const struct d9m_model *m, const struct d9m_window *w, struct acc *c)
{
	for (size_t s = 0; s < m->nworkers; s++) {
		size_t i0, i1;

		d9m_window_polls(m, s, w, &i0, &i1);
		for (size_t i = i0; i < i1; i++) {
			uint64_t st = m->polls.start[i], d = m->polls.end[i] - st;
			uint64_t sd = m->poll_sched[i];
			uint32_t t = m->polls.task[i], p = (uint32_t)i;

			if (d > MS)
				add(c, D9M_POI_LONG_POLL, st, d, d,
				    d9m_poll_worker_id(m, p), t, p, D9_NONE);
			if (sd != D9M_SCHED_NONE && sd != D9M_SCHED_NO_WAKE &&
			    sd > MS)
				add(c, D9M_POI_SCHED_DELAY, st - sd, sd, sd,
				    d9m_poll_worker_id(m, p), t, p, D9_NONE);
			if (uninstrumented(m, t))
				add(c, D9M_POI_UNINSTRUMENTED, st, d, d,
				    d9m_poll_worker_id(m, p), t, p, D9_NONE);
		}
	}
}

/* Unparks that waited over 1 ms for a CPU (the kernel's run queue). */
static void
kernel_waits(const struct d9m_model *m, const struct d9m_window *w,
    struct acc *c)
{
	for (size_t s = 0; s < m->nworkers; s++) {
		const struct d9m_worker *wk = &m->workers[s];
		size_t i0, i1;

		/* a worker's parks do not overlap: their ends are sorted */
		d9m_window_rows(d9m_row(m->parks.end, wk->park0), wk->nparks, w,
		    &i0, &i1);
		for (size_t i = wk->park0 + i0; i < wk->park0 + i1; i++) {
			uint64_t sw = m->parks.sched_wait[i], end =
			    m->parks.end[i];

			if (sw == D9M_ABSENT || sw <= MS || end < sw)
				continue;
			add(c, D9M_POI_KERNEL_WAIT, end - sw, sw, sw, wk->id,
			    D9_NONE, D9_NONE, D9_NONE);
		}
	}
}

/* Polls with off-CPU samples that block their worker: the samples of a
 * distinct (stack, segment) are classified once (segments that name
 * every address alike count as one: twins.h), then counted by poll with
 * the class most of them have. */
static void
off_cpu(const struct d9m_model *m, const struct d9m_resolver *r,
    const struct d9m_window *w, struct acc *c)
{
	size_t i0, i1, n = 0;
	uint64_t *key, *byp;
	const uint32_t *twin = m->seg_twin;
	uint32_t *perm;
	uint8_t *cls;
	struct d9m_vmemo vm;	/* the stacks share most of their frames */
	int vok = d9m_vmemo_init(&vm) == 0;

	d9m_window_rows(m->cpu.ts, m->cpu.n, w, &i0, &i1);
	key = malloc((i1 - i0 + 1) * sizeof *key);
	byp = malloc((i1 - i0 + 1) * sizeof *byp);
	perm = malloc((i1 - i0 + 1) * sizeof *perm);
	cls = malloc(i1 - i0 + 1);
	if (key == NULL || byp == NULL || perm == NULL || cls == NULL || !vok)
		goto oom;
	for (size_t i = i0; i < i1; i++)
		key[i - i0] = (uint64_t)m->cpu.stack[i] << 32 |
		    (m->cpu.seg[i] < m->segs.n ? twin[m->cpu.seg[i]] :
		    m->cpu.seg[i]);
	if (d9m_sort_perm(key, i1 - i0, perm) < 0)
		goto oom;
	for (size_t k = 0; k < i1 - i0; k++) {
		size_t i = i0 + perm[k];
		const char *why;

		if (k > 0 && key[perm[k]] == key[perm[k - 1]])
			cls[perm[k]] = cls[perm[k - 1]];
		else
			cls[perm[k]] = d9m_cpu_class(m, i) == D9M_OFF_CPU ?
			    (uint8_t)d9m_sample_class(m, r, &vm, i, &why) :
			    D9M_V_CPU;
	}
	for (size_t i = i0; i < i1; i++)
		if (m->cpu.poll[i] != D9_NONE &&
		    d9m_cpu_class(m, i) == D9M_OFF_CPU &&
		    d9m_vclass_blocks((enum d9m_vclass)cls[i - i0]))
			byp[n++] = (uint64_t)m->cpu.poll[i] << 8 | cls[i - i0];
	if (d9m_sort_u64(byp, n) < 0)
		goto oom;
	for (size_t i = 0, k; i < n; i += k) {
		uint32_t p = (uint32_t)(byp[i] >> 8);
		size_t best = 0, run;
		enum d9m_vclass bc = D9M_V_BLOCKED;

		for (k = 0; i + k < n && byp[i + k] >> 8 == p; k += run) {
			for (run = 1; i + k + run < n && byp[i + k + run] ==
			    byp[i + k]; run++)
				;
			if (run > best) {
				best = run;
				bc = (enum d9m_vclass)(byp[i + k] & 0xff);
			}
		}
		add(c, D9M_POI_OFF_CPU, m->polls.start[p], m->polls.end[p] -
		    m->polls.start[p], k, d9m_poll_worker_id(m, p),
		    m->polls.task[p], p, (uint32_t)bc);
	}
	goto out;
oom:
	c->oom = 1;
out:
	free(key);
	free(byp);
	free(perm);
	free(cls);
	d9m_vmemo_free(&vm);
}

/* Tasks spawned in the window whose first poll came over 1 ms later. */
static void
spawns(const struct d9m_model *m, const struct d9m_window *w, struct acc *c)
{
	for (uint32_t t = 0; t < m->tasks.n; t++) {
		uint64_t sp = m->tasks.spawn_ts[t], d;
		uint32_t p;

		if (!(m->tasks.flags[t] & D9M_TASK_SPAWNED) ||
		    !d9m_in_window(w, sp) || m->task_polls_off[t] ==
		    m->task_polls_off[t + 1])
			continue;
		p = m->task_polls[m->task_polls_off[t]];
		if (m->polls.start[p] <= sp || (d = m->polls.start[p] - sp) <=
		    MS)
			continue;
		add(c, D9M_POI_SPAWN_DELAY, sp, d, d, d9m_poll_worker_id(m, p),
		    t, p, D9_NONE);
	}
}

/* What was lost: each overflow event where it happened, and what the
 * recorder's counters or cut segments say, at the end of the trace. */
static void
losses(const struct d9m_model *m, const struct d9m_window *w, struct acc *c)
{
	const struct d9m_loss *l = &m->loss;
	uint64_t n = l->dropped_events + l->dropped_allocs + l->dropped_frees +
	    l->lost_cpu;
	size_t i0, i1;

	d9m_window_rows(m->overflow.ts, m->overflow.n, w, &i0, &i1);
	for (size_t i = i0; i < i1; i++) {
		uint64_t k = m->overflow.allocs[i] + m->overflow.frees[i];

		if (k > 0)
			add(c, D9M_POI_EVENTS_LOST, m->overflow.ts[i], 0, k,
			    D9_NONE, D9_NONE, D9_NONE, (uint32_t)i);
	}
	if ((l->dropped_events || l->lost_batches || l->lost_cpu ||
	    l->incomplete) && d9m_in_window(w, m->max_ts))
		add(c, D9M_POI_EVENTS_LOST, m->max_ts, 0, n ? n :
		    l->lost_batches + l->incomplete, D9_NONE, D9_NONE, D9_NONE,
		    D9_NONE);
}

/* The text of point x. */
/* What held a delayed task's worker, after its text (ANALYSIS 20). */
static void
held_text(const struct d9m_model *m, const struct d9m_held *h, char *out,
    size_t cap)
{
	size_t n = strlen(out);

	if (n >= cap)
		return;
	if (h->why == D9M_HELD_POLL)
		snprintf(out + n, cap - n, "; held by task %" PRIu64 "'s "
		    "%.3f ms poll (%.3f ms of the wait)", task_id(m,
		    m->polls.task[h->poll]), (double)(m->polls.end[h->poll] -
		    m->polls.start[h->poll]) / MS, (double)h->overlap / MS);
	else
		snprintf(out + n, cap - n, "; %s", h->why == D9M_HELD_PARKED ?
		    "its worker was parked" : "no poll held its worker: "
		    "another worker's queue had it");
}

static void
text_of(const struct d9m_model *m, const struct cand *x,
    const struct d9m_held *h, char *out, size_t cap)
{
	char what[200];

	switch (x->kind) {
	case D9M_POI_LONG_POLL:
		snprintf(out, cap, "%.3f ms poll of task %" PRIu64 " (%s)",
		    (double)x->value / MS, task_id(m, x->task),
		    loc_of(m, m->polls.loc[x->poll]));
		break;
	case D9M_POI_SCHED_DELAY:
	case D9M_POI_SPAWN_DELAY:
		snprintf(out, cap, "task %" PRIu64 " waited %.3f ms from its "
		    "%s (%s)", task_id(m, x->task), (double)x->value / MS,
		    x->kind == D9M_POI_SCHED_DELAY ? "wake to its poll" :
		    "spawn to its first poll", loc_of(m,
		    x->kind == D9M_POI_SCHED_DELAY ? m->polls.loc[x->poll] :
		    m->tasks.loc[x->task]));
		if (x->kind == D9M_POI_SCHED_DELAY)
			held_text(m, h, out, cap);
		break;
	case D9M_POI_UNINSTRUMENTED:
		snprintf(out, cap, "%.3f ms poll of task %" PRIu64 ", which "
		    "has no spawn or wake record", (double)x->value / MS,
		    task_id(m, x->task));
		break;
	case D9M_POI_KERNEL_WAIT:
		d9m_worker_label(m, x->worker, what, sizeof what);
		snprintf(out, cap, "worker %s waited %.3f ms for a CPU "
		    "before it ran again", what, (double)x->value / MS);
		break;
	case D9M_POI_OFF_CPU:
		snprintf(out, cap, "%" PRIu64 " off-CPU sample%s (mostly %s) "
		    "in a %.3f ms poll of task %" PRIu64, x->value,
		    x->value == 1 ? "" : "s",
		    d9m_vclass_name((enum d9m_vclass)x->arg),
		    (double)x->dur / MS, task_id(m, x->task));
		break;
	case D9M_POI_EVENTS_LOST:
		if (x->arg != D9_NONE) {
			snprintf(out, cap, "the profiler dropped %" PRIu64
			    " allocations and %" PRIu64 " frees",
			    m->overflow.allocs[x->arg],
			    m->overflow.frees[x->arg]);
			break;
		}
		d9m_loss_text(&m->loss, what, sizeof what);
		snprintf(out, cap, "the recording lost data: %s", what);
		break;
	default:
		out[0] = '\0';
	}
}

static int
cmp_worst(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	if (a->value != b->value)
		return a->value > b->value ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

/* Every point's start, by kind then time: 0, or -1 out of memory. */
static int
all_starts(struct d9m_pois *p, const struct acc *c, size_t all)
{
	size_t at = 0;

	if ((p->starts = malloc((all ? all : 1) * sizeof *p->starts)) == NULL)
		return -1;
	for (int k = 0; k < D9M_POI_COUNT; k++) {
		p->sfirst[k] = at;
		for (size_t i = 0; i < c->n[k]; i++)
			p->starts[at + i] = c->v[k][i].start;
		if (d9m_sort_u64(p->starts + at, c->n[k]) < 0)
			return -1;
		at += c->n[k];
	}
	return 0;
}

/* The worst `keep` of v[0 .. n) first, in cmp_worst's order, as a
 * stable sort of all of them would put them (what follows them is left
 * in no order): those below the keep-th largest value are dropped
 * before the sort. 0, or -1 out of memory. */
static int
worst_first(struct cand *v, size_t n, size_t keep)
{
	uint64_t *val, cut;
	size_t j = 0;

	if (n > keep && keep > 0) {
		if ((val = malloc(n * sizeof *val)) == NULL)
			return -1;
		for (size_t i = 0; i < n; i++)
			val[i] = v[i].value;
		cut = d9m_nth_u64(val, n, n - keep);
		free(val);
		for (size_t i = 0; i < n; i++)	/* in order: ties stay so */
			if (v[i].value >= cut)
				v[j++] = v[i];
		n = j;
	}
	if (n > 0)
		qsort(v, n, sizeof *v, cmp_worst);
	return 0;
}

/* Kinds worst first, each cut to D9M_POI_MAX, then a by-time index. */
static struct d9m_pois *
gather(const struct d9m_model *m, struct acc *c)
{
	struct d9m_pois *p = calloc(1, sizeof *p);
	size_t n = 0, all = 0;
	uint64_t *key;

	if (p == NULL)
		return NULL;
	for (int k = 0; k < D9M_POI_COUNT; k++) {
		p->total[k] = c->n[k];
		all += c->n[k];
		n += c->n[k] < D9M_POI_MAX ? c->n[k] : D9M_POI_MAX;
	}
	/* every start first: the selection drops most candidates */
	if (all_starts(p, c, all) < 0) {
		d9m_pois_free(&p);
		return NULL;
	}
	for (int k = 0; k < D9M_POI_COUNT; k++)
		if (worst_first(c->v[k], c->n[k], D9M_POI_MAX) < 0) {
			d9m_pois_free(&p);
			return NULL;
		}
	p->v = malloc((n ? n : 1) * sizeof *p->v);
	p->by_time = malloc((n ? n : 1) * sizeof *p->by_time);
	key = malloc((n ? n : 1) * sizeof *key);
	if (p->v == NULL || p->by_time == NULL || key == NULL) {
		free(key);
		d9m_pois_free(&p);
		return NULL;
	}
	for (int k = 0; k < D9M_POI_COUNT; k++) {
		size_t keep = c->n[k] < D9M_POI_MAX ? c->n[k] : D9M_POI_MAX;

		p->first[k] = p->n;
		for (size_t i = 0; i < keep; i++) {
			const struct cand *x = &c->v[k][i];
			struct d9m_poi *y = &p->v[p->n++];

			*y = (struct d9m_poi){ .kind = x->kind, .start =
			    x->start, .dur = x->dur, .value = x->value,
			    .worker = x->worker, .task = x->task, .poll =
			    x->poll };
			if (x->kind == D9M_POI_SCHED_DELAY)
				d9m_held_by(m, x->poll, &y->held);
			text_of(m, x, &y->held, y->text, sizeof y->text);
		}
	}
	p->first[D9M_POI_COUNT] = p->n;
	/* by (kind, start): starts within a kind, kinds in order */
	for (size_t i = 0; i < n; i++)
		key[i] = p->v[i].start;
	if (d9m_sort_perm(key, n, p->by_time) < 0) {
		free(key);
		d9m_pois_free(&p);
		return NULL;
	}
	{
		size_t fill[D9M_POI_COUNT] = { 0 };
		uint32_t *t = malloc((n ? n : 1) * sizeof *t);

		if (t == NULL) {
			free(key);
			d9m_pois_free(&p);
			return NULL;
		}
		for (size_t i = 0; i < n; i++) {
			enum d9m_poi_kind k = p->v[p->by_time[i]].kind;

			t[p->first[k] + fill[k]++] = p->by_time[i];
		}
		free(p->by_time);
		p->by_time = t;
	}
	free(key);
	return p;
}

struct d9m_pois *
d9m_pois_find(const struct d9m_model *m, const struct d9m_resolver *r,
    const struct d9m_window *w)
{
	struct acc c;
	struct d9m_pois *p = NULL;

	memset(&c, 0, sizeof c);
	polls(m, w, &c);
	kernel_waits(m, w, &c);
	off_cpu(m, r, w, &c);
	spawns(m, w, &c);
	losses(m, w, &c);
	if (!c.oom)
		p = gather(m, &c);
	for (int k = 0; k < D9M_POI_COUNT; k++)
		free(c.v[k]);
	return p;
}

void
d9m_pois_free(struct d9m_pois **pp)
{
	struct d9m_pois *p = *pp;

	if (p == NULL)
		return;
	free(p->v);
	free(p->by_time);
	free(p->starts);
	free(p);
	*pp = NULL;
}

/* How many of the sorted v[0 .. n) lie in [lo, hi]. */
static size_t
in_range(const uint64_t *v, size_t n, uint64_t lo, uint64_t hi)
{
	if (lo > hi)
		return 0;
	size_t a = d9_bisect_u64(v, 0, n, lo);

	if (hi == UINT64_MAX)
		return n - a;
	return d9_bisect_u64(v, a, n, hi + 1) - a;
}

size_t
d9m_pois_count(const struct d9m_pois *p, int k, const struct d9m_window *w)
{
	uint64_t lo = w->lo, hi = w->hi;
	size_t n = 0;

	if (p == NULL)
		return 0;
	if (k >= 0)
		return k < D9M_POI_COUNT ? in_range(p->starts + p->sfirst[k],
		    p->total[k], lo, hi) : 0;
	for (int i = 0; i < D9M_POI_COUNT; i++)
		n += in_range(p->starts + p->sfirst[i], p->total[i], lo, hi);
	return n;
}

size_t
d9m_pois_listed(const struct d9m_pois *p, int k, const struct d9m_window *w)
{
	size_t n = 0;

	if (p == NULL || k < 0 || k >= D9M_POI_COUNT)
		return 0;
	for (size_t i = p->first[k]; i < p->first[k + 1]; i++)
		n += d9m_in_window(w, p->v[i].start);
	return n;
}

struct step {
	const struct d9m_pois	*p;
	uint64_t		 ts;
	int			 dir;
};

static int
step_before(const void *ctx, size_t i)
{
	const struct step *q = ctx;
	uint64_t s = q->p->v[q->p->by_time[i]].start;

	return q->dir > 0 ? s <= q->ts : s < q->ts;
}

long
d9m_poi_step(const struct d9m_pois *p, enum d9m_poi_kind k, uint64_t ts,
    int dir)
{
	size_t lo = p->first[k], hi = p->first[k + 1];
	const struct step q = { p, ts, dir };
	/* first of the kind starting after ts (dir > 0), or at/after it */
	size_t a = d9_partition(lo, hi, &q, step_before);

	if (dir > 0)
		return a < hi ? (long)p->by_time[a] : -1;
	return a > lo ? (long)p->by_time[a - 1] : -1;
}
