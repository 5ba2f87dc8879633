/*
 * ids.h: what a trace's ids are inside the model once segments of more
 * than one process are read together (groups.h). Worker ids, thread ids,
 * task ids and span ids are only unique within one process, so the model
 * keeps those of source group g > 0 apart: a worker id becomes
 * g << 16 | id (struct d9m_worker keeps group and own id for display),
 * a thread id and a span id get g in their top bits, and a task row is
 * found by (group, task id). Group 0, the only one of most traces, keeps
 * every id as recorded.
 */
#ifndef D9M_IDS_H
#define D9M_IDS_H

#include <stddef.h>
#include <stdint.h>

#include "base/intern.h"

struct d9m_model;

#define D9M_GROUP_BITS	16

static inline uint32_t
d9m_group_worker(uint32_t g, uint32_t w)
{
	return g == 0 ? w : g << D9M_GROUP_BITS | (w & 0xffffu);
}

static inline uint32_t
d9m_group_tid(uint32_t g, uint32_t tid)
{
	return g == 0 || tid == D9_NONE ? tid : tid ^ g << 24;
}

static inline uint64_t
d9m_group_span(uint32_t g, uint64_t id)
{
	return g == 0 ? id : id ^ (uint64_t)g << 56;
}

/* The group of a model worker id, of the model m (ngroups groups). */
static inline uint32_t
d9m_worker_group(size_t ngroups, uint32_t id)
{
	return ngroups > 1 ? id >> D9M_GROUP_BITS : 0;
}

static inline uint32_t
d9m_worker_own(size_t ngroups, uint32_t id)
{
	return ngroups > 1 ? id & 0xffffu : id;
}

/* A worker as people read it: "3", or "1:3" for worker 3 of group 1. */
void	d9m_worker_label(size_t ngroups, uint32_t id, char *out, size_t cap);

/* Task row of (group, id), created on first sight; D9_NONE for id 0. */
uint32_t d9m_task_row(struct d9m_model *m, uint32_t g, uint64_t id);

#endif
