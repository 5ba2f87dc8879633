/*
 * view_flame.c: views 3-5, a flame tree as an indented, collapsible list
 * (icicle rows in a terminal): share of the (zoomed) root, weight, frame.
 * Nodes under 0.1 % of the root are not listed (ANALYSIS 9).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "tui/app.h"
#include "tui/timeaxis.h"

static struct d9m_flame *
tree(struct d9t_app *app, int f)
{
	struct d9t_req q;
	void *stale, *t;

	d9t_req_init(app, &q);
	if (f == 1)
		q.opt1 = app->off_inpoll;
	if (f == 2) {
		q.opt1 = app->alloc_count;
		q.opt2 = app->alloc_live;
	}
	t = d9t_jobs_get(app->jobs, (enum d9t_job)(D9T_J_CPU + f), &q, &stale);
	if (t == NULL) {
		app->updating = 1;
		t = stale;
	}
	if (t != app->flame_seen[f]) {
		app->flame_seen[f] = t;
		app->flame_root[f] = 0;
	}
	return t;
}

static void
weight(const struct d9m_flame *t, double w, char *out, size_t cap)
{
	if (t->req.kind == D9M_F_ALLOC && !t->req.count) {
		if (w >= 1e9)
			snprintf(out, cap, "%.1f GB", w / 1e9);
		else if (w >= 1e6)
			snprintf(out, cap, "%.1f MB", w / 1e6);
		else if (w >= 1e3)
			snprintf(out, cap, "%.1f kB", w / 1e3);
		else
			snprintf(out, cap, "%.0f B", w);
	} else
		snprintf(out, cap, "%.0f", w);
}

static void
title(struct d9t_app *app, struct d9t_list *l, const struct d9m_flame *t,
    int f)
{
	static const char *const what[] = { "CPU samples (on-CPU)",
	    "off-CPU samples (context switches)", "sampled allocations" };
	char extra[256] = "", w[32];

	if (f == 1)
		strcat(extra, app->off_inpoll ? ", only inside polls (i: all)" :
		    ", in and out of polls (i: in polls only)");
	if (f == 2)
		strcat(extra, app->alloc_count ? ", estimated count (b: bytes)" :
		    ", estimated bytes (b: count)");
	if (f == 2 && app->alloc_live)
		strcat(extra, ", never freed (v: all)");
	if (app->f_task != D9_NONE)
		snprintf(extra + strlen(extra), sizeof extra - strlen(extra),
		    ", task %" PRIu64, d9t_task_id(app, app->f_task));
	if (app->f_loc != D9_NONE) {
		char loc[120];

		d9t_fmt_loc(app, app->f_loc, loc, sizeof loc);
		snprintf(extra + strlen(extra), sizeof extra - strlen(extra),
		    ", spawned at %s", loc);
	}
	weight(t, t->nodes[0].w, w, sizeof w);
	d9t_list_add(l, D9T_A_BOLD, "%s in the window: %zu, weight %s%s", what[f],
	    t->samples, w, extra);
}

void
d9t_build_flame(struct d9t_app *app, struct d9t_list *l)
{
	int f = app->view - D9T_V_CPU;
	struct d9m_flame *t = tree(app, f);
	uint32_t root, *st;
	size_t n = 0;
	double total;

	if (t == NULL) {
		d9t_list_add(l, D9T_A_DIM, "computing the tree for this window...");
		return;
	}
	title(app, l, t, f);
	root = app->flame_root[f] < t->n ? app->flame_root[f] : 0;
	total = t->nodes[root].w;
	if (root != 0)
		d9t_list_add_safe(l, D9T_C_YELLOW, "zoomed into: ",
		    d9m_flame_name(t, root));
	if (total <= 0) {
		d9t_list_add(l, D9T_A_DIM, "(nothing sampled in this window)");
		return;
	}
	st = malloc((t->n + 1) * sizeof *st);
	if (st == NULL)
		return;
	st[n++] = root;
	while (n > 0 && l->n < 20000) {
		uint32_t id = st[--n];
		const struct d9m_fnode *nd = &t->nodes[id];
		int depth = (int)(nd->depth - t->nodes[root].depth);
		char w[32], pre[160];

		if (nd->w < total / 1000)
			continue;
		weight(t, nd->w, w, sizeof w);
		snprintf(pre, sizeof pre, "%*s%s %5.1f%% %8s  ",
		    2 * (depth > 30 ? 30 : depth), "", nd->nkids == 0 ? " " :
		    nd->open ? (app->utf8 ? "\xe2\x96\xbe" : "-") :
		    (app->utf8 ? "\xe2\x96\xb8" : "+"), 100.0 * nd->w / total, w);
		d9t_list_set_target(d9t_list_add_safe(l, depth == 0 ?
		    D9T_A_BOLD : 0, pre, d9m_flame_name(t, id)), D9T_T_NODE, id,
		    0);
		if (!nd->open)
			continue;
		for (uint32_t k = nd->nkids; k-- > 0; )
			st[n++] = t->kids[nd->kid0 + k];
	}
	free(st);
}

void
d9t_flame_action(struct d9t_app *app, enum d9t_action a)
{
	int f = app->view - D9T_V_CPU;
	struct d9t_list *l = &app->lists[app->view];
	struct d9m_flame *t;
	uint32_t node;

	if (f < 0 || f > 2)
		return;
	switch (a) {
	case D9T_A_BYTES: app->alloc_count = !app->alloc_count; break;
	case D9T_A_LIVESET: app->alloc_live = !app->alloc_live; break;
	case D9T_A_INPOLL: app->off_inpoll = !app->off_inpoll; break;
	default:
		t = (struct d9m_flame *)app->flame_seen[f];
		if (t == NULL || l->sel >= l->n ||
		    l->v[l->sel].target != D9T_T_NODE)
			return;
		node = l->v[l->sel].a;
		if (node >= t->n)
			return;
		if (a == D9T_A_FOLD)
			t->nodes[node].open = !t->nodes[node].open;
		else if (t->nodes[node].nkids > 0) {
			app->flame_root[f] = node;
			t->nodes[node].open = 1;
			l->sel = 0;
			d9t_msg(app, "zoomed in (q or Esc zooms out)");
		}
		break;
	}
	d9t_app_dirty(app);
}

int
d9t_flame_search(struct d9t_app *app, const char *text)
{
	int f = app->view - D9T_V_CPU;
	struct d9m_flame *t = tree(app, f);
	struct d9t_list *l = &app->lists[app->view];
	size_t hits = 0;

	if (t == NULL)
		return -1;
	for (size_t i = 1; i < t->n; i++) {
		if (!d9_text_contains(d9m_flame_name(t, (uint32_t)i), text))
			continue;
		hits++;
		for (uint32_t p = t->nodes[i].parent; p != D9_NONE;
		    p = t->nodes[p].parent)
			t->nodes[p].open = 1;
	}
	if (hits == 0)
		return -1;
	d9t_list_reset(l);
	d9t_build_flame(app, l);
	l->gen = app->gen;
	l->sel = 0;
	d9t_msg(app, "%zu frame%s match '%s' (highlighted; n: next)", hits,
	    hits == 1 ? "" : "s", text);
	return d9t_list_find(l, text) < 0 ? 0 : 0;
}
