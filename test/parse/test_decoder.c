/*
 * test_decoder.c: frames decoded to the right values (FORMAT.md 2.3-2.9).
 * Every stream is written with tracegen and read back through the real
 * reader into the recording sink, so each test states the whole decoded
 * log it expects.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/wire.h"
#include "parse/decoder.h"
#include "suites.h"

static const char *const all_names[] = {
	"i64", "f64", "bool", "str", "bytes", "pstack", "pstr", "stack",
	"var", "map", "u8", "u16", "u32", "list", "dmap",
};
static const char *const all_vals[] = {
	"-5", "1.5", "true", "\"hi\\x0a\"", "\"\\x00\\x01\\xff\"",
	"[0x10,0x20]", "\"pooled\"", "[0x1,0xffffffffffffffff]", "300",
	"{a=1,b=}", "255", "65535", "4294967295",
	"<020000000905040100000078>", "<0100000004010000006b0b07>",
};

/* The log line of tg_all_types_event(). */
static void
all_line(struct tg *out, unsigned long long ts, int present)
{
	tg_printf(out, "All@%llu", ts);
	for (int i = 0; i < 15; i++)
		tg_printf(out, " %s=%s", all_names[i], all_vals[i]);
	for (int i = 0; i < 15; i++)
		tg_printf(out, " o_%s=%s", all_names[i],
		    present ? all_vals[i] : "-");
	tg_printf(out, "\n");
}

START_TEST(every_field_type)
{
	struct tg t, want;

	tg_init(&t);
	tg_init(&want);
	tg_header(&t);
	tg_all_types_pools(&t);
	tg_all_types_schema(&t);
	tg_ts_reset(&t, 1000);
	tg_all_types_event(&t, 5, 1);
	tg_all_types_event(&t, 7, 0);
	tg_printf(&want, "input t\nbatch @0\nschema 7 All");
	for (int i = 0; i < 15; i++)
		tg_printf(&want, " %s:%d", all_names[i], i + 1);
	for (int i = 0; i < 15; i++)
		tg_printf(&want, " o_%s:%d", all_names[i], 0x81 + i);
	tg_printf(&want, "\n");
	all_line(&want, 1005, 1);
	all_line(&want, 1012, 0);
	ck_read(&t, tg_cstr(&want), "");
	tg_free(&t);
	tg_free(&want);
}
END_TEST

/* A schema of numbers, bools and pool ids only (d9p_schema.fixed): its
 * events are decoded without bounds checks where the bytes left hold
 * the longest such fields, and through the checked path near the end of
 * the input. Both give every value alike: the same events, written
 * twice, the second time as the input's last two, log the same. */
static const struct tg_field fixed_fields[] = {
	{ "v", D9_FT_VARINT }, { "c", D9_FT_U8 }, { "b", D9_FT_BOOL },
	{ "h", D9_FT_U16 }, { "w", D9_FT_U32 }, { "i", D9_FT_I64 },
	{ "f", D9_FT_F64 }, { "s", D9_FT_POOLED_STRING },
	{ "k", D9_FT_POOLED_STACK },
	{ "ov", D9_FT_VARINT | D9_FT_OPTIONAL },
	{ "os", D9_FT_POOLED_STRING | D9_FT_OPTIONAL },
};

/* Event one (max values, defined pool ids) or two (least values,
 * undefined ids, the optionals swapped). */
static void
fixed_event(struct tg *t, int two)
{
	double f = two ? -0.25 : 1.5;
	uint64_t bits;

	memcpy(&bits, &f, sizeof bits);
	tg_event(t, 3, 10);
	tg_leb(t, two ? 0 : UINT64_MAX);
	tg_u8(t, two ? 0 : 255);
	tg_u8(t, two ? 0 : 2);		/* any byte but 0 is true */
	tg_u16(t, two ? 1 : 65535);
	tg_u32(t, two ? 0 : UINT32_MAX);
	tg_u64(t, two ? (uint64_t)INT64_MIN : UINT64_MAX);
	tg_u64(t, bits);
	tg_u32(t, two ? 9 : 0);
	tg_u32(t, two ? 7 : 0);
	tg_u8(t, two ? 0 : 1);
	if (!two)
		tg_leb(t, 300);
	tg_u8(t, two ? 1 : 0);
	if (two)
		tg_u32(t, 0);
}

