/*
 * test_engine.c: one engine. What the browser's views draw and what the
 * report and JSON print come from the same model functions: an
 * allocation flame tree weighs each sample with its own segment's rate,
 * so its total is the analysis's estimated bytes; the live set and the
 * counts agree the same way.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/wire.h"
#include "mktrace.h"
#include "model/figures/analysis.h"
#include "model/figures/observer.h"
#include "model/queries/flame.h"
#include "output/output.h"
#include "planted.h"
#include "whytrace.h"
#include "suites.h"

static const struct d9m_window all = D9M_WHOLE_INIT;

static double
flame_total(const struct d9m_model *m, int count, int liveset)
{
	struct d9m_query q = D9M_QUERY_INIT;
	struct d9m_flame *f;
	double w;

	q.kind = D9M_F_ALLOC;
	q.flags = (count ? D9M_Q_COUNT : 0) | (liveset ? D9M_Q_LIVE : 0);
	f = d9m_flame_build(m, NULL, &q);
	ck_assert_ptr_nonnull(f);
	w = f->nodes[0].w;
	d9m_flame_free(&f);
	return w;
}

/* Segment k of three: allocations of sizes that weigh fractions, under
 * stacks of their own and one stack all three share, and on-CPU samples
 * of as many stacks as there are segments before it, one sample each (a
 * tie of weights the tree orders by name). */
static char *
order_segment(unsigned k)
{
	const uint64_t shared[] = { 0x1000, 0x2000 };
	struct mt t;
	char *path;

	mt_begin(&t);
	mt_meta(&t, "memory.sample_rate_bytes", "4096");
	/* one process: the same wall-clock offset */
	mt_clock(&t, 1000000 * k + 50, 1000000 * k + 50 + 1700000000000000000ull);
	for (uint64_t i = 0; i < 50; i++) {
		uint64_t own[] = { 0x5000 + 0x100 * k + i % 3, 0x2000 };
		uint64_t ts = 1000000 * k + 100 + i;

		mt_alloc(&t, ts, 100 + 37 * i + k, 0x10000 * (k + 1) + i,
		    i % 2 ? 2 : 1, i % 2 ? shared : own);
	}
	for (uint64_t i = 0; i <= k; i++) {
		uint64_t f[] = { 0x9000 + 0x10 * (2 - k) + i, 0x8000 };

		mt_cpu(&t, 1000000 * k + 500 + i, 7, 0, 2, f);
	}
	path = mt_write(&t);
	tg_free(&t.tg);
	return path;
}

/* A flame tree as text: each node, depth first in its children's order,
 * with its weight to the last bit. */
static char *
tree_text(const struct d9m_model *m, enum d9m_flame_kind kind)
{
	struct d9m_query q = D9M_QUERY_INIT;
	struct d9m_flame *f;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	q.kind = kind;
	ck_assert_ptr_nonnull(f = d9m_flame_build(m, NULL, &q));
	ck_assert_int_eq(d9o_folded_tree(out, f), 0);
	for (uint32_t i = 0; i < f->n; i++)
		fprintf(out, "%s %a\n", d9m_flame_name(f, i), f->nodes[i].w);
	fclose(out);
	d9m_flame_free(&f);
	return buf;
}

/*
 * The same segments read in another order (cat sorts trace.10 before
 * trace.2) give the same figures to the last bit: the memory sites'
 * estimated bytes and counts (summed in the rows' order, not in the
 * order of their stack and segment ids), and the flame trees' weights
 * and order (children as heavy by name, --folded's lines depth first).
 */
