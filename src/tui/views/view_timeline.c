/*
 * view_timeline.c: view 1. One lane per worker (under a runtime heading
 * when segment metadata names runtimes), one cell per column: its height
 * (eighth blocks; ASCII levels without UTF-8) is the share of the cell's
 * time spent in polls, its colour the duration class of the longest poll
 * touching it. Parked time is blank, block-in-place gaps are shaded.
 * Below: the strips (panel.h: global queue depth and alive tasks per
 * runtime, the selected worker's, the metric chosen with m as a lane),
 * then the selection and the cursor. Columns map to time through
 * timeaxis only. Its keys: the worst and the long polls, the lanes, the
 * poll detail and wake chain of the selection, metrics, search by task id
 * or spawn location, else a value in span and event fields, whose
 * matches n/N then step through in time.
 * Application events (model/queries/appev.h) are marks on their worker's lane;
 * the lanes of each source (model/core/groups.h) sit under its name.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/search.h"
#include "base/text.h"
#include "model/queries/appev.h"
#include "model/core/groups.h"
#include "model/core/ids.h"
#include "model/figures/metrics.h"
#include "model/queries/spanset.h"
#include "model/core/timeline.h"
#include "model/queries/worst.h"
#include "tui/app.h"
#include "tui/panel.h"
#include "model/queries/pollfind.h"
#include "tui/strip.h"
#include "tui/timeaxis.h"
#include "tui/views/timeline.h"

#define LABEL	D9T_TL_LABEL


static struct d9t_axis
axis(const struct d9t_app *app, int w)
{
	return d9t_timeline_axis(app, w);
}

static int
grouped(const struct d9m_model *m)
{
	for (size_t i = 0; i < m->nworkers; i++)
		if (m->workers[i].runtime != D9_NONE)
			return 1;
	return 0;
}

/* Rows of the lanes region: lane slot (lh rows each) or -1 - slot (a
 * heading); returns count. */
static int
layout(const struct d9t_app *app, int avail, int lh, int32_t *row_lane,
    int *top)
{
	const struct d9m_model *m = app->m;
	int n = 0, g = grouped(m), sel_row = 0, ng = m->groups.n > 1;
	uint32_t last = D9_NONE - 1, lastg = D9_NONE;
	int32_t all[4096];
	int total = 0;

	for (size_t s = 0; s < m->nworkers && total < 4000; s++) {
		if ((g && m->workers[s].runtime != last) ||
		    (ng && m->workers[s].group != lastg)) {
			last = m->workers[s].runtime;
			lastg = m->workers[s].group;
			all[total++] = -1 - (int32_t)s;
		}
		if (s == app->lane)
			sel_row = total;
		for (int k = 0; k < lh && total < 4000; k++)
			all[total++] = (int32_t)s;
	}
	*top = 0;
	if (total > avail && avail > 0) {
		*top = sel_row - avail / 2;
		if (*top > total - avail)
			*top = total - avail;
		if (*top < 0)
			*top = 0;
	}
	for (int r = *top; r < total && n < avail; r++)
		row_lane[n++] = all[r];
	return n;
}

/* The duration classes: a cell's colour is its longest poll's. */
static const struct {
	uint64_t	 below;	/* ns */
	uint16_t	 colour;
	const char	*name, *bound;
} classes[] = {
	{ 100000, D9T_C_GREEN, "green", "under 100 us" },
	{ 1000000, D9T_C_CYAN, "cyan", "under 1 ms" },
	{ 10000000, D9T_C_YELLOW, "yellow", "under 10 ms" },
	{ UINT64_MAX, D9T_C_RED, "red", "10 ms and longer" },
};

static uint16_t
dur_class(const struct d9t_app *app, uint64_t d)
{
	size_t i = 0;

	while (i + 1 < sizeof classes / sizeof classes[0] &&
	    d >= classes[i].below)
		i++;
	return app->color ? classes[i].colour : d > 1000000 ? D9T_A_BOLD : 0;
}

/* "  GLYPH  text", the glyph (UTF-8 or ASCII) padded by its columns. */
static void
glyph_line(struct d9t_list *l, const char *g, int cols, const char *text)
{
	d9t_list_add(l, 0, "  %s%*s %s", g, 12 - cols, "", text);
}

