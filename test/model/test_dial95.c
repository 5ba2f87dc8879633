/*
 * test_dial95.c: what dial9 0.5 traces hold (FORMAT 5), one test per row
 * of its table, on traces written with mktrace whose figures are worked
 * out by hand: queue depth and alive tasks per runtime (and the older
 * QueueSampleEvent), task spawn worker ids and instrumented flags, sched
 * waits not measured, worker ids 254 and 255, spans of dial9 0.5 (their
 * lifecycle, entered intervals paired LIFO per thread, parents, the
 * close's attributes) beside legacy ones, single-event spans with their
 * units, metrics.rs series, segment metadata (boot ids keeping the span
 * instances and runtimes of processes apart, segment.complete,
 * tokio.poll_coverage); and a directory
 * holding an old and a new trace read together. --json is checked for
 * the keys these add.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/json.h"
#include "base/schemas.h"
#include "base/wire.h"
#include "mktrace.h"
#include "model/figures/analysis.h"
#include "model/core/ids.h"
#include "model/figures/metrics.h"
#include "model/figures/runtimes.h"
#include "model/queries/spanset.h"
#include "output/output.h"
#include "suites.h"

static const struct d9m_window all = D9M_WHOLE_INIT;

static struct d9m_analysis
analyze(const struct d9m_model *m, struct d9m_window w)
{
	struct d9m_analysis a;
	struct d9m_analysis_opts o = { w, 10, 0, NULL, 0 };

	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	return a;
}

/* --json of the whole trace, parsed. */
static void
json_of(const struct d9m_model *m, struct d9_json *doc)
{
	struct d9m_analysis a = analyze(m, all);
	struct d9o_out o = { m, &a, NULL, NULL, NULL, 0, 0, 0 };
	struct d9_err e;
	char *text = NULL;
	size_t len = 0;

	o.f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(o.f);
	d9o_json(&o);
	fclose(o.f);
	ck_assert_msg(d9_json_parse(doc, text, len, &e) == 0, "%s", text);
	free(text);
	d9m_analysis_free(&a);
}

static const struct d9_jval *
path(const struct d9_jval *v, const char *a, const char *b, const char *c)
{
	v = d9_json_member(v, a);
	if (v != NULL && b != NULL)
		v = d9_json_member(v, b);
	if (v != NULL && c != NULL)
		v = d9_json_member(v, c);
	ck_assert_msg(v != NULL, "no %s.%s.%s", a, b ? b : "", c ? c : "");
	return v;
}

static uint32_t
group_named(const struct d9m_model *m, const char *name)
{
	for (size_t g = 0; g < m->nruntimes; g++)
		if (strcmp(d9m_str(m, m->runtimes[g].name), name) == 0)
			return (uint32_t)g;
	ck_abort_msg("no runtime %s", name);
	return D9_NONE;
}

/* Polls of tasks on workers ws[0 .. n), the ids 254 and 255 among them. */
static void
polls_on(struct mt *t, const unsigned *ws, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		mt_poll_start(t, 100 + 10 * i, ws[i], 1 + i, "a.rs:1:1");
		mt_poll_end(t, 200 + 10 * i, ws[i]);
	}
}

