/*
 * test_limits.c: memory follows what is kept. A string or stack longer
 * than 64 KiB is cut to its first 64 KiB as it is read (whole, in small
 * pipe writes, gzip'd), offsets after it stay those of the input, and
 * the input's note says so; a value whose length runs past the end of
 * the input is one truncation note; a frame of too many long values
 * ends the stream.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/wire.h"
#include "suites.h"

#define KEEP	65536

static const struct tg_field long_fields[] = { { "s", D9_FT_STRING },
    { "k", D9_FT_STACK }, { "p", D9_FT_POOLED_STRING } };

/* n bytes of c after a u32 length: a string value. */
static void
long_str(struct tg *t, size_t n, char c)
{
	char *s = malloc(n);

	ck_assert_ptr_nonnull(s);
	memset(s, c, n);
	tg_str32n(t, s, n);
	free(s);
}

/* Events with a 300 KiB pooled string, a 100 KiB string and a stack of
 * 10000 frames; *count_at: offset of the first cut value's count. */
static void
long_values(struct tg *t, size_t *count_at)
{
	tg_init(t);
	tg_header(t);
	tg_schema(t, 1, "L", 1, 3, long_fields);
	tg_u8(t, D9_TAG_STRING_POOL);
	tg_u32(t, 1);
	tg_u32(t, 1);
	*count_at = t->n;
	long_str(t, 300 << 10, 'p');
	tg_event(t, 1, 1);
	long_str(t, 100 << 10, 'x');
	tg_u32(t, 10000);
	for (uint64_t i = 0; i < 10000; i++)
		tg_u64(t, i);
	tg_u32(t, 1);
	tg_event(t, 1, 1);
	tg_str32(t, "ok");
	tg_u32(t, 0);
	tg_u32(t, 1);
}

/* The run of c in the log after `key`: exactly KEEP long. */
static void
ck_kept(const char *log, const char *key, char c)
{
	const char *p = strstr(log, key);

	ck_assert_ptr_nonnull(p);
	p += strlen(key);
	ck_assert_uint_eq(strspn(p, (char[]){ c, '\0' }), KEEP);
}

/* Read t three ways: a file, a pipe in 4 KiB writes, gzip'd. */
static void
ck_three_ways(const struct tg *t, uint64_t events, const char *notes,
    int check_values)
{
	struct tg gz;

	tg_init(&gz);
	tg_gzip(&gz, t->p, t->n);
	for (int way = 0; way < 3; way++) {
		struct tg_pipe tp;
		struct rec r;

		rec_init(&r);
		if (way == 0)
			rec_read(&r, t->p, t->n);
		else if (way == 1) {
			rec_read_fd(&r, tg_pipe_start(&tp, t->p, t->n, 4096),
			    "t", 0);
			tg_pipe_join(&tp);
		} else
			rec_read(&r, gz.p, gz.n);
		ck_assert_str_eq(rec_notes(&r), notes);
		ck_assert_uint_eq(r.nevents, events);
		ck_assert_uint_eq(r.st.decoded, t->n);
		if (check_values) {
			ck_kept(rec_log(&r), "L@1 s=\"", 'x');
			ck_kept(rec_log(&r), "p=\"", 'p');
			/* 8192 frames: the last one kept is 0x1ffe, then the
			 * marker of the 1809 cut (base/stackcap.h) */
			ck_assert_ptr_nonnull(strstr(rec_log(&r),
			    ",0x1ffe,0x59c7000000000711]"));
			ck_assert_ptr_null(strstr(rec_log(&r), ",0x1fff"));
		}
		rec_free(&r);
	}
	tg_free(&gz);
}

