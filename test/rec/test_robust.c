/*
 * test_robust.c: the recorder never blocks, crashes or lies: drops under
 * a too-small ring are counted exactly, a full disk (EFBIG under a file
 * size limit, like ENOSPC) cuts segments at whole batches, loses only
 * what found no room and says so in the next segment written, a fork
 * child writes nothing, a daemon's closed standard descriptors are not
 * taken by its files, and 8 threads record concurrently without losing
 * an event (kill -9: test_disk.c).
 */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
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
	o.thread_buffer_size = 8192;	/* 512 poll ends (16 bytes each) */
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
	ck_assert_uint_eq(st.dropped, 1000 - 512);
	ck_assert_uint_eq(st.written_events, st.events);
	ck_assert_int_eq(d9rec_close(&w), 0);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->rt.n, 612);
	ck_assert_str_eq(d9m_meta_get(m, "d9rec.dropped_events"), "488");
	ck_assert_uint_eq(m->loss.dropped_events, st.dropped);
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

/* Sets the file size limit (the soft one: it can go up again). */
static void
file_limit(rlim_t bytes)
{
	struct rlimit rl = { bytes, RLIM_INFINITY };

	setrlimit(RLIMIT_FSIZE, &rl);
}

/*
 * A disk that fills (EFBIG under RLIMIT_FSIZE behaves like ENOSPC), then
 * has no room at all, then has room again for `after` more rounds (0:
 * the writer is closed at once, so only a segment of its own can carry
 * the counters). The child leaves its stats before closing in
 * DIR.stats, beside the directory.
 */
static void
disk_phases(const char *dir, int after)
{
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9rec_stats st;
	d9rec_writer *w;
	char path[512];

	signal(SIGXFSZ, SIG_IGN);
	file_limit(100 << 10);
	rt_opts(&o, dir, NULL);
	if (d9rec_open(&w, &o) < 0)
		_exit(10);
	t = d9rec_thread_register(w, NULL, 0);
	rt_rounds(w, t, 1, 20, 1000);
	file_limit(64);			/* not even a segment's metadata */
	rt_rounds(w, t, 1000000, 5, 1000);
	file_limit(RLIM_INFINITY);
	rt_rounds(w, t, 2000000, after, 1000);
	d9rec_stats(w, &st);
	d9rec_thread_unregister(&t);
	if (st.write_errors == 0 || st.last_errno != EFBIG ||
	    st.lost_batches < 5 || st.dropped != 0 || st.stopped != !after)
		_exit(11);
	snprintf(path, sizeof path, "%s.stats", dir);
	if (rt_stats_save(path, &st) < 0)
		_exit(12);
	if (d9rec_close(&w) != -EFBIG)
		_exit(13);
}

static void
fill_disk(const char *dir)
{
	disk_phases(dir, 3);
}

static void
fill_disk_then_close(const char *dir)
{
	disk_phases(dir, 0);
}

