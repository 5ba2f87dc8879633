/*
 * view_flame.c: views 3-5, a flame tree (model/queries/flame.h) as an indented,
 * collapsible list (icicle rows in a terminal): share of the (zoomed)
 * root, weight, frame. Nodes under 0.1 % of the root are not listed
 * (ANALYSIS 9). Each of the three views keeps its own state: the node it
 * is zoomed into and its options (off-CPU: inside polls only, or what
 * idle tasks awaited from their task dumps; allocations: by count, live
 * only). Over the allocation tree, a strip of the estimated live bytes
 * across the window of the node zoomed into (model/queries/series.h).
 * H hides frames by a pattern (model/queries/hide.h): the tree comes
 * again without them, focused (z) on the same frame, found by the names
 * of its path.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/text.h"
#include "tui/app.h"
#include "model/queries/series.h"
#include "tui/baseline.h"
#include "tui/strip.h"
#include "tui/timeaxis.h"

enum { F_CPU, F_OFF, F_ALLOC };

struct flame_view {
	int		 f;		/* F_CPU, F_OFF, F_ALLOC */
	uint32_t	 root;		/* zoomed node of seen */
	const void	*seen;		/* the tree root belongs to */
	uint64_t	 seen_gen;	/* its d9t_jobs_gen: a new tree may
					 * come at the old one's address */
	int		 inpoll;	/* off-CPU: only inside polls */
	int		 dumps;		/* off-CPU: task dumps instead */
	int		 count, live;	/* allocations: by count, live only */
	int		 invert;	/* from the leaf */
	/* nodes of the tree seen whose chain of single callees shows one
	 * frame a row (Enter on the chain's row), NULL: none */
	uint8_t		*flat;
	char		 hide[D9M_HIDE_MAX];	/* H's pattern, "": none */
	/* the frame focused on (z) as the names of its path, root end
	 * first, to find it in the next tree; npath 0: the root */
	char		**path;
	size_t		 npath;
};

/* Every chain folded again (a new tree, a new model). */
static void
refold(struct flame_view *v)
{
	free(v->flat);
	v->flat = NULL;
}

/* Back to the root: no frame focused on. */
static void
unfocus(struct flame_view *v)
{
	for (size_t i = 0; i < v->npath; i++)
		free(v->path[i]);
	free(v->path);
	v->path = NULL;
	v->npath = 0;
	v->root = 0;
}

/* Focus on node of t, and keep the names of its path. */
static void
focus(struct flame_view *v, const struct d9m_flame *t, uint32_t node)
{
	size_t n = 0;

	unfocus(v);
	for (uint32_t x = node; x != 0 && x < t->n; x = t->nodes[x].parent)
		n++;
	if ((v->path = calloc(n ? n : 1, sizeof *v->path)) == NULL)
		return;
	v->npath = n;
	for (uint32_t x = node; x != 0 && x < t->n; x = t->nodes[x].parent) {
		const char *nm = d9m_flame_name(t, x);

		if ((v->path[--n] = strdup(nm)) == NULL) {
			unfocus(v);
			return;
		}
	}
	v->root = node;
}

static void
flame_free(void *st)
{
	refold(st);
	unfocus(st);
	free(st);
}

static void *
init_kind(int f)
{
	struct flame_view *v = calloc(1, sizeof *v);

	if (v != NULL)
		v->f = f;
	return v;
}

static void *
init_cpu(void)
{
	return init_kind(F_CPU);
}

static void *
init_off(void)
{
	return init_kind(F_OFF);
}

static void *
init_alloc(void)
{
	return init_kind(F_ALLOC);
}

static void
tree_req(struct d9t_app *app, const struct flame_view *v, struct d9t_req *q)
{
	d9t_req_init(app, q);
	if (v->f == F_OFF)
		q->q.flags |= (v->inpoll ? D9M_Q_INPOLL : 0) |
		    (v->dumps ? D9M_Q_DUMPS : 0);
	if (v->f == F_ALLOC)
		q->q.flags |= (v->count ? D9M_Q_COUNT : 0) |
		    (v->live ? D9M_Q_LIVE : 0);
	if (v->invert)
		q->q.flags |= D9M_Q_INVERT;
	snprintf(q->q.text, sizeof q->q.text, "%s", v->hide);
}

