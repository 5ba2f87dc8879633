/*
 * test_export.c: the parts of src/export whose bytes are fixed by
 * someone else's specification, checked byte for byte: Hive's escaping
 * of partition values (a service or host name from a trace must stay
 * one path component), the RLE / bit-packing hybrid, Thrift's compact
 * field headers; MurmurHash3 (the stack ids). The whole writer is
 * judged by two readers (writer.mjs, figures.mjs). And the export's
 * shortcut to the polls' verdicts (d9m_poll_kind) against the verdicts
 * themselves, its memo of frames against the frames looked up each
 * time, and the export with two workers against one, byte for byte, on
 * the shared traces.
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/stackcap.h"
#include "export/bytes.h"
#include "export/export.h"
#include "export/hash128.h"
#include "export/leaf.h"
#include "export/rle.h"
#include "export/split.h"
#include "export/thrift.h"
#include "model/figures/verdict.h"
#include "model/queries/samples.h"
#include "../rmtree.h"
#include "outdir.h"
#include "runs.h"

START_TEST(hive_escape)
{
	char out[256];

	d9x_hive_escape("metrics-service", out, sizeof out);
	ck_assert_str_eq(out, "metrics-service");
	d9x_hive_escape("../../etc/passwd", out, sizeof out);
	ck_assert_str_eq(out, "..%2F..%2Fetc%2Fpasswd");
	d9x_hive_escape("us-east-1/i-0abc", out, sizeof out);
	ck_assert_str_eq(out, "us-east-1%2Fi-0abc");
	d9x_hive_escape("a=b:c%d", out, sizeof out);
	ck_assert_str_eq(out, "a%3Db%3Ac%25d");
	d9x_hive_escape("tab\there\n", out, sizeof out);
	ck_assert_str_eq(out, "tab%09here%0A");
	d9x_hive_escape("", out, sizeof out);
	ck_assert_str_eq(out, "__HIVE_DEFAULT_PARTITION__");
	/* a small buffer cuts whole escapes, never half of one */
	d9x_hive_escape("////", out, 8);
	ck_assert_str_eq(out, "%2F%2F");
}
END_TEST

static int
bytes_are(const struct d9x_bytes *b, const uint8_t *want, size_t n)
{
	return !b->oom && b->n == n && memcmp(b->p, want, n) == 0;
}

START_TEST(rle_hybrid)
{
	struct d9x_bytes b = { 0 };
	uint32_t run[20], mixed[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 1, 1 };
	/* 20 x 5 at width 3: header 20 << 1, the value in one byte */
	const uint8_t want_run[] = { 40, 5 };
	/* 10 values at width 3: 2 groups packed (header 2 << 1 | 1), the
	 * last group padded with zeros: 0..7 = 0x88 0xc6 0xfa, then 1 1 */
	const uint8_t want_mixed[] = { 5, 0x88, 0xc6, 0xfa, 0x09, 0, 0 };
	const uint8_t bits_want[] = { 0x05, 0x01 };
	const uint8_t bits[] = { 1, 0, 1, 0, 0, 0, 0, 0, 1 };

	for (int i = 0; i < 20; i++)
		run[i] = 5;
	d9x_rle_put(&b, run, 20, 3);
	ck_assert(bytes_are(&b, want_run, sizeof want_run));
	d9x_bytes_reset(&b);
	d9x_rle_put(&b, mixed, 10, 3);
	ck_assert(bytes_are(&b, want_mixed, sizeof want_mixed));
	d9x_bytes_reset(&b);
	d9x_bits_put(&b, bits, 9);
	ck_assert(bytes_are(&b, bits_want, sizeof bits_want));
	ck_assert_uint_eq(d9x_bit_width(0), 0);
	ck_assert_uint_eq(d9x_bit_width(1), 1);
	ck_assert_uint_eq(d9x_bit_width(2), 2);
	ck_assert_uint_eq(d9x_bit_width(255), 8);
	d9x_bytes_free(&b);
}
END_TEST

