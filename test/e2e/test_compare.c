/*
 * test_compare.c: --diff, --check and --chrome of the d9top program on
 * the two runs of test/fixtures/diffpair.h, written at test time: the
 * regressed spawn location and the function that got hot rank first in
 * the text and in the JSON, also against the base run's --json output
 * (told by its content: the file has no .json name); --check passes on
 * the base run and fails with status 3 on the new one, a relative rule
 * against the base run's JSON passes on the base and fails on the new,
 * a malformed rule is status 2 and named; --chrome has one complete
 * event per poll, its spans and wakes, and only the window's with
 * --window, and passes test/e2e/chrome_check.py (Python's json module
 * and the Trace Event Format's rules). A large --json side is read in a
 * small multiple of its size: under a 512 MiB address space it works or
 * fails with a message naming the file and byte, never killed.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "diffpair.h"
#include "minijson.h"
#include "run.h"
#include "../skip.h"

static char dir[] = "/tmp/d9cmp-XXXXXX";
static char base[64], new[64], both[64], basejson[64];

static void
write_run(int mode, const char *path)
{
	struct mt t;
	FILE *f;

	mt_diffpair(&t, mode);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(t.tg.p, 1, t.tg.n, f), t.tg.n);
	ck_assert_int_eq(fclose(f), 0);
	tg_free(&t.tg);
}

static void
setup(void)
{
	struct run_result r;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(base, sizeof base, "%s/base.bin", dir);
	snprintf(new, sizeof new, "%s/new.bin", dir);
	snprintf(both, sizeof both, "%s/both.bin", dir);
	snprintf(basejson, sizeof basejson, "%s/base-figures", dir);
	write_run(DP_BASE, base);
	write_run(DP_NEW, new);
	write_run(DP_BOTH, both);
	ck_assert_int_eq(run_d9top(&r, NULL, "--json %s", base), 0);
	f = fopen(basejson, "w");
	ck_assert_ptr_nonnull(f);
	fputs(r.out, f);
	fclose(f);
	run_free(&r);
}

static void
teardown(void)
{
	unlink(base);
	unlink(new);
	unlink(both);
	unlink(basejson);
	rmdir(dir);
}

static struct mj *
json_of(const struct run_result *r)
{
	char err[128];
	struct mj *v = mj_parse(r->out, err, sizeof err);

	ck_assert_msg(v != NULL, "bad JSON: %s", err);
	return v;
}

/* The first data line after the section title that starts with s. */
static const char *
first_row(const char *out, const char *title)
{
	const char *p = strstr(out, title);

	ck_assert_msg(p != NULL, "no section %s in:\n%s", title, out);
	for (int skip = 3; skip > 0 && p != NULL; skip--)
		p = strchr(p, '\n') + 1;	/* title, dashes, header */
	return p;
}

static void
assert_row(const char *out, const char *title, const char *want)
{
	const char *row = first_row(out, title);
	const char *nl = strchr(row, '\n');

	ck_assert_msg(nl != NULL && memmem(row, (size_t)(nl - row), want,
	    strlen(want)) != NULL, "first row of %s is not %s:\n%s", title, want,
	    out);
}

static void
assert_text_ranks(const char *out)
{
	assert_row(out, "POLL DURATION BY SPAWN LOCATION", DP_API);
	assert_row(out, "POLL DURATION BY SPAWN LOCATION", "+4.90ms");
	assert_row(out, "CPU: LEAF FRAMES", DP_HOT);
	assert_row(out, "CPU: LEAF FRAMES", "+60.0%   10.0%   70.0%");
	assert_row(out, "MEMORY: SITES", "svc::cache::fill");
	assert_row(out, "SPANS BY P99 CHANGE", "request");
	ck_assert_ptr_nonnull(strstr(out, "Long polls (>1ms): 0 -> 20 (+20)"));
}