/* The colours, glyphs and strips of the lanes, for `?`. */
static void
legend(const struct d9t_app *app, struct d9t_list *l)
{
	int u = app->utf8;

	d9t_list_add(l, 0, "  colour       of the cell's longest poll "
	    "(no colour: bold over 1 ms)");
	for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
		d9t_list_add(l, app->color ? classes[i].colour : 0,
		    "    %-10s %s", classes[i].name, classes[i].bound);
	glyph_line(l, u ? "\u2581 .. \u2588" : "_ .. #", 6,
	    "the share of the cell's time in polls (its height)");
	glyph_line(l, u ? "\u00b7" : "blank", u ? 1 : 5, "awake, no poll (idle)");
	glyph_line(l, "blank", 5, "parked");
	glyph_line(l, u ? "\u2591" : "x", 1, "a block-in-place gap");
	glyph_line(l, u ? "\u25c6" : "*", 1, "an application event");
	glyph_line(l, "reverse", 7, "the selected poll; underline: the cursor");
	d9t_list_add(l, 0, "  strips       scaled to their max (right); "
	    "the cursor line reads them");
	d9t_list_add(l, 0, "    queue      the global queue's depth (q NAME: "
	    "per runtime)");
	d9t_list_add(l, 0, "    tasks      alive tasks (t NAME: per runtime)");
	d9t_list_add(l, 0, "    lq         the selected worker's local queue");
	d9t_list_add(l, 0, "    kw         its kernel scheduling wait (time "
	    "runnable, not running)");
	d9t_list_add(l, 0, "    cpu        its process's CPU use, in cores");
	d9t_list_add(l, 0, "    m NAME     the metric chosen with m");
	d9t_list_add(l, 0, "  A strip with nothing recorded is not drawn.");
}

static int
parked_at(const struct d9m_model *m, uint32_t s, uint64_t t)
{
	const struct d9m_worker *wk = &m->workers[s];
	size_t i = d9m_lower(d9m_row(m->parks.start, wk->park0),
	    wk->nparks, t + 1);

	return i > 0 && m->parks.end[wk->park0 + i - 1] >= t;
}

/* First application event at or after ts (appev is in time order). */
static size_t
first_event(const struct d9m_model *m, uint64_t ts)
{
	return d9_lower_rows(m->custom.ts, m->appev.row, 0, m->appev.n, ts);
}

/* A mark in each column of lane s where an application event is. */
static void
marks(struct d9t_app *app, struct d9t_canvas *cv, const struct d9t_axis *ax,
    int y, uint32_t s)
{
	const struct d9m_model *m = app->m;

	for (size_t i = first_event(m, ax->lo); i < m->appev.n; i++) {
		uint64_t t = m->custom.ts[m->appev.row[i]];
		int x;

		if (t >= ax->hi)
			break;
		if (m->appev.lane[i] != s)
			continue;
		x = d9t_axis_x(ax, t);
		if (x >= ax->x0 && x < ax->x0 + ax->w)
			d9t_canvas_putc(cv, x, y, (app->color ? D9T_C_MAGENTA :
			    0) | D9T_A_BOLD, app->utf8 ? 0x25c6 : '*');
	}
}

/* A lane's polls per column (model/queries/lanes.h): all of them, and
 * those the filters take. */
struct fcell {
	uint64_t	*all, *all_longest;
	uint64_t	*busy, *longest, *edges;
};

/* Column x of a lane lh rows tall from row y: busy of span as a bar of
 * eighths over the rows, at least one eighth; its cells in attr. */
static void
bar(struct d9t_app *app, struct d9t_canvas *cv, int x, int y, int lh,
    uint64_t busy, uint64_t span, uint16_t attr)
{
	int lvl = (int)ceil((double)busy * 8 * lh / (double)span);

	if (lvl < 1)
		lvl = 1;
	for (int r = 0; r < lh; r++, lvl -= 8)
		if (lvl > 0)
			d9t_canvas_putc(cv, x, y + lh - 1 - r, attr,
			    d9t_level_glyph(app->utf8, lvl > 8 ? 8 : lvl));
}

