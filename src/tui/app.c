/*
 * app.c: lifetime, key dispatch and the time window. Every handler only
 * changes state and marks it dirty; d9t_app_render() (render.c) draws.
 * Window rule: every view shows [lo, hi]; changes go through
 * d9t_set_window(), which clamps to the trace and records undo.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "model/worst.h"
#include "tui/app.h"
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
	app->sel = app->f_task = app->f_loc = app->detail = D9_NONE;
	app->slow_name = D9_NONE;
	app->loading = 1;
	app->dirty = D9T_DIRTY_ALL;
	for (int v = 0; v < D9T_V_COUNT; v++)
		d9t_list_init(&app->lists[v]);
	return 0;
}

void
d9t_app_free(struct d9t_app *app)
{
	d9t_app_reap(app, 1);
	d9t_jobs_free(&app->jobs);
	for (int v = 0; v < D9T_V_COUNT; v++)
		d9t_list_free(&app->lists[v]);
	d9t_index_free(&app->ix);
	d9m_model_free(&app->m);
}

void
d9t_app_dirty(struct d9t_app *app)
{
	app->gen++;
	app->dirty |= D9T_DIRTY_ALL;
}

void
d9t_msg(struct d9t_app *app, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(app->msg, sizeof app->msg, fmt, ap);
	va_end(ap);
	app->dirty |= D9T_DIRTY_STATUS;
}

void
d9t_app_resize(struct d9t_app *app, int w, int h)
{
	app->w = w < 20 ? 20 : w;
	app->h = h < 6 ? 6 : h;
	d9t_app_dirty(app);
}

uint64_t
d9t_task_id(const struct d9t_app *app, uint32_t row)
{
	return row < app->m->tasks.n ? app->m->tasks.id[row] : 0;
}

void
d9t_fmt_loc(const struct d9t_app *app, uint32_t loc, char *out, size_t cap)
{
	const char *s = loc == D9_NONE ? "(unknown)" : d9m_str(app->m, loc);

	d9_text_safe(out, cap, s, strlen(s));
}

void
d9t_short_loc(const char *loc, size_t max, char *out, size_t cap)
{
	size_t n = strlen(loc);
	const char *p = loc;

	if (n > max && max > 8) {
		/* keep the tail from a path separator: file:line:col shows */
		for (p = loc + n - (max - 3); p > loc && p[-1] != '/' &&
		    p < loc + n; p++)
			;
		snprintf(out, cap, "...%s", p);
		return;
	}
	snprintf(out, cap, "%s", loc);
}

void
d9t_req_init(const struct d9t_app *app, struct d9t_req *q)
{
	memset(q, 0, sizeof *q);
	q->lo = app->lo;
	q->hi = app->hi;
	if (app->lo == app->m->min_ts && app->hi == app->m->max_ts) {
		q->lo = 0;	/* the whole trace: figures match --json */
		q->hi = UINT64_MAX;
	}
	q->task = app->f_task;
	q->loc = app->f_loc;
	q->worst = app->cfg->worst;
}

const struct d9m_analysis *
d9t_analysis(struct d9t_app *app, int tasks_only)
{
	struct d9t_req q;
	void *stale, *a;

	d9t_req_init(app, &q);
	q.task = q.loc = D9_NONE;
	a = d9t_jobs_get(app->jobs, tasks_only ? D9T_J_TASKS : D9T_J_ANALYSIS,
	    &q, &stale);
	if (a == NULL) {
		app->updating = 1;
		a = stale;
	}
	return a;
}

/* ---- time window ---- */

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
	f = (long double)(c - app->lo) / (long double)w;
	nw = in ? w / 2 : w * 2;
	if (nw < 1000)
		nw = 1000;
	lo = (uint64_t)((long double)c - f * (long double)nw + 0.5L) ;
	if ((long double)c < f * (long double)nw)
		lo = 0;
	d9t_set_window(app, lo, lo + nw, 1);
	app->cursor = c;
	d9t_select_at_cursor(app);
}

/* Put ts in the window (same width, centred) if it is outside. */
static void
show_time(struct d9t_app *app, uint64_t ts)
{
	uint64_t w = app->hi - app->lo;

	if (ts < app->lo || ts > app->hi)
		d9t_set_window(app, ts > w / 2 ? ts - w / 2 : 0,
		    (ts > w / 2 ? ts - w / 2 : 0) + w, 1);
	app->cursor = ts;
}

void
d9t_select_poll(struct d9t_app *app, uint32_t p)
{
	if (p == D9_NONE || p >= app->m->polls.n)
		return;
	show_time(app, app->m->polls.start[p]);
	app->sel = p;
	app->lane = app->m->polls.worker[p];
	d9t_app_dirty(app);
}

