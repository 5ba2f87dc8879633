/*
 * json.c: --json. Key names are a contract (DESIGN.md "JSON keys"); keys
 * beyond the contract carry the better figures of ANALYSIS 15 next to
 * the reference-compatible ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stackcap.h"
#include "model/figures/diff.h"
#include "model/core/ids.h"
#include "model/core/loss.h"
#include "output/jsonw.h"
#include "output/output.h"


const char *
d9o_loc(const struct d9m_model *m, uint32_t loc)
{
	return loc == D9_NONE ? "(unknown)" : d9m_str(m, loc);
}

/* A worker's id as a number: as its process recorded it, 64 bits; and,
 * when the trace holds more than one process, the source it is of
 * (ANALYSIS 23). */
static void
worker_id(struct d9o_jw *w, const struct d9m_model *m, uint32_t wid)
{
	d9o_jw_ku64(w, "worker", d9m_worker_own(m, wid));
	if (m->groups.n > 1 && wid < m->wids.n)
		d9o_jw_ku64(w, "source", m->wids.group[wid]);
}

/* Keyed by the worker's label: "3", "1:3" for worker 3 of source 1. */
static void
worker_map(struct d9o_jw *w, const struct d9o_out *o, const char *key,
    int which)
{
	const struct d9m_analysis *a = o->a;
	char id[D9M_WORKER_LABEL];

	d9o_jw_key(w, key);
	d9o_jw_obj(w);
	for (size_t i = 0; i < a->nworkers; i++) {
		const struct d9m_worker_fig *f = &a->workers[i];

		d9m_worker_label(o->m, f->id, id, sizeof id);
		d9o_jw_key(w, id);
		switch (which) {
		case 0: d9o_jw_u64(w, f->polls); break;
		case 1: d9o_jw_u64(w, f->parks); break;
		case 2: d9o_jw_dbl(w, f->util); break;
		default: d9o_jw_dbl(w, f->cpu_ratio_weighted); break;
		}
	}
	d9o_jw_end(w, '}');
}

static void
frames(struct d9o_jw *w, const struct d9o_out *o, uint32_t seg,
    uint32_t stack, int alloc)
{
	struct d9m_frame *f = d9m_frames_alloc();
	size_t n = f == NULL ? 0 : alloc ? d9m_alloc_frames(o->m, o->r, seg,
	    stack, f, D9_STACK_MAX) : d9m_stack_frames(o->m, o->r, seg, stack,
	    f, D9_STACK_MAX);

	d9o_jw_key(w, "frames");
	d9o_jw_arr(w);
	for (size_t i = 0; i < n; i++)
		d9o_jw_str(w, d9m_frame_name(&f[i]));
	d9o_jw_end(w, ']');
	free(f);
}

/* A row's name (model/labels.h), on the rows that have one. */
static void
label(struct d9o_jw *w, const char *text)
{
	if (text != NULL)
		d9o_jw_kstr(w, "label", text);
}

static void
stack_groups(struct d9o_jw *w, const struct d9o_out *o, const char *key,
    const struct d9m_stack_group *g, size_t n)
{
	d9o_jw_key(w, key);
	d9o_jw_arr(w);
	for (size_t i = 0; i < n; i++) {
		d9o_jw_obj(w);
		d9o_jw_ku64(w, "count", g[i].count);
		label(w, g[i].label);
		frames(w, o, g[i].seg, g[i].stack, 0);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, ']');
}

