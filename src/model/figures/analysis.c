/*
 * analysis.c: the driver, and the worker, poll and CPU sections. Window rule: a poll, period, sample or span belongs to the
 * window when it starts inside it; period lengths are clipped to it.
 * Every table is sorted by time (polls and periods per worker), so a
 * window is found by binary search and costs what is inside it.
 */
#include <stdlib.h>
#include <string.h>

#include "base/stackcap.h"
#include "base/vec.h"
#include "base/wire.h"
#include "model/figures/analysis.h"
#include "model/figures/observer.h"
#include "model/figures/byname.h"
#include "model/core/par.h"
#include "model/queries/samples.h"
#include "model/core/table.h"
#include "model/figures/verdict.h"

static uint64_t
clip_len(const struct d9m_window *w, uint64_t s, uint64_t e)
{
	if (s < w->lo)
		s = w->lo;
	if (e > w->hi)
		e = w->hi;
	return e > s ? e - s : 0;
}

/*
 * Rows [*a, *b) of the periods p[r0 .. r0 + n) of one worker that reach
 * into the window. A worker's periods do not overlap, so besides those
 * starting in it only the one just before can.
 */
static void
period_rows(const struct d9m_periods *p, size_t r0, size_t n,
    const struct d9m_window *w, size_t *a, size_t *b)
{
	d9m_window_rows(d9m_row(p->start, r0), n, w, a, b);
	*a -= *a > 0;
	*a += r0;
	*b += r0;
}

int
d9m_an_workers(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	const struct d9m_window *w = &o->win;

	a->workers = calloc(m->nworkers ? m->nworkers : 1, sizeof *a->workers);
	if (a->workers == NULL)
		return -1;
	a->nworkers = m->nworkers;
	for (size_t s = 0; s < m->nworkers; s++) {
		const struct d9m_worker *wk = &m->workers[s];
		struct d9m_worker_fig *f = &a->workers[s];
		double rsum = 0, wsum = 0, wlen = 0;
		size_t i0, i1;

		f->id = wk->id;
		d9m_window_polls(m, s, w, &i0, &i1);
		f->polls = i1 - i0;
		period_rows(&m->parks, wk->park0, wk->nparks, w, &i0, &i1);
		for (size_t i = i0; i < i1; i++) {
			uint64_t sw = m->parks.sched_wait[i];

			f->parked_ns += clip_len(w, m->parks.start[i],
			    m->parks.end[i]);
			if (!d9m_in_window(w, m->parks.start[i]))
				continue;
			f->parks++;
			if (sw == D9M_ABSENT || sw == 0)
				continue;
			f->sched_wait_n++;
			f->sched_wait_over1ms += sw > 1000000;
			if (sw > f->sched_wait_max)
				f->sched_wait_max = sw;
		}
		period_rows(&m->actives, wk->act0, wk->nacts, w, &i0, &i1);
		for (size_t i = i0; i < i1; i++) {
			uint64_t len = clip_len(w, m->actives.start[i],
			    m->actives.end[i]);
			double r = m->actives.ratio[i];

			f->active_ns += len;
			if (!d9m_in_window(w, m->actives.start[i]))
				continue;
			f->actives++;
			rsum += r;
			r = r < 0 ? 0 : r > 1 ? 1 : r;
			wsum += r * (double)len;
			wlen += (double)len;
		}
		f->util = f->active_ns + f->parked_ns ? (double)f->active_ns /
		    (double)(f->active_ns + f->parked_ns) : 0;
		f->cpu_ratio = f->actives ? rsum / (double)f->actives : 0;
		f->cpu_ratio_weighted = wlen > 0 ? wsum / wlen : 0;
	}
	return 0;
}

/* Count poll i and keep it in top[0 .. *n) (at most want rows) when it
 * is among the longest: longest first, earlier on ties. */
static void
top_poll(const struct d9m_model *m, uint32_t i, size_t want, uint32_t *top,
    size_t *n, struct d9m_analysis *a)
{
	uint64_t d = m->polls.end[i] - m->polls.start[i];
	int open = m->polls.flags[i] & D9M_POLL_OPEN_ENDED;
	size_t j;

	a->npolls++;
	a->open_ended += open != 0;
	if (d > 1000000) {
		a->long_polls++;
		a->long_polls_closed += !open;
	}
	if (want == 0 || (*n == want && d <= m->polls.end[top[*n - 1]] -
	    m->polls.start[top[*n - 1]]))
		return;
	j = *n < want ? (*n)++ : *n - 1;
	for (; j > 0; j--) {
		uint32_t p = top[j - 1];

		if (m->polls.end[p] - m->polls.start[p] >= d)
			break;
		top[j] = p;
	}
	top[j] = i;
}

