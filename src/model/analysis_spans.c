/*
 * analysis_spans.c: the span figures of a window (ANALYSIS 6): the
 * window's span instances grouped by name (spanset.h, the rule the
 * spans view shows too) with their percentiles and outliers, and the
 * per-poll counts the red flags need.
 */
#include <stdlib.h>
#include <string.h>

#include "model/analysis.h"
#include "model/spanset.h"

int
d9m_an_spans(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	const struct d9m_spans *s = &m->spans;
	struct d9m_spanset *set;

	a->spans_poll_max = s->poll_max;
	a->spans_poll_row = s->poll_row;
	a->spans_polls_over20 = s->polls_over20;
	if (s->n == 0 && s->nopen == 0)
		return 0;
	if ((set = d9m_spanset_build(m, &o->win, NULL)) == NULL)
		return -1;
	a->unmatched_spans = set->unmatched;
	a->spans_total = set->n;
	a->spans = calloc(set->nnames ? set->nnames : 1, sizeof *a->spans);
	if (a->spans == NULL) {
		d9m_spanset_free(&set);
		return -1;
	}
	for (size_t i = 0; i < set->nnames; i++) {
		const struct d9m_span_name *nm = &set->names[i];
		struct d9m_span_fig *f = &a->spans[a->nspans++];
		const struct d9m_span *v = set->v + nm->first;
		size_t k = nm->dur.count;

		f->name = nm->name;
		f->dur = nm->dur;
		/* instances longest first: the median is at k - 1 - k / 2 */
		if (k >= 10)
			for (size_t j = 0; j < k; j++)
				f->outliers += v[j].end - v[j].start > 10 *
				    (v[k - 1 - k / 2].end - v[k - 1 - k / 2].start);
	}
	d9m_spanset_free(&set);
	return 0;
}
