/*
 * view_poll.c: the detail pane of one poll (duration, task, spawn
 * location, worker, queue depth, scheduling delay, on-CPU and off-CPU
 * stacks grouped leaf first, spans inside it, who woke it) and the wake
 * chain anchored at a poll: each hop is the wake ANALYSIS 5.1 picks for
 * the poll, then the waker's poll running when it issued the wake.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stackcap.h"
#include "model/core/ids.h"
#include "base/wire.h"
#include "model/figures/blame.h"
#include "model/queries/samples.h"
#include "model/core/timeline.h"
#include "model/figures/verdict.h"
#include "model/queries/hide.h"
#include "model/queries/wake.h"
#include "tui/app.h"
#include "model/queries/spanset.h"
#include "tui/timeaxis.h"

#define FOLD_AT		30	/* longer stacks fold their plumbing */
#define FOLD_RUN	3	/* runs of runtime frames folded */

struct detail_view {
	uint32_t	poll;		/* the poll shown, D9_NONE */
	uint64_t	open[2];	/* per kind, unfolded stack groups */
};

/* One frame line: its name, then where it is in the source (too long
 * for the row: its module names shortened, tui/abbrev.h). */
static void
frame_line(struct d9t_list *l, const struct d9m_frame *f, int leaf)
{
	char loc[300] = "", name[900];

	if (f->file && *f->file)
		snprintf(loc, sizeof loc, "  %s:%" PRIu32, f->file, f->line);
	snprintf(name, sizeof name, "%s%s", d9m_frame_name(f), loc);
	d9t_list_set_target(d9t_list_add_symbol(l, leaf ? D9T_A_BOLD : 0,
	    leaf ? "    leaf " : "         ", name), D9T_T_FRAME, 0, 0);
}

/* The frames of stack group k (of kind off): whole, or, when long, its
 * leaf and the application's frames with each run of runtime frames
 * (model/queries/hide.h) a line Enter unfolds (or folds again). */
static void
frames(struct d9t_app *app, struct d9t_list *l, const struct detail_view *v,
    const struct d9m_stack_group *g, int off, size_t k)
{
	struct d9m_frame *fr = d9m_frames_alloc();
	size_t nf;
	int open = app->saving || (k < 64 && (v->open[off] >> k & 1));

	if (fr == NULL)
		return;
	nf = d9m_stack_frames(app->m, app->cfg->resolver, g->seg, g->stack,
	    fr, D9_STACK_MAX);
	for (size_t f = 0; f < nf; f++) {
		size_t run = !open && nf > FOLD_AT && f > 0 ?
		    d9m_plumbing_run(fr + f, nf - f) : 0;

		if (run >= FOLD_RUN) {
			d9t_list_set_target(d9t_list_add(l, D9T_C_CYAN,
			    "         %s %zu runtime frames (Enter: show them)",
			    app->utf8 ? "\xe2\x80\xa6" : "...", run),
			    D9T_T_EXPAND, (uint32_t)(off << 16 | (int)k), 0);
			f += run - 1;
			continue;
		}
		frame_line(l, &fr[f], f == 0);
	}
	if (open && !app->saving && nf > FOLD_AT)
		d9t_list_set_target(d9t_list_add(l, D9T_C_CYAN,
		    "         (%zu frames; Enter: fold)", nf), D9T_T_EXPAND,
		    (uint32_t)(off << 16 | (int)k), 0);
	free(fr);
}

static void
stacks(struct d9t_app *app, struct d9t_list *l, const struct detail_view *v,
    int off)
{
	const struct d9m_model *m = app->m;
	uint32_t *rows = NULL;
	struct d9m_stack_group *g = NULL;
	size_t n = 0, ng = 0, total = 0;
	char more[64] = "";

	if (d9m_poll_samples(m, v->poll, off ? D9M_OFF_CPU : D9M_ON_CPU, &rows,
	    &n) < 0)
		return;
	if (n == 0 || d9m_group_stacks(m, app->cfg->resolver, rows, n, &g,
	    &ng) < 0)
		ng = 0;
	for (size_t k = 0; k < ng; k++)
		total += g[k].count;
	/* a switch sampled 1 in N counts N: say both, as the report does */
	if (total > n)
		snprintf(more, sizeof more, ", for about %zu context switches",
		    total);
	d9t_list_add(l, D9T_A_BOLD, "%s stacks sampled during the poll: %zu "
	    "sample%s%s", off ? "Off-CPU" : "On-CPU", n, n == 1 ? "" : "s",
	    more);
	for (size_t k = 0; k < ng; k++) {
		d9t_list_add(l, D9T_C_CYAN, "  %zu x (%.0f%%)", g[k].count,
		    100.0 * (double)g[k].count / (double)total);
		frames(app, l, v, &g[k], off, k);
	}
	free(g);
	free(rows);
}

