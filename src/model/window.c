/*
 * window.c: see window.h. Every table is sorted by time (polls per
 * worker), so a window is two binary searches.
 */
#include <math.h>

#include "model/window.h"

/* ms from the start in ns, rounded; negative and huge values clamp */
static uint64_t
ns_of_ms(const struct d9m_model *m, double ms)
{
	double ns = ms * 1e6;

	if (!(ns > 0))
		return m->min_ts;
	if (ns >= (double)(UINT64_MAX - m->min_ts))
		return UINT64_MAX;
	return m->min_ts + (uint64_t)llround(ns);
}

struct d9m_window
d9m_window_ms(const struct d9m_model *m, double lo_ms, double hi_ms)
{
	struct d9m_window w = { ns_of_ms(m, lo_ms), UINT64_MAX };

	if (hi_ms >= 0)
		w.hi = ns_of_ms(m, hi_ms);
	return w;
}

size_t
d9m_lower(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void
d9m_window_rows(const uint64_t *v, size_t n, const struct d9m_window *w,
    size_t *a, size_t *b)
{
	*a = d9m_lower(v, n, w->lo);
	*b = w->hi == UINT64_MAX ? n :
	    *a + d9m_lower(v + *a, n - *a, w->hi + 1);
}

void
d9m_window_polls(const struct d9m_model *m, size_t s,
    const struct d9m_window *w, size_t *a, size_t *b)
{
	const struct d9m_worker *wk = &m->workers[s];

	d9m_window_rows(m->polls.start + wk->poll0, wk->npolls, w, a, b);
	*a += wk->poll0;
	*b += wk->poll0;
}
