/*
 * test_fit.c: a browser that fits the person (issue 36), read from the
 * canvas at 80x24 and 160x48 on demo-2026-06: the legend of `?`, the
 * whole screen used, nothing cut, sorting, folding, focusing trees and
 * hiding their plumbing (H).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/wire.h"
#include "fixture.h"
#include "tui/abbrev.h"
#include "planted.h"

#define DEMO	"demo-2026-06.bin.gz"

/* `?` on the timeline ends with what its colours, glyphs and strips
 * mean. */
START_TEST(help_ends_with_legend)
{
	struct fx f;

	fx_open(&f, DEMO, 80, 24, 1);
	fx_keys(&f, "?");
	fx_key(&f, D9T_KEY_END);
	ck_screen_has(&f, "Legend");
	ck_screen_has(&f, "yellow     under 10 ms");
	ck_screen_has(&f, "\xc2\xb7            awake, no poll (idle)");
	ck_screen_has(&f, "\xe2\x96\x91            a block-in-place gap");
	ck_screen_has(&f, "blank        parked");
	ck_screen_has(&f, "kw         its kernel scheduling wait");
	fx_keys(&f, "q3?");
	fx_key(&f, D9T_KEY_END);
	ck_screen_has(&f, "a chain of single callees is one row");
	/* wrapped at 80 columns, under the text, not cut */
	ck_screen_has(&f, "  live         allocations: estimated live bytes over "
	    "the window, scaled to its\n               max\n");
	ck_screen_has(&f, "  t::r::Name   a name too long for the row: its "
	    "modules cut to their first\n");
	fx_key(&f, D9T_KEY_HOME);
	ck_screen_has(&f, "  p                points of interest in the window, "
	    "worst first; Enter jumps\n                   there\n");
	/* the poll's detail: its verdict, blame, stacks and folds */
	fx_keys(&f, "q1w\n?");
	fx_key(&f, D9T_KEY_END);
	ck_screen_has(&f, "Legend");
	ck_screen_has(&f, "  verdict      what the poll's samples say it ran or "
	    "waited on: cpu, preempted,\n");
	ck_screen_has(&f, "  held by      the poll that kept this task");
	ck_screen_has(&f, "  \xe2\x80\xa6 N runtime  the runtime's own frames");
	fx_close(&f);
}
END_TEST

/* The CPU tree at 80x24: the chain of single callees from the root is
 * one row, so a branch shows at once (20 rows of one child each came
 * before it). */
START_TEST(flame_chain_folds)
{
	struct fx f;

	fx_open(&f, DEMO, 80, 24, 1);
	fx_keys(&f, "3");
	/* too long for 80 columns: module names shortened (abbrev.h) */
	ck_screen_has(&f, "\n\xe2\x96\xbe 100.0%      147  all\n  \xe2\x96\xbe "
	    "100.0%      147  0xffff9b8cbf1c > ...44 frames... > t::r::");
	ck_screen_has(&f, "\n    \xe2\x96\xbe  99.3%      146  t::r::s::m::w::"
	    "Context::run > ");
	fx_keys(&f, "j\n");	/* Enter on a chain: a frame a row */
	ck_screen_has(&f, "\n  \xe2\x96\xbe 100.0%      147  0xffff9b8cbf1c\n");
	/* a match inside a folded chain gets a row of its own, shown */
	fx_keys(&f, "/SyncWait\n");
	ck_screen_has(&f, "75:\xe2\x96\xb8   0.7%        1  scc::wait_queue::"
	    "SyncWait::wait\n");
	ck_screen_has(&f, "1 frame match 'SyncWait'");
	fx_close(&f);
}
END_TEST

/* A stack 160 frames deep branching at depth 150: folded, the chain and
 * the two branches; unfolded, the frames past the indentation a third
 * of the screen allows show their depth and their names. */
