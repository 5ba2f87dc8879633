/*
 * flame.c: see flame.h. Samples are first reduced to distinct (stack,
 * segment) pairs with summed weights, so symbol lookups happen once per
 * distinct stack, not per sample.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stackcap.h"
#include "base/hmap.h"
#include "base/vec.h"
#include "base/wire.h"
#include "model/queries/flame.h"
#include "model/queries/samples.h"
#include "model/queries/window.h"

static int
want_poll(const struct d9m_model *m, const struct d9m_query *q,
    uint32_t p)
{
	if (q->task == D9_NONE && q->loc == D9_NONE)
		return 1;
	if (p == D9_NONE)
		return 0;
	return (q->task == D9_NONE || m->polls.task[p] == q->task) &&
	    (q->loc == D9_NONE || m->polls.loc[p] == q->loc);
}

int
d9m_flame_takes_alloc(const struct d9m_model *m,
    const struct d9m_query *q, size_t i)
{
	return (q->task == D9_NONE && q->loc == D9_NONE) || want_poll(m, q,
	    d9m_poll_of_tid(m, m->allocs.tid[i], m->allocs.ts[i]));
}

static int
push(struct d9m_wstack **v, size_t *n, size_t *cap, uint32_t stack,
    uint32_t seg, double w)
{
	if (d9_grow(v, cap, *n + 1, sizeof **v) < 0)
		return -1;
	(*v)[*n].stack = stack;
	(*v)[*n].seg = seg;
	(*v)[*n].w = w;
	(*v)[(*n)++].n = 1;
	return 0;
}

static int
collect_cpu(const struct d9m_model *m, const struct d9m_query *q,
    struct d9m_wstack **v, size_t *n, size_t *cap)
{
	enum d9m_cpu_class want = q->kind == D9M_F_OFF ? D9M_OFF_CPU :
	    D9M_ON_CPU;
	size_t i0, i1;

	d9m_window_rows(m->cpu.ts, m->cpu.n, &q->win, &i0, &i1);
	for (size_t i = i0; i < i1; i++) {
		if (d9m_cpu_class(m, i) != want ||
		    (d9m_query_has(q, D9M_Q_INPOLL) &&
		    m->cpu.poll[i] == D9_NONE) ||
		    !want_poll(m, q, m->cpu.poll[i]))
			continue;
		if (push(v, n, cap, m->cpu.stack[i], m->cpu.seg[i],
		    d9m_cpu_weight(m, i)) < 0)
			return -1;
	}
	return 0;
}

static int
collect_alloc(const struct d9m_model *m, const struct d9m_query *q,
    struct d9m_wstack **v, size_t *n, size_t *cap)
{
	uint8_t *live;
	size_t a0, a1;
	int rc = 0;

	if (d9m_alloc_live(m, &q->win, &a0, &a1, &live) < 0)
		return -1;
	for (size_t i = a0; i < a1 && rc == 0; i++) {
		double wb, wc;

		if (d9m_query_has(q, D9M_Q_LIVE) && !live[i - a0])
			continue;
		if (!d9m_flame_takes_alloc(m, q, i))
			continue;
		d9m_alloc_weight(m, i, &wb, &wc);
		rc = push(v, n, cap, m->allocs.stack[i], m->allocs.seg[i],
		    d9m_query_has(q, D9M_Q_COUNT) ? wc : wb);
	}
	free(live);
	return rc;
}

/* Task dumps stamped in the window, weighted by their idle gap (ns). */
static int
collect_dump(const struct d9m_model *m, const struct d9m_query *q,
    struct d9m_wstack **v, size_t *n, size_t *cap)
{
	size_t i0, i1;
	int rc = 0;

