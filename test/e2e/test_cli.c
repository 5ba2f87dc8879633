/*
 * test_cli.c: the command-line contract of DESIGN.md: exit statuses and
 * messages for bad usage and bad input, stdin with raw, gzip and zstd
 * segments concatenated, each segment read once (copies, symlink loops),
 * --window, --worst, --chain, --tasks all, --folded, and a report that
 * fits 80 columns.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "minijson.h"
#include "run.h"
#include "../settle.h"
#include "../skip.h"

static char *
tmpfile_with(const void *p, size_t n)
{
	char *path = strdup("/tmp/d9cli-XXXXXX");
	int fd = mkstemp(path);

	ck_assert(fd >= 0);
	ck_assert(write(fd, p, n) == (ssize_t)n);
	close(fd);
	return path;
}

/* Whole decompressed content of a gzip file. */
static unsigned char *
gunzip_file(const char *path, size_t *n)
{
	gzFile g = gzopen(path, "rb");
	size_t cap = 1 << 20;
	unsigned char *b = malloc(cap);
	int r;

	ck_assert(g != NULL);
	*n = 0;
	while ((r = gzread(g, b + *n, (unsigned)(cap - *n))) > 0) {
		*n += (size_t)r;
		if (*n == cap)
			b = realloc(b, cap *= 2);
	}
	gzclose(g);
	return b;
}

static struct mj *
json_of(struct run_result *r)
{
	char err[128];
	struct mj *v = mj_parse(r->out, err, sizeof err);

	ck_assert_msg(v != NULL, "bad JSON: %s", err);
	return v;
}

/* Command lines d9top refuses (exit 2), each with what its message says
 * (NULL: not looked at). */
static const struct {
	const char	*args, *said;
} refused[] = {
	{ "", "no trace given" },
	{ "--bogus x", "unknown option --bogus" },
	{ "--window 5..2 x", NULL },
	{ "--window 2s..5x x", "got '2s..5x': B is not a number" },
	{ "--window 2.5s..2s x", "A is after B" },
	/* two output modes: which was meant is not guessed */
	{ "--report --json x", "give one" },
	{ "--export parquet o --json x", NULL },
	/* stdin can be read once */
	{ "--diff - -", "- (standard input) is given twice" },
	{ "--json - x -", NULL },
	{ "--folded heap x", NULL },
	{ "--json --follow x", "--follow is for the browser" },
	/* what only --report and --json list is not dropped without a word */
	{ "--chain 3 --folded cpu x", "--chain is for --report and --json" },
	{ "--tasks all --chrome x", "--tasks is for --report" },
	{ "--worst 3 --export parquet o x", "--worst is for --report" },
	{ "--chain 3 x", NULL },
	{ "--export parquet o --window 0..100 x",
	    "--window is not for --export" },
	/* a mode of its own and another answer: the other was dropped */
	{ "--check 'longPolls<5' --json x", "--check prints its rules' "
	    "results: --report, --json and --folded are other answers" },
	{ "--chrome --folded cpu x", NULL },
	{ "--diff x y --folded cpu", NULL },
	{ "--json --addr2line -e x 0x1", "--addr2line is a mode of its own" },
};

START_TEST(test_usage)
{
	struct run_result r;

	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		ck_assert_msg(run_d9top(&r, NULL, "%s", refused[i].args) == 2,
		    "d9top %s: status %d", refused[i].args, r.status);
		ck_assert_msg(refused[i].said == NULL ||
		    strstr(r.err, refused[i].said) != NULL, "d9top %s: %s",
		    refused[i].args, r.err);
		run_free(&r);
	}
	/* output that cannot be written is said, and fails */
	ck_assert_int_eq(run_prog(&r, "sh", "-c '\"$D9TOP\" --help > "
	    "/dev/full'"), 1);
	ck_assert_str_eq(r.err, "d9top: standard output: No space left on "
	    "device\n");
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--help"), 0);
	ck_assert_ptr_nonnull(strstr(r.out, "--report"));
	/* 80 columns: a long help wraps under itself */
	ck_assert_ptr_nonnull(strstr(r.out, "  --prefer-dwarf               names "
	    "from DWARF (--binary, --debug-dir, the\n                        "
	    "       recorded files)"));
	for (const char *l = r.out; *l; ) {
		const char *e = strchr(l, '\n');

		if (e == NULL)
			e = l + strlen(l);
		ck_assert_msg(e - l <= 80, "--help line of %d columns: %.*s",
		    (int)(e - l), (int)(e - l), l);
		l = *e ? e + 1 : e;
	}
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--version"), 0);
	ck_assert_ptr_nonnull(strstr(r.out, "d9top "));
	run_free(&r);
}
END_TEST