static void	read_events(const struct tg *, int (*)(void *,
		    const struct d9p_schema *, uint64_t,
		    const struct d9p_value *), void *);

/* Every member of every value of the events, as the sink saw them. */
struct raw_values {
	struct d9p_value v[4][16];
	char		 bytes[4][16][16];	/* what p points at */
	size_t		 n;
};

static int
raw_event(void *ctx, const struct d9p_schema *s, uint64_t ts,
    const struct d9p_value *v)
{
	struct raw_values *r = ctx;

	(void)ts;
	ck_assert_uint_lt(r->n, 4);
	for (uint16_t i = 0; i < s->nfields; i++) {
		r->v[r->n][i] = v[i];
		if (v[i].p != NULL)
			memcpy(r->bytes[r->n][i], v[i].p, v[i].type ==
			    D9_FT_POOLED_STACK ? 16 : 1);
	}
	r->n++;
	return 0;
}

START_TEST(fixed_and_checked_paths_agree)
{
	static const uint64_t frames[] = { 0x10, 0x20 };
	static const char *const line[] = {
	    "v=18446744073709551615 c=255 b=true h=65535 w=4294967295 "
	    "i=-1 f=1.5 s=\"a\" k=[0x10,0x20] ov=300 os=-",
	    "v=0 c=0 b=false h=1 w=0 i=-9223372036854775808 f=-0.25 "
	    "s=?#9 k=?#7 ov=- os=\"a\"" };
	struct tg t, want;
	size_t n = sizeof fixed_fields / sizeof *fixed_fields;
	struct raw_values raw;

	memset(&raw, 0, sizeof raw);
	tg_init(&t);
	tg_init(&want);
	tg_header(&t);
	tg_string_pool(&t, 0, "a");
	tg_stack_pool(&t, 0, 2, frames);
	tg_schema(&t, 3, "Fx", 1, n, fixed_fields);
	tg_ts_reset(&t, 1000);
	tg_printf(&want, "input t\nbatch @0\nschema 3 Fx");
	for (size_t i = 0; i < n; i++)
		tg_printf(&want, " %s:%d", fixed_fields[i].name,
		    fixed_fields[i].type);
	tg_printf(&want, "\n");
	for (int i = 0; i < 4; i++) {
		fixed_event(&t, i % 2);
		tg_printf(&want, "Fx@%d %s\n", 1010 + 10 * i, line[i % 2]);
	}
	ck_read(&t, tg_cstr(&want), "");
	/* and member by member: the checked path's (the last two) are the
	 * fixed path's (the first two), but for where a cache slot is */
	read_events(&t, raw_event, &raw);
	ck_assert_uint_eq(raw.n, 4);
	for (size_t e = 0; e < 2; e++)
		for (size_t i = 0; i < n; i++) {
			const struct d9p_value *a = &raw.v[e][i];
			const struct d9p_value *b = &raw.v[e + 2][i];

			ck_assert_msg(a->type == b->type &&
			    a->present == b->present &&
			    a->unresolved == b->unresolved &&
			    a->count == b->count && a->u == b->u &&
			    (a->p == NULL) == (b->p == NULL) &&
			    (a->cache == NULL) == (b->cache == NULL) &&
			    memcmp(raw.bytes[e][i], raw.bytes[e + 2][i], 16) ==
			    0, "event %zu field %s", e, fixed_fields[i].name);
		}
	tg_free(&t);
	tg_free(&want);
}
END_TEST

static const struct tg_field one_u8[] = { { "v", D9_FT_U8 } };