static struct d9m_flame *
tree(struct d9t_app *app, struct flame_view *v)
{
	enum d9t_job k = (enum d9t_job)(D9T_J_CPU + v->f);
	struct d9t_req q;
	void *stale, *t;

	tree_req(app, v, &q);
	t = d9t_jobs_get(app->jobs, k, &q, &stale);
	if (t == NULL) {
		app->updating = 1;
		t = stale;
	}
	if (t != v->seen || d9t_jobs_gen(app->jobs, k) != v->seen_gen) {
		int found = 0;

		v->seen = t;
		v->seen_gen = d9t_jobs_gen(app->jobs, k);
		refold(v);
		/* the frame focused on, in the new tree (H, a new window) */
		v->root = t != NULL && v->npath > 0 ? d9m_flame_find_path(t,
		    (const char *const *)v->path, v->npath, &found) : 0;
		if (v->npath > 0 && !found)
			d9t_msg(app, v->root ? "the frame focused on is not in "
			    "this tree: its nearest caller is" : "the frame "
			    "focused on is not in this tree: the root is shown");
	}
	return t;
}

static void
weight(const struct d9m_flame *t, double w, char *out, size_t cap)
{
	if (t->req.kind == D9M_F_DUMP)
		d9t_fmt_dur(out, cap, (uint64_t)w, 0);
	else if (t->req.kind == D9M_F_ALLOC &&
	    !d9m_query_has(&t->req, D9M_Q_COUNT))
		d9_fmt_bytes(out, cap, w);
	else
		snprintf(out, cap, "%.0f", w);
}

/* The tree's heading, from the request the tree was computed for (not
 * the view's flags: until a new tree arrives the old one is shown). */
static void
title(struct d9t_app *app, struct d9t_list *l, const struct d9m_flame *t,
    const struct flame_view *v)
{
	static const char *const what[] = { "CPU samples (on-CPU)",
	    "off-CPU samples (context switches)", "sampled allocations" };
	const struct d9m_query *r = &t->req;
	int dumps = r->kind == D9M_F_DUMP;
	char extra[256] = "", w[32];

	if (d9m_query_has(r, D9M_Q_INVERT))
		strcat(extra, ", inverted: leaf first, callers below (r: back)");
	if (dumps)
		strcat(extra, ", weighted by idle time (a: off-CPU samples)");
	else if (v->f == F_OFF)
		strcat(extra, d9m_query_has(r, D9M_Q_INPOLL) ?
		    ", only inside polls (i: all)" :
		    ", in and out of polls (i: in polls only)");
	if (v->f == F_ALLOC)
		strcat(extra, d9m_query_has(r, D9M_Q_COUNT) ?
		    ", estimated count (B: bytes)" :
		    ", estimated bytes (B: count)");
	if (v->f == F_ALLOC && d9m_query_has(r, D9M_Q_LIVE))
		strcat(extra, ", never freed (v: all)");
	if (r->task != D9_NONE)
		snprintf(extra + strlen(extra), sizeof extra - strlen(extra),
		    ", task %" PRIu64, d9t_task_id(app, r->task));
	if (r->loc != D9_NONE) {
		char loc[120];

		d9t_fmt_loc(app, r->loc, loc, sizeof loc);
		snprintf(extra + strlen(extra), sizeof extra - strlen(extra),
		    ", spawned at %s", loc);
	}
	weight(t, t->nodes[0].w, w, sizeof w);
	d9t_list_add(l, D9T_A_BOLD, "%s in the window: %zu, weight %s%s",
	    dumps ? "task dumps (what idle tasks awaited)" :
	    what[v->f], t->samples, w, extra);
	if (t->req.text[0]) {
		char shown[3 * D9M_HIDE_MAX + 40];
		size_t o = 0;

		/* " | " between the parts: the line wraps there */
		for (const char *c = t->req.text; *c && o + 4 < sizeof shown;
		    c++) {
			if (*c == '|') {
				memcpy(shown + o, " | ", 3);
				o += 3;
			} else
				shown[o++] = *c;
		}
		snprintf(shown + o, sizeof shown - o, " (H: change; empty: "
		    "all)");
		d9t_list_add_wrap(l, D9T_C_YELLOW, app->saving ? 0 : app->w, 8,
		    "hidden: ", shown, D9T_T_NONE, 0);
	}
}

