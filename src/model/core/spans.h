/*
 * spans.h: span instances, derived once per finished model (see spans.c
 * and struct d9m_spans in model.h), and the lives of legacy span events
 * (spans.c pairs each life): the events of one span id up to and with
 * its close, linked in time order through m->spanev.next, their first
 * enters marked in m->spanev.first.
 */
#ifndef D9M_SPANS_H
#define D9M_SPANS_H

#include "model/core/model.h"

/* Is row i a legacy event (no instance id, not a single-event span)? */
static inline int
d9m_span_is_legacy(const struct d9m_model *m, size_t i)
{
	return D9M_EV(m, legacy, i);
}

/* Is row i the first enter of its legacy life? */
static inline int
d9m_span_first(const struct d9m_spanev *e, size_t i)
{
	return e->first[i / 8] >> (i % 8) & 1;
}

/*
 * Link every legacy event of m->spanev (rows in time order) to the next
 * one of its life (next; D9_NONE where there is none, and for every
 * other row) and mark each life's first enter (first). A close ends its
 * life: the id may be reused. Allocates both arrays, but when finishing
 * for the last time (m->last) next is the id column, the legacy rows'
 * ids replaced by their links (next is then not for other rows): 0, or
 * -1 when out of memory.
 */
int	d9m_link_lives(struct d9m_model *m);

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
