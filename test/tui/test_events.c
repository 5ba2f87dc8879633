/*
 * test_events.c: the planted LogLine trace (test/fixtures/planted.h) in the
 * browser: (times from the first runtime event, at 10 ms) a mark on the lanes of workers 0 and 1, view 8 with the
 * schema, its events and fields, the field filter, / finding req-7 in a
 * span and two events, n stepping and Enter jumping to the timeline; in
 * the timeline / finds the same value and n/N step through it.
 */
#include <stdlib.h>
#include <unistd.h>

#include "fixture.h"
#include "planted.h"

static char *
events_file(void)
{
	struct mt t;
	char *path;

	mt_events(&t);
	path = mt_write(&t);
	tg_free(&t.tg);
	return path;
}

/* The screen row that starts with prefix, into out. */
static int
row_of(const char *screen, const char *prefix, char *out, size_t cap)
{
	for (const char *p = screen; p && *p; ) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (strncmp(p, prefix, strlen(prefix)) == 0) {
			snprintf(out, cap, "%.*s", (int)n, p);
			return 0;
		}
		p = e ? e + 1 : NULL;
	}
	return -1;
}

START_TEST(marks_on_lanes)
{
	struct fx f;
	char *path = events_file(), row[2048];

	fx_open(&f, path, 160, 48, 1);
	fx_render(&f);
	ck_assert_int_eq(row_of(f.screen, "w0", row, sizeof row), 0);
	ck_assert_ptr_nonnull(strstr(row, "\u25c6"));
	ck_assert_int_eq(row_of(f.screen, "w1", row, sizeof row), 0);
	ck_assert_ptr_nonnull(strstr(row, "\u25c6"));
	fx_close(&f);
	fx_open(&f, path, 80, 24, 0);
	fx_render(&f);
	ck_assert_int_eq(row_of(f.screen, "w1", row, sizeof row), 0);
	ck_assert_ptr_nonnull(strchr(row + 6, '*'));
	fx_close(&f);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(view8_lists_and_finds)
{
	struct fx f;
	char *path = events_file();

	fx_open(&f, path, 160, 48, 1);
	fx_keys(&f, "8");
	ck_screen_has(&f, "8 events");
	ck_screen_has(&f, "Application events: 3 in the window");
	ck_screen_has(&f, "       3  LogLine");
	ck_screen_has(&f, "   0.015000s  w0     LogLine              "
	    "worker_id=0 tid=null request_id=req-7 msg=start");
	ck_screen_has(&f, "   0.035000s  w1     LogLine");
	fx_keys(&f, "freq-9\n");
	ck_screen_has(&f, "Application events: 1 in the window, fields "
	    "containing 'req-9'");
	fx_keys(&f, "f\n");
	fx_keys(&f, "/req-7\n");
	ck_screen_has(&f, "Matches of 'req-7' in spans and events: 3");
	ck_screen_has(&f, "span     0.031000s  w1     handle");
	fx_keys(&f, "nn\n");	/* the third match: the event at 45 ms */
	ck_screen_has(&f, "1 timeline");
	ck_screen_has(&f, "cursor 0.035000s");
	ck_screen_has(&f, "task 2");
	fx_close(&f);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(timeline_finds_and_steps)
{
	struct fx f;
	char *path = events_file();

	fx_open(&f, path, 160, 48, 1);
	fx_keys(&f, "/req-7\n");
	ck_screen_has(&f, "match 1 of 3: event LogLine");
	ck_screen_has(&f, "on worker 0");
	fx_keys(&f, "n");
	ck_screen_has(&f, "match 2 of 3: span handle request_id=req-7 on "
	    "worker 1");
	fx_keys(&f, "n");
	ck_screen_has(&f, "match 3 of 3: event LogLine");
	ck_screen_has(&f, "cursor 0.035000s");
	fx_keys(&f, "n");
	ck_screen_has(&f, "no later match (of 3)");
	fx_keys(&f, "N");
	ck_screen_has(&f, "match 2 of 3");
	fx_close(&f);
	unlink(path);
	free(path);
}
END_TEST

Suite *
suite_events(void)
{
	Suite *s = suite_create("events");
	TCase *tc = tcase_create("events");

	tcase_add_test(tc, marks_on_lanes);
	tcase_add_test(tc, view8_lists_and_finds);
	tcase_add_test(tc, timeline_finds_and_steps);
	suite_add_tcase(s, tc);
	return s;
}
