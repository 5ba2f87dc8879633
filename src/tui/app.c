/*
 * app.c: lifetime, the view stack and key dispatch. A key becomes an
 * action (keys.h); the current view's handler (view.h) gets it first,
 * then what every view shares: back, help, the view keys, search, the
 * time window (window.c), moving in a list and the targets of list
 * lines. Every handler only changes state and marks it dirty;
 * d9t_app_render() (render.c) draws.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/ids.h"
#include "base/text.h"
#include "tui/app.h"
#include "tui/baseline.h"
#include "tui/timeaxis.h"

int
d9t_app_init(struct d9t_app *app, const struct d9t_config *cfg,
    const char *const *paths, size_t npaths, int utf8, int color)
{
	memset(app, 0, sizeof *app);
	app->cfg = cfg;
	app->paths = paths;
	app->npaths = npaths;
	app->utf8 = utf8 && !cfg->ascii;
	app->color = color && !cfg->no_color;
	app->w = 80;
	app->h = 24;
	app->sel = app->f_task = app->f_loc = app->metric = D9_NONE;
	app->poi_kind = -1;
	app->loading = 1;
	app->dirty = D9T_DIRTY_ALL;
	app->views = d9t_views();
	for (int v = 0; v < D9T_V_COUNT; v++) {
		const struct d9t_view_ops *ops = d9t_ops(app, (enum d9t_view)v);

		d9t_list_init(&app->lists[v]);
		if (ops->init != NULL &&
		    (app->vstate[v] = ops->init()) == NULL) {
			d9t_app_free(app);
			return -1;
		}
	}
	return 0;
}

void
d9t_app_free(struct d9t_app *app)
{
	d9t_app_reap(app, 1);
	d9t_jobs_free(&app->jobs);
	for (int v = 0; v < D9T_V_COUNT; v++) {
		const struct d9t_view_ops *ops = d9t_ops(app, (enum d9t_view)v);

		d9t_list_free(&app->lists[v]);
		if (ops->free != NULL && app->vstate[v] != NULL)
			ops->free(app->vstate[v]);
		app->vstate[v] = NULL;
	}
	d9m_lanes_free(&app->ix);
	d9m_model_free(&app->m);
}

/* ---- prompts ---- */

static void
search(struct d9t_app *app)
{
	const struct d9t_view_ops *ops = d9t_ops(app, app->view);
	const char *s = app->search;
	int rc;

	if (*s == '\0')
		return;
	rc = ops->search != NULL ? ops->search(app, app->vstate[app->view],
	    s) : d9t_list_find(&app->lists[app->view], s);
	if (rc < 0)
		d9t_msg(app, "no match for '%s' in this view", s);
	app->dirty |= D9T_DIRTY_ALL;
}

static void
prompt_commit(struct d9t_app *app)
{
	const struct d9t_view_ops *ops = d9t_ops(app, app->view);
	uint64_t t;

	app->pbuf[app->plen] = '\0';
	switch (app->prompt) {
	case 'g':
		if (d9t_parse_time(app->m, app->pbuf, app->cursor, &t) < 0) {
			d9t_msg(app, "cannot read '%s' as a time (1.5s, 250ms, "
			    "+5ms, 12:00:03.5)", app->pbuf);
			break;
		}
		if (t < app->m->min_ts || t > app->m->max_ts) {
			char a[32], b[32];

			d9t_fmt_rel(a, sizeof a, 0, 3);
			d9t_fmt_rel(b, sizeof b, app->m->max_ts -
			    app->m->min_ts, 3);
			d9t_msg(app, "'%s' is outside the trace (%s..%s): the "
			    "cursor is at its %s", app->pbuf, a, b,
			    t < app->m->min_ts ? "start" : "end");
			t = t < app->m->min_ts ? app->m->min_ts :
			    app->m->max_ts;
		}
		d9t_show_time(app, t);
		d9t_select_at_cursor(app);
		d9t_app_dirty(app);
		break;
	case '/':
		snprintf(app->search, sizeof app->search, "%s", app->pbuf);
		search(app);
		break;
	default:
		if (ops->prompt != NULL)
			ops->prompt(app, app->vstate[app->view], app->pbuf);
		break;
	}
	app->prompt = 0;
}

/* A character typed: ASCII, or on a UTF-8 terminal any code point
 * shown as is (a span field's value, a symbol's), as UTF-8 when it fits
 * whole. */
static void
prompt_add(struct d9t_app *app, int key)
{
	char u[4];
	size_t n;

	if (key < 0x20 || key == 0x7f || key >= 0x110000 ||
	    (key >= 0xd800 && key < 0xe000) ||
	    (key >= 0x80 && (key < 0xa0 || !app->utf8 ||
	    d9_text_hidden((uint32_t)key))))
		return;
	n = d9_text_utf8_put(u, (uint32_t)key);
	if (n == 0 || app->plen + n >= sizeof app->pbuf)
		return;
	memcpy(app->pbuf + app->plen, u, n);
	app->plen += n;
}

