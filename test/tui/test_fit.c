/*
 * test_fit.c: a browser that fits the person (issue 36), read from the
 * canvas at 80x24 and 160x48 on demo-2026-06: the legend of `?`, the
 * whole screen used, nothing cut, sorting, folding and focusing trees.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/wire.h"
#include "fixture.h"
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
	ck_screen_has(&f, "\n\xe2\x96\xbe 100.0%      147  all > ...45 frames... "
	    "> tokio::runtime::context::scoped::Scop");
	ck_screen_has(&f, "\n  \xe2\x96\xbe  99.3%      146  tokio::runtime::"
	    "scheduler::multi_thread::worker::Context::r");
	fx_keys(&f, "\n");	/* Enter on a chain: a frame a row */
	ck_screen_has(&f, "\n\xe2\x96\xbe 100.0%      147  all\n");
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
	enum { DEPTH = 160, FORK = 150 };
	uint64_t fr[DEPTH], other[FORK + 1];
	char name[32], *p;
	struct mt t;
	struct fx f;

	mt_begin(&t);
	for (int i = 0; i < DEPTH; i++) {
		fr[i] = 0x400000 + 0x40 * (uint64_t)i;
		snprintf(name, sizeof name, "deep::level_%d", DEPTH - 1 - i);
		mt_symbol(&t, fr[i], name, 0);
	}
	mt_symbol(&t, 0x500000, "deep::other", 0);
	mt_spawn(&t, PL_MS, 7, "deep/src/main.rs:1:1");
	mt_unpark(&t, 2 * PL_MS, 0, 0, 11, 0);
	mt_poll_start(&t, 5 * PL_MS, 0, 7, "deep/src/main.rs:1:1");
	/* leaf first: levels 159..0, or other and levels 149..0 */
	other[0] = 0x500000;
	memcpy(other + 1, fr + DEPTH - FORK, FORK * sizeof *fr);
	for (uint64_t i = 0; i < 20; i++)
		mt_cpu(&t, 6 * PL_MS + i * 500000, 11, D9_SOURCE_CPU,
		    i % 2 ? DEPTH : FORK + 1, i % 2 ? fr : other);
	mt_poll_end(&t, 25 * PL_MS, 0);
	mt_park(&t, 30 * PL_MS, 0, 20 * PL_MS, 11);
	p = mt_write(&t);
	tg_free(&t.tg);
	fx_open(&f, p, 160, 48, 1);
	fx_keys(&f, "3");
	ck_screen_has(&f, "100.0%       20  all > ...148 frames... > "
	    "deep::level_148 > deep::level_149\n");
	ck_screen_has(&f, "\n     50.0%       10  deep::level_150 > ...7 "
	    "frames... > deep::level_158 > deep::level_159\n");
	ck_screen_has(&f, "\n     50.0%       10  deep::other\n");
	fx_keys(&f, "\n");	/* the first chain, a frame a row */
	fx_key(&f, D9T_KEY_END);
	ck_screen_has(&f, "151:   50.0%       10  deep::level_150 > ...");
	ck_screen_has(&f, "151:   50.0%       10  deep::other\n");
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
	suite_add_tcase(s, tc);
	return s;
}
