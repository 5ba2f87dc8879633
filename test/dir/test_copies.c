/*
 * test_copies.c: d9shift's copies of demo-2026-06 (the directory
 * benchmark's input) read as the benchmark needs them. A copy moved by
 * 0 reads exactly as the trace; a copy moved by D differs only in its
 * absolute times, each moved by D (the wall clock too); three copies
 * moved by 0, D and 2D (D: the trace's time range rounded up to a ms)
 * read as one source of three segments, three times the polls and
 * events, 2D plus the trace's duration long, no duplicate, no error.
 * Bad inputs are refused with the byte and what went wrong, and leave
 * no output file.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "minijson.h"
#include "run.h"
#include "../settle.h"

#define MS	1000000ull

struct tmp {
	char	 dir[32];
};

static const char *
shift_bin(void)
{
	const char *b = getenv("D9SHIFT");

	ck_assert_msg(b != NULL, "D9SHIFT unset");
	return b;
}

/* A scratch directory; d9top's cache (if any) goes inside it. */
static void
tmp_make(struct tmp *t)
{
	char cache[64];

	strcpy(t->dir, "/tmp/d9dir-XXXXXX");
	ck_assert(mkdtemp(t->dir) != NULL);
	snprintf(cache, sizeof cache, "%s/cache", t->dir);
	setenv("XDG_CACHE_HOME", cache, 1);
}

static void
tmp_remove(struct tmp *t)
{
	char cmd[64];

	/* a detached writer may still be making an index entry there */
	snprintf(cmd, sizeof cmd, "%s/cache/d9top", t->dir);
	settle_index(cmd);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
	ck_assert(system(cmd) == 0);
}

/* d9shift IN OUT SHIFT, which must succeed. */
static void
shift(const char *in, const char *out, uint64_t ns)
{
	struct run_result r;

	run_prog(&r, shift_bin(), "'%s' '%s' %" PRIu64, in, out, ns);
	ck_assert_msg(r.status == 0, "d9shift %s: %s", out, r.err);
	ck_assert_uint_eq(r.nerr, 0);
	run_free(&r);
}

/* The first and last event times d9shift --range prints, and how many
 * events of every kind it counts. */
static void
range(const char *in, uint64_t *first, uint64_t *last, uint64_t *events)
{
	struct run_result r;

	run_prog(&r, shift_bin(), "--range '%s'", in);
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(sscanf(r.out, "%" SCNu64 " %" SCNu64 " %" SCNu64,
	    first, last, events), 3);
	ck_assert(*first < *last);
	run_free(&r);
}

/* `d9top --json --quiet path`, which must succeed. */
static char *
json_text(const char *path)
{
	struct run_result r;
	char *out;

	run_d9top(&r, NULL, "--json --quiet '%s'", path);
	ck_assert_msg(r.status == 0, "d9top %s: %s", path, r.err);
	out = r.out;
	r.out = NULL;
	run_free(&r);
	return out;
}

static struct mj *
json_of(const char *path)
{
	char err[128], *text = json_text(path);
	struct mj *v = mj_parse(text, err, sizeof err);

	ck_assert_msg(v != NULL, "bad JSON: %s", err);
	free(text);
	return v;
}

static double
num(const struct mj *v, const char *path)
{
	const struct mj *x = mj_get(v, path);

	ck_assert_msg(x != NULL && x->type == MJ_NUM, "no number %s", path);
	return x->num;
}

START_TEST(test_shift_zero_is_the_trace)
{
	struct tmp t;
	char out[64], *demo = trace_path("demo-2026-06.bin.gz"), *a, *b;

	tmp_make(&t);
	snprintf(out, sizeof out, "%s/zero.bin.gz", t.dir);
	shift(demo, out, 0);
	a = json_text(demo);
	b = json_text(out);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	free(demo);
	tmp_remove(&t);
}
END_TEST

/* The value of a line `"KEY": N,` when KEY is an absolute time. */
static int
time_line(const char *line, size_t len, uint64_t *v)
{
	static const char *const keys[] = { "\"startNs\": ", "\"endNs\": ",
	    "\"wallClockStartNs\": " };

	while (len > 0 && *line == ' ') {
		line++;
		len--;
	}
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		size_t k = strlen(keys[i]);

		if (len > k && strncmp(line, keys[i], k) == 0)
			return sscanf(line + k, "%" SCNu64, v) == 1 ? 0 : -1;
	}
	return -1;
}

