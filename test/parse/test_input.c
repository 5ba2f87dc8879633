/*
 * test_input.c: containers (FORMAT.md 1.1). Gzip members and zstd frames
 * are recognised by magic at every boundary and may be mixed with raw
 * bytes in one stream; whatever the container, the decoded log must be
 * the one of the raw bytes. A broken container gives one note, after
 * the events that decoded before the damage; reading goes on at the next
 * member (test_resync.c).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/wire.h"
#include "parse/input.h"
#include "suites.h"

#define NBATCH 4
#define NEXT "; skipped to the next member"

/*
 * Four batches of all-types events; hdr[i] is where batch i starts and
 * mid[i] a point in the middle of one of its events.
 */
static void
sample(struct tg *t, size_t hdr[NBATCH + 1], size_t mid[NBATCH])
{
	tg_init(t);
	for (int b = 0; b < NBATCH; b++) {
		hdr[b] = t->n;
		tg_header(t);
		tg_all_types_pools(t);
		tg_all_types_schema(t);
		tg_ts_reset(t, 1000000ull * (unsigned)(b + 1));
		for (int i = 0; i < 5; i++) {
			if (i == 2)
				mid[b] = t->n + 9;
			tg_all_types_event(t, (uint32_t)i * 1000, i & 1);
		}
	}
	hdr[NBATCH] = t->n;
}

/* Read c three ways (memory file, temp file by path, pipe in chunks). */
static void
ck_same(const struct tg *c, struct rec *ref)
{
	static const size_t chunks[] = { 1, 2, 3, 7, 4096, 1 << 20 };
	char path[] = "/tmp/d9-test-input-XXXXXX";
	const char *paths[] = { path };
	struct rec r;
	int fd;

	rec_init(&r);
	ck_assert_int_eq(rec_read(&r, c->p, c->n), 0);
	ck_assert_str_eq(rec_notes(&r), "");
	ck_assert_str_eq(rec_log(&r), rec_log(ref));
	ck_assert_uint_eq(r.st.consumed, c->n);
	ck_assert_uint_eq(r.st.decoded, ref->st.decoded);
	ck_assert_uint_eq(r.st.events, 4 * 5);
	ck_assert_uint_eq(r.st.read_ok, 1);

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	tg_write_file(path, c->p, c->n);
	rec_clear(&r);
	ck_assert_int_eq(rec_read_paths(&r, paths, 1), 0);
	unlink(path);
	ck_assert_str_eq(rec_notes(&r), "");
	ck_assert_str_eq(strchr(rec_log(&r), '\n'),
	    strchr(rec_log(ref), '\n'));	/* all but the input name */

	for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
		struct tg_pipe tp;

		rec_clear(&r);
		fd = tg_pipe_start(&tp, c->p, c->n, chunks[i]);
		ck_assert_int_eq(rec_read_fd(&r, fd, "t", 0), 0);
		tg_pipe_join(&tp);
		ck_assert_str_eq(rec_notes(&r), "");
		ck_assert_str_eq(rec_log(&r), rec_log(ref));
	}
	rec_free(&r);
}

/* Points in the sample stream where a container piece may end. */
enum { STOP, H1, H2, H3, M0, M1, M2, M3, E3, END, EMPTY };
enum { RAW, GZ, ZS };

struct piece {
	uint8_t	 kind;
	uint8_t	 upto;		/* a point; EMPTY: an empty member */
};

/*
 * Raw runs end at frame boundaries (that is where a magic is looked
 * for); compressed members may end anywhere, empty ones are skipped.
 */
static const struct piece layouts[][8] = {
	/* multi-member gzip: one per batch, an empty one, a split frame */
	{ { GZ, H1 }, { GZ, H2 }, { GZ, H3 }, { GZ, EMPTY }, { GZ, M3 },
	    { GZ, END } },
	/* multi-frame zstd */
	{ { ZS, M0 }, { ZS, EMPTY }, { ZS, H2 }, { ZS, END } },
	/* raw | gzip | raw | zstd | gzip | raw | zstd */
	{ { RAW, H1 }, { GZ, M1 }, { RAW, H2 }, { ZS, M2 }, { GZ, H3 },
	    { RAW, E3 }, { ZS, END } },
	/* gzip | zstd | raw | gzip */
	{ { GZ, M0 }, { ZS, M1 }, { RAW, H3 }, { GZ, END } },
};