/* Lane of worker slot s in rows [y, y + lh). */
static void
lane(struct d9t_app *app, struct d9t_canvas *cv, const struct d9t_axis *ax,
    int y, uint32_t s, int lh, struct fcell *fc)
{
	const struct d9m_model *m = app->m;
	int filt = app->f_loc != D9_NONE || app->f_task != D9_NONE;
	int cx = d9t_axis_x(ax, app->cursor);
	uint64_t sel_s = 0, sel_e = 0;
	char id[D9M_WORKER_LABEL];
	int bottom = y + lh - 1;

	if (app->sel != D9_NONE && d9m_poll_worker(m, app->sel) == s) {
		sel_s = m->polls.start[app->sel];
		sel_e = m->polls.end[app->sel];
	}
	d9m_worker_label(m, m->workers[s].id, id, sizeof id);
	/* the label on the bottom row, with the bars' base and the marks */
	d9t_canvas_printf(cv, 0, bottom, s == app->lane ? D9T_A_REVERSE |
	    D9T_A_BOLD : D9T_A_BOLD, "w%-4.*s", LABEL - 2, id);
	for (int r = 0; r < lh; r++)
		d9t_canvas_putc(cv, LABEL - 1, y + r, D9T_A_DIM, app->utf8 ?
		    0x2502 : '|');
	if (filt)
		d9m_lane_filtered(m, s, app->f_loc, app->f_task, fc->edges,
		    (size_t)ax->w, fc->busy, fc->longest);
	d9m_lane_cells(m, app->ix, s, fc->edges, (size_t)ax->w, fc->all,
	    fc->all_longest);
	for (int x = 0; x < ax->w; x++) {
		uint64_t a = fc->edges[x], b = fc->edges[x + 1],
		    span = b > a ? b - a : 1;
		uint64_t busy = fc->all[x], longest = fc->all_longest[x];
		uint16_t attr;
		uint32_t ch;

		if (filt) {
			if (fc->longest[x]) {
				busy = fc->busy[x];
				longest = fc->longest[x];
			} else if (busy) {
				bar(app, cv, x + ax->x0, y, lh, busy, span,
				    D9T_A_DIM);
				continue;
			}
		}
		if (d9m_in_place(m, s, a, b) ||
		    (busy == 0 && longest == 0 &&
		    d9m_in_gap(m, m->workers[s].id, a, b))) {
			/* block_in_place, or a gap in the record */
			ch = app->utf8 ? 0x2591 : 'x';
			attr = app->color ? D9T_C_MAGENTA : 0;
			for (int r = 0; r + 1 < lh; r++)
				d9t_canvas_putc(cv, x + ax->x0, y + r, attr, ch);
		} else if (busy > 0 || longest > 0) {
			bar(app, cv, x + ax->x0, y, lh, busy, span,
			    dur_class(app, longest));
			for (int r = 0; r < lh && sel_e && sel_s < b &&
			    sel_e >= a; r++)	/* the selected poll, whole */
				d9t_canvas_attr(cv, x + ax->x0, y + r, 1,
				    D9T_A_REVERSE);
			if (x + ax->x0 == cx)
				d9t_canvas_attr(cv, x + ax->x0, bottom, 1,
				    D9T_A_UNDERLINE);
			continue;
		} else if (parked_at(m, s, a + span / 2)) {
			ch = ' ';
			attr = 0;
		} else {
			ch = app->utf8 ? 0x00b7 : ' ';
			attr = D9T_A_DIM;
		}
		if (sel_e && sel_s < b && sel_e >= a)
			attr |= D9T_A_REVERSE;
		if (x + ax->x0 == cx)
			attr |= D9T_A_UNDERLINE;
		d9t_canvas_putc(cv, x + ax->x0, bottom, attr, ch);
	}
	marks(app, cv, ax, bottom, s);
}

