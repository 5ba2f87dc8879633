/*
 * test_follow.c: --follow's reading (parse/follow.c) on a directory that
 * a recorder keeps writing: a segment that grows, a frame cut at the end
 * of what was written so far, sealing by rename, a compressed copy that
 * replaces the sealed file, a new segment, a file that is not a trace, a
 * segment cut back and written again. Every event must arrive exactly
 * once.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/wire.h"
#include "parse/follow.h"
#include "suites.h"

static void
put(const char *dir, const char *name, const void *p, size_t n,
    const char *mode)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	ck_assert_ptr_nonnull(f = fopen(path, mode));
	ck_assert_uint_eq(fwrite(p, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

static void
poll_once(struct d9p_follow *f, struct rec *r)
{
	struct d9p_sink sink = rec_sink(r);
	struct d9p_read_opts o = rec_opts(r);

	ck_assert_int_eq(d9p_follow_poll(f, &sink, &o, &r->st), 0);
}

/* The end of a test: the follower, the log and the directory go. */
static void
done(struct d9p_follow **f, struct rec *r, const char *dir)
{
	char cmd[PATH_MAX + 32];

	d9p_follow_free(f);
	rec_free(r);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* The values of the E events in the log, in order: "0 10 11 ...". */
static const char *
values(struct rec *r, char *out, size_t cap)
{
	const char *p = rec_log(r);
	size_t n = 0;

	out[0] = '\0';
	while ((p = strstr(p, " v=")) != NULL && n + 8 < cap) {
		p += 3;
		n += (size_t)snprintf(out + n, cap - n, "%s%d", n ? " " : "",
		    atoi(p));
	}
	return out;
}

/* A test's start: dir made, t and c (bytes and their compressed copy)
 * and r begun. */
static void
begin(char *dir, struct tg *t, struct tg *c, struct rec *r)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	tg_init(t);
	tg_init(c);
	rec_init(r);
}

/* t's bytes into c as loop index i says: gzip, zstd, as they are. */
static void
pack(int i, struct tg *t, struct tg *c)
{
	if (i == 0)
		tg_gzip(c, t->p, t->n);
	else if (i == 1)
		tg_zstd(c, t->p, t->n);
	else
		tg_raw(c, t->p, t->n);
}

START_TEST(follow_a_live_directory)
{
	char dir[] = "/tmp/d9-follow-XXXXXX", a[PATH_MAX], b[PATH_MAX];
	char v[256], cmd[PATH_MAX + 32];
	const char *paths[] = { dir };
	struct d9p_follow *f;
	struct tg t, gz;
	struct rec r;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	tg_init(&t);
	tg_init(&gz);
	rec_init(&r);
	tg_batch_e(&t, 1, 0);
	tg_gzip(&gz, t.p, t.n);
	put(dir, "trace.0.bin.gz", gz.p, gz.n, "w");
	tg_reset(&t);
	tg_batch_e(&t, 2, 10);
	tg_event(&t, 1, 1);		/* its value is not written yet */
	put(dir, "trace.1.bin.active", t.p, t.n, "w");
	ck_assert_ptr_nonnull(f = d9p_follow_new(paths, 1));

	poll_once(f, &r);
	ck_assert_str_eq(values(&r, v, sizeof v), "0 10 11");
	ck_assert_str_eq(rec_notes(&r), "");	/* a cut frame is no error */

	/* nothing new: nothing read */
	poll_once(f, &r);
	ck_assert_str_eq(values(&r, v, sizeof v), "0 10 11");

	/* the writer finishes the frame and adds a batch */
	tg_reset(&t);
	tg_u8(&t, 12);
	tg_batch_e(&t, 1, 13);
	put(dir, "trace.1.bin.active", t.p, t.n, "a");
	poll_once(f, &r);
	ck_assert_str_eq(values(&r, v, sizeof v), "0 10 11 12 13");

	/* sealed (renamed), then replaced by a compressed copy */
	snprintf(a, sizeof a, "%s/trace.1.bin.active", dir);
	snprintf(b, sizeof b, "%s/trace.1.bin", dir);
	ck_assert_int_eq(rename(a, b), 0);
	poll_once(f, &r);
	ck_assert_str_eq(values(&r, v, sizeof v), "0 10 11 12 13");
	snprintf(cmd, sizeof cmd, "gzip '%s'", b);
	ck_assert_int_eq(system(cmd), 0);
	poll_once(f, &r);
	ck_assert_str_eq(values(&r, v, sizeof v), "0 10 11 12 13");

	/* a new segment, and a file that is not a trace (noted once) */
	tg_reset(&t);
	tg_batch_e(&t, 1, 20);
	put(dir, "trace.2.bin", t.p, t.n, "w");
	put(dir, "notes.txt", "hello\n", 6, "w");
	for (int i = 0; i < D9P_FOLLOW_QUIET + 1; i++)
		poll_once(f, &r);	/* trace.2.bin settles */
	ck_assert_str_eq(values(&r, v, sizeof v), "0 10 11 12 13 20");
	snprintf(cmd, sizeof cmd, "%s/notes.txt: not a dial9 trace, "
	    "skipped\n", dir);
	ck_assert_str_eq(rec_notes(&r), cmd);
	ck_assert_uint_eq(r.st.events, 6);
	tg_free(&gz);
	tg_free(&t);
	done(&f, &r, dir);
}
END_TEST

