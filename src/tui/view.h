/*
 * view.h: a view is a table of handlers (tmux's window_mode, tig's
 * view_ops): each view file owns its state, its keys and how it is drawn,
 * and registers one struct d9t_view_ops; view.c lists them. The app
 * keeps what all views share (the time window, the cursor, the selected
 * poll, the filters) and one state pointer per view, made by init.
 *
 * Handlers never draw: they change state and return what they did.
 * A list view fills a d9t_list in build (only when the app's generation
 * changed); the timeline draws itself in draw.
 */
#ifndef D9T_VIEW_H
#define D9T_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "tui/actions.h"
#include "tui/keys.h"

struct d9t_app;
struct d9t_canvas;
struct d9t_list;
struct d9m_model;
struct d9m_flame;

/* What a key handler did. */
enum d9t_handled {
	D9T_UNHANDLED = 0,	/* not this view's action: the app's */
	D9T_HANDLED = 1
};

struct d9t_view_ops {
	const char	*name;		/* "timeline", shown in help and tabs */
	int		 tab;		/* 1..8: its number key; 0: a sub-view */
	const enum d9t_action *hints;	/* hint bar, D9T_A_NONE ends it */
	/* state of the view (NULL: none), made once per app */
	void		*(*init)(void);
	void		 (*free)(void *st);
	/* a list of rows to open (tasks, spans, points, events): at the top,
	 * the cursor is on the first row Enter opens, not a heading */
	int		 open_first;
	/* a table: its columns' names, in the order of its rows' keys
	 * (d9t_list_keys), NULL-ended; o sorts by each in turn */
	const char *const *sort_keys;
	/* a list view: the lines of what it shows */
	void		 (*build)(struct d9t_app *app, void *st,
			    struct d9t_list *l);
	/* shown through d9t_open(app, v, arg): set what it shows from arg
	 * (a poll, a name, a kind, a view) and put it on screen (d9t_push_view
	 * or d9t_top_view); NULL: pushed as it is */
	void		 (*open)(struct d9t_app *app, void *st, uint32_t arg);
	/* the lines `?` ends with: what its colours, glyphs and strips mean */
	void		 (*legend)(const struct d9t_app *app,
			    struct d9t_list *l);
	/* a flame tree view: the tree shown now (saved as folded stacks) */
	const struct d9m_flame *(*flame)(const void *st);
	/* a drawn view (the timeline) instead of build */
	void		 (*draw)(struct d9t_app *app, void *st,
			    struct d9t_canvas *cv, int y0, int rows);
	void		 (*click)(struct d9t_app *app, void *st, int x, int y,
			    int y0);
	/* an action on this view; D9T_UNHANDLED leaves it to the app */
	enum d9t_handled (*key)(struct d9t_app *app, void *st,
			    enum d9t_action a);
	/* a prompt this view opened (d9t_prompt) was answered */
	void		 (*prompt)(struct d9t_app *app, void *st,
			    const char *text);
	/* / in this view: 0 when something matched */
	int		 (*search)(struct d9t_app *app, void *st,
			    const char *text);
	/* the model was replaced (a larger one, or the entry of other
	 * files: rows may move) */
	void		 (*swap)(struct d9t_app *app, void *st,
			    const struct d9m_model *old,
			    const struct d9m_model *m);
	/* a string id and a task row the state keeps (D9T_KEEPS: where;
	 * 0: none), carried over to a new model by text and task id
	 * (model.h: d9m_str_remap, d9m_task_remap) */
	size_t		 keeps_str, keeps_task;
};

/* keeps_str or keeps_task of a uint32_t member of a view's state */
#define D9T_KEEPS(type, member)	(offsetof(type, member) + 1)

extern const struct d9t_view_ops d9t_view_timeline, d9t_view_tasks,
    d9t_view_cpu, d9t_view_offcpu, d9t_view_alloc, d9t_view_spans,
    d9t_view_report, d9t_view_detail, d9t_view_chain, d9t_view_help,
    d9t_view_slow, d9t_view_poi, d9t_view_events, d9t_view_loc_tasks,
    d9t_view_task;

/* The table of every view, in enum d9t_view order (view.c): the
 * dispatcher hands it to the app (app->views); views and the core reach
 * each other only through it (d9t_ops, d9t_open). */
const struct d9t_view_ops *const *d9t_views(void);

#endif
