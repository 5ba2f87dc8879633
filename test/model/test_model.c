/*
 * test_model.c: the model's derivations (ANALYSIS 2-4) and the analyses
 * (5-8) on small traces whose right answers are worked out by hand.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/wire.h"
#include "mktrace.h"
#include "model/figures/analysis.h"
#include "model/core/frames.h"
#include "model/core/ids.h"
#include "model/core/table.h"
#include "model/core/twins.h"
#include "suites.h"

static const struct d9m_window all = D9M_WHOLE_INIT;

static struct d9m_analysis
analyze(const struct d9m_model *m, struct d9m_window w, uint64_t chain)
{
	struct d9m_analysis a;
	struct d9m_analysis_opts o = { w, 10, chain, NULL, 0 };

	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	return a;
}

START_TEST(test_polls_parks_actives)
{
	struct mt t;
	struct d9m_model *m;

	mt_begin(&t);
	mt_unpark(&t, 50, 0, 0, 7, 0);
	mt_poll_start(&t, 100, 0, 1, "a.rs:1:1");
	mt_poll_end(&t, 200, 0);
	mt_poll_start(&t, 300, 0, 2, "b.rs:2:2");
	mt_poll_start(&t, 400, 0, 3, "b.rs:2:2");	/* 300 cut: open-ended */
	mt_poll_end(&t, 500, 0);
	mt_poll_end(&t, 550, 0);			/* no open poll: ignored */
	mt_park(&t, 600, 0, 400, 7);
	mt_unpark(&t, 1000, 0, 400, 7, 30);
	mt_park(&t, 1500, 0, 650, 7);
	mt_poll_start(&t, 2000, 0, 4, "c.rs:3:3");	/* never ends: dropped */
	mt_wake(&t, 3000, 0, 1, 255);			/* max_ts 3000 */
	m = mt_finish(&t);
	ck_assert_uint_eq(m->nworkers, 1);
	ck_assert_uint_eq(m->polls.n, 3);
	ck_assert_uint_eq(m->polls.start[1], 300);
	ck_assert_uint_eq(m->polls.end[1], 400);
	ck_assert(m->polls.flags[1] & D9M_POLL_OPEN_ENDED);
	ck_assert(!(m->polls.flags[2] & D9M_POLL_OPEN_ENDED));
	ck_assert_uint_eq(m->parks.n, 2);
	ck_assert_uint_eq(m->parks.end[0], 1000);
	ck_assert_uint_eq(m->parks.sched_wait[0], 30);
	ck_assert_uint_eq(m->parks.end[1], 3000);	/* open park to max */
	ck_assert_uint_eq(m->actives.n, 2);		/* [50,600] [1000,1500] */
	ck_assert(fabs(m->actives.ratio[1] - 0.5) < 1e-9);
	{
		struct d9m_analysis a = analyze(m, all, 0);

		ck_assert_uint_eq(a.npolls, 3);
		ck_assert_uint_eq(a.open_ended, 1);
		ck_assert_uint_eq(a.workers[0].active_ns, 550 + 500);
		ck_assert_uint_eq(a.workers[0].parked_ns, 400 + 1500);
		ck_assert_uint_eq(a.worst[0].poll, 0);	/* 100 ns, earliest */
		d9m_analysis_free(&a);
	}
	d9m_model_free(&m);
}
END_TEST

START_TEST(test_block_in_place_gap)
{
	struct mt t;
	struct d9m_model *m;
	const uint64_t f[] = { 0x1000 };

	mt_begin(&t);
	mt_unpark(&t, 100, 1, 0, 11, 0);
	mt_poll_start(&t, 200, 1, 9, "x.rs:1:1");
	mt_cpu(&t, 250, 11, D9_SOURCE_SCHED, 1, f);	/* in the poll */
	mt_cpu(&t, 700, 11, D9_SOURCE_CPU, 1, f);	/* inside the gap */
	mt_park(&t, 1000, 1, 0, 12);			/* other thread now */
	mt_unpark(&t, 2000, 1, 0, 12, 0);
	mt_cpu(&t, 2100, 12, D9_SOURCE_SCHED, 1, f);	/* between polls */
	m = mt_finish(&t);
	ck_assert_uint_eq(m->gaps.n, 1);
	ck_assert_uint_eq(m->gaps.from_tid[0], 11);
	ck_assert_uint_eq(m->gaps.to_tid[0], 12);
	/* from the worker's last park/unpark before the change */
	ck_assert_uint_eq(m->gaps.start[0], 100);
	ck_assert_uint_eq(m->gaps.end[0], 1000);
	ck_assert_uint_eq(m->cpu.worker[1], D9_NONE);
	ck_assert_uint_eq(m->cpu.worker[0], D9_NONE);	/* in gap too */
	ck_assert_uint_eq(d9m_worker_own(m, m->cpu.worker[2]), 1);
	ck_assert_uint_eq(m->actives.n, 0);	/* overlapped the gap */
	d9m_model_free(&m);
}
END_TEST

