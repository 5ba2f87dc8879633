/*
 * test_random.c: whatever order and values a program records, libd9rec
 * writes a trace that src/model reads without a complaint and that d9top
 * reads and reports on in full. Each seed is a run of random recording
 * calls on six handles (workers, a blocking thread, several handles of
 * one worker id), with a clock that mostly advances but sometimes goes
 * back, jumps 2^40 ns ahead or returns 0; task and span ids include 0,
 * 2^32 and UINT64_MAX; names carry terminal escapes; segments rotate;
 * metadata declares odd runtimes and incomplete segments. Deterministic:
 * the seed is the test's loop index.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rectest.h"

#define SEEDS	24
#define HANDLES	6

struct gen {
	uint64_t	 rng;
	uint64_t	 clk;
	uint64_t	 runtime_events;	/* what eventCount counts */
};

static uint64_t
rnd(struct gen *g)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 7;
	g->rng ^= g->rng << 17;
	return g->rng;
}

static uint64_t
pick(struct gen *g, uint64_t n)
{
	return rnd(g) % n;
}

/* The next reading of the test clock. */
static void
tick(struct gen *g)
{
	switch (pick(g, 40)) {
	case 0: g->clk -= pick(g, 1000000); break;
	case 1: g->clk += pick(g, (uint64_t)1 << 40); break;
	case 2: g->clk = 0; break;
	default: g->clk += pick(g, 200000); break;
	}
}

static uint64_t
any_id(struct gen *g)
{
	static const uint64_t odd[] = { 0, 1, UINT64_MAX, UINT64_MAX - 1,
	    (uint64_t)1 << 63, 0xffffffffu, 0x100000000ull };

	return pick(g, 8) ? 1 + pick(g, 12) : odd[pick(g, 7)];
}

struct sites {
	d9rec_writer	*w;
	int		 span[3], custom;
	uint32_t	 loc[4];
};

static void
declare(struct gen *g, struct sites *s)
{
	static const char *const fields[] = { "k" };
	static const struct d9rec_field cf[2] = { { "s", D9REC_T_STR },
	    { "n", D9REC_T_U64 } };

	for (int i = 0; i < 3; i++) {
		int hf = (int)pick(g, 2);

		s->span[i] = d9rec_span_site(s->w, "tgt", i ? "sp" :
		    "\x1b[31mred", "f.rs", (unsigned)pick(g, 100),
		    hf ? fields : NULL, hf ? 1 : 0);
		ck_assert_int_ge(s->span[i], 0);
	}
	s->custom = d9rec_schema(s->w, pick(g, 2) ? "Custom" :
	    "metricsrs:x{a=b}", cf, 2);
	ck_assert_int_ge(s->custom, 0);
	for (int i = 0; i < 4; i++) {
		char b[32];

		snprintf(b, sizeof b, "loc%d.rs:%d:%d", i, (int)pick(g, 9),
		    (int)pick(g, 9));
		s->loc[i] = d9rec_location(s->w, b);
	}
	if (pick(g, 3) == 0)
		ck_assert_int_eq(d9rec_runtime(s->w, pick(g, 2) ? "rt" : "",
		    (uint32_t)pick(g, 4), 1 + (uint32_t)pick(g, 4)), 0);
}