START_TEST(flame_depth_150)
{
	char *p;
	struct mt t;
	struct fx f;

	mt_deep150(&t);
	p = mt_write(&t);
	tg_free(&t.tg);
	fx_open(&f, p, 160, 48, 1);
	fx_keys(&f, "3");
	ck_screen_has(&f, "100.0%       20  deep::level_0 > ...147 frames... > "
	    "deep::level_148 > deep::level_149\n");
	ck_screen_has(&f, "\n       50.0%       10  deep::level_150 > ...7 "
	    "frames... > deep::level_158 > deep::level_159\n");
	ck_screen_has(&f, "\n       50.0%       10  deep::other\n");
	fx_keys(&f, "j\n");	/* the first chain, a frame a row */
	fx_key(&f, D9T_KEY_END);
	ck_screen_has(&f, "151:   50.0%       10  deep::level_150 > ...");
	ck_screen_has(&f, "151:   50.0%       10  deep::other\n");
	fx_close(&f);
	unlink(p);
	free(p);
}
END_TEST

/* Rows of the screen that hold nothing but spaces. */
static int
blank_rows(const char *screen)
{
	int n = 0;

	for (const char *p = screen; *p; ) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		n += strspn(p, " ") >= len;
		if (e == NULL)
			break;
		p = e + 1;
	}
	return n;
}

/* At 160x48 the two lanes of demo-2026-06 grow to fill the screen (31
 * rows were blank); the line under the strips reads each at the
 * cursor. */
START_TEST(timeline_fills_the_screen)
{
	struct fx f;

	fx_open(&f, DEMO, 160, 48, 1);
	fx_render(&f);
	ck_assert_int_lt(blank_rows(f.screen), 8);
	ck_screen_has(&f, "active tasks 26  at it: queue 0  tasks 26  lq w0 0  "
	    "kw w0 0ns  cpu 0.05\n");
	fx_keys(&f, "ww");	/* task 55's 1.01 ms poll, on worker 1 */
	ck_screen_has(&f, "at it: queue 0  tasks 113  lq w1 47  kw w1 0ns  "
	    "cpu 1.40\n");
	ck_assert_int_lt(blank_rows(f.screen), 8);
	fx_keys(&f, "p\n");	/* the 5.90 ms poll: no CPU figure there */
	ck_screen_has(&f, "at it: queue 0  tasks 26\n");
	fx_close(&f);
}
END_TEST

/* A trace without CPU samples or kernel waits (a libd9rec recording
 * without perf): no strip for them ("kw" with max 0, "cpu" saying it
 * has no samples). */
START_TEST(empty_strips_hidden)
{
	struct mt t;
	struct fx f;
	char *p;

	mt_begin(&t);
	mt_spawn(&t, PL_MS, 7, "a/src/main.rs:1:1");
	mt_unpark(&t, 2 * PL_MS, 0, 0, 11, 0);
	mt_poll_start(&t, 5 * PL_MS, 0, 7, "a/src/main.rs:1:1");
	mt_poll_end(&t, 25 * PL_MS, 0);
	mt_park(&t, 30 * PL_MS, 0, 20 * PL_MS, 11);
	p = mt_write(&t);
	tg_free(&t.tg);
	fx_open(&f, p, 80, 24, 1);
	fx_render(&f);
	ck_screen_has(&f, "\ntasks  ");
	ck_screen_lacks(&f, "\nkw w0");
	ck_screen_lacks(&f, "\ncpu ");
	ck_screen_lacks(&f, "no process CPU samples");
	fx_close(&f);
	unlink(p);
	free(p);
}
END_TEST

/* At 80x24 nothing that matters is cut: the second-worst poll's verdict
 * wraps whole (under the lanes and in the poll detail), the header keeps
 * the start time, and a 2.7 ms window has the digits to tell its ends
 * apart. */
START_TEST(nothing_cut_at_80)
{
	struct fx f;

	fx_open(&f, DEMO, 80, 24, 1);
	fx_render(&f);
	ck_screen_has(&f, "(4.15s)  2w  16:36:15.288928\n");	/* not the date */
	ck_screen_has(&f, "\nat the cursor: queue 0  tasks 26  lq w0 0  kw w0 "
	    "0ns  cpu 0.05\n");	/* a row of its own */
	fx_keys(&f, "ww");
	ck_screen_has(&f, "\nverdict: lock: 9 of 9 samples waiting in futex, "
	    "under\n         scc::wait_queue::SyncWait::wait, in the "
	    "recorder's own frames\n");
	fx_keys(&f, "\n");
	ck_screen_has(&f, "\nverdict: lock: 9 of 9 samples waiting in futex, "
	    "under\n         scc::wait_queue::SyncWait::wait, in the "
	    "recorder's own frames\n\nOn-CPU");
	fx_keys(&f, "q");
	fx_keys(&f, "g0.001s\n");
	d9t_set_window(&f.app, f.app.m->min_ts + 1000000,
	    f.app.m->min_ts + 3700000, 1);
	fx_render(&f);
	ck_screen_has(&f, "window 0.00100s..0.00370s (2.70ms)");
	fx_close(&f);
}
END_TEST

