/*
 * view_tables.c: the list views built from the analysis of the window:
 * tasks by spawn location (view 2) and the text report with red flags
 * (view 7, rendered by src/output as --report prints it), and the
 * helpers of every figure table (tables.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "tui/baseline.h"
#include "tui/tables.h"
#include "tui/timeaxis.h"

#define LINTS_LISTED	50	/* task lints listed */

struct tasks_view {
	uint32_t	want_loc;	/* select this location's line, D9_NONE */
};

static void *
tasks_init(void)
{
	struct tasks_view *v = malloc(sizeof *v);

	if (v != NULL)
		v->want_loc = D9_NONE;
	return v;
}

/* The tasks view with the line of spawn location loc selected. */
static void
tasks_open(struct d9t_app *app, void *st, uint32_t loc)
{
	((struct tasks_view *)st)->want_loc = loc;
	d9t_top_view(app, D9T_V_TASKS);
}

/* The line of the location the tasks view was opened on, once built. */
static void
select_loc(struct tasks_view *v, struct d9t_list *l)
{
	if (v->want_loc != D9_NONE &&
	    d9t_list_select(l, D9T_T_LOC, v->want_loc) == 0)
		v->want_loc = D9_NONE;
}

/* The line of spawn location i of a, with its change r (NULL: none). */
static void
loc_line(struct d9t_app *app, struct d9t_list *l,
    const struct d9m_analysis *a, size_t i, const struct d9m_dpct *r,
    int cmp)
{
	const struct d9m_loc_fig *f = &a->locs[i];
	char pc[128], dc[64] = "", pre[320];
	int leak = a->leak_suspected && f->loc == a->leak_loc;

	d9t_pct_cols(app, &f->poll, pc, sizeof pc);
	if (cmp)
		d9t_cmp_cols(app, r, dc, sizeof dc);
	double key[] = { (double)f->tasks, (double)f->poll.count,
	    (double)f->poll.p50, (double)f->poll.p99, (double)f->poll.max,
	    (double)f->alive };
	struct d9t_line *ln;

	/* LEAK? in a column of its own: the changes stay under their
	 * heading */
	snprintf(pre, sizeof pre, "%6zu %8zu %s %6zu%s %s%s", f->tasks,
	    f->poll.count, pc, f->alive, leak ? " LEAK?" : cmp ? "      " : "",
	    dc, cmp ? "  " : " ");
	ln = d9t_list_add_path(l, leak ? D9T_C_RED | D9T_A_BOLD :
	    f->poll.max > 10000000 ? D9T_C_YELLOW : 0, pre, f->loc == D9_NONE ?
	    "(unknown)" : d9m_str(app->m, f->loc));
	d9t_list_set_target(ln, D9T_T_LOC, f->loc, 0);
	d9t_list_keys(ln, sizeof key / sizeof key[0], key);
}

/* The task lints (ANALYSIS 22), each opening its task. */
static void
lints(struct d9t_list *l, const struct d9m_analysis *a)
{
	if (a->ntask_lints == 0)
		return;
	d9t_list_add(l, 0, "%s", "");
	d9t_list_add(l, D9T_A_BOLD, "Task lints: %zu%s (Enter: the task)",
	    a->ntask_lints, a->ntask_lints > LINTS_LISTED ? " (the first 50 "
	    "listed)" : "");
	for (size_t i = 0; i < a->ntask_lints && i < LINTS_LISTED; i++) {
		char pre[40];

		snprintf(pre, sizeof pre, "  %-13s ", a->task_lints[i].kind);
		d9t_list_set_target(d9t_list_add_safe(l, D9T_C_YELLOW, pre,
		    a->task_lints[i].text), D9T_T_TASK, a->task_lints[i].task, 0);
	}
}

