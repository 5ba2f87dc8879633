/*
 * runtimes.c: runtime groups. Each runtime.<name> of the segment metadata
 * claims its listed workers (first claim wins; the workers of its
 * segment's source group, ids.h), and every runtime a
 * RuntimeMetricsEvent names is one; the workers no name claims, and a
 * RuntimeMetricsEvent's unnamed runtime, are the default runtime, named
 * "". A name of source group g > 0 is "g:name" (ids.h). Groups come by
 * their lowest worker (by group and id), those without workers after,
 * each by name; the names are found in a hash map (base/hmap.h). A
 * QueueSampleEvent (before dial9 0.5) sums the global queues of all
 * runtimes: it counts for the one group when there is one, else for the
 * default runtime (of the first source), which it then stands for alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "model/core/ids.h"
#include "model/figures/runtimes.h"

static int
name_workers(struct d9m_model *m)
{
	for (size_t i = 0; i < m->meta.n; i++) {
		const char *k = d9m_str(m, m->meta.key[i]), *v;
		uint32_t name, seg = m->meta.seg[i], grp = seg < m->segs.n &&
		    m->segs.group[seg] != D9_NONE ? m->segs.group[seg] : 0;

		if (strncmp(k, "runtime.", 8) != 0 || k[8] == '\0')
			continue;
		if ((name = d9m_scoped_name(m, grp, k + 8, strlen(k + 8))) ==
		    D9_NONE)
			return -1;
		for (v = d9m_str(m, m->meta.val[i]); *v; ) {
			char *end;
			unsigned long long id;
			uint32_t slot;

			if (*v == '-') {	/* "-1" claims no worker 1 */
				while (*++v >= '0' && *v <= '9')
					;
				continue;
			}
			if (*v < '0' || *v > '9') {
				v++;
				continue;
			}
			errno = 0;
			id = strtoull(v, &end, 10);
			slot = errno == 0 ? d9m_worker_slot_of(m, grp, id) :
			    D9_NONE;
			if (slot != D9_NONE &&
			    m->workers[slot].runtime == D9_NONE)
				m->workers[slot].runtime = name;
			v = end;
		}
	}
	return 0;
}

/* The group named name (found by name in byname), added when new;
 * D9_NONE when out of memory. */
static uint32_t
group(struct d9m_model *m, uint32_t name, size_t *cap, struct d9_hmap *byname)
{
	uint32_t g = d9_hmap_get(byname, name);

	if (g != D9_NONE)
		return g;
	if (m->nruntimes >= D9_NONE - 1 ||
	    d9_hmap_put(byname, name, (uint32_t)m->nruntimes) < 0)
		return D9_NONE;
	if (m->nruntimes == *cap) {
		size_t nc = *cap ? *cap * 2 : 4;
		struct d9m_runtime *r = realloc(m->runtimes, nc * sizeof *r);

		if (r == NULL)
			return D9_NONE;
		m->runtimes = r;
		*cap = nc;
	}
	m->runtimes[m->nruntimes].name = name;
	return (uint32_t)m->nruntimes++;
}

/* What the order of the groups reads: the lowest worker slot of each
 * (workers come by group and id), D9_NONE for none. */
struct order {
	const struct d9m_model *m;
	uint32_t	*low;
};

/* Groups by their lowest worker, then by name. */
static int
cmp_group(const void *a, const void *b, void *ctx)
{
	const struct order *o = ctx;
	const uint32_t *x = a, *y = b;

	if (o->low[*x] != o->low[*y])
		return o->low[*x] < o->low[*y] ? -1 : 1;
	return strcmp(d9m_str(o->m, o->m->runtimes[*x].name),
	    d9m_str(o->m, o->m->runtimes[*y].name));
}

