/*
 * test_resync.c: damage costs its member or batch only (ANALYSIS 19.1).
 * Four batches of ten events, each its own gzip member, zstd frame or
 * raw run: a damaged member is skipped to the next member, a bad frame
 * to the next batch header, with one note naming the byte and one
 * D9P_LOSS_DAMAGED; the other 30 events are read, whichever way the
 * reader takes (a file read whole, a file streamed, the files of a
 * directory decompressed ahead, pipes decompressed on another thread).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suites.h"

#define NSEG	4
#define NEV	10

enum { RAW, GZ, ZS };

/* The four batches in containers of kind; at[i]: where piece i starts. */
static void
pieces(struct tg *c, int kind, size_t at[NSEG])
{
	tg_init(c);
	for (int i = 0; i < NSEG; i++) {
		struct tg b;

		tg_init(&b);
		tg_batch_e(&b, NEV, i * NEV);
		at[i] = c->n;
		if (kind == GZ)
			tg_gzip(c, b.p, b.n);
		else if (kind == ZS)
			tg_zstd(c, b.p, b.n);
		else
			tg_raw(c, b.p, b.n);
		tg_free(&b);
	}
}

/* Whether the log has an event of value v ("E@n v=k" lines). */
static int
has_value(struct rec *r, int v)
{
	char want[32];

	snprintf(want, sizeof want, " v=%d\n", v);
	return strstr(rec_log(r), want) != NULL;
}

/* notes with each line's "t" named dir/t. */
static void
named(struct tg *out, const char *dir, const char *notes)
{
	tg_reset(out);
	for (const char *p = notes; *p; p = strchr(p, '\n') + 1)
		tg_printf(out, "%s/%.*s", dir, (int)(strchr(p, '\n') + 1 - p),
		    p);
}

/* Read c every way; each must give events events (lost: a bit set of
 * the batches that go), `damaged` damages and these notes. */
static void
ck_resync(const struct tg *c, uint64_t events, unsigned lost,
    unsigned damaged, const char *notes)
{
	struct tg want;

	char dir[] = "/tmp/d9-test-resync-XXXXXX", path[64];
	const char *paths[] = { path, dir };

	tg_init(&want);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/t", dir);
	tg_write_file(path, c->p, c->n);
	/* 0 memory file; 1, 2 pipes; 3, 4 file whole and streamed; 5, 6
	 * the directory, prefetched and streamed */
	for (int way = 0; way < 7; way++) {
		struct tg_pipe tp;
		struct rec r;

		rec_init(&r);
		r.stream_only = way == 4 || way == 6;
		if (way == 0)
			ck_assert_int_eq(rec_read(&r, c->p, c->n), 0);
		else if (way <= 2) {
			int fd = tg_pipe_start(&tp, c->p, c->n,
			    way == 1 ? 7 : 1 << 20);

			ck_assert_int_eq(rec_read_fd(&r, fd, "t", 0), 0);
			tg_pipe_join(&tp);
		} else
			ck_assert_int_eq(rec_read_paths(&r, &paths[way / 5],
			    1), 0);
		tg_reset(&want);
		tg_printf(&want, "%s", notes);
		if (way >= 3)	/* named by its path */
			named(&want, dir, notes);
		ck_assert_msg(strcmp(rec_notes(&r), tg_cstr(&want)) == 0,
		    "way %d: %s", way, rec_notes(&r));
		ck_assert_uint_eq(r.nevents, events);
		ck_assert_uint_eq(r.damaged, damaged);
		ck_assert_uint_eq(r.cuts, 0);
		for (int v = 0; v < NSEG * NEV; v++)
			ck_assert_int_eq(has_value(&r, v),
			    !(lost >> (v / NEV) & 1));
		rec_free(&r);
	}
	unlink(path);
	rmdir(dir);
	tg_free(&want);
}

/* One byte of member 2 damaged: the first of its deflate data made an
 * invalid block type, its zstd frame header's reserved bit set. */
START_TEST(damaged_member)
{
	size_t at[NSEG];
	char notes[256];
	struct tg c;

	pieces(&c, GZ, at);
	c.p[at[1] + 10] |= 0x06;
	snprintf(notes, sizeof notes, "t: byte %zu: gzip: invalid block type; "
	    "skipped to the next member\n", at[1] + 11);
	ck_resync(&c, 30, 1u << 1, 1, notes);
	tg_free(&c);

	pieces(&c, ZS, at);
	c.p[at[1] + 4] ^= 0x08;
	snprintf(notes, sizeof notes, "t: byte %zu: zstd: Unsupported frame "
	    "parameter; skipped to the next member\n", at[1]);
	ck_resync(&c, 30, 1u << 1, 1, notes);
	tg_free(&c);
}
END_TEST

/* A bad frame in raw bytes: on at the next batch header. */
START_TEST(damaged_batch)
{
	size_t at[NSEG];
	char notes[256];
	struct tg c;

	pieces(&c, RAW, at);
	c.p[at[1] + 5] = 0xee;		/* the schema frame's tag */
	snprintf(notes, sizeof notes, "t: byte %zu: unknown frame tag 0xee; "
	    "skipped to the next batch\n", at[1] + 5);
	ck_resync(&c, 30, 1u << 1, 1, notes);
	tg_free(&c);
}
END_TEST

/* Only the check is wrong: the member's events were read before it, the
 * damage is counted all the same. */
START_TEST(bad_check_only)
{
	size_t at[NSEG];
	char notes[256];
	struct tg c;

	pieces(&c, GZ, at);
	c.p[at[2] - 8] ^= 1;		/* member 2's CRC */
	snprintf(notes, sizeof notes, "t: byte %zu: gzip: incorrect data "
	    "check; skipped to the next member\n", at[2] - 4);
	ck_resync(&c, 40, 0, 1, notes);
	tg_free(&c);
}
END_TEST

/* Two members damaged: two notes, two damages; garbage between members
 * is skipped too (one damage: nothing was read between). */
START_TEST(two_damages)
{
	size_t at[NSEG];
	char notes[512];
	struct tg c, d;

	pieces(&c, GZ, at);
	c.p[at[1] + 10] |= 0x06;
	c.p[at[3] + 10] |= 0x06;
	snprintf(notes, sizeof notes, "t: byte %zu: gzip: invalid block type; "
	    "skipped to the next member\nt: byte %zu: gzip: invalid block "
	    "type; skipped to the next member\n", at[1] + 11, at[3] + 11);
	ck_resync(&c, 20, 1u << 1 | 1u << 3, 2, notes);
	tg_free(&c);

	pieces(&c, GZ, at);
	tg_init(&d);
	tg_raw(&d, c.p, at[2]);
	d.p[at[1] + 10] |= 0x06;
	tg_raw(&d, "\x1f\x8b\x08junk\x1f\x8b", 9);	/* a false start */
	tg_raw(&d, c.p + at[2], c.n - at[2]);
	snprintf(notes, sizeof notes, "t: byte %zu: gzip: invalid block type; "
	    "skipped to the next member\n", at[1] + 11);
	ck_resync(&d, 30, 1u << 1, 1, notes);
	tg_free(&d);
	tg_free(&c);
}
END_TEST

Suite *
suite_resync(void)
{
	Suite *s = suite_create("resync");
	TCase *tc = tcase_create("resync");

	tcase_add_test(tc, damaged_member);
	tcase_add_test(tc, damaged_batch);
	tcase_add_test(tc, bad_check_only);
	tcase_add_test(tc, two_damages);
	suite_add_tcase(s, tc);
	return s;
}
