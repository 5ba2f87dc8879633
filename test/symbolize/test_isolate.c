/*
 * test_isolate.c: reading in a child (src/symbolize/isolate.h) and the
 * index it hands back (dwindex.h). The child's answer comes back whole;
 * its errors come back as they are; a child killed by a signal, calling
 * abort(), hanging past its time, exiting without an answer or running
 * out of memory is told apart in the message and never ends the caller;
 * the caller's fatal-signal handlers do not run in the child; a parent
 * ignoring SIGCHLD still gets its answer, one blocking ^C too. The DWARF
 * reader refuses a FIFO at once (it does not hang on it). An index
 * buffer that is cut, has a bad magic or bytes flipped anywhere is
 * refused or, when accepted, looked up without reading outside it (run
 * under ASan).
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "symbolize/dwarf.h"
#include "symbolize/dwindex.h"
#include "symbolize/elffile.h"
#include "symbolize/isolate.h"
#include "suites.h"
#include "tutil.h"

static int
answer_hello(void *arg, void **buf, size_t *len, struct d9_err *e)
{
	(void)e;
	*len = strlen(arg) + 1;
	*buf = strdup(arg);
	return 0;
}

/* Fails with the code *arg points to. */
static int
answer_error(void *arg, void **buf, size_t *len, struct d9_err *e)
{
	const int *code = arg;

	(void)buf;
	(void)len;
	return d9_err_set(e, *code, 0, "no DWARF here");
}

static int
die_by(void *arg, void **buf, size_t *len, struct d9_err *e)
{
	const char *how = arg;

	(void)buf;
	(void)len;
	(void)e;
	if (strcmp(how, "segv") == 0)
		raise(SIGSEGV);
	else if (strcmp(how, "abort") == 0)
		abort();
	else if (strcmp(how, "hang") == 0)
		for (;;)
			pause();
	_exit(3);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

START_TEST(answers)
{
	int bad = D9_ERR_BAD_VALUE, nomem = D9_ERR_NOMEM;
	struct d9_err e;
	void *buf;
	size_t len;

	ck_assert_int_eq(d9s_isolate(answer_hello, "hello", 5000, 0, &buf,
	    &len, &e), 0);
	ck_assert_uint_eq(len, 6);
	ck_assert_str_eq(buf, "hello");
	free(buf);
	ck_assert_int_eq(d9s_isolate(answer_hello, "", 5000, 1 << 20, &buf,
	    &len, &e), 0);
	ck_assert_uint_eq(len, 1);
	free(buf);
	/* the child's own error, as it is */
	ck_assert_int_eq(d9s_isolate(answer_error, &bad, 5000, 0, &buf, &len,
	    &e), -D9_ERR_BAD_VALUE);
	ck_assert_str_eq(e.msg, "no DWARF here");
	ck_assert_ptr_null(buf);
	/* out of memory in the child is the child's problem */
	ck_assert_int_eq(d9s_isolate(answer_error, &nomem, 5000, 0, &buf,
	    &len, &e), -D9_ERR_IO);
	ck_assert_str_eq(e.msg, "the reader ran out of memory");
}
END_TEST

START_TEST(deaths)
{
	static const struct {
		const char	*how;
		const char	*msg;
	} t[] = {
		{ "segv", "the reader was killed by SIGSEGV" },
		{ "abort", "the reader was killed by SIGABRT" },
		{ "exit", "the reader exited with status 3" },
		{ "hang", "the reader took more than 0.300 s" },
	};
	struct d9_err e;
	void *buf;
	size_t len;

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		double t0 = now();

		ck_assert_int_eq(d9s_isolate(die_by, (void *)t[i].how, 300, 0,
		    &buf, &len, &e), -D9S_DWARF_LOST);
		ck_assert_str_eq(e.msg, t[i].msg);
		ck_assert_ptr_null(buf);
		ck_assert_msg(now() - t0 < 5, "%s took %.1f s", t[i].how,
		    now() - t0);
	}
}
END_TEST

#define MARKER_FD	200	/* where the handler below leaves its mark */

static void
parent_handler(int sig)
{
	(void)sig;
	(void)!write(MARKER_FD, "x", 1);
	_exit(99);
}

/* A browser-like parent: its SIGSEGV handler (terminal restore) must
 * not run in the child; with SIGCHLD ignored the answer still comes. */
START_TEST(parent_state)
{
	char path[PATH_MAX], c;
	struct tdir d;
	struct d9_err e;
	void *buf;
	size_t len;
	int fd;

	tdir_make(&d);
	fd = open(tdir_file(&d, "marker", path), O_RDWR | O_CREAT | O_TRUNC,
	    0600);
	ck_assert_int_eq(dup2(fd, MARKER_FD), MARKER_FD);
	close(fd);
	signal(SIGSEGV, parent_handler);
	ck_assert_int_eq(d9s_isolate(die_by, "segv", 5000, 0, &buf, &len, &e),
	    -D9S_DWARF_LOST);
	ck_assert_str_eq(e.msg, "the reader was killed by SIGSEGV");
	ck_assert_int_eq(pread(MARKER_FD, &c, 1, 0), 0);
	signal(SIGSEGV, SIG_DFL);
	signal(SIGCHLD, SIG_IGN);
	ck_assert_int_eq(d9s_isolate(answer_hello, "hi", 5000, 0, &buf, &len,
	    &e), 0);
	ck_assert_str_eq(buf, "hi");
	free(buf);
	signal(SIGCHLD, SIG_DFL);
	close(MARKER_FD);
	tdir_remove(&d);
}
END_TEST

