/*
 * app.h: the browser's whole state (no globals) and its two entry points
 * from the loop: d9t_app_key() changes state and ORs in dirty bits
 * (handlers never draw), d9t_app_render() fills the canvas from the state
 * (the one draw point). Tests drive an app without a terminal.
 */
#ifndef D9T_APP_H
#define D9T_APP_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "model/figures/analysis.h"
#include "tui/canvas.h"
#include "model/queries/lanes.h"
#include "tui/jobs.h"
#include "tui/keys.h"
#include "tui/list.h"
#include "tui/timeaxis.h"
#include "tui/tui.h"
#include "tui/view.h"

/* What must be redrawn; CLEAR: the terminal too (C-l), beyond ALL. */
enum { D9T_DIRTY_BODY = 1, D9T_DIRTY_STATUS = 2, D9T_DIRTY_ALL = 0xff,
    D9T_DIRTY_CLEAR = 0x100 };

#define D9T_BODY_Y	2	/* the view's first row: a header, the tabs */
#define D9T_UNDO	32
#define D9T_STACK	16

/* A model replaced while its background job still ran: freed once the
 * job is over (d9t_app_reap), so a swap never waits for it. */
struct d9t_retired {
	struct d9t_jobs		*jobs;
	struct d9m_model	*m;
	struct d9m_lanes	*ix;
};
#define D9T_RETIRED	4

struct d9t_app {
	const struct d9t_config	*cfg;
	struct d9m_model	*m;	/* NULL while loading */
	struct d9m_lanes	*ix;
	struct d9t_jobs		*jobs;
	const char *const	*paths;
	size_t			 npaths;
	int			 utf8, color;
	int			 w, h;
	unsigned		 dirty;
	int			 quit;
	uint64_t		 gen;	/* bumped when lists must rebuild */

	struct d9t_retired	 retired[D9T_RETIRED];
	size_t			 nretired;

	/* loading (filled by the loop from the loader); while loading, m
	 * may be a partial model that a newer one replaces */
	int			 loading;
	uint64_t		 ld_bytes, ld_total, ld_events;
	int			 ld_ended;	/* following: stdin ended */

	/* time window and cursor (absolute ns) */
	uint64_t		 lo, hi, cursor;
	/* where the first model put them (swap.c): while they are still
	 * there, a model that takes its place puts them anew, from its own
	 * start (a partial model of the newest files first began later) */
	uint64_t		 first_lo, first_hi, first_cursor;
	uint64_t		 undo_lo[D9T_UNDO], undo_hi[D9T_UNDO];
	size_t			 nundo;
	uint32_t		 lane;		/* selected worker slot */
	uint32_t		 sel;		/* selected poll row, D9_NONE */
	size_t			 worst_pos;	/* next rank for w */
	uint64_t		 worst_lo, worst_hi;

	/* n/N step through this kind of point of interest (poi.h), from
	 * the one at poi_ts; -1: long polls */
	int			 poi_kind;
	uint64_t		 poi_ts;

	/* filters shared by the timeline and the flame trees */
	uint32_t		 f_task, f_loc;
	/* the metric series the timeline draws as a lane, D9_NONE */
	uint32_t		 metric;

	/* the baseline window (b, baseline.h) and whether the comparing
	 * views list their rows by change (d) */
	int			 have_base, by_change;
	uint64_t		 base_lo, base_hi;

	/* views: each view's own state is behind vstate (view.h) */
	enum d9t_view		 view;
	enum d9t_view		 stack[D9T_STACK];
	size_t			 nstack;
	const struct d9t_view_ops *const *views;	/* d9t_views() */
	struct d9t_list		 lists[D9T_V_COUNT];
	void			*vstate[D9T_V_COUNT];

	/* prompt and messages */
	int			 prompt;	/* 0, 'g', '/', or a view's */
	const char		*plabel;	/* what the prompt asks */
	char			 pbuf[120];
	size_t			 plen;
	char			 search[120];
	char			 msg[256];
	int			 updating;	/* a view shows a stale result */
	int			 saving;	/* views build whole (d9t_save) */
};

/* An app for cfg; the model comes later (d9t_app_set_model). */
D9_MUST_USE
int	d9t_app_init(struct d9t_app *app, const struct d9t_config *cfg,
	    const char *const *paths, size_t npaths, int utf8, int color);
void	d9t_app_free(struct d9t_app *app);
/* Adopt a finished model and its index (the app frees them). The window,
 * selection, filters and views carry over from a partial model shown
 * before; a window that showed the whole trace grows with it. */
int	d9t_app_set_model(struct d9t_app *app, struct d9m_model *m,
	    struct d9m_lanes *ix);
/* The same for a partial model (the trace still loads). */
int	d9t_app_set_partial(struct d9t_app *app, struct d9m_model *m,
	    struct d9m_lanes *ix);