static void
prompt_key(struct d9t_app *app, int key)
{
	if (key == D9T_KEY_ENTER || key == '\r') {
		prompt_commit(app);
	} else if (key == D9T_KEY_ESC) {
		app->prompt = 0;
	} else if (key == D9T_KEY_BACKSPACE || key == 8) {
		/* a whole character: its continuation bytes and its lead */
		while (app->plen > 0 &&
		    ((unsigned char)app->pbuf[--app->plen] & 0xc0) == 0x80)
			;
	} else if (key == D9T_CTRL('u')) {
		app->plen = 0;
	} else
		prompt_add(app, key);
	app->dirty |= D9T_DIRTY_ALL;
}

/* ---- what every view shares ---- */

static void
back(struct d9t_app *app)
{
	if (app->nstack == 0) {
		app->quit = 1;
		return;
	}
	app->view = app->stack[--app->nstack];
	d9t_app_dirty(app);
}

/* Enter on a list line whose view left it to the app: the targets that
 * move the shared state (the selected poll, a location filter, a time). */
static void
open_line(struct d9t_app *app)
{
	struct d9t_list *l = &app->lists[app->view];
	const struct d9t_line *ln = l->sel < l->n ? &l->v[l->sel] : NULL;
	char loc[160];

	if (ln == NULL)
		return;
	switch (ln->target) {
	case D9T_T_POLL:
		d9t_top_view(app, D9T_V_TIMELINE);
		d9t_select_poll(app, ln->a);
		d9t_poll_msg(app, "selected", ln->a);
		break;
	case D9T_T_TASK:
		d9t_open(app, D9T_V_TASK, ln->a);
		return;
	case D9T_T_LOC:
		app->f_loc = ln->a;
		d9t_fmt_loc(app, ln->a, loc, sizeof loc);
		d9t_top_view(app, D9T_V_TIMELINE);
		d9t_msg(app, "only polls spawned at %s (x clears)", loc);
		break;
	case D9T_T_TIME:
		d9t_top_view(app, D9T_V_TIMELINE);
		if (ln->a != D9_NONE)
			app->lane = ln->a;
		d9t_show_time(app, ln->b);
		d9t_select_at_cursor(app);
		break;
	default:
		return;
	}
	d9t_app_dirty(app);
}

/* o: the next column of the table (after the last: the view's order);
 * O: the other way round. The list helper sorts (d9t_list_sort). */
static void
sort(struct d9t_app *app, struct d9t_list *l, enum d9t_action a)
{
	const char *const *names = d9t_ops(app, app->view)->sort_keys;
	int n = 0;

	while (names != NULL && names[n] != NULL)
		n++;
	if (a == D9T_A_SORT)
		l->sort = n > 0 ? (l->sort + 1) % (n + 1) : 0;
	else
		l->reverse = !l->reverse;
	if (l->sort > 0)
		d9t_msg(app, "sorted by %s, %s first (o: next column, O: "
		    "reverse)", names[l->sort - 1], l->reverse ? "smallest" :
		    "largest");
	else
		d9t_msg(app, "in the view's order%s (o: by a column)",
		    l->reverse ? ", reversed" : "");
	l->sel = 0;
	d9t_app_dirty(app);
}

/* Move the selection of the current list view (UP, DOWN, PGUP, ...);
 * D9T_UNHANDLED for other actions. */
static enum d9t_handled
list_action(struct d9t_app *app, enum d9t_action a)
{
	struct d9t_list *l = &app->lists[app->view];
	int page = app->h - 4 > 1 ? app->h - 4 : 1;

	switch (a) {
	case D9T_A_UP: d9t_list_move(l, -1, page); break;
	case D9T_A_DOWN: d9t_list_move(l, 1, page); break;
	case D9T_A_PGUP: d9t_list_move(l, -page, page); break;
	case D9T_A_PGDN: d9t_list_move(l, page, page); break;
	case D9T_A_HOME:	/* as the list opens: on its first row */
		if (d9t_ops(app, app->view)->open_first)
			d9t_list_first(l);
		else
			d9t_list_move(l, -(long)l->n, page);
		break;
	case D9T_A_END: d9t_list_move(l, (long)l->n, page); break;
	case D9T_A_SEARCH_NEXT:
		if (app->search[0] && d9t_list_find(l, app->search) < 0)
			d9t_msg(app, "no match for '%s'", app->search);
		break;
	case D9T_A_OPEN_LINE: open_line(app); break;
	case D9T_A_SORT: case D9T_A_SORT_REVERSE: sort(app, l, a); break;
	case D9T_A_SCROLL_LEFT:
		l->hscroll = l->hscroll > 8 ? l->hscroll - 8 : 0;
		break;
	case D9T_A_SCROLL_RIGHT: l->hscroll += 8; break;
	default: return D9T_UNHANDLED;
	}
	return D9T_HANDLED;
}

