/*
 * analysis_spans.c: the span figures of a window (ANALYSIS 6): the
 * window's span instances grouped by name (the rule of spanset.h, which
 * the spans view shows) with their percentiles and outliers, and the
 * per-poll counts the red flags need.
 */
#include <stdlib.h>
#include <string.h>

#include "base/pages.h"
#include "model/figures/analysis.h"
#include "model/queries/spanset.h"
#include "model/core/table.h"
#include "model/queries/window.h"

static int
cmp_fig(const void *x, const void *y, void *ctx)
{
	const struct d9m_span_fig *a = x, *b = y;

	return d9m_spanset_order(ctx, &a->dur, a->name, &b->dur, b->name);
}

/*
 * The figures of each name from the durations of its instances alone,
 * grouped by name (slot: name id, strs.n for none, -> figure): what the
 * spans view's set (spanset.h) gives, in its order (most instances
 * first, then name), without its copy of every instance (40 bytes
 * each, and as much again to sort them).
 */
static int
name_figs(const struct d9m_model *m, size_t i0, size_t i1, uint32_t *slot,
    struct d9m_analysis *a)
{
	const struct d9m_spans *s = &m->spans;
	uint32_t unknown = d9_intern_find(&m->strs, "unknown", 7);
	uint64_t *durs = malloc((i1 - i0 + 1) * sizeof *durs);
	/* a name is a string or none */
	size_t *fill = d9_pages_calloc(m->strs.n + 1, sizeof *fill), nn = 0;

	a->spans = calloc(m->strs.n + 1, sizeof *a->spans);
	if (durs == NULL || fill == NULL || a->spans == NULL) {
		free(durs);
		free(fill);
		return -1;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = i0; i < i1; i++) {
			uint32_t name = s->name[i] != D9_NONE ? s->name[i] :
			    unknown;
			uint32_t k = name == D9_NONE ? (uint32_t)m->strs.n :
			    name;

			if (pass == 1)
				durs[fill[slot[k]]++] = s->dur[i];
			else if (slot[k] == D9_NONE) {
				a->spans[nn].name = name;
				slot[k] = (uint32_t)nn++;
			}
			if (pass == 0)
				a->spans[slot[k]].dur.count++;
		}
		for (size_t f = 0, sum = 0; pass == 0 && f < nn; f++) {
			fill[f] = sum;
			sum += a->spans[f].dur.count;
		}
	}
	for (size_t f = 0, sum = 0; f < nn; f++) {
		struct d9m_span_fig *x = &a->spans[f];
		uint64_t *v = durs + sum;
		size_t k = x->dur.count, med;

		sum += k;
		d9m_pct_of(v, k, &x->dur);
		/* the median as the set has it: the instance k / 2 from the
		 * shortest */
		if (k < 10)
			continue;
		med = d9m_nth_u64(v, k, k / 2);
		for (size_t j = 0; j < k; j++)
			x->outliers += v[j] > 10 * med;
	}
	a->nspans = nn;
	qsort_r(a->spans, nn, sizeof *a->spans, cmp_fig, (void *)m);
	free(durs);
	free(fill);
	return 0;
}

int
d9m_an_spans(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	const struct d9m_spans *s = &m->spans;
	uint32_t *slot;
	size_t i0, i1, o0, o1;
	int rc;

	a->spans_poll_max = s->poll_max;
	a->spans_poll_row = s->poll_row;
	a->spans_polls_over20 = s->polls_over20;
	if (s->n == 0 && s->nopen == 0)
		return 0;
	/* the instances that start in the window, and the lives that
	 * first enter in it and never exited */
	d9m_window_rows(s->open_ts, s->nopen, &o->win, &o0, &o1);
	d9m_window_rows(s->start, s->n, &o->win, &i0, &i1);
	a->unmatched_spans = o1 - o0;
	a->spans_total = i1 - i0;
	if ((slot = malloc((m->strs.n + 1) * sizeof *slot)) == NULL)
		return -1;
	for (size_t i = 0; i <= m->strs.n; i++)
		slot[i] = D9_NONE;
	rc = name_figs(m, i0, i1, slot, a);
	free(slot);
	return rc;
}
