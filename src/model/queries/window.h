/*
 * window.h: a time window and the rows of a time-sorted column inside
 * it. Window rule: an event belongs to the window when its time (a
 * poll's or span's start) is inside it, both ends included.
 */
#ifndef D9M_WINDOW_H
#define D9M_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/model.h"

struct d9m_window {
	uint64_t	lo, hi;		/* absolute ns, inclusive */
};

/* The whole trace: what --json reads without --window. */
#define D9M_WHOLE	((struct d9m_window){ 0, UINT64_MAX })

static inline int
d9m_window_whole(const struct d9m_window *w)
{
	return w->lo == 0 && w->hi == UINT64_MAX;
}

/* The window lo_ms .. hi_ms (milliseconds from the trace's first event,
 * rounded to the nearest ns; hi_ms < 0: to the end) of m: what --window
 * means, for the browser and the report alike. */
struct d9m_window d9m_window_ms(const struct d9m_model *m, double lo_ms,
	    double hi_ms);
/* First index of an ascending column with v[i] >= x. */
size_t	d9m_lower(const uint64_t *v, size_t n, uint64_t x);
/* Rows [*a, *b) of an ascending column whose values are in the window:
 * time-sorted tables, and the polls, parks or actives of one worker. */
void	d9m_window_rows(const uint64_t *v, size_t n,
	    const struct d9m_window *w, size_t *a, size_t *b);
/* Poll rows of worker slot s that start in the window: [*a, *b). */
void	d9m_window_polls(const struct d9m_model *m, size_t s,
	    const struct d9m_window *w, size_t *a, size_t *b);

/* Row i of a column: v + i, without arithmetic on the NULL of a column
 * that never got a row (NULL + 0 is undefined behaviour in C). */
static inline const uint64_t *
d9m_row(const uint64_t *v, size_t i)
{
	return v != NULL ? v + i : v;
}

static inline int
d9m_in_window(const struct d9m_window *w, uint64_t ts)
{
	return ts >= w->lo && ts <= w->hi;
}

#endif