/* Renumber the groups into their order. */
static int
order(struct d9m_model *m)
{
	size_t n = m->nruntimes;
	uint32_t *by = malloc((n + 1) * sizeof *by), *rank;
	struct d9m_runtime *r = malloc((n + 1) * sizeof *r);
	struct order o = { m, malloc((n + 1) * sizeof *o.low) };

	rank = malloc((n + 1) * sizeof *rank);
	if (by == NULL || r == NULL || rank == NULL || o.low == NULL) {
		free(by);
		free(r);
		free(rank);
		free(o.low);
		return -1;
	}
	for (size_t g = 0; g < n; g++) {
		by[g] = (uint32_t)g;
		o.low[g] = D9_NONE;
	}
	for (size_t s = m->nworkers; s-- > 0; )
		o.low[m->workers[s].rtgroup] = (uint32_t)s;
	qsort_r(by, n, sizeof *by, cmp_group, &o);
	for (size_t i = 0; i < n; i++) {
		rank[by[i]] = (uint32_t)i;
		r[i] = m->runtimes[by[i]];
	}
	if (n > 0)		/* m->runtimes may be NULL when n is 0 */
		memcpy(m->runtimes, r, n * sizeof *r);
	for (size_t s = 0; s < m->nworkers; s++)
		m->workers[s].rtgroup = rank[m->workers[s].rtgroup];
	for (size_t i = 0; i < m->queue.n; i++)
		m->queue.group[i] = rank[m->queue.group[i]];
	free(by);
	free(r);
	free(rank);
	free(o.low);
	return 0;
}

int
d9m_runtimes_derive(struct d9m_model *m)
{
	const struct d9m_queue *q = &m->queue;
	uint32_t none = d9_intern(&m->strs, "", 0), legacy = D9_NONE;
	size_t cap = 0;
	struct d9_hmap byname;
	int rc = -1;

	if (name_workers(m) < 0)
		return -1;
	m->queue.group = malloc((q->n + 1) * sizeof *m->queue.group);
	if (m->queue.group == NULL)
		return -1;
	d9_hmap_init(&byname);
	for (size_t s = 0; s < m->nworkers; s++) {
		uint32_t rt = m->workers[s].runtime;

		if (rt == D9_NONE)	/* its process's default runtime */
			rt = d9m_scoped_name(m, m->workers[s].group, "", 0);
		if (rt == D9_NONE || (m->workers[s].rtgroup = group(m, rt,
		    &cap, &byname)) == D9_NONE)
			goto out;
	}
	for (size_t i = 0; i < q->n; i++)
		if (q->runtime[i] != D9_NONE && (q->group[i] = group(m,
		    q->runtime[i], &cap, &byname)) == D9_NONE)
			goto out;
	for (size_t i = 0; i < q->n; i++) {
		if (q->runtime[i] != D9_NONE)
			continue;
		if (legacy == D9_NONE && (legacy = m->nruntimes == 1 ? 0 :
		    group(m, none, &cap, &byname)) == D9_NONE)
			goto out;
		q->group[i] = legacy;
	}
	rc = order(m);
out:
	d9_hmap_free(&byname);
	return rc;
}

void
d9m_runtimes_free(struct d9m_model *m)
{
	free(m->runtimes);
	m->runtimes = NULL;
	m->nruntimes = 0;
	free(m->queue.group);
	m->queue.group = NULL;
}

void
d9m_runtime_figs(const struct d9m_model *m, const struct d9m_window *w,
    struct d9m_rt_fig *out)
{
	const struct d9m_queue *q = &m->queue;
	size_t i0, i1;

	for (size_t g = 0; g < m->nruntimes; g++) {
		memset(&out[g], 0, sizeof out[g]);
		out[g].alive_max = D9_NONE;
	}
	d9m_window_rows(q->ts, q->n, w, &i0, &i1);
	for (size_t i = i0; i < i1; i++) {
		struct d9m_rt_fig *f = &out[q->group[i]];

		f->samples++;
		if (q->global[i] > f->queue_max)
			f->queue_max = q->global[i];
		if (q->alive[i] != D9_NONE && (f->alive_max == D9_NONE ||
		    q->alive[i] > f->alive_max))
			f->alive_max = q->alive[i];
	}
}