static void
axis_row(struct d9t_app *app, struct d9t_canvas *cv, const struct d9t_axis *ax,
    int y)
{
	uint64_t span = ax->hi - ax->lo, min = app->m->min_ts;
	uint64_t step = d9t_tick_step(span, ax->w, 16), t;
	int dec = step >= 1000000000ull ? 0 :
	    9 - (int)floor(log10((double)step));
	int cx = d9t_axis_x(ax, app->cursor);

	t = (ax->lo - min + step - 1) / step * step + min;
	for (; t <= ax->hi; t += step) {
		char l[40];
		int x = d9t_axis_x(ax, t);

		d9t_fmt_rel(l, sizeof l, t - min, dec);
		d9t_canvas_putc(cv, x, y, D9T_A_DIM, app->utf8 ? 0x2577 : '|');
		d9t_canvas_put(cv, x + 1, y, D9T_A_DIM, l);
		if (step == 0 || t > UINT64_MAX - step)
			break;
	}
	d9t_canvas_put(cv, 0, y, D9T_A_DIM, "time");
	/* the cursor: a mark in a blank cell, a highlight on a label */
	if (cx >= ax->x0 && cx < ax->x0 + ax->w) {
		if (d9t_canvas_ch(cv, cx, y) == ' ')
			d9t_canvas_putc(cv, cx, y, D9T_C_YELLOW | D9T_A_BOLD,
			    app->utf8 ? 0x25bc : 'v');
		else
			d9t_canvas_attr(cv, cx, y, 1, D9T_A_REVERSE);
	}
}

static void
info(struct d9t_app *app, struct d9t_canvas *cv, int y, int n,
    const char *readout)
{
	const struct d9m_model *m = app->m;
	char cur[40], d[32], st[40], loc[200], sl[200], wall[48] = "";
	char wid[D9M_WORKER_LABEL];
	int x;
	int have;
	int64_t wl = d9t_wall(m, app->cursor, &have);

	d9t_fmt_rel(cur, sizeof cur, app->cursor - m->min_ts, 6);
	if (have) {
		strcpy(wall, "  wall ");
		d9t_fmt_wall(wall + 7, sizeof wall - 7, wl, 0);
	}
	d9t_canvas_printf(cv, 0, y + n - 1, D9T_A_DIM, "cursor %s%s  active "
	    "tasks %" PRIu32 "%s%s%s", cur, wall, d9m_active_at(app->ix,
	    app->cursor), app->f_loc != D9_NONE || app->f_task != D9_NONE ?
	    "  filter on (x clears)" : "", n == 2 && *readout ? "  at it: " :
	    "", n == 2 ? readout : "");
	if (n == 3)	/* the strips at the cursor, on their own */
		d9t_canvas_printf(cv, 0, y + 1, D9T_A_DIM, "at the cursor: %s",
		    readout);
	if (app->sel == D9_NONE) {
		d9t_canvas_put(cv, 0, y, D9T_A_DIM, "no poll selected: w worst, "
		    "n/N long polls, , . cursor, j/k worker");
		return;
	}
	d9t_fmt_dur(d, sizeof d, m->polls.end[app->sel] -
	    m->polls.start[app->sel], app->utf8);
	d9t_fmt_rel(st, sizeof st, m->polls.start[app->sel] - m->min_ts, 6);
	d9t_fmt_loc(app, m->polls.loc[app->sel], sl, sizeof sl);
	d9m_worker_label(m, d9m_poll_worker_id(m, app->sel), wid, sizeof wid);
	x = d9t_canvas_printf(cv, 0, y, D9T_A_BOLD, "poll %s  task %" PRIu64
	    "  worker %s  at %s  ", d, d9t_task_id(app,
	    m->polls.task[app->sel]), wid, st);
	d9t_short_loc(sl, (size_t)(cv->w - x > 10 ? cv->w - x : 10), loc,
	    sizeof loc);
	d9t_canvas_put(cv, x, y, D9T_A_BOLD, loc);
}