START_TEST(test_order_of_files)
{
	char *p[3], *rev[3];
	struct d9m_model *m[2];
	struct d9m_analysis a[2];
	struct d9m_analysis_opts o = { all, 10, 0, NULL, 0 };
	char *cpu[2], *mem[2];

	for (unsigned k = 0; k < 3; k++)
		p[k] = order_segment(k);
	for (unsigned k = 0; k < 3; k++)
		rev[k] = p[2 - k];
	m[0] = mt_load((const char *const *)p, 3);
	m[1] = mt_load((const char *const *)rev, 3);
	for (int j = 0; j < 2; j++) {
		ck_assert_ptr_nonnull(m[j]);
		ck_assert_int_eq(d9m_analyze(m[j], &o, &a[j]), 0);
		cpu[j] = tree_text(m[j], D9M_F_CPU);
		mem[j] = tree_text(m[j], D9M_F_ALLOC);
	}
	ck_assert_uint_eq(a[0].mem.nsites, a[1].mem.nsites);
	ck_assert_uint_ge(a[0].mem.nsites, 4);
	for (size_t i = 0; i < a[0].mem.nsites; i++) {
		const struct d9m_site *x = &a[0].mem.sites[i],
		    *y = &a[1].mem.sites[i];
		size_t nx, ny;
		const uint8_t *sx = d9m_stack(m[0], x->stack, &nx),
		    *sy = d9m_stack(m[1], y->stack, &ny);

		ck_assert_uint_eq(nx, ny);
		ck_assert_int_eq(memcmp(sx, sy, 8 * nx), 0);
		ck_assert_uint_eq(x->sampled, y->sampled);
		ck_assert_msg(x->est_bytes == y->est_bytes &&
		    x->est_count == y->est_count, "site %zu: %a %a bytes, "
		    "%a %a count", i, x->est_bytes, y->est_bytes,
		    x->est_count, y->est_count);
	}
	ck_assert_str_eq(cpu[0], cpu[1]);
	ck_assert_str_eq(mem[0], mem[1]);
	for (int j = 0; j < 2; j++) {
		d9m_analysis_free(&a[j]);
		d9m_model_free(&m[j]);
		free(cpu[j]);
		free(mem[j]);
	}
	for (unsigned k = 0; k < 3; k++) {
		unlink(p[k]);
		free(p[k]);
	}
}
END_TEST

/* Two segments recorded with sample rates 4 KiB and 1 MiB. */
START_TEST(test_two_rates)
{
	struct mt t, u;
	char *p[2];
	const uint64_t f1[] = { 0x1000, 0x2000 }, f2[] = { 0x3000 };
	struct d9m_analysis_opts o = { all, 10, 0, NULL, 0 };
	struct d9m_analysis a;
	struct d9m_model *m;
	double small, big;

	mt_begin(&t);
	mt_meta(&t, "memory.sample_rate_bytes", "4096");
	for (uint64_t i = 0; i < 40; i++)
		mt_alloc(&t, 100 + i, 512 + 64 * i, 0x10000 + i, 2, f1);
	mt_free(&t, 500, 0x10000, 512, 100);
	p[0] = mt_write(&t);
	mt_begin(&u);
	mt_meta(&u, "memory.sample_rate_bytes", "1048576");
	for (uint64_t i = 0; i < 30; i++)
		mt_alloc(&u, 1000 + i, 2048 + 128 * i, 0x20000 + i, 1, f2);
	p[1] = mt_write(&u);
	m = mt_load((const char *const *)p, 2);
	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	/* the two rates really weigh differently */
	small = 512 / -expm1(-512.0 / 4096);
	big = 2048 / -expm1(-2048.0 / 1048576);
	ck_assert(big / 2048 > 10 * (small / 512));
	ck_assert(fabs(flame_total(m, 0, 0) - a.mem.est_bytes) <
	    1e-9 * a.mem.est_bytes);
	ck_assert(fabs(flame_total(m, 1, 0) - a.mem.est_count) <
	    1e-9 * a.mem.est_count);
	ck_assert(fabs(flame_total(m, 0, 1) - a.mem.live_bytes) <
	    1e-9 * a.mem.live_bytes);
	ck_assert(a.mem.live_bytes < a.mem.est_bytes);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
	for (int i = 0; i < 2; i++) {
		unlink(p[i]);
		free(p[i]);
	}
	tg_free(&t.tg);
	tg_free(&u.tg);
}
END_TEST

/* One 12 ms poll of each verdict class: its verdict in the analysis,
 * the JSON and the report. */
