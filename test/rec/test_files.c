/*
 * test_files.c: segment files: naming and mode, rotation on request, by
 * size and by period, the total size cap, gzip and zstd compression, the
 * SymbolTableEntry switch, and a restart in a directory with a stale
 * .active file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rectest.h"

/* n poll pairs on one thread. */
static void
polls(d9rec_writer *w, struct d9rec_thread *t, int n)
{
	uint32_t loc = d9rec_location(w, "test.c:1:1");

	for (int i = 0; i < n; i++) {
		d9rec_poll_start(t, (uint64_t)i + 1, loc, 0);
		d9rec_poll_end(t);
	}
}

static int
magic(const char *path, const uint8_t *m, size_t n)
{
	uint8_t b[8];
	int fd = open(path, O_RDONLY);
	ssize_t k = fd >= 0 ? read(fd, b, n) : -1;

	if (fd >= 0)
		close(fd);
	return k == (ssize_t)n && memcmp(b, m, n) == 0;
}

START_TEST(test_rotation)
{
	char *dir = rt_tmpdir(), path[512];
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9rec_stats st;
	struct d9m_model *m;
	struct stat sb;
	d9rec_writer *w;
	size_t nerr;

	rt_opts(&o, dir, NULL);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	for (int s = 0; s < 3; s++) {
		polls(w, t, 100);
		ck_assert_int_eq(d9rec_rotate(w), 0);
	}
	polls(w, t, 100);
	d9rec_thread_unregister(&t);
	d9rec_stats(w, &st);
	ck_assert_uint_eq(st.segments, 3);
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_uint_eq(rt_files(dir, ".bin"), 4);
	ck_assert_uint_eq(rt_files(dir, ".active"), 0);
	for (int s = 0; s < 4; s++) {
		snprintf(path, sizeof path, "%s/trace.%d.bin", dir, s);
		ck_assert_int_eq(stat(path, &sb), 0);
		ck_assert_int_eq(sb.st_mode & 0777, 0600);
		ck_assert(magic(path, (const uint8_t *)"TRC\0\1", 5));
	}
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->polls.n, 400);
	ck_assert_uint_eq(m->segs.n, 4);
	d9m_model_free(&m);

	/* a new writer removes stale .active files and continues after the
	 * highest retained segment */
	snprintf(path, sizeof path, "%s/trace.9.bin.active", dir);
	close(open(path, O_CREAT | O_WRONLY, 0600));
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	ck_assert_int_eq(access(path, F_OK), -1);
	t = d9rec_thread_register(w, NULL, 0);
	polls(w, t, 10);
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);
	snprintf(path, sizeof path, "%s/trace.4.bin", dir);
	ck_assert_int_eq(access(path, F_OK), 0);
	rt_rmdir(&dir);
}
END_TEST

START_TEST(test_size_rotation_and_cap)
{
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9rec_stats st;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr;

	rt_opts(&o, dir, NULL);
	o.max_file_size = 64 << 10;
	o.max_total_size = 256 << 10;
	o.flush_interval_ms = 5;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	for (int i = 0; i < 200; i++) {
		polls(w, t, 500);	/* ~5 KiB of wire per round */
		ck_assert_int_eq(d9rec_flush(w), 0);
		/* the cap holds but for the last batch and the seal */
		ck_assert_uint_le(rt_dir_bytes(dir), (256 << 10) + (32 << 10));
	}
	d9rec_thread_unregister(&t);
	d9rec_stats(w, &st);
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_uint_ge(st.segments, 10);
	ck_assert_uint_gt(st.deleted_segments, 0);
	ck_assert_uint_eq(st.dropped, 0);
	ck_assert_int_eq(st.stopped, 0);
	ck_assert_uint_le(rt_dir_bytes(dir), 256 << 10);
	ck_assert_uint_ge(rt_dir_bytes(dir), 128 << 10);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_gt(m->polls.n, 0);
	ck_assert_uint_lt(m->polls.n, 100000);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

START_TEST(test_period)
{
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr;
	int n = 0;

	rt_opts(&o, dir, NULL);
	o.rotation_period_ms = 100;
	o.flush_interval_ms = 10;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	for (int i = 0; i < 55; i++, n += 10) {
		polls(w, t, 10);
		usleep(10000);
	}
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_uint_ge(rt_files(dir, ".bin"), 4);
	ck_assert_uint_le(rt_files(dir, ".bin"), 8);
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->polls.n, (size_t)n);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}
END_TEST

/* Two segments compressed as kind; the second has big * 10000 more
 * polls (several MiB: more than one gzip member with libdeflate). */
