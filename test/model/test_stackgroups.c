/*
 * test_stackgroups.c: ties in the figures' lists are ordered by what
 * tied, not by ids given in the order the reader first met things: the
 * stack groups of a set of samples (byname.h: count descending, then the
 * stacks' addresses), the spawn locations and the span names (then
 * their text). A
 * directory followed while it is written meets stacks and strings in
 * another order than a fresh read of the same files (a segment's tail
 * after the next segment's start): both must list the same.
 */
#include <check.h>
#include <stdlib.h>
#include <unistd.h>

#include <string.h>

#include "mktrace.h"
#include "model/figures/analysis.h"
#include "model/figures/byname.h"
#include "suites.h"

/* The first address of group g's stack. */
static uint64_t
first_addr(const struct d9m_model *m, const struct d9m_stack_group *g)
{
	size_t n;
	const uint8_t *p = d9m_stack(m, g->stack, &n);

	ck_assert_uint_gt(n, 0);
	return d9p_le64(p);
}

/* One poll with on-CPU samples of the stacks a[0 .. n) in that order
 * (a stack of a[i] alone; twice for the last one): its groups. */
static void
groups_of(const uint64_t *a, size_t n, struct d9m_model **m,
    struct d9m_stack_group **g, size_t *ng)
{
	uint32_t rows[8];
	struct mt t;

	ck_assert_uint_le(n + 1, 8);
	mt_begin(&t);
	mt_unpark(&t, 1000, 0, 0, 7, 0);
	mt_poll_start(&t, 2000, 0, 1, "src/main.rs:1:1");
	for (size_t i = 0; i < n; i++)
		mt_cpu(&t, 3000 + 10 * i, 7, 0, 1, &a[i]);
	mt_cpu(&t, 3000 + 10 * n, 7, 0, 1, &a[n - 1]);
	mt_poll_end(&t, 9000, 0);
	*m = mt_finish(&t);
	ck_assert_uint_eq((*m)->cpu.n, n + 1);
	for (uint32_t i = 0; i <= n; i++)
		rows[i] = i;
	ck_assert_int_eq(d9m_group_stacks(*m, NULL, rows, n + 1, g, ng), 0);
}

START_TEST(equal_counts_by_address)
{
	/* met 0x3000 first, then 0x1000, 0x2000; 0x2000 twice */
	const uint64_t met[] = { 0x3000, 0x1000, 0x2000 };
	struct d9m_stack_group *g;
	struct d9m_model *m;
	size_t ng;

	groups_of(met, 3, &m, &g, &ng);
	ck_assert_uint_eq(ng, 3);
	ck_assert_uint_eq(g[0].count, 2);
	ck_assert_uint_eq(first_addr(m, &g[0]), 0x2000);
	ck_assert_uint_eq(first_addr(m, &g[1]), 0x1000);	/* met second */
	ck_assert_uint_eq(first_addr(m, &g[2]), 0x3000);	/* met first */
	free(g);
	d9m_model_free(&m);
}
END_TEST

/* t finished, and the analysis of the whole of its model *m. */
static struct d9m_analysis
whole(struct mt *t, struct d9m_model **m)
{
	const struct d9m_window all = D9M_WHOLE_INIT;
	struct d9m_analysis_opts o = { all, 10, 0, NULL, 0 };
	struct d9m_analysis a;

	*m = mt_finish(t);
	ck_assert_int_eq(d9m_analyze(*m, &o, &a), 0);
	return a;
}

/* Two spawn locations with one task and one poll of 1 ms each: the one
 * met second, svc/a.rs, comes first. */
START_TEST(equal_locations_by_text)
{
	struct d9m_analysis a;
	struct d9m_model *m;
	struct mt t;

	mt_begin(&t);
	mt_spawn(&t, 1000, 1, "svc/b.rs:1:1");
	mt_spawn(&t, 1100, 2, "svc/a.rs:1:1");
	mt_poll_start(&t, 2000000, 0, 1, "svc/b.rs:1:1");
	mt_poll_end(&t, 3000000, 0);
	mt_poll_start(&t, 4000000, 0, 2, "svc/a.rs:1:1");
	mt_poll_end(&t, 5000000, 0);
	a = whole(&t, &m);
	ck_assert_uint_ge(a.nlocs, 2);
	ck_assert_str_eq(d9m_str(m, a.locs[0].loc), "svc/a.rs:1:1");
	ck_assert_str_eq(d9m_str(m, a.locs[1].loc), "svc/b.rs:1:1");
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

/* One span named zeta, then one named alpha (legacy enter and exit on
 * worker 0): alpha is listed first. */
START_TEST(equal_span_counts_by_name)
{
	struct d9m_analysis a;
	struct d9m_model *m;
	struct mt t;

	mt_begin(&t);
	mt_span(&t, 0, 1000, 0, 7, "zeta");
	mt_span(&t, 1, 2000, 0, 7, "zeta");
	mt_span(&t, 0, 3000, 0, 8, "alpha");
	mt_span(&t, 1, 4000, 0, 8, "alpha");
	a = whole(&t, &m);
	ck_assert_uint_eq(a.nspans, 2);
	ck_assert_str_eq(d9m_str(m, a.spans[0].name), "alpha");
	ck_assert_str_eq(d9m_str(m, a.spans[1].name), "zeta");
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

Suite *
stackgroups_suite(void)
{
	Suite *s = suite_create("stackgroups");
	TCase *tc = tcase_create("order");

	tcase_add_test(tc, equal_counts_by_address);
	tcase_add_test(tc, equal_locations_by_text);
	tcase_add_test(tc, equal_span_counts_by_name);
	suite_add_tcase(s, tc);
	return s;
}