START_TEST(containers)
{
	size_t hdr[NBATCH + 1], mid[NBATCH], at[END + 1], from = 0;
	struct tg t, c;
	struct rec ref;

	sample(&t, hdr, mid);
	at[H1] = hdr[1];
	at[H2] = hdr[2];
	at[H3] = hdr[3];
	for (int b = 0; b < NBATCH; b++)
		at[M0 + b] = mid[b];
	at[E3] = mid[3] - 9;		/* the start of that event */
	at[END] = t.n;
	rec_init(&ref);
	ck_assert_int_eq(rec_read(&ref, t.p, t.n), 0);
	ck_assert_str_eq(rec_notes(&ref), "");
	tg_init(&c);
	for (const struct piece *p = layouts[_i]; p->upto != STOP; p++) {
		size_t to = p->upto == EMPTY ? from : at[p->upto];
		void (*put)(struct tg *, const void *, size_t) =
		    p->kind == RAW ? tg_raw : p->kind == GZ ? tg_gzip : tg_zstd;

		put(&c, t.p + from, to - from);
		from = to;
	}
	ck_assert_uint_eq(from, t.n);
	ck_same(&c, &ref);
	rec_free(&ref);
	tg_free(&c);
	tg_free(&t);
}
END_TEST

/* Inside a member, a magic is just an unknown frame tag. */
START_TEST(magic_inside_member)
{
	size_t hdr[NBATCH + 1], mid[NBATCH];
	struct tg t, c, in;

	sample(&t, hdr, mid);
	tg_init(&c);
	tg_init(&in);
	tg_raw(&in, t.p, hdr[1]);
	tg_gzip(&in, t.p + hdr[1], hdr[2] - hdr[1]);
	tg_gzip(&c, in.p, in.n);
	ck_note(&c, 0, 5, "t: byte %zu: unknown frame tag 0x1f; skipped to the "
	    "next batch", hdr[1]);
	tg_reset(&c);
	tg_reset(&in);
	tg_raw(&in, t.p, hdr[1]);
	tg_zstd(&in, t.p + hdr[1], hdr[2] - hdr[1]);
	tg_gzip(&c, in.p, in.n);
	ck_note(&c, 0, 5, "t: byte %zu: unknown frame tag 0x28; skipped to the "
	    "next batch", hdr[1]);
	tg_free(&in);
	tg_free(&c);
	tg_free(&t);
}
END_TEST

