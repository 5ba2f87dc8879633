/*
 * test_roundtrip.c: what goes in through the d9rec API comes back exactly
 * from src/parse + src/model: runtime events (ids, worker, durations on a
 * fake clock, including gaps that need timestamp resets), runtime
 * samples per runtime (dial9 0.5's RuntimeMetricsEvent), custom event
 * fields of every type, spans (0.5: instances, threads, the close with
 * its start and attributes), metadata, allocation samples with their
 * callchains resolved by the trace's own symbol table, CPU samples, and
 * the ProcMapsEntry rows.
 */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../skip.h"
#include "rectest.h"
#include "model/core/ids.h"

#define T0	1000000000ull	/* 1 s */
/* Column f of a span event that has an instance id (model.h: spanx). */
#define SX(m, f, i)	((m)->spanx.f[(m)->spanev.id[i]])

/* The string id of s, D9_NONE when the trace never named it. */
static uint32_t
rt_str(const struct d9m_model *m, const char *s)
{
	return d9_intern_find(&m->strs, s, strlen(s));
}

static uint32_t
task_id_of(const struct d9m_model *m, uint32_t row)
{
	return row == D9_NONE ? 0 : (uint32_t)m->tasks.id[row];
}

START_TEST(test_runtime_events)
{
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct d9rec_thread *t, *t2;
	struct d9rec_stats st;
	struct d9m_model *m;
	d9rec_writer *w;
	uint64_t clk = T0;
	uint32_t loc, loc2, slot;
	size_t nerr, p;

	rt_opts(&o, dir, &clk);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	ck_assert_int_eq(d9rec_runtime(w, "main", 3, 2), 0);
	loc = d9rec_location(w, "src/x.c:10:5");
	loc2 = d9rec_location(w, "src/y.c:20:1");
	ck_assert_uint_eq(d9rec_location(w, "src/x.c:10:5"), loc);
	ck_assert_uint_ne(loc, loc2);
	t = d9rec_thread_register(w, "rt-worker", 3);
	t2 = d9rec_thread_register(w, "rt-worker-2", 4);
	ck_assert_ptr_nonnull(t);

	d9rec_spawn(t, 7, loc);
	clk += 1000;
	d9rec_poll_start(t, 7, loc, 2);
	clk += 25000000;		/* 25 ms: more than a u24 delta */
	d9rec_poll_end(t);
	clk += 500;
	d9rec_wake(t, 7, 9);
	d9rec_spawn(t, 9, loc2);
	clk += 100;
	d9rec_park(t, 0);
	clk += 3000000;
	d9rec_unpark(t, 1);
	d9rec_poll_start(t, 9, loc2, 0);
	clk += 1234;
	d9rec_poll_end(t);
	d9rec_terminate(t, 7);
	d9rec_queue_sample(t, 17);
	d9rec_runtime_sample(t, d9rec_runtime_id(w, "main"), 300, 42);
	d9rec_runtime_sample(t, UINT32_MAX - 1, 1, 1);	/* no such id */
	d9rec_poll_start(t2, 9, loc2, 5);
	clk += 77;
	d9rec_poll_end(t2);
	d9rec_thread_unregister(&t);
	d9rec_thread_unregister(&t2);
	ck_assert_ptr_null(t);
	ck_assert_int_eq(d9rec_flush(w), 0);
	d9rec_stats(w, &st);
	ck_assert_uint_eq(st.events, 14);
	ck_assert_uint_eq(st.dropped, 1);	/* the unknown runtime */
	ck_assert_uint_eq(st.written_events, 14);
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_ptr_null(w);

	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->rt.n, 8);
	ck_assert_uint_eq(rt_count_kind(m, D9M_RT_POLL_START), 3);
	ck_assert_uint_eq(rt_count_kind(m, D9M_RT_PARK), 1);
	ck_assert_uint_eq(m->polls.n, 3);
	slot = d9m_worker_slot_of(m, 0, 3);
	ck_assert_uint_ne(slot, D9_NONE);
	ck_assert_uint_eq(m->workers[slot].npolls, 2);
	p = m->workers[slot].poll0;
	ck_assert_uint_eq(m->polls.start[p], T0 + 1000);
	ck_assert_uint_eq(m->polls.end[p] - m->polls.start[p], 25000000);
	ck_assert_uint_eq(task_id_of(m, m->polls.task[p]), 7);
	ck_assert_str_eq(d9m_str(m, m->polls.loc[p]), "src/x.c:10:5");
	ck_assert_uint_eq(m->polls.lq[p], 2);
	ck_assert_uint_eq(m->polls.end[p + 1] - m->polls.start[p + 1], 1234);
	ck_assert_uint_eq(task_id_of(m, m->polls.task[p + 1]), 9);
	ck_assert_str_eq(d9m_str(m, m->polls.loc[p + 1]), "src/y.c:20:1");
	slot = d9m_worker_slot_of(m, 0, 4);
	ck_assert_uint_eq(m->polls.end[m->workers[slot].poll0] -
	    m->polls.start[m->workers[slot].poll0], 77);
	/* park period exactly 3 ms, tid recorded */
	ck_assert_uint_eq(m->parks.n, 1);
	ck_assert_uint_eq(m->parks.end[0] - m->parks.start[0], 3000000);
	ck_assert_uint_eq(m->parkinfo.tid[0], (uint32_t)gettid());
	ck_assert_uint_eq(m->parkinfo.sched_wait[1], D9M_ABSENT);
	/* wake, tasks, queue */
	ck_assert_uint_eq(m->wakes.n, 1);
	ck_assert_uint_eq(task_id_of(m, m->wakes.waker[0]), 7);
	ck_assert_uint_eq(task_id_of(m, m->wakes.woken[0]), 9);
	ck_assert_uint_eq(d9m_worker_own(m, m->wakes.worker[0]), 3);
	ck_assert_uint_eq(m->wakes.ts[0], T0 + 1000 + 25000000 + 500);
	{
		uint32_t r7 = d9m_task_find(m, 7), r9 = d9m_task_find(m, 9);

		ck_assert(m->tasks.flags[r7] & D9M_TASK_SPAWNED);
		ck_assert(m->tasks.flags[r7] & D9M_TASK_TERMINATED);
		ck_assert(m->tasks.flags[r9] & D9M_TASK_SPAWNED);
		ck_assert(!(m->tasks.flags[r9] & D9M_TASK_TERMINATED));
		ck_assert_uint_eq(m->tasks.spawn_ts[r7], T0);
		ck_assert_uint_eq(d9m_worker_own(m, m->tasks.spawn_worker[r7]), 3);
	}
	/* RuntimeMetricsEvent: the default runtime, then "main" */
	ck_assert_uint_eq(m->queue.n, 2);
	ck_assert_uint_eq(m->queue.global[0], 17);
	ck_assert_str_eq(d9m_str(m, m->queue.runtime[0]), "");
	ck_assert_uint_eq(m->queue.alive[0], 0);
	ck_assert_uint_eq(m->queue.global[1], 300);
	ck_assert_str_eq(d9m_str(m, m->queue.runtime[1]), "main");
	ck_assert_uint_eq(m->queue.alive[1], 42);
	ck_assert_uint_eq(m->nruntimes, 2);	/* main (3, 4), "" */
	ck_assert_str_eq(d9m_str(m, m->runtimes[0].name), "main");
	ck_assert_str_eq(d9m_meta_get(m, "runtime.main"), "3,4");
	ck_assert_ptr_nonnull(d9m_meta_get(m, "boot_id"));
	ck_assert_ptr_nonnull(d9m_meta_get(m, "host"));
	ck_assert_str_eq(d9m_meta_get(m, "d9rec.dropped_events"), "1");
	ck_assert_uint_ge(m->clock.n, 2);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