START_TEST(test_verdict_classes)
{
	static const char *const kinds[8] = { "cpu", "preempted", "lock",
	    "sleep", "io", "fault", "blocked", "unknown" };
	static const char *const lines[8] = {
	    "cpu: 8 of 8 samples on CPU, hottest in svc::compute",
	    "preempted: 8 of 8 samples preempted by the kernel (CPU "
	    "contention), under svc::spin",
	    "lock: 8 of 8 samples waiting in futex, under "
	    "hidden_svc::cache::get",
	    "sleep: 8 of 8 samples sleeping in nanosleep, under svc::backoff",
	    "io: 8 of 8 samples waiting for I/O in io_schedule, under "
	    "svc::load_file",
	    "fault: 8 of 8 samples in a page fault, under svc::touch",
	    "blocked: 8 of 8 samples off CPU, under svc::reap",
	    "unknown: no CPU samples in this poll" };
	struct d9m_analysis_opts o = { all, 20, 0, NULL, 0 };
	struct d9m_analysis a;
	struct d9o_out out;
	struct mt t;
	struct d9m_model *m;
	char *json = NULL, *rep = NULL, want[128];
	size_t jl = 0, rl = 0, found = 0;

	mt_planted(&t);
	m = mt_finish(&t);
	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	for (size_t i = 0; i < a.nworst; i++) {
		uint64_t id = m->tasks.id[m->polls.task[a.worst[i].poll]];
		char txt[400];

		if (id < 101 || id > 108)
			continue;
		found++;
		ck_assert_str_eq(d9m_vclass_name(a.worst[i].verdict.kind),
		    kinds[id - 101]);
		d9m_verdict_text(&a.worst[i].verdict, txt, sizeof txt);
		ck_assert_str_eq(txt, lines[id - 101]);
	}
	ck_assert_uint_eq(found, 8);
	memset(&out, 0, sizeof out);
	out.m = m;
	out.a = &a;
	out.f = open_memstream(&json, &jl);
	d9o_json(&out);
	fclose(out.f);
	/* the JSON is indented: compare without white space */
	for (char *r = json, *w = json; ; r++)
		if (*r != ' ' && *r != '\n' && (*w++ = *r) == '\0')
			break;
	out.f = open_memstream(&rep, &rl);
	d9o_report(&out);
	fclose(out.f);
	for (int k = 0; k < 8; k++) {
		snprintf(want, sizeof want, "\"verdict\":{\"kind\":\"%s\","
		    "\"samples\":%d,\"of\":%d,\"expected\":null,"
		    "\"confidence\":\"%s\"}", kinds[k], k < 7 ? 8 : 0,
		    k < 7 ? 8 : 0, k < 7 ? "medium" : "low");
		ck_assert_msg(strstr(json, want) != NULL, "no %s in JSON", want);
	}
	/* the report wraps at 80 columns: look for the start of each line */
	for (int k = 0; k < 8; k++) {
		snprintf(want, sizeof want, "    %.40s", lines[k]);
		ck_assert_msg(strstr(rep, want) != NULL, "no '%s' in the report",
		    want);
	}
	/* the in-poll switches by class: 5 blocking polls of 8 samples, one
	 * preempted one; the same in the JSON and the BLOCKING CALLS text */
	ck_assert_uint_eq(a.off_in_poll, 48);
	ck_assert_uint_eq(a.off_blocking, 40);
	ck_assert_uint_eq(a.off_blocking_top, 8);
	ck_assert_uint_eq(a.off_preempted, 8);
	ck_assert_ptr_nonnull(strstr(json, "\"offCpuInPollBlocking\":40,"
	    "\"offCpuInPollPreempted\":8"));
	/* a paragraph, wrapped where the counts' widths say */
	for (char *c = rep; *c; c++)
		if (*c == '\n')
			*c = ' ';
	ck_assert_ptr_nonnull(strstr(rep, "Inside polls, 40 blocked the "
	    "worker (lock, sleep, I/O, page faults or other) and 8 were "
	    "preemptions (CPU contention)."));
	free(json);
	free(rep);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

/* The JSON of m and a, white space removed, and the report (malloc'd). */
static void
render(const struct d9m_model *m, const struct d9m_analysis *a, char **json,
    char **rep)
{
	struct d9o_out out;
	size_t jl = 0, rl = 0;

	memset(&out, 0, sizeof out);
	out.m = m;
	out.a = a;
	out.f = open_memstream(json, &jl);
	d9o_json(&out);
	fclose(out.f);
	for (char *r = *json, *w = *json; ; r++)
		if (*r != ' ' && *r != '\n' && (*w++ = *r) == '\0')
			break;
	out.f = open_memstream(rep, &rl);
	d9o_report(&out);
	fclose(out.f);
}

/* The analysis of the whole of whytrace.h's trace, its JSON (no white
 * space) and its report. */
struct why {
	struct d9m_model	*m;
	struct d9m_analysis	 a;
	char			*json, *rep;
};

static void
why_open(struct why *w)
{
	struct d9m_analysis_opts o = { all, 10, 0, NULL, 0 };
	struct mt t;

	mt_why(&t);
	w->m = mt_finish(&t);
	ck_assert_ptr_nonnull(w->m);
	ck_assert_int_eq(d9m_analyze(w->m, &o, &w->a), 0);
	w->json = w->rep = NULL;
	render(w->m, &w->a, &w->json, &w->rep);
}

static void
why_close(struct why *w)
{
	free(w->json);
	free(w->rep);
	d9m_analysis_free(&w->a);
	d9m_model_free(&w->m);
}

#define ck_has(hay, needle) do { \
	if (strstr((hay), (needle)) == NULL) { \
		fprintf(stderr, "%s\n", (hay)); \
		ck_abort_msg("no '%s' in the text above", (needle)); \
	} \
} while (0)

