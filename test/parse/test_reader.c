/*
 * test_reader.c: the reader around the decoder: paths, directories
 * (version order, hidden files, non-traces skipped, fifos ignored),
 * stdin, one stream per input, progress and cancel, frames larger than
 * the initial window.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/wire.h"
#include "suites.h"

START_TEST(directory_walk)
{
	struct tg_dir d;
	struct tg t, gz;
	struct rec r;
	const char *paths[1];
	char want[2048];

	tg_dir_make(&d);
	tg_init(&t);
	tg_init(&gz);
	tg_batch_e(&t, 1, 10);
	tg_dir_put(&d, "trace.10.bin", &t);
	tg_reset(&t);
	tg_batch_e(&t, 1, 2);
	tg_dir_put(&d, "trace.2.bin", &t);
	tg_reset(&t);
	tg_batch_e(&t, 1, 1);
	tg_gzip(&gz, t.p, t.n);
	tg_dir_put(&d, "trace.1.bin.gz", &gz);
	tg_reset(&t);
	tg_printf(&t, "a note\n");
	tg_dir_put(&d, "notes.txt", &t);
	tg_dir_put(&d, ".lock", &t);		/* hidden: never opened */
	tg_reset(&t);
	tg_dir_put(&d, "empty.bin", &t);
	ck_assert_int_eq(mkdir(tg_dir_file(&d, "sub"), 0700), 0);
	tg_batch_e(&t, 2, 0);
	tg_dir_put(&d, "sub/trace.0.bin", &t);
	ck_assert_int_eq(mkfifo(tg_dir_file(&d, "sub/fifo"), 0600), 0);

	rec_init(&r);
	paths[0] = d.path;
	ck_assert_int_eq(rec_read_paths(&r, paths, 1), 0);
	snprintf(want, sizeof want, "input %s/empty.bin\ninput %s/notes.txt\n"
	    "input %s/sub/trace.0.bin\nbatch @0\nschema 1 E v:11\nE@1 v=0\n"
	    "E@2 v=1\ninput %s/trace.1.bin.gz\nbatch @0\nschema 1 E v:11\n"
	    "E@1 v=1\ninput %s/trace.2.bin\nbatch @0\nschema 1 E v:11\n"
	    "E@1 v=2\ninput %s/trace.10.bin\nbatch @0\nschema 1 E v:11\n"
	    "E@1 v=10\n", d.path, d.path, d.path, d.path, d.path, d.path);
	ck_assert_str_eq(rec_log(&r), want);
	snprintf(want, sizeof want, "%s/empty.bin: empty input\n"
	    "%s/notes.txt: not a dial9 trace, skipped\n", d.path, d.path);
	ck_assert_str_eq(rec_notes(&r), want);
	ck_assert_uint_eq(r.st.inputs, 6);
	ck_assert_uint_eq(r.st.read_ok, 4);
	ck_assert_uint_eq(r.st.skipped, 1);
	ck_assert_uint_eq(r.st.failed, 1);
	ck_assert_uint_eq(r.st.events, 5);

	/* a path with a trailing slash, and a file given directly */
	rec_clear(&r);
	snprintf(want, sizeof want, "%s/sub/", d.path);
	paths[0] = want;
	ck_assert_int_eq(rec_read_paths(&r, paths, 1), 0);
	ck_assert_uint_eq(r.st.events, 2);
	ck_assert_str_eq(rec_notes(&r), "");
	rec_free(&r);
	tg_dir_remove(&d);
	tg_free(&gz);
	tg_free(&t);
}
END_TEST

