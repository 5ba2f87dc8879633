/*
 * byname.c: see byname.h. Each address is named once per call (its
 * frames' names joined and interned as a chunk); a stack's key is its
 * chunks' ids, interned in the same table; groups then merge by key.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/hmap.h"
#include "base/intern.h"
#include "base/stackcap.h"
#include "base/vec.h"
#include "base/wire.h"
#include "model/core/twins.h"
#include "model/figures/byname.h"
#include "model/queries/samples.h"

#define MAX_INLINE	64	/* frames one address expands to */

/*
 * What one address of a segment shows: its frames' names (inline levels
 * included), joined and interned as a chunk. Stacks share most of their
 * addresses, so each is named once per call: entries chained by address
 * in a map of the first entry per address.
 */
struct chunk {
	uint64_t	addr;
	uint32_t	seg;
	uint32_t	id;		/* in names */
	uint32_t	next;		/* entry of the same address, D9_NONE */
	uint8_t		ret;		/* looked up as a return address */
	uint8_t		hook;		/* an allocator hook's */
};

struct memo {
	const struct d9m_model		*m;
	const struct d9m_resolver	*r;
	struct d9_hmap			 byaddr;	/* chunk_key -> first entry */
	struct chunk			*v;
	size_t				 n, cap;
	struct d9_intern		 names;		/* chunks, then stacks */
	struct d9m_frame		 f[MAX_INLINE];
	char				 buf[16384];
};

/* The map's key of (seg, addr, ret): entries that share one are chained
 * (a directory's segments share addresses: keying by the address alone
 * made every lookup walk one entry per segment). */
static uint64_t
chunk_key(uint32_t seg, uint64_t addr, int ret)
{
	return addr + ((uint64_t)seg * 2 + (uint64_t)ret) *
	    0x9e3779b97f4a7c15ull;
}

/* The entry of (seg, addr, ret), named when new (twin segments share
 * it); D9_NONE out of memory. */
static uint32_t
chunk_of(struct memo *c, uint32_t seg, uint64_t addr, int ret)
{
	uint64_t key = chunk_key(seg = d9m_twin_of(c->m, seg), addr, ret);
	uint32_t e = d9_hmap_get(&c->byaddr, key), first = e;
	size_t nf, len = 0;
	struct chunk *x;

	for (; e != D9_NONE; e = c->v[e].next)
		if (c->v[e].addr == addr && c->v[e].seg == seg &&
		    c->v[e].ret == ret)
			return e;
	if (d9_grow(&c->v, &c->cap, c->n + 1, sizeof *c->v) < 0)
		return D9_NONE;
	x = &c->v[c->n];
	*x = (struct chunk){ addr, seg, D9_NONE, first, (uint8_t)ret, 0 };
	nf = d9m_frames_of(c->m, c->r, seg, addr, ret, c->f, MAX_INLINE);
	for (size_t i = 0; i < nf; i++) {
		const char *s = d9m_frame_name(&c->f[i]);
		size_t sl = strlen(s);

		x->hook |= (uint8_t)d9m_is_alloc_hook(c->f[i].name);
		if (len + sl + 1 >= sizeof c->buf)
			break;
		memcpy(c->buf + len, s, sl);
		len += sl;
		c->buf[len++] = '\x1f';
	}
	if ((x->id = d9_intern(&c->names, c->buf, len)) == D9_NONE ||
	    d9_hmap_put(&c->byaddr, key, (uint32_t)c->n) < 0)
		return D9_NONE;
	return (uint32_t)c->n++;
}

/* The id of a stack's names: its addresses' chunk ids, interned (with
 * alloc, from the first address that is not an allocator hook's). */
static uint32_t
stack_id(struct memo *c, int alloc, uint32_t stack, uint32_t seg,
    uint32_t *ids, size_t cap)
{
	size_t na, n = 0;
	const uint8_t *p = d9m_stack(c->m, stack, &na);
	int lead = alloc;

	for (size_t i = 0; i < na && n < cap; i++) {
		uint32_t e = chunk_of(c, seg, d9p_le64(p + 8 * i), i > 0);

		if (e == D9_NONE)
			return D9_NONE;
		if (lead && c->v[e].hook)
			continue;
		lead = 0;
		ids[n++] = c->v[e].id;
	}
	/* a stack's key: 0xff, then its chunk ids (no chunk is 5 bytes
	 * starting so) */
	memmove((uint8_t *)ids + 1, ids, n * sizeof *ids);
	((uint8_t *)ids)[0] = 0xff;
	return d9_intern(&c->names, ids, 1 + n * sizeof *ids);
}