START_TEST(test_sched_delay_stale_wake)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_analysis a;

	mt_begin(&t);
	mt_wake(&t, 100, 0, 5, 0);
	mt_poll_start(&t, 150, 0, 5, "t.rs:1:1");	/* delay 50 */
	mt_poll_end(&t, 160, 0);
	mt_poll_start(&t, 300, 0, 5, "t.rs:1:1");	/* no fresh wake */
	mt_poll_end(&t, 500, 0);
	mt_wake(&t, 450, 0, 5, 0);			/* during that poll */
	mt_poll_start(&t, 600, 0, 5, "t.rs:1:1");	/* 600 - 500 */
	mt_poll_end(&t, 610, 0);
	m = mt_finish(&t);
	a = analyze(m, all, 0);
	ck_assert_uint_eq(a.sched.count, 2);
	ck_assert_uint_eq(a.sched.max, 100);
	ck_assert_uint_eq(a.sched.p50, 50);
	ck_assert_uint_eq(a.sched_no_wake, 1);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

/* Delays of 0 ns, which finishing never derives (a poll starts after
 * its wake) but an index entry may hold (it is untrusted input): the
 * worst is the first poll in task order, not a comparison with no poll
 * at all (found by fuzz_image: the first delay of 0 was ordered against
 * poll D9_NONE). */
START_TEST(test_sched_delay_zero)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_analysis a;

	mt_begin(&t);
	mt_wake(&t, 100, 0, 6, 0);
	mt_poll_start(&t, 150, 0, 6, "t.rs:1:1");
	mt_poll_end(&t, 160, 0);
	mt_wake(&t, 200, 0, 5, 0);
	mt_poll_start(&t, 250, 0, 5, "t.rs:1:1");
	mt_poll_end(&t, 260, 0);
	m = mt_finish(&t);
	ck_assert_uint_eq(m->polls.n, 2);
	for (size_t i = 0; i < m->polls.n; i++) {
		ck_assert_uint_eq(m->poll_sched[i], 50);
		m->poll_sched[i] = 0;
	}
	a = analyze(m, all, 0);
	ck_assert_uint_eq(a.sched.count, 2);
	ck_assert_uint_eq(a.sched.max, 0);
	ck_assert_uint_ne(a.sched_worst_poll, D9_NONE);
	ck_assert_uint_eq(m->tasks.id[m->polls.task[a.sched_worst_poll]], 6);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

START_TEST(test_spans)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_analysis a;

	mt_begin(&t);
	mt_span(&t, 0, 100, 0, 7, "work");
	mt_span(&t, 1, 150, 0, 7, "work");
	mt_span(&t, 0, 400, 1, 7, "work");	/* resumed on another worker */
	mt_span(&t, 1, 500, 1, 7, "work");
	mt_span(&t, 2, 510, 0, 7, "");		/* closed: id reusable */
	mt_span(&t, 0, 600, 0, 7, "work");
	mt_span(&t, 1, 620, 0, 7, "work");
	mt_span(&t, 0, 700, 0, 8, "work");	/* never exits */
	m = mt_finish(&t);
	a = analyze(m, all, 0);
	ck_assert_uint_eq(a.nspans, 1);
	ck_assert_uint_eq(a.spans[0].dur.count, 2);
	ck_assert_uint_eq(a.spans[0].dur.max, 400);	/* 100 .. 500 */
	ck_assert_uint_eq(a.spans[0].dur.p50, 20);
	ck_assert_uint_eq(a.unmatched_spans, 1);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

START_TEST(test_memory_weights)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_analysis a;
	const uint64_t f[] = { 0x2000 };
	double w = 1000 / (1 - exp(-1.0));

	mt_begin(&t);
	mt_meta(&t, "memory.sample_rate_bytes", "1000");
	mt_alloc(&t, 100, 1000, 0xa0, 1, f);
	mt_alloc(&t, 200, 1000, 0xb0, 1, f);
	mt_free(&t, 150, 0xa0, 1000, 100);
	mt_alloc(&t, 300, 0, 0xc0, 1, f);		/* weight 0 */
	m = mt_finish(&t);
	a = analyze(m, all, 0);
	ck_assert(a.mem.present);
	ck_assert_uint_eq(a.mem.rate, 1000);
	ck_assert(fabs(a.mem.est_bytes - 2 * w) < 1e-6);
	ck_assert(fabs(a.mem.live_bytes - w) < 1e-6);	/* 0xb0 and 0xc0 */
	ck_assert_uint_eq(a.mem.unmatched, 2);
	ck_assert_uint_eq(a.mem.nsites, 1);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

