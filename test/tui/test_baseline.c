/*
 * test_baseline.c: the baseline window in the browser, on one trace
 * holding both runs of test/fixtures/diffpair.h (the base run, then the
 * regressed one from DP_SPLIT_MS): b marks the first half as the
 * baseline and the header says so; over the second half the tasks view
 * shows the API's p99 change, the CPU tree the hot function's change of
 * share, the spans view the request's; d lists rows by change; b on the
 * baseline window clears it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diffpair.h"
#include "fixture.h"

/* The trace of both runs as a file (path malloc'd). */
static char *
both_runs(void)
{
	struct mt t;
	char *path;

	mt_diffpair(&t, DP_BOTH);
	path = mt_write(&t);
	tg_free(&t.tg);
	return path;
}

/* The baseline on the base run, the window on the regressed one. */
static void
open_compared(struct fx *f, char *path)
{
	fx_open(f, path, 160, 48, 1);
	fx_keys(f, "g200ms\n]b");
	ck_screen_has(f, "vs baseline 0.000s..0.200s");
	ck_screen_has(f, "baseline: window 0.000s..0.200s");
	fx_keys(f, "0g202ms\n[");
	ck_screen_has(f, "window 0.202s..0.401s");
}

/* Whether a comes before b on the screen. */
static int
before(const struct fx *f, const char *a, const char *b)
{
	const char *x = strstr(f->screen, a), *y = strstr(f->screen, b);

	return x != NULL && y != NULL && x < y;
}

START_TEST(baseline_tasks)
{
	char *path = both_runs();
	struct fx f;

	open_compared(&f, path);
	fx_keys(&f, "2");
	ck_screen_has(&f, "compared with the baseline window 0.000s..0.200s");
	ck_screen_has(&f, "+/-p99");
	ck_screen_has(&f, "+4.90ms   -0.6%  " DP_API);
	ck_screen_has(&f, "0ns   +1.1%  " DP_CACHE);
	/* usual order: by max; by change: the cache's share grew */
	ck_assert(before(&f, DP_DB, DP_CACHE));
	fx_keys(&f, "d");
	ck_screen_has(&f, "by change (d: back)");
	ck_assert(before(&f, DP_API, DP_CACHE));
	ck_assert(before(&f, DP_CACHE, DP_DB));
	fx_keys(&f, "d");
	ck_assert(before(&f, DP_DB, DP_CACHE));
	fx_close(&f);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(baseline_flame_and_spans)
{
	char *path = both_runs();
	struct fx f;

	open_compared(&f, path);
	fx_keys(&f, "3");
	ck_screen_has(&f, "change of each frame's share of the tree");
	ck_screen_has(&f, "69.7%  +59.7%      138  " DP_HOT);
	ck_screen_has(&f, "-19.9%       20  svc::parse");
	fx_keys(&f, "6");
	ck_screen_has(&f, "+4.90ms   +0.0%  request");
	fx_keys(&f, "1");
	ck_screen_has(&f, "vs baseline");
	fx_close(&f);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(baseline_cleared)
{
	char *path = both_runs();
	struct fx f;

	fx_open(&f, path, 160, 48, 1);
	fx_keys(&f, "2d");
	ck_screen_has(&f, "no baseline: b marks the current window");
	fx_keys(&f, "b");
	ck_screen_has(&f, "vs baseline 0.000s..0.401s");
	ck_screen_has(&f, "0ns   +0.0%  " DP_API);
	fx_keys(&f, "b");
	ck_screen_has(&f, "baseline cleared");
	ck_screen_lacks(&f, "vs baseline");
	ck_screen_lacks(&f, "+/-p99");
	fx_close(&f);
	unlink(path);
	free(path);
}
END_TEST

Suite *
suite_baseline(void)
{
	Suite *s = suite_create("baseline");
	TCase *tc = tcase_create("baseline");

	tcase_add_test(tc, baseline_tasks);
	tcase_add_test(tc, baseline_flame_and_spans);
	tcase_add_test(tc, baseline_cleared);
	suite_add_tcase(s, tc);
	return s;
}
