/*
 * spans.h: span instances, derived once per finished model (see spans.c
 * and struct d9m_spans in model.h).
 */
#ifndef D9M_SPANS_H
#define D9M_SPANS_H

#include "model/model.h"

/* The entered intervals of the instances: enter and exit rows of
 * m->spanev, and their order by enter. */
struct d9m_ivals {
	uint64_t	*enter;
	uint32_t	*exit;
	uint32_t	*by_enter;
	size_t		 n;
};

/* Pair span events into the instances of m->spans and their intervals
 * (iv, empty): reads only m->spanev, writes only m->spans and the
 * lives' links (so it may run while the polls are derived). */
int	d9m_spans_pair(struct d9m_model *m, struct d9m_ivals *iv);
/* Then, once the polls are there, the per-poll counts of m->spans. */
int	d9m_spans_in_polls(struct d9m_model *m, const struct d9m_ivals *iv);
void	d9m_spans_ivals_free(struct d9m_ivals *iv);
void	d9m_spans_free(struct d9m_spans *s);

#endif
