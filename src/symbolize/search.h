/*
 * search.h: the one binary search of the symbolizer. Sorted tables here
 * (function ranges, line sequences, line rows) are arrays of structs that
 * start with their uint64_t sort key (an address).
 */
#ifndef D9S_SEARCH_H
#define D9S_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Index of the first of n elements (each size bytes, key first) whose key
 * is greater than key: the element before it is the last one <= key. */
static inline size_t
d9s_upper_bound(const void *base, size_t n, size_t size, uint64_t key)
{
	const unsigned char *p = base;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k;

		memcpy(&k, p + mid * size, sizeof k);
		if (k <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
