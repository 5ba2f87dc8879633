/*
 * select.h: exact percentiles of values that are read again rather than
 * kept: a source hands them out in chunks, pass after pass, and each pass
 * fixes 16 more bits of the two ranks wanted (MSD radix selection, two
 * histograms of 2^16 counts). The same figures as d9m_pct_of on an array
 * of them (below), without the array: the scheduling delays of 10 M
 * polls were an 80 MB copy.
 */
#ifndef D9M_SELECT_H
#define D9M_SELECT_H

#include <stddef.h>
#include <stdint.h>

struct d9m_pct {
	size_t		count;
	uint64_t	p50, p99, max;	/* exact nearest rank; 0 when count 0 */
};

/* Rank (1-based) of the p-th percentile of n values. */
size_t	d9m_rank(size_t n, unsigned p);
/* Exact percentiles of v (reordered) at d9m_rank. */
void	d9m_pct_of(uint64_t *v, size_t n, struct d9m_pct *out);

/* The values, the same ones in the same order on every pass: fill
 * copies up to cap of them into buf from *cursor on (0 at the start of
 * a pass), moves it past them, and returns how many; 0 at the end. n:
 * how many values a pass gives, when the source knows it (0: unknown,
 * counted); a few known values are copied without a counting pass. */
struct d9m_values {
	size_t	(*fill)(void *ctx, size_t *cursor, uint64_t *buf, size_t cap);
	void	*ctx;
	size_t	 n;
};

/* d9m_pct_of's count, max, p50 and p99 of the values; 0, or -1 when out
 * of memory. */
int	d9m_pct_pass(const struct d9m_values *src, struct d9m_pct *out);

#endif
