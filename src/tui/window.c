/*
 * window.c: the time window every view shows, the actions that move it
 * (pan, zoom, set its ends, undo, the whole trace, go to a time), and the
 * selection in it (a poll, the poll at the cursor, a point of interest);
 * above the core, below the views.
 * Window rule: every view shows [lo, hi]; changes go through
 * d9t_set_window(), which clamps to the trace and records undo.
 */
#include <string.h>

#include "model/core/ids.h"
#include "model/queries/lanes.h"
#include "model/figures/poi.h"
#include "tui/app.h"
#include "tui/timeaxis.h"

void
d9t_set_window(struct d9t_app *app, uint64_t lo, uint64_t hi, int undo)
{
	const struct d9m_model *m = app->m;
	uint64_t total = m->max_ts > m->min_ts ? m->max_ts - m->min_ts : 1;
	uint64_t w = hi > lo ? hi - lo : 1;

	if (w < 1000)
		w = 1000;
	if (w >= total) {
		lo = m->min_ts;
		w = total;
	} else {
		if (lo < m->min_ts)
			lo = m->min_ts;
		if (lo > m->max_ts - w)
			lo = m->max_ts - w;
	}
	if (lo == app->lo && lo + w == app->hi)
		return;
	if (undo) {
		if (app->nundo == D9T_UNDO) {
			memmove(app->undo_lo, app->undo_lo + 1,
			    (D9T_UNDO - 1) * sizeof *app->undo_lo);
			memmove(app->undo_hi, app->undo_hi + 1,
			    (D9T_UNDO - 1) * sizeof *app->undo_hi);
			app->nundo--;
		}
		app->undo_lo[app->nundo] = app->lo;
		app->undo_hi[app->nundo++] = app->hi;
	}
	app->lo = lo;
	app->hi = lo + w;
	/* what the last window read of a mapped index leaves the process
	 * (the page cache keeps it): the process holds what this one
	 * reads */
	d9m_model_release(m, 0);
	d9t_app_dirty(app);
}

static uint64_t
col_ns(const struct d9t_app *app)
{
	int cols = app->w - d9t_timeline_x0(app);
	uint64_t c = (app->hi - app->lo) / (uint64_t)(cols > 0 ? cols : 1);

	return c ? c : 1;
}

/* Keep the cursor on the same column while the window moves. */
static void
move_window(struct d9t_app *app, uint64_t lo, uint64_t hi)
{
	long double f = (long double)(app->cursor - app->lo) /
	    (long double)(app->hi - app->lo);

	d9t_set_window(app, lo, hi, 1);
	app->cursor = app->lo + (uint64_t)(f * (long double)(app->hi - app->lo));
	d9t_select_at_cursor(app);
}

static void
pan(struct d9t_app *app, int dir, int full)
{
	uint64_t w = app->hi - app->lo, d = full ? w : w / 8 ? w / 8 : 1;

	if (dir < 0)
		move_window(app, app->lo > d ? app->lo - d : 0,
		    (app->lo > d ? app->lo - d : 0) + w);
	else
		move_window(app, app->lo + d, app->hi + d);
}

static void
zoom(struct d9t_app *app, int in)
{
	uint64_t w = app->hi - app->lo, c = app->cursor;
	long double f;
	uint64_t nw, lo;

	if (c < app->lo || c > app->hi)
		c = app->lo + w / 2;
	f = w > 0 ? (long double)(c - app->lo) / (long double)w : 0.5L;
	nw = in ? w / 2 : w < UINT64_MAX / 2 ? w * 2 : UINT64_MAX;
	if (nw < 1000)
		nw = 1000;
	/* the cursor keeps its place on the screen; a window that would
	 * begin before 0 begins at 0 (tested first: a negative value does
	 * not convert to uint64_t) */
	if ((long double)c < f * (long double)nw)
		lo = 0;
	else
		lo = (uint64_t)((long double)c - f * (long double)nw + 0.5L);
	d9t_set_window(app, lo, lo < UINT64_MAX - nw ? lo + nw : UINT64_MAX,
	    1);
	app->cursor = c;
	d9t_select_at_cursor(app);
}

/* Put ts in the window (same width, centred) if it is outside. */
void
d9t_show_time(struct d9t_app *app, uint64_t ts)
{
	uint64_t w = app->hi - app->lo;

	if (ts < app->lo || ts > app->hi)
		d9t_set_window(app, ts > w / 2 ? ts - w / 2 : 0,
		    (ts > w / 2 ? ts - w / 2 : 0) + w, 1);
	app->cursor = ts;
}

