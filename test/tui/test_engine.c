/*
 * test_engine.c: the browser and the command line follow one rule. On
 * each real trace, for every task that was woken and polled, the chain
 * `c` shows from the task's last poll is the chain --chain TASK prints:
 * the same tasks, through the same polls, in the same order. (The
 * block-in-place trace records no wakes: nothing to compare there.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/wire.h"
#include "fixture.h"
#include "model/queries/wake.h"
#include "output/output.h"
#include "planted.h"

static const char *const traces[] = { "demo-2026-06.bin.gz",
	"demo-2026-03.bin", "block-in-place-2026-05.bin" };

START_TEST(chain_browser_equals_cli)
{
	struct fx f;
	const struct d9m_model *m;
	const struct d9m_window all = D9M_WHOLE;
	struct d9m_hop cli[D9M_CHAIN_MAX];
	size_t compared = 0, hops = 0;

	fx_open(&f, traces[_i], 120, 40, 1);
	m = f.app.m;
	for (uint32_t t = 0; t < m->tasks.n; t++) {
		uint32_t p = d9m_task_last_poll(m, t, &all);
		const struct d9m_hop *hop;
		size_t n, nh;

		if (m->wakes.by_woken_off[t] == m->wakes.by_woken_off[t + 1] ||
		    p == D9_NONE)
			continue;
		n = d9m_task_chain(m, m->tasks.id[t], &all, cli, D9M_CHAIN_MAX);
		fx_keys(&f, "1");
		d9t_select_poll(&f.app, p);
		fx_keys(&f, "c");
		hop = d9t_chain_hops(&f.app, &nh);
		ck_assert_uint_eq(nh, n);
		for (size_t i = 0; i < n; i++) {
			ck_assert_uint_eq(hop[i].task, cli[i].task);
			ck_assert_uint_eq(hop[i].poll, cli[i].poll);
			ck_assert_uint_eq(hop[i].wake, cli[i].wake);
		}
		fx_keys(&f, "q");
		compared++;
		hops += n;
	}
	fprintf(stderr, "%s: %zu chains, %zu hops compared\n", traces[_i],
	    compared, hops);
	if (m->wakes.n > 0) {
		ck_assert_uint_gt(compared, 0);
		ck_assert_uint_gt(hops, compared);	/* chains of hops */
	}
	fx_close(&f);
}
END_TEST

/* The flame tree the current view shows. */
static const struct d9m_flame *
tree_of(struct fx *f)
{
	return d9t_flame_shown(&f->app);
}

static uint32_t
first_child(const struct d9m_flame *t, uint32_t node)
{
	ck_assert_uint_gt(t->nodes[node].nkids, 0);
	return t->kids[t->nodes[node].kid0];
}

/* The planted trace in a temporary file (removed by the caller). */
static char *
planted(void)
{
	struct mt t;
	char *p;

	mt_planted(&t);
	p = mt_write(&t);
	tg_free(&t.tg);
	return p;
}

/* Enter on a red flag lands where its evidence is. */
static void
check_flag(struct fx *f, const struct d9m_flag *fl, size_t line)
{
	struct d9t_app *app = &f->app;

	fx_keys(f, "7");
	app->lists[D9T_V_REPORT].sel = line;
	fx_keys(f, "\n");
	switch (fl->ev) {
	case D9M_EV_POLL:
		ck_assert_int_eq(app->view, D9T_V_TIMELINE);
		ck_assert_uint_eq(app->sel, fl->poll);
		break;
	case D9M_EV_TIME:
		ck_assert_int_eq(app->view, D9T_V_TIMELINE);
		ck_assert_uint_eq(app->cursor, fl->ts);
		break;
	case D9M_EV_POI:
		ck_assert_int_eq(app->view, D9T_V_POI);
		ck_screen_has(f, d9m_poi_name((enum d9m_poi_kind)fl->ev_arg));
		ck_screen_has(f, ", only ");
		break;
	case D9M_EV_LOC:
		ck_assert_int_eq(app->view, D9T_V_TASKS);
		ck_assert_uint_eq(app->lists[D9T_V_TASKS].v[
		    app->lists[D9T_V_TASKS].sel].a, fl->ev_arg);
		break;
	case D9M_EV_SPAN:
		ck_assert_int_eq(app->view, D9T_V_SLOW);
		ck_screen_has(f, "Slowest spans named ");
		break;
	case D9M_EV_SPANS:
		ck_assert_int_eq(app->view, D9T_V_SPANS);
		break;
	case D9M_EV_CPU_STACKS:
		ck_assert_int_eq(app->view, D9T_V_CPU);
		break;
	case D9M_EV_OFF_STACKS:
		ck_assert_int_eq(app->view, D9T_V_OFFCPU);
		break;
	case D9M_EV_SECTION:
		ck_assert_int_eq(app->view, D9T_V_REPORT);
		ck_assert_ptr_nonnull(strstr(app->lists[D9T_V_REPORT].v[
		    app->lists[D9T_V_REPORT].sel].text, fl->ev_section));
		break;
	default:
		ck_abort_msg("red flag %s has no evidence", fl->check);
	}
}

