/*
 * test_e2e.c: d9demo records for about two seconds, then `d9top --json`
 * reads the directory: at least two workers, the planted long poll with
 * on-CPU stacks, CPU samples, a non-zero allocation estimate. The two
 * programs come from the build (env D9DEMO, D9TOP). Without perf rights
 * the CPU parts are skipped (skip.h). A recording through a ring far too
 * small: d9top reports exactly the drops the recorder counted. d9uv, the
 * libuv example, records wake chains from timer and I/O callbacks that
 * `d9top --chain` follows (skipped where libuv was not found). A thread
 * recorded sampling one context switch in 4: d9top's offCpu counts 4
 * switches per sample; a thread that is no worker has its switches
 * sampled only when asked (skipped without kernel sampling rights).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../skip.h"
#include "model/verdict.h"
#include "rectest.h"

START_TEST(test_demo)
{
	const char *demo = getenv("D9DEMO"), *top = getenv("D9TOP"), *p;
	char *dir = rt_tmpdir(), cmd[1024], *json;
	const char *from = NULL;
	int workers = 0;

	ck_assert_ptr_nonnull(demo);
	ck_assert_ptr_nonnull(top);
	/* crunch polls of 120 ms: the worst poll, with CPU samples, even
	 * when the parallel suite leaves a 40 ms poll (wall time) too
	 * little CPU for one at 99 Hz */
	snprintf(cmd, sizeof cmd, "%s --out %s --seconds 2 --crunch-ms 120",
	    demo, dir);
	free(rt_run(cmd));
	ck_assert_uint_ge(rt_files(dir, ".bin.gz"), 1);
	snprintf(cmd, sizeof cmd, "%s --json %s", top, dir);
	json = rt_run(cmd);

	p = strstr(json, "\"workers\":");
	ck_assert_ptr_nonnull(p);
	for (p = strchr(p, '['); *p && *p != ']'; p++)
		workers += *p == ',' || (p[-1] == '[' && p[0] != ']');
	ck_assert_int_ge(workers, 2);
	ck_assert_double_ge(rt_num(json, "longPolls", NULL), 1);
	ck_assert_double_ge(rt_num(json, "durNs", &from), 30e6);
	ck_assert_ptr_nonnull(strstr(json, "examples/d9demo.c:crunch:1"));
	ck_assert_double_gt(rt_num(json, "estimatedTotalBytes", NULL), 0);
	if (strstr(json, "\"cpuSamples\": 0") == NULL &&
	    strstr(json, "\"cpuSamples\":0") == NULL) {
		p = strstr(from, "\"cpuStacks\":");
		ck_assert_ptr_nonnull(p);
		ck_assert_ptr_nonnull(strstr(p, "crunch_numbers"));
		ck_assert_double_gt(rt_num(json, "onCpu", NULL), 0);
	} else
		t_skip("e2e: no CPU samples (perf refused): stacks not checked");
	free(json);
	rt_rmdir(&dir);
}
END_TEST

/* A ring far too small: d9top tells exactly what the recorder dropped,
 * in --json, in the report, as a red flag. */
START_TEST(test_tiny_ring)
{
	const char *top = getenv("D9TOP");
	char *dir = rt_tmpdir(), cmd[1024], want[128], *out;
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9rec_stats st;
	d9rec_writer *w;

	ck_assert_ptr_nonnull(top);
	rt_opts(&o, dir, NULL);
	o.thread_buffer_size = 8192;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	for (int r = 0; r < 43; r++) {
		for (int i = 0; i < 500; i++) {
			d9rec_poll_start(t, (uint64_t)(r * 500 + i + 1), 0, 0);
			d9rec_poll_end(t);
		}
		ck_assert_int_eq(d9rec_flush(w), 0);
	}
	d9rec_thread_unregister(&t);
	d9rec_stats(w, &st);
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_uint_eq(st.events + st.dropped, 43000);
	ck_assert_uint_gt(st.dropped, 20000);

	snprintf(cmd, sizeof cmd, "%s --json --quiet %s", top, dir);
	out = rt_run(cmd);
	ck_assert_double_eq(rt_num(out, "droppedEvents", NULL),
	    (double)st.dropped);
	ck_assert_double_eq(rt_num(out, "eventCount", NULL), (double)st.events);
	ck_assert_double_eq(rt_num(out, "incompleteSegments", NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"events-lost\""));
	free(out);
	snprintf(cmd, sizeof cmd, "%s --report --quiet %s", top, dir);
	out = rt_run(cmd);
	snprintf(want, sizeof want, "Lost:         %llu runtime events dropped\n",
	    (unsigned long long)st.dropped);
	ck_assert_ptr_nonnull(strstr(out, want));
	ck_assert_ptr_nonnull(strstr(out, "WARNING: this recording lost data"));
	ck_assert_ptr_nonnull(strstr(out, "events-lost"));
	free(out);
	rt_rmdir(&dir);
}
END_TEST