START_TEST(thrift_compact)
{
	struct d9x_bytes b = { 0 };
	struct d9x_thrift t;
	/* i32 field 1 = 2: 0x15 0x04; i64 field 3 = -1: 0x26 0x01; a jump
	 * of 20 ids: type byte, zigzag id 23; list of 2 i32 (field 24):
	 * 0x19 0x25 0x02 0x04; a struct field 25 with bool field 1 true:
	 * 0x1c 0x11 0x00; stop 0x00 */
	const uint8_t want[] = { 0x15, 0x04, 0x26, 0x01, 0x08, 0x2e, 0x01,
	    'x', 0x19, 0x25, 0x02, 0x04, 0x1c, 0x11, 0x00, 0x00 };

	d9x_th_init(&t, &b);
	d9x_th_i32(&t, 1, 2);
	d9x_th_i64(&t, 3, -1);
	d9x_th_bin(&t, 23, "x", 1);
	d9x_th_list(&t, 24, D9X_TH_I32, 2);
	d9x_th_elem_i32(&t, 1);
	d9x_th_elem_i32(&t, 2);
	d9x_th_struct(&t, 25);
	d9x_th_bool(&t, 1, 1);
	d9x_th_end(&t);
	d9x_th_end(&t);
	ck_assert(bytes_are(&b, want, sizeof want));
	ck_assert(!t.bad);
	d9x_bytes_free(&b);
}
END_TEST

/* MurmurHash3_x64_128, seed 0, as mmh3.hash_bytes gives it: two whole
 * blocks and a tail of 11 (both halves of the tail) */
/* rows rows of every shape into a file (expect > 0: that hint first);
 * its bytes in *out (malloc'd), their count returned. */
