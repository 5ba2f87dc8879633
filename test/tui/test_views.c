/*
 * test_views.c: drill-down, wake chain, each view and search on the real
 * traces, read from the canvas.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../fixtures/mktrace.h"
#include "base/wire.h"
#include "fixture.h"
#include "tui/canvas.h"

#define DEMO	"demo-2026-06.bin.gz"
#define LOC3	"examples/metrics-service/src/main.rs:289:14"

START_TEST(timeline_lanes)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	ck_screen_has(&f, "1 timeline");
	ck_screen_has(&f, "window 0.000s..4.145s");
	ck_screen_has(&f, "w0    \xe2\x94\x82");
	ck_screen_has(&f, "w1    \xe2\x94\x82");
	ck_screen_has(&f, "queue");
	ck_screen_has(&f, "tasks");
	ck_screen_has(&f, "\xe2\x95\xb7" "2.0s");	/* a tick */
	ck_screen_has(&f, "UTC");	/* clock sync: wall clock */
	ck_screen_has(&f, "\xe2\x96\x81");	/* eighth blocks */
	fx_close(&f);
}
END_TEST

START_TEST(worst_poll_and_next)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "w");
	ck_screen_has(&f, "worst in window: 5.90ms poll of task 3 (" LOC3 ")");
	ck_screen_has(&f, "poll 5.90ms  task 3  worker 1");
	fx_keys(&f, "w");
	ck_screen_has(&f, "1.01ms poll of task 55");
	fx_close(&f);
}
END_TEST

START_TEST(detail_pane)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "w\n");
	ck_screen_has(&f, "> poll");
	ck_screen_has(&f, "Poll of 5.90ms");
	ck_screen_has(&f, "task       3");
	ck_screen_has(&f, "spawned at " LOC3);
	ck_screen_has(&f, "worker     1");
	ck_screen_has(&f, "queues     local");
	ck_screen_has(&f, "sched delay");
	ck_screen_has(&f, "On-CPU stacks sampled during the poll");
	ck_screen_has(&f, "Off-CPU stacks sampled during the poll");
	ck_screen_has(&f, "Spans inside the poll");
	fx_keys(&f, "q");
	ck_screen_has(&f, "poll 5.90ms  task 3");
	fx_close(&f);
}
END_TEST

/* ANALYSIS 20 in the poll detail: the second-worst poll (task 55's
 * 1.01 ms) held one task back; Enter on it selects that task's poll,
 * whose detail names task 55's poll as the one that held its worker. */
START_TEST(detail_blame)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "ww\n");
	ck_screen_has(&f, "Poll of 1.01ms");
	ck_screen_has(&f, "held back  1 task for 1.01ms in all:");
	while (f.app.lists[f.app.view].sel < f.app.lists[f.app.view].n &&
	    strstr(f.app.lists[f.app.view].v[f.app.lists[f.app.view].sel].text,
	    "waited") == NULL)
		fx_key(&f, D9T_KEY_DOWN);
	fx_keys(&f, "\n\n");	/* that poll, selected; its detail */
	ck_screen_has(&f, "held by    task 55's 1.01ms poll");
	fx_close(&f);
}
END_TEST

START_TEST(wake_chain)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	/* the second worst poll belongs to a task woken by another task */
	fx_keys(&f, "wwc");
	ck_screen_has(&f, "Wake chain of task 55");
	ck_screen_has(&f, "#0 task 55");
	ck_screen_has(&f, "woken");
	/* Enter on a hop: the timeline with that poll selected */
	fx_keys(&f, "j\n");
	ck_screen_has(&f, "1 timeline");
	ck_screen_has(&f, "selected:");
	fx_close(&f);
}
END_TEST

/* A trace without a poll (a spawn, a CPU sample) opens and every view
 * draws: the lanes' sort read key 0 of the polls' column, NULL without
 * a poll (the browser died of SIGSEGV, and so did the index's writer,
 * every time: such a trace was never indexed). */
