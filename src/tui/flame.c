/*
 * flame.c: see flame.h. Samples are first reduced to distinct (stack,
 * segment) pairs with summed weights, so symbol lookups happen once per
 * distinct stack, not per sample.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "base/wire.h"
#include "model/analysis.h"
#include "model/table.h"
#include "model/timeline.h"
#include "tui/flame.h"

struct item {
	uint32_t	stack, seg;
	double		w;
};

/* Items of one (stack, segment) merged into one, by (stack, segment),
 * weights added in sample order: a stable radix sort of packed keys. */
static struct item *
merge_items(struct item *v, size_t n, size_t *nout)
{
	uint64_t *key = malloc((n ? n : 1) * sizeof *key);
	uint32_t *p = malloc((n ? n : 1) * sizeof *p);
	struct item *g = malloc((n ? n : 1) * sizeof *g);
	size_t k = 0;

	for (size_t i = 0; key != NULL && i < n; i++)
		key[i] = (uint64_t)v[i].stack << 32 | v[i].seg;
	if (key == NULL || p == NULL || g == NULL ||
	    d9m_sort_perm(key, n, p) < 0) {
		free(g);
		g = NULL;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && key[p[i]] == key[p[i - 1]])
			g[k - 1].w += v[p[i]].w;
		else
			g[k++] = v[p[i]];
	}
	*nout = k;
out:
	free(key);
	free(p);
	return g;
}

uint32_t
d9t_poll_of_tid(const struct d9m_model *m, uint32_t tid, uint64_t ts)
{
	uint32_t w = D9_NONE, slot, p;

	for (size_t i = 0; i < m->tidmap_n; i++)
		if (m->tidmap_tid[i] == tid)
			w = m->tidmap_worker[i];
	slot = w == D9_NONE ? D9_NONE : d9m_worker_slot(m, w);
	if (slot == D9_NONE)
		return D9_NONE;
	p = d9m_poll_at(m, slot, ts);
	return p != D9_NONE && ts <= m->polls.end[p] ? p : D9_NONE;
}

static int
want_poll(const struct d9m_model *m, const struct d9t_flame_req *q,
    uint32_t p)
{
	if (q->task == D9_NONE && q->loc == D9_NONE)
		return 1;
	if (p == D9_NONE)
		return 0;
	return (q->task == D9_NONE || m->polls.task[p] == q->task) &&
	    (q->loc == D9_NONE || m->polls.loc[p] == q->loc);
}

/* Weighted items of the request, unsorted. */
static struct item *
collect(const struct d9m_model *m, const struct d9t_index *ix,
    const struct d9t_flame_req *q, size_t *nout)
{
	struct item *v = NULL;
	size_t n = 0, cap = 0;

	if (q->kind != D9T_F_ALLOC) {
		size_t i = d9t_lower(m->cpu.ts, m->cpu.n, q->lo);

		for (; i < m->cpu.n && m->cpu.ts[i] <= q->hi; i++) {
			int sched = m->cpu.source[i] == D9_SOURCE_SCHED;

			if ((q->kind == D9T_F_OFF) != sched)
				continue;
			if (q->inpoll && m->cpu.poll[i] == D9_NONE)
				continue;
			if (!want_poll(m, q, m->cpu.poll[i]))
				continue;
			if (d9_grow(&v, &cap, n + 1, sizeof *v) < 0)
				goto oom;
			v[n].stack = m->cpu.stack[i];
			v[n].seg = m->cpu.seg[i];
			v[n++].w = 1;
		}
	} else {
		const char *rs = d9m_meta_get(m, "memory.sample_rate_bytes");
		double rate = rs ? strtod(rs, NULL) : 0;
		size_t i = d9t_lower(m->allocs.ts, m->allocs.n, q->lo);

		if (!(rate > 0))
			rate = 524288;
		for (; i < m->allocs.n && m->allocs.ts[i] <= q->hi; i++) {
			double s = (double)m->allocs.size[i], p;

			if (q->liveset && d9t_freed(m, ix, i))
				continue;
			if ((q->task != D9_NONE || q->loc != D9_NONE) &&
			    !want_poll(m, q, d9t_poll_of_tid(m,
			    m->allocs.tid[i], m->allocs.ts[i])))
				continue;
			if (d9_grow(&v, &cap, n + 1, sizeof *v) < 0)
				goto oom;
			p = s > 0 ? 1 - exp(-s / rate) : 1;
			v[n].stack = m->allocs.stack[i];
			v[n].seg = m->allocs.seg[i];
			if (q->count)
				v[n++].w = p > 0 ? 1 / p : 1;
			else
				v[n++].w = s <= 0 ? 0 : s / rate > 50 ? s : s / p;
		}
	}
	*nout = n;
	return v ? v : calloc(1, sizeof *v);
oom:
	free(v);
	return NULL;
}

static uint32_t
slot_hash(uint32_t parent, uint32_t name)
{
	uint64_t h = ((uint64_t)parent << 32 | name) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32);
}

