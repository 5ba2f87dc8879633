/*
 * test_why.c: the figures of ANALYSIS 17.1 and 20 to 22 as the browser
 * shows them, on the trace of test/fixtures/whytrace.h: a verdict by absence
 * and one with its confidence caveat, the held-by line and its Enter,
 * the recorder's own frames and flag, the observer line, a location's
 * tasks, a task's detail with its histogram, and the self-wake lint.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "model/queries/wake.h"
#include "whytrace.h"

/* The trace written to a file, opened in a 160 x 48 browser. */
static char *
why_open(struct fx *f)
{
	struct mt t;
	char *path;

	mt_why(&t);
	path = mt_write(&t);
	tg_free(&t.tg);
	ck_assert_ptr_nonnull(path);
	fx_open(f, path, 160, 48, 1);
	return path;
}

static void
why_close(struct fx *f, char *path)
{
	fx_close(f);
	unlink(path);
	free(path);
}

/* Down (j) to the first line of the current list holding s. */
static void
down_to(struct fx *f, const char *s)
{
	struct d9t_list *l = &f->app.lists[f->app.view];

	for (size_t i = 0; i < l->n + 1; i++) {
		if (l->sel < l->n && strstr(l->v[l->sel].text, s) != NULL)
			return;
		fx_keys(f, "j");
	}
	fprintf(stderr, "%s", f->screen);
	ck_abort_msg("no line with \"%s\" below the cursor", s);
}

/* The detail of the first poll of task id. */
static uint32_t
open_poll_of(struct fx *f, uint64_t id)
{
	const struct d9m_model *m = f->app.m;
	uint32_t t = d9m_task_find(m, id), p;

	ck_assert_uint_ne(t, D9_NONE);
	p = m->task_polls[m->task_polls_off[t]];
	fx_keys(f, "1");
	d9t_select_poll(&f->app, p);
	fx_keys(f, "\n");
	return p;
}

/* ANALYSIS 17.1: off CPU by absence, a preemption at system-call exit
 * with its one-sample caveat; 21: a poll in the recorder's frames. */
START_TEST(verdicts)
{
	struct fx f;
	char *path = why_open(&f);

	open_poll_of(&f, 1);
	ck_screen_has(&f, "verdict: off-cpu: no on-CPU sample where about "
	    "10.0 were due at the trace's rate");
	fx_keys(&f, "\033");
	open_poll_of(&f, 2);
	ck_screen_has(&f, "verdict: preempted: 1 of 1 sample");
	ck_screen_has(&f, "(only 1 sample: a hint, not a finding)");
	fx_keys(&f, "\033");
	open_poll_of(&f, 3);
	ck_screen_has(&f, "hottest in svc::compute");
	ck_screen_lacks(&f, "$x");
	fx_keys(&f, "\033");
	open_poll_of(&f, 4);
	ck_screen_has(&f, "verdict: cpu: 3 of 3 samples on CPU, hottest in "
	    "d9rec_event, in the recorder's own frames");
	why_close(&f, path);
}
END_TEST

/* ANALYSIS 20: task 11's poll names task 10's as the one that held its
 * worker; Enter there selects it, whose detail lists task 11. */
START_TEST(held_by)
{
	struct fx f;
	char *path = why_open(&f);
	const struct d9m_model *m;
	uint32_t t10;

	m = f.app.m;
	t10 = d9m_task_find(m, 10);
	open_poll_of(&f, 11);
	ck_screen_has(&f, "held by    task 10's 20.00ms poll (19.00ms of the "
	    "wait)  Enter: its poll");
	down_to(&f, "held by");
	fx_keys(&f, "\n");
	ck_assert_int_eq(f.app.view, D9T_V_TIMELINE);
	ck_assert_uint_eq(f.app.sel, m->task_polls[m->task_polls_off[t10]]);
	fx_keys(&f, "\n");
	ck_screen_has(&f, "held back  1 task for 19.00ms in all:");
	ck_screen_has(&f, "task 11 waited 19.00ms for its poll");
	fx_keys(&f, "\033");
	open_poll_of(&f, 12);
	ck_screen_has(&f, "held by    no poll: its worker was parked");
	why_close(&f, path);
}
END_TEST

/* ANALYSIS 21 in view 7: the flag and the observer line. */
START_TEST(observer)
{
	struct fx f;
	char *path = why_open(&f);

	fx_keys(&f, "7");
	ck_screen_has(&f, "recorder-overhead");
	down_to(&f, "Observer:");
	ck_screen_has(&f, "Observer:     the recorder's own code is in 3");
	why_close(&f, path);
}
END_TEST

/* ANALYSIS 22: the tasks view's self-wake lint, Enter on a location
 * lists its tasks, Enter on one shows its figures and poll durations,
 * Esc goes back each time. */
START_TEST(tasks)
{
	struct fx f;
	char *path = why_open(&f);

	fx_keys(&f, "2");
	ck_screen_has(&f, "Task lints: ");
	ck_screen_has(&f, "self-wake     task 20 woke itself 40 of 40 times");
	down_to(&f, "svc/yield.rs:1:1");
	fx_keys(&f, "\n");
	ck_assert_int_eq(f.app.view, D9T_V_LOCTASKS);
	ck_screen_has(&f, "Tasks spawned at svc/yield.rs:1:1: 1 in the window");
	ck_screen_has(&f, "      task   polls       busy  scheduled       "
	    "idle   wakes   self  lints");
	ck_screen_has(&f, "        20      40    400.0\xc2\xb5s    400.0\xc2\xb5s"
	    "    25.19ms      40     40  self-wake");
	fx_keys(&f, "\n");	/* the cursor opened on the first task */
	ck_assert_int_eq(f.app.view, D9T_V_TASK);
	ck_screen_has(&f, "Task 20, spawned at svc/yield.rs:1:1");
	ck_screen_has(&f, "polls      40");
	ck_screen_has(&f, "wakes      40, 40 by itself");
	ck_screen_has(&f, "lint: task 20 woke itself 40 of 40 times");
	ck_screen_has(&f, "Poll durations: 40 polls in the window, longest "
	    "10.0\xc2\xb5s");
	ck_screen_has(&f, "     10.0\xc2\xb5s..20.0\xc2\xb5s          40 "
	    "\xe2\x96\x88\xe2\x96\x88");
	fx_keys(&f, "\033");
	ck_assert_int_eq(f.app.view, D9T_V_LOCTASKS);
	fx_keys(&f, "\033");
	ck_assert_int_eq(f.app.view, D9T_V_TASKS);
	/* Enter on the lint: the same task */
	down_to(&f, "self-wake     task 20");
	fx_keys(&f, "\n");
	ck_screen_has(&f, "Task 20, spawned at svc/yield.rs:1:1");
	why_close(&f, path);
}
END_TEST

Suite *
suite_why(void)
{
	Suite *s = suite_create("why");
	TCase *tc = tcase_create("why");

	tcase_add_test(tc, verdicts);
	tcase_add_test(tc, held_by);
	tcase_add_test(tc, observer);
	tcase_add_test(tc, tasks);
	suite_add_tcase(s, tc);
	return s;
}
