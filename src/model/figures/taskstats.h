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

#define D9M_TASK_STATS	100	/* listed unless every one is asked */

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

struct d9m_model;
struct d9m_analysis;
struct d9m_analysis_opts;

/* a->task_stats (the D9M_TASK_STATS with the most busy + scheduled
 * time, every one with all set) and a->task_lints. -1 out of memory. */
int	d9m_an_taskstats(const struct d9m_model *m,
	    const struct d9m_analysis_opts *o, struct d9m_analysis *a);

#endif