/*
 * ANALYSIS 17.1 on whytrace.h's trace (1000 samples a second of a
 * thread's CPU time): task 1's 10 ms poll with no sample while its thread
 * was sampled around it is off-cpu (10 due, high confidence); task 2's
 * switch under exit_to_user_mode_loop on the way out of a futex wake is
 * preemption, not blocking (one sample: low confidence, said); task 3's
 * sample whose leaf is a mapping symbol ($x) is not "hottest in $x".
 * ANALYSIS 21: task 4's poll on CPU in libd9rec's frames says so, the
 * observer figures count those samples and the recorder-overhead flag is
 * raised. Task 5's poll, on CPU for half the samples due and preempted
 * by more switches than that, is cpu; task 6's 1.6 ms poll with no
 * sample is off-cpu, a hint (1.6 due). Each in the model, the JSON and
 * the report.
 */
START_TEST(test_verdict_evidence)
{
	struct why w;
	int seen = 0, flagged = 0;

	why_open(&w);
	for (size_t i = 0; i < w.a.nworst; i++) {
		const struct d9m_verdict *v = &w.a.worst[i].verdict;
		uint64_t id = w.m->tasks.id[w.m->polls.task[w.a.worst[i].poll]];
		char txt[400];

		d9m_verdict_text(v, txt, sizeof txt);
		if (id == 1) {
			ck_assert_str_eq(d9m_vclass_name(v->kind), "off-cpu");
			ck_assert(fabs(v->expected - 10) < 1e-6);
			ck_assert_str_eq(d9m_confidence_name(v->confidence),
			    "high");
			ck_assert_str_eq(txt, "off-cpu: no on-CPU sample where "
			    "about 10.0 were due at the trace's rate");
		} else if (id == 2) {
			ck_assert_str_eq(d9m_vclass_name(v->kind), "preempted");
			ck_assert_str_eq(d9m_confidence_name(v->confidence),
			    "low");
			ck_assert_ptr_nonnull(strstr(txt, "(only 1 sample"));
		} else if (id == 3) {
			ck_assert_str_eq(d9m_vclass_name(v->kind), "cpu");
			ck_assert_ptr_null(strstr(txt, "$x"));
			ck_assert_ptr_nonnull(strstr(txt, "svc::compute"));
		} else if (id == 6) {
			ck_assert_str_eq(txt, "off-cpu: no on-CPU sample where "
			    "about 1.6 were due at the trace's rate (a hint, not "
			    "a finding)");
		} else if (id == 5) {
			ck_assert_str_eq(txt, "cpu: 2 of 5 samples on CPU, "
			    "hottest in svc::compute");
		} else if (id == 4) {
			ck_assert_str_eq(txt, "cpu: 3 of 3 samples on CPU, "
			    "hottest in d9rec_event, in the recorder's own "
			    "frames");
			ck_assert_str_eq(d9m_confidence_name(v->confidence),
			    "medium");
		} else
			continue;
		seen++;
	}
	ck_assert_int_eq(seen, 6);
	/* ANALYSIS 21: 3 of the 7 on-CPU samples are the recorder's */
	ck_assert_uint_eq(w.a.observer.cpu_samples, 3);
	ck_assert(fabs(w.a.observer.cpu_share - 3.0 / 7) < 1e-9);
	ck_assert_str_eq(w.a.observer.top_frame, "d9rec_event");
	for (size_t i = 0; i < w.a.nflags; i++)
		flagged |= strcmp(w.a.flags[i].check, "recorder-overhead") == 0;
	ck_assert(flagged);
	ck_assert_uint_eq(w.a.off_preempted, 4);
	ck_assert_uint_eq(w.a.off_blocking, 0);
	/* the JSON */
	ck_has(w.json, "\"verdict\":{\"kind\":\"off-cpu\",\"samples\":0,"
	    "\"of\":0,\"expected\":10,\"confidence\":\"high\"}");
	ck_has(w.json, "\"kind\":\"preempted\",\"samples\":1,\"of\":1,");
	ck_has(w.json, "\"confidence\":\"low\"");
	ck_has(w.json, "\"confidence\":\"high\"");
	ck_has(w.json, "\"observer\":{\"cpuSamples\":3,");
	ck_has(w.json, "\"topFrame\":\"d9rec_event\"");
	ck_has(w.json, "\"check\":\"recorder-overhead\"");
	/* the report */
	ck_has(w.rep, "off-cpu: no on-CPU sample where about 10.0 were due");
	ck_has(w.rep, "preempted: 1 of 1 sample preempted by the kernel (CPU "
	    "contention)");
	ck_has(w.rep, "(only 1 sample");
	ck_has(w.rep, "cpu: 2 of 5 samples on CPU, hottest in svc::compute");
	ck_has(w.rep, "in the recorder's own");
	ck_has(w.rep, "Observer:");
	ck_has(w.rep, "recorder-overhead");
	why_close(&w);
}
END_TEST

