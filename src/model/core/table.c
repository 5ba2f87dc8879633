/*
 * table.c: columns are reached through the descriptor's offsets. The
 * time sort takes the permutation of the keys (sort.h) and moves every
 * column by it: stretch by stretch through a buffer in cache, or, for
 * rows that move across the whole table, into fresh columns.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "base/pages.h"
#include "base/prefault.h"
#include "base/vec.h"
#include "model/core/table.h"

static void **
colp(void *tab, const struct d9m_col *c)
{
	return (void **)((char *)tab + c->off);
}

int
d9m_tab_reserve(void *tab, const struct d9m_tabdesc *d, size_t want)
{
	size_t *cap = (size_t *)tab + 1;

	if (want <= *cap)
		return 0;
	for (size_t i = 0; i < d->ncols; i++) {
		void **p = colp(tab, &d->cols[i]);
		void *q = d9_pages_realloc(*p, want * d->cols[i].elem);

		if (q == NULL)
			return -1;
		*p = q;
	}
	*cap = want;
	return 0;
}

uint32_t
d9m_tab_intern(struct d9_hmap *h, uint64_t key, void *tab,
    const struct d9m_tabdesc *d, int *fresh)
{
	uint32_t r = d9_hmap_get(h, key);
	size_t row;

	*fresh = 0;
	if (r != D9_NONE)
		return r;
	if (d9m_tab_n(tab) >= D9_NONE - 1 ||
	    (row = d9m_tab_push(tab, d)) == SIZE_MAX ||
	    d9_hmap_put(h, key, (uint32_t)row) < 0)
		return D9_NONE;
	*fresh = 1;
	return (uint32_t)row;
}

void
d9m_tab_ahead(const void *tab, const struct d9m_tabdesc *d, size_t from,
    size_t to, struct d9_prefault *pf)
{
	size_t cap = ((const size_t *)tab)[1];

	if (to > cap)
		to = cap;
	for (size_t i = 0; i < d->ncols && to > from; i++) {
		const char *col = *colp((void *)tab, &d->cols[i]);
		size_t el = d->cols[i].elem;

		if (col != NULL && cap * el >= D9_PAGES_HUGE)
			d9_prefault_ask(pf, col + from * el, (to - from) * el);
	}
}

int
d9m_tab_copy(void *dst, const void *src, const struct d9m_tabdesc *d)
{
	size_t n = d9m_tab_n(src);

	if (d9m_tab_reserve(dst, d, n ? n : 1) < 0)
		return -1;
	for (size_t i = 0; n > 0 && i < d->ncols; i++)	/* src: NULL if 0 */
		memcpy(*colp(dst, &d->cols[i]), *colp((void *)src, &d->cols[i]),
		    n * d->cols[i].elem);
	*(size_t *)dst = n;
	return 0;
}

size_t
d9m_tab_push(void *tab, const struct d9m_tabdesc *d)
{
	size_t *n = tab, *cap = n + 1;

	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;

		for (size_t i = 0; i < d->ncols; i++) {
			void **p = colp(tab, &d->cols[i]);
			void *q = d9_pages_realloc(*p, nc * d->cols[i].elem);

			if (q == NULL)
				return SIZE_MAX;
			*p = q;
		}
		*cap = nc;
	}
	return (*n)++;
}

void
d9m_tab_free(void *tab, const struct d9m_tabdesc *d)
{
	for (size_t i = 0; i < d->ncols; i++) {
		void **p = colp(tab, &d->cols[i]);

		free(*p);
		*p = NULL;
	}
	((size_t *)tab)[0] = 0;
	((size_t *)tab)[1] = 0;
}

static size_t
widest(const struct d9m_tabdesc *d)
{
	size_t maxel = 0;

	for (size_t c = 0; c < d->ncols; c++)
		maxel = d->cols[c].elem > maxel ? d->cols[c].elem : maxel;
	return maxel;
}