int
d9m_an_polls(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	size_t want = o->worst, n = 0;
	uint32_t *top = malloc((want ? want : 1) * sizeof *top);

	if (top == NULL)
		return -1;
	/* worker by worker: rows in table order, as ties want */
	for (size_t s = 0; s < m->nworkers; s++) {
		size_t i0, i1;

		d9m_window_polls(m, s, &o->win, &i0, &i1);
		for (size_t i = i0; i < i1; i++)
			top_poll(m, (uint32_t)i, want, top, &n, a);
	}
	a->worst = calloc(n ? n : 1, sizeof *a->worst);
	if (a->worst == NULL) {
		free(top);
		return -1;
	}
	a->nworst = n;
	for (size_t i = 0; i < n; i++)
		a->worst[i].poll = top[i];
	free(top);
	return 0;
}

/* The in-poll switches by ANALYSIS 17's classes, group by group. */
static void
off_classes(const struct d9m_model *m, const struct d9m_resolver *r,
    struct d9m_analysis *a)
{
	struct d9m_vmemo vm;	/* the stacks share most of their frames */
	int ok = d9m_vmemo_init(&vm) == 0;

	a->off_blocking = a->off_blocking_top = a->off_preempted = 0;
	for (size_t i = 0; ok && i < a->noff_groups; i++) {
		const struct d9m_stack_group *g = &a->off_groups[i];
		size_t n = d9m_stack_frames_memo(m, r, &vm.fm, g->seg, g->stack,
		    vm.f, D9_STACK_MAX);
		const char *why;
		enum d9m_vclass c = d9m_stack_class_memo(&vm, vm.f, n, &why);

		if (c == D9M_V_PREEMPTED)
			a->off_preempted += g->count;
		if (!d9m_vclass_blocks(c))
			continue;
		a->off_blocking += g->count;
		if (g->count > a->off_blocking_top)
			a->off_blocking_top = g->count;
	}
	d9m_vmemo_free(&vm);
}

/* Samples attached to each worst poll, grouped by stack: they were
 * taken between its start and its end. */
static int
worst_stacks(const struct d9m_model *m, const struct d9m_resolver *r,
    struct d9m_analysis *a)
{
	for (size_t k = 0; k < a->nworst; k++) {
		struct d9m_worst *w = &a->worst[k];

		if (d9m_poll_verdict(m, r, w->poll, &w->verdict) < 0)
			return -1;
		d9m_delayed_by(m, w->poll, &w->delayed, NULL, 0);
		for (int src = 0; src < 2; src++) {
			uint32_t *rows;
			size_t n;
			int rc;

			if (d9m_poll_samples(m, w->poll, src ? D9M_OFF_CPU :
			    D9M_ON_CPU, &rows, &n) < 0)
				return -1;
			rc = d9m_group_stacks(m, r, rows, n, src ? &w->off :
			    &w->cpu, src ? &w->noff : &w->ncpu);
			free(rows);
			if (rc < 0)
				return -1;
		}
	}
	return 0;
}

int
d9m_an_cpu(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	size_t i0, i1, non = 0, ninp = 0;
	uint32_t *on, *inp;
	int rc = -1;

	d9m_window_rows(m->cpu.ts, m->cpu.n, &o->win, &i0, &i1);
	on = malloc((i1 - i0 + 1) * sizeof *on);
	inp = malloc((i1 - i0 + 1) * sizeof *inp);
	if (on == NULL || inp == NULL)
		goto out;
	a->cpu_samples = i1 - i0;
	for (size_t i = i0; i < i1; i++) {
		if (d9m_cpu_class(m, i) == D9M_ON_CPU) {
			a->on_cpu++;
			on[non++] = (uint32_t)i;
		} else if (d9m_cpu_class(m, i) == D9M_OFF_CPU) {
			uint32_t w = d9m_cpu_weight(m, i);	/* switches */

			a->off_samples++;
			a->off_cpu += w;
			if (m->cpu.poll[i] != D9_NONE) {
				a->off_in_poll += w;
				inp[ninp++] = (uint32_t)i;
			} else if (!m->cpu.lane[i])
				a->off_no_worker += w;
		}
	}
	a->off_idle = a->off_cpu - a->off_in_poll;
	if (d9m_group_stacks(m, o->resolver, on, non, &a->cpu_groups,
	    &a->ncpu_groups) < 0 ||
	    d9m_group_stacks(m, o->resolver, inp, ninp, &a->off_groups,
	    &a->noff_groups) < 0)
		goto out;
	off_classes(m, o->resolver, a);
	rc = worst_stacks(m, o->resolver, a);
out:
	free(on);
	free(inp);
	return rc;
}

