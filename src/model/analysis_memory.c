/*
 * analysis_memory.c: sampled allocations scaled up with Horvitz-Thompson
 * weights (ANALYSIS 7). The sample rate R comes from each segment's
 * metadata (memory.sample_rate_bytes), not a constant (15 #15); live
 * bytes are HT-weighted too.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/analysis.h"

#define DEFAULT_RATE 524288

/* Estimated bytes and count one sampled allocation of s bytes stands for. */
static void
ht_weights(uint64_t s, uint64_t rate, double *wb, double *wc)
{
	double x = (double)s / (double)rate, p;

	if (s == 0) {
		*wb = *wc = 0;
		return;
	}
	if (x > 50) {
		*wb = (double)s;
		*wc = 1;
		return;
	}
	p = -expm1(-x);		/* 1 - exp(-s/R) without cancellation */
	*wb = (double)s / p;
	*wc = 1 / p;
}

struct fkey {
	uint64_t	addr, ts;
};

static int
cmp_fkey(const void *x, const void *y)
{
	const struct fkey *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static int
cmp_site(const void *x, const void *y)
{
	const struct d9m_site *a = x, *b = y;

	if (a->est_bytes != b->est_bytes)
		return a->est_bytes > b->est_bytes ? -1 : 1;
	return a->stack < b->stack ? -1 : a->stack > b->stack;
}

static int
cmp_stack_seg(const void *x, const void *y)
{
	const struct d9m_site *a = x, *b = y;

	if (a->stack != b->stack)
		return a->stack < b->stack ? -1 : 1;
	return a->seg < b->seg ? -1 : a->seg > b->seg;
}

/* R per segment from metadata; *last: R of the latest segment that has it. */
static uint64_t *
rates(const struct d9m_model *m, struct d9m_memory *mem)
{
	uint64_t *r = malloc((m->segs.n + 1) * sizeof *r);
	uint32_t key = d9_intern_find(&m->strs, "memory.sample_rate_bytes",
	    24);

	if (r == NULL)
		return NULL;
	for (size_t i = 0; i <= m->segs.n; i++)
		r[i] = DEFAULT_RATE;
	mem->rate = DEFAULT_RATE;
	for (size_t i = 0; key != D9_NONE && i < m->meta.n; i++) {
		unsigned long long v;

		if (m->meta.key[i] != key || m->meta.seg[i] > m->segs.n)
			continue;
		v = strtoull(d9m_str(m, m->meta.val[i]), NULL, 10);
		if (v > 0) {
			r[m->meta.seg[i]] = v;
			mem->rate = v;
			mem->rate_from_meta = 1;
		}
	}
	return r;
}

int
d9m_an_memory(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	struct d9m_memory *mem = &a->mem;
	const struct d9m_allocs *al = &m->allocs;
	struct fkey *fk = NULL;
	struct d9m_site *s = NULL;
	uint64_t *r = NULL;
	size_t nf = 0, ns = 0, f0, f1, a0, a1, v0, v1;
	int rc = -1;

	if (al->n == 0 && m->frees.n == 0)
		return 0;
	mem->present = 1;
	if ((r = rates(m, mem)) == NULL)
		return -1;
	d9m_window_rows(m->frees.ts, m->frees.n, &o->win, &f0, &f1);
	d9m_window_rows(al->ts, al->n, &o->win, &a0, &a1);
	d9m_window_rows(m->overflow.ts, m->overflow.n, &o->win, &v0, &v1);
	fk = malloc((f1 - f0 + 1) * sizeof *fk);
	s = malloc((a1 - a0 + 1) * sizeof *s);
	if (fk == NULL || s == NULL)
		goto out;
	for (size_t i = f0; i < f1; i++) {
		fk[nf].addr = m->frees.addr[i];
		fk[nf++].ts = m->frees.alloc_ts[i];
	}
	mem->frees = nf;
	qsort(fk, nf, sizeof *fk, cmp_fkey);
	for (size_t i = a0; i < a1; i++) {
		uint64_t rate = al->seg[i] < m->segs.n ? r[al->seg[i]] :
		    mem->rate;
		struct fkey k = { al->addr[i], al->ts[i] };
		double wb, wc;

		ht_weights(al->size[i], rate, &wb, &wc);
		mem->sampled++;
		mem->sampled_bytes += al->size[i];
		mem->est_bytes += wb;
		mem->est_count += wc;
		if (bsearch(&k, fk, nf, sizeof *fk, cmp_fkey) == NULL) {
			mem->unmatched++;
			mem->unmatched_raw_bytes += al->size[i];
			mem->live_bytes += wb;
		}
		s[ns].stack = al->stack[i];
		s[ns].seg = al->seg[i];
		s[ns].sampled = 1;
		s[ns].est_bytes = wb;
		s[ns].est_count = wc;
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
	qsort(s, ns, sizeof *s, cmp_site);
	mem->sites = s;
	mem->nsites = ns;
	s = NULL;
	rc = 0;
out:
	free(r);
	free(fk);
	free(s);
	return rc;
}
