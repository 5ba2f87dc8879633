/*
 * lives.c: see lives.h. One pass over the rows in time order, with the
 * life so far of each span id (its latest row and latest enter), found
 * by the id's number: each event is linked to the latest row of its
 * id's life. A close ends the life but keeps the id's slot (span ids are
 * reused: 27 K ids for 10 M events in the 58-segment benchmark), so the
 * slots stay in cache.
 */
#include <stdlib.h>

#include "model/core/lives.h"

/* An id's life so far: its latest row and its latest enter (D9_NONE: no
 * open life). */
struct life {
	uint32_t	 last, enter;
};

int
d9m_link_lives(struct d9m_model *m)
{
	struct d9m_spanev *e = &m->spanev;
	struct life *l;
	size_t n = e->n ? e->n : 1, nid = 0;

	/* the ids are numbered densely as read: one life slot each */
	for (size_t i = 0; i < e->n; i++)
		if (d9m_span_is_legacy(m, i) && e->id[i] >= nid)
			nid = (size_t)e->id[i] + 1;
	/* finishing for the last time, a legacy row's id is read here
	 * only: its link takes its place (82 MB in dir-116, at the
	 * finishing's peak) */
	e->next = m->last && e->id != NULL ? e->id :
	    malloc(n * sizeof *e->next);
	e->first = calloc(n / 8 + 1, 1);
	l = malloc((nid ? nid : 1) * sizeof *l);
	if (e->next == NULL || e->first == NULL || l == NULL) {
		if (e->next == e->id)
			e->next = NULL;
		free(l);
		return -1;
	}
	for (size_t k = 0; k < nid; k++)
		l[k].last = l[k].enter = D9_NONE;
	for (size_t i = 0; i < e->n; i++) {
		struct life *f;
		uint8_t kind;

		if (!d9m_span_is_legacy(m, i)) {
			if (e->next != e->id)	/* else its spanx row */
				e->next[i] = D9_NONE;
			continue;
		}
		f = &l[e->id[i]];	/* before its link takes its place */
		e->next[i] = D9_NONE;
		kind = D9M_EV(m, kind, i);
		if (f->last != D9_NONE)
			e->next[f->last] = (uint32_t)i;
		f->last = (uint32_t)i;
		if (kind == D9M_SPAN_ENTER) {
			if (f->enter == D9_NONE)
				e->first[i / 8] |= (uint8_t)(1u << i % 8);
			f->enter = (uint32_t)i;
		} else if (kind == D9M_SPAN_CLOSE)
			f->last = f->enter = D9_NONE;	/* the id may be reused */
	}
	free(l);
	return 0;
}
