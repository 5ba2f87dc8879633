/*
 * metrics.c: see metrics.h. Samples are sorted by time, so a window's
 * are a binary search away; a series' growth adds each rise between
 * consecutive samples of the series, and after a drop (the counter was
 * reset) the value it dropped to.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/figures/metrics.h"

const char *
d9m_metric_kind_name(uint8_t kind)
{
	return kind == D9M_COUNTER ? "counter" : kind == D9M_UPDOWN ?
	    "updown-counter" : "gauge";
}

static double
growth(double prev, double x)
{
	return x >= prev ? x - prev : x;
}

static int
cmp_name(const void *a, const void *b, void *ctx)
{
	const struct d9m_model *m = ctx;
	const struct d9m_metric_fig *x = a, *y = b;

	return strcmp(d9m_str(m, m->metrics.name[x->metric]),
	    d9m_str(m, m->metrics.name[y->metric]));
}

int
d9m_metric_figs(const struct d9m_model *m, const struct d9m_window *w,
    struct d9m_metric_fig **out, size_t *n)
{
	const struct d9m_msamples *s = &m->msamples;
	struct d9m_metric_fig *f = calloc(m->metrics.n + 1, sizeof *f);
	size_t i0, i1, k = 0;

	*out = NULL;
	*n = 0;
	if (f == NULL)
		return -1;
	for (size_t r = 0; r < m->metrics.n; r++)
		f[r].metric = (uint32_t)r;
	d9m_window_rows(s->ts, s->n, w, &i0, &i1);
	for (size_t i = i0; i < i1; i++) {
		struct d9m_metric_fig *x = &f[s->metric[i]];
		double v = s->value[i];

		if (x->samples > 0 && m->metrics.kind[x->metric] == D9M_COUNTER)
			x->increase += growth(x->last, v);
		if (x->samples == 0 || v < x->min)
			x->min = v;
		if (x->samples == 0 || v > x->max)
			x->max = v;
		x->last = v;
		x->samples++;
	}
	for (size_t r = 0; r < m->metrics.n; r++)
		if (f[r].samples > 0)
			f[k++] = f[r];
	qsort_r(f, k, sizeof *f, cmp_name, (void *)m);
	*out = f;
	*n = k;
	return 0;
}

int
d9m_metric_columns(const struct d9m_model *m, uint32_t metric,
    const uint64_t *edges, size_t ncols, double *out)
{
	const struct d9m_msamples *s = &m->msamples;
	int counter = metric < m->metrics.n &&
	    m->metrics.kind[metric] == D9M_COUNTER;
	double prev = NAN;
	size_t i = 0;

	for (size_t c = 0; c < ncols; c++)
		out[c] = NAN;
	if (ncols == 0)
		return 0;
	/* a counter's growth in the first column counts from the sample
	 * before it */
	i = d9m_lower(s->ts, s->n, edges[0]);
	for (size_t j = i; j-- > 0; )
		if (s->metric[j] == metric) {
			prev = s->value[j];
			break;
		}
	for (size_t c = 0; c < ncols; c++)
		for (; i < s->n && s->ts[i] < edges[c + 1]; i++) {
			double v = s->value[i], add;

			if (s->metric[i] != metric)
				continue;
			add = counter ? isnan(prev) ? 0 : growth(prev, v) : v;
			out[c] = isnan(out[c]) ? add : counter ? out[c] + add :
			    fmax(out[c], add);
			prev = v;
		}
	return 0;
}