/* The liveset strip: the estimated live bytes (or count) of the node
 * zoomed into over the window, one level per column. */
static void
live_strip(struct d9t_app *app, struct d9t_list *l,
    const struct d9m_flame *t, uint32_t root)
{
	struct d9t_axis ax = { app->lo, app->hi, 0, app->w - 22 };
	uint64_t *edges;
	double *v;
	char w[32], text[4 * 512];

	if (ax.w < 8 || ax.w > 512 || ax.hi <= ax.lo)
		return;
	edges = d9t_axis_edges(&ax);
	v = malloc((size_t)ax.w * sizeof *v);
	if (edges != NULL && v != NULL &&
	    d9m_series_live(app->m, app->cfg->resolver, &t->req, t, root,
	    edges, (size_t)ax.w, v) == 0) {
		d9t_strip_text(v, (size_t)ax.w, app->utf8, text, sizeof text);
		weight(t, d9t_strip_max(v, (size_t)ax.w), w, sizeof w);
		d9t_list_add(l, app->color ? D9T_C_GREEN : 0, "live %s max %s",
		    text, w);
	}
	free(edges);
	free(v);
}

/* The same tree of the baseline window compared with t: 1 and *d
 * filled, 0 without a baseline (or while it is computed). */
static int
compare(struct d9t_app *app, const struct flame_view *v,
    const struct d9m_flame *t, struct d9t_list *l, struct d9m_fdiff *d)
{
	const struct d9m_flame *b;
	struct d9t_req q;
	int cmp;

	if (!app->have_base)
		return 0;
	tree_req(app, v, &q);
	b = d9t_baseline_get(app, (enum d9t_job)(D9T_J_CPU + v->f), &q);
	cmp = b != NULL && d9m_flame_diff(t, b, d) == 0;
	d9t_baseline_line(app, l, cmp, "change of each frame's share of the "
	    "tree", "children ");
	return cmp;
}

/* Whether node id of t shows one child (the others, if any, are under
 * the tree's cut, min) and its chain goes on through it. */
static int
single(const struct flame_view *v, const struct d9m_flame *t,
    const uint32_t *kids, uint32_t id, double min)
{
	const struct d9m_fnode *nd = &t->nodes[id];

	if (id == 0 || (v->flat != NULL && v->flat[id]))
		return 0;	/* the root, "all", stays a row of its own */
	return nd->open && nd->nkids > 0 && t->nodes[kids[nd->kid0]].w >=
	    min && (nd->nkids == 1 || t->nodes[kids[nd->kid0 + 1]].w < min);
}

/* The row of the chain of single callees from id (its names joined by
 * " > ", the middle elided when long unless saving) into out; returns
 * the chain's last node, whose children follow. */
static uint32_t
chain_text(const struct flame_view *v, const struct d9m_flame *t,
    const uint32_t *kids, uint32_t id, double min, int whole, char *out,
    size_t cap)
{
	uint32_t c[2048], n = 0, last = id;
	size_t o = 0;

	c[n++] = id;
	while (single(v, t, kids, last, min) && n < 2048)
		c[n++] = last = kids[t->nodes[last].kid0];
	out[0] = '\0';
	for (uint32_t i = 0; i < n && o + 1 < cap; i++) {
		int w;

		if (!whole && n > 4 && i == 1) {
			w = snprintf(out + o, cap - o, " > ...%u frames...",
			    n - 3);
			i = n - 3;
		} else
			w = snprintf(out + o, cap - o, "%s%s", i ? " > " : "",
			    d9m_flame_name(t, c[i]));
		if (w < 0)
			break;
		o += (size_t)w < cap - o ? (size_t)w : cap - o - 1;
	}
	return last;
}

