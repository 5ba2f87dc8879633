/* pool.c: entries are dense rows; the map finds the row of an id
 * (where the row's number does not say it). */
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "parse/pool.h"

void
d9p_pool_init(struct d9p_pool *p)
{
	memset(p, 0, sizeof *p);
}

void
d9p_pool_free(struct d9p_pool *p)
{
	d9_hmap_free(&p->rows);
	free(p->e);
	memset(p, 0, sizeof *p);
}

void
d9p_pool_clear(struct d9p_pool *p)
{
	d9_hmap_clear(&p->rows);
	p->n = 0;
}

/* The id looked for, and the pool it goes to when new. */
struct want {
	const struct d9p_pool *p;
	struct d9p_pool	*to;
	uint32_t	 id;
};

static int
same_id(const void *ctx, uint32_t row)
{
	const struct want *w = ctx;

	return w->p->e[row].id == w->id;
}

static uint64_t
id_of(const void *ctx, uint32_t row)
{
	const struct want *w = ctx;

	return w->p->e[row].id;
}

static uint32_t
new_row(void *ctx)
{
	const struct want *w = ctx;
	struct d9p_pool *p = w->to;

	if (p->n >= D9_NONE ||
	    d9_grow(&p->e, &p->cap, p->n + 1, sizeof *p->e) < 0)
		return D9_NONE;
	p->e[p->n].id = w->id;
	return (uint32_t)p->n++;
}

static const struct d9_hmap_rows rows = { id_of, new_row };

int
d9p_pool_put(struct d9p_pool *p, uint32_t id, const uint8_t *bytes,
    uint32_t len)
{
	struct want w = { p, p, id };
	struct d9p_pool_entry *s;
	uint32_t row;

	if (len == UINT32_MAX)
		return -1;
	row = d9_hmap_find_or_add(&p->rows, id, same_id, &rows, &w);
	if (row == D9_NONE)
		return -1;
	s = &p->e[row];
	s->len = len;
	s->p = bytes;
	s->cache = D9_NONE;
	return 0;
}

struct d9p_pool_entry *
d9p_pool_get(struct d9p_pool *p, uint32_t id)
{
	struct want w = { p, NULL, id };
	uint32_t row;

	/* writers number a batch's entries 0, 1, ... (or from 1) as they
	 * define them: the row of the same number, or the one before, is
	 * tried first (an id has one row: a row holding it is its) */
	if (id < p->n && p->e[id].id == id)
		return &p->e[id];
	if (id - 1 < p->n && p->e[id - 1].id == id)
		return &p->e[id - 1];
	row = d9_hmap_find(&p->rows, id, same_id, &w);

	return row == D9_NONE ? NULL : &p->e[row];
}
