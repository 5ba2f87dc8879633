/*
 * sched.h: scheduling delays of the polls (m->poll_sched), derived by
 * d9m_model_finish from the polls in start order (by_start: the poll
 * rows by start, stable).
 */
#ifndef D9M_SCHED_H
#define D9M_SCHED_H

#include <stdint.h>

#include "model/core/model.h"

int	d9m_sched_derive(struct d9m_model *m, const uint32_t *by_start);

#endif
