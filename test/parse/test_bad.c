/*
 * test_bad.c: crafted bad input, with the exact note and byte offset
 * each must give (everything before a bad frame is kept; ANALYSIS 19.1:
 * the reader then skips to the next batch header). Huge wire counts must be refused by
 * message, never by allocating what they claim; the sanitizer build runs
 * with a 700 MiB allocation cap to prove it.
 */
#include <stdio.h>
#include <string.h>

#include "base/wire.h"
#include "suites.h"

static const struct tg_field one_u8[] = { { "v", D9_FT_U8 } };

/* A header, schema 1 and one event: later errors say "later frames". */
static void
prelude(struct tg *t)
{
	tg_init(t);
	tg_header(t);
	tg_schema(t, 1, "E", 1, 1, one_u8);
	tg_event(t, 1, 1);
	tg_u8(t, 0);
}

#define LATER "; skipped to the next batch"

/* A bad value of one field type; off: where in the value the error is. */
struct bad_value {
	uint8_t		 type;
	uint8_t		 len;
	uint8_t		 p[48];
	uint8_t		 off;
	const char	*msg;
};

#define FF4 0xff, 0xff, 0xff, 0xff
#define L8 0x01, 0, 0, 0, D9_FT_DYN_LIST
static const struct bad_value bad_values[] = {
	{ D9_FT_STRING, 4, { FF4 }, 0,
	    "string length 4294967295 is larger than the 256 MiB limit" },
	{ D9_FT_BYTES, 4, { FF4 }, 0,
	    "string length 4294967295 is larger than the 256 MiB limit" },
	{ D9_FT_STRING | D9_FT_OPTIONAL, 5, { 1, FF4 }, 1,
	    "string length 4294967295 is larger than the 256 MiB limit" },
	{ D9_FT_STACK, 4, { FF4 }, 0,
	    "stack frame count 4294967295 is larger than the 256 MiB limit" },
	/* exactly the 256 MiB limit: allowed, but far more than is left */
	{ D9_FT_STACK, 4, { 0, 0, 0, 2 }, 0,
	    "stack frame count 33554432 needs 268435456 bytes, only 0 left" },
	{ D9_FT_STRING_MAP, 4, { FF4 }, 0,
	    "map entry count 4294967295 needs 34359738360 bytes, only 0 left" },
	{ D9_FT_STRING_MAP, 12, { 1, 0, 0, 0, FF4, 0, 0, 0, 0 }, 4,
	    "map string length 4294967295 is larger than the 256 MiB limit" },
	{ D9_FT_DYN_LIST, 4, { FF4 }, 0,
	    "dynamic count 4294967295 needs 8589934590 bytes, only 0 left" },
	{ D9_FT_DYN_MAP, 4, { FF4 }, 0,
	    "dynamic count 4294967295 needs 17179869180 bytes, only 0 left" },
	{ D9_FT_DYN_LIST, 6, { 1, 0, 0, 0, 0, 0 }, 4,
	    "unknown field type 0x00" },
	{ D9_FT_DYN_MAP, 8, { 1, 0, 0, 0, D9_FT_U8, 1, 0x10, 0 }, 6,
	    "unknown field type 0x10" },
	{ D9_FT_DYN_LIST, 45, { L8, L8, L8, L8, L8, L8, L8, L8, 1, 0, 0, 0,
	    D9_FT_U8, 0 }, 40, "dynamic values nested deeper than 8" },
	{ D9_FT_VARINT, 11, { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	    0x80, 0x80, 0x00 }, 0, "varint longer than 10 bytes or above 2^64" },
	{ D9_FT_VARINT | D9_FT_OPTIONAL, 11, { 1, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0x02 }, 1,
	    "varint longer than 10 bytes or above 2^64" },
};

START_TEST(bad_field_value)
{
	const struct bad_value *c = &bad_values[_i];
	struct tg_field f = { "f", c->type };
	struct tg t;
	size_t at;

	prelude(&t);
	tg_schema(&t, 2, "F", 1, 1, &f);
	tg_event(&t, 2, 0);
	at = t.n;
	tg_raw(&t, c->p, c->len);
	ck_note(&t, 0, 1, "t: byte %zu: %s" LATER, at + c->off, c->msg);
	tg_free(&t);
}
END_TEST

