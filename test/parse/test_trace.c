/*
 * test_trace.c: the real traces of /work/shared/traces (env D9_TRACES;
 * read in place, never copied). They read without a note; every prefix
 * of a decoded trace in its first 2 KiB, its last 512 bytes and a sample
 * between gives exactly one note and keeps every event before the cut;
 * seeded bit flips never crash and give at most one note.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../skip.h"
#include "suites.h"

struct real {
	const char	*file;
	uint64_t	 events;
	uint64_t	 decoded;
};

static const struct real reals[] = {
	{ "block-in-place-2026-05.bin", 909, 36683 },
	{ "demo-2026-03.bin", 138543, 4456027 },
	{ "demo-2026-06.bin.gz", 516950, 11081465 },
};

/* The path of a real trace; NULL, the test skipped, when D9_TRACES is
 * unset or the file cannot be read. */
static const char *
real_path(const char *file, char *buf, size_t cap)
{
	const char *path = tg_trace_path(file, buf, cap);

	if (path == NULL)
		t_skip("D9_TRACES unset: %s not tested", file);
	else if (access(path, R_OK) != 0)
		t_skip("%s: cannot read it, not tested", path);
	else
		return path;
	return NULL;
}

/* The decoded bytes of a real trace; 0 (skipped) when there is none. */
static int
load(const char *file, struct tg *t)
{
	char buf[4096];
	const char *path = real_path(file, buf, sizeof buf);

	tg_init(t);
	if (path == NULL)
		return 0;
	ck_assert_msg(tg_gunzip_file(path, t) == 0, "cannot read %s", path);
	return 1;
}

START_TEST(reads_cleanly)
{
	const struct real *c = &reals[_i];
	char buf[4096];
	const char *path = real_path(c->file, buf, sizeof buf);
	struct rec r;

	if (path == NULL)
		return;
	rec_init(&r);
	r.keep = 0;
	ck_assert_int_eq(rec_read_paths(&r, &path, 1), 0);
	ck_assert_str_eq(rec_notes(&r), "");
	ck_assert_uint_eq(r.st.events, c->events);
	ck_assert_uint_eq(r.st.decoded, c->decoded);
	ck_assert_uint_eq(r.st.read_ok, 1);
	rec_free(&r);
}
END_TEST

/* Units from annotation frames: name.field[unit] of each new pair. */
static int
unit_event(void *ctx, const struct d9p_schema *s, uint64_t ts,
    const struct d9p_value *v)
{
	struct tg *out = ctx;

	(void)ts;
	(void)v;
	for (uint16_t i = 0; i < s->nfields; i++)
		if (s->fields[i].unit != NULL && s->user == NULL)
			tg_printf(out, "%s.%s[%s] ", s->name, s->fields[i].name,
			    s->fields[i].unit);
	((struct d9p_schema *)s)->user = out;	/* once per schema (batch) */
	return 0;
}

/* demo-2026-06 has annotation frames (FORMAT.md 2.8). */
START_TEST(annotations_in_real_trace)
{
	char buf[4096];
	const char *path = real_path(reals[2].file, buf, sizeof buf);
	struct tg units;
	struct d9p_sink sink = { .ctx = &units, .event = unit_event };
	struct d9p_read_opts o = { .note = NULL };
	struct d9p_read_stats st;
	size_t n = 0;

	if (path == NULL)
		return;
	tg_init(&units);
	ck_assert_int_eq(d9p_read_paths(&path, 1, &sink, &o, &st), 0);
	/* four batches declare the first, two the second schema */
	for (const char *p = tg_cstr(&units); (p = strchr(p, '[')) != NULL;
	    p++)
		n++;
	ck_assert_uint_eq(n, 4 * 3 + 2);
	ck_assert_ptr_nonnull(strstr(tg_cstr(&units),
	    "ProcessResourceUsageEvent.user_cpu_ns[ns] "
	    "ProcessResourceUsageEvent.system_cpu_ns[ns] "
	    "ProcessResourceUsageEvent.max_rss_bytes[bytes] "));
	ck_assert_ptr_nonnull(strstr(tg_cstr(&units),
	    "ConnectionClosedWire.duration_us[us] "));
	tg_free(&units);
}
END_TEST