START_TEST(long_values_are_cut)
{
	struct tg t, want;
	size_t at, bad;

	long_values(&t, &at);
	tg_init(&want);
	tg_printf(&want, "t: byte %zu: 3 values longer than 64 KiB (strings, "
	    "stacks) cut to 64 KiB; the longest had %u bytes\n", at,
	    300u << 10);
	ck_three_ways(&t, 2, tg_cstr(&want), 1);
	{
		/* a segment being written, read as it is: said at its end
		 * too (it ends where its writer is, not cut) */
		char dir[] = "/tmp/d9-limits-XXXXXX", path[64];
		const char *paths[] = { path };
		struct tg live;
		struct rec r;
		FILE *f;

		ck_assert_ptr_nonnull(mkdtemp(dir));
		snprintf(path, sizeof path, "%s/t.bin.active", dir);
		ck_assert_ptr_nonnull(f = fopen(path, "wb"));
		ck_assert_uint_eq(fwrite(t.p, 1, t.n, f), t.n);
		ck_assert_int_eq(fclose(f), 0);
		rec_init(&r);
		tg_init(&live);
		rec_read_paths(&r, paths, 1);
		tg_printf(&live, "%s: byte %zu: 3 values longer than 64 KiB "
		    "(strings, stacks) cut to 64 KiB; the longest had %u "
		    "bytes\n", path, at, 300u << 10);
		ck_assert_str_eq(rec_notes(&r), tg_cstr(&live));
		rec_free(&r);
		tg_free(&live);
		unlink(path);
		rmdir(dir);
	}
	/* a bad frame after them: its offset is the input's */
	bad = t.n;
	tg_u8(&t, 0x77);
	tg_reset(&want);
	tg_printf(&want, "t: byte %zu: unknown frame tag 0x77; skipped to the "
	    "next batch (after 3 values cut to 64 KiB)\n", bad);
	ck_three_ways(&t, 2, tg_cstr(&want), 0);
	tg_free(&want);
	tg_free(&t);
}
END_TEST

/* 1 MiB said, 100 KiB there: as the last value of an event (the event
 * is whole but for it), or with fields after it (the frame is cut). */
START_TEST(value_past_the_end)
{
	static const struct tg_field last[] = { { "s", D9_FT_STRING } };
	struct tg t, want;
	size_t at, ev;

	tg_init(&want);
	for (int i = 0; i < 2; i++) {
		tg_init(&t);
		tg_header(&t);
		if (i == 0)
			tg_schema(&t, 1, "L", 1, 1, last);
		else
			tg_schema(&t, 1, "L", 1, 3, long_fields);
		ev = t.n;
		tg_event(&t, 1, 1);
		at = t.n;
		tg_u32(&t, 1 << 20);
		for (int k = 0; k < 100 << 10; k++)
			tg_u8(&t, 'x');
		tg_reset(&want);
		if (i == 0)
			tg_printf(&want, "t: truncated at byte %zu (a value of "
			    "%u bytes at byte %zu runs past the end)\n", t.n,
			    1u << 20, at);
		else
			tg_printf(&want, "t: truncated at byte %zu\n", ev);
		ck_three_ways(&t, i == 0, tg_cstr(&want), 0);
		tg_free(&t);
	}
	tg_free(&want);
}
END_TEST

START_TEST(too_many_cuts_in_a_frame)
{
	static const struct tg_field f[] = { { "m", D9_FT_STRING_MAP } };
	struct tg t;
	size_t at;

	tg_init(&t);
	tg_header(&t);
	tg_schema(&t, 1, "M", 1, 1, f);
	tg_event(&t, 1, 1);
	tg_u32(&t, 65);
	for (int i = 0; i < 65; i++) {
		tg_str32(&t, "k");
		if (i == 64)
			at = t.n;
		long_str(&t, KEEP + 1, 'v');
	}
	ck_note(&t, 0, 0, "t: byte %zu: more than 64 values longer than 64 "
	    "KiB in one frame; later frames skipped (after 64 values cut to "
	    "64 KiB)", at);
	tg_free(&t);
}
END_TEST

Suite *
suite_limits(void)
{
	Suite *s = suite_create("limits");
	TCase *tc = tcase_create("limits");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, long_values_are_cut);
	tcase_add_test(tc, value_past_the_end);
	tcase_add_test(tc, too_many_cuts_in_a_frame);
	suite_add_tcase(s, tc);
	return s;
}
