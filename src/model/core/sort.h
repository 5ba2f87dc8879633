/*
 * sort.h: keys (timestamps) in a stable order: the permutation of their
 * rows, equal keys in row order; the values themselves sorted; a rank's
 * value. table.h's sort applies the permutation to a table's columns.
 */
#ifndef D9M_SORT_H
#define D9M_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Stable permutation sorting keys ascending (runs merged, or LSD radix);
 * n may be 0, keys then NULL (an empty column). */
int	d9m_sort_perm(const uint64_t *keys, size_t n, uint32_t *perm);

/*
 * Pieces: the ascending runs of the keys, cut where time also jumps
 * ahead (sort.c): a table read batch after batch comes in few. When the
 * sort merged pieces that came out of the order of their first rows
 * (segments read as `cat trace.*` lists them), it keeps them, for the
 * rows to be moved a piece at a time.
 */
struct d9m_pieces {
	size_t	 k;	/* pieces kept; 0: none */
	size_t	*st;	/* their starts, k + 1 (the keys' count last) */
	size_t	*ord;	/* the pieces in the order of their first rows */
	size_t	*dst;	/* where piece r begins in that order */
};

/* d9m_sort_perm, keeping its pieces in *p (p->k 0 when it has none to
 * keep); d9m_pieces_free it. */
int	d9m_sort_perm_pieces(const uint64_t *keys, size_t n, uint32_t *perm,
	    struct d9m_pieces *p);
/* perm (n rows) made the permutation that is left once every piece of p
 * is moved, whole, to its place in p's order. */
void	d9m_pieces_local(const struct d9m_pieces *p, uint32_t *perm, size_t n);
void	d9m_pieces_free(struct d9m_pieces *p);

/* Sort values ascending (radix; returns -1 only when out of memory). */
int	d9m_sort_u64(uint64_t *v, size_t n);
/* The value of rank k (0: the smallest) of v[0 .. n), k < n, exactly as
 * sorting would place it; v is reordered: what comes before k is not
 * above it (selection, no memory). */
uint64_t d9m_nth_u64(uint64_t *v, size_t n, size_t k);

#endif