START_TEST(diff_text)
{
	struct run_result r;

	ck_assert_int_eq(run_d9top(&r, NULL, "--diff %s %s", base, new), 0);
	assert_text_ranks(r.out);
	run_free(&r);
	/* the base run as its --json output: the same ranking */
	ck_assert_int_eq(run_d9top(&r, NULL, "--diff %s %s", basejson, new), 0);
	assert_text_ranks(r.out);
	run_free(&r);
	/* both runs in one trace: a window of each side */
	ck_assert_int_eq(run_d9top(&r, NULL, "--diff %s@0..%d %s@%d..", both,
	    DP_SPLIT_MS - 2, both, DP_SPLIT_MS - 2), 0);
	assert_text_ranks(r.out);
	run_free(&r);
	/* --window applies to both: the first 5 slots of each */
	ck_assert_int_eq(run_d9top(&r, NULL, "--window 0..50 --diff %s %s",
	    base, new), 0);
	ck_assert_ptr_nonnull(strstr(r.out, "Long polls (>1ms): 0 -> 5 (+5)"));
	ck_assert_ptr_nonnull(strstr(r.out, "(window 0..50 ms)"));
	run_free(&r);
}
END_TEST

static void
assert_json_ranks(const struct run_result *r)
{
	struct mj *v = json_of(r);
	const struct mj *d = mj_get(v, "diff");

	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(mj_get(d, "pollByLoc.0.location")->str, DP_API);
	ck_assert(mj_get(d, "pollByLoc.0.old.p99")->num == DP_API_OLD_NS);
	ck_assert(mj_get(d, "pollByLoc.0.new.p99")->num == DP_API_NEW_NS);
	ck_assert(mj_get(d, "pollByLoc.1.old.p99")->num ==
	    mj_get(d, "pollByLoc.1.new.p99")->num);
	ck_assert(mj_get(d, "longPolls.old")->num == 0);
	ck_assert(mj_get(d, "longPolls.new")->num == DP_POLLS);
	ck_assert_ptr_nonnull(mj_get(d, "schedDelay.old.p99"));
	ck_assert_str_eq(mj_get(d, "cpu.0.frame")->str, DP_HOT);
	ck_assert(mj_get(d, "cpu.0.oldShare")->num < 0.11);
	ck_assert(mj_get(d, "cpu.0.newShare")->num > 0.69);
	ck_assert_str_eq(mj_get(d, "offCpu.0.frame")->str, "read");
	ck_assert_str_eq(mj_get(d, "memory.0.site")->str, "svc::cache::fill");
	ck_assert_str_eq(mj_get(d, "memory.0.frames.0")->str,
	    "svc::cache::fill");
	ck_assert(mj_get(d, "memory.0.newBytes")->num >
	    9 * mj_get(d, "memory.0.oldBytes")->num);
	ck_assert_str_eq(mj_get(d, "spans.0.name")->str, "request");
	mj_free(v);
}

START_TEST(diff_json)
{
	struct run_result r;

	ck_assert_int_eq(run_d9top(&r, NULL, "--diff %s %s --json", base, new),
	    0);
	assert_json_ranks(&r);
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--json --diff %s %s", basejson,
	    new), 0);
	assert_json_ranks(&r);
	run_free(&r);
}
END_TEST

/* Windows of unequal length (50 and 150 ms of the regressed run, a
 * 5 ms long poll every 10 ms): both durations said, long polls and
 * sites per second beside their counts, the same rate on both sides. */
