/*
 * src/model/figures, the model's third wing: the analyses, every figure
 * the report, --json, --diff and the browser show, one file per figure
 * family: the driver d9m_analyze (analysis.c, with the worker, poll and
 * CPU sections) runs the sections (analysis_*.c: flags, memory, setup,
 * sources, spans, tasks) and the families (blame, verdict, poi,
 * observer, taskstats, metrics, runtimes, byname, framekind), and the
 * comparison of two runs (diff.c, flamediff.c). It may call src/base,
 * src/parse, model/core, model/queries and itself; only src/output,
 * src/export, src/tui and src/app call it. A new figure: its family's
 * file (or a new one) and struct d9m_analysis here, then the JSON
 * (output/json.c), the report (output/report.c) and the browser.
 *
 * analysis.h: every figure of ANALYSIS.md sections 2-14, computed from a
 * finished model for a time window, as plain data. The JSON output, the
 * text report and the browser all render this one struct, so a figure
 * has one definition.
 *
 * Figures that mirror dial9's own keep the reference's definition (open
 * ended polls included); where the reference is wrong (ANALYSIS 15) the
 * better figure sits beside it (fields marked "better"). Scheduling
 * delay is counted right (stale wakes excluded, quirk 8).
 */
#ifndef D9M_ANALYSIS_H
#define D9M_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "model/figures/blame.h"
#include "model/figures/byname.h"
#include "model/core/frames.h"
#include "model/figures/labels.h"
#include "model/figures/metrics.h"
#include "model/core/model.h"
#include "model/figures/poi.h"
#include "model/figures/runtimes.h"
#include "model/figures/taskstats.h"
#include "model/figures/verdict.h"
#include "model/queries/select.h"
#include "model/queries/wake.h"
#include "model/queries/window.h"

struct d9m_worker_fig {
	uint32_t	id;		/* wids row (ids.h prints it) */
	size_t		polls, parks, actives;
	uint64_t	active_ns, parked_ns;
	double		util;		/* active / (active + parked) */
	double		cpu_ratio;	/* unweighted mean (reference) */
	double		cpu_ratio_weighted;	/* better: by active time, clamped */
	uint64_t	sched_wait_max;	/* over measured park periods */
	size_t		sched_wait_over1ms, sched_wait_n;
};

/* Task dumps grouped by stack, weighted by the idle gap they describe. */
struct d9m_idle_group {
	uint32_t	stack, seg;
	size_t		count;
	uint64_t	idle_ns;
	char		*label;		/* the first rows' names (labels.h) */
};

struct d9m_worst {
	uint32_t	poll;		/* row in m->polls */
	struct d9m_verdict verdict;	/* why it was slow (verdict.h) */
	struct d9m_delayed delayed;	/* whom it held back (blame.h) */
	struct d9m_stack_group *cpu, *off;	/* groups, count descending */
	size_t		ncpu, noff;
};

struct d9m_loc_fig {
	uint32_t	loc;		/* string id, D9_NONE = (unknown) */
	size_t		tasks;		/* spawnCounts */
	struct d9m_pct	poll;		/* pollByLoc */
	size_t		alive, spawned;	/* spawned in window, never ended */
	uint64_t	oldest_alive_ns;	/* age at window end */
	size_t		in_poll_offcpu;	/* off-CPU samples inside its polls */
};

struct d9m_span_fig {
	uint32_t	name;
	struct d9m_pct	dur;		/* first enter .. last exit */
	size_t		outliers;	/* > 10 x p50 (red flag rule) */
};

struct d9m_site {
	uint32_t	stack, seg;
	size_t		sampled;
	double		est_bytes, est_count;
	uint64_t	raw_bytes;
	char		*label;		/* the first rows' names (labels.h) */
};

struct d9m_memory {
	int		present;	/* any allocation events */
	uint64_t	rate;		/* sample rate used (latest segment) */
	uint64_t	rate_min, rate_max;	/* of the window's sampled
					 * allocations' segments (each is
					 * weighted by its own) */
	int		rate_from_meta;
	size_t		sampled, frees, unmatched;
	uint64_t	sampled_bytes, unmatched_raw_bytes;
	double		est_bytes, est_count, live_bytes;
	uint64_t	dropped_allocs, dropped_frees;
	struct d9m_site	*sites;		/* top sites by est_bytes */
	size_t		nsites;
};