/* One random call on t (or on the writer). */
static void
call(struct gen *g, struct sites *s, struct d9rec_thread *t)
{
	static const char *const vals[] = { "v" }, *const none[] = { NULL };
	union d9rec_value v[2];
	char val[24];

	uint64_t k;

	tick(g);
	k = pick(g, 17);
	g->runtime_events += k <= 9 || k == 12;
	switch (k) {
	case 0: case 1: case 2:
		d9rec_poll_start(t, any_id(g), s->loc[pick(g, 4)],
		    (unsigned)pick(g, 300));
		break;
	case 3: case 4: case 5: d9rec_poll_end(t); break;
	case 6: d9rec_park(t, (unsigned)pick(g, 4)); break;
	case 7: d9rec_unpark(t, (unsigned)pick(g, 4)); break;
	case 8: case 9: d9rec_wake(t, any_id(g), any_id(g)); break;
	case 10: d9rec_spawn(t, any_id(g), s->loc[pick(g, 4)]); break;
	case 11: d9rec_terminate(t, any_id(g)); break;
	case 12:
		d9rec_runtime_sample(t, d9rec_runtime_id(s->w, pick(g, 2) ?
		    "rt" : NULL), (unsigned)pick(g, 100),
		    (unsigned)pick(g, 100));
		break;
	case 13:
		v[0].s = pick(g, 2) ? "x" : "\a\x1b]0;title\a";
		v[1].u = rnd(g);
		d9rec_event(t, s->custom, v);
		break;
	case 14:
		d9rec_span_enter(t, s->span[pick(g, 3)], any_id(g),
		    pick(g, 3) ? 0 : any_id(g), pick(g, 2) ? vals : none);
		break;
	case 15:
		d9rec_span_exit(t, s->span[pick(g, 3)], any_id(g),
		    pick(g, 2) ? vals : NULL);
		break;
	default:
		switch (pick(g, 4)) {
		case 0:
			d9rec_span_close(t, s->span[pick(g, 3)], any_id(g),
			    g->clk - pick(g, 1000000), pick(g, 2) ? 0 :
			    any_id(g), vals);
			break;
		case 1:
			ck_assert_int_eq(d9rec_rotate(s->w), 0);
			break;
		case 2:
			snprintf(val, sizeof val, "%d,%d", (int)pick(g, 7),
			    (int)pick(g, 300));
			ck_assert_int_eq(d9rec_set_meta(s->w, pick(g, 2) ?
			    "runtime.rt" : "segment.complete", pick(g, 2) ?
			    val : "false"), 0);
			break;
		default:
			ck_assert_int_eq(d9rec_flush(s->w), 0);
		}
	}
}

START_TEST(test_random_calls)
{
	const char *top = getenv("D9TOP");
	char *dir = rt_tmpdir(), cmd[1024], *out;
	struct gen g = { (uint64_t)_i * 2654435761u + 1, 0, 0 };
	struct d9rec_thread *th[HANDLES];
	struct d9rec_options o;
	struct d9rec_stats st;
	struct d9m_model *m;
	struct sites s;
	size_t nerr;
	int n;

	ck_assert_ptr_nonnull(top);
	g.clk = 1000000000u + pick(&g, 1000000);
	rt_opts(&o, dir, &g.clk);
	ck_assert_int_eq(d9rec_open(&s.w, &o), 0);
	for (int i = 0; i < HANDLES; i++)
		th[i] = d9rec_thread_register(s.w, pick(&g, 2) ? "t" : NULL,
		    i < 4 ? (uint32_t)pick(&g, 6) : D9REC_NO_WORKER);
	declare(&g, &s);
	n = 200 + (int)pick(&g, 1500);
	for (int i = 0; i < n; i++)
		call(&g, &s, th[pick(&g, HANDLES)]);
	for (int i = 0; i < HANDLES; i++)
		d9rec_thread_unregister(&th[i]);
	ck_assert_int_eq(d9rec_flush(s.w), 0);
	d9rec_stats(s.w, &st);
	ck_assert_int_eq(d9rec_close(&s.w), 0);
	ck_assert_uint_eq(st.dropped, 0);
	ck_assert_uint_eq(st.written_events, st.events);

	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	d9m_model_free(&m);
	snprintf(cmd, sizeof cmd, "%s --json --quiet --no-cache %s", top, dir);
	out = rt_run(cmd);
	ck_assert_ptr_nonnull(strstr(out, "\"errors\": []"));
	ck_assert_double_eq(rt_num(out, "eventCount", NULL),
	    (double)g.runtime_events);
	free(out);
	snprintf(cmd, sizeof cmd, "%s --report --quiet --no-cache %s", top,
	    dir);
	out = rt_run(cmd);
	ck_assert_ptr_null(strchr(out, '\x1b'));
	free(out);
	snprintf(cmd, sizeof cmd, "%s --chrome --quiet --no-cache %s "
	    ">/dev/null", top, dir);
	free(rt_run(cmd));
	rt_rmdir(&dir);
}
END_TEST

TCase *
rt_tcase_random(void)
{
	TCase *tc = tcase_create("random");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_random_calls, 1, 1 + SEEDS);
	return tc;
}
