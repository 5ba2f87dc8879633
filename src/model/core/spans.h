/*
 * spans.h: span instances, derived once per finished model (see spans.c
 * and struct d9m_spans in model.h).
 */
#ifndef D9M_SPANS_H
#define D9M_SPANS_H

#include "model/core/model.h"

struct d9m_gate;

/* Pair span events into the instances of m->spans: reads only
 * m->spanev, writes only m->spans and the lives' links, so it may run
 * while the polls are derived; then, once the gate polls says they are
 * there (it reads them, never writes), the per-poll counts of m->spans.
 * The span events go before the instances are sorted when finishing for
 * the last time (m->last). */
int	d9m_spans_pair(struct d9m_model *m, struct d9m_gate *polls);
void	d9m_spans_free(struct d9m_spans *s);

#endif