START_TEST(u24_deltas_and_resets)
{
	struct tg t;

	tg_init(&t);
	tg_header(&t);
	tg_schema(&t, 1, "E", 1, 1, one_u8);
	tg_schema(&t, 2, "N", 0, 1, one_u8);
	tg_event(&t, 1, 0);		/* base 0 */
	tg_u8(&t, 1);
	tg_event(&t, 1, 0xffffff);	/* the largest delta */
	tg_u8(&t, 2);
	tg_event(&t, 1, 0xffffff);	/* deltas accumulate */
	tg_u8(&t, 3);
	tg_event_nots(&t, 2);		/* no delta: base, unchanged */
	tg_u8(&t, 4);
	tg_ts_reset(&t, 1ull << 40);
	tg_event(&t, 1, 1);
	tg_u8(&t, 5);
	tg_ts_reset(&t, 5);		/* backwards */
	tg_event(&t, 1, 0);
	tg_u8(&t, 6);
	tg_ts_reset(&t, UINT64_MAX);
	tg_event(&t, 1, 0);
	tg_u8(&t, 7);
	tg_event_nots(&t, 2);
	tg_u8(&t, 8);
	ck_read(&t, "input t\nbatch @0\nschema 1 E v:11\n"
	    "schema 2 N nots v:11\n"
	    "E@0 v=1\nE@16777215 v=2\nE@33554430 v=3\nN@33554430 v=4\n"
	    "E@1099511627777 v=5\nE@5 v=6\nE@18446744073709551615 v=7\n"
	    "N@18446744073709551615 v=8\n", "");
	tg_free(&t);
}
END_TEST

/* A header clears schemas, both pools and the timestamp base (2.3). */
START_TEST(header_resets_state)
{
	static const struct tg_field f[] = { { "s", D9_FT_POOLED_STRING },
	    { "k", D9_FT_POOLED_STACK } };
	static const uint64_t a[] = { 0xabc };
	struct tg t, want;
	struct rec r;
	size_t h2, h3, bad;

	tg_init(&t);
	tg_header(&t);
	tg_schema(&t, 1, "A", 1, 2, f);
	tg_string_pool(&t, 0, "x");
	tg_stack_pool(&t, 0, 1, a);
	tg_ts_reset(&t, 1000);
	tg_event(&t, 1, 1);
	tg_u32(&t, 0);
	tg_u32(&t, 0);
	h2 = t.n;
	tg_header(&t);			/* pools and base gone */
	tg_schema(&t, 1, "A", 1, 2, f);
	tg_event(&t, 1, 5);
	tg_u32(&t, 0);
	tg_u32(&t, 0);
	h3 = t.n;
	tg_header(&t);			/* schema 1 gone */
	bad = t.n + 1;
	tg_event(&t, 1, 5);
	tg_u32(&t, 0);
	tg_u32(&t, 0);
	tg_init(&want);
	tg_printf(&want, "input t\nbatch @0\nschema 1 A s:7 k:6\n"
	    "A@1001 s=\"x\" k=[0xabc]\nbatch @%zu\n"
	    "schema 1 A s:7 k:6\nA@5 s=?#0 k=?#0\nbatch @%zu\n", h2, h3);
	rec_init(&r);
	ck_assert_int_eq(rec_read(&r, t.p, t.n), 0);
	ck_assert_str_eq(rec_log(&r), tg_cstr(&want));
	tg_reset(&want);
	tg_printf(&want, "t: byte %zu: event uses unknown schema 1; "
	    "skipped to the next batch\n", bad);
	ck_assert_str_eq(rec_notes(&r), tg_cstr(&want));
	ck_assert_uint_eq(r.st.failed, 1);
	ck_assert_uint_eq(r.st.read_ok, 1);
	ck_assert_uint_eq(r.st.events, 2);
	rec_free(&r);
	tg_free(&want);
	tg_free(&t);
}
END_TEST

/*
 * The symbol-table appendix has no header: it keeps the last batch's
 * schemas, pool ids and base (1.3), and redefines pool ids; events
 * before the redefinition keep the old text (2.7).
 */