/* Row y of list l drawn w columns wide (utf8: UTF-8 glyphs), into
 * row; row. */
static const char *
row_at(struct d9t_list *l, int w, int y, int utf8, char *row, size_t cap)
{
	struct d9t_canvas cv = { 0, 0, NULL };

	ck_assert_int_eq(d9t_canvas_init(&cv, w, (int)l->n), 0);
	d9t_list_draw(l, &cv, 0, (int)l->n, NULL, utf8);
	d9t_canvas_row(&cv, y, row, cap);
	d9t_canvas_free(&cv);
	return row;
}

/* A line cut at the screen's edge never cuts a file:line (boxed.rs:22
 * read as a line of boxed.rs:2206): the path goes whole, > shows it;
 * a jump to another view starts at the left. */
START_TEST(cut_keeps_line_numbers)
{
	struct d9t_list l;
	char row[256];
	struct fx f;

	d9t_list_init(&l);
	d9t_list_add(&l, 0, "  at alloc/src/boxed.rs:2206 (inlined)");
	d9t_list_add(&l, 0, "  frame in  std/boxed.rs:2206");
	ck_assert_str_eq(row_at(&l, 40, 1, 1, row, sizeof row),
	    "  frame in  std/boxed.rs:2206");
	ck_assert_str_eq(row_at(&l, 26, 0, 1, row, sizeof row), "  at");
	ck_assert_str_eq(row_at(&l, 26, 1, 1, row, sizeof row), "  frame in");
	d9t_list_free(&l);
	fx_open(&f, DEMO, 80, 24, 1);
	fx_keys(&f, "2>>>");
	ck_assert_uint_eq(f.app.lists[D9T_V_TASKS].hscroll, 24);
	fx_keys(&f, "12");
	ck_assert_uint_eq(f.app.lists[D9T_V_TASKS].hscroll, 0);
	fx_close(&f);
}
END_TEST

/* A figure the edge would cut is left out whole: 29295 is not read as
 * 2929, 39.68ms as 39.6, 12.3µs as 12.3 without its unit; words are cut
 * as they are, and a figure wider than the row is cut too. */
START_TEST(cut_leaves_figures_whole)
{
	struct d9t_list l;
	char row[256];

	d9t_list_init(&l);
	d9t_list_add(&l, 0, "Tasks: 30105 seen, 29295 terminated in the window");
	d9t_list_add(&l, 0, "   220   39.68ms   42.71ms");
	d9t_list_add(&l, 0, "p50 12.3\xc2\xb5s, 1,234,567 polls");
	d9t_list_add(&l, 0, "123456789012345");
	ck_assert_str_eq(row_at(&l, 23, 0, 1, row, sizeof row),
	    "Tasks: 30105 seen,");
	ck_assert_str_eq(row_at(&l, 30, 0, 1, row, sizeof row),
	    "Tasks: 30105 seen, 29295 termi");
	ck_assert_str_eq(row_at(&l, 15, 1, 1, row, sizeof row), "   220");
	ck_assert_str_eq(row_at(&l, 16, 1, 1, row, sizeof row),
	    "   220   39.68ms");
	ck_assert_str_eq(row_at(&l, 8, 2, 1, row, sizeof row), "p50");
	ck_assert_str_eq(row_at(&l, 17, 2, 1, row, sizeof row),
	    "p50 12.3\xc2\xb5s,");
	ck_assert_str_eq(row_at(&l, 10, 3, 1, row, sizeof row), "1234567890");
	d9t_list_free(&l);
}
END_TEST