/* Every red flag of the real traces and of the planted one. */
START_TEST(flags_open_their_evidence)
{
	char *pl = planted();
	const char *name = _i < 3 ? traces[_i] : pl;
	struct fx f;
	const struct d9m_analysis *a;
	size_t kinds = 0;

	fx_open(&f, name, 160, 48, 1);
	fx_keys(&f, "7");
	a = d9t_analysis(&f.app, 0);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_gt(a->nflags, 0);
	for (size_t i = 0; i < a->nflags; i++) {
		struct d9t_list *l = &f.app.lists[D9T_V_REPORT];
		size_t line = l->n;

		fx_keys(&f, "7");
		for (size_t k = 0; k < l->n; k++)
			if (l->v[k].target == D9T_T_FLAG && l->v[k].a == i)
				line = k;
		ck_assert_uint_lt(line, l->n);
		check_flag(&f, &a->flags[i], line);
		kinds++;
	}
	fprintf(stderr, "%s: %zu red flags opened\n", name, kinds);
	fx_close(&f);
	unlink(pl);
	free(pl);
}
END_TEST

/* w then Enter: the verdict line; p lists the planted 4 ms wake-to-poll
 * delay, Enter jumps to its poll, n/N step through the delays. */
START_TEST(verdict_and_points)
{
	char *pl = planted();
	struct fx f;
	struct d9t_list *l;
	size_t at = 0;

	fx_open(&f, pl, 160, 48, 1);
	fx_keys(&f, "w\n");
	ck_screen_has(&f, "verdict: cpu: 8 of 8 samples on CPU, hottest in "
	    "svc::compute");
	fx_keys(&f, "q");
	ck_screen_has(&f, "verdict: cpu: 8 of 8");	/* below the lanes */
	ck_screen_has(&f, "top stack (8 of 8 samples): svc::compute");
	fx_keys(&f, "p");
	ck_screen_has(&f, "sched-delay: 2");
	ck_screen_has(&f, "task 120 waited 4.000 ms from its wake to its poll");
	l = &f.app.lists[D9T_V_POI];
	for (size_t k = 0; k < l->n; k++)
		if (strstr(l->v[k].text, "task 120 waited 4.000 ms") != NULL)
			at = k;
	ck_assert_uint_gt(at, 0);
	l->sel = at;
	fx_keys(&f, "\n");
	ck_assert_int_eq(f.app.view, D9T_V_TIMELINE);
	ck_assert_uint_eq(f.app.m->polls.start[f.app.sel], PL_DELAY4);
	ck_screen_has(&f, "sched-delay: task 120 waited 4.000 ms");
	fx_keys(&f, "n");		/* the 6 ms one comes after in time */
	ck_assert_uint_eq(f.app.m->polls.start[f.app.sel], PL_DELAY6);
	fx_keys(&f, "N");
	ck_assert_uint_eq(f.app.m->polls.start[f.app.sel], PL_DELAY4);
	fx_keys(&f, "N");
	ck_screen_has(&f, "no earlier sched-delay");
	fx_close(&f);
	unlink(pl);
	free(pl);
}
END_TEST

/* A poll whose switches were sampled 1 in 4: its detail counts 2
 * samples for about 8 switches, and its one off-CPU stack is all of
 * them, "8 x (100%)" (it said 400 %: switches over samples). */
