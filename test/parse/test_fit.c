/*
 * test_fit.c: reading the newest files that fit in the memory d9top may
 * use (parse/fit.h). The guess of a file's model from what its container
 * states (gzip ISIZE, zstd content size, a raw file's size), capped; the
 * pick of the newest by the segment's own clock (not the file's name nor
 * its mtime), contiguous, the newest always kept; the reader leaving the
 * rest unread with one note naming them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/wire.h"
#include "parse/fit.h"
#include "parse/follow.h"
#include "suites.h"

/* A segment that began at wall (its clock sync's realtime_ns) holding
 * n events of schema "E", padded to about size bytes by its values. */
static void
segment(struct tg *t, uint64_t wall, int n)
{
	static const struct tg_field f[] = { { "realtime_ns", D9_FT_VARINT } };

	tg_header(t);
	tg_schema(t, 2, "ClockSyncEvent", 1, 1, f);
	tg_event(t, 2, 5);
	tg_leb(t, wall);
	tg_batch_e(t, n, 0);
}

START_TEST(need_from_container)
{
	struct tg raw, gz, zs, t;
	struct tg_dir d;
	uint8_t lie[4] = { 0xff, 0xff, 0xff, 0x7f };

	tg_dir_make(&d);
	tg_init(&raw);
	tg_init(&gz);
	tg_init(&zs);
	tg_init(&t);
	segment(&raw, 1, 20000);		/* compresses well */
	tg_gzip(&gz, raw.p, raw.n);
	tg_zstd(&zs, raw.p, raw.n);
	ck_assert_uint_lt(gz.n, raw.n / 4);
	/* raw: its size; gzip and zstd: the bytes they state; and a
	 * third more */
	ck_assert_uint_eq(d9p_fit_need(tg_dir_put(&d, "a.bin", &raw), raw.n),
	    raw.n + raw.n / 3);
	ck_assert_uint_eq(d9p_fit_need(tg_dir_put(&d, "a.bin.gz", &gz), gz.n),
	    raw.n + raw.n / 3);
	ck_assert_uint_eq(d9p_fit_need(tg_dir_put(&d, "a.bin.zst", &zs),
	    zs.n), raw.n + raw.n / 3);
	/* a gzip trailer that states 2 GiB: at most deflate's most */
	tg_raw(&t, gz.p, gz.n - 4);
	tg_raw(&t, lie, 4);
	ck_assert_uint_eq(d9p_fit_need(tg_dir_put(&d, "lie.bin.gz", &t), t.n),
	    t.n * D9P_FIT_RATIO + t.n * D9P_FIT_RATIO / 3);
	/* one stating less than the file (many members): four times */
	tg_reset(&t);
	tg_raw(&t, gz.p, gz.n);
	tg_raw(&t, gz.p, gz.n);
	memset(t.p + t.n - 4, 0, 4);
	ck_assert_uint_eq(d9p_fit_need(tg_dir_put(&d, "two.bin.gz", &t), t.n),
	    t.n * 4 + t.n * 4 / 3);
	/* too short for a trailer, and a file that is gone */
	tg_reset(&t);
	tg_raw(&t, gz.p, 10);
	ck_assert_uint_eq(d9p_fit_need(tg_dir_put(&d, "short.gz", &t), 10),
	    13);
	ck_assert_uint_eq(d9p_fit_need(tg_dir_file(&d, "none"), 100), 0);
	tg_free(&raw);
	tg_free(&gz);
	tg_free(&zs);
	tg_free(&t);
	tg_dir_remove(&d);
}
END_TEST

/* Which of v the pick drops, as "d" and "-" in v's order. */
static const char *
picked(struct d9p_fit *v, size_t n, uint64_t budget, uint64_t *kept,
    char *out)
{
	d9p_fit_pick(v, n, budget, kept);
	for (size_t i = 0; i < n; i++)
		out[i] = v[i].drop ? 'd' : '-';
	out[n] = '\0';
	return out;
}