static int
rehash(struct d9t_flame *f)
{
	size_t ns = f->nslots ? f->nslots * 2 : 1024;
	uint32_t *s = calloc(ns, sizeof *s);

	if (s == NULL)
		return -1;
	for (size_t i = 1; i < f->n; i++) {
		size_t k = slot_hash(f->nodes[i].parent, f->nodes[i].name) &
		    (ns - 1);

		while (s[k])
			k = (k + 1) & (ns - 1);
		s[k] = (uint32_t)i + 1;
	}
	free(f->slots);
	f->slots = s;
	f->nslots = ns;
	return 0;
}

static uint32_t
child(struct d9t_flame *f, uint32_t parent, uint32_t name)
{
	size_t k;
	struct d9t_fnode *nd;

	if ((f->n + 1) * 2 > f->nslots && rehash(f) < 0)
		return D9_NONE;
	k = slot_hash(parent, name) & (f->nslots - 1);
	for (; f->slots[k]; k = (k + 1) & (f->nslots - 1)) {
		nd = &f->nodes[f->slots[k] - 1];
		if (nd->parent == parent && nd->name == name)
			return f->slots[k] - 1;
	}
	if (d9_grow(&f->nodes, &f->cap, f->n + 1, sizeof *f->nodes) < 0)
		return D9_NONE;
	nd = &f->nodes[f->n];
	memset(nd, 0, sizeof *nd);
	nd->name = name;
	nd->parent = parent;
	nd->depth = f->nodes[parent].depth + 1;
	f->slots[k] = (uint32_t)f->n + 1;
	return (uint32_t)f->n++;
}

static int
insert(struct d9t_flame *f, const struct d9m_model *m,
    const struct d9m_resolver *r, const struct item *it)
{
	struct d9m_frame fr[256];
	size_t nf = f->req.kind == D9T_F_ALLOC ?
	    d9m_alloc_frames(m, r, it->seg, it->stack, fr, 256) :
	    d9m_stack_frames(m, r, it->seg, it->stack, fr, 256);
	uint32_t node = 0;

	f->nodes[0].w += it->w;
	for (size_t i = nf; i-- > 0; ) {
		const char *nm = d9m_frame_name(&fr[i]);
		uint32_t id = d9_intern(&f->names, nm, strlen(nm));

		if (id == D9_NONE || (node = child(f, node, id)) == D9_NONE)
			return -1;
		f->nodes[node].w += it->w;
	}
	return 0;
}

static int
finish(struct d9t_flame *f)
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
		struct d9t_fnode *p = &f->nodes[f->nodes[i].parent];

		f->kids[p->kid0 + fill[f->nodes[i].parent]++] = (uint32_t)i;
	}
	free(fill);
	/* heaviest first; insertion sort per parent keeps it context-free */
	for (size_t i = 0; i < f->n; i++) {
		uint32_t *k = f->kids + f->nodes[i].kid0;

		for (size_t a = 1; a < f->nodes[i].nkids; a++) {
			uint32_t x = k[a];
			size_t b = a;

			for (; b > 0 && f->nodes[k[b - 1]].w < f->nodes[x].w; b--)
				k[b] = k[b - 1];
			k[b] = x;
		}
		f->nodes[i].open = i == 0 ||
		    f->nodes[i].w >= 0.1 * f->nodes[0].w;
	}
	return 0;
}

struct d9t_flame *
d9t_flame_build(const struct d9m_model *m, const struct d9t_index *ix,
    const struct d9m_resolver *r, const struct d9t_flame_req *q)
{
	struct d9t_flame *f = calloc(1, sizeof *f);
	struct item *v, *g;
	size_t n = 0, k = 0;

	if (f == NULL)
		return NULL;
	f->req = *q;
	d9_arena_init(&f->arena, 64 * 1024);
	d9_intern_init(&f->names, &f->arena);
	if (d9_grow(&f->nodes, &f->cap, 1, sizeof *f->nodes) < 0 ||
	    (v = collect(m, ix, q, &n)) == NULL) {
		d9t_flame_free(&f);
		return NULL;
	}
	memset(&f->nodes[0], 0, sizeof f->nodes[0]);
	f->nodes[0].parent = D9_NONE;
	f->nodes[0].name = d9_intern(&f->names, "all", 3);
	f->n = 1;
	f->samples = n;
	g = merge_items(v, n, &k);
	free(v);
	for (size_t i = 0; g != NULL && i < k; i++)
		if (insert(f, m, r, &g[i]) < 0) {
			free(g);
			g = NULL;
		}
	if (g == NULL) {
		d9t_flame_free(&f);
		return NULL;
	}
	free(g);
	free(f->slots);
	f->slots = NULL;
	if (finish(f) < 0)
		d9t_flame_free(&f);
	return f;
}

void
d9t_flame_free(struct d9t_flame **pf)
{
	struct d9t_flame *f = *pf;

	if (f == NULL)
		return;
	free(f->nodes);
	free(f->kids);
	free(f->slots);
	d9_intern_free(&f->names);
	d9_arena_free(&f->arena);
	free(f);
	*pf = NULL;
}

const char *
d9t_flame_name(const struct d9t_flame *f, uint32_t node)
{
	return d9_intern_str(&f->names, f->nodes[node].name, NULL);
}
