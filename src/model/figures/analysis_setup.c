/*
 * analysis_setup.c: what the trace says about how it was recorded
 * (ANALYSIS 13: frame pointers, wake events, debug symbols, scheduler
 * samples; dial9 0.5's poll coverage, FORMAT 5), process CPU usage
 * from ProcessResourceUsageEvent (11), and wall-clock time from
 * ClockSyncEvent anchors (10).
 */
#include <stdlib.h>
#include <string.h>

#include "base/schemas.h"
#include "base/wire.h"
#include "model/figures/analysis.h"
#include "model/queries/samples.h"
#include "model/queries/series.h"

uint64_t
d9m_wall_ns(const struct d9m_model *m, uint32_t seg, uint64_t mono)
{
	const struct d9m_clock *c = &m->clock;
	size_t best = SIZE_MAX;

	/* the nearest anchor at or before mono in the same segment, else
	 * the first of that segment, else the first of all (ANALYSIS 10) */
	for (size_t i = 0; i < c->n; i++) {
		if (seg != D9_NONE && c->seg[i] != seg)
			continue;
		if (best == SIZE_MAX || (c->mono[i] <= mono &&
		    (c->mono[best] > mono || c->mono[i] > c->mono[best])))
			best = i;
	}
	if (best == SIZE_MAX && c->n > 0)
		best = 0;
	if (best != SIZE_MAX)
		return c->real[best] + (mono - c->mono[best]);
	if (m->meta.legacy_wall != 0)
		return m->meta.legacy_wall + (mono - m->min_ts);
	return 0;
}

/* ANALYSIS 11 over every source group, each sample paired with the
 * previous one of its own process (series.h). */
static void
process_usage(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	struct d9m_query q = D9M_QUERY_INIT;
	long double cpu_sum = 0, wall_sum = 0;
	struct d9m_usage *u;
	size_t n;

	q.win = o->win;
	if (d9m_process_usage(m, &q, &u, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		if (u[i].rss > (long double)a->proc_max_rss)
			a->proc_max_rss = (uint64_t)u[i].rss;
		if (!u[i].has_cpu)
			continue;
		a->proc_samples++;
		if (u[i].paired) {
			cpu_sum += u[i].cpu_ns;
			wall_sum += u[i].wall_ns;
		}
	}
	free(u);
	a->proc_avg_cores = wall_sum > 0 ? (double)(cpu_sum / wall_sum) : -1;
	{
		const char *par = d9m_meta_get(m, "process.available_parallelism");

		a->proc_parallelism = par ? strtoul(par, NULL, 10) : 0;
	}
}

static void
setup_checks(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	size_t on = 0, frames = 0, offs = 0, addrs = 0, named = 0, i0, i1;
	const char *coverage;

	d9m_window_rows(m->cpu.ts, m->cpu.n, &o->win, &i0, &i1);
	for (size_t i = i0; i < i1; i++) {
		size_t n;

		if (d9m_cpu_class(m, i) != D9M_ON_CPU) {
			offs++;
			continue;
		}
		on++;
		d9m_stack(m, m->cpu.stack[i], &n);
		frames += n;
	}
	addrs = a->frames_named + a->frames_unnamed;
	named = a->frames_named;
	a->setup_short_stacks = on > 10 && frames < 3 * on;
	a->setup_no_wakes = a->tasks_spawned > 0 && m->wakes.n == 0;
	a->setup_no_symbols = on > 10 && addrs > 0 && named * 10 < addrs;
	a->setup_no_sched = on > 0 && offs == 0;
	coverage = d9m_meta_get(m, "tokio.poll_coverage");
	a->setup_spawns_only = coverage != NULL &&
	    strcmp(coverage, "dial9-spawns-only") == 0;
}

int
d9m_an_setup(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	a->proc_avg_cores = -1;
	process_usage(m, o, a);
	setup_checks(m, o, a);
	a->wall_start_ns = d9m_wall_ns(m, D9_NONE, m->min_ts);
	if (a->win.lo > m->min_ts)
		a->wall_start_ns = d9m_wall_ns(m, D9_NONE, a->win.lo);
	return 0;
}