void
d9t_push_view(struct d9t_app *app, enum d9t_view v)
{
	if (app->nstack < D9T_STACK)
		app->stack[app->nstack++] = app->view;
	app->view = v;
	d9t_app_dirty(app);
}

static void
top_view(struct d9t_app *app, enum d9t_view v)
{
	app->nstack = 0;
	if (v != D9T_V_TIMELINE)
		app->stack[app->nstack++] = D9T_V_TIMELINE;
	app->view = v;
	d9t_app_dirty(app);
}

static void
poll_msg(struct d9t_app *app, const char *what, uint32_t p)
{
	char d[32], loc[160], sl[160];
	size_t room = (size_t)app->w > strlen(what) + 60 ?
	    (size_t)app->w - strlen(what) - 60 : 10;

	d9t_fmt_dur(d, sizeof d, app->m->polls.end[p] - app->m->polls.start[p],
	    app->utf8);
	d9t_fmt_loc(app, app->m->polls.loc[p], sl, sizeof sl);
	d9t_short_loc(sl, room, loc, sizeof loc);
	d9t_msg(app, "%s: %s poll of task %" PRIu64 " (%s) on worker %" PRIu32,
	    what, d, d9t_task_id(app, app->m->polls.task[p]), loc,
	    app->m->workers[app->m->polls.worker[p]].id);
}

static void
worst(struct d9t_app *app)
{
	struct d9m_window w = { app->lo, app->hi };
	uint32_t p;

	if (app->worst_lo != app->lo || app->worst_hi != app->hi) {
		app->worst_pos = 0;
		app->worst_lo = app->lo;
		app->worst_hi = app->hi;
	}
	p = d9m_worst_next(app->m, app->ix->by_dur, &w, &app->worst_pos);
	if (p != D9_NONE) {
		d9t_select_poll(app, p);
		poll_msg(app, "worst in window", p);
		return;
	}
	app->worst_pos = 0;
	d9t_msg(app, "no more polls in the window (w starts again)");
}

static void
step_long(struct d9t_app *app, int dir)
{
	const struct d9m_model *m = app->m;
	const struct d9t_index *ix = app->ix;
	uint64_t ref = app->sel != D9_NONE ? m->polls.start[app->sel] :
	    app->cursor;
	size_t lo = 0, hi = ix->nlong;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (m->polls.start[ix->longp[mid]] < ref ||
		    (m->polls.start[ix->longp[mid]] == ref && dir > 0 &&
		    ix->longp[mid] == app->sel))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo: first long poll at or after ref (after the selection) */
	if (dir > 0 && lo < ix->nlong && ix->longp[lo] == app->sel)
		lo++;
	if (dir < 0 ? lo == 0 : lo >= ix->nlong) {
		d9t_msg(app, "no %s long poll (> 1 ms)", dir > 0 ? "later" :
		    "earlier");
		return;
	}
	lo = dir < 0 ? lo - 1 : lo;
	d9t_select_poll(app, ix->longp[lo]);
	{
		char what[64];

		snprintf(what, sizeof what, "long poll %zu of %zu", lo + 1,
		    ix->nlong);
		poll_msg(app, what, ix->longp[lo]);
	}
}

/* ---- search ---- */

static int
search_timeline(struct d9t_app *app, const char *s)
{
	const struct d9m_model *m = app->m;
	char *end;
	unsigned long long id = strtoull(s, &end, 10);
	uint32_t best = D9_NONE, t;

	if (*s && *end == '\0' && (t = d9m_task_find(m, id)) != D9_NONE) {
		/* its poll at the cursor, else its first */
		best = d9m_task_poll_at(m, t, app->cursor);
		if (best == D9_NONE && m->task_polls_off[t] <
		    m->task_polls_off[t + 1])
			best = m->task_polls[m->task_polls_off[t]];
		if (best == D9_NONE) {
			d9t_msg(app, "task %llu was never polled", id);
			return 0;
		}
		d9t_select_poll(app, best);
		poll_msg(app, "task", best);
		return 0;
	}
	/* a spawn location: the next poll after the cursor, else the first */
	{
		uint8_t *hit = calloc(m->strs.n + 1, 1);
		uint32_t first = D9_NONE;

		if (hit == NULL)
			return -1;
		for (size_t i = 0; i < m->strs.n; i++)
			hit[i] = (uint8_t)d9_text_contains(d9m_str(m, (uint32_t)i), s);
		for (size_t i = 0; i < m->polls.n; i++) {
			uint32_t l = m->polls.loc[i];

			if (l == D9_NONE || !hit[l])
				continue;
			if (m->polls.start[i] > app->cursor && (best == D9_NONE ||
			    m->polls.start[i] < m->polls.start[best]))
				best = (uint32_t)i;
			if (first == D9_NONE ||
			    m->polls.start[i] < m->polls.start[first])
				first = (uint32_t)i;
		}
		free(hit);
		if (best == D9_NONE)
			best = first;
	}
	if (best == D9_NONE)
		return -1;
	d9t_select_poll(app, best);
	poll_msg(app, "match", best);
	return 0;
}

