/*
 * test_loss.c: loss accounting (ANALYSIS 19) on small traces. libd9rec's
 * counters count since the recorder started: per boot_id the latest
 * value, summed over boots, never over segments; overflow events are
 * deltas; segment.complete=false and a file cut short make a segment
 * incomplete (not a segment followed while it is written); a copy of a
 * segment is read once. Any loss raises the
 * events-lost red flag; a clean trace has zeros and no flag.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mktrace.h"
#include "parse/follow.h"
#include "parse/reader.h"
#include "model/figures/analysis.h"
#include "store/image.h"
#include "model/queries/lanes.h"
#include "model/core/loss.h"
#include "suites.h"

/* One segment file of boot `boot` with its counters (NULL: none). */
static char *
segment(const char *boot, uint64_t t0, const char *dropped,
    const char *batches)
{
	struct mt t;
	char *path;

	mt_begin(&t);
	mt_poll_start(&t, t0, 0, 1, "a.rs:1:1");
	mt_poll_end(&t, t0 + 100, 0);
	mt_meta(&t, "boot_id", boot);
	if (dropped != NULL)
		mt_meta(&t, "d9rec.dropped_events", dropped);
	if (batches != NULL)
		mt_meta(&t, "d9rec.lost_batches", batches);
	path = mt_write(&t);
	tg_free(&t.tg);
	return path;
}

/* The events-lost flag of the whole trace, or NULL. */
static const struct d9m_flag *
lost_flag(const struct d9m_analysis *a)
{
	for (size_t i = 0; i < a->nflags; i++)
		if (strcmp(a->flags[i].check, "events-lost") == 0)
			return &a->flags[i];
	return NULL;
}

static void
unlink_all(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unlink(paths[i]);
		free(paths[i]);
	}
}

START_TEST(test_counters_per_boot)
{
	char *p[4];
	struct d9m_analysis a;
	struct d9m_analysis_opts o = { D9M_WHOLE_INIT, 10, 0, NULL, 0 };
	const struct d9m_flag *f;
	struct d9m_model *m;
	struct mt t;

	/* boot A: 100 then 250 dropped since it started (not 350) */
	p[0] = segment("aaaa-1", 1000, "100", "1");
	p[1] = segment("aaaa-1", 2000, "250", "1");
	/* boot B (a restart): its own 7, and memory overflow */
	p[2] = segment("bbbb-2", 3000, "7", NULL);
	mt_begin(&t);
	mt_poll_start(&t, 4000, 0, 1, "a.rs:1:1");
	mt_meta(&t, "boot_id", "bbbb-2");
	mt_meta(&t, "d9rec.alloc_dropped", "2");
	mt_meta(&t, "d9rec.cpu_lost", "3");
	mt_overflow(&t, 4100, 4, 1);
	mt_overflow(&t, 4200, 1, 0);
	p[3] = mt_write(&t);
	tg_free(&t.tg);
	m = mt_load((const char *const *)p, 4);
	ck_assert_uint_eq(m->loss.dropped_events, 257);
	ck_assert_uint_eq(m->loss.lost_batches, 1);
	ck_assert_uint_eq(m->loss.dropped_allocs, 5);	/* 4 + 1 > 2 */
	ck_assert_uint_eq(m->loss.dropped_frees, 1);
	ck_assert_uint_eq(m->loss.lost_cpu, 3);
	ck_assert_uint_eq(m->loss.incomplete, 0);
	ck_assert_uint_eq(m->loss.copies, 0);
	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	ck_assert_ptr_nonnull(f = lost_flag(&a));
	ck_assert_int_eq(f->sev, D9M_WARNING);
	ck_assert_str_eq(f->text, "257 runtime events dropped, 1 batch not "
	    "written, 5 allocation samples dropped, 1 free sample dropped, "
	    "3 CPU samples lost: figures count only what was recorded");
	/* points of interest: the recorder's loss (the most), the two
	 * overflows where they happened */
	{
		const struct d9m_pois *pi = a.pois;
		const struct d9m_poi *x = &pi->v[pi->first[D9M_POI_EVENTS_LOST]];

		ck_assert_uint_eq(pi->total[D9M_POI_EVENTS_LOST], 3);
		ck_assert_uint_eq(x[0].value, 257 + 5 + 1 + 3);
		ck_assert_uint_eq(x[1].start, 4100);
		ck_assert_uint_eq(x[1].value, 5);
		ck_assert_uint_eq(x[2].start, 4200);
		ck_assert_str_eq(x[0].text, "the recording lost data: 257 "
		    "runtime events dropped, 1 batch not written, 5 "
		    "allocation samples dropped, 1 free sample dropped, 3 CPU "
		    "samples lost");
		ck_assert_str_eq(x[1].text,
		    "the profiler dropped 4 allocations and 1 frees");
		ck_assert_str_eq(x[2].text,
		    "the profiler dropped 1 allocations and 0 frees");
	}
	d9m_analysis_free(&a);
	d9m_model_free(&m);
	unlink_all(p, 4);
}
END_TEST