enum d9t_handled
d9t_window_action(struct d9t_app *app, enum d9t_action a)
{
	uint64_t c = col_ns(app);

	switch (a) {
	case D9T_A_PAN_LEFT: pan(app, -1, 0); break;
	case D9T_A_PAN_RIGHT: pan(app, 1, 0); break;
	case D9T_A_PAGE_LEFT: pan(app, -1, 1); break;
	case D9T_A_PAGE_RIGHT: pan(app, 1, 1); break;
	case D9T_A_ZOOM_IN: zoom(app, 1); break;
	case D9T_A_ZOOM_OUT: zoom(app, 0); break;
	case D9T_A_ZOOM_ALL:
		d9t_set_window(app, app->m->min_ts, app->m->max_ts, 1);
		break;
	case D9T_A_ZOOM_UNDO:
		if (app->nundo == 0) {
			d9t_msg(app, "nothing to undo");
			break;
		}
		app->nundo--;
		d9t_set_window(app, app->undo_lo[app->nundo],
		    app->undo_hi[app->nundo], 0);
		break;
	case D9T_A_SET_START:
		if (app->cursor < app->hi)
			d9t_set_window(app, app->cursor, app->hi, 1);
		break;
	case D9T_A_SET_END:
		if (app->cursor > app->lo)
			d9t_set_window(app, app->lo, app->cursor, 1);
		break;
	case D9T_A_CURSOR_LEFT:
		app->cursor = app->cursor > app->lo + c ? app->cursor - c :
		    app->lo;
		d9t_select_at_cursor(app);
		break;
	case D9T_A_CURSOR_RIGHT:
		app->cursor = app->cursor + c < app->hi ? app->cursor + c :
		    app->hi - 1;
		d9t_select_at_cursor(app);
		break;
	case D9T_A_GOTO:
		d9t_prompt(app, 'g', "go to (1.5s, 250ms, +5ms, 12:00:03.5): ");
		return D9T_HANDLED;
	default:
		return D9T_UNHANDLED;
	}
	if (app->cursor < app->lo || app->cursor > app->hi)
		app->cursor = app->lo;
	d9t_app_dirty(app);
	return D9T_HANDLED;
}

void
d9t_select_poll(struct d9t_app *app, uint32_t p)
{
	if (p == D9_NONE || p >= app->m->polls.n)
		return;
	d9t_show_time(app, app->m->polls.start[p]);
	app->sel = p;
	app->lane = d9m_poll_worker(app->m, p);
	d9t_app_dirty(app);
}

struct d9t_axis
d9t_timeline_axis(const struct d9t_app *app, int w)
{
	struct d9t_axis ax = { app->lo, app->hi, D9T_TL_LABEL,
	    w - D9T_TL_LABEL };

	if (ax.w < 1)
		ax.w = 1;
	return ax;
}

void
d9t_select_at_cursor(struct d9t_app *app)
{
	struct d9t_axis ax = d9t_timeline_axis(app, app->w);
	int x = d9t_axis_x(&ax, app->cursor);
	uint64_t a = d9t_axis_t(&ax, x), b = d9t_axis_t(&ax, x + 1);

	if (app->m == NULL || app->lane >= app->m->nworkers)
		return;
	app->sel = d9m_longest(app->m, app->ix, app->lane, a, b > a ? b : a + 1);
	app->gen++;
}

int
d9t_timeline_x0(const struct d9t_app *app)
{
	(void)app;
	return D9T_TL_LABEL;
}

void
d9t_poi_jump(struct d9t_app *app, const struct d9m_poi *x)
{
	uint64_t w = app->hi - app->lo;
	uint32_t slot = x->worker == D9_NONE ? D9_NONE :
	    d9m_worker_slot(app->m, x->worker);

	app->poi_kind = (int)x->kind;
	app->poi_ts = x->start;
	d9t_top_view(app, D9T_V_TIMELINE);
	/* the whole interval in view, at least a tenth of the window wide
	 * (a 24 ms poll in a 5 s window was a mark under one cell) */
	if (x->dur > 0 && (x->dur > w || 10 * x->dur < w))
		w = 10 * x->dur;
	if (x->start < app->lo || x->start + x->dur > app->hi || w !=
	    app->hi - app->lo)
		d9t_set_window(app, x->start > w / 3 ? x->start - w / 3 : 0,
		    (x->start > w / 3 ? x->start - w / 3 : 0) + w, 1);
	if (x->poll != D9_NONE) {
		d9t_select_poll(app, x->poll);
	} else {
		if (slot != D9_NONE)
			app->lane = slot;
		d9t_show_time(app, x->start);
		d9t_select_at_cursor(app);
	}
	d9t_msg(app, "%s: %.*s (n/N: next/previous %s)",
	    d9m_poi_name(x->kind), 120, x->text, d9m_poi_name(x->kind));
	d9t_app_dirty(app);
}
