/*
 * test_export_run.c: --export as a run of its own, in the two ways it
 * meets the world besides files.
 *
 * A pipe or a device named as an input (a FIFO, bash's <(...)): its
 * bytes come once, so it is read from where the walk opened it, never
 * opened again nor peeked at before (the peek for its identity took the
 * first 64 KiB, and its export found nothing); its leaves are a file's
 * but for the input's name in the segments leaf.
 *
 * ^C, SIGTERM and SIGHUP (app/interrupt.h): the export stops at the end
 * of the segment being read and leaves no temporary file behind: OUTDIR
 * holds what a run that never began the interrupted input would leave,
 * the next run goes on from there, and what it then holds is what one
 * whole run writes. The process still ends by the signal (a shell loop
 * stops on ^C). A signal the process was started ignoring stays
 * ignored; a wait for another export's lock ends too.
 *
 * No sleep decides anything: the input is a FIFO that this process
 * writes, so d9top is held mid-input (its first segment exported, the
 * leaf that marks the input done held at its temporary name) for as
 * long as the test needs, and each step waits for what d9top says or
 * writes.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run.h"
#include "../rmtree.h"

#define WAIT_MS	120000	/* what d9top is waited for at most */

/* The two segments the input holds (different processes: each its own
 * leaves), written one after the other. */
static const char *const segs[] = { "demo-2026-03.bin",
	"block-in-place-2026-05.bin" };

struct child {
	pid_t	 pid;
	int	 err;		/* its stderr, read end */
	char	 said[16384];	/* what it wrote there so far */
	size_t	 n;
};

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* d9top --export parquet out in, SIGINT ignored when ignore is set. */
static void
spawn(struct child *c, const char *out, const char *in, int ignore)
{
	const char *d9top = getenv("D9TOP");
	int p[2];

	memset(c, 0, sizeof *c);
	ck_assert_ptr_nonnull(d9top);
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_ge(c->pid = fork(), 0);
	if (c->pid == 0) {
		/* as a terminal's job: whatever this test was started with
		 * (nohup ignores SIGHUP, a background job SIGINT) */
		signal(SIGINT, ignore ? SIG_IGN : SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		dup2(p[1], STDERR_FILENO);
		close(p[0]);
		close(p[1]);
		execl(d9top, d9top, "--export", "parquet", out, in,
		    (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	c->err = p[0];
}

/* Read what the child says until it says what (1), or ends (0). */
static int
hear(struct child *c, const char *what)
{
	long end = now_ms() + WAIT_MS;

	while (strstr(c->said, what) == NULL) {
		struct pollfd pf = { c->err, POLLIN, 0 };
		ssize_t k;

		ck_assert_msg(now_ms() < end, "d9top never said '%s': %s",
		    what, c->said);
		if (poll(&pf, 1, 100) <= 0)
			continue;
		k = read(c->err, c->said + c->n, sizeof c->said - 1 - c->n);
		if (k <= 0)
			return 0;
		c->n += (size_t)k;
		c->said[c->n] = '\0';
	}
	return 1;
}

/* The child's end: its wait status, what it said read whole. */
static int
reap(struct child *c)
{
	int st;

	while (hear(c, "\1never\1"))
		;
	close(c->err);
	ck_assert_int_eq(waitpid(c->pid, &st, 0), c->pid);
	return st;
}

/* Files under dir whose names hold part. */
static size_t
files_under(const char *dir, const char *part)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d != NULL && (e = readdir(d)) != NULL) {
		char sub[4096];

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR)
			n += files_under(sub, part);
		else
			n += strstr(e->d_name, part) != NULL;
	}
	if (d != NULL)
		closedir(d);
	return n;
}

/* Wait until the first segment is exported (a stream's leaves are in
 * place segment by segment: none is held). */
static void
await_first(const char *out)
{
	long end = now_ms() + WAIT_MS;
	struct timespec ts = { 0, 10000000L };
	char seg[128];

	snprintf(seg, sizeof seg, "%s/segments", out);
	while (files_under(seg, ".parquet") == 0) {
		ck_assert_msg(now_ms() < end, "nothing exported to %s", out);
		nanosleep(&ts, NULL);
	}
}

/* Write both segments to fd. */
static void
write_segs(int fd)
{
	for (size_t i = 0; i < sizeof segs / sizeof segs[0]; i++) {
		char *path = trace_path(segs[i]), buf[65536];
		FILE *f = fopen(path, "rb");
		size_t k;

		ck_assert_ptr_nonnull(f);
		while ((k = fread(buf, 1, sizeof buf, f)) > 0)
			ck_assert_int_eq(write(fd, buf, k), (ssize_t)k);
		fclose(f);
		free(path);
	}
}

/* The parquet files under dir, sorted, each with its bytes' sum when
 * sums is set (2: but the segments leaves, which name the input: a
 * pipe's differs from a file's there): malloc'd text. */
static char *
listing(const char *dir, int sums)
{
	struct run_result r;
	char *s;

	ck_assert_int_eq(run_prog(&r, "/bin/sh", "-c 'cd %s && find . -name "
	    "\"*.parquet\" -type f | LC_ALL=C sort%s'", dir,
	    sums == 2 ? " | grep -v ^./segments/ | xargs cksum" :
	    sums ? " | xargs cksum" : ""), 0);
	s = r.out;
	r.out = NULL;
	run_free(&r);
	return s;
}

/* Whether a and b hold the same leaves, with the same bytes but in the
 * segments table (whose rows name the input). */
static void
same_export(const char *a, const char *b)
{
	for (int k = 0; k < 2; k++) {
		char *x = listing(a, 2 * k), *y = listing(b, 2 * k);

		ck_assert_msg(strcmp(x, y) == 0, "%s and %s differ:\n%.1500s\n"
		    "%.1500s", a, b, x, y);
		free(x);
		free(y);
	}
}

/* The export of one regular file holding both segments into out: the
 * tree a whole run writes. */
static void
export_file(const char *file, const char *out)
{
	struct run_result r;

	ck_assert_int_eq(run_d9top(&r, NULL, "--quiet --export parquet %s %s",
	    out, file), 0);
	run_free(&r);
}

struct scratch {
	char	top[64], fifo[96], out[96], file[96], whole[96];
};

static void
scratch_make(struct scratch *s)
{
	int fd;

	snprintf(s->top, sizeof s->top, "/tmp/d9intr-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(s->top));
	snprintf(s->fifo, sizeof s->fifo, "%s/in.fifo", s->top);
	snprintf(s->out, sizeof s->out, "%s/out", s->top);
	snprintf(s->file, sizeof s->file, "%s/both.bin", s->top);
	snprintf(s->whole, sizeof s->whole, "%s/whole", s->top);
	ck_assert_int_eq(mkfifo(s->fifo, 0600), 0);
	ck_assert_int_ge(fd = open(s->file, O_WRONLY | O_CREAT, 0600), 0);
	write_segs(fd);
	close(fd);
}

/* Start an export of the FIFO and hold it mid-input: the write end. */
static int
held_export(struct child *c, const struct scratch *s, int ignore)
{
	int fd;

	spawn(c, s->out, s->fifo, ignore);
	ck_assert_int_ge(fd = open(s->fifo, O_WRONLY), 0);
	write_segs(fd);
	await_first(s->out);
	return fd;
}

START_TEST(pipe_named_as_input)
{
	struct scratch s;
	struct run_result r;

	scratch_make(&s);
	export_file(s.file, s.whole);
	/* bash's <(...): /dev/fd/N, a pipe d9top holds open */
	ck_assert_int_eq(run_prog(&r, "/bin/bash", "-c '\"$D9TOP\" --quiet "
	    "--export parquet %s <(cat %s)'", s.out, s.file), 0);
	ck_assert_msg(r.status == 0, "%s", r.err);
	run_free(&r);
	same_export(s.out, s.whole);
	t_rmtree(s.top);
}
END_TEST

START_TEST(interrupted_leaves_nothing_half_written)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct scratch s;
	struct child c;
	int fd, st;

	scratch_make(&s);
	fd = held_export(&c, &s, 0);
	ck_assert_int_eq(kill(c.pid, sigs[_i]), 0);
	ck_assert_msg(hear(&c, "interrupted"), "d9top ended at once, "
	    "leaving %zu temporary files", files_under(s.out, ".tmp"));
	close(fd);			/* the rest of the input comes */
	st = reap(&c);
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == sigs[_i],
	    "status %#x", st);
	ck_assert_msg(strstr(c.said, "the next run goes on from there"),
	    "%s", c.said);
	ck_assert_uint_eq(files_under(s.out, ".tmp"), 0);
	/* the second segment was not exported; the next run ends what
	 * this one began: as one whole run (but for the input the first
	 * segment's row names) */
	ck_assert_uint_eq(files_under(s.out, ".parquet"), 8);
	export_file(s.file, s.out);
	export_file(s.file, s.whole);
	same_export(s.out, s.whole);
	t_rmtree(s.top);
}
END_TEST

