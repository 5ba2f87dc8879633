/*
 * loss.h: what the trace lost (ANALYSIS 19), as m->loss (struct
 * d9m_loss in model.h). Every output shows it: --json "loss", the
 * report's summary and warning, the events-lost red flag, the browser's
 * header.
 */
#ifndef D9M_LOSS_H
#define D9M_LOSS_H

#include <stddef.h>

#include "model/core/model.h"

/* Fill m->loss from the loaded tables (d9m_model_finish calls it). */
int	 d9m_loss_derive(struct d9m_model *m);
/* Whether anything was lost (copies read once are not a loss). */
int	 d9m_loss_any(const struct d9m_loss *l);
/* What was lost in words ("41022 runtime events dropped, 1 segment
 * incomplete"), copies left out; returns the length. */
size_t	 d9m_loss_text(const struct d9m_loss *l, char *buf, size_t cap);

/* The recorder's share of its process's CPU (m->cost), in %; -1 when
 * the trace does not tell it. */
double	 d9m_cost_pct(const struct d9m_cost *c);

#endif