/* Rows [a, b) of every column become the old rows perm[a .. b), through
 * tmp (b - a rows of the widest column): perm[a .. b) names rows of
 * [a, b) only, or [a, b) is the whole table. */
static void
gather(void *tab, const struct d9m_tabdesc *d, const uint32_t *perm,
    size_t a, size_t b, char *tmp)
{
	size_t n = b - a;

	perm += a;
	for (size_t c = 0; c < d->ncols; c++) {
		void **p = colp(tab, &d->cols[c]);
		size_t el = d->cols[c].elem;
		char *src = *p;

		switch (el) {
		case 8:
			for (size_t i = 0; i < n; i++)
				((uint64_t *)(void *)tmp)[i] =
				    ((uint64_t *)(void *)src)[perm[i]];
			break;
		case 4:
			for (size_t i = 0; i < n; i++)
				((uint32_t *)(void *)tmp)[i] =
				    ((uint32_t *)(void *)src)[perm[i]];
			break;
		case 1:
			for (size_t i = 0; i < n; i++)
				tmp[i] = src[perm[i]];
			break;
		default:
			for (size_t i = 0; i < n; i++)
				memcpy(tmp + i * el, src + (size_t)perm[i] * el,
				    el);
		}
		memcpy(src + a * el, tmp, n * el);
	}
}

int
d9m_tab_permute(void *tab, const struct d9m_tabdesc *d, const uint32_t *perm,
    size_t n)
{
	char *tmp;

	/* gather each column into one scratch buffer and copy it back: the
	 * columns keep their memory, so no fresh pages are touched per
	 * column (page faults were a fifth of the load time) */
	if (n > 0 && (tmp = d9_pages_alloc(n * widest(d))) == NULL)
		return -1;
	if (n > 0) {
		gather(tab, d, perm, 0, n, tmp);
		free(tmp);
	}
	*(size_t *)tab = n;
	return 0;
}

#define PAGE	4096u

#define DROP_PAGES	4096u	/* emptied pages given back at once */
#define DROPPED		UINT32_MAX

/* The pages left counts as empty (0) go back, in runs, as far as they
 * lie inside [lo, hi) (the rows of the stretch: not a byte of the
 * allocator's or of a neighbour); they count as DROPPED then. */
static void
drop_empty(uint32_t *left, size_t npg, size_t base, uintptr_t lo,
    uintptr_t hi)
{
	for (size_t p = 0; p < npg; ) {
		uintptr_t from, to;
		size_t q = p;

		while (q < npg && left[q] == 0)
			left[q++] = DROPPED;
		from = (base + p) * PAGE;
		to = (base + q) * PAGE;
		from = from > lo ? from : lo;
		to = to < hi ? to : hi;
		if (to > from)
			d9_pages_drop((const void *)from, to - from);
		p = q + 1;
	}
}

/* One row of el bytes: the widths columns have are copied inline (a
 * call of memcpy per row of a whole table was a twentieth of the time of
 * `cat DIR/... | d9top -`). */
static inline void
copy_row(char *dst, const char *src, size_t el)
{
	switch (el) {
	case 8:
		memcpy(dst, src, 8);
		break;
	case 4:
		memcpy(dst, src, 4);
		break;
	case 2:
		memcpy(dst, src, 2);
		break;
	case 1:
		*dst = *src;
		break;
	default:
		memcpy(dst, src, el);
	}
}

/*
 * gather for a stretch too long to buffer (segments read out of time
 * order, as `cat trace.*` gives 0, 1, 10, 11 ..., make the whole table
 * one): each column is gathered into a fresh array, and the old one's
 * pages are given back once every row of the stretch on them was taken
 * (DROP_PAGES at a time: each give-back stops the other threads for
 * their TLBs), so a permutation that moves long runs of rows
 * (segments) holds little more than one column at a time.
 */