	d9m_window_rows(m->dumps.ts, m->dumps.n, &q->win, &i0, &i1);
	for (size_t i = i0; i < i1 && rc == 0; i++) {
		uint64_t idle = d9m_dump_idle(m, i);
		uint32_t t = m->dumps.task[i];

		if (idle == UINT64_MAX || (q->task != D9_NONE && t != q->task) ||
		    (q->loc != D9_NONE && m->tasks.loc[t] != q->loc))
			continue;
		rc = push(v, n, cap, m->dumps.stack[i], m->dumps.seg[i],
		    d9m_query_has(q, D9M_Q_COUNT) ? 1 : (double)idle);
	}
	return rc;
}

/* Weighted samples of the request, unsorted. */
static struct d9m_wstack *
collect(const struct d9m_model *m, const struct d9m_query *q,
    size_t *nout)
{
	struct d9m_wstack *v = NULL;
	size_t n = 0, cap = 0;
	int rc = q->kind == D9M_F_ALLOC ? collect_alloc(m, q, &v, &n, &cap) :
	    q->kind == D9M_F_DUMP ? collect_dump(m, q, &v, &n, &cap) :
	    collect_cpu(m, q, &v, &n, &cap);

	if (rc < 0) {
		free(v);
		return NULL;
	}
	*nout = n;
	return v ? v : calloc(1, sizeof *v);
}

/* A child looked for: under parent, named name (d9_hmap rows mode). */
struct want {
	struct d9m_flame	*f;
	uint32_t		 parent, name;
};

static uint64_t
key_hash(uint32_t parent, uint32_t name)
{
	return (uint64_t)parent << 32 | name;
}

static uint64_t
node_hash(const void *ctx, uint32_t row)
{
	const struct d9m_fnode *nd = &((const struct want *)ctx)->f->nodes[row];

	return key_hash(nd->parent, nd->name);
}

static int
node_eq(const void *ctx, uint32_t row)
{
	const struct want *w = ctx;
	const struct d9m_fnode *nd = &w->f->nodes[row];

	return nd->parent == w->parent && nd->name == w->name;
}

static uint32_t
node_make(void *ctx)
{
	struct want *w = ctx;
	struct d9m_flame *f = w->f;
	struct d9m_fnode *nd;

	if (d9_grow(&f->nodes, &f->cap, f->n + 1, sizeof *f->nodes) < 0)
		return D9_NONE;
	nd = &f->nodes[f->n];
	memset(nd, 0, sizeof *nd);
	nd->name = w->name;
	nd->parent = w->parent;
	nd->file = D9_NONE;
	nd->depth = f->nodes[w->parent].depth + 1;
	return (uint32_t)f->n++;
}

static const struct d9_hmap_rows node_rows = { node_hash, node_make };

/* The child of parent named name, added when new; D9_NONE out of memory. */
static uint32_t
child(struct d9m_flame *f, uint32_t parent, uint32_t name)
{
	struct want w = { f, parent, name };

	return d9_hmap_find_or_add(&f->children, key_hash(parent, name),
	    node_eq, &node_rows, &w);
}

/* The frames of a sample as the tree takes them (allocator hooks
 * stripped from allocations, the frames the request hides taken out),
 * leaf first. */
static size_t
frames(const struct d9m_flame *f, const struct d9m_model *m,
    const struct d9m_resolver *r, uint32_t seg, uint32_t stack,
    struct d9m_frame *fr)
{
	size_t n = f->req.kind == D9M_F_ALLOC ? d9m_alloc_frames(m, r, seg,
	    stack, fr, D9_STACK_MAX) : d9m_stack_frames(m, r, seg, stack, fr,
	    D9_STACK_MAX);

	return d9m_hide_frames(f->req.text, fr, n);
}

/* One distinct stack into the tree (fr: room for its frames). */
static int
insert(struct d9m_flame *f, const struct d9m_model *m,
    const struct d9m_resolver *r, const struct d9m_wstack *it,
    struct d9m_frame *fr)
{
	size_t nf = frames(f, m, r, it->seg, it->stack, fr);
	uint32_t node = 0;