static void
spans_in(struct d9t_app *app, struct d9t_list *l, uint32_t p)
{
	const struct d9m_model *m = app->m;
	struct d9m_query pq = { .win = { m->polls.start[p], m->polls.end[p] },
	    .worker = D9_NONE, .group = D9_NONE, .runtime = D9_NONE,
	    .task = D9_NONE, .loc = D9_NONE };
	struct d9m_spanset *s = d9m_spanset_build(m, &pq);
	uint32_t wid = d9m_poll_worker_id(m, p);
	size_t shown = 0;

	if (s == NULL)
		return;
	for (size_t i = 0; i < s->n; i++)
		shown += s->v[i].worker == wid;
	d9t_list_add(l, D9T_A_BOLD, "Spans inside the poll: %zu", shown);
	for (size_t i = 0, k = 0; i < s->n && k < 30; i++) {
		char d[32], f[300], line[400];

		if (s->v[i].worker != wid)
			continue;
		k++;
		d9t_fmt_dur(d, sizeof d, s->v[i].end - s->v[i].start,
		    app->utf8);
		d9m_fields_text(m, s->v[i].fields, f, sizeof f);
		snprintf(line, sizeof line, "  %-10s ", d);
		d9t_list_set_target(d9t_list_add_safe(l, 0, line,
		    d9m_str(m, s->v[i].name)), D9T_T_TIME, D9_NONE,
		    s->v[i].start);
		if (f[0])
			d9t_list_add(l, D9T_A_DIM, "             %s", f);
	}
	d9m_spanset_free(&s);
}

struct chain_view {
	struct d9m_hop	hops[D9M_CHAIN_MAX];
	size_t		n;
};

#define HELD_LISTED	20	/* tasks a poll held back, listed */

/* ANALYSIS 20 both ways: who held this poll's worker while its task
 * waited, and whom this poll held back; Enter on a line opens that poll. */
static void
blame(struct d9t_app *app, struct d9t_list *l, uint32_t p)
{
	const struct d9m_model *m = app->m;
	uint32_t rows[HELD_LISTED];
	struct d9m_delayed d;
	struct d9m_held h;
	char b[32], c[32];

	d9m_held_by(m, p, &h);
	if (h.why == D9M_HELD_POLL) {
		d9t_fmt_dur(b, sizeof b, m->polls.end[h.poll] -
		    m->polls.start[h.poll], app->utf8);
		d9t_fmt_dur(c, sizeof c, h.overlap, app->utf8);
		d9t_list_set_target(d9t_list_add(l, D9T_C_CYAN, "  held by    "
		    "task %" PRIu64 "'s %s poll (%s of the wait)  Enter: its "
		    "poll", d9t_task_id(app, m->polls.task[h.poll]), b, c),
		    D9T_T_POLL, h.poll, 0);
	} else if (m->poll_sched[p] != D9M_SCHED_NONE &&
	    m->poll_sched[p] != D9M_SCHED_NO_WAKE)
		d9t_list_add(l, 0, "  held by    no poll: %s", h.why ==
		    D9M_HELD_PARKED ? "its worker was parked" :
		    "another worker's queue had it");
	d9m_delayed_by(m, p, &d, rows, HELD_LISTED);
	if (d.tasks == 0)
		return;
	d9t_fmt_dur(b, sizeof b, d.total, app->utf8);
	d9t_list_add(l, D9T_A_BOLD, "  held back  %zu task%s for %s in all%s",
	    d.tasks, d.tasks == 1 ? "" : "s", b, d.tasks > HELD_LISTED ?
	    " (the first 20 listed)" : ":");
	for (size_t i = 0; i < d.tasks && i < HELD_LISTED; i++) {
		uint32_t q = rows[i];

		d9t_fmt_dur(c, sizeof c, m->poll_sched[q], app->utf8);
		d9t_list_set_target(d9t_list_add(l, D9T_C_CYAN, "    task %"
		    PRIu64 " waited %s for its poll  Enter: that poll",
		    d9t_task_id(app, m->polls.task[q]), c), D9T_T_POLL, q, 0);
	}
}

