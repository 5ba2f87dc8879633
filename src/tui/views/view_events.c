/*
 * view_events.c: view 8, the application's own events in the window
 * (model/queries/appev.h): how many of each schema, then every event in time
 * order with its lane and fields. Enter on a schema shows only that
 * schema (again: all), f keeps events with a field value containing a
 * text, / finds a value (a request id) in spans and events alike and
 * lists the matches in time order; n steps through them and Enter on an
 * event or a match jumps to it on the timeline.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "model/queries/appev.h"
#include "model/core/ids.h"
#include "model/queries/spanset.h"
#include "tui/app.h"
#include "tui/timeaxis.h"

#define MAX_LINES	5000	/* events listed (the counts cover all) */

struct events_view {
	uint32_t	name;		/* only this schema, D9_NONE: all */
	char		field[120];	/* only events with a field value
					 * containing this, "" for all */
	char		find[120];	/* matches in spans and events */
};

static void *
events_init(void)
{
	struct events_view *v = calloc(1, sizeof *v);

	if (v != NULL)
		v->name = D9_NONE;
	return v;
}

static void
lane_text(const struct d9t_app *app, uint32_t lane, char *out, size_t cap)
{
	const struct d9m_model *m = app->m;
	char id[D9M_WORKER_LABEL];

	if (lane == D9_NONE) {
		snprintf(out, cap, "-");
		return;
	}
	d9m_worker_label(m, m->workers[lane].id, id, sizeof id);
	snprintf(out, cap, "w%s", id);
}

/* One event line: time, lane, schema, fields; Enter jumps there. */
static void
event_line(struct d9t_app *app, struct d9t_list *l, size_t i,
    const char *kind)
{
	const struct d9m_model *m = app->m;
	uint32_t r = m->appev.row[i];
	char at[40], ln[D9M_WORKER_LABEL + 1], f[600], pre[160];

	d9t_fmt_since(at, sizeof at, m->min_ts, m->custom.ts[r], 6);
	lane_text(app, m->appev.lane[i], ln, sizeof ln);
	d9m_fields_text(m, m->custom.fields[r], f, sizeof f);
	snprintf(pre, sizeof pre, "%s%12s  %-6s ", kind, at, ln);
	{
		char nm[120];
		const char *s = d9m_str(m, m->custom.name[r]);

		d9_text_safe(nm, sizeof nm, s, strlen(s));
		double key[] = { (double)m->custom.ts[r],
		    (double)m->appev.lane[i] };
		struct d9t_line *line = d9t_list_add(l, 0, "%s%-20s %s", pre,
		    nm, f);

		d9t_list_set_target(line, D9T_T_TIME, m->appev.lane[i],
		    m->custom.ts[r]);
		d9t_list_keys(line, 2, key);
	}
}

static void
matches(struct d9t_app *app, const struct events_view *v, struct d9t_list *l)
{
	const struct d9m_model *m = app->m;
	struct d9m_match *x;
	size_t n;

	if (d9m_find_text(m, v->find, &x, &n) < 0) {
		free(x);
		return;
	}
	d9t_list_add(l, D9T_A_BOLD, "Matches of '%s' in spans and events: %zu "
	    "(n: next, Enter: jump there)", v->find, n);
	for (size_t i = 0; i < n && i < MAX_LINES; i++) {
		char at[40], ln[D9M_WORKER_LABEL + 1], f[600], d[32];

		if (x[i].kind == D9M_MATCH_EVENT) {
			event_line(app, l, x[i].row, "event ");
			continue;
		}
		d9t_fmt_since(at, sizeof at, m->min_ts, x[i].ts, 6);
		lane_text(app, x[i].lane, ln, sizeof ln);
		d9t_fmt_dur(d, sizeof d, m->spans.dur[x[i].row], app->utf8);
		d9m_fields_text(m, m->spans.fields[x[i].row], f, sizeof f);
		{
			char nm[120];
			uint32_t name = m->spans.name[x[i].row];
			const char *s = name == D9_NONE ? "?" : d9m_str(m, name);

			d9_text_safe(nm, sizeof nm, s, strlen(s));
			d9t_list_set_target(d9t_list_add(l, 0, "span  %12s  %-6s "
			    "%-20s %s (%s)", at, ln, nm, f, d), D9T_T_TIME,
			    x[i].lane, x[i].ts);
		}
	}
	if (n == 0)
		d9t_list_add(l, D9T_A_DIM, "(no span or event has such a "
		    "field value)");
	d9t_list_add(l, 0, "%s", "");
	free(x);
}

