/*
 * test_ids.c: worker and thread ids (model/core/ids.h). Thousands of distinct
 * workers, each on a thread of its own, give as many lanes, each with
 * its poll, its thread and its samples (the look-ups by id are hash maps
 * and bisections now, bench/ids times them). Worker ids of 2^63 stay
 * whole: 500 of them are 500 workers, printed exactly by --json. Two
 * processes read from one stream (cat a.bin b.bin) write the workers of
 * the second one "1:w" in every section of the report and in the
 * JSON's texts, never as a number that packs the source in.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mktrace.h"
#include "model/figures/analysis.h"
#include "model/core/ids.h"
#include "model/core/timeline.h"
#include "output/output.h"
#include "suites.h"

#define MS	1000000ull

/* The report, or the JSON without its white space, of the whole trace. */
static char *
render(const struct d9m_model *m, int json)
{
	struct d9m_analysis_opts o = { D9M_WHOLE_INIT, 10, 0, NULL, 0 };
	struct d9m_analysis a;
	struct d9o_out out;
	char *text = NULL;
	size_t len = 0;

	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	memset(&out, 0, sizeof out);
	out.m = m;
	out.a = &a;
	ck_assert_ptr_nonnull(out.f = open_memstream(&text, &len));
	if (json)
		d9o_json(&out);
	else
		d9o_report(&out);
	fclose(out.f);
	d9m_analysis_free(&a);
	for (char *r = text, *w = text; json; r++)
		if (*r != ' ' && *r != '\n' && (*w++ = *r) == '\0')
			break;
	return text;
}

START_TEST(thousands_of_workers)
{
	struct mt t;
	struct d9m_model *m;
	size_t onlane = 0, inpoll = 0;

	/* from 256: 254 and 255 name no worker */
	mt_begin(&t);
	mt_many_workers(&t, 256, 3000, 1000);
	m = mt_finish(&t);
	ck_assert_uint_eq(m->nworkers, 3000);
	ck_assert_uint_eq(m->polls.n, 3000);
	ck_assert_uint_eq(m->tidmap_n, 3000);
	ck_assert_uint_eq(m->tname_n, 3000);
	for (uint32_t i = 0; i < 3000; i++) {
		ck_assert_uint_eq(m->workers[i].own, 256 + i);
		ck_assert_uint_eq(m->workers[i].npolls, 1);
		ck_assert_uint_eq(m->workers[i].nparks, 1);
		ck_assert_uint_eq(d9m_worker_own(m, d9m_tid_worker(m,
		    1000 + i, D9_NONE)), 256 + i);
		ck_assert_uint_eq(d9m_worker_slot(m, m->workers[i].id), i);
	}
	ck_assert_uint_eq(d9m_tid_worker(m, 999, 7), 7);
	ck_assert_uint_eq(m->cpu.n, 3000);
	for (size_t i = 0; i < m->cpu.n; i++) {
		onlane += m->cpu.lane[i];
		inpoll += m->cpu.poll[i] != D9_NONE &&
		    d9m_poll_worker(m, m->cpu.poll[i]) ==
		    d9m_worker_slot(m, m->cpu.worker[i]);
	}
	ck_assert_uint_eq(onlane, 3000);
	ck_assert_uint_eq(inpoll, 3000);
	d9m_model_free(&m);
}
END_TEST

START_TEST(ids_of_2_63)
{
	const uint64_t id0 = (1ull << 63) - 250;
	struct mt t;
	struct d9m_model *m;
	char *json, *rep, want[64];
	const char *ws;

	mt_begin(&t);
	mt_many_workers(&t, id0, 500, 1000);
	m = mt_finish(&t);
	ck_assert_uint_eq(m->nworkers, 500);
	for (uint32_t i = 0; i < 500; i++)
		ck_assert_uint_eq(m->workers[i].own, id0 + i);
	json = render(m, 1);
	ck_assert_ptr_nonnull(ws = strstr(json, "\"workers\":["));
	for (uint32_t i = 0; i < 500; i++) {
		snprintf(want, sizeof want, "%c%" PRIu64 "%c", i ? ',' : '[',
		    id0 + i, i < 499 ? ',' : ']');
		ck_assert_msg(strstr(ws, want) == ws + 10 + i * 20, "no %s",
		    want);
		snprintf(want, sizeof want, "\"%" PRIu64 "\":", id0 + i);
		ck_assert_msg(strstr(json, want) != NULL, "no key %s", want);
	}
	rep = render(m, 0);
	/* ids that follow one another are a range, not 500 numbers */
	ck_assert_msg(strstr(rep, "Workers:      500 (9223372036854775558-"
	    "9223372036854776057)\n") != NULL, "%.400s", rep);
	ck_assert(strstr(rep, "\n9223372036854776057 ") != NULL);
	free(json);
	free(rep);
	d9m_model_free(&m);
}
END_TEST

