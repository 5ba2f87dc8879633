/*
 * test_signal.c: a recorder never hangs its program. A signal handler
 * that records on the interrupted thread's handle (SIGUSR1 marks a
 * moment) has its event dropped and counted when it interrupted a
 * recording call, never corrupts the ring; and the flush thread, given
 * a ring whose indices or records are inconsistent all the same, stops,
 * counts the loss and resynchronises instead of spinning. Every writer
 * is closed under an alarm: a hang fails the test (SIGALRM) rather than
 * blocking it.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rec/rec.h"
#include "rectest.h"

/* The handle of the thread the handler interrupts (set on that thread
 * while it records), and the recording calls the handler made. */
static _Thread_local struct d9rec_thread *sig_handle;
static _Thread_local int in_handler;
static _Atomic uint64_t sig_calls;

static void
on_usr1(int sig)
{
	int e = errno;

	(void)sig;
	in_handler = 1;
	if (sig_handle != NULL) {
		atomic_fetch_add(&sig_calls, 1);
		d9rec_wake(sig_handle, 0, 7);
	}
	in_handler = 0;
	errno = e;
}

static void
handle_usr1(struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, old), 0);
	atomic_store(&sig_calls, 0);
}

/* A hang from here on is SIGALRM, which kills the test (it fails)
 * rather than blocking it; alarm(0) ends the watch. */
static void
watchdog(void)
{
	signal(SIGALRM, SIG_DFL);
	alarm(20);
}

/* close must return */
static void
close_in_time(d9rec_writer **w)
{
	watchdog();
	ck_assert_int_eq(d9rec_close(w), 0);
	alarm(0);
}

/* The trace in dir reads without a complaint, holds the events written
 * and says how many were dropped. */
static void
check_trace(const char *dir, const struct d9rec_stats *st)
{
	struct d9m_model *m;
	char want[32];
	size_t nerr;

	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->rt_events, st->written_events);
	snprintf(want, sizeof want, "%llu", (unsigned long long)st->dropped);
	ck_assert_str_eq(d9m_meta_get(m, "d9rec.dropped_events"), want);
	ck_assert_uint_eq(m->loss.dropped_events, st->dropped);
	d9m_model_free(&m);
}

/* ---- a handler run inside a recording call, deterministically ---- */

/* The test clock raises SIGUSR1 on every third stamp of the recording
 * thread: the handler runs inside that recording call. */
struct nest_clock {
	_Atomic uint64_t ns;
	uint64_t	 stamps, raised;	/* the recording thread's */
};

static uint64_t
nest_now(void *ctx)
{
	struct nest_clock *c = ctx;

	if (sig_handle != NULL && !in_handler && ++c->stamps % 3 == 0) {
		c->raised++;
		raise(SIGUSR1);
	}
	return atomic_fetch_add(&c->ns, 1000) + 1000;
}

START_TEST(test_nested_dropped)
{
	char *dir = rt_tmpdir();
	struct nest_clock clk = { 1000000, 0, 0 };
	struct sigaction old;
	struct d9rec_options o;
	struct d9rec_stats st;
	d9rec_writer *w;

	handle_usr1(&old);
	rt_opts(&o, dir, NULL);
	o.clock = nest_now;
	o.clock_ctx = &clk;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	sig_handle = d9rec_thread_register(w, NULL, 0);
	for (uint64_t i = 1; i <= 300; i++) {
		d9rec_poll_start(sig_handle, i, 0, 0);
		d9rec_poll_end(sig_handle);
	}
	d9rec_thread_unregister(&sig_handle);
	ck_assert_int_eq(d9rec_flush(w), 0);
	d9rec_stats(w, &st);
	ck_assert_uint_eq(clk.raised, 200);
	ck_assert_uint_eq(atomic_load(&sig_calls), 200);
	ck_assert_uint_eq(st.events, 600);	/* the loop's, all of them */
	ck_assert_uint_eq(st.dropped, 200);	/* the handler's, all */
	ck_assert_uint_eq(st.written_events, 600);
	close_in_time(&w);
	check_trace(dir, &st);
	sigaction(SIGUSR1, &old, NULL);
	rt_rmdir(&dir);
}
END_TEST

/* ---- signals fired at a thread recording in a loop ---- */

#define STORM_RUNS	20
#define STORM_SIGNALS	200	/* handler calls a run waits for */
#define STORM_EVERY_NS	20000	/* a signal every 20 us */

struct storm {
	d9rec_writer	*w;
	uint64_t	 polls;		/* poll pairs the loop recorded */
};

/*
 * Records poll pairs until the handler has run STORM_SIGNALS times on
 * it, SIGUSR1 fired at the thread by a timer every STORM_EVERY_NS (the
 * kernel's: the signals come while the thread runs, whatever else the
 * machine does).
 */
static void *
storm_thread(void *arg)
{
	struct storm *s = arg;
	struct d9rec_thread *t = d9rec_thread_register(s->w, "storm", 0);
	struct itimerspec it = { { 0, STORM_EVERY_NS }, { 0, STORM_EVERY_NS } };
	struct sigevent sev;
	timer_t timer;

	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGUSR1;
	sev._sigev_un._tid = gettid();
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(timer_create(CLOCK_MONOTONIC, &sev, &timer), 0);
	sig_handle = t;
	atomic_signal_fence(memory_order_seq_cst);
	ck_assert_int_eq(timer_settime(timer, 0, &it, NULL), 0);
	while (atomic_load(&sig_calls) < STORM_SIGNALS) {
		d9rec_poll_start(t, ++s->polls, 0, 0);
		d9rec_poll_end(t);
	}
	timer_delete(timer);
	sig_handle = NULL;
	atomic_signal_fence(memory_order_seq_cst);
	d9rec_thread_unregister(&t);
	return NULL;
}