/* A compressed segment followed while it is written (gzip, then zstd):
 * the member or frame that ends in the middle of what is there so far
 * stays open, and goes on once the file grew. It was dropped: the rest
 * read as garbage, then "truncated" (fuzz_follow). */
START_TEST(follow_compressed_in_pieces)
{
	char dir[] = "/tmp/d9-follow-XXXXXX", a[PATH_MAX], b[PATH_MAX];
	char v[256];
	const char *paths[] = { dir };
	struct d9p_follow *f;
	struct tg t, c;
	struct rec r;
	size_t half;

	begin(dir, &t, &c, &r);
	tg_batch_e(&t, 3, 10);
	pack(_i, &t, &c);
	half = c.n / 2;
	put(dir, "trace.0.bin.active", c.p, half, "w");
	ck_assert_ptr_nonnull(f = d9p_follow_new(paths, 1));
	poll_once(f, &r);
	put(dir, "trace.0.bin.active", c.p + half, c.n - half, "a");
	snprintf(a, sizeof a, "%s/trace.0.bin.active", dir);
	snprintf(b, sizeof b, "%s/trace.0.bin", dir);
	ck_assert_int_eq(rename(a, b), 0);
	poll_once(f, &r);
	ck_assert_str_eq(values(&r, v, sizeof v), "10 11 12");
	ck_assert_str_eq(rec_notes(&r), "");
	tg_free(&c);
	tg_free(&t);
	done(&f, &r, dir);
}
END_TEST

/* A directory (dir, made) with one segment being written, of one event
 * (value 1), followed as paths: the follower; t and r started. */
static struct d9p_follow *
one_active(char *dir, const char *const *paths, struct tg *t, struct rec *r)
{
	struct d9p_follow *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	tg_init(t);
	rec_init(r);
	tg_batch_e(t, 1, 1);
	put(dir, "trace.0.bin.active", t->p, t->n, "w");
	ck_assert_ptr_nonnull(f = d9p_follow_new(paths, 1));
	return f;
}

/* A segment deleted while it is followed: what was written is kept. */
START_TEST(follow_a_vanished_segment)
{
	char dir[] = "/tmp/d9-follow-XXXXXX", a[PATH_MAX], v[64];
	const char *paths[] = { dir };
	struct d9p_follow *f;
	struct tg t;
	struct rec r;

	f = one_active(dir, paths, &t, &r);
	poll_once(f, &r);
	tg_reset(&t);
	tg_event(&t, 1, 1);
	tg_u8(&t, 2);
	put(dir, "trace.0.bin.active", t.p, t.n, "a");
	snprintf(a, sizeof a, "%s/trace.0.bin.active", dir);
	ck_assert_int_eq(unlink(a), 0);
	poll_once(f, &r);
	ck_assert_str_eq(values(&r, v, sizeof v), "1 2");
	tg_free(&t);
	done(&f, &r, dir);
}
END_TEST

/* A sink's resume call that must not come: its poll is over. */
static void
stale_resume(void *ctx, const char *name)
{
	(void)ctx;
	ck_abort_msg("a poll called the sink of an earlier one (%s)", name);
}

/*
 * Each poll's sink may live on its caller's stack (d9top's does): the
 * segment kept open is read on with the sink of the poll that reads it,
 * not with the memory where an earlier poll's was. (The sink d9top gave
 * was on a stack frame that the next poll laid out otherwise: its
 * resume call read it after its scope, which ASan told.)
 */