static size_t
write_rows(size_t rows, uint64_t expect, char **out)
{
	static const struct d9x_field f[] = {
		{ "ts", D9X_I64, D9X_REQ }, { "w", D9X_U32, D9X_OPT },
		{ "on", D9X_BOOL, D9X_REQ }, { "x", D9X_DOUBLE, D9X_REQ },
		{ "loc", D9X_STRING, D9X_OPT }, { "tags", D9X_STRING, D9X_LIST },
		{ "kv", D9X_STRING, D9X_MAP } };
	FILE *fp = tmpfile();
	struct d9x_pq *w;
	struct d9_err e;
	long n;

	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(d9x_pq_open(&w, fileno(fp), f, 7, 5000, &e), 0);
	if (expect > 0)
		d9x_pq_expect(w, expect);
	for (size_t i = 0; i < rows; i++) {
		char s[32];

		snprintf(s, sizeof s, "loc%zu", i % 700);
		d9x_pq_int(w, 0, i * 1000003);
		if (i % 3)
			d9x_pq_int(w, 1, i % 17);
		else
			d9x_pq_null(w, 1);
		d9x_pq_int(w, 2, i & 1);
		d9x_pq_dbl(w, 3, (double)i / 7);
		d9x_pq_str(w, 4, s, strlen(s));
		d9x_pq_begin(w, 5);
		for (size_t k = 0; k < i % 4; k++)
			d9x_pq_str(w, 5, s, 3 + k);
		d9x_pq_end(w, 5);
		d9x_pq_begin(w, 6);
		if (i % 5)
			d9x_pq_entry(w, 6, "k", 1, s, strlen(s));
		d9x_pq_end(w, 6);
		ck_assert_int_eq(d9x_pq_row(w), 0);
	}
	ck_assert_int_eq(d9x_pq_close(&w, &e), 0);
	n = ftell(fp);
	ck_assert_int_gt(n, 0);
	*out = malloc((size_t)n);
	ck_assert_ptr_nonnull(*out);
	rewind(fp);
	ck_assert_uint_eq(fread(*out, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	return (size_t)n;
}

/* A hint of the rows to come sizes buffers, never the bytes: with
 * fewer rows than hinted, as many, more (several row groups). */
START_TEST(expect_same_bytes)
{
	static const size_t rows[] = { 1, 3000, 12000 };
	static const uint64_t hint[] = { 100000, 3000, 2000 };

	for (size_t i = 0; i < 3; i++) {
		char *a, *b;
		size_t na = write_rows(rows[i], 0, &a);

		ck_assert_uint_eq(write_rows(rows[i], hint[i], &b), na);
		ck_assert_int_eq(memcmp(a, b, na), 0);
		free(a);
		free(b);
	}
}
END_TEST

START_TEST(murmur3)
{
	static const char fox[] = "The quick brown fox jumps over the lazy dog";
	char hex[33];
	uint8_t h[16];

	d9x_hash128(fox, strlen(fox), h);
	d9x_hex128(h, hex);
	ck_assert_str_eq(hex, "6c1b07bc7bbc4be347939ac4a93c437a");
	d9x_hash128("", 0, h);
	d9x_hex128(h, hex);
	ck_assert_str_eq(hex, "00000000000000000000000000000000");
}
END_TEST

struct kinds {
	size_t	polls, off, seen[D9M_V_COUNT];
};

/* Every poll with samples: d9m_poll_kind says d9m_poll_verdict's kind. */
static int
check_kinds(void *ctx, struct d9m_model *m, uint64_t events,
    const struct d9p_segid *id)
{
	struct kinds *k = ctx;
	struct d9m_vmemo memo;

	(void)id;
	(void)events;
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(d9m_vmemo_init(&memo), 0);
	for (uint32_t p = 0; p < m->polls.n; p++) {
		struct d9m_verdict v;
		enum d9m_vclass kind;

		ck_assert_int_eq(d9m_poll_verdict(m, NULL, p, &v), 0);
		ck_assert_int_eq(d9m_poll_kind(m, NULL, p, &memo, &kind), 0);
		ck_assert_int_eq(kind, v.kind);
		k->polls++;
		k->off += v.of > v.samples;
		k->seen[kind]++;
	}
	d9m_vmemo_free(&memo);
	d9m_model_free(&m);
	return 0;
}

/* demo-2026-06's model (of each segment) to fn (hint: NULL or the
 * caller's). */
static void
read_demo_hint(d9x_split_fn fn, void *ctx,
    struct d9x_split_hint *hint)
{
	char path[4096];
	struct d9p_read_stats st;
	struct d9p_read_opts ro = { 0 };

	snprintf(path, sizeof path, "%s/demo-2026-06.bin.gz",
	    getenv("D9_TRACES"));
	ck_assert_int_eq(d9x_split_read(path, -1, fn, ctx, &ro, hint, &st), 0);
}

static void
read_demo(d9x_split_fn fn, void *ctx)
{
	read_demo_hint(fn, ctx, NULL);
}

struct sizes {
	size_t	rows[D9M_NTABLES], polls, spans;
};

/* The rows of every loaded table, and the figures derived from them. */
static int
keep_sizes(void *ctx, struct d9m_model *m, uint64_t events,
    const struct d9p_segid *id)
{
	struct sizes *z = ctx;
	struct d9m_tabref t[D9M_NTABLES];
	size_t n = d9m_model_tables(m, t);

	(void)id;
	(void)events;
	for (size_t i = 0; i < n; i++)
		z->rows[i] = d9m_tab_n(t[i].tab);
	z->polls = m->polls.n;
	z->spans = m->spans.n;
	d9m_model_free(&m);
	return 0;
}

/* A worker's hint: the last model's table rows, with which the next
 * input's tables start; the model built is the same. */
START_TEST(split_hint)
{
	struct d9x_split_hint h;
	struct sizes a, b;
	size_t kept = 0;

	memset(&h, 0, sizeof h);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	read_demo_hint(keep_sizes, &a, &h);
	for (size_t i = 0; i < D9M_NTABLES; i++)
		kept += h.rows[i];	/* as built, before finishing */
	ck_assert_uint_gt(kept, 100000);
	ck_assert_uint_gt(a.polls, 1000);
	read_demo_hint(keep_sizes, &b, &h);
	ck_assert_int_eq(memcmp(a.rows, b.rows, sizeof a.rows), 0);
	ck_assert_uint_eq(a.polls, b.polls);
	ck_assert_uint_eq(a.spans, b.spans);
}
END_TEST

START_TEST(poll_kinds)
{
	struct kinds k = { 0 };
	size_t classes = 0;

	read_demo(check_kinds, &k);
	for (int c = 0; c < D9M_V_COUNT; c++)
		classes += k.seen[c] > 0;
	/* the trace has polls of several kinds, on and off CPU */
	ck_assert_uint_ge(k.polls, 1000);
	ck_assert_uint_ge(classes, 3);
	ck_assert_uint_gt(k.seen[D9M_V_CPU], 0);
	ck_assert_uint_gt(k.off, 0);
}
END_TEST

struct fcheck {
	size_t	stacks, frames, differ;
};

/* Whether frames a[0, n) and b[0, n) are the same frames (plain
 * compares: a Check assertion per frame costs a write). */
static int
same_frames(const struct d9m_frame *a, const struct d9m_frame *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].name != b[i].name || a[i].file != b[i].file ||
		    a[i].line != b[i].line || a[i].inlined != b[i].inlined ||
		    a[i].kernel != b[i].kernel ||
		    strcmp(a[i].hex, b[i].hex) != 0)
			return 0;
	return 1;
}

