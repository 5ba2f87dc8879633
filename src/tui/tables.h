/*
 * tables.h: what the list views drawn from figures share: a row of
 * percentiles, and the line shown while a view's figures are computed.
 */
#ifndef D9T_TABLES_H
#define D9T_TABLES_H

#include <stddef.h>

#include "tui/app.h"

/* "p50 p99 max" as three right-aligned durations. */
void	d9t_pct_cols(struct d9t_app *app, const struct d9m_pct *p, char *out,
	    size_t cap);
/* 1 (and a "computing" line in l) when r is not there yet. */
int	d9t_computing(struct d9t_list *l, const void *r);

#endif