START_TEST(no_polls)
{
	const uint64_t leaf[] = { 0x1000 };
	struct mt t;
	struct fx f;
	char *path;

	mt_begin(&t);
	mt_spawn(&t, 1000, 1, "svc/a.rs:1:1");
	mt_cpu(&t, 2000, 7, D9_SOURCE_CPU, 1, leaf);
	path = mt_write(&t);
	tg_free(&t.tg);
	fx_open(&f, path, 120, 40, 1);
	ck_screen_has(&f, "0 workers");
	fx_keys(&f, "2");
	ck_screen_has(&f, "Tasks by spawn location");
	fx_keys(&f, "3456781wp");
	ck_assert_int_eq(f.app.quit, 0);
	fx_close(&f);
	unlink(path);
	free(path);
}
END_TEST

/* A trace without runtime events (a program libd9rec records without a
 * runtime): the window spans its samples, span and allocation, and the
 * views show them. It was 1 ns at 0, and every view said "0 in the
 * window". */
START_TEST(no_runtime_events)
{
	const uint64_t fr[] = { 0x1000, 0x2000 };
	const uint64_t s = 1000000000ull, ms = 1000000ull;
	struct mt t;
	struct fx f;
	char *path;

	mt_begin(&t);
	for (int i = 0; i < 50; i++)
		mt_cpu(&t, s + (uint64_t)i * 20 * ms, 7, D9_SOURCE_CPU, 2, fr);
	mt_mspan(&t, 0, s + 100 * ms, 0, 5, 7, "work");
	mt_mspan(&t, 1, s + 400 * ms, 0, 5, 7, "work");
	mt_mclose(&t, s + 400 * ms, 5, s + 100 * ms, "work", 0, NULL, NULL);
	mt_alloc(&t, s + 200 * ms, 4096, 0xabc000, 2, fr);
	path = mt_write(&t);
	tg_free(&t.tg);
	fx_open(&f, path, 120, 40, 1);
	ck_screen_has(&f, "window 0.000s..0.980s (980.00ms)  0 workers");
	fx_keys(&f, "3");
	ck_screen_has(&f, "CPU samples (on-CPU) in the window: 50, weight 50");
	fx_keys(&f, "6");
	ck_screen_has(&f, "Spans by name: 1 in the window");
	fx_keys(&f, "5");
	ck_screen_has(&f, "sampled allocations in the window: 1,");
	fx_close(&f);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(views_2_to_7)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "2");
	ck_screen_has(&f, "Tasks by spawn location");
	ck_screen_has(&f, LOC3);
	ck_screen_has(&f, "5.90ms");
	fx_keys(&f, "3");
	ck_screen_has(&f, "CPU samples (on-CPU) in the window: 147");
	ck_screen_has(&f, "100.0%");
	fx_keys(&f, "4");
	ck_screen_has(&f, "off-CPU samples (context switches) in the window: "
	    "8846");
	fx_keys(&f, "i");
	ck_screen_has(&f, "only inside polls");
	ck_screen_has(&f, "window: 3478");
	fx_keys(&f, "5");
	ck_screen_has(&f, "sampled allocations in the window: 911");
	fx_keys(&f, "B");	/* b is the baseline (DESIGN.md) */
	ck_screen_has(&f, "estimated count");
	fx_keys(&f, "6");
	ck_screen_has(&f, "Spans by name");
	ck_screen_has(&f, "record_metric");
	ck_screen_has(&f, "22493");
	fx_keys(&f, "7");
	ck_screen_has(&f, "RED FLAGS");
	fx_keys(&f, "q");
	ck_screen_has(&f, "1 timeline");
	fx_keys(&f, "q");
	ck_assert_int_eq(f.app.quit, 1);
	fx_close(&f);
}
END_TEST

/* Enter on a location lists its tasks; its last line, the timeline of
 * that location's polls only. */
START_TEST(tasks_enter_filters_timeline)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "2jj\n");
	ck_screen_has(&f, "Tasks spawned at ");
	fx_key(&f, D9T_KEY_END);
	fx_keys(&f, "\n");
	ck_screen_has(&f, "1 timeline");
	ck_screen_has(&f, "only polls spawned at");
	ck_screen_has(&f, "filtered");
	fx_keys(&f, "x");
	ck_screen_lacks(&f, "filtered");
	fx_close(&f);
}
END_TEST

