/*
 * timeline.h: finishing a loaded model (d9m_model_finish, model.h): every table sorted by time, then
 * per-worker polls, park and active periods and block-in-place gaps
 * derived exactly as ANALYSIS.md sections 2 and 3 define them (time
 * ordered, as the reference intends), CPU samples attributed to workers
 * and polls (section 4), and the wake index by woken task.
 */
#ifndef D9M_TIMELINE_H
#define D9M_TIMELINE_H

#include "model/core/model.h"

/* Frees what finishing derived (d9m_model_free, a second finish). */
void	d9m_timeline_free(struct d9m_model *m);

#endif
