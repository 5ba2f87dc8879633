/*
 * test_robust.c: the recorder never blocks, crashes or lies: drops under
 * a too-small ring are counted exactly, a file size limit (EFBIG, like
 * ENOSPC) stops writing without hurting the host, a fork child writes
 * nothing, a kill -9 leaves only complete frames, and 8 threads record
 * concurrently without losing an event.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rectest.h"

START_TEST(test_drops_counted)
{
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9rec_stats st;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr;

	rt_opts(&o, dir, NULL);
	o.thread_buffer_size = 8192;	/* 256 records */
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	for (int i = 0; i < 1000; i++)
		d9rec_poll_end(t);
	ck_assert_int_eq(d9rec_flush(w), 0);
	for (int i = 0; i < 100; i++)
		d9rec_poll_end(t);
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_flush(w), 0);
	d9rec_stats(w, &st);
	ck_assert_uint_eq(st.events + st.dropped, 1100);
	ck_assert_uint_eq(st.dropped, 1000 - 256);
	ck_assert_uint_eq(st.written_events, st.events);
	ck_assert_int_eq(d9rec_close(&w), 0);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->rt.n, 356);
	ck_assert_str_eq(d9m_meta_get(m, "d9rec.dropped_events"), "744");
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

/* Runs f(dir) in a child process; returns its exit status. */
static int
in_child(void (*f)(const char *), const char *dir)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		f(dir);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

static void
fill_disk(const char *dir)
{
	struct rlimit rl = { 100 << 10, 100 << 10 };
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9rec_stats st;
	d9rec_writer *w;

	signal(SIGXFSZ, SIG_IGN);
	setrlimit(RLIMIT_FSIZE, &rl);
	rt_opts(&o, dir, NULL);
	if (d9rec_open(&w, &o) < 0)
		_exit(10);
	t = d9rec_thread_register(w, NULL, 0);
	for (int i = 0; i < 100; i++) {
		for (int k = 0; k < 1000; k++) {
			d9rec_poll_start(t, (uint64_t)k + 1, 0, 0);
			d9rec_poll_end(t);
		}
		d9rec_flush(w);
	}
	d9rec_stats(w, &st);
	d9rec_thread_unregister(&t);
	if (st.write_errors == 0 || !st.stopped || st.last_errno != EFBIG ||
	    st.lost_batches == 0 || st.dropped != 0)
		_exit(11);
	if (d9rec_close(&w) != -EFBIG)
		_exit(12);
}

START_TEST(test_file_limit)
{
	char *dir = rt_tmpdir();
	struct d9m_model *m;
	size_t nerr;
	int status = in_child(fill_disk, dir);

	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert_uint_le(rt_dir_bytes(dir), 100 << 10);
	m = rt_load(dir, &nerr);
	ck_assert_uint_gt(m->polls.n, 1000);	/* what fit is readable */
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

START_TEST(test_fork)
{
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr;
	pid_t pid;
	int status;

	rt_opts(&o, dir, NULL);
	o.flush_interval_ms = 1;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	for (int i = 0; i < 100; i++)
		d9rec_poll_end(t);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int bad = 0;

		for (int i = 0; i < 5000; i++)
			d9rec_poll_end(t);
		bad |= d9rec_flush(w) != -EPERM;
		bad |= d9rec_rotate(w) != -EPERM;
		bad |= d9rec_thread_register(w, NULL, 1) != NULL;
		bad |= d9rec_close(&w) != 0;
		_exit(bad);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	for (int i = 0; i < 100; i++)
		d9rec_poll_end(t);
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_uint_eq(rt_files(dir, ""), 1);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->rt.n, 200);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

static void
record_forever(const char *dir)
{
	struct d9rec_options o;
	struct d9rec_thread *t;
	d9rec_writer *w;

	rt_opts(&o, dir, NULL);
	o.flush_interval_ms = 2;
	if (d9rec_open(&w, &o) < 0)
		_exit(10);
	t = d9rec_thread_register(w, NULL, 0);
	for (uint64_t i = 1;; i++) {
		d9rec_poll_start(t, i, 0, 0);
		d9rec_poll_end(t);
		if (i % 64 == 0)
			usleep(10);
	}
}

START_TEST(test_kill9)
{
	char *dir = rt_tmpdir();
	struct d9m_model *m;
	size_t nerr;
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		record_forever(dir);
	usleep(300000);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status));
	ck_assert_uint_eq(rt_files(dir, ".active"), 1);
	m = rt_load(dir, &nerr);
	/* at most the batch being written can end in a truncated frame */
	ck_assert_uint_le(nerr, 1);
	ck_assert_uint_gt(m->polls.n, 1000);
	ck_assert_uint_ge(m->clock.n, 1);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

#define NTHREADS	8
#define NPAIRS		20000

struct job {
	d9rec_writer	*w;
	uint32_t	 worker;
};

static void *
thread_main(void *arg)
{
	struct job *j = arg;
	struct d9rec_thread *t = d9rec_thread_register(j->w, NULL, j->worker);
	uint32_t loc = d9rec_location(j->w, "threads.c:1:1");

	for (uint64_t i = 0; i < NPAIRS; i++) {
		d9rec_poll_start(t, (uint64_t)j->worker << 32 | (i + 1), loc, 0);
		d9rec_poll_end(t);
	}
	d9rec_thread_unregister(&t);
	return NULL;
}

START_TEST(test_threads)
{
	char *dir = rt_tmpdir();
	struct job jobs[NTHREADS];
	pthread_t th[NTHREADS];
	struct d9rec_options o;
	struct d9rec_stats st;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr;

	rt_opts(&o, dir, NULL);
	o.flush_interval_ms = 5;
	o.thread_buffer_size = 2 * NPAIRS * 32 + 64;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	for (int i = 0; i < NTHREADS; i++) {
		jobs[i].w = w;
		jobs[i].worker = (uint32_t)i;
		pthread_create(&th[i], NULL, thread_main, &jobs[i]);
	}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	ck_assert_int_eq(d9rec_flush(w), 0);
	d9rec_stats(w, &st);
	ck_assert_uint_eq(st.events, 2 * NTHREADS * NPAIRS);
	ck_assert_uint_eq(st.dropped, 0);
	ck_assert_int_eq(d9rec_close(&w), 0);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->nworkers, NTHREADS);
	for (size_t i = 0; i < m->nworkers; i++) {
		struct d9m_worker *wk = &m->workers[i];
		uint64_t prev = 0;

		ck_assert_uint_eq(wk->npolls, NPAIRS);
		for (size_t p = wk->poll0; p < wk->poll0 + wk->npolls; p++) {
			uint64_t id = m->tasks.id[m->polls.task[p]];

			ck_assert_uint_eq(id >> 32, wk->id);
			ck_assert_uint_gt(id, prev);	/* order kept */
			prev = id;
		}
	}
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

TCase *
rt_tcase_robust(void)
{
	TCase *tc = tcase_create("robust");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_drops_counted);
	tcase_add_test(tc, test_file_limit);
	tcase_add_test(tc, test_fork);
	tcase_add_test(tc, test_kill9);
	tcase_add_test(tc, test_threads);
	return tc;
}
