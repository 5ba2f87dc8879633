/*
 * test_sched.c: context-switch sampling end to end. A thread recorded
 * sampling one switch in 4: d9top's offCpu counts 4 switches per
 * sample. The default duty cycle: samples only in the first quarter of
 * each second, and polls of the rest said to be unsampled. A busy
 * thread's event closed for the off phase and opened again for the
 * next on phase, the phases set by a test clock. A thread that is no worker has its switches sampled
 * only when asked. Each is skipped without kernel sampling rights.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../skip.h"
#include "model/figures/verdict.h"
#include "rectest.h"

/*
 * A thread registered as worker sleeps n times (a context switch each)
 * into dir under context-switch sampling of one switch in period (of
 * every thread with all); the model of dir, its number of off-CPU rows
 * in *rows. NULL (the test skipped, dir removed) without kernel sampling
 * rights.
 */
static struct d9m_model *record_naps(char **dir, uint32_t worker,
    unsigned period, int all, int n, long us, int polls, size_t *rows);

static struct d9m_model *
record_sleeps(char **dir, uint32_t worker, unsigned period, int all, int n,
    size_t *rows)
{
	return record_naps(dir, worker, period, all, n, 100, 0, rows);
}

/* The same with naps of us microseconds, each a poll of task 1 with
 * polls, and the duty cycle left at its default when period is 0. */
static struct d9m_model *
record_naps(char **dir, uint32_t worker, unsigned period, int all, int n,
    long us, int polls, size_t *rows)
{
	struct timespec nap = { 0, us * 1000 };
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9m_model *m;
	d9rec_writer *w;
	const char *state;
	size_t nerr;

	rt_opts(&o, *dir, NULL);
	o.sched_profile = 1;
	o.sched_sample_period = period;
	o.sched_all_threads = all;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, "sleeper", worker);
	d9rec_spawn(t, 1, d9rec_location(w, "t.c:1:1"));
	for (int i = 0; i < n; i++) {
		if (polls)
			d9rec_poll_start(t, 1, d9rec_location(w, "t.c:1:1"),
			    0);
		nanosleep(&nap, NULL);
		if (polls)
			d9rec_poll_end(t);
	}
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);

	m = rt_load(*dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	state = d9m_meta_get(m, "d9rec.sched_profile");
	ck_assert_ptr_nonnull(state);
	if (strcmp(state, "on") != 0) {
		t_skip("context-switch sampling %s", state);
		d9m_model_free(&m);
		rt_rmdir(dir);
		return NULL;
	}
	*rows = 0;
	for (size_t i = 0; i < m->cpu.n; i++)
		*rows += m->cpu.source[i] == 1;
	return m;
}

/* A worker sleeps SLEEPS times under context-switch sampling at period
 * 4: each sample stands for 4 switches in d9top's offCpu, which so
 * estimates the switches. */
#define SLEEPS	400

START_TEST(test_sched_period)
{
	const char *top = getenv("D9TOP");
	char *dir = rt_tmpdir(), cmd[1024], *json;
	struct d9m_model *m;
	size_t rows;
	double off;

	ck_assert_ptr_nonnull(top);
	if ((m = record_sleeps(&dir, 0, 4, 0, SLEEPS, &rows)) == NULL)
		return;
	ck_assert_str_eq(d9m_meta_get(m, "d9rec.sched_sample_period"), "4");
	d9m_model_free(&m);

	snprintf(cmd, sizeof cmd, "%s --json --quiet %s", top, dir);
	json = rt_run(cmd);
	off = rt_num(json, "offCpu", NULL);
	/* 4 switches per sample, and about the switches made: every
	 * sleep, and a few more (preemptions, the close) */
	ck_assert_double_eq(off, 4.0 * (double)rows);
	ck_assert_double_ge(off, SLEEPS - 4);
	ck_assert_double_le(off, 2 * SLEEPS);
	ck_assert_double_eq(rt_num(json, "offCpuIdle", NULL), off);
	free(json);
	/* the report tells the samples and the switches apart */
	snprintf(cmd, sizeof cmd, "%s --report --quiet %s", top, dir);
	json = rt_run(cmd);
	snprintf(cmd, sizeof cmd, "%zu off-CPU, for about %zu context "
	    "switches)", rows, 4 * rows);
	ck_assert_msg(strstr(json, cmd) != NULL, "no '%s' in the report", cmd);
	free(json);
	rt_rmdir(&dir);
}
END_TEST