static void
search(struct d9t_app *app)
{
	const char *s = app->search;
	int rc;

	if (*s == '\0')
		return;
	switch (app->view) {
	case D9T_V_TIMELINE:
		rc = search_timeline(app, s);
		break;
	case D9T_V_CPU:
	case D9T_V_OFFCPU:
	case D9T_V_ALLOC:
		rc = d9t_flame_search(app, s);
		break;
	case D9T_V_SPANS:
		rc = d9t_list_find(&app->lists[app->view], s);
		if (rc < 0) {
			/* not a span name: filter by field value */
			snprintf(app->field, sizeof app->field, "%s", s);
			d9t_msg(app, "spans with a field containing '%s'", s);
			d9t_app_dirty(app);
			return;
		}
		break;
	default:
		rc = d9t_list_find(&app->lists[app->view], s);
		break;
	}
	if (rc < 0)
		d9t_msg(app, "no match for '%s' in this view", s);
	app->dirty |= D9T_DIRTY_ALL;
}

static void
prompt_commit(struct d9t_app *app)
{
	uint64_t t;

	app->pbuf[app->plen] = '\0';
	switch (app->prompt) {
	case 'g':
		if (d9t_parse_time(app->m, app->pbuf, app->cursor, &t) < 0) {
			d9t_msg(app, "cannot read '%s' as a time (1.5s, 250ms, "
			    "+5ms, 12:00:03.5)", app->pbuf);
			break;
		}
		show_time(app, t);
		d9t_select_at_cursor(app);
		d9t_app_dirty(app);
		break;
	case '/':
		snprintf(app->search, sizeof app->search, "%s", app->pbuf);
		search(app);
		break;
	case 'f':
		snprintf(app->field, sizeof app->field, "%s", app->pbuf);
		d9t_app_dirty(app);
		break;
	}
	app->prompt = 0;
}

static void
prompt_key(struct d9t_app *app, int key)
{
	if (key == D9T_KEY_ENTER || key == '\r') {
		prompt_commit(app);
	} else if (key == D9T_KEY_ESC) {
		app->prompt = 0;
	} else if (key == D9T_KEY_BACKSPACE || key == 8) {
		if (app->plen > 0)
			app->plen--;
	} else if (key >= 0x20 && key < 0x7f && app->plen + 1 <
	    sizeof app->pbuf) {
		app->pbuf[app->plen++] = (char)key;
	}
	app->dirty |= D9T_DIRTY_ALL;
}

static void
start_prompt(struct d9t_app *app, int kind)
{
	app->prompt = kind;
	app->plen = 0;
	app->dirty |= D9T_DIRTY_STATUS;
}

/* ---- dispatch ---- */

static void
back(struct d9t_app *app)
{
	int f = app->view - D9T_V_CPU;

	if (f >= 0 && f < 3 && app->flame_root[f] != 0) {
		app->flame_root[f] = 0;
		d9t_app_dirty(app);
		return;
	}
	if (app->nstack == 0) {
		app->quit = 1;
		return;
	}
	app->view = app->stack[--app->nstack];
	d9t_app_dirty(app);
}

static void
enter_line(struct d9t_app *app)
{
	struct d9t_list *l = &app->lists[app->view];
	const struct d9t_line *ln = l->sel < l->n ? &l->v[l->sel] : NULL;
	char loc[160];

	if (ln == NULL || ln->target == D9T_T_NONE)
		return;
	switch (ln->target) {
	case D9T_T_POLL:
		top_view(app, D9T_V_TIMELINE);
		d9t_select_poll(app, ln->a);
		poll_msg(app, "selected", ln->a);
		break;
	case D9T_T_LOC:
		app->f_loc = ln->a;
		d9t_fmt_loc(app, ln->a, loc, sizeof loc);
		top_view(app, D9T_V_TIMELINE);
		d9t_msg(app, "only polls spawned at %s (x clears)", loc);
		break;
	case D9T_T_NODE:
		d9t_flame_action(app, D9T_A_ENTER);
		break;
	case D9T_T_SPAN_NAME:
		app->slow_name = ln->a;
		d9t_push_view(app, D9T_V_SLOW);
		break;
	case D9T_T_TIME:
		top_view(app, D9T_V_TIMELINE);
		if (ln->a != D9_NONE)
			app->lane = ln->a;
		show_time(app, ln->b);
		d9t_select_at_cursor(app);
		break;
	}
	d9t_app_dirty(app);
}