START_TEST(test_custom_and_spans)
{
	static const struct d9rec_field f[] = {
		{ "a", D9REC_T_U64 }, { "b", D9REC_T_I64 }, { "c", D9REC_T_F64 },
		{ "d", D9REC_T_BOOL }, { "e", D9REC_T_STR }, { "f", D9REC_T_U8 },
		{ "g", D9REC_T_U16 }, { "h", D9REC_T_U32 }, { "i", D9REC_T_STR },
	};
	static const char *const sf[] = { "user", "path" };
	const char *enter_vals[] = { "alice", NULL };
	const char *exit_vals[] = { "alice", "/x" };
	char *dir = rt_tmpdir();
	union d9rec_value v[9];
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9m_model *m;
	d9rec_writer *w;
	uint64_t clk = T0, sid = (1ull << 51) + 1;
	int sch, site;
	size_t nerr;

	rt_opts(&o, dir, &clk);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	sch = d9rec_schema(w, "TestCustom", f, 9);
	ck_assert_int_ge(sch, 0);
	site = d9rec_span_site(w, "tgt", "handle", "src/h.c", 42, sf, 2);
	ck_assert_int_ge(site, 0);
	t = d9rec_thread_register(w, NULL, 1);
	v[0].u = 1ull << 40;
	v[1].i = -5;
	v[2].f = 2.5;
	v[3].u = 1;
	v[4].s = "h\xc3\xa9llo";
	v[5].u = 200;
	v[6].u = 60000;
	v[7].u = 4000000000u;
	v[8].s = "h\xc3\xa9llo";	/* same string: one pool entry */
	d9rec_event(t, sch, v);
	clk += 10;
	d9rec_span_enter(t, site, sid, 77, enter_vals);
	clk += 20000000;
	d9rec_span_exit(t, site, sid, exit_vals);
	d9rec_span_close(t, site, sid, T0 + 5, 77, exit_vals);
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);

	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->custom.n, 1);
	ck_assert_str_eq(d9m_str(m, m->custom.name[0]), "TestCustom");
	ck_assert_uint_eq(m->custom.ts[0], T0);
	ck_assert_str_eq(rt_field(m, m->custom.fields[0], "a"), "1099511627776");
	ck_assert_str_eq(rt_field(m, m->custom.fields[0], "b"), "-5");
	ck_assert_str_eq(rt_field(m, m->custom.fields[0], "c"), "2.5");
	ck_assert_str_eq(rt_field(m, m->custom.fields[0], "d"), "true");
	ck_assert_str_eq(rt_field(m, m->custom.fields[0], "e"), "h\xc3\xa9llo");
	ck_assert_str_eq(rt_field(m, m->custom.fields[0], "f"), "200");
	ck_assert_str_eq(rt_field(m, m->custom.fields[0], "g"), "60000");
	ck_assert_str_eq(rt_field(m, m->custom.fields[0], "h"), "4000000000");
	ck_assert_str_eq(rt_field(m, m->custom.fields[0], "i"), "h\xc3\xa9llo");

	ck_assert_uint_eq(m->spanev.n, 3);
	ck_assert_uint_eq(D9M_EV(m, kind, 0), D9M_SPAN_ENTER);
	ck_assert_uint_eq(SX(m, inst, 0), sid);
	ck_assert_uint_eq(SX(m, tid, 0), (uint32_t)gettid());
	ck_assert_uint_eq(SX(m, inst, 1), sid);
	ck_assert_uint_eq(SX(m, parent, 0), 77);
	ck_assert_uint_eq(d9m_worker_own(m, D9M_EV(m, worker, 0)), 1);
	ck_assert_str_eq(d9m_str(m, D9M_EV(m, name, 0)), "handle");
	ck_assert_uint_ne(rt_str(m, "SpanEnter:tgt::handle:src/h.c:42"),
	    D9_NONE);
	ck_assert_str_eq(rt_field(m, D9M_EV(m, fields, 0), "user"), "alice");
	ck_assert_str_eq(rt_field(m, D9M_EV(m, fields, 0), "path"), "null");
	ck_assert_uint_eq(D9M_EV(m, kind, 1), D9M_SPAN_EXIT);
	ck_assert_uint_eq(m->spanev.ts[1] - m->spanev.ts[0], 20000000);
	ck_assert_uint_eq(SX(m, parent, 1), D9M_ABSENT);
	ck_assert_uint_ne(rt_str(m, "SpanExit:tgt::handle:src/h.c:42"),
	    D9_NONE);
	ck_assert_str_eq(rt_field(m, D9M_EV(m, fields, 1), "path"), "/x");
	ck_assert_uint_eq(D9M_EV(m, kind, 2), D9M_SPAN_CLOSE);
	ck_assert_uint_eq(SX(m, inst, 2), sid);
	ck_assert_uint_eq(SX(m, start, 2), T0 + 5);
	ck_assert_uint_eq(SX(m, parent, 2), 77);
	ck_assert_str_eq(d9m_str(m, D9M_EV(m, name, 2)), "handle");
	ck_assert_str_eq(rt_field(m, D9M_EV(m, fields, 2), "user"), "alice");
	ck_assert_str_eq(rt_field(m, D9M_EV(m, fields, 2), "path"), "/x");
	/* one instance: its lifecycle from T0 + 5 to the close, 20 ms of
	 * it entered */
	ck_assert_uint_eq(m->spans.n, 1);
	ck_assert_uint_eq(m->spans.start[0], T0 + 5);
	ck_assert_uint_eq(m->spans.dur[0], m->spanev.ts[2] - (T0 + 5));
	ck_assert_uint_eq(m->spans.active[0], 20000000);
	ck_assert_uint_eq(m->spans.kind[0], D9M_FORM_LIFECYCLE);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

