/*
 * poi.h: points of interest (ANALYSIS 18): the moments worth a look, of
 * seven kinds, each with the interval a jump should show, the worker,
 * the task and the poll when there is one, and a line of text. The
 * report, --json (pointsOfInterest) and the browser's `p` list and n/N
 * steps all take them from here.
 */
#ifndef D9M_POI_H
#define D9M_POI_H

#include <stddef.h>
#include <stdint.h>

#include "model/figures/blame.h"
#include "model/core/frames.h"
#include "model/core/model.h"
#include "model/queries/window.h"

enum d9m_poi_kind {
	D9M_POI_LONG_POLL, D9M_POI_SCHED_DELAY, D9M_POI_KERNEL_WAIT,
	D9M_POI_OFF_CPU, D9M_POI_SPAWN_DELAY, D9M_POI_UNINSTRUMENTED,
	D9M_POI_EVENTS_LOST, D9M_POI_COUNT
};

#define D9M_POI_MAX	1000	/* kept per kind, the worst */

struct d9m_poi {
	enum d9m_poi_kind kind;
	uint64_t	 start, dur;	/* what a jump shows */
	uint64_t	 value;		/* what it is ranked by */
	uint32_t	 worker;	/* wids row (ids.h), D9_NONE */
	uint32_t	 task;		/* task row, D9_NONE */
	uint32_t	 poll;		/* poll row, D9_NONE */
	struct d9m_held	 held;		/* sched-delay: who held its worker
					 * (ANALYSIS 20) */
	char		 text[256];
};

struct d9m_pois {
	struct d9m_poi	*v;		/* by kind, worst first in a kind */
	size_t		 n;
	size_t		 first[D9M_POI_COUNT + 1];	/* v[first[k] ..
							 * first[k + 1]) */
	size_t		 total[D9M_POI_COUNT];	/* found, before the cap */
	uint32_t	*by_time;	/* indexes into v, by kind, then start */
	/* the starts of every point found, kept or not, by kind, then
	 * time: starts[sfirst[k] .. sfirst[k] + total[k]) (true counts of
	 * any part of the window, ANALYSIS 18.1) */
	uint64_t	*starts;
	size_t		 sfirst[D9M_POI_COUNT];
};

/* "long-poll", ... as JSON names them. */
const char	*d9m_poi_name(enum d9m_poi_kind k);
/* The points of interest starting in the window (samples named through
 * r to classify them). NULL when out of memory. */
struct d9m_pois	*d9m_pois_find(const struct d9m_model *m,
		    const struct d9m_resolver *r, const struct d9m_window *w);
void		 d9m_pois_free(struct d9m_pois **p);
/* How many points of kind k (every kind: k < 0) start in w, kept or
 * not: the true count every view and output gives. */
size_t		 d9m_pois_count(const struct d9m_pois *p, int k,
		    const struct d9m_window *w);
/* How many of kind k are listed (kept) and start in w. */
size_t		 d9m_pois_listed(const struct d9m_pois *p, int k,
		    const struct d9m_window *w);
/* The point of kind k after (dir > 0) or before (dir < 0) time ts, in
 * time order; -1 when there is none. */
long		 d9m_poi_step(const struct d9m_pois *p, enum d9m_poi_kind k,
		    uint64_t ts, int dir);

#endif
