/*
 * spans.h: span instances, derived once per finished model (see spans.c
 * and struct d9m_spans in model.h).
 */
#ifndef D9M_SPANS_H
#define D9M_SPANS_H

#include "model/model.h"

/* The entered intervals of the instances, n of them. While they are
 * paired, by the span event that entered each (an enter enters one at
 * most): exit_at[row] is 1 + the row of its exit, 0 where row entered
 * none. Once paired, what the per-poll counts read of them, in the
 * order of their enters (time order): the span events can go. */
struct d9m_ivals {
	uint32_t	*exit_at;	/* spanev.n + 1 entries, then NULL */
	size_t		 n;
	uint64_t	*enter, *exit;	/* their times */
	uint32_t	*worker;	/* the worker of the enter */
};

/* Pair span events into the instances of m->spans and their intervals
 * (iv, empty): reads only m->spanev, writes only m->spans and the
 * lives' links (so it may run while the polls are derived). */
int	d9m_spans_pair(struct d9m_model *m, struct d9m_ivals *iv);
/* Then, once the polls are there, the per-poll counts of m->spans. */
int	d9m_spans_in_polls(struct d9m_model *m, const struct d9m_ivals *iv);
void	d9m_spans_ivals_free(struct d9m_ivals *iv);
/* Once m->spans are paired for the last time (d9m_model_finish_last):
 * the span events go (d9m_spans_in_polls reads the intervals only). */
void	d9m_spans_drop_events(struct d9m_model *m);
void	d9m_spans_free(struct d9m_spans *s);

#endif
