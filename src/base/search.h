/*
 * search.h: the one binary search of d9top. d9_partition finds, in a
 * range of anything sorted, the first index that the predicate says is
 * not before the point sought; lower and upper bounds of a u64 column
 * are its two shorthands. A caller with a struct array, a key in two
 * parts or rows pointing into columns writes the predicate only.
 */
#ifndef D9_SEARCH_H
#define D9_SEARCH_H

#include <stddef.h>
#include <stdint.h>

/* The first i of [lo, hi) for which before(ctx, i) is false, hi when
 * none is: before must be true on a prefix of the range and false on the
 * rest (the range is sorted by what it compares). */
static inline size_t
d9_partition(size_t lo, size_t hi, const void *ctx,
    int (*before)(const void *ctx, size_t i))
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (before(ctx, mid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct d9_u64key {
	const uint64_t	*v;
	uint64_t	 x;
};

static inline int
d9_u64_below(const void *ctx, size_t i)
{
	const struct d9_u64key *k = ctx;

	return k->v[i] < k->x;
}

static inline int
d9_u64_not_above(const void *ctx, size_t i)
{
	const struct d9_u64key *k = ctx;

	return k->v[i] <= k->x;
}

/* The first of v[lo .. hi) (ascending) not below x, hi when none. */
static inline size_t
d9_bisect_u64(const uint64_t *v, size_t lo, size_t hi, uint64_t x)
{
	const struct d9_u64key k = { v, x };

	return d9_partition(lo, hi, &k, d9_u64_below);
}

/* The first of v[lo .. hi) (ascending) above x, hi when none: the one
 * before it is the last at or below x. */
static inline size_t
d9_upper_u64(const uint64_t *v, size_t lo, size_t hi, uint64_t x)
{
	const struct d9_u64key k = { v, x };

	return d9_partition(lo, hi, &k, d9_u64_not_above);
}

/* The same through a row index: the values v[row[i]] of rows row[lo ..
 * hi), ascending (a column seen through a permutation). */
struct d9_rowkey {
	const uint64_t	*v;
	const uint32_t	*row;
	uint64_t	 x;
};

static inline int
d9_row_not_above(const void *ctx, size_t i)
{
	const struct d9_rowkey *k = ctx;

	return k->v[k->row[i]] <= k->x;
}

static inline int
d9_row_below(const void *ctx, size_t i)
{
	const struct d9_rowkey *k = ctx;

	return k->v[k->row[i]] < k->x;
}

/* The first of row[lo .. hi) whose value is not below x, hi when none. */
static inline size_t
d9_lower_rows(const uint64_t *v, const uint32_t *row, size_t lo, size_t hi,
    uint64_t x)
{
	const struct d9_rowkey k = { v, row, x };

	return d9_partition(lo, hi, &k, d9_row_below);
}

/* The first of row[lo .. hi) whose value is above x, hi when none. */
static inline size_t
d9_upper_rows(const uint64_t *v, const uint32_t *row, size_t lo, size_t hi,
    uint64_t x)
{
	const struct d9_rowkey k = { v, row, x };

	return d9_partition(lo, hi, &k, d9_row_not_above);
}

#endif
