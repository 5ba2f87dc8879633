/*
 * test_cost.c: what recording cost, told by the recorder and shown by
 * d9top. A writer whose program burns CPU and records: d9rec_cost gives
 * the recorder's threads' CPU time below the process's, and both grow;
 * the sealed segments carry them; d9top's model takes the latest of the
 * boot, its JSON "recorder" object gives the same figures and its
 * report's Recorder: line the same share. A dial9 trace tells no cost:
 * "recorder" is null and the report has no such line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../skip.h"
#include "model/core/loss.h"
#include "rec/rec.h"
#include "rectest.h"

/* About ms milliseconds of this thread's CPU. */
static void
burn(int ms)
{
	uint64_t end = d9rec_clock_ns(CLOCK_THREAD_CPUTIME_ID) +
	    (uint64_t)ms * 1000000u;
	volatile uint64_t x = 1;

	while (d9rec_clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005u + 1;
}

START_TEST(test_cost_told)
{
	const char *top = getenv("D9TOP");
	char *dir = rt_tmpdir(), cmd[1024], want[128], *out;
	uint64_t rec0, proc0, rec1, proc1;
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr;
	double pct;

	ck_assert_ptr_nonnull(top);
	rt_opts(&o, dir, NULL);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	rt_rounds(w, t, 1, 20, 500);
	burn(60);
	d9rec_cost(w, &rec0, &proc0);
	ck_assert_uint_ge(proc0, 60000000u);
	ck_assert_uint_lt(rec0, proc0);
	ck_assert_int_eq(d9rec_rotate(w), 0);
	rt_rounds(w, t, 100000, 20, 500);
	burn(40);
	d9rec_cost(w, &rec1, &proc1);
	ck_assert_uint_ge(proc1, proc0 + 40000000u);
	ck_assert_uint_ge(rec1, rec0);
	ck_assert_uint_gt(rec1, 0);		/* the flush thread has run */
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);
	d9rec_cost(NULL, &rec0, &proc0);
	ck_assert_uint_eq(rec0 + proc0, 0);

	/* the last seal's figures: at least what was read before it */
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->cost.boots, 1);
	ck_assert_uint_ge(m->cost.process_cpu_ns, proc1);
	ck_assert_uint_ge(m->cost.recorder_cpu_ns, rec1);
	ck_assert_uint_lt(m->cost.recorder_cpu_ns, m->cost.process_cpu_ns);
	pct = d9m_cost_pct(&m->cost);
	ck_assert(pct > 0 && pct < 100);

	snprintf(cmd, sizeof cmd, "%s --json --quiet %s", top, dir);
	out = rt_run(cmd);
	ck_assert_double_eq(rt_num(out, "cpuNs", NULL),
	    (double)m->cost.recorder_cpu_ns);
	ck_assert_double_eq(rt_num(out, "processCpuNs", NULL),
	    (double)m->cost.process_cpu_ns);
	ck_assert_double_eq_tol(rt_num(out, "cpuPct", NULL), pct, 1e-6);
	free(out);
	snprintf(cmd, sizeof cmd, "%s --report --quiet %s", top, dir);
	out = rt_run(cmd);
	snprintf(want, sizeof want, "Recorder:     %.1f%% of the process's "
	    "CPU in libd9rec's threads (", pct);
	ck_assert_msg(strstr(out, want) != NULL, "no '%s' in:\n%s", want, out);
	free(out);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

START_TEST(test_cost_untold)
{
	const char *top = getenv("D9TOP"), *traces = getenv("D9_TRACES");
	char cmd[1024], *out;

	ck_assert_ptr_nonnull(top);
	if (traces == NULL) {
		t_skip("cost: no D9_TRACES, dial9's traces not found");
		return;
	}
	snprintf(cmd, sizeof cmd, "%s --json --quiet %s/demo-2026-03.bin", top,
	    traces);
	out = rt_run(cmd);
	ck_assert_msg(strstr(out, "\"recorder\": null") != NULL,
	    "a dial9 trace told a recorder cost");
	free(out);
	snprintf(cmd, sizeof cmd, "%s --report --quiet %s/demo-2026-03.bin",
	    top, traces);
	out = rt_run(cmd);
	ck_assert(strstr(out, "Recorder:") == NULL);
	free(out);
}
END_TEST

TCase *
rt_tcase_cost(void)
{
	TCase *tc = tcase_create("cost");

	tcase_add_test(tc, test_cost_told);
	tcase_add_test(tc, test_cost_untold);
	return tc;
}