static void
queue_figures(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	double sum = 0;
	size_t i0, i1;

	d9m_window_rows(m->queue.ts, m->queue.n, &o->win, &i0, &i1);
	for (size_t i = i0; i < i1; i++) {
		sum += m->queue.global[i];
		if (m->queue.global[i] > a->queue_max)
			a->queue_max = m->queue.global[i];
	}
	a->queue_samples = i1 - i0;
	a->queue_avg = a->queue_samples ? sum / (double)a->queue_samples : 0;
	d9m_window_rows(m->rt.ts, m->rt.n, &o->win, &i0, &i1);
	for (size_t i = i0; i < i1; i++)
		if (m->rt.lq[i] > a->local_queue_max)
			a->local_queue_max = m->rt.lq[i];
}

static void
count_events(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	const uint64_t *cols[] = { m->rt.ts, m->wakes.ts, m->queue.ts };
	const size_t ns[] = { m->rt.n, m->wakes.n, m->queue.n };

	for (size_t c = 0; c < 3; c++) {
		size_t i0, i1;

		d9m_window_rows(cols[c], ns[c], &o->win, &i0, &i1);
		if (i0 == i1)
			continue;
		a->event_count += i1 - i0;
		lo = cols[c][i0] < lo ? cols[c][i0] : lo;
		hi = cols[c][i1 - 1] > hi ? cols[c][i1 - 1] : hi;
	}
	a->duration_ns = a->event_count ? hi - lo : 0;
}

/* Distinct (segment, address) pairs of sampled stacks, named or not,
 * found through a hash set (stacks repeat addresses heavily). */
struct segaddr {
	uint64_t	addr;
	uint32_t	seg;
};

struct segaddrs {
	struct segaddr	*v;
	size_t		 n, cap;
	struct d9_hmap	 rows;		/* hash of a pair -> row of v */
	struct segaddr	 want;
};

static int
same_pair(const void *ctx, uint32_t row)
{
	const struct segaddrs *s = ctx;

	return s->v[row].addr == s->want.addr && s->v[row].seg == s->want.seg;
}

static uint64_t
pair_hash(uint64_t addr, uint32_t seg)
{
	return addr + seg * 0x9e3779b97f4a7c15ull;
}

static uint64_t
hash_of_pair(const void *ctx, uint32_t row)
{
	const struct segaddrs *s = ctx;

	return pair_hash(s->v[row].addr, s->v[row].seg);
}

static uint32_t
add_pair(void *ctx)
{
	struct segaddrs *s = ctx;

	if (s->n >= D9_NONE || d9_grow(&s->v, &s->cap, s->n + 1,
	    sizeof *s->v) < 0)
		return D9_NONE;
	s->v[s->n] = s->want;
	return (uint32_t)s->n++;
}

static const struct d9_hmap_rows pair_rows = { hash_of_pair, add_pair };

static int
set_add(struct segaddrs *s, uint32_t seg, uint64_t addr)
{
	s->want.addr = addr;
	s->want.seg = seg;
	return d9_hmap_find_or_add(&s->rows, pair_hash(addr, seg), same_pair,
	    &pair_rows, s) == D9_NONE ? -1 : 0;
}

/* Every address of the samples' stacks (each stack once, with the
 * segment it first came with), named or not; the reader's marks of cut
 * stacks are none. */
static void
count_symbols(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	struct d9m_frame f[8];
	struct segaddrs t = { 0 };

	for (size_t i = 0; i < m->nsym_stacks; i++) {
		uint32_t st = (uint32_t)(m->sym_stacks[i] >> 32);
		uint32_t seg = (uint32_t)m->sym_stacks[i];
		const uint8_t *p;
		size_t nf;

		p = d9m_stack(m, st, &nf);
		for (size_t k = 0; k < nf; k++) {
			uint64_t addr = d9p_le64(p + 8 * k), cut;

			if (!d9_stack_is_cut(addr, &cut) &&
			    set_add(&t, seg, addr) < 0)
				goto out;
		}
	}
	for (size_t i = 0; i < t.n; i++) {
		if (d9m_frames_of(m, o->resolver, t.v[i].seg, t.v[i].addr, 0, f,
		    8) > 0 && f[0].name != NULL)
			a->frames_named++;
		else
			a->frames_unnamed++;
	}
out:
	d9_hmap_free(&t.rows);
	free(t.v);
}

/* A section of the analysis: 0, or -1 when out of memory. */
typedef int (*an_section)(const struct d9m_model *,
    const struct d9m_analysis_opts *, struct d9m_analysis *);

/* One job of an analysis on its way (the jobs run on two threads): its
 * sections, in their order, up to the first NULL. */
struct an_job {
	const struct d9m_model *m;
	const struct d9m_analysis_opts *o;
	struct d9m_analysis *a;
	an_section	 sec[5];
};