/*
 * By default switches are sampled a quarter of each second, one in 4,
 * so that a sample still stands for 16 switches: a worker napping 1 ms
 * for 2 s has its samples in the first quarter of the seconds (the
 * flush thread turns the event on and off, a few ms late at most; 300
 * ms of slack), about as many as one in 16 of its naps, and d9top's
 * report says so.
 */
START_TEST(test_sched_duty)
{
	const char *top = getenv("D9TOP");
	char *dir = rt_tmpdir(), cmd[1024], *report;
	struct d9m_model *m;
	size_t rows, early = 0, naps = 2000;

	ck_assert_ptr_nonnull(top);
	if ((m = record_naps(&dir, 0, 0, 0, (int)naps, 1000, 0, &rows)) ==
	    NULL)
		return;
	ck_assert_str_eq(d9m_meta_get(m, "d9rec.sched_sample_period"), "16");
	ck_assert_str_eq(d9m_meta_get(m, "d9rec.sched_duty_pct"), "25");
	ck_assert_str_eq(d9m_meta_get(m, "d9rec.sched_event_period"), "4");
	for (size_t i = 0; i < m->cpu.n; i++)
		if (m->cpu.source[i] == 1)
			early += m->cpu.ts[i] / 1000000u % 1000 < 300;
	ck_assert_uint_ge(rows, naps / 16 / 4);
	ck_assert_uint_le(rows, naps / 16 * 4);
	ck_assert_uint_ge(early * 10, rows * 9);
	d9m_model_free(&m);
	/* the report says which share of the time was sampled */
	snprintf(cmd, sizeof cmd, "%s --report --quiet %s", top, dir);
	report = rt_run(cmd);
	ck_assert_msg(strstr(report, "Switches were sampled 25% of each "
	    "second") != NULL, "no duty in the report:\n%s", report);
	free(report);
	rt_rmdir(&dir);
}
END_TEST

/*
 * A worker's polls sleep 20 ms each for 2.5 s under the default duty
 * cycle. A poll without samples that lies wholly in the off part of its
 * second (from 300 ms: the quarter and 50 ms for the recorder's
 * lateness) says that switches were not sampled then; no poll that
 * touches the sampled quarter says so, and most polls are of the first
 * kind.
 */
START_TEST(test_unsampled_polls)
{
	char *dir = rt_tmpdir(), txt[512];
	struct d9m_model *m;
	size_t rows, said = 0, off = 0;

	if ((m = record_naps(&dir, 0, 0, 0, 125, 20000, 1, &rows)) == NULL)
		return;
	ck_assert_uint_ge(m->polls.n, 120);
	for (uint32_t p = 0; p < m->polls.n; p++) {
		uint64_t s = m->polls.start[p], e = m->polls.end[p];
		int quiet = s % 1000000000u >= 300000000u &&
		    s / 1000000000u == e / 1000000000u;
		struct d9m_verdict v;

		ck_assert_int_eq(d9m_poll_verdict(m, NULL, p, &v), 0);
		d9m_verdict_text(&v, txt, sizeof txt);
		ck_assert_int_eq(v.unsampled, quiet && v.of == 0);
		ck_assert_int_eq(strstr(txt, "switches were not sampled then")
		    != NULL, v.unsampled);
		said += v.unsampled;
		off += quiet;
	}
	ck_assert_uint_ge(said * 10, off * 9);
	ck_assert_uint_ge(said, 40);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

/* Context switches of a thread that is no runtime worker are sampled
 * only with sched_all_threads (loop index 1). */
START_TEST(test_sched_threads)
{
	char *dir = rt_tmpdir();
	struct d9m_model *m;
	size_t rows;

	m = record_sleeps(&dir, D9REC_NO_WORKER, 1, _i, 50, &rows);
	if (m == NULL)
		return;
	ck_assert_str_eq(d9m_meta_get(m, "d9rec.sched_threads"),
	    _i ? "all" : "workers");
	if (_i)
		ck_assert_uint_ge(rows, 50);
	else
		ck_assert_uint_eq(rows, 0);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

/* The perf events this process holds (context-switch events only in
 * these tests: rt_opts samples no CPU). */
static int
perf_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	char path[300], link[64];
	ssize_t k;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		snprintf(path, sizeof path, "/proc/self/fd/%s", de->d_name);
		k = readlink(path, link, sizeof link - 1);
		if (k > 0) {
			link[k] = '\0';
			n += strcmp(link, "anon_inode:[perf_event]") == 0;
		}
	}
	closedir(d);
	return n;
}

