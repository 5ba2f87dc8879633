/*
 * test_hostile.c: nothing let in. Traces and file names holding escape
 * sequences, bidirectional controls, zero-width and combining marks,
 * NULs and bytes that are not UTF-8 (hostile.h) reach stdout and stderr
 * of every mode only escaped; string bombs (long strings, many pooled
 * strings) are read within a memory limit and said; files that are not
 * regular are refused where d9top reads them whole; a --window that is
 * not a number is a usage error; standard descriptors closed by the
 * caller are not taken by the files d9top opens.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostile.h"
#include "../skip.h"
#include "run.h"

static char tmpdir[64];
static char *hdir;	/* the hostile directory inside tmpdir */

static void
setup(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/d9hostile-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	hdir = hostile_dir(tmpdir);
}

static void
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
	free(hdir);
}

static void
assert_clean(const char *what, const char *p, size_t n)
{
	char why[256];

	ck_assert_msg(hostile_clean(p, n, why, sizeof why) == 0, "%s: %s",
	    what, why);
}

/* d9top MODE on the hostile directory (through a glob: the shell never
 * sees its name); both streams must be clean. */
static void
run_mode(struct run_result *r, const char *mode)
{
	run_d9top(r, NULL, "%s '%s'/d*", mode, tmpdir);
	assert_clean("stdout", r->out, r->nout);
	assert_clean("stderr", r->err, r->nerr);
}

static void
assert_has(const char *what, const char *hay, const char *needle)
{
	ck_assert_msg(strstr(hay, needle) != NULL, "%s lacks '%s':\n%s", what,
	    needle, hay);
}

/* What each mode must show, escaped, on stdout or stderr. */
static const struct {
	const char	*mode;
	int		 on_stderr;
	const char	*has[5];
} shows[] = {
	/* the file name, the schema name (its NUL shown), the field, a
	 * mapped file named by the trace */
	{ "--report", 1, { "x\\x1b[2J\\x1b]0;PWNED\\x07\\u2066inv\\x9b.bin: "
	    "not a dial9 trace", "schema Bad\\x1b]0;PWNED\\x07\\u202e\\0"
	    HOSTILE_TAIL ": field field\\x1b]52;c;UFdORUQ=\\x07 has unknown",
	    "/nonexistent/lib<\\x1b]0;PWNED" } },
	/* names are cut from the left to fit: the tail of the payload; the
	 * location's NUL does not cut it */
	{ "--report", 0, { "Input:        ", "/d\\x1b]0;PWNED\\x07\\u202edir\n",
	    "|bom:\\ufeff|comb:e\\u0301|c1:\\xc2\\x9b|inv:\\x9b|del:\\x7f>",
	    "del:\\x7f>\\0" HOSTILE_TAIL "\n" } },
	/* JSON escapes; a byte that is not UTF-8 is text; the messages in
	 * "errors" are escaped text */
	{ "--json", 0, { "\\u001b]0;PWNED\\u0007", "rlo:\\u202e|lri:\\u2066|"
	    "pdi:\\u2069|zw:\\u200b|bom:\\ufeff|comb:e\\u0301|c1:\\u009b|"
	    "inv:\\\\x9b|del:\\u007f>", "\\u0000" HOSTILE_TAIL,
	    "schema Bad\\\\x1b]0;PWNED\\\\x07" } },
	/* ';' separates frames: the names' own become ',' */
	{ "--folded cpu", 0, { "fn<\\x1b]0,PWNED\\x07\\x1b]52,c,UFdORUQ=\\x07"
	    "\\x1b[2Jrlo:\\u202e|" } },
};

START_TEST(test_modes_escaped)
{
	struct run_result r;

	run_mode(&r, shows[_i].mode);
	ck_assert_int_eq(r.status, 0);
	for (size_t k = 0; k < 5 && shows[_i].has[k] != NULL; k++)
		assert_has(shows[_i].mode, shows[_i].on_stderr ? r.err : r.out,
		    shows[_i].has[k]);
	/* a byte that is not UTF-8 never becomes a C1 control */
	ck_assert_ptr_null(strstr(r.out, "inv:\\u009b"));
	run_free(&r);
}
END_TEST

START_TEST(test_arguments_escaped)
{
	struct run_result r;

	/* printf(1) makes the bytes: the command line itself stays clean */
	run_d9top(&r, NULL, "--window \"$(printf '1..\\033]0;PWNED\\007')\" x");
	ck_assert_int_eq(r.status, 2);
	assert_clean("stderr", r.err, r.nerr);
	assert_has("stderr", r.err, "\\x1b]0;PWNED\\x07");
	run_free(&r);
	run_d9top(&r, NULL, "--json \"$(printf '/nonexistent/\\342\\200\\256"
	    "\\033[2J')\"");
	ck_assert_int_eq(r.status, 1);
	assert_clean("stderr", r.err, r.nerr);
	assert_has("stderr", r.err, "/nonexistent/\\u202e\\x1b[2J: No such");
	run_free(&r);
}
END_TEST

/* What d9top reads whole must be a regular file: refused at once,
 * with the file's name, as bad usage. */
START_TEST(test_special_files)
{
	static const char *const opts[] = { "--kallsyms", "--binary",
	    "--debug-dir" };
	char *trace = trace_path("block-in-place-2026-05.bin");
	char fifo[96];
	struct run_result r;

	if (access(trace, R_OK) != 0) {
		t_skip("%s: not readable", trace);
		free(trace);
		return;
	}

	snprintf(fifo, sizeof fifo, "%s/fifo", tmpdir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	for (size_t i = 0; i < 3; i++) {
		ck_assert_int_eq(run_d9top(&r, NULL, "--json %s /dev/zero '%s'",
		    opts[i], trace), 2);
		assert_has("stderr", r.err, i == 2 ?
		    "d9top: /dev/zero: not a directory" : "/dev/zero: not a "
		    "regular file");
		run_free(&r);
	}
	ck_assert_int_eq(run_d9top(&r, NULL, "--json --kallsyms '%s' '%s'",
	    fifo, trace), 2);
	assert_has("stderr", r.err, "/fifo: not a regular file");
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--json --binary '%s' '%s'",
	    fifo, trace), 2);
	assert_has("stderr", r.err, "/fifo: not a regular file");
	run_free(&r);
	free(trace);
}
END_TEST

