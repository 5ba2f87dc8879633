/*
 * test_sort.c: the model's sorts and selections (model/core/table.h,
 * model/queries/select.h): stable orders against qsort by (key, row), the paths
 * each way takes (radix, packed or not; runs merged, in any order; rows
 * moved through a buffer, into fresh columns, or whole runs copied into
 * order first), ranks against sorting,
 * and percentiles read in passes against those of an array.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/figures/analysis.h"
#include "model/core/model.h"
#include "model/queries/select.h"
#include "model/core/table.h"
#include "model/core/tables.h"
#include "suites.h"

/* Keys one apart, the smallest not in row 0; keys too far apart to pack
 * (both in few runs: the merge). */
START_TEST(test_sort_perm_packed)
{
	const uint64_t near[] = { 1, 0, 1, 0 }, far[] = { UINT64_MAX, 0, 5, 0 };
	uint32_t p[4];

	ck_assert_int_eq(d9m_sort_perm(near, 4, p), 0);
	ck_assert(p[0] == 1 && p[1] == 3 && p[2] == 0 && p[3] == 2);
	ck_assert_int_eq(d9m_sort_perm(far, 4, p), 0);
	ck_assert(p[0] == 1 && p[1] == 3 && p[2] == 2 && p[3] == 0);
}
END_TEST

/* No keys (a model without polls: its column is NULL): nothing read.
 * The index's writer sorted the polls of such a model and read key 0
 * of a NULL column (ThreadSanitizer's run of the e2e suite). */
START_TEST(test_sort_perm_none)
{
	uint32_t p[1] = { 7 };
	struct d9m_pieces pc;

	ck_assert_int_eq(d9m_sort_perm(NULL, 0, p), 0);
	ck_assert_int_eq(d9m_sort_perm_pieces(NULL, 0, p, &pc), 0);
	ck_assert_uint_eq(p[0], 7);
}
END_TEST

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * d9m_nth_u64 gives the value sorting puts at each rank, on values with
 * few and many distinct keys, ascending, descending, all equal, and a
 * sawtooth; what it leaves before the rank is not above it.
 */
START_TEST(test_nth)
{
	enum { N = 5000 };
	uint64_t *v = malloc(N * sizeof *v), *w = malloc(N * sizeof *w);
	uint64_t *sorted = malloc(N * sizeof *sorted), seed = 7 + (uint64_t)_i;
	static const size_t ks[] = { 0, 1, 17, N / 2, N - 51, N - 2, N - 1 };

	ck_assert(v && w && sorted);
	for (size_t i = 0; i < N; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = _i == 0 ? seed >> 11 : _i == 1 ? (seed >> 33) % 5 :
		    _i == 2 ? i : _i == 3 ? N - i : _i == 4 ? 42 : i % 97;
	}
	memcpy(sorted, v, N * sizeof *v);
	qsort(sorted, N, sizeof *sorted, cmp_u64);
	for (size_t j = 0; j < sizeof ks / sizeof *ks; j++) {
		memcpy(w, v, N * sizeof *v);
		ck_assert_uint_eq(d9m_nth_u64(w, N, ks[j]), sorted[ks[j]]);
		for (size_t i = 0; i < ks[j]; i++)
			ck_assert_uint_le(w[i], sorted[ks[j]]);
	}
	free(v);
	free(w);
	free(sorted);
}
END_TEST

struct kr {
	uint64_t	key;
	uint32_t	row;
};

