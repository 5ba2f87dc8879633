/*
 * hmap.c: the slot of a key is the top bits of key * 2^64/phi (Fibonacci
 * hashing), so dense ids, aligned addresses and ready-made hashes all
 * spread over the table; collisions probe the next slots. The table
 * starts at MIN_SLOTS and doubles; growing re-places the stored keys.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"

#define MIN_SLOTS	16
#define FIB		0x9e3779b97f4a7c15ull

void
d9_hmap_init(struct d9_hmap *m)
{
	memset(m, 0, sizeof *m);
}

void
d9_hmap_free(struct d9_hmap *m)
{
	free(m->slot);
	memset(m, 0, sizeof *m);
}

void
d9_hmap_clear(struct d9_hmap *m)
{
	if (m->n == 0)
		return;
	memset(m->slot, 0, m->nslots * sizeof *m->slot);
	m->n = 0;
}

static size_t
home(const struct d9_hmap *m, uint64_t key)
{
	return (size_t)((key * FIB) >> m->shift);
}

/* The slot holding key (*found = 1) or the empty slot where it would go. */
static size_t
probe(const struct d9_hmap *m, uint64_t key,
    int (*eq)(const void *, uint32_t), const void *ctx, int *found)
{
	size_t mask = m->nslots - 1, i = home(m, key);

	for (;; i = (i + 1) & mask) {
		const struct d9_hslot *s = &m->slot[i];

		if (!s->used) {
			*found = 0;
			return i;
		}
		if (s->key == key && (eq == NULL || eq(ctx, s->val))) {
			*found = 1;
			return i;
		}
	}
}

static int
resize(struct d9_hmap *m, size_t nslots)
{
	struct d9_hmap g = { .nslots = nslots, .n = m->n };
	unsigned bits = 0;

	while (((size_t)1 << bits) < nslots)
		bits++;
	g.shift = 64 - bits;
	if ((g.slot = calloc(nslots, sizeof *g.slot)) == NULL)
		return -1;
	for (size_t i = 0; i < m->nslots; i++) {
		size_t j;

		if (!m->slot[i].used)
			continue;
		for (j = home(&g, m->slot[i].key); g.slot[j].used;
		    j = (j + 1) & (nslots - 1))
			;
		g.slot[j] = m->slot[i];
	}
	free(m->slot);
	*m = g;
	return 0;
}

int
d9_hmap_reserve(struct d9_hmap *m, size_t n)
{
	size_t ns = m->nslots ? m->nslots : MIN_SLOTS;

	if (n > SIZE_MAX / 4 / sizeof *m->slot)
		return -1;
	while (n * 2 > ns)
		ns *= 2;
	return ns == m->nslots ? 0 : resize(m, ns);
}

int
d9_hmap_copy(struct d9_hmap *dst, const struct d9_hmap *src)
{
	d9_hmap_free(dst);
	if (src->nslots == 0)
		return 0;
	if ((dst->slot = malloc(src->nslots * sizeof *src->slot)) == NULL)
		return -1;
	memcpy(dst->slot, src->slot, src->nslots * sizeof *src->slot);
	dst->n = src->n;
	dst->nslots = src->nslots;
	dst->shift = src->shift;
	return 0;
}

uint32_t
d9_hmap_find(const struct d9_hmap *m, uint64_t key,
    int (*eq)(const void *ctx, uint32_t val), const void *ctx)
{
	size_t i;
	int found;

	if (m->n == 0)
		return D9_NONE;
	i = probe(m, key, eq, ctx, &found);
	return found ? m->slot[i].val : D9_NONE;
}

uint32_t
d9_hmap_get(const struct d9_hmap *m, uint64_t key)
{
	return d9_hmap_find(m, key, NULL, NULL);
}

/* The slot of key, claimed (used, val D9_NONE) when it was absent. */
static struct d9_hslot *
claim(struct d9_hmap *m, uint64_t key, int (*eq)(const void *, uint32_t),
    const void *ctx, int *found)
{
	if (d9_hmap_reserve(m, m->n + 1) < 0)
		return NULL;
	return &m->slot[probe(m, key, eq, ctx, found)];
}

int
d9_hmap_put(struct d9_hmap *m, uint64_t key, uint32_t val)
{
	struct d9_hslot *s;
	int found;

	if (val == D9_NONE || (s = claim(m, key, NULL, NULL, &found)) == NULL)
		return -1;
	if (!found) {
		s->key = key;
		s->used = 1;
		m->n++;
	}
	s->val = val;
	return 0;
}

uint32_t
d9_hmap_find_or_add(struct d9_hmap *m, uint64_t key,
    int (*eq)(const void *ctx, uint32_t val), uint32_t (*make)(void *ctx),
    void *ctx)
{
	struct d9_hslot *s;
	uint32_t val;
	int found;

	if ((s = claim(m, key, eq, ctx, &found)) == NULL)
		return D9_NONE;
	if (found)
		return s->val;
	if ((val = make(ctx)) == D9_NONE)
		return D9_NONE;
	s->key = key;
	s->val = val;
	s->used = 1;
	m->n++;
	return val;
}

int
d9_hmap_next(const struct d9_hmap *m, size_t *pos, uint64_t *key,
    uint32_t *val)
{
	for (; *pos < m->nslots; (*pos)++) {
		const struct d9_hslot *s = &m->slot[*pos];

		if (!s->used)
			continue;
		if (key != NULL)
			*key = s->key;
		if (val != NULL)
			*val = s->val;
		(*pos)++;
		return 1;
	}
	return 0;
}