/* A title whose key hint the edge would cut ("(En") leaves the hint out
 * whole; a parenthesis that is no key hint is cut as other text. */
START_TEST(cut_leaves_key_hints_whole)
{
	struct d9t_list l;
	char row[256];

	d9t_list_init(&l);
	d9t_list_add(&l, 0, "Spans by name: 12 in the window (Enter: the "
	    "slowest; f: field filter)");
	d9t_list_add(&l, 0, "task 6026 (examples/d9demo.c:crunch:1)");
	ck_assert_str_eq(row_at(&l, 40, 0, 1, row, sizeof row),
	    "Spans by name: 12 in the window");
	ck_assert_str_eq(row_at(&l, 80, 0, 1, row, sizeof row),
	    "Spans by name: 12 in the window (Enter: the slowest; f: field "
	    "filter)");
	ck_assert_str_eq(row_at(&l, 20, 1, 1, row, sizeof row),
	    "task 6026 (examples/");
	/* hints that are a key then words, and words that are not one */
	d9t_list_add(&l, 0, "Points of interest in the window: 1323 (Enter "
	    "jumps there, then n/N step through that kind; f: one kind)");
	d9t_list_add(&l, 0, "points of interest here: 115  (p lists them)");
	d9t_list_add(&l, 0, "CPU samples: 19121 (974 on-CPU, 18147 off-CPU)");
	ck_assert_str_eq(row_at(&l, 100, 2, 1, row, sizeof row),
	    "Points of interest in the window: 1323");
	ck_assert_str_eq(row_at(&l, 40, 3, 1, row, sizeof row),
	    "points of interest here: 115");
	ck_assert_str_eq(row_at(&l, 30, 4, 1, row, sizeof row),
	    "CPU samples: 19121 (974 on-CPU");
	d9t_list_free(&l);
}
END_TEST

/* A location too long for the row is cut on its left, so that its
 * file:line stays in sight ("..." without UTF-8); with room enough, or
 * scrolled with >, it is drawn as other text is. The tasks view at 80
 * columns ends each location with its line and column. */
START_TEST(paths_cut_on_the_left)
{
	struct d9t_list l;
	char row[256];
	struct fx f;
	int hits = 0;

	d9t_list_init(&l);
	d9t_list_add_path(&l, 0, "    12 ", "examples/service/src/main.rs:120:9");
	d9t_list_add_path(&l, 0, "     1 ", "src/lib.rs:7:1");
	ck_assert_str_eq(row_at(&l, 41, 0, 1, row, sizeof row),
	    "    12 examples/service/src/main.rs:120:9");
	ck_assert_str_eq(row_at(&l, 30, 0, 1, row, sizeof row),
	    "    12 \xe2\x80\xa6vice/src/main.rs:120:9");
	ck_assert_str_eq(row_at(&l, 30, 1, 1, row, sizeof row),
	    "     1 src/lib.rs:7:1");
	ck_assert_str_eq(row_at(&l, 30, 0, 0, row, sizeof row),
	    "    12 ...ce/src/main.rs:120:9");
	l.hscroll = 2;
	ck_assert_str_eq(row_at(&l, 30, 0, 1, row, sizeof row),
	    "  12 examples/service/src/main");
	/* a list standing for figures not computed yet says so (s saves
	 * no file of it); a rebuild forgets it */
	ck_assert_int_eq(l.computing, 0);
	ck_assert_int_eq(d9t_computing(&l, NULL, "figures"), 1);
	ck_assert_int_eq(l.computing, 1);
	d9t_list_reset(&l);
	ck_assert_int_eq(l.computing, 0);
	ck_assert_int_eq(d9t_computing(&l, &l, "figures"), 0);
	ck_assert_int_eq(l.computing, 0);
	d9t_list_add_path(&l, 0, "    12 ", "examples/service/src/main.rs:120:9");
	d9t_list_add_path(&l, 0, "     1 ", "src/lib.rs:7:1");
	/* too little room left for the path: cut on its right */
	l.hscroll = 0;
	ck_assert_str_eq(row_at(&l, 20, 0, 1, row, sizeof row),
	    "    12 examples/serv");
	d9t_list_free(&l);
	fx_open(&f, DEMO, 80, 24, 1);
	fx_keys(&f, "2");
	fx_render(&f);
	for (int y = 0; y < 24; y++) {
		d9t_canvas_row(&f.cv, y, row, sizeof row);
		if (strstr(row, "\xe2\x80\xa6") != NULL) {
			size_t n = strlen(row);

			hits++;
			ck_assert(n > 4 && row[n - 1] >= '0' && row[n - 1] <= '9');
			ck_assert_ptr_nonnull(strstr(row, ".rs:"));
		}
	}
	ck_assert_int_ge(hits, 4);
	fx_close(&f);
}
END_TEST