START_TEST(test_shift_moves_only_times)
{
	const uint64_t d = 4178 * MS;
	struct tmp t;
	char out[64], *demo = trace_path("demo-2026-06.bin.gz"), *a, *b;
	const char *pa, *pb;
	uint64_t f0, l0, n0, f1, l1, n1;
	struct mj *v;
	int moved = 0, wall = 0;

	tmp_make(&t);
	snprintf(out, sizeof out, "%s/moved.bin.gz", t.dir);
	shift(demo, out, d);
	range(demo, &f0, &l0, &n0);
	range(out, &f1, &l1, &n1);
	ck_assert_uint_eq(f1, f0 + d);
	ck_assert_uint_eq(l1, l0 + d);
	/* the same events, more of them than the runtime events alone */
	ck_assert_uint_eq(n1, n0);
	v = json_of(demo);
	ck_assert_uint_gt(n0, (uint64_t)num(v, "eventCount") +
	    2 * (uint64_t)num(v, "spans.record_metric.count"));
	mj_free(v);
	a = json_text(demo);
	b = json_text(out);
	/* line by line: equal, or both an absolute time moved by d */
	for (pa = a, pb = b; *pa != '\0' && *pb != '\0'; ) {
		size_t na = strcspn(pa, "\n"), nb = strcspn(pb, "\n");
		uint64_t va, vb;

		if (na != nb || strncmp(pa, pb, na) != 0) {
			ck_assert_msg(time_line(pa, na, &va) == 0 &&
			    time_line(pb, nb, &vb) == 0,
			    "not a time: %.*s / %.*s", (int)na, pa, (int)nb,
			    pb);
			ck_assert_uint_eq(vb, va + d);
			moved++;
			wall += strstr(pa, "wallClockStartNs") != NULL &&
			    strstr(pa, "wallClockStartNs") < pa + na;
		}
		pa += na + (pa[na] != '\0');
		pb += nb + (pb[nb] != '\0');
	}
	ck_assert(*pa == '\0' && *pb == '\0');
	ck_assert_int_gt(moved, 100);
	ck_assert_int_eq(wall, 1);
	free(a);
	free(b);
	free(demo);
	tmp_remove(&t);
}
END_TEST

/* t's host/ folder holding demo moved by 0, D and 2D (D: demo's time
 * range rounded up to a ms), as trace.K.bin.gz; its path in dir; D. */
static uint64_t
three_copies(const struct tmp *t, const char *demo, char *dir, size_t cap)
{
	char out[96];
	uint64_t first, last, n, d;

	range(demo, &first, &last, &n);
	d = (last - first + MS - 1) / MS * MS;
	snprintf(dir, cap, "%s/host", t->dir);
	ck_assert(mkdir(dir, 0755) == 0);
	for (int k = 0; k < 3; k++) {
		snprintf(out, sizeof out, "%s/trace.%d.bin.gz", dir, k);
		shift(demo, out, (uint64_t)k * d);
	}
	return d;
}

START_TEST(test_three_copies_one_source)
{
	struct tmp t;
	char dir[64], *demo = trace_path("demo-2026-06.bin.gz");
	struct mj *one, *all;
	uint64_t d;
	const struct mj *src;

	tmp_make(&t);
	d = three_copies(&t, demo, dir, sizeof dir);
	one = json_of(demo);
	all = json_of(dir);
	ck_assert_double_eq(num(all, "polls.0"), 3 * num(one, "polls.0"));
	ck_assert_double_eq(num(all, "polls.1"), 3 * num(one, "polls.1"));
	ck_assert_double_eq(num(all, "eventCount"), 3 * num(one, "eventCount"));
	ck_assert_double_eq_tol(num(all, "durationMs"),
	    (double)(2 * d) / MS + num(one, "durationMs"), 1e-3);
	ck_assert(num(all, "durationMs") <= (double)(3 * d) / MS);
	src = mj_get(all, "sources");
	ck_assert(src != NULL && src->type == MJ_ARR);
	ck_assert_uint_eq(src->n, 1);
	ck_assert_double_eq(num(all, "sources.0.segments"), 3);
	ck_assert_double_eq(num(all, "sources.0.polls"),
	    3 * num(one, "sources.0.polls"));
	ck_assert_double_eq(num(all, "loss.duplicateSegments"), 0);
	ck_assert_uint_eq(mj_get(all, "errors")->n, 0);
	mj_free(one);
	mj_free(all);
	free(demo);
	tmp_remove(&t);
}
END_TEST