START_TEST(diff_unequal)
{
	struct run_result r;
	struct mj *v;
	const struct mj *d;
	double o, n;

	ck_assert_int_eq(run_d9top(&r, NULL, "--diff %s@0..50 %s@50..200",
	    new, new), 0);
	ck_assert_msg(strstr(r.out, "Duration: ") != NULL &&
	    strstr(r.out, " (unequal: counts come with rates per second") !=
	    NULL, "no durations:\n%s", r.out);
	ck_assert_msg(strstr(r.out, "Long polls (>1ms): 5 -> 15 (+10), ") !=
	    NULL, "no long poll rates:\n%s", r.out);
	ck_assert_ptr_nonnull(strstr(r.out, "MEMORY: SITES BY CHANGE IN "
	    "ESTIMATED BYTES PER SECOND"));
	ck_assert_ptr_nonnull(strstr(r.out, "change/s       old     old/s"));
	run_free(&r);
	/* a file's window that is none: said, not read as a file name */
	ck_assert_int_eq(run_d9top(&r, NULL, "--diff %s@50..0 %s", new, new),
	    2);
	ck_assert_ptr_nonnull(strstr(r.err, "@50..0: after '@', a window "
	    "A..B in milliseconds"));
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--json --diff %s@0..50 "
	    "%s@50..200", new, new), 0);
	v = json_of(&r);
	ck_assert_ptr_nonnull(d = mj_get(v, "diff"));
	o = mj_get(d, "durationMs.old")->num;
	n = mj_get(d, "durationMs.new")->num;
	ck_assert_msg(o > 40 && o < 55 && n > 140 && n < 155,
	    "durations %g and %g ms", o, n);
	ck_assert(mj_get(d, "unequal")->num == 1);
	o = mj_get(d, "longPolls.oldPerSec")->num;
	n = mj_get(d, "longPolls.newPerSec")->num;
	ck_assert_msg(o > 0.8 * n && o < 1.25 * n, "long polls %g/s and "
	    "%g/s: not the same rate", o, n);
	ck_assert_ptr_nonnull(mj_get(d, "memory.0.oldBytesPerSec"));
	ck_assert_ptr_nonnull(mj_get(d, "pollByLoc.0.newPerSec"));
	mj_free(v);
	run_free(&r);
	/* equal runs say no more than before */
	ck_assert_int_eq(run_d9top(&r, NULL, "--diff %s %s", base, new), 0);
	ck_assert_ptr_null(strstr(r.out, "(unequal"));
	run_free(&r);
}
END_TEST

START_TEST(diff_usage)
{
	struct run_result r;

	ck_assert_int_eq(run_d9top(&r, NULL, "--diff %s", base), 2);
	ck_assert_ptr_nonnull(strstr(r.err, "--diff wants OLD NEW"));
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--diff %s@0..5 %s", basejson,
	    new), 0);
	ck_assert_ptr_nonnull(strstr(r.err, "is a --json output"));
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--diff %s/none %s", dir, new), 1);
	run_free(&r);
	/* a full disk: said with its reason, status 1 (not a rule's 3) */
	ck_assert_int_eq(run_prog(&r, "sh", "-c '\"$D9TOP\" --diff %s %s > "
	    "/dev/full'", base, new), 1);
	ck_assert_str_eq(r.err, "d9top: standard output: No space left on "
	    "device\n");
	run_free(&r);
	ck_assert_msg(run_prog(&r, "sh", "-c '\"$D9TOP\" --check "
	    "\"longPolls<=1\" %s > /dev/full'", new) == 1, "%s", r.err);
	ck_assert_str_eq(r.err, "d9top: standard output: No space left on "
	    "device\n");
	run_free(&r);
}
END_TEST

#define RULES	"'longPolls<=0, pollByLoc[" DP_API "].p99 < 1ms, " \
		"schedDelay.p99<=1ms'"