static void *
detail_init(void)
{
	struct detail_view *v = calloc(1, sizeof *v);

	if (v != NULL)
		v->poll = D9_NONE;
	return v;
}

static void *
chain_init(void)
{
	return calloc(1, sizeof(struct chain_view));
}

static void
detail_open(struct d9t_app *app, void *st, uint32_t p)
{
	struct detail_view *v = st;

	v->poll = p;
	v->open[0] = v->open[1] = 0;
	d9t_push_view(app, D9T_V_DETAIL);
}

uint32_t
d9t_detail_poll(const struct d9t_app *app)
{
	return ((const struct detail_view *)app->vstate[D9T_V_DETAIL])->poll;
}

/* The wake chain through poll of m into v. */
static void
chain_compute(struct chain_view *v, const struct d9m_model *m, uint32_t poll)
{
	struct d9m_window all = D9M_WHOLE;

	v->n = d9m_chain(m, m->polls.task[poll], poll, m->polls.start[poll],
	    &all, v->hops, D9M_CHAIN_MAX);
}

static void
chain_open(struct d9t_app *app, void *st, uint32_t p)
{
	chain_compute(st, app->m, p);
	d9t_push_view(app, D9T_V_CHAIN);
}

const struct d9m_hop *
d9t_chain_hops(const struct d9t_app *app, size_t *n)
{
	const struct chain_view *v = app->vstate[D9T_V_CHAIN];

	*n = v->n;
	return v->hops;
}

static void
detail_build(struct d9t_app *app, void *st, struct d9t_list *l)
{
	const struct d9m_model *m = app->m;
	uint32_t p = ((struct detail_view *)st)->poll, wk;
	char d[32], at[40], loc[200], dl[32], wid[D9M_WORKER_LABEL];
	uint64_t eff = 0;
	size_t qi;

	if (p == D9_NONE)
		return;
	d9t_fmt_dur(d, sizeof d, m->polls.end[p] - m->polls.start[p],
	    app->utf8);
	d9t_fmt_rel(at, sizeof at, m->polls.start[p] - m->min_ts, 6);
	d9t_fmt_loc(app, m->polls.loc[p], loc, sizeof loc);
	d9t_list_add(l, D9T_A_BOLD, "Poll of %s%s", d,
	    m->polls.flags[p] & D9M_POLL_OPEN_ENDED ? " (open ended: no "
	    "PollEnd, ends at the next event)" : "");
	d9t_list_set_target(d9t_list_add(l, 0, "  task       %" PRIu64,
	    d9t_task_id(app, m->polls.task[p])), D9T_T_POLL, p, 0);
	d9t_list_add(l, 0, "  spawned at %s", loc);
	d9m_worker_label(m, d9m_poll_worker_id(m, p), wid, sizeof wid);
	d9t_list_add(l, 0, "  worker     %s   started %s after trace start",
	    wid, at);
	qi = d9m_lower(m->queue.ts, m->queue.n, m->polls.start[p] + 1);
	if (qi > 0)
		d9t_list_add(l, 0, "  queues     local %u, global %" PRIu32,
		    m->polls.lq[p], m->queue.global[qi - 1]);
	else
		d9t_list_add(l, 0, "  queues     local %u", m->polls.lq[p]);
	wk = d9m_wake_of(m, p, &eff);
	if (wk == D9_NONE) {
		d9t_list_add(l, 0, "  sched delay  n/a (no wake before this "
		    "poll: first poll, or task not instrumented)");
		d9t_list_add(l, 0, "  woken by   (no wake recorded)");
	} else {
		uint32_t waker = m->wakes.waker[wk];
		uint32_t wp = waker == D9_NONE ? D9_NONE :
		    d9m_task_poll_at(m, waker, m->wakes.ts[wk]);

		d9t_fmt_dur(dl, sizeof dl, m->polls.start[p] - eff, app->utf8);
		d9t_list_add(l, 0, "  sched delay  %s (wake to poll start)", dl);
		if (waker == D9_NONE)
			d9t_list_add(l, 0, "  woken by   outside any task "
			    "(I/O driver, timer or another thread)");
		else {
			char wl[200];

			d9t_fmt_loc(app, m->tasks.loc[waker], wl, sizeof wl);
			d9t_list_set_target(d9t_list_add(l, D9T_C_CYAN,
			    "  woken by   task %" PRIu64 " %s%s%s%s",
			    d9t_task_id(app, waker), m->tasks.loc[waker] !=
			    D9_NONE ? "(" : "", m->tasks.loc[waker] != D9_NONE ?
			    wl : "(spawn location unknown)", m->tasks.loc[waker] !=
			    D9_NONE ? ")" : "", wp != D9_NONE ? "  Enter: its poll" :
			    "  (not polled then)"), wp != D9_NONE ? D9T_T_POLL :
			    D9T_T_NONE, wp, 0);
		}
	}
	blame(app, l, p);
	{
		struct d9m_verdict v;
		char txt[400];

		if (d9m_poll_verdict(m, app->cfg->resolver, p, &v) == 0) {
			d9m_verdict_text(&v, txt, sizeof txt);
			d9t_list_add_wrap(l, v.kind == D9M_V_CPU || v.kind ==
			    D9M_V_UNKNOWN ? D9T_A_BOLD : D9T_C_YELLOW |
			    D9T_A_BOLD, app->saving ? 0 : app->w, 9,
			    "verdict: ", txt, D9T_T_NONE, 0);
		}
	}
	d9t_list_add(l, 0, "%s", "");
	stacks(app, l, st, 0);
	d9t_list_add(l, 0, "%s", "");
	stacks(app, l, st, 1);
	d9t_list_add(l, 0, "%s", "");
	spans_in(app, l, p);
}

