/*
 * walk.h: the walk of each worker's runtime events (ANALYSIS 2 and 3):
 * the gaps where its OS thread changed, its polls, parks and active
 * periods, from a finished sort of the runtime events and the workers
 * found in them.
 */
#ifndef D9M_WALK_H
#define D9M_WALK_H

#include <stdint.h>

#include "model/core/model.h"

/* Fill m->gaps (by start), m->polls, m->parks and m->actives (grouped
 * by worker slot, each group in time order) and each worker's ranges of
 * them, and *by_start (free() it): the polls' rows by start, stable (as
 * d9m_sort_perm of their starts gives them). 0, or -1 when out of
 * memory. */
int	d9m_walk_workers(struct d9m_model *m, uint32_t **by_start);

#endif
