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

/* Points of interest of the window, worst first in each kind, from
 * row y on; returns the rows used. */
static int
points(struct d9t_app *app, struct d9t_canvas *cv, int y, int rows)
{
	const struct d9m_model *m = app->m;
	const struct d9m_pois *p;
	struct d9t_req q;
	void *stale;
	char line[512];
	size_t in[D9M_POI_COUNT], total = 0;
	int used = 0, n = 0;

	d9t_req_init(app, &q);
	q.lo = 0;
	q.hi = UINT64_MAX;
	q.task = q.loc = D9_NONE;
	p = d9t_jobs_get(app->jobs, D9T_J_POIS, &q, &stale);
	if (p == NULL)
		p = stale;
	if (p == NULL || rows < 1)
		return 0;
	d9t_req_init(app, &q);	/* the window the figures are of */
	for (int k = 0; k < D9M_POI_COUNT; k++) {
		in[k] = d9m_pois_count(p, k, q.lo, q.hi);
		total += in[k];
	}
	n = snprintf(line, sizeof line, "points of interest here: %zu", total);
	for (int k = 0, first = 1; k < D9M_POI_COUNT && n > 0 &&
	    (size_t)n < sizeof line; k++)
		if (in[k]) {
			n += snprintf(line + n, sizeof line - (size_t)n, "%s %zu "
			    "%s", first ? " =" : ",", in[k],
			    d9m_poi_name((enum d9m_poi_kind)k));
			first = 0;
		}
	if (total > 0)
		snprintf(line + n, sizeof line - (size_t)n, "  (p lists them)");
	d9t_canvas_put(cv, 0, y + used++, D9T_A_BOLD, line);
	for (int k = 0; k < D9M_POI_COUNT && used < rows; k++)
		for (size_t i = p->first[k]; i < p->first[k + 1] && used < rows;
		    i++) {
			const struct d9m_poi *x = &p->v[i];
			char at[40], safe[300];

			if (x->start < q.lo || x->start > q.hi)
				continue;
			d9t_fmt_since(at, sizeof at, m->min_ts, x->start, 3);
			d9_text_safe(safe, sizeof safe, x->text, strlen(x->text));
			d9t_canvas_printf(cv, 2, y + used++, k ==
			    D9M_POI_LONG_POLL ? D9T_C_YELLOW : 0, "%-15s %9s  %s",
			    d9m_poi_name(x->kind), at, safe);
			break;	/* the worst of each kind */
		}
	return used;
}

void
d9t_panel_draw(struct d9t_app *app, struct d9t_panel *p,
    struct d9t_canvas *cv, int y, int rows)
{
	int sel_rows = app->sel != D9_NONE ? 2 : 0;

	if (rows < 1)
		return;
	summarise(app, p);
	if (rows > sel_rows)
		points(app, cv, y, rows - sel_rows);
	if (sel_rows && rows >= 2) {
		char safe[400];

		d9_text_safe(safe, sizeof safe, p->verdict, strlen(p->verdict));
		d9t_canvas_printf(cv, 0, y + rows - 2, D9T_C_CYAN | D9T_A_BOLD,
		    "verdict: %s", safe);
		d9_text_safe(safe, sizeof safe, p->stack, strlen(p->stack));
		d9t_canvas_put(cv, 0, y + rows - 1, D9T_A_DIM, safe);
	}
}

/* A strip of the series of kind k over ax; its maximum in max. */
static void
series_strip(struct d9t_app *app, struct d9t_canvas *cv,
    const struct d9t_axis *ax, int y, const uint64_t *edges, double *v,
    enum d9m_series_kind k, uint32_t arg, const char *label, uint16_t attr)
{
	char max[40];
	double top;