START_TEST(test_bad_inputs)
{
	struct run_result r;
	char *empty = tmpfile_with("", 0);
	char *text = tmpfile_with("hello, world\n", 13);
	char *gz = trace_path("demo-2026-06.bin.gz");
	char *good = trace_path("block-in-place-2026-05.bin");
	size_t n;
	unsigned char *raw = gunzip_file(gz, &n);
	char *cut = tmpfile_with(raw, 100000);	/* cut mid-frame */
	char dir[] = "/tmp/d9e2e-empty-XXXXXX", want[64];

	ck_assert_int_eq(run_d9top(&r, NULL, "--json /nonexistent/x"), 1);
	ck_assert_ptr_nonnull(strstr(r.err, "/nonexistent/x: No such file"));
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--json '%s'", empty), 1);
	ck_assert_ptr_nonnull(strstr(r.err, ": empty input"));
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--json '%s'", text), 1);
	ck_assert_ptr_nonnull(strstr(r.err, ": byte 0: not a dial9 trace"));
	run_free(&r);
	/* a directory with nothing in it says so */
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(run_d9top(&r, NULL, "--json '%s'", dir), 1);
	snprintf(want, sizeof want, "d9top: %s: no files in it\n", dir);
	ck_assert_ptr_nonnull(strstr(r.err, want));
	run_free(&r);
	{
		char out[sizeof dir + 8], cmd[2 * sizeof out + 16];

		snprintf(out, sizeof out, "%s.out", dir);
		ck_assert_int_eq(run_d9top(&r, NULL, "--export parquet '%s' "
		    "'%s'", out, dir), 0);
		ck_assert_ptr_nonnull(strstr(r.err, want));
		run_free(&r);
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", out);
		ck_assert_int_eq(system(cmd), 0);
	}
	rmdir(dir);
	/* a segment cut mid-write: what came before is kept, exit 0 */
	ck_assert_int_eq(run_d9top(&r, NULL, "--json '%s'", cut), 0);
	ck_assert_ptr_nonnull(strstr(r.err, ": truncated at byte "));
	ck_assert_ptr_nonnull(strstr(r.out, "truncated at byte"));
	run_free(&r);
	/* one bad input among good ones: reported, the rest is read */
	ck_assert_int_eq(run_d9top(&r, NULL, "--json '%s' '%s'", text, good),
	    0);
	ck_assert_ptr_nonnull(strstr(r.err, "not a dial9 trace"));
	ck_assert_ptr_nonnull(strstr(r.out, "\"eventCount\": 567"));
	run_free(&r);
	unlink(empty);
	unlink(text);
	unlink(cut);
	free(empty);
	free(text);
	free(cut);
	free(gz);
	free(good);
	free(raw);
}
END_TEST

/* JSON text up to the member key (what follows differs). */
static char *
json_before(const char *s, const char *key)
{
	char *c = strdup(s), *e = strstr(c, key);

	if (e != NULL)
		*e = '\0';
	return c;
}

/* stdin from in reads as the files f[0..2] given by name (without
 * "errors": input names differ), and it is really all three traces
 * (294465 + 122075 + 567 events). */
