/*
 * test_lines.c: report lines that used to leave the reader guessing
 * (issue "One answer everywhere"): tasks alive before the trace are
 * said and counted as seen; a directory mixing two allocation sample
 * rates says both; a worker that never parks has no utilization rather
 * than 0 %; a window past the trace's end says it holds nothing.
 * Issue 37: dial9 0.5.1's CudaGpuEvent (numeric fields annotated kind
 * gauge) is a metric series per device, and its system metadata names
 * the host and the machine, in --json and the report.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/json.h"
#include "base/wire.h"
#include "mktrace.h"
#include "model/figures/analysis.h"
#include "output/output.h"
#include "suites.h"

#define MS	1000000ull

/* The report of m over w, malloc'd. */
static char *
report_of(const struct d9m_model *m, struct d9m_window w)
{
	struct d9m_analysis_opts o = { w, 10, 0, NULL, 0 };
	struct d9m_analysis a;
	struct d9o_out out;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	ck_assert_ptr_nonnull(f = open_memstream(&buf, &len));
	memset(&out, 0, sizeof out);
	out.m = m;
	out.a = &a;
	out.f = f;
	d9o_report(&out);
	fclose(f);
	d9m_analysis_free(&a);
	return buf;
}

#define ck_has(text, s) ck_assert_msg(strstr((text), (s)) != NULL, \
	"report lacks \"%s\":\n%s", (s), (text))

/* A segment of one worker that polls without parking; task 1 alive
 * before the trace ends in it, task 2 is spawned; allocations sampled
 * at rate. */
static void
segment(struct mt *t, uint64_t t0, const char *rate)
{
	static const uint64_t fr[] = { 0x1000, 0x2000 };

	mt_begin(t);
	mt_meta(t, "memory.sample_rate_bytes", rate);
	mt_spawn(t, t0, 2, "b.rs:1:1");
	for (unsigned k = 0; k < 10; k++) {
		mt_poll_start(t, t0 + k * MS, 0, 1 + k % 2, "a.rs:1:1");
		mt_poll_end(t, t0 + k * MS + MS / 2, 0);
		mt_alloc(t, t0 + k * MS + 10, 4096, 0x10000 + k, 2, fr);
	}
	mt_term(t, t0 + 10 * MS, 1);
}

START_TEST(report_says_what_differs)
{
	struct mt a, b;
	char *pa, *pb, *r;
	const char *paths[2];
	struct d9m_model *m;

	segment(&a, 100 * MS, "524288");
	segment(&b, 120 * MS, "1048576");
	paths[0] = pa = mt_write(&a);
	paths[1] = pb = mt_write(&b);
	tg_free(&a.tg);
	tg_free(&b.tg);
	m = mt_load(paths, 2);
	r = report_of(m, D9M_WHOLE);
	ck_has(r, "Sample rate R = 524288 to 1048576 bytes");
	ck_has(r, "2 seen (1 alive before the trace)");
	ck_has(r, "n/a: no park or unpark");
	free(r);
	r = report_of(m, (struct d9m_window){ m->max_ts + 1000 * MS,
	    UINT64_MAX });
	ck_has(r, "the window is outside the trace");
	free(r);
	d9m_model_free(&m);
	unlink(pa);
	unlink(pb);
	free(pa);
	free(pb);
}
END_TEST

/* --json of m over the whole trace, parsed into doc. */
static void
json_of(const struct d9m_model *m, struct d9_json *doc)
{
	struct d9m_analysis_opts o = { D9M_WHOLE_INIT, 10, 0, NULL, 0 };
	struct d9m_analysis a;
	struct d9o_out out;
	struct d9_err e;
	char *buf = NULL;
	size_t len = 0;

	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	memset(&out, 0, sizeof out);
	out.m = m;
	out.a = &a;
	ck_assert_ptr_nonnull(out.f = open_memstream(&buf, &len));
	d9o_json(&out);
	fclose(out.f);
	ck_assert_msg(d9_json_parse(doc, buf, len, &e) == 0, "%s", buf);
	free(buf);
	d9m_analysis_free(&a);
}

#define GPU0	"CudaGpuEvent.compute_utilization_percent{device_uuid=GPU-0," \
		"device_name=NVIDIA A10G}"
#define GPU1MEM	"CudaGpuEvent.memory_used_bytes{device_uuid=GPU-1," \
		"device_name=NVIDIA A10G}"

/* NVML samples of two GPUs every 200 ms, as perf-self-profile's cuda.rs
 * writes them, and uname, /proc/cpuinfo and /proc/meminfo as its
 * system_metadata.rs does. */