/* Free replaced models whose background job is over (all: wait). */
void	d9t_app_reap(struct d9t_app *app, int all);
void	d9t_app_resize(struct d9t_app *app, int w, int h);
void	d9t_app_key(struct d9t_app *app, int key);
/* A mouse event at (x, y): button 1 click, 4 wheel up, 5 wheel down. */
void	d9t_app_mouse(struct d9t_app *app, int x, int y, int button);
/* Fill cv (sized w x h) from the state; clears the dirty bits. */
void	d9t_app_render(struct d9t_app *app, struct d9t_canvas *cv);

/* ---- the core (core.c), below every view ---- */
void	d9t_app_dirty(struct d9t_app *app);	/* state changed: rebuild */
void	d9t_msg(struct d9t_app *app, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Ask for a line of text; the current view's prompt handler gets it. */
void	d9t_prompt(struct d9t_app *app, int kind, const char *label);
/* The same with text already typed (Backspace, C-u: erase it). */
void	d9t_prompt_with(struct d9t_app *app, int kind, const char *label,
	    const char *text);
/* The handlers of view v (through app->views). */
const struct d9t_view_ops *d9t_ops(const struct d9t_app *app,
	    enum d9t_view v);
/* Show view v on arg (a poll, a span name, a kind, a location, a view;
 * D9_NONE: none), through its .open handler: the one way into a view. */
void	d9t_open(struct d9t_app *app, enum d9t_view v, uint32_t arg);
void	d9t_push_view(struct d9t_app *app, enum d9t_view v);
/* Make v the top view (over the timeline). */
void	d9t_top_view(struct d9t_app *app, enum d9t_view v);
/* Build the lines of the current list view if its state changed. */
void	d9t_build_list(struct d9t_app *app, struct d9t_list *l);
/* "what: 5.90ms poll of task 3 (location) on worker 1" as the message. */
void	d9t_poll_msg(struct d9t_app *app, const char *what, uint32_t p);
void	d9t_fmt_loc(const struct d9t_app *app, uint32_t loc, char *out,
	    size_t cap);
/* loc cut to max: d9o_short_loc (output/textfmt.h). */
void	d9t_short_loc(const char *loc, size_t max, char *out, size_t cap);
uint64_t d9t_task_id(const struct d9t_app *app, uint32_t row);
/* The analysis of the current window (tasks_only: just the task
 * section), or NULL while it is computed. */
const struct d9m_analysis *d9t_analysis(struct d9t_app *app, int tasks_only);
/* The request of the current window and filters (jobs.h). */
void	d9t_req_init(const struct d9t_app *app, struct d9t_req *q);
/* The window [lo, hi] as a request asks for it: D9M_WHOLE when it is
 * the trace's (so its figures are those of --json). */
struct d9m_window d9t_req_window(const struct d9t_app *app, uint64_t lo,
	    uint64_t hi);
/* "window 0.100s..0.200s, task 55, spawned at x.rs:1:1": what every
 * figure of the views is filtered by. */
void	d9t_filters_text(const struct d9t_app *app, char *out, size_t cap);

/* ---- the window and the selection (window.c), above the core ---- */
#define D9T_TL_LABEL	7	/* the timeline's lane labels, columns */
void	d9t_set_window(struct d9t_app *app, uint64_t lo, uint64_t hi, int undo);
/* The window actions; D9T_UNHANDLED for others. */
enum d9t_handled d9t_window_action(struct d9t_app *app, enum d9t_action a);
/* Select poll p: lane, cursor, window (kept if p is inside). */
void	d9t_select_poll(struct d9t_app *app, uint32_t p);
/* Put ts in the window (same width) if outside; the cursor goes there. */
void	d9t_show_time(struct d9t_app *app, uint64_t ts);
/* The timeline's first column of lanes, and its axis at width w. */
int	d9t_timeline_x0(const struct d9t_app *app);
struct d9t_axis d9t_timeline_axis(const struct d9t_app *app, int w);
/* Select the longest poll of the lane in the cursor's column. */
void	d9t_select_at_cursor(struct d9t_app *app);
/* Jump to a point of interest: the timeline, its interval in view, its
 * poll selected; n/N then step through its kind. */
void	d9t_poi_jump(struct d9t_app *app, const struct d9m_poi *x);

/* ---- the dispatcher (app.c) and what it alone calls ---- */
/* Write the current view whole to d9top-VIEW-N.txt (save.c). */
void	d9t_save(struct d9t_app *app);

/* ---- what tests read of a view's state ---- */
/* The poll the detail view shows, D9_NONE. */
uint32_t d9t_detail_poll(const struct d9t_app *app);
/* The hops the chain view shows. */
const struct d9m_hop *d9t_chain_hops(const struct d9t_app *app, size_t *n);
/* The flame tree the current view shows, NULL. */
const struct d9m_flame *d9t_flame_shown(const struct d9t_app *app);

#endif