/* The same segments in another order on stdin (`cat` of the copies
 * last first) give the directory's answer byte for byte: the copies
 * share task ids, and a task's spawn and end were the last ones read. */
START_TEST(test_any_order_same_answer)
{
	struct tmp t;
	char dir[64], rev[96], cmd[512];
	char *demo = trace_path("demo-2026-06.bin.gz"), *want;
	struct run_result r;

	tmp_make(&t);
	three_copies(&t, demo, dir, sizeof dir);
	snprintf(rev, sizeof rev, "%s/rev.bin.gz", t.dir);
	snprintf(cmd, sizeof cmd, "cat '%s/trace.2.bin.gz' '%s/trace.1.bin.gz'"
	    " '%s/trace.0.bin.gz' > '%s'", dir, dir, dir, rev);
	ck_assert(system(cmd) == 0);
	want = json_text(dir);
	run_d9top(&r, rev, "--json --quiet -");
	ck_assert_msg(r.status == 0, "d9top -: %s", r.err);
	ck_assert_msg(strcmp(r.out, want) == 0,
	    "stdin, last copy first, differs from the directory");
	ck_assert(strstr(want, "\"idleNs\": ") != NULL);
	run_free(&r);
	free(want);
	free(demo);
	tmp_remove(&t);
}
END_TEST

START_TEST(test_bad_inputs)
{
	struct tmp t;
	char junk[64], cut[64], out[64], bad[64];
	char *raw = trace_path("demo-2026-03.bin");
	struct run_result r;
	FILE *f, *in;
	char buf[100003];
	size_t n;

	tmp_make(&t);
	snprintf(junk, sizeof junk, "%s/junk", t.dir);
	snprintf(cut, sizeof cut, "%s/cut.bin", t.dir);
	snprintf(out, sizeof out, "%s/out.bin.gz", t.dir);
	snprintf(bad, sizeof bad, "%s/\x1b[2J", t.dir);
	ck_assert((f = fopen(junk, "w")) != NULL);
	fputs("hello, not a trace\n", f);
	fclose(f);
	/* a raw trace cut mid-frame */
	ck_assert((in = fopen(raw, "rb")) != NULL);
	n = fread(buf, 1, sizeof buf, in);
	fclose(in);
	ck_assert_uint_eq(n, sizeof buf);
	ck_assert((f = fopen(cut, "wb")) != NULL);
	ck_assert_uint_eq(fwrite(buf, 1, n, f), n);
	fclose(f);

	run_prog(&r, shift_bin(), "'%s' '%s' 5", junk, out);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "junk: byte 0: not a dial9 trace") != NULL,
	    "%s", r.err);
	run_free(&r);
	run_prog(&r, shift_bin(), "'%s' '%s' 5", cut, out);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "cut.bin: byte ") != NULL &&
	    strstr(r.err, "frame cut off") != NULL, "%s", r.err);
	run_free(&r);
	ck_assert(access(out, F_OK) != 0);
	/* a name with a control sequence is shown escaped */
	run_prog(&r, shift_bin(), "'%s' '%s' 5", bad, out);
	ck_assert_int_eq(r.status, 1);
	ck_assert(strchr(r.err, '\x1b') == NULL);
	ck_assert_msg(strstr(r.err, "\\x1b[2J") != NULL, "%s", r.err);
	run_free(&r);
	run_prog(&r, shift_bin(), "'%s' '%s' 5x", raw, out);
	ck_assert_int_eq(r.status, 2);
	run_free(&r);
	ck_assert(access(out, F_OK) != 0);
	free(raw);
	tmp_remove(&t);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("dir");
	TCase *tc = tcase_create("copies");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_shift_zero_is_the_trace);
	tcase_add_test(tc, test_shift_moves_only_times);
	tcase_add_test(tc, test_three_copies_one_source);
	tcase_add_test(tc, test_any_order_same_answer);
	tcase_add_test(tc, test_bad_inputs);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(suite(), 1);
}
