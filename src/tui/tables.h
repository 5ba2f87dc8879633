/*
 * tables.h: what the list views drawn from figures share: a row of
 * percentiles (core.c).
 */
#ifndef D9T_TABLES_H
#define D9T_TABLES_H

#include <stddef.h>

#include "tui/app.h"

/* "p50 p99 max" as three right-aligned durations. */
void	d9t_pct_cols(struct d9t_app *app, const struct d9m_pct *p, char *out,
	    size_t cap);

#endif
