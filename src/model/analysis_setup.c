/*
 * analysis_setup.c: what the trace says about how it was recorded
 * (ANALYSIS 13: frame pointers, wake events, debug symbols, scheduler
 * samples; dial9 0.5's poll coverage, FORMAT 5), process CPU usage from ProcessResourceUsageEvent (11), and
 * wall-clock time from ClockSyncEvent anchors (10).
 */
#include <stdlib.h>
#include <string.h>

#include "base/schemas.h"
#include "base/wire.h"
#include "model/analysis.h"
#include "model/samples.h"

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

/* Numeric value of a field of a custom event, -1 when absent. */
static long double
field_num(const struct d9m_model *m, uint32_t list, uint32_t key)
{
	uint32_t len;
	const char *p = d9_intern_str(&m->lists, list, &len);

	for (uint32_t i = 0; i + 8 <= len; i += 8) {
		uint64_t pair;

		memcpy(&pair, p + i, 8);
		if ((uint32_t)(pair >> 32) == key)
			return strtold(d9m_str(m, (uint32_t)pair), NULL);
	}
	return -1;
}

/* The string id of ProcessResourceUsageEvent's name (field -1) or of
 * one of its field names; D9_NONE when the trace has none. */
static uint32_t
usage_str(const struct d9m_model *m, int field)
{
	const struct d9_schema_def *d = d9_schema(D9_SCH_PROCESS_USAGE);
	const char *s = field < 0 ? d->name : d->fields[field].name;

	return d9_intern_find(&m->strs, s, strlen(s));
}

static void
process_usage(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	uint32_t name = usage_str(m, -1),
	    ku = usage_str(m, D9_F_PROCESS_USAGE_USER_CPU_NS),
	    ks = usage_str(m, D9_F_PROCESS_USAGE_SYSTEM_CPU_NS),
	    kr = usage_str(m, D9_F_PROCESS_USAGE_MAX_RSS_BYTES);
	long double prev_cpu = -1, cpu_sum = 0, wall_sum = 0;
	uint64_t prev_ts = 0;
	size_t i0, i1;

	if (name == D9_NONE || ku == D9_NONE || ks == D9_NONE)
		return;
	d9m_window_rows(m->custom.ts, m->custom.n, &o->win, &i0, &i1);
	for (size_t i = i0; i < i1; i++) {
		long double u, s, r;

		if (m->custom.name[i] != name)
			continue;
		u = field_num(m, m->custom.fields[i], ku);
		s = field_num(m, m->custom.fields[i], ks);
		r = kr != D9_NONE ? field_num(m, m->custom.fields[i], kr) : -1;
		if (r > (long double)a->proc_max_rss)
			a->proc_max_rss = (uint64_t)r;
		if (u < 0 || s < 0)
			continue;
		a->proc_samples++;
		if (prev_cpu >= 0 && m->custom.ts[i] > prev_ts &&
		    u + s >= prev_cpu) {
			cpu_sum += u + s - prev_cpu;
			wall_sum += (long double)(m->custom.ts[i] - prev_ts);
		}
		prev_cpu = u + s;
		prev_ts = m->custom.ts[i];
	}
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