static void *ptrs[10];

static __attribute__((noinline)) void
allocate_here(int i)
{
	ptrs[i] = d9rec_malloc(100);
	__asm__ volatile("" ::: "memory");
}

/* A writer in dir that samples every allocation. */
static d9rec_writer *
alloc_writer(const char *dir)
{
	struct d9rec_options o;
	d9rec_writer *w;

	rt_opts(&o, dir, NULL);
	o.alloc_profile = 1;
	o.alloc_sample_rate = 1;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	return w;
}

START_TEST(test_alloc_samples)
{
	char *dir = rt_tmpdir();
	d9rec_writer *w = alloc_writer(dir);
	struct d9rec_stats st;
	struct d9m_model *m;
	size_t nerr, with_build_id = 0;

	for (int i = 0; i < 10; i++)
		allocate_here(i);
	for (int i = 0; i < 5; i++)
		d9rec_free(ptrs[i]);
	ck_assert_int_eq(d9rec_flush(w), 0);
	d9rec_stats(w, &st);
	ck_assert_uint_eq(st.alloc_samples, 10);
	ck_assert_uint_eq(st.free_samples, 5);
	ck_assert_int_eq(d9rec_close(&w), 0);
	for (int i = 5; i < 10; i++)
		d9rec_free(ptrs[i]);	/* writer gone: not sampled, no crash */

	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->allocs.n, 10);
	ck_assert_uint_eq(m->frees.n, 5);
	for (size_t i = 0; i < m->allocs.n; i++) {
		ck_assert_uint_eq(m->allocs.size[i], 100);
		ck_assert_uint_eq(m->allocs.tid[i], (uint32_t)gettid());
		ck_assert(rt_stack_has(m, m->allocs.seg[i], m->allocs.stack[i],
		    "allocate_here"));
		ck_assert(rt_stack_has(m, m->allocs.seg[i], m->allocs.stack[i],
		    "d9rec_malloc"));
	}
	for (size_t i = 0; i < m->frees.n; i++) {
		size_t j;

		for (j = 0; j < m->allocs.n; j++)
			if (m->allocs.addr[j] == m->frees.addr[i] &&
			    m->allocs.ts[j] == m->frees.alloc_ts[i])
				break;
		ck_assert_uint_lt(j, m->allocs.n);
		ck_assert_uint_eq(m->frees.size[i], 100);
	}
	ck_assert_str_eq(d9m_meta_get(m, "memory.sample_rate_bytes"), "1");
	ck_assert_uint_gt(m->maps.n, 0);
	for (size_t i = 0; i < m->maps.n; i++) {
		ck_assert_uint_lt(m->maps.start[i], m->maps.end[i]);
		ck_assert_uint_ne(m->maps.path[i], D9_NONE);
		if (m->maps.build_id[i] != D9_NONE)
			with_build_id++;
	}
	ck_assert_uint_gt(with_build_id, 0);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

