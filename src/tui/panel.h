/*
 * panel.h: what the timeline shows in the rows below its lanes: its
 * strips (global queue and active tasks of each runtime group, the
 * selected worker's local queue and kernel scheduling waits, its
 * process's CPU use, the metric chosen as a lane; each labels its
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
	char			 readout[256];	/* the strips at the cursor */
};

struct d9t_axis;

void	d9t_panel_init(struct d9t_panel *p);
/* How many rows of strips the lanes may have under them, at most. */
int	d9t_panel_nstrips(const struct d9t_app *app);
/* The strips over ax from row y, those with nothing recorded left out;
 * their values at the cursor into p->readout; returns the rows drawn. */
int	d9t_panel_strips(struct d9t_app *app, struct d9t_panel *p,
	    struct d9t_canvas *cv, const struct d9t_axis *ax, int y);
/* The rows the panel fills at width w (points of interest, the selected
 * poll's verdict and stack, wrapped). */
int	d9t_panel_want(struct d9t_app *app, struct d9t_panel *p, int w);
/* Draw into rows [y, y + rows) of cv; nothing when rows < 1. */
void	d9t_panel_draw(struct d9t_app *app, struct d9t_panel *p,
	    struct d9t_canvas *cv, int y, int rows);

#endif