static void
worst(struct d9o_jw *w, const struct d9o_out *o)
{
	const struct d9m_model *m = o->m;

	d9o_jw_key(w, "worstPolls");
	d9o_jw_arr(w);
	for (size_t i = 0; i < o->a->nworst; i++) {
		const struct d9m_worst *x = &o->a->worst[i];
		uint32_t p = x->poll, t = m->polls.task[p];

		d9o_jw_obj(w);
		d9o_jw_ku64(w, "durNs", m->polls.end[p] - m->polls.start[p]);
		worker_id(w, m, d9m_poll_worker_id(m, p));
		d9o_jw_ku64(w, "task", t != D9_NONE ? m->tasks.id[t] : 0);
		d9o_jw_kstr(w, "spawn", d9o_loc(m, m->polls.loc[p]));
		d9o_jw_ku64(w, "startNs", m->polls.start[p]);
		d9o_jw_key(w, "openEnded");
		d9o_jw_bool(w, m->polls.flags[p] & D9M_POLL_OPEN_ENDED);
		stack_groups(w, o, "cpuStacks", x->cpu, x->ncpu);
		stack_groups(w, o, "offCpuStacks", x->off, x->noff);
		d9o_jw_key(w, "verdict");
		d9o_jw_obj(w);
		d9o_jw_kstr(w, "kind", d9m_vclass_name(x->verdict.kind));
		d9o_jw_ku64(w, "samples", x->verdict.samples);
		d9o_jw_ku64(w, "of", x->verdict.of);
		d9o_jw_key(w, "expected");
		if (x->verdict.expected >= 0)
			d9o_jw_dbl(w, x->verdict.expected);
		else
			d9o_jw_null(w);
		d9o_jw_kstr(w, "confidence",
		    d9m_confidence_name(x->verdict.confidence));
		d9o_jw_end(w, '}');
		d9o_jw_key(w, "delayed");
		d9o_jw_obj(w);
		d9o_jw_ku64(w, "tasks", x->delayed.tasks);
		d9o_jw_ku64(w, "totalNs", x->delayed.total);
		d9o_jw_end(w, '}');
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, ']');
}

#define JSON_POIS	100	/* points of interest per kind */

/* heldBy of a sched-delay point (ANALYSIS 20): the poll that held its
 * worker, or null. */
static void
held_by(struct d9o_jw *w, const struct d9m_model *m, const struct d9m_held *h)
{
	uint32_t p = h->poll, t;

	d9o_jw_key(w, "heldBy");
	if (h->why != D9M_HELD_POLL) {
		d9o_jw_null(w);
		return;
	}
	t = m->polls.task[p];
	d9o_jw_obj(w);
	d9o_jw_ku64(w, "task", t != D9_NONE ? m->tasks.id[t] : 0);
	d9o_jw_ku64(w, "startNs", m->polls.start[p]);
	d9o_jw_ku64(w, "durNs", m->polls.end[p] - m->polls.start[p]);
	d9o_jw_ku64(w, "overlapNs", h->overlap);
	d9o_jw_end(w, '}');
}

static void
pois(struct d9o_jw *w, const struct d9o_out *o)
{
	const struct d9m_pois *p = o->a->pois;
	const struct d9m_model *m = o->m;

	d9o_jw_key(w, "pointsOfInterest");
	d9o_jw_arr(w);
	for (size_t i = 0; p != NULL && i < p->n; i++) {
		const struct d9m_poi *x = &p->v[i];

		/* the worst JSON_POIS of each kind */
		if (i - p->first[x->kind] >= JSON_POIS)
			continue;

		d9o_jw_obj(w);
		d9o_jw_kstr(w, "kind", d9m_poi_name(x->kind));
		d9o_jw_ku64(w, "startNs", x->start);
		d9o_jw_ku64(w, "durNs", x->dur);
		if (x->worker != D9_NONE)
			worker_id(w, m, x->worker);
		if (x->task != D9_NONE)
			d9o_jw_ku64(w, "task", m->tasks.id[x->task]);
		d9o_jw_kstr(w, "text", x->text);
		if (x->kind == D9M_POI_SCHED_DELAY)
			held_by(w, m, &x->held);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, ']');
	/* true counts: the list above is cut (ANALYSIS 18.1) */
	d9o_jw_key(w, "poiCounts");
	d9o_jw_obj(w);
	for (int k = 0; k < D9M_POI_COUNT; k++)
		d9o_jw_ku64(w, d9m_poi_name((enum d9m_poi_kind)k),
		    d9m_pois_count(p, k, &D9M_WHOLE));
	d9o_jw_end(w, '}');
}