static void
tasks_build(struct d9t_app *app, void *st, struct d9t_list *l)
{
	const struct d9m_analysis *a = d9t_analysis(app, 1);
	struct d9t_req q;
	struct d9t_cmp c;
	int cmp;

	if (d9t_computing(l, a, "figures"))
		return;
	d9t_req_init(app, &q);
	q.q.task = q.q.loc = D9_NONE;
	cmp = d9t_cmp_locs(&c, app->m, d9t_baseline_get(app, D9T_J_TASKS, &q),
	    a) == 0;
	d9t_list_add(l, D9T_A_BOLD, "Tasks by spawn location: %zu seen, %zu "
	    "spawned, %zu terminated in the window (Enter: that location's "
	    "tasks)", a->tasks_seen, a->tasks_spawned, a->tasks_terminated);
	d9t_baseline_line(app, l, cmp, "change of p99 and of the share of "
	    "polls", "");
	d9t_list_add(l, D9T_A_UNDERLINE, cmp ? "%6s %8s %9s %9s %9s %6s       "
	    "%9s %7s  %s" : "%6s %8s %9s %9s %9s %6s  %s%s%s", "tasks", "polls",
	    "poll p50", "p99", "max", "alive", cmp ? "+/-p99" : "location",
	    cmp ? "+/-%" : "", cmp ? "location" : "");
	for (size_t k = 0; cmp && app->by_change && k < c.nrows; k++) {
		if (c.rows[k].inew != SIZE_MAX)
			loc_line(app, l, a, c.rows[k].inew, &c.rows[k], 1);
		else
			d9t_list_add_safe(l, D9T_A_DIM, "  (gone: polled in the "
			    "baseline only) ", c.rows[k].name);
	}
	for (size_t i = 0; !(cmp && app->by_change) && i < a->nlocs; i++)
		loc_line(app, l, a, i, cmp ? c.row_of[i] != SIZE_MAX ?
		    &c.rows[c.row_of[i]] : NULL : NULL, cmp);
	if (cmp)
		d9t_cmp_free(&c);
	if (a->leak_ref)
		d9t_list_add(l, D9T_C_YELLOW, "reference leak rule: %zu alive at "
		    "the end = peak %zu (any trace ending at its busiest moment "
		    "looks like this)", a->leak_alive, a->leak_peak);
	lints(l, a);
	select_loc(st, l);
}

/* Enter on a location: its tasks (view_task.c); on a lint, the app
 * opens its task. */
static enum d9t_handled
tasks_key(struct d9t_app *app, void *st, enum d9t_action a)
{
	struct d9t_list *l = &app->lists[app->view];

	(void)st;
	if (a != D9T_A_OPEN_LINE || l->sel >= l->n ||
	    l->v[l->sel].target != D9T_T_LOC)
		return D9T_UNHANDLED;
	d9t_open(app, D9T_V_LOCTASKS, l->v[l->sel].a);
	return D9T_HANDLED;
}

static void
report_build(struct d9t_app *app, void *st, struct d9t_list *l)
{
	const struct d9m_analysis *a = d9t_analysis(app, 0);
	struct d9o_out o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)st;
	if (d9t_computing(l, a, "figures"))
		return;
	d9t_list_add(l, D9T_A_BOLD, "RED FLAGS (%zu; Enter on one with "
	    "evidence jumps to it)", a->nflags);
	for (size_t i = 0; i < a->nflags; i++) {
		const struct d9m_flag *fl = &a->flags[i];
		char pre[64];

		snprintf(pre, sizeof pre, "  %-8s %-22s ",
		    d9m_severity_name(fl->sev, 1), fl->check);
		d9t_list_add_wrap(l, fl->sev == D9M_CRITICAL ? D9T_C_RED |
		    D9T_A_BOLD : fl->sev == D9M_WARNING ? D9T_C_YELLOW : 0,
		    app->saving ? 0 : app->w, 4, pre, fl->text, D9T_T_FLAG,
		    (uint32_t)i);
	}
	if (a->nflags == 0)
		d9t_list_add(l, D9T_C_GREEN, "  none");
	d9t_list_add(l, 0, "%s", "");
	f = open_memstream(&buf, &len);
	if (f == NULL)
		return;
	memset(&o, 0, sizeof o);
	o.m = app->m;
	o.a = a;
	o.r = app->cfg->resolver;
	o.f = f;
	o.inputs = app->paths;
	o.ninputs = app->npaths;
	d9o_report(&o);
	fclose(f);
	for (char *p = buf, *nl; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p) - 1;
		else
			*nl = '\0';
		d9t_list_add_safe(l, 0, "", p);
	}
	free(buf);
}

