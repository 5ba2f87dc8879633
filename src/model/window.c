/*
 * window.c: see window.h. Every table is sorted by time (polls per
 * worker), so a window is two binary searches.
 */
#include "model/window.h"

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
