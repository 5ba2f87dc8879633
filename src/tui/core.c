/*
 * core.c: the browser's core, below every view: the app state's dirty
 * bits and generation, the message line and the prompt, the view stack
 * and the one way into a view (d9t_open: the view's .open handler,
 * reached through the view table the dispatcher gave the app, so no view
 * and no core file calls a view's functions by name), the request of the
 * current window and filters, and the small formatters every view uses.
 * Above it: window.c (the time window and the selection), the views,
 * then the dispatcher (app.c: keys and mouse, render.c: drawing).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "model/core/ids.h"
#include "output/textfmt.h"
#include "tui/app.h"
#include "tui/tables.h"
#include "tui/timeaxis.h"

const struct d9t_view_ops *
d9t_ops(const struct d9t_app *app, enum d9t_view v)
{
	return app->views[(unsigned)v < D9T_V_COUNT ? v : D9T_V_TIMELINE];
}

void
d9t_open(struct d9t_app *app, enum d9t_view v, uint32_t arg)
{
	const struct d9t_view_ops *ops = d9t_ops(app, v);

	if (ops->open != NULL)
		ops->open(app, app->vstate[v], arg);
	else
		d9t_push_view(app, v);
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
	d9_text_vformat(app->msg, sizeof app->msg, fmt, ap);
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
	d9o_short_loc(loc, max, out, cap);	/* output/textfmt.h */
}

void
d9t_req_init(const struct d9t_app *app, struct d9t_req *q)
{
	*q = (struct d9t_req){ .q = D9M_QUERY_INIT,
	    .worst = app->cfg->worst };
	q->q.win = d9t_req_window(app, app->lo, app->hi);
	q->q.task = app->f_task;
	q->q.loc = app->f_loc;
}

struct d9m_window
d9t_req_window(const struct d9t_app *app, uint64_t lo, uint64_t hi)
{
	/* the whole trace: figures match --json */
	if (lo == app->m->min_ts && hi == app->m->max_ts)
		return D9M_WHOLE;
	return (struct d9m_window){ lo, hi };
}

const struct d9m_analysis *
d9t_analysis(struct d9t_app *app, int tasks_only)
{
	struct d9t_req q;
	void *stale, *a;

	d9t_req_init(app, &q);
	q.q.task = q.q.loc = D9_NONE;
	a = d9t_jobs_get(app->jobs, tasks_only ? D9T_J_TASKS : D9T_J_ANALYSIS,
	    &q, &stale);
	if (a == NULL) {
		app->updating = 1;
		a = stale;
	}
	return a;
}

void
d9t_push_view(struct d9t_app *app, enum d9t_view v)
{
	if (app->nstack < D9T_STACK)
		app->stack[app->nstack++] = app->view;
	app->view = v;
	app->lists[v].hscroll = 0;	/* a jump starts at the left */
	d9t_app_dirty(app);
}

void
d9t_top_view(struct d9t_app *app, enum d9t_view v)
{
	app->nstack = 0;
	if (v != D9T_V_TIMELINE)
		app->stack[app->nstack++] = D9T_V_TIMELINE;
	app->view = v;
	app->lists[v].hscroll = 0;
	d9t_app_dirty(app);
}

void
d9t_poll_msg(struct d9t_app *app, const char *what, uint32_t p)
{
	char d[32], loc[160], sl[160], wid[D9M_WORKER_LABEL];
	size_t room = (size_t)app->w > strlen(what) + 60 ?
	    (size_t)app->w - strlen(what) - 60 : 10;

	d9t_fmt_dur(d, sizeof d, app->m->polls.end[p] - app->m->polls.start[p],
	    app->utf8);
	d9t_fmt_loc(app, app->m->polls.loc[p], sl, sizeof sl);
	d9t_short_loc(sl, room, loc, sizeof loc);
	d9m_worker_label(app->m, d9m_poll_worker_id(app->m, p), wid,
	    sizeof wid);
	d9t_msg(app, "%s: %s poll of task %" PRIu64 " (%s) on worker %s",
	    what, d, d9t_task_id(app, app->m->polls.task[p]), loc, wid);
}

void
d9t_filters_text(const struct d9t_app *app, char *out, size_t cap)
{
	const struct d9m_model *m = app->m;
	char a[40], b[40], loc[200];
	int n;

	d9t_fmt_rel(a, sizeof a, app->lo - m->min_ts, 6);
	d9t_fmt_rel(b, sizeof b, app->hi - m->min_ts, 6);
	n = snprintf(out, cap, "window %s..%s%s", a, b, app->lo <= m->min_ts &&
	    app->hi >= m->max_ts ? " (the whole trace)" : "");
	if (n > 0 && (size_t)n < cap && app->f_task != D9_NONE)
		n += snprintf(out + n, cap - (size_t)n, ", task %" PRIu64,
		    d9t_task_id(app, app->f_task));
	if (n > 0 && (size_t)n < cap && app->f_loc != D9_NONE) {
		d9t_fmt_loc(app, app->f_loc, loc, sizeof loc);
		snprintf(out + n, cap - (size_t)n, ", spawned at %s", loc);
	}
}

void
d9t_prompt(struct d9t_app *app, int kind, const char *label)
{
	app->prompt = kind;
	app->plabel = label;
	app->plen = 0;
	app->dirty |= D9T_DIRTY_STATUS;
}

void
d9t_prompt_with(struct d9t_app *app, int kind, const char *label,
    const char *text)
{
	d9t_prompt(app, kind, label);
	snprintf(app->pbuf, sizeof app->pbuf, "%s", text);
	app->plen = strlen(app->pbuf);
}

void
d9t_build_list(struct d9t_app *app, struct d9t_list *l)
{
	const struct d9t_view_ops *ops = d9t_ops(app, app->view);

	if (l->built && l->gen == app->gen)
		return;
	d9t_list_reset(l);
	l->gen = app->gen;
	if (ops->build != NULL)
		ops->build(app, app->vstate[app->view], l);
	d9t_list_sort(l);	/* o, O */
	/* at the top, the cursor is on the first line Enter acts on, not on
	 * a heading: Enter at once opens the first row */
	if (ops->open_first && l->sel == 0)
		d9t_list_first(l);
}

void
d9t_pct_cols(struct d9t_app *app, const struct d9m_pct *p, char *out, size_t cap)
{
	char a[32], b[32], c[32];

	d9t_fmt_dur(a, sizeof a, p->p50, app->utf8);
	d9t_fmt_dur(b, sizeof b, p->p99, app->utf8);
	d9t_fmt_dur(c, sizeof c, p->max, app->utf8);
	snprintf(out, cap, "%9s %9s %9s", a, b, c);
}

const struct d9m_flame *
d9t_flame_shown(const struct d9t_app *app)
{
	const struct d9t_view_ops *ops = d9t_ops(app, app->view);

	return ops->flame != NULL ? ops->flame(app->vstate[app->view]) : NULL;
}
