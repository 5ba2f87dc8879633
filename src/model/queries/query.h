/*
 * query.h: the one shape of a windowed read (queries/window.h's wing
 * comment). Views, outputs and the browser's jobs say what they want as
 * a struct d9m_query: the window (D9M_WHOLE: the whole trace, so that
 * its figures are those of --json), the worker, task and spawn location
 * it is narrowed to, what the read returns (kind: the read's own enum)
 * and flags. A field a read does not use is ignored by it; each read's
 * header says which it uses:
 *
 *	flame trees (flame.h)	win, task, loc, kind (enum d9m_flame_kind),
 *				flags INPOLL, COUNT, LIVE, INVERT, text
 *				(the frames hidden, hide.h)
 *	strips (series.h)	worker, group, runtime, kind (enum
 *				d9m_series_kind); the liveset strip win,
 *				task, loc, flags COUNT, LIVE; a process's
 *				usage win, group
 *	allocations (samples.h)	win
 *
 * The browser's jobs (src/tui/jobs.h) carry one, with D9M_Q_DUMPS.
 */
#ifndef D9M_QUERY_H
#define D9M_QUERY_H

#include <stdint.h>

#include "base/hmap.h"
#include "model/queries/window.h"

#define D9M_Q_INPOLL	0x1	/* off-CPU: only samples inside polls */
#define D9M_Q_COUNT	0x2	/* allocations, task dumps: weigh by count */
#define D9M_Q_LIVE	0x4	/* allocations: only those never freed in
				 * the window */
#define D9M_Q_INVERT	0x8	/* flame trees: from the leaf (callers) */
#define D9M_Q_DUMPS	0x10	/* the browser's off-CPU tree: task dumps
				 * instead (its job asks for D9M_F_DUMP) */

#define D9M_QUERY_TEXT	128	/* a text filter's bytes, NUL included */

struct d9m_query {
	struct d9m_window win;	/* D9M_WHOLE: the whole trace */
	uint32_t	 worker;	/* worker slot, D9_NONE: any */
	uint32_t	 group;		/* source group (a process), D9_NONE:
					 * any */
	uint32_t	 runtime;	/* runtime (m->runtimes), D9_NONE: any */
	uint32_t	 task;		/* task row, D9_NONE: any */
	uint32_t	 loc;		/* spawn location id, D9_NONE: any */
	int		 kind;		/* what the read returns (its enum) */
	unsigned	 flags;		/* D9M_Q_* */
	char		 text[D9M_QUERY_TEXT];	/* a text filter, "": none
						 * (the read says which) */
};

/* The whole trace, nothing narrowed, kind 0, no flags, no text. */
#define D9M_QUERY_INIT	{ D9M_WHOLE_INIT, D9_NONE, D9_NONE, D9_NONE, \
	D9_NONE, D9_NONE, 0, 0, "" }

static inline int
d9m_query_has(const struct d9m_query *q, unsigned flag)
{
	return (q->flags & flag) != 0;
}

#endif
