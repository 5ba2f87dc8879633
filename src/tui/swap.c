/*
 * swap.c: a model taking the place of another in the browser: a partial
 * model while the trace loads, then the whole one. The state that names
 * rows of the old model (the selected poll, the lane, and what each view
 * holds: its swap handler) is carried over; the old model stays alive, with its background job,
 * until that job is over (d9t_app_reap), so a swap never waits.
 */
#include "model/queries/window.h"
#include "tui/app.h"

/* Oldest first, and none before an older one: partial models share the
 * strings of the whole model that follows them (loader.h). */
void
d9t_app_reap(struct d9t_app *app, int all)
{
	size_t i = 0, k = 0;

	for (; i < app->nretired; i++) {
		struct d9t_retired *r = &app->retired[i];

		if (!all && d9t_jobs_busy(r->jobs))
			break;
		d9t_jobs_free(&r->jobs);
		d9m_lanes_free(&r->ix);
		d9m_model_free(&r->m);
	}
	for (; i < app->nretired; i++)
		app->retired[k++] = app->retired[i];
	app->nretired = k;
}

/* The id a view's state st keeps at (view.h D9T_KEEPS; 0: none), of o,
 * made m's by remap. */
static void
keep(char *st, size_t at, uint32_t (*remap)(const struct d9m_model *,
    const struct d9m_model *, uint32_t), const struct d9m_model *o,
    const struct d9m_model *m)
{
	uint32_t *id;

	if (st == NULL || at == 0)
		return;
	id = (uint32_t *)(void *)(st + at - 1);
	*id = remap(o, m, *id);
}

static void first_window(struct d9t_app *app);

/* Carry the state that names rows of the old model over to m: polls by
 * worker and start, and what each view keeps (its swap handler, its
 * string id and task row: view.h). A partial model is a prefix of the
 * whole one, but the index's entry of the files before they changed
 * may hold other ids. */
static void
carry_over(struct d9t_app *app, const struct d9m_model *o,
    const struct d9m_model *m)
{
	uint32_t lane = app->lane < o->nworkers ? d9m_lane_remap(o, m, app->lane) :
	    D9_NONE;
	int whole = app->lo <= o->min_ts && app->hi >= o->max_ts;
	int untouched = app->lo == app->first_lo && app->hi == app->first_hi &&
	    app->cursor == app->first_cursor;

	app->sel = d9m_poll_remap(o, m, app->sel);
	for (int v = 0; v < D9T_V_COUNT; v++) {
		const struct d9t_view_ops *ops = d9t_ops(app, (enum d9t_view)v);
		char *st = app->vstate[v];

		if (ops->swap != NULL)
			ops->swap(app, st, o, m);
		keep(st, ops->keeps_str, d9m_str_remap, o, m);
		keep(st, ops->keeps_task, d9m_task_remap, o, m);
	}
	app->lane = lane != D9_NONE ? lane : 0;
	if (o->polls.n != m->polls.n || o->min_ts != m->min_ts ||
	    o->max_ts != m->max_ts) {
		/* more polls: the order of w starts again. The same trace
		 * mapped from its index entry keeps it: w after w goes on
		 * to the next worst whenever the entry is written */
		app->worst_pos = 0;
		app->worst_lo = app->worst_hi = 0;
	}
	if (untouched) {
		/* the window and cursor the first model was given, which
		 * nobody moved: given anew (--window is from the start of
		 * the trace, and this one may begin earlier) */
		first_window(app);
		return;
	}
	if (whole) {
		app->lo = m->min_ts;
		app->hi = m->max_ts > m->min_ts ? m->max_ts : m->min_ts + 1;
	} else
		d9t_set_window(app, app->lo, app->hi, 0);
	if (app->cursor < app->lo || app->cursor > app->hi)
		app->cursor = app->lo;
}

static void
first_window(struct d9t_app *app)
{
	const struct d9t_config *c = app->cfg;
	const struct d9m_model *m = app->m;

	app->lo = m->min_ts;
	app->hi = m->max_ts > m->min_ts ? m->max_ts : m->min_ts + 1;
	if (c->have_window) {
		struct d9m_window w = d9m_window_ms(m, c->win_lo_ms,
		    c->win_hi_ms);	/* as the report's */

		if (w.hi > app->hi)
			w.hi = app->hi;
		if (w.hi > w.lo)
			d9t_set_window(app, w.lo, w.hi, 0);
	}
	app->cursor = app->lo;
	app->first_lo = app->lo;
	app->first_hi = app->hi;
	app->first_cursor = app->cursor;
}

static int
adopt(struct d9t_app *app, struct d9m_model *m, struct d9m_lanes *ix)
{
	const struct d9t_config *c = app->cfg;
	struct d9t_jobs *jobs = d9t_jobs_new(m, ix, c->resolver, c->sync);
	struct d9m_model *o = app->m;

	if (jobs == NULL) {
		d9m_lanes_free(&ix);
		d9m_model_free(&m);
		return -1;
	}
	if (o != NULL) {
		if (app->nretired == D9T_RETIRED)
			d9t_app_reap(app, 1);
		d9t_jobs_stop(app->jobs);
		app->retired[app->nretired++] = (struct d9t_retired){
		    app->jobs, app->m, app->ix };
	}
	app->m = m;
	app->ix = ix;
	app->jobs = jobs;
	if (o != NULL)
		carry_over(app, o, m);
	else
		first_window(app);
	d9t_app_dirty(app);
	return 0;
}

int
d9t_app_set_model(struct d9t_app *app, struct d9m_model *m,
    struct d9m_lanes *ix)
{
	app->loading = 0;
	return adopt(app, m, ix);
}

int
d9t_app_set_partial(struct d9t_app *app, struct d9m_model *m,
    struct d9m_lanes *ix)
{
	app->loading = 1;
	return adopt(app, m, ix);
}

