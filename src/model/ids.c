/*
 * ids.c: see ids.h. Task rows are found through the model's hash map
 * (base/hmap.h) by (group, task id): the hash of the id with the group
 * in its top byte, then both compared.
 */
#include <stdio.h>

#include "base/hmap.h"
#include "model/ids.h"
#include "model/model.h"
#include "model/tables.h"

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

void
d9m_worker_label(size_t ngroups, uint32_t id, char *out, size_t cap)
{
	uint32_t g = d9m_worker_group(ngroups, id);

	if (g == 0)
		snprintf(out, cap, "%u", d9m_worker_own(ngroups, id));
	else
		snprintf(out, cap, "%u:%u", g, d9m_worker_own(ngroups, id));
}
