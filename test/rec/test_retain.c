/*
 * test_retain.c: retention keeps the newest data. Every combination of
 * file size, total cap and rotation period (a fake clock drives the
 * period, so nothing depends on timing) keeps at least the newest sealed
 * segment at every step, ends with the last events recorded, stays
 * within the cap but for that segment, and counts what it deleted in
 * the stats and in the newest segment's metadata. A cap that cannot hold
 * two segments is refused at d9rec_open with a reason.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rectest.h"

#define KiB	((uint64_t)1 << 10)
#define ROUNDS	40
#define PAIRS	300

static const struct combo {
	uint64_t	 file, total, period_ms;
	int		 compression;
} combos[] = {
	{ 16 * KiB, 32 * KiB, 0, D9REC_COMPRESS_NONE },	/* tightest */
	{ 16 * KiB, 32 * KiB, 3, D9REC_COMPRESS_NONE },
	{ 16 * KiB, 80 * KiB, 0, D9REC_COMPRESS_NONE },
	{ 16 * KiB, 80 * KiB, 2, D9REC_COMPRESS_NONE },
	{ 16 * KiB, 0, 0, D9REC_COMPRESS_NONE },	/* default cap */
	{ 16 * KiB, 0, 1, D9REC_COMPRESS_NONE },
	{ 0, 64 * KiB, 0, D9REC_COMPRESS_NONE },	/* default file */
	{ 0, 64 * KiB, 5, D9REC_COMPRESS_NONE },
	{ 0, 0, 0, D9REC_COMPRESS_NONE },		/* all defaults */
	{ 0, 0, 1, D9REC_COMPRESS_NONE },
	{ 48 * KiB, 100 * KiB, 0, D9REC_COMPRESS_NONE },
	{ 48 * KiB, 100 * KiB, 7, D9REC_COMPRESS_NONE },
	{ 64 * KiB, 1024 * KiB, 4, D9REC_COMPRESS_NONE },
	{ 16 * KiB, 32 * KiB, 2, D9REC_COMPRESS_GZIP },
	{ 0, 64 * KiB, 0, D9REC_COMPRESS_ZSTD },
};

/* How many sealed segment files dir has; *idx: the newest one's index,
 * path: its path. */
static size_t
newest(const char *dir, long *idx, char *path, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	ck_assert_ptr_nonnull(d);
	*idx = -1;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long i;

		if (strncmp(de->d_name, "trace.", 6) != 0)
			continue;
		i = strtol(de->d_name + 6, &end, 10);
		if (strncmp(end, ".bin", 4) != 0 || strstr(end, ".active"))
			continue;
		n++;
		if (i > *idx) {
			*idx = i;
			snprintf(path, len, "%s/%s", dir, de->d_name);
		}
	}
	closedir(d);
	return n;
}