START_TEST(test_window_not_a_number)
{
	/* each with why it is refused */
	static const char *const bad[][2] = { { "nan..5", "A is not a" },
	    { "1..nan", "B is not a" }, { "inf..", "A is not a" },
	    { "0..inf", "B is not a" }, { "1e10s..", "A is past 9e12 ms" }, { "-1..5", "A is before the start" },
	    { "x..5", "A is not a" }, { "1..2x", "B is not a" },
	    { "1e300..", "A is past" }, { "0x..1", "A is not a" },
	    { "0..1e30", "B is past" }, { "5..1", "A is after B" },
	    { "5", "no '..'" }, { "2s..1500ms", "A is after B" },
	    { "1s..2 sec", "B is not a" } };
	struct run_result r;
	char want[160];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(run_d9top(&r, NULL, "--json --window '%s' x",
		    bad[i][0]) == 2, "--window %s: status %d", bad[i][0],
		    r.status);
		snprintf(want, sizeof want, "--window wants A..B from the "
		    "trace's start, in ms or with a unit (1.5s..2s), A <= B, "
		    "got '%s': %s", bad[i][0], bad[i][1]);
		assert_has("stderr", r.err, want);
		run_free(&r);
	}
}
END_TEST

/* d9top on a bomb of n pooled strings of len bytes, within 1 GiB of
 * address space: it finishes (0) and says what it cut or dropped. */
static void
ck_bomb(unsigned n, size_t len, const char *say)
{
	struct rlimit lim = { 1ul << 30, 1ul << 30 };
	struct run_result r;
	char path[96];

	snprintf(path, sizeof path, "%s/bomb.bin.gz", tmpdir);
	hostile_bomb(path, n, len);
	/* this test's own process (Check forks one per test) and d9top */
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
	/* the decoder's own caps, not the budget's stop (test_memory.c) */
	ck_assert_int_eq(run_d9top(&r, NULL, "--json --memory all '%s'",
	    path), 0);
	assert_has("stderr", r.err, say);
	assert_has("json", r.out, say);
	run_free(&r);
	/* with the default budget (a third of the room a ulimit leaves)
	 * it finishes too, whichever bound comes first */
	ck_assert_int_eq(run_d9top(&r, NULL, "--json '%s'", path), 0);
	ck_assert_msg(strstr(r.err, say) != NULL || strstr(r.err,
	    "it may use (--memory SIZE, or all)") != NULL, "%s", r.err);
	run_free(&r);
}

START_TEST(test_string_bomb)
{
	/* 800 MB said by 3 MB of gzip: 1.7 GB before they were cut */
	ck_bomb(8, 100000000, "bomb.bin.gz: byte 39: 8 values longer than 64 "
	    "KiB (strings, stacks) cut to 64 KiB; the longest had 100000000 "
	    "bytes");
}
END_TEST

START_TEST(test_pool_bomb)
{
	/* 8192 strings of 64 KiB: the first 256 MiB are kept */
	ck_bomb(8192, 65536, "bomb.bin.gz: string and stack pools over 256 "
	    "MiB: 4096 later entries dropped (shown unresolved)");
}
END_TEST

/* Standard error closed (`2>&-`): the export's first file would take
 * descriptor 2, and its progress line went into its lock file; standard
 * output closed: the answer is said unwritable, not written into a file
 * d9top opened; standard input closed: - reads nothing. */
START_TEST(test_closed_descriptors)
{
	struct run_result r;
	struct stat sb;
	char trace[160], out[96], lock[128];

	snprintf(trace, sizeof trace, "%s/strings.bin", hdir);
	snprintf(out, sizeof out, "%s/out", tmpdir);
	snprintf(lock, sizeof lock, "%s/.lock", out);
	ck_assert_int_eq(run_prog(&r, "sh", "-c '\"$D9TOP\" --export parquet "
	    "\"$1\" \"$2\" 2>&-' sh '%s' '%s'", out, trace), 0);
	run_free(&r);
	ck_assert_int_eq(stat(lock, &sb), 0);
	ck_assert_int_eq(sb.st_size, 0);
	ck_assert_int_eq(run_prog(&r, "sh", "-c '\"$D9TOP\" --json \"$1\" "
	    ">&-' sh '%s'", trace), 1);
	ck_assert_ptr_nonnull(strstr(r.err, "d9top: standard output: Bad file "
	    "descriptor\n"));
	run_free(&r);
	ck_assert_int_eq(run_prog(&r, "sh", "-c '\"$D9TOP\" --json - <&-'"),
	    1);
	ck_assert_msg(strstr(r.err, "d9top: stdin: empty input\n") != NULL,
	    "%s", r.err);
	run_free(&r);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("hostile");
	TCase *tc = tcase_create("escapes");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_modes_escaped, 0,
	    sizeof shows / sizeof shows[0]);
	tcase_add_test(tc, test_arguments_escaped);
	tcase_add_test(tc, test_special_files);
	tcase_add_test(tc, test_window_not_a_number);
	tcase_add_test(tc, test_string_bomb);
	tcase_add_test(tc, test_pool_bomb);
	tcase_add_test(tc, test_closed_descriptors);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(suite(), 0);
}