START_TEST(appendix_continues_last_batch)
{
	static const struct tg_field spawn[] = { { "loc", D9_FT_POOLED_STRING } };
	static const struct tg_field sym[] = { { "addr", D9_FT_VARINT },
	    { "name", D9_FT_POOLED_STRING } };
	struct tg t;

	tg_init(&t);
	tg_header(&t);
	tg_schema(&t, 0, "Spawn", 1, 1, spawn);
	tg_string_pool(&t, 0, "main.rs:1");
	tg_ts_reset(&t, 1ull << 50);
	tg_event(&t, 0, 10);
	tg_u32(&t, 0);
	/* appendix */
	tg_string_pool(&t, 0, "tokio::main");
	tg_schema(&t, 65534, "SymbolTableEntry", 1, 2, sym);
	tg_ts_reset(&t, 0);
	tg_event(&t, 65534, 0);
	tg_leb(&t, 0x1000);
	tg_u32(&t, 0);
	tg_event(&t, 0, 3);		/* an earlier schema still works */
	tg_u32(&t, 0);
	ck_read(&t, "input t\nbatch @0\nschema 0 Spawn loc:7\n"
	    "Spawn@1125899906842634 loc=\"main.rs:1\"\n"
	    "schema 65534 SymbolTableEntry addr:9 name:7\n"
	    "SymbolTableEntry@0 addr=4096 name=\"tokio::main\"\n"
	    "Spawn@3 loc=\"tokio::main\"\n", "");
	tg_free(&t);
}
END_TEST

START_TEST(pools_resolved_at_event_time)
{
	static const struct tg_field f[] = { { "s", D9_FT_POOLED_STRING },
	    { "k", D9_FT_POOLED_STACK }, { "o", D9_FT_POOLED_STRING | 0x80 } };
	static const uint64_t a1[] = { 1, 2 }, a2[] = { 3 };
	struct tg t;

	tg_init(&t);
	tg_header(&t);
	tg_schema(&t, 4, "P", 1, 3, f);
	tg_event(&t, 4, 1);		/* nothing defined yet */
	tg_u32(&t, 0);
	tg_u32(&t, 0);
	tg_u8(&t, 1);
	tg_u32(&t, 0);
	tg_string_pool(&t, 0, "a");
	tg_stack_pool(&t, 0, 2, a1);
	tg_stack_pool(&t, 1, 0, NULL);	/* an empty stack is legal */
	tg_event(&t, 4, 1);
	tg_u32(&t, 0);
	tg_u32(&t, 0);
	tg_u8(&t, 0);
	tg_string_pool(&t, 0, "b");
	tg_stack_pool(&t, 0, 1, a2);
	tg_event(&t, 4, 1);
	tg_u32(&t, 0);
	tg_u32(&t, 1);
	tg_u8(&t, 7);			/* any nonzero byte means present */
	tg_u32(&t, 0);
	/* a multi-entry pool frame, the oldest symbolizer's form */
	tg_u8(&t, D9_TAG_STRING_POOL);
	tg_u32(&t, 2);
	tg_u32(&t, 0);
	tg_str32(&t, "c");
	tg_u32(&t, 4000000000u);
	tg_str32(&t, "");
	tg_event(&t, 4, 1);
	tg_u32(&t, 4000000000u);
	tg_u32(&t, 0);
	tg_u8(&t, 1);
	tg_u32(&t, 0);
	ck_read(&t, "input t\nbatch @0\nschema 4 P s:7 k:6 o:135\n"
	    "P@1 s=?#0 k=?#0 o=?#0\nP@2 s=\"a\" k=[0x1,0x2] o=-\n"
	    "P@3 s=\"b\" k=[] o=\"b\"\nP@4 s=\"\" k=[0x3] o=\"c\"\n", "");
	tg_free(&t);
}
END_TEST

