/*
 * test_expected.c: `d9top --json` on every real trace in ../shared/traces
 * against the figures dial9's own analysis computed for it
 * (*.expected.json), with the tolerances of the foundation issue: counts
 * exact, durationMs within 0.01 ms, utilization within 1e-3, percentiles
 * within 1 % (the reference's HDR histogram reads up to 0.1 % high),
 * span p50 within 2 %, estimated bytes within 0.1 %, and scheduling
 * delays over 1 ms never above the reference (it counts stale wakes).
 * None of them lost anything: loss is all zeros.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "minijson.h"
#include "run.h"

static const char *const traces[] = {
	"demo-2026-06.bin.gz",
	"demo-2026-03.bin",
	"block-in-place-2026-05.bin",
};
#define NTRACES (sizeof traces / sizeof traces[0])

struct pair {
	struct mj	*got, *want;
};

static struct pair
load_pair(const char *trace)
{
	struct pair p;
	struct run_result r;
	char *path = trace_path(trace), *exp, *text, err[128];
	size_t n;

	run_d9top(&r, NULL, "--json --quiet '%s'", path);
	ck_assert_msg(r.status == 0, "d9top --json %s exited %d: %s", trace,
	    r.status, r.err);
	p.got = mj_parse(r.out, err, sizeof err);
	ck_assert_msg(p.got != NULL, "invalid JSON from d9top: %s", err);
	exp = strdup(path);
	n = strlen(exp);
	/* x.bin.gz / x.bin -> x.expected.json */
	*strstr(exp, ".bin") = '\0';
	(void)n;
	{
		char *ep;

		if (asprintf(&ep, "%s.expected.json", exp) < 0)
			abort();
		text = mj_read_file(ep);
		ck_assert_msg(text != NULL, "cannot read %s", ep);
		free(ep);
	}
	p.want = mj_parse(text, err, sizeof err);
	ck_assert_msg(p.want != NULL, "bad expected JSON: %s", err);
	free(text);
	free(exp);
	free(path);
	run_free(&r);
	return p;
}

static void
free_pair(struct pair *p)
{
	mj_free(p->got);
	mj_free(p->want);
}

static double
num(const struct mj *root, const char *path, const char *trace)
{
	const struct mj *v = mj_get(root, path);

	ck_assert_msg(v != NULL && v->type == MJ_NUM, "%s: %s missing or not "
	    "a number", trace, path);
	return v->num;
}

static void
same_num(const struct pair *p, const char *path, double tol_abs,
    double tol_rel, const char *trace)
{
	double w = num(p->want, path, trace), g = num(p->got, path, trace);

	ck_assert_msg(fabs(g - w) <= tol_abs + tol_rel * fabs(w),
	    "%s: %s is %.17g, the reference says %.17g", trace, path, g, w);
}

static void
same_str(const struct pair *p, const char *path, const char *trace)
{
	const struct mj *w = mj_get(p->want, path), *g = mj_get(p->got, path);

	ck_assert_msg(w && g && w->type == MJ_STR && g->type == MJ_STR &&
	    strcmp(w->str, g->str) == 0, "%s: %s is '%s', the reference "
	    "says '%s'", trace, path, g && g->str ? g->str : "?",
	    w && w->str ? w->str : "?");
}

/* Each real trace is one process: one source, all the workers and polls
 * (the polls counted as in the window, the whole trace). */
START_TEST(test_one_source)
{
	const char *t = traces[_i];
	struct pair p = load_pair(t);
	const struct mj *s = mj_get(p.got, "sources"),
	    *w = mj_get(p.got, "workers");

	ck_assert_msg(s != NULL && s->n == 1, "%s: one source", t);
	ck_assert_uint_eq(mj_member(&s->kids[0], "workers")->n, w->n);
	ck_assert_uint_eq(mj_member(&s->kids[0], "segments")->num, 1);
	ck_assert(mj_member(&s->kids[0], "endNs")->num >
	    mj_member(&s->kids[0], "startNs")->num);
	free_pair(&p);
}
END_TEST

/* Two recordings of different processes in one directory (demo of
 * March, 2 workers; block_in_place of May, 4 workers, 12 days of
 * monotonic clock apart): two sources, six lanes, one axis of seconds. */
