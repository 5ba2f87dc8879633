/*
 * test_e2e.c: d9demo records for about two seconds, then `d9top --json`
 * reads the directory: at least two workers, the planted long poll with
 * on-CPU stacks, CPU samples, a non-zero allocation estimate. The two
 * programs come from the build (env D9DEMO, D9TOP). Without perf rights
 * the CPU parts are skipped (skip.h). A recording through a ring far too
 * small: d9top reports exactly the drops the recorder counted; a size cap
 * that deleted old segments: d9top says how many. d9uv, the
 * libuv example, records wake chains from timer and I/O callbacks that
 * `d9top --chain` follows (skipped where libuv was not found).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../skip.h"
#include "rectest.h"

START_TEST(test_demo)
{
	const char *demo = getenv("D9DEMO"), *top = getenv("D9TOP"), *p;
	char *dir = rt_tmpdir(), cmd[1024], *json;
	const char *from = NULL;
	int workers = 0;

	ck_assert_ptr_nonnull(demo);
	ck_assert_ptr_nonnull(top);
	/* crunch polls of 120 ms: the worst poll, with CPU samples, even
	 * when the parallel suite leaves a 40 ms poll (wall time) too
	 * little CPU for one at 99 Hz */
	snprintf(cmd, sizeof cmd, "%s --out %s --seconds 2 --crunch-ms 120",
	    demo, dir);
	free(rt_run(cmd));
	ck_assert_uint_ge(rt_files(dir, ".bin.gz"), 1);
	snprintf(cmd, sizeof cmd, "%s --json %s", top, dir);
	json = rt_run(cmd);

	p = strstr(json, "\"workers\":");
	ck_assert_ptr_nonnull(p);
	for (p = strchr(p, '['); *p && *p != ']'; p++)
		workers += *p == ',' || (p[-1] == '[' && p[0] != ']');
	ck_assert_int_ge(workers, 2);
	ck_assert_double_ge(rt_num(json, "longPolls", NULL), 1);
	ck_assert_double_ge(rt_num(json, "durNs", &from), 30e6);
	ck_assert_ptr_nonnull(strstr(json, "examples/d9demo.c:crunch:1"));
	ck_assert_double_gt(rt_num(json, "estimatedTotalBytes", NULL), 0);
	/* the whole trace's count, the first "cpuSamples" (the observer's
	 * and each source's come after it: the observer's 0, the recorder
	 * having no sample of its own, made this skip) */
	if (rt_num(json, "cpuSamples", NULL) > 0) {
		p = strstr(from, "\"cpuStacks\":");
		ck_assert_ptr_nonnull(p);
		ck_assert_ptr_nonnull(strstr(p, "crunch_numbers"));
		ck_assert_double_gt(rt_num(json, "onCpu", NULL), 0);
	} else
		t_skip("e2e: no CPU samples (perf refused): stacks not checked");
	free(json);
	rt_rmdir(&dir);
}
END_TEST

/* A ring far too small: d9top tells exactly what the recorder dropped,
 * in --json, in the report, as a red flag. */
START_TEST(test_tiny_ring)
{
	const char *top = getenv("D9TOP");
	char *dir = rt_tmpdir(), cmd[1024], want[128], *out;
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9rec_stats st;
	d9rec_writer *w;

	ck_assert_ptr_nonnull(top);
	rt_opts(&o, dir, NULL);
	o.thread_buffer_size = 8192;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	for (int r = 0; r < 43; r++) {
		for (int i = 0; i < 500; i++) {
			d9rec_poll_start(t, (uint64_t)(r * 500 + i + 1), 0, 0);
			d9rec_poll_end(t);
		}
		ck_assert_int_eq(d9rec_flush(w), 0);
	}
	d9rec_thread_unregister(&t);
	d9rec_stats(w, &st);
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_uint_eq(st.events + st.dropped, 43000);
	ck_assert_uint_gt(st.dropped, 20000);

	snprintf(cmd, sizeof cmd, "%s --json --quiet %s", top, dir);
	out = rt_run(cmd);
	ck_assert_double_eq(rt_num(out, "droppedEvents", NULL),
	    (double)st.dropped);
	ck_assert_double_eq(rt_num(out, "eventCount", NULL), (double)st.events);
	ck_assert_double_eq(rt_num(out, "incompleteSegments", NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"events-lost\""));
	free(out);
	snprintf(cmd, sizeof cmd, "%s --report --quiet %s", top, dir);
	out = rt_run(cmd);
	snprintf(want, sizeof want, "Lost:         %llu runtime events dropped\n",
	    (unsigned long long)st.dropped);
	ck_assert_ptr_nonnull(strstr(out, want));
	ck_assert_ptr_nonnull(strstr(out, "WARNING: this recording lost data"));
	ck_assert_ptr_nonnull(strstr(out, "events-lost"));
	free(out);
	rt_rmdir(&dir);
}
END_TEST

