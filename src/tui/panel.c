/*
 * panel.c: see panel.h. The points of interest come from the whole
 * trace's set (computed once in the background, the one n/N steps
 * through), those of each kind inside the window found by binary search.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stackcap.h"
#include "model/core/ids.h"
#include "base/text.h"
#include "model/figures/framekind.h"
#include "model/figures/metrics.h"
#include "model/queries/series.h"
#include "model/queries/samples.h"
#include "model/figures/verdict.h"
#include "tui/app.h"
#include "tui/panel.h"
#include "tui/strip.h"
#include "tui/timeaxis.h"

void
d9t_panel_init(struct d9t_panel *p)
{
	memset(p, 0, sizeof *p);
	p->poll = D9_NONE;
}

/* "top stack (9 of 12 samples): leaf ... first application frame". */
static void
top_stack(struct d9t_app *app, uint32_t poll, char *out, size_t cap)
{
	struct d9m_top_stack t;

	out[0] = '\0';
	if (d9m_poll_top_stack(app->m, app->cfg->resolver, poll, &t) < 0 ||
	    t.count == 0)
		return;
	snprintf(out, cap, "top stack (%zu of %zu samples): %s%s%s", t.count,
	    t.of, t.leaf, t.app[0] ? " ... " : "", t.app);
}

static void
summarise(struct d9t_app *app, struct d9t_panel *p)
{
	struct d9m_verdict v;

	if (p->m == app->m && p->poll == app->sel)
		return;
	p->m = app->m;
	p->poll = app->sel;
	p->verdict[0] = p->stack[0] = '\0';
	if (app->sel == D9_NONE)
		return;
	if (d9m_poll_verdict(app->m, app->cfg->resolver, app->sel, &v) == 0)
		d9m_verdict_text(&v, p->verdict, sizeof p->verdict);
	top_stack(app, app->sel, p->stack, sizeof p->stack);
}

/* The points of interest of the trace (a job), and how many of each
 * kind lie in the window (in, their total in *total); NULL while they are
 * computed. */
static const struct d9m_pois *
window_pois(struct d9t_app *app, size_t *in, size_t *total, struct d9t_req *q)
{
	const struct d9m_pois *p;
	void *stale;

	d9t_req_init(app, q);
	q->q.win = D9M_WHOLE;
	q->q.task = q->q.loc = D9_NONE;
	p = d9t_jobs_get(app->jobs, D9T_J_POIS, q, &stale);
	if (p == NULL)
		p = stale;
	d9t_req_init(app, q);	/* the window the figures are of */
	*total = 0;
	for (int k = 0; k < D9M_POI_COUNT && p != NULL; k++) {
		in[k] = d9m_pois_count(p, k, &q->q.win);
		*total += in[k];
	}
	return p;
}

/* Points of interest of the window, worst first in each kind, from
 * row y, each wrapped to the width; returns the rows used (cv NULL:
 * only counted). */
static int
points(struct d9t_app *app, struct d9t_canvas *cv, int w, int y, int rows)
{
	const struct d9m_model *m = app->m;
	const struct d9m_pois *p;
	struct d9t_req q;
	char line[512];
	size_t in[D9M_POI_COUNT], total = 0;
	int used = 0, n = 0;

	p = window_pois(app, in, &total, &q);
	if (p == NULL || rows < 1)
		return 0;
	n = snprintf(line, sizeof line, "points of interest here: %zu", total);
	for (int k = 0, first = 1; k < D9M_POI_COUNT && n > 0 &&
	    (size_t)n < sizeof line; k++)
		if (in[k]) {
			n += snprintf(line + n, sizeof line - (size_t)n, "%s %zu "
			    "%s", first ? " =" : ",", in[k],
			    d9m_poi_name((enum d9m_poi_kind)k));
			first = 0;
		}
	if (total > 0 && n > 0 && (size_t)n < sizeof line)
		snprintf(line + n, sizeof line - (size_t)n, "  (p lists them)");
	used += d9t_canvas_wrap(cv, 0, y, w, 2, rows, D9T_A_BOLD, line);
	for (int k = 0; k < D9M_POI_COUNT && used < rows; k++)
		for (size_t i = p->first[k]; i < p->first[k + 1] && used < rows;
		    i++) {
			const struct d9m_poi *x = &p->v[i];
			char at[40], safe[300];

			if (!d9m_in_window(&q.q.win, x->start))
				continue;
			d9t_fmt_since(at, sizeof at, m->min_ts, x->start, 3);
			d9_text_safe(safe, sizeof safe, x->text, strlen(x->text));
			snprintf(line, sizeof line, "%-15s %9s  %s",
			    d9m_poi_name(x->kind), at, safe);
			used += d9t_canvas_wrap(cv, 2, y + used, w - 2, 27,
			    rows - used, k == D9M_POI_LONG_POLL ? D9T_C_YELLOW :
			    0, line);
			break;	/* the worst of each kind */
		}
	return used;
}

