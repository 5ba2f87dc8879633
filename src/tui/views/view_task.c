/*
 * view_task.c: tasks one by one (ANALYSIS 22, after tokio-console's
 * first screen). Enter on a spawn location of the tasks view lists that
 * location's tasks in the window, each with its figures (polls, busy,
 * scheduled and idle time, wakes and self-wakes, its lints); Enter on a
 * task opens its detail: those figures, its lints and a histogram of its
 * poll durations (model/taskstats.h computes both, this file draws).
 * The tasks view's lints open the same detail.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/tables.h"
#include "tui/timeaxis.h"

#define TASKS_LISTED	1000	/* a location's tasks, the busiest first */
#define BAR		40	/* cells of the longest histogram bar */

struct loc_view {
	uint32_t	loc;		/* spawn location string id, D9_NONE */
};

struct task_view {
	uint32_t	task;		/* task row, D9_NONE */
};

static void *
loc_init(void)
{
	struct loc_view *v = malloc(sizeof *v);

	if (v != NULL)
		v->loc = D9_NONE;
	return v;
}

static void *
task_init(void)
{
	struct task_view *v = malloc(sizeof *v);

	if (v != NULL)
		v->task = D9_NONE;
	return v;
}

/* A view opened on something new starts at its top. */
static void
open_view(struct d9t_app *app, enum d9t_view v)
{
	app->lists[v].sel = app->lists[v].top = 0;
	app->lists[v].hscroll = 0;
	d9t_push_view(app, v);
}

/* d9t_open(app, D9T_V_LOCTASKS, loc): the tasks of spawn location loc. */
static void
loc_open(struct d9t_app *app, void *st, uint32_t loc)
{
	((struct loc_view *)st)->loc = loc;
	open_view(app, D9T_V_LOCTASKS);
}

/* d9t_open(app, D9T_V_TASK, task row): one task. */
static void
task_open(struct d9t_app *app, void *st, uint32_t task)
{
	((struct task_view *)st)->task = task;
	open_view(app, D9T_V_TASK);
}

/* The kinds of the lints of task t in a, "self-wake never-yields". */
static void
lint_kinds(const struct d9m_analysis *a, uint32_t t, char *out, size_t cap)
{
	size_t n = 0;

	out[0] = '\0';
	for (size_t i = 0; i < a->ntask_lints && n < cap; i++)
		if (a->task_lints[i].task == t) {
			int w = snprintf(out + n, cap - n, "%s%s", n ? " " : "",
			    a->task_lints[i].kind);

			if (w < 0)
				break;
			n += (size_t)w;
		}
}

/* The bytes of s beyond one a cell (a UTF-8 "µ" is one cell of two). */
static int
extra_bytes(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) == 0x80;
	return n;
}

/* Duration ns right-aligned in width cells. */
static void
dur_col(const struct d9t_app *app, uint64_t ns, int width, char *out,
    size_t cap)
{
	char d[32];

	d9t_fmt_dur(d, sizeof d, ns, app->utf8);
	snprintf(out, cap, "%*s", width + extra_bytes(d), d);
}

/* The line of one task's figures (the same columns as the header). */
static void
task_line(struct d9t_app *app, struct d9t_list *l,
    const struct d9m_analysis *a, const struct d9m_task_stat *s)
{
	char b[32], c[32], d[32], lk[64];

	dur_col(app, s->busy, 10, b, sizeof b);
	dur_col(app, s->sched, 10, c, sizeof c);
	dur_col(app, s->idle, 10, d, sizeof d);
	lint_kinds(a, s->task, lk, sizeof lk);
	d9t_list_set_target(d9t_list_add(l, lk[0] ? D9T_C_YELLOW : 0,
	    "%10" PRIu64 " %7zu %s %s %s %7zu %6zu  %s",
	    d9t_task_id(app, s->task), s->polls, b, c, d, s->wakes,
	    s->self_wakes, lk), D9T_T_TASK, s->task, 0);
}

static void
loc_build(struct d9t_app *app, void *st, struct d9t_list *l)
{
	const struct loc_view *v = st;
	const struct d9m_analysis *a = d9t_analysis(app, 1);
	const struct d9m_model *m = app->m;
	size_t n = 0;
	char loc[200];

	if (d9t_computing(l, a, "figures"))
		return;
	for (size_t i = d9m_task_stat_next(m, a, v->loc, 0);
	    i < a->ntask_stats; i = d9m_task_stat_next(m, a, v->loc, i + 1))
		n++;
	d9t_fmt_loc(app, v->loc, loc, sizeof loc);
	d9t_list_add(l, D9T_A_BOLD, "Tasks spawned at %s: %zu in the window, "
	    "the busiest first%s (Enter: a task's figures and poll "
	    "durations)", loc, n, n > TASKS_LISTED ? " (the first 1000 "
	    "listed)" : "");
	d9t_list_add(l, D9T_A_UNDERLINE, "%10s %7s %10s %10s %10s %7s %6s  %s",
	    "task", "polls", "busy", "scheduled", "idle", "wakes", "self",
	    "lints");
	for (size_t i = d9m_task_stat_next(m, a, v->loc, 0), k = 0;
	    i < a->ntask_stats && k < TASKS_LISTED;
	    i = d9m_task_stat_next(m, a, v->loc, i + 1), k++)
		task_line(app, l, a, &a->task_stats[i]);
	if (n == 0)
		d9t_list_add(l, D9T_A_DIM, "  (no task of this location polled "
		    "or woken in the window)");
	d9t_list_add(l, 0, "%s", "");
	d9t_list_set_target(d9t_list_add(l, D9T_C_CYAN, "Enter here: the "
	    "timeline with this location's polls only"), D9T_T_LOC, v->loc,
	    0);
}