/* The recorder's own samples in the window (ANALYSIS 21, observer.h). */
#define D9M_OBS_FRAMES	1024	/* frames of a stack looked at */
struct d9m_observer {
	size_t		cpu_samples, off_cpu_samples;
	double		cpu_share, off_cpu_share;	/* of all samples */
	char		top_frame[256];	/* the recorder frame most are in */
	size_t		top_n;
};

/* Severities of red flags: constant, name in --json, name as the report
 * and the browser print it (warnings and worse in capitals). */
#define D9M_SEVERITIES(X) \
	X(D9M_INFO, "info", "info") \
	X(D9M_WARNING, "warning", "WARNING") \
	X(D9M_CRITICAL, "critical", "CRITICAL")

#define D9M_SEVERITY_ENUM_(id, name, shout)	id,
enum d9m_severity { D9M_SEVERITIES(D9M_SEVERITY_ENUM_) };

/* The name of a severity: as --json writes it, or (shout) as the report
 * and the browser print it. */
const char	*d9m_severity_name(enum d9m_severity sev, int shout);

/* Where a red flag's evidence is: what to open to see it. */
enum d9m_evidence {
	D9M_EV_NONE,
	D9M_EV_POLL,		/* the poll (flag.poll) */
	D9M_EV_TIME,		/* a moment (flag.ts) on worker slot ev_arg */
	D9M_EV_POI,		/* the points of interest of kind ev_arg */
	D9M_EV_LOC,		/* the tasks of spawn location ev_arg */
	D9M_EV_SPAN,		/* the slowest spans of name ev_arg */
	D9M_EV_SPANS,		/* the spans by name */
	D9M_EV_CPU_STACKS,	/* the on-CPU stacks */
	D9M_EV_OFF_STACKS,	/* the off-CPU stacks */
	D9M_EV_SECTION		/* the report section ev_section */
};

struct d9m_flag {
	enum d9m_severity sev;
	const char	*check;		/* static name, e.g. "long-poll" */
	char		 text[200];
	uint64_t	 ts;		/* evidence time, or 0 */
	uint32_t	 poll;		/* evidence poll row, or D9_NONE */
	enum d9m_evidence ev;
	uint32_t	 ev_arg;
	const char	*ev_section;	/* static report section title */
};

/* The machine a source ran on, from dial9 0.5.1's system metadata
 * (groups.h D9M_META_*): string ids, D9_NONE when not said. */
struct d9m_system {
	uint32_t	hostname, arch, kernel, kernel_version, cpu_model;
	uint64_t	memory_bytes;	/* 0 when not said */
};

/* One source group (groups.h): where its rows are and its own figures. */
struct d9m_source {
	struct d9m_system sys;
	uint32_t	group;
	size_t		segments;
	uint64_t	start, end;	/* its events, on the model's clock */
	int64_t		shift;		/* added to its recorded times */
	int		aligned;	/* by the wall clock */
	uint64_t	*workers;	/* own ids, ascending */
	size_t		nworkers, polls, long_polls, tasks, cpu_samples;
};

struct d9m_analysis {
	struct d9m_window win;
	uint64_t	duration_ns;	/* max - min over runtime events */
	size_t		event_count;	/* runtime events in window */

	struct d9m_worker_fig *workers;
	size_t		nworkers;

	size_t		npolls, long_polls, long_polls_closed, open_ended;
	struct d9m_worst *worst;
	size_t		nworst;

	size_t		tasks_spawned, tasks_terminated, tasks_seen;
	struct d9m_loc_fig *locs;	/* sorted by poll max descending */
	size_t		nlocs;
	/* task leak: reference rule and the per-location rule */
	int		leak_ref;
	size_t		leak_peak, leak_alive, leak_pre_existing;
	int		leak_suspected;
	uint32_t	leak_loc;
	size_t		leak_loc_alive;

	size_t		cpu_samples, on_cpu, off_cpu, off_in_poll, off_idle;
	size_t		off_samples;	/* off-CPU samples themselves: off_cpu
					 * and the rest count the switches they
					 * stand for (d9rec.sched_sample_period) */
	size_t		off_no_worker;	/* better: idle split, no lane */
	struct d9m_stack_group *off_groups;	/* in-poll off-CPU groups */
	size_t		noff_groups;
	/* off_in_poll by ANALYSIS 17's classes: switches that block the
	 * worker (lock, sleep, io, fault, blocked), the most of them with
	 * one stack, and preemptions (CPU contention) */
	size_t		off_blocking, off_blocking_top, off_preempted;
	struct d9m_stack_group *cpu_groups;	/* on-CPU groups */
	size_t		ncpu_groups;