/* The heading over slot s's lanes: its source, its runtime. */
static void
heading(struct d9t_app *app, struct d9t_canvas *cv, int y, uint32_t s)
{
	const struct d9m_model *m = app->m;
	uint32_t rt = m->workers[s].runtime;
	char name[100], src[300] = "", safe[220];
	int x = 0;

	if (m->groups.n > 1) {
		d9m_group_name(m, m->workers[s].group, name, sizeof name);
		d9_text_safe(safe, sizeof safe, name, strlen(name));
		snprintf(src, sizeof src, "source %u %s%s", m->workers[s].group,
		    safe, m->groups.aligned[m->workers[s].group] ? "" :
		    " (no common clock: starts with the first)");
		x = d9t_canvas_put(cv, 0, y, D9T_C_YELLOW | D9T_A_BOLD, src) +
		    2;
	}
	if (!grouped(m))
		return;
	d9t_fmt_loc(app, rt, name, sizeof name);
	d9t_canvas_printf(cv, x, y, D9T_C_CYAN | D9T_A_BOLD, "runtime %s",
	    rt == D9_NONE ? "main" : name);
}

/* Rows of the info lines in a body of rows: none when only the axis
 * and a lane would fit; a third for the readout of the strips when it
 * does not fit beside the cursor (narrow screens). */
static int
info_rows(int rows, int w, const char *readout)
{
	return rows < 4 ? 0 : rows >= 12 && 62 + strlen(readout) > (size_t)w ?
	    3 : 2;
}

/* Rows of the lanes in a body of rows: what the axis, ns strips and
 * info_n info lines leave; one, over the strips, while there is room. */
static int
lanes_room(int rows, int ns, int info_n)
{
	int left = rows - 1 - info_n;
	int avail = left - ns;

	if (avail < 1)
		avail = left < 1 ? 0 : 1;
	return avail > 512 ? 512 : avail;
}

/* Rows of each lane: one, or more when every lane fits with rows to
 * spare beyond what the panel fills (a large terminal). */
static int
lane_height(const struct d9t_app *app, int room, int want)
{
	int32_t rl[512];
	int top, lh, n = layout(app, room, 1, rl, &top), nw = 0;

	for (int r = 0; r < n; r++)
		nw += rl[r] >= 0;
	if (nw == 0)
		return 1;
	/* the room less the headings, the panel and the gap over it */
	lh = (room - want - 1 - (n - nw)) / nw;
	return lh < 1 ? 1 : lh > 16 ? 16 : lh;
}

/* Top to bottom, each only when it fits: the axis, the lanes (taller
 * when there is room), the strips (those with something recorded), the
 * panel, the info lines. */
static void
draw(struct d9t_app *app, void *st, struct d9t_canvas *cv, int y0, int rows)
{
	struct tl_state *ts = st;
	struct d9t_axis ax = axis(app, cv->w);
	int32_t rl[512];
	int ns, info_n, top, nl, left, room;
	struct fcell fc;
	struct d9t_canvas off = { 0, 0, NULL };

	if (rows < 1 || ax.w < 1)
		return;
	fc.busy = calloc(4 * (size_t)ax.w, sizeof *fc.busy);
	fc.longest = fc.busy + ax.w;
	fc.all = fc.busy + 2 * ax.w;
	fc.all_longest = fc.busy + 3 * ax.w;
	fc.edges = d9t_axis_edges(&ax);
	if (fc.busy == NULL || fc.edges == NULL ||
	    d9t_canvas_init(&off, cv->w, d9t_panel_nstrips(app)) < 0) {
		free(fc.busy);
		free(fc.edges);
		return;
	}
	/* the strips first, off screen: how many have something */
	ns = d9t_panel_strips(app, &ts->panel, &off, &ax, 0);
	info_n = info_rows(rows, cv->w, ts->panel.readout);
	axis_row(app, cv, &ax, y0);
	room = lanes_room(rows, ns, info_n);
	ts->lh = lane_height(app, room, d9t_panel_want(app, &ts->panel,
	    cv->w));
	ts->ns = ns;
	ts->info_n = info_n;
	nl = layout(app, room, ts->lh, rl, &top);
	for (int r = 0; r < nl; r++) {
		if (rl[r] < 0)
			heading(app, cv, y0 + 1 + r, (uint32_t)(-1 - rl[r]));
		else if (r == 0 || rl[r - 1] != rl[r])	/* its first row */
			lane(app, cv, &ax, y0 + 1 + r, (uint32_t)rl[r],
			    ts->lh, &fc);
	}
	left = rows - 1 - nl - info_n;
	d9t_canvas_blit(cv, y0 + 1 + nl, &off, left < ns ? left : ns);
	/* the rows between the strips and the info lines */
	d9t_panel_draw(app, &ts->panel, cv, y0 + 1 + nl + ns + 1,
	    rows - info_n - (1 + nl + ns + 1));
	if (info_n)
		info(app, cv, y0 + rows - info_n, info_n, ts->panel.readout);
	d9t_canvas_free(&off);
	free(fc.busy);
	free(fc.edges);
}