/* The histogram of h: one line per bin from the first to the last that
 * holds a poll, a bar as long as its share of the fullest. */
static void
histogram(struct d9t_app *app, struct d9t_list *l,
    const struct d9m_task_hist *h)
{
	size_t k0 = 0, k1 = D9M_HIST_BINS, top = 0;

	while (k0 < D9M_HIST_BINS && h->count[k0] == 0)
		k0++;
	while (k1 > k0 && h->count[k1 - 1] == 0)
		k1--;
	for (size_t k = k0; k < k1; k++)
		if (h->count[k] > top)
			top = h->count[k];
	for (size_t k = k0; k < k1; k++) {
		char lo[32], hi[32], bar[3 * BAR + 1];
		size_t cells = top ? (h->count[k] * BAR + top - 1) / top : 0,
		    n = 0;

		dur_col(app, d9m_hist_lo(k), 9, lo, sizeof lo);
		if (k + 1 < D9M_HIST_BINS)
			d9t_fmt_dur(hi, sizeof hi, d9m_hist_lo(k + 1),
			    app->utf8);
		else
			snprintf(hi, sizeof hi, "%s", "");
		for (size_t c = 0; c < cells; c++)
			n += (size_t)snprintf(bar + n, sizeof bar - n, "%s",
			    app->utf8 ? "\xe2\x96\x88" : "#");
		bar[n] = '\0';
		d9t_list_add(l, h->count[k] ? 0 : D9T_A_DIM, "  %s..%-*s "
		    "%8zu %s", lo, 9 + extra_bytes(hi), hi, h->count[k], bar);
	}
}

static void
task_build(struct d9t_app *app, void *st, struct d9t_list *l)
{
	const struct task_view *v = st;
	const struct d9m_analysis *a = d9t_analysis(app, 1);
	const struct d9m_model *m = app->m;
	const struct d9m_task_stat *s;
	struct d9m_task_hist h;
	struct d9m_query q = D9M_QUERY_INIT;
	char loc[200], b[32], c[32], d[32], at[40];
	uint32_t t = v->task;

	if (d9t_computing(l, a, "figures") || t >= m->tasks.n)
		return;
	d9t_fmt_loc(app, m->tasks.loc[t], loc, sizeof loc);
	d9t_list_add(l, D9T_A_BOLD, "Task %" PRIu64 ", spawned at %s",
	    d9t_task_id(app, t), loc);
	if ((s = d9m_task_stat_of(a, t)) == NULL) {
		d9t_list_add(l, D9T_A_DIM, "  (not polled or woken in the "
		    "window)");
		return;
	}
	d9t_fmt_dur(b, sizeof b, s->busy, app->utf8);
	d9t_fmt_dur(c, sizeof c, s->sched, app->utf8);
	d9t_fmt_dur(d, sizeof d, s->idle, app->utf8);
	d9t_list_add(l, 0, "  polls      %zu", s->polls);
	d9t_list_add(l, 0, "  busy       %s (its polls)", b);
	d9t_list_add(l, 0, "  scheduled  %s (woken, waiting for a worker)", c);
	d9t_list_add(l, 0, "  idle       %s (alive, neither)", d);
	d9t_list_add(l, 0, "  wakes      %zu, %zu by itself", s->wakes,
	    s->self_wakes);
	if (m->tasks.spawn_ts[t] != D9M_ABSENT) {
		d9t_fmt_since(at, sizeof at, m->min_ts, m->tasks.spawn_ts[t], 6);
		d9t_list_add(l, 0, "  spawned    at %s", at);
	}
	if (m->tasks.term_ts[t] != D9M_ABSENT) {
		d9t_fmt_since(at, sizeof at, m->min_ts, m->tasks.term_ts[t], 6);
		d9t_list_add(l, 0, "  ended      at %s", at);
	} else
		d9t_list_add(l, 0, "  ended      no: alive at the trace's end");
	for (size_t i = 0; i < a->ntask_lints; i++)
		if (a->task_lints[i].task == t)
			d9t_list_add_safe(l, D9T_C_YELLOW | D9T_A_BOLD, "  lint: ",
			    a->task_lints[i].text);
	d9t_list_add(l, 0, "%s", "");
	q.win = (struct d9m_window){ app->lo, app->hi };
	q.task = t;
	d9m_task_hist(m, &q, &h);
	d9t_fmt_dur(b, sizeof b, h.max, app->utf8);
	d9t_list_add(l, D9T_A_BOLD, "Poll durations: %zu poll%s in the window"
	    "%s%s", h.polls, h.polls == 1 ? "" : "s", h.polls ? ", longest " :
	    "", h.polls ? b : "");
	histogram(app, l, &h);
	if (h.longest != D9_NONE)
		d9t_list_set_target(d9t_list_add(l, D9T_C_CYAN, "Enter here: its "
		    "longest poll (%s) on the timeline", b), D9T_T_POLL,
		    h.longest, 0);
}

static const enum d9t_action hints[] = { D9T_A_HELP, D9T_A_BACK,
	D9T_A_OPEN_LINE, D9T_A_SEARCH, D9T_A_SEARCH_NEXT, D9T_A_NONE };

const struct d9t_view_ops d9t_view_loc_tasks = {
	.open_first = 1,
	.name = "tasks of a location", .hints = hints, .init = loc_init,
	.free = free, .build = loc_build, .open = loc_open,
	.keeps_str = D9T_KEEPS(struct loc_view, loc)
};

const struct d9t_view_ops d9t_view_task = {
	.name = "task", .hints = hints, .init = task_init, .free = free,
	.build = task_build, .open = task_open,
	.keeps_task = D9T_KEEPS(struct task_view, task)
};