/*
 * ANALYSIS 20 on whytrace.h's trace: task 11, woken 1 ms into task 10's
 * 20 ms poll on the same worker, runs when it ends: held by task 10 for
 * 19 ms, and task 10's poll delayed 1 task by 19 ms. Task 12, woken while
 * the worker is parked, was held by no poll: "its worker was parked".
 * The same in the JSON (heldBy, delayed) and the report.
 */
/* The report's summary stays within 80 columns when the counts are
 * those of a day's trace (the observer's line was cut at a fixed place
 * and ran to 82 columns with 171506 off-CPU samples). */
START_TEST(test_report_wide_counts)
{
	struct why w;
	const char *line;

	why_open(&w);
	w.a.observer.cpu_samples = 5800;
	w.a.observer.off_cpu_samples = 171506;
	free(w.json);
	free(w.rep);
	render(w.m, &w.a, &w.json, &w.rep);
	ck_has(w.rep, "Observer:     the recorder's own code is in 5800 on-CPU "
	    "(");
	ck_has(w.rep, "171506");
	for (line = w.rep; *line != '\0'; ) {
		const char *end = strchr(line, '\n');
		size_t cols = 0;

		if (end == NULL)
			end = line + strlen(line);
		for (const char *c = line; c < end; c++)
			cols += ((unsigned char)*c & 0xc0) != 0x80;
		ck_assert_msg(cols <= 80, "%zu columns: %.*s", cols,
		    (int)(end - line), line);
		line = *end ? end + 1 : end;
	}
	why_close(&w);
}
END_TEST

/* A task spawned 0.3 us before the trace's first runtime event (its
 * start) and first polled 2 ms later: the report's point of interest is
 * "at +0.000 ms", not a negative zero. */
START_TEST(test_point_just_before_start)
{
	struct d9m_analysis_opts o = { all, 10, 0, NULL, 0 };
	struct d9m_analysis a;
	struct d9m_model *m;
	char *p, *json, *rep;
	struct mt t;

	mt_begin(&t);
	mt_spawn(&t, 999700, 2, "late.rs:1:1");
	mt_poll_start(&t, 1000000, 0, 1, "first.rs:1:1");
	mt_poll_end(&t, 1100000, 0);
	mt_poll_start(&t, 3000000, 0, 2, "late.rs:1:1");
	mt_poll_end(&t, 3100000, 0);
	p = mt_write(&t);
	tg_free(&t.tg);
	m = mt_load((const char *const *)&p, 1);
	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	render(m, &a, &json, &rep);
	ck_has(rep, "spawn-delay: 1\n    at +0.000 ms  ");
	ck_assert_ptr_null(strstr(rep, "-0.000"));
	free(json);
	free(rep);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
	unlink(p);
	free(p);
}
END_TEST