START_TEST(test_incomplete_segments)
{
	char *p[3];
	struct d9m_model *m;
	struct mt t;

	/* marked incomplete, then complete: the latest value counts */
	mt_begin(&t);
	mt_poll_start(&t, 1000, 0, 1, "a.rs:1:1");
	mt_meta(&t, "segment.complete", "false");
	mt_meta(&t, "segment.complete", "true");
	p[0] = mt_write(&t);
	tg_free(&t.tg);
	mt_begin(&t);
	mt_poll_start(&t, 2000, 0, 2, "a.rs:1:1");
	mt_meta(&t, "segment.complete", "false");
	p[1] = mt_write(&t);
	tg_free(&t.tg);
	/* cut mid-frame */
	mt_begin(&t);
	mt_poll_start(&t, 3000, 0, 3, "a.rs:1:1");
	mt_poll_end(&t, 3100, 0);
	t.tg.n--;
	p[2] = mt_write(&t);
	tg_free(&t.tg);
	m = mt_load((const char *const *)p, 3);
	ck_assert_uint_eq(m->loss.incomplete, 2);
	ck_assert(d9m_loss_any(&m->loss));
	d9m_model_free(&m);
	unlink_all(p, 3);
}
END_TEST

/* The .active file at path, written now or D9P_ACTIVE_QUIET s and more
 * ago, read as it is: its incomplete segments and errors. */
static void
read_aged(const char *const *paths, const char *path, int stale,
    uint64_t *incomplete, size_t *nerrors)
{
	struct timespec ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_NOW } };
	struct d9m_model *m;

	if (stale) {
		ts[0].tv_sec = ts[1].tv_sec = time(NULL) - D9P_ACTIVE_QUIET - 60;
		ts[0].tv_nsec = ts[1].tv_nsec = 0;
	}
	ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
	m = mt_load(paths, 1);
	*incomplete = m->loss.incomplete;
	*nerrors = m->nerrors;
	d9m_model_free(&m);
}

/* A segment still being written says segment.complete=false, and its
 * last frame may be cut where its recorder is: neither is a loss, read
 * as it is (a one-shot read of a host's live directory) or followed.
 * One whose recorder stopped (quiet for D9P_ACTIVE_QUIET s) is cut.
 * Once it is sealed (renamed) with that still its latest word, it is
 * incomplete as a fresh read of the sealed file says (followed, it kept
 * its .active name and was not told: fuzz_follow). */
START_TEST(test_live_segment_followed)
{
	char dir[] = "/tmp/d9unit-live-XXXXXX", path[64], sealed[64], *tmp;
	const char *paths[] = { dir };
	struct d9p_read_stats st;
	struct d9p_follow *f;
	struct d9m_model *m;
	uint64_t incomplete;
	size_t nerrors;
	struct mt t;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	mt_begin(&t);
	mt_poll_start(&t, 1000, 0, 1, "a.rs:1:1");
	mt_meta(&t, "segment.complete", "false");
	mt_poll_end(&t, 1100, 0);
	t.tg.n--;			/* its writer is mid-frame */
	tmp = mt_write(&t);
	tg_free(&t.tg);
	snprintf(path, sizeof path, "%s/trace.0.bin.active", dir);
	ck_assert_int_eq(rename(tmp, path), 0);
	free(tmp);
	read_aged(paths, path, 0, &incomplete, &nerrors);
	ck_assert_uint_eq(incomplete, 0);
	ck_assert_uint_eq(nerrors, 0);	/* no "truncated" */
	read_aged(paths, path, 1, &incomplete, &nerrors);
	ck_assert_uint_eq(incomplete, 1);
	ck_assert_uint_eq(nerrors, 1);
	read_aged(paths, path, 0, &incomplete, &nerrors);
	ck_assert_ptr_nonnull(m = d9m_model_new());
	ck_assert_ptr_nonnull(f = d9p_follow_new(paths, 1));
	ck_assert_int_eq(d9m_model_follow(m, f, NULL, &st), 0);
	ck_assert_int_eq(d9m_model_finish(m), 0);
	ck_assert_uint_eq(m->loss.incomplete, 0);
	snprintf(sealed, sizeof sealed, "%s/trace.0.bin", dir);
	ck_assert_int_eq(rename(path, sealed), 0);
	ck_assert_int_eq(d9m_model_follow(m, f, NULL, &st), 0);
	ck_assert_int_eq(d9m_model_finish(m), 0);
	ck_assert_uint_eq(m->loss.incomplete, 1);
	ck_assert_str_eq(d9m_str(m, m->segs.input[0]), sealed);
	d9p_follow_free(&f);
	d9m_model_free(&m);
	unlink(sealed);
	rmdir(dir);
}
END_TEST

