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

/* An allocation row of the window by its (stack, segment). */
struct keyed {
	uint32_t	 stack, seg;
	size_t		 at;		/* the row, from the window's first */
};

static int
cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	if (a->stack != b->stack)
		return a->stack < b->stack ? -1 : 1;
	if (a->seg != b->seg)
		return a->seg < b->seg ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

/*
 * The site of each of the n rows from a0 (site[j], dense ids, *ns of
 * them): rows of one (stack, segment) are one site, and sites whose
 * stacks show the same names (hooks stripped) are one. -1 when out of
 * memory.
 */
static int
site_of_rows(const struct d9m_model *m, const struct d9m_resolver *r,
    size_t a0, size_t n, uint32_t *site, size_t *ns)
{
	const struct d9m_allocs *al = &m->allocs;
	struct keyed *k = malloc((n + 1) * sizeof *k);
	struct d9m_site *pair = NULL;
	uint32_t *id = NULL;
	size_t np = 0;
	int rc = -1;

	if (k == NULL)
		goto out;
	for (size_t j = 0; j < n; j++) {
		k[j].stack = al->stack[a0 + j];
		k[j].seg = al->seg[a0 + j];
		k[j].at = j;
	}
	qsort(k, n, sizeof *k, cmp_keyed);
	for (size_t j = 0; j < n; j++)
		np += j == 0 || k[j].stack != k[j - 1].stack ||
		    k[j].seg != k[j - 1].seg;
	if ((pair = malloc((np + 1) * sizeof *pair)) == NULL)
		goto out;
	np = 0;
	for (size_t j = 0; j < n; j++) {
		if (j == 0 || k[j].stack != k[j - 1].stack ||
		    k[j].seg != k[j - 1].seg) {
			pair[np].stack = k[j].stack;
			pair[np++].seg = k[j].seg;
		}
		site[k[j].at] = (uint32_t)(np - 1);
	}
	if ((id = d9m_name_ids_of(m, r, 1, pair, np, sizeof *pair,
	    offsetof(struct d9m_site, stack),
	    offsetof(struct d9m_site, seg))) == NULL)
		goto out;
	*ns = 0;
	for (size_t j = 0; j < n; j++) {
		site[j] = id[site[j]];
		if (site[j] + 1 > *ns)
			*ns = site[j] + 1;
	}
	rc = 0;
out:
	free(k);
	free(pair);
	free(id);
	return rc;
}

int
d9m_an_memory(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	struct d9m_memory *mem = &a->mem;
	const struct d9m_allocs *al = &m->allocs;
	struct d9m_site *s = NULL;
	uint8_t *live = NULL;
	uint32_t *site = NULL;
	size_t ns = 0, f0, f1, a0, a1, v0, v1;

	if (al->n == 0 && m->frees.n == 0)
		return 0;
	mem->present = 1;
	mem->rate = m->alloc_rate;
	mem->rate_from_meta = m->alloc_rate_meta;
	d9m_window_rows(m->frees.ts, m->frees.n, &o->win, &f0, &f1);
	d9m_window_rows(m->overflow.ts, m->overflow.n, &o->win, &v0, &v1);
	mem->frees = f1 - f0;
	if (d9m_alloc_live(m, &o->win, &a0, &a1, &live) < 0)
		goto out;
	mem->rate_min = mem->rate_max = mem->rate;
	/* every sum runs over the rows in their (time) order, whatever
	 * order the segments were read in: floating sums in another order
	 * round otherwise */
	if ((site = malloc((a1 - a0 + 1) * sizeof *site)) == NULL ||
	    site_of_rows(m, o->resolver, a0, a1 - a0, site, &ns) < 0 ||
	    (s = calloc(ns + 1, sizeof *s)) == NULL)
		goto out;
	for (size_t i = a0; i < a1; i++) {
		uint64_t r = al->seg[i] < m->segs.n ? m->seg_rate[al->seg[i]] :
		    m->alloc_rate;
		struct d9m_site *x = &s[site[i - a0]];
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
		if (x->sampled++ == 0) {	/* its first row names it */
			x->stack = al->stack[i];
			x->seg = al->seg[i];
		}
		x->est_bytes += wb;
		x->est_count += wc;
		x->raw_bytes += al->size[i];
	}
	for (size_t i = v0; i < v1; i++) {
		mem->dropped_allocs += m->overflow.allocs[i];
		mem->dropped_frees += m->overflow.frees[i];
	}
	qsort_r(s, ns, sizeof *s, cmp_site, (void *)m);
	mem->sites = s;		/* the analysis owns the sites now */
	mem->nsites = ns;
	free(live);
	free(site);
	return 0;
out:
	free(live);
	free(site);
	free(s);
	return -1;
}
