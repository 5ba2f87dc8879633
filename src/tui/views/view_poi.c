/*
 * view_poi.c: the `p` view: the points of interest of the window
 * (model/figures/poi.h, the ones --json and the report list), by kind, worst
 * first, optionally one kind only. Enter jumps to one: the timeline with
 * its poll selected and its interval in view; n/N then step through the
 * points of that kind in time (over the whole trace).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/core/ids.h"
#include "tui/tables.h"
#include "tui/timeaxis.h"

struct poi_view {
	int	kind;		/* enum d9m_poi_kind, -1: every kind */
};

static void *
init(void)
{
	struct poi_view *v = malloc(sizeof *v);

	if (v != NULL)
		v->kind = -1;
	return v;
}

/* The points of interest of the window (with the analysis), or NULL. */
static const struct d9m_pois *
window_pois(struct d9t_app *app)
{
	const struct d9m_analysis *a = d9t_analysis(app, 0);

	return a != NULL ? a->pois : NULL;
}

static void
build(struct d9t_app *app, void *st, struct d9t_list *l)
{
	const struct poi_view *v = st;
	const struct d9m_pois *p = window_pois(app);
	const struct d9m_model *m = app->m;

	if (d9t_computing(l, p, "figures"))
		return;
	d9t_list_add(l, D9T_A_BOLD, "Points of interest in the window: %zu%s%s "
	    "(Enter jumps there, then n/N step through that kind; f: %s)",
	    d9m_pois_count(p, -1, &D9M_WHOLE), v->kind >= 0 ? ", only " :
	    "", v->kind >= 0 ?
	    d9m_poi_name((enum d9m_poi_kind)v->kind) : "", v->kind >= 0 ?
	    "next kind" : "one kind");
	for (int k = 0; k < D9M_POI_COUNT; k++) {
		if ((v->kind >= 0 && k != v->kind) || p->total[k] == 0)
			continue;
		if (p->total[k] > p->first[k + 1] - p->first[k])
			d9t_list_add(l, D9T_A_UNDERLINE, "%s: %zu (the worst "
			    "%zu listed)", d9m_poi_name((enum d9m_poi_kind)k),
			    p->total[k], p->first[k + 1] - p->first[k]);
		else
			d9t_list_add(l, D9T_A_UNDERLINE, "%s: %zu",
			    d9m_poi_name((enum d9m_poi_kind)k), p->total[k]);
		for (size_t i = p->first[k]; i < p->first[k + 1]; i++) {
			const struct d9m_poi *x = &p->v[i];
			char at[40], pre[96], id[D9M_WORKER_LABEL];

			d9t_fmt_since(at, sizeof at, m->min_ts, x->start, 3);
			d9m_worker_label(m, x->worker, id, sizeof id);
			if (x->worker != D9_NONE)
				snprintf(pre, sizeof pre, "  %10s  w%-3s ", at,
				    id);
			else
				snprintf(pre, sizeof pre, "  %10s  %-4s ", at, "");
			double key[] = { (double)x->value,
			    (double)x->start, (double)x->dur };

			d9t_list_keys(d9t_list_add_wrap(l, k ==
			    D9M_POI_LONG_POLL || k == D9M_POI_EVENTS_LOST ?
			    D9T_C_YELLOW : 0, app->saving ? 0 : app->w, 19, pre,
			    x->text, D9T_T_POI, (uint32_t)i), 3, key);
		}
	}
	if (p->n == 0)
		d9t_list_add(l, D9T_A_DIM, "(none in this window)");
}

/* Only kind of point (D9_NONE: every kind). */
static void
open(struct d9t_app *app, void *st, uint32_t kind)
{
	struct poi_view *v = st;

	v->kind = kind < D9M_POI_COUNT ? (int)kind : -1;
	app->lists[D9T_V_POI].sel = 0;
	if (app->view != D9T_V_POI)
		d9t_push_view(app, D9T_V_POI);
	d9t_app_dirty(app);
}

static enum d9t_handled
key(struct d9t_app *app, void *st, enum d9t_action a)
{
	struct poi_view *v = st;
	struct d9t_list *l = &app->lists[app->view];
	const struct d9m_pois *p = window_pois(app);

	switch (a) {
	case D9T_A_POI_KIND:
		/* the next kind with points in the window, then all again */
		do
			v->kind = v->kind + 1 >= D9M_POI_COUNT ? -1 :
			    v->kind + 1;
		while (v->kind >= 0 && p != NULL && p->total[v->kind] == 0);
		l->sel = 0;
		d9t_app_dirty(app);
		return D9T_HANDLED;
	case D9T_A_OPEN_LINE:
		if (p == NULL || l->sel >= l->n ||
		    l->v[l->sel].target != D9T_T_POI ||
		    l->v[l->sel].a >= p->n)
			return D9T_HANDLED;
		d9t_poi_jump(app, &p->v[l->v[l->sel].a]);
		return D9T_HANDLED;
	default:
		return D9T_UNHANDLED;
	}
}

static const enum d9t_action hints[] = { D9T_A_HELP, D9T_A_BACK,
	D9T_A_OPEN_LINE, D9T_A_SORT, D9T_A_POI_KIND, D9T_A_SEARCH, D9T_A_SEARCH_NEXT,
	D9T_A_NONE };

static const char *const poi_keys[] = { "how bad", "time", "duration",
	NULL };

const struct d9t_view_ops d9t_view_poi = {
	.open_first = 1, .sort_keys = poi_keys,
	.name = "points of interest", .hints = hints, .init = init,
	.free = free, .build = build, .key = key, .open = open
};