static void
click(struct d9t_app *app, void *st, int x, int y, int y0)
{
	struct tl_state *ts = st;
	struct d9t_axis ax = axis(app, app->w);
	int32_t rl[512];
	int top, nl, r = y - y0 - 1;

	/* the lanes as last drawn */
	nl = layout(app, lanes_room(app->h - y0 - 1, ts->ns, ts->info_n),
	    ts->lh, rl, &top);
	if (r >= 0 && r < nl && rl[r] >= 0)
		app->lane = (uint32_t)rl[r];
	if (x >= ax.x0)
		app->cursor = d9t_axis_t(&ax, x);
	d9t_select_at_cursor(app);
}

static void
worst(struct d9t_app *app)
{
	struct d9m_window w = { app->lo, app->hi };
	uint32_t p;

	if (app->worst_lo != app->lo || app->worst_hi != app->hi) {
		app->worst_pos = 0;
		app->worst_lo = app->lo;
		app->worst_hi = app->hi;
	}
	p = d9m_worst_next(app->m, app->ix->by_dur, &w, &app->worst_pos);
	if (p != D9_NONE) {
		d9t_select_poll(app, p);
		d9t_poll_msg(app, "worst in window", p);
		return;
	}
	app->worst_pos = 0;
	d9t_msg(app, "no more polls in the window (w starts again)");
}

/* Long polls before ref, and (stepping forward) the selection at it. */
struct long_key {
	const struct d9m_model	*m;
	const struct d9m_lanes	*ix;
	uint64_t		 ref;
	uint32_t		 sel;	/* D9_NONE: none */
};

static int
long_before(const void *ctx, size_t i)
{
	const struct long_key *k = ctx;
	uint32_t p = k->ix->longp[i];
	uint64_t t = k->m->polls.start[p];

	return t < k->ref || (t == k->ref && k->sel != D9_NONE &&
	    p == k->sel);
}

static void
step_long(struct d9t_app *app, int dir)
{
	const struct d9m_model *m = app->m;
	const struct d9m_lanes *ix = app->ix;
	uint64_t ref = app->sel != D9_NONE ? m->polls.start[app->sel] :
	    app->cursor;
	const struct long_key k = { m, ix, ref, dir > 0 ? app->sel : D9_NONE };
	size_t lo = d9_partition(0, ix->nlong, &k, long_before);

	/* lo: first long poll at or after ref (after the selection) */
	if (dir > 0 && lo < ix->nlong && ix->longp[lo] == app->sel)
		lo++;
	if (dir < 0 ? lo == 0 : lo >= ix->nlong) {
		d9t_msg(app, "no %s long poll (> 1 ms)", dir > 0 ? "later" :
		    "earlier");
		return;
	}
	lo = dir < 0 ? lo - 1 : lo;
	d9t_select_poll(app, ix->longp[lo]);
	{
		char what[64];

		snprintf(what, sizeof what, "long poll %zu of %zu", lo + 1,
		    ix->nlong);
		d9t_poll_msg(app, what, ix->longp[lo]);
	}
}

/* m: the next metric series as a lane, after the last none. */
static void
next_metric(struct d9t_app *app)
{
	const struct d9m_model *m = app->m;
	uint32_t r;

	if (m->metrics.n == 0) {
		d9t_msg(app, "this trace has no metrics");
		return;
	}
	app->metric = app->metric == D9_NONE ? 0 : app->metric + 1;
	if (app->metric >= m->metrics.n) {
		app->metric = D9_NONE;
		d9t_msg(app, "no metric lane");
	} else {
		r = app->metric;
		d9t_msg(app, "metric %s (%s%s%s), %u of %zu: m for the next",
		    d9m_str(m, m->metrics.name[r]),
		    d9m_metric_kind_name(m->metrics.kind[r]),
		    m->metrics.unit[r] != D9_NONE ? ", " : "",
		    m->metrics.unit[r] != D9_NONE ? d9m_str(m,
		    m->metrics.unit[r]) : "", r + 1, m->metrics.n);
	}
	d9t_app_dirty(app);
}