static void
build(struct d9t_app *app, void *st, struct d9t_list *l)
{
	struct flame_view *v = st;
	struct d9m_flame *t = tree(app, v);
	struct d9m_fdiff fd;
	const uint32_t *kids;
	uint32_t root, *stk, *rows;
	size_t n = 0;
	double total;
	/* deep frames keep a third of the width for their names */
	int maxind = app->w / 3 > 8 ? app->w / 3 : 8;
	int cmp;

	if (d9t_computing(l, t, "tree"))
		return;
	title(app, l, t, v);
	cmp = compare(app, v, t, l, &fd);
	kids = cmp && app->by_change ? fd.kids : t->kids;
	root = v->root < t->n ? v->root : 0;
	total = t->nodes[root].w;
	if (root != 0)
		d9t_list_add_safe(l, D9T_C_YELLOW, "zoomed into: ",
		    d9m_flame_name(t, root));
	if (v->f == F_ALLOC)
		live_strip(app, l, t, root);
	stk = malloc((t->n + 1) * sizeof *stk);
	rows = malloc((t->n + 1) * sizeof *rows);
	if (total <= 0 || stk == NULL || rows == NULL) {
		free(stk);
		free(rows);
		if (total <= 0)
			d9t_list_add(l, D9T_A_DIM, "(nothing sampled in this "
			    "window)");
		if (cmp)
			d9m_fdiff_free(&fd);
		return;
	}
	stk[n] = root;
	rows[n++] = 0;
	while (n > 0 && (app->saving || l->n < 20000)) {
		uint32_t id = stk[--n], depth = rows[n], last;
		const struct d9m_fnode *nd = &t->nodes[id], *ln;
		int ind = 2 * (int)depth;
		char w[32], ch[16] = "", pre[640], mark[16] = "", name[4096];
		struct d9t_line *line;

		if (nd->w < total / 1000)
			continue;
		/* a chain of single callees is one row, ending at last */
		last = chain_text(v, t, kids, id, total / 1000, app->saving,
		    name, sizeof name);
		ln = &t->nodes[last];
		weight(t, nd->w, w, sizeof w);
		if (cmp)
			snprintf(ch, sizeof ch, " %+6.1f%%", 100 *
			    d9m_fdiff_change(t, &fd, id));
		if (ind > maxind && !app->saving) {	/* the depth, in figures */
			snprintf(mark, sizeof mark, "%u:", depth);
			ind = maxind - (int)strlen(mark);
		}
		snprintf(pre, sizeof pre, "%*s%s%s %5.1f%%%s %8s  ", ind, "",
		    mark, ln->nkids == 0 ? " " : ln->open ? (app->utf8 ?
		    "\xe2\x96\xbe" : "-") : (app->utf8 ? "\xe2\x96\xb8" : "+"),
		    100.0 * nd->w / total, ch, w);
		line = d9t_list_add_symbol(l, depth == 0 ? D9T_A_BOLD : 0, pre,
		    name);
		/* the row acts on the chain's last frame; b: its first */
		d9t_list_set_target(line, D9T_T_NODE, last, id);
		if (!ln->open && !app->saving)
			continue;
		for (uint32_t k = ln->nkids; k-- > 0; ) {
			stk[n] = kids[ln->kid0 + k];
			rows[n++] = depth + 1;
		}
	}
	free(stk);
	free(rows);
	if (cmp)
		d9m_fdiff_free(&fd);
}

/* The node on the selected line, D9_NONE. */
static uint32_t
node_at(struct d9t_app *app, const struct d9m_flame *t)
{
	struct d9t_list *l = &app->lists[app->view];

	if (t == NULL || l->sel >= l->n || l->v[l->sel].target != D9T_T_NODE ||
	    l->v[l->sel].a >= t->n)
		return D9_NONE;
	return l->v[l->sel].a;
}

/* What Enter on a frame tells: where it is in the source, at which
 * depth, and every filter the tree was built with. */