/* Every sample's and allocation's stack, through a memo (twice: the
 * second from it) and without: the same frames. */
static int
check_frames(void *ctx, struct d9m_model *m, uint64_t events,
    const struct d9p_segid *id)
{
	struct fcheck *c = ctx;
	struct d9m_frame *f = d9m_frames_alloc(), *g = d9m_frames_alloc();
	struct d9m_fmemo k;
	size_t n = m->cpu.n + m->allocs.n;

	(void)id;
	(void)events;
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(g);
	d9m_fmemo_init(&k);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			int al = i >= m->cpu.n;
			size_t j = al ? i - m->cpu.n : i, nf, ng;
			uint32_t seg = al ? m->allocs.seg[j] : m->cpu.seg[j];
			uint32_t st = al ? m->allocs.stack[j] : m->cpu.stack[j];

			nf = al ? d9m_alloc_frames(m, NULL, seg, st, f,
			    D9_STACK_MAX) : d9m_stack_frames(m, NULL, seg, st,
			    f, D9_STACK_MAX);
			ng = al ? d9m_alloc_frames_memo(m, NULL, &k, seg, st,
			    g, D9_STACK_MAX) : d9m_stack_frames_memo(m, NULL,
			    &k, seg, st, g, D9_STACK_MAX);
			c->differ += nf != ng || !same_frames(f, g, nf);
			c->stacks++;
			c->frames += nf;
		}
	/* each address looked up once: far fewer kept than asked */
	ck_assert_uint_lt(k.nf * 10, c->frames);
	d9m_fmemo_free(&k);
	free(f);
	free(g);
	d9m_model_free(&m);
	return 0;
}

/* The export's memo of each address's frames changes no frame. */
START_TEST(frames_memo)
{
	struct fcheck c = { 0 };

	read_demo(check_frames, &c);
	ck_assert_uint_ge(c.stacks, 1000);
	ck_assert_uint_eq(c.differ, 0);
}
END_TEST

/* Whether files a and b hold the same bytes. */
static int
same_file(const char *a, const char *b)
{
	FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
	int same = f != NULL && g != NULL;

	while (same) {
		char x[8192], y[8192];
		size_t n = fread(x, 1, sizeof x, f);

		same = fread(y, 1, sizeof y, g) == n && memcmp(x, y, n) == 0;
		if (n < sizeof x)
			break;
	}
	if (f != NULL)
		fclose(f);
	if (g != NULL)
		fclose(g);
	return same;
}

size_t
same_tree(const char *a, const char *b, const char *loose)
{
	DIR *d = opendir(a);
	struct dirent *e;
	size_t files = 0;

	ck_assert_msg(d != NULL, "%s: cannot open", a);
	while ((e = readdir(d)) != NULL) {
		char pa[4096], pb[4096];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;	/* ., .., .lock, .cut: no table's */
		snprintf(pa, sizeof pa, "%s/%s", a, e->d_name);
		snprintf(pb, sizeof pb, "%s/%s", b, e->d_name);
		ck_assert_int_eq(lstat(pa, &st), 0);
		if (S_ISDIR(st.st_mode)) {
			files += same_tree(pa, pb, loose);
			continue;
		}
		if (loose != NULL && strstr(pa, loose) != NULL)
			ck_assert_msg(access(pb, F_OK) == 0, "%s missing", pb);
		else
			ck_assert_msg(same_file(pa, pb), "%s differs", pb);
		files++;
	}
	closedir(d);
	return files;
}

