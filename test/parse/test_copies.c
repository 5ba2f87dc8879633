/*
 * test_copies.c: each segment is read once (ANALYSIS 19). Directory
 * walks end at a symlink back to a directory already walked; a file
 * reached twice (path given twice, symlink, hard link) is read once and
 * counted; of the files holding the same segment (trace.N.bin and its
 * .gz, an .active prefix of a sealed file) the fullest is read and the
 * others are counted and noted; the same first batch under another
 * boot_id is another segment. A file sealed while the reader runs is
 * read under its new name, a pipe is read once, and an input cut short
 * is told to the sink.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/wire.h"
#include "suites.h"

/* A batch with one SegmentMetadataEvent {boot_id: boot}. */
static void
meta_batch(struct tg *t, const char *boot)
{
	static const struct tg_field f[] = { { "entries", D9_FT_STRING_MAP } };
	const char *kv[] = { "boot_id", boot };

	tg_header(t);
	tg_schema(t, 2, "SegmentMetadataEvent", 1, 1, f);
	tg_event(t, 2, 5);
	tg_v_map(t, 1, kv);
}

START_TEST(symlink_loops)
{
	const char *paths[1];
	struct tg t, names;
	struct tg_dir d;
	struct rec r;
	char pre[80];

	tg_dir_make(&d);
	tg_init(&t);
	tg_init(&names);
	tg_batch_e(&t, 2, 0);
	tg_dir_put(&d, "trace.0.bin", &t);
	ck_assert_int_eq(mkdir(tg_dir_file(&d, "sub"), 0700), 0);
	tg_reset(&t);
	tg_batch_e(&t, 1, 5);
	tg_dir_put(&d, "sub/trace.1.bin", &t);
	ck_assert_int_eq(symlink(".", tg_dir_file(&d, "a")), 0);
	ck_assert_int_eq(symlink(".", tg_dir_file(&d, "b")), 0);
	ck_assert_int_eq(symlink("..", tg_dir_file(&d, "sub/up")), 0);
	rec_init(&r);
	paths[0] = d.path;
	ck_assert_int_eq(rec_read_paths(&r, paths, 1), 0);
	snprintf(pre, sizeof pre, "%s/", d.path);
	ck_assert_str_eq(rec_inputs(&r, pre, &names), "sub/trace.1.bin\n"
	    "trace.0.bin\n");
	ck_assert_uint_eq(r.st.events, 3);
	ck_assert_uint_eq(r.st.copies, 0);
	ck_assert_str_eq(rec_notes(&r), "");

	/* from below: up leads to the parent, walked once */
	rec_clear(&r);
	paths[0] = tg_dir_file(&d, "sub");
	ck_assert_int_eq(rec_read_paths(&r, paths, 1), 0);
	ck_assert_str_eq(rec_inputs(&r, pre, &names), "sub/trace.1.bin\n"
	    "sub/up/trace.0.bin\n");
	ck_assert_uint_eq(r.st.events, 3);
	rec_free(&r);
	tg_dir_remove(&d);
	tg_free(&names);
	tg_free(&t);
}
END_TEST

START_TEST(files_reached_twice)
{
	char one[PATH_MAX];
	const char *paths[] = { one, NULL };
	struct tg t;
	struct tg_dir d;
	struct rec r;

	tg_dir_make(&d);
	tg_init(&t);
	tg_batch_e(&t, 2, 0);
	tg_dir_put(&d, "trace.0.bin", &t);
	snprintf(one, sizeof one, "%s", tg_dir_file(&d, "trace.0.bin"));
	ck_assert_int_eq(symlink("trace.0.bin", tg_dir_file(&d, "link.bin")), 0);
	ck_assert_int_eq(link(one, tg_dir_file(&d, "hard.bin")), 0);
	paths[1] = d.path;
	rec_init(&r);
	ck_assert_int_eq(rec_read_paths(&r, paths, 2), 0);
	ck_assert_uint_eq(r.st.inputs, 1);
	ck_assert_uint_eq(r.st.events, 2);
	ck_assert_uint_eq(r.st.copies, 3);
	ck_assert_uint_eq(r.copies, 3);
	ck_assert_str_eq(rec_notes(&r), "");	/* counted, not told */
	rec_free(&r);
	tg_dir_remove(&d);
	tg_free(&t);
}
END_TEST