/* A function whose symbol is a C++ one (as g++ would name
 * app::math::Hasher<unsigned long>::spin(unsigned long, long)). */
void	cxx_spin(int i) __asm__("_ZN3app4math6HasherImE4spinEml");

__attribute__((noinline)) void
cxx_spin(int i)
{
	allocate_here(i);
	__asm__ volatile("" ::: "memory");	/* a frame, not a tail call */
}

/* The symbol table holds demangled names: no reader sees _Z... */
START_TEST(test_demangled_names)
{
	char *dir = rt_tmpdir();
	d9rec_writer *w = alloc_writer(dir);
	struct d9m_model *m;
	size_t nerr;

	cxx_spin(0);
	d9rec_free(ptrs[0]);
	ck_assert_int_eq(d9rec_close(&w), 0);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->allocs.n, 1);
	ck_assert(rt_stack_has(m, m->allocs.seg[0], m->allocs.stack[0],
	    "app::math::Hasher<unsigned long>::spin(unsigned long, long)"));
	for (size_t i = 0; i < m->symbols.n; i++)
		ck_assert_msg(strncmp(d9m_str(m, m->symbols.name[i]), "_Z",
		    2) != 0, "mangled: %s", d9m_str(m, m->symbols.name[i]));
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

static __attribute__((noinline)) double
burn_cpu(unsigned ms)
{
	volatile double x = 0;

	for (unsigned k = 0; k < ms; k++)
		for (int i = 1; i < 300000; i++)
			x += sqrt((double)i);
	return x;
}