START_TEST(check_gates)
{
	struct run_result r;

	ck_assert_int_eq(run_d9top(&r, NULL, "--check " RULES " %s", base), 0);
	ck_assert_str_eq(r.out, "PASS longPolls<=0: actual 0\n"
	    "PASS pollByLoc[" DP_API "].p99 < 1ms: actual 0.1ms\n"
	    "PASS schedDelay.p99<=1ms: actual 0.02ms\n");
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--check " RULES " %s", new), 3);
	ck_assert_str_eq(r.out, "FAIL longPolls<=0: actual 20\n"
	    "FAIL pollByLoc[" DP_API "].p99 < 1ms: actual 5ms\n"
	    "PASS schedDelay.p99<=1ms: actual 0.02ms\n");
	run_free(&r);
	/* a --json output is checked as it is */
	ck_assert_int_eq(run_d9top(&r, NULL, "--check " RULES " %s", basejson),
	    0);
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--check 'longPolls<3 apples' %s",
	    base), 2);
	ck_assert_ptr_nonnull(strstr(r.err, "rule 'longPolls<3 apples'"));
	ck_assert_str_eq(r.out, "");
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--check 'longPoll<3' %s", base),
	    2);
	ck_assert_ptr_nonnull(strstr(r.err, "no key 'longPoll'"));
	run_free(&r);
	/* a count is not compared to a time */
	ck_assert_int_eq(run_d9top(&r, NULL, "--check 'longPolls<1ms' %s",
	    base), 2);
	ck_assert_ptr_nonnull(strstr(r.err, "--check rule 'longPolls<1ms': "
	    "longPolls is a count or a ratio: give no unit, not ms"));
	ck_assert_str_eq(r.out, "");
	run_free(&r);
}
END_TEST

START_TEST(check_against_baseline)
{
	const char *rule = "'pollByLoc[" DP_API "].p99<=+10%,longPolls<=+0'";
	struct run_result r;

	ck_assert_int_eq(run_d9top(&r, NULL, "--check %s --baseline %s %s",
	    rule, basejson, base), 0);
	ck_assert_ptr_nonnull(strstr(r.out, "PASS pollByLoc[" DP_API
	    "].p99<=+10%: actual 100.0us, baseline 100.0us, limit 110.0us"));
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--check %s --baseline %s %s",
	    rule, basejson, new), 3);
	ck_assert_ptr_nonnull(strstr(r.out, "FAIL pollByLoc[" DP_API
	    "].p99<=+10%: actual 5.00ms, baseline 100.0us, limit 110.0us"));
	ck_assert_ptr_nonnull(strstr(r.out, "FAIL longPolls<=+0: actual 20"));
	run_free(&r);
	/* a change without a baseline; a baseline that is a trace */
	ck_assert_int_eq(run_d9top(&r, NULL, "--check %s %s", rule, new), 2);
	ck_assert_ptr_nonnull(strstr(r.err, "needs --baseline"));
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--check %s --baseline %s %s",
	    rule, base, new), 1);
	ck_assert_ptr_nonnull(strstr(r.err, "not a --json output"));
	run_free(&r);
	/* one that is not there; JSON that is not d9top's: said, exit 1 */
	ck_assert_int_eq(run_d9top(&r, NULL, "--check %s --baseline "
	    "/nonexistent/base.json %s", rule, new), 1);
	ck_assert_str_eq(r.err, "d9top: --baseline /nonexistent/base.json: "
	    "No such file or directory\n");
	run_free(&r);
	{
		char other[] = "/tmp/d9e2e-other-XXXXXX";
		int fd = mkstemp(other);

		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(write(fd, "{\"longPolls\": 1}", 16), 16);
		close(fd);
		ck_assert_int_eq(run_d9top(&r, NULL, "--check %s --baseline "
		    "%s %s", rule, other, new), 1);
		ck_assert_ptr_nonnull(strstr(r.err, "JSON without pollByLoc: "
		    "not a --json output of d9top"));
		ck_assert_str_eq(r.out, "");
		run_free(&r);
		unlink(other);
	}
}
END_TEST

/* A JSON side at path: a --json output's pollByLoc with nlocs spawn
 * locations (about 100 bytes each), then an array of nzeros zeros (two
 * bytes a value: the densest a document gets). */