/* A job ends: what it read of a mapped index goes back to the page
 * cache once the process holds more than ANALYSIS_KEEP of it, so that a
 * whole trace's analysis does not hold every page of the index. Not
 * after every job: each give-back made the job still running on the
 * other core map its pages again (0.2 s of a 1 s warm analysis of 58
 * segments). */
#define ANALYSIS_KEEP	((size_t)256 << 20)

static int
run_job(void *arg)
{
	const struct an_job *j = arg;
	int rc = 0;

	for (size_t i = 0; i < sizeof j->sec / sizeof *j->sec &&
	    j->sec[i] != NULL && rc == 0; i++)
		rc = j->sec[i](j->m, j->o, j->a) < 0 ? -1 : 0;
	d9m_model_release(j->m, ANALYSIS_KEEP);
	return rc;
}

static int
an_pois(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	a->pois = d9m_pois_find(m, o->resolver, &o->win);
	return a->pois == NULL ? -1 : 0;
}

int
d9m_analyze(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	/* the longest first: the two threads take the next as they end
	 * (58 segments, warm: tasks 108 ms, sched 73, pois 60, workers
	 * 62, spans 22, taskstats 17, dumps 11, observer 6; 190 ms in
	 * this order against 180; one file: pois and workers first, the
	 * rest within 1 ms either way). Sections that read the figures of
	 * others follow them in one job (cpu reads the worst polls; setup
	 * the task counts, and count_symbols'; the labels the lists made
	 * before them); the others read only the model and write only
	 * their own figures */
	struct an_job aj[] = {
		{ m, o, a, { d9m_an_tasks, d9m_an_memory, d9m_an_labels_sites,
		    d9m_an_setup, d9m_an_sources } },
		{ m, o, a, { d9m_an_sched } }, { m, o, a, { an_pois } },
		{ m, o, a, { d9m_an_workers, d9m_an_polls, d9m_an_cpu,
		    d9m_an_labels_cpu } },
		{ m, o, a, { d9m_an_spans } }, { m, o, a, { d9m_an_observer } },
		{ m, o, a, { d9m_an_taskstats } },
		{ m, o, a, { d9m_an_dumps, d9m_an_labels_idle } } };
	struct d9m_job jobs[sizeof aj / sizeof *aj];

	for (size_t i = 0; i < sizeof aj / sizeof *aj; i++)
		jobs[i] = (struct d9m_job){ run_job, &aj[i] };

	memset(a, 0, sizeof *a);
	a->win = o->win;
	a->sched_worst_poll = D9_NONE;
	a->leak_loc = D9_NONE;
	if (!m->finished)
		return -1;
	count_events(m, o, a);
	queue_figures(m, o, a);
	a->runtimes = calloc(m->nruntimes + 1, sizeof *a->runtimes);
	if (a->runtimes == NULL ||
	    d9m_metric_figs(m, &o->win, &a->metrics, &a->nmetrics) < 0) {
		d9m_analysis_free(a);
		return -1;
	}
	d9m_runtime_figs(m, &o->win, a->runtimes);
	/* first, alone: it asks the resolver for every address, so its
	 * warnings come in the same order however the rest runs */
	count_symbols(m, o, a);
	d9m_model_release(m, ANALYSIS_KEEP);
	if (d9m_par_run(jobs, sizeof jobs / sizeof *jobs) < 0 ||
	    d9m_an_flags(m, o, a) < 0) {
		d9m_analysis_free(a);
		return -1;
	}
	if (o->chain_task) {
		a->chain = calloc(D9M_CHAIN_MAX, sizeof *a->chain);
		if (a->chain == NULL) {
			d9m_analysis_free(a);
			return -1;
		}
		a->nchain = d9m_task_chain(m, o->chain_task, &o->win, a->chain,
		    D9M_CHAIN_MAX);
	}
	return 0;
}

void
d9m_analysis_free(struct d9m_analysis *a)
{
	d9m_labels_free(a);
	free(a->workers);
	free(a->runtimes);
	free(a->metrics);
	for (size_t i = 0; i < a->nworst; i++) {
		free(a->worst[i].cpu);
		free(a->worst[i].off);
	}
	free(a->worst);
	free(a->locs);
	free(a->off_groups);
	free(a->cpu_groups);
	free(a->spans);
	free(a->mem.sites);
	free(a->chain);
	free(a->idle);
	free(a->flags);
	free(a->task_stats);
	free(a->task_lints);
	for (size_t i = 0; i < a->nsources; i++)
		free(a->sources[i].workers);
	free(a->sources);
	d9m_pois_free(&a->pois);
	memset(a, 0, sizeof *a);
}
