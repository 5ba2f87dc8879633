/*
 * test_series.c: the strips' series (model/queries/series.h) and the task-dump
 * tree on the planted memory trace (planted.h): live bytes at the end of
 * each 10 ms column by the live rule, of the whole allocation tree and
 * of one call site under it; a worker's local queue and kernel waits;
 * the dump tree weighs the idle gap a dump describes.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model/queries/flame.h"
#include "model/queries/series.h"
#include "planted.h"
#include "unit.h"

static const uint64_t edges[] = { 0, 10 * PL_MS, 20 * PL_MS, 30 * PL_MS,
	40 * PL_MS, PL_MEM_END };

static uint32_t
node_named(const struct d9m_flame *f, const char *name)
{
	for (uint32_t i = 0; i < f->n; i++)
		if (strcmp(d9m_flame_name(f, i), name) == 0)
			return i;
	return D9_NONE;
}

START_TEST(liveset_known_values)
{
	static const double all[] = { 0, 1000, 3000, 2000, 6000 },
	    parse[] = { 0, 0, 2000, 2000, 2000 };
	struct mt t;
	struct d9m_model *m;
	struct d9m_flame_req fq;
	struct d9m_flame *f;
	struct d9m_live_req q;
	double v[5];

	mt_memory(&t);
	m = mt_finish(&t);
	memset(&q, 0, sizeof q);
	q.win = (struct d9m_window){ 0, PL_MEM_END };
	ck_assert_int_eq(d9m_series_live(m, &q, edges, 5, v), 0);
	for (int i = 0; i < 5; i++)
		ck_assert_double_eq_tol(v[i], all[i], 1e-6);
	memset(&fq, 0, sizeof fq);
	fq.kind = D9M_F_ALLOC;
	fq.win = q.win;
	fq.task = fq.loc = D9_NONE;
	ck_assert_ptr_nonnull(f = d9m_flame_build(m, NULL, &fq));
	ck_assert_double_eq_tol(f->nodes[0].w, 7000, 1e-6);
	q.f = f;
	q.node = node_named(f, "app::parse");
	ck_assert_uint_ne(q.node, D9_NONE);
	ck_assert_int_eq(d9m_series_live(m, &q, edges, 5, v), 0);
	for (int i = 0; i < 5; i++)
		ck_assert_double_eq_tol(v[i], parse[i], 1e-6);
	d9m_flame_free(&f);
	d9m_model_free(&m);
}
END_TEST

START_TEST(dump_tree_weighs_idle)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_flame_req fq;
	struct d9m_flame *f;

	mt_memory(&t);
	m = mt_finish(&t);
	memset(&fq, 0, sizeof fq);
	fq.kind = D9M_F_DUMP;
	fq.win = D9M_WHOLE;
	fq.task = fq.loc = D9_NONE;
	ck_assert_ptr_nonnull(f = d9m_flame_build(m, NULL, &fq));
	ck_assert_uint_eq(f->samples, 1);
	ck_assert_double_eq_tol(f->nodes[0].w, 9 * PL_MS, 1e-6);
	ck_assert_uint_ne(node_named(f, "app::wait"), D9_NONE);
	d9m_flame_free(&f);
	d9m_model_free(&m);
}
END_TEST

START_TEST(worker_series)
{
	struct mt t;
	struct d9m_model *m;
	static const uint64_t e[] = { 0, 100 * PL_MS, 305 * PL_MS,
	    320 * PL_MS };
	double v[3];

	mt_planted(&t);
	m = mt_finish(&t);
	/* the planted 3 ms kernel wait at the unpark at 310 ms */
	ck_assert_int_eq(d9m_series(m, D9M_S_SCHED_WAIT, 0, e, 3, v), 0);
	ck_assert_double_eq_tol(v[2], 3 * PL_MS, 1e-6);
	ck_assert_double_eq_tol(v[1], 0, 1e-6);
	ck_assert_int_eq(d9m_series(m, D9M_S_CPU, 0, e, 3, v), 0);
	ck_assert_double_eq_tol(v[0], -1, 1e-6);	/* no samples */
	d9m_model_free(&m);
}
END_TEST

Suite *
series_suite(void)
{
	Suite *s = suite_create("series");
	TCase *tc = tcase_create("series");

	tcase_add_test(tc, liveset_known_values);
	tcase_add_test(tc, dump_tree_weighs_idle);
	tcase_add_test(tc, worker_series);
	suite_add_tcase(s, tc);
	return s;
}