START_TEST(pick_newest)
{
	/* places 0..4; starts 50, 10, 40, 20, 30: oldest is place 1 */
	struct d9p_fit v[5] = { { 100, 50, 0 }, { 100, 10, 0 },
		{ 100, 40, 0 }, { 100, 20, 0 }, { 100, 30, 0 } };
	struct d9p_fit w[3] = { { 10, 1, 0 }, { 1000, 2, 0 }, { 10, 3, 0 } };
	struct d9p_fit same[3] = { { 100, 7, 0 }, { 100, 7, 0 },
		{ 100, 7, 0 } };
	/* besides the files: 64 MiB, and the prefetch's four files of the
	 * largest, decompressed (three quarters of a need) */
	const uint64_t b = d9p_fit_base(v, 5), bw = d9p_fit_base(w, 3);
	uint64_t kept;
	char s[8];

	ck_assert_uint_eq(b, D9P_FIT_FIXED + 4 * 75);
	ck_assert_uint_eq(bw, D9P_FIT_FIXED + 4 * 750);
	ck_assert_uint_eq(d9p_fit_base(v, 0), D9P_FIT_FIXED);

	ck_assert_str_eq(picked(v, 5, b + 500, &kept, s), "-----");
	ck_assert_uint_eq(kept, 500);
	ck_assert_str_eq(picked(v, 5, b + 300, &kept, s), "-d-d-");
	ck_assert_uint_eq(kept, 300);
	ck_assert_str_eq(picked(v, 5, b + 299, &kept, s), "-d-dd");
	ck_assert_uint_eq(kept, 200);
	/* the newest stays whatever it takes */
	ck_assert_str_eq(picked(v, 5, 1, &kept, s), "-dddd");
	ck_assert_uint_eq(kept, 100);
	/* nothing older than a file left out stays, though it would fit */
	ck_assert_str_eq(picked(w, 3, bw + 30, &kept, s), "dd-");
	ck_assert_uint_eq(kept, 10);
	/* equal starts: the later place is the newer */
	ck_assert_str_eq(picked(same, 3, d9p_fit_base(same, 3) + 200, &kept,
	    s), "d--");
	ck_assert_uint_eq(picked(v, 0, 1, &kept, s)[0], '\0');
}
END_TEST

/* In d: a.bin, b.bin and c.bin, segments that began at 3000, 1000 and
 * 2000 (names that sort against their clocks); the guessed need of
 * each, as f's (they are the same size). */
static uint64_t
three_segments(struct tg_dir *d, struct d9p_fit *f)
{
	static const uint64_t began[3] = { 3000, 1000, 2000 };
	struct tg t;
	uint64_t need = 0;

	tg_init(&t);
	for (int i = 0; i < 3; i++) {
		char name[8] = "a.bin";

		name[0] = (char)('a' + i);
		tg_reset(&t);
		segment(&t, began[i], 50);
		need = d9p_fit_need(tg_dir_put(d, name, &t), t.n);
	}
	for (size_t i = 0; i < 3; i++)
		f[i].need = need;
	tg_free(&t);
	return need;
}

/* The names read, d's path cut. */
static const char *
inputs(struct rec *r, const struct tg_dir *d, struct tg *out)
{
	char pre[80];

	snprintf(pre, sizeof pre, "%s/", d->path);
	return rec_inputs(r, pre, out);
}

/* Three segments whose names sort against their clocks: the newest two
 * are read, the oldest is named in one note; without a budget, all. */
START_TEST(reader_reads_newest)
{
	const char *paths[1];
	struct tg names;
	struct tg_dir d;
	struct rec r;
	char want[512], k[32], m[32];
	uint64_t need, base;
	struct d9p_fit f[3];

	tg_dir_make(&d);
	tg_init(&names);
	need = three_segments(&d, f);
	base = d9p_fit_base(f, 3);
	paths[0] = d.path;

	rec_init(&r);
	r.mem_budget = base + 2 * need;
	ck_assert_int_eq(rec_read_paths(&r, paths, 1), 0);
	ck_assert_str_eq(inputs(&r, &d, &names), "a.bin\nc.bin\n");
	ck_assert_uint_eq(r.st.unread, 1);
	ck_assert_uint_eq(r.unread, 1);		/* told to the sink */
	snprintf(want, sizeof want, "%s/b.bin: 1 older file not read: the "
	    "newest 2, about %s in memory, are what fits in the %s d9top "
	    "may use (--memory SIZE, or all)\n", d.path,
	    d9_fmt_ibytes(k, sizeof k, (double)(2 * need)),
	    d9_fmt_ibytes(m, sizeof m, (double)r.mem_budget));
	ck_assert_str_eq(rec_notes(&r), want);
	rec_free(&r);

	/* one file fits: the other two are named first .. last */
	rec_init(&r);
	r.mem_budget = base + need;
	ck_assert_int_eq(rec_read_paths(&r, paths, 1), 0);
	ck_assert_str_eq(inputs(&r, &d, &names), "a.bin\n");
	ck_assert_uint_eq(r.st.unread, 2);
	snprintf(want, sizeof want, "%s/b.bin .. %s/c.bin: 2 older files not "
	    "read", d.path, d.path);
	ck_assert_ptr_nonnull(strstr(rec_notes(&r), want));
	rec_free(&r);

	/* not even the newest fits: it is read as far as that goes, and the
	 * note does not call it what fits */
	rec_init(&r);
	r.mem_budget = 100;
	ck_assert_int_eq(rec_read_paths(&r, paths, 1), 0);
	ck_assert_uint_eq(r.st.unread, 2);
	ck_assert_msg(strstr(rec_notes(&r), "2 older files not read: the "
	    "newest alone needs about ") != NULL, "%s", rec_notes(&r));
	ck_assert_ptr_nonnull(strstr(rec_notes(&r), " in memory, more than "
	    "the 100 B d9top may use (--memory SIZE, or all), and is read as "
	    "far as that goes\n"));
	rec_free(&r);

	/* no budget, or one they fit in: every file, no note */
	rec_init(&r);
	r.mem_budget = base + 3 * need;
	ck_assert_int_eq(rec_read_paths(&r, paths, 1), 0);
	ck_assert_str_eq(inputs(&r, &d, &names), "a.bin\nb.bin\n"
	    "c.bin\n");
	ck_assert_uint_eq(r.st.unread, 0);
	ck_assert_str_eq(rec_notes(&r), "");
	rec_free(&r);
	tg_free(&names);
	tg_dir_remove(&d);
}
END_TEST

