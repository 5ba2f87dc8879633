/*
 * wake.h: who woke a poll and the wake chain (ANALYSIS 5.1 and 5.3), the
 * one rule the browser's chain, --chain and the detail pane follow.
 *
 * A hop is a task and the poll it is looked at through. The wake of a
 * hop with a poll is the one 5.1 picks for that poll: the last wake of
 * the task at or before the poll's start, unless the task's previous
 * poll already consumed it (stale). A hop without a poll (the task was
 * not running when it issued the wake, or --chain asks for a task that
 * has no poll) takes the last wake of the task at or before the hop's
 * time (5.3). The waker of a hop's wake is the next hop, seen through
 * its poll running at the wake (or its last poll before it). The chain
 * ends at a wake from outside any task, a task without a wake, a wake
 * before the window, or a task already in the chain (a cycle).
 */
#ifndef D9M_WAKE_H
#define D9M_WAKE_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/model.h"

struct d9m_window;

#define D9M_CHAIN_MAX	64	/* hops a chain is cut at */

struct d9m_hop {
	uint32_t	task;		/* task row */
	uint32_t	poll;		/* its poll, D9_NONE */
	uint32_t	wake;		/* wake row that woke it, D9_NONE */
	uint32_t	waker;		/* task row, D9_NONE: outside a task */
	uint64_t	delay;		/* wake to poll start (5.1), 0 */
};

/* Wake row 5.1 picks for poll p, D9_NONE; *eff: when it took effect
 * (the wake, or the end of the task's previous poll if later). */
uint32_t d9m_wake_of(const struct d9m_model *m, uint32_t p, uint64_t *eff);
/* Index in m->task_polls of task row t's first poll starting after ts. */
size_t	d9m_task_polls_after(const struct d9m_model *m, uint32_t t,
	    uint64_t ts);
/* Last wake row of task row t at or before ts, D9_NONE. */
uint32_t d9m_last_wake(const struct d9m_model *m, uint32_t t, uint64_t ts);
/* Poll of task row t covering ts, else its last poll starting before ts,
 * else D9_NONE. */
uint32_t d9m_task_poll_at(const struct d9m_model *m, uint32_t t,
	    uint64_t ts);
/* Last poll of task row t starting in the window, D9_NONE. */
uint32_t d9m_task_last_poll(const struct d9m_model *m, uint32_t t,
	    const struct d9m_window *w);
/*
 * The wake chain from task row t seen through poll p (D9_NONE: through
 * the time ts), at most max hops into out, the woken task first; wakes
 * before w->lo end it. Returns the number of hops.
 */
size_t	d9m_chain(const struct d9m_model *m, uint32_t t, uint32_t p,
	    uint64_t ts, const struct d9m_window *w, struct d9m_hop *out,
	    size_t max);
/* The chain --chain TASK shows: from the task's last poll in the window,
 * else from the window's end. 0 when the task id is unknown. */
size_t	d9m_task_chain(const struct d9m_model *m, uint64_t id,
	    const struct d9m_window *w, struct d9m_hop *out, size_t max);

#endif
