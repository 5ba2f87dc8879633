/*
 * spans.h: span instances, derived once per finished model (see spans.c
 * and struct d9m_spans in model.h).
 */
#ifndef D9M_SPANS_H
#define D9M_SPANS_H

#include "model/model.h"

/* Pair span events into the instances of m->spans. */
int	d9m_spans_derive(struct d9m_model *m);
void	d9m_spans_free(struct d9m_spans *s);

#endif
