/*
 * test_lives.c: the lives of legacy span events (model/core/spans.h), linked
 * in one pass through the slots of the span ids' numbers, against the
 * linking by sorting: the rows grouped by span id (a stable sort keeps
 * their time order) and cut after each close. Generated tables mix
 * reused ids, interleaved lives, closes, 0.5 rows (an instance id: a
 * spanx row) and single-event spans (one too), which belong to no life.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/spans.h"
#include "model/core/table.h"
#include "suites.h"

/* The tags of the generated rows: tag 2 k + legacy is of kind k. */
static const uint8_t tag_kind[] = { 0, 0, 1, 1, 2, 2, 3, 3 };
static const uint8_t tag_legacy[] = { 0, 1, 0, 1, 0, 1, 0, 1 };

/* The linking by sorting: next, and the first enters of lives (an
 * enter with no enter of its life before it), as the sort gives them. */
static void
link_by_sort(const struct d9m_model *m, uint32_t *next, uint8_t *first)
{
	const struct d9m_spanev *e = &m->spanev;
	uint64_t *key = malloc((e->n + 1) * sizeof *key);
	uint32_t *perm = malloc((e->n + 1) * sizeof *perm);
	uint32_t last = D9_NONE, enter = D9_NONE, id = 0;

	ck_assert_ptr_nonnull(key);
	ck_assert_ptr_nonnull(perm);
	for (size_t i = 0; i < e->n; i++)
		key[i] = e->id[i];
	ck_assert_int_eq(d9m_sort_perm(key, e->n, perm), 0);
	for (size_t k = 0; k < e->n; k++) {
		uint32_t i = perm[k];

		next[i] = D9_NONE;
		first[i] = 0;
		if (!d9m_span_is_legacy(m, i))
			continue;
		if (last != D9_NONE && e->id[i] != id)
			last = enter = D9_NONE;
		id = e->id[i];
		if (last != D9_NONE)
			next[last] = i;
		last = i;
		if (D9M_EV(m, kind, i) == D9M_SPAN_ENTER) {
			first[i] = enter == D9_NONE;
			enter = i;
		} else if (D9M_EV(m, kind, i) == D9M_SPAN_CLOSE)
			last = enter = D9_NONE;
	}
	free(key);
	free(perm);
}

static void
tags(struct d9m_model *m)
{
	m->spantags.n = sizeof tag_kind;
	m->spantags.kind = (uint8_t *)tag_kind;
	m->spantags.legacy = (uint8_t *)tag_legacy;
}

/* n rows over nids span ids; kinds weighted towards enters and exits; a
 * fifth of the rows non-legacy (their id: a spanx row). */
static void
gen(struct d9m_model *m, size_t n, uint64_t nids, uint64_t seed)
{
	static const uint8_t kinds[] = { D9M_SPAN_ENTER, D9M_SPAN_ENTER,
		D9M_SPAN_EXIT, D9M_SPAN_EXIT, D9M_SPAN_CLOSE, D9M_SPAN_SINGLE };
	struct d9m_spanev *e = &m->spanev;
	uint64_t s = seed * 0x9e3779b97f4a7c15ull | 1;

	memset(m, 0, sizeof *m);
	tags(m);
	e->n = n;
	e->tag = malloc((n + 1) * sizeof *e->tag);
	e->id = malloc((n + 1) * sizeof *e->id);
	ck_assert_ptr_nonnull(e->tag);
	ck_assert_ptr_nonnull(e->id);
	for (size_t i = 0; i < n; i++) {
		uint8_t kind = kinds[rnd(&s) % 6];
		int legacy = kind != D9M_SPAN_SINGLE && rnd(&s) % 5 != 0;

		e->id[i] = (uint32_t)(rnd(&s) % nids);
		if (!legacy)
			e->id[i] = (uint32_t)(rnd(&s) % 4);
		e->tag[i] = (uint32_t)(2 * kind + legacy);
	}
}

static void
check_links(struct d9m_model *m)
{
	struct d9m_spanev *e = &m->spanev;
	uint32_t *next = malloc((e->n + 1) * sizeof *next);
	uint8_t *first = malloc(e->n + 1);

	ck_assert_ptr_nonnull(next);
	ck_assert_ptr_nonnull(first);
	link_by_sort(m, next, first);
	ck_assert_int_eq(d9m_link_lives(m), 0);
	for (size_t i = 0; i < e->n; i++) {
		ck_assert_uint_eq(e->next[i], next[i]);
		ck_assert_uint_eq(d9m_span_first(e, i), first[i]);
	}
	free(next);
	free(first);
	free(e->next);
	free(e->first);
}

static void
check_same(size_t n, uint64_t nids, uint64_t seed)
{
	struct d9m_model *m = malloc(sizeof *m);

	ck_assert_ptr_nonnull(m);
	gen(m, n, nids, seed);
	check_links(m);
	free(m->spanev.tag);
	free(m->spanev.id);
	free(m);
}

START_TEST(lives_as_sorted)
{
	static const uint64_t nids[] = { 1, 2, 4, 5, 40, 1000, 100000 };

	for (uint64_t seed = 1; seed <= 40; seed++)
		for (size_t k = 0; k < sizeof nids / sizeof *nids; k++)
			check_same(1 + seed * 97 % 3000, nids[k], seed);
	/* ids reused and not */
	check_same(300000, 700, 41);
	check_same(300000, 250000, 42);
}
END_TEST

/* A hand-made case: two lives of one id split by its close, another id
 * interleaved, rows of no life in between. */
START_TEST(lives_known)
{
	/* enter, enter, single, exit, enter (0.5), close, exit, enter,
	 * exit; ids 0 and 1, spanx rows 0 and 1 */
	static const uint32_t tag[] = { 1, 1, 6, 3, 0, 5, 3, 1, 3 };
	static const uint32_t id[] = { 0, 1, 0, 0, 1, 0, 1, 0, 0 };
	static const uint32_t next[] = { 3, 6, D9_NONE, 5, D9_NONE, D9_NONE,
		D9_NONE, 8, D9_NONE };
	static const uint8_t first[] = { 1, 1, 0, 0, 0, 0, 0, 1, 0 };
	struct d9m_model *m = calloc(1, sizeof *m);

	ck_assert_ptr_nonnull(m);
	tags(m);
	m->spanev.n = 9;
	m->spanev.tag = (uint32_t *)tag;
	m->spanev.id = (uint32_t *)id;
	ck_assert_int_eq(d9m_link_lives(m), 0);
	for (size_t i = 0; i < m->spanev.n; i++) {
		ck_assert_uint_eq(m->spanev.next[i], next[i]);
		ck_assert_uint_eq(d9m_span_first(&m->spanev, i), first[i]);
	}
	free(m->spanev.next);
	free(m->spanev.first);
	free(m);
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