/* Each input is its own stream: state does not leak from one to the next. */
START_TEST(inputs_are_separate_streams)
{
	struct tg_dir d;
	struct tg t;
	struct rec r;
	char a[PATH_MAX], b[PATH_MAX], want[PATH_MAX * 2 + 128];
	const char *paths[] = { a, "/nonexistent/d9-trace", b };

	tg_dir_make(&d);
	tg_init(&t);
	tg_batch_e(&t, 1, 0);
	snprintf(a, sizeof a, "%s", tg_dir_put(&d, "a", &t));
	tg_reset(&t);
	tg_event(&t, 1, 1);		/* no header: schema 1 is not known */
	tg_u8(&t, 0);
	snprintf(b, sizeof b, "%s", tg_dir_put(&d, "b", &t));
	rec_init(&r);
	ck_assert_int_eq(rec_read_paths(&r, paths, 3), 0);
	snprintf(want, sizeof want, "/nonexistent/d9-trace: No such file or "
	    "directory\n%s: byte 0: not a dial9 trace (no TRC header)\n", b);
	ck_assert_str_eq(rec_notes(&r), want);
	ck_assert_uint_eq(r.st.inputs, 2);
	ck_assert_uint_eq(r.st.failed, 2);
	ck_assert_uint_eq(r.st.events, 1);
	rec_free(&r);
	tg_dir_remove(&d);
	tg_free(&t);
}
END_TEST

START_TEST(stdin_dash)
{
	const char *paths[] = { "-" };
	struct tg t;
	struct rec r;
	int saved = dup(0);

	tg_init(&t);
	tg_batch_e(&t, 3, 0);
	ck_assert_int_ge(saved, 0);
	ck_assert_int_eq(dup2(tg_memfd(t.p, t.n), 0), 0);
	rec_init(&r);
	ck_assert_int_eq(rec_read_paths(&r, paths, 1), 0);
	dup2(saved, 0);
	close(saved);
	ck_assert_str_eq(rec_log(&r), "input stdin\nbatch @0\nschema 1 E v:11\n"
	    "E@1 v=0\nE@2 v=1\nE@3 v=2\n");
	rec_free(&r);
	tg_free(&t);
}
END_TEST

/* The total at the first tick, and the ticks. */
struct ticks {
	struct d9p_progress	*pr;
	uint64_t		 first_total;
	unsigned		 n;
};

static void
count_tick(void *ctx)
{
	struct ticks *k = ctx;

	if (k->n++ == 0)
		k->first_total = atomic_load(&k->pr->bytes_total);
}

/* A directory's size is known before its first file is read (a
 * progress line says how much is left from the start). */
START_TEST(progress_total_known_first)
{
	struct d9p_progress pr = { 0 };
	struct tg_dir d;
	struct tg t, u;
	struct rec r;
	struct d9p_sink sink;
	struct d9p_read_opts o;
	const char *paths[1];
	struct ticks k = { &pr, 0, 0 };

	tg_dir_make(&d);
	tg_init(&t);
	tg_init(&u);
	tg_batch_e(&t, 100, 0);
	tg_batch_e(&u, 300, 0);
	tg_dir_put(&d, "trace.0.bin", &t);
	tg_dir_put(&d, "trace.1.bin", &u);
	paths[0] = d.path;
	pr.tick = count_tick;
	pr.tick_ctx = &k;
	rec_init(&r);
	sink = rec_sink(&r);
	o = rec_opts(&r);
	o.progress = &pr;
	ck_assert_int_eq(d9p_read_paths(paths, 1, &sink, &o, &r.st), 0);
	ck_assert_uint_ge(k.n, 2);		/* a tick per file at least */
	ck_assert_uint_eq(k.first_total, t.n + u.n);
	ck_assert_uint_eq(atomic_load(&pr.bytes_total), t.n + u.n);
	ck_assert_uint_eq(atomic_load(&pr.bytes_in), t.n + u.n);
	rec_free(&r);
	tg_dir_remove(&d);
	tg_free(&t);
	tg_free(&u);
}
END_TEST

