/*
 * test_grow.c: a directory that changes between two runs, through the
 * index (src/store): it grows by one segment, by many, a segment is
 * replaced by another of the same name, one is removed, and a recorder's
 * .active segment is sealed (renamed). After each change --json through
 * the index (written, then read) is byte-identical to --no-cache's, and
 * the directory keeps one entry. Segments are copies of the shared
 * traces made in a temporary directory at test time.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cachefix.h"
#include "run.h"
#include "../settle.h"
#include "../skip.h"

static const char *const traces[] = { "demo-2026-03.bin",
    "block-in-place-2026-05.bin", "demo-2026-06.bin.gz" };

/* dir/segs, made. */
static void
segs_of(const struct fix *f, char *segs, size_t len)
{
	snprintf(segs, len, "%s/segs", f->dir);
	ck_assert_int_eq(mkdir(segs, 0700), 0);
}

/* Segment i of a recording: a copy of a shared trace named as a
 * recorder names its segments. */
static void
add_segment(const char *segs, unsigned i, const char *suffix)
{
	char as[64];

	snprintf(as, sizeof as, "trace.%u.bin%s", i, suffix);
	copy_trace_as(segs, traces[i % 3], as);
}

static void
check_one_entry(const struct fix *f, char *a, char *b)
{
	ck_assert_int_eq(entries(f, NULL, 0), 1);
	free(a);
	free(b);
}

/* A fresh index, and segments 0 and 1 in segs (f's) in it: --json's
 * output. */
static char *
two_indexed(struct fix *f, char *segs, size_t len)
{
	fix_init(f);
	segs_of(f, segs, len);
	add_segment(segs, 0, "");
	add_segment(segs, 1, "");
	return dir_matches(segs, NULL);
}

START_TEST(grows_by_one)
{
	struct fix f;
	char segs[128], *a;

	a = two_indexed(&f, segs, sizeof segs);
	add_segment(segs, 2, "");
	check_one_entry(&f, a, dir_matches(segs, a));
	fix_free(&f);
}
END_TEST

START_TEST(grows_by_many)
{
	struct fix f;
	char segs[128], *a;

	fix_init(&f);
	segs_of(&f, segs, sizeof segs);
	add_segment(segs, 1, "");
	a = dir_matches(segs, NULL);
	for (unsigned i = 2; i < 7; i++)
		add_segment(segs, i, "");
	check_one_entry(&f, a, dir_matches(segs, a));
	fix_free(&f);
}
END_TEST

START_TEST(segment_replaced)
{
	struct fix f;
	char segs[128], *a;

	fix_init(&f);
	segs_of(&f, segs, sizeof segs);
	add_segment(segs, 0, "");
	add_segment(segs, 1, "");
	add_segment(segs, 2, "");
	a = dir_matches(segs, NULL);
	/* trace.1.bin now holds another recording */
	copy_trace_as(segs, traces[0], "trace.1.bin");
	check_one_entry(&f, a, dir_matches(segs, a));
	fix_free(&f);
}
END_TEST

START_TEST(segment_removed)
{
	struct fix f;
	char segs[128], gone[256], *a;

	fix_init(&f);
	segs_of(&f, segs, sizeof segs);
	for (unsigned i = 0; i < 3; i++)
		add_segment(segs, i, "");
	a = dir_matches(segs, NULL);
	snprintf(gone, sizeof gone, "%s/trace.0.bin", segs);
	ck_assert_int_eq(unlink(gone), 0);
	check_one_entry(&f, a, dir_matches(segs, a));
	fix_free(&f);
}
END_TEST

/* A quiet .active segment (a recorder that stopped) is indexed with the
 * rest; sealed (renamed to .bin) and followed by the next, the directory
 * is read again with both. */
START_TEST(active_sealed)
{
	struct fix f;
	char segs[128], active[256], sealed[256], *a;
	struct timespec old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

	fix_init(&f);
	segs_of(&f, segs, sizeof segs);
	add_segment(segs, 0, "");
	add_segment(segs, 1, ".active");
	snprintf(active, sizeof active, "%s/trace.1.bin.active", segs);
	snprintf(sealed, sizeof sealed, "%s/trace.1.bin", segs);
	ck_assert_int_eq(utimensat(AT_FDCWD, active, old, 0), 0);
	a = dir_matches(segs, NULL);
	ck_assert_int_eq(entries(&f, NULL, 0), 1);
	ck_assert_int_eq(rename(active, sealed), 0);
	add_segment(segs, 2, "");
	check_one_entry(&f, a, dir_matches(segs, a));
	fix_free(&f);
}
END_TEST

/*
 * On a terminal, a run that reads everything again because the
 * directory changed since the index's entry says why, before the read;
 * on a pipe and with --quiet it says nothing.
 */
START_TEST(says_why_it_reads_again)
{
	struct fix f;
	static const char why[] = "d9top: 1 new file since the index's "
	    "entry of the 3 others: all are read again\r\n";
	static const char gone[] = "d9top: files removed since the index's "
	    "entry: all are read again\r\n";
	char segs[128], out[160], args[256], path[256], *tty, *a;
	struct run_result r;

	a = two_indexed(&f, segs, sizeof segs);
	add_segment(segs, 2, "");
	ck_assert_int_eq(run_d9top(&r, NULL, "--json %s", segs), 0);
	ck_assert_str_eq(r.err, "");		/* a pipe */
	run_free(&r);
	settle_index(f.idx);
	add_segment(segs, 3, "");
	snprintf(out, sizeof out, "%s/answer", f.dir);
	snprintf(args, sizeof args, "--json %s", segs);
	if ((tty = run_on_terminal("", args, out)) == NULL) {
		t_skip("no script(1) to make a terminal");
		free(a);
		fix_free(&f);
		return;
	}
	ck_assert_msg(strncmp(tty, why, strlen(why)) == 0, "%s", tty);
	free(tty);
	settle_index(f.idx);
	snprintf(path, sizeof path, "%s/trace.0.bin", segs);
	ck_assert_int_eq(unlink(path), 0);
	tty = run_on_terminal("", args, out);
	ck_assert_msg(strncmp(tty, gone, strlen(gone)) == 0, "%s", tty);
	free(tty);
	settle_index(f.idx);
	snprintf(path, sizeof path, "%s/trace.1.bin", segs);
	ck_assert_int_eq(unlink(path), 0);
	snprintf(args, sizeof args, "--quiet --json %s", segs);
	tty = run_on_terminal("", args, out);
	ck_assert_str_eq(tty, "");
	free(tty);
	free(a);
	fix_free(&f);
}
END_TEST

static Suite *
grow_suite(void)
{
	Suite *s = suite_create("cache-grow");
	TCase *tc = tcase_create("grow");

	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, grows_by_one);
	tcase_add_test(tc, grows_by_many);
	tcase_add_test(tc, segment_replaced);
	tcase_add_test(tc, segment_removed);
	tcase_add_test(tc, active_sealed);
	tcase_add_test(tc, says_why_it_reads_again);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(grow_suite(), 1);
}
