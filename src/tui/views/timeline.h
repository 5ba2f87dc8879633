/*
 * timeline.h: the timeline view's own state, shared by its two files:
 * view_timeline.c (the lanes, strips and keys) and timeline_find.c (`/`:
 * a task, a spawn location, a frame, else a value in span and event
 * fields, whose matches n/N step through).
 */
#ifndef D9T_VIEWS_TIMELINE_H
#define D9T_VIEWS_TIMELINE_H

#include <stddef.h>

#include "model/queries/appev.h"
#include "tui/app.h"
#include "tui/panel.h"

/* The view's state: the panel below the lanes and the last search's
 * matches in spans and events (rows of model of). */
struct tl_state {
	struct d9t_panel	 panel;
	const struct d9m_model	*of;
	struct d9m_match	*match;
	size_t			 nmatch, pos;
	int			 stepping;	/* n/N step the matches */
	int			 lh, ns, info_n;	/* rows of a lane, of
						 * the strips, of the info, as
						 * last drawn */
};

/* The view's search (view.h's .search): 0 shown, -1 no match. */
int	d9t_tl_search(struct d9t_app *app, void *st, const char *s);
/* n/N through the matches of the last search in span and event fields. */
void	d9t_tl_step_match(struct d9t_app *app, struct tl_state *ts, int dir);

#endif