START_TEST(test_blame)
{
	struct why w;
	size_t held = 0;
	const struct d9m_model *m;

	why_open(&w);
	m = w.m;
	for (size_t i = 0; i < w.a.pois->n; i++) {
		const struct d9m_poi *x = &w.a.pois->v[i];
		uint64_t id;

		if (x->kind != D9M_POI_SCHED_DELAY)
			continue;
		id = m->tasks.id[x->task];
		if (id == 11) {
			ck_assert_int_eq(x->held.why, D9M_HELD_POLL);
			ck_assert_uint_eq(m->tasks.id[m->polls.task[
			    x->held.poll]], 10);
			ck_assert_uint_eq(x->held.overlap, 19 * WHY_MS);
			ck_assert_ptr_nonnull(strstr(x->text, "held by task "
			    "10's 20.000 ms poll (19.000 ms of the wait)"));
			held++;
		} else if (id == 12) {
			ck_assert_int_eq(x->held.why, D9M_HELD_PARKED);
			ck_assert_ptr_nonnull(strstr(x->text, "its worker was "
			    "parked"));
			held++;
		}
	}
	ck_assert_uint_eq(held, 2);
	ck_assert_uint_eq(m->tasks.id[m->polls.task[w.a.worst[0].poll]], 10);
	ck_assert_uint_eq(w.a.worst[0].delayed.tasks, 1);
	ck_assert_uint_eq(w.a.worst[0].delayed.total, 19 * WHY_MS);
	ck_has(w.json, "\"delayed\":{\"tasks\":1,\"totalNs\":19000000}");
	ck_has(w.json, "\"heldBy\":{\"task\":10,");
	ck_has(w.json, "\"overlapNs\":19000000}");
	ck_has(w.json, "\"heldBy\":null");
	ck_has(w.rep, "held 1 task back for 19.00ms in all");
	ck_has(w.rep, "held by task 10's 20.000 ms poll");
	why_close(&w);
}
END_TEST

/*
 * ANALYSIS 22 on whytrace.h's trace: task 20 wakes itself 40 times (40
 * short polls): the self-wake lint; task 21's only poll lasts 15 ms:
 * never-yields; task 22, polled once at the start and alive at the end:
 * long-idle. Its figures in taskStats; the same in the JSON and the
 * report; the poll-duration histogram the browser draws.
 */
START_TEST(test_task_figures)
{
	struct why w;
	const struct d9m_model *m;
	struct d9m_task_hist h;
	struct d9m_query q = D9M_QUERY_INIT;
	size_t kinds = 0, at = 0;
	uint32_t t20;

	why_open(&w);
	m = w.m;
	for (size_t i = 0; i < w.a.ntask_stats; i++) {
		const struct d9m_task_stat *x = &w.a.task_stats[i];

		if (m->tasks.id[x->task] != 20)
			continue;
		ck_assert_uint_eq(x->polls, 40);
		ck_assert_uint_eq(x->wakes, 40);
		ck_assert_uint_eq(x->self_wakes, 40);
		ck_assert_uint_eq(x->busy, 40 * 10000);
		ck_assert_uint_eq(x->sched, 40 * 10000);
		/* alive from the trace's first event (its spawn at 100 ms
		 * is not one of the window's) to its end at 126 ms */
		ck_assert_uint_eq(x->idle, 26 * WHY_MS - 10000 - 80 * 10000);
		at++;
	}
	ck_assert_uint_eq(at, 1);
	for (size_t i = 0; i < w.a.ntask_lints; i++) {
		const struct d9m_task_lint *l = &w.a.task_lints[i];
		uint64_t id = m->tasks.id[l->task];

		if (strcmp(l->kind, "self-wake") == 0) {
			ck_assert_uint_eq(id, 20);
			ck_assert_str_eq(l->text, "task 20 woke itself 40 of 40 "
			    "times: a loop of yields that keeps its worker busy");
			kinds |= 1;
		} else if (strcmp(l->kind, "never-yields") == 0 && id == 21)
			kinds |= 2;
		else if (strcmp(l->kind, "long-idle") == 0 && id == 22)
			kinds |= 4;
	}
	ck_assert_uint_eq(kinds, 7);
	ck_has(w.json, "{\"task\":20,\"spawn\":\"svc/yield.rs:1:1\","
	    "\"polls\":40,\"busyNs\":400000,\"scheduledNs\":400000,");
	ck_has(w.json, "{\"kind\":\"self-wake\",\"task\":20,");
	ck_has(w.rep, "TASK FIGURES");
	ck_has(w.rep, "      10      1    20.00ms    500.0us    25.60ms      1"
	    "     0\n");
	ck_has(w.rep, "self-wake: task 20 woke itself 40");
	/* the histogram: 40 polls of 10 us, in the 10..20 us bin */
	t20 = d9m_task_find(m, 20);
	q.task = t20;
	d9m_task_hist(m, &q, &h);
	ck_assert_uint_eq(h.polls, 40);
	ck_assert_uint_eq(h.max, 10000);
	ck_assert_uint_eq(d9m_hist_lo(4), 10000);
	ck_assert_uint_eq(h.count[4], 40);
	ck_assert_uint_eq(m->tasks.id[m->polls.task[h.longest]], 20);
	/* a window holding the first 10 of its polls */
	{
		q.win = (struct d9m_window){ WHY_TASKS + WHY_MS, WHY_TASKS +
		    WHY_MS + 10 * 100000 - 1 };
		d9m_task_hist(m, &q, &h);
		ck_assert_uint_eq(h.polls, 10);
	}
	/* the location's tasks, as the browser lists them */
	at = d9m_task_stat_next(m, &w.a, m->tasks.loc[t20], 0);
	ck_assert_uint_lt(at, w.a.ntask_stats);
	ck_assert_uint_eq(w.a.task_stats[at].task, t20);
	ck_assert_uint_eq(d9m_task_stat_next(m, &w.a, m->tasks.loc[t20],
	    at + 1), w.a.ntask_stats);
	ck_assert_ptr_eq(d9m_task_stat_of(&w.a, t20), &w.a.task_stats[at]);
	why_close(&w);
}
END_TEST