static const uint8_t bad_tags[] = { 0x00, 0x07, 0x1e, 0x28, 0x53, 0x55,
    0x80, 0x81, 0xff };

START_TEST(unknown_frame_tag)
{
	struct tg t;
	size_t at;

	prelude(&t);
	at = t.n;
	tg_u8(&t, bad_tags[_i]);
	tg_u64(&t, 0);
	ck_note(&t, 0, 1, "t: byte %zu: unknown frame tag 0x%02x" LATER, at,
	    bad_tags[_i]);
	/* with no event before it: a trace all the same, skipped to the
	 * next batch */
	tg_reset(&t);
	tg_header(&t);
	tg_u8(&t, bad_tags[_i]);
	ck_note(&t, 0, 0, "t: byte 5: unknown frame tag 0x%02x" LATER,
	    bad_tags[_i]);
	tg_free(&t);
}
END_TEST

/* 0x54 starts a header only when "RC\0" follows. */
START_TEST(bad_header_mid_stream)
{
	struct tg t;
	size_t at;

	prelude(&t);
	at = t.n;
	tg_raw(&t, "TRCX\1", 5);
	tg_event(&t, 1, 1);
	tg_u8(&t, 0);
	ck_note(&t, 0, 1, "t: byte %zu: unknown frame tag 0x54" LATER, at);
	tg_free(&t);
	prelude(&t);
	at = t.n;
	tg_raw(&t, "TRC\0\0", 5);
	ck_note(&t, 0, 1, "t: byte %zu: format version 0, only version 1 is "
	    "known" LATER, at + 4);
	tg_free(&t);
}
END_TEST

START_TEST(unknown_schema_id)
{
	struct tg t;
	size_t at;

	prelude(&t);
	at = t.n;
	tg_event(&t, 17, 0);
	tg_u8(&t, 0);
	ck_note(&t, 0, 1, "t: byte %zu: event uses unknown schema 17" LATER,
	    at + 1);
	tg_free(&t);
}
END_TEST

static const uint8_t bad_types[] = { 0x00, 0x10, 0x7f, 0x80, 0x90, 0xff };

START_TEST(unknown_field_type)
{
	static const char hdr[] = "TRC\0\1\1\1\0\1\0S\1\2\0\1\0a\13\1\0b";
	struct tg t;

	tg_init(&t);
	tg_raw(&t, hdr, sizeof hdr - 1);	/* schema 1 S {a:u8, b:?} */
	tg_u8(&t, bad_types[_i]);
	ck_note(&t, 0, 0, "t: byte 21: schema S: field b has unknown type "
	    "0x%02x" LATER, bad_types[_i]);
	tg_free(&t);
}
END_TEST

START_TEST(huge_pool_counts)
{
	struct tg t;
	size_t at;

	prelude(&t);
	at = t.n;
	tg_u8(&t, D9_TAG_STRING_POOL);
	tg_u32(&t, UINT32_MAX);
	tg_u32(&t, 0);
	ck_note(&t, 0, 1, "t: byte %zu: pool entry count 4294967295 needs "
	    "34359738360 bytes, only 4 left" LATER, at + 1);
	tg_free(&t);

	prelude(&t);
	at = t.n;
	tg_u8(&t, D9_TAG_STRING_POOL);
	tg_u32(&t, 1);
	tg_u32(&t, 0);
	tg_u32(&t, UINT32_MAX);
	tg_u64(&t, 0);
	ck_note(&t, 0, 1, "t: byte %zu: string length 4294967295 is larger "
	    "than the 256 MiB limit" LATER, at + 9);
	tg_free(&t);

	prelude(&t);
	at = t.n;
	tg_u8(&t, D9_TAG_STACK_POOL);
	tg_u32(&t, 2);
	tg_u32(&t, 0);			/* a good entry first */
	tg_u32(&t, 0);
	tg_u32(&t, 1);
	tg_u32(&t, UINT32_MAX);
	ck_note(&t, 0, 1, "t: byte %zu: stack frame count 4294967295 is "
	    "larger than the 256 MiB limit" LATER, at + 17);
	tg_free(&t);
}
END_TEST