/* The selected poll's verdict and top stack, wrapped, from row y (cv
 * NULL: only counted); returns the rows. */
static int
selection(struct d9t_panel *p, struct d9t_canvas *cv, int w, int y, int rows)
{
	char safe[400], line[420];
	int used;

	d9_text_safe(safe, sizeof safe, p->verdict, strlen(p->verdict));
	snprintf(line, sizeof line, "verdict: %s", safe);
	used = d9t_canvas_wrap(cv, 0, y, w, 9, rows, D9T_C_CYAN | D9T_A_BOLD,
	    line);
	d9_text_safe(safe, sizeof safe, p->stack, strlen(p->stack));
	return used + d9t_canvas_wrap(cv, 0, y + used, w, 2, rows - used,
	    D9T_A_DIM, safe);
}

int
d9t_panel_want(struct d9t_app *app, struct d9t_panel *p, int w)
{
	summarise(app, p);
	return points(app, NULL, w, 0, 64) + (app->sel != D9_NONE ?
	    selection(p, NULL, w, 0, 64) : 0);
}

void
d9t_panel_draw(struct d9t_app *app, struct d9t_panel *p,
    struct d9t_canvas *cv, int y, int rows)
{
	int sel_rows;

	if (rows < 1)
		return;
	summarise(app, p);
	sel_rows = app->sel != D9_NONE ? selection(p, NULL, cv->w, 0, rows) : 0;
	if (rows > sel_rows)
		points(app, cv, cv->w, y, rows - sel_rows);
	if (sel_rows)
		selection(p, cv, cv->w, y + rows - sel_rows, sel_rows);
}

/* Where the strips are drawn and what the cursor reads on them. */
struct strips {
	struct d9t_app		*app;
	struct d9t_canvas	*cv;
	const struct d9t_axis	*ax;
	const uint64_t		*edges;
	int			 y;	/* the next strip's row */
	int			 cx;	/* the cursor's column in v, -1 */
	char			*ro;	/* the readout, appended to */
	size_t			 rocap;
};

/* "label value" of v at the cursor onto the readout. */
static void
read_at(struct strips *st, const char *label, const double *v, int dur)
{
	size_t n = strlen(st->ro);
	char val[40];

	if (st->cx < 0 || n + 2 >= st->rocap || v[st->cx] < 0)
		return;		/* below 0: nothing in that column */
	if (dur)
		d9t_fmt_dur(val, sizeof val, (uint64_t)v[st->cx],
		    st->app->utf8);
	else if (v[st->cx] == (double)(int64_t)v[st->cx])
		snprintf(val, sizeof val, "%.0f", v[st->cx]);
	else
		snprintf(val, sizeof val, "%.2f", v[st->cx]);
	snprintf(st->ro + n, st->rocap - n, "%s%s %s", n ? "  " : "", label,
	    val);
}

/* A strip of the series of kind k, unless nothing was recorded in it
 * (a kernel wait of 0 throughout, no CPU samples). */
static void
series_strip(struct strips *st, double *v, enum d9m_series_kind k,
    uint32_t arg, const char *label, uint16_t attr)
{
	struct d9m_query q = D9M_QUERY_INIT;
	struct d9t_app *app = st->app;
	size_t w = (size_t)st->ax->w;
	char max[40];
	double top;

	q.kind = (int)k;
	if (k == D9M_S_CPU)
		q.group = arg;
	else
		q.worker = arg;
	if (d9m_series(app->m, &q, st->edges, w, v) < 0 ||
	    (top = d9t_strip_max(v, w)) <= 0)
		return;
	if (k == D9M_S_SCHED_WAIT)
		d9t_fmt_dur(max, sizeof max, (uint64_t)top, app->utf8);
	else if (k == D9M_S_CPU)
		snprintf(max, sizeof max, "%.2f cores", top);
	else
		snprintf(max, sizeof max, "%.0f", top);
	d9t_strip_draw(st->cv, st->ax, st->y++, app->utf8, app->color ? attr :
	    0, label, v, max);
	read_at(st, label, v, k == D9M_S_SCHED_WAIT);
}

/* Runtime groups with a pair of strips: each of them when there are
 * several, else one pair for the whole trace. */
static size_t
strip_groups(const struct d9m_model *m)
{
	return m->nruntimes > 1 ? m->nruntimes : 1;
}

int
d9t_panel_nstrips(const struct d9t_app *app)
{
	const struct d9m_model *m = app->m;

	return 2 * (int)strip_groups(m) + 3 + (app->metric < m->metrics.n);
}

/* Global queue depth and alive tasks of runtime group g (of all samples
 * when there is one group), as the model gives them (series.h). */
