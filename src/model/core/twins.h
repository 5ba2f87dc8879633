/*
 * twins.h: segments that name every address alike. The directory of a
 * long recording repeats one symbol table (and one set of memory maps)
 * in every segment; what depends only on the names of a stack's frames
 * needs working out once for all of them.
 */
#ifndef D9M_TWINS_H
#define D9M_TWINS_H

#include <stdint.h>

#include "model/core/model.h"

/*
 * twin[s] (segs.n entries) := the first segment whose symbol table rows
 * and memory maps are those of segment s, row for row, so that every
 * address of s is named as it is there (by the trace and by a resolver:
 * the maps it reads and the load bias it infers are the same); s itself
 * when there is none before it. 0, or -1 when out of memory.
 */
int	d9m_seg_twins(const struct d9m_model *m, uint32_t *twin);
/* The segment whose names stand for seg's: its twin once m is finished,
 * else seg itself. */
uint32_t d9m_twin_of(const struct d9m_model *m, uint32_t seg);

#endif