/* What the process holds before a read that must find memory full:
 * BALLAST bytes, resident (written through volatile, not optimised
 * away); free() it. */
#define BALLAST	((size_t)96 << 20)

static char *
ballast(void)
{
	char *p = malloc(BALLAST);

	ck_assert_ptr_nonnull(p);
	for (size_t i = 0; i < BALLAST; i += 4096)
		((volatile char *)p)[i] = 1;
	return p;
}

/* Room for all three files, but the process already holds more than
 * three quarters of it: reading stops in the first file (cut, told with
 * where), and the two after it are counted as left unread. */
START_TEST(reading_stops_when_full)
{
	const char *paths[1];
	struct tg t;
	struct tg_dir d;
	struct d9p_fit f[3] = { { 0, 0, 0 } };
	struct rec r;
	char *hold = ballast(), want[256];
	uint64_t need;

	tg_dir_make(&d);
	tg_init(&t);
	for (int i = 0; i < 3; i++) {	/* three segments, not copies */
		char name[8] = "a.bin";

		name[0] = (char)('a' + i);
		tg_reset(&t);
		segment(&t, 1000 + (uint64_t)i, 600000);	/* over a MiB */
		tg_dir_put(&d, name, &t);
	}
	ck_assert_uint_gt(t.n, (size_t)1 << 20);
	need = d9p_fit_need(tg_dir_file(&d, "a.bin"), t.n);
	for (size_t i = 0; i < 3; i++)
		f[i].need = need;
	paths[0] = d.path;
	rec_init(&r);
	r.keep = -1;
	r.mem_budget = d9p_fit_base(f, 3) + 3 * need;
	ck_assert_uint_lt(r.mem_budget / 4 * 3, BALLAST);
	ck_assert_int_eq(rec_read_paths(&r, paths, 1), 0);
	ck_assert(r.st.full);
	ck_assert_uint_eq(r.st.unread, 2);
	ck_assert_uint_eq(r.unread, 2);
	ck_assert_uint_eq(r.cuts, 1);
	ck_assert_uint_gt(r.nevents, 0);
	ck_assert_uint_lt(r.nevents, 600001);
	snprintf(want, sizeof want, "%s/a.bin: byte ", d.path);
	ck_assert_int_eq(strncmp(rec_notes(&r), want, strlen(want)), 0);
	ck_assert_ptr_nonnull(strstr(rec_notes(&r), "(--memory SIZE, or "
	    "all): the rest of the input is not read, nor any input after "
	    "it\n"));
	ck_assert_uint_eq(r.nnotes, 1);
	rec_free(&r);
	tg_free(&t);
	tg_dir_remove(&d);
	free(hold);
}
END_TEST

/* Following a directory with room for two of three segments: the first
 * poll reads the two that began last, as a read at once would; a segment
 * that comes later is read; the one left out never is. */
