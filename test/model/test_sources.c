/*
 * test_sources.c: two processes in one directory (model/core/groups.h). Each
 * file names its process in segment metadata (service, host, boot_id);
 * both have worker 0 and task 1, and monotonic clocks 10^6 s apart. The
 * model keeps them apart (two groups, three lanes, two task rows), puts
 * the second on the first one's clock by the wall clock (one axis of
 * seconds, not of days), and the analysis gives each its own figures.
 * Without clock sync the second begins where the first does; a path in
 * dial9's boot-id layout names a process that has no metadata.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "planted.h"
#include "model/figures/analysis.h"
#include "model/core/ids.h"
#include "suites.h"

#define S	1000000000ull
#define WALL	(1780000000ull * S)	/* both began near this wall time */
#define FAR	(1000000ull * S)	/* the second host's clock is ahead */

static struct d9m_model *
load_two(int clock, char **dir)
{
	struct mt a, b;
	char path[300];
	struct d9m_model *m;
	FILE *f;

	*dir = strdup("/tmp/d9sources-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(*dir));
	mt_process(&a, "h1", "abcd-1", 50 * S, WALL, 1, 2, 100);
	mt_process(&b, "h2", "wxyz-2", FAR + 7 * S, WALL + 2 * S, clock, 1, 40);
	snprintf(path, sizeof path, "%s/a.bin", *dir);
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	fwrite(a.tg.p, 1, a.tg.n, f);
	fclose(f);
	snprintf(path, sizeof path, "%s/b.bin", *dir);
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	fwrite(b.tg.p, 1, b.tg.n, f);
	fclose(f);
	tg_free(&a.tg);
	tg_free(&b.tg);
	{
		const char *p[] = { *dir };

		m = mt_load(p, 1);
	}
	return m;
}

static void
remove_dir(char *dir)
{
	char path[300];

	snprintf(path, sizeof path, "%s/a.bin", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/b.bin", dir);
	unlink(path);
	rmdir(dir);
	free(dir);
}

START_TEST(two_processes_two_groups)
{
	char *dir;
	struct d9m_model *m = load_two(1, &dir);
	struct d9m_analysis_opts o = { D9M_WHOLE_INIT, 10, 0, NULL, 0 };
	struct d9m_analysis a;
	uint32_t b0;

	ck_assert_uint_eq(m->groups.n, 2);
	ck_assert_str_eq(d9m_str(m, m->groups.host[1]), "h2");
	ck_assert_str_eq(d9m_str(m, m->groups.boot[0]), "abcd-1");
	/* worker 0 of each process is its own lane */
	ck_assert_uint_eq(m->nworkers, 3);
	b0 = d9m_worker_slot_of(m, 1, 0);
	ck_assert_uint_ne(b0, D9_NONE);
	ck_assert_uint_eq(m->workers[b0].own, 0);
	ck_assert_uint_eq(m->workers[b0].group, 1);
	ck_assert_uint_eq(m->workers[0].npolls, 100);
	ck_assert_uint_eq(m->workers[b0].npolls, 40);
	/* task 1 of each process is its own task */
	ck_assert_uint_eq(m->tasks.n, 3);
	/* one axis: b began 2 s of wall clock after a */
	ck_assert_uint_eq(m->groups.aligned[1], 1);
	ck_assert_uint_eq(m->min_ts, 50 * S);
	ck_assert_uint_eq(m->polls.start[m->workers[b0].poll0], 52 * S);
	ck_assert_uint_lt(m->max_ts - m->min_ts, 3 * S);
	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	ck_assert_uint_eq(a.nsources, 2);
	ck_assert_uint_eq(a.sources[0].nworkers, 2);
	ck_assert_uint_eq(a.sources[0].polls, 200);
	ck_assert_uint_eq(a.sources[0].long_polls, 2);
	ck_assert_uint_eq(a.sources[0].segments, 1);
	ck_assert_uint_eq(a.sources[1].nworkers, 1);
	ck_assert_uint_eq(a.sources[1].workers[0], 0);
	ck_assert_uint_eq(a.sources[1].polls, 40);
	ck_assert_uint_eq(a.sources[1].long_polls, 1);
	ck_assert_uint_eq(a.sources[1].tasks, 1);
	ck_assert_uint_eq(a.sources[1].start, 52 * S);
	/* combined where it means something: one spawn location, 3 tasks */
	ck_assert_uint_eq(a.npolls, 240);
	ck_assert_uint_eq(a.long_polls, 3);
	ck_assert_uint_eq(a.nlocs, 1);
	ck_assert_uint_eq(a.locs[0].tasks, 3);
	d9m_analysis_free(&a);
	d9m_model_free(&m);
	remove_dir(dir);
}
END_TEST

START_TEST(no_clock_same_start)
{
	char *dir;
	struct d9m_model *m = load_two(0, &dir);
	uint32_t b0 = d9m_worker_slot_of(m, 1, 0);

	ck_assert_uint_eq(m->groups.n, 2);
	ck_assert_uint_eq(m->groups.aligned[1], 0);
	ck_assert_uint_eq(m->polls.start[m->workers[b0].poll0], 50 * S);
	ck_assert_uint_lt(m->max_ts - m->min_ts, 2 * S);
	d9m_model_free(&m);
	remove_dir(dir);
}
END_TEST

START_TEST(boot_from_path)
{
	char dir[] = "/tmp/d9bootdir-XXXXXX", sub[300], path[400];
	struct d9m_model *m;
	struct mt t;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sub, sizeof sub, "%s/qmxz-481", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	snprintf(path, sizeof path, "%s/trace.0.bin", sub);
	mt_begin(&t);
	mt_poll_start(&t, S, 0, 1, "a.rs:1:1");
	mt_poll_end(&t, S + 10, 0);
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	fwrite(t.tg.p, 1, t.tg.n, f);
	fclose(f);
	tg_free(&t.tg);
	{
		const char *p[] = { dir };

		m = mt_load(p, 1);
	}
	ck_assert_uint_eq(m->groups.n, 1);
	ck_assert_str_eq(d9m_str(m, m->groups.boot[0]), "qmxz-481");
	d9m_model_free(&m);
	unlink(path);
	rmdir(sub);
	rmdir(dir);
}
END_TEST

/* One run of service "api" (no host, no boot id): npolls 1 ms polls on
 * worker 0 from t0; a clock sync (t0, wall) when wall is not 0. */
static void
run_of(struct mt *t, uint64_t t0, uint64_t wall, const char *boot,
    unsigned npolls)
{
	mt_begin(t);
	if (wall != 0)
		mt_clock(t, t0, wall);
	mt_meta(t, "service", "api");
	if (boot != NULL)
		mt_meta(t, "boot_id", boot);
	for (unsigned k = 0; k < npolls; k++) {
		mt_poll_start(t, t0 + k * 10 * PL_MS, 0, 1, "src/main.rs:1:1");
		mt_poll_end(t, t0 + k * 10 * PL_MS + PL_MS, 0);
	}
}

/* The runs as files run0.bin ... in a new directory (concat: one file
 * of them all, as they would arrive on stdin), loaded. */
static struct d9m_model *
load_runs(struct mt *t, size_t n, int concat, char *dir)
{
	const char *p[] = { dir };
	struct d9m_model *m;
	char path[300];
	FILE *f = NULL;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (size_t i = 0; i < n; i++) {
		if (f == NULL || !concat) {
			if (f != NULL)
				fclose(f);
			snprintf(path, sizeof path, "%s/run%zu.bin", dir, i);
			ck_assert_ptr_nonnull(f = fopen(path, "wb"));
		}
		fwrite(t[i].tg.p, 1, t[i].tg.n, f);
		tg_free(&t[i].tg);
	}
	fclose(f);
	m = mt_load(p, 1);
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/run%zu.bin", dir, i);
		unlink(path);
	}
	rmdir(dir);
	return m;
}

#define DAY	(86400ull * S)

/*
 * ANALYSIS 23: four runs of one service on four days, no boot ids. Runs
 * 0 to 2 on one boot, the clock stepped 3 s by NTP before run 1 and 2 ms
 * before run 2 (their offsets within 5 s: one source before); run 3
 * after a reboot. Four sources, each of its own run's length.
 */
START_TEST(four_runs_four_sources)
{
	char dir[] = "/tmp/d9runs-XXXXXX";
	const int64_t step[3] = { 0, 3000000000ll, 3002000000ll };
	struct mt t[4];
	struct d9m_model *m;

	for (int d = 0; d < 3; d++)
		run_of(&t[d], 100 * S + (uint64_t)d * DAY, WALL +
		    (uint64_t)d * DAY + (uint64_t)step[d], NULL, 100);
	run_of(&t[3], 50 * S, WALL + 3 * DAY, NULL, 100);
	m = load_runs(t, 4, 0, dir);
	ck_assert_uint_eq(m->groups.n, 4);
	for (uint32_t g = 0; g < 4; g++)
		ck_assert_uint_lt(m->group_cover[2 * g + 1] -
		    m->group_cover[2 * g], 2 * S);
	d9m_model_free(&m);
}
END_TEST

/* Runs without clock sync: a segment joins the one before it only when
 * its times go on from there (within ten times the longest segment). */
START_TEST(no_clock_runs_by_gap)
{
	char dir[] = "/tmp/d9runs-XXXXXX", dir2[] = "/tmp/d9runs-XXXXXX";
	struct mt t[4];
	struct d9m_model *m;

	for (int d = 0; d < 4; d++)
		run_of(&t[d], 100 * S + (uint64_t)d * DAY, 0, NULL, 100);
	m = load_runs(t, 4, 0, dir);
	ck_assert_uint_eq(m->groups.n, 4);
	d9m_model_free(&m);
	/* one run's segments, a second apart */
	for (int d = 0; d < 4; d++)
		run_of(&t[d], 100 * S + (uint64_t)d * S, 0, NULL, 100);
	m = load_runs(t, 4, 0, dir2);
	ck_assert_uint_eq(m->groups.n, 1);
	d9m_model_free(&m);
}
END_TEST

/* Two processes' segments on one stream (stdin, cat), no symbol table
 * between them: the second one's metadata names another boot, so it is
 * its own source, as when the two are read as two files; likewise a
 * process that names no boot but whose clock is another boot's. */
START_TEST(two_processes_one_stream)
{
	char dir[] = "/tmp/d9runs-XXXXXX", dir2[] = "/tmp/d9runs-XXXXXX";
	struct mt t[2];
	struct d9m_model *m;
	uint32_t b0;

	run_of(&t[0], 100 * S, WALL, "abcd-1", 100);
	run_of(&t[1], 100 * S + 200 * PL_MS, WALL + 200 * PL_MS, "efgh-2", 50);
	m = load_runs(t, 2, 1, dir);
	ck_assert_uint_eq(m->groups.n, 2);
	ck_assert_str_eq(d9m_str(m, m->groups.boot[1]), "efgh-2");
	ck_assert_uint_eq(m->groups.has_wall[1], 1);
	ck_assert_uint_eq(m->groups.aligned[1], 1);
	b0 = d9m_worker_slot_of(m, 1, 0);
	ck_assert_uint_ne(b0, D9_NONE);
	ck_assert_uint_eq(m->workers[b0].npolls, 50);
	d9m_model_free(&m);
	run_of(&t[0], 100 * S, WALL, NULL, 100);
	run_of(&t[1], 30 * S, WALL + 2 * DAY, NULL, 50);
	m = load_runs(t, 2, 1, dir2);
	ck_assert_uint_eq(m->groups.n, 2);
	d9m_model_free(&m);
}
END_TEST

Suite *
sources_suite(void)
{
	Suite *s = suite_create("sources");
	TCase *tc = tcase_create("groups");

	tcase_add_test(tc, two_processes_two_groups);
	tcase_add_test(tc, no_clock_same_start);
	tcase_add_test(tc, boot_from_path);
	tcase_add_test(tc, four_runs_four_sources);
	tcase_add_test(tc, no_clock_runs_by_gap);
	tcase_add_test(tc, two_processes_one_stream);
	suite_add_tcase(s, tc);
	return s;
}