START_TEST(test_two_recordings)
{
	char dir[] = "/tmp/d9two-XXXXXX", *a, *b, *pa, *pb, err[128];
	struct run_result r;
	struct mj *got;
	const struct mj *s;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	pa = trace_path("demo-2026-03.bin");
	pb = trace_path("block-in-place-2026-05.bin");
	if (asprintf(&a, "%s/a.bin", dir) < 0 ||
	    asprintf(&b, "%s/b.bin", dir) < 0)
		abort();
	ck_assert_int_eq(symlink(pa, a), 0);
	ck_assert_int_eq(symlink(pb, b), 0);
	run_d9top(&r, NULL, "--json --quiet '%s'", dir);
	ck_assert_int_eq(r.status, 0);
	got = mj_parse(r.out, err, sizeof err);
	ck_assert_ptr_nonnull(got);
	s = mj_get(got, "sources");
	ck_assert_uint_eq(s->n, 2);
	ck_assert_uint_eq(mj_get(got, "workers")->n, 6);
	ck_assert_uint_eq(mj_member(&s->kids[0], "workers")->n, 2);
	ck_assert_uint_eq(mj_member(&s->kids[0], "polls")->num, 30154);
	ck_assert_uint_eq(mj_member(&s->kids[1], "workers")->n, 4);
	ck_assert_uint_eq(mj_member(&s->kids[1], "polls")->num, 174);
	ck_assert(mj_get(got, "durationMs")->num < 10000);
	mj_free(got);
	run_free(&r);
	unlink(a);
	unlink(b);
	rmdir(dir);
	free(a);
	free(b);
	free(pa);
	free(pb);
}
END_TEST

START_TEST(test_counts)
{
	const char *t = traces[_i];
	struct pair p = load_pair(t);
	static const char *const exact[] = { "eventCount", "longPolls",
		"tasksSpawned", "cpuSamples", "onCpu", "offCpu", "offCpuInPoll",
		"offCpuIdle" };
	const struct mj *ww = mj_get(p.want, "workers"),
	    *gw = mj_get(p.got, "workers");

	for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
		same_num(&p, exact[i], 0, 0, t);
	same_num(&p, "durationMs", 0.01, 0, t);
	ck_assert_msg(ww && gw && ww->n == gw->n, "%s: worker count", t);
	for (size_t i = 0; i < ww->n; i++) {
		char key[64];

		ck_assert_msg(ww->kids[i].num == gw->kids[i].num,
		    "%s: worker %zu", t, i);
		snprintf(key, sizeof key, "polls.%d", (int)ww->kids[i].num);
		same_num(&p, key, 0, 0, t);
		snprintf(key, sizeof key, "parks.%d", (int)ww->kids[i].num);
		same_num(&p, key, 0, 0, t);
		snprintf(key, sizeof key, "utilization.%d",
		    (int)ww->kids[i].num);
		same_num(&p, key, 1e-3, 0, t);
	}
	free_pair(&p);
}
END_TEST

/* The real traces lost nothing: loss is there, all zeros (ANALYSIS 19). */
START_TEST(test_nothing_lost)
{
	static const char *const keys[] = { "droppedEvents", "lostBatches",
		"droppedAllocs", "droppedFrees", "lostCpuSamples",
		"incompleteSegments", "damagedSegments", "missingSegments",
		"deletedSegments", "deletedBytes", "duplicateSegments" };
	const char *t = traces[_i];
	struct pair p = load_pair(t);

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		char key[64];
		const struct mj *v;

		snprintf(key, sizeof key, "loss.%s", keys[i]);
		v = mj_get(p.got, key);
		ck_assert_msg(v != NULL && v->type == MJ_NUM && v->num == 0,
		    "%s: %s missing or not 0", t, key);
	}
	free_pair(&p);
}
END_TEST

START_TEST(test_worst_polls)
{
	const char *t = traces[_i];
	struct pair p = load_pair(t);
	const struct mj *w = mj_get(p.want, "worstPolls");

	ck_assert(w != NULL && w->n > 0);
	for (size_t i = 0; i < w->n && i < 5; i++) {
		static const char *const f[] = { "durNs", "worker", "task",
			"startNs" };
		char path[64];

		for (size_t k = 0; k < 4; k++) {
			snprintf(path, sizeof path, "worstPolls.%zu.%s", i, f[k]);
			same_num(&p, path, 0, 0, t);
		}
		snprintf(path, sizeof path, "worstPolls.%zu.spawn", i);
		same_str(&p, path, t);
	}
	free_pair(&p);
}
END_TEST