/* A symbol too long for its row has its module names shortened from
 * the left, as many as it takes (abbrev.h); types, functions and
 * closures stay whole. The CPU tree at 80 columns keeps the frames'
 * functions in sight. */
START_TEST(symbols_shortened)
{
	static const char *const rt =
	    "tokio::runtime::scheduler::multi_thread::worker::Context::run_task";
	char out[128], row[256];
	struct fx f;
	int hits = 0;

	ck_assert_uint_eq(d9t_abbrev(rt, 80, out, sizeof out), strlen(rt));
	ck_assert_str_eq(out, rt);
	ck_assert_uint_eq(d9t_abbrev(rt, 40, out, sizeof out), 37);
	ck_assert_str_eq(out, "t::r::s::m::worker::Context::run_task");
	ck_assert_uint_eq(d9t_abbrev(rt, 10, out, sizeof out), 32);
	ck_assert_str_eq(out, "t::r::s::m::w::Context::run_task");
	d9t_abbrev("<alloc::sync::Arc<T,A> as core::ops::deref::Deref>::deref",
	    46, out, sizeof out);
	ck_assert_str_eq(out, "<a::s::Arc<T,A> as c::o::deref::Deref>::deref");
	/* a function before its closure is no module */
	d9t_abbrev("my_app::handler::serve::{{closure}}", 20, out, sizeof out);
	ck_assert_str_eq(out, "m::h::serve::{{closure}}");
	/* cut by the buffer: never inside a character */
	d9t_abbrev("a\xc3\xa9\xc3\xa9", 80, out, 4);
	ck_assert_str_eq(out, "a\xc3\xa9");
	{	/* a frame's line: its symbol is fitted, not its file */
		struct d9t_list l;

		d9t_list_init(&l);
		d9t_list_add_symbol(&l, 0, "  ", "scc::wait_queue::Sync::wait"
		    "  /usr/local/cargo/registry/src/x.rs:12");
		d9t_list_add_symbol(&l, 0, "  ", "scc::hash_table::bucket::"
		    "Locker<K,V>::lock  /usr/a.rs:1");
		ck_assert_str_eq(row_at(&l, 40, 0, 1, row, sizeof row),
		    "  scc::wait_queue::Sync::wait  /usr/loca");
		ck_assert_str_eq(row_at(&l, 40, 1, 1, row, sizeof row),
		    "  s::h::bucket::Locker<K,V>::lock  /usr/");
		d9t_list_free(&l);
	}
	fx_open(&f, DEMO, 80, 24, 1);
	fx_keys(&f, "3");
	for (int y = 0; y < 24; y++) {
		d9t_canvas_row(&f.cv, y, row, sizeof row);
		hits += strstr(row, "t::r::s::m::worker::Context::run_task::"
		    "{{closure}}") != NULL;
	}
	ck_assert_int_eq(hits, 1);
	fx_close(&f);
}
END_TEST

/* o sorts the tasks list by its next column, O reverses it; the
 * cursor stays on the first row, which Enter opens (that location's
 * tasks, view_task.c). */