/* taskStats and taskLints (ANALYSIS 22). */
static void
task_stats(struct d9o_jw *w, const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	const struct d9m_model *m = o->m;

	d9o_jw_key(w, "taskStats");
	d9o_jw_arr(w);
	for (size_t i = 0; i < a->ntask_stats; i++) {
		const struct d9m_task_stat *s = &a->task_stats[i];

		d9o_jw_obj(w);
		d9o_jw_ku64(w, "task", m->tasks.id[s->task]);
		d9o_jw_kstr(w, "spawn", d9o_loc(m, m->tasks.loc[s->task]));
		d9o_jw_ku64(w, "polls", s->polls);
		d9o_jw_ku64(w, "busyNs", s->busy);
		d9o_jw_ku64(w, "scheduledNs", s->sched);
		d9o_jw_ku64(w, "idleNs", s->idle);
		d9o_jw_ku64(w, "wakes", s->wakes);
		d9o_jw_ku64(w, "selfWakes", s->self_wakes);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, ']');
	d9o_jw_ku64(w, "taskStatsTotal", a->ntask_stats_all);
	d9o_jw_key(w, "taskLints");
	d9o_jw_arr(w);
	for (size_t i = 0; i < a->ntask_lints; i++) {
		const struct d9m_task_lint *l = &a->task_lints[i];

		d9o_jw_obj(w);
		d9o_jw_kstr(w, "kind", l->kind);
		d9o_jw_ku64(w, "task", m->tasks.id[l->task]);
		d9o_jw_kstr(w, "text", l->text);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, ']');
}

static void
tasks(struct d9o_jw *w, const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;

	d9o_jw_ku64(w, "tasksSpawned", a->tasks_spawned);
	d9o_jw_key(w, "spawnCounts");
	d9o_jw_obj(w);
	for (size_t i = 0; i < a->nlocs; i++)
		if (a->locs[i].tasks > 0 && a->locs[i].loc != D9_NONE) {
			d9o_jw_key(w, d9o_loc(o->m, a->locs[i].loc));
			d9o_jw_u64(w, a->locs[i].tasks);
		}
	d9o_jw_end(w, '}');
	d9o_jw_key(w, "taskLeak");
	d9o_jw_obj(w);
	d9o_jw_key(w, "suspected");
	d9o_jw_bool(w, a->leak_suspected);
	d9o_jw_kstr(w, "location", a->leak_loc != D9_NONE ?
	    d9m_str(o->m, a->leak_loc) : NULL);
	d9o_jw_ku64(w, "alive", a->leak_suspected ? a->leak_loc_alive :
	    a->leak_alive);
	d9o_jw_key(w, "referenceSuspected");
	d9o_jw_bool(w, a->leak_ref);
	d9o_jw_ku64(w, "peak", a->leak_peak);
	d9o_jw_ku64(w, "preExisting", a->leak_pre_existing);
	d9o_jw_end(w, '}');
	d9o_jw_key(w, "pollByLoc");
	d9o_jw_obj(w);
	for (size_t i = 0; i < a->nlocs; i++) {
		if (a->locs[i].poll.count == 0)
			continue;
		d9o_jw_key(w, d9o_loc(o->m, a->locs[i].loc));
		d9o_jw_pct(w, &a->locs[i].poll, 1);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, '}');
}