START_TEST(test_spawn_locations)
{
	const char *t = traces[_i];
	struct pair p = load_pair(t);
	const struct mj *ws = mj_get(p.want, "spawnCounts"),
	    *gs = mj_get(p.got, "spawnCounts"), *wl = mj_get(p.want,
	    "pollByLoc"), *gl = mj_get(p.got, "pollByLoc");

	ck_assert(ws && gs && wl && gl);
	ck_assert_msg(ws->n == gs->n, "%s: %zu spawn locations, reference %zu",
	    t, gs->n, ws->n);
	for (size_t i = 0; i < ws->n; i++) {
		const struct mj *g = mj_member(gs, ws->kids[i].key);

		ck_assert_msg(g && g->num == ws->kids[i].num, "%s: spawnCounts "
		    "of %s", t, ws->kids[i].key);
	}
	for (size_t i = 0; i < wl->n; i++) {
		const struct mj *w = &wl->kids[i], *g = mj_member(gl, w->key);
		static const char *const pc[] = { "p50", "p99", "max" };

		ck_assert_msg(g != NULL, "%s: no pollByLoc for %s", t, w->key);
		ck_assert_msg(mj_member(g, "count")->num ==
		    mj_member(w, "count")->num, "%s: poll count of %s", t,
		    w->key);
		for (size_t k = 0; k < 3; k++) {
			double a = mj_member(g, pc[k])->num,
			    b = mj_member(w, pc[k])->num;

			ck_assert_msg(fabs(a - b) <= 0.01 * b, "%s: %s %s is "
			    "%.0f, reference %.0f", t, w->key, pc[k], a, b);
		}
	}
	free_pair(&p);
}
END_TEST

START_TEST(test_spans_memory_sched)
{
	const char *t = traces[_i];
	struct pair p = load_pair(t);
	const struct mj *ws = mj_get(p.want, "spans"), *gs = mj_get(p.got,
	    "spans"), *wm = mj_get(p.want, "memory");
	double w1 = num(p.want, "schedDelay.over1ms", t),
	    g1 = num(p.got, "schedDelay.over1ms", t);

	for (size_t i = 0; ws && i < ws->n; i++) {
		const struct mj *w = &ws->kids[i], *g = mj_member(gs, w->key);
		double wc = mj_member(w, "count")->num, wp = mj_member(w,
		    "p50")->num;

		ck_assert_msg(g != NULL, "%s: span %s missing", t, w->key);
		ck_assert_msg(fabs(mj_member(g, "count")->num - wc) <= 0.01 * wc,
		    "%s: span %s count", t, w->key);
		ck_assert_msg(fabs(mj_member(g, "p50")->num - wp) <= 0.02 * wp,
		    "%s: span %s p50 %.0f, reference %.0f", t, w->key,
		    mj_member(g, "p50")->num, wp);
	}
	if (wm != NULL && wm->type == MJ_OBJ)
		same_num(&p, "memory.estimatedTotalBytes", 0, 0.001, t);
	else
		ck_assert_msg(mj_get(p.got, "memory")->type == MJ_NULL,
		    "%s: memory should be null", t);
	/* the reference also counts delays measured from stale wakes */
	ck_assert_msg(g1 <= w1 && g1 >= 0.8 * w1, "%s: %.0f scheduling "
	    "delays over 1 ms, reference %.0f", t, g1, w1);
	/* schedDelay.dial9 is the reference's own figure, by its rule
	 * (its percentiles are HDR bucket bounds: within 0.1 %) */
	ck_assert_msg(num(p.got, "schedDelay.dial9.over1ms", t) == w1,
	    "%s: %.0f delays over 1 ms by dial9's rule, reference %.0f", t,
	    num(p.got, "schedDelay.dial9.over1ms", t), w1);
	if (mj_get(p.want, "schedDelay.p50")->type == MJ_NUM) {
		static const char *const k[] = { "p50", "p99", "max" };

		for (int i = 0; i < 3; i++) {
			char wk[64], gk[64];
			double w, g;

			snprintf(wk, sizeof wk, "schedDelay.%s", k[i]);
			snprintf(gk, sizeof gk, "schedDelay.dial9.%s", k[i]);
			w = num(p.want, wk, t);
			g = num(p.got, gk, t);
			ck_assert_msg(fabs(g - w) <= 0.001 * w, "%s: %s by "
			    "dial9's rule %.0f, reference %.0f", t, k[i], g, w);
		}
	}
	free_pair(&p);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("expected");
	TCase *tc = tcase_create("reference");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_counts, 0, NTRACES);
	tcase_add_loop_test(tc, test_one_source, 0, NTRACES);
	tcase_add_test(tc, test_two_recordings);
	tcase_add_loop_test(tc, test_nothing_lost, 0, NTRACES);
	tcase_add_loop_test(tc, test_worst_polls, 0, NTRACES);
	tcase_add_loop_test(tc, test_spawn_locations, 0, NTRACES);
	tcase_add_loop_test(tc, test_spans_memory_sched, 0, NTRACES);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(suite(), 1);
}
