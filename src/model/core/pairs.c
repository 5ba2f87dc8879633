/* pairs.c: see pairs.h. */
#include <stdlib.h>

#include "base/hmap.h"
#include "base/vec.h"
#include "model/core/model.h"
#include "model/core/pairs.h"
#include "model/core/table.h"

/* The key looked for, in the map's rows. */
struct want {
	const struct d9m_pairs *p;
	uint32_t	 key;
	uint32_t	 row;		/* the row to add */
};

struct d9m_pairs
d9m_tid_workers(struct d9m_model *m)
{
	return (struct d9m_pairs){ &m->tidmap_tid, &m->tidmap_worker,
	    &m->tidmap_n, &m->tidmap_cap };
}

struct d9m_pairs
d9m_tid_names(struct d9m_model *m)
{
	return (struct d9m_pairs){ &m->tname_tid, &m->tname_name,
	    &m->tname_n, &m->tname_cap };
}

static uint64_t
hash_row(const void *ctx, uint32_t row)
{
	const struct want *w = ctx;

	return (*w->p->key)[row];
}

static int
same_key(const void *ctx, uint32_t row)
{
	const struct want *w = ctx;

	return (*w->p->key)[row] == w->key;
}

static uint32_t
take_row(void *ctx)
{
	return ((struct want *)ctx)->row;
}

static const struct d9_hmap_rows pair_rows = { hash_row, take_row };

int
d9m_pairs_set(const struct d9m_pairs *p, struct d9_hmap *rows, uint32_t key,
    uint32_t val)
{
	struct want w = { p, key, (uint32_t)*p->n };
	void **cols[] = { (void **)p->key, (void **)p->val };
	const size_t el[] = { sizeof **p->key, sizeof **p->val };
	uint32_t r;

	/* room first: a new key's row is the next one */
	if (*p->n >= UINT32_MAX - 1 ||
	    d9_grow_cols(p->cap, *p->n + 1, 2, cols, el) < 0 ||
	    (r = d9_hmap_find_or_add(rows, key, same_key, &pair_rows, &w)) ==
	    D9_NONE)
		return -1;
	if (r == *p->n) {
		(*p->key)[r] = key;
		(*p->n)++;
	}
	(*p->val)[r] = val;
	return 0;
}

int
d9m_pairs_sort(const struct d9m_pairs *p, struct d9_hmap *rows)
{
	size_t n = *p->n;
	uint64_t *kv = malloc((n ? n : 1) * sizeof *kv);

	if (kv == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		kv[i] = (uint64_t)(*p->key)[i] << 32 | (*p->val)[i];
	if (d9m_sort_u64(kv, n) < 0) {
		free(kv);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		(*p->key)[i] = (uint32_t)(kv[i] >> 32);
		(*p->val)[i] = (uint32_t)kv[i];
	}
	free(kv);
	if (rows == NULL)
		return 0;
	/* the rows moved: place them again (the memory stays) */
	d9_hmap_clear(rows);
	for (size_t i = 0; i < n; i++) {
		struct want w = { p, (*p->key)[i], (uint32_t)i };

		if (d9_hmap_find_or_add(rows, w.key, same_key, &pair_rows,
		    &w) == D9_NONE)
			return -1;
	}
	return 0;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

uint32_t
d9m_pairs_get(const uint32_t *key, const uint32_t *val, size_t n, uint32_t k,
    uint32_t def)
{
	const uint32_t *at = n ? bsearch(&k, key, n, sizeof *key, cmp_u32) :
	    NULL;

	return at != NULL ? val[at - key] : def;
}