	f->nodes[0].w += it->w;
	for (size_t k = 0; k < nf; k++) {
		/* root first, or leaf first when inverted */
		const struct d9m_frame *x = &fr[d9m_query_has(&f->req,
		    D9M_Q_INVERT) ? k : nf - 1 - k];
		const char *nm = d9m_frame_name(x);
		uint32_t id = d9_intern(&f->names, nm, strlen(nm));

		if (id == D9_NONE || (node = child(f, node, id)) == D9_NONE)
			return -1;
		if (f->nodes[node].w == 0 && x->file != NULL && *x->file) {
			f->nodes[node].file = d9_intern(&f->names, x->file,
			    strlen(x->file));
			f->nodes[node].line = x->line;
		}
		f->nodes[node].w += it->w;
	}
	return 0;
}

/* Whether sibling a goes before sibling b: heavier, or as heavy and
 * named first (siblings' names differ), whatever order the stacks came
 * in. */
static int
heavier(const struct d9m_flame *f, uint32_t a, uint32_t b)
{
	if (f->nodes[a].w != f->nodes[b].w)
		return f->nodes[a].w > f->nodes[b].w;
	return strcmp(d9m_flame_name(f, a), d9m_flame_name(f, b)) < 0;
}

static int
finish(struct d9m_flame *f)
{
	uint32_t *fill;

	f->kids = malloc((f->n ? f->n : 1) * sizeof *f->kids);
	fill = calloc(f->n + 1, sizeof *fill);
	if (f->kids == NULL || fill == NULL) {
		free(fill);
		return -1;
	}
	for (size_t i = 1; i < f->n; i++)
		f->nodes[f->nodes[i].parent].nkids++;
	for (size_t i = 0, sum = 0; i < f->n; i++) {
		f->nodes[i].kid0 = (uint32_t)sum;
		sum += f->nodes[i].nkids;
	}
	for (size_t i = 1; i < f->n; i++) {
		struct d9m_fnode *p = &f->nodes[f->nodes[i].parent];

		f->kids[p->kid0 + fill[f->nodes[i].parent]++] = (uint32_t)i;
	}
	free(fill);
	/* heaviest first, then by name; insertion sort per parent keeps it
	 * context-free */
	for (size_t i = 0; i < f->n; i++) {
		uint32_t *k = f->kids + f->nodes[i].kid0;

		for (size_t a = 1; a < f->nodes[i].nkids; a++) {
			uint32_t x = k[a];
			size_t b = a;

			for (; b > 0 && heavier(f, x, k[b - 1]); b--)
				k[b] = k[b - 1];
			k[b] = x;
		}
		f->nodes[i].open = i == 0 ||
		    f->nodes[i].w >= 0.1 * f->nodes[0].w;
	}
	return 0;
}

/* Distinct stacks heaviest first, then by their addresses: an order of
 * their own, not of their ids. */
static int
cmp_wstack(const void *x, const void *y, void *ctx)
{
	const struct d9m_wstack *a = x, *b = y;

	if (a->w != b->w)
		return a->w > b->w ? -1 : 1;
	return d9m_stack_seg_cmp(ctx, a->stack, a->seg, b->stack, b->seg);
}

struct d9m_flame *
d9m_flame_build(const struct d9m_model *m, const struct d9m_resolver *r,
    const struct d9m_query *q)
{
	struct d9m_flame *f = calloc(1, sizeof *f);
	struct d9m_wstack *v, *g = NULL;
	struct d9m_frame *fr;
	size_t n = 0, k = 0;

	if (f == NULL)
		return NULL;
	if ((fr = d9m_frames_alloc()) == NULL) {
		free(f);
		return NULL;
	}
	f->req = *q;
	f->req.text[sizeof f->req.text - 1] = '\0';
	d9_hmap_init(&f->children);
	d9_arena_init(&f->arena, 64 * 1024);
	d9_intern_init(&f->names, &f->arena);
	if (d9_grow(&f->nodes, &f->cap, 1, sizeof *f->nodes) < 0 ||
	    (v = collect(m, q, &n)) == NULL) {
		free(fr);
		d9m_flame_free(&f);
		return NULL;
	}
	memset(&f->nodes[0], 0, sizeof f->nodes[0]);
	f->nodes[0].parent = D9_NONE;
	f->nodes[0].file = D9_NONE;
	f->nodes[0].name = d9_intern(&f->names, "all", 3);
	f->n = 1;
	f->samples = n;
	if (d9m_wstack_merge(v, n, &g, &k) < 0)
		g = NULL;
	else	/* the ids' order is the reading's: weights summed in it
		 * round differently when the files come in another order */
		qsort_r(g, k, sizeof *g, cmp_wstack, (void *)m);
	free(v);
	for (size_t i = 0; g != NULL && i < k; i++)
		if (insert(f, m, r, &g[i], fr) < 0) {
			free(g);
			g = NULL;
		}
	free(fr);
	if (g == NULL) {
		d9m_flame_free(&f);
		return NULL;
	}
	free(g);
	d9_hmap_free(&f->children);
	if (finish(f) < 0)
		d9m_flame_free(&f);
	return f;
}