START_TEST(test_copies_read_once)
{
	char *p[2];
	struct d9m_analysis a;
	struct d9m_analysis_opts o = { D9M_WHOLE_INIT, 10, 0, NULL, 0 };
	struct d9m_model *m;
	struct mt t;

	mt_begin(&t);
	mt_poll_start(&t, 1000, 0, 1, "a.rs:1:1");
	mt_poll_end(&t, 1500, 0);
	p[0] = mt_write(&t);
	p[1] = mt_write(&t);
	tg_free(&t.tg);
	m = mt_load((const char *const *)p, 2);
	ck_assert_uint_eq(m->polls.n, 1);
	ck_assert_uint_eq(m->loss.copies, 1);
	ck_assert_uint_eq(m->nerrors, 1);	/* told which was left out */
	ck_assert(!d9m_loss_any(&m->loss));	/* read once: nothing lost */
	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	ck_assert_ptr_null(lost_flag(&a));
	d9m_analysis_free(&a);
	d9m_model_free(&m);
	unlink_all(p, 2);
}
END_TEST

START_TEST(test_nothing_lost)
{
	struct d9m_analysis a;
	struct d9m_analysis_opts o = { D9M_WHOLE_INIT, 10, 0, NULL, 0 };
	struct d9m_loss zero;
	struct d9m_model *m;
	struct mt t;
	char text[64];

	mt_begin(&t);
	mt_poll_start(&t, 1000, 0, 1, "a.rs:1:1");
	mt_poll_end(&t, 1500, 0);
	mt_meta(&t, "d9rec.dropped_events", "0");
	m = mt_finish(&t);
	memset(&zero, 0, sizeof zero);
	ck_assert_int_eq(memcmp(&m->loss, &zero, sizeof zero), 0);
	ck_assert_uint_eq(d9m_loss_text(&m->loss, text, sizeof text), 0);
	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	ck_assert_ptr_null(lost_flag(&a));
	d9m_analysis_free(&a);
	d9m_model_free(&m);
}
END_TEST

/* Four segments of ten polls each, each a gzip member (zstd: a frame),
 * with one byte of the second damaged; 1: the other 30 polls are read,
 * a damaged segment said, whichever way the file is read. */
static char *
damaged_file(int zstd)
{
	struct tg out;
	size_t second = 0;
	char *path;
	int fd;

	tg_init(&out);
	for (int s = 0; s < 4; s++) {
		struct mt t;

		mt_begin(&t);
		mt_meta(&t, "boot_id", "aaaa-1");
		for (int i = 0; i < 10; i++) {
			uint64_t ts = 1000000ull * (uint64_t)(s * 10 + i + 1);

			mt_poll_start(&t, ts, 0, (uint64_t)(1 + s * 10 + i),
			    "a.rs:1:1");
			mt_poll_end(&t, ts + 1000, 0);
		}
		if (s == 1)
			second = out.n;
		(zstd ? tg_zstd : tg_gzip)(&out, t.tg.p, t.tg.n);
		tg_free(&t.tg);
	}
	if (zstd)
		out.p[second + 4] ^= 0x08;	/* a reserved bit */
	else
		out.p[second + 10] |= 0x06;	/* an invalid block type */
	path = strdup("/tmp/d9unit-damaged-XXXXXX");
	fd = mkstemp(path);
	ck_assert(fd >= 0);
	ck_assert(write(fd, out.p, out.n) == (ssize_t)out.n);
	close(fd);
	tg_free(&out);
	return path;
}

START_TEST(test_damaged_segment)
{
	struct d9m_analysis_opts o = { D9M_WHOLE_INIT, 10, 0, NULL, 0 };
	char *path = damaged_file(_i & 1), text[128];
	const char *paths[] = { path };
	struct d9m_analysis a;
	const struct d9m_flag *f;
	struct d9m_model *m;

	/* 0, 1: whole (gzip, libdeflate) then streamed; 2, 3: streamed */
	m = mt_load_as(paths, 1, _i >= 2);
	ck_assert_uint_eq(m->polls.n, 30);
	ck_assert_uint_eq(m->loss.damaged, 1);
	ck_assert_uint_eq(m->loss.incomplete, 0);
	ck_assert_uint_eq(m->nerrors, 1);
	snprintf(text, sizeof text, "%s: byte ", path);
	ck_assert_ptr_nonnull(strstr(m->errors[0], text));
	ck_assert_ptr_nonnull(strstr(m->errors[0], "; skipped to the next "
	    "member"));
	d9m_loss_text(&m->loss, text, sizeof text);
	ck_assert_str_eq(text, "1 segment damaged");
	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	ck_assert_ptr_nonnull(f = lost_flag(&a));
	ck_assert_str_eq(f->text, "1 segment damaged: figures count only "
	    "what was recorded");
	d9m_analysis_free(&a);
	d9m_model_free(&m);
	unlink(path);
	free(path);
}
END_TEST