START_TEST(bad_annotations)
{
	static const uint8_t leb11[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	    0x80, 0x80, 0x80, 0x80, 0x00 };
	struct tg t;
	size_t at;

	prelude(&t);
	at = t.n;
	tg_u8(&t, D9_TAG_ANNOTATIONS);
	tg_raw(&t, leb11, sizeof leb11);
	tg_u16(&t, 0);
	ck_note(&t, 0, 1, "t: byte %zu: bad varint in annotation frame" LATER,
	    at + 1);
	tg_free(&t);

	prelude(&t);
	at = t.n;
	tg_u8(&t, D9_TAG_ANNOTATIONS);
	tg_leb(&t, 1);
	tg_u16(&t, 1);
	tg_u16(&t, 0);
	tg_u16(&t, 4);
	tg_raw(&t, "unit", 4);
	tg_u32(&t, UINT32_MAX);
	ck_note(&t, 0, 1, "t: byte %zu: annotation length 4294967295 is larger "
	    "than the 256 MiB limit" LATER, at + 12);
	tg_free(&t);
}
END_TEST

/* A count a little beyond the end is a frame cut mid-write (SLACK). */
START_TEST(short_count_is_truncation)
{
	struct tg t;
	size_t at;

	prelude(&t);
	at = t.n;
	tg_u8(&t, D9_TAG_STRING_POOL);
	tg_u32(&t, 1000);
	tg_u32(&t, 0);
	ck_note(&t, 0, 1, "t: truncated at byte %zu", at);
	tg_free(&t);

	tg_init(&t);
	tg_header(&t);
	tg_raw(&t, "\1\1\0\1\0S\1\377\377", 9);	/* 65535 fields, none there */
	ck_note(&t, 0, 0, "t: truncated at byte 5");
	tg_free(&t);
}
END_TEST

START_TEST(version_byte)
{
	struct tg t;

	tg_init(&t);
	tg_raw(&t, "TRC\0\2", 5);
	tg_schema(&t, 1, "E", 1, 1, one_u8);
	ck_note(&t, 0, 0, "t: byte 4: format version 2, only version 1 is "
	    "known");
	/* a directory member with a newer version is reported, not skipped */
	ck_note(&t, 1, 0, "t: byte 4: format version 2, only version 1 is "
	    "known");
	tg_reset(&t);
	tg_raw(&t, "TRC\0\377", 5);
	ck_note(&t, 0, 0, "t: byte 4: format version 255, only version 1 is "
	    "known");
	tg_free(&t);
}
END_TEST

struct not_trace {
	size_t		 len;
	const char	*p;
	const char	*note;		/* when not in a directory */
};

static const struct not_trace not_traces[] = {
	{ 12, "hello world\n", NULL },
	{ 16, "\x89PNG\r\n\x1a\n\0\0\0\rIHDR", NULL },
	{ 1, "\n", NULL },
	{ 5, "TRCX\1", NULL },
	{ 4, "TRC\1", NULL },
	{ 8, "TOKIOTRC", NULL },		/* the pre-2026 format */
	{ 3, "\x1f\x8b\x08", "t: truncated at byte 0 (compressed data ends "
	    "early)" },
	/* the start of a header, cut: a truncated trace, not another file */
	{ 2, "TR", "t: truncated at byte 0" },
	{ 4, "TRC\0", "t: truncated at byte 0" },
};

START_TEST(not_a_trace)
{
	const struct not_trace *c = &not_traces[_i];
	struct tg t;

	tg_init(&t);
	tg_raw(&t, c->p, c->len);
	if (c->note != NULL)
		ck_note(&t, 0, 0, "%s", c->note);
	else {
		ck_note(&t, 0, 0, "t: byte 0: not a dial9 trace (no TRC header)");
		ck_note(&t, 1, 0, "t: not a dial9 trace, skipped");
	}
	tg_free(&t);
}
END_TEST