START_TEST(test_signal_storm)
{
	struct sigaction old;

	handle_usr1(&old);
	for (int run = 0; run < STORM_RUNS; run++) {
		char *dir = rt_tmpdir();
		struct storm s = { NULL, 0 };
		struct d9rec_options o;
		struct d9rec_stats st;
		uint64_t calls;
		pthread_t th;

		rt_opts(&o, dir, NULL);
		o.flush_interval_ms = 1;	/* drains while the loop runs */
		o.thread_buffer_size = 1 << 16;	/* wraps: pads */
		ck_assert_int_eq(d9rec_open(&s.w, &o), 0);
		atomic_store(&sig_calls, 0);
		watchdog();
		ck_assert_int_eq(pthread_create(&th, NULL, storm_thread, &s), 0);
		pthread_join(th, NULL);
		ck_assert_int_eq(d9rec_flush(s.w), 0);
		alarm(0);
		d9rec_stats(s.w, &st);
		calls = atomic_load(&sig_calls);
		/* every call either recorded or counted as dropped */
		ck_assert_uint_eq(st.events + st.dropped, 2 * s.polls + calls);
		ck_assert_uint_eq(st.written_events, st.events);
		close_in_time(&s.w);
		check_trace(dir, &st);
		rt_rmdir(&dir);
	}
	sigaction(SIGUSR1, &old, NULL);
}
END_TEST

/* ---- rings made inconsistent by hand ---- */

/* Five poll ends recorded, then the ring spoilt by spoil; the flush
 * must return, write the `kept` records before the damage, count `lost`
 * events (the bytes skipped at 16, the smallest record) and write what
 * follows. */
static void
spoil_ring(void (*spoil)(struct d9rec_thread *t, uint64_t tail),
    uint64_t kept, uint64_t lost)
{
	char *dir = rt_tmpdir();
	uint64_t clk = 1000000, before;
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9rec_stats st;
	d9rec_writer *w;

	rt_opts(&o, dir, &clk);
	o.thread_buffer_size = 8192;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	for (int i = 0; i < 3; i++, clk += 1000)
		d9rec_poll_end(t);
	ck_assert_int_eq(d9rec_flush(w), 0);
	d9rec_stats(w, &st);
	before = st.written_events;
	ck_assert_uint_eq(before, 3);
	for (int i = 0; i < 5; i++, clk += 1000)
		d9rec_poll_end(t);
	spoil(t, atomic_load(&t->tail));
	watchdog();
	ck_assert_int_eq(d9rec_flush(w), 0);
	for (int i = 0; i < 4; i++, clk += 1000)
		d9rec_poll_end(t);
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_flush(w), 0);
	alarm(0);
	d9rec_stats(w, &st);
	ck_assert_uint_eq(st.dropped, lost);
	ck_assert_uint_eq(st.written_events, 3 + kept + 4);
	close_in_time(&w);
	check_trace(dir, &st);
	rt_rmdir(&dir);
}

static struct rrec *
at(struct d9rec_thread *t, uint64_t pos)
{
	return (struct rrec *)(void *)(t->buf + (pos & t->mask));
}

/* The write index published behind the read index (what a handler's
 * record overwritten by the call it interrupted used to leave). */
static void
head_behind(struct d9rec_thread *t, uint64_t tail)
{
	t->head_local = tail - 16;
	atomic_store(&t->head, tail - 16);
}

static void
size_zero(struct d9rec_thread *t, uint64_t tail)
{
	at(t, tail + 16)->size = 0;
}

static void
size_past_head(struct d9rec_thread *t, uint64_t tail)
{
	at(t, tail + 32)->size = 64;
}

static void
pad_past_ring(struct d9rec_thread *t, uint64_t tail)
{
	at(t, tail)->kind = R_PAD;
	at(t, tail)->a = 1u << 20;
}

static void
unknown_kind(struct d9rec_thread *t, uint64_t tail)
{
	at(t, tail + 48)->kind = 999;
}

START_TEST(test_ring_inconsistent)
{
	switch (_i) {
	case 0:
		/* nothing to read: one event is counted */
		spoil_ring(head_behind, 0, 1);
		break;
	case 1:
		/* the first record is written, the other four (64 bytes)
		 * are not */
		spoil_ring(size_zero, 1, 4);
		break;
	case 2:
		spoil_ring(size_past_head, 2, 3);
		break;
	case 3:
		spoil_ring(pad_past_ring, 0, 5);
		break;
	default:
		spoil_ring(unknown_kind, 3, 2);
		break;
	}
}
END_TEST

TCase *
rt_tcase_signal(void)
{
	TCase *tc = tcase_create("signal");

	tcase_add_test(tc, test_nested_dropped);
	tcase_add_test(tc, test_signal_storm);
	tcase_add_loop_test(tc, test_ring_inconsistent, 0, 5);
	return tc;
}