START_TEST(flame_fold_zoom_search)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "4/futex\n");
	ck_screen_has(&f, "match 'futex'");
	fx_keys(&f, "\n");
	ck_screen_has(&f, "zoomed into:");
	fx_keys(&f, "\033");
	ck_screen_lacks(&f, "zoomed into:");
	fx_close(&f);
}
END_TEST

/* / finds a symbol of the sampled stacks too (SyncWait is in the lock
 * waits' stacks, no spawn location holds it). */
START_TEST(search_symbol_in_timeline)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "/SyncWait\n");
	ck_screen_lacks(&f, "no match");
	ck_screen_has(&f, "match in a sampled stack:");
	ck_assert_uint_ne(f.app.sel, D9_NONE);
	fx_close(&f);
}
END_TEST

/* Esc goes back, and on the timeline says q quits instead of quitting:
 * a person pressing it once too often keeps their place. */
START_TEST(escape_never_quits)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "p");
	fx_key(&f, D9T_KEY_ESC);
	ck_screen_has(&f, "1 timeline");
	fx_key(&f, D9T_KEY_ESC);
	ck_assert_int_eq(f.app.quit, 0);
	ck_screen_has(&f, "q quits; Esc only goes back");
	fx_keys(&f, "q");
	ck_assert_int_eq(f.app.quit, 1);
	fx_close(&f);
}
END_TEST

/* Lists open on their first row (Enter at once acts); f in p steps to
 * the kinds that have points; Enter on a point shows it at least a
 * tenth of the window wide. */
START_TEST(lists_open_first_row)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "2jj");
	fx_key(&f, D9T_KEY_HOME);	/* back on the first row, not the title */
	fx_keys(&f, "\n");	/* the first location's tasks */
	ck_assert_int_eq(f.app.view, D9T_V_LOCTASKS);
	ck_screen_has(&f, "Tasks spawned at examples/metrics-service/src/main.rs:289:14: 1 in");
	fx_keys(&f, "\n");	/* their first task */
	ck_assert_int_eq(f.app.view, D9T_V_TASK);
	fx_keys(&f, "1p");
	fx_keys(&f, "f");
	ck_screen_has(&f, ", only long-poll ");
	fx_keys(&f, "f");
	ck_screen_has(&f, ", only sched-delay ");	/* no kernel-wait here */
	fx_keys(&f, "ff");
	ck_screen_has(&f, ", only spawn-delay ");	/* past off-cpu-in-poll */
	fx_keys(&f, "f");
	ck_screen_lacks(&f, ", only ");		/* all again */
	fx_keys(&f, "\n");			/* the worst: a 5.90 ms poll */
	ck_assert_uint_le(f.app.hi - f.app.lo, 10 * 5895291ull);
	fx_close(&f);
}
END_TEST

START_TEST(spans_slowest_and_field_filter)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "6/query_metric\n\n");
	ck_screen_has(&f, "Slowest spans named query_metric");
	ck_screen_has(&f, "54.55ms");
	fx_keys(&f, "q");
	fx_keys(&f, "fno-such-value\n");
	ck_screen_has(&f, "fields containing 'no-such-value'");
	ck_screen_has(&f, "(no spans in this window)");
	fx_close(&f);
}
END_TEST

START_TEST(search_task_in_timeline)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "/55\n");
	ck_screen_has(&f, "task: ");
	ck_screen_has(&f, "of task 55");
	fx_keys(&f, "/main.rs:311\n");
	ck_screen_has(&f, "main.rs:311:24");
	fx_close(&f);
}
END_TEST

/* The prompt takes what a UTF-8 terminal types (the code points the
 * terminal reads): a duration's micro sign, found in the tasks view;
 * Backspace takes a whole character back; a long answer shows its end in
 * whole characters. */