START_TEST(progress_and_cancel)
{
	struct d9p_progress pr = { 0 };
	struct tg_dir d;
	struct tg t;
	struct rec r;
	struct d9p_sink sink;
	struct d9p_read_opts o;
	const char *paths[1];

	tg_dir_make(&d);
	tg_init(&t);
	tg_batch_e(&t, 100, 0);
	paths[0] = tg_dir_put(&d, "p.bin", &t);
	rec_init(&r);
	sink = rec_sink(&r);
	o = rec_opts(&r);
	o.progress = &pr;
	ck_assert_int_eq(d9p_read_paths(paths, 1, &sink, &o, &r.st), 0);
	ck_assert_uint_eq(atomic_load(&pr.bytes_total), t.n);
	ck_assert_uint_eq(atomic_load(&pr.bytes_in), t.n);
	ck_assert_uint_eq(atomic_load(&pr.events), 100);
	ck_assert_uint_eq(r.st.consumed, t.n);
	ck_assert_uint_eq(r.st.decoded, t.n);

	/* cancelled before it starts: nothing is read, nothing noted */
	rec_clear(&r);
	atomic_store(&pr.cancel, 1);
	ck_assert_int_eq(d9p_read_paths(paths, 1, &sink, &o, &r.st), 0);
	ck_assert_uint_eq(r.st.events, 0);
	ck_assert_str_eq(rec_notes(&r), "");
	rec_free(&r);
	tg_dir_remove(&d);
	tg_free(&t);
}
END_TEST

/* Frames bigger than the first window (1 MiB) make it grow: 3 MB of map
 * entries, none of them longer than what is kept of a value (64 KiB). */
START_TEST(frames_larger_than_the_window)
{
	static const struct tg_field f[] = { { "m", D9_FT_STRING_MAP },
	    { "k", D9_FT_STACK } };
	size_t pairs = 40000, frames = 8192;
	struct tg t, c;
	struct rec r;
	const char **kv = malloc(2 * pairs * sizeof *kv);
	const char *s = "0123456789012345678901234567890123456789";

	ck_assert_ptr_nonnull(kv);
	for (size_t i = 0; i < 2 * pairs; i++)
		kv[i] = s;
	tg_init(&t);
	tg_init(&c);
	tg_header(&t);
	tg_schema(&t, 1, "Big", 1, 2, f);
	tg_event(&t, 1, 1);
	tg_v_map(&t, pairs, kv);
	tg_u32(&t, (uint32_t)frames);
	for (size_t i = 0; i < frames; i++)
		tg_u64(&t, i);
	tg_event(&t, 1, 1);
	tg_u32(&t, 0);
	tg_u32(&t, 0);
	tg_gzip(&c, t.p, t.n);
	for (int pass = 0; pass < 2; pass++) {
		struct tg_pipe tp;

		rec_init(&r);
		r.keep = 0;
		if (pass == 0)
			rec_read(&r, c.p, c.n);
		else {
			int fd = tg_pipe_start(&tp, t.p, t.n, 65536);

			rec_read_fd(&r, fd, "t", 0);
			tg_pipe_join(&tp);
		}
		ck_assert_str_eq(rec_notes(&r), "");
		ck_assert_uint_eq(r.nevents, 2);
		ck_assert_uint_eq(r.st.decoded, t.n);
		rec_free(&r);
	}
	free(kv);
	tg_free(&c);
	tg_free(&t);
}
END_TEST

Suite *
suite_reader(void)
{
	Suite *s = suite_create("reader");
	TCase *tc;

	tc = tcase_create("paths");
	tcase_add_test(tc, directory_walk);
	tcase_add_test(tc, inputs_are_separate_streams);
	tcase_add_test(tc, stdin_dash);
	suite_add_tcase(s, tc);
	tc = tcase_create("stream");
	tcase_add_test(tc, progress_and_cancel);
	tcase_add_test(tc, progress_total_known_first);
	tcase_add_test(tc, frames_larger_than_the_window);
	suite_add_tcase(s, tc);
	return s;
}
