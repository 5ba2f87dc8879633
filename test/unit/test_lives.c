/*
 * test_lives.c: the lives of legacy span events (model/lives.h), linked
 * in one pass through a map of span ids, against the linking they
 * replaced: the rows grouped by span id (a stable sort keeps their time
 * order) and cut after each close. Generated tables mix reused ids,
 * interleaved lives, closes, 0.5 rows (an instance id: a spanx row) and
 * single-event spans (one too), which belong to no life.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model/lives.h"
#include "model/table.h"
#include "unit.h"

/* The linking by sorting: next and prev_enter as the sort gives them. */
static void
link_by_sort(const struct d9m_spanev *e, uint32_t *next, uint32_t *prev)
{
	uint32_t *perm = malloc((e->n + 1) * sizeof *perm);
	uint32_t last = D9_NONE, enter = D9_NONE;
	uint64_t id = 0;

	ck_assert_ptr_nonnull(perm);
	ck_assert_int_eq(d9m_sort_perm(e->span_id, e->n, perm), 0);
	for (size_t k = 0; k < e->n; k++) {
		uint32_t i = perm[k];

		next[i] = prev[i] = D9_NONE;
		if (!d9m_span_is_legacy(e, i))
			continue;
		if (last != D9_NONE && e->span_id[i] != id)
			last = enter = D9_NONE;
		id = e->span_id[i];
		prev[i] = enter;
		if (last != D9_NONE)
			next[last] = i;
		last = i;
		if (e->kind[i] == D9M_SPAN_ENTER)
			enter = i;
		else if (e->kind[i] == D9M_SPAN_CLOSE)
			last = enter = D9_NONE;
	}
	free(perm);
}

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* n rows over nids span ids (some at the ends of the u64 range); kinds
 * weighted towards enters and exits; a fifth of the rows non-legacy. */
static void
gen(struct d9m_spanev *e, size_t n, uint64_t nids, uint64_t seed)
{
	static const uint64_t odd[] = { 0, UINT64_MAX, 1ull << 63 };
	static const uint8_t kinds[] = { D9M_SPAN_ENTER, D9M_SPAN_ENTER,
		D9M_SPAN_EXIT, D9M_SPAN_EXIT, D9M_SPAN_CLOSE, D9M_SPAN_SINGLE };
	uint64_t s = seed * 0x9e3779b97f4a7c15ull | 1;

	memset(e, 0, sizeof *e);
	e->n = n;
	e->kind = malloc(n + 1);
	e->span_id = malloc((n + 1) * sizeof *e->span_id);
	e->ext = malloc((n + 1) * sizeof *e->ext);
	ck_assert_ptr_nonnull(e->kind);
	ck_assert_ptr_nonnull(e->span_id);
	ck_assert_ptr_nonnull(e->ext);
	for (size_t i = 0; i < n; i++) {
		uint64_t id = rnd(&s) % nids;

		e->span_id[i] = id < 3 ? odd[id] : id * 7919;
		e->kind[i] = kinds[rnd(&s) % 6];
		e->ext[i] = rnd(&s) % 5 == 0 || e->kind[i] == D9M_SPAN_SINGLE ?
		    (uint32_t)(rnd(&s) % 4) : D9_NONE;
	}
}

static void
check_same(size_t n, uint64_t nids, uint64_t seed)
{
	struct d9m_spanev e;
	uint32_t *next = malloc((n + 1) * sizeof *next);
	uint32_t *prev = malloc((n + 1) * sizeof *prev);

	ck_assert_ptr_nonnull(next);
	ck_assert_ptr_nonnull(prev);
	gen(&e, n, nids, seed);
	link_by_sort(&e, next, prev);
	ck_assert_int_eq(d9m_link_lives(&e), 0);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(e.next[i], next[i]);
		ck_assert_uint_eq(e.prev_enter[i], prev[i]);
	}
	free(next);
	free(prev);
	free(e.kind);
	free(e.span_id);
	free(e.ext);
	free(e.next);
	free(e.prev_enter);
}

START_TEST(lives_as_sorted)
{
	static const uint64_t nids[] = { 1, 2, 4, 5, 40, 1000, 100000 };

	for (uint64_t seed = 1; seed <= 40; seed++)
		for (size_t k = 0; k < sizeof nids / sizeof *nids; k++)
			check_same(1 + seed * 97 % 3000, nids[k], seed);
	/* past the radix sort's wide digits, ids reused and not */
	check_same(300000, 700, 41);
	check_same(300000, 1u << 30, 42);
}
END_TEST

/* A hand-made case: two lives of one id split by its close, another id
 * interleaved, rows of no life in between. */
START_TEST(lives_known)
{
	static const uint8_t k[] = { D9M_SPAN_ENTER, D9M_SPAN_ENTER,
		D9M_SPAN_SINGLE, D9M_SPAN_EXIT, D9M_SPAN_ENTER, D9M_SPAN_CLOSE,
		D9M_SPAN_EXIT, D9M_SPAN_ENTER, D9M_SPAN_EXIT };
	static const uint64_t id[] = { 5, 9, 5, 5, 5, 5, 9, 5, 5 };
	static const uint32_t ext[] = { D9_NONE, D9_NONE, 0, D9_NONE, 1,
		D9_NONE, D9_NONE, D9_NONE, D9_NONE };
	static const uint32_t next[] = { 3, 6, D9_NONE, 5, D9_NONE, D9_NONE,
		D9_NONE, 8, D9_NONE },
	    prev[] = { D9_NONE, D9_NONE, D9_NONE, 0, D9_NONE, 0, 1, D9_NONE,
		7 };
	struct d9m_spanev e;

	memset(&e, 0, sizeof e);
	e.n = 9;
	e.kind = (uint8_t *)k;
	e.span_id = (uint64_t *)id;
	e.ext = (uint32_t *)ext;
	ck_assert_int_eq(d9m_link_lives(&e), 0);
	for (size_t i = 0; i < e.n; i++) {
		ck_assert_uint_eq(e.next[i], next[i]);
		ck_assert_uint_eq(e.prev_enter[i], prev[i]);
	}
	free(e.next);
	free(e.prev_enter);
}
END_TEST

Suite *
lives_suite(void)
{
	Suite *s = suite_create("lives");
	TCase *tc = tcase_create("lives");

	tcase_add_test(tc, lives_known);
	tcase_add_test(tc, lives_as_sorted);
	suite_add_tcase(s, tc);
	return s;
}