START_TEST(search_utf8)
{
	struct fx f;
	const char *row;

	fx_open(&f, DEMO, 60, 24, 1);
	fx_keys(&f, "2/a");
	fx_key(&f, 0xb5);		/* MICRO SIGN */
	ck_screen_has(&f, "search: a\u00b5");
	fx_key(&f, D9T_KEY_BACKSPACE);
	ck_screen_has(&f, "search: a\n");
	ck_screen_lacks(&f, "search: a\u00b5");
	ck_assert_uint_eq(f.app.plen, 1);
	fx_key(&f, D9T_KEY_BACKSPACE);
	fx_key(&f, 0xb5);
	fx_key(&f, 's');
	fx_keys(&f, "\n");
	ck_screen_lacks(&f, "no match");
	/* 59 of them fill the answer (118 of its 119 bytes); the 60th
	 * does not fit whole and is not taken */
	fx_keys(&f, "/");
	for (int i = 0; i < 60; i++)
		fx_key(&f, 0x3bc);	/* GREEK SMALL LETTER MU */
	ck_assert_uint_eq(f.app.plen, 118);
	row = strstr(f.screen, "search: ");
	ck_assert_ptr_nonnull(row);
	ck_assert_int_eq(strncmp(row + 8, "\u03bc\u03bc", 4), 0);
	ck_assert_ptr_null(strstr(f.screen, "\\x"));
	fx_keys(&f, "\033");
	fx_close(&f);
}
END_TEST

START_TEST(report_flag_jumps)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_keys(&f, "7");
	ck_screen_has(&f, "RED FLAGS (5; Enter on one with evidence jumps");
	ck_screen_has(&f, "3478 context switches inside polls block their "
	    "worker");
	ck_screen_has(&f, "1646 record_metric spans took over 10x the median "
	    "(0.002 ms)");
	/* Enter on the first flag: the points of interest that are its
	 * evidence, the worst first */
	fx_keys(&f, "j\n");
	ck_screen_has(&f, "off-cpu-in-poll: 2943 (the worst 1000 listed)");
	ck_screen_has(&f, "3.679s  w1   9 off-CPU samples (mostly lock) in a "
	    "1.013 ms poll of task 55");
	fx_close(&f);
}
END_TEST

START_TEST(small_terminal_ascii)
{
	struct fx f;

	fx_open(&f, DEMO, 80, 24, 0);
	fx_keys(&f, "w");
	ck_screen_has(&f, "w0    |");
	ck_screen_has(&f, "poll 5.90ms  task 3");
	for (const char *p = f.screen; *p; p++)
		ck_assert_msg((unsigned char)*p < 0x80, "non-ASCII on screen");
	fx_keys(&f, "\n");
	ck_screen_has(&f, "Poll of 5.90ms");
	fx_close(&f);
}
END_TEST

START_TEST(block_in_place_gaps)
{
	struct fx f;

	fx_open(&f, "block-in-place-2026-05.bin", 160, 48, 1);
	ck_screen_has(&f, "w3");
	fx_keys(&f, "w\n");
	ck_screen_has(&f, "Poll of");
	fx_close(&f);
}
END_TEST

START_TEST(oldest_layout)
{
	struct fx f;

	fx_open(&f, "demo-2026-03.bin", 160, 48, 1);
	fx_keys(&f, "w");
	ck_screen_has(&f, "worst in window");
	fx_keys(&f, "3");
	ck_screen_has(&f, "CPU samples");
	fx_close(&f);
}
END_TEST

/* A trace cut short (the last bytes of its gzip member gone) says so in
 * the header, left of nothing else; a whole one does not. */
START_TEST(lost_data_in_header)
{
	static char cut[] = "/tmp/d9-tui-cut-XXXXXX";
	char src[4096], buf[1 << 16];
	const char *dir = getenv("D9_TRACES");
	struct fx f;
	FILE *in, *out;
	size_t n;
	int fd;

	ck_assert_ptr_nonnull(dir);
	snprintf(src, sizeof src, "%s/block-in-place-2026-05.bin", dir);
	ck_assert_ptr_nonnull(in = fopen(src, "rb"));
	n = fread(buf, 1, sizeof buf, in);
	fclose(in);
	ck_assert_uint_gt(n, 1000);
	ck_assert_int_ge(fd = mkstemp(cut), 0);
	ck_assert_ptr_nonnull(out = fdopen(fd, "wb"));
	ck_assert_uint_eq(fwrite(buf, 1, n - 200, out), n - 200);
	fclose(out);
	fx_open(&f, cut, 120, 30, 1);
	ck_screen_has(&f, " lost: 1 segment incomplete");
	fx_close(&f);
	unlink(cut);
	fx_open(&f, "block-in-place-2026-05.bin", 120, 30, 1);
	ck_screen_lacks(&f, "lost:");
	fx_close(&f);
}
END_TEST