static void
filter_task(struct d9t_app *app)
{
	if (app->f_task != D9_NONE) {
		app->f_task = D9_NONE;
		d9t_msg(app, "task filter off");
	} else if (app->sel != D9_NONE &&
	    app->m->polls.task[app->sel] != D9_NONE) {
		app->f_task = app->m->polls.task[app->sel];
		d9t_msg(app, "flame trees: only task %" PRIu64,
		    d9t_task_id(app, app->f_task));
	} else
		d9t_msg(app, "select a poll first: its task becomes the filter");
	d9t_app_dirty(app);
}

/* 1..8: the view whose tab has that number (view.h, its .tab). */
static void
tab(struct d9t_app *app, int key)
{
	for (int v = 0; v < D9T_V_COUNT && app->m != NULL; v++)
		if (d9t_ops(app, (enum d9t_view)v)->tab == key - '0') {
			d9t_top_view(app, (enum d9t_view)v);
			return;
		}
}

static enum d9t_handled
shared_action(struct d9t_app *app, enum d9t_action a, int key)
{
	switch (a) {
	case D9T_A_BACK: back(app); break;
	case D9T_A_ESCAPE:	/* once too often must not lose the place */
		if (app->nstack == 0)
			d9t_msg(app, "q quits; Esc only goes back");
		else
			back(app);
		break;
	case D9T_A_HELP:
		if (app->view != D9T_V_HELP)
			d9t_open(app, D9T_V_HELP, (uint32_t)app->view);
		break;
	case D9T_A_REDRAW: app->dirty = D9T_DIRTY_ALL | D9T_DIRTY_CLEAR; break;
	case D9T_A_TAB: tab(app, key); break;
	case D9T_A_SEARCH: d9t_prompt(app, '/', "search: "); break;
	case D9T_A_POI: d9t_open(app, D9T_V_POI, D9_NONE); break;
	case D9T_A_SAVE: d9t_save(app); break;
	case D9T_A_FILTER_TASK: filter_task(app); break;
	case D9T_A_BASELINE: d9t_baseline_toggle(app); break;
	case D9T_A_BY_CHANGE: d9t_baseline_sort(app); break;
	case D9T_A_FILTER_CLEAR:
		app->f_task = app->f_loc = D9_NONE;
		d9t_msg(app, "filters cleared");
		d9t_app_dirty(app);
		break;
	default:
		if (d9t_window_action(app, a) == D9T_HANDLED)
			break;
		return list_action(app, a);
	}
	return D9T_HANDLED;
}

/* While the first part of the trace loads, only these act. */
static int
before_model(const struct d9t_app *app, enum d9t_action a)
{
	return a == D9T_A_BACK || a == D9T_A_ESCAPE || a == D9T_A_HELP ||
	    a == D9T_A_REDRAW ||
	    (app->view == D9T_V_HELP && a != D9T_A_NONE);
}

void
d9t_app_key(struct d9t_app *app, int key)
{
	const struct d9t_view_ops *ops = d9t_ops(app, app->view);
	void *st = app->vstate[app->view];
	enum d9t_action a;

	if (key == D9T_KEY_RESIZE) {
		app->dirty |= D9T_DIRTY_ALL;
		return;
	}
	if (app->prompt) {
		prompt_key(app, key);
		return;
	}
	app->msg[0] = '\0';
	app->dirty |= D9T_DIRTY_STATUS;
	a = d9t_key_action(app->view, key);
	if (a == D9T_A_NONE)
		return;
	if (app->m == NULL && !before_model(app, a)) {
		d9t_msg(app, "still loading: q quits, ? shows the keys");
		return;
	}
	if (app->m != NULL && ops->build != NULL)
		d9t_build_list(app, &app->lists[app->view]);	/* keys act on
								 * what is shown */
	if (ops->key == NULL || ops->key(app, st, a) == D9T_UNHANDLED)
		shared_action(app, a, key);
	app->dirty |= D9T_DIRTY_BODY;
}

void
d9t_app_mouse(struct d9t_app *app, int x, int y, int button)
{
	if (app->m == NULL || app->prompt)
		return;
	if (d9t_ops(app, app->view)->click != NULL) {
		if (button == 4 || button == 5) {
			struct d9t_axis ax = d9t_timeline_axis(app, app->w);

			if (x >= ax.x0)
				app->cursor = d9t_axis_t(&ax, x);
			d9t_app_key(app, button == 4 ? '+' : '-');
			return;
		}
		d9t_ops(app, app->view)->click(app, app->vstate[app->view], x, y,
		    D9T_BODY_Y);
		app->dirty |= D9T_DIRTY_ALL;
		return;
	}
	if (button == 4 || button == 5) {
		d9t_list_move(&app->lists[app->view], button == 4 ? -3 : 3,
		    app->h);
	} else if (y >= D9T_BODY_Y && y < app->h - 1) {
		struct d9t_list *l = &app->lists[app->view];
		size_t i = l->top + (size_t)(y - D9T_BODY_Y);

		if (i < l->n)
			l->sel = i;
	}
	app->dirty |= D9T_DIRTY_ALL;
}