START_TEST(runtime_metrics_per_runtime)
{
	static const unsigned ws[] = { 0, 1, 2, 255, 254 };
	struct d9m_window late = { 2500, 3000 };
	struct d9m_model *m;
	struct d9m_analysis a;
	struct d9_json doc;
	const struct d9_jval *w;
	uint32_t api, bg, dflt;
	struct mt t;

	mt_begin(&t);
	mt_meta(&t, "runtime.api", "0,1");
	mt_meta(&t, "runtime.bg", "2");
	polls_on(&t, ws, 5);
	mt_runtime(&t, 1000, "api", 3, 10);
	mt_runtime(&t, 1000, "bg", 1, 4);
	mt_runtime(&t, 1000, "", 5, 2);
	mt_runtime(&t, 2000, "api", 7, 12);
	mt_runtime(&t, 2000, "bg", 0, 6);
	mt_runtime(&t, 2000, "", 2, 3);
	mt_runtime(&t, 3000, "api", 2, 11);
	m = mt_finish(&t);
	/* 254 and 255 are no lanes */
	ck_assert_uint_eq(m->nworkers, 3);
	ck_assert_uint_eq(m->polls.n, 3);
	/* by lowest worker; the default runtime has none here */
	ck_assert_uint_eq(m->nruntimes, 3);
	api = group_named(m, "api");
	bg = group_named(m, "bg");
	dflt = group_named(m, "");
	ck_assert_uint_eq(api, 0);
	ck_assert_uint_eq(bg, 1);
	ck_assert_uint_eq(dflt, 2);
	ck_assert_uint_eq(m->workers[0].rtgroup, api);
	ck_assert_uint_eq(m->workers[2].rtgroup, bg);
	a = analyze(m, all);
	ck_assert_uint_eq(a.runtimes[api].queue_max, 7);
	ck_assert_uint_eq(a.runtimes[api].alive_max, 12);
	ck_assert_uint_eq(a.runtimes[bg].queue_max, 1);
	ck_assert_uint_eq(a.runtimes[bg].alive_max, 6);
	ck_assert_uint_eq(a.runtimes[dflt].queue_max, 5);
	ck_assert_uint_eq(a.runtimes[dflt].alive_max, 3);
	ck_assert_uint_eq(a.queue_max, 7);
	ck_assert_uint_eq(a.queue_samples, 7);
	d9m_analysis_free(&a);
	a = analyze(m, late);
	ck_assert_uint_eq(a.runtimes[api].queue_max, 2);
	ck_assert_uint_eq(a.runtimes[api].alive_max, 11);
	ck_assert_uint_eq(a.runtimes[bg].samples, 0);
	ck_assert_uint_eq(a.runtimes[bg].alive_max, D9_NONE);
	d9m_analysis_free(&a);
	json_of(m, &doc);
	ck_assert_double_eq(d9_json_num(path(doc.root, "runtimes", "api",
	    "globalQueueMax")), 7);
	ck_assert_double_eq(d9_json_num(path(doc.root, "runtimes", "api",
	    "aliveTasksMax")), 12);
	w = path(doc.root, "runtimes", "api", "workers");
	ck_assert_uint_eq(d9_json_n(w), 2);
	ck_assert_double_eq(d9_json_num(d9_json_kid(w, 1)), 1);
	ck_assert_uint_eq(d9_json_n(path(doc.root, "runtimes", "",
	    "workers")), 0);
	ck_assert_double_eq(d9_json_num(path(doc.root, "runtimes", "",
	    "aliveTasksMax")), 3);
	ck_assert_uint_eq(d9_json_n(path(doc.root, "workers", NULL, NULL)), 3);
	d9_json_free(&doc);
	d9m_model_free(&m);
}
END_TEST

/* QueueSampleEvent sums every runtime: it counts for the only group, or
 * else stands for the default runtime; it says nothing of alive tasks. */
START_TEST(queue_sample_fallback)
{
	static const unsigned ws[] = { 0, 1 };
	struct d9m_model *m;
	struct d9m_analysis a;
	struct d9_json doc;
	struct mt t;

	for (int named = 0; named < 3; named++) {
		mt_begin_old(&t);
		if (named >= 1)
			mt_meta(&t, "runtime.api", named == 1 ? "0,1" : "0");
		if (named == 2)
			mt_meta(&t, "runtime.bg", "1");
		polls_on(&t, ws, 2);
		mt_queue(&t, 300, 4);
		mt_queue(&t, 400, 9);
		m = mt_finish(&t);
		ck_assert_uint_eq(m->nruntimes, named == 2 ? 3 : 1);
		a = analyze(m, all);
		{
			uint32_t g = group_named(m, named == 1 ? "api" : "");

			ck_assert_uint_eq(a.runtimes[g].queue_max, 9);
			ck_assert_uint_eq(a.runtimes[g].samples, 2);
			ck_assert_uint_eq(a.runtimes[g].alive_max, D9_NONE);
		}
		if (named == 2)
			ck_assert_uint_eq(a.runtimes[group_named(m, "api")].
			    samples, 0);
		d9m_analysis_free(&a);
		json_of(m, &doc);
		ck_assert_int_eq(d9_json_type(path(doc.root, "runtimes",
		    named == 1 ? "api" : "", "aliveTasksMax")), D9_JNULL);
		d9_json_free(&doc);
		d9m_model_free(&m);
	}
}
END_TEST

