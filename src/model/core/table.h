/*
 * table.h: generic handling of the model's column tables. Every table
 * struct begins with `size_t n, cap;` followed by column pointers; a
 * table descriptor lists where its columns are and how wide an element
 * is, so growing, sorting by time, filtering and freeing are written once.
 */
#ifndef D9M_TABLE_H
#define D9M_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/sort.h"

struct d9m_col {
	uint16_t	off;		/* offsetof the column pointer */
	uint16_t	elem;		/* element size */
};

struct d9m_tabdesc {
	const char		*name;
	const struct d9m_col	*cols;
	size_t			 ncols;
	size_t			 ts_off;	/* column sorted by, or SIZE_MAX */
};

#define D9M_COL(T, f) { (uint16_t)offsetof(T, f), (uint16_t)sizeof(*((T *)0)->f) }

struct d9_hmap;
struct d9_prefault;

/* Append one row (columns uninitialised); returns its index or SIZE_MAX. */
size_t	d9m_tab_push(void *tab, const struct d9m_tabdesc *d);
/* The row of key in tab, whose rows are interned by key through the map
 * h (u64 keys): *fresh says it is new, its columns to fill. D9_NONE
 * when out of memory. */
uint32_t d9m_tab_intern(struct d9_hmap *h, uint64_t key, void *tab,
	    const struct d9m_tabdesc *d, int *fresh);
/* Ask pf to bring rows [from, to) of tab's large columns (blocks of
 * D9_PAGES_HUGE or more) in ahead of their writing, within the room tab
 * has (base/prefault.h). */
void	d9m_tab_ahead(const void *tab, const struct d9m_tabdesc *d,
	    size_t from, size_t to, struct d9_prefault *pf);
/* Make room for want rows in total. */
int	d9m_tab_reserve(void *tab, const struct d9m_tabdesc *d, size_t want);
void	d9m_tab_free(void *tab, const struct d9m_tabdesc *d);
/* Make dst (empty) a copy of src's rows. */
int	d9m_tab_copy(void *dst, const void *src, const struct d9m_tabdesc *d);
/* Reorder every column by perm (new row i = old row perm[i]). */
int	d9m_tab_permute(void *tab, const struct d9m_tabdesc *d,
	    const uint32_t *perm, size_t n);
/* Stable sort of the table by its ts column (its keys' permutation:
 * sort.h). */
int	d9m_tab_sort(void *tab, const struct d9m_tabdesc *d);

static inline size_t
d9m_tab_n(const void *tab)
{
	return *(const size_t *)tab;
}

/* Row i of a column: v + i, without arithmetic on the NULL of a column
 * that never got a row (NULL + 0 is undefined behaviour in C). */
static inline const uint64_t *
d9m_row(const uint64_t *v, size_t i)
{
	return v != NULL ? v + i : v;
}

#endif
