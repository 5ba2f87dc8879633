/*
 * timeline.h: finishing a loaded model: every table sorted by time, then
 * per-worker polls, park and active periods and block-in-place gaps
 * derived exactly as ANALYSIS.md sections 2 and 3 define them (time
 * ordered, as the reference intends), CPU samples attributed to workers
 * and polls (section 4), and the wake index by woken task.
 */
#ifndef D9M_TIMELINE_H
#define D9M_TIMELINE_H

#include "model/core/model.h"

int	d9m_model_finish(struct d9m_model *m);
void	d9m_timeline_free(struct d9m_model *m);
/* Row of the last poll of worker slot w starting at or before ts, or
 * D9_NONE. */
uint32_t d9m_poll_at(const struct d9m_model *m, uint32_t w, uint64_t ts);
/* Whether a gap of worker id wid (its OS thread changed) overlaps the
 * time (a, b). */
int	d9m_in_gap(const struct d9m_model *m, uint32_t wid, uint64_t a,
	    uint64_t b);
/* Worker id of thread tid (the last park or unpark on it), else def. */
uint32_t d9m_tid_worker(const struct d9m_model *m, uint32_t tid,
	    uint32_t def);

#endif