START_TEST(spawn_worker_and_sched_wait)
{
	struct d9m_model *m;
	struct mt t;
	uint32_t r7, r8;

	mt_begin(&t);
	mt_spawn_w(&t, 100, 7, "a.rs:1:1", 1, 0);
	mt_spawn(&t, 110, 8, "b.rs:2:2");
	mt_park(&t, 150, 0, 0, 9);
	mt_unpark(&t, 200, 0, 0, 9, UINT64_MAX);	/* not measured */
	mt_park(&t, 300, 0, 0, 9);
	mt_unpark(&t, 400, 0, 0, 9, 0);			/* measured: none */
	mt_park(&t, 500, 0, 0, 9);
	mt_unpark(&t, 600, 0, 0, 9, 2000000);
	m = mt_finish(&t);
	r7 = d9m_task_find(m, 7);
	r8 = d9m_task_find(m, 8);
	ck_assert_uint_eq(d9m_worker_own(m, m->tasks.spawn_worker[r7]), 1);
	ck_assert(m->tasks.flags[r7] & D9M_TASK_INSTR_FIELD);
	ck_assert(!(m->tasks.flags[r7] & D9M_TASK_INSTRUMENTED));
	ck_assert_uint_eq(m->tasks.spawn_worker[r8], D9_NONE);
	ck_assert(m->tasks.flags[r8] & D9M_TASK_INSTRUMENTED);
	ck_assert_uint_eq(m->parks.n, 3);
	ck_assert_uint_eq(m->parks.sched_wait[0], D9M_ABSENT);
	ck_assert_uint_eq(m->parks.sched_wait[1], 0);
	ck_assert_uint_eq(m->parks.sched_wait[2], 2000000);
	{
		struct d9m_analysis a = analyze(m, all);

		/* only the wait measured above zero */
		ck_assert_uint_eq(a.workers[0].sched_wait_n, 1);
		ck_assert_uint_eq(a.workers[0].sched_wait_max, 2000000);
		d9m_analysis_free(&a);
	}
	d9m_model_free(&m);
}
END_TEST

/* The instance whose span starts at start. */
static size_t
span_at(const struct d9m_model *m, uint64_t start)
{
	for (size_t i = 0; i < m->spans.n; i++)
		if (m->spans.start[i] == start)
			return i;
	ck_abort_msg("no span starts at %llu", (unsigned long long)start);
	return 0;
}

static const struct d9m_span_fig *
span_fig(const struct d9m_analysis *a, const struct d9m_model *m,
    const char *name)
{
	for (size_t i = 0; i < a->nspans; i++)
		if (strcmp(d9m_str(m, a->spans[i].name), name) == 0)
			return &a->spans[i];
	ck_abort_msg("no span %s", name);
	return NULL;
}