START_TEST(sampled_switches_detail)
{
	const uint64_t fr[2] = { 0x400000, 0x400040 };
	struct mt t;
	struct fx f;
	char *p;

	mt_begin(&t);
	mt_meta(&t, "d9rec.sched_sample_period", "4");
	mt_symbol(&t, fr[0], "blk::wait", 0);
	mt_symbol(&t, fr[1], "blk::main", 0);
	mt_spawn(&t, PL_MS, 7, "blk/src/main.rs:1:1");
	mt_unpark(&t, 2 * PL_MS, 0, 0, 11, 0);
	mt_poll_start(&t, 5 * PL_MS, 0, 7, "blk/src/main.rs:1:1");
	mt_cpu(&t, 6 * PL_MS, 11, D9_SOURCE_SCHED, 2, fr);
	mt_cpu(&t, 9 * PL_MS, 11, D9_SOURCE_SCHED, 2, fr);
	mt_poll_end(&t, 25 * PL_MS, 0);
	mt_park(&t, 30 * PL_MS, 0, 20 * PL_MS, 11);
	p = mt_write(&t);
	tg_free(&t.tg);
	fx_open(&f, p, 120, 40, 1);
	fx_keys(&f, "w\n");
	ck_screen_has(&f, "Off-CPU stacks sampled during the poll: 2 samples, "
	    "for about 8 context switches");
	ck_screen_has(&f, "  8 x (100%)");
	ck_screen_has(&f, "blk::wait");
	ck_screen_has(&f, "On-CPU stacks sampled during the poll: 0 samples");
	fx_close(&f);
	unlink(p);
	free(p);
}
END_TEST

/* The deep stack: one folded line of 70 frames, count 20; its poll's
 * detail shows them all (the application's: no run of runtime frames
 * folds); the saved
 * poll detail holds the 70 frames once with its 20 samples; the
 * inverted CPU tree starts at the leaf. */
START_TEST(deep_stack_whole)
{
	struct mt t;
	char *p, *buf = NULL, line[64], cwd[4096], dir[] = "/tmp/d9saveXXXXXX";
	size_t len = 0, frames = 0;
	struct d9o_out o;
	struct d9m_window all = D9M_WHOLE;
	struct fx f;
	FILE *in;

	mt_deep(&t);
	p = mt_write(&t);
	tg_free(&t.tg);
	fx_open(&f, p, 120, 40, 1);
	/* --folded cpu */
	memset(&o, 0, sizeof o);
	o.m = f.app.m;
	o.f = open_memstream(&buf, &len);
	ck_assert_int_eq(d9o_folded(&o, "cpu", &all), 0);
	fclose(o.f);
	ck_assert_ptr_null(strchr(buf, '\n') + 1 < buf + len ?
	    strchr(strchr(buf, '\n') + 1, '\n') : NULL);
	for (char *c = buf; *c; c++)
		frames += *c == ';';
	ck_assert_uint_eq(frames + 1, PL_DEEP);
	ck_assert_ptr_nonnull(strstr(buf, ";deep::leaf 20\n"));
	ck_assert(strncmp(buf, "deep::level_69;", 15) == 0);
	free(buf);
	/* the poll detail, saved whole */
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chdir(dir), 0);
	fx_keys(&f, "w\n");
	/* every frame is the application's: none folds */
	ck_screen_has(&f, "    leaf deep::leaf  src/lib.rs:42\n         deep::level_1  ");
	ck_screen_lacks(&f, "runtime frames (Enter: show them)");
	fx_keys(&f, "s");
	ck_screen_has(&f, "saved ");
	ck_screen_has(&f, "d9top-poll-1.txt");
	in = fopen("d9top-poll-1.txt", "r");
	ck_assert_ptr_nonnull(in);
	frames = 0;
	while (fgets(line, sizeof line, in)) {
		frames += strstr(line, "deep::") != NULL &&
		    strncmp(line, "verdict:", 8) != 0;
		if (strstr(line, "20 x (100%)"))
			frames += 1000;
	}
	fclose(in);
	ck_assert_uint_eq(frames, 1000 + PL_DEEP);
	unlink("d9top-poll-1.txt");
	/* the CPU tree saved, and inverted: one folded line each, root
	 * first, 70 frames, weight 20 */
	fx_keys(&f, "3s");
	ck_screen_has(&f, "d9top-cpu-1.folded");
	fx_keys(&f, "rs");
	ck_screen_has(&f, "d9top-cpu-2.folded");
	for (int k = 1; k <= 2; k++) {
		char fname[64], big[8192];
		size_t semis = 0;

		snprintf(fname, sizeof fname, "d9top-cpu-%d.folded", k);
		in = fopen(fname, "r");
		ck_assert_ptr_nonnull(in);
		ck_assert_ptr_nonnull(fgets(big, sizeof big, in));
		ck_assert_ptr_null(fgets(line, sizeof line, in));
		fclose(in);
		for (char *c = big; *c; c++)
			semis += *c == ';';
		ck_assert_uint_eq(semis + 1, PL_DEEP);
		ck_assert(strncmp(big, "deep::level_69;", 15) == 0);
		ck_assert_ptr_nonnull(strstr(big, ";deep::leaf 20\n"));
		unlink(fname);
		snprintf(fname, sizeof fname, "d9top-cpu-%d.txt", k);
		unlink(fname);
	}
	fx_keys(&f, "r");
	ck_assert_int_eq(chdir(cwd), 0);
	rmdir(dir);
	/* the inverted CPU tree: the leaf under the root */
	fx_keys(&f, "3r");
	ck_screen_has(&f, "inverted");
	ck_assert_str_eq(d9m_flame_name(tree_of(&f), first_child(tree_of(&f),
	    0)), "deep::leaf");
	ck_assert_str_eq(d9m_flame_name(tree_of(&f), first_child(tree_of(&f),
	    first_child(tree_of(&f), 0))), "deep::level_1");
	fx_close(&f);
	unlink(p);
	free(p);
}
END_TEST

