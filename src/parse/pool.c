/* pool.c: u32 -> entry map, linear probing, doubled at 50 % load. */
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "parse/pool.h"

#define FREE_SLOT UINT32_MAX

void
d9p_pool_init(struct d9p_pool *p)
{
	memset(p, 0, sizeof *p);
}

void
d9p_pool_free(struct d9p_pool *p)
{
	free(p->e);
	memset(p, 0, sizeof *p);
}

void
d9p_pool_clear(struct d9p_pool *p)
{
	if (p->n == 0)
		return;
	for (size_t i = 0; i < p->cap; i++)
		p->e[i].len = FREE_SLOT;
	p->n = 0;
}

static size_t
slot_of(uint32_t id, size_t cap)
{
	return (size_t)((id * 0x9e3779b1u) >> 8) & (cap - 1);
}

static struct d9p_pool_entry *
find(struct d9p_pool *p, uint32_t id)
{
	size_t mask = p->cap - 1, i = slot_of(id, p->cap);

	for (;; i = (i + 1) & mask) {
		if (p->e[i].len == FREE_SLOT || p->e[i].id == id)
			return &p->e[i];
	}
}

static int
grow(struct d9p_pool *p)
{
	size_t ncap = p->cap ? p->cap * 2 : 64;
	struct d9p_pool_entry *old = p->e, *ne;
	size_t ocap = p->cap;

	ne = malloc(ncap * sizeof *ne);
	if (ne == NULL)
		return -1;
	for (size_t i = 0; i < ncap; i++)
		ne[i].len = FREE_SLOT;
	p->e = ne;
	p->cap = ncap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].len != FREE_SLOT)
			*find(p, old[i].id) = old[i];
	free(old);
	return 0;
}

int
d9p_pool_put(struct d9p_pool *p, uint32_t id, const uint8_t *bytes,
    uint32_t len)
{
	struct d9p_pool_entry *s;

	if (len == FREE_SLOT)
		return -1;
	if ((p->n + 1) * 2 > p->cap && grow(p) < 0)
		return -1;
	s = find(p, id);
	if (s->len == FREE_SLOT)
		p->n++;
	s->id = id;
	s->len = len;
	s->p = bytes;
	s->cache = D9_NONE;
	return 0;
}

struct d9p_pool_entry *
d9p_pool_get(struct d9p_pool *p, uint32_t id)
{
	struct d9p_pool_entry *s;

	if (p->n == 0)
		return NULL;
	s = find(p, id);
	return s->len == FREE_SLOT ? NULL : s;
}