START_TEST(spans_of_dial9_05)
{
	struct d9m_model *m;
	struct d9m_analysis a;
	const struct d9m_span_fig *f;
	struct d9_json doc;
	char txt[200];
	size_t r1, r2;
	struct mt t;

	mt_begin(&t);
	mt_span(&t, 0, 100, 0, 50, "work");	/* legacy: 100 .. 400 */
	mt_span(&t, 1, 400, 0, 50, "work");
	mt_poll_start(&t, 1000, 0, 3, "a.rs:1:1");
	/* 1: start 1000, entered [1100, 1300) on w0 and [2000, 2400) on w1 */
	mt_mspan(&t, 0, 1100, 0, 1, 7, "req");
	mt_mspan(&t, 1, 1300, 0, 1, 7, "req");
	mt_poll_end(&t, 1400, 0);
	mt_mspan(&t, 0, 2000, 1, 1, 8, "req");
	mt_mspan(&t, 1, 2400, 1, 1, 8, "req");
	mt_mclose(&t, 3000, 1, 1000, "req", 0, "route", "/a");
	/* 2: child of 1, entered twice on one thread: LIFO */
	mt_mspan(&t, 0, 5100, 0, 2, 7, "req");
	mt_mspan(&t, 0, 5150, 0, 2, 7, "req");
	mt_mspan(&t, 1, 5200, 0, 2, 7, "req");
	mt_mspan(&t, 1, 5300, 0, 2, 7, "req");
	mt_mclose(&t, 6000, 2, 5000, "req", 1, NULL, NULL);
	/* 3: only its close */
	mt_mclose(&t, 9000, 3, 6000, "req", 0, NULL, NULL);
	/* 5 */
	mt_mclose(&t, 8500, 5, 8000, "db", 0, NULL, NULL);
	/* 4: an exit on another thread pairs with nothing */
	mt_mspan(&t, 0, 10000, 1, 4, 7, "req");
	mt_mspan(&t, 1, 10100, 1, 4, 9, "req");
	mt_mspan(&t, 1, 10200, 1, 4, 7, "req");
	mt_mclose(&t, 12000, 4, 8000, "req", 0, NULL, NULL);
	/* 6: never closed */
	mt_mspan(&t, 0, 13000, 0, 6, 7, "req");
	mt_mspan(&t, 1, 13100, 0, 6, 7, "req");
	m = mt_finish(&t);

	ck_assert_uint_eq(m->spans.n, 6);
	r1 = span_at(m, 1000);
	r2 = span_at(m, 5000);
	ck_assert_uint_eq(m->spans.dur[r1], 2000);
	ck_assert_uint_eq(m->spans.active[r1], 600);
	ck_assert_uint_eq(m->spans.slices[r1], 2);
	ck_assert_uint_eq(d9m_worker_own(m, m->spans.worker[r1]), 0);
	ck_assert_uint_eq(m->spans.kind[r1], D9M_FORM_LIFECYCLE);
	d9m_fields_text(m, m->spans.fields[r1], txt, sizeof txt);
	ck_assert_str_eq(txt, "route=/a");
	ck_assert_uint_eq(m->spans.dur[r2], 1000);
	ck_assert_uint_eq(m->spans.active[r2], 50 + 200);
	ck_assert_uint_eq(m->spans.parent[r2], r1);
	ck_assert_uint_eq(m->spans.parent[r1], D9_NONE);
	d9m_fields_text(m, m->spans.fields[r2], txt, sizeof txt);
	ck_assert_str_eq(txt, "user=bob");
	ck_assert_uint_eq(m->spans.dur[span_at(m, 6000)], 3000);
	ck_assert_uint_eq(m->spans.active[span_at(m, 6000)], 0);
	ck_assert_uint_eq(m->spans.worker[span_at(m, 6000)], D9_NONE);
	for (size_t i = 0; i < m->spans.n; i++)
		if (m->spans.start[i] == 8000 && m->spans.dur[i] == 4000) {
			ck_assert_uint_eq(m->spans.active[i], 200);
			ck_assert_uint_eq(m->spans.slices[i], 1);
		}
	ck_assert_uint_eq(m->spans.kind[span_at(m, 100)], D9M_FORM_LEGACY);

	a = analyze(m, all);
	f = span_fig(&a, m, "req");		/* 2000, 1000, 3000, 4000 */
	ck_assert_uint_eq(f->dur.count, 4);
	ck_assert_uint_eq(f->dur.p50, 2000);
	ck_assert_uint_eq(f->dur.p99, 4000);
	ck_assert_uint_eq(f->dur.max, 4000);
	ck_assert_uint_eq(span_fig(&a, m, "db")->dur.max, 500);
	ck_assert_uint_eq(span_fig(&a, m, "work")->dur.max, 300);
	ck_assert_uint_eq(a.unmatched_spans, 1);	/* 6 */
	ck_assert_uint_eq(a.spans_poll_max, 1);		/* [1100, 1300) */
	d9m_analysis_free(&a);
	json_of(m, &doc);
	ck_assert_double_eq(d9_json_num(path(doc.root, "spans", "req",
	    "p50")), 2000);
	ck_assert_double_eq(d9_json_num(path(doc.root, "spans", "req",
	    "count")), 4);
	d9_json_free(&doc);
	d9m_model_free(&m);
}
END_TEST

/* Schema id with n fields and its annotations. */
static void
annotated(struct mt *t, uint16_t id, const char *name, size_t n,
    const struct tg_field *f, size_t na, const struct tg_annot *an)
{
	tg_schema(&t->tg, id, name, 1, n, f);
	tg_annotations(&t->tg, id, na, an);
}

