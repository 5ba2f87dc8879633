/*
 * search.h: the symbolizer's shorthand of the one binary search
 * (base/search.h) for its sorted tables (function ranges, line
 * sequences, line rows): arrays of structs that start with their
 * uint64_t sort key (an address).
 */
#ifndef D9S_SEARCH_H
#define D9S_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/search.h"

struct d9s_keyed {
	const unsigned char	*p;
	size_t			 size;
	uint64_t		 key;
};

static inline int
d9s_key_not_above(const void *ctx, size_t i)
{
	const struct d9s_keyed *q = ctx;
	uint64_t k;

	memcpy(&k, q->p + i * q->size, sizeof k);
	return k <= q->key;
}

/* Index of the first of n elements (each size bytes, key first) whose key
 * is greater than key: the element before it is the last one <= key. */
static inline size_t
d9s_upper_bound(const void *base, size_t n, size_t size, uint64_t key)
{
	const struct d9s_keyed q = { base, size, key };

	return d9_partition(0, n, &q, d9s_key_not_above);
}

#endif
