/*
 * ids.c: see ids.h. Task rows are found through an open-addressing hash
 * of (group, task id) -> row + 1 that grows at half load.
 */
#include <stdio.h>
#include <stdlib.h>

#include "model/ids.h"
#include "model/model.h"
#include "model/tables.h"

static size_t
slot_of(uint32_t g, uint64_t id, size_t mask)
{
	return (size_t)((id ^ (uint64_t)g << 56) * 0x9e3779b97f4a7c15ull >>
	    20) & mask;
}

static int
rehash(struct d9m_tasks *t)
{
	size_t ns = t->nslots ? t->nslots * 2 : 1024, i;
	uint32_t *s = calloc(ns, sizeof *s);

	if (s == NULL)
		return -1;
	for (size_t r = 0; r < t->n; r++) {
		for (i = slot_of(t->group[r], t->id[r], ns - 1); s[i];
		    i = (i + 1) & (ns - 1))
			;
		s[i] = (uint32_t)r + 1;
	}
	free(t->slots);
	t->slots = s;
	t->nslots = ns;
	return 0;
}

static uint32_t
lookup(const struct d9m_tasks *t, uint32_t g, uint64_t id, size_t *at)
{
	size_t mask = t->nslots - 1, i = slot_of(g, id, mask);

	for (; t->slots[i]; i = (i + 1) & mask) {
		uint32_t r = t->slots[i] - 1;

		if (t->id[r] == id && t->group[r] == g)
			return r;
	}
	*at = i;
	return D9_NONE;
}

uint32_t
d9m_task_row(struct d9m_model *m, uint32_t g, uint64_t id)
{
	struct d9m_tasks *t = &m->tasks;
	size_t i, row;
	uint32_t r;

	if (id == 0)
		return D9_NONE;
	if ((t->n + 1) * 2 > t->nslots && rehash(t) < 0)
		return D9_NONE;
	if ((r = lookup(t, g, id, &i)) != D9_NONE)
		return r;
	row = d9m_tab_push(t, &d9m_desc_tasks);
	if (row == SIZE_MAX)
		return D9_NONE;
	t->id[row] = id;
	t->group[row] = g;
	t->loc[row] = D9_NONE;
	t->spawn_ts[row] = D9M_ABSENT;
	t->term_ts[row] = D9M_ABSENT;
	t->flags[row] = 0;
	t->slots[i] = (uint32_t)row + 1;
	return (uint32_t)row;
}

/* The first group's task of that id (the id a person types). */
uint32_t
d9m_task_find(const struct d9m_model *m, uint64_t id)
{
	size_t ng = m->groups.n ? m->groups.n : 1, i;
	uint32_t r;

	if (m->tasks.nslots == 0 || id == 0)
		return D9_NONE;
	for (uint32_t g = 0; g < ng; g++)
		if ((r = lookup(&m->tasks, g, id, &i)) != D9_NONE)
			return r;
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