static void
write_big_json(const char *path, size_t nlocs, size_t nzeros)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs("{\"longPolls\": 3, \"pollByLoc\": {", f);
	for (size_t i = 0; i < nlocs; i++)
		fprintf(f, "%s\"src/some/path/module_%06zu.rs:%zu:%zu\": "
		    "{\"count\": %zu, \"p50\": %zu, \"p99\": %zu, \"max\": "
		    "%zu}", i ? ", " : "", i, i % 900, i % 77, i % 50 + 1,
		    1000 + i, 200000 + i, 3000000 + i);
	fputs("}, \"x\": [", f);
	for (size_t i = 0; i < nzeros; i++)
		fputs(i ? ",0" : "0", f);
	fputs("]}", f);
	ck_assert_int_eq(fclose(f), 0);
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN	1	/* its shadow memory needs terabytes */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN	1
#endif
#endif

/* d9top ARGS PATH (ARGS PATH PATH for --diff) with its address space
 * capped at 512 MiB: the soft limit of this test's process, which Check
 * forked, and d9top inherits it. */
static int
run_capped(struct run_result *r, const char *args, const char *path)
{
	int diff = strcmp(args, "--diff") == 0;
	struct rlimit old, cap;
	int st;

	ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
	cap = old;
#ifndef UNDER_ASAN
	if (cap.rlim_max == RLIM_INFINITY || cap.rlim_max > (512ul << 20))
		cap.rlim_cur = 512ul << 20;
#endif
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &cap), 0);
	st = run_d9top(r, NULL, "%s %s %s", args, path, diff ? path : "");
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
	ck_assert_msg(st != -1, "d9top %s %s was killed: %s", args, path,
	    r->err);
	return st;
}

/* A --json side holds any number: counts and times past what a signed
 * difference holds give the largest change, with its sign, not a
 * wrapped one (a 1e19 count read as 2^63, its change as +8.4e18). */
START_TEST(json_side_extreme_values)
{
	struct run_result r;
	char path[96], line[160];
	FILE *f;

	snprintf(path, sizeof path, "%s/extreme-figures", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("{\"longPolls\": 1e19, \"durationMs\": 1000, \"pollByLoc\": "
	    "{\"a.rs:1:1\": {\"count\": 1, \"p50\": 1, \"p99\": 1.7e19, "
	    "\"max\": 1e300}, \"b.rs:2:2\": {\"count\": 1, \"p50\": 0, "
	    "\"p99\": 0, \"max\": 0}}}", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(run_d9top(&r, NULL, "--diff %s %s", path, path), 0);
	ck_assert_ptr_nonnull(strstr(r.out, "Long polls (>1ms): "
	    "10000000000000000000 -> 10000000000000000000 (+0)"));
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--diff %s %s", path, basejson),
	    0);
	snprintf(line, sizeof line, "Long polls (>1ms): 10000000000000000000 "
	    "-> ");
	ck_assert_ptr_nonnull(strstr(r.out, line));
	ck_assert_ptr_nonnull(strstr(r.out, " (-9223372036854775807)"));
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--diff %s %s", basejson, path),
	    0);
	ck_assert_ptr_nonnull(strstr(r.out, " -> 10000000000000000000 "
	    "(+9223372036854775807)"));
	run_free(&r);
	unlink(path);
}
END_TEST

START_TEST(json_side_bounded)
{
	struct run_result r;
	char path[96];
	int fd;

	snprintf(path, sizeof path, "%s/big-figures", dir);
	/* 40 MB, 400,000 locations: works */
	write_big_json(path, 400000, 0);
	ck_assert_int_eq(run_capped(&r, "--check 'longPolls<4'", path), 0);
	ck_assert_str_eq(r.out, "PASS longPolls<4: actual 3\n");
	run_free(&r);
	/* 14 MB of 7 million zeros: works (took 780 MB before) */
	write_big_json(path, 1, 7000000);
	ck_assert_int_eq(run_capped(&r, "--check 'longPolls<4'", path), 0);
	ck_assert_str_eq(r.out, "PASS longPolls<4: actual 3\n");
	run_free(&r);
	ck_assert_int_eq(run_capped(&r, "--diff", path), 0);
	ck_assert_ptr_nonnull(strstr(r.out, "module_000000.rs:0:0"));
	run_free(&r);
	/* 40 MB of zeros: more values than a --json output has */
	write_big_json(path, 0, 20000000);
	ck_assert_int_eq(run_capped(&r, "--check 'longPolls<4'", path), 1);
	ck_assert_str_eq(r.out, "");
	ck_assert_msg(strstr(r.err, ": byte 16777248: JSON: more than 8388608 "
	    "values") != NULL, "%s", r.err);
	run_free(&r);
	/* over 64 MiB: not read at all */
	fd = open(path, O_WRONLY | O_TRUNC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "{", 1), 1);
	ck_assert_int_eq(ftruncate(fd, 65l << 20), 0);
	close(fd);
	ck_assert_int_eq(run_capped(&r, "--check 'longPolls<4'", path), 1);
	ck_assert_msg(strstr(r.err, "big-figures: byte 67108864: JSON: larger "
	    "than 64 MiB, not read") != NULL, "%s", r.err);
	run_free(&r);
	unlink(path);
}
END_TEST