/* The report's line that starts with label, its wrapped lines (indented
 * under its value) joined by one space; NULL when it has none. */
static char *
unwrapped(const char *report, const char *label)
{
	const char *p = strstr(report, label);
	char *line, *q;

	if (p == NULL || (line = malloc(strlen(p) + 1)) == NULL)
		return NULL;
	for (q = line; *p != '\0'; p++) {
		if (*p != '\n') {
			*q++ = *p;
			continue;
		}
		if (p[1] != ' ')
			break;
		while (p[1] == ' ')
			p++;
		*q++ = ' ';
	}
	*q = '\0';
	return line;
}

/* A size cap that deletes old segments: d9top tells how many and where
 * the trace now starts (ANALYSIS 19.1), in --json and the report, as a
 * red flag; the segments left have no gap. */
START_TEST(test_size_cap)
{
	const char *top = getenv("D9TOP");
	char *dir = rt_tmpdir(), cmd[1024], want[128], name[600], *out, *lost;
	uint64_t clk = 1000000, deleted;
	struct d9rec_options o;
	struct d9rec_thread *t;
	d9rec_writer *w;
	long newest = -1;
	FILE *f;

	ck_assert_ptr_nonnull(top);
	rt_opts(&o, dir, &clk);
	o.max_file_size = 16 << 10;
	o.max_total_size = 32 << 10;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	rt_rounds(w, t, 1, 40, 300);
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);
	for (long k = 0; k < 4096; k++) {
		snprintf(name, sizeof name, "%s/trace.%ld.bin", dir, k);
		if ((f = fopen(name, "rb")) != NULL) {
			fclose(f);
			newest = k;
		}
	}
	/* indices are dense: every one below the files left was deleted */
	deleted = (uint64_t)(newest + 1) - rt_files(dir, ".bin");
	ck_assert_uint_gt(deleted, 0);

	snprintf(cmd, sizeof cmd, "%s --json --quiet %s", top, dir);
	out = rt_run(cmd);
	ck_assert_double_eq(rt_num(out, "deletedSegments", NULL),
	    (double)deleted);
	ck_assert_double_gt(rt_num(out, "deletedBytes", NULL), 0);
	ck_assert_double_eq(rt_num(out, "missingSegments", NULL), 0);
	ck_assert_double_eq(rt_num(out, "damagedSegments", NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"events-lost\""));
	free(out);
	snprintf(cmd, sizeof cmd, "%s --report --quiet %s", top, dir);
	out = rt_run(cmd);
	/* on the Lost line, wrapped or not, after what else was lost (a
	 * loaded machine's recorder may have dropped a batch too) */
	snprintf(want, sizeof want, "%llu older segment%s deleted by the "
	    "size cap (", (unsigned long long)deleted, deleted == 1 ? "" : "s");
	lost = unwrapped(out, "Lost:");
	ck_assert_msg(lost != NULL && strstr(lost, want) != NULL,
	    "no \"%s\" in \"%.400s\"", want, lost != NULL ? lost : "");
	free(lost);
	/* where the trace starts (the line may wrap before "starts") */
	ck_assert(strstr(out, "starts at 20") != NULL ||
	    strstr(out, "starts after them") != NULL);
	free(out);
	rt_rmdir(&dir);
}
END_TEST

static void *inl_ptr;

static inline __attribute__((always_inline)) void
inlined_alloc(void)
{
	inl_ptr = d9rec_malloc(128);
	__asm__ volatile("" ::: "memory");
}

static __attribute__((noinline)) void
outer_alloc(void)
{
	inlined_alloc();
	__asm__ volatile("" ::: "memory");	/* a frame, not a tail call */
}

