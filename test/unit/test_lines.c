/*
 * test_lines.c: report lines that used to leave the reader guessing
 * (issue "One answer everywhere"): tasks alive before the trace are
 * said and counted as seen; a directory mixing two allocation sample
 * rates says both; a worker that never parks has no utilization rather
 * than 0 %; a window past the trace's end says it holds nothing.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mktrace.h"
#include "model/figures/analysis.h"
#include "output/output.h"
#include "unit.h"

#define MS	1000000ull

/* The report of m over w, malloc'd. */
static char *
report_of(const struct d9m_model *m, struct d9m_window w)
{
	struct d9m_analysis_opts o = { w, 10, 0, NULL, 0 };
	struct d9m_analysis a;
	struct d9o_out out;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	ck_assert_ptr_nonnull(f = open_memstream(&buf, &len));
	memset(&out, 0, sizeof out);
	out.m = m;
	out.a = &a;
	out.f = f;
	d9o_report(&out);
	fclose(f);
	d9m_analysis_free(&a);
	return buf;
}

#define ck_has(text, s) ck_assert_msg(strstr((text), (s)) != NULL, \
	"report lacks \"%s\":\n%s", (s), (text))

/* A segment of one worker that polls without parking; task 1 alive
 * before the trace ends in it, task 2 is spawned; allocations sampled
 * at rate. */
static void
segment(struct mt *t, uint64_t t0, const char *rate)
{
	static const uint64_t fr[] = { 0x1000, 0x2000 };

	mt_begin(t);
	mt_meta(t, "memory.sample_rate_bytes", rate);
	mt_spawn(t, t0, 2, "b.rs:1:1");
	for (unsigned k = 0; k < 10; k++) {
		mt_poll_start(t, t0 + k * MS, 0, 1 + k % 2, "a.rs:1:1");
		mt_poll_end(t, t0 + k * MS + MS / 2, 0);
		mt_alloc(t, t0 + k * MS + 10, 4096, 0x10000 + k, 2, fr);
	}
	mt_term(t, t0 + 10 * MS, 1);
}

START_TEST(report_says_what_differs)
{
	struct mt a, b;
	char *pa, *pb, *r;
	const char *paths[2];
	struct d9m_model *m;

	segment(&a, 100 * MS, "524288");
	segment(&b, 120 * MS, "1048576");
	paths[0] = pa = mt_write(&a);
	paths[1] = pb = mt_write(&b);
	tg_free(&a.tg);
	tg_free(&b.tg);
	m = mt_load(paths, 2);
	r = report_of(m, D9M_WHOLE);
	ck_has(r, "Sample rate R = 524288 to 1048576 bytes");
	ck_has(r, "2 seen (1 alive before the trace)");
	ck_has(r, "n/a: no park or unpark");
	free(r);
	r = report_of(m, (struct d9m_window){ m->max_ts + 1000 * MS,
	    UINT64_MAX });
	ck_has(r, "the window is outside the trace");
	free(r);
	d9m_model_free(&m);
	unlink(pa);
	unlink(pb);
	free(pa);
	free(pb);
}
END_TEST

Suite *
lines_suite(void)
{
	Suite *s = suite_create("lines");
	TCase *tc = tcase_create("report");

	tcase_add_test(tc, report_says_what_differs);
	suite_add_tcase(s, tc);
	return s;
}