START_TEST(copies_of_a_segment)
{
	const char *paths[1];
	struct tg t, gz, names, want;
	struct tg_dir d;
	struct rec r;
	char pre[80];
	size_t cut;

	tg_dir_make(&d);
	tg_init(&t);
	tg_init(&gz);
	tg_init(&names);
	tg_init(&want);
	/* trace.0: the sealed file and its compressed copy */
	tg_batch_e(&t, 3, 0);
	tg_dir_put(&d, "trace.0.bin", &t);
	tg_gzip(&gz, t.p, t.n);
	tg_dir_put(&d, "trace.0.bin.gz", &gz);
	/* trace.1: an .active prefix cut mid-frame, and the processed copy
	 * with one more batch */
	tg_reset(&t);
	tg_batch_e(&t, 1, 10);
	meta_batch(&t, "abcd-1");
	tg_batch_e(&t, 2, 20);
	cut = t.n - 1;
	tg_batch_e(&t, 1, 30);
	tg_reset(&gz);
	tg_gzip(&gz, t.p, t.n);
	tg_dir_put(&d, "trace.1.bin.gz", &gz);
	t.n = cut;
	tg_dir_put(&d, "trace.1.bin.active", &t);
	/* the same first batch under another boot_id: another segment */
	tg_reset(&t);
	tg_batch_e(&t, 1, 10);
	meta_batch(&t, "wxyz-2");
	tg_dir_put(&d, "trace.2.bin", &t);

	rec_init(&r);
	paths[0] = d.path;
	ck_assert_int_eq(rec_read_paths(&r, paths, 1), 0);
	snprintf(pre, sizeof pre, "%s/", d.path);
	ck_assert_str_eq(rec_inputs(&r, pre, &names), "trace.0.bin\n"
	    "trace.1.bin.gz\ntrace.2.bin\n");
	ck_assert_uint_eq(r.st.events, 3 + 5 + 2);
	ck_assert_uint_eq(r.st.copies, 2);
	ck_assert_uint_eq(r.copies, 2);
	ck_assert_uint_eq(r.cuts, 0);
	tg_printf(&want, "%s/trace.0.bin.gz: the same segment as "
	    "%s/trace.0.bin, read once\n%s/trace.1.bin.active: the same "
	    "segment as %s/trace.1.bin.gz, read once\n", d.path, d.path,
	    d.path, d.path);
	ck_assert_str_eq(rec_notes(&r), tg_cstr(&want));
	rec_free(&r);
	tg_dir_remove(&d);
	tg_free(&want);
	tg_free(&names);
	tg_free(&gz);
	tg_free(&t);
}
END_TEST

struct sealer {
	struct tg_dir	*d;
	int		 done;
};

/* The recorder seals trace.1 while trace.0 is read. */
static void
seal_now(void *ctx)
{
	struct sealer *s = ctx;
	char from[PATH_MAX];

	if (s->done++)
		return;
	snprintf(from, sizeof from, "%s", tg_dir_file(s->d, "trace.1.bin.active"));
	ck_assert_int_eq(rename(from, tg_dir_file(s->d, "trace.1.bin")), 0);
}

START_TEST(sealed_while_reading)
{
	struct d9p_progress pr = { 0 };
	const char *paths[1];
	struct sealer s;
	struct d9p_sink sink;
	struct d9p_read_opts o;
	struct tg t, names;
	struct tg_dir d;
	struct rec r;
	char pre[80];

	tg_dir_make(&d);
	tg_init(&t);
	tg_init(&names);
	tg_batch_e(&t, 1, 0);
	tg_dir_put(&d, "trace.0.bin", &t);
	tg_reset(&t);
	tg_batch_e(&t, 2, 1);
	tg_dir_put(&d, "trace.1.bin.active", &t);
	s.d = &d;
	s.done = 0;
	pr.tick = seal_now;
	pr.tick_ctx = &s;
	rec_init(&r);
	sink = rec_sink(&r);
	o = rec_opts(&r);
	o.progress = &pr;
	paths[0] = d.path;
	ck_assert_int_eq(d9p_read_paths(paths, 1, &sink, &o, &r.st), 0);
	snprintf(pre, sizeof pre, "%s/", d.path);
	ck_assert_str_eq(rec_inputs(&r, pre, &names), "trace.0.bin\n"
	    "trace.1.bin\n");
	ck_assert_uint_eq(r.st.events, 3);
	ck_assert_str_eq(rec_notes(&r), "");
	rec_free(&r);
	tg_dir_remove(&d);
	tg_free(&names);
	tg_free(&t);
}
END_TEST

/* A pipe given by path (a shell's <(...)) is not looked at before it is
 * read: its bytes come once. */
START_TEST(pipe_read_once)
{
	struct tg_pipe tp;
	char path[64];
	const char *paths[] = { path };
	struct tg t;
	struct rec r;
	int fd;

	tg_init(&t);
	tg_batch_e(&t, 3, 0);
	fd = tg_pipe_start(&tp, t.p, t.n, 7);
	snprintf(path, sizeof path, "/dev/fd/%d", fd);
	rec_init(&r);
	ck_assert_int_eq(rec_read_paths(&r, paths, 1), 0);
	tg_pipe_join(&tp);
	close(fd);
	ck_assert_uint_eq(r.st.events, 3);
	ck_assert_str_eq(rec_notes(&r), "");
	rec_free(&r);
	tg_free(&t);
}
END_TEST

START_TEST(cut_short_is_told)
{
	struct tg t, gz;
	struct rec r;

	tg_init(&t);
	tg_init(&gz);
	tg_batch_e(&t, 3, 0);
	rec_init(&r);
	ck_assert_int_eq(rec_read(&r, t.p, t.n), 0);
	ck_assert_uint_eq(r.cuts, 0);
	ck_assert_int_eq(rec_read(&r, t.p, t.n - 1), 0);	/* mid-frame */
	ck_assert_uint_eq(r.cuts, 1);
	tg_gzip(&gz, t.p, t.n);
	ck_assert_int_eq(rec_read(&r, gz.p, gz.n - 9), 0); /* member cut */
	ck_assert_uint_eq(r.cuts, 2);
	rec_free(&r);
	tg_free(&gz);
	tg_free(&t);
}
END_TEST

Suite *
suite_copies(void)
{
	Suite *s = suite_create("copies");
	TCase *tc = tcase_create("once");

	tcase_add_test(tc, symlink_loops);
	tcase_add_test(tc, files_reached_twice);
	tcase_add_test(tc, copies_of_a_segment);
	tcase_add_test(tc, sealed_while_reading);
	tcase_add_test(tc, pipe_read_once);
	tcase_add_test(tc, cut_short_is_told);
	suite_add_tcase(s, tc);
	return s;
}