static void
schemas(struct d9t_app *app, const struct events_view *v, const uint32_t *ev,
    size_t n, struct d9t_list *l)
{
	const struct d9m_model *m = app->m;
	uint32_t *name;
	size_t *count, k;

	if (d9m_appev_schemas(m, ev, n, &name, &count, &k) < 0)
		return;
	d9t_list_add(l, D9T_A_UNDERLINE, "%8s  %s", "count", "schema "
	    "(Enter: only this one, again: all)");
	for (size_t j = 0; j < k; j++) {
		char pre[32];

		snprintf(pre, sizeof pre, "%8zu  %s", count[j],
		    name[j] == v->name ? "> " : "");
		d9t_list_set_target(d9t_list_add_safe(l, 0, pre,
		    d9m_str(m, name[j])), D9T_T_EXPAND, name[j], 0);
	}
	free(name);
	free(count);
}

static void
events_build(struct d9t_app *app, void *st, struct d9t_list *l)
{
	const struct events_view *v = st;
	const struct d9m_model *m = app->m;
	struct d9m_window w = d9m_window_of(m, app->lo, app->hi);
	uint32_t *ev, *all;
	size_t n, nall;

	if (d9m_appev_select(m, &w, D9_NONE, v->field, &all, &nall) < 0 ||
	    d9m_appev_select(m, &w, v->name, v->field, &ev, &n) < 0) {
		free(all);
		return;
	}
	d9t_list_add(l, D9T_A_BOLD, "Application events: %zu in the window%s%s"
	    "%s (f: field filter, /: find a value in spans and events)", n,
	    v->field[0] ? ", fields containing '" : "", v->field,
	    v->field[0] ? "'" : "");
	if (v->find[0])
		matches(app, v, l);
	schemas(app, v, all, nall, l);
	d9t_list_add(l, D9T_A_UNDERLINE, "%12s  %-6s %-20s %s", "at", "lane",
	    "schema", "fields (Enter: jump there)");
	for (size_t i = 0; i < n && i < MAX_LINES; i++)
		event_line(app, l, ev[i], "");
	if (n > MAX_LINES)
		d9t_list_add(l, D9T_A_DIM, "(%zu more: narrow the window or "
		    "filter)", n - MAX_LINES);
	if (nall == 0)
		d9t_list_add(l, D9T_A_DIM, "(no application events in this "
		    "window)");
	free(ev);
	free(all);
}

static enum d9t_handled
events_key(struct d9t_app *app, void *st, enum d9t_action a)
{
	struct events_view *v = st;
	struct d9t_list *l = &app->lists[app->view];

	if (a == D9T_A_FIELD_FILTER) {
		d9t_prompt(app, 'f', "event field contains: ");
		return D9T_HANDLED;
	}
	if (a == D9T_A_OPEN_LINE && l->sel < l->n &&
	    l->v[l->sel].target == D9T_T_EXPAND) {
		v->name = v->name == l->v[l->sel].a ? D9_NONE : l->v[l->sel].a;
		d9t_app_dirty(app);
		return D9T_HANDLED;
	}
	return D9T_UNHANDLED;
}

static void
events_prompt(struct d9t_app *app, void *st, const char *text)
{
	struct events_view *v = st;

	snprintf(v->field, sizeof v->field, "%s", text);
	d9t_app_dirty(app);
}

/* Matches in spans and events, listed first; the first one selected. */
static int
events_search(struct d9t_app *app, void *st, const char *text)
{
	struct events_view *v = st;
	struct d9t_list *l = &app->lists[app->view];

	snprintf(v->find, sizeof v->find, "%s", text);
	d9t_app_dirty(app);
	d9t_build_list(app, l);
	l->sel = 1;		/* past the matches' heading */
	return d9t_list_find(l, text);
}

static const enum d9t_action hints[] = { D9T_A_HELP, D9T_A_BACK,
	D9T_A_OPEN_LINE, D9T_A_SORT, D9T_A_SEARCH, D9T_A_SEARCH_NEXT, D9T_A_FIELD_FILTER,
	D9T_A_NONE };

static const char *const event_keys[] = { "time", "worker", NULL };

const struct d9t_view_ops d9t_view_events = {
	.open_first = 1, .sort_keys = event_keys,
	.name = "events", .tab = 8, .hints = hints, .init = events_init,
	.free = free, .build = events_build, .key = events_key,
	.prompt = events_prompt, .search = events_search,
	.keeps_str = D9T_KEEPS(struct events_view, name)
};
