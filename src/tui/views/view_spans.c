/*
 * view_spans.c: view 6, the spans of the window by name (model/queries/spanset.h,
 * the figures the report gives), optionally only those with a field
 * containing a text; Enter on a name opens its sub-view, the slowest
 * spans of that name, each a jump to its time, with the time it spent
 * entered (what it ran) and the span its close names as its parent.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/ids.h"
#include "tui/baseline.h"
#include "tui/tables.h"
#include "tui/timeaxis.h"

struct spans_view {
	char		field[128];	/* only spans with a field containing
					 * this, "" for all */
};

struct slow_view {
	uint32_t	name;		/* the span name listed, D9_NONE */
};

static void *
spans_init(void)
{
	return calloc(1, sizeof(struct spans_view));
}

static void *
slow_init(void)
{
	struct slow_view *v = malloc(sizeof *v);

	if (v != NULL)
		v->name = D9_NONE;
	return v;
}

/* The request for the span instances of the window with the spans
 * view's filter. */
static void
spans_req(struct d9t_app *app, struct d9t_req *q)
{
	const struct spans_view *v = app->vstate[D9T_V_SPANS];

	d9t_req_init(app, q);
	q->q.task = q->q.loc = D9_NONE;
	snprintf(q->q.text, sizeof q->q.text, "%s", v->field);
}

static const struct d9m_spanset *
spans(struct d9t_app *app)
{
	struct d9t_req q;
	void *stale, *s;

	spans_req(app, &q);
	s = d9t_jobs_get(app->jobs, D9T_J_SPANS, &q, &stale);
	if (s == NULL) {
		app->updating = 1;
		s = stale;
	}
	return s;
}

static void
span_line(struct d9t_app *app, struct d9t_list *l,
    const struct d9m_span_name *nm, const struct d9m_dpct *r, int cmp)
{
	char pc[128], dc[64] = "", pre[256];

	d9t_pct_cols(app, &nm->dur, pc, sizeof pc);
	if (cmp)
		d9t_cmp_cols(app, r, dc, sizeof dc);
	double key[] = { (double)nm->dur.count, (double)nm->dur.p50,
	    (double)nm->dur.p99, (double)nm->dur.max };
	struct d9t_line *ln;

	snprintf(pre, sizeof pre, "%8zu %s %s%s ", nm->dur.count, pc, dc,
	    cmp ? " " : "");
	ln = d9t_list_add_safe(l, 0, pre, d9m_str(app->m, nm->name));
	d9t_list_set_target(ln, D9T_T_SPAN_NAME, nm->name, 0);
	d9t_list_keys(ln, sizeof key / sizeof key[0], key);
}

static void
spans_build(struct d9t_app *app, void *st, struct d9t_list *l)
{
	const struct spans_view *v = st;
	const struct d9m_spanset *s = spans(app);
	struct d9t_req q;
	struct d9t_cmp c;
	int cmp;

	if (d9t_computing(l, s, "figures"))
		return;
	spans_req(app, &q);
	cmp = d9t_cmp_spans(&c, app->m, d9t_baseline_get(app, D9T_J_SPANS,
	    &q), s) == 0;
	d9t_list_add(l, D9T_A_BOLD, "Spans by name: %zu in the window, %zu "
	    "never exited%s%s%s (Enter: the slowest; f: field filter)", s->n,
	    s->unmatched, v->field[0] ? ", fields containing '" : "",
	    v->field, v->field[0] ? "'" : "");
	d9t_baseline_line(app, l, cmp, "change of p99 and of the share of "
	    "spans", "");
	d9t_list_add(l, D9T_A_UNDERLINE, cmp ? "%8s %9s %9s %9s %9s %7s  %s" :
	    "%8s %9s %9s %9s  %s%s%s", "count", "p50", "p99", "max",
	    cmp ? "+/-p99" : "name", cmp ? "+/-%" : "", cmp ? "name" : "");
	for (size_t k = 0; cmp && app->by_change && k < c.nrows; k++) {
		if (c.rows[k].inew != SIZE_MAX)
			span_line(app, l, &s->names[c.rows[k].inew], &c.rows[k],
			    1);
		else
			d9t_list_add_safe(l, D9T_A_DIM, "  (gone: in the "
			    "baseline only) ", c.rows[k].name);
	}
	for (size_t i = 0; !(cmp && app->by_change) && i < s->nnames; i++)
		span_line(app, l, &s->names[i], cmp && c.row_of[i] != SIZE_MAX ?
		    &c.rows[c.row_of[i]] : NULL, cmp);
	if (cmp)
		d9t_cmp_free(&c);
	if (s->nnames == 0)
		d9t_list_add(l, D9T_A_DIM, "(no spans in this window)");
}