static void
frame_msg(struct d9t_app *app, const struct d9m_flame *t, uint32_t node)
{
	char where[300], filters[400];

	d9m_flame_where(t, node, where, sizeof where);
	d9t_filters_text(app, filters, sizeof filters);
	d9t_msg(app, "%.80s at %s, depth %" PRIu32 "; %s (q: zoom out)",
	    d9m_flame_name(t, node), where[0] ? where : "(no source line)",
	    t->nodes[node].depth, filters);
}

static enum d9t_handled
key(struct d9t_app *app, void *st, enum d9t_action a)
{
	struct flame_view *v = st;
	struct d9m_flame *t = (struct d9m_flame *)v->seen;
	uint32_t node = node_at(app, t), head;

	switch (a) {
	case D9T_A_INVERT:
		v->invert = !v->invert;
		unfocus(v);
		app->lists[app->view].sel = 0;
		d9t_msg(app, v->invert ? "inverted: each frame's children are "
		    "its callers" : "from the root");
		break;
	case D9T_A_COLLAPSE:
		if (node == D9_NONE)
			return D9T_HANDLED;
		if (t->nodes[node].open && t->nodes[node].nkids > 0)
			t->nodes[node].open = 0;
		else
			d9t_list_select(&app->lists[app->view], D9T_T_NODE,
			    t->nodes[node].parent);
		break;
	case D9T_A_BYTES: v->count = !v->count; break;
	case D9T_A_LIVESET: v->live = !v->live; break;
	case D9T_A_INPOLL: v->inpoll = !v->inpoll; break;
	case D9T_A_DUMPS:
		v->dumps = !v->dumps;
		unfocus(v);
		break;
	case D9T_A_HIDE:
		d9t_prompt_with(app, 'H', "hide frames starting with (| between"
		    ", empty: none): ", v->hide[0] ? v->hide : D9M_HIDE_DEFAULT);
		return D9T_HANDLED;
	case D9T_A_BACK:
	case D9T_A_ESCAPE:
		if (v->root == 0 && v->npath == 0)
			return D9T_UNHANDLED;
		unfocus(v);
		break;
	case D9T_A_FOLD:
		if (node == D9_NONE)
			return D9T_HANDLED;
		t->nodes[node].open = !t->nodes[node].open;
		break;
	case D9T_A_OPEN_LINE:
		if (node == D9_NONE)
			return D9T_HANDLED;
		head = (uint32_t)app->lists[app->view].v[
		    app->lists[app->view].sel].b;
		if (head != node && head < t->n && (v->flat != NULL ||
		    (v->flat = calloc(t->n, 1)) != NULL)) {
			/* a chain's row: one frame a row from its first */
			for (uint32_t c = node; c != head && c < t->n;
			    c = t->nodes[c].parent)
				v->flat[t->nodes[c].parent] = 1;
			break;
		}
		/* FALLTHROUGH */
	case D9T_A_FOCUS:
		if (node == D9_NONE)
			return D9T_HANDLED;
		if (t->nodes[node].nkids == 0) {
			frame_msg(app, t, node);
			return D9T_HANDLED;
		}
		focus(v, t, node);
		t->nodes[node].open = 1;
		app->lists[app->view].sel = 0;
		frame_msg(app, t, node);
		break;
	default:
		return D9T_UNHANDLED;
	}
	d9t_app_dirty(app);
	return D9T_HANDLED;
}

static int
search(struct d9t_app *app, void *st, const char *text)
{
	struct flame_view *v = st;
	struct d9m_flame *t = tree(app, st);
	struct d9t_list *l = &app->lists[app->view];
	size_t hits = 0;

	if (t == NULL || (v->flat == NULL && (v->flat = calloc(t->n, 1)) ==
	    NULL))
		return -1;
	for (size_t i = 1; i < t->n; i++) {
		if (!d9_text_contains(d9m_flame_name(t, (uint32_t)i), text))
			continue;
		hits++;
		/* a row of its own: the chain above ends at its parent, and
		 * its own ends at it (Enter on it focuses on it) */
		v->flat[t->nodes[i].parent] = 1;
		v->flat[i] = 1;
		for (uint32_t p = t->nodes[i].parent; p != D9_NONE;
		    p = t->nodes[p].parent)
			t->nodes[p].open = 1;
	}
	if (hits == 0)
		return -1;
	d9t_list_reset(l);
	build(app, st, l);
	l->gen = app->gen;
	l->sel = 0;
	d9t_msg(app, "%zu frame%s match '%s' (highlighted; n: next)", hits,
	    hits == 1 ? "" : "s", text);
	d9t_list_find(l, text);
	return 0;
}