static int
gather_fresh(void *tab, const struct d9m_tabdesc *d, const uint32_t *perm,
    size_t a, size_t b)
{
	size_t n = d9m_tab_n(tab), cap = ((size_t *)tab)[1];
	uint32_t *left = NULL;

	for (size_t c = 0; c < d->ncols; c++) {
		void **col = colp(tab, &d->cols[c]);
		size_t el = d->cols[c].elem, base, npg, empty = 0;
		int whole = PAGE % el == 0;	/* no row on two pages */
		char *old = *col, *nw = d9_pages_alloc(cap * el);
		uintptr_t lo, hi;

		if (nw == NULL) {
			free(left);
			return -1;
		}
		memcpy(nw, old, a * el);
		memcpy(nw + b * el, old + b * el, (n - b) * el);
		/* rows of the stretch left to take on each old page (a row
		 * may end on the next page: it counts on its first) */
		lo = (uintptr_t)(old + a * el);
		hi = (uintptr_t)(old + b * el);
		base = lo / PAGE;
		npg = (hi - 1) / PAGE - base + 1;
		free(left);
		if ((left = calloc(npg, sizeof *left)) == NULL) {
			free(nw);
			return -1;
		}
		for (size_t i = a; whole && i < b; i++)
			left[(uintptr_t)(old + i * el) / PAGE - base]++;
		for (size_t i = a; i < b; i++) {
			const char *src = old + (size_t)perm[i] * el;

			copy_row(nw + i * el, src, el);
			if (whole &&
			    --left[(uintptr_t)src / PAGE - base] == 0 &&
			    ++empty == DROP_PAGES) {
				drop_empty(left, npg, base, lo, hi);
				empty = 0;
			}
		}
		free(old);
		*col = nw;
	}
	free(left);
	return 0;
}

/*
 * The permutation perm of a sort, stretch by stretch: a stretch ends at
 * row i when the rows before it and it are all that perm[..i] names (the
 * highest is i), so it is reordered alone, through a buffer of the
 * longest stretch. The time sort of a directory's table moves rows
 * within a segment only: stretches of a segment, a buffer in cache,
 * instead of one of the whole table per sort. A stretch of more than
 * FRESH_ROWS rows is gathered into fresh columns (gather_fresh).
 */
#define FRESH_ROWS	((size_t)1 << 20)

/* The rows of perm's longest stretch. */
static size_t
longest_stretch(const uint32_t *perm, size_t n)
{
	size_t most = 0, a = 0;
	uint32_t high = 0;

	for (size_t i = 0; i < n; i++) {
		high = perm[i] > high ? perm[i] : high;
		if (high == i) {
			most = i + 1 - a > most ? i + 1 - a : most;
			a = i + 1;
		}
	}
	return most;
}

static int
permute_stretches(void *tab, const struct d9m_tabdesc *d,
    const uint32_t *perm, size_t n)
{
	size_t most = 0, a = 0;
	uint32_t high = 0;
	char *tmp;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		high = perm[i] > high ? perm[i] : high;
		if (high == i) {
			if (i + 1 - a <= FRESH_ROWS && i + 1 - a > most)
				most = i + 1 - a;
			a = i + 1;
		}
	}
	if ((tmp = malloc((most ? most : 1) * widest(d))) == NULL)
		return -1;
	a = 0;
	high = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		high = perm[i] > high ? perm[i] : high;
		if (high != i)
			continue;
		if (i + 1 - a > FRESH_ROWS)
			rc = gather_fresh(tab, d, perm, a, i + 1);
		else if (i > a || perm[i] != i)
			gather(tab, d, perm, a, i + 1, tmp);
		a = i + 1;
	}
	free(tmp);
	return rc;
}

/* Column col (n rows of el, cap of room) with its pieces st[ord[i]]
 * copied in the order ord, to dst[r] each: 0, or -1 when out of memory. */