START_TEST(test_inline_frames_innermost_first)
{
	struct mt t, u;
	char *p1, *p2;
	const char *paths[2];
	struct d9m_model *m;
	struct d9m_frame f[8];
	struct d9m_fmemo k;
	const uint64_t stack[] = { 0x10 };
	size_t n;

	mt_begin(&t);
	mt_symbol(&t, 0x10, "outer", 0);
	mt_symbol(&t, 0x10, "middle", 1);
	mt_symbol(&t, 0x10, "inner", 2);
	mt_cpu(&t, 100, 7, 0, 1, stack);
	p1 = mt_write(&t);
	mt_begin(&u);			/* a second segment, same address */
	mt_symbol(&u, 0x10, "other", 0);
	mt_cpu(&u, 200, 7, 0, 1, stack);
	p2 = mt_write(&u);
	paths[0] = p1;
	paths[1] = p2;
	m = mt_load(paths, 2);
	n = d9m_frames_of(m, NULL, 0, 0x10, 0, f, 8);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(f[0].name, "inner");
	ck_assert_str_eq(f[2].name, "outer");
	ck_assert(f[0].inlined && !f[2].inlined);
	n = d9m_frames_of(m, NULL, 1, 0x10, 0, f, 8);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(f[0].name, "other");
	n = d9m_frames_of(m, NULL, 1, 0x99, 0, f, 8);
	ck_assert_str_eq(d9m_frame_name(&f[0]), "0x99");
	/* one memo asked for the same stack of both segments, in turn:
	 * each segment's own names, every time (kept per segment) */
	ck_assert_uint_eq(m->cpu.n, 2);
	d9m_fmemo_init(&k);
	for (int round = 0; round < 2; round++)
		for (uint32_t r = 0; r < 2; r++) {
			n = d9m_stack_frames_memo(m, NULL, &k, m->cpu.seg[r],
			    m->cpu.stack[r], f, 8);
			ck_assert_uint_eq(n, m->cpu.seg[r] == 0 ? 3 : 1);
			ck_assert_str_eq(f[0].name, m->cpu.seg[r] == 0 ?
			    "inner" : "other");
		}
	ck_assert_uint_eq(k.nent, 2);	/* both kept */
	d9m_fmemo_free(&k);
	d9m_model_free(&m);
	unlink(p1);
	unlink(p2);
	free(p1);
	free(p2);
	tg_free(&t.tg);
	tg_free(&u.tg);
}
END_TEST

/* Segments with the same symbol rows (and no maps) are twins of the
 * first of them; one more symbol, or another name, is not. The events
 * differ, or the files would be copies of one segment. */
START_TEST(test_segment_twins)
{
	static const char *const names[4][3] = { { "f", "g", NULL },
		{ "f", "g", NULL }, { "f", "h", NULL }, { "f", "g", "k" } };
	const char *paths[5];
	struct d9m_model *m;
	uint32_t twin[5];
	struct d9m_fmemo memo;
	struct d9m_frame f[8];
	const uint64_t stack[] = { 0x20 };

	for (int k = 0; k < 5; k++) {
		struct mt t;

		mt_begin(&t);
		for (int j = 0; j < 3 && names[k % 4][j] != NULL; j++)
			mt_symbol(&t, 0x10 * (j + 1), names[k % 4][j], 0);
		mt_queue(&t, 100 + (uint64_t)k, (unsigned)k);	/* not a copy */
		mt_cpu(&t, 200 + (uint64_t)k, 7, 0, 1, stack);
		paths[k] = mt_write(&t);
		tg_free(&t.tg);
	}
	m = mt_load(paths, 5);
	ck_assert_uint_eq(m->segs.n, 5);
	ck_assert_int_eq(d9m_seg_twins(m, twin), 0);
	ck_assert_uint_eq(twin[0], 0);
	ck_assert_uint_eq(twin[1], 0);
	ck_assert_uint_eq(twin[2], 2);
	ck_assert_uint_eq(twin[3], 3);
	ck_assert_uint_eq(twin[4], 0);
	/* a memo asked for 0x20 of every segment keeps one entry per
	 * twin: each segment still gets its own name */
	ck_assert_ptr_nonnull(m->seg_twin);
	ck_assert_uint_eq(d9m_twin_of(m, 4), 0);
	ck_assert_uint_eq(d9m_twin_of(m, 99), 99);	/* no such segment */
	d9m_fmemo_init(&memo);
	ck_assert_uint_eq(m->cpu.n, 5);	/* one stack, {0x20}, in each */
	for (uint32_t seg = 0; seg < 5; seg++) {
		ck_assert_uint_eq(m->cpu.stack[seg], m->cpu.stack[0]);
		ck_assert_uint_eq(d9m_stack_frames_memo(m, NULL, &memo, seg,
		    m->cpu.stack[0], f, 8), 1);
		ck_assert_str_eq(f[0].name, seg == 2 ? "h" : "g");
	}
	ck_assert_uint_eq(memo.nent, 3);	/* segments 0 (1, 4), 2, 3 */
	d9m_fmemo_free(&memo);
	d9m_model_free(&m);
	for (int k = 0; k < 5; k++) {
		unlink(paths[k]);
		free((char *)paths[k]);
	}
}
END_TEST

