/*
 * view_tables.c: the list views built from figures: tasks by spawn
 * location (view 2), spans by name and the slowest of one name (view 6),
 * the text report with red flags (view 7) and the key help (`?`), which
 * is generated from the key table.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "tui/app.h"
#include "tui/timeaxis.h"

static void
pct_cols(struct d9t_app *app, const struct d9m_pct *p, char *out, size_t cap)
{
	char a[32], b[32], c[32];

	d9t_fmt_dur(a, sizeof a, p->p50, app->utf8);
	d9t_fmt_dur(b, sizeof b, p->p99, app->utf8);
	d9t_fmt_dur(c, sizeof c, p->max, app->utf8);
	snprintf(out, cap, "%9s %9s %9s", a, b, c);
}

static int
computing(struct d9t_app *app, struct d9t_list *l, const void *r)
{
	if (r != NULL)
		return 0;
	(void)app;
	d9t_list_add(l, D9T_A_DIM, "computing the figures for this window...");
	return 1;
}

void
d9t_build_tasks(struct d9t_app *app, struct d9t_list *l)
{
	const struct d9m_analysis *a = d9t_analysis(app, 1);

	if (computing(app, l, a))
		return;
	d9t_list_add(l, D9T_A_BOLD, "Tasks by spawn location: %zu seen, %zu "
	    "spawned, %zu terminated in the window (Enter: timeline of that "
	    "location)", a->tasks_seen, a->tasks_spawned, a->tasks_terminated);
	d9t_list_add(l, D9T_A_UNDERLINE, "%6s %8s %9s %9s %9s %6s  %s",
	    "tasks", "polls", "poll p50", "p99", "max", "alive", "location");
	for (size_t i = 0; i < a->nlocs; i++) {
		const struct d9m_loc_fig *f = &a->locs[i];
		char pc[128], pre[256];
		int leak = a->leak_suspected && f->loc == a->leak_loc;

		pct_cols(app, &f->poll, pc, sizeof pc);
		snprintf(pre, sizeof pre, "%6zu %8zu %s %6zu%s ", f->tasks,
		    f->poll.count, pc, f->alive, leak ? " LEAK?" : "");
		d9t_list_set_target(d9t_list_add_safe(l, leak ? D9T_C_RED |
		    D9T_A_BOLD : f->poll.max > 10000000 ? D9T_C_YELLOW : 0, pre,
		    f->loc == D9_NONE ? "(unknown)" : d9m_str(app->m, f->loc)),
		    D9T_T_LOC, f->loc, 0);
	}
	if (a->leak_ref)
		d9t_list_add(l, D9T_C_YELLOW, "reference leak rule: %zu alive at "
		    "the end = peak %zu (any trace ending at its busiest moment "
		    "looks like this)", a->leak_alive, a->leak_peak);
}

static const struct d9m_spanset *
spans(struct d9t_app *app)
{
	struct d9t_req q;
	void *stale, *s;

	d9t_req_init(app, &q);
	q.task = q.loc = D9_NONE;
	snprintf(q.text, sizeof q.text, "%s", app->field);
	s = d9t_jobs_get(app->jobs, D9T_J_SPANS, &q, &stale);
	if (s == NULL) {
		app->updating = 1;
		s = stale;
	}
	return s;
}

void
d9t_build_spans(struct d9t_app *app, struct d9t_list *l)
{
	const struct d9m_spanset *s = spans(app);

	if (computing(app, l, s))
		return;
	d9t_list_add(l, D9T_A_BOLD, "Spans by name: %zu in the window, %zu "
	    "never exited%s%s%s (Enter: the slowest; f: field filter)", s->n,
	    s->unmatched, app->field[0] ? ", fields containing '" : "",
	    app->field, app->field[0] ? "'" : "");
	d9t_list_add(l, D9T_A_UNDERLINE, "%8s %9s %9s %9s  %s", "count", "p50",
	    "p99", "max", "name");
	for (size_t i = 0; i < s->nnames; i++) {
		char pc[128], pre[256];

		pct_cols(app, &s->names[i].dur, pc, sizeof pc);
		snprintf(pre, sizeof pre, "%8zu %s  ", s->names[i].dur.count, pc);
		d9t_list_set_target(d9t_list_add_safe(l, 0, pre,
		    d9m_str(app->m, s->names[i].name)), D9T_T_SPAN_NAME,
		    s->names[i].name, 0);
	}
	if (s->nnames == 0)
		d9t_list_add(l, D9T_A_DIM, "(no spans in this window)");
}

void
d9t_build_slow(struct d9t_app *app, struct d9t_list *l)
{
	const struct d9m_spanset *s = spans(app);
	const struct d9m_model *m = app->m;

	if (computing(app, l, s))
		return;
	for (size_t i = 0; i < s->nnames; i++) {
		const struct d9m_span_name *nm = &s->names[i];

		if (nm->name != app->slow_name)
			continue;
		d9t_list_add_safe(l, D9T_A_BOLD, "Slowest spans named ",
		    d9m_str(m, nm->name));
		for (size_t k = 0; k < nm->dur.count && k < 200; k++) {
			const struct d9m_span *sp = &s->v[nm->first + k];
			char d[32], st[40], f[400], pre[128];

			d9t_fmt_dur(d, sizeof d, sp->end - sp->start, app->utf8);
			d9t_fmt_rel(st, sizeof st, sp->start - m->min_ts, 6);
			d9m_fields_text(m, sp->fields, f, sizeof f);
			snprintf(pre, sizeof pre, "%9s at %s  worker %" PRIu32
			    "  ", d, st, sp->worker);
			d9t_list_set_target(d9t_list_add(l, 0, "%s%s", pre, f),
			    D9T_T_TIME, d9m_worker_slot(m, sp->worker),
			    sp->start);
		}
		return;
	}
	d9t_list_add(l, D9T_A_DIM, "(no such spans in this window)");
}

void
d9t_build_report(struct d9t_app *app, struct d9t_list *l)
{
	static const char *const sev[] = { "info", "WARNING", "CRITICAL" };
	const struct d9m_analysis *a = d9t_analysis(app, 0);
	struct d9o_out o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (computing(app, l, a))
		return;
	d9t_list_add(l, D9T_A_BOLD, "RED FLAGS (%zu; Enter on one with "
	    "evidence jumps to it)", a->nflags);
	for (size_t i = 0; i < a->nflags; i++) {
		const struct d9m_flag *fl = &a->flags[i];
		char pre[64];
		struct d9t_line *ln;

		snprintf(pre, sizeof pre, "  %-8s %-22s ", sev[fl->sev],
		    fl->check);
		ln = d9t_list_add_safe(l, fl->sev == D9M_CRITICAL ? D9T_C_RED |
		    D9T_A_BOLD : fl->sev == D9M_WARNING ? D9T_C_YELLOW : 0, pre,
		    fl->text);
		if (fl->poll != D9_NONE)
			d9t_list_set_target(ln, D9T_T_POLL, fl->poll, 0);
		else if (fl->ts)
			d9t_list_set_target(ln, D9T_T_TIME, D9_NONE, fl->ts);
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

void
d9t_build_help(struct d9t_app *app, struct d9t_list *l)
{
	enum d9t_view v = app->help_of;
	uint8_t done[D9T_A_COUNT] = { 0 };

	d9t_list_add(l, D9T_A_BOLD, "Keys of the %s view (q or Esc closes)",
	    d9t_view_name(v));
	for (size_t i = 0; i < d9t_nbindings; i++) {
		const struct d9t_binding *b = &d9t_bindings[i];
		char keys[64];

		if (!(b->views & D9T_VM(v)) || done[b->action])
			continue;
		done[b->action] = 1;
		d9t_keys_of(v, b->action, keys, sizeof keys);
		d9t_list_add(l, 0, "  %-16s %s", keys, b->help);
	}
	if (v == D9T_V_TIMELINE)
		d9t_list_add(l, 0, "  %-16s %s", "mouse",
		    "click selects a poll, the wheel zooms");
	d9t_list_add(l, D9T_A_DIM, "%s", "");
	d9t_list_add(l, D9T_A_DIM, "Views share one time window: set it in the "
	    "timeline, every figure follows it.");
}