START_TEST(test_file_limit)
{
	char *dir = rt_tmpdir(), path[512];
	struct d9rec_stats st;
	struct d9m_model *m;
	size_t nerr;
	int status = in_child(_i ? fill_disk_then_close : fill_disk, dir);

	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	snprintf(path, sizeof path, "%s.stats", dir);
	rt_stats_load(path, &st);
	m = rt_load(dir, &nerr);
	/* every cut segment ends at a whole batch */
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(rt_files(dir, ".active"), 0);
	/* the counters reached the segments written after the losses */
	ck_assert_uint_eq(m->loss.lost_batches, st.lost_batches);
	ck_assert_uint_ge(m->loss.incomplete, 1);
	/* writing went on after each cut, and after the disk had room */
	ck_assert_uint_gt(m->polls.n, 10000);
	ck_assert_uint_eq(d9m_task_find(m, 1000001), D9_NONE);
	if (_i == 0) {
		ck_assert_uint_ne(d9m_task_find(m, 2000001), D9_NONE);
		ck_assert_uint_ne(d9m_task_find(m, 2002999), D9_NONE);
	}
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

/* The size of the one .active segment of dir, or -1. */
static off_t
active_size(const char *dir)
{
	char cmd[600], *out;
	long n;

	snprintf(cmd, sizeof cmd, "stat -c %%s '%s'/*.active", dir);
	out = rt_run(cmd);
	n = out != NULL && *out ? strtol(out, NULL, 10) : -1;
	free(out);
	return (off_t)n;
}

/*
 * A data batch written part way (the file size limit falls inside it):
 * the segment goes back to its last whole batch and its metadata batch,
 * written there, carries the loss: no later segment can (nothing more
 * fits), so without it the loss would be in no file. Before, the
 * metadata went where the part-written batch had moved the file's
 * offset: past the limit here, a hole of zeros before it on a full
 * disk (a damaged segment).
 */
static void
cut_part_way(const char *dir)
{
	struct d9rec_options o;
	struct d9rec_thread *t;
	d9rec_writer *w;
	off_t at;

	signal(SIGXFSZ, SIG_IGN);
	rt_opts(&o, dir, NULL);
	if (d9rec_open(&w, &o) < 0)
		_exit(10);
	t = d9rec_thread_register(w, NULL, 0);
	rt_rounds(w, t, 1, 3, 1000);
	if ((at = active_size(dir)) <= 0)
		_exit(11);
	file_limit((rlim_t)at + 4096);	/* a 1000-poll batch is larger */
	rt_rounds(w, t, 1000000, 1, 1000);
	file_limit(64);			/* then nothing fits */
	rt_rounds(w, t, 2000000, 2, 1000);
	d9rec_thread_unregister(&t);
	if (d9rec_close(&w) != -EFBIG)
		_exit(12);
}

START_TEST(test_cut_part_way)
{
	char *dir = rt_tmpdir();
	struct d9m_model *m;
	size_t nerr;
	int status = in_child(cut_part_way, dir);

	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(rt_files(dir, ".active"), 0);
	ck_assert_uint_ne(d9m_task_find(m, 2999), D9_NONE);
	ck_assert_uint_eq(d9m_task_find(m, 1000001), D9_NONE);
	ck_assert_uint_ge(m->loss.lost_batches, 1);
	ck_assert_uint_ge(m->loss.incomplete, 1);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

struct late {
	d9rec_writer		*w;
	struct d9rec_thread	*t;
	int			 schema, site;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	int			 step;	/* 1 registered, 2 closed, 3 done */
};

static void
late_step(struct late *l, int step, int wait)
{
	pthread_mutex_lock(&l->mu);
	if (wait)
		while (l->step < step)
			pthread_cond_wait(&l->cv, &l->mu);
	else {
		l->step = step;
		pthread_cond_broadcast(&l->cv);
	}
	pthread_mutex_unlock(&l->mu);
}

/* A worker that records on after the writer is closed (no unregister
 * before d9rec_close, as a program that closes at exit while its
 * threads run). */
static void *
late_worker(void *arg)
{
	struct late *l = arg;
	union d9rec_value v = { .u = 7 };

	l->t = d9rec_thread_register(l->w, "late", 0);
	late_step(l, 1, 0);
	late_step(l, 2, 1);
	for (uint64_t i = 1; i <= 100000; i++) {
		d9rec_poll_start(l->t, i, 0, 0);
		d9rec_event(l->t, l->schema, &v);
		d9rec_span_enter(l->t, l->site, i, 0, NULL);
		d9rec_span_exit(l->t, l->site, i, NULL);
		d9rec_poll_end(l->t);
	}
	d9rec_thread_unregister(&l->t);
	late_step(l, 3, 0);
	return NULL;
}

/* d9rec_close while a thread is still registered: what that thread
 * records afterwards is dropped, never written where the writer was
 * (its handle and the writer's tables are kept for it). */
START_TEST(test_close_before_unregister)
{
	static const struct d9rec_field f[] = { { "n", D9REC_T_U64 } };
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct late l = { .step = 0 };
	pthread_t th;
	struct d9m_model *m;
	size_t nerr;

	rt_opts(&o, dir, NULL);
	pthread_mutex_init(&l.mu, NULL);
	pthread_cond_init(&l.cv, NULL);
	ck_assert_int_eq(d9rec_open(&l.w, &o), 0);
	ck_assert_int_ge(l.schema = d9rec_schema(l.w, "Late", f, 1), 0);
	ck_assert_int_ge(l.site = d9rec_span_site(l.w, "t", "late", "f.c",
	    1, NULL, 0), 0);
	ck_assert_int_eq(pthread_create(&th, NULL, late_worker, &l), 0);
	late_step(&l, 1, 1);
	ck_assert_int_eq(d9rec_close(&l.w), 0);
	late_step(&l, 2, 0);
	late_step(&l, 3, 1);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->custom.n, 0);	/* nothing after the close */
	d9m_model_free(&m);
	pthread_mutex_destroy(&l.mu);
	pthread_cond_destroy(&l.cv);
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

/* The child pid ended with status 0, and dir reads with no error into
 * want runtime events. */
static void
child_then_events(pid_t pid, const char *dir, size_t want)
{
	struct d9m_model *m;
	size_t nerr;
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->rt.n, want);
	d9m_model_free(&m);
}

/* A program that forks and goes on in the child (a daemon) opens a
 * writer on the same directory there once the parent's is closed: the
 * child's copy does not keep the directory's lock (it did: EBUSY). */
START_TEST(test_fork_then_open)
{
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct d9rec_thread *t;
	d9rec_writer *w;
	int go[2];
	pid_t pid;

	rt_opts(&o, dir, NULL);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	for (int i = 0; i < 100; i++)
		d9rec_poll_end(t);
	ck_assert_int_eq(pipe(go), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		d9rec_writer *w2;
		char c;
		int bad;

		close(go[1]);
		bad = read(go[0], &c, 1) != 1;	/* the parent's is closed */
		bad |= d9rec_open(&w2, &o) != 0;
		if (!bad) {
			struct d9rec_thread *t2 = d9rec_thread_register(w2,
			    NULL, 0);

			for (int i = 0; t2 != NULL && i < 100; i++)
				d9rec_poll_end(t2);
			bad |= t2 == NULL;
			d9rec_thread_unregister(&t2);
			bad |= d9rec_close(&w2) != 0;
		}
		_exit(bad);
	}
	close(go[0]);
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	close(go[1]);
	child_then_events(pid, dir, 200);
	rt_rmdir(&dir);
}
END_TEST

/* A daemon closed its standard input, output and error before opening
 * the recorder, then writes to them (its code, a library's perror): no
 * line lands in a segment or the lock (they took descriptors 0 to 2,
 * and d9top read "unknown frame tag 0x48" where "HOST" began). */
START_TEST(test_closed_stdio)
{
	static const char line[] = "HOST MESSAGE\n";
	char *dir = rt_tmpdir(), lock[PATH_MAX];
	struct stat sb;
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct d9rec_options o;
		struct d9rec_thread *t;
		d9rec_writer *w;
		int bad = 0;

		close(0);
		close(1);
		close(2);
		rt_opts(&o, dir, NULL);
		bad |= d9rec_open(&w, &o) != 0;
		t = bad ? NULL : d9rec_thread_register(w, NULL, 0);
		bad |= t == NULL;
		for (int i = 0; !bad && i < 200; i++) {
			d9rec_poll_end(t);
			if (i == 99) {
				bad |= d9rec_flush(w) != 0;
				for (int fd = 0; fd < 3; fd++)
					(void)!write(fd, line, sizeof line - 1);
			}
		}
		if (!bad) {
			d9rec_thread_unregister(&t);
			bad |= d9rec_close(&w) != 0;
		}
		_exit(bad);
	}
	child_then_events(pid, dir, 200);
	snprintf(lock, sizeof lock, "%s/.lock", dir);
	ck_assert_int_eq(stat(lock, &sb), 0);
	ck_assert_int_eq(sb.st_size, 0);
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

			ck_assert_uint_eq(id >> 32, wk->own);
			ck_assert_uint_gt(id, prev);	/* order kept */
			prev = id;
		}
	}
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