static void
chain_build(struct d9t_app *app, void *st, struct d9t_list *l)
{
	const struct d9m_model *m = app->m;
	const struct chain_view *v = st;

	if (v->n == 0)
		return;
	d9t_list_add(l, D9T_A_BOLD, "Wake chain of task %" PRIu64 ": each hop "
	    "was woken by the next (Enter jumps to that poll)",
	    d9t_task_id(app, v->hops[0].task));
	for (size_t i = 0; i < v->n; i++) {
		const struct d9m_hop *h = &v->hops[i];
		char loc[200], d[32], at[40], dl[32];

		d9t_fmt_loc(app, m->tasks.loc[h->task], loc, sizeof loc);
		if (h->poll != D9_NONE) {
			d9t_fmt_dur(d, sizeof d, m->polls.end[h->poll] -
			    m->polls.start[h->poll], app->utf8);
			d9t_fmt_rel(at, sizeof at, m->polls.start[h->poll] -
			    m->min_ts, 6);
		} else {
			strcpy(d, "-");
			strcpy(at, "(not polled then)");
		}
		d9t_list_set_target(d9t_list_add(l, i == 0 ? D9T_A_BOLD : 0,
		    "#%zu task %" PRIu64 "  poll %s at %s  %s", i,
		    d9t_task_id(app, h->task), d, at, loc),
		    h->poll != D9_NONE ? D9T_T_POLL : D9T_T_NONE, h->poll, 0);
		if (h->wake == D9_NONE) {
			if (h->poll != D9_NONE)
				d9t_list_add(l, D9T_A_DIM, "     no earlier wake:"
				    " the chain starts here");
			continue;
		}
		d9t_fmt_dur(dl, sizeof dl, h->delay, app->utf8);
		if (h->waker == D9_NONE)
			d9t_list_add(l, D9T_C_CYAN, "     woken from outside any "
			    "task%s%s%s", h->poll != D9_NONE ? ", " : "",
			    h->poll != D9_NONE ? dl : "",
			    h->poll != D9_NONE ? " before its poll" : "");
		else
			d9t_list_add(l, D9T_C_CYAN, "     woken by task %"
			    PRIu64 "%s%s%s", d9t_task_id(app, h->waker),
			    h->poll != D9_NONE ? ", " : "",
			    h->poll != D9_NONE ? dl : "",
			    h->poll != D9_NONE ? " before its poll" : "");
	}
	if (v->n == D9M_CHAIN_MAX)
		d9t_list_add(l, D9T_A_DIM, "(stopped after %d hops)",
		    D9M_CHAIN_MAX);
}