static void
cpu_and_sched(struct d9o_jw *w, const struct d9m_analysis *a)
{
	d9o_jw_ku64(w, "cpuSamples", a->cpu_samples);
	d9o_jw_ku64(w, "onCpu", a->on_cpu);
	d9o_jw_ku64(w, "offCpu", a->off_cpu);
	d9o_jw_ku64(w, "offCpuInPoll", a->off_in_poll);
	d9o_jw_ku64(w, "offCpuInPollBlocking", a->off_blocking);
	d9o_jw_ku64(w, "offCpuInPollPreempted", a->off_preempted);
	d9o_jw_ku64(w, "offCpuIdle", a->off_idle);
	d9o_jw_ku64(w, "offCpuNoWorker", a->off_no_worker);
	d9o_jw_key(w, "observer");
	d9o_jw_obj(w);
	d9o_jw_ku64(w, "cpuSamples", a->observer.cpu_samples);
	d9o_jw_ku64(w, "offCpuSamples", a->observer.off_cpu_samples);
	d9o_jw_kdbl(w, "cpuShare", a->observer.cpu_share);
	d9o_jw_kdbl(w, "offCpuShare", a->observer.off_cpu_share);
	d9o_jw_key(w, "topFrame");
	if (a->observer.top_n > 0)
		d9o_jw_str(w, a->observer.top_frame);
	else
		d9o_jw_null(w);
	d9o_jw_end(w, '}');
	d9o_jw_key(w, "schedDelay");
	d9o_jw_pct(w, &a->sched, 1);
	d9o_jw_ku64(w, "over1ms", a->sched_over1ms);
	d9o_jw_ku64(w, "over5ms", a->sched_over5ms);
	d9o_jw_ku64(w, "pollsWithoutFreshWake", a->sched_no_wake);
	/* dial9's figure, by its rule (stale wakes reused) */
	d9o_jw_key(w, "dial9");
	d9o_jw_pct(w, &a->sched_ref, 1);
	d9o_jw_ku64(w, "over1ms", a->sched_ref_over1ms);
	d9o_jw_end(w, '}');
	d9o_jw_end(w, '}');
	d9o_jw_key(w, "queue");
	d9o_jw_obj(w);
	d9o_jw_ku64(w, "max", a->queue_max);
	d9o_jw_kdbl(w, "avg", a->queue_avg);
	d9o_jw_ku64(w, "samples", a->queue_samples);
	d9o_jw_ku64(w, "localMax", a->local_queue_max);
	d9o_jw_end(w, '}');
}

/* Samples by leaf frame (model/figures/diff.h), heaviest first: what --diff
 * compares when it reads this output back. */
static void
leaf_map(struct d9o_jw *w, const struct d9m_side *s, const char *key,
    int which)
{
	const struct d9m_nweight *v = which == D9M_SIDE_CPU ? s->cpu : s->off;
	size_t *ord = d9m_side_order(s, which);
	size_t n = which == D9M_SIDE_CPU ? s->ncpu : s->noff;

	d9o_jw_key(w, key);
	d9o_jw_obj(w);
	for (size_t i = 0; ord != NULL && i < n; i++) {
		d9o_jw_key(w, v[ord[i]].name);
		d9o_jw_u64(w, (uint64_t)v[ord[i]].w);
	}
	d9o_jw_end(w, '}');
	free(ord);
}

static void
leaves(struct d9o_jw *w, const struct d9o_out *o)
{
	struct d9m_side s;

	d9m_side_init(&s);
	if (d9m_side_leaves(&s, o->m, o->r, o->a) == 0) {
		leaf_map(w, &s, "cpuLeaves", D9M_SIDE_CPU);
		leaf_map(w, &s, "offCpuLeaves", D9M_SIDE_OFF);
	}
	d9m_side_free(&s);
}

static void
spans(struct d9o_jw *w, const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;

	d9o_jw_key(w, "spans");
	d9o_jw_obj(w);
	for (size_t i = 0; i < a->nspans; i++) {
		d9o_jw_key(w, d9m_str(o->m, a->spans[i].name));
		d9o_jw_pct(w, &a->spans[i].dur, 1);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, '}');
	d9o_jw_ku64(w, "unmatchedSpans", a->unmatched_spans);
}

/* runtimes: name -> workers, global queue and alive tasks maxima (the
 * latter null when no sample said); metrics: name -> figures. */