START_TEST(test_wake_chain_and_window)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_analysis a;
	struct d9m_window w = { 1000, 2000 };

	mt_begin(&t);
	mt_wake(&t, 100, 0, 1, 0);
	mt_wake(&t, 200, 1, 2, 0);
	mt_wake(&t, 300, 2, 3, 0);
	mt_poll_start(&t, 500, 0, 3, "w.rs:1:1");
	mt_poll_end(&t, 600, 0);
	mt_poll_start(&t, 1500, 0, 2, "w.rs:1:1");
	mt_poll_end(&t, 1800, 0);
	m = mt_finish(&t);
	a = analyze(m, all, 3);
	ck_assert_uint_eq(a.nchain, 3);
	ck_assert_uint_eq(m->tasks.id[a.chain[0].task], 3);
	ck_assert_uint_eq(m->tasks.id[a.chain[1].task], 2);
	ck_assert_uint_eq(m->tasks.id[a.chain[2].task], 1);
	ck_assert_uint_eq(a.npolls, 2);
	d9m_analysis_free(&a);
	a = analyze(m, w, 0);
	ck_assert_uint_eq(a.npolls, 1);
	ck_assert_uint_eq(a.nworst, 1);
	ck_assert_uint_eq(m->polls.start[a.worst[0].poll], 1500);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

START_TEST(test_task_leak_rule)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_analysis a;

	mt_begin(&t);
	/* a location whose tasks never end, spawned steadily */
	for (uint64_t i = 0; i < 40; i++)
		mt_spawn(&t, 1000 + i * 1000, 100 + i, "leak.rs:9:9");
	/* a location whose tasks come and go */
	for (uint64_t i = 0; i < 40; i++) {
		mt_spawn(&t, 1500 + i * 1000, 500 + i, "ok.rs:1:1");
		mt_term(&t, 1900 + i * 1000, 500 + i);
	}
	mt_wake(&t, 50000, 0, 100, 0);
	m = mt_finish(&t);
	a = analyze(m, all, 0);
	ck_assert(a.leak_suspected);
	ck_assert_str_eq(d9m_str(m, a.leak_loc), "leak.rs:9:9");
	ck_assert_uint_eq(a.leak_loc_alive, 40);
	ck_assert_uint_eq(a.tasks_spawned, 80);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