START_TEST(empty_input)
{
	struct tg t;
	struct rec r;

	tg_init(&t);
	ck_note(&t, 0, 0, "t: empty input");
	ck_note(&t, 1, 0, "t: empty input");
	rec_init(&r);
	rec_read(&r, NULL, 0);
	ck_assert_uint_eq(r.st.inputs, 1);
	ck_assert_uint_eq(r.st.failed, 1);
	ck_assert_uint_eq(r.st.read_ok, 0);
	rec_free(&r);
}
END_TEST

/*
 * Every prefix of a stream with every frame type: the note names the
 * start of the frame that is cut, and the events before it are all kept.
 */
START_TEST(truncated_everywhere)
{
	static const struct tg_annot an[] = { { 0, "unit", "ns" } };
	static const uint64_t stack[] = { 0x10, 0x20 };
	size_t starts[16], nstarts = 0, nev[16];
	struct tg t, full;
	struct rec r;
	uint64_t events = 0;

	tg_init(&t);
	tg_init(&full);
#define FRAME(stmt) do { starts[nstarts] = t.n; nev[nstarts++] = events; \
	stmt; } while (0)
	FRAME(tg_header(&t));
	FRAME(tg_string_pool(&t, 3, "pooled"));
	FRAME(tg_stack_pool(&t, 9, 2, stack));
	FRAME(tg_all_types_schema(&t));
	FRAME(tg_annotations(&t, TG_ALL_ID, 1, an));
	FRAME(tg_ts_reset(&t, 1ull << 33));
	FRAME(tg_all_types_event(&t, 5, 1); events++);
	FRAME(tg_all_types_event(&t, 6, 0); events++);
	FRAME(tg_header(&t));
#undef FRAME
	starts[nstarts] = t.n;
	nev[nstarts] = events;
	rec_init(&r);
	rec_read(&r, t.p, t.n);
	ck_assert_str_eq(rec_notes(&r), "");
	tg_raw(&full, r.log.p, r.log.n);
	for (size_t n = 0, f = 0; n < t.n; n++) {
		while (starts[f + 1] <= n)
			f++;
		rec_clear(&r);
		rec_read(&r, t.p, n);
		if (n == 0)
			ck_assert_str_eq(rec_notes(&r), "t: empty input\n");
		else if (n == starts[f])	/* a frame boundary: clean */
			ck_assert_str_eq(rec_notes(&r), "");
		else {
			char want[64];

			snprintf(want, sizeof want, "t: truncated at byte %zu\n",
			    starts[f]);
			ck_assert_str_eq(rec_notes(&r), want);
		}
		ck_assert_uint_eq(r.nevents, nev[f]);
		ck_assert_int_eq(memcmp(r.log.p, full.p, r.log.n), 0);
	}
	rec_free(&r);
	tg_free(&full);
	tg_free(&t);
}
END_TEST

Suite *
suite_bad(void)
{
	Suite *s = suite_create("bad");
	TCase *tc;

	tc = tcase_create("values");
	tcase_add_loop_test(tc, bad_field_value, 0,
	    (int)(sizeof bad_values / sizeof bad_values[0]));
	tcase_add_test(tc, huge_pool_counts);
	tcase_add_test(tc, bad_annotations);
	tcase_add_test(tc, short_count_is_truncation);
	suite_add_tcase(s, tc);
	tc = tcase_create("frames");
	tcase_add_loop_test(tc, unknown_frame_tag, 0, (int)sizeof bad_tags);
	tcase_add_test(tc, bad_header_mid_stream);
	tcase_add_test(tc, unknown_schema_id);
	tcase_add_loop_test(tc, unknown_field_type, 0, (int)sizeof bad_types);
	tcase_add_test(tc, truncated_everywhere);
	suite_add_tcase(s, tc);
	tc = tcase_create("files");
	tcase_add_test(tc, version_byte);
	tcase_add_loop_test(tc, not_a_trace, 0,
	    (int)(sizeof not_traces / sizeof not_traces[0]));
	tcase_add_test(tc, empty_input);
	suite_add_tcase(s, tc);
	return s;
}