START_TEST(lists_sort)
{
	struct fx f;

	fx_open(&f, DEMO, 80, 24, 1);
	fx_keys(&f, "2");
	ck_screen_has(&f, "location\n     1       35   37.8\xc2\xb5s    5.90ms");
	fx_keys(&f, "o");
	ck_screen_has(&f, "sorted by tasks, largest first");
	ck_screen_has(&f, "location\n    85    86594");
	fx_keys(&f, "ooo");
	ck_screen_has(&f, "sorted by p99, largest first");
	ck_screen_has(&f, "location\n     1       35   37.8\xc2\xb5s    5.90ms");
	ck_screen_has(&f, "5.90ms      0  \xe2\x80\xa6service/src/main.rs:289:14\n"
	    "     1       52    5.4\xc2\xb5s  343.1\xc2\xb5s");
	fx_keys(&f, "O");
	ck_screen_has(&f, "sorted by p99, smallest first");
	ck_screen_has(&f, "location\n     1        2     250ns   19.5\xc2\xb5s");
	fx_keys(&f, "\n");	/* the first row, the smallest p99: its tasks */
	ck_screen_has(&f, "Tasks spawned at");
	ck_screen_has(&f, "1 in the window");
	fx_keys(&f, "p");	/* points of interest by time, one kind each */
	fx_keys(&f, "oo");
	ck_screen_has(&f, "sorted by time, largest first");
	fx_close(&f);
}
END_TEST

/* H in the CPU tree at 80x24, after z on the chain under the root:
 * the default pattern (runtime, std/core/alloc, futures, tracing, the
 * recorder, unnamed frames) takes the plumbing out, so the first rows
 * under the root are the application's; the weights stay whole (the
 * root keeps its 147 samples, the frame under it its 132); the focused
 * frame was hidden, which the message says. H again, erased (C-u):
 * every frame again. */
START_TEST(flame_hide)
{
	struct fx f;

	fx_open(&f, DEMO, 80, 24, 1);
	fx_keys(&f, "3jz");
	ck_screen_has(&f, "zoomed into: tokio::runtime::scheduler::");
	fx_keys(&f, "H");
	ck_screen_has(&f, "hide frames starting with (| between, empty: none): "
	    "tracing|dial9|@recorder|0x");
	fx_keys(&f, "\n");
	ck_screen_has(&f, "\nhidden: tokio::runtime | tokio::task | "
	    "tokio::loom | std:: | core:: | alloc:: |\n        futures | "
	    "tracing | dial9 | @recorder | 0x (H: change; empty: all)\n");
	ck_screen_has(&f, "\n\xe2\x96\xbe 100.0%      147  all\n"
	    "  \xe2\x96\xbe  89.8%      132  <m::a::WithGracefulShutdown<L,M,S,F>");
	ck_screen_has(&f, "\n    \xe2\x96\xbe  67.3%       99  <h::s::c::a::"
	    "UpgradeableConnection");
	ck_screen_has(&f, "the frame focused on is not in this tree");
	ck_screen_lacks(&f, "0xffff9b8cbf1c");
	/* z on an application frame, kept while the pattern changes */
	fx_keys(&f, "jjjz");
	ck_screen_has(&f, "zoomed into: hyper::proto::h1::dispatch::");
	fx_keys(&f, "H\x15tokio::runtime\n");
	ck_screen_has(&f, "\nhidden: tokio::runtime (H: change; empty: all)\n");
	ck_screen_has(&f, "zoomed into: hyper::proto::h1::dispatch::");
	fx_keys(&f, "qH\x15\n");
	ck_screen_lacks(&f, "hidden:");
	ck_screen_has(&f, "every frame shown");
	ck_screen_has(&f, "  \xe2\x96\xbe 100.0%      147  0xffff9b8cbf1c > "
	    "...44 frames... > t::r::");
	fx_close(&f);
}
END_TEST

/* The detail of demo-2026-06's second-worst poll at 80x24: a stack of
 * 182 frames whose application frame is its middle. The runs of
 * runtime, kernel and recorder frames fold ("... 16 runtime frames"),
 * the leaf and the application's frames stay: paging down shows the
 * handler by name (before, the middle folded away and it never
 * showed). Enter on a fold shows its frames. */