static void
enter(struct d9t_app *app)
{
	if (app->view != D9T_V_TIMELINE) {
		enter_line(app);
		return;
	}
	if (app->sel == D9_NONE) {
		d9t_msg(app, "no poll selected (w, n, or click one)");
		return;
	}
	app->detail = app->sel;
	d9t_push_view(app, D9T_V_DETAIL);
}

static void
chain(struct d9t_app *app)
{
	uint32_t p = app->view == D9T_V_DETAIL ? app->detail : app->sel;

	if (p == D9_NONE || app->m->polls.task[p] == D9_NONE) {
		d9t_msg(app, "select a poll of a task first");
		return;
	}
	d9t_chain_compute(app, app->m, p);
	d9t_push_view(app, D9T_V_CHAIN);
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

static void
window_action(struct d9t_app *app, enum d9t_action a)
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
	case D9T_A_LANE_UP:
		if (app->lane > 0)
			app->lane--;
		d9t_select_at_cursor(app);
		break;
	case D9T_A_LANE_DOWN:
		if (app->lane + 1 < app->m->nworkers)
			app->lane++;
		d9t_select_at_cursor(app);
		break;
	default:
		break;
	}
	if (app->cursor < app->lo || app->cursor > app->hi)
		app->cursor = app->lo;
	d9t_app_dirty(app);
}

void
d9t_app_key(struct d9t_app *app, int key)
{
	enum d9t_action a;
	struct d9t_list *l = &app->lists[app->view];
	int page = app->h - 4 > 1 ? app->h - 4 : 1;

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
	if (app->m != NULL && app->view != D9T_V_TIMELINE)
		d9t_build_list(app, l);	/* keys act on what is shown */
	if (app->m == NULL && a != D9T_A_BACK && a != D9T_A_HELP &&
	    a != D9T_A_REDRAW && !(app->view == D9T_V_HELP && a != D9T_A_NONE)) {
		d9t_msg(app, "still loading: q quits, ? shows the keys");
		return;
	}
	switch (a) {
	case D9T_A_NONE:
		break;
	case D9T_A_BACK: back(app); break;
	case D9T_A_HELP:
		if (app->view != D9T_V_HELP) {
			app->help_of = app->view;
			app->lists[D9T_V_HELP].sel = 0;
			d9t_push_view(app, D9T_V_HELP);
		}
		break;
	case D9T_A_REDRAW: app->dirty = D9T_DIRTY_ALL | 0x100; break;
	case D9T_A_VIEW1: case D9T_A_VIEW2: case D9T_A_VIEW3:
	case D9T_A_VIEW4: case D9T_A_VIEW5: case D9T_A_VIEW6:
	case D9T_A_VIEW7:
		if (app->m != NULL)
			top_view(app, (enum d9t_view)(a - D9T_A_VIEW1));
		break;
	case D9T_A_WORST: worst(app); break;
	case D9T_A_NEXT_LONG: step_long(app, 1); break;
	case D9T_A_PREV_LONG: step_long(app, -1); break;
	case D9T_A_ENTER: enter(app); break;
	case D9T_A_CHAIN: chain(app); break;
	case D9T_A_SEARCH: start_prompt(app, '/'); break;
	case D9T_A_GOTO: start_prompt(app, 'g'); break;
	case D9T_A_FIELD_FILTER: start_prompt(app, 'f'); break;
	case D9T_A_SEARCH_NEXT:
		if (app->search[0] && d9t_list_find(l, app->search) < 0)
			d9t_msg(app, "no match for '%s'", app->search);
		break;
	case D9T_A_UP: d9t_list_move(l, -1, page); break;
	case D9T_A_DOWN: d9t_list_move(l, 1, page); break;
	case D9T_A_PGUP: d9t_list_move(l, -page, page); break;
	case D9T_A_PGDN: d9t_list_move(l, page, page); break;
	case D9T_A_HOME: d9t_list_move(l, -(long)l->n, page); break;
	case D9T_A_END: d9t_list_move(l, (long)l->n, page); break;
	case D9T_A_FILTER_TASK: filter_task(app); break;
	case D9T_A_FILTER_CLEAR:
		app->f_task = app->f_loc = D9_NONE;
		d9t_msg(app, "filters cleared");
		d9t_app_dirty(app);
		break;
	case D9T_A_FOLD: case D9T_A_BYTES: case D9T_A_LIVESET:
	case D9T_A_INPOLL:
		d9t_flame_action(app, a);
		break;
	default:
		window_action(app, a);
		break;
	}
	app->dirty |= D9T_DIRTY_BODY;
}
