/*
 * panel.h: what the timeline shows in the rows below its lanes: its
 * strips (global queue, active tasks, the selected worker's local queue
 * and kernel scheduling waits, its process's CPU use; each labels its
 * maximum), the selected poll's summary (duration, task, spawn location, its verdict
 * and its most sampled stack) and the points of interest inside the
 * window, worst first. The summary of a poll is computed once and kept.
 */
#ifndef D9T_PANEL_H
#define D9T_PANEL_H

#include <stdint.h>

struct d9t_app;
struct d9t_canvas;
struct d9m_model;

struct d9t_panel {
	const struct d9m_model	*m;	/* the model poll belongs to */
	uint32_t		 poll;	/* summarised poll, D9_NONE */
	char			 verdict[400];
	char			 stack[400];
};

#define D9T_STRIPS	5	/* rows of strips under the lanes */

struct d9t_axis;

void	d9t_panel_init(struct d9t_panel *p);
/* The D9T_STRIPS strips over ax from row y. */
void	d9t_panel_strips(struct d9t_app *app, struct d9t_canvas *cv,
	    const struct d9t_axis *ax, int y);
/* Draw into rows [y, y + rows) of cv; nothing when rows < 1. */
void	d9t_panel_draw(struct d9t_app *app, struct d9t_panel *p,
	    struct d9t_canvas *cv, int y, int rows);

#endif