static void
runtimes_and_metrics(struct d9o_jw *w, const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	const struct d9m_model *m = o->m;

	d9o_jw_key(w, "runtimes");
	d9o_jw_obj(w);
	for (size_t g = 0; g < m->nruntimes; g++) {
		d9o_jw_key(w, d9m_str(m, m->runtimes[g].name));
		d9o_jw_obj(w);
		d9o_jw_key(w, "workers");
		d9o_jw_arr(w);
		for (size_t s = 0; s < m->nworkers; s++)
			if (m->workers[s].rtgroup == g)
				d9o_jw_u64(w, m->workers[s].own);
		d9o_jw_end(w, ']');
		d9o_jw_ku64(w, "globalQueueMax", a->runtimes[g].queue_max);
		d9o_jw_key(w, "aliveTasksMax");
		if (a->runtimes[g].alive_max == D9_NONE)
			d9o_jw_null(w);
		else
			d9o_jw_u64(w, a->runtimes[g].alive_max);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, '}');
	d9o_jw_key(w, "metrics");
	d9o_jw_obj(w);
	for (size_t i = 0; i < a->nmetrics; i++) {
		const struct d9m_metric_fig *f = &a->metrics[i];
		uint8_t kind = m->metrics.kind[f->metric];

		d9o_jw_key(w, d9m_str(m, m->metrics.name[f->metric]));
		d9o_jw_obj(w);
		d9o_jw_kstr(w, "kind", d9m_metric_kind_name(kind));
		if (m->metrics.unit[f->metric] != D9_NONE)
			d9o_jw_kstr(w, "unit", d9m_str(m,
			    m->metrics.unit[f->metric]));
		d9o_jw_ku64(w, "samples", f->samples);
		d9o_jw_kdbl(w, "min", f->min);
		d9o_jw_kdbl(w, "max", f->max);
		d9o_jw_kdbl(w, "last", f->last);
		if (kind == D9M_COUNTER)
			d9o_jw_kdbl(w, "increase", f->increase);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, '}');
}

static void
memory(struct d9o_jw *w, const struct d9o_out *o)
{
	const struct d9m_memory *mem = &o->a->mem;
	struct d9m_frame f[1];		/* the leaf */

	d9o_jw_key(w, "memory");
	if (!mem->present) {
		d9o_jw_null(w);
		return;
	}
	d9o_jw_obj(w);
	d9o_jw_ku64(w, "sampleRateBytes", mem->rate);
	d9o_jw_ku64(w, "sampleRateBytesMin", mem->rate_min);
	d9o_jw_ku64(w, "sampleRateBytesMax", mem->rate_max);
	d9o_jw_ku64(w, "estimatedTotalBytes", (uint64_t)(mem->est_bytes + 0.5));
	d9o_jw_ku64(w, "estimatedTotalCount", (uint64_t)(mem->est_count + 0.5));
	d9o_jw_ku64(w, "liveBytes", (uint64_t)(mem->live_bytes + 0.5));
	d9o_jw_ku64(w, "sampledAllocs", mem->sampled);
	d9o_jw_ku64(w, "sampledFrees", mem->frees);
	d9o_jw_ku64(w, "sampledUnfreedBytes", mem->unmatched_raw_bytes);
	d9o_jw_ku64(w, "droppedAllocs", mem->dropped_allocs);
	d9o_jw_ku64(w, "droppedFrees", mem->dropped_frees);
	d9o_jw_key(w, "topSites");
	d9o_jw_arr(w);
	for (size_t i = 0; i < mem->nsites && i < 10; i++) {
		const struct d9m_site *s = &mem->sites[i];
		size_t n = d9m_alloc_frames(o->m, o->r, s->seg, s->stack, f, 1);

		d9o_jw_obj(w);
		d9o_jw_kstr(w, "leaf", n ? d9m_frame_name(&f[0]) : "");
		d9o_jw_kdbl(w, "estimatedBytes", s->est_bytes);
		d9o_jw_kdbl(w, "estimatedCount", s->est_count);
		d9o_jw_ku64(w, "sampledCount", s->sampled);
		label(w, s->label);
		frames(w, o, s->seg, s->stack, 1);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, ']');
	d9o_jw_end(w, '}');
}

/* Always present, zeros when nothing was lost (ANALYSIS 19). */
static void
name_or_null(struct d9o_jw *w, const struct d9m_model *m, const char *k,
    uint32_t id)
{
	d9o_jw_key(w, k);
	if (id == D9_NONE)
		d9o_jw_null(w);
	else
		d9o_jw_str(w, d9m_str(m, id));
}

/* A source's machine (dial9 0.5.1's system metadata), null when none
 * was said. */
