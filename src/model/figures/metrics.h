/*
 * metrics.h: the metric series of a trace (metrics.rs, FORMAT 5; struct
 * d9m_metrics and d9m_msamples in model.h) over a window: per series its
 * samples, lowest, highest and last value, and for a counter (a running
 * total) how much it grew; and one value per column of a time axis for a
 * lane.
 */
#ifndef D9M_METRICS_H
#define D9M_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/model.h"
#include "model/queries/window.h"

struct d9m_metric_fig {
	uint32_t	metric;		/* row in m->metrics */
	size_t		samples;
	double		min, max, last;
	double		increase;	/* counters: growth, a drop being a
					 * reset (counted from 0) */
};

/* The series with samples in w, by name, into *out (malloc'd). -1 when
 * out of memory. */
int	d9m_metric_figs(const struct d9m_model *m, const struct d9m_window *w,
	    struct d9m_metric_fig **out, size_t *n);

/* Values of one series per column (edges[0 .. ncols] ascending): a
 * counter's growth in the column, else its highest sample there; a
 * column without a sample holds NAN. -1 when out of memory. */
int	d9m_metric_columns(const struct d9m_model *m, uint32_t metric,
	    const uint64_t *edges, size_t ncols, double *out);

/* "gauge", "counter" or "updown-counter". */
const char *d9m_metric_kind_name(uint8_t kind);

#endif