static void
ck_stdin_as_files(const char *in, char *const f[3])
{
	struct run_result a, b;
	char *x, *y;

	ck_assert_int_eq(run_d9top(&a, in, "--json -"), 0);
	ck_assert_int_eq(run_d9top(&b, NULL, "--json '%s' '%s' '%s'", f[0],
	    f[1], f[2]), 0);
	x = json_before(a.out, "\"errors\"");
	y = json_before(b.out, "\"errors\"");
	ck_assert_msg(strcmp(x, y) == 0, "stdin and files differ (%s)", f[0]);
	ck_assert_ptr_nonnull(strstr(a.out, "\"eventCount\": 417107"));
	ck_assert_str_eq(a.err, "");
	run_free(&a);
	run_free(&b);
	free(x);
	free(y);
}

START_TEST(test_stdin_concatenation)
{
	char *gz = trace_path("demo-2026-06.bin.gz");
	char *p03 = trace_path("demo-2026-03.bin");
	char *bip = trace_path("block-in-place-2026-05.bin");
	size_t n06, n03, zn;
	unsigned char *raw06 = gunzip_file(gz, &n06);
	unsigned char *raw03 = gunzip_file(p03, &n03);
	void *z = malloc(ZSTD_compressBound(n06));
	char *fraw, *fzst, *fcat, *cmd;

	zn = ZSTD_compress(z, ZSTD_compressBound(n06), raw06, n06, 3);
	ck_assert(!ZSTD_isError(zn));
	fraw = tmpfile_with(raw03, n03);	/* raw TRC bytes */
	fzst = tmpfile_with(z, zn);		/* zstd frame */
	fcat = strdup("/tmp/d9cat-XXXXXX");
	close(mkstemp(fcat));
	/* raw, then gzip, then zstd on one stream */
	if (asprintf(&cmd, "cat '%s' '%s' '%s' > '%s'", fraw, bip, fzst,
	    fcat) < 0)
		abort();
	ck_assert_int_eq(system(cmd), 0);
	ck_stdin_as_files(fcat, (char *const[]){ fraw, bip, fzst });
	free(cmd);

	/* through a pipe, gzip first: decompressed ahead on another thread
	 * until the raw bytes (parse/ahead.h) */
	unlink(fcat);
	if (mkfifo(fcat, 0600) != 0 || asprintf(&cmd, "cat '%s' '%s' '%s' "
	    "> '%s' &", bip, fzst, fraw, fcat) < 0)
		abort();
	ck_assert_int_eq(system(cmd), 0);
	ck_stdin_as_files(fcat, (char *const[]){ bip, fzst, fraw });
	unlink(fraw);
	unlink(fzst);
	unlink(fcat);
	free(cmd); free(fraw); free(fzst); free(fcat);
	free(raw06); free(raw03); free(z); free(gz); free(p03); free(bip);
}
END_TEST

/*
 * Each segment once (ANALYSIS 19): a sealed segment next to its .gz
 * copy, and symlinks that loop (a -> ., b -> ., sub/up -> ..), give the
 * figures of the one file; the copy is counted and told.
 */
/* A directory of many files that are not traces (a wrong directory, a
 * log folder beside the segments) names the first ten and counts the
 * rest in one line, on stderr and in the JSON's errors, instead of a
 * line each. */