static int
copy_runs(void **col, size_t el, size_t n, size_t cap, const size_t *st,
    const size_t *ord, const size_t *dst, size_t k)
{
	char *old = *col, *nw = d9_pages_alloc(cap * el);
	uintptr_t lo = (uintptr_t)old, hi = lo + n * el;
	uintptr_t h0 = lo / D9_PAGES_HUGE;
	size_t np = (hi - 1) / D9_PAGES_HUGE - h0 + 1;
	size_t *left = calloc(np, sizeof *left);

	if (nw == NULL || left == NULL) {
		free(nw);
		free(left);
		return -1;
	}
	for (size_t j = 0; j < np; j++) {	/* the column's bytes on each */
		uintptr_t a = (h0 + j) * D9_PAGES_HUGE, b = a + D9_PAGES_HUGE;

		left[j] = (b < hi ? b : hi) - (a > lo ? a : lo);
	}
	for (size_t i = 0; i < k; i++) {
		size_t r = ord[i];
		uintptr_t a = lo + st[r] * el, b = lo + st[r + 1] * el;

		memcpy(nw + dst[r] * el, (const void *)a, b - a);
		for (size_t j = (a - h0 * D9_PAGES_HUGE) / D9_PAGES_HUGE;
		    a < b; j++) {
			uintptr_t e = (h0 + j + 1) * D9_PAGES_HUGE;
			uintptr_t upto = e < b ? e : b;

			if ((left[j] -= upto - a) == 0) {
				uintptr_t p0 = e - D9_PAGES_HUGE;

				p0 = p0 > lo ? p0 : lo;
				d9_pages_drop((const void *)p0,
				    (e < hi ? e : hi) - p0);
			}
			a = upto;
		}
	}
	free(left);
	free(old);
	*col = nw;
	return 0;
}

/*
 * Pieces of keys that came out of order (segments read in the order `cat
 * trace.*` lists them: 0, 1, 10, 11 ..., 19, 2, 20 ...: sort.h) make the
 * sort's permutation one stretch of the whole table, which gathering
 * reads row by row all over the columns (a cache miss a row: 0.6 s for
 * the 12 M runtime events of 58 segments). Such a permutation is applied
 * in two steps instead: the pieces are copied whole into the order of
 * their first rows, a column at a time into a fresh one whose old pages
 * go back, whole 2 MiB pages, once every piece on them is copied; then
 * what perm leaves is local (where neighbouring pieces overlap in time)
 * and is gathered stretch by stretch. perm becomes that rest. 1 when
 * done so, 0 when not for this path (no pieces out of order, or short
 * stretches), -1 when out of memory.
 */
static int
permute_blocks(void *tab, const struct d9m_tabdesc *d,
    const struct d9m_pieces *p, uint32_t *perm, size_t n)
{
	size_t cap = ((size_t *)tab)[1];

	if (p->k == 0 || longest_stretch(perm, n) <= FRESH_ROWS)
		return 0;	/* gathered stretch by stretch, in cache */
	d9m_pieces_local(p, perm, n);
	for (size_t c = 0; c < d->ncols; c++)
		if (copy_runs(colp(tab, &d->cols[c]), d->cols[c].elem, n, cap,
		    p->st, p->ord, p->dst, p->k) < 0)
			return -1;
	return permute_stretches(tab, d, perm, n) < 0 ? -1 : 1;
}

int
d9m_tab_sort(void *tab, const struct d9m_tabdesc *d)
{
	size_t n = d9m_tab_n(tab);
	uint32_t *perm;
	const uint64_t *keys;
	struct d9m_pieces p;
	int rc;

	if (n < 2 || d->ts_off == SIZE_MAX)
		return 0;
	keys = *(uint64_t **)(void *)((char *)tab + d->ts_off);
	if ((perm = d9_pages_alloc(n * sizeof *perm)) == NULL)
		return -1;
	rc = d9m_sort_perm_pieces(keys, n, perm, &p);
	if (rc == 0 && (rc = permute_blocks(tab, d, &p, perm, n)) == 0)
		rc = permute_stretches(tab, d, perm, n);
	d9m_pieces_free(&p);
	free(perm);
	return rc < 0 ? -1 : 0;
}