/* Read the first n bytes; return the note's offset (n for none). */
static uint64_t
read_prefix(struct rec *r, const struct tg *t, size_t n)
{
	unsigned long long at;

	rec_clear(r);
	rec_read(r, t->p, n);
	if (r->nnotes == 0)
		return n;
	ck_assert_uint_eq(r->nnotes, 1);
	if (n == 0) {
		ck_assert_str_eq(rec_notes(r), "t: empty input\n");
		return 0;
	}
	ck_assert_msg(sscanf(rec_notes(r), "t: truncated at byte %llu\n",
	    &at) == 1, "prefix %zu: %s", n, rec_notes(r));
	ck_assert_uint_le(at, n);
	return at;
}

/* r's log must be where full's log starts. */
static void
ck_log_prefix(struct rec *r, const struct rec *full)
{
	ck_assert_uint_le(r->log.n, full->log.n);
	ck_assert_int_eq(memcmp(r->log.p, full->log.p, r->log.n), 0);
}

/*
 * Walk prefixes [from, to) one byte at a time: a clean prefix is a frame
 * boundary; a cut one must name the last boundary and keep its events.
 */
static void
walk(const struct tg *t, const struct rec *full, size_t from, size_t to)
{
	struct rec r;
	uint64_t clean, clean_events;

	rec_init(&r);
	clean = read_prefix(&r, t, from);	/* the boundary before from */
	ck_assert_uint_eq(read_prefix(&r, t, clean), clean);
	clean_events = r.nevents;
	for (size_t n = from; n < to; n++) {
		uint64_t at = read_prefix(&r, t, n);

		ck_log_prefix(&r, full);
		if (at == n) {
			clean = n;
			clean_events = r.nevents;
			continue;
		}
		ck_assert_uint_eq(at, clean);
		ck_assert_uint_eq(r.nevents, clean_events);
	}
	rec_free(&r);
}

/*
 * Every step-th prefix in [from, to): the cut point itself reads cleanly
 * with the same events; with full, the log is a prefix of full's.
 */
static void
sample_prefixes(const struct tg *t, const struct rec *full, size_t from,
    size_t to, size_t step)
{
	struct rec r;

	rec_init(&r);
	r.keep = full ? 1 : -1;
	for (size_t n = from; n < to; n += step) {
		uint64_t at = read_prefix(&r, t, n);
		uint64_t events = r.nevents;

		if (full)
			ck_log_prefix(&r, full);
		ck_assert_uint_eq(read_prefix(&r, t, at), at);
		ck_assert_uint_eq(r.nevents, events);
	}
	rec_free(&r);
}

START_TEST(truncated_real_trace)
{
	struct tg t;
	struct rec full;

	if (!load(reals[0].file, &t))
		return;
	rec_init(&full);
	rec_read(&full, t.p, t.n);
	ck_assert_str_eq(rec_notes(&full), "");
	walk(&t, &full, 0, 2048);
	walk(&t, &full, t.n - 512, t.n + 1);	/* the symbol appendix */
	sample_prefixes(&t, &full, 2048, t.n - 512, 61);
	rec_free(&full);
	tg_free(&t);
}
END_TEST

/* The oldest layout: first 2 KiB and a sample of big prefixes. */
START_TEST(truncated_old_trace)
{
	struct tg t;
	struct rec full;

	if (!load(reals[1].file, &t))
		return;
	rec_init(&full);
	rec_read(&full, t.p, 4096);
	walk(&t, &full, 0, 2048);
	rec_free(&full);
	sample_prefixes(&t, NULL, 4096, t.n, t.n / 23 + 1);
	tg_free(&t);
}
END_TEST

/* The gzip file itself cut anywhere: one truncation note, events kept. */
START_TEST(truncated_gzip_file)
{
	struct tg t, gz;
	struct rec full, r;
	char path[4096];

	if (!load(reals[0].file, &t))
		return;
	tg_init(&gz);
	ck_assert_int_eq(tg_read_file(tg_trace_path(reals[0].file, path,
	    sizeof path), &gz), 0);
	rec_init(&full);
	rec_read(&full, t.p, t.n);
	rec_init(&r);
	/* from 2 bytes on: a lone 1f is not recognisable as gzip */
	for (size_t n = 2; n < gz.n; n += 47) {
		unsigned long long at;

		rec_clear(&r);
		rec_read(&r, gz.p, n);
		ck_assert_uint_eq(r.nnotes, 1);
		ck_assert_msg(sscanf(rec_notes(&r), "t: truncated at byte %llu",
		    &at) == 1, "cut at %zu: %s", n, rec_notes(&r));
		ck_assert_uint_le(at, t.n);
		ck_log_prefix(&r, &full);
	}
	rec_free(&r);
	rec_free(&full);
	tg_free(&gz);
	tg_free(&t);
}
END_TEST