void
d9m_flame_free(struct d9m_flame **pf)
{
	struct d9m_flame *f = *pf;

	if (f == NULL)
		return;
	free(f->nodes);
	free(f->kids);
	d9_hmap_free(&f->children);
	d9_intern_free(&f->names);
	d9_arena_free(&f->arena);
	free(f);
	*pf = NULL;
}

const char *
d9m_flame_name(const struct d9m_flame *f, uint32_t node)
{
	return d9_intern_str(&f->names, f->nodes[node].name, NULL);
}

/* The shallowest node under from (not from itself) named name, in
 * breadth-first order (q: room for every node); D9_NONE when none. */
static uint32_t
find_below(const struct d9m_flame *f, uint32_t from, const char *name,
    uint32_t *q)
{
	size_t head = 0, tail = 0;

	q[tail++] = from;
	while (head < tail) {
		const struct d9m_fnode *nd = &f->nodes[q[head++]];

		for (uint32_t k = 0; k < nd->nkids; k++) {
			uint32_t c = f->kids[nd->kid0 + k];

			if (strcmp(d9m_flame_name(f, c), name) == 0)
				return c;
			if (tail < f->n)
				q[tail++] = c;
		}
	}
	return D9_NONE;
}

uint32_t
d9m_flame_find_path(const struct d9m_flame *f, const char *const *names,
    size_t n, int *last)
{
	uint32_t node = 0, *q = malloc((f->n ? f->n : 1) * sizeof *q);

	*last = 0;
	for (size_t i = 0; q != NULL && i < n; i++) {
		uint32_t c = find_below(f, node, names[i], q);

		*last = c != D9_NONE;
		if (c != D9_NONE)
			node = c;
	}
	free(q);
	return node;
}

void
d9m_flame_where(const struct d9m_flame *f, uint32_t node, char *out,
    size_t cap)
{
	const struct d9m_fnode *nd = &f->nodes[node];

	if (nd->file == D9_NONE) {
		snprintf(out, cap, "%s", "");
		return;
	}
	snprintf(out, cap, "%s:%" PRIu32, d9_intern_str(&f->names, nd->file,
	    NULL), nd->line);
}

int
d9m_flame_under(const struct d9m_flame *f, const struct d9m_model *m,
    const struct d9m_resolver *r, uint32_t seg, uint32_t stack,
    uint32_t node, struct d9m_frame *fr)
{
	size_t nf, d;

	if (node == 0 || node >= f->n)
		return 1;
	d = f->nodes[node].depth;
	nf = frames(f, m, r, seg, stack, fr);
	if (nf < d)
		return 0;
	/* node is at depth d: compare its path up to the root */
	for (uint32_t x = node; x != 0; x = f->nodes[x].parent, d--) {
		const struct d9m_frame *y = &fr[d9m_query_has(&f->req,
		    D9M_Q_INVERT) ? d - 1 : nf - d];

		if (strcmp(d9m_flame_name(f, x), d9m_frame_name(y)) != 0)
			return 0;
	}
	return 1;
}