START_TEST(test_many_not_traces)
{
	char dir[] = "/tmp/d9cli-junk-XXXXXX", path[128];
	char *demo = trace_path("demo-2026-06.bin.gz");
	struct run_result r;
	struct mj *v;
	size_t lines = 0;
	char cmd[160];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (int i = 0; i < 25; i++) {
		FILE *f;

		snprintf(path, sizeof path, "%s/notes-%02d.txt", dir, i);
		ck_assert_ptr_nonnull(f = fopen(path, "w"));
		fprintf(f, "not a trace %d\n", i);
		ck_assert_int_eq(fclose(f), 0);
	}
	snprintf(path, sizeof path, "%s/trace.0.bin.gz", dir);
	ck_assert_int_eq(symlink(demo, path), 0);
	ck_assert_int_eq(run_d9top(&r, NULL, "--json --no-cache '%s'", dir),
	    0);
	for (const char *c = r.err; *c; c++)
		lines += *c == '\n';
	ck_assert_msg(lines == 11, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.err, "notes-00.txt: not a dial9 trace, "
	    "skipped\n"));
	ck_assert_ptr_null(strstr(r.err, "notes-10.txt"));
	ck_assert_ptr_nonnull(strstr(r.err, "d9top: 15 more files are not "
	    "dial9 traces, skipped (25 in all)\n"));
	v = json_of(&r);
	ck_assert_uint_eq(mj_get(v, "errors")->n, 11);
	ck_assert_uint_gt((uint64_t)mj_get(v, "eventCount")->num, 0);
	mj_free(v);
	run_free(&r);
	free(demo);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_copies_and_loops)
{
	struct run_result one, all;
	char *bip = trace_path("block-in-place-2026-05.bin");
	char dir[] = "/tmp/d9cli-copies-XXXXXX", path[128], *x, *y;
	unsigned char *raw;
	struct mj *v;
	gzFile g;
	FILE *f;
	size_t n;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	raw = gunzip_file(bip, &n);
	snprintf(path, sizeof path, "%s/trace.0.bin.gz", dir);
	ck_assert_ptr_nonnull(g = gzopen(path, "wb"));
	ck_assert_int_eq(gzwrite(g, raw, (unsigned)n), (int)n);
	ck_assert_int_eq(gzclose(g), Z_OK);
	snprintf(path, sizeof path, "%s/trace.0.bin", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	ck_assert_uint_eq(fwrite(raw, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(path, sizeof path, "%s/a", dir);
	ck_assert_int_eq(symlink(".", path), 0);
	snprintf(path, sizeof path, "%s/b", dir);
	ck_assert_int_eq(symlink(".", path), 0);
	snprintf(path, sizeof path, "%s/sub", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/sub/up", dir);
	ck_assert_int_eq(symlink("..", path), 0);

	ck_assert_int_eq(run_d9top(&one, NULL, "--json '%s/trace.0.bin'", dir),
	    0);
	ck_assert_int_eq(run_d9top(&all, NULL, "--json '%s'", dir), 0);
	x = json_before(one.out, "\"loss\"");
	y = json_before(all.out, "\"loss\"");
	ck_assert_msg(strcmp(x, y) == 0, "the directory counts differ");
	ck_assert_ptr_nonnull(strstr(all.out, "\"eventCount\": 567"));
	v = json_of(&all);
	ck_assert_int_eq((int)mj_get(v, "loss.duplicateSegments")->num, 1);
	ck_assert_int_eq((int)mj_get(v, "loss.incompleteSegments")->num, 0);
	ck_assert_int_eq((int)mj_get(v, "loss.droppedEvents")->num, 0);
	ck_assert_ptr_nonnull(strstr(mj_get(v, "errors.0")->str,
	    "/trace.0.bin.gz: the same segment as "));
	ck_assert_ptr_nonnull(strstr(all.err, "read once"));
	mj_free(v);
	v = json_of(&one);
	ck_assert_int_eq((int)mj_get(v, "loss.duplicateSegments")->num, 0);
	mj_free(v);
	run_free(&one);
	run_free(&all);
	snprintf(path, sizeof path, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(path), 0);
	free(x);
	free(y);
	free(raw);
	free(bip);
}
END_TEST

/* An export that runs out of room (a file size limit: EFBIG, as a full
 * disk gives ENOSPC) names the file it was writing and why, exits 1
 * and leaves no half-written file behind. */
START_TEST(test_export_no_room)
{
	struct run_result r;
	char *gz = trace_path("demo-2026-06.bin.gz");
	char dir[] = "/tmp/d9e2e-room-XXXXXX", cmd[600];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(run_prog(&r, "sh", "-c \"trap '' XFSZ; ulimit -f 64; "
	    "exec \\\"\\$D9TOP\\\" --export parquet '%s/out' '%s'\"", dir, gz),
	    1);
	ck_assert_ptr_nonnull(strstr(r.err, ".parquet.tmp: cannot write: "
	    "File too large\n"));
	ck_assert_ptr_nonnull(strstr(r.err, dir));
	run_free(&r);
	snprintf(cmd, sizeof cmd, "test -z \"$(find '%s/out' -name '*.tmp')\"",
	    dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(gz);
}
END_TEST

START_TEST(test_window_worst_chain)
{
	struct run_result r, r2;
	char *gz = trace_path("demo-2026-06.bin.gz");
	struct mj *v;

	ck_assert_int_eq(run_d9top(&r, NULL, "--json --worst 3 --chain 55 "
	    "--window 3000..4000 '%s'", gz), 0);
	v = json_of(&r);
	ck_assert_uint_eq(mj_get(v, "worstPolls")->n, 3);
	/* the 1.01 ms poll at +3679.7 ms is inside, the 5.9 ms one is not */
	ck_assert_int_eq((int)mj_get(v, "worstPolls.0.durNs")->num, 1013250);
	ck_assert(mj_get(v, "eventCount")->num < 294465);
	ck_assert(mj_get(v, "eventCount")->num > 50000);
	ck_assert_int_eq((int)mj_get(v, "wakeChain.0")->num, 55);
	/* a full disk: said once, with its reason; --chrome stops there */
	ck_assert_int_eq(run_prog(&r2, "sh", "-c '\"$D9TOP\" --report \"%s\" "
	    "> /dev/full'", gz), 1);
	ck_assert_str_eq(r2.err, "d9top: standard output: No space left on "
	    "device\n");
	run_free(&r2);
	ck_assert_int_eq(run_prog(&r2, "sh", "-c '\"$D9TOP\" --chrome \"%s\" "
	    "> /dev/full'", gz), 1);
	ck_assert_str_eq(r2.err, "d9top: standard output: No space left on "
	    "device\n");
	run_free(&r2);
	ck_assert(mj_get(v, "wakeChain")->n >= 1);
	mj_free(v);
	/* the same window with units (as the browser's g takes times) */
	ck_assert_int_eq(run_d9top(&r2, NULL, "--json --worst 3 --chain 55 "
	    "--window 3s..4000000us '%s'", gz), 0);
	ck_assert_str_eq(r2.out, r.out);
	run_free(&r2);
	run_free(&r);
	/* a task the trace does not have: an empty chain, which the report
	 * says */
	ck_assert_int_eq(run_d9top(&r, NULL, "--json --chain 999999 '%s'",
	    gz), 0);
	v = json_of(&r);
	ck_assert_uint_eq(mj_get(v, "wakeChain")->n, 0);
	mj_free(v);
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--report --chain 999999 '%s'",
	    gz), 0);
	ck_assert_ptr_nonnull(strstr(r.out, "WAKE CHAIN\n----------\n"
	    "No task 999999 in the trace.\n"));
	run_free(&r);
	free(gz);
}
END_TEST

/* ANALYSIS 22: taskStats lists the busiest 100 of demo-2026-06's 127
 * tasks, every one with --tasks all; so does the report's TASK FIGURES
 * (5 without). --tasks takes only all. */
START_TEST(test_tasks_all)
{
	struct run_result r;
	char *gz = trace_path("demo-2026-06.bin.gz");
	struct mj *v;
	const char *s;
	size_t rows = 0;

	ck_assert_int_eq(run_d9top(&r, NULL, "--json '%s'", gz), 0);
	v = json_of(&r);
	ck_assert_uint_eq(mj_get(v, "taskStats")->n, 100);
	ck_assert_int_eq((int)mj_get(v, "taskStatsTotal")->num, 127);
	mj_free(v);
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--json --tasks all '%s'", gz), 0);
	v = json_of(&r);
	ck_assert_uint_eq(mj_get(v, "taskStats")->n, 127);
	mj_free(v);
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--report '%s'", gz), 0);
	ck_assert_ptr_nonnull(strstr(r.out, "127 tasks in the window; the 5 "
	    "busiest and most delayed (--tasks all: all):"));
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--report --tasks all '%s'", gz),
	    0);
	s = strstr(r.out, "127 tasks in the window; the busiest and most "
	    "delayed:\n");
	ck_assert_ptr_nonnull(s);
	s = strchr(strchr(s, '\n') + 1, '\n') + 1;	/* past the header */
	for (; *s == ' '; s = strchr(s, '\n') + 1)
		rows++;
	ck_assert_uint_eq(rows, 127);
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--json --tasks 5 '%s'", gz), 2);
	ck_assert_ptr_nonnull(strstr(r.err, "--tasks wants all, got '5'"));
	run_free(&r);
	free(gz);
}
END_TEST

START_TEST(test_folded)
{
	struct run_result r, j;
	char *gz = trace_path("demo-2026-06.bin.gz");
	long sum = 0;
	struct mj *v;

	ck_assert_int_eq(run_d9top(&r, NULL, "--folded offcpu '%s'", gz), 0);
	ck_assert_int_eq(run_d9top(&j, NULL, "--json '%s'", gz), 0);
	v = json_of(&j);
	for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
		char *sp = strrchr(line, ' ');

		ck_assert_ptr_nonnull(sp);
		ck_assert_ptr_nonnull(strchr(line, ';'));
		sum += atol(sp + 1);
	}
	/* every off-CPU sample has a stack in this trace */
	ck_assert_int_eq(sum, (long)mj_get(v, "offCpu")->num);
	mj_free(v);
	run_free(&r);
	run_free(&j);
	free(gz);
}
END_TEST

/* The text outputs fit 80 columns: the report of each trace, of two
 * runs read together (their sources' lines, a paragraph of a day's
 * counts), with every task, and --diff of the two (its tables, its
 * header lines). */
START_TEST(test_report_80_columns)
{
	static const char *const how[] = { "--report", "--report",
	    "--report --tasks all", "--diff" };
	struct run_result r;
	char *p = trace_path(_i == 1 ? "block-in-place-2026-05.bin" :
	    "demo-2026-06.bin.gz");
	char *q = trace_path("demo-2026-03.bin");
	int lineno = 0;

	if (_i < 2)
		ck_assert_int_eq(run_d9top(&r, NULL, "%s '%s'", how[_i], p), 0);
	else
		ck_assert_int_eq(run_d9top(&r, NULL, "%s '%s' '%s'", how[_i],
		    q, p), 0);
	ck_assert_str_eq(r.err, "");
	if (_i < 3) {
		ck_assert_ptr_nonnull(strstr(r.out, "WORKER UTILIZATION"));
		ck_assert_ptr_nonnull(strstr(r.out, "RED FLAGS"));
	} else
		ck_assert_ptr_nonnull(strstr(r.out, "POLL DURATION BY SPAWN "
		    "LOCATION"));
	if (_i == 2)
		ck_assert_ptr_nonnull(strstr(r.out, "Sources:      2 processes"));
	for (char *line = strtok(r.out, "\n"); line;
	    line = strtok(NULL, "\n")) {
		size_t cols = 0;

		lineno++;
		for (char *c = line; *c; c++)
			cols += ((unsigned char)*c & 0xc0) != 0x80;
		ck_assert_msg(cols <= 80, "line %d of case %d has %zu columns: "
		    "%s", lineno, _i, cols, line);
	}
	run_free(&r);
	free(p);
	free(q);
}
END_TEST

/*
 * A read's progress goes to stderr on a terminal (from
 * D9TOP_PROGRESS_MS on: 0 here, so that the line is there however fast
 * the machine): how much of the input, how many events, then the
 * finishing and the analysis; a message takes a line of its own; the line is wiped
 * before the answer, which is the same as without a terminal. Not on a
 * pipe, not with --quiet.
 */
/* "-" while standard input is a terminal (script(1) makes one): refused
 * at once (exit 2), as gzip and zstd refuse, instead of waiting for a
 * trace typed at the keyboard. */
START_TEST(test_stdin_terminal)
{
	struct run_result r;

	if (access("/usr/bin/script", X_OK) != 0) {
		t_skip("no script(1) to make a terminal");
		return;
	}
	ck_assert_int_eq(run_prog(&r, "/usr/bin/script", "-qec \"\\\"$D9TOP\\\" "
	    "--json -\" /dev/null"), 2);
	ck_assert_ptr_nonnull(strstr(r.out, "d9top: - reads a trace from "
	    "standard input, which is a terminal: pipe one in"));
	run_free(&r);
}
END_TEST

START_TEST(test_progress_on_a_terminal)
{
	char *t = trace_path("demo-2026-06.bin.gz"), *tty, *end;
	char dir[] = "/tmp/d9cli-XXXXXX", out[64], args[512], path[64];
	struct run_result plain;
	static const unsigned char junk[100] = { 'j', 'u', 'n', 'k' };
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(out, sizeof out, "%s/report", dir);
	snprintf(args, sizeof args, "--no-cache --report '%s'", t);
	tty = run_on_terminal("D9TOP_PROGRESS_MS=0", args, out);
	if (tty == NULL) {
		t_skip("no script(1) to make a terminal");
		return;
	}
	ck_assert_msg(strstr(tty, "\rd9top: reading ") != NULL &&
	    strstr(tty, "% of 3.4 MB, ") != NULL, "%s", tty);
	ck_assert_ptr_nonnull(strstr(tty, "\rd9top: read 516950 events, "
	    "finishing"));
	ck_assert_ptr_nonnull(strstr(tty, "finishing\rd9top: analysing"));
	/* wiped: blanks between two carriage returns, and nothing after */
	end = strrchr(tty, '\r');
	ck_assert_ptr_nonnull(end);
	ck_assert_str_eq(end, "\r");
	while (end > tty && end[-1] == ' ')
		end--;
	ck_assert_int_eq(end[-1], '\r');
	ck_assert_ptr_eq(strchr(tty, '\n'), NULL);	/* no line of its own */
	ck_assert_int_eq(run_d9top(&plain, NULL, "--no-cache --report '%s'",
	    t), 0);
	ck_assert_ptr_nonnull(f = fopen(out, "rb"));
	{
		char *got = calloc(1, plain.nout + 2);
		size_t n = fread(got, 1, plain.nout + 1, f);

		ck_assert_uint_eq(n, plain.nout);
		ck_assert_int_eq(memcmp(got, plain.out, n), 0);
		free(got);
	}
	fclose(f);
	ck_assert_str_eq(plain.err, "");	/* not a terminal */
	run_free(&plain);
	free(tty);

	/* a message while the line is up: on a line of its own */
	snprintf(path, sizeof path, "%s/in", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/in/trace.0.bin.gz", dir);
	ck_assert_int_eq(symlink(t, path), 0);
	snprintf(path, sizeof path, "%s/in/trace.1.bin", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	ck_assert_uint_eq(fwrite(junk, 1, sizeof junk, f), sizeof junk);
	fclose(f);
	snprintf(args, sizeof args, "--no-cache --report '%s/in'", dir);
	tty = run_on_terminal("D9TOP_PROGRESS_MS=0", args, out);
	ck_assert_msg(strstr(tty, "\rd9top: ") != NULL &&
	    strstr(tty, "events\r") != NULL, "%s", tty);
	ck_assert_msg(strstr(tty, "\rd9top: reading ") < strstr(tty,
	    "trace.1.bin: not a dial9 trace, skipped\r\n"), "%s", tty);
	end = strstr(tty, "d9top: /tmp/");
	ck_assert_msg(end != NULL && end[-1] == '\r', "%s", tty);
	free(tty);

	/* an answer of tens of MB to a file: how much is written so far,
	 * then wiped; the file is whole */
	snprintf(args, sizeof args, "--no-cache --chrome '%s'", t);
	tty = run_on_terminal("D9TOP_PROGRESS_MS=0", args, out);
	ck_assert_msg(strstr(tty, "\rd9top: writing 4.2 MB of Chrome JSON\r")
	    != NULL, "%s", tty);
	end = tty + strlen(tty);
	while (end > tty && end[-1] == ' ')
		end--;
	ck_assert_msg(end - tty >= 2 && end[-1] == '\r', "%s", tty);
	ck_assert_ptr_eq(strchr(tty, '\n'), NULL);
	free(tty);
	ck_assert_int_eq(run_prog(&plain, "tail", "-c 4 '%s'", out), 0);
	ck_assert_str_eq(plain.out, "]\n}\n");
	run_free(&plain);

	/* --quiet: nothing */
	snprintf(args, sizeof args, "--quiet --no-cache --report '%s'", t);
	tty = run_on_terminal("D9TOP_PROGRESS_MS=0", args, out);
	ck_assert_str_eq(tty, "");
	free(tty);
	snprintf(args, sizeof args, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(args), 0);
	free(t);
}
END_TEST

/* Whether line is "d9top: times: " then the stages named, in order,
 * each "NAME N.NNN s", comma-separated, then a newline. */
static int
times_line(const char *line, const char *const *names, size_t n)
{
	const char *p = line;

	if (strncmp(p, "d9top: times: ", 14) != 0)
		return 0;
	p += 14;
	for (size_t i = 0; i < n; i++) {
		char *end;

		if (i > 0 && strncmp(p, ", ", 2) != 0)
			return 0;
		p += i > 0 ? 2 : 0;
		if (strncmp(p, names[i], strlen(names[i])) != 0)
			return 0;
		p += strlen(names[i]);
		if (*p++ != ' ' || strtod(p, &end) < 0 || end == p ||
		    strncmp(end, " s", 2) != 0)
			return 0;
		p = end + 2;
	}
	return strcmp(p, "\n") == 0;
}

/* D9TOP_TIMES=1: where the time went, on stderr at the end (with
 * --quiet too): the read, the finishing, the analysis, the answer; from
 * the index, its entry instead of the first two. */
START_TEST(test_times)
{
	static const char *const cold[] = { "read", "finish", "analysis",
	    "answer" };
	static const char *const warm[] = { "index entry", "analysis",
	    "answer" };
	char *t = trace_path("block-in-place-2026-05.bin");
	const char *xdg = getenv("XDG_CACHE_HOME");
	char idx[512];
	struct run_result r;

	ck_assert_int_eq(run_d9top(&r, NULL, "--no-cache --json '%s'", t), 0);
	ck_assert_str_eq(r.err, "");		/* not asked */
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--quiet --json '%s'", t), 0);
	run_free(&r);
	ck_assert_ptr_nonnull(xdg);
	snprintf(idx, sizeof idx, "%s/d9top", xdg);
	settle_index(idx);
	ck_assert_int_eq(setenv("D9TOP_TIMES", "1", 1), 0);
	ck_assert_int_eq(run_d9top(&r, NULL, "--no-cache --quiet --json "
	    "'%s'", t), 0);
	ck_assert_msg(times_line(r.err, cold, 4), "%s", r.err);
	run_free(&r);
	ck_assert_int_eq(run_d9top(&r, NULL, "--json '%s'", t), 0);
	ck_assert_msg(times_line(r.err, warm, 3), "%s", r.err);
	run_free(&r);
	unsetenv("D9TOP_TIMES");
	free(t);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("cli");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_usage);
	tcase_add_test(tc, test_bad_inputs);
	tcase_add_test(tc, test_stdin_concatenation);
	tcase_add_test(tc, test_copies_and_loops);
	tcase_add_test(tc, test_many_not_traces);
	tcase_add_test(tc, test_window_worst_chain);
	tcase_add_test(tc, test_export_no_room);
	tcase_add_test(tc, test_tasks_all);
	tcase_add_test(tc, test_folded);
	tcase_add_loop_test(tc, test_report_80_columns, 0, 4);
	tcase_add_test(tc, test_progress_on_a_terminal);
	tcase_add_test(tc, test_stdin_terminal);
	tcase_add_test(tc, test_times);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(suite(), 1);
}
