/*
 * analysis_sources.c: the figures of each source group (groups.h): its
 * segments, the time its events cover, its workers by their own ids, and
 * its polls, long polls, tasks and CPU samples in the window. The
 * trace-wide figures beside them never merge two groups' workers or
 * tasks (ids.h keeps them apart).
 */
#include <stdlib.h>
#include <string.h>

#include "model/figures/analysis.h"
#include "model/core/groups.h"
#include "model/core/ids.h"
#include "model/queries/window.h"

static uint32_t
seg_group(const struct d9m_model *m, uint32_t seg)
{
	return seg < m->segs.n ? m->segs.group[seg] : D9_NONE;
}

/* What each group's rows cover (derived at finish) and count in the
 * window (only the window's rows are read). */
static void
count_rows(const struct d9m_model *m, const struct d9m_window *w,
    struct d9m_source *src, size_t ng)
{
	size_t a, b;

	for (size_t g = 0; g < ng; g++) {
		src[g].start = m->group_cover[2 * g];
		src[g].end = m->group_cover[2 * g + 1];
	}
	d9m_window_rows(m->cpu.ts, m->cpu.n, w, &a, &b);
	for (size_t i = a; i < b; i++) {
		uint32_t g = seg_group(m, m->cpu.seg[i]);

		if (g != D9_NONE)
			src[g].cpu_samples++;
	}
	for (size_t s = 0; s < m->nworkers; s++) {
		struct d9m_source *x = &src[m->workers[s].group];

		d9m_window_polls(m, s, w, &a, &b);
		for (size_t i = a; i < b; i++) {
			x->polls++;
			x->long_polls += m->polls.end[i] - m->polls.start[i] >
			    1000000;
		}
	}
	for (size_t i = 0; i < m->tasks.n; i++)
		if (m->tasks.group[i] < ng)
			src[m->tasks.group[i]].tasks++;
	for (size_t i = 0; i < m->segs.n; i++)
		if (seg_group(m, (uint32_t)i) != D9_NONE)
			src[seg_group(m, (uint32_t)i)].segments++;
}

/* The system metadata of each group's segments (the last said wins). */
static void
systems(const struct d9m_model *m, struct d9m_source *src, size_t ng)
{
	for (size_t g = 0; g < ng; g++) {
		struct d9m_system *y = &src[g].sys;

		y->hostname = y->arch = y->kernel = y->kernel_version =
		    y->cpu_model = D9_NONE;
	}
	for (size_t i = 0; i < m->meta.n; i++) {
		uint32_t g = seg_group(m, m->meta.seg[i]), val = m->meta.val[i];
		const char *k = d9m_str(m, m->meta.key[i]);
		struct d9m_system *y;

		if (g == D9_NONE || g >= ng || strncmp(k, "cpu.profile.", 12))
			continue;
		y = &src[g].sys;
		if (strcmp(k, D9M_META_HOSTNAME) == 0)
			y->hostname = val;
		else if (strcmp(k, D9M_META_ARCH) == 0)
			y->arch = val;
		else if (strcmp(k, D9M_META_KERNEL) == 0)
			y->kernel = val;
		else if (strcmp(k, D9M_META_KERNEL_VER) == 0)
			y->kernel_version = val;
		else if (strcmp(k, D9M_META_CPU) == 0)
			y->cpu_model = val;
		else if (strcmp(k, D9M_META_MEMORY) == 0) {
			char *end;
			const char *v = d9m_str(m, val);
			unsigned long long x = strtoull(v, &end, 10);

			if (*v >= '0' && *v <= '9' && *end == '\0')
				y->memory_bytes = (uint64_t)x;
		}
	}
}

int
d9m_an_sources(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	size_t ng = m->groups.n;
	struct d9m_source *src;

	if (ng == 0)
		return 0;
	if ((src = calloc(ng, sizeof *src)) == NULL)
		return -1;
	a->sources = src;
	a->nsources = ng;
	for (size_t g = 0; g < ng; g++) {
		src[g].group = (uint32_t)g;
		src[g].start = UINT64_MAX;
		src[g].shift = m->groups.shift[g];
		src[g].aligned = m->groups.aligned[g];
		src[g].workers = malloc((m->nworkers + 1) * sizeof(uint64_t));
		if (src[g].workers == NULL)
			return -1;
	}
	for (size_t s = 0; s < m->nworkers; s++) {
		struct d9m_source *x = &src[m->workers[s].group];

		x->workers[x->nworkers++] = m->workers[s].own;
	}
	count_rows(m, &o->win, src, ng);
	systems(m, src, ng);
	for (size_t g = 0; g < ng; g++)
		if (src[g].start == UINT64_MAX)
			src[g].start = src[g].end = 0;
	return 0;
}
