/*
 * table.c: columns are reached through the descriptor's offsets. The sort
 * is an LSD radix sort on (key - min) in 11-bit digits, skipping digits
 * that are the same for every key: traces span seconds, so three passes
 * usually suffice, and equal keys keep their arrival order (stable),
 * which is what the reference's stable sort by timestamp does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/search.h"
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

static int permute_blocks(void *, const struct d9m_tabdesc *,
    const uint64_t *, uint32_t *, size_t);

int
d9m_tab_sort(void *tab, const struct d9m_tabdesc *d)
{
	size_t n = d9m_tab_n(tab);
	uint32_t *perm;
	const uint64_t *keys;
	int rc;

	if (n < 2 || d->ts_off == SIZE_MAX)
		return 0;
	keys = *(uint64_t **)(void *)((char *)tab + d->ts_off);
	if ((perm = d9_pages_alloc(n * sizeof *perm)) == NULL)
		return -1;
	rc = d9m_sort_perm(keys, n, perm);
	if (rc == 0 && (rc = permute_blocks(tab, d, keys, perm, n)) == 0)
		rc = permute_stretches(tab, d, perm, n);
	free(perm);
	return rc < 0 ? -1 : 0;
}

/*
 * One LSD radix sort for both uses: `items` are either the keys
 * themselves (key == NULL) or row numbers into key[]. 11- or 16-bit
 * digits of
 * (key - min) from bit `first` up; digits equal for every key are
 * skipped; stable.
 */
#define ITEM_KEY(i) (key ? key[(uint32_t)(i)] : (i))

