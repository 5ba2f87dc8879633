/*
 * src/model/queries, the model's second wing: the windowed reads the
 * views and outputs call on a finished model, each a pure function of
 * (model, query): the one shape of a query (query.h: window, filters,
 * kind, flags), the window and its rows (window.h), exact
 * percentiles (select), worst polls (worst), flame trees (flame), strips
 * (series), the timeline's search (pollfind), the browser's lane
 * look-ups (lanes), span sets (spanset), wake chains (wake), the
 * application's events (appev) and what a sample stands for (samples).
 * It may call src/base, src/parse, model/core and itself, never the
 * figures; figures and the outputs call it.
 *
 * window.h: a time window and the rows of a time-sorted column inside
 * it. Window rule: an event belongs to the window when its time (a
 * poll's or span's start) is inside it, both ends included.
 */
#ifndef D9M_WINDOW_H
#define D9M_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/model.h"
#include "model/core/table.h"

struct d9m_window {
	uint64_t	lo, hi;		/* absolute ns, inclusive */
};

/* The whole trace: what --json reads without --window, the one whole
 * window (D9M_WHOLE_INIT initializes a static one), and the one test of
 * it (d9m_window_whole). */
#define D9M_WHOLE_INIT	{ 0, UINT64_MAX }
#define D9M_WHOLE	((struct d9m_window)D9M_WHOLE_INIT)

static inline int
d9m_window_whole(const struct d9m_window *w)
{
	return w->lo == 0 && w->hi == UINT64_MAX;
}

/* Whether [lo, hi] (absolute ns) covers every event of m. */
static inline int
d9m_window_covers(const struct d9m_model *m, uint64_t lo, uint64_t hi)
{
	return lo <= m->min_ts && hi >= m->max_ts;
}

/* The window [lo, hi] as a query asks for it: D9M_WHOLE when it covers
 * the trace (so that its figures are those of --json), else itself. */
static inline struct d9m_window
d9m_window_of(const struct d9m_model *m, uint64_t lo, uint64_t hi)
{
	return d9m_window_covers(m, lo, hi) ? D9M_WHOLE :
	    (struct d9m_window){ lo, hi };
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

static inline int
d9m_in_window(const struct d9m_window *w, uint64_t ts)
{
	return ts >= w->lo && ts <= w->hi;
}

#endif