START_TEST(ignored_signal_stays_ignored)
{
	struct scratch s;
	struct child c;
	int fd, st;

	scratch_make(&s);
	fd = held_export(&c, &s, 1);
	ck_assert_int_eq(kill(c.pid, SIGINT), 0);
	close(fd);
	st = reap(&c);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x: %s",
	    st, c.said);
	ck_assert_ptr_null(strstr(c.said, "interrupted"));
	ck_assert_uint_eq(files_under(s.out, ".tmp"), 0);
	export_file(s.file, s.whole);
	same_export(s.out, s.whole);
	t_rmtree(s.top);
}
END_TEST

START_TEST(interrupted_while_waiting_for_outdir)
{
	struct scratch s;
	struct child c;
	char lock[128], *got;
	int fd, st;

	scratch_make(&s);
	ck_assert_int_eq(mkdir(s.out, 0700), 0);
	snprintf(lock, sizeof lock, "%s/.lock", s.out);
	ck_assert_int_ge(fd = open(lock, O_RDWR | O_CREAT, 0600), 0);
	ck_assert_int_eq(flock(fd, LOCK_EX), 0);	/* another export */
	spawn(&c, s.out, s.file, 0);
	ck_assert(hear(&c, "another d9top is exporting here"));
	ck_assert_int_eq(kill(c.pid, SIGTERM), 0);
	st = reap(&c);	/* the lock still held: the wait ended */
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
	    "status %#x: %s", st, c.said);
	ck_assert_ptr_nonnull(strstr(c.said, "interrupted"));
	close(fd);
	got = listing(s.out, 0);
	ck_assert_str_eq(got, "");
	free(got);
	t_rmtree(s.top);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("interrupt");
	TCase *tc = tcase_create("export");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, pipe_named_as_input);
	tcase_add_loop_test(tc, interrupted_leaves_nothing_half_written, 0,
	    3);
	tcase_add_test(tc, ignored_signal_stays_ignored);
	tcase_add_test(tc, interrupted_while_waiting_for_outdir);
	suite_add_tcase(s, tc);
	return run_suite(s, 1);
}