static int
radix(uint64_t *items, size_t n, const uint64_t *key, unsigned first)
{
	uint64_t lo = UINT64_MAX, hi = 0, *tmp, *a = items, *b;
	/* wide digits pay off once the count array is small next to n */
	unsigned bits = n >= (1u << 17) ? 16 : 11;
	size_t nb = (size_t)1 << bits, mask = nb - 1;
	uint32_t *count;

	for (size_t i = 0; i < n; i++) {
		uint64_t k = ITEM_KEY(items[i]);

		lo = k < lo ? k : lo;
		hi = k > hi ? k : hi;
	}
	/* the bits below `first` are not key (packed row numbers): the
	 * smallest word's must not be subtracted, or its key's digits
	 * borrow from the ones of every word with a smaller row */
	if (first > 0 && first < 64)
		lo &= ~((UINT64_C(1) << first) - 1);
	if (n < 2 || lo == hi)
		return 0;
	tmp = d9_pages_alloc(n * sizeof *tmp);
	count = malloc(nb * sizeof *count);
	if (tmp == NULL || count == NULL || n > UINT32_MAX) {
		free(tmp);
		free(count);
		return -1;
	}
	b = tmp;
	for (unsigned shift = first; shift < 64 && ((hi - lo) >> shift) != 0;
	    shift += bits) {
		uint64_t *t;
		uint32_t sum = 0;

		memset(count, 0, nb * sizeof *count);
		for (size_t i = 0; i < n; i++)
			count[((ITEM_KEY(a[i]) - lo) >> shift) & mask]++;
		for (size_t i = 0; i < nb; i++) {
			uint32_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			b[count[((ITEM_KEY(a[i]) - lo) >> shift) & mask]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	if (a != items)
		memcpy(items, a, n * sizeof *items);
	free(tmp);
	free(count);
	return 0;
}

int
d9m_sort_u64(uint64_t *v, size_t n)
{
	return radix(v, n, NULL, 0);
}

static void
swap_u64(uint64_t *v, size_t i, size_t j)
{
	uint64_t t = v[i];

	v[i] = v[j];
	v[j] = t;
}

uint64_t
d9m_nth_u64(uint64_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n;

	for (unsigned round = 0; hi - lo > 16; round++) {
		size_t mid = lo + (hi - lo) / 2, lt = lo, i = lo, gt = hi;
		uint64_t x = v[lo], y = v[mid], z = v[hi - 1], p;

		/* a pivot that keeps failing: sort what is left */
		if (round > 64 && d9m_sort_u64(v + lo, hi - lo) == 0)
			return v[k];
		p = x < y ? (y < z ? y : x < z ? z : x) :
		    (x < z ? x : y < z ? z : y);	/* the median of three */
		/* [lo, lt) below p, [lt, gt) p, [gt, hi) above */
		while (i < gt) {
			if (v[i] < p)
				swap_u64(v, lt++, i++);
			else if (v[i] > p)
				swap_u64(v, i, --gt);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return p;
	}
	for (size_t i = lo + 1; i < hi; i++)
		for (size_t j = i; j > lo && v[j - 1] > v[j]; j--)
			swap_u64(v, j - 1, j);
	return v[k];
}

#define ROW_BITS 24
#define MAX_RUNS 1024

/* Rows in a stable sort's order: by key, then by row number (runs may
 * come in any order, merge_runs). */
static inline int
row_before(const uint64_t *keys, uint32_t x, uint32_t y)
{
	return keys[x] < keys[y] || (keys[x] == keys[y] && x < y);
}

struct past {
	const uint64_t	*keys;
	const uint32_t	*a;
	uint32_t	 v;
};

static int
past_before(const void *ctx, size_t i)
{
	const struct past *p = ctx;

	return row_before(p->keys, p->a[i], p->v);
}

/* The first x of the sorted rows a[lo .. hi) that comes after row v;
 * hi when none does. */
static size_t
first_past(const uint64_t *keys, const uint32_t *a, size_t lo, size_t hi,
    uint32_t v)
{
	const struct past p = { keys, a, v };

	return d9_partition(lo, hi, &p, past_before);
}

/*
 * Merge the ascending runs p[st[r] .. st[r + 1]) (r < k, st[0] = 0) of
 * one block into p, through tmp: passes that merge two neighbours, each
 * key by key only where the two overlap (the ends are copied), stable.
 * st is used up.
 */
static void
merge_block(const uint64_t *keys, uint32_t *p, uint32_t *tmp, size_t *st,
    size_t k)
{
	size_t n = st[k];
	uint32_t *a = p, *b = tmp, *t;

	while (k > 1) {
		size_t nk = 0;

		for (size_t r = 0; r < k; r += 2) {
			size_t lo = st[r], mid = st[r + 1];
			size_t hi = r + 2 <= k ? st[r + 2] : mid, i = lo, j = mid;
			size_t o;

			if (mid < hi) {
				i = first_past(keys, a, lo, mid, a[mid]);
				hi = first_past(keys, a, mid, hi, a[mid - 1]);
			}
			memcpy(b + lo, a + lo, (i - lo) * sizeof *b);
			for (o = i; i < mid && j < hi; )
				b[o++] = row_before(keys, a[j], a[i]) ? a[j++] :
				    a[i++];
			memcpy(b + o, a + i, (mid - i) * sizeof *b);
			o += mid - i;
			hi = r + 2 <= k ? st[r + 2] : mid;
			memcpy(b + o, a + j, (hi - j) * sizeof *b);
			st[nk++] = lo;
		}
		st[nk] = n;
		k = nk;
		t = a;
		a = b;
		b = t;
	}
	if (a != p)
		memcpy(p, a, n * sizeof *p);
}

/*
 * Merge the runs p[st[r] .. st[r + 1]) (r < k) of one block one after the
 * other into the sorted rows before them: rows move only where the two
 * overlap, the earlier ones through a buffer of that overlap. The runs of
 * a directory's table overlap little (a segment begins a little before
 * the previous one ends), so this needs a buffer of a few rows instead
 * of one of the whole block. The number of runs merged: it stops, the
 * rows before the run it returns sorted, when an overlap would be more
 * than a sixteenth of the block or the moves more than four times it
 * (merge_block does the rest); 0 when out of memory.
 */
static size_t
merge_along(const uint64_t *keys, uint32_t *p, const size_t *st, size_t k)
{
	size_t n = st[k], moved = 0, cap = 0, r;
	uint32_t *buf = NULL;

	for (r = 1; r < k; r++) {
		size_t mid = st[r], j = mid, a = 0, nl, hi, o;

		o = first_past(keys, p, 0, mid, p[mid]);
		hi = first_past(keys, p, mid, st[r + 1], p[mid - 1]);
		nl = mid - o;
		if (nl > n / 16 || (moved += nl + hi - mid) > 4 * n)
			break;
		if (nl > cap) {
			uint32_t *q = realloc(buf, 2 * nl * sizeof *buf);

			if (q == NULL) {
				free(buf);
				return 0;
			}
			buf = q;
			cap = 2 * nl;
		}
		/* stable: the earlier rows first when keys are equal */
		memcpy(buf, p + o, nl * sizeof *buf);
		while (a < nl && j < hi)
			p[o++] = row_before(keys, p[j], buf[a]) ? p[j++] :
			    buf[a++];
		memcpy(p + o, buf + a, (nl - a) * sizeof *p);
	}
	free(buf);
	return r;
}

/*
 * Keys in few ascending runs (a table read in time order, one batch
 * after the other, is: 464 descents in the 10 M span events of 58
 * segments) are merged run by run: stable, as equal keys take the
 * earlier row first. The runs are taken in the order of their first
 * rows (runs_in_order: segments read in another order than time's, as
 * `cat trace.*` gives them, 0, 1, 10, 11 ..., are in time order again).
 * Runs that no later run overlaps end a block (a segment of a
 * directory, mostly), which is merged alone, in cache, and is then in
 * place. 1 when there are too many runs for that to pay: more than
 * MAX_RUNS and shorter than RUN_ROWS on average (a directory of many
 * segments has many runs, but long ones, each pass of the merge mostly
 * copies; keys in no order have runs of a row or two).
 */
#define RUN_ROWS 256

struct runs {
	const uint64_t	*keys;
	const size_t	*st;
};

/* qsort_r: run numbers by their first rows */
static int
cmp_run(const void *x, const void *y, void *ctx)
{
	const struct runs *c = ctx;
	uint32_t a = (uint32_t)c->st[*(const size_t *)x];
	uint32_t b = (uint32_t)c->st[*(const size_t *)y];

	return row_before(c->keys, a, b) ? -1 : row_before(c->keys, b, a);
}

/* perm: the rows of the runs st[0 .. k] (st[k] rows in all), run after
 * run in the order of their first rows; st becomes theirs in perm. 0,
 * or -1 when out of memory. */
static int
runs_in_order(const uint64_t *keys, size_t *st, size_t k, uint32_t *perm)
{
	struct runs c = { keys, st };
	size_t *ord, *nst;
	int sorted = 1;

	for (size_t r = 1; r < k && sorted; r++)
		sorted = row_before(keys, (uint32_t)st[r - 1],
		    (uint32_t)st[r]);
	if (sorted) {
		for (size_t i = 0; i < st[k]; i++)
			perm[i] = (uint32_t)i;
		return 0;
	}
	if ((ord = malloc((2 * k + 1) * sizeof *ord)) == NULL)
		return -1;
	nst = ord + k;
	for (size_t r = 0; r < k; r++)
		ord[r] = r;
	qsort_r(ord, k, sizeof *ord, cmp_run, &c);
	nst[0] = 0;
	for (size_t i = 0; i < k; i++) {
		size_t r = ord[i], n = st[r + 1] - st[r];

		for (size_t j = 0; j < n; j++)
			perm[nst[i] + j] = (uint32_t)(st[r] + j);
		nst[i + 1] = nst[i] + n;
	}
	memcpy(st, nst, (k + 1) * sizeof *st);
	free(ord);
	return 0;
}

/*
 * Pieces: the ascending runs of keys, cut where time jumps ahead by more
 * than gap too (piece_gap: a BLOCK_GAPS-th of the keys' span). Segments
 * read out of order (from segment 1 on to segment 10, as `cat trace.*`
 * lists them) continue a run where their rows belong far apart; cut
 * there, every piece lies where its rows go, so merging them and moving
 * them stays local. Any cut of a run leaves ascending pieces: the order
 * they sort to is the same.
 */
#define BLOCK_GAPS	1024

static uint64_t
piece_gap(const uint64_t *keys, size_t n)
{
	uint64_t lo = keys[0], hi = keys[0];

	for (size_t i = 1; i < n; i++) {
		lo = keys[i] < lo ? keys[i] : lo;
		hi = keys[i] > hi ? keys[i] : hi;
	}
	return (hi - lo) / BLOCK_GAPS + 1;
}

/* The number of pieces of keys[0 .. n) (n > 0), and their starts in st
 * (k + 1 of them, n last) when st is not NULL. */
static size_t
piece_starts(const uint64_t *keys, size_t n, uint64_t gap, size_t *st)
{
	size_t k = 1;

	for (size_t i = 1; i < n; i++)
		if (keys[i] < keys[i - 1] || keys[i] - keys[i - 1] > gap) {
			if (st != NULL)
				st[k] = i;
			k++;
		}
	if (st != NULL) {
		st[0] = 0;
		st[k] = n;
	}
	return k;
}

struct runpos {
	const size_t	*st;
	size_t		 x;
};

static int
run_starts_at_or_before(const void *ctx, size_t i)
{
	const struct runpos *p = ctx;

	return p->st[i] <= p->x;
}

/* Column col (n rows of el, cap of room) with its runs st[ord[i]] copied
 * in the order ord, to dst[r] each: 0, or -1 when out of memory. */
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
 * Runs of keys that came out of order (segments read in the order `cat
 * trace.*` lists them: 0, 1, 10, 11 ..., 19, 2, 20 ...) make the sort's
 * permutation one stretch of the whole table, which gathering reads row
 * by row all over the columns (a cache miss a row: 0.6 s for the 12 M
 * runtime events of 58 segments). Such a permutation is applied in two
 * steps instead: the pieces (piece_starts) are copied whole into the
 * order of their first rows (as runs_in_order orders runs), a column at
 * a time into a fresh one
 * whose old pages go back, whole 2 MiB pages, once every run on them is
 * copied; then what perm leaves is local (where neighbouring runs
 * overlap in time) and is gathered stretch by stretch. perm becomes that
 * rest. 1 when done so, 0 when the runs are in order already (or too
 * many to be runs), -1 when out of memory.
 */
static int
permute_blocks(void *tab, const struct d9m_tabdesc *d, const uint64_t *keys,
    uint32_t *perm, size_t n)
{
	uint64_t gap;
	size_t k, *st, *ord, *dst, r = 0, cap = ((size_t *)tab)[1];
	int in_order = 1, rc = 0;

	if (longest_stretch(perm, n) <= FRESH_ROWS)
		return 0;	/* gathered stretch by stretch, in cache */
	gap = piece_gap(keys, n);
	k = piece_starts(keys, n, gap, NULL);
	if (k == 1 || (k > MAX_RUNS && k > n / RUN_ROWS))
		return 0;
	if ((st = malloc((3 * k + 1) * sizeof *st)) == NULL)
		return -1;
	ord = st + k + 1;
	dst = ord + k;
	piece_starts(keys, n, gap, st);
	for (size_t j = 1; j < k && in_order; j++)
		in_order = !row_before(keys, (uint32_t)st[j],
		    (uint32_t)st[j - 1]);
	if (in_order)
		goto out;
	for (size_t j = 0; j < k; j++)
		ord[j] = j;
	qsort_r(ord, k, sizeof *ord, cmp_run,
	    &(struct runs){ keys, st });
	for (size_t j = 0, at = 0; j < k; j++) {
		dst[ord[j]] = at;
		at += st[ord[j] + 1] - st[ord[j]];
	}
	/* perm in the rows' places once their runs are moved (the run of
	 * a row: the last starting at or before it; mostly the last one) */
	for (size_t i = 0; i < n; i++) {
		size_t x = perm[i];

		if (x < st[r] || x >= st[r + 1]) {
			const struct runpos p = { st, x };

			r = d9_partition(0, k, &p, run_starts_at_or_before) - 1;
		}
		perm[i] = (uint32_t)(dst[r] + x - st[r]);
	}
	for (size_t c = 0; c < d->ncols && rc == 0; c++)
		if (copy_runs(colp(tab, &d->cols[c]), d->cols[c].elem, n, cap,
		    st, ord, dst, k) < 0)
			rc = -1;
	if (rc == 0)
		rc = permute_stretches(tab, d, perm, n) < 0 ? -1 : 1;
out:
	free(st);
	return rc;
}

static int
merge_runs(const uint64_t *keys, size_t n, uint32_t *perm)
{
	size_t *st, *end, *rs, k, nb = 0, most = 0, b0 = 0;
	uint32_t *low, *tmp, high = 0;
	uint64_t gap = piece_gap(keys, n);

	k = piece_starts(keys, n, gap, NULL);
	if (k > MAX_RUNS && k > n / RUN_ROWS)
		return 1;
	if (k == 1) {
		for (size_t i = 0; i < n; i++)
			perm[i] = (uint32_t)i;
		return 0;
	}
	if ((st = malloc((3 * k + 2) * sizeof *st +
	    (k + 1) * sizeof *low)) == NULL)
		return -1;
	end = st + k + 1;
	rs = end + k;
	low = (uint32_t *)(void *)(rs + k + 1);
	piece_starts(keys, n, gap, st);
	if (runs_in_order(keys, st, k, perm) < 0) {
		free(st);
		return -1;
	}
	/* low[r]: the first row from run r on (in perm's order, by key then
	 * row); a block ends before run r when no row before it comes
	 * after that one */
	for (size_t r = k; r-- > 0; )
		low[r] = r + 1 == k || row_before(keys, perm[st[r]],
		    low[r + 1]) ? perm[st[r]] : low[r + 1];
	for (size_t r = 0; r < k; r++) {
		uint32_t last = perm[st[r + 1] - 1];

		high = r == 0 || row_before(keys, high, last) ? last : high;
		if (r + 1 == k || row_before(keys, high, low[r + 1])) {
			end[nb++] = r + 1;
			most = st[r + 1] - st[b0] > most ? st[r + 1] - st[b0] :
			    most;
			b0 = r + 1;
		}
	}
	b0 = 0;
	tmp = NULL;
	for (size_t b = 0; b < nb; b0 = end[b++]) {
		size_t nr = end[b] - b0, done;

		for (size_t r = b0; r <= end[b]; r++)
			rs[r - b0] = st[r] - st[b0];
		if ((done = merge_along(keys, perm + st[b0], rs, nr)) == 0 ||
		    (done < nr && tmp == NULL &&
		    (tmp = malloc(most * sizeof *tmp)) == NULL)) {
			free(st);
			return -1;
		}
		/* the rows merged so far are the first run of the rest */
		rs[done - 1] = 0;
		if (done < nr)
			merge_block(keys, perm + st[b0], tmp, rs + done - 1,
			    nr - done + 1);
	}
	free(tmp);
	free(st);
	return 0;
}

int
d9m_sort_perm(const uint64_t *keys, size_t n, uint32_t *perm)
{
	uint64_t *rows, lo = UINT64_MAX, hi = 0;
	int packed, rc;

	if ((rc = merge_runs(keys, n, perm)) <= 0)
		return rc;
	if ((rows = d9_pages_alloc((n ? n : 1) * sizeof *rows)) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		lo = keys[i] < lo ? keys[i] : lo;
		hi = keys[i] > hi ? keys[i] : hi;
	}
	/* when (key - min) and the row fit one word, sort the words: no
	 * indirection, and the row bits keep equal keys in order */
	packed = n < (1u << ROW_BITS) && n > 0 &&
	    (hi - lo) < (1ull << (64 - ROW_BITS));
	for (size_t i = 0; i < n; i++)
		rows[i] = packed ? (keys[i] - lo) << ROW_BITS | i : i;
	rc = packed ? radix(rows, n, NULL, ROW_BITS) : radix(rows, n, keys, 0);
	for (size_t i = 0; rc == 0 && i < n; i++)
		perm[i] = (uint32_t)(rows[i] & (packed ?
		    (1u << ROW_BITS) - 1 : UINT64_MAX));
	free(rows);
	return rc;
}
