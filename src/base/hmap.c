/*
 * hmap.c: the out-of-line part of the map (the lookups are inline in
 * hmap.h): growth, copies, and u64 keys, which are rows of the map's own
 * key and value columns with rows functions of its own. Growth asks the
 * rows for their hashes to re-place them. The table starts at
 * MIN_SLOTS. d9_hash reads 8 bytes at a time and mixes the whole state
 * at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "base/vec.h"

#define MIN_SLOTS	16
#define MAX_KEYS	((size_t)1 << 30)	/* slots stay below 2^32 */

uint64_t
d9_hash(const void *p, size_t len)
{
	const uint8_t *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len;

	while (len >= 8) {
		uint64_t w;

		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
		s += 8;
		len -= 8;
	}
	if (len) {
		uint64_t w = 0;

		memcpy(&w, s, len);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return h;
}

void
d9_hmap_init(struct d9_hmap *m)
{
	memset(m, 0, sizeof *m);
}

void
d9_hmap_free(struct d9_hmap *m)
{
	free(m->slot);
	free(m->key);
	free(m->val);
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

static int
resize(struct d9_hmap *m, size_t nslots, const struct d9_hmap_rows *rows,
    const void *ctx)
{
	struct d9_hmap g = *m;
	unsigned bits = 0;

	while (((size_t)1 << bits) < nslots)
		bits++;
	g.shift = 64 - bits;
	g.nslots = nslots;
	if ((g.slot = calloc(nslots, sizeof *g.slot)) == NULL)
		return -1;
	for (size_t i = 0; i < m->nslots; i++) {
		size_t j;

		if (m->slot[i] == 0)
			continue;
		for (j = d9_hmap_home_(&g, rows->hash(ctx, m->slot[i] - 1));
		    g.slot[j] != 0; j = (j + 1) & (nslots - 1))
			;
		g.slot[j] = m->slot[i];
	}
	free(m->slot);
	*m = g;
	return 0;
}

/* The slots for n keys, or 0 when that is too many. */
static size_t
slots_for(const struct d9_hmap *m, size_t n)
{
	size_t ns = m->nslots ? m->nslots : MIN_SLOTS;

	if (n > MAX_KEYS)
		return 0;
	while (n * 2 > ns)
		ns *= 2;
	return ns;
}

int
d9_hmap_grow(struct d9_hmap *m, const struct d9_hmap_rows *rows,
    const void *ctx)
{
	size_t ns = slots_for(m, m->n + 1);

	return ns == 0 ? -1 : ns == m->nslots ? 0 : resize(m, ns, rows, ctx);
}

int
d9_hmap_copy(struct d9_hmap *dst, const struct d9_hmap *src)
{
	size_t nkeys = src->key != NULL ? src->n : 0;

	d9_hmap_free(dst);
	if (d9_dup(&dst->slot, src->slot, src->nslots, sizeof *src->slot) < 0 ||
	    d9_dup(&dst->key, src->key, nkeys, sizeof *src->key) < 0 ||
	    d9_dup(&dst->val, src->val, nkeys, sizeof *src->val) < 0) {
		d9_hmap_free(dst);
		return -1;
	}
	dst->n = src->n;
	dst->nslots = src->nslots;
	dst->shift = src->shift;
	dst->cap = nkeys;
	return 0;
}

/* u64 keys: the key looked for, and the map it goes to when new. */
struct want {
	const struct d9_hmap *m;
	struct d9_hmap	*to;
	uint64_t	 key;
	uint32_t	 val;
};

static int
key_eq(const void *ctx, uint32_t row)
{
	const struct want *w = ctx;

	return w->m->key[row] == w->key;
}

static uint64_t
key_hash(const void *ctx, uint32_t row)
{
	const struct want *w = ctx;

	return w->m->key[row];
}

static uint32_t
key_add(void *ctx)
{
	const struct want *w = ctx;
	struct d9_hmap *m = w->to;
	void **cols[] = { (void **)&m->key, (void **)&m->val };
	const size_t el[] = { sizeof *m->key, sizeof *m->val };

	if (d9_grow_cols(&m->cap, m->n + 1, 2, cols, el) < 0)
		return D9_NONE;
	m->key[m->n] = w->key;
	m->val[m->n] = w->val;
	return (uint32_t)m->n;
}

static const struct d9_hmap_rows key_rows = { key_hash, key_add };

int
d9_hmap_reserve(struct d9_hmap *m, size_t n)
{
	struct want w = { m, NULL, 0, 0 };
	size_t ns = slots_for(m, n);

	if (ns == 0 || (m->n > 0 && m->key == NULL))
		return -1;
	return ns == m->nslots ? 0 : resize(m, ns, &key_rows, &w);
}

uint32_t
d9_hmap_get(const struct d9_hmap *m, uint64_t key)
{
	struct want w = { m, NULL, key, 0 };
	uint32_t row = d9_hmap_find(m, key, key_eq, &w);

	return row == D9_NONE ? D9_NONE : m->val[row];
}

int
d9_hmap_put(struct d9_hmap *m, uint64_t key, uint32_t val)
{
	struct want w = { m, m, key, val };
	uint32_t row;

	if (val == D9_NONE ||
	    (row = d9_hmap_find_or_add(m, key, key_eq, &key_rows, &w)) == D9_NONE)
		return -1;
	m->val[row] = val;
	return 0;
}

int
d9_hmap_next(const struct d9_hmap *m, size_t *pos, uint64_t *key,
    uint32_t *val)
{
	if (*pos >= m->n || m->key == NULL)
		return 0;
	if (key != NULL)
		*key = m->key[*pos];
	if (val != NULL)
		*val = m->val[*pos];
	(*pos)++;
	return 1;
}
