/*
 * series.h: the time series the browser draws as strips, one value per
 * column of a time axis whose column edges the caller gives (edges[0..
 * ncols], ascending; the ns-to-column mapping stays the caller's):
 * a worker's local queue depth, its kernel scheduling waits, its
 * process's CPU use, and the estimated live bytes of an allocation
 * view (the allocation weights and live rule of samples.h).
 */
#ifndef D9M_SERIES_H
#define D9M_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "model/queries/flame.h"
#include "model/core/model.h"
#include "model/queries/query.h"
#include "model/queries/window.h"

enum d9m_series_kind {
	D9M_S_LOCAL_QUEUE,	/* query's worker: the largest local
				 * queue at its polls' starts */
	D9M_S_SCHED_WAIT,	/* query's worker: the longest kernel
				 * scheduling wait (ns) of its unparks */
	D9M_S_CPU		/* query's group: the cores its process
				 * used (ProcessResourceUsage), -1 unknown */
};

struct d9m_lanes;

/* How a runtime's alive-tasks strip knows its values. */
enum d9m_alive_from {
	D9M_ALIVE_NONE,		/* neither samples nor spawns */
	D9M_ALIVE_SAMPLES,	/* the runtime's queue samples */
	D9M_ALIVE_SPAWNS	/* spawns and terminations, with the tasks
				 * alive before the trace (taskLeak.peak's
				 * rule: the strip's highest is that peak) */
};

/* The strips of q's runtime (D9_NONE: every queue sample, for a trace
 * of one runtime): the largest global queue depth per column into
 * queue[ncols], the most tasks alive per column into alive[ncols]
 * (spawns and terminations through ix when the samples say none and
 * the runtime is D9_NONE). Returns where alive came from. */
enum d9m_alive_from d9m_series_runtime(const struct d9m_model *m,
	    const struct d9m_lanes *ix, const struct d9m_query *q,
	    const uint64_t *edges, size_t ncols, double *queue,
	    double *alive);

/* Values of q's kind (enum d9m_series_kind) per column into out[ncols];
 * -1 when out of memory. */
int	d9m_series(const struct d9m_model *m, const struct d9m_query *q,
	    const uint64_t *edges, size_t ncols, double *out);

/* One ProcessResourceUsageEvent sample (ANALYSIS 11) and what its
 * process used since the previous sample of the same source group. */
struct d9m_usage {
	uint64_t	ts;
	uint32_t	group;
	int		paired;		/* a previous sample of the group */
	uint64_t	cpu_ns, wall_ns;	/* since it, when paired */
	long double	rss;		/* max_rss_bytes, -1 when absent */
	int		has_cpu;	/* both CPU fields present */
};

/* The samples in q's window (of q's group, D9_NONE: every group) in
 * time order, into *out (malloc'd). -1 when out of memory. */
int	d9m_process_usage(const struct d9m_model *m, const struct d9m_query *q,
	    struct d9m_usage **out, size_t *n);

/* Estimated bytes live at each column's end: allocations made in q's
 * window by then that no free in the window by then names (samples.h's
 * rule at every column). With f (a tree built for q), only those it
 * counts under node (0: all of it), with q's task and location filters,
 * D9M_Q_LIVE and D9M_Q_COUNT (weighed as the tree weighs them). */
int	d9m_series_live(const struct d9m_model *m, const struct d9m_resolver *r,
	    const struct d9m_query *q, const struct d9m_flame *f,
	    uint32_t node, const uint64_t *edges, size_t ncols, double *out);

#endif