/* CPU samples of a thread that burns 300 ms, with the CPU sampler of
 * the loop index (the timer first, then perf): at least 20 of its own,
 * 80 % of them in burn_cpu, the sampler named in the metadata. */
START_TEST(test_cpu_samples)
{
	static const char *const name[] = { "timer", "perf" };
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr, mine = 0, named = 0;
	const char *state;

	rt_opts(&o, dir, NULL);
	o.cpu_profile = 1;
	o.cpu_sampler = _i;
	o.cpu_frequency_hz = 1000;
	o.flush_interval_ms = 20;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, "burner", 0);
	burn_cpu(300);
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);

	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	state = d9m_meta_get(m, "d9rec.cpu_profile");
	ck_assert_ptr_nonnull(state);
	if (strcmp(state, "on") != 0) {
		/* refused by the kernel: the reason is in the trace */
		ck_assert(strncmp(state, "off: ", 5) == 0);
		ck_assert_uint_eq(m->cpu.n, 0);
		t_skip("CPU profiling %s: samples not checked", state);
	} else {
		ck_assert_str_eq(d9m_meta_get(m, "d9rec.cpu_sampler"),
		    name[_i]);
		for (size_t i = 0; i < m->cpu.n; i++) {
			if (m->cpu.source[i] != 0 ||
			    m->cpu.tid[i] != (uint32_t)gettid())
				continue;
			mine++;
			named += rt_stack_has(m, m->cpu.seg[i], m->cpu.stack[i],
			    "burn_cpu");
		}
		ck_assert_uint_ge(mine, 20);
		ck_assert_uint_ge(named * 10, mine * 8);
	}
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

/* A segment with data, so that its metadata is written. */
static void
one_poll(d9rec_writer *w)
{
	struct d9rec_thread *t = d9rec_thread_register(w, "one", 0);

	d9rec_poll_start(t, 1, d9rec_location(w, "one.c:1:1"), 0);
	d9rec_poll_end(t);
	d9rec_thread_unregister(&t);
}

static void
program_sigprof(int sig)
{
	(void)sig;
}

/* A program that handles SIGPROF itself keeps its handler: the timer
 * sampler steps aside for perf, and the metadata says why. Once the
 * writer's handler is in, a SIGPROF of no timer of its own is
 * ignored (default: the process would end). */
START_TEST(test_sigprof_taken)
{
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct sigaction sa, now;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = program_sigprof;
	ck_assert_int_eq(sigaction(SIGPROF, &sa, NULL), 0);
	rt_opts(&o, dir, NULL);
	o.cpu_profile = 1;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	one_poll(w);
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_int_eq(sigaction(SIGPROF, NULL, &now), 0);
	ck_assert(now.sa_handler == program_sigprof);
	m = rt_load(dir, &nerr);
	ck_assert_str_eq(d9m_meta_get(m, "d9rec.cpu_sampler"),
	    "perf (no timer: SIGPROF has a handler of the program)");
	d9m_model_free(&m);
	rt_rmdir(&dir);

	sa.sa_handler = SIG_DFL;
	ck_assert_int_eq(sigaction(SIGPROF, &sa, NULL), 0);
	dir = rt_tmpdir();
	rt_opts(&o, dir, NULL);
	o.cpu_profile = 1;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	one_poll(w);
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_int_eq(kill(getpid(), SIGPROF), 0);	/* still here */
	m = rt_load(dir, &nerr);
	ck_assert_str_eq(d9m_meta_get(m, "d9rec.cpu_sampler"), "timer");
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

TCase *
rt_tcase_roundtrip(void)
{
	TCase *tc = tcase_create("roundtrip");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_runtime_events);
	tcase_add_test(tc, test_custom_and_spans);
	tcase_add_test(tc, test_alloc_samples);
	tcase_add_test(tc, test_demangled_names);
	tcase_add_loop_test(tc, test_cpu_samples, D9REC_CPU_TIMER,
	    D9REC_CPU_PERF + 1);
	tcase_add_test(tc, test_sigprof_taken);
	return tc;
}