static void
system_obj(struct d9o_jw *w, const struct d9m_model *m,
    const struct d9m_system *y)
{
	d9o_jw_key(w, "system");
	if (y->hostname == D9_NONE && y->arch == D9_NONE &&
	    y->kernel == D9_NONE && y->kernel_version == D9_NONE &&
	    y->cpu_model == D9_NONE && y->memory_bytes == 0) {
		d9o_jw_null(w);
		return;
	}
	d9o_jw_obj(w);
	name_or_null(w, m, "hostname", y->hostname);
	name_or_null(w, m, "architecture", y->arch);
	name_or_null(w, m, "kernelRelease", y->kernel);
	name_or_null(w, m, "kernelVersion", y->kernel_version);
	name_or_null(w, m, "cpuModel", y->cpu_model);
	d9o_jw_key(w, "memoryTotalBytes");
	if (y->memory_bytes)
		d9o_jw_u64(w, y->memory_bytes);
	else
		d9o_jw_null(w);
	d9o_jw_end(w, '}');
}

/* One entry per source group (model/core/groups.h). */
static void
sources(struct d9o_jw *w, const struct d9o_out *o)
{
	const struct d9m_model *m = o->m;

	d9o_jw_key(w, "sources");
	d9o_jw_arr(w);
	for (size_t i = 0; i < o->a->nsources; i++) {
		const struct d9m_source *s = &o->a->sources[i];

		d9o_jw_obj(w);
		name_or_null(w, m, "service", m->groups.service[s->group]);
		name_or_null(w, m, "host", m->groups.host[s->group]);
		name_or_null(w, m, "boot", m->groups.boot[s->group]);
		system_obj(w, m, &s->sys);
		d9o_jw_ku64(w, "segments", s->segments);
		d9o_jw_ku64(w, "startNs", s->start);
		d9o_jw_ku64(w, "endNs", s->end);
		d9o_jw_key(w, "shiftNs");
		d9o_jw_i64(w, s->shift);
		d9o_jw_key(w, "wallAligned");
		d9o_jw_bool(w, s->aligned);
		d9o_jw_key(w, "workers");
		d9o_jw_arr(w);
		for (size_t k = 0; k < s->nworkers; k++)
			d9o_jw_u64(w, s->workers[k]);
		d9o_jw_end(w, ']');
		d9o_jw_ku64(w, "polls", s->polls);
		d9o_jw_ku64(w, "longPolls", s->long_polls);
		d9o_jw_ku64(w, "tasks", s->tasks);
		d9o_jw_ku64(w, "cpuSamples", s->cpu_samples);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, ']');
}

static void
loss(struct d9o_jw *w, const struct d9m_loss *l)
{
	d9o_jw_key(w, "loss");
	d9o_jw_obj(w);
	d9o_jw_ku64(w, "droppedEvents", l->dropped_events);
	d9o_jw_ku64(w, "lostBatches", l->lost_batches);
	d9o_jw_ku64(w, "droppedAllocs", l->dropped_allocs);
	d9o_jw_ku64(w, "droppedFrees", l->dropped_frees);
	d9o_jw_ku64(w, "lostCpuSamples", l->lost_cpu);
	d9o_jw_ku64(w, "incompleteSegments", l->incomplete);
	d9o_jw_ku64(w, "damagedSegments", l->damaged);
	d9o_jw_ku64(w, "missingSegments", l->missing);
	d9o_jw_ku64(w, "deletedSegments", l->deleted);
	d9o_jw_ku64(w, "deletedBytes", l->deleted_bytes);
	d9o_jw_ku64(w, "duplicateSegments", l->copies);
	d9o_jw_ku64(w, "unreadFiles", l->unread);
	d9o_jw_end(w, '}');
}

/* libd9rec's own cost, where the trace tells it. */
static void
recorder(struct d9o_jw *w, const struct d9m_cost *c)
{
	double pct = d9m_cost_pct(c);

	d9o_jw_key(w, "recorder");
	if (pct < 0) {
		d9o_jw_null(w);
		return;
	}
	d9o_jw_obj(w);
	d9o_jw_ku64(w, "cpuNs", c->recorder_cpu_ns);
	d9o_jw_ku64(w, "processCpuNs", c->process_cpu_ns);
	d9o_jw_kdbl(w, "cpuPct", pct);
	d9o_jw_end(w, '}');
}