static void
runtime_strips(struct strips *st, double *v, uint32_t g)
{
	struct d9m_query q = D9M_QUERY_INIT;
	struct d9t_app *app = st->app;
	const struct d9m_model *m = app->m;
	double *act = v + st->ax->w;
	int one = m->nruntimes <= 1;
	enum d9m_alive_from from;
	char lq[16], la[16], max[24];

	q.runtime = one ? D9_NONE : g;
	from = d9m_series_runtime(m, app->ix, &q, st->edges,
	    (size_t)st->ax->w, v, act);
	if (one) {
		snprintf(lq, sizeof lq, "queue");
		snprintf(la, sizeof la, "tasks");
	} else {
		const char *name = d9m_str(m, m->runtimes[g].name);

		snprintf(lq, sizeof lq, "q %.4s", *name ? name : "main");
		snprintf(la, sizeof la, "t %.4s", *name ? name : "main");
	}
	snprintf(max, sizeof max, "%.0f", d9t_strip_max(v, (size_t)st->ax->w));
	d9t_strip_draw(st->cv, st->ax, st->y, app->utf8, app->color ?
	    D9T_C_BLUE : 0, lq, v, max);
	read_at(st, lq, v, 0);
	snprintf(max, sizeof max, "%.0f", d9t_strip_max(act,
	    (size_t)st->ax->w));
	d9t_strip_draw(st->cv, st->ax, st->y + 1, app->utf8, app->color ?
	    D9T_C_MAGENTA : 0, la, act, from != D9M_ALIVE_NONE ? max : NULL);
	if (from == D9M_ALIVE_NONE)
		d9t_canvas_put(st->cv, st->ax->x0, st->y + 1, D9T_A_DIM, one ?
		    "(no spawn events)" : "(alive tasks not recorded)");
	else
		read_at(st, la, act, 0);
	st->y += 2;
}

/* The metric chosen with m (app->metric) as a lane: per column a
 * counter's growth or a series' highest sample (model/metrics.h). */
static void
metric_lane(struct strips *st, double *v)
{
	struct d9t_app *app = st->app;
	const struct d9m_model *m = app->m;
	uint32_t unit = m->metrics.unit[app->metric];
	char lbl[16], max[48];

	if (d9m_metric_columns(m, app->metric, st->edges, (size_t)st->ax->w,
	    v) < 0)
		return;
	snprintf(lbl, sizeof lbl, "m %.4s", d9m_str(m,
	    m->metrics.name[app->metric]));
	snprintf(max, sizeof max, "%.6g%s%s", d9t_strip_max(v,
	    (size_t)st->ax->w), unit != D9_NONE ? " " : "", unit != D9_NONE ?
	    d9m_str(m, unit) : "");
	d9t_strip_draw(st->cv, st->ax, st->y++, app->utf8, app->color ?
	    D9T_C_GREEN : 0, lbl, v, max);
	read_at(st, lbl, v, 0);
}

/* The strips under the lanes: global queue and active tasks per runtime
 * group, then the selected worker's local queue and kernel scheduling
 * waits and its process's CPU use (each only when something was
 * recorded), then the metric lane; each labels its maximum, and the
 * panel's readout gets each one's value at the cursor. */
int
d9t_panel_strips(struct d9t_app *app, struct d9t_panel *p,
    struct d9t_canvas *cv, const struct d9t_axis *ax, int y)
{
	const struct d9m_model *m = app->m;
	double *v = calloc((size_t)ax->w * 2, sizeof *v);
	uint64_t *edges = d9t_axis_edges(ax);
	char lbl[16], id[D9M_WORKER_LABEL];
	uint32_t s = app->lane < m->nworkers ? app->lane : D9_NONE;
	size_t ng = strip_groups(m);
	int cx = d9t_axis_x(ax, app->cursor) - ax->x0;
	struct strips st = { app, cv, ax, edges, y, cx >= 0 && cx < ax->w ?
	    cx : -1, p->readout, sizeof p->readout };

	p->readout[0] = '\0';
	if (v == NULL || edges == NULL) {
		free(v);
		free(edges);
		return 0;
	}
	for (size_t g = 0; g < ng; g++)
		runtime_strips(&st, v, (uint32_t)g);
	if (s != D9_NONE) {
		/* six columns: "lq w12", of source 1 "lq 1:2" */
		d9m_worker_label(m, m->workers[s].id, id, sizeof id);
		snprintf(lbl, sizeof lbl, m->workers[s].group ? "lq %.3s" :
		    "lq w%.2s", id);
		series_strip(&st, v, D9M_S_LOCAL_QUEUE, s, lbl, D9T_C_CYAN);
		lbl[0] = 'k';
		lbl[1] = 'w';
		series_strip(&st, v, D9M_S_SCHED_WAIT, s, lbl, D9T_C_YELLOW);
		series_strip(&st, v, D9M_S_CPU, m->workers[s].group, "cpu",
		    D9T_C_GREEN);
	}
	if (app->metric < m->metrics.n)
		metric_lane(&st, v);
	free(v);
	free(edges);
	return st.y - y;
}
