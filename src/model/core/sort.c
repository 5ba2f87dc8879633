/*
 * sort.c: see sort.h. The sort is an LSD radix sort on (key - min) in
 * 11- or 16-bit digits, skipping digits that are the same for every key:
 * traces span seconds, so three passes usually suffice, and equal keys
 * keep their arrival order (stable), which is what the reference's
 * stable sort by timestamp does. Keys that come in few ascending pieces
 * (a table read batch after batch) are merged piece by piece instead.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/pages.h"
#include "base/search.h"
#include "model/core/sort.h"

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
 * run in the order of their first rows; st becomes theirs in perm; keep
 * (unless NULL) the runs as they were and that order, when it differs.
 * 0, or -1 when out of memory. */
static int
runs_in_order(const uint64_t *keys, size_t *st, size_t k, uint32_t *perm,
    struct d9m_pieces *keep)
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
	ord = malloc(k * sizeof *ord);
	nst = malloc((k + 1) * sizeof *nst);
	if (ord == NULL || nst == NULL)
		goto fail;
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
	if (keep != NULL) {
		keep->st = malloc((k + 1) * sizeof *keep->st);
		keep->dst = malloc(k * sizeof *keep->dst);
		if (keep->st == NULL || keep->dst == NULL)
			goto fail;
		memcpy(keep->st, st, (k + 1) * sizeof *st);
		for (size_t i = 0; i < k; i++)
			keep->dst[ord[i]] = nst[i];
		keep->ord = ord;
		keep->k = k;
		ord = NULL;
	}
	memcpy(st, nst, (k + 1) * sizeof *st);
	free(ord);
	free(nst);
	return 0;
fail:
	free(ord);
	free(nst);
	return -1;
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

static int
merge_runs(const uint64_t *keys, size_t n, uint32_t *perm,
    struct d9m_pieces *keep)
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
	if (runs_in_order(keys, st, k, perm, keep) < 0) {
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
d9m_sort_perm_pieces(const uint64_t *keys, size_t n, uint32_t *perm,
    struct d9m_pieces *p)
{
	uint64_t *rows, lo = UINT64_MAX, hi = 0;
	int packed, rc;

	if (p != NULL)
		memset(p, 0, sizeof *p);
	if (n == 0)
		return 0;	/* keys may be NULL: an empty column */
	if ((rc = merge_runs(keys, n, perm, p)) <= 0)
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

int
d9m_sort_perm(const uint64_t *keys, size_t n, uint32_t *perm)
{
	return d9m_sort_perm_pieces(keys, n, perm, NULL);
}

void
d9m_pieces_local(const struct d9m_pieces *p, uint32_t *perm, size_t n)
{
	size_t r = 0;

	/* the piece of a row: the last starting at or before it (mostly
	 * the one of the row before) */
	for (size_t i = 0; i < n; i++) {
		size_t x = perm[i];

		if (x < p->st[r] || x >= p->st[r + 1]) {
			const struct runpos q = { p->st, x };

			r = d9_partition(0, p->k, &q,
			    run_starts_at_or_before) - 1;
		}
		perm[i] = (uint32_t)(p->dst[r] + x - p->st[r]);
	}
}

void
d9m_pieces_free(struct d9m_pieces *p)
{
	free(p->st);
	free(p->ord);
	free(p->dst);
	memset(p, 0, sizeof *p);
}
