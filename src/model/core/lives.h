/*
 * lives.h: the lives of legacy span events (spans.c pairs each life):
 * the events of one span id up to and with its close, linked in time
 * order through m->spanev.next, their first enters marked in
 * m->spanev.first.
 */
#ifndef D9M_LIVES_H
#define D9M_LIVES_H

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

#endif