static void *inl_ptr;

static inline __attribute__((always_inline)) void
inlined_alloc(void)
{
	inl_ptr = d9rec_malloc(128);
	__asm__ volatile("" ::: "memory");
}

static __attribute__((noinline)) void
outer_alloc(void)
{
	inlined_alloc();
	__asm__ volatile("" ::: "memory");	/* a frame, not a tail call */
}

/* The trace's table names outer_alloc; --prefer-dwarf takes DWARF's
 * frames instead (the recorded binary, this one), which see the inlined
 * call as well. */
START_TEST(test_prefer_dwarf)
{
	const char *top = getenv("D9TOP");
	char *dir = rt_tmpdir(), cmd[1024], *out;
	struct d9rec_options o;
	d9rec_writer *w;

	ck_assert_ptr_nonnull(top);
	rt_opts(&o, dir, NULL);
	o.alloc_profile = 1;
	o.alloc_sample_rate = 1;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	outer_alloc();
	d9rec_free(inl_ptr);
	ck_assert_int_eq(d9rec_close(&w), 0);
	snprintf(cmd, sizeof cmd, "%s --folded alloc --quiet %s", top, dir);
	out = rt_run(cmd);
	ck_assert_ptr_nonnull(strstr(out, "outer_alloc"));
	ck_assert_ptr_null(strstr(out, "inlined_alloc"));
	free(out);
	snprintf(cmd, sizeof cmd, "%s --folded alloc --quiet --prefer-dwarf %s",
	    top, dir);
	out = rt_run(cmd);
	ck_assert_ptr_nonnull(strstr(out, "outer_alloc;inlined_alloc"));
	free(out);
	rt_rmdir(&dir);
}
END_TEST

/* The task ids of the wake chain of task in d9top's --json of dir. */
static size_t
chain(const char *top, const char *dir, unsigned task, uint64_t *ids,
    size_t max)
{
	char cmd[1024], *json, *p, *end;
	size_t n = 0;

	snprintf(cmd, sizeof cmd, "%s --json --quiet --chain %u %s", top, task,
	    dir);
	json = rt_run(cmd);
	p = strstr(json, "\"wakeChain\":");
	ck_assert_ptr_nonnull(p);
	p = strchr(p, '[');
	ck_assert_ptr_nonnull(p);
	for (p++; n < max; p = end) {
		while (*p == ' ' || *p == ',')
			p++;
		ids[n] = strtoull(p, &end, 10);
		if (end == p)
			break;
		n++;
	}
	free(json);
	return n;
}

/* d9uv (libuv echo server + load) records a trace whose wake chains run
 * from a server connection (I/O: read what a client wrote) through that
 * client (timer: kicked by the pacer) to the pacer. */
START_TEST(test_libuv)
{
	const char *uv = getenv("D9UV"), *top = getenv("D9TOP");
	char *dir = rt_tmpdir(), cmd[1024], *json;
	const char *from;
	uint64_t ids[8];
	size_t n;

	if (uv == NULL) {
		t_skip("e2e: no libuv, no d9uv: the libuv example not checked");
		rt_rmdir(&dir);
		return;
	}
	snprintf(cmd, sizeof cmd, "%s --out %s --clients 3 --messages 40 "
	    "--seconds 30", uv, dir);
	free(rt_run(cmd));
	snprintf(cmd, sizeof cmd, "%s --json --quiet %s", top, dir);
	json = rt_run(cmd);
	/* the loop is worker 0; its polls: at least each message read by
	 * its connection and by its client */
	from = strstr(json, "\"polls\":");
	ck_assert_ptr_nonnull(from);
	ck_assert_double_ge(rt_num(json, "0", &from), 2 * 3 * 40);
	ck_assert_double_eq(rt_num(json, "droppedEvents", NULL), 0);
	free(json);
	n = chain(top, dir, 100, ids, 8);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(ids[0], 100);
	ck_assert(ids[1] >= 10 && ids[1] < 13);		/* a client */
	ck_assert_uint_eq(ids[2], 2);			/* the pacer */
	n = chain(top, dir, (unsigned)ids[1], ids, 8);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(ids[1], 2);
	rt_rmdir(&dir);
}
END_TEST

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

TCase *
rt_tcase_e2e(void)
{
	TCase *tc = tcase_create("e2e");

	tcase_set_timeout(tc, 40);
	tcase_add_test(tc, test_demo);
	tcase_add_test(tc, test_tiny_ring);
	tcase_add_test(tc, test_libuv);
	tcase_add_test(tc, test_prefer_dwarf);
	tcase_add_test(tc, test_sched_period);
	tcase_add_test(tc, test_sched_duty);
	tcase_add_test(tc, test_unsampled_polls);
	tcase_add_loop_test(tc, test_sched_threads, 0, 2);
	return tc;
}