/* H answered: the tree comes again without the frames text names. */
static void
hide_prompt(struct d9t_app *app, void *st, const char *text)
{
	struct flame_view *v = st;

	snprintf(v->hide, sizeof v->hide, "%s", text);
	app->lists[app->view].sel = 0;
	if (v->hide[0])
		d9t_msg(app, "hiding frames starting with %s (their callees "
		    "join their caller)", v->hide);
	else
		d9t_msg(app, "every frame shown");
	d9t_app_dirty(app);
}

static void
swap(struct d9t_app *app, void *st, const struct d9m_model *old,
    const struct d9m_model *m)
{
	struct flame_view *v = st;

	(void)app;
	(void)old;
	(void)m;
	v->seen = NULL;		/* the tree comes again for the new model */
	refold(v);
}

static const enum d9t_action hints[] = { D9T_A_HELP, D9T_A_BACK,
	D9T_A_OPEN_LINE, D9T_A_FOLD, D9T_A_FOCUS, D9T_A_HIDE, D9T_A_INVERT,
	D9T_A_SEARCH,
	D9T_A_SEARCH_NEXT, D9T_A_SAVE, D9T_A_FILTER_TASK, D9T_A_BYTES,
	D9T_A_LIVESET, D9T_A_INPOLL, D9T_A_DUMPS, D9T_A_BASELINE, D9T_A_BY_CHANGE,
	D9T_A_NONE };

/* The columns and marks of a tree, for `?`. */
static void
legend(const struct d9t_app *app, struct d9t_list *l)
{
	(void)app;
	d9t_list_add(l, 0, "  %%            the frame's share of the root "
	    "(with z: of the frame focused on)");
	d9t_list_add(l, 0, "  weight       samples, or estimated bytes or "
	    "count (allocations)");
	d9t_list_add(l, 0, "  \xe2\x96\xb8 \xe2\x96\xbe (+ -)    a folded / an open "
	    "frame");
	d9t_list_add(l, 0, "  a > b > c    a chain of single callees is one "
	    "row (Enter: a row each)");
	d9t_list_add(l, 0, "  150:         a frame too deep to indent: its "
	    "depth");
	d9t_list_add(l, 0, "  t::r::Name   a name too long for the row: its "
	    "modules cut to their first letter (s saves it whole)");
	d9t_list_add(l, 0, "  hidden       frames starting with a |-part of H's "
	    "pattern: left out");
	d9t_list_add(l, 0, "  live         allocations: estimated live bytes "
	    "over the window, scaled to its max");
	d9t_list_add(l, 0, "  delta        with a baseline (b): the change of "
	    "each frame's share");
}

/* The tree shown now (what s saves as folded stacks). */
static const struct d9m_flame *
shown(const void *st)
{
	return ((const struct flame_view *)st)->seen;
}

#define FLAME_VIEW(nm, n, make) { .open_first = 1, .name = nm, .tab = n, .hints = hints, \
	.init = make, .free = flame_free, .build = build, .key = key, \
	.search = search, .swap = swap, .flame = shown, .prompt = hide_prompt, \
	.legend = legend }

const struct d9t_view_ops d9t_view_cpu = FLAME_VIEW("cpu", 3, init_cpu);
const struct d9t_view_ops d9t_view_offcpu = FLAME_VIEW("off-cpu", 4,
    init_off);
const struct d9t_view_ops d9t_view_alloc = FLAME_VIEW("alloc", 5,
    init_alloc);