static enum d9t_handled
detail_key(struct d9t_app *app, void *st, enum d9t_action a)
{
	struct detail_view *v = st;
	struct d9t_list *l = &app->lists[app->view];
	const struct d9t_line *ln = l->sel < l->n ? &l->v[l->sel] : NULL;

	if (a == D9T_A_OPEN_LINE && ln != NULL &&
	    ln->target == D9T_T_EXPAND && (ln->a & 0xffff) < 64) {
		v->open[ln->a >> 16 & 1] ^= 1ull << (ln->a & 0xffff);
		d9t_app_dirty(app);
		return D9T_HANDLED;
	}
	if (a == D9T_A_OPEN_LINE && ln != NULL && ln->target == D9T_T_FRAME) {
		char filters[400];

		d9t_filters_text(app, filters, sizeof filters);
		d9t_msg(app, "%.160s; %s", ln->text + strspn(ln->text, " "),
		    filters);
		return D9T_HANDLED;
	}
	if (a != D9T_A_CHAIN)
		return D9T_UNHANDLED;
	if (v->poll == D9_NONE || app->m->polls.task[v->poll] == D9_NONE)
		d9t_msg(app, "this poll belongs to no task");
	else
		d9t_open(app, D9T_V_CHAIN, v->poll);
	return D9T_HANDLED;
}

static void
detail_swap(struct d9t_app *app, void *st, const struct d9m_model *old,
    const struct d9m_model *m)
{
	struct detail_view *v = st;

	(void)app;
	v->poll = d9m_poll_remap(old, m, v->poll);
}

static void
chain_swap(struct d9t_app *app, void *st, const struct d9m_model *old,
    const struct d9m_model *m)
{
	struct chain_view *v = st;
	uint32_t p = v->n > 0 ? d9m_poll_remap(old, m, v->hops[0].poll) :
	    D9_NONE;

	(void)app;
	v->n = 0;
	if (p != D9_NONE)
		chain_compute(v, m, p);
}

/* What the detail's lines say, for `?`. */
static void
detail_legend(const struct d9t_app *app, struct d9t_list *l)
{
	d9t_list_add(l, 0, "  verdict      what the poll's samples say it ran or "
	    "waited on: cpu, preempted, lock, sleep, io, fault, blocked, "
	    "off-cpu, unknown (too few samples to tell)");
	d9t_list_add(l, 0, "  held by      the poll that kept this task from "
	    "its worker after its wake (Enter: that poll)");
	d9t_list_add(l, 0, "  held back    tasks that waited for a worker "
	    "while this poll ran, and their waits' share in it");
	d9t_list_add(l, 0, "  N x (P%%)     N samples had the stack below: P "
	    "%% of the poll's");
	d9t_list_add(l, 0, "  leaf         the frame the sample was taken in; "
	    "its callers below it");
	d9t_list_add(l, 0, "  %s N runtime  the runtime's own frames (tokio, "
	    "std, core), folded: Enter shows them", app->utf8 ? "\u2026" :
	    "...");
	d9t_list_add(l, 0, "  t::r::Name   a name too long for the row: its "
	    "modules cut to their first letter (s saves it whole)");
}

static const enum d9t_action hints[] = { D9T_A_HELP, D9T_A_BACK,
	D9T_A_OPEN_LINE, D9T_A_CHAIN, D9T_A_SEARCH, D9T_A_SEARCH_NEXT,
	D9T_A_NONE };

const struct d9t_view_ops d9t_view_detail = {
	.name = "poll", .hints = hints, .init = detail_init, .free = free,
	.build = detail_build, .key = detail_key, .swap = detail_swap,
	.open = detail_open, .legend = detail_legend
};

const struct d9t_view_ops d9t_view_chain = {
	.name = "wake chain", .hints = hints, .init = chain_init,
	.free = free, .build = chain_build, .swap = chain_swap,
	.open = chain_open
};