START_TEST(gzip_garbage)
{
	static const uint8_t bad_method[] = { 0x1f, 0x8b, 0x07, 0, 0, 0, 0, 0,
	    0, 3, 1, 2, 3, 4 };
	static const uint8_t bad_block[] = { 0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0,
	    0, 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	size_t hdr[NBATCH + 1], mid[NBATCH];
	struct tg t, c, u;

	tg_init(&c);
	tg_raw(&c, bad_method, sizeof bad_method);
	/* zlib names the byte where it stopped reading */
	ck_note(&c, 0, 0, "t: byte 4: gzip: unknown compression method" NEXT);
	tg_reset(&c);
	tg_raw(&c, bad_block, sizeof bad_block);
	ck_note(&c, 0, 0, "t: byte 11: gzip: invalid block type" NEXT);

	/* a good batch, then a member whose CRC is wrong: batch 1 is kept */
	sample(&t, hdr, mid);
	tg_reset(&c);
	tg_gzip(&c, t.p, hdr[1]);
	tg_gzip(&c, t.p + hdr[1], hdr[2] - hdr[1]);
	c.p[c.n - 8] ^= 1;
	ck_note(&c, 0, 10, "t: byte %zu: gzip: incorrect data check" NEXT, c.n - 4);

	/*
	 * A bad CRC behind a frame cut by the damage: the container error
	 * is the one note, not also the frame it left incomplete.
	 */
	tg_reset(&c);
	tg_init(&u);
	tg_header(&u);
	tg_u8(&u, D9_TAG_STRING_POOL);
	tg_u32(&u, UINT32_MAX);
	tg_gzip(&c, u.p, u.n);
	c.p[c.n - 8] ^= 1;
	ck_note(&c, 0, 0, "t: byte %zu: gzip: incorrect data check" NEXT, c.n - 4);
	tg_free(&u);

	/* raw bytes, then a gzip magic and junk */
	tg_reset(&c);
	tg_raw(&c, t.p, hdr[1]);
	tg_raw(&c, bad_block, sizeof bad_block);
	ck_note(&c, 0, 5, "t: byte %zu: gzip: invalid block type" NEXT, hdr[1] + 11);
	tg_free(&c);
	tg_free(&t);
}
END_TEST

/*
 * A batch with a bad frame, the next batch whole, in one member whose CRC
 * is wrong: the frames the decoder had not reached when the container's
 * damage came are decoded before the rest of the window goes, however
 * the reads split the bytes (a file's one read used to drop the second
 * batch with the window, and a pipe's small ones kept it).
 */
START_TEST(member_damage_after_a_resync)
{
	size_t hdr[NBATCH + 1], mid[NBATCH];
	struct tg t, u, c, want;

	sample(&t, hdr, mid);
	tg_init(&u);
	tg_raw(&u, t.p, hdr[1]);
	tg_u8(&u, 0x1f);		/* an unknown frame tag */
	tg_raw(&u, t.p + hdr[1], hdr[2] - hdr[1]);
	tg_init(&c);
	tg_gzip(&c, u.p, u.n);
	c.p[c.n - 8] ^= 1;
	tg_init(&want);
	tg_printf(&want, "t: byte %zu: unknown frame tag 0x1f; skipped to the "
	    "next batch\n", hdr[1]);
	tg_printf(&want, "t: byte %zu: gzip: incorrect data check" NEXT "\n",
	    c.n - 4);
	ck_notes(&c, 0, 10, 2, tg_cstr(&want));
	tg_free(&want);
	tg_free(&c);
	tg_free(&u);
	tg_free(&t);
}
END_TEST

START_TEST(zstd_garbage)
{
	/* the reserved bit of the frame header descriptor is set */
	static const uint8_t junk[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x08, 0, 0, 0,
	    0, 0, 0, 0 };
	size_t hdr[NBATCH + 1], mid[NBATCH];
	struct tg t, c;

	tg_init(&c);
	tg_raw(&c, junk, sizeof junk);
	ck_note(&c, 0, 0, "t: byte 0: zstd: Unsupported frame parameter" NEXT);
	sample(&t, hdr, mid);
	tg_reset(&c);
	tg_zstd(&c, t.p, hdr[1]);
	tg_raw(&c, junk, sizeof junk);
	ck_note(&c, 0, 5, "t: byte %zu: zstd: Unsupported frame parameter" NEXT,
	    c.n - sizeof junk);
	tg_free(&c);
	tg_free(&t);
}
END_TEST

/*
 * A file that ends inside a member: whatever decoded is kept; the note
 * names the decoded offset where the frame or the data stops.
 */
START_TEST(ends_mid_member)
{
	size_t hdr[NBATCH + 1], mid[NBATCH];
	struct tg t, c;

	sample(&t, hdr, mid);
	tg_init(&c);
	tg_gzip(&c, t.p, t.n);
	c.n -= 8;			/* without its CRC and size */
	ck_note(&c, 0, 20, "t: truncated at byte %zu (compressed data ends "
	    "early)", t.n);
	c.n = 10;			/* the gzip header only */
	ck_note(&c, 0, 0, "t: truncated at byte 0 (compressed data ends "
	    "early)");
	tg_reset(&c);
	tg_zstd(&c, t.p, t.n);
	c.n -= 1;
	ck_note(&c, 0, 0, "t: truncated at byte 0 (compressed data ends "
	    "early)");

	/* a raw batch, then a member cut in its middle */
	tg_reset(&c);
	tg_raw(&c, t.p, hdr[1]);
	tg_gzip(&c, t.p + hdr[1], t.n - hdr[1]);
	for (size_t cut = hdr[1] + 10; cut < c.n; cut += 97) {
		struct rec r;
		unsigned long long at;
		char tail[64];

		rec_init(&r);
		rec_read(&r, c.p, cut);
		ck_assert_uint_eq(r.nnotes, 1);
		ck_assert_int_eq(sscanf(rec_notes(&r), "t: truncated at byte "
		    "%llu%63[^\n]", &at, tail), 2 - (strchr(rec_notes(&r),
		    '(') == NULL));
		ck_assert_uint_ge(at, hdr[1]);
		ck_assert_uint_ge(r.nevents, 5);
		rec_free(&r);
	}
	tg_free(&c);
	tg_free(&t);
}
END_TEST

/* The input layer on its own: kinds, offsets, pushback only in raw. */
START_TEST(input_api)
{
	size_t hdr[NBATCH + 1], mid[NBATCH];
	struct d9p_input *in;
	struct d9_err e;
	struct tg t, c;
	uint8_t buf[4096];
	size_t total = 0;
	ssize_t r;
	int cut;

	sample(&t, hdr, mid);
	tg_init(&c);
	tg_gzip(&c, t.p, hdr[1]);
	tg_zstd(&c, t.p + hdr[1], hdr[2] - hdr[1]);
	d9_err_clear(&e);
	ck_assert_int_eq(d9p_input_open_fd(&in, tg_memfd(c.p, c.n), &e), 0);
	ck_assert_uint_eq(d9p_input_kinds(in), 0);
	while ((r = d9p_input_read(in, buf, sizeof buf, &cut, &e)) > 0) {
		ck_assert_int_eq(memcmp(buf, t.p + total, (size_t)r), 0);
		ck_assert_uint_eq(d9p_input_raw_since(in), UINT64_MAX);
		ck_assert_int_eq(d9p_input_pushback(in, buf, 1), -1);
		total += (size_t)r;
	}
	ck_assert_int_eq(r, 0);
	ck_assert_int_eq(cut, 0);
	ck_assert_uint_eq(total, hdr[2]);
	ck_assert_uint_eq(d9p_input_consumed(in), c.n);
	ck_assert_uint_eq(d9p_input_kinds(in),
	    1u << D9P_C_GZIP | 1u << D9P_C_ZSTD);
	d9p_input_close(&in);
	ck_assert_ptr_null(in);
	d9p_input_close(&in);

	/* raw: bytes handed out can be pushed back and are read again */
	ck_assert_int_eq(d9p_input_open_fd(&in, tg_memfd(t.p, 64), &e), 0);
	r = d9p_input_read(in, buf, 10, &cut, &e);
	ck_assert_int_eq(r, 10);
	ck_assert_uint_eq(d9p_input_raw_since(in), 0);
	ck_assert_int_eq(d9p_input_pushback(in, buf + 4, 6), 0);
	ck_assert_int_eq(d9p_input_pushback(in, buf, 4), -1);	/* not raw now */
	r = d9p_input_read(in, buf, sizeof buf, &cut, &e);
	ck_assert_int_eq(r, 60);
	ck_assert_int_eq(memcmp(buf, t.p + 4, 60), 0);
	ck_assert_uint_eq(d9p_input_raw_since(in), 4);
	ck_assert_uint_eq(d9p_input_kinds(in), 1u << D9P_C_RAW);
	d9p_input_close(&in);
	tg_free(&c);
	tg_free(&t);
}
END_TEST

/*
 * Read ahead (input.h: d9p_input_ahead) on a pipe that pauses inside a
 * gzip member: the bytes before the pause come out (waits that time out
 * say nothing more is there), the rest once written, and the input
 * answers as the direct one did (consumed, kinds, no pushback). A close
 * while the reading thread is blocked on the pipe returns.
 */
START_TEST(ahead_pipe)
{
	size_t hdr[NBATCH + 1], mid[NBATCH], total = 0;
	struct d9p_input *in;
	struct d9_err e;
	struct tg t, c;
	uint8_t buf[256];
	ssize_t r;
	int p[2], cut;

	sample(&t, hdr, mid);
	tg_init(&c);
	tg_gzip(&c, t.p, t.n);
	ck_assert_uint_lt(c.n, 65536);	/* fits a pipe's buffer */
	for (int pass = 0; pass < 2; pass++) {
		ck_assert_int_eq(pipe(p), 0);
		ck_assert_int_eq(write(p[1], c.p, c.n / 2), (ssize_t)(c.n / 2));
		d9_err_clear(&e);
		ck_assert_int_eq(d9p_input_open_fd(&in, p[0], &e), 0);
		ck_assert_int_eq(d9p_input_ahead(in, sizeof buf), 0);
		ck_assert_int_eq(d9p_input_ahead(in, sizeof buf), -1);
		r = d9p_input_read(in, buf, sizeof buf, &cut, &e);
		ck_assert_int_gt(r, 0);
		ck_assert_int_eq(memcmp(buf, t.p, (size_t)r), 0);
		total = (size_t)r;
		while (d9p_input_wait(in, 100) == 1) {	/* all there is */
			r = d9p_input_read(in, buf, sizeof buf, &cut, &e);
			ck_assert_int_gt(r, 0);
			ck_assert_int_eq(memcmp(buf, t.p + total,
			    (size_t)r), 0);
			ck_assert_int_eq(d9p_input_pushback(in, buf, 1), -1);
			total += (size_t)r;
		}
		ck_assert_uint_lt(total, t.n);
		ck_assert_uint_eq(d9p_input_kinds(in), 1u << D9P_C_GZIP);
		if (pass == 1) {	/* blocked in read(2): cancelled */
			d9p_input_close(&in);
			ck_assert_ptr_null(in);
			close(p[1]);
			continue;
		}
		ck_assert_int_eq(write(p[1], c.p + c.n / 2, c.n - c.n / 2),
		    (ssize_t)(c.n - c.n / 2));
		close(p[1]);
		while ((r = d9p_input_read(in, buf, sizeof buf, &cut,
		    &e)) > 0) {
			ck_assert_int_eq(memcmp(buf, t.p + total,
			    (size_t)r), 0);
			total += (size_t)r;
		}
		ck_assert_int_eq(r, 0);
		ck_assert_int_eq(cut, 0);
		ck_assert_uint_eq(total, t.n);
		ck_assert_uint_eq(d9p_input_consumed(in), c.n);
		ck_assert_int_eq(d9p_input_read(in, buf, sizeof buf, &cut, &e),
		    0);
		d9p_input_close(&in);
	}
	tg_free(&c);
	tg_free(&t);
}
END_TEST

/* An fd that cannot be read: one note, no events, no crash. */
START_TEST(unreadable_fd)
{
	struct rec r;
	int fd = open("/", O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	rec_init(&r);
	ck_assert_int_eq(rec_read_fd(&r, fd, "t", 0), 0);
	ck_assert_str_eq(rec_notes(&r), "t: byte 0: Is a directory\n");
	ck_assert_uint_eq(r.st.failed, 1);
	rec_free(&r);
}
END_TEST

Suite *
suite_input(void)
{
	Suite *s = suite_create("input");
	TCase *tc;

	tc = tcase_create("containers");
	tcase_add_loop_test(tc, containers, 0,
	    (int)(sizeof layouts / sizeof layouts[0]));
	tcase_add_test(tc, magic_inside_member);
	tcase_add_test(tc, input_api);
	tcase_add_test(tc, ahead_pipe);
	suite_add_tcase(s, tc);
	tc = tcase_create("broken");
	tcase_add_test(tc, gzip_garbage);
	tcase_add_test(tc, member_damage_after_a_resync);
	tcase_add_test(tc, zstd_garbage);
	tcase_add_test(tc, ends_mid_member);
	tcase_add_test(tc, unreadable_fd);
	suite_add_tcase(s, tc);
	return s;
}
