/*
 * test_spantags.c: the tags of legacy span events whose name and fields
 * are pooled strings (dial9 before 0.5, as its tracing layer wrote them):
 * one tag per distinct (kind, worker, name, fields), whatever the pool
 * ids of the batch that carried them; a worker, a name or a field value
 * changed gives another tag, and the field lists hold the values.
 */
#include <check.h>
#include <string.h>

#include "../parse/tracegen.h"
#include "mktrace.h"
#include "base/wire.h"
#include "suites.h"

enum { ENTER = 1, EXIT = 2 };

/* A batch: its header, the two span schemas, each with one declared
 * field "user" (an optional pooled string), and the time base ts. */
static void
batch(struct tg *t, uint64_t ts)
{
	static const struct tg_field enter[] = {
		{ "worker_id", D9_FT_VARINT }, { "span_id", D9_FT_VARINT },
		{ "parent_span_id", D9_FT_VARINT | D9_FT_OPTIONAL },
		{ "span_name", D9_FT_POOLED_STRING },
		{ "user", D9_FT_POOLED_STRING | D9_FT_OPTIONAL } };
	static const struct tg_field exit_[] = {
		{ "worker_id", D9_FT_VARINT }, { "span_id", D9_FT_VARINT },
		{ "span_name", D9_FT_POOLED_STRING },
		{ "user", D9_FT_POOLED_STRING | D9_FT_OPTIONAL } };

	tg_header(t);
	tg_schema(t, ENTER, "SpanEnter:app::work:src/lib.rs:10", 1, 5, enter);
	tg_schema(t, EXIT, "SpanExit:app::work:src/lib.rs:10", 1, 4, exit_);
	tg_ts_reset(t, ts);
}

/* A span event of span 5: kind ENTER or EXIT, 1 ns after the last, on
 * worker w, named by pool id name, its user pool id user (0: absent). */
static void
span(struct tg *t, int kind, unsigned w, uint32_t name, uint32_t user)
{
	tg_event(t, (uint16_t)kind, 1);
	tg_leb(t, w);
	tg_leb(t, 5);
	if (kind == ENTER)
		tg_u8(t, 0);		/* no parent */
	tg_u32(t, name);
	tg_u8(t, user != 0);
	if (user != 0)
		tg_u32(t, user);
}

/* The value of key "user" in the fields of span event i, "-" for none,
 * "null" for the absent value. */
static const char *
user_of(const struct d9m_model *m, size_t i)
{
	uint32_t list = D9M_EV(m, fields, i), len, key;
	const uint64_t *pairs;

	if (list == D9_NONE)
		return "-";
	pairs = (const void *)d9_intern_str(&m->lists, list, &len);
	ck_assert_uint_eq(len, sizeof *pairs);
	key = (uint32_t)(pairs[0] >> 32);
	ck_assert_str_eq(d9_intern_str(&m->strs, key, NULL), "user");
	return d9_intern_str(&m->strs, (uint32_t)pairs[0], NULL);
}

START_TEST(legacy_span_tags)
{
	struct mt t = { 0 };
	struct d9m_model *m;
	uint32_t tag[12];

	tg_init(&t.tg);
	batch(&t.tg, 1000);
	tg_string_pool(&t.tg, 1, "work");
	tg_string_pool(&t.tg, 2, "alice");
	tg_string_pool(&t.tg, 3, "bob");
	tg_string_pool(&t.tg, 4, "rest");
	span(&t.tg, ENTER, 0, 1, 2);	/* 0 */
	span(&t.tg, EXIT, 0, 1, 2);	/* 1 */
	span(&t.tg, ENTER, 0, 1, 2);	/* 2: 0 again */
	span(&t.tg, EXIT, 0, 1, 2);	/* 3: 1 again */
	span(&t.tg, ENTER, 1, 1, 2);	/* 4: another worker */
	span(&t.tg, ENTER, 1, 1, 3);	/* 5: another user */
	span(&t.tg, ENTER, 1, 1, 0);	/* 6: no user */
	span(&t.tg, ENTER, 1, 1, 0);	/* 7: 6 again */
	span(&t.tg, ENTER, 1, 4, 0);	/* 8: another name */
	batch(&t.tg, 1009);		/* the pools start again */
	tg_string_pool(&t.tg, 1, "bob");
	tg_string_pool(&t.tg, 2, "work");
	span(&t.tg, ENTER, 1, 2, 1);	/* 9: 5 again, other pool ids */
	span(&t.tg, ENTER, 1, 2, 1);	/* 10: 5 again */
	span(&t.tg, EXIT, 0, 2, 1);	/* 11: an exit with bob */
	m = mt_finish(&t);
	ck_assert_uint_eq(m->spanev.n, 12);
	for (size_t i = 0; i < 12; i++) {
		tag[i] = m->spanev.tag[i];
		ck_assert_uint_eq(m->spanev.ts[i], 1001 + i);
	}
	ck_assert_uint_eq(tag[2], tag[0]);
	ck_assert_uint_eq(tag[3], tag[1]);
	ck_assert_uint_ne(tag[1], tag[0]);
	ck_assert_uint_ne(tag[4], tag[0]);
	ck_assert_uint_ne(tag[5], tag[4]);
	ck_assert_uint_ne(tag[6], tag[5]);
	ck_assert_uint_eq(tag[7], tag[6]);
	ck_assert_uint_ne(tag[8], tag[7]);
	ck_assert_uint_eq(tag[9], tag[5]);
	ck_assert_uint_eq(tag[10], tag[5]);
	ck_assert_uint_ne(tag[11], tag[1]);
	ck_assert_uint_eq(m->spantags.n, 7);
	/* each event's own fields, whatever the one before of its schema
	 * (the builder keeps a schema's last tag and list: build_int.h) */
	ck_assert_str_eq(user_of(m, 0), "alice");
	ck_assert_str_eq(user_of(m, 2), "alice");
	ck_assert_str_eq(user_of(m, 4), "alice");
	ck_assert_str_eq(user_of(m, 5), "bob");
	ck_assert_str_eq(user_of(m, 6), "null");
	ck_assert_str_eq(user_of(m, 7), "null");
	ck_assert_str_eq(user_of(m, 8), "null");
	ck_assert_str_eq(user_of(m, 10), "bob");
	ck_assert_str_eq(user_of(m, 11), "bob");
	ck_assert_str_eq(d9_intern_str(&m->strs, D9M_EV(m, name, 8), NULL),
	    "rest");
	ck_assert_str_eq(d9_intern_str(&m->strs, D9M_EV(m, name, 9), NULL),
	    "work");
	ck_assert_uint_eq(D9M_EV(m, kind, 11), D9M_SPAN_EXIT);
	ck_assert_uint_eq(m->wids.own[D9M_EV(m, worker, 4)], 1);
	d9m_model_free(&m);
}
END_TEST

Suite *
spantags_suite(void)
{
	Suite *s = suite_create("spantags");
	TCase *tc = tcase_create("legacy");

	tcase_add_test(tc, legacy_span_tags);
	suite_add_tcase(s, tc);
	return s;
}