static void
slow_build(struct d9t_app *app, void *st, struct d9t_list *l)
{
	const struct slow_view *v = st;
	const struct d9m_spanset *s = spans(app);
	const struct d9m_model *m = app->m;

	if (d9t_computing(l, s, "figures"))
		return;
	for (size_t i = 0; i < s->nnames; i++) {
		const struct d9m_span_name *nm = &s->names[i];

		if (nm->name != v->name)
			continue;
		d9t_list_add_safe(l, D9T_A_BOLD, "Slowest spans named ",
		    d9m_str(m, nm->name));
		for (size_t k = 0; k < nm->dur.count && k < 200; k++) {
			const struct d9m_span *sp = &s->v[nm->first + k];
			uint32_t up = m->spans.parent[sp->row];
			char d[32], at[40], f[400], pre[240], cpu[32];
			char wid[D9M_WORKER_LABEL];

			d9t_fmt_dur(d, sizeof d, sp->end - sp->start, app->utf8);
			d9t_fmt_rel(at, sizeof at, sp->start - m->min_ts, 6);
			d9t_fmt_dur(cpu, sizeof cpu, sp->active, app->utf8);
			d9m_fields_text(m, sp->fields, f, sizeof f);
			/* what it ran (its entered intervals), its parent */
			d9m_worker_label(m, sp->worker, wid, sizeof wid);
			snprintf(pre, sizeof pre, "%9s at %s  worker %s"
			    "  entered %s%s%.40s  ", d, at, wid, cpu,
			    up != D9_NONE ? "  in " : "", up == D9_NONE ? "" :
			    m->spans.name[up] != D9_NONE ? d9m_str(m,
			    m->spans.name[up]) : "unknown");
			double key[] = { (double)(sp->end - sp->start),
			    (double)sp->start, (double)sp->active };
			struct d9t_line *ln = d9t_list_add(l, 0, "%s%s", pre,
			    f);

			d9t_list_set_target(ln, D9T_T_TIME, d9m_worker_slot(m,
			    sp->worker), sp->start);
			d9t_list_keys(ln, 3, key);
		}
		return;
	}
	d9t_list_add(l, D9T_A_DIM, "(no such spans in this window)");
}

static void
slow_open(struct d9t_app *app, void *st, uint32_t name)
{
	((struct slow_view *)st)->name = name;
	d9t_push_view(app, D9T_V_SLOW);
}

static void
set_field(struct d9t_app *app, struct spans_view *v, const char *text)
{
	snprintf(v->field, sizeof v->field, "%s", text);
	d9t_app_dirty(app);
}

static enum d9t_handled
spans_key(struct d9t_app *app, void *st, enum d9t_action a)
{
	struct d9t_list *l = &app->lists[app->view];

	(void)st;
	if (a == D9T_A_FIELD_FILTER) {
		d9t_prompt(app, 'f', "span field contains: ");
		return D9T_HANDLED;
	}
	if (a == D9T_A_OPEN_LINE && l->sel < l->n &&
	    l->v[l->sel].target == D9T_T_SPAN_NAME) {
		d9t_open(app, D9T_V_SLOW, l->v[l->sel].a);
		return D9T_HANDLED;
	}
	return D9T_UNHANDLED;
}

static void
spans_prompt(struct d9t_app *app, void *st, const char *text)
{
	set_field(app, st, text);
}

/* A span name in the list, else a field value to filter by. */
static int
spans_search(struct d9t_app *app, void *st, const char *text)
{
	if (d9t_list_find(&app->lists[app->view], text) == 0)
		return 0;
	set_field(app, st, text);
	d9t_msg(app, "spans with a field containing '%s'", text);
	return 0;
}

static const enum d9t_action hints[] = { D9T_A_HELP, D9T_A_BACK,
	D9T_A_OPEN_LINE, D9T_A_SORT, D9T_A_SEARCH, D9T_A_SEARCH_NEXT, D9T_A_FIELD_FILTER,
	D9T_A_BASELINE, D9T_A_BY_CHANGE, D9T_A_NONE };

static const char *const span_keys[] = { "count", "p50", "p99", "max",
	NULL };
static const char *const slow_keys[] = { "duration", "start", "entered",
	NULL };

const struct d9t_view_ops d9t_view_spans = {
	.open_first = 1, .sort_keys = span_keys,
	.name = "spans", .tab = 6, .hints = hints, .init = spans_init,
	.free = free, .build = spans_build, .key = spans_key,
	.prompt = spans_prompt, .search = spans_search
};

const struct d9t_view_ops d9t_view_slow = {
	.open_first = 1, .sort_keys = slow_keys,
	.name = "slowest spans", .hints = hints, .init = slow_init,
	.free = free, .build = slow_build, .open = slow_open,
	.keeps_str = D9T_KEEPS(struct slow_view, name)
};