/* Events of d with this ph and cat (NULL: any). */
static size_t
events(const struct mj *d, const char *ph, const char *cat)
{
	const struct mj *ev = mj_get(d, "traceEvents");
	size_t n = 0;

	ck_assert_ptr_nonnull(ev);
	for (size_t i = 0; i < ev->n; i++) {
		const struct mj *p = mj_member(&ev->kids[i], "ph");
		const struct mj *c = mj_member(&ev->kids[i], "cat");

		if (strcmp(p->str, ph) == 0 && (cat == NULL ||
		    (c != NULL && strcmp(c->str, cat) == 0)))
			n++;
	}
	return n;
}

START_TEST(chrome_events)
{
	struct run_result r;
	struct mj *v;
	char cmd[512], out[128];
	FILE *f;

	ck_assert_int_eq(run_d9top(&r, NULL, "--chrome %s", base), 0);
	v = json_of(&r);
	ck_assert_uint_eq(events(v, "X", "poll"), 3 * DP_POLLS);
	ck_assert_uint_eq(events(v, "X", "span"), 0);	/* async: b, e */
	ck_assert_uint_eq(events(v, "b", "span"), DP_POLLS);
	ck_assert_uint_eq(events(v, "e", "span"), DP_POLLS);
	ck_assert_uint_eq(events(v, "s", "wake"), 3 * DP_POLLS);
	ck_assert_uint_eq(events(v, "f", "wake"), 3 * DP_POLLS);
	ck_assert_uint_eq(events(v, "M", NULL), 5);
	mj_free(v);
	snprintf(out, sizeof out, "%s/chrome.json", dir);
	f = fopen(out, "w");
	fputs(r.out, f);
	fclose(f);
	run_free(&r);
	snprintf(cmd, sizeof cmd, "python3 %s %s %d", getenv("CHROME_CHECK"),
	    out, 3 * DP_POLLS);
	ck_assert_int_eq(system(cmd), 0);
	unlink(out);
	/* the first 50 ms: 5 slots of 10 ms from 2 ms */
	ck_assert_int_eq(run_d9top(&r, NULL, "--chrome --window 0..50 %s", base),
	    0);
	v = json_of(&r);
	ck_assert_uint_eq(events(v, "X", "poll"), 15);
	ck_assert_uint_eq(events(v, "b", "span"), 5);
	mj_free(v);
	run_free(&r);
}
END_TEST

/* The shared traces, whole and in demo-2026-06's busiest 100 ms (537 of
 * its complete events overlapped when spans were complete events too):
 * every thread's complete events nest, and CPU samples and the queue
 * counters are there. */