/* Whatever a view draws, a character that reorders or hides text never
 * reaches the screen: bidirectional controls sit among the arrows and
 * punctuation the canvas allows. */
START_TEST(canvas_hides_bidi)
{
	static const char want[] = "a?b?c?d?e";
	struct d9t_canvas cv = { 0, 0, NULL };

	ck_assert_int_eq(d9t_canvas_init(&cv, 9, 1), 0);
	d9t_canvas_putn(&cv, 0, 0, -1, 0, "a\xe2\x80\xae" "b\xe2\x81\xa6"
	    "c\xe2\x80\x8b" "d\xcc\x81" "e");
	for (int x = 0; x < 9; x++)
		ck_assert_uint_eq(cv.cells[x].ch, (unsigned char)want[x]);
	d9t_canvas_free(&cv);
}
END_TEST

/* Every view (and the detail, the wake chain, help, a prompt) drawn at
 * every small size down to 1x1: only what fits, never past the canvas
 * (ASan tells; the run loop shows "terminal too small" below
 * D9T_MIN_W x D9T_MIN_H instead, see run_too_small). */
START_TEST(views_at_any_size)
{
	static const int ws[] = { 1, 2, 3, 4, 7, 8, 9, 12, 20, 40, 80 };
	static const int hs[] = { 1, 2, 3, 4, 5, 6, 8, 10, 24 };
	static const char *const keys[] = { "w", "\n", "q", "c", "q", "2",
	    "3", "4", "5", "6", "7", "8", "p", "?", "q", "1", "/", "\033" };
	struct fx f;

	fx_open(&f, DEMO, 80, 24, 1);
	for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++)
		for (size_t j = 0; j < sizeof hs / sizeof hs[0]; j++) {
			ck_assert_int_eq(d9t_canvas_init(&f.cv, ws[i], hs[j]),
			    0);
			for (size_t k = 0; k < sizeof keys / sizeof keys[0];
			    k++)
				fx_keys(&f, keys[k]);
		}
	/* back at a usable size, the browser is whole */
	ck_assert_int_eq(d9t_canvas_init(&f.cv, 80, 24), 0);
	fx_keys(&f, "1");
	ck_screen_has(&f, "1 timeline");
	fx_close(&f);
}
END_TEST

Suite *
suite_views(void)
{
	Suite *s = suite_create("views");
	TCase *tc = tcase_create("demo");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, timeline_lanes);
	tcase_add_test(tc, worst_poll_and_next);
	tcase_add_test(tc, detail_pane);
	tcase_add_test(tc, detail_blame);
	tcase_add_test(tc, search_symbol_in_timeline);
	tcase_add_test(tc, escape_never_quits);
	tcase_add_test(tc, lists_open_first_row);
	tcase_add_test(tc, wake_chain);
	tcase_add_test(tc, views_2_to_7);
	tcase_add_test(tc, no_polls);
	tcase_add_test(tc, no_runtime_events);
	tcase_add_test(tc, tasks_enter_filters_timeline);
	tcase_add_test(tc, flame_fold_zoom_search);
	tcase_add_test(tc, spans_slowest_and_field_filter);
	tcase_add_test(tc, search_task_in_timeline);
	tcase_add_test(tc, search_utf8);
	tcase_add_test(tc, report_flag_jumps);
	tcase_add_test(tc, small_terminal_ascii);
	tcase_add_test(tc, block_in_place_gaps);
	tcase_add_test(tc, oldest_layout);
	tcase_add_test(tc, lost_data_in_header);
	tcase_add_test(tc, canvas_hides_bidi);
	tcase_add_test(tc, views_at_any_size);
	suite_add_tcase(s, tc);
	return s;
}