/*
 * ANALYSIS 21: which frames are the recorder's. dial9's hooks, encoder
 * and unwinder and libd9rec's functions are; what every allocation or
 * poll passes through (dial9's global allocator and poll futures, Rust's
 * allocator shims, a malloc) is not: on demo-2026-06, 6 on-CPU samples
 * and 152 off-CPU switches in glibc's malloc under Dial9Allocator were
 * counted as the recorder's.
 */
START_TEST(test_recorder_frames)
{
	static const char *const theirs[] = {
		"dial9_tokio_telemetry::memory_profiling::hook::on_dealloc",
		"dial9_trace_format::encoder::Encoder<W>::reset_to",
		"dial9_tokio_telemetry::unwind::collect_frames_raw",
		"d9rec_alloc_hook", "d9rec_event" };
	static const char *const not_theirs[] = { "malloc", "calloc",
		"__libc_free", "__rustc::__rust_alloc", "__rust_realloc",
		"<dial9_tokio_telemetry::memory_profiling::allocator::Dial9"
		"Allocator<A> as core::alloc::global::GlobalAlloc>::alloc",
		"<dial9_tokio_telemetry::traced::TracedFuture<F> as core::future"
		"::future::Future>::poll", "svc::compute" };
	struct d9m_frame f[3];

	for (size_t i = 0; i < sizeof theirs / sizeof *theirs; i++)
		ck_assert_msg(d9m_is_recorder_frame(theirs[i]), "%s",
		    theirs[i]);
	for (size_t i = 0; i < sizeof not_theirs / sizeof *not_theirs; i++)
		ck_assert_msg(!d9m_is_recorder_frame(not_theirs[i]), "%s",
		    not_theirs[i]);
	/* a lock wait in malloc under the allocator: the program's */
	memset(f, 0, sizeof f);
	f[0].name = "malloc";
	f[1].name = not_theirs[5];
	f[2].name = "__rustc::__rust_alloc";
	ck_assert_int_eq(d9m_recorder_frame(f, 3), -1);
	f[1].name = theirs[0];
	ck_assert_int_eq(d9m_recorder_frame(f, 3), 1);
}
END_TEST

