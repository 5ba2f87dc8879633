/*
 * test_loss.c: the recorder never destroys what it recorded. A writer
 * that starts where a crashed one left an .active segment seals it
 * (readable, counted, marked incomplete) instead of deleting it; a
 * directory removed under a running writer is made again and the next
 * segment says how many batches went with the old one.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rectest.h"

static void
pairs(struct d9rec_thread *t, uint64_t first, int n)
{
	for (int i = 0; i < n; i++) {
		d9rec_poll_start(t, first + (uint64_t)i, 0, 0);
		d9rec_poll_end(t);
	}
}

/* Records 500 polls, has them written, tells the parent, waits. */
static void
record_then_hang(const char *dir, int tell)
{
	struct d9rec_options o;
	struct d9rec_thread *t;
	d9rec_writer *w;

	rt_opts(&o, dir, NULL);
	if (d9rec_open(&w, &o) < 0)
		_exit(10);
	t = d9rec_thread_register(w, NULL, 0);
	pairs(t, 1, 500);
	if (d9rec_flush(w) < 0 || write(tell, "x", 1) != 1)
		_exit(11);
	for (;;)
		pause();
}

START_TEST(test_restart_seals_crashed)
{
	char *dir = rt_tmpdir(), c;
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9rec_stats st;
	struct d9m_model *m;
	d9rec_writer *w;
	int fds[2], status;
	size_t nerr;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		record_then_hang(dir, fds[1]);
	}
	close(fds[1]);
	ck_assert_int_eq(read(fds[0], &c, 1), 1);	/* written */
	close(fds[0]);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_uint_eq(rt_files(dir, ".active"), 1);

	rt_opts(&o, dir, NULL);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	ck_assert_uint_eq(rt_files(dir, ".active"), 1);	/* its own */
	ck_assert_uint_eq(rt_files(dir, "trace.0.bin"), 1);
	t = d9rec_thread_register(w, NULL, 0);
	pairs(t, 1001, 10);
	d9rec_thread_unregister(&t);
	d9rec_stats(w, &st);
	ck_assert_uint_eq(st.recovered_segments, 1);
	ck_assert_int_eq(d9rec_close(&w), 0);

	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->polls.n, 510);	/* the crashed run's too */
	ck_assert_uint_ne(d9m_task_find(m, 500), D9_NONE);
	ck_assert_uint_eq(m->loss.incomplete, 1);	/* never sealed */
	ck_assert_str_eq(d9m_meta_get(m, "d9rec.recovered_segments"), "1");
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

START_TEST(test_removed_directory)
{
	char *dir = rt_tmpdir(), cmd[600];
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9rec_stats st;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr;

	rt_opts(&o, dir, NULL);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	pairs(t, 1, 100);
	ck_assert_int_eq(d9rec_flush(w), 0);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	pairs(t, 101, 100);
	ck_assert_int_eq(d9rec_rotate(w), 0);	/* sealing finds no file */
	pairs(t, 1001, 100);
	d9rec_thread_unregister(&t);
	d9rec_stats(w, &st);
	ck_assert_uint_eq(st.lost_batches, 2);	/* both went with the dir */
	ck_assert_int_eq(st.stopped, 0);
	ck_assert_int_eq(d9rec_close(&w), 0);

	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->polls.n, 100);
	ck_assert_uint_ne(d9m_task_find(m, 1001), D9_NONE);
	ck_assert_uint_eq(m->loss.lost_batches, 2);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

TCase *
rt_tcase_loss(void)
{
	TCase *tc = tcase_create("loss");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_restart_seals_crashed);
	tcase_add_test(tc, test_removed_directory);
	return tc;
}
