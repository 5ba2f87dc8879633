/*
 * test_engine.c: one engine. What the browser's views draw and what the
 * report and JSON print come from the same model functions: an
 * allocation flame tree weighs each sample with its own segment's rate,
 * so its total is the analysis's estimated bytes; the live set and the
 * counts agree the same way.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "mktrace.h"
#include "model/analysis.h"
#include "model/flame.h"
#include "unit.h"

static const struct d9m_window all = { 0, UINT64_MAX };

static double
flame_total(const struct d9m_model *m, int count, int liveset)
{
	struct d9m_flame_req q = { D9M_F_ALLOC, all, D9_NONE, D9_NONE, 0,
	    count, liveset };
	struct d9m_flame *f = d9m_flame_build(m, NULL, &q);
	double w;

	ck_assert_ptr_nonnull(f);
	w = f->nodes[0].w;
	d9m_flame_free(&f);
	return w;
}

/* Two segments recorded with sample rates 4 KiB and 1 MiB. */
START_TEST(test_two_rates)
{
	struct mt t, u;
	char *p[2];
	const uint64_t f1[] = { 0x1000, 0x2000 }, f2[] = { 0x3000 };
	struct d9m_analysis_opts o = { all, 10, 0, NULL };
	struct d9m_analysis a;
	struct d9m_model *m;
	double small, big;

	mt_begin(&t);
	mt_meta(&t, "memory.sample_rate_bytes", "4096");
	for (uint64_t i = 0; i < 40; i++)
		mt_alloc(&t, 100 + i, 512 + 64 * i, 0x10000 + i, 2, f1);
	mt_free(&t, 500, 0x10000, 512, 100);
	p[0] = mt_write(&t);
	mt_begin(&u);
	mt_meta(&u, "memory.sample_rate_bytes", "1048576");
	for (uint64_t i = 0; i < 30; i++)
		mt_alloc(&u, 1000 + i, 2048 + 128 * i, 0x20000 + i, 1, f2);
	p[1] = mt_write(&u);
	m = mt_load((const char *const *)p, 2);
	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	/* the two rates really weigh differently */
	small = 512 / -expm1(-512.0 / 4096);
	big = 2048 / -expm1(-2048.0 / 1048576);
	ck_assert(big / 2048 > 10 * (small / 512));
	ck_assert(fabs(flame_total(m, 0, 0) - a.mem.est_bytes) <
	    1e-9 * a.mem.est_bytes);
	ck_assert(fabs(flame_total(m, 1, 0) - a.mem.est_count) <
	    1e-9 * a.mem.est_count);
	ck_assert(fabs(flame_total(m, 0, 1) - a.mem.live_bytes) <
	    1e-9 * a.mem.live_bytes);
	ck_assert(a.mem.live_bytes < a.mem.est_bytes);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
	for (int i = 0; i < 2; i++) {
		unlink(p[i]);
		free(p[i]);
	}
	tg_free(&t.tg);
	tg_free(&u.tg);
}
END_TEST

Suite *
engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("engine");

	tcase_add_test(tc, test_two_rates);
	suite_add_tcase(s, tc);
	return s;
}