START_TEST(gpu_series_and_system)
{
	static const struct tg_field f[] = { { "device_index", D9_FT_U32 },
	    { "device_uuid", D9_FT_STRING }, { "device_name", D9_FT_STRING },
	    { "compute_utilization_percent", D9_FT_U32 },
	    { "memory_io_utilization_percent", D9_FT_U32 },
	    { "memory_used_bytes", D9_FT_VARINT },
	    { "memory_total_bytes", D9_FT_VARINT } };
	static const struct tg_annot an[] = { { 3, "kind", "gauge" },
	    { 4, "kind", "gauge" }, { 5, "unit", "bytes" },
	    { 5, "kind", "gauge" }, { 6, "unit", "bytes" },
	    { 6, "kind", "gauge" } };
	static const unsigned util[2][5] = { { 10, 50, 90, 30, 20 },
	    { 5, 5, 7, 6, 5 } };
	const struct d9_jval *v, *src;
	struct d9m_model *m;
	struct d9_json doc;
	char *r;
	struct mt t;

	mt_begin(&t);
	mt_meta(&t, "cpu.profile.machine_hostname", "gpu-box-7");
	mt_meta(&t, "cpu.profile.machine_architecture", "x86_64");
	mt_meta(&t, "cpu.profile.kernel_release", "6.8.0-1012-aws");
	mt_meta(&t, "cpu.profile.kernel_version", "#13-Ubuntu SMP");
	mt_meta(&t, "cpu.profile.cpu_model", "AMD EPYC 7R32");
	mt_meta(&t, "cpu.profile.memory_total_bytes", "66708131840");
	tg_schema(&t.tg, 60, "CudaGpuEvent", 1, 7, f);
	tg_annotations(&t.tg, 60, 6, an);
	mt_poll_start(&t, MS, 0, 1, "a.rs:1:1");
	mt_poll_end(&t, 2 * MS, 0);
	for (unsigned k = 0; k < 5; k++)
		for (unsigned d = 0; d < 2; d++) {
			mt_event(&t, 60, (1 + 200 * (uint64_t)k) * MS);
			tg_u32(&t.tg, d);
			tg_str32(&t.tg, d ? "GPU-1" : "GPU-0");
			tg_str32(&t.tg, "NVIDIA A10G");
			tg_u32(&t.tg, util[d][k]);
			tg_u32(&t.tg, 3 * d + k);
			tg_leb(&t.tg, (1000 + 100 * (uint64_t)k) << 20);
			tg_leb(&t.tg, 24ull << 30);
		}
	m = mt_finish(&t);
	ck_assert_uint_eq(m->custom.n, 0);	/* a source, not events */
	ck_assert_uint_eq(m->metrics.n, 8);	/* 4 gauges x 2 GPUs */

	json_of(m, &doc);
	v = d9_json_member(d9_json_member(doc.root, "metrics"), GPU0);
	ck_assert_msg(v != NULL, "no metric " GPU0);
	ck_assert_double_eq(d9_json_num(d9_json_member(v, "max")), 90);
	ck_assert_double_eq(d9_json_num(d9_json_member(v, "samples")), 5);
	ck_assert_str_eq(d9_json_str(d9_json_member(v, "kind"), NULL),
	    "gauge");
	v = d9_json_member(d9_json_member(doc.root, "metrics"), GPU1MEM);
	ck_assert_msg(v != NULL, "no metric " GPU1MEM);
	ck_assert_str_eq(d9_json_str(d9_json_member(v, "unit"), NULL),
	    "bytes");
	ck_assert_double_eq(d9_json_num(d9_json_member(v, "max")),
	    1400.0 * 1048576);
	src = d9_json_next(d9_json_member(doc.root, "sources"), NULL);
	ck_assert_ptr_nonnull(src);
	ck_assert_str_eq(d9_json_str(d9_json_member(src, "host"), NULL),
	    "gpu-box-7");
	v = d9_json_member(src, "system");
	ck_assert_str_eq(d9_json_str(d9_json_member(v, "hostname"), NULL),
	    "gpu-box-7");
	ck_assert_str_eq(d9_json_str(d9_json_member(v, "kernelRelease"),
	    NULL), "6.8.0-1012-aws");
	ck_assert_str_eq(d9_json_str(d9_json_member(v, "architecture"),
	    NULL), "x86_64");
	ck_assert_str_eq(d9_json_str(d9_json_member(v, "cpuModel"), NULL),
	    "AMD EPYC 7R32");
	ck_assert_double_eq(d9_json_num(d9_json_member(v,
	    "memoryTotalBytes")), 66708131840.0);
	d9_json_free(&doc);

	r = report_of(m, (struct d9m_window)D9M_WHOLE_INIT);
	ck_has(r, "Host:         gpu-box-7: x86_64, Linux 6.8.0-1012-aws, AMD "
	    "EPYC 7R32, 66.7 GB\n              memory\n");
	ck_has(r, "CudaGpuEvent.compute_utilization_percent{device_uuid="
	    "GPU-0,device_name=NVIDIA\nA10G}\n                               "
	    "gauge                 5           10           90           20\n");
	free(r);
	d9m_model_free(&m);
}
END_TEST

/* The system's names are the trace's: nothing of them reaches the
 * terminal unescaped (a hostname and a kernel holding ESC). */
START_TEST(system_names_escaped)
{
	struct d9m_model *m;
	char *r;
	struct mt t;

	mt_begin(&t);
	mt_meta(&t, "cpu.profile.machine_hostname", "box\033[2J");
	mt_meta(&t, "cpu.profile.kernel_release", "6.8\033]0;x\007");
	mt_poll_start(&t, MS, 0, 1, "a.rs:1:1");
	mt_poll_end(&t, 2 * MS, 0);
	m = mt_finish(&t);
	r = report_of(m, (struct d9m_window)D9M_WHOLE_INIT);
	ck_has(r, "Host:         box");
	ck_assert_msg(strchr(r, '\033') == NULL && strchr(r, '\007') == NULL,
	    "a control byte of the trace in the report");
	free(r);
	d9m_model_free(&m);
}
END_TEST

Suite *
lines_suite(void)
{
	Suite *s = suite_create("lines");
	TCase *tc = tcase_create("report");

	tcase_add_test(tc, report_says_what_differs);
	tcase_add_test(tc, gpu_series_and_system);
	tcase_add_test(tc, system_names_escaped);
	suite_add_tcase(s, tc);
	return s;
}