START_TEST(test_retention_combinations)
{
	const struct combo *c = &combos[_i];
	char *dir = rt_tmpdir(), path[512], msg[256];
	uint64_t clk = 1000000, last = 0, cap;
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9rec_stats st;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr, files;
	uint32_t loc;
	long idx;

	rt_opts(&o, dir, &clk);
	o.max_file_size = c->file;
	o.max_total_size = c->total;
	o.rotation_period_ms = c->period_ms;
	o.compression = c->compression;
	cap = c->total ? c->total : (uint64_t)1 << 30;
	ck_assert_int_eq(d9rec_options_check(&o, msg, sizeof msg), 0);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	loc = d9rec_location(w, "retain.c:1:1");
	for (uint64_t r = 1; r <= ROUNDS; r++) {
		for (uint64_t k = 0; k < PAIRS; k++) {
			d9rec_poll_start(t, last = r * 1000 + k, loc, 0);
			d9rec_poll_end(t);
		}
		clk += 1000000;		/* 1 ms a round */
		ck_assert_int_eq(d9rec_flush(w), 0);
		d9rec_stats(w, &st);
		if (st.segments > 0)	/* a sealed one is always there */
			ck_assert_uint_ge(newest(dir, &idx, path, sizeof path),
			    1);
	}
	d9rec_thread_unregister(&t);
	d9rec_stats(w, &st);
	ck_assert_uint_eq(st.dropped, 0);
	ck_assert_int_eq(st.stopped, 0);
	ck_assert_uint_eq(st.lost_batches, 0);
	ck_assert_uint_eq(st.deleted_bytes > 0, st.deleted_segments > 0);
	if (c->period_ms != 0 || c->file != 0 || c->total != 0)
		ck_assert_uint_ge(st.segments, 2);	/* it did rotate */
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_uint_eq(rt_files(dir, ".active"), 0);

	files = newest(dir, &idx, path, sizeof path);
	ck_assert_uint_ge(files, 1);
	/* within the cap, but for the newest segment when it alone is over */
	ck_assert(rt_dir_bytes(dir) <= cap || files == 1);
	m = rt_load(path, &nerr);	/* the newest has the last events */
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_ne(d9m_task_find(m, last), D9_NONE);
	/* indices are dense: every missing one was deleted, and counted in
	 * the newest segment's metadata as in the stats */
	ck_assert_ptr_nonnull(d9m_meta_get(m, "d9rec.deleted_segments"));
	ck_assert_uint_eq(strtoull(d9m_meta_get(m, "d9rec.deleted_segments"),
	    NULL, 10), (uint64_t)idx + 1 - files);
	ck_assert_uint_le(st.deleted_segments, (uint64_t)idx + 1 - files);
	if (idx + 1 > (long)files)
		ck_assert_uint_gt(strtoull(d9m_meta_get(m,
		    "d9rec.deleted_bytes"), NULL, 10), 0);
	d9m_model_free(&m);
	m = rt_load(dir, &nerr);	/* and the whole directory reads */
	ck_assert_uint_eq(nerr, 0);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

/* A cap below two segments, or a segment too small for its own
 * headers, is refused with a reason; the defaults are accepted. */
START_TEST(test_cap_refused)
{
	char *dir = rt_tmpdir(), msg[256];
	struct d9rec_options o;
	d9rec_writer *w;

	rt_opts(&o, dir, NULL);
	ck_assert_int_eq(d9rec_options_check(&o, msg, sizeof msg), 0);
	o.max_file_size = 64 * KiB;
	o.max_total_size = 100 * KiB;
	ck_assert_int_eq(d9rec_options_check(&o, msg, sizeof msg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "max_total_size 102400 cannot hold "
	    "two segments of max_file_size 65536"));
	ck_assert_ptr_nonnull(strstr(msg, "raise it to 131072 or lower"));
	/* a segment no total holds twice: no total to raise it to */
	o.max_file_size = UINT64_MAX;
	ck_assert_int_eq(d9rec_options_check(&o, msg, sizeof msg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "being written): lower max_file"));
	o.max_file_size = 64 * KiB;
	/* an empty directory name is none */
	o.dir = "";
	ck_assert_int_eq(d9rec_options_check(&o, msg, sizeof msg), -EINVAL);
	ck_assert_str_eq(msg, "no trace directory (dir)");
	o.dir = dir;
	ck_assert_int_eq(d9rec_open(&w, &o), -EINVAL);
	ck_assert_ptr_null(w);
	o.max_total_size = 0;		/* 1 GiB */
	o.max_file_size = 600 << 20;
	ck_assert_int_eq(d9rec_open(&w, &o), -EINVAL);
	o.max_file_size = 1024;
	ck_assert_int_eq(d9rec_options_check(&o, msg, sizeof msg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "max_file_size 1024 is below"));
	o.max_file_size = 0;
	o.max_total_size = 40 * KiB;	/* a default file of 10 KiB */
	ck_assert_int_eq(d9rec_open(&w, &o), -EINVAL);
	ck_assert_uint_eq(rt_files(dir, ""), 0);	/* nothing written */
	rt_rmdir(&dir);
}
END_TEST

/* A share of time above 100 % for switch sampling is refused; 100 and
 * the default are not. */
START_TEST(test_duty_refused)
{
	char *dir = rt_tmpdir(), msg[256];
	struct d9rec_options o;

	rt_opts(&o, dir, NULL);
	o.sched_duty_pct = 100;
	ck_assert_int_eq(d9rec_options_check(&o, msg, sizeof msg), 0);
	o.sched_duty_pct = 101;
	ck_assert_int_eq(d9rec_options_check(&o, msg, sizeof msg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "sched_duty_pct 101 is above 100"));
	rt_rmdir(&dir);
}
END_TEST

TCase *
rt_tcase_retain(void)
{
	TCase *tc = tcase_create("retain");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_retention_combinations, 0,
	    (int)(sizeof combos / sizeof combos[0]));
	tcase_add_test(tc, test_cap_refused);
	tcase_add_test(tc, test_duty_refused);
	return tc;
}