static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Any note is "t: byte N: ..." or "t: truncated at byte N...". */
static void
ck_note_shape(const struct rec *r, const char *notes, size_t max)
{
	unsigned long long at = 0;

	for (const char *p = notes; *p; p = strchr(p, '\n') + 1) {
		ck_assert_msg(sscanf(p, "t: byte %llu: ", &at) == 1 ||
		    sscanf(p, "t: truncated at byte %llu", &at) == 1 ||
		    strncmp(p, "t: empty input\n", 15) == 0, "note: %s", p);
		ck_assert_uint_le(at, r->st.decoded > max ? r->st.decoded : max);
	}
}

START_TEST(flipped_bits)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	struct tg t, c, gz;
	struct rec r;
	char path[4096];

	if (!load(reals[0].file, &t))
		return;
	tg_init(&c);
	tg_init(&gz);
	rec_init(&r);
	for (int i = 0; i < 400; i++) {
		uint64_t flips = 1 + xorshift(&seed) % 3;

		tg_reset(&c);
		tg_raw(&c, t.p, t.n);
		for (uint64_t k = flips; k > 0; k--) {
			uint64_t bit = xorshift(&seed) % (t.n * 8);

			c.p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		}
		rec_clear(&r);
		ck_assert_int_eq(rec_read(&r, c.p, c.n), 0);
		/* each flip costs its batch at most: one note each, and one
		 * for the end (a length gone wild runs past it) */
		ck_assert_uint_le(r.nnotes, flips + 1);
		ck_assert_uint_le(r.damaged, flips);
		ck_note_shape(&r, rec_notes(&r), c.n);
	}
	/* the compressed file: a note for each stretch of damage (the
	 * container's, or a frame's in what it decoded to) */
	ck_assert_int_eq(tg_read_file(tg_trace_path(reals[0].file, path,
	    sizeof path), &gz), 0);
	for (int i = 0; i < 200; i++) {
		uint64_t bit = xorshift(&seed) % (gz.n * 8);

		gz.p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		rec_clear(&r);
		ck_assert_int_eq(rec_read(&r, gz.p, gz.n), 0);
		/* one note a stretch of damage, and one for the end */
		ck_assert_uint_le(r.nnotes, r.damaged + 1);
		ck_note_shape(&r, rec_notes(&r), gz.n);
		gz.p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	rec_free(&r);
	tg_free(&gz);
	tg_free(&c);
	tg_free(&t);
}
END_TEST

/* Chunking does not matter: a real trace through a 1-byte pipe. */
START_TEST(real_trace_through_a_pipe)
{
	struct tg t;
	struct rec full, r;
	struct tg_pipe tp;
	int fd;

	if (!load(reals[0].file, &t))
		return;
	rec_init(&full);
	rec_read(&full, t.p, t.n);
	rec_init(&r);
	fd = tg_pipe_start(&tp, t.p, t.n, 1);
	ck_assert_int_eq(rec_read_fd(&r, fd, "t", 0), 0);
	tg_pipe_join(&tp);
	ck_assert_str_eq(rec_notes(&r), "");
	ck_assert_str_eq(rec_log(&r), rec_log(&full));
	rec_free(&r);
	rec_free(&full);
	tg_free(&t);
}
END_TEST

Suite *
suite_trace(void)
{
	Suite *s = suite_create("trace");
	TCase *tc;

	tc = tcase_create("real");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, reads_cleanly, 0,
	    (int)(sizeof reals / sizeof reals[0]));
	tcase_add_test(tc, real_trace_through_a_pipe);
	tcase_add_test(tc, annotations_in_real_trace);
	suite_add_tcase(s, tc);
	tc = tcase_create("damaged");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, truncated_real_trace);
	tcase_add_test(tc, truncated_old_trace);
	tcase_add_test(tc, truncated_gzip_file);
	tcase_add_test(tc, flipped_bits);
	suite_add_tcase(s, tc);
	return s;
}