/* Bad declarations are refused, not dereferenced. */
START_TEST(test_bad_declarations)
{
	char *dir = rt_tmpdir();
	const char *names[] = { "a", NULL };
	struct d9rec_field nameless[] = { { NULL, D9REC_T_U64 } };
	struct d9rec_field odd[] = { { "x", 99 } };
	struct d9rec_options o;
	d9rec_writer *w;

	rt_opts(&o, dir, NULL);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	ck_assert_int_eq(d9rec_span_site(w, "t", "s", "f", 1, NULL, 1),
	    -EINVAL);
	ck_assert_int_eq(d9rec_span_site(w, "t", "s", "f", 1, names, 2),
	    -EINVAL);
	ck_assert_int_eq(d9rec_span_site(w, "t", NULL, "f", 1, NULL, 0),
	    -EINVAL);
	ck_assert_int_ge(d9rec_span_site(w, NULL, "s", NULL, 1, names, 1), 0);
	ck_assert_int_eq(d9rec_schema(w, "E", NULL, 2), -EINVAL);
	ck_assert_int_eq(d9rec_schema(w, "E", nameless, 1), -EINVAL);
	ck_assert_int_eq(d9rec_schema(w, "E", odd, 1), -EINVAL);
	ck_assert_int_ge(d9rec_schema(w, "E", NULL, 0), 0);
	/* NULL names and values: refused, not followed */
	ck_assert_int_eq(d9rec_set_meta(w, NULL, "v"), -EINVAL);
	ck_assert_int_eq(d9rec_set_meta(w, "k", NULL), -EINVAL);
	{	/* longer than a reader keeps whole: refused */
		char *big = malloc(D9REC_META_MAX + 2);

		ck_assert_ptr_nonnull(big);
		memset(big, 'v', D9REC_META_MAX + 1);
		big[D9REC_META_MAX + 1] = '\0';
		ck_assert_int_eq(d9rec_set_meta(w, "k", big), -E2BIG);
		ck_assert_int_eq(d9rec_set_meta(w, big, "v"), -E2BIG);
		big[D9REC_META_MAX] = '\0';
		ck_assert_int_eq(d9rec_set_meta(w, "k", big), 0);
		free(big);
	}
	ck_assert_int_eq(d9rec_runtime(w, NULL, 0, 1), -EINVAL);
	/* workers 0 .. 253: none past them, none wrapped round, some */
	ck_assert_int_eq(d9rec_runtime(w, "r", UINT32_MAX - 1, 10), -EINVAL);
	ck_assert_int_eq(d9rec_runtime(w, "r", 250, 10), -EINVAL);
	ck_assert_int_eq(d9rec_runtime(w, "r", 254, 1), -EINVAL);
	ck_assert_int_eq(d9rec_runtime(w, "r", 0, 0), -EINVAL);
	ck_assert_int_eq(d9rec_runtime(w, "r", 0, 254), 0);
	ck_assert_uint_eq(d9rec_location(w, NULL), UINT32_MAX);
	{	/* an event without its values: recorded with 0 and "" */
		static const struct d9rec_field two[] = {
		    { "n", D9REC_T_U64 }, { "s", D9REC_T_STR } };
		int id = d9rec_schema(w, "Two", two, 2);
		struct d9rec_thread *t = d9rec_thread_register(w, NULL, 0);
		struct d9m_model *m;
		size_t nerr;

		ck_assert_int_ge(id, 0);
		d9rec_event(t, id, NULL);
		d9rec_thread_unregister(&t);
		ck_assert_int_eq(d9rec_close(&w), 0);
		m = rt_load(dir, &nerr);
		ck_assert_uint_eq(nerr, 0);
		ck_assert_uint_eq(m->custom.n, 1);
		d9m_model_free(&m);
	}
	rt_rmdir(&dir);
}
END_TEST

