/*
 * test_memory.c: d9top on more traces than it may hold in memory
 * (--memory, parse/fit.h). A recording's segments are copies of the
 * shared traces whose names sort against their clocks; with room for
 * two, d9top reads the two whose segments began last, says which file
 * it left out, and answers as it does for those two alone; the read is
 * not indexed. With room for all, or "all", everything is read. One file
 * or stdin is read until the room is nearly full.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cachefix.h"
#include "minijson.h"
#include "parse/fit.h"
#include "run.h"
#include "../skip.h"

/* segs (in f's directory) holds, as a recorder names them: trace.0
 * the demo of June 2026, trace.1 the block-in-place run of May 2026,
 * trace.2 the demo of March 2026 (no clock sync: its file's mtime,
 * set to 2020, tells its age). */
static void
recording(const struct fix *f, char *segs, size_t len)
{
	struct timespec t[2] = { { 1577836800, 0 }, { 1577836800, 0 } };
	char path[256];

	snprintf(segs, len, "%s/segs", f->dir);
	ck_assert_int_eq(mkdir(segs, 0700), 0);
	copy_trace_as(segs, "demo-2026-06.bin.gz", "trace.0.bin.gz");
	copy_trace_as(segs, "block-in-place-2026-05.bin", "trace.1.bin");
	copy_trace_as(segs, "demo-2026-03.bin", "trace.2.bin");
	snprintf(path, sizeof path, "%s/trace.2.bin", segs);
	ck_assert_int_eq(utimensat(AT_FDCWD, path, t, 0), 0);
}

/* What segs/name is guessed to take (fit.h). */
static uint64_t
need_of(const char *segs, const char *name)
{
	char path[256];
	struct stat sb;

	snprintf(path, sizeof path, "%s/%s", segs, name);
	ck_assert_int_eq(stat(path, &sb), 0);
	return d9p_fit_need(path, (uint64_t)sb.st_size);
}

/* What a read of the three takes besides their needs (fit.h). */
static uint64_t
base_of(const char *segs)
{
	struct d9p_fit f[3] = { { need_of(segs, "trace.0.bin.gz"), 0, 0 },
		{ need_of(segs, "trace.1.bin"), 0, 0 },
		{ need_of(segs, "trace.2.bin"), 0, 0 } };

	return d9p_fit_base(f, 3);
}

static struct mj *
json_of(const char *text)
{
	char err[128];
	struct mj *v = mj_parse(text, err, sizeof err);

	ck_assert_msg(v != NULL, "%s", err);
	return v;
}

/* a and b agree on the figures that say what was read. */
static void
same_figures(const char *a, const char *b)
{
	static const char *const keys[] = { "eventCount", "durationMs",
		"traceStartNs", "longPolls", "cpuSamples", "tasksSpawned",
		"sources.0.segments", "sources.1.segments", "sources.2" };
	struct mj *x = json_of(a), *y = json_of(b);

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const struct mj *p = mj_get(x, keys[i]), *q = mj_get(y, keys[i]);

		ck_assert_msg((p == NULL) == (q == NULL), "%s", keys[i]);
		if (p != NULL)
			ck_assert_msg(p->type == q->type && p->num == q->num,
			    "%s: %g vs %g", keys[i], p->num, q->num);
	}
	mj_free(x);
	mj_free(y);
}

START_TEST(reads_the_newest_that_fit)
{
	struct fix f;
	struct run_result r;
	char segs[128], only[160], want[512];
	uint64_t room;
	size_t n;
	char *alone;
	struct mj *v;
	const struct mj *e;

	fix_init(&f);
	recording(&f, segs, sizeof segs);
	room = base_of(segs) + need_of(segs, "trace.0.bin.gz") +
	    need_of(segs, "trace.1.bin");
	ck_assert_int_eq(run_d9top(&r, NULL, "--json --memory %llu %s",
	    (unsigned long long)room, segs), 0);
	/* one message on stderr and in the JSON, naming the file left out */
	snprintf(want, sizeof want, "%s/trace.2.bin: 1 older file not read: "
	    "the newest 2, about ", segs);
	ck_assert_msg(strncmp(r.err, "d9top: ", 7) == 0 &&
	    strncmp(r.err + 7, want, strlen(want)) == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.err, "d9top may use (--memory SIZE, "
	    "or all)\n"));
	ck_assert_ptr_eq(strchr(r.err, '\n') + 1, r.err + r.nerr);
	v = json_of(r.out);
	ck_assert_ptr_nonnull(e = mj_get(v, "errors.0"));
	ck_assert_int_eq(strncmp(e->str, want, strlen(want)), 0);
	ck_assert_ptr_null(mj_get(v, "errors.1"));
	/* counted where every view shows what is missing */
	ck_assert_ptr_nonnull(e = mj_get(v, "loss.unreadFiles"));
	ck_assert_int_eq((int)e->num, 1);
	mj_free(v);
	/* the answer for the two newest alone */
	snprintf(only, sizeof only, "%s/only", f.dir);
	ck_assert_int_eq(mkdir(only, 0700), 0);
	copy_trace_as(only, "demo-2026-06.bin.gz", "trace.0.bin.gz");
	copy_trace_as(only, "block-in-place-2026-05.bin", "trace.1.bin");
	snprintf(want, sizeof want, "--no-cache --json %s", only);
	alone = out_of(want, &n);
	same_figures(r.out, alone);
	free(alone);
	run_free(&r);
	/* not indexed: the next run reads again, and says so again */
	ck_assert_int_eq(entries(&f, NULL, 0), 0);
	ck_assert_int_eq(run_d9top(&r, NULL, "--json --memory %llu %s",
	    (unsigned long long)room, segs), 0);
	ck_assert_ptr_nonnull(strstr(r.err, "1 older file not read"));
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--report --quiet --memory %llu "
	    "%s", (unsigned long long)room, segs), 0);
	ck_assert_msg(strstr(r.out, "1 file left unread for memory") != NULL,
	    "%s", r.out);
	run_free(&r);
	ck_assert_int_eq(entries(&f, NULL, 0), 0);
	fix_free(&f);
}
END_TEST