START_TEST(annotations_set_units)
{
	static const struct tg_field f[] = { { "a", D9_FT_VARINT },
	    { "b", D9_FT_U32 }, { "c", D9_FT_U16 } };
	static const struct tg_annot an[] = { { 0, "unit", "ns" },
	    { 2, "metrique.unit", "bytes" }, { 1, "other", "x" },
	    { 9, "unit", "s" } };
	static const struct tg_annot later[] = { { 1, "unit", "ms" } };
	struct tg t;

	tg_init(&t);
	tg_header(&t);
	tg_annotations(&t, 300, 1, later);	/* before its schema: ignored */
	tg_schema(&t, 300, "U", 1, 3, f);
	tg_annotations(&t, 300, 4, an);		/* LEB128 id: ac 02 */
	tg_annotations(&t, 99, 1, later);	/* unknown id: ignored */
	tg_annotations(&t, 1ull << 40, 1, later);
	tg_event(&t, 300, 2);
	tg_leb(&t, 1);
	tg_u32(&t, 2);
	tg_u16(&t, 3);
	tg_annotations(&t, 300, 1, later);	/* annotations accumulate */
	tg_event(&t, 300, 2);
	tg_leb(&t, 1);
	tg_u32(&t, 2);
	tg_u16(&t, 3);
	ck_read(&t, "input t\nbatch @0\nschema 300 U a:9 b:13 c:12\n"
	    "U@2 a=1[ns] b=2 c=3[bytes]\nU@4 a=1[ns] b=2[ms] c=3[bytes]\n",
	    "");
	tg_free(&t);
}
END_TEST

START_TEST(schema_reregistration)
{
	static const struct tg_field f1[] = { { "v", D9_FT_U8 } };
	static const struct tg_field f2[] = { { "v", D9_FT_U16 },
	    { "w", D9_FT_U8 | 0x80 } };
	struct tg t;

	tg_init(&t);
	tg_header(&t);
	tg_schema(&t, 65535, "S", 1, 1, f1);
	tg_schema(&t, 65535, "S", 1, 1, f1);	/* identical: no news */
	tg_event(&t, 65535, 1);
	tg_u8(&t, 9);
	tg_schema(&t, 65535, "S", 1, 2, f2);	/* different: it replaces */
	tg_event(&t, 65535, 1);
	tg_u16(&t, 513);
	tg_u8(&t, 0);
	tg_schema(&t, 0, "Empty", 0, 0, NULL);
	tg_event_nots(&t, 0);
	ck_read(&t, "input t\nbatch @0\nschema 65535 S v:11\nS@1 v=9\n"
	    "schema 65535 S v:12 w:139\nS@2 v=513 w=-\n"
	    "schema 0 Empty nots\nEmpty@2\n", "");
	tg_free(&t);
}
END_TEST

/* Read t with a sink made of one event callback; no notes expected. */
static void
read_events(const struct tg *t, int (*event)(void *,
    const struct d9p_schema *, uint64_t, const struct d9p_value *), void *ctx)
{
	struct d9p_sink sink = { .ctx = ctx, .event = event };
	struct d9p_read_opts o = { .note = NULL };
	struct d9p_read_stats st = { 0 };

	ck_assert_int_eq(d9p_read_fd(tg_memfd(t->p, t->n), "t", 0, &sink, &o,
	    &st), 0);
	ck_assert_uint_eq(st.failed, 0);
}

/* The cache slot of a pooled value lives until the entry is redefined. */
struct cache_ctx {
	uint32_t	 next;
	uint32_t	 seen[8];
	size_t		 n;
};

static int
cache_event(void *ctx, const struct d9p_schema *s, uint64_t ts,
    const struct d9p_value *v)
{
	struct cache_ctx *c = ctx;
	uint64_t x;

	(void)s;
	(void)ts;
	ck_assert_ptr_nonnull(v[0].cache);
	ck_assert_int_eq(d9p_value_int(&v[0], &x), -1);	/* not an integer */
	if (*v[0].cache == UINT32_MAX)
		*v[0].cache = c->next++;
	c->seen[c->n++] = *v[0].cache;
	return 0;
}