static void
op_event(struct mt *t, uint64_t end, uint64_t dur_us, const char *op,
    const char *status)
{
	mt_event(t, 40, end);
	tg_leb(&t->tg, dur_us);
	tg_str32(&t->tg, op);
	tg_u32(&t->tg, 77);
	tg_leb(&t->tg, 1);
	tg_str32(&t->tg, status);
}

START_TEST(single_event_spans)
{
	static const struct tg_field op[] = { { "dur", D9_FT_VARINT },
	    { "op", D9_FT_STRING }, { "thread", D9_FT_U32 },
	    { "wk", D9_FT_VARINT }, { "status", D9_FT_STRING } };
	static const struct tg_annot op_an[] = {
	    { 0, D9_ANN_ROLE, D9_ROLE_SPAN_DURATION }, { 0, "unit", "us" },
	    { 1, D9_ANN_ROLE, D9_ROLE_SPAN_NAME },
	    { 2, D9_ANN_ROLE, D9_ROLE_THREAD_ID },
	    { 3, D9_ANN_ROLE, D9_ROLE_WORKER_ID } };
	static const struct tg_field job[] = { { "began", D9_FT_VARINT },
	    { "n", D9_FT_U32 } };
	static const struct tg_annot job_an[] = {
	    { 0, D9_ANN_ROLE, D9_ROLE_SPAN_START }, { 0, "unit", "ms" } };
	static const struct tg_field bad[] = { { "d", D9_FT_STRING } };
	static const struct tg_annot bad_an[] = {
	    { 0, D9_ANN_ROLE, D9_ROLE_SPAN_DURATION } };
	static const struct tg_field weird[] = { { "d", D9_FT_VARINT } };
	static const struct tg_annot weird_an[] = {
	    { 0, D9_ANN_ROLE, D9_ROLE_SPAN_DURATION },
	    { 0, "unit", "fortnights" } };
	static const struct tg_annot late_an[] = {
	    { 0, D9_ANN_ROLE, D9_ROLE_SPAN_START } };
	struct d9m_model *m;
	struct d9m_analysis a;
	const struct d9m_span_fig *f;
	char txt[200];
	size_t r;
	struct mt t;

	mt_begin(&t);
	annotated(&t, 40, "metrique:Op", 5, op, 5, op_an);
	annotated(&t, 41, "app:Job", 2, job, 2, job_an);
	annotated(&t, 42, "app:Bad", 1, bad, 1, bad_an);
	annotated(&t, 43, "app:Weird", 1, weird, 2, weird_an);
	annotated(&t, 44, "app:Late", 1, weird, 1, late_an);
	mt_event(&t, 44, 100);		/* starts after its end */
	tg_leb(&t.tg, 500);
	mt_event(&t, 41, 3000000);	/* began at 2 ms */
	tg_leb(&t.tg, 2);
	tg_u32(&t.tg, 5);
	op_event(&t, 10000000, 250, "read", "ok");
	op_event(&t, 11000000, 100, "read", "ok");
	op_event(&t, 12000000, 400, " ", "slow");	/* by its schema */
	mt_event(&t, 42, 12000000);
	tg_str32(&t.tg, "1");
	mt_event(&t, 43, 12000000);
	tg_leb(&t.tg, 1);
	m = mt_finish(&t);

	ck_assert_uint_eq(m->spans.n, 4);
	ck_assert_uint_eq(m->custom.n, 3);	/* Bad, Weird, Late */
	r = span_at(m, 9750000);
	ck_assert_uint_eq(m->spans.dur[r], 250000);
	ck_assert_uint_eq(d9m_worker_own(m, m->spans.worker[r]), 1);
	ck_assert_uint_eq(m->spans.kind[r], D9M_FORM_SINGLE);
	ck_assert_str_eq(d9m_str(m, m->spans.name[r]), "read");
	d9m_fields_text(m, m->spans.fields[r], txt, sizeof txt);
	ck_assert_str_eq(txt, "op=read status=ok");
	for (size_t i = 0; i < m->spanev.n; i++)
		if (D9M_EV(m, kind, i) == D9M_SPAN_SINGLE &&
		    m->spanx.start[m->spanev.id[i]] == 9750000)
			ck_assert_uint_eq(m->spanx.tid[m->spanev.id[i]], 77);
	r = span_at(m, 2000000);
	ck_assert_uint_eq(m->spans.dur[r], 1000000);
	ck_assert_str_eq(d9m_str(m, m->spans.name[r]), "app:Job");
	a = analyze(m, all);
	f = span_fig(&a, m, "read");
	ck_assert_uint_eq(f->dur.count, 2);
	ck_assert_uint_eq(f->dur.p50, 100000);
	ck_assert_uint_eq(f->dur.p99, 250000);
	ck_assert_uint_eq(span_fig(&a, m, "metrique:Op")->dur.max, 400000);
	ck_assert_uint_eq(span_fig(&a, m, "app:Job")->dur.count, 1);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

static void
f64(struct mt *t, double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof u);
	tg_u64(&t->tg, u);
}