START_TEST(follow_reads_newest)
{
	const char *paths[1];
	struct d9p_follow *fl;
	struct tg t, names;
	struct tg_dir d;
	struct d9p_fit f[3] = { { 0, 0, 0 } };
	struct d9p_sink sink;
	struct d9p_read_opts o;
	struct rec r;
	uint64_t need;
	char want[256];

	tg_dir_make(&d);
	tg_init(&t);
	tg_init(&names);
	need = three_segments(&d, f);
	paths[0] = d.path;
	ck_assert_ptr_nonnull(fl = d9p_follow_new(paths, 1));
	rec_init(&r);
	r.mem_budget = d9p_fit_base(f, 3) + 2 * need;
	sink = rec_sink(&r);
	o = rec_opts(&r);
	ck_assert_int_eq(d9p_follow_poll(fl, &sink, &o, &r.st), 0);
	ck_assert_str_eq(inputs(&r, &d, &names), "a.bin\nc.bin\n");
	snprintf(want, sizeof want, "%s/b.bin: 1 older file not read: ",
	    d.path);
	ck_assert_int_eq(strncmp(rec_notes(&r), want, strlen(want)), 0);
	tg_reset(&t);
	segment(&t, 4000, 50);
	tg_dir_put(&d, "d.bin", &t);
	ck_assert_int_eq(d9p_follow_poll(fl, &sink, &o, &r.st), 0);
	ck_assert_int_eq(d9p_follow_poll(fl, &sink, &o, &r.st), 0);
	ck_assert_str_eq(inputs(&r, &d, &names), "a.bin\nc.bin\n"
	    "d.bin\n");
	ck_assert_uint_eq(r.nnotes, 1);	/* told at the first poll only */
	ck_assert_uint_eq(r.unread, 1);
	d9p_follow_free(&fl);
	rec_free(&r);
	tg_free(&t);
	tg_free(&names);
	tg_dir_remove(&d);
}
END_TEST

/* Following once reading stopped for memory: neither a segment still
 * written (0.bin.active, read before the stop) nor a new one is read
 * any more; it was said once. */
START_TEST(follow_stops_when_full)
{
	char *hold = ballast(), path[128];
	const char *paths[1];
	struct d9p_follow *fl;
	struct d9p_fit f[2] = { { 0, 0, 0 } };
	struct d9p_sink sink;
	struct d9p_read_opts o;
	struct tg t;
	struct tg_dir d;
	struct rec r;
	uint64_t events;
	FILE *fp;

	tg_dir_make(&d);
	tg_init(&t);
	segment(&t, 2000, 5);			/* read before the stop */
	f[0].need = d9p_fit_need(tg_dir_put(&d, "0.bin.active", &t), t.n);
	tg_reset(&t);
	segment(&t, 1000, 600000);		/* over a MiB: the stop */
	f[1].need = d9p_fit_need(tg_dir_put(&d, "a.bin.active", &t), t.n);
	paths[0] = d.path;
	ck_assert_ptr_nonnull(fl = d9p_follow_new(paths, 1));
	rec_init(&r);
	r.keep = -1;
	r.mem_budget = d9p_fit_base(f, 2) + f[0].need + f[1].need;
	sink = rec_sink(&r);
	o = rec_opts(&r);
	ck_assert_int_eq(d9p_follow_poll(fl, &sink, &o, &r.st), 0);
	ck_assert(r.st.full);
	ck_assert_uint_eq(r.nnotes, 1);
	events = r.nevents;
	/* the recorders go on, and one starts another segment */
	tg_reset(&t);
	tg_batch_e(&t, 5, 0);
	snprintf(path, sizeof path, "%s/0.bin.active", d.path);
	ck_assert_ptr_nonnull(fp = fopen(path, "a"));
	ck_assert_uint_eq(fwrite(t.p, 1, t.n, fp), t.n);
	ck_assert_int_eq(fclose(fp), 0);
	tg_reset(&t);
	segment(&t, 3000, 50);
	tg_dir_put(&d, "b.bin", &t);
	ck_assert_int_eq(d9p_follow_poll(fl, &sink, &o, &r.st), 0);
	ck_assert_uint_eq(r.nevents, events);
	ck_assert_uint_eq(r.nnotes, 1);
	d9p_follow_free(&fl);
	rec_free(&r);
	tg_free(&t);
	tg_dir_remove(&d);
	free(hold);
}
END_TEST

Suite *
suite_fit(void)
{
	Suite *s = suite_create("fit");
	TCase *tc = tcase_create("fit");

	tcase_add_test(tc, need_from_container);
	tcase_add_test(tc, pick_newest);
	tcase_add_test(tc, reader_reads_newest);
	tcase_add_test(tc, follow_reads_newest);
	tcase_add_test(tc, reading_stops_when_full);
	tcase_add_test(tc, follow_stops_when_full);
	suite_add_tcase(s, tc);
	return s;
}