/* The planted delays are points of interest, worst first. */
START_TEST(test_planted_points)
{
	struct d9m_analysis_opts o = { all, 10, 0, NULL, 0 };
	struct d9m_analysis a;
	struct mt t;
	struct d9m_model *m;
	const struct d9m_pois *p;

	mt_planted(&t);
	m = mt_finish(&t);
	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	p = a.pois;
	ck_assert_uint_eq(p->total[D9M_POI_SCHED_DELAY], 2);
	ck_assert_uint_eq(p->v[p->first[D9M_POI_SCHED_DELAY]].dur, 6 * PL_MS);
	ck_assert_uint_eq(p->v[p->first[D9M_POI_SCHED_DELAY] + 1].dur,
	    4 * PL_MS);
	ck_assert_uint_eq(p->v[p->first[D9M_POI_SCHED_DELAY] + 1].start,
	    PL_DELAY4 - 4 * PL_MS);
	ck_assert_uint_eq(p->total[D9M_POI_LONG_POLL], 8);
	ck_assert_uint_eq(p->total[D9M_POI_KERNEL_WAIT], 1);
	/* lock, sleep, io, fault, blocked polls; not cpu, not preempted */
	ck_assert_uint_eq(p->total[D9M_POI_OFF_CPU], 5);
	ck_assert_int_eq(d9m_poi_step(p, D9M_POI_SCHED_DELAY, 0, 1),
	    (long)p->first[D9M_POI_SCHED_DELAY] + 1);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

/* More long polls than are kept, durations that tie at the cut: the
 * kept ones are the worst, longest first and of equal ones the earliest,
 * as a sort of all of them would give; every start is counted. */
START_TEST(test_points_kept_worst)
{
	struct d9m_analysis_opts o = { all, 10, 0, NULL, 0 };
	struct d9m_analysis a;
	struct mt t;
	struct d9m_model *m;
	const struct d9m_pois *p;
	const size_t n = D9M_POI_MAX + 500;
	uint64_t ts = 1000000, cut;
	size_t kept, seen_at_cut = 0;

	mt_begin(&t);
	for (size_t i = 0; i < n; i++) {
		/* 2 to 8 ms: 7 values, each about 214 times */
		uint64_t d = (2 + (i * 3) % 7) * 1000000;

		mt_poll_start(&t, ts, 0, 1, "w.rs:1:1");
		mt_poll_end(&t, ts + d, 0);
		ts += d + 1000;
	}
	m = mt_finish(&t);
	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	p = a.pois;
	ck_assert_uint_eq(p->total[D9M_POI_LONG_POLL], n);
	kept = p->first[D9M_POI_LONG_POLL + 1] - p->first[D9M_POI_LONG_POLL];
	ck_assert_uint_eq(kept, D9M_POI_MAX);
	/* 7 values of about 214 polls: the 1000 worst are all of 8, 7, 6,
	 * 5 ms (856 or so) and the earliest of 4 ms */
	cut = 4000000;
	for (size_t i = 0; i < kept; i++) {
		const struct d9m_poi *x = &p->v[p->first[D9M_POI_LONG_POLL] + i];

		ck_assert_uint_ge(x->dur, cut);
		if (i > 0) {
			const struct d9m_poi *y = x - 1;

			ck_assert(y->value > x->value || (y->value == x->value &&
			    y->start < x->start));
		}
		seen_at_cut += x->dur == cut;
	}
	/* the 4 ms polls kept are the earliest of them: every 4 ms poll
	 * before the last kept one is kept */
	{
		const struct d9m_poi *last = &p->v[p->first[D9M_POI_LONG_POLL] +
		    kept - 1];
		size_t before = 0;

		ck_assert_uint_eq(last->dur, cut);
		for (size_t i = 0; i < m->polls.n; i++)
			before += m->polls.end[i] - m->polls.start[i] == cut &&
			    m->polls.start[i] <= last->start;
		ck_assert_uint_eq(before, seen_at_cut);
	}
	ck_assert_uint_eq(d9m_pois_count(p, D9M_POI_LONG_POLL, &all), n);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

Suite *
engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("engine");

	tcase_add_test(tc, test_two_rates);
	tcase_add_test(tc, test_verdict_classes);
	tcase_add_test(tc, test_verdict_evidence);
	tcase_add_test(tc, test_blame);
	tcase_add_test(tc, test_report_wide_counts);
	tcase_add_test(tc, test_point_just_before_start);
	tcase_add_test(tc, test_task_figures);
	tcase_add_test(tc, test_recorder_frames);
	tcase_add_test(tc, test_planted_points);
	tcase_add_test(tc, test_points_kept_worst);
	tcase_add_test(tc, test_order_of_files);
	suite_add_tcase(s, tc);
	return s;
}