int
d9m_name_ids(const struct d9m_model *m, const struct d9m_resolver *r,
    int alloc, const uint32_t *stack, const uint32_t *seg, size_t n,
    uint32_t *id)
{
	struct d9_arena arena;
	struct memo *c = calloc(1, sizeof *c);
	uint32_t *ids = malloc((D9_STACK_MAX + 1) * sizeof *ids + 8);
	struct d9_hmap dense;		/* stack key -> dense id */
	int rc = -1;

	d9_arena_init(&arena, 64 * 1024);
	if (c == NULL || ids == NULL)
		goto out;
	c->m = m;
	c->r = r;
	d9_hmap_init(&c->byaddr);
	d9_hmap_init(&dense);
	d9_intern_init(&c->names, &arena);
	/* stack keys share the table with chunks: make them dense again */
	for (size_t i = 0; i < n; i++) {
		uint32_t k = stack_id(c, alloc, stack[i], seg[i], ids,
		    D9_STACK_MAX);

		if (k == D9_NONE)
			goto done;
		if ((id[i] = d9_hmap_get(&dense, k)) == D9_NONE) {
			id[i] = (uint32_t)dense.n;
			if (d9_hmap_put(&dense, k, id[i]) < 0)
				goto done;
		}
	}
	rc = 0;
done:
	d9_hmap_free(&c->byaddr);
	d9_hmap_free(&dense);
	d9_intern_free(&c->names);
	free(c->v);
out:
	free(ids);
	free(c);
	d9_arena_free(&arena);
	return rc;
}

uint32_t *
d9m_name_ids_of(const struct d9m_model *m, const struct d9m_resolver *r,
    int alloc, const void *items, size_t n, size_t stride, size_t stack_at,
    size_t seg_at)
{
	uint32_t *stack = malloc((n + 1) * sizeof *stack);
	uint32_t *seg = malloc((n + 1) * sizeof *seg);
	uint32_t *id = malloc((n + 1) * sizeof *id);
	const char *p = items;

	for (size_t i = 0; stack != NULL && seg != NULL && i < n; i++) {
		memcpy(&stack[i], p + i * stride + stack_at, sizeof *stack);
		memcpy(&seg[i], p + i * stride + seg_at, sizeof *seg);
	}
	if (stack == NULL || seg == NULL || id == NULL ||
	    d9m_name_ids(m, r, alloc, stack, seg, n, id) < 0) {
		free(id);
		id = NULL;
	}
	free(stack);
	free(seg);
	return id;
}

int
d9m_merge_by_name(const struct d9m_model *m, const struct d9m_resolver *r,
    int alloc, struct d9m_wstack *v, size_t *n)
{
	uint32_t *id = d9m_name_ids_of(m, r, alloc, v, *n, sizeof *v,
	    offsetof(struct d9m_wstack, stack), offsetof(struct d9m_wstack, seg));
	size_t k = 0;

	if (id == NULL)
		return -1;
	/* ids come in order of first meeting: a new one is the next kept */
	for (size_t i = 0; i < *n; i++) {
		if (id[i] == k) {
			v[k++] = v[i];
			continue;
		}
		v[id[i]].w += v[i].w;
		v[id[i]].n += v[i].n;
	}
	*n = k;
	free(id);
	return 0;
}

/* Count descending; equal counts by the stacks' addresses, then
 * segment: not by stack id, which is the order stacks were first met in,
 * and a directory followed while it is written meets them otherwise
 * than a fresh read of the same files (its segments' tails interleave). */
static int
cmp_group(const void *a, const void *b, void *ctx)
{
	const struct d9m_stack_group *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return d9m_stack_seg_cmp(ctx, x->stack, x->seg, y->stack, y->seg);
}

int
d9m_group_stacks(const struct d9m_model *m, const struct d9m_resolver *r,
    const uint32_t *rows, size_t n, struct d9m_stack_group **out,
    size_t *nout)
{
	struct d9m_wstack *v = malloc((n ? n : 1) * sizeof *v), *g = NULL;
	struct d9m_stack_group *sg = NULL;
	size_t ng = 0;

	*out = NULL;
	*nout = 0;
	for (size_t i = 0; v != NULL && i < n; i++) {
		v[i].stack = m->cpu.stack[rows[i]];
		v[i].seg = m->cpu.seg[rows[i]];
		v[i].w = d9m_cpu_weight(m, rows[i]);
		v[i].n = 1;
	}
	/* by (stack, segment), then by what their frames are named */
	if (v == NULL || d9m_wstack_merge(v, n, &g, &ng) < 0 ||
	    d9m_merge_by_name(m, r, 0, g, &ng) < 0 ||
	    (sg = malloc((ng ? ng : 1) * sizeof *sg)) == NULL) {
		free(v);
		free(g);
		return -1;
	}
	for (size_t i = 0; i < ng; i++) {
		sg[i].stack = g[i].stack;
		sg[i].seg = g[i].seg;
		sg[i].count = (size_t)(g[i].w + 0.5);	/* whole weights */
		sg[i].label = NULL;
	}
	free(v);
	free(g);
	qsort_r(sg, ng, sizeof *sg, cmp_group, (void *)m);
	*out = sg;
	*nout = ng;
	return 0;
}
