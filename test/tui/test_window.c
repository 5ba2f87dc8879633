/*
 * test_window.c: the time-window keys (pan, zoom, set start and end, go
 * to, undo, whole trace) and n/N, read from the header and status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "tui/timeaxis.h"

#define DEMO	"demo-2026-06.bin.gz"

START_TEST(zoom_pan_undo)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "g2s\n");
	ck_screen_has(&f, "cursor 2.000000s");
	fx_keys(&f, "+");
	ck_screen_has(&f, "(2.07s)");
	fx_keys(&f, "+");
	ck_screen_has(&f, "(1.04s)");
	fx_keys(&f, "u");
	ck_screen_has(&f, "(2.07s)");
	fx_keys(&f, "l");
	ck_screen_has(&f, "(2.07s)");
	fx_keys(&f, "H");
	ck_screen_has(&f, "window 0.000s..2.07");
	fx_keys(&f, "0");
	ck_screen_has(&f, "window 0.000s..4.145s");
	fx_keys(&f, "-");
	ck_screen_has(&f, "window 0.000s..4.145s");
	fx_close(&f);
}
END_TEST

START_TEST(set_start_end)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "g1s\n[");
	ck_screen_has(&f, "window 1.000s..4.145s");
	fx_keys(&f, "g+500ms\n]");
	ck_screen_has(&f, "window 1.000s..1.500s (500.00ms)");
	fx_keys(&f, "3");
	ck_screen_has(&f, "window 1.000s..1.500s");
	fx_keys(&f, "1u");
	ck_screen_has(&f, "window 1.000s..4.145s");
	fx_close(&f);
}
END_TEST

START_TEST(long_polls_in_time)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "n");
	ck_screen_has(&f, "long poll 1 of 2: 5.90ms");
	fx_keys(&f, "n");
	ck_screen_has(&f, "long poll 2 of 2: 1.01ms");
	fx_keys(&f, "n");
	ck_screen_has(&f, "no later long poll");
	fx_keys(&f, "N");
	ck_screen_has(&f, "long poll 1 of 2");
	fx_close(&f);
}
END_TEST

START_TEST(cursor_lane_and_mouse)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "j......");
	ck_screen_has(&f, "cursor 0.1");
	d9t_app_mouse(&f.app, 100, 3, 1);
	fx_render(&f);
	ck_screen_has(&f, "poll ");
	d9t_app_mouse(&f.app, 100, 3, 4);
	fx_render(&f);
	ck_screen_has(&f, "(2.07s)");
	fx_close(&f);
}
END_TEST

START_TEST(bad_goto_and_loading_keys)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "gsoon\n");
	ck_screen_has(&f, "cannot read 'soon' as a time");
	fx_keys(&f, "/zzzz-nothing\n");
	ck_screen_has(&f, "no match for 'zzzz-nothing'");
	fx_close(&f);
}
END_TEST

/* g with a wall-clock time goes to it: the wall clock of the trace's
 * start a second and a half later, as the header prints it, is 1.5 s
 * into the trace, and a minute before it a minute before (within the
 * microsecond the text keeps). */
START_TEST(goto_wall_clock)
{
	struct fx f;
	char wall[64];
	uint64_t t = 0;
	int have;
	int64_t w0;

	fx_open(&f, DEMO, 160, 48, 1);
	w0 = d9t_wall(f.app.m, f.app.m->min_ts, &have);
	ck_assert(have && w0 > 0);
	d9t_fmt_wall(wall, sizeof wall, w0 + 1500000000, 0);
	ck_assert_int_eq(d9t_parse_time(f.app.m, wall, 0, &t), 0);
	ck_assert_uint_ge(t, f.app.m->min_ts + 1500000000 - 1000);
	ck_assert_uint_le(t, f.app.m->min_ts + 1500000000 + 1000);
	d9t_fmt_wall(wall, sizeof wall, w0 - 60000000000, 0);
	ck_assert_int_eq(d9t_parse_time(f.app.m, wall, 0, &t), 0);
	ck_assert_uint_ge(t + 60000000000, f.app.m->min_ts - 1000);
	ck_assert_uint_le(t + 60000000000, f.app.m->min_ts + 1000);
	fx_close(&f);
}
END_TEST

/* A time before the start by less than the last digit shown is "0.000s"
 * (a spawn 0.3 us before the trace's start was "-0.000s"); by more, it
 * keeps its sign. */
START_TEST(time_just_before_start)
{
	char at[32];

	d9t_fmt_since(at, sizeof at, 1000000, 999700, 3);
	ck_assert_str_eq(at, "0.000s");
	d9t_fmt_since(at, sizeof at, 10000000, 8800000, 3);
	ck_assert_str_eq(at, "-0.001s");
	d9t_fmt_since(at, sizeof at, 1000000, 1000000 + 2500000000ull, 1);
	ck_assert_str_eq(at, "2.5s");
	d9t_fmt_since(at, sizeof at, 5000000000ull, 0, 0);
	ck_assert_str_eq(at, "-5s");
}
END_TEST

/* A wall-clock time shows as it was typed (the trace's clock runs near
 * the wall clock's rate, not at it: 16:36:17 was shown 16:36:16.999999);
 * a time outside the trace puts the cursor at its end or start, said,
 * instead of past the window. */
START_TEST(goto_as_typed_and_inside)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "g16:36:17\n");
	ck_screen_has(&f, "wall 16:36:17.000000");
	fx_keys(&f, "g16:36:17.5\n");
	ck_screen_has(&f, "wall 16:36:17.500000");
	fx_keys(&f, "g99s\n");
	ck_screen_has(&f, "'99s' is outside the trace (0.000s..4.145s): the "
	    "cursor is at its end");
	ck_assert_uint_eq(f.app.cursor, f.app.m->max_ts);
	fx_keys(&f, "g16:36:14\n");
	ck_screen_has(&f, "is outside the trace (0.000s..4.145s): the cursor "
	    "is at its start");
	ck_assert_uint_eq(f.app.cursor, f.app.m->min_ts);
	fx_close(&f);
}
END_TEST

Suite *
suite_window(void)
{
	Suite *s = suite_create("window");
	TCase *tc = tcase_create("keys");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, zoom_pan_undo);
	tcase_add_test(tc, set_start_end);
	tcase_add_test(tc, long_polls_in_time);
	tcase_add_test(tc, cursor_lane_and_mouse);
	tcase_add_test(tc, bad_goto_and_loading_keys);
	tcase_add_test(tc, goto_wall_clock);
	tcase_add_test(tc, goto_as_typed_and_inside);
	tcase_add_test(tc, time_just_before_start);
	suite_add_tcase(s, tc);
	return s;
}
