/*
 * taskstats.h: task figures and lints (ANALYSIS 22, after tokio-console).
 * Per task in the window: its polls, busy time (the sum of its polls),
 * scheduled time (the sum of its wake-to-poll delays, ANALYSIS 5.1),
 * idle time (its life in the window less the two; life from its spawn,
 * or first sight, to its end, or the trace's), its wakes and those it
 * gave itself. The lints: self-wake (over half of at least 10 wakes are
 * its own: a loop of yields), long-idle (alive at the end, not polled
 * for over half the trace), never-yields (a single poll over 10 ms, the
 * task's only one).
 */
#ifndef D9M_TASKSTATS_H
#define D9M_TASKSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "model/queries/query.h"

#define D9M_TASK_STATS	100	/* listed unless every one is asked */
#define D9M_HIST_BINS	23	/* poll durations: 0, 1 us, 2, 5, 10 .. 10 s */

struct d9m_task_stat {
	uint32_t	task;		/* task row */
	size_t		polls, wakes, self_wakes;
	uint64_t	busy, sched, idle;	/* ns */
};

struct d9m_task_lint {
	const char	*kind;		/* "self-wake", "long-idle",
					 * "never-yields" */
	uint32_t	task;
	char		text[192];
};

/* The durations of one task's polls that start in a window, in bins of
 * a 1-2-5 series: bin k holds [d9m_hist_lo(k), d9m_hist_lo(k + 1)). */
struct d9m_task_hist {
	size_t		polls;
	size_t		count[D9M_HIST_BINS];
	uint64_t	max;		/* ns */
	uint32_t	longest;	/* poll row of max, D9_NONE: no poll */
};

struct d9m_model;
struct d9m_analysis;
struct d9m_analysis_opts;
struct d9m_window;

/* a->task_stats (the D9M_TASK_STATS with the most busy + scheduled
 * time, every one with all set) and a->task_lints. -1 out of memory. */
int	d9m_an_taskstats(const struct d9m_model *m,
	    const struct d9m_analysis_opts *o, struct d9m_analysis *a);

/* The lower bound of bin k in ns (bin 0: 0; k >= D9M_HIST_BINS:
 * UINT64_MAX). */
uint64_t d9m_hist_lo(size_t k);
/* The poll durations of q's task (a row) in q's window (m->task_polls). */
void	d9m_task_hist(const struct d9m_model *m, const struct d9m_query *q,
	    struct d9m_task_hist *h);
/* The first index from `from` on of a->task_stats of a task spawned at
 * loc (D9_NONE: location unknown), or a->ntask_stats. */
size_t	d9m_task_stat_next(const struct d9m_model *m,
	    const struct d9m_analysis *a, uint32_t loc, size_t from);
/* The figures of task row t in a, NULL when it is not listed there. */
const struct d9m_task_stat *d9m_task_stat_of(const struct d9m_analysis *a,
	    uint32_t t);

#endif