/* Sends SIGINT to its own process, then answers. */
static int
interrupted_then_answer(void *arg, void **buf, size_t *len, struct d9_err *e)
{
	kill(getpid(), SIGINT);
	return answer_hello(arg, buf, len, e);
}

/* A caller that blocks ^C to stop at a step's end (an export) gets the
 * step's answer though ^C reached the child too; one that does not block
 * it loses the child to it. */
START_TEST(caller_blocks_interrupt)
{
	struct d9_err e;
	sigset_t set, old;
	void *buf;
	size_t len;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	ck_assert_int_eq(pthread_sigmask(SIG_BLOCK, &set, &old), 0);
	ck_assert_int_eq(d9s_isolate(interrupted_then_answer, "on", 5000, 0,
	    &buf, &len, &e), 0);
	ck_assert_str_eq(buf, "on");
	free(buf);
	ck_assert_int_eq(pthread_sigmask(SIG_SETMASK, &old, NULL), 0);
	ck_assert_int_eq(d9s_isolate(interrupted_then_answer, "off", 5000, 0,
	    &buf, &len, &e), -D9S_DWARF_LOST);
	ck_assert_str_eq(e.msg, "the reader was killed by SIGINT");
}
END_TEST

/* The DWARF reader given a FIFO nobody writes: refused, not hung on. */
START_TEST(reader_fifo)
{
	char path[PATH_MAX];
	struct d9s_dwarf *dw;
	struct tdir d;
	struct d9_err e;
	double t0 = now();

	tdir_make(&d);
	ck_assert_int_eq(mkfifo(tdir_file(&d, "fifo", path), 0600), 0);
	ck_assert_int_eq(d9s_dwarf_read(&dw, path, 5000, &e),
	    -D9_ERR_BAD_VALUE);
	ck_assert_str_eq(e.msg, "not a regular file");
	ck_assert_ptr_null(dw);
	ck_assert(now() - t0 < 2);
	tdir_remove(&d);
}
END_TEST

static void
look_all(struct d9s_dwarf *dw, const uint64_t *a, size_t n)
{
	struct d9s_frame fr[D9S_MAX_FRAMES];
	struct d9_err e;

	for (size_t i = 0; i < n; i++) {
		int k = d9s_dwarf_lookup(dw, a[i], fr, D9S_MAX_FRAMES, &e);

		for (int j = 0; j < k; j++) {
			ck_assert(fr[j].function == NULL ||
			    strlen(fr[j].function) < 1 << 20);
			ck_assert(fr[j].file == NULL ||
			    strlen(fr[j].file) < 1 << 20);
		}
	}
}

static void *
dup_buf(const void *p, size_t n)
{
	void *q = malloc(n);

	ck_assert_ptr_nonnull(q);
	memcpy(q, p, n);
	return q;
}

START_TEST(index_checked)
{
	const char *bin = prog_path("C_O2_V5");
	uint64_t a[256], x = 0x9e3779b97f4a7c15ULL;
	struct d9s_elffile f;
	struct d9s_dwarf *dw;
	struct d9_err e;
	unsigned char *buf;
	size_t len, n = 0, refused = 0;

	ck_assert_int_eq(d9s_elffile_open(&f, bin, &e), 0);
	for (size_t i = 0; i < f.syms.n && n < 256; i++)
		a[n++] = f.syms.sym[i].addr + f.syms.sym[i].size / 2;
	d9s_elffile_close(&f);
	ck_assert_int_eq(d9s_dwarf_build(bin, (void **)&buf, &len, &e), 0);
	/* whole: accepted */
	ck_assert_int_eq(d9s_dwindex_load(&dw, dup_buf(buf, len), len, &e), 0);
	look_all(dw, a, n);
	d9s_dwarf_free(&dw);
	/* cut, or a bad magic: refused */
	ck_assert_int_eq(d9s_dwindex_load(&dw, dup_buf(buf, len), len - 8,
	    &e), -D9_ERR_BAD_VALUE);
	ck_assert_int_eq(d9s_dwindex_load(&dw, dup_buf(buf, 16), 16, &e),
	    -D9_ERR_BAD_VALUE);
	buf[0] ^= 1;
	ck_assert_int_eq(d9s_dwindex_load(&dw, dup_buf(buf, len), len, &e),
	    -D9_ERR_BAD_VALUE);
	buf[0] ^= 1;
	/* bytes flipped anywhere: refused, or safe to look up in */
	for (int v = 0; v < 300; v++) {
		unsigned char *c = dup_buf(buf, len);

		for (int k = 0; k < 4; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			c[x % len] ^= (unsigned char)(1 + (x >> 40) % 255);
		}
		if (d9s_dwindex_load(&dw, c, len, &e) != 0) {
			refused++;
			continue;
		}
		look_all(dw, a, n);
		d9s_dwarf_free(&dw);
	}
	ck_assert_uint_gt(refused, 0);
	free(buf);
}
END_TEST

Suite *
suite_isolate(void)
{
	Suite *s = suite_create("isolate");
	TCase *tc = tcase_create("isolate");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, answers);
	tcase_add_test(tc, deaths);
	tcase_add_test(tc, parent_state);
	tcase_add_test(tc, caller_blocks_interrupt);
	tcase_add_test(tc, reader_fifo);
	tcase_add_test(tc, index_checked);
	suite_add_tcase(s, tc);
	return s;
}
