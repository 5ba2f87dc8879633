/*
 * vec.h: growth of the realloc'd columns. d9_grow() makes room for `need`
 * elements in *p (capacity *cap, element size `elem`), doubling; it checks
 * every multiplication, so a hostile count can only fail, never overflow.
 */
#ifndef D9_VEC_H
#define D9_VEC_H

#include <stddef.h>
#include <stdint.h>

int	d9_grow(void *pp, size_t *cap, size_t need, size_t elem);
/* Grow several parallel columns of one table to the same capacity. */
int	d9_grow_cols(size_t *cap, size_t need, size_t ncols, void **cols[],
	    const size_t elems[]);
/* *pp = a malloc'd copy of n elements of p (NULL when n is 0);
 * -1 when out of memory. */
int	d9_dup(void *pp, const void *p, size_t n, size_t elem);

#endif