START_TEST(poll_detail_keeps_app_frames)
{
	struct fx f;

	fx_open(&f, DEMO, 80, 24, 1);
	fx_keys(&f, "ww\n");
	ck_screen_has(&f, "Poll of 1.01ms");
	ck_screen_has(&f, "    leaf schedule\n         \xe2\x80\xa6 16 runtime "
	    "frames (Enter: show them)\n         scc::wait_queue::SyncWait::"
	    "wait  ");
	fx_key(&f, D9T_KEY_PGDN);
	fx_key(&f, D9T_KEY_PGDN);
	ck_screen_has(&f, "\n         \xe2\x80\xa6 24 runtime frames (Enter: "
	    "show them)\n         metrics_service::routes::record_metric::"
	    "{{closure}}  /repo/examples/met");
	ck_screen_lacks(&f, "tokio::runtime::");
	fx_keys(&f, "/24 runtime\n\n");
	ck_screen_has(&f, "\n         __futex_wait\n");
	ck_screen_lacks(&f, "runtime frames (Enter");
	fx_close(&f);
}
END_TEST

/* The column of sub on the screen's line holding s (searched from the
 * line's start), -1. */
static int
column_in_line(const char *screen, const char *s, const char *sub)
{
	const char *at = strstr(screen, s), *line, *x;
	char buf[512];
	size_t n;

	if (at == NULL)
		return -1;
	for (line = at; line > screen && line[-1] != '\n'; line--)
		;
	n = strcspn(line, "\n");
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	x = strstr(buf, sub);
	return x ? (int)(x - buf) : -1;
}

/* With a baseline, a row marked LEAK? (a location whose 40 tasks never
 * end) keeps its change columns under their headings, as a plain row
 * does (the mark shifted them 6 columns right). */
START_TEST(leak_keeps_delta_columns)
{
	struct mt t;
	struct fx f;
	char *p;

	mt_begin(&t);
	mt_unpark(&t, 100, 0, 0, 11, 0);
	for (uint64_t i = 0; i < 40; i++) {
		uint64_t ts = 1000000 + i * 1000000;

		mt_spawn(&t, ts, 100 + i, "leak.rs:9:9");
		mt_poll_start(&t, ts + 1000, 0, 100 + i, "leak.rs:9:9");
		mt_poll_end(&t, ts + 21000, 0);
		mt_spawn(&t, ts + 500000, 500 + i, "ok.rs:1:1");
		mt_poll_start(&t, ts + 501000, 0, 500 + i, "ok.rs:1:1");
		mt_poll_end(&t, ts + 531000, 0);
		mt_term(&t, ts + 900000, 500 + i);
	}
	mt_park(&t, 42000000, 0, 0, 11);
	p = mt_write(&t);
	tg_free(&t.tg);
	fx_open(&f, p, 160, 48, 1);
	fx_keys(&f, "b2");
	ck_screen_has(&f, "+/-p99");
	ck_screen_has(&f, " LEAK?");
	ck_assert_int_gt(column_in_line(f.screen, "leak.rs:9:9", "%"), 0);
	ck_assert_int_eq(column_in_line(f.screen, "leak.rs:9:9", "%"),
	    column_in_line(f.screen, "ok.rs:1:1", "%"));
	ck_assert_int_eq(column_in_line(f.screen, "leak.rs:9:9", "leak.rs"),
	    column_in_line(f.screen, "ok.rs:1:1", "ok.rs"));
	fx_close(&f);
	unlink(p);
	free(p);
}
END_TEST

Suite *
suite_fit(void)
{
	Suite *s = suite_create("fit");
	TCase *tc = tcase_create("fit");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, help_ends_with_legend);
	tcase_add_test(tc, flame_chain_folds);
	tcase_add_test(tc, flame_depth_150);
	tcase_add_test(tc, timeline_fills_the_screen);
	tcase_add_test(tc, empty_strips_hidden);
	tcase_add_test(tc, nothing_cut_at_80);
	tcase_add_test(tc, cut_keeps_line_numbers);
	tcase_add_test(tc, cut_leaves_key_hints_whole);
	tcase_add_test(tc, cut_leaves_figures_whole);
	tcase_add_test(tc, paths_cut_on_the_left);
	tcase_add_test(tc, symbols_shortened);
	tcase_add_test(tc, lists_sort);
	tcase_add_test(tc, flame_hide);
	tcase_add_test(tc, poll_detail_keeps_app_frames);
	tcase_add_test(tc, leak_keeps_delta_columns);
	suite_add_tcase(s, tc);
	return s;
}