START_TEST(follow_with_a_sink_per_poll)
{
	char dir[] = "/tmp/d9-follow-XXXXXX", v[64];
	const char *paths[] = { dir };
	struct d9p_sink *was, *now;
	struct d9p_read_opts o;
	struct d9p_follow *f;
	struct tg t;
	struct rec r;

	f = one_active(dir, paths, &t, &r);
	o = rec_opts(&r);
	ck_assert_ptr_nonnull(was = malloc(sizeof *was));
	ck_assert_ptr_nonnull(now = malloc(sizeof *now));
	*was = rec_sink(&r);
	ck_assert_int_eq(d9p_follow_poll(f, was, &o, &r.st), 0);
	/* the first poll's sink is gone: its memory says something else */
	was->resume = stale_resume;
	tg_reset(&t);
	tg_batch_e(&t, 1, 2);
	put(dir, "trace.0.bin.active", t.p, t.n, "a");
	*now = rec_sink(&r);
	ck_assert_int_eq(d9p_follow_poll(f, now, &o, &r.st), 0);
	ck_assert_str_eq(values(&r, v, sizeof v), "1 2");
	free(was);
	free(now);
	tg_free(&t);
	done(&f, &r, dir);
}
END_TEST

/* The .active file cut back to byte `to` (as libd9rec cuts it after a
 * write error), then `add` appended; the note that tells it. */
static void
cut_and_write(const char *dir, off_t to, const struct tg *add, struct tg *note,
    uint64_t read)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/trace.0.bin.active", dir);
	ck_assert_int_eq(truncate(path, to), 0);
	if (add != NULL)
		put(dir, "trace.0.bin.active", add->p, add->n, "a");
	tg_printf(note, "%s: byte %llu: cut back below the %llu bytes read "
	    "and written again; read on from there\n", path,
	    (unsigned long long)to, (unsigned long long)read);
}

/*
 * A followed segment cut back and written again (issue 31 item 6): the
 * new bytes are read, whether the file is shorter than what was read or
 * grew past it; what was read stays read, nothing is read twice.
 */
START_TEST(follow_a_rewritten_segment)
{
	char dir[] = "/tmp/d9-follow-XXXXXX", v[256], cmd[PATH_MAX + 32];
	const char *paths[] = { dir };
	struct d9p_follow *f;
	struct tg t, add, note;
	size_t cut, read;
	struct rec r;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	tg_init(&t);
	tg_init(&add);
	tg_init(&note);
	rec_init(&r);
	tg_batch_e(&t, 2, 0);
	tg_batch_e(&t, 2, 10);
	cut = t.n;
	tg_batch_e(&t, 1, 20);		/* a batch whose write fails ... */
	tg_event(&t, 1, 1);		/* ... in its second event */
	put(dir, "trace.0.bin.active", t.p, t.n, "w");
	ck_assert_ptr_nonnull(f = d9p_follow_new(paths, 1));
	poll_once(f, &r);
	ck_assert_str_eq(values(&r, v, sizeof v), "0 1 10 11 20");

	/* cut back to the failed batch, a shorter one written there */
	tg_batch_e(&add, 1, 30);
	cut_and_write(dir, (off_t)cut, &add, &note, t.n);
	poll_once(f, &r);
	ck_assert_str_eq(values(&r, v, sizeof v), "0 1 10 11 20 30");
	ck_assert_str_eq(rec_notes(&r), tg_cstr(&note));

	/* cut back there again, and a longer one: past what was read */
	read = cut + add.n;
	tg_reset(&add);
	tg_batch_e(&add, 10, 40);
	cut_and_write(dir, (off_t)cut, &add, &note, read);
	poll_once(f, &r);
	ck_assert_str_eq(values(&r, v, sizeof v), "0 1 10 11 20 30 40 41 42 "
	    "43 44 45 46 47 48 49");
	ck_assert_str_eq(rec_notes(&r), tg_cstr(&note));

	/* cut back, nothing written yet; then a batch, then sealed */
	cut_and_write(dir, (off_t)cut, NULL, &note, cut + add.n);
	poll_once(f, &r);
	ck_assert_str_eq(rec_notes(&r), tg_cstr(&note));
	tg_reset(&add);
	tg_batch_e(&add, 1, 50);
	put(dir, "trace.0.bin.active", add.p, add.n, "a");
	poll_once(f, &r);
	snprintf(cmd, sizeof cmd, "mv %s/trace.0.bin.active %s/trace.0.bin",
	    dir, dir);
	ck_assert_int_eq(system(cmd), 0);
	poll_once(f, &r);
	ck_assert_str_eq(values(&r, v, sizeof v), "0 1 10 11 20 30 40 41 42 "
	    "43 44 45 46 47 48 49 50");
	ck_assert_str_eq(rec_notes(&r), tg_cstr(&note));
	ck_assert_uint_eq(r.cuts + r.damaged, 0);
	tg_free(&note);
	tg_free(&add);
	tg_free(&t);
	done(&f, &r, dir);
}
END_TEST

