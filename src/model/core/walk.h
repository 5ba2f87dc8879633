/*
 * walk.h: the walk of each worker's runtime events (ANALYSIS 2 and 3):
 * the gaps where its OS thread changed, its polls, parks and active
 * periods, from a finished sort of the runtime events and the workers
 * found in them.
 */
#ifndef D9M_WALK_H
#define D9M_WALK_H

#include "model/core/model.h"

/* Fill m->gaps (by start), m->polls, m->parks and m->actives (grouped
 * by worker slot, each group in time order) and each worker's ranges of
 * them: 0, or -1 when out of memory. */
int	d9m_walk_workers(struct d9m_model *m);

#endif