/* Segment file name in dir, of boot, with the size cap's counters
 * (NULL: none); its path in path. */
static void
capped_segment(const char *dir, const char *name, const char *boot,
    uint64_t t0, const char *deleted, const char *bytes, char *path,
    size_t cap)
{
	struct mt t;
	char *tmp;

	mt_begin(&t);
	mt_meta(&t, "boot_id", boot);
	if (deleted != NULL) {
		mt_meta(&t, "d9rec.deleted_segments", deleted);
		mt_meta(&t, "d9rec.deleted_bytes", bytes);
	}
	mt_poll_start(&t, t0, 0, t0, "a.rs:1:1");
	mt_poll_end(&t, t0 + 100, 0);
	tmp = mt_write(&t);
	tg_free(&t.tg);
	snprintf(path, cap, "%s/%s", dir, name);
	ck_assert_int_eq(rename(tmp, path), 0);
	free(tmp);
}

/*
 * Boot A wrote trace.3, .4 and .6 (.5 is missing), its size cap deleted
 * 4 older segments of 4 MB since it started (the latest counters, not
 * their sum); boot B wrote .9 and .10 and deleted 2 (0.1 MB). The gap
 * between the boots is nobody's.
 */
START_TEST(test_deleted_and_missing)
{
	static const struct {
		const char	*name, *boot, *deleted, *bytes;
	} segs[] = {
		{ "trace.3.bin", "aaaa-1", "3", "3000000" },
		{ "trace.4.bin.gz", "aaaa-1", "3", "3000000" },
		{ "trace.6.bin", "aaaa-1", "4", "4000000" },
		{ "trace.9.bin", "bbbb-2", "2", "100000" },
		{ "trace.10.bin.active", "bbbb-2", NULL, NULL },
	};
	struct d9m_analysis_opts o = { D9M_WHOLE_INIT, 10, 0, NULL, 0 };
	char dir[] = "/tmp/d9unit-capped-XXXXXX", path[5][64], text[160];
	const char *paths[] = { dir };
	const struct d9m_flag *f;
	struct d9m_analysis a;
	struct d9m_model *m, *b;
	struct d9m_lanes *x, *bx;
	char why[128];
	FILE *img;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (size_t i = 0; i < 5; i++)
		capped_segment(dir, segs[i].name, segs[i].boot, 1000 * (i + 1),
		    segs[i].deleted, segs[i].bytes, path[i], sizeof path[i]);
	m = mt_load(paths, 1);
	ck_assert_uint_eq(m->loss.deleted, 6);
	ck_assert_uint_eq(m->loss.deleted_bytes, 4100000);
	ck_assert_uint_eq(m->loss.missing, 1);
	d9m_loss_text(&m->loss, text, sizeof text);
	ck_assert_str_eq(text, "1 segment missing, 6 older segments deleted "
	    "by the size cap (4.1 MB)");
	ck_assert_int_eq(d9m_analyze(m, &o, &a), 0);
	ck_assert_ptr_nonnull(f = lost_flag(&a));
	ck_assert_ptr_nonnull(strstr(f->text, "6 older segments deleted"));
	d9m_analysis_free(&a);

	/* the figures go through the index image unchanged */
	ck_assert_ptr_nonnull(img = tmpfile());
	ck_assert_ptr_nonnull(x = d9m_lanes_build(m));
	ck_assert_int_eq(d9i_image_write(m, x, fileno(img), 7, NULL), 0);
	ck_assert_int_eq(d9i_image_open(fileno(img), 7, &b, &bx, why,
	    sizeof why), 0);
	ck_assert_mem_eq(&b->loss, &m->loss, sizeof m->loss);
	d9m_lanes_free(&bx);
	d9m_lanes_free(&x);
	d9m_model_free(&b);
	fclose(img);
	d9m_model_free(&m);
	for (size_t i = 0; i < 5; i++)
		unlink(path[i]);
	rmdir(dir);
}
END_TEST

Suite *
loss_suite(void)
{
	Suite *s = suite_create("loss");
	TCase *tc = tcase_create("loss");

	tcase_add_test(tc, test_counters_per_boot);
	tcase_add_test(tc, test_incomplete_segments);
	tcase_add_test(tc, test_live_segment_followed);
	tcase_add_test(tc, test_copies_read_once);
	tcase_add_test(tc, test_nothing_lost);
	tcase_add_loop_test(tc, test_damaged_segment, 0, 4);
	tcase_add_test(tc, test_deleted_and_missing);
	suite_add_tcase(s, tc);
	return s;
}