static void
flags_and_errors(struct d9o_jw *w, const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;

	d9o_jw_key(w, "redFlags");
	d9o_jw_arr(w);
	for (size_t i = 0; i < a->nflags; i++) {
		d9o_jw_obj(w);
		d9o_jw_kstr(w, "severity", d9m_severity_name(a->flags[i].sev,
		    0));
		d9o_jw_kstr(w, "check", a->flags[i].check);
		d9o_jw_kstr(w, "text", a->flags[i].text);
		if (a->flags[i].ts)
			d9o_jw_ku64(w, "atNs", a->flags[i].ts);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, ']');
	d9o_jw_key(w, "errors");
	d9o_jw_arr(w);
	for (size_t i = 0; i < o->m->nerrors; i++)
		d9o_jw_str(w, o->m->errors[i]);
	d9o_jw_end(w, ']');
}

void
d9o_json(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	struct d9o_jw jw, *w = &jw;

	d9o_jw_init(w, o->f);
	d9o_jw_obj(w);
	d9o_jw_kdbl(w, "durationMs", (double)a->duration_ns / 1e6);
	d9o_jw_ku64(w, "eventCount", a->event_count);
	d9o_jw_key(w, "workers");
	d9o_jw_arr(w);
	for (size_t i = 0; i < a->nworkers; i++)
		d9o_jw_u64(w, d9m_worker_own(o->m, a->workers[i].id));
	d9o_jw_end(w, ']');
	worker_map(w, o, "polls", 0);
	worker_map(w, o, "parks", 1);
	worker_map(w, o, "utilization", 2);
	worker_map(w, o, "cpuRatio", 3);
	d9o_jw_ku64(w, "longPolls", a->long_polls);
	d9o_jw_ku64(w, "longPollsClosed", a->long_polls_closed);
	d9o_jw_ku64(w, "openEndedPolls", a->open_ended);
	worst(w, o);
	pois(w, o);
	tasks(w, o);
	task_stats(w, o);
	cpu_and_sched(w, a);
	leaves(w, o);
	spans(w, o);
	runtimes_and_metrics(w, o);
	memory(w, o);
	d9o_jw_key(w, "waitingOn");
	d9o_jw_arr(w);
	for (size_t i = 0; i < a->nidle && i < 10; i++) {
		d9o_jw_obj(w);
		d9o_jw_ku64(w, "idleNs", a->idle[i].idle_ns);
		d9o_jw_ku64(w, "count", a->idle[i].count);
		label(w, a->idle[i].label);
		frames(w, o, a->idle[i].seg, a->idle[i].stack, 0);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, ']');
	if (o->chain) {
		d9o_jw_key(w, "wakeChain");
		d9o_jw_arr(w);
		for (size_t i = 0; i < a->nchain; i++)
			d9o_jw_u64(w, o->m->tasks.id[a->chain[i].task]);
		d9o_jw_end(w, ']');
	}
	if (a->wall_start_ns)
		d9o_jw_ku64(w, "wallClockStartNs", a->wall_start_ns);
	d9o_jw_key(w, "process");
	if (a->proc_samples == 0)
		d9o_jw_null(w);
	else {
		d9o_jw_obj(w);
		d9o_jw_ku64(w, "samples", a->proc_samples);
		d9o_jw_key(w, "avgCores");
		if (a->proc_avg_cores >= 0)
			d9o_jw_dbl(w, a->proc_avg_cores);
		else
			d9o_jw_null(w);
		d9o_jw_ku64(w, "maxRssBytes", a->proc_max_rss);
		if (a->proc_parallelism)
			d9o_jw_ku64(w, "availableParallelism",
			    a->proc_parallelism);
		d9o_jw_end(w, '}');
	}
	sources(w, o);
	d9o_jw_key(w, "symbols");
	d9o_jw_obj(w);
	d9o_jw_ku64(w, "resolved", a->frames_named);
	d9o_jw_ku64(w, "unresolved", a->frames_unnamed);
	d9o_jw_end(w, '}');
	loss(w, &o->m->loss);
	recorder(w, &o->m->cost);
	flags_and_errors(w, o);
	d9o_jw_end(w, '}');
}