/*
 * A segment copied in under its final name once following has begun
 * (cp, scp: not a recorder's rename), followed while it is copied: gzip,
 * zstd, raw, loop index _i. Its first write holds only the first byte of
 * its magic, the next half of it: each poll reads on, and it settles
 * once D9P_FOLLOW_QUIET polls found it no bigger. Every event arrives
 * once, and nothing is told lost. It was read once as it was:
 * "truncated", and the rest never read.
 */
START_TEST(follow_a_segment_copied_in)
{
	char dir[] = "/tmp/d9-follow-XXXXXX", v[256];
	const char *paths[] = { dir };
	struct d9p_follow *f;
	struct tg t, c;
	struct rec r;
	size_t half;

	begin(dir, &t, &c, &r);
	tg_batch_e(&t, 1, 0);
	put(dir, "trace.0.bin", t.p, t.n, "w");
	ck_assert_ptr_nonnull(f = d9p_follow_new(paths, 1));
	poll_once(f, &r);
	tg_reset(&t);
	tg_batch_e(&t, 3, 10);
	tg_batch_e(&t, 2, 20);
	pack(_i, &t, &c);
	half = c.n / 2;
	put(dir, "trace.1.bin.gz", c.p, 1, "w");
	poll_once(f, &r);
	ck_assert_str_eq(rec_notes(&r), "");
	for (int i = 0; i < D9P_FOLLOW_QUIET - 1; i++)
		poll_once(f, &r);	/* a pause, shorter than settling */
	put(dir, "trace.1.bin.gz", c.p + 1, half - 1, "a");
	poll_once(f, &r);
	for (int i = 0; i < D9P_FOLLOW_QUIET - 1; i++)
		poll_once(f, &r);
	ck_assert_str_eq(rec_notes(&r), "");
	put(dir, "trace.1.bin.gz", c.p + half, c.n - half, "a");
	for (int i = 0; i < D9P_FOLLOW_QUIET + 1; i++)
		poll_once(f, &r);	/* then no bigger: settled */
	ck_assert_str_eq(values(&r, v, sizeof v), "0 10 11 12 20 21");
	ck_assert_str_eq(rec_notes(&r), "");
	ck_assert_uint_eq(r.st.events, 6);
	/* done: more written to it now is not read */
	put(dir, "trace.1.bin.gz", c.p, c.n, "a");
	poll_once(f, &r);
	ck_assert_uint_eq(r.st.events, 6);
	tg_free(&c);
	tg_free(&t);
	done(&f, &r, dir);
}
END_TEST

/* A segment copied in that stops growing in the middle of a member is
 * told cut once it settles, with what it held before the cut. */
START_TEST(follow_a_copy_that_stops)
{
	char dir[] = "/tmp/d9-follow-XXXXXX", v[256], want[2 * PATH_MAX];
	const char *paths[] = { dir };
	struct d9p_follow *f;
	struct tg t, c;
	struct rec r;

	begin(dir, &t, &c, &r);
	ck_assert_ptr_nonnull(f = d9p_follow_new(paths, 1));
	poll_once(f, &r);
	ck_assert_str_eq(rec_notes(&r), "");	/* empty: waiting */
	tg_batch_e(&t, 2, 10);
	tg_gzip(&c, t.p, t.n);
	put(dir, "trace.0.bin.gz", c.p, c.n - 4, "w");	/* no ISIZE */
	for (int i = 0; i < D9P_FOLLOW_QUIET; i++)
		poll_once(f, &r);
	ck_assert_str_eq(rec_notes(&r), "");
	poll_once(f, &r);
	ck_assert_str_eq(values(&r, v, sizeof v), "10 11");
	snprintf(want, sizeof want, "%s/trace.0.bin.gz: truncated at byte %zu "
	    "(compressed data ends early)\n", dir, t.n);
	ck_assert_str_eq(rec_notes(&r), want);
	tg_free(&c);
	tg_free(&t);
	done(&f, &r, dir);
}
END_TEST