/* Enter on a red flag: open what shows its evidence. */
static void
open_flag(struct d9t_app *app, const struct d9m_flag *f)
{
	struct d9t_list *l = &app->lists[D9T_V_REPORT];

	switch (f->ev) {
	case D9M_EV_POLL:
		d9t_top_view(app, D9T_V_TIMELINE);
		d9t_select_poll(app, f->poll);
		d9t_poll_msg(app, f->check, f->poll);
		return;
	case D9M_EV_TIME:
		d9t_top_view(app, D9T_V_TIMELINE);
		if (f->ev_arg != D9_NONE && f->ev_arg < app->m->nworkers)
			app->lane = f->ev_arg;
		d9t_show_time(app, f->ts);
		d9t_select_at_cursor(app);
		break;
	case D9M_EV_POI:
		d9t_open(app, D9T_V_POI, f->ev_arg);
		break;
	case D9M_EV_LOC:
		d9t_open(app, D9T_V_TASKS, f->ev_arg);
		break;
	case D9M_EV_SPAN:
		d9t_top_view(app, D9T_V_SPANS);
		d9t_open(app, D9T_V_SLOW, f->ev_arg);
		break;
	case D9M_EV_SPANS:
		d9t_top_view(app, D9T_V_SPANS);
		break;
	case D9M_EV_CPU_STACKS:
	case D9M_EV_OFF_STACKS:
		d9t_top_view(app, f->ev == D9M_EV_CPU_STACKS ? D9T_V_CPU :
		    D9T_V_OFFCPU);
		break;
	case D9M_EV_SECTION:
		if (d9t_list_find(l, f->ev_section) < 0)
			d9t_msg(app, "no %s section in the report", f->ev_section);
		return;
	default:
		d9t_msg(app, "%s: nothing more to show than this line",
		    f->check);
		return;
	}
	d9t_msg(app, "%s: %.*s", f->check, 150, f->text);
	d9t_app_dirty(app);
}

static enum d9t_handled
report_key(struct d9t_app *app, void *st, enum d9t_action a)
{
	const struct d9m_analysis *an = d9t_analysis(app, 0);
	struct d9t_list *l = &app->lists[app->view];

	(void)st;
	if (a != D9T_A_OPEN_LINE || an == NULL || l->sel >= l->n ||
	    l->v[l->sel].target != D9T_T_FLAG || l->v[l->sel].a >= an->nflags)
		return D9T_UNHANDLED;
	open_flag(app, &an->flags[l->v[l->sel].a]);
	return D9T_HANDLED;
}

static const enum d9t_action hints[] = { D9T_A_HELP, D9T_A_BACK,
	D9T_A_OPEN_LINE, D9T_A_SORT, D9T_A_SEARCH, D9T_A_SEARCH_NEXT, D9T_A_BASELINE,
	D9T_A_BY_CHANGE, D9T_A_NONE };

static const char *const task_keys[] = { "tasks", "polls", "poll p50",
	"p99", "max", "alive", NULL };

const struct d9t_view_ops d9t_view_tasks = {
	.open_first = 1, .sort_keys = task_keys,
	.name = "tasks", .tab = 2, .hints = hints, .init = tasks_init,
	.free = free, .build = tasks_build, .open = tasks_open,
	.key = tasks_key, .keeps_str = D9T_KEEPS(struct tasks_view, want_loc)
};

const struct d9t_view_ops d9t_view_report = {
	.name = "report", .tab = 7, .hints = hints, .build = report_build,
	.key = report_key
};