/* The trace's table names outer_alloc; --prefer-dwarf takes DWARF's
 * frames instead (the recorded binary, this one), which see the inlined
 * call as well. */
START_TEST(test_prefer_dwarf)
{
	const char *top = getenv("D9TOP");
	char *dir = rt_tmpdir(), cmd[1024], *out;
	struct d9rec_options o;
	d9rec_writer *w;

	ck_assert_ptr_nonnull(top);
	rt_opts(&o, dir, NULL);
	o.alloc_profile = 1;
	o.alloc_sample_rate = 1;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	outer_alloc();
	d9rec_free(inl_ptr);
	ck_assert_int_eq(d9rec_close(&w), 0);
	snprintf(cmd, sizeof cmd, "%s --folded alloc --quiet %s", top, dir);
	out = rt_run(cmd);
	ck_assert_ptr_nonnull(strstr(out, "outer_alloc"));
	ck_assert_ptr_null(strstr(out, "inlined_alloc"));
	free(out);
	snprintf(cmd, sizeof cmd, "%s --folded alloc --quiet --prefer-dwarf %s",
	    top, dir);
	out = rt_run(cmd);
	ck_assert_ptr_nonnull(strstr(out, "outer_alloc;inlined_alloc"));
	free(out);
	rt_rmdir(&dir);
}
END_TEST

/* The task ids of the wake chain of task in d9top's --json of dir. */
static size_t
chain(const char *top, const char *dir, unsigned task, uint64_t *ids,
    size_t max)
{
	char cmd[1024], *json, *p, *end;
	size_t n = 0;

	snprintf(cmd, sizeof cmd, "%s --json --quiet --chain %u %s", top, task,
	    dir);
	json = rt_run(cmd);
	p = strstr(json, "\"wakeChain\":");
	ck_assert_ptr_nonnull(p);
	p = strchr(p, '[');
	ck_assert_ptr_nonnull(p);
	for (p++; n < max; p = end) {
		while (*p == ' ' || *p == ',')
			p++;
		ids[n] = strtoull(p, &end, 10);
		if (end == p)
			break;
		n++;
	}
	free(json);
	return n;
}

/* d9uv (libuv echo server + load) records a trace whose wake chains run
 * from a server connection (I/O: read what a client wrote) through that
 * client (timer: kicked by the pacer) to the pacer. */
START_TEST(test_libuv)
{
	const char *uv = getenv("D9UV"), *top = getenv("D9TOP");
	char *dir = rt_tmpdir(), cmd[1024], *json;
	const char *from;
	uint64_t ids[8];
	size_t n;

	if (uv == NULL) {
		t_skip("e2e: no libuv, no d9uv: the libuv example not checked");
		rt_rmdir(&dir);
		return;
	}
	snprintf(cmd, sizeof cmd, "%s --out %s --clients 3 --messages 40 "
	    "--seconds 30", uv, dir);
	free(rt_run(cmd));
	snprintf(cmd, sizeof cmd, "%s --json --quiet %s", top, dir);
	json = rt_run(cmd);
	/* the loop is worker 0; its polls: at least each message read by
	 * its connection and by its client */
	from = strstr(json, "\"polls\":");
	ck_assert_ptr_nonnull(from);
	ck_assert_double_ge(rt_num(json, "0", &from), 2 * 3 * 40);
	ck_assert_double_eq(rt_num(json, "droppedEvents", NULL), 0);
	free(json);
	n = chain(top, dir, 100, ids, 8);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(ids[0], 100);
	ck_assert(ids[1] >= 10 && ids[1] < 13);		/* a client */
	ck_assert_uint_eq(ids[2], 2);			/* the pacer */
	n = chain(top, dir, (unsigned)ids[1], ids, 8);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(ids[1], 2);
	rt_rmdir(&dir);
}
END_TEST

TCase *
rt_tcase_e2e(void)
{
	TCase *tc = tcase_create("e2e");

	tcase_set_timeout(tc, 40);
	tcase_add_test(tc, test_demo);
	tcase_add_test(tc, test_tiny_ring);
	tcase_add_test(tc, test_size_cap);
	tcase_add_test(tc, test_libuv);
	tcase_add_test(tc, test_prefer_dwarf);
	return tc;
}
