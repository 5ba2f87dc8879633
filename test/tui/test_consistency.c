/*
 * test_consistency.c: one figure everywhere (ANALYSIS 18.1). For the
 * shared traces and a set of windows, the counts the timeline's panel
 * ("points of interest here: N = ..."), the `p` view's header and kind
 * lines, the report view (7) and --json's poiCounts give are the same
 * numbers, and the active-tasks strip's maximum over the whole trace is
 * the report's and the JSON's taskLeak.peak.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "model/figures/analysis.h"
#include "model/figures/poi.h"
#include "output/output.h"

static const char *const traces[] = {
	"demo-2026-06.bin.gz", "demo-2026-03.bin", "block-in-place-2026-05.bin"
};

/* The number after the first occurrence of what on the screen, or -1. */
static long
number_after(const char *screen, const char *what)
{
	const char *p = strstr(screen, what);

	return p != NULL ? strtol(p + strlen(what), NULL, 10) : -1;
}

/* The JSON of the app's model over [lo, hi], as --json writes it. */
static char *
json_of(struct fx *f, uint64_t lo, uint64_t hi)
{
	/* the whole trace as --json reads it */
	struct d9m_analysis_opts o = { d9m_window_of(f->app.m, lo, hi), 10, 0,
	    NULL, 0 };
	struct d9m_analysis a;

	struct d9o_out out;
	char *buf = NULL;
	size_t len = 0;
	FILE *mf;

	ck_assert_int_eq(d9m_analyze(f->app.m, &o, &a), 0);
	ck_assert_ptr_nonnull(mf = open_memstream(&buf, &len));
	memset(&out, 0, sizeof out);
	out.m = f->app.m;
	out.a = &a;
	out.f = mf;
	d9o_json(&out);
	fclose(mf);
	d9m_analysis_free(&a);
	return buf;
}

/* kind's count in the JSON's poiCounts. */
static long
json_count(const char *json, const char *kind)
{
	const char *p = strstr(json, "\"poiCounts\"");
	char key[64];

	ck_assert_ptr_nonnull(p);
	snprintf(key, sizeof key, "\"%s\":", kind);
	p = strstr(p, key);
	ck_assert_ptr_nonnull(p);
	return strtol(p + strlen(key), NULL, 10);
}

/* Every view's counts of the window [lo, hi] of f agree. */
static void
check_window(struct fx *f, uint64_t lo, uint64_t hi)
{
	char *json = json_of(f, lo, hi);
	long total = 0, here, in_p;

	d9t_set_window(&f->app, lo, hi, 0);
	fx_keys(f, "1");
	here = number_after(f->screen, "points of interest here: ");
	fx_keys(f, "p");
	in_p = number_after(f->screen, "Points of interest in the window: ");
	for (int k = 0; k < D9M_POI_COUNT; k++) {
		const char *name = d9m_poi_name((enum d9m_poi_kind)k);
		long n = json_count(json, name);
		char only[64], line[64];

		total += n;
		/* f shows one kind at a time, its line at the top */
		snprintf(only, sizeof only, ", only %s ", name);
		for (int i = 0; i <= D9M_POI_COUNT &&
		    strstr(f->screen, only) == NULL; i++)
			fx_keys(f, "f");
		if (n == 0)
			continue;
		snprintf(line, sizeof line, "%s: %ld", name, n);
		ck_screen_has(f, line);	/* p's kind line */
	}
	ck_assert_int_eq(here, total);
	ck_assert_int_eq(in_p, total);
	fx_keys(f, "7");
	for (int k = 0; k < D9M_POI_COUNT; k++) {
		const char *name = d9m_poi_name((enum d9m_poi_kind)k);
		long n = json_count(json, name);
		char line[64];

		if (n == 0)
			continue;
		snprintf(line, sizeof line, "%s: %ld", name, n);
		ck_screen_has(f, line);	/* the report's kind line */
	}
	fx_keys(f, "1");
	free(json);
}

START_TEST(counts_agree)
{
	struct fx f;
	uint64_t lo, span;

	fx_open(&f, traces[_i], 160, 400, 0);
	lo = f.app.m->min_ts;
	span = f.app.m->max_ts - lo;
	check_window(&f, lo, f.app.m->max_ts);
	check_window(&f, lo + span / 4, lo + span / 2);
	check_window(&f, lo + span / 2, lo + span / 2 + span / 100);
	fx_close(&f);
}
END_TEST

/* The tasks strip's max over the whole trace is taskLeak.peak. */
START_TEST(tasks_strip_peak)
{
	struct fx f;
	struct d9m_analysis_opts o = { D9M_WHOLE_INIT, 10, 0, NULL, 0 };
	struct d9m_analysis a;
	char want[64];

	fx_open(&f, traces[_i], 160, 48, 0);
	ck_assert_int_eq(d9m_analyze(f.app.m, &o, &a), 0);
	snprintf(want, sizeof want, "max %zu", a.leak_peak);
	if (a.leak_peak > 0 && strstr(f.screen, "tasks") != NULL) {
		const char *row = strstr(f.screen, "\ntasks");

		ck_assert_ptr_nonnull(row);
		if (strncmp(strchr(row + 1, '\n') - strlen(want), want,
		    strlen(want)) != 0) {
			fprintf(stderr, "%s", f.screen);
			ck_abort_msg("the tasks strip does not end in \"%s\"",
			    want);
		}
	}
	d9m_analysis_free(&a);
	fx_close(&f);
}
END_TEST

Suite *
suite_consistency(void)
{
	Suite *s = suite_create("consistency");
	TCase *tc = tcase_create("one figure");
	int n = (int)(sizeof traces / sizeof traces[0]);

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, counts_agree, 0, n);
	tcase_add_loop_test(tc, tasks_strip_peak, 0, n);
	suite_add_tcase(s, tc);
	return s;
}
