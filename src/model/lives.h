/*
 * lives.h: the lives of legacy span events (spans.c pairs each life):
 * the events of one span id up to and with its close, linked in time
 * order through m->spanev.next and .prev_enter.
 */
#ifndef D9M_LIVES_H
#define D9M_LIVES_H

#include "model/model.h"

/* Is row i a legacy event (no instance id, not a single-event span)? */
static inline int
d9m_span_is_legacy(const struct d9m_spanev *e, size_t i)
{
	return e->ext[i] == D9_NONE;
}

/*
 * Link every legacy event of e (rows in time order) to the next one of
 * its life (e->next) and to its life's latest enter before it
 * (e->prev_enter); D9_NONE where there is none, and for every other row.
 * A close ends its life: the id may be reused. Allocates both arrays:
 * 0, or -1 when out of memory.
 */
int	d9m_link_lives(struct d9m_spanev *e);

#endif
