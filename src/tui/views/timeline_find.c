/*
 * timeline_find.c: `/` on the timeline (views/timeline.h): a task id, a
 * spawn location or a frame of a sampled stack selects a poll; else a
 * value in span and event fields, each match shown with its lane, time
 * and poll, n/N stepping through them in time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "model/core/ids.h"
#include "model/core/timeline.h"
#include "model/queries/appev.h"
#include "model/queries/pollfind.h"
#include "tui/views/timeline.h"

/* Show match i of the last search: its lane, its time, its poll. */
static void
show_match(struct d9t_app *app, struct tl_state *ts, size_t i)
{
	const struct d9m_model *m = app->m;
	const struct d9m_match *x = &ts->match[i];
	char what[120], f[300], lane[140] = "no worker";
	const char *name;
	uint32_t fields, p = D9_NONE;

	ts->pos = i;
	if (x->kind == D9M_MATCH_EVENT) {
		uint32_t r = m->appev.row[x->row];

		name = d9m_str(m, m->custom.name[r]);
		fields = m->custom.fields[r];
		p = m->appev.poll[x->row];
	} else {
		name = m->spans.name[x->row] == D9_NONE ? "span" :
		    d9m_str(m, m->spans.name[x->row]);
		fields = m->spans.fields[x->row];
		if (x->lane != D9_NONE &&
		    (p = d9m_poll_at(m, x->lane, x->ts)) != D9_NONE &&
		    m->polls.end[p] < x->ts)
			p = D9_NONE;
	}
	if (x->lane != D9_NONE) {
		app->lane = x->lane;
		d9m_worker_label(m, m->workers[x->lane].id, what,
		    sizeof what);
		snprintf(lane, sizeof lane, "worker %s", what);
	}
	app->sel = p;
	d9t_show_time(app, x->ts);
	d9t_app_dirty(app);
	d9_text_safe(what, sizeof what, name, strlen(name));
	d9m_fields_text(m, fields, f, sizeof f);
	d9t_msg(app, "match %zu of %zu: %s %s %s on %s (n/N: next, previous)",
	    i + 1, ts->nmatch, x->kind == D9M_MATCH_EVENT ? "event" : "span",
	    what, f, lane);
}

/* A value in span and event fields: the first match after the cursor,
 * else the first; n/N step through them. -1: none. */
static int
find_value(struct d9t_app *app, struct tl_state *ts, const char *s)
{
	size_t i;

	free(ts->match);
	ts->match = NULL;
	ts->nmatch = 0;
	ts->stepping = 0;
	if (d9m_find_text(app->m, s, &ts->match, &ts->nmatch) < 0 ||
	    ts->nmatch == 0)
		return -1;
	ts->of = app->m;
	ts->stepping = 1;
	app->poi_kind = -1;
	for (i = 0; i < ts->nmatch && ts->match[i].ts <= app->cursor; i++)
		;
	show_match(app, ts, i < ts->nmatch ? i : 0);
	return 0;
}

void
d9t_tl_step_match(struct d9t_app *app, struct tl_state *ts, int dir)
{
	if (dir > 0 ? ts->pos + 1 >= ts->nmatch : ts->pos == 0) {
		d9t_msg(app, "no %s match (of %zu)", dir > 0 ? "later" :
		    "earlier", ts->nmatch);
		return;
	}
	show_match(app, ts, dir > 0 ? ts->pos + 1 : ts->pos - 1);
}

int
d9t_tl_search(struct d9t_app *app, void *st, const char *s)
{
	const struct d9m_model *m = app->m;
	struct tl_state *ts = st;
	char *end;
	unsigned long long id = strtoull(s, &end, 10);
	uint32_t best = D9_NONE, t;
	enum d9m_found how;

	ts->stepping = 0;
	if (*s && *end == '\0' && (t = d9m_task_find(m, id)) != D9_NONE) {
		/* its poll at the cursor, else its first */
		best = d9m_task_poll_at(m, t, app->cursor);
		if (best == D9_NONE && m->task_polls_off[t] <
		    m->task_polls_off[t + 1])
			best = m->task_polls[m->task_polls_off[t]];
		if (best == D9_NONE) {
			d9t_msg(app, "task %llu was never polled", id);
			return 0;
		}
		d9t_select_poll(app, best);
		d9t_poll_msg(app, "task", best);
		return 0;
	}
	/* a spawn location, else a frame of a sampled stack: the next poll
	 * after the cursor, else the first (model/queries/pollfind.h) */
	if (d9m_poll_find(m, app->cfg->resolver, s, app->cursor, &best,
	    &how) < 0)
		return -1;
	if (best == D9_NONE)
		return find_value(app, ts, s);
	d9t_select_poll(app, best);
	d9t_poll_msg(app, how == D9M_FOUND_FRAME ? "match in a sampled stack" :
	    "match", best);
	return 0;
}