static const struct d9m_metric_fig *
metric_fig(const struct d9m_analysis *a, const struct d9m_model *m,
    const char *name)
{
	for (size_t i = 0; i < a->nmetrics; i++)
		if (strcmp(d9m_str(m, m->metrics.name[a->metrics[i].metric]),
		    name) == 0)
			return &a->metrics[i];
	ck_abort_msg("no metric %s", name);
	return NULL;
}

START_TEST(metrics_rs_series)
{
	static const struct tg_field cnt[] = { { "value", D9_FT_VARINT } };
	static const struct tg_annot cnt_an[] = { { 0, D9_ANN_KIND,
	    "counter" } };
	static const struct tg_field gauge[] = { { "value", D9_FT_F64 } };
	static const struct tg_annot gauge_an[] = {
	    { 0, D9_ANN_KIND, "gauge" }, { 0, "unit", "bytes" } };
	static const struct tg_field hist[] = { { "count", D9_FT_VARINT },
	    { "p50", D9_FT_F64 | D9_FT_OPTIONAL } };
	static const struct tg_annot hist_an[] = {
	    { 0, D9_ANN_KIND, "counter" }, { 1, D9_ANN_KIND, "gauge" } };
	static const uint64_t reqs[] = { 10, 25, 5, 12 };
	const uint64_t edges[] = { 0, 2500, 5000 };
	struct d9m_model *m;
	struct d9m_analysis a;
	const struct d9m_metric_fig *f;
	struct d9_json doc;
	double col[2];
	struct mt t;

	mt_begin(&t);
	annotated(&t, 50, "metricsrs:requests_total", 1, cnt, 1, cnt_an);
	annotated(&t, 51, "metricsrs:inflight{pool=a}", 1, gauge, 2,
	    gauge_an);
	annotated(&t, 52, "metricsrs:query_ms", 2, hist, 2, hist_an);
	for (int i = 0; i < 4; i++) {
		mt_event(&t, 50, 1000 * (uint64_t)(i + 1));
		tg_leb(&t.tg, reqs[i]);	/* 5: the counter was reset */
	}
	mt_event(&t, 51, 1000);
	f64(&t, 1.5);
	mt_event(&t, 51, 2000);
	f64(&t, 3.25);
	mt_event(&t, 52, 1000);
	tg_leb(&t.tg, 4);
	tg_u8(&t.tg, 1);
	f64(&t, 9.5);
	mt_event(&t, 52, 2000);
	tg_leb(&t.tg, 4);
	tg_u8(&t.tg, 0);		/* nothing measured: no p50 */
	m = mt_finish(&t);

	ck_assert_uint_eq(m->custom.n, 0);
	ck_assert_uint_eq(m->metrics.n, 4);
	a = analyze(m, all);
	ck_assert_uint_eq(a.nmetrics, 4);
	ck_assert_str_eq(d9m_str(m, m->metrics.name[a.metrics[0].metric]),
	    "inflight{pool=a}");
	f = metric_fig(&a, m, "requests_total");
	ck_assert_uint_eq(f->samples, 4);
	ck_assert_double_eq(f->min, 5);
	ck_assert_double_eq(f->max, 25);
	ck_assert_double_eq(f->last, 12);
	ck_assert_double_eq(f->increase, 15 + 5 + 7);
	ck_assert_uint_eq(m->metrics.kind[f->metric], D9M_COUNTER);
	f = metric_fig(&a, m, "inflight{pool=a}");
	ck_assert_double_eq(f->max, 3.25);
	ck_assert_str_eq(d9m_str(m, m->metrics.unit[f->metric]), "bytes");
	ck_assert_uint_eq(metric_fig(&a, m, "query_ms.p50")->samples, 1);
	ck_assert_uint_eq(metric_fig(&a, m, "query_ms.count")->samples, 2);
	d9m_analysis_free(&a);
	ck_assert_int_eq(d9m_metric_columns(m, 0, edges, 2, col), 0);
	ck_assert_double_eq(col[0], 15);	/* 10 -> 25 */
	ck_assert_double_eq(col[1], 5 + 7);	/* reset, 5 -> 12 */
	ck_assert_int_eq(d9m_metric_columns(m, 1, edges, 2, col), 0);
	ck_assert_double_eq(col[0], 3.25);
	ck_assert(isnan(col[1]));
	json_of(m, &doc);
	ck_assert_str_eq(d9_json_str(path(doc.root, "metrics",
	    "requests_total", "kind"), NULL), "counter");
	ck_assert_double_eq(d9_json_num(path(doc.root, "metrics",
	    "requests_total", "increase")), 27);
	ck_assert_str_eq(d9_json_str(path(doc.root, "metrics",
	    "inflight{pool=a}", "unit"), NULL), "bytes");
	d9_json_free(&doc);
	d9m_model_free(&m);
}
END_TEST