static void
chain(struct d9t_app *app)
{
	if (app->sel == D9_NONE || app->m->polls.task[app->sel] == D9_NONE) {
		d9t_msg(app, "select a poll of a task first");
		return;
	}
	d9t_open(app, D9T_V_CHAIN, app->sel);
}

/* n/N after a jump to a point of interest: the next one of its kind in
 * time, over the whole trace (computed in the background once). */
static void
step_poi(struct d9t_app *app, int dir)
{
	struct d9t_req q;
	void *stale;
	const struct d9m_pois *p;
	long i;

	d9t_req_init(app, &q);
	q.q.win = D9M_WHOLE;
	q.q.task = q.q.loc = D9_NONE;
	p = d9t_jobs_get(app->jobs, D9T_J_POIS, &q, &stale);
	if (p == NULL) {
		d9t_msg(app, "finding the points of interest of the trace... "
		    "(press again)");
		return;
	}
	i = d9m_poi_step(p, (enum d9m_poi_kind)app->poi_kind, app->poi_ts,
	    dir);
	if (i < 0) {
		d9t_msg(app, "no %s %s (p lists them)", dir > 0 ? "later" :
		    "earlier", d9m_poi_name((enum d9m_poi_kind)app->poi_kind));
		return;
	}
	d9t_poi_jump(app, &p->v[i]);
}

static enum d9t_handled
key(struct d9t_app *app, void *st, enum d9t_action a)
{
	struct tl_state *ts = st;

	switch (a) {
	case D9T_A_WORST:
		ts->stepping = 0;
		worst(app);
		break;
	case D9T_A_NEXT_LONG:
	case D9T_A_PREV_LONG:
		if (app->poi_kind < 0 && ts->stepping && ts->of == app->m)
			d9t_tl_step_match(app, ts, a == D9T_A_NEXT_LONG ? 1 : -1);
		else if (app->poi_kind >= 0)
			step_poi(app, a == D9T_A_NEXT_LONG ? 1 : -1);
		else
			step_long(app, a == D9T_A_NEXT_LONG ? 1 : -1);
		break;
	case D9T_A_CHAIN: chain(app); break;
	case D9T_A_METRIC: next_metric(app); break;
	case D9T_A_OPEN_POLL:
		if (app->sel == D9_NONE)
			d9t_msg(app, "no poll selected (w, n, or click one)");
		else
			d9t_open(app, D9T_V_DETAIL, app->sel);
		break;
	case D9T_A_LANE_UP:
		if (app->lane > 0)
			app->lane--;
		d9t_select_at_cursor(app);
		d9t_app_dirty(app);
		break;
	case D9T_A_LANE_DOWN:
		if (app->lane + 1 < app->m->nworkers)
			app->lane++;
		d9t_select_at_cursor(app);
		d9t_app_dirty(app);
		break;
	default:
		return D9T_UNHANDLED;
	}
	return D9T_HANDLED;
}

static const enum d9t_action hints[] = { D9T_A_HELP, D9T_A_BACK,
	D9T_A_WORST, D9T_A_NEXT_LONG, D9T_A_OPEN_POLL, D9T_A_CHAIN,
	D9T_A_ZOOM_IN, D9T_A_ZOOM_OUT, D9T_A_PAN_LEFT, D9T_A_GOTO,
	D9T_A_SEARCH, D9T_A_NONE };

static void *
init(void)
{
	struct tl_state *ts = calloc(1, sizeof *ts);

	if (ts != NULL)
		d9t_panel_init(&ts->panel);
	return ts;
}

static void
tl_free(void *st)
{
	struct tl_state *ts = st;

	free(ts->match);
	free(ts);
}

const struct d9t_view_ops d9t_view_timeline = {
	.name = "timeline", .tab = 1, .hints = hints, .init = init,
	.free = tl_free, .draw = draw, .click = click, .key = key,
	.search = d9t_tl_search, .legend = legend
};