START_TEST(pool_cache_slot)
{
	static const struct tg_field f[] = { { "s", D9_FT_POOLED_STRING } };
	struct cache_ctx c = { 100, { 0 }, 0 };
	struct tg t;

	tg_init(&t);
	tg_header(&t);
	tg_schema(&t, 1, "C", 1, 1, f);
	tg_string_pool(&t, 0, "a");
	tg_string_pool(&t, 1, "b");
	for (int i = 0; i < 2; i++) {
		tg_event(&t, 1, 0);
		tg_u32(&t, 0);
		tg_event(&t, 1, 0);
		tg_u32(&t, 1);
	}
	tg_string_pool(&t, 0, "a2");
	tg_event(&t, 1, 0);
	tg_u32(&t, 0);
	read_events(&t, cache_event, &c);
	ck_assert_uint_eq(c.n, 5);
	ck_assert_uint_eq(c.seen[0], 100);
	ck_assert_uint_eq(c.seen[1], 101);
	ck_assert_uint_eq(c.seen[2], 100);
	ck_assert_uint_eq(c.seen[3], 101);
	ck_assert_uint_eq(c.seen[4], 102);
	tg_free(&t);
}
END_TEST

static int
int_event(void *ctx, const struct d9p_schema *s, uint64_t ts,
    const struct d9p_value *v)
{
	uint64_t *sum = ctx, x;

	(void)ts;
	for (uint16_t i = 0; i < s->nfields; i++)
		if (d9p_value_int(&v[i], &x) == 0)
			*sum += x;
	return 0;
}

/* Integer types are interchangeable for a name-driven reader (2.9). */
START_TEST(value_int_accessor)
{
	static const struct tg_field f[] = { { "a", D9_FT_I64 },
	    { "b", D9_FT_BOOL }, { "c", D9_FT_VARINT }, { "d", D9_FT_U8 },
	    { "e", D9_FT_U16 }, { "f", D9_FT_U32 }, { "g", D9_FT_F64 },
	    { "h", D9_FT_U32 | 0x80 } };
	uint64_t sum = 0;
	struct tg t;

	tg_init(&t);
	tg_header(&t);
	tg_schema(&t, 1, "I", 1, 8, f);
	tg_event(&t, 1, 0);
	tg_u64(&t, 1);
	tg_u8(&t, 5);			/* bool: 1 */
	tg_leb(&t, 10);
	tg_u8(&t, 100);
	tg_u16(&t, 1000);
	tg_u32(&t, 10000);
	tg_u64(&t, 99);			/* f64: not an integer */
	tg_u8(&t, 0);			/* absent */
	read_events(&t, int_event, &sum);
	ck_assert_uint_eq(sum, 11112);
	tg_free(&t);
}
END_TEST

/* A sink error (out of memory) stops the reader and is returned. */
START_TEST(sink_error_stops)
{
	struct rec r;
	struct tg t;

	tg_init(&t);
	tg_header(&t);
	tg_schema(&t, 1, "E", 1, 1, one_u8);
	for (int i = 0; i < 5; i++) {
		tg_event(&t, 1, 1);
		tg_u8(&t, (uint8_t)i);
	}
	rec_init(&r);
	r.stop_after = 2;
	ck_assert_int_eq(rec_read(&r, t.p, t.n), -1);
	ck_assert_str_eq(rec_log(&r),
	    "input t\nbatch @0\nschema 1 E v:11\nE@1 v=0\nE@2 v=1\n");
	rec_free(&r);
	tg_free(&t);
}
END_TEST

/* The decoder API itself: partial frames wait for more bytes. */
START_TEST(feed_partial_frames)
{
	struct d9p_decoder *d;
	struct rec r;
	struct d9p_sink sink;
	struct d9_err e;
	struct tg t;
	size_t used, ev;

	tg_init(&t);
	tg_header(&t);
	tg_schema(&t, 1, "E", 1, 1, one_u8);
	ev = t.n;
	tg_event(&t, 1, 3);
	tg_u8(&t, 4);
	rec_init(&r);
	sink = rec_sink(&r);
	ck_assert_int_eq(d9p_decoder_new(&d, &sink), 0);
	ck_assert_int_eq(d9p_decoder_started(d), 0);
	d9_err_clear(&e);
	ck_assert_int_eq(d9p_decoder_feed(d, t.p, t.n - 1, 0, 0, UINT64_MAX,
	    &used, &e), D9P_MORE);
	ck_assert_uint_eq(used, ev);
	ck_assert_uint_eq(e.off, ev);
	ck_assert_int_eq(e.code, 0);
	ck_assert_int_eq(d9p_decoder_started(d), 1);
	ck_assert_uint_eq(d9p_decoder_events(d), 0);
	d9_err_clear(&e);
	ck_assert_int_eq(d9p_decoder_feed(d, t.p + ev, t.n - ev, ev, 1,
	    UINT64_MAX, &used, &e), 0);
	ck_assert_uint_eq(used, t.n - ev);
	ck_assert_uint_eq(d9p_decoder_events(d), 1);
	ck_assert_str_eq(rec_log(&r), "batch @0\nschema 1 E v:11\nE@3 v=4\n");
	d9p_decoder_restart(d);
	ck_assert_int_eq(d9p_decoder_started(d), 0);
	d9p_decoder_free(&d);
	ck_assert_ptr_null(d);
	d9p_decoder_free(&d);
	rec_free(&r);
	tg_free(&t);
}
END_TEST

