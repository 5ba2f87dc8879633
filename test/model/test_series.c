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
#include "suites.h"

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
	struct d9m_query q = D9M_QUERY_INIT;
	struct d9m_flame *f;
	uint32_t node;
	double v[5];

	mt_memory(&t);
	m = mt_finish(&t);
	q.win = (struct d9m_window){ 0, PL_MEM_END };
	ck_assert_int_eq(d9m_series_live(m, NULL, &q, NULL, 0, edges, 5, v),
	    0);
	for (int i = 0; i < 5; i++)
		ck_assert_double_eq_tol(v[i], all[i], 1e-6);
	q.kind = D9M_F_ALLOC;
	ck_assert_ptr_nonnull(f = d9m_flame_build(m, NULL, &q));
	ck_assert_double_eq_tol(f->nodes[0].w, 7000, 1e-6);
	node = node_named(f, "app::parse");
	ck_assert_uint_ne(node, D9_NONE);
	ck_assert_int_eq(d9m_series_live(m, NULL, &f->req, f, node, edges, 5,
	    v), 0);
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
	struct d9m_query fq = D9M_QUERY_INIT;
	struct d9m_flame *f;

	mt_memory(&t);
	m = mt_finish(&t);
	fq.kind = D9M_F_DUMP;
	ck_assert_ptr_nonnull(f = d9m_flame_build(m, NULL, &fq));
	ck_assert_uint_eq(f->samples, 1);
	ck_assert_double_eq_tol(f->nodes[0].w, 9 * PL_MS, 1e-6);
	ck_assert_uint_ne(node_named(f, "app::wait"), D9_NONE);
	d9m_flame_free(&f);
	d9m_model_free(&m);
}
END_TEST

/* One query shape (query.h): D9M_QUERY_INIT is the whole trace with no
 * filter, and D9M_Q_COUNT weighs the dump tree by dumps, not idle time;
 * a task filter that matches no dump leaves the tree empty. */
START_TEST(query_contract)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_query q = D9M_QUERY_INIT;
	struct d9m_flame *f;

	ck_assert(d9m_window_whole(&q.win));
	ck_assert_uint_eq(q.task, D9_NONE);
	ck_assert_uint_eq(q.loc, D9_NONE);
	ck_assert_uint_eq(q.worker, D9_NONE);
	ck_assert_str_eq(q.text, "");
	mt_memory(&t);
	m = mt_finish(&t);
	q.kind = D9M_F_DUMP;
	q.flags = D9M_Q_COUNT;
	ck_assert_ptr_nonnull(f = d9m_flame_build(m, NULL, &q));
	ck_assert_uint_eq(f->samples, 1);
	ck_assert_double_eq_tol(f->nodes[0].w, 1, 1e-9);
	d9m_flame_free(&f);
	q.task = m->tasks.n;	/* no such task */
	ck_assert_ptr_nonnull(f = d9m_flame_build(m, NULL, &q));
	ck_assert_uint_eq(f->samples, 0);
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
	struct d9m_query q = D9M_QUERY_INIT;
	double v[3];

	mt_planted(&t);
	m = mt_finish(&t);
	/* the planted 3 ms kernel wait at the unpark at 310 ms */
	q.kind = D9M_S_SCHED_WAIT;
	q.worker = 0;
	ck_assert_int_eq(d9m_series(m, &q, e, 3, v), 0);
	ck_assert_double_eq_tol(v[2], 3 * PL_MS, 1e-6);
	ck_assert_double_eq_tol(v[1], 0, 1e-6);
	q.kind = D9M_S_CPU;
	q.group = 0;
	ck_assert_int_eq(d9m_series(m, &q, e, 3, v), 0);
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
	tcase_add_test(tc, query_contract);
	tcase_add_test(tc, worker_series);
	suite_add_tcase(s, tc);
	return s;
}
