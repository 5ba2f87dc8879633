/*
 * blame.h: impact and blame (ANALYSIS 20). A task woken at t_w and
 * polled at t_p on worker w was held back by the polls of other tasks on
 * w overlapping [t_w, t_p]: heldBy is the one with the largest overlap;
 * without one, the worker was parked then, or the wake went to another
 * worker's queue. The other way round, a poll P delayed the tasks whose
 * wait windows on P's worker overlap it, by the sum of those overlaps.
 */
#ifndef D9M_BLAME_H
#define D9M_BLAME_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/model.h"

enum d9m_held_why {
	D9M_HELD_POLL,		/* a poll of another task: held */
	D9M_HELD_PARKED,	/* no poll: the worker was parked */
	D9M_HELD_ELSEWHERE	/* no poll, not parked: the wake went to
				 * another worker's queue */
};

struct d9m_held {
	enum d9m_held_why why;
	uint32_t	 poll;		/* the holding poll, D9_NONE */
	uint64_t	 overlap;	/* ns of [t_w, t_p] it covered */
};

/* Who held the worker of poll p (a poll with a scheduling delay) from
 * its task's wake to its start. */
void	d9m_held_by(const struct d9m_model *m, uint32_t p, struct d9m_held *h);

struct d9m_delayed {
	size_t		 tasks;		/* polls whose wait it overlapped */
	uint64_t	 total;		/* ns of those waits it covered */
};

/* Whom poll p held back on its worker; the first max of their polls
 * (rows, by start) into polls when it is not NULL. */
void	d9m_delayed_by(const struct d9m_model *m, uint32_t p,
	    struct d9m_delayed *d, uint32_t *polls, size_t max);

#endif