static void
export_with(const char *out, unsigned workers, const char *const *paths,
    size_t n, struct d9x_progress *p)
{
	struct d9x_opts o = { .outdir = out, .paths = paths, .npaths = n,
	    .workers = workers };
	char err[512];

	ck_assert_msg(d9x_export(&o, p, err, sizeof err) == 0, "%s", err);
}

struct ids {
	struct d9p_segid id[8];
	size_t		 n, none;
};

static int
keep_ids(void *ctx, struct d9m_model *m, uint64_t events,
    const struct d9p_segid *id)
{
	struct ids *k = ctx;

	(void)events;
	ck_assert_ptr_nonnull(m);
	if (m->groups.n > 0 && id == NULL)
		k->none++;
	else if (m->groups.n > 0 && k->n < 8)
		k->id[k->n++] = *id;
	d9m_model_free(&m);
	return 0;
}

/* Segments read from one stream (the shared traces cat'ed: raw, raw,
 * gzip) are named as the files that hold them alone are (segid.h): an
 * export of them through stdin writes what an export of the files
 * does, and not again. */
START_TEST(stream_names_as_files)
{
	static const char *const names[] = { "demo-2026-03.bin",
		"block-in-place-2026-05.bin", "demo-2026-06.bin.gz" };
	const char *dir = getenv("D9_TRACES");
	char tmp[] = "/tmp/d9x-stream-XXXXXX", cat[4096], path[4096];
	struct d9p_read_opts ro = { 0 };
	struct d9p_read_stats st;
	struct ids k = { .n = 0 };
	FILE *out;

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	snprintf(cat, sizeof cat, "%s/all.bin", tmp);
	ck_assert_ptr_nonnull(out = fopen(cat, "wb"));
	for (size_t i = 0; i < 3; i++) {
		char buf[65536];
		size_t n;
		FILE *in;

		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		ck_assert_ptr_nonnull(in = fopen(path, "rb"));
		while ((n = fread(buf, 1, sizeof buf, in)) > 0)
			ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
		fclose(in);
	}
	ck_assert_int_eq(fclose(out), 0);
	ck_assert_int_eq(d9x_split_read(cat, -1, keep_ids, &k, &ro, NULL, &st),
	    0);
	ck_assert_uint_eq(k.none, 0);
	ck_assert_uint_eq(k.n, 3);
	for (size_t i = 0; i < 3; i++) {
		struct d9p_segid want;

		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		ck_assert_int_eq(d9p_segid_of(path, &want), 0);
		ck_assert_uint_eq(k.id[i].hash, want.hash);
		ck_assert_uint_eq(k.id[i].len, want.len);
		ck_assert_str_eq(k.id[i].boot, want.boot);
	}
	t_rmtree(tmp);
}
END_TEST

/* Two workers write the same files, byte for byte, as one; and say
 * the same in the summary. */
START_TEST(two_workers)
{
	static const char *const names[] = { "demo-2026-03.bin",
		"block-in-place-2026-05.bin", "demo-2026-06.bin.gz" };
	const char *dir = getenv("D9_TRACES");
	char tmp[] = "/tmp/d9x-workers-XXXXXX", one[4096], two[4096];
	char path[3][4096];
	const char *paths[3];
	struct d9x_progress p1, p2;

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	for (size_t i = 0; i < 3; i++) {
		snprintf(path[i], sizeof path[i], "%s/%s", dir, names[i]);
		paths[i] = path[i];
	}
	snprintf(one, sizeof one, "%s/one", tmp);
	snprintf(two, sizeof two, "%s/two", tmp);
	export_with(one, 1, paths, 3, &p1);
	export_with(two, 2, paths, 3, &p2);
	ck_assert_uint_eq(p1.exported, 3);
	ck_assert_uint_eq(p2.exported, 3);
	ck_assert_uint_eq(p2.done, 3);
	ck_assert_uint_eq(p1.files, p2.files);
	ck_assert_uint_eq(p1.rows, p2.rows);
	ck_assert_uint_eq(p1.bytes, p2.bytes);
	ck_assert_uint_ge(p1.files, 20);
	ck_assert_uint_eq(same_tree(one, two, NULL), p1.files);
	ck_assert_uint_eq(same_tree(two, one, NULL), p1.files);
	/* again: nothing new, with either */
	export_with(two, 2, paths, 3, &p2);
	ck_assert_uint_eq(p2.present, 3);
	ck_assert_uint_eq(p2.files, 0);
	t_rmtree(tmp);
}
END_TEST