START_TEST(test_dumps_weigh_the_gap_after_their_poll)
{
	struct mt t;
	struct d9m_model *m;
	struct d9m_analysis a;
	const uint64_t f1[] = { 0x100 }, f2[] = { 0x200 };

	mt_begin(&t);
	mt_poll_start(&t, 100, 0, 5, "d.rs:1:1");
	mt_poll_end(&t, 200, 0);
	mt_poll_start(&t, 1000, 0, 5, "d.rs:1:1");
	mt_poll_end(&t, 1100, 0);
	mt_dump(&t, 101, 5, 1, f1);	/* stamped with the first poll */
	mt_dump(&t, 1001, 5, 1, f2);	/* the last poll: until trace end */
	mt_wake(&t, 5000, 0, 5, 0);	/* trace end */
	m = mt_finish(&t);
	a = analyze(m, all, 0);
	ck_assert_uint_eq(a.dumps, 2);
	ck_assert_uint_eq(a.nidle, 2);
	ck_assert_uint_eq(a.idle[0].idle_ns, 5000 - 1100);
	ck_assert_uint_eq(a.idle[1].idle_ns, 1000 - 200);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

START_TEST(test_ranks_and_sort)
{
	uint64_t v[] = { 5, 3, 9, 1, 1, UINT64_MAX, 0 };
	uint64_t keys[] = { 30, 10, 20, 10 };
	uint32_t perm[4];

	ck_assert_uint_eq(d9m_rank(52, 99), 51);	/* HDR: round, not ceil */
	ck_assert_uint_eq(d9m_rank(35, 50), 18);
	ck_assert_uint_eq(d9m_rank(1, 99), 1);
	ck_assert_uint_eq(d9m_rank(2, 50), 1);
	ck_assert_int_eq(d9m_sort_u64(v, 7), 0);
	for (int i = 1; i < 7; i++)
		ck_assert_uint_le(v[i - 1], v[i]);
	ck_assert_int_eq(d9m_sort_perm(keys, 4, perm), 0);
	ck_assert_uint_eq(perm[0], 1);		/* stable: 1 before 3 */
	ck_assert_uint_eq(perm[1], 3);
	ck_assert_uint_eq(perm[2], 2);
	ck_assert_uint_eq(perm[3], 0);
}
END_TEST

/* A file's tables get room for all its rows once an eighth of it is
 * read (d9m_b_room): a file of two equal batches, the second at its
 * half, gives the runtime events' table room for twice the first
 * batch's rows and a quarter more, in one move, where pushes alone
 * double it (to 131072 rows for these 120004); tables the guess would
 * not double keep their room; what is read is all there. */
START_TEST(room_guessed_from_the_first_eighth)
{
	struct mt t;
	struct d9m_model *m = d9m_model_new();
	struct d9p_read_stats st;
	const char *paths[1];
	size_t rows, half;
	uint8_t *copy;

	ck_assert_ptr_nonnull(m);
	mt_begin(&t);
	mt_unpark(&t, 1000, 0, 0, 7, 0);
	for (uint64_t i = 0; i < 30000; i++) {
		mt_poll_start(&t, 2000 + 100 * i, 0, 1, "src/main.rs:1:1");
		mt_poll_end(&t, 2050 + 100 * i, 0);
	}
	mt_park(&t, 4000000, 0, 0, 7);
	half = t.tg.n;
	ck_assert_uint_ge(half, (size_t)256 << 10);	/* ROOM_FROM */
	ck_assert_ptr_nonnull(copy = malloc(half));
	memcpy(copy, t.tg.p, half);
	tg_raw(&t.tg, copy, half);	/* its header starts a batch */
	free(copy);
	paths[0] = mt_write(&t);
	tg_free(&t.tg);
	ck_assert_int_eq(d9m_model_load(m, paths, 1, NULL, NULL, NULL, &st),
	    0);
	rows = d9m_tab_n(&m->rt);
	ck_assert_uint_eq(rows, 2 * 60002);
	ck_assert_uint_eq(((const size_t *)&m->rt)[1], rows + rows / 4);
	/* the one worker, its one task: no move for them */
	ck_assert_uint_eq(((const size_t *)&m->wids)[1], 256);
	ck_assert_uint_eq(((const size_t *)&m->tasks)[1], 256);
	ck_assert_int_eq(d9m_model_finish(m), 0);
	ck_assert_uint_eq(m->polls.n, 2 * 30000);
	unlink(paths[0]);
	free((char *)paths[0]);
	d9m_model_free(&m);
}
END_TEST

Suite *
model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("timeline");

	tcase_add_test(tc, test_polls_parks_actives);
	tcase_add_test(tc, test_block_in_place_gap);
	tcase_add_test(tc, test_inline_frames_innermost_first);
	tcase_add_test(tc, test_segment_twins);
	tcase_add_test(tc, test_ranks_and_sort);
	tcase_add_test(tc, room_guessed_from_the_first_eighth);
	suite_add_tcase(s, tc);
	return s;
}

Suite *
analysis_suite(void)
{
	Suite *s = suite_create("analysis");
	TCase *tc = tcase_create("figures");

	tcase_add_test(tc, test_sched_delay_stale_wake);
	tcase_add_test(tc, test_sched_delay_zero);
	tcase_add_test(tc, test_spans);
	tcase_add_test(tc, test_memory_weights);
	tcase_add_test(tc, test_wake_chain_and_window);
	tcase_add_test(tc, test_task_leak_rule);
	tcase_add_test(tc, test_dumps_weigh_the_gap_after_their_poll);
	suite_add_tcase(s, tc);
	return s;
}
