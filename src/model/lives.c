/*
 * lives.c: see lives.h. One pass over the rows in time order, with a
 * map from span id to the id's life so far (its latest row and latest
 * enter): each event is linked to the latest row of its id's life. A
 * close ends the life but keeps the id's entry, so the map holds one
 * entry per distinct id (span ids are reused: 27 K ids for 10 M events
 * in the 58-segment benchmark), small enough to stay in cache.
 */
#include <stdlib.h>

#include "base/hmap.h"
#include "base/vec.h"
#include "model/lives.h"

/* An id's life so far, and the id looked for. */
struct life {
	uint64_t	 id;
	uint32_t	 last, enter;	/* D9_NONE: no open life */
};

struct lives {
	struct life	*v;
	size_t		 n, cap;
	uint64_t	 want;
};

static int
same_id(const void *ctx, uint32_t row)
{
	const struct lives *l = ctx;

	return l->v[row].id == l->want;
}

static uint64_t
id_of(const void *ctx, uint32_t row)
{
	const struct lives *l = ctx;

	return l->v[row].id;
}

static uint32_t
add_id(void *ctx)
{
	struct lives *l = ctx;

	if (l->n >= D9_NONE || d9_grow(&l->v, &l->cap, l->n + 1,
	    sizeof *l->v) < 0)
		return D9_NONE;
	l->v[l->n].id = l->want;
	l->v[l->n].last = l->v[l->n].enter = D9_NONE;
	return (uint32_t)l->n++;
}

static const struct d9_hmap_rows life_rows = { id_of, add_id };

int
d9m_link_lives(struct d9m_spanev *e)
{
	struct lives l = { NULL, 0, 0, 0 };
	struct d9_hmap map;
	size_t n = e->n ? e->n : 1;
	int rc = -1;

	d9_hmap_init(&map);
	e->next = malloc(n * sizeof *e->next);
	e->prev_enter = malloc(n * sizeof *e->prev_enter);
	if (e->next == NULL || e->prev_enter == NULL)
		goto out;
	for (size_t i = 0; i < e->n; i++) {
		struct life *f;
		uint32_t row;

		e->next[i] = D9_NONE;
		e->prev_enter[i] = D9_NONE;
		if (!d9m_span_is_legacy(e, i))
			continue;
		l.want = e->span_id[i];
		row = d9_hmap_find_or_add(&map, l.want, same_id, &life_rows,
		    &l);
		if (row == D9_NONE)
			goto out;
		f = &l.v[row];
		e->prev_enter[i] = f->enter;
		if (f->last != D9_NONE)
			e->next[f->last] = (uint32_t)i;
		f->last = (uint32_t)i;
		if (e->kind[i] == D9M_SPAN_ENTER)
			f->enter = (uint32_t)i;
		else if (e->kind[i] == D9M_SPAN_CLOSE)
			f->last = f->enter = D9_NONE;	/* the id may be reused */
	}
	rc = 0;
out:
	d9_hmap_free(&map);
	free(l.v);
	return rc;
}
