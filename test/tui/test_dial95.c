/*
 * test_dial95.c: the timeline on a dial9 0.5 trace: a queue and a tasks
 * strip per runtime group, labelled with its name, and a metric drawn as
 * a lane with m (again: the next, then none); the slowest spans of a
 * name with their entered time and their parent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/schemas.h"
#include "base/wire.h"
#include "fixture.h"
#include "mktrace.h"

/* Two runtimes of one worker each, their samples, one counter. */
static char *
two_runtimes(void)
{
	static const struct tg_field cnt[] = { { "value", D9_FT_VARINT } };
	static const struct tg_annot cnt_an[] = { { 0, D9_ANN_KIND,
	    "counter" } };
	struct mt t;
	char *p;

	mt_begin(&t);
	mt_meta(&t, "runtime.api", "0");
	mt_meta(&t, "runtime.bg", "1");
	tg_schema(&t.tg, 40, "metricsrs:requests_total", 1, 1, cnt);
	tg_annotations(&t.tg, 40, 1, cnt_an);
	for (uint64_t i = 0; i < 50; i++) {
		uint64_t ts = 1000000 * (i + 1);

		mt_poll_start(&t, ts, (unsigned)(i & 1), i + 1, "a.rs:1:1");
		mt_poll_end(&t, ts + 400000, (unsigned)(i & 1));
		mt_runtime(&t, ts + 500000, "api", (uint32_t)i % 7, 20);
		mt_runtime(&t, ts + 500000, "bg", 0, (uint32_t)i);
		mt_event(&t, 40, ts + 600000);
		tg_leb(&t.tg, 10 * i * i);
	}
	/* a request span and its child, ended by their closes */
	mt_mspan(&t, 0, 60000000, 0, 1, 7, "req");
	mt_mspan(&t, 0, 60100000, 0, 2, 7, "sub");
	mt_mspan(&t, 1, 60300000, 0, 2, 7, "sub");
	mt_mspan(&t, 1, 60500000, 0, 1, 7, "req");
	mt_mclose(&t, 60600000, 2, 60050000, "sub", 1, NULL, NULL);
	mt_mclose(&t, 61000000, 1, 59000000, "req", 0, NULL, NULL);
	p = mt_write(&t);
	tg_free(&t.tg);
	return p;
}

START_TEST(strips_per_runtime_and_metric_lane)
{
	char *path = two_runtimes();
	struct fx f;

	fx_open(&f, path, 120, 30, 1);
	ck_screen_has(&f, "q api");
	ck_screen_has(&f, "t api");
	ck_screen_has(&f, "q bg");
	ck_screen_has(&f, "t bg");
	ck_screen_lacks(&f, "m requ");
	fx_keys(&f, "m");
	ck_screen_has(&f, "metric requests_total (counter), 1 of 1");
	ck_screen_has(&f, "m requ");
	fx_keys(&f, "m");
	ck_screen_has(&f, "no metric lane");
	ck_screen_lacks(&f, "m requ");
	/* the slowest "sub": its lifecycle, entered 200 us, in "req" */
	fx_keys(&f, "6/sub\n\n");
	ck_screen_has(&f, "Slowest spans named sub");
	ck_screen_has(&f, "550.0");
	ck_screen_has(&f, "entered 200.0");
	ck_screen_has(&f, "in req");
	fx_close(&f);
	unlink(path);
	free(path);
}
END_TEST

Suite *
suite_dial95(void)
{
	Suite *s = suite_create("dial95");
	TCase *tc = tcase_create("dial95");

	tcase_add_test(tc, strips_per_runtime_and_metric_lane);
	suite_add_tcase(s, tc);
	return s;
}