static int
cmp_kr(const void *x, const void *y)
{
	const struct kr *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

/*
 * Both ways d9m_sort_perm sorts give a stable sort's order: keys in many
 * runs (radix, packed when the keys are close, by row number when not)
 * and in few ascending runs (merged), with equal keys across runs; runs
 * in blocks that overlap only in their equal end keys (the segments of
 * a directory: each block merged alone).
 */
/* d9m_sort_perm(keys) gives a stable sort's order (ref, perm: room for
 * n); all three freed. */
static void
ck_stable_order(uint64_t *keys, size_t n, uint32_t *perm, struct kr *ref)
{
	for (size_t i = 0; i < n; i++)
		ref[i] = (struct kr){ keys[i], (uint32_t)i };
	qsort(ref, n, sizeof *ref, cmp_kr);
	ck_assert_int_eq(d9m_sort_perm(keys, n, perm), 0);
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(perm[i], ref[i].row);
	free(keys);
	free(perm);
	free(ref);
}

/* Room for n keys, their permutation and the reference order. */
static void
sort_bufs(size_t n, uint64_t **keys, uint32_t **perm, struct kr **ref)
{
	*keys = malloc(n * sizeof **keys);
	*perm = malloc(n * sizeof **perm);
	*ref = malloc(n * sizeof **ref);
	ck_assert(*keys && *perm && *ref);
}

START_TEST(test_sort_perm_paths)
{
	enum { N = 6000 };
	/* blocks of runs, each step above the one before, keys below span
	 * in each: step span - 1, blocks that share their end keys; less,
	 * blocks that overlap */
	static const struct { unsigned runs, blocks; uint64_t span, step; }
	    c[] = { { 0, 1, 50, 0 }, { 0, 1, UINT64_MAX, 0 },
		{ 1, 1, 1000, 0 }, { 2, 1, 30, 0 }, { 97, 1, 400, 0 },
		{ 256, 1, 1u << 20, 0 }, { 300, 1, 1000, 0 },
		{ 500, 25, 50, 49 }, { 1000, 100, 7, 5 },
		{ 96, 3, 1u << 20, 1u << 20 }, { 1100, 1, 1000, 0 } };
	uint64_t *keys;
	uint32_t *perm;
	struct kr *ref;
	uint64_t seed = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
	unsigned runs = c[_i].runs;

	sort_bufs(N, &keys, &perm, &ref);
	for (size_t i = 0; i < N; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		keys[i] = (seed >> 11) % (c[_i].span == UINT64_MAX ?
		    UINT64_MAX : c[_i].span);
		if (c[_i].span == UINT64_MAX)
			keys[i] = seed;
	}
	if (runs > 0)		/* runs ascending runs of equal length */
		for (size_t r = 0; r < runs; r++) {
			size_t a = N * r / runs, b = N * (r + 1) / runs;
			struct kr *t = ref + a;

			for (size_t i = a; i < b; i++)
				ref[i] = (struct kr){ keys[i], (uint32_t)i };
			qsort(t, b - a, sizeof *t, cmp_kr);
			/* in block r * blocks / runs */
			for (size_t i = a; i < b; i++)
				keys[i] = ref[i].key % (c[_i].span + 1) +
				    r * c[_i].blocks / runs * c[_i].step;
		}
	ck_stable_order(keys, N, perm, ref);
}
END_TEST

/* More runs than MAX_RUNS but long ones (a directory of many segments:
 * each run overlaps the next a little) are merged, not radix-sorted;
 * either way the order is a stable sort's. */
START_TEST(test_sort_perm_many_runs)
{
	enum { N = 400000, RUNS = 1500 };
	uint64_t *keys;
	uint32_t *perm;
	struct kr *ref;
	uint64_t seed = 42;
	size_t descents = 0;

	sort_bufs(N, &keys, &perm, &ref);
	for (size_t r = 0; r < RUNS; r++) {
		size_t a = (size_t)N * r / RUNS, b = (size_t)N * (r + 1) / RUNS;

		for (size_t i = a; i < b; i++) {
			seed = seed * 6364136223846793005ull +
			    1442695040888963407ull;
			keys[i] = r * 100 + (seed >> 33) % 1000;
		}
		for (size_t i = a; i < b; i++)
			ref[i] = (struct kr){ keys[i], (uint32_t)i };
		qsort(ref + a, b - a, sizeof *ref, cmp_kr);
		for (size_t i = a; i < b; i++)
			keys[i] = ref[i].key;
	}
	for (size_t i = 1; i < N; i++)
		descents += keys[i] < keys[i - 1];
	ck_assert_uint_gt(descents, 1024);	/* above MAX_RUNS */
	ck_stable_order(keys, N, perm, ref);
}
END_TEST

/*
 * Segments read out of time order (`cat trace.*`: 0, 1, 10, 11 ..., 2,
 * 20 ...), each a few ascending runs, neighbours sharing their end key:
 * the runs are merged in the order of their first rows, and the order
 * is a stable sort's.
 */
START_TEST(test_sort_perm_shuffled_segments)
{
	enum { SEGS = 40, RUNS = 3, ROWS = 500, N = SEGS * RUNS * ROWS };
	size_t i = 0;
	uint64_t seed = 7, *keys;
	uint32_t *perm;
	struct kr *ref;

	sort_bufs(N, &keys, &perm, &ref);
	for (unsigned d = 0; d < 10; d++)	/* names in byte order */
		for (unsigned g = 0; g < SEGS; g++) {
			char name[8];

			snprintf(name, sizeof name, "%u", g);
			if ((unsigned)(name[0] - '0') != d)
				continue;
			/* segment g: keys g*1000 .. g*1000+1000 */
			for (unsigned r = 0; r < RUNS; r++)
				for (unsigned j = 0; j < ROWS; j++) {
					seed = seed * 6364136223846793005ull +
					    1442695040888963407ull;
					keys[i++] = g * 1000ull + (j == 0 ? 0 :
					    j + 1 == ROWS ? 1000 :
					    (seed >> 33) % 1000);
				}
		}
	ck_assert_uint_eq(i, N);
	for (size_t a = 0; a < N; a += ROWS) {	/* each run ascending */
		for (size_t j = a; j < a + ROWS; j++)
			ref[j] = (struct kr){ keys[j], (uint32_t)j };
		qsort(ref + a, ROWS, sizeof *ref, cmp_kr);
		for (size_t j = a; j < a + ROWS; j++)
			keys[j] = ref[j].key;
	}
	ck_stable_order(keys, N, perm, ref);
}
END_TEST

/*
 * A table sorted by time whose rows move across the whole of it (more
 * than a million: its runs copied whole into order, the rest gathered
 * locally): every column follows its key, equal keys keep their order,
 * within a segment and where a segment's last key is the next one's
 * first (the earlier row first, wherever the two segments came).
 */
START_TEST(test_tab_sort_whole_table)
{
	enum { SEGS = 24, ROWS = 50000, N = SEGS * ROWS };
	struct d9m_wakes w;
	size_t bad = 0;		/* counted, not asserted a row at a time:
				 * each assertion costs a write to Check */

	memset(&w, 0, sizeof w);
	ck_assert_int_eq(d9m_tab_reserve(&w, &d9m_desc_wakes, N), 0);
	for (size_t i = 0; i < N; i++) {
		/* segments in the order 0, 1, 10, 11 ... by their keys */
		size_t g = (i / ROWS * 7) % SEGS, j = i % ROWS;

		bad += d9m_tab_push(&w, &d9m_desc_wakes) != i;
		w.ts[i] = j + 1 == ROWS ? (g + 1) * 1000000ull :
		    g * 1000000ull + j * 10 + (j % 7 == 3 ? 10 : 0);
		w.waker[i] = (uint32_t)i;	/* the old row */
		w.woken[i] = (uint32_t)(i * 3);
		w.worker[i] = (uint32_t)(i ^ 0x5555);
	}
	ck_assert_int_eq(d9m_tab_sort(&w, &d9m_desc_wakes), 0);
	ck_assert_uint_eq(w.n, N);
	ck_assert_uint_eq(bad, 0);
	for (size_t i = 0; i < N; i++) {
		uint32_t o = w.waker[i];

		bad += w.woken[i] != o * 3 || w.worker[i] != (o ^ 0x5555);
		bad += i > 0 && (w.ts[i - 1] > w.ts[i] || (w.ts[i - 1] ==
		    w.ts[i] && w.waker[i - 1] >= o));
	}
	ck_assert_uint_eq(bad, 0);
	d9m_tab_free(&w, &d9m_desc_wakes);
}
END_TEST

/*
 * Segments of random lengths in a random order, each of a few runs that
 * overlap (workers' batches), neighbouring segments overlapping at their
 * edges, keys on a coarse grid (equal keys common, across segments too),
 * over a million rows (the whole table moves): each column follows its
 * key in a stable order, as qsort by (key, row) gives it.
 */
START_TEST(test_tab_sort_random_segments)
{
	enum { SEGS = 37, MOST = 60000 };
	uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)(_i + 3);
	size_t len[SEGS], order[SEGS], n = 0, bad = 0;
	struct d9m_wakes w;
	struct kr *ref;

	for (size_t g = 0; g < SEGS; g++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		len[g] = 20000 + (seed >> 33) % MOST;
		order[g] = g;
	}
	for (size_t g = SEGS - 1; g > 0; g--) {	/* shuffled */
		size_t j, t;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		j = (seed >> 33) % (g + 1);
		t = order[g];
		order[g] = order[j];
		order[j] = t;
	}
	memset(&w, 0, sizeof w);
	for (size_t k = 0; k < SEGS; k++) {
		size_t g = order[k], runs = 1 + g % 3;

		for (size_t r = 0; r < runs; r++) {
			uint64_t ts = g * 1000000ull - (r ? 300 : 0);

			for (size_t j = 0; j < len[g] / runs; j++) {
				size_t i = d9m_tab_push(&w, &d9m_desc_wakes);

				bad += i != n;
				seed = seed * 6364136223846793005ull +
				    1442695040888963407ull;
				/* steps of 0 to 3 on a grid of 10: ties */
				ts += 10 * ((seed >> 40) % 4);
				w.ts[i] = ts;
				w.waker[i] = (uint32_t)i;	/* the old row */
				w.woken[i] = (uint32_t)(i * 7);
				w.worker[i] = (uint32_t)(i ^ 0xa5a5);
				n++;
			}
		}
	}
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_gt(n, 1u << 20);
	ref = malloc(n * sizeof *ref);
	ck_assert_ptr_nonnull(ref);
	for (size_t i = 0; i < n; i++)
		ref[i] = (struct kr){ w.ts[i], (uint32_t)i };
	qsort(ref, n, sizeof *ref, cmp_kr);
	ck_assert_int_eq(d9m_tab_sort(&w, &d9m_desc_wakes), 0);
	ck_assert_uint_eq(w.n, n);
	for (size_t i = 0; i < n; i++) {
		uint32_t o = w.waker[i];

		bad += o != ref[i].row || w.ts[i] != ref[i].key ||
		    w.woken[i] != o * 7 || w.worker[i] != (o ^ 0xa5a5);
	}
	ck_assert_uint_eq(bad, 0);
	free(ref);
	d9m_tab_free(&w, &d9m_desc_wakes);
}
END_TEST

