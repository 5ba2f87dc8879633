/*
 * analysis_memory.c: sampled allocations scaled up with Horvitz-Thompson
 * weights (ANALYSIS 7). The sample rate R comes from each segment's
 * metadata (memory.sample_rate_bytes), not a constant (15 #15); live
 * bytes are HT-weighted too.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/figures/analysis.h"
#include "model/figures/byname.h"
#include "model/queries/samples.h"

static int
cmp_site(const void *x, const void *y, void *ctx)
{
	const struct d9m_site *a = x, *b = y;

	if (a->est_bytes != b->est_bytes)
		return a->est_bytes > b->est_bytes ? -1 : 1;
	return d9m_stack_cmp(ctx, a->stack, b->stack);
}

static int
cmp_stack_seg(const void *x, const void *y)
{
	const struct d9m_site *a = x, *b = y;

	if (a->stack != b->stack)
		return a->stack < b->stack ? -1 : 1;
	return a->seg < b->seg ? -1 : a->seg > b->seg;
}

/* Sites whose stacks show the same names (hooks stripped) are one. */
static int
merge_sites_by_name(const struct d9m_model *m, const struct d9m_resolver *r,
    struct d9m_site *s, size_t *ns)
{
	uint32_t *id = d9m_name_ids_of(m, r, 1, s, *ns, sizeof *s,
	    offsetof(struct d9m_site, stack), offsetof(struct d9m_site, seg));
	size_t k = 0;

	if (id == NULL)
		return -1;
	for (size_t i = 0; i < *ns; i++) {
		if (id[i] == k) {
			s[k++] = s[i];
			continue;
		}
		s[id[i]].sampled += s[i].sampled;
		s[id[i]].est_bytes += s[i].est_bytes;
		s[id[i]].est_count += s[i].est_count;
		s[id[i]].raw_bytes += s[i].raw_bytes;
	}
	*ns = k;
	free(id);
	return 0;
}

int
d9m_an_memory(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	struct d9m_memory *mem = &a->mem;
	const struct d9m_allocs *al = &m->allocs;
	struct d9m_site *s = NULL;
	uint8_t *live = NULL;
	size_t ns = 0, f0, f1, a0, a1, v0, v1;

	if (al->n == 0 && m->frees.n == 0)
		return 0;
	mem->present = 1;
	mem->rate = m->alloc_rate;
	mem->rate_from_meta = m->alloc_rate_meta;
	d9m_window_rows(m->frees.ts, m->frees.n, &o->win, &f0, &f1);
	d9m_window_rows(m->overflow.ts, m->overflow.n, &o->win, &v0, &v1);
	mem->frees = f1 - f0;
	if (d9m_alloc_live(m, &o->win, &a0, &a1, &live) < 0 ||
	    (s = malloc((a1 - a0 + 1) * sizeof *s)) == NULL)
		goto out;
	mem->rate_min = mem->rate_max = mem->rate;
	for (size_t i = a0; i < a1; i++) {
		uint64_t r = al->seg[i] < m->segs.n ? m->seg_rate[al->seg[i]] :
		    m->alloc_rate;
		double wb, wc;

		if (i == a0 || r < mem->rate_min)
			mem->rate_min = r;
		if (i == a0 || r > mem->rate_max)
			mem->rate_max = r;
		d9m_alloc_weight(m, i, &wb, &wc);
		mem->sampled++;
		mem->sampled_bytes += al->size[i];
		mem->est_bytes += wb;
		mem->est_count += wc;
		if (live[i - a0]) {
			mem->unmatched++;
			mem->unmatched_raw_bytes += al->size[i];
			mem->live_bytes += wb;
		}
		s[ns].stack = al->stack[i];
		s[ns].seg = al->seg[i];
		s[ns].sampled = 1;
		s[ns].est_bytes = wb;
		s[ns].est_count = wc;
		s[ns].label = NULL;
		s[ns++].raw_bytes = al->size[i];
	}
	for (size_t i = v0; i < v1; i++) {
		mem->dropped_allocs += m->overflow.allocs[i];
		mem->dropped_frees += m->overflow.frees[i];
	}
	/* merge rows of the same (stack, segment) into sites */
	qsort(s, ns, sizeof *s, cmp_stack_seg);
	{
		size_t k = 0;

		for (size_t i = 0; i < ns; i++) {
			if (k > 0 && s[k - 1].stack == s[i].stack &&
			    s[k - 1].seg == s[i].seg) {
				s[k - 1].sampled++;
				s[k - 1].est_bytes += s[i].est_bytes;
				s[k - 1].est_count += s[i].est_count;
				s[k - 1].raw_bytes += s[i].raw_bytes;
			} else
				s[k++] = s[i];
		}
		ns = k;
	}
	if (merge_sites_by_name(m, o->resolver, s, &ns) < 0)
		goto out;
	qsort_r(s, ns, sizeof *s, cmp_site, (void *)m);
	mem->sites = s;		/* the analysis owns the sites now */
	mem->nsites = ns;
	free(live);
	return 0;
out:
	free(live);
	free(s);
	return -1;
}