/* A path that is not there is told once, not at every poll. */
START_TEST(follow_a_missing_path)
{
	const char *paths[] = { "/nonexistent/d9-follow" };
	struct d9p_follow *f = d9p_follow_new(paths, 1);
	struct rec r;

	ck_assert_ptr_nonnull(f);
	rec_init(&r);
	for (int i = 0; i < 3; i++)
		poll_once(f, &r);
	ck_assert_str_eq(rec_notes(&r), "/nonexistent/d9-follow: No such file "
	    "or directory\n");
	d9p_follow_free(&f);
	rec_free(&r);
}
END_TEST

/* Following stdin: read to its end at the first poll, after which
 * nothing more can come (the badge says "stdin ended"); with a directory
 * beside it, following goes on. */
START_TEST(follow_stdin_ends)
{
	char dir[] = "/tmp/d9-follow-XXXXXX", v[256];
	const char *one[] = { "-" }, *two[] = { "-", dir };
	struct d9p_follow *f;
	struct tg t, c;
	struct rec r;
	int saved = dup(0);

	begin(dir, &t, &c, &r);
	tg_batch_e(&t, 2, 0);
	for (int k = 0; k < 2; k++) {
		int fd[2];

		ck_assert_int_eq(pipe(fd), 0);
		ck_assert_int_eq(write(fd[1], t.p, t.n), (ssize_t)t.n);
		close(fd[1]);
		ck_assert_int_eq(dup2(fd[0], 0), 0);
		close(fd[0]);
		ck_assert_ptr_nonnull(f = d9p_follow_new(k == 0 ? one : two,
		    k == 0 ? 1 : 2));
		ck_assert_int_eq(d9p_follow_ended(f), 0);
		poll_once(f, &r);
		ck_assert_str_eq(values(&r, v, sizeof v), k == 0 ? "0 1" :
		    "0 1 0 1");
		ck_assert_int_eq(d9p_follow_ended(f), k == 0);
		poll_once(f, &r);
		ck_assert_int_eq(d9p_follow_ended(f), k == 0);
		d9p_follow_free(&f);
	}
	ck_assert_int_eq(dup2(saved, 0), 0);
	close(saved);
	tg_free(&t);
	tg_free(&c);
	done(&f, &r, dir);
}
END_TEST

/* Following a directory of many files that are not traces: the first
 * poll names ten and counts the rest in one note; later polls say
 * nothing of them again. */
START_TEST(follow_many_not_traces)
{
	char dir[] = "/tmp/d9-follow-XXXXXX", name[32];
	const char *paths[] = { dir };
	struct d9p_follow *f;
	struct tg t, c;
	struct rec r;
	size_t lines = 0;

	begin(dir, &t, &c, &r);
	for (int i = 0; i < 12; i++) {
		snprintf(name, sizeof name, "notes-%02d.txt", i);
		put(dir, name, "not a trace\n", 12, "w");
	}
	ck_assert_ptr_nonnull(f = d9p_follow_new(paths, 1));
	poll_once(f, &r);
	poll_once(f, &r);
	for (const char *n = rec_notes(&r); *n; n++)
		lines += *n == '\n';
	ck_assert_uint_eq(lines, 11);
	ck_assert_ptr_nonnull(strstr(rec_notes(&r), "2 more files are not dial9 "
	    "traces, skipped (12 in all)\n"));
	tg_free(&t);
	tg_free(&c);
	done(&f, &r, dir);
}
END_TEST

Suite *
suite_follow(void)
{
	Suite *s = suite_create("follow");
	TCase *tc = tcase_create("follow");

	tcase_add_test(tc, follow_a_live_directory);
	tcase_add_loop_test(tc, follow_compressed_in_pieces, 0, 2);
	tcase_add_test(tc, follow_a_vanished_segment);
	tcase_add_test(tc, follow_with_a_sink_per_poll);
	tcase_add_test(tc, follow_a_rewritten_segment);
	tcase_add_test(tc, follow_a_missing_path);
	tcase_add_test(tc, follow_stdin_ends);
	tcase_add_test(tc, follow_many_not_traces);
	tcase_add_loop_test(tc, follow_a_segment_copied_in, 0, 3);
	tcase_add_test(tc, follow_a_copy_that_stops);
	suite_add_tcase(s, tc);
	return s;
}