/* An array as a d9m_values source. */
struct arr {
	const uint64_t	*v;
	size_t		 n;
};

static size_t
fill_arr(void *ctx, size_t *cursor, uint64_t *buf, size_t cap)
{
	const struct arr *a = ctx;
	size_t k = a->n - *cursor < cap ? a->n - *cursor : cap;

	memcpy(buf, a->v + *cursor, k * sizeof *buf);
	*cursor += k;
	return k;
}

/*
 * d9m_pct_pass (values read again, never kept) gives d9m_pct_of's
 * figures exactly: few values (copied) and many (digit passes), values
 * all equal, in a narrow range, below 2^16, below 2^32 (the first pass
 * then counts the highest digit), below 2^32 but one of 2^32 (it does
 * not), and over the whole u64 range, chunk ends anywhere; the source
 * knowing how many values it has or not.
 */
START_TEST(test_pct_pass)
{
	static const size_t ns[] = { 0, 1, 2, 99, 65536, 65537, 200003 };
	static const uint64_t ranges[] = { 1, 7, 1000, 1u << 20, 1ull << 32,
		0 };
	uint64_t seed = 99;

	for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
		for (size_t b = 0; b <= sizeof ranges / sizeof *ranges; b++) {
			size_t n = ns[a];
			uint64_t *v = malloc((n + 1) * sizeof *v);
			struct arr ar = { v, n };
			const struct d9m_values src[2] = { { fill_arr, &ar, 0 },
				{ fill_arr, &ar, n } };
			struct d9m_pct want, got[2];

			ck_assert_ptr_nonnull(v);
			for (size_t i = 0; i < n; i++) {
				uint64_t r = b < sizeof ranges / sizeof *ranges ?
				    ranges[b] : 1ull << 32;

				seed = seed * 6364136223846793005ull +
				    1442695040888963407ull;
				v[i] = r ? (seed >> 7) % r : seed;
			}
			if (n > 0 && b == sizeof ranges / sizeof *ranges)
				v[n / 2] = 1ull << 32;
			for (int k = 0; k < 2; k++)
				ck_assert_int_eq(d9m_pct_pass(&src[k], &got[k]),
				    0);
			d9m_pct_of(v, n, &want);	/* reorders v */
			for (int k = 0; k < 2; k++) {
				ck_assert_uint_eq(got[k].count, want.count);
				ck_assert_uint_eq(got[k].max, want.max);
				ck_assert_uint_eq(got[k].p50, want.p50);
				ck_assert_uint_eq(got[k].p99, want.p99);
			}
			free(v);
		}
}
END_TEST

Suite *
sort_suite(void)
{
	Suite *s = suite_create("sort");
	TCase *tc = tcase_create("orders");

	tcase_add_test(tc, test_sort_perm_packed);
	tcase_add_test(tc, test_sort_perm_none);
	tcase_add_loop_test(tc, test_nth, 0, 6);
	tcase_add_loop_test(tc, test_sort_perm_paths, 0, 11);
	tcase_add_test(tc, test_sort_perm_many_runs);
	tcase_add_test(tc, test_sort_perm_shuffled_segments);
	tcase_add_test(tc, test_tab_sort_whole_table);
	tcase_add_loop_test(tc, test_tab_sort_random_segments, 0, 4);
	tcase_add_test(tc, test_pct_pass);
	suite_add_tcase(s, tc);
	return s;
}