/* One process's trace: its boot id, a span instance 1 named name, a
 * sample of its runtime "api" with that queue depth. */
static char *
boot_file(const char *boot, const char *name, uint64_t t0, uint32_t depth)
{
	struct mt t;
	char *p;

	mt_begin(&t);
	mt_meta(&t, "boot_id", boot);
	mt_mspan(&t, 0, t0 + 100, 0, 1, 7, name);
	mt_mspan(&t, 1, t0 + 200, 0, 1, 7, name);
	mt_mclose(&t, t0 + 300, 1, t0 + 50, name, 0, NULL, NULL);
	mt_runtime(&t, t0 + 400, "api", depth, 1);
	p = mt_write(&t);
	tg_free(&t.tg);
	return p;
}

START_TEST(segment_metadata)
{
	char *f[2] = { boot_file("abcd-1", "a", 0, 3),
	    boot_file("wxyz-2", "b", 10000, 9) };
	const char *paths[] = { f[0], f[1] };
	struct d9m_model *m = mt_load(paths, 2);
	struct d9m_analysis a;
	struct mt t;
	int found;

	/* instance 1 of each process is its own span */
	ck_assert_uint_eq(m->spans.n, 2);
	ck_assert_uint_eq(m->spans.dur[0], 250);
	ck_assert_uint_eq(m->spans.active[0], 100);
	ck_assert_str_eq(d9m_str(m, m->spans.name[1]), "b");
	ck_assert_uint_eq(m->spans.active[1], 100);
	/* and runtime api of each process its own runtime */
	ck_assert_uint_eq(m->nruntimes, 2);
	a = analyze(m, all);
	ck_assert_uint_eq(a.runtimes[group_named(m, "api")].queue_max, 3);
	ck_assert_uint_eq(a.runtimes[group_named(m, "1:api")].queue_max, 9);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
	for (int i = 0; i < 2; i++) {
		unlink(f[i]);
		free(f[i]);
	}

	mt_begin(&t);
	mt_meta(&t, "segment.complete", "false");
	mt_meta(&t, "tokio.poll_coverage", "dial9-spawns-only");
	mt_poll_start(&t, 100, 0, 1, "a.rs:1:1");
	mt_poll_end(&t, 200, 0);
	m = mt_finish(&t);
	ck_assert_uint_eq(m->loss.incomplete, 1);
	a = analyze(m, all);
	ck_assert(a.setup_spawns_only);
	found = 0;
	for (size_t i = 0; i < a.nflags; i++)
		found += strcmp(a.flags[i].check, "partial-poll-coverage") == 0;
	ck_assert_int_eq(found, 1);
	d9m_analysis_free(&a);
	d9m_model_free(&m);

	mt_begin(&t);
	mt_meta(&t, "tokio.poll_coverage", "all");
	mt_poll_start(&t, 100, 0, 1, "a.rs:1:1");
	mt_poll_end(&t, 200, 0);
	m = mt_finish(&t);
	a = analyze(m, all);
	ck_assert(!a.setup_spawns_only);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

/* A directory with a trace of each dialect: read together. */
START_TEST(old_and_new_in_one_directory)
{
	static const struct tg_field cnt[] = { { "value", D9_FT_VARINT } };
	static const struct tg_annot cnt_an[] = { { 0, D9_ANN_KIND,
	    "counter" } };
	char dir[] = "/tmp/d9unit-dirXXXXXX", *f[2];
	const char *paths[] = { dir };
	struct d9m_model *m;
	struct d9m_analysis a;
	struct mt t;
	uint32_t api, dflt;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	mt_begin_old(&t);
	mt_spawn(&t, 50, 1, "old.rs:1:1");
	mt_poll_start(&t, 100, 0, 1, "old.rs:1:1");
	mt_span(&t, 0, 110, 0, 9, "work");
	mt_span(&t, 1, 160, 0, 9, "work");
	mt_span(&t, 2, 170, 0, 9, "");
	mt_poll_end(&t, 200, 0);
	mt_queue(&t, 300, 6);
	f[0] = mt_write(&t);
	tg_free(&t.tg);

	mt_begin(&t);
	mt_meta(&t, "runtime.api", "1");
	annotated(&t, 50, "metricsrs:requests_total", 1, cnt, 1, cnt_an);
	mt_spawn_w(&t, 1000, 2, "new.rs:1:1", 1, 1);
	mt_poll_start(&t, 1100, 1, 2, "new.rs:1:1");
	mt_mspan(&t, 0, 1150, 1, 1, 7, "req");
	mt_mspan(&t, 1, 1250, 1, 1, 7, "req");
	mt_poll_end(&t, 1300, 1);
	mt_mclose(&t, 1400, 1, 1000, "req", 0, NULL, NULL);
	mt_runtime(&t, 1500, "api", 3, 1);
	mt_event(&t, 50, 1500);
	tg_leb(&t.tg, 8);
	f[1] = mt_write(&t);
	tg_free(&t.tg);
	for (int i = 0; i < 2; i++) {
		char to[64];

		snprintf(to, sizeof to, "%s/trace.%d.bin", dir, i);
		ck_assert_int_eq(rename(f[i], to), 0);
		free(f[i]);
	}

	m = mt_load(paths, 1);
	ck_assert_uint_eq(m->nerrors, 0);
	ck_assert_uint_eq(m->nworkers, 2);
	ck_assert_uint_eq(m->nruntimes, 2);
	dflt = group_named(m, "");
	api = group_named(m, "api");
	ck_assert_uint_eq(m->workers[0].rtgroup, dflt);
	ck_assert_uint_eq(m->workers[1].rtgroup, api);
	a = analyze(m, all);
	ck_assert_uint_eq(a.tasks_spawned, 2);
	ck_assert_uint_eq(a.runtimes[dflt].queue_max, 6);
	ck_assert_uint_eq(a.runtimes[dflt].alive_max, D9_NONE);
	ck_assert_uint_eq(a.runtimes[api].queue_max, 3);
	ck_assert_uint_eq(a.runtimes[api].alive_max, 1);
	ck_assert_uint_eq(span_fig(&a, m, "work")->dur.max, 50);
	ck_assert_uint_eq(span_fig(&a, m, "req")->dur.max, 400);
	ck_assert_uint_eq(a.spans_poll_max, 1);
	ck_assert_uint_eq(a.nmetrics, 1);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
	for (int i = 0; i < 2; i++) {
		char to[64];

		snprintf(to, sizeof to, "%s/trace.%d.bin", dir, i);
		unlink(to);
	}
	rmdir(dir);
}
END_TEST

Suite *
dial95_suite(void)
{
	Suite *s = suite_create("dial95");
	TCase *tc = tcase_create("dial95");

	tcase_add_test(tc, runtime_metrics_per_runtime);
	tcase_add_test(tc, queue_sample_fallback);
	tcase_add_test(tc, spawn_worker_and_sched_wait);
	tcase_add_test(tc, spans_of_dial9_05);
	tcase_add_test(tc, single_event_spans);
	tcase_add_test(tc, metrics_rs_series);
	tcase_add_test(tc, segment_metadata);
	tcase_add_test(tc, old_and_new_in_one_directory);
	suite_add_tcase(s, tc);
	return s;
}