START_TEST(chrome_shared_nests)
{
	static const char *const args[][2] = {
		{ "", "demo-2026-06.bin.gz" },
		{ "--window 3600..3700", "demo-2026-06.bin.gz" },
		{ "", "demo-2026-03.bin" }, { "", "block-in-place-2026-05.bin" } };
	const char *traces = getenv("D9_TRACES");
	struct run_result r;
	char cmd[1024], out[128];
	FILE *f;

	if (traces == NULL) {
		t_skip("D9_TRACES is not set");
		return;
	}
	snprintf(out, sizeof out, "%s/chrome-shared.json", dir);
	for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
		ck_assert_int_eq(run_d9top(&r, NULL, "--chrome %s %s/%s",
		    args[i][0], traces, args[i][1]), 0);
		if (i == 0) {
			struct mj *v = json_of(&r);

			ck_assert_uint_gt(events(v, "i", "cpu"), 0);
			ck_assert_uint_gt(events(v, "C", NULL), 0);
			mj_free(v);
		}
		ck_assert_ptr_nonnull(f = fopen(out, "w"));
		fputs(r.out, f);
		fclose(f);
		run_free(&r);
		snprintf(cmd, sizeof cmd, "python3 %s %s", getenv("CHROME_CHECK"),
		    out);
		ck_assert_msg(system(cmd) == 0, "--chrome %s %s does not nest",
		    args[i][0], args[i][1]);
	}
	unlink(out);
}
END_TEST

/* --chrome of more JSON than a browser's trace viewer opens: a note says
 * so and how to write less (72000 polls named by a location of 4 KiB,
 * about 300 MB); what it writes is counted as it goes to a pipe, and a
 * window of it that is small says nothing. */
START_TEST(chrome_too_big_for_a_viewer)
{
	const uint64_t n = 72000;
	struct run_result r;
	char path[96], loc[4097];
	struct mt t;
	FILE *f;

	memset(loc, 'a', sizeof loc - 1);
	loc[sizeof loc - 1] = '\0';
	mt_begin(&t);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t at = 1000000 + i * 2000;

		mt_poll_start(&t, at, i % 2, 1 + i % 7, loc);
		mt_poll_end(&t, at + 1500, i % 2);
	}
	snprintf(path, sizeof path, "%s/many-polls.bin", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	ck_assert_uint_eq(fwrite(t.tg.p, 1, t.tg.n, f), t.tg.n);
	ck_assert_int_eq(fclose(f), 0);
	tg_free(&t.tg);
	ck_assert_int_eq(run_prog(&r, "sh", "-c '\"$D9TOP\" --no-cache "
	    "--chrome %s | wc -c'", path), 0);
	ck_assert_uint_gt(strtoull(r.out, NULL, 10), 256ull << 20);
	ck_assert_msg(strstr(r.err, "d9top: --chrome wrote ") == r.err &&
	    strstr(r.err, " MB: more than chrome://tracing opens (256 MiB)") &&
	    strstr(r.err, "--window A..B writes a part") &&
	    strchr(r.err, '\n') == r.err + r.nerr - 1, "%s", r.err);
	run_free(&r);
	ck_assert_int_eq(run_prog(&r, "sh", "-c '\"$D9TOP\" --no-cache "
	    "--chrome --window 0..100 %s | wc -c'", path), 0);
	ck_assert_uint_lt(strtoull(r.out, NULL, 10), 256ull << 20);
	ck_assert_str_eq(r.err, "");
	run_free(&r);
	/* --quiet: no note either */
	ck_assert_int_eq(run_prog(&r, "sh", "-c '\"$D9TOP\" --quiet "
	    "--no-cache --chrome %s > /dev/null'", path), 0);
	ck_assert_str_eq(r.err, "");
	run_free(&r);
	unlink(path);
}
END_TEST

static Suite *
compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("compare");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, diff_text);
	tcase_add_test(tc, diff_json);
	tcase_add_test(tc, diff_usage);
	tcase_add_test(tc, diff_unequal);
	tcase_add_test(tc, check_gates);
	tcase_add_test(tc, check_against_baseline);
	tcase_add_test(tc, json_side_extreme_values);
	tcase_add_test(tc, json_side_bounded);
	tcase_add_test(tc, chrome_events);
	tcase_add_test(tc, chrome_shared_nests);
	tcase_add_test(tc, chrome_too_big_for_a_viewer);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(compare_suite(), 0);
}