/*
 * Every prefix of a trace, fed in a buffer of exactly its size (a file's
 * first 64 KiB, peeked for its segment's name: parse/segid.h, or a read
 * that ends there): a schema's or a field's name, or an annotation's
 * value, that ends the bytes fed is read to its end and no byte past it
 * (it was copied with the byte after it, then that byte overwritten:
 * one byte read past the buffer, which the ASan build of this test
 * reports).
 */
START_TEST(names_at_the_end_of_the_bytes)
{
	static const struct tg_field f[] = { { "alpha", D9_FT_VARINT },
	    { "beta", D9_FT_U32 } };
	static const struct tg_annot an[] = { { 0, "unit", "nanoseconds" } };
	struct tg t;

	tg_init(&t);
	tg_header(&t);
	tg_schema(&t, 7, "SomeEvent", 1, 2, f);
	tg_annotations(&t, 7, 1, an);
	for (size_t n = 1; n <= t.n; n++) {
		uint8_t *cut = malloc(n);
		struct d9p_decoder *d;
		struct rec r;
		struct d9p_sink sink;
		struct d9_err e;
		size_t used;

		ck_assert_ptr_nonnull(cut);
		memcpy(cut, t.p, n);
		rec_init(&r);
		sink = rec_sink(&r);
		ck_assert_int_eq(d9p_decoder_new(&d, &sink), 0);
		d9_err_clear(&e);
		(void)d9p_decoder_feed(d, cut, n, 0, 0, UINT64_MAX, &used, &e);
		ck_assert_uint_le(used, n);
		if (n == t.n)	/* whole: the schema, its unit */
			ck_assert_ptr_nonnull(strstr(rec_log(&r),
			    "schema 7 SomeEvent alpha:9 beta:13"));
		d9p_decoder_free(&d);
		rec_free(&r);
		free(cut);
	}
	tg_free(&t);
}
END_TEST

/* A decoder with limits keep 16 and pool_max 10, fed t whole into r;
 * its answer must be want. */
static struct d9p_decoder *
limited(struct rec *r, const struct tg *t, size_t *used, struct d9_err *e,
    int want)
{
	struct d9p_decoder *d;
	struct d9p_sink sink;

	rec_init(r);
	sink = rec_sink(r);
	ck_assert_int_eq(d9p_decoder_new(&d, &sink), 0);
	d9p_decoder_limit(d, 16, 10);
	d9_err_clear(e);
	ck_assert_int_eq(d9p_decoder_feed(d, t->p, t->n, 0, 1, UINT64_MAX,
	    used, e), want);
	return d;
}

/* The limits: pools keep at most pool_max bytes (later entries are left
 * undefined), and a value longer than keep is handed back at its count. */
