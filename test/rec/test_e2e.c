/*
 * test_e2e.c: d9demo records for about two seconds, then `d9top --json`
 * reads the directory: at least two workers, the planted long poll with
 * on-CPU stacks, CPU samples, a non-zero allocation estimate. The two
 * programs come from the build (env D9DEMO, D9TOP). Without perf rights
 * the CPU parts are skipped (skip.h). A recording through a ring far too
 * small: d9top reports exactly the drops the recorder counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../skip.h"
#include "rectest.h"

static char *
run(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	size_t k;

	ck_assert_ptr_nonnull(p);
	while ((k = fread(buf + n, 1, cap - n - 1, p)) > 0) {
		n += k;
		if (cap - n < 4096)
			buf = realloc(buf, cap *= 2);
	}
	buf[n] = 0;
	ck_assert_int_eq(pclose(p), 0);
	return buf;
}

/* The number after "key": (first occurrence after from). */
static double
num(const char *json, const char *key, const char **from)
{
	char pat[128];
	const char *p;

	snprintf(pat, sizeof pat, "\"%s\":", key);
	p = strstr(from && *from ? *from : json, pat);
	ck_assert_msg(p != NULL, "no %s in d9top output", key);
	if (from)
		*from = p;
	return strtod(p + strlen(pat), NULL);
}

START_TEST(test_demo)
{
	const char *demo = getenv("D9DEMO"), *top = getenv("D9TOP"), *p;
	char *dir = rt_tmpdir(), cmd[1024], *json;
	const char *from = NULL;
	int workers = 0;

	ck_assert_ptr_nonnull(demo);
	ck_assert_ptr_nonnull(top);
	snprintf(cmd, sizeof cmd, "%s --out %s --seconds 2", demo, dir);
	free(run(cmd));
	ck_assert_uint_ge(rt_files(dir, ".bin.gz"), 1);
	snprintf(cmd, sizeof cmd, "%s --json %s", top, dir);
	json = run(cmd);

	p = strstr(json, "\"workers\":");
	ck_assert_ptr_nonnull(p);
	for (p = strchr(p, '['); *p && *p != ']'; p++)
		workers += *p == ',' || (p[-1] == '[' && p[0] != ']');
	ck_assert_int_ge(workers, 2);
	ck_assert_double_ge(num(json, "longPolls", NULL), 1);
	ck_assert_double_ge(num(json, "durNs", &from), 30e6);
	ck_assert_ptr_nonnull(strstr(json, "examples/d9demo.c:crunch:1"));
	ck_assert_double_gt(num(json, "estimatedTotalBytes", NULL), 0);
	if (strstr(json, "\"cpuSamples\": 0") == NULL &&
	    strstr(json, "\"cpuSamples\":0") == NULL) {
		p = strstr(from, "\"cpuStacks\":");
		ck_assert_ptr_nonnull(p);
		ck_assert_ptr_nonnull(strstr(p, "crunch_numbers"));
		ck_assert_double_gt(num(json, "onCpu", NULL), 0);
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
	out = run(cmd);
	ck_assert_double_eq(num(out, "droppedEvents", NULL), (double)st.dropped);
	ck_assert_double_eq(num(out, "eventCount", NULL), (double)st.events);
	ck_assert_double_eq(num(out, "incompleteSegments", NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"events-lost\""));
	free(out);
	snprintf(cmd, sizeof cmd, "%s --report --quiet %s", top, dir);
	out = run(cmd);
	snprintf(want, sizeof want, "Lost:         %llu runtime events dropped\n",
	    (unsigned long long)st.dropped);
	ck_assert_ptr_nonnull(strstr(out, want));
	ck_assert_ptr_nonnull(strstr(out, "WARNING: this recording lost data"));
	ck_assert_ptr_nonnull(strstr(out, "events-lost"));
	free(out);
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
	return tc;
}
