/*
 * test_events.c: application events (model/queries/appev.h) on the planted
 * LogLine trace (planted.h): each event on the lane of its worker_id, or
 * of the worker its tid ran as, in the poll running there; schema and
 * field filters; a request id found in span and event fields alike, in
 * time order.
 */
#include <check.h>
#include <stdlib.h>

#include "model/queries/appev.h"
#include "planted.h"
#include "suites.h"

START_TEST(events_on_their_lanes)
{
	struct mt t;
	struct d9m_model *m;
	const struct d9m_appev *a;

	mt_events(&t);
	m = mt_finish(&t);
	a = &m->appev;
	ck_assert_uint_eq(a->n, 3);
	ck_assert_uint_eq(m->custom.ts[a->row[0]], PL_EV_A);
	ck_assert_uint_eq(a->lane[0], d9m_worker_slot_of(m, 0, 0));
	ck_assert_uint_eq(a->lane[1], d9m_worker_slot_of(m, 0, 1));	/* by tid */
	ck_assert_uint_eq(a->lane[2], d9m_worker_slot_of(m, 0, 0));
	ck_assert_uint_eq(m->tasks.id[m->polls.task[a->poll[0]]], 1);
	ck_assert_uint_eq(m->tasks.id[m->polls.task[a->poll[1]]], 2);
	ck_assert_uint_eq(m->tasks.id[m->polls.task[a->poll[2]]], 3);
	d9m_model_free(&m);
}
END_TEST

START_TEST(events_filtered)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_window all = D9M_WHOLE, w = { 30 * PL_MS,
	    UINT64_MAX };
	uint32_t *v, log;
	size_t n;

	mt_events(&t);
	m = mt_finish(&t);
	log = d9_intern_find(&m->strs, "LogLine", 7);
	ck_assert_int_eq(d9m_appev_select(m, &all, log, NULL, &v, &n), 0);
	ck_assert_uint_eq(n, 3);
	free(v);
	ck_assert_int_eq(d9m_appev_select(m, &all, D9_NONE, "req-9", &v, &n),
	    0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(v[0], 2);
	free(v);
	ck_assert_int_eq(d9m_appev_select(m, &w, D9_NONE, "req-7", &v, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(v[0], 1);
	free(v);
	d9m_model_free(&m);
}
END_TEST

START_TEST(find_in_spans_and_events)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_match *x;
	size_t n;

	mt_events(&t);
	m = mt_finish(&t);
	ck_assert_int_eq(d9m_find_text(m, "req-7", &x, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(x[0].kind, D9M_MATCH_EVENT);
	ck_assert_uint_eq(x[0].ts, PL_EV_A);
	ck_assert_uint_eq(x[1].kind, D9M_MATCH_SPAN);
	ck_assert_uint_eq(x[1].ts, PL_EV_SPAN);
	ck_assert_uint_eq(x[1].lane, d9m_worker_slot_of(m, 0, 1));
	ck_assert_uint_eq(x[2].kind, D9M_MATCH_EVENT);
	ck_assert_uint_eq(x[2].ts, PL_EV_B);
	free(x);
	ck_assert_int_eq(d9m_find_text(m, "req-404", &x, &n), 0);
	ck_assert_uint_eq(n, 0);
	free(x);
	d9m_model_free(&m);
}
END_TEST

Suite *
events_suite(void)
{
	Suite *s = suite_create("events");
	TCase *tc = tcase_create("appev");

	tcase_add_test(tc, events_on_their_lanes);
	tcase_add_test(tc, events_filtered);
	tcase_add_test(tc, find_in_spans_and_events);
	suite_add_tcase(s, tc);
	return s;
}