/* The test's clock, moved by the test while the flush thread reads it. */
static uint64_t
shared_clock(void *ctx)
{
	return __atomic_load_n((uint64_t *)ctx, __ATOMIC_RELAXED);
}

static void
set_clock(uint64_t *clk, uint64_t ms)
{
	__atomic_store_n(clk, ms * 1000000u, __ATOMIC_RELAXED);
}

static void
naps(int n)
{
	struct timespec nap = { 0, 200000 };

	for (int i = 0; i < n; i++)
		nanosleep(&nap, NULL);
}

/*
 * The duty cycle follows the trace's clock, here the test's. A worker
 * that switched 200 times in an on phase (the first 250 ms of a second),
 * more than the 50 that make closing its event pay at the default duty,
 * holds no perf event once a drain has seen the off phase, and one again
 * once a drain has seen the next on phase; its switches after that are
 * sampled, and every sample counted is in the trace. Each d9rec_flush is a
 * drain that sees the clock as it is then.
 */
START_TEST(test_sched_reopen)
{
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct d9rec_stats st;
	struct d9rec_thread *t;
	struct d9m_model *m;
	d9rec_writer *w;
	uint64_t clk = 0, before;
	size_t nerr, rows = 0;

	rt_opts(&o, dir, NULL);
	o.clock = shared_clock;
	o.clock_ctx = &clk;
	o.sched_profile = 1;
	set_clock(&clk, 1000 + 10);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	d9rec_stats(w, &st);
	if (!st.sched_profile_on) {
		t_skip("no context-switch sampling here");
		ck_assert_int_eq(d9rec_close(&w), 0);
		rt_rmdir(&dir);
		return;
	}
	t = d9rec_thread_register(w, "busy", 0);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(d9rec_flush(w), 0);
	ck_assert_int_eq(perf_fds(), 1);
	naps(200);
	set_clock(&clk, 1000 + 600);
	ck_assert_int_eq(d9rec_flush(w), 0);
	ck_assert_msg(perf_fds() == 0, "the busy thread's event is open in "
	    "the off phase");
	naps(50);
	set_clock(&clk, 2000 + 100);
	ck_assert_int_eq(d9rec_flush(w), 0);
	ck_assert_msg(perf_fds() == 1, "the event was not opened again");
	d9rec_stats(w, &st);
	before = st.cpu_samples;
	naps(200);
	ck_assert_int_eq(d9rec_flush(w), 0);
	d9rec_stats(w, &st);
	ck_assert_uint_ge(st.cpu_samples - before, 5);
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);

	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	for (size_t i = 0; i < m->cpu.n; i++)
		rows += m->cpu.source[i] == 1;
	ck_assert_uint_ge(rows, st.cpu_samples);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

TCase *
rt_tcase_sched(void)
{
	TCase *tc = tcase_create("sched");

	tcase_set_timeout(tc, 40);
	tcase_add_test(tc, test_sched_period);
	tcase_add_test(tc, test_sched_duty);
	tcase_add_test(tc, test_unsampled_polls);
	tcase_add_test(tc, test_sched_reopen);
	tcase_add_loop_test(tc, test_sched_threads, 0, 2);
	return tc;
}