/* Room for all of them, or "all": every file, no message, indexed. */
START_TEST(room_for_all)
{
	struct fix f;
	struct run_result r;
	char segs[128], args[256];
	size_t n;
	char *nocache;
	uint64_t room;

	fix_init(&f);
	recording(&f, segs, sizeof segs);
	snprintf(args, sizeof args, "--no-cache --json %s", segs);
	nocache = out_of(args, &n);
	room = base_of(segs) + need_of(segs, "trace.0.bin.gz") +
	    need_of(segs, "trace.1.bin") + need_of(segs, "trace.2.bin");
	ck_assert_int_eq(run_d9top(&r, NULL, "--no-cache --json --memory "
	    "%llu %s", (unsigned long long)room, segs), 0);
	ck_assert_str_eq(r.err, "");
	ck_assert_str_eq(r.out, nocache);
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--json --memory all %s", segs),
	    0);
	ck_assert_str_eq(r.err, "");
	ck_assert_str_eq(r.out, nocache);
	run_free(&r);
	ck_assert_int_eq(entries(&f, NULL, 0), 1);
	free(nocache);
	fix_free(&f);
}
END_TEST

/* What cannot be chosen from (one file, stdin) is read until the
 * process holds three quarters of the room: the rest is not read, the
 * message says where reading stopped, and the segment counts as cut. */
START_TEST(reading_stops_when_full)
{
	struct run_result r;
	char *path = trace_path("demo-2026-06.bin.gz");
	struct mj *v;
	const struct mj *e;

	for (size_t i = 0; i < 2; i++) {
		/* the file, then the same bytes on stdin */
		ck_assert_int_eq(run_d9top(&r, i == 0 ? NULL : path,
		    "--no-cache --json --memory 1K %s", i == 0 ? path : "-"),
		    0);
		ck_assert_msg(strstr(r.err, ": byte ") != NULL &&
		    strstr(r.err, "past the 1.0 KiB it may use (--memory SIZE, "
		    "or all): the rest of the input is not read, nor any input "
		    "after it\n") != NULL, "%s", r.err);
		ck_assert_int_eq(strncmp(r.err + 7, i == 0 ? path : "stdin",
		    strlen(i == 0 ? path : "stdin")), 0);
		v = json_of(r.out);
		ck_assert_ptr_nonnull(e = mj_get(v,
		    "loss.incompleteSegments"));
		ck_assert_int_eq((int)e->num, 1);
		ck_assert_ptr_nonnull(e = mj_get(v, "loss.unreadFiles"));
		ck_assert_int_eq((int)e->num, 0);	/* cut, not left */
		ck_assert_ptr_nonnull(e = mj_get(v, "eventCount"));
		ck_assert(e->num > 0 && e->num < 294465);	/* of all */
		mj_free(v);
		run_free(&r);
	}
	free(path);
}
END_TEST

START_TEST(bad_sizes)
{
	static const char *const bad[] = { "0", "12Q", "-1", "lots", "1.G",
		"0.1" };
	struct run_result r;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(run_d9top(&r, NULL, "--json --memory %s x",
		    bad[i]), 2);
		ck_assert_ptr_nonnull(strstr(r.err, "--memory wants a size"));
		run_free(&r);
	}
}
END_TEST

static Suite *
memory_suite(void)
{
	Suite *s = suite_create("memory");
	TCase *tc = tcase_create("memory");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, reads_the_newest_that_fit);
	tcase_add_test(tc, room_for_all);
	tcase_add_test(tc, reading_stops_when_full);
	tcase_add_test(tc, bad_sizes);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(memory_suite(), 1);
}