/* s while the view still shows the tree of its last request (r pressed,
 * the inverted tree not computed yet, as in the program where trees are
 * computed off the UI thread) saves nothing: the file would say
 * "inverted" over the rows of the tree from the root. Once the tree is
 * shown, s saves it: its first frame under the root is the leaf. */
START_TEST(save_waits_for_the_tree)
{
	char cwd[4096], dir[] = "/tmp/d9saveXXXXXX", line[512];
	struct fx f;
	FILE *in;
	int n = 0;

	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chdir(dir), 0);
	fx_open_jobs(&f, "demo-2026-06.bin.gz", 120, 40, 1, 0);
	fx_keys(&f, "5");
	fx_settle(&f);
	ck_screen_lacks(&f, "inverted");
	d9t_app_key(&f.app, 'r');
	d9t_app_key(&f.app, 's');
	fx_render(&f);
	ck_screen_has(&f, "the figures are still being computed: s again once "
	    "they are shown");
	ck_assert_int_ne(access("d9top-alloc-1.txt", F_OK), 0);
	ck_assert_int_ne(access("d9top-alloc-1.folded", F_OK), 0);
	fx_settle(&f);
	ck_screen_has(&f, "inverted: leaf first");
	fx_keys(&f, "s");
	ck_screen_has(&f, "saved ");
	in = fopen("d9top-alloc-1.txt", "r");
	ck_assert_ptr_nonnull(in);
	while (fgets(line, sizeof line, in) != NULL && ++n < 4)
		if (n == 1)
			ck_assert_ptr_nonnull(strstr(line, "inverted: leaf "
			    "first"));
	fclose(in);
	ck_assert_str_eq(line, "  \u25be  53.6% 269.7 MB  "
	    "alloc::raw_vec::RawVecInner<A>::try_allocate_in\n");
	unlink("d9top-alloc-1.txt");
	unlink("d9top-alloc-1.folded");
	fx_close(&f);
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *
suite_engine(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("chains");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, chain_browser_equals_cli, 0, 3);
	tcase_add_loop_test(tc, flags_open_their_evidence, 0, 4);
	tcase_add_test(tc, verdict_and_points);
	tcase_add_test(tc, deep_stack_whole);
	tcase_add_test(tc, sampled_switches_detail);
	tcase_add_test(tc, save_waits_for_the_tree);
	suite_add_tcase(s, tc);
	return s;
}