/* A process of two workers (ids 0, 1; threads 10, 11) named by
 * metadata, from t0 on: polls of 100 us; in the second one worker 1
 * runs a 20 ms poll and waits 3 ms for a CPU after an unpark. Its
 * symbol table ends the segment, so that the next header, in the same
 * stream, begins another one. */
static void
process(struct mt *t, const char *boot, uint64_t t0, int slow)
{
	mt_begin(t);
	mt_clock(t, t0, 1780000000000000000ull + t0);
	mt_meta(t, "service", "api");
	mt_meta(t, "host", "h1");
	mt_meta(t, "boot_id", boot);
	for (unsigned w = 0; w < 2; w++)
		mt_unpark(t, t0 + w, w, 0, 10 + w, 0);
	for (uint64_t k = 0; k < 10; k++)
		for (unsigned w = 0; w < 2; w++) {
			uint64_t ts = t0 + MS + k * 30 * MS + w * 1000;
			uint64_t d = slow && w == 1 && k == 4 ? 20 * MS :
			    MS / 10;

			mt_poll_start(t, ts, w, 1 + w, "src/main.rs:1:1");
			mt_poll_end(t, ts + d, w);
		}
	if (slow) {
		mt_park(t, t0 + 301 * MS, 1, 0, 11);
		mt_unpark(t, t0 + 310 * MS, 1, 0, 11, 3 * MS);
	}
	mt_symbol(t, 0x1000, "main", 0);
}

START_TEST(two_sources_one_stream)
{
	struct mt a, b;
	struct d9m_model *m;
	char *path, *rep, *json;
	const char *paths[1];
	uint32_t s11;

	process(&a, "boot-a", 1000 * MS, 0);
	process(&b, "boot-b", 5000 * MS, 1);
	tg_raw(&a.tg, b.tg.p, b.tg.n);		/* cat a.bin b.bin */
	tg_free(&b.tg);
	path = mt_write(&a);
	tg_free(&a.tg);
	paths[0] = path;
	m = mt_load(paths, 1);
	unlink(path);
	free(path);
	ck_assert_uint_eq(m->groups.n, 2);
	ck_assert_uint_eq(m->nworkers, 4);
	ck_assert_uint_ne(s11 = d9m_worker_slot_of(m, 1, 1), D9_NONE);
	ck_assert_uint_eq(m->workers[s11].npolls, 10);
	rep = render(m, 0);
	/* summary, worker table, long polls, kernel waits, red flags */
	ck_assert_msg(strstr(rep, "Workers:      4 (0, 1, 1:0, 1:1)\n") !=
	    NULL, "%s", rep);
	ck_assert(strstr(rep, "\n1:1 ") != NULL);
	ck_assert(strstr(rep, "worker 1:1  at +") != NULL);
	ck_assert(strstr(rep, "\nworker 1:1  max ") != NULL);
	ck_assert(strstr(rep, "poll of task 2 on worker 1:1 (") != NULL);
	ck_assert(strstr(rep, "workers 1:0,1:1;") != NULL);
	ck_assert_msg(strstr(rep, "65536") == NULL &&
	    strstr(rep, "65537") == NULL, "%s", rep);
	json = render(m, 1);
	ck_assert(strstr(json, "\"1:1\":") != NULL);
	ck_assert(strstr(json, "\"worker\":1,\"source\":1,") != NULL);
	ck_assert(strstr(json, "worker1:1waited3.000msforaCPU") != NULL);
	ck_assert(strstr(json, "\"65537") == NULL &&
	    strstr(json, ":65537") == NULL);
	free(rep);
	free(json);
	d9m_model_free(&m);
}
END_TEST

Suite *
ids_suite(void)
{
	Suite *s = suite_create("ids");
	TCase *tc = tcase_create("ids");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, thousands_of_workers);
	tcase_add_test(tc, ids_of_2_63);
	tcase_add_test(tc, two_sources_one_stream);
	suite_add_tcase(s, tc);
	return s;
}
