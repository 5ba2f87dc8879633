/*
 * ids.h: what a trace's ids are inside the model once segments of more
 * than one process are read together (groups.h). Worker ids, thread ids,
 * task ids and span ids are only unique within one process, so the model
 * keeps those of source group g > 0 apart: a worker is a row of the
 * model's wids table, (group, id as recorded, all 64 bits), a thread id
 * and a span id get g in their top bits, and a task row is found by
 * (group, task id). Group 0, the only one of most traces, keeps its
 * thread and span ids as recorded.
 */
#ifndef D9M_IDS_H
#define D9M_IDS_H

#include <stddef.h>
#include <stdint.h>

#include "base/intern.h"

struct d9m_model;

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

/* Whether worker w (a wids row, model.h) is one with a lane: not the
 * wire's blocking pool or "not a worker thread" (FORMAT 5), not none. */
int	d9m_wid_lane(const struct d9m_model *m, uint32_t w);

/* How every output writes worker w (a wids row): its id, "3", or "1:3"
 * for worker 3 of source group 1 (ANALYSIS 23); "-" for D9_NONE. cap
 * D9M_WORKER_LABEL holds any. */
#define D9M_WORKER_LABEL	32
void	d9m_worker_label(const struct d9m_model *m, uint32_t w, char *out,
	    size_t cap);
/* The id worker w had in its process (0 for D9_NONE). */
uint64_t d9m_worker_own(const struct d9m_model *m, uint32_t w);

/* A name given within one process (a runtime, a metric) as the model
 * keeps it: name itself in group 0, "g:name" in group g > 0; interned.
 * D9_NONE when out of memory. */
uint32_t d9m_scoped_name(struct d9m_model *m, uint32_t g, const char *name,
	    size_t len);

/* The wids row of worker own of group g, added on first sight to m and
 * to rows (the loader's map of them); D9_NONE when out of memory. */
struct d9_hmap;
uint32_t d9m_wid_row(struct d9m_model *m, struct d9_hmap *rows, uint32_t g,
	    uint64_t own);

/* Task row of (group, id), created on first sight; D9_NONE for id 0. */
uint32_t d9m_task_row(struct d9m_model *m, uint32_t g, uint64_t id);

#endif
