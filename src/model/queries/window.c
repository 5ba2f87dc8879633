/*
 * window.c: see window.h. Every table is sorted by time (polls per
 * worker), so a window is two binary searches.
 */
#include <math.h>

#include "base/search.h"
#include "base/vec.h"
#include "model/queries/window.h"

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

/*
 * Bisecting a column of hundreds of MB reads a value every few MB, and
 * each read of a mapped index (image.h) brings a whole folio of the page
 * cache into the process (2 MB here): 15 MB for one search. Times are
 * spread fairly evenly, so the search starts where x would be if they
 * were, and gallops from there until x is bracketed: the same row, read
 * from the column's two ends and a few pages near it. Uneven values
 * only make the gallop longer (at most twice a bisection's reads).
 */
size_t
d9m_lower(const uint64_t *v, size_t n, uint64_t x)
{
	size_t a, b, step = 1;

	if (n < 64)
		return d9_bisect_u64(v, 0, n, x);
	if (v[0] >= x)
		return 0;
	if (v[n - 1] < x)
		return n;
	/* v[0] < x <= v[n - 1]: the answer is in (0, n - 1] */
	a = (size_t)((long double)(x - v[0]) / (long double)(v[n - 1] -
	    v[0]) * (long double)(n - 1));
	if (a > n - 1)
		a = n - 1;
	if (v[a] < x) {
		/* up: until v[b] >= x (v[n - 1] is) */
		for (b = a + 1; v[b] < x; step *= 2) {
			a = b;
			b = n - 1 - a > step ? a + step : n - 1;
		}
	} else {
		/* down: until v[a] < x (v[0] is) */
		for (b = a, a = b - 1; v[a] >= x; step *= 2) {
			b = a;
			a = b > step ? b - step : 0;
		}
	}
	/* v[a] < x <= v[b] */
	return d9_bisect_u64(v, a + 1, b, x);
}

void
d9m_window_rows(const uint64_t *v, size_t n, const struct d9m_window *w,
    size_t *a, size_t *b)
{
	*a = d9m_lower(v, n, w->lo);
	*b = w->hi == UINT64_MAX ? n :
	    *a + d9m_lower(d9m_row(v, *a), n - *a, w->hi + 1);
}

void
d9m_window_polls(const struct d9m_model *m, size_t s,
    const struct d9m_window *w, size_t *a, size_t *b)
{
	const struct d9m_worker *wk = &m->workers[s];

	d9m_window_rows(d9m_row(m->polls.start, wk->poll0), wk->npolls, w, a,
	    b);
	*a += wk->poll0;
	*b += wk->poll0;
}