/* A spawn location or runtime id that d9rec_location did not give (0,
 * say, or the id of a thread's name) is no location: the tasks spawned
 * and polled with one have none, where 0 named them after the service;
 * a runtime sample with one is dropped and counted. */
START_TEST(test_ids_not_locations)
{
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct d9rec_stats st;
	struct d9m_model *m;
	struct d9rec_thread *t;
	d9rec_writer *w;
	uint32_t a;
	size_t nerr, at_a = 0, none = 0;

	rt_opts(&o, dir, NULL);
	o.service = "svc";
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, "thread-name", 0);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_ge(d9rec_span_site(w, "tgt", "span-name", "f.c", 1, NULL,
	    0), 0);
	a = d9rec_location(w, "a.c:1:1");
	ck_assert_uint_gt(a, 3);	/* the service, the span's strings */
	for (uint32_t id = 0; id < a; id++) {	/* every other string's id */
		d9rec_spawn(t, 10 + id, id);
		d9rec_poll_start(t, 10 + id, id, 0);
		d9rec_poll_end(t);
		d9rec_poll_start(t, 100 + id, id, 0);	/* polled, not spawned */
		d9rec_poll_end(t);
	}
	d9rec_spawn(t, 1, a);
	d9rec_poll_start(t, 1, a, 0);
	d9rec_poll_end(t);
	d9rec_runtime_sample(t, 0, 1, 1);
	d9rec_stats(w, &st);
	ck_assert_uint_eq(st.dropped, 1);
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->tasks.n, 1 + 2 * (size_t)a);
	for (size_t i = 0; i < m->tasks.n; i++) {
		const char *loc = m->tasks.loc[i] == D9_NONE ? "" :
		    d9m_str(m, m->tasks.loc[i]);

		at_a += strcmp(loc, "a.c:1:1") == 0;
		none += loc[0] == '\0';
		ck_assert_msg(strcmp(loc, "svc") != 0 &&
		    strcmp(loc, "span-name") != 0 && strcmp(loc, "f.c") != 0,
		    "task %" PRIu64 " at %s", m->tasks.id[i], loc);
	}
	ck_assert_uint_eq(at_a, 1);
	ck_assert_uint_eq(none, 2 * (size_t)a);
	ck_assert_uint_eq(m->queue.n, 0);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

