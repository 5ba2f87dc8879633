/*
 * runtimes.h: runtime groups (d9m_model.runtimes), derived once per
 * finished model, and their global queue and alive-task figures over a
 * window (DESIGN: the JSON key runtimes; FORMAT 5).
 */
#ifndef D9M_RUNTIMES_H
#define D9M_RUNTIMES_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/model.h"
#include "model/queries/window.h"

/* Name the workers' runtimes, make the groups, give each worker and
 * queue sample its group. */
int	d9m_runtimes_derive(struct d9m_model *m);
void	d9m_runtimes_free(struct d9m_model *m);

struct d9m_rt_fig {
	size_t		samples;	/* queue samples counted for it */
	uint32_t	queue_max;
	uint32_t	alive_max;	/* D9_NONE: no sample said */
};

/* Figures of every group (out: m->nruntimes entries) over w. */
void	d9m_runtime_figs(const struct d9m_model *m, const struct d9m_window *w,
	    struct d9m_rt_fig *out);

#endif
