/*
 * ids.c: see ids.h. Task rows are found through the model's hash map
 * (base/hmap.h) by (group, task id), and worker rows through the
 * loader's by (group, worker id): the hash of the id with the group in
 * its top byte, then both compared.
 */
#include <stdio.h>
#include <stdlib.h>

#include <inttypes.h>

#include "base/hmap.h"
#include "base/wire.h"
#include "model/core/ids.h"
#include "model/core/model.h"
#include "model/core/tables.h"

/* The task looked for, and the table it goes to when new. */
struct want_task {
	const struct d9m_tasks *t;
	struct d9m_tasks *to;
	uint32_t	 group;
	uint64_t	 id;
};

static uint64_t
key(uint32_t g, uint64_t id)
{
	return id ^ (uint64_t)g << 56;
}

static int
same_task(const void *ctx, uint32_t row)
{
	const struct want_task *w = ctx;

	return w->t->id[row] == w->id && w->t->group[row] == w->group;
}

static uint64_t
task_hash(const void *ctx, uint32_t row)
{
	const struct want_task *w = ctx;

	return key(w->t->group[row], w->t->id[row]);
}

static uint32_t
add_task(void *ctx)
{
	const struct want_task *w = ctx;
	struct d9m_tasks *t = w->to;
	size_t row = d9m_tab_push(t, &d9m_desc_tasks);

	if (row == SIZE_MAX || row >= D9_NONE)
		return D9_NONE;
	t->id[row] = w->id;
	t->group[row] = w->group;
	t->loc[row] = D9_NONE;
	t->spawn_ts[row] = D9M_ABSENT;
	t->term_ts[row] = D9M_ABSENT;
	t->spawn_worker[row] = D9_NONE;
	t->flags[row] = 0;
	return (uint32_t)row;
}

static const struct d9_hmap_rows task_rows = { task_hash, add_task };

uint32_t
d9m_task_row(struct d9m_model *m, uint32_t g, uint64_t id)
{
	struct want_task w = { &m->tasks, &m->tasks, g, id };

	if (id == 0)
		return D9_NONE;
	return d9_hmap_find_or_add(&m->tasks.rows, key(g, id), same_task,
	    &task_rows, &w);
}

/* The first group's task of that id (the id a person types). */
uint32_t
d9m_task_find(const struct d9m_model *m, uint64_t id)
{
	size_t ng = m->groups.n ? m->groups.n : 1;

	if (id == 0)
		return D9_NONE;
	for (uint32_t g = 0; g < ng; g++) {
		struct want_task w = { &m->tasks, NULL, g, id };
		uint32_t r = d9_hmap_find(&m->tasks.rows, key(g, id),
		    same_task, &w);

		if (r != D9_NONE)
			return r;
	}
	return D9_NONE;
}

/* The worker looked for, and the table it goes to when new. */
struct want_wid {
	struct d9m_wids *t;
	uint32_t	 group;
	uint64_t	 own;
};

static int
same_wid(const void *ctx, uint32_t row)
{
	const struct want_wid *w = ctx;

	return w->t->own[row] == w->own && w->t->group[row] == w->group;
}

static uint64_t
wid_hash(const void *ctx, uint32_t row)
{
	const struct want_wid *w = ctx;

	return key(w->t->group[row], w->t->own[row]);
}

static uint32_t
add_wid(void *ctx)
{
	const struct want_wid *w = ctx;
	size_t row = w->t->n < D9_NONE ? d9m_tab_push(w->t, &d9m_desc_wids) :
	    SIZE_MAX;

	if (row == SIZE_MAX)
		return D9_NONE;
	w->t->own[row] = w->own;
	w->t->group[row] = w->group;
	return (uint32_t)row;
}

static const struct d9_hmap_rows wid_rows = { wid_hash, add_wid };

uint32_t
d9m_wid_row(struct d9m_model *m, struct d9_hmap *rows, uint32_t g,
    uint64_t own)
{
	struct want_wid w = { &m->wids, g == D9_NONE ? 0 : g, own };

	return d9_hmap_find_or_add(rows, key(w.group, own), same_wid,
	    &wid_rows, &w);
}

int
d9m_wid_lane(const struct d9m_model *m, uint32_t w)
{
	return w < m->wids.n && m->wids.own[w] != D9_WORKER_NONE &&
	    m->wids.own[w] != D9_WORKER_BLOCKING;
}

uint64_t
d9m_worker_own(const struct d9m_model *m, uint32_t w)
{
	return w < m->wids.n ? m->wids.own[w] : 0;
}

void
d9m_worker_label(const struct d9m_model *m, uint32_t w, char *out, size_t cap)
{
	if (w >= m->wids.n)
		snprintf(out, cap, "-");
	else if (m->wids.group[w] == 0)
		snprintf(out, cap, "%" PRIu64, m->wids.own[w]);
	else
		snprintf(out, cap, "%" PRIu32 ":%" PRIu64, m->wids.group[w],
		    m->wids.own[w]);
}

uint32_t
d9m_scoped_name(struct d9m_model *m, uint32_t g, const char *name,
    size_t len)
{
	char *s;
	int n;
	uint32_t id;

	if (g == 0 || g == D9_NONE)
		return d9_intern(&m->strs, name, len);
	if ((s = malloc(len + 16)) == NULL)
		return D9_NONE;
	n = snprintf(s, len + 16, "%u:%.*s", g, (int)len, name);
	id = d9_intern(&m->strs, s, (size_t)n);
	free(s);
	return id;
}