/* A schema id of another kind is refused as well: d9rec_event with a
 * span site's id, a span call with a custom schema's id or a site's
 * exit schema records nothing (a span event laid out as a custom one,
 * or the reverse, was written). */
START_TEST(test_ids_of_another_kind)
{
	static const struct d9rec_field one[] = { { "n", D9REC_T_U64 } };
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct d9rec_stats st;
	struct d9m_model *m;
	struct d9rec_thread *t;
	d9rec_writer *w;
	int site, custom;
	size_t nerr;

	rt_opts(&o, dir, NULL);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	ck_assert_int_ge(site = d9rec_span_site(w, "t", "s", "f.c", 1, NULL,
	    0), 0);
	ck_assert_int_ge(custom = d9rec_schema(w, "E", one, 1), 0);
	d9rec_event(t, site, NULL);
	d9rec_event(t, site + 1, NULL);
	d9rec_span_enter(t, custom, 7, 0, NULL);
	d9rec_span_enter(t, site + 1, 8, 0, NULL);
	d9rec_event(t, custom, NULL);		/* the ones that count */
	d9rec_span_enter(t, site, 9, 0, NULL);
	d9rec_span_exit(t, site, 9, NULL);
	d9rec_event(t, 12345, NULL);		/* no schema at all */
	d9rec_stats(w, &st);
	ck_assert_uint_eq(st.dropped, 5);	/* each refused call counted */
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->custom.n, 1);
	ck_assert_uint_eq(m->spanev.n, 2);	/* 9's enter and exit */
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

/* A program whose d9rec_open failed goes on with a NULL writer: every
 * call takes it (errors, zeros, no thread), none crashes. */
START_TEST(test_null_writer)
{
	static const struct d9rec_field f[] = { { "x", D9REC_T_U64 } };
	d9rec_writer *w = NULL;
	struct d9rec_stats st;
	struct d9rec_options o;
	uint64_t rec = 1, proc = 1;

	memset(&st, 0xff, sizeof st);
	d9rec_options_init(NULL);
	ck_assert_int_eq(d9rec_open(NULL, &o), -EINVAL);
	ck_assert_int_eq(d9rec_flush(w), -EINVAL);
	ck_assert_int_eq(d9rec_rotate(w), -EINVAL);
	d9rec_stats(w, &st);
	ck_assert_uint_eq(st.events + st.dropped + st.lost_batches, 0);
	d9rec_stats(w, NULL);
	d9rec_cost(w, &rec, &proc);
	ck_assert_uint_gt(d9rec_now(w), 0);
	ck_assert_int_eq(d9rec_set_meta(w, "k", "v"), -EINVAL);
	ck_assert_int_eq(d9rec_runtime(w, "rt", 0, 1), -EINVAL);
	ck_assert_uint_eq(d9rec_runtime_id(w, "rt"), UINT32_MAX - 1);
	ck_assert_uint_eq(d9rec_location(w, "a.c:1:1"), UINT32_MAX);
	ck_assert_int_lt(d9rec_schema(w, "E", f, 1), 0);
	ck_assert_int_eq(d9rec_span_site(w, "t", "s", "f", 1, NULL, 0),
	    -EINVAL);
	ck_assert_ptr_null(d9rec_thread_register(w, "x", 0));
	ck_assert_int_eq(d9rec_close(&w), 0);
}
END_TEST

TCase *
rt_tcase_robust(void)
{
	TCase *tc = tcase_create("robust");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_drops_counted);
	tcase_add_loop_test(tc, test_file_limit, 0, 2);
	tcase_add_test(tc, test_cut_part_way);
	tcase_add_test(tc, test_fork);
	tcase_add_test(tc, test_closed_stdio);
	tcase_add_test(tc, test_fork_then_open);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_bad_declarations);
	tcase_add_test(tc, test_null_writer);
	tcase_add_test(tc, test_ids_not_locations);
	tcase_add_test(tc, test_ids_of_another_kind);
	tcase_add_test(tc, test_close_before_unregister);
	return tc;
}