	struct d9m_pct	sched;		/* delays (stale wakes excluded) */
	size_t		sched_over1ms, sched_over5ms, sched_no_wake;
	struct d9m_observer observer;	/* the recorder's own samples */
	/* task figures and lints (taskstats.h) */
	struct d9m_task_stat *task_stats;
	size_t		ntask_stats, ntask_stats_all;
	struct d9m_task_lint *task_lints;
	size_t		ntask_lints;
	struct d9m_pct	sched_ref;	/* by dial9's rule (stale wakes) */
	size_t		sched_ref_over1ms;
	uint32_t	sched_worst_poll;	/* poll row of the largest */

	uint32_t	queue_max, local_queue_max;
	double		queue_avg;
	size_t		queue_samples;
	struct d9m_rt_fig *runtimes;	/* one per group of m->runtimes */
	struct d9m_metric_fig *metrics;	/* series with samples, by name */
	size_t		nmetrics;

	struct d9m_span_fig *spans;	/* sorted by count descending */
	size_t		nspans, unmatched_spans, spans_total;
	size_t		spans_poll_max;	/* most spans fully inside one poll */
	uint32_t	spans_poll_row;	/* that poll, D9_NONE */
	size_t		spans_polls_over20;

	struct d9m_memory mem;

	struct d9m_idle_group *idle;	/* by idle_ns descending */
	size_t		nidle, dumps;

	struct d9m_hop	*chain;		/* wake chain, woken first (wake.h) */
	size_t		nchain;

	struct d9m_flag	*flags;
	size_t		nflags;

	struct d9m_pois	*pois;		/* points of interest (poi.h) */

	size_t		frames_named, frames_unnamed;

	/* how it was recorded (ANALYSIS 13) */
	int		setup_short_stacks, setup_no_wakes, setup_no_symbols,
			setup_no_sched, setup_spawns_only;
	/* process (ANALYSIS 11) */
	size_t		proc_samples;
	double		proc_avg_cores;	/* -1 when unknown */
	uint64_t	proc_max_rss;
	unsigned long	proc_parallelism;
	uint64_t	wall_start_ns;	/* wall clock of the start, 0 unknown */

	struct d9m_source *sources;	/* one per group, in group order */
	size_t		nsources;
};

struct d9m_analysis_opts {
	struct d9m_window win;		/* D9M_WHOLE: everything */
	size_t		worst;		/* worst polls to list */
	uint64_t	chain_task;	/* 0: no wake chain */
	const struct d9m_resolver *resolver;	/* names beyond the trace's */
	int		all_tasks;	/* taskStats: every task, not 100 */
};

int	d9m_analyze(const struct d9m_model *m, const struct d9m_analysis_opts *o,
	    struct d9m_analysis *a);
void	d9m_analysis_free(struct d9m_analysis *a);

/* Parts, each filling its section of *a (analysis_*.c). */
int	d9m_an_workers(const struct d9m_model *, const struct d9m_analysis_opts *,
	    struct d9m_analysis *);
int	d9m_an_polls(const struct d9m_model *, const struct d9m_analysis_opts *,
	    struct d9m_analysis *);
int	d9m_an_cpu(const struct d9m_model *, const struct d9m_analysis_opts *,
	    struct d9m_analysis *);
int	d9m_an_tasks(const struct d9m_model *, const struct d9m_analysis_opts *,
	    struct d9m_analysis *);
int	d9m_an_sched(const struct d9m_model *, const struct d9m_analysis_opts *,
	    struct d9m_analysis *);
int	d9m_an_spans(const struct d9m_model *, const struct d9m_analysis_opts *,
	    struct d9m_analysis *);
int	d9m_an_memory(const struct d9m_model *, const struct d9m_analysis_opts *,
	    struct d9m_analysis *);
int	d9m_an_dumps(const struct d9m_model *, const struct d9m_analysis_opts *,
	    struct d9m_analysis *);
int	d9m_an_setup(const struct d9m_model *, const struct d9m_analysis_opts *,
	    struct d9m_analysis *);
int	d9m_an_flags(const struct d9m_model *, const struct d9m_analysis_opts *,
	    struct d9m_analysis *);
int	d9m_an_sources(const struct d9m_model *,
	    const struct d9m_analysis_opts *, struct d9m_analysis *);
/* Wall-clock ns of a monotonic time: nearest earlier ClockSync anchor of
 * the segment (D9_NONE: any), else legacy metadata; 0 when unknown. */
uint64_t d9m_wall_ns(const struct d9m_model *m, uint32_t seg, uint64_t mono);


#endif