START_TEST(limits)
{
	static const struct tg_field f[] = { { "p", D9_FT_POOLED_STRING },
	    { "s", D9_FT_STRING } };
	struct d9p_decoder *d;
	const struct d9p_elision *el;
	struct rec r;
	struct d9_err e;
	struct tg t;
	size_t used, at;

	tg_init(&t);
	tg_header(&t);
	tg_schema(&t, 1, "P", 1, 2, f);
	tg_string_pool(&t, 1, "eight b1");
	tg_string_pool(&t, 2, "eight b2");
	tg_event(&t, 1, 1);
	tg_u32(&t, 1);
	tg_str32(&t, "ok");
	tg_event(&t, 1, 1);
	tg_u32(&t, 2);
	at = t.n;
	tg_str32(&t, "0123456789abcdef0123");	/* 20 bytes */
	d = limited(&r, &t, &used, &e, D9P_ELIDE);
	el = d9p_decoder_elision(d);
	ck_assert_uint_eq(el->pos, at);
	ck_assert_uint_eq(el->count, 20);
	ck_assert_uint_eq(el->keep, 16);
	ck_assert_uint_eq(el->unit, 1);
	ck_assert_uint_eq(d9p_decoder_pool_dropped(d), 1);
	ck_assert_str_eq(rec_log(&r), "batch @0\nschema 1 P p:7 s:4\n"
	    "P@1 p=\"eight b1\" s=\"ok\"\n");
	/* what the stream does: the count rewritten, the tail dropped */
	t.p[at] = 16;
	d9_err_clear(&e);
	ck_assert_int_eq(d9p_decoder_feed(d, t.p + used, t.n - used - 4, used,
	    1, UINT64_MAX, &used, &e), 0);
	ck_assert_str_eq(rec_log(&r), "batch @0\nschema 1 P p:7 s:4\n"
	    "P@1 p=\"eight b1\" s=\"ok\"\nP@2 p=?#2 s=\"0123456789abcdef\"\n");
	d9p_decoder_free(&d);
	rec_free(&r);
	tg_free(&t);
}
END_TEST

/* The pool limit holds per batch: a stream of many segments (a host's
 * directory on a pipe) keeps every batch's pools, each under the limit,
 * however many bytes they come to in all. */
START_TEST(limits_per_batch)
{
	static const struct tg_field f[] = { { "p", D9_FT_POOLED_STRING } };
	struct d9p_decoder *d;
	struct rec r;
	struct d9_err e;
	struct tg t;
	size_t used;

	tg_init(&t);
	for (int b = 0; b < 3; b++) {
		tg_header(&t);
		tg_schema(&t, 1, "P", 1, 1, f);
		tg_string_pool(&t, 1, b == 1 ? "batch b1" : "eight b1");
		tg_event(&t, 1, 1);
		tg_u32(&t, 1);
	}
	d = limited(&r, &t, &used, &e, 0);
	ck_assert_uint_eq(used, t.n);
	ck_assert_uint_eq(d9p_decoder_pool_dropped(d), 0);
	ck_assert_str_eq(rec_log(&r), "batch @0\nschema 1 P p:7\n"
	    "P@1 p=\"eight b1\"\nbatch @49\nschema 1 P p:7\n"
	    "P@1 p=\"batch b1\"\nbatch @98\nschema 1 P p:7\n"
	    "P@1 p=\"eight b1\"\n");
	d9p_decoder_free(&d);
	rec_free(&r);
	tg_free(&t);
}
END_TEST

Suite *
suite_decoder(void)
{
	Suite *s = suite_create("decoder");
	TCase *tc;

	tc = tcase_create("values");
	tcase_add_test(tc, every_field_type);
	tcase_add_test(tc, fixed_and_checked_paths_agree);
	tcase_add_test(tc, value_int_accessor);
	tcase_add_test(tc, pool_cache_slot);
	suite_add_tcase(s, tc);
	tc = tcase_create("state");
	tcase_add_test(tc, u24_deltas_and_resets);
	tcase_add_test(tc, header_resets_state);
	tcase_add_test(tc, appendix_continues_last_batch);
	tcase_add_test(tc, pools_resolved_at_event_time);
	tcase_add_test(tc, annotations_set_units);
	tcase_add_test(tc, schema_reregistration);
	suite_add_tcase(s, tc);
	tc = tcase_create("api");
	tcase_add_test(tc, sink_error_stops);
	tcase_add_test(tc, feed_partial_frames);
	tcase_add_test(tc, names_at_the_end_of_the_bytes);
	tcase_add_test(tc, limits);
	tcase_add_test(tc, limits_per_batch);
	suite_add_tcase(s, tc);
	return s;
}
