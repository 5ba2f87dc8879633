/*
 * spans.h: span lives, derived once per finished model (see spans.c and
 * struct d9m_spans in model.h).
 */
#ifndef D9M_SPANS_H
#define D9M_SPANS_H

#include "model/model.h"

/* Link span events into lives and pair them into m->spans. */
int	d9m_spans_derive(struct d9m_model *m);

#endif