static void
compressed(int kind, const char *suffix, const uint8_t *mg, size_t mlen,
    int big)
{
	char *dir = rt_tmpdir(), path[512];
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr;

	rt_opts(&o, dir, NULL);
	o.compression = kind;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	t = d9rec_thread_register(w, NULL, 0);
	polls(w, t, 1000);
	ck_assert_int_eq(d9rec_rotate(w), 0);
	polls(w, t, 1000);
	for (int i = 0; i < big; i++) {
		polls(w, t, 10000);
		ck_assert_int_eq(d9rec_flush(w), 0);
	}
	d9rec_thread_unregister(&t);
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_uint_eq(rt_files(dir, suffix), 2);
	ck_assert_uint_eq(rt_files(dir, ""), 2);	/* no .bin left */
	for (int s = 0; s < 2; s++) {
		snprintf(path, sizeof path, "%s/trace.%d%s", dir, s, suffix);
		ck_assert(magic(path, mg, mlen));
	}
	m = rt_load(dir, &nerr);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(m->polls.n, 2000 + (size_t)big * 10000);
	d9m_model_free(&m);
	rt_rmdir(&dir);
}

START_TEST(test_gzip)
{
	static const uint8_t gz[] = { 0x1f, 0x8b };

	compressed(D9REC_COMPRESS_GZIP, ".bin.gz", gz, 2, 30);
}
END_TEST

/* The default: gzip in Huffman codes only. */
START_TEST(test_gzip_fast)
{
	static const uint8_t gz[] = { 0x1f, 0x8b };

	compressed(D9REC_COMPRESS_GZIP_FAST, ".bin.gz", gz, 2, 30);
}
END_TEST

START_TEST(test_zstd)
{
	static const uint8_t zs[] = { 0x28, 0xb5, 0x2f, 0xfd };

	compressed(D9REC_COMPRESS_ZSTD, ".bin.zst", zs, 4, 0);
}
END_TEST

static size_t
symbols_written(int opt, const char *env)
{
	char *dir = rt_tmpdir();
	struct d9rec_options o;
	struct d9m_model *m;
	d9rec_writer *w;
	size_t nerr, n;
	void *p;

	if (env != NULL)
		setenv("D9REC_SYMBOLS", env, 1);
	rt_opts(&o, dir, NULL);
	o.alloc_profile = 1;
	o.alloc_sample_rate = 1;
	o.symbols = opt;
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	p = d9rec_malloc(10);
	d9rec_free(p);
	ck_assert_int_eq(d9rec_close(&w), 0);
	unsetenv("D9REC_SYMBOLS");
	m = rt_load(dir, &nerr);
	n = m->symbols.n;
	ck_assert_uint_gt(m->maps.n, 0);	/* maps are always written */
	d9m_model_free(&m);
	rt_rmdir(&dir);
	return n;
}

START_TEST(test_symbols_switch)
{
	ck_assert_uint_gt(symbols_written(1, NULL), 0);
	ck_assert_uint_eq(symbols_written(0, NULL), 0);
	ck_assert_uint_eq(symbols_written(1, "0"), 0);
}
END_TEST

START_TEST(test_bad_open)
{
	struct d9rec_options o;
	d9rec_writer *w, *w2;
	char *dir = rt_tmpdir();

	d9rec_options_init(&o);
	ck_assert_int_eq(d9rec_open(&w, &o), -EINVAL);
	o.dir = "/proc/nonexistent/dir";
	ck_assert_int_lt(d9rec_open(&w, &o), 0);
	ck_assert_ptr_null(w);
	rt_opts(&o, dir, NULL);
	ck_assert_int_eq(d9rec_open(&w, &o), 0);
	ck_assert_int_eq(d9rec_open(&w2, &o), -EBUSY);	/* one writer per dir */
	ck_assert_int_eq(d9rec_close(&w), 0);
	ck_assert_uint_eq(rt_files(dir, ""), 0);	/* empty segment deleted */
	rt_rmdir(&dir);
}
END_TEST

TCase *
rt_tcase_files(void)
{
	TCase *tc = tcase_create("files");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_rotation);
	tcase_add_test(tc, test_size_rotation_and_cap);
	tcase_add_test(tc, test_period);
	tcase_add_test(tc, test_gzip);
	tcase_add_test(tc, test_gzip_fast);
	tcase_add_test(tc, test_zstd);
	tcase_add_test(tc, test_symbols_switch);
	tcase_add_test(tc, test_bad_open);
	return tc;
}