	if (d9m_series(app->m, k, arg, edges, (size_t)ax->w, v) < 0)
		return;
	top = d9t_strip_max(v, (size_t)ax->w);
	if (k == D9M_S_SCHED_WAIT)
		d9t_fmt_dur(max, sizeof max, (uint64_t)top, app->utf8);
	else if (k == D9M_S_CPU)
		snprintf(max, sizeof max, "%.2f cores", top);
	else
		snprintf(max, sizeof max, "%.0f", top);
	d9t_strip_draw(cv, ax, y, app->utf8, app->color ? attr : 0, label, v,
	    k == D9M_S_CPU && top <= 0 ? NULL : max);
	if (k == D9M_S_CPU && top <= 0)
		d9t_canvas_put(cv, ax->x0, y, D9T_A_DIM, "(no process CPU "
		    "samples)");
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
runtime_strips(struct d9t_app *app, struct d9t_canvas *cv,
    const struct d9t_axis *ax, int y, const uint64_t *edges, double *v,
    uint32_t g)
{
	const struct d9m_model *m = app->m;
	double *act = v + ax->w;
	int one = m->nruntimes <= 1;
	enum d9m_alive_from from;
	char lq[16], la[16], max[24];

	from = d9m_series_runtime(m, app->ix, one ? D9_NONE : g, edges,
	    (size_t)ax->w, v, act);
	if (one) {
		snprintf(lq, sizeof lq, "queue");
		snprintf(la, sizeof la, "tasks");
	} else {
		const char *name = d9m_str(m, m->runtimes[g].name);

		snprintf(lq, sizeof lq, "q %.4s", *name ? name : "main");
		snprintf(la, sizeof la, "t %.4s", *name ? name : "main");
	}
	snprintf(max, sizeof max, "%.0f", d9t_strip_max(v, (size_t)ax->w));
	d9t_strip_draw(cv, ax, y, app->utf8, app->color ? D9T_C_BLUE : 0, lq,
	    v, max);
	snprintf(max, sizeof max, "%.0f", d9t_strip_max(act, (size_t)ax->w));
	d9t_strip_draw(cv, ax, y + 1, app->utf8, app->color ? D9T_C_MAGENTA :
	    0, la, act, from != D9M_ALIVE_NONE ? max : NULL);
	if (from == D9M_ALIVE_NONE)
		d9t_canvas_put(cv, ax->x0, y + 1, D9T_A_DIM, one ?
		    "(no spawn events)" : "(alive tasks not recorded)");
}

/* The metric chosen with m (app->metric) as a lane: per column a
 * counter's growth or a series' highest sample (model/figures/metrics.h). */
static void
metric_lane(struct d9t_app *app, struct d9t_canvas *cv,
    const struct d9t_axis *ax, int y, const uint64_t *edges, double *v)
{
	const struct d9m_model *m = app->m;
	uint32_t unit = m->metrics.unit[app->metric];
	char lbl[16], max[48];

	if (d9m_metric_columns(m, app->metric, edges, (size_t)ax->w, v) < 0)
		return;
	snprintf(lbl, sizeof lbl, "m %.4s", d9m_str(m,
	    m->metrics.name[app->metric]));
	snprintf(max, sizeof max, "%.6g%s%s", d9t_strip_max(v, (size_t)ax->w),
	    unit != D9_NONE ? " " : "", unit != D9_NONE ? d9m_str(m, unit) :
	    "");
	d9t_strip_draw(cv, ax, y, app->utf8, app->color ? D9T_C_GREEN : 0,
	    lbl, v, max);
}

/* The strips under the lanes: global queue and active tasks per runtime
 * group, then the selected worker's local queue and kernel scheduling
 * waits and its process's CPU use, then the metric lane; each labels its
 * maximum. */
void
d9t_panel_strips(struct d9t_app *app, struct d9t_canvas *cv, const struct d9t_axis *ax,
    int y)
{
	const struct d9m_model *m = app->m;
	double *v = calloc((size_t)ax->w * 2, sizeof *v);
	uint64_t *edges = d9t_axis_edges(ax);
	char lbl[16], id[D9M_WORKER_LABEL];
	uint32_t s = app->lane < m->nworkers ? app->lane : D9_NONE;
	size_t ng = strip_groups(m);

	if (v == NULL || edges == NULL) {
		free(v);
		free(edges);
		return;
	}
	for (size_t g = 0; g < ng; g++)
		runtime_strips(app, cv, ax, y + 2 * (int)g, edges, v,
		    (uint32_t)g);
	y += 2 * (int)ng - 2;
	if (app->metric < m->metrics.n)
		metric_lane(app, cv, ax, y + 5, edges, v);
	if (s != D9_NONE) {
		/* six columns: "lq w12", of source 1 "lq 1:2" */
		d9m_worker_label(m, m->workers[s].id, id, sizeof id);
		snprintf(lbl, sizeof lbl, m->workers[s].group ? "lq %.3s" :
		    "lq w%.2s", id);
		series_strip(app, cv, ax, y + 2, edges, v, D9M_S_LOCAL_QUEUE, s,
		    lbl, D9T_C_CYAN);
		lbl[0] = 'k';
		lbl[1] = 'w';
		series_strip(app, cv, ax, y + 3, edges, v, D9M_S_SCHED_WAIT, s,
		    lbl, D9T_C_YELLOW);
		series_strip(app, cv, ax, y + 4, edges, v, D9M_S_CPU,
		    m->workers[s].group, "cpu", D9T_C_GREEN);
	}
	free(v);
	free(edges);
}