/* The first n bytes of from (all: n = SIZE_MAX) to to. */
static void
copy_head(const char *from, const char *to, size_t n)
{
	FILE *f = fopen(from, "rb"), *g = fopen(to, "wb");
	char buf[65536];
	size_t k;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(g);
	while (n > 0 && (k = fread(buf, 1, n < sizeof buf ? n : sizeof buf,
	    f)) > 0) {
		ck_assert_uint_eq(fwrite(buf, 1, k, g), k);
		n -= k;
	}
	fclose(f);
	ck_assert_int_eq(fclose(g), 0);
}

/*
 * A segment exported while it was still being copied in (cut) is
 * exported again once whole, with one (_i + 1) worker or two: the files
 * are then those of a fresh export, byte for byte, and the mark is gone.
 * It was found "already there" and kept cut for good. While it stays
 * cut, every run exports it again over what it wrote, never beside it.
 */
START_TEST(cut_then_whole)
{
	const char *dir = getenv("D9_TRACES");
	char tmp[] = "/tmp/d9x-cut-XXXXXX", src[4096], in[64], seg[128];
	char out[64], fresh[64], marks[128];
	const char *paths[1] = { in };
	unsigned w = (unsigned)_i + 1;
	struct d9x_progress p;
	struct stat st;
	uint64_t files;

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	snprintf(src, sizeof src, "%s/demo-2026-06.bin.gz", dir);
	snprintf(in, sizeof in, "%s/in", tmp);
	snprintf(seg, sizeof seg, "%s/trace.1.bin.gz", in);
	snprintf(out, sizeof out, "%s/out", tmp);
	snprintf(fresh, sizeof fresh, "%s/fresh", tmp);
	snprintf(marks, sizeof marks, "%s/.cut", out);
	ck_assert_int_eq(mkdir(in, 0700), 0);
	ck_assert_int_eq(stat(src, &st), 0);
	copy_head(src, seg, (size_t)st.st_size / 2);
	export_with(out, w, paths, 1, &p);
	ck_assert_uint_eq(p.exported, 1);
	ck_assert_uint_eq(p.cut, 1);
	ck_assert_uint_eq(files_in(marks), 1);
	files = p.files;
	export_with(out, w, paths, 1, &p);	/* still cut: again */
	ck_assert_uint_eq(p.exported, 1);
	ck_assert_uint_eq(p.files, files);
	copy_head(src, seg, SIZE_MAX);
	export_with(out, w, paths, 1, &p);
	ck_assert_uint_eq(p.exported, 1);
	ck_assert_uint_eq(p.cut, 0);
	ck_assert_uint_eq(files_in(marks), 0);
	export_with(fresh, w, paths, 1, &p);
	ck_assert_uint_eq(same_tree(fresh, out, NULL), p.files);
	ck_assert_uint_eq(same_tree(out, fresh, NULL), p.files);
	export_with(out, w, paths, 1, &p);	/* whole: done */
	ck_assert_uint_eq(p.present, 1);
	ck_assert_uint_eq(p.files, 0);
	t_rmtree(tmp);
}
END_TEST


int
main(void)
{
	Suite *s = suite_create("export");
	TCase *tc = tcase_create("bytes");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, hive_escape);
	tcase_add_test(tc, rle_hybrid);
	tcase_add_test(tc, thrift_compact);
	tcase_add_test(tc, murmur3);
	tcase_add_test(tc, expect_same_bytes);
	suite_add_tcase(s, tc);
	if (getenv("D9_TRACES") != NULL) {	/* else the trace case skips */
		TCase *tk = tcase_create("kinds");

		tcase_set_timeout(tk, 60);
		tcase_add_test(tk, poll_kinds);
		tcase_add_test(tk, frames_memo);
		tcase_add_test(tk, split_hint);
		tcase_add_test(tk, two_workers);
		tcase_add_test(tk, stream_names_as_files);
		tcase_add_loop_test(tk, cut_then_whole, 0, 2);
		outdir_tests(tk);
		runs_tests(tk);
		suite_add_tcase(s, tk);
	}
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
