/*
 * test_whole.c: gzip files decompressed whole by libdeflate, and the
 * files of a directory decompressed ahead on other cores (parse/whole.h,
 * parse/prefetch.h), give the sink exactly what the streaming path gives
 * (d9p_read_opts.stream_only): the same calls in the same order, the
 * same notes with the same byte offsets, the same figures. On the real
 * traces, directories of gzip files (more than the prefetch window),
 * damaged and mixed containers, ISIZE trailers that lie; a cancel while
 * the workers run returns and frees everything (the ASan build checks
 * the frees). Built without libdeflate, both paths stream and the
 * tests still compare them.
 */
#include <sys/mman.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../skip.h"
#include "parse/input.h"
#include "parse/prefetch.h"
#include "parse/whole.h"
#include "suites.h"

typedef void (*read_fn)(struct rec *r, const void *ctx);

static void
read_mem(struct rec *r, const void *ctx)
{
	const struct tg *t = ctx;

	ck_assert_int_eq(rec_read(r, t->p, t->n), 0);
}

static void
read_dir(struct rec *r, const void *ctx)
{
	const char *path = ctx;

	ck_assert_int_eq(rec_read_paths(r, &path, 1), 0);
}

/*
 * Read with the whole path into a (rec_init'd, keep chosen) and with the
 * streaming path into a second rec: everything the sink and the notes saw
 * is the same; `whole` inputs were read whole (with libdeflate).
 */
static void
ck_both(struct rec *a, read_fn f, const void *ctx, unsigned whole)
{
	struct rec b;

	rec_init(&b);
	b.keep = a->keep;
	b.stream_only = 1;
	a->stream_only = 0;
	f(a, ctx);
	f(&b, ctx);
	ck_assert_str_eq(rec_log(a), rec_log(&b));
	ck_assert_uint_eq(a->hash, b.hash);
	ck_assert_str_eq(rec_notes(a), rec_notes(&b));
	ck_assert_uint_eq(a->nevents, b.nevents);
	ck_assert_uint_eq(a->cuts, b.cuts);
	ck_assert_uint_eq(a->copies, b.copies);
	ck_assert_uint_eq(a->st.inputs, b.st.inputs);
	ck_assert_uint_eq(a->st.read_ok, b.st.read_ok);
	ck_assert_uint_eq(a->st.skipped, b.st.skipped);
	ck_assert_uint_eq(a->st.failed, b.st.failed);
	ck_assert_uint_eq(a->st.copies, b.st.copies);
	ck_assert_uint_eq(a->st.events, b.st.events);
	ck_assert_uint_eq(a->st.decoded, b.st.decoded);
	/* input bytes read: the whole file when it read cleanly; before
	 * an error, the stream counts its read chunks, the whole path a
	 * share of the file as large as the share decoded */
	if (a->nnotes == 0)
		ck_assert_uint_eq(a->st.consumed, b.st.consumed);
	ck_assert_uint_eq(b.st.whole, 0);
	ck_assert_uint_eq(a->st.whole, d9p_whole_available() ? whole : 0);
	ck_assert_uint_le(a->st.prefetched, a->st.whole);
	rec_free(&b);
}

/* A batch of n events of schema "E", values from first: distinct
 * segments for distinct first values. */
static void
batch(struct tg *t, int n, int first)
{
	tg_init(t);
	tg_batch_e(t, n, first);
}

/* p[0, n) as gzip members of at most step bytes each. */
static void
gzip_members(struct tg *out, const uint8_t *p, size_t n, size_t step)
{
	for (size_t at = 0; at < n; at += step)
		tg_gzip(out, p + at, n - at < step ? n - at : step);
}

/* One gzip member with a header CRC (FHCRC); bad: a wrong one. */
static void
gzip_hcrc(struct tg *out, const void *p, size_t n, int bad)
{
	gz_header h;
	z_stream z;
	uint8_t buf[4096];

	memset(&z, 0, sizeof z);
	memset(&h, 0, sizeof h);
	h.hcrc = 1;
	ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY), Z_OK);
	ck_assert_int_eq(deflateSetHeader(&z, &h), Z_OK);
	ck_assert_uint_lt(deflateBound(&z, (uLong)n), sizeof buf);
	z.next_in = (Bytef *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	z.next_out = buf;
	z.avail_out = sizeof buf;
	ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	if (bad)
		buf[10] ^= 0xff;	/* the CRC16 after a 10-byte header */
	tg_raw(out, buf, sizeof buf - z.avail_out);
	deflateEnd(&z);
}

/* The real traces (gzip, whatever their names say), and demo-2026-06
 * again in 1 MiB members (the last member's ISIZE is a poor guess of the
 * whole: the buffer grows). */
static const char *const reals[] = {
	"block-in-place-2026-05.bin", "demo-2026-03.bin",
	"demo-2026-06.bin.gz", "demo-2026-06.bin.gz"
};

START_TEST(real_traces)
{
	char buf[4096];
	const char *path = tg_trace_path(reals[_i], buf, sizeof buf);
	struct tg raw, gz;
	struct rec a;

	if (path == NULL || access(path, R_OK) != 0) {
		t_skip("%s: no real trace, not tested", reals[_i]);
		return;
	}
	tg_init(&raw);
	tg_init(&gz);
	if (_i < 3)
		ck_assert_int_eq(tg_read_file(path, &gz), 0);
	else {
		ck_assert_int_eq(tg_gunzip_file(path, &raw), 0);
		gzip_members(&gz, raw.p, raw.n, 1u << 20);
	}
	rec_init(&a);
	a.keep = 0;
	ck_both(&a, read_mem, &gz, 1);
	ck_assert_str_eq(rec_notes(&a), "");
	ck_assert_uint_gt(a.nevents, 900);
	rec_free(&a);
	tg_free(&gz);
	tg_free(&raw);
}
END_TEST

/* The real traces and small segments, all gzip, in one directory. */
START_TEST(directory_of_gzip_files)
{
	struct tg_dir d;
	struct tg t, gz;
	struct rec a;
	char buf[4096], name[32];
	unsigned n = 0;

	tg_dir_make(&d);
	tg_init(&t);
	tg_init(&gz);
	for (size_t i = 0; i < 3; i++) {
		const char *path = tg_trace_path(reals[i], buf, sizeof buf);

		if (path == NULL || access(path, R_OK) != 0)
			continue;
		tg_reset(&t);
		tg_reset(&gz);
		ck_assert_int_eq(tg_gunzip_file(path, &t), 0);
		tg_gzip(&gz, t.p, t.n);	/* recompressed by zlib */
		snprintf(name, sizeof name, "real.%zu.bin.gz", i);
		tg_dir_put(&d, name, &gz);
		n++;
	}
	for (int i = 0; i < 6; i++) {
		tg_free(&t);
		batch(&t, 50 + i, i);
		tg_reset(&gz);
		gzip_members(&gz, t.p, t.n, 100);
		snprintf(name, sizeof name, "seg.%d.bin.gz", i);
		tg_dir_put(&d, name, &gz);
		n++;
	}
	rec_init(&a);
	a.keep = 0;
	ck_both(&a, read_dir, d.path, n);
	ck_assert_str_eq(rec_notes(&a), "");
	ck_assert_uint_eq(a.st.inputs, n);
	rec_free(&a);
	tg_dir_remove(&d);
	tg_free(&gz);
	tg_free(&t);
}
END_TEST

/* More files than the prefetch window: read whole, in version order. */
START_TEST(many_small_files)
{
	const int nfiles = 3 * D9P_PF_AHEAD + 2;
	struct tg_dir d;
	struct tg t, gz, want;
	struct rec a;
	char name[32];

	tg_dir_make(&d);
	tg_init(&gz);
	tg_init(&want);
	for (int i = 1; i <= nfiles; i++) {
		batch(&t, 3, 10 * i);
		tg_reset(&gz);
		gzip_members(&gz, t.p, t.n, i % 2 ? t.n : 7);
		snprintf(name, sizeof name, "s%d.bin.gz", i);
		tg_dir_put(&d, name, &gz);
		tg_printf(&want, "input %s/s%d.bin.gz\nbatch @0\n"
		    "schema 1 E v:11\nE@1 v=%d\nE@2 v=%d\nE@3 v=%d\n",
		    d.path, i, 10 * i, 10 * i + 1, 10 * i + 2);
		tg_free(&t);
	}
	rec_init(&a);
	ck_both(&a, read_dir, d.path, (unsigned)nfiles);
	ck_assert_str_eq(rec_log(&a), tg_cstr(&want));
	ck_assert_str_eq(rec_notes(&a), "");
	rec_free(&a);
	tg_dir_remove(&d);
	tg_free(&want);
	tg_free(&gz);
}
END_TEST

/* Damaged, mixed and odd containers in one memory file each. */
enum {
	D_TRUNCATED, D_GARBAGE, D_MIXED, D_ISIZE_LIES, D_ISIZE_SMALL,
	D_HCRC, D_HCRC_BAD, D_CRC_BAD, D_EMPTY, D_GZIP_ZSTD, D_N
};

struct damaged {
	unsigned	 whole;		/* read whole (with libdeflate) */
	uint64_t	 events;
	const char	*notes;
};

static const struct damaged damaged[D_N] = {
	[D_TRUNCATED] = { 0, 4,
	    "t: truncated at byte 46\n" },
	[D_GARBAGE] = { 0, 40,
	    "t: byte 298: unknown frame tag 0x67; skipped to the next batch\n" },
	[D_MIXED] = { 0, 120, "" },
	[D_ISIZE_LIES] = { 0, 40,
	    "t: byte 107: gzip: incorrect length check; skipped to the "
	    "next member\n" },
	[D_ISIZE_SMALL] = { 1, 3040, "" },
	[D_HCRC] = { 0, 40, "" },
	[D_HCRC_BAD] = { 0, 0, "t: byte 12: gzip: header crc mismatch; "
	    "skipped to the next member\n" },
	[D_CRC_BAD] = { 0, 40, "t: byte 103: gzip: incorrect data check; "
	    "skipped to the next member\n" },
	[D_EMPTY] = { 1, 0, "t: empty input\n" },
	[D_GZIP_ZSTD] = { 0, 80, "" },
};

/* Case k of the table; first: the value of its first event. */
static void
damage(int k, int first, struct tg *c)
{
	struct tg t, u;

	batch(&t, 40, first);
	batch(&u, 40, first + 100);
	tg_init(c);
	switch (k) {
	case D_TRUNCATED:
		tg_gzip(c, t.p, t.n);
		c->n /= 2;
		break;
	case D_GARBAGE:
		tg_gzip(c, t.p, t.n);
		tg_raw(c, "garbage!", 8);
		break;
	case D_MIXED:		/* gzip | raw | zstd */
		tg_gzip(c, t.p, t.n);
		tg_raw(c, u.p, u.n);
		tg_zstd(c, t.p, t.n);
		break;
	case D_ISIZE_LIES:
		tg_gzip(c, t.p, t.n);
		c->p[c->n - 4]++;
		break;
	case D_ISIZE_SMALL:	/* a big member, then a tiny one */
		tg_free(&t);
		batch(&t, 3000, first);
		tg_gzip(c, t.p, t.n);
		tg_gzip(c, u.p, u.n);
		break;
	case D_HCRC:
	case D_HCRC_BAD:
		gzip_hcrc(c, t.p, t.n, k == D_HCRC_BAD);
		break;
	case D_CRC_BAD:
		tg_gzip(c, t.p, t.n);
		c->p[c->n - 8] ^= 1;
		break;
	case D_EMPTY:
		tg_gzip(c, "", 0);
		break;
	case D_GZIP_ZSTD:
		tg_gzip(c, t.p, t.n);
		tg_zstd(c, u.p, u.n);
		break;
	}
	tg_free(&t);
	tg_free(&u);
}

START_TEST(damaged_and_mixed)
{
	const struct damaged *w = &damaged[_i];
	struct tg c;
	struct rec a;

	damage(_i, 0, &c);
	rec_init(&a);
	ck_both(&a, read_mem, &c, w->whole);
	ck_assert_str_eq(rec_notes(&a), w->notes);
	ck_assert_uint_eq(a.nevents, w->events);
	rec_free(&a);
	tg_free(&c);
}
END_TEST

/* The same damaged files in one directory, with an .active one: the
 * prefetch leaves them to the streaming path, notes in file order. */
START_TEST(damaged_directory)
{
	struct tg_dir d;
	struct tg c;
	struct rec a;
	char name[32];

	tg_dir_make(&d);
	for (int k = 0; k < D_N; k++) {
		damage(k, 3 * k, &c);
		snprintf(name, sizeof name, "d%d.bin.gz%s", k,
		    k == D_ISIZE_SMALL ? ".active" : "");
		tg_dir_put(&d, name, &c);
		tg_free(&c);
	}
	rec_init(&a);
	ck_both(&a, read_dir, d.path, 1);	/* the empty one */
	ck_assert_uint_eq(a.st.inputs, D_N);
	ck_assert_uint_eq(a.st.copies, 0);
	rec_free(&a);
	tg_dir_remove(&d);
}
END_TEST

/* d9p_whole_load itself: growth past the ISIZE guess, a limit, a file
 * read from its offset, files left to the stream. */
START_TEST(whole_load)
{
	struct tg t, u, c;
	struct d9p_whole w;
	int fd;

	batch(&t, 3000, 0);
	batch(&u, 3, 7);
	tg_init(&c);
	tg_raw(&c, "junk", 4);
	tg_gzip(&c, t.p, t.n);
	tg_gzip(&c, u.p, u.n);
	fd = tg_memfd(c.p, c.n);
	ck_assert_int_eq(lseek(fd, 4, SEEK_SET), 4);
	if (!d9p_whole_available()) {	/* everything streams */
		ck_assert_int_eq(d9p_whole_load(fd, 0, NULL, NULL, &w),
		    D9P_WHOLE_STREAM);
		ck_assert_ptr_null(w.p);
		goto out;
	}
	ck_assert_int_eq(d9p_whole_load(fd, 0, NULL, NULL, &w),
	    D9P_WHOLE_OK);
	ck_assert_uint_eq(w.n, t.n + u.n);
	ck_assert_uint_eq(w.csize, c.n - 4);
	ck_assert_int_eq(memcmp(w.p, t.p, t.n), 0);
	ck_assert_int_eq(memcmp(w.p + t.n, u.p, u.n), 0);
	d9p_whole_release(&w, w.n);
	d9p_whole_free(&w);
	ck_assert_ptr_null(w.p);
	/* a limit under the decoded size */
	ck_assert_int_eq(d9p_whole_load(fd, c.n + 100, NULL, NULL, &w),
	    D9P_WHOLE_BIG);
	ck_assert_ptr_null(w.p);
	ck_assert_int_eq(lseek(fd, 4, SEEK_CUR), 8);	/* not moved */
	close(fd);
	/* raw bytes first: the stream's */
	fd = tg_memfd(c.p, c.n);
	ck_assert_int_eq(d9p_whole_load(fd, 0, NULL, NULL, &w),
	    D9P_WHOLE_STREAM);
out:
	close(fd);
	tg_free(&c);
	tg_free(&u);
	tg_free(&t);
}
END_TEST

/* A mapping of n bytes full of 0xaa (a spare's old bytes). */
static uint8_t *
dirty_map(size_t n)
{
	uint8_t *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	memset(p, 0xaa, n);
	return p;
}

/* With spares, the compressed and decoded bytes go into mappings handed
 * back: the same bytes come out of old ones, a spare larger than the
 * caps does not lift them, and a freed file's mapping is kept whole. */
START_TEST(whole_load_spares)
{
	struct d9p_spares *sp;
	struct d9p_whole w, v;
	uint8_t *r, *p;
	size_t map;
	struct tg t, c;
	int fd;

	if (!d9p_whole_available()) {
		t_skip("built without libdeflate: nothing is read whole");
		return;
	}
	batch(&t, 30000, 0);
	tg_init(&c);
	tg_gzip(&c, t.p, t.n);
	fd = tg_memfd(c.p, c.n);
	ck_assert_ptr_nonnull(sp = d9p_spares_new());
	r = dirty_map(8u << 20);
	d9p_spares_give(sp, r, 8u << 20);
	ck_assert_int_eq(d9p_whole_load(fd, 0, NULL, sp, &w), D9P_WHOLE_OK);
	ck_assert_ptr_eq(w.home, sp);
	ck_assert_uint_eq(w.n, t.n);
	ck_assert_int_eq(memcmp(w.p, t.p, t.n), 0);
	/* the compressed bytes were read into r, now back */
	ck_assert_int_eq(d9p_spares_take(sp, 0, &p, &map), 0);
	ck_assert_ptr_eq(p, r);
	ck_assert_int_eq(d9p_spares_take(sp, 0, &p, &map), -1);
	d9p_spares_give(sp, r, 8u << 20);
	/* read to its end: its pages stay, to be filled again */
	p = w.p;
	map = w.map;
	d9p_whole_release(&w, w.n);
	ck_assert_uint_eq(w.released, 0);
	memset(p, 0xaa, map);
	d9p_whole_free(&w);
	ck_assert_ptr_null(w.p);
	/* again: both mappings held are used, old bytes and all */
	ck_assert_int_eq(d9p_whole_load(fd, 0, NULL, sp, &v), D9P_WHOLE_OK);
	ck_assert_uint_eq(v.n, t.n);
	ck_assert_int_eq(memcmp(v.p, t.p, t.n), 0);
	ck_assert(v.p == p || v.p == r);
	d9p_whole_free(&v);
	/* 32 MiB spares, a limit under the decoded size: still too big */
	d9p_spares_free(&sp);
	ck_assert_ptr_null(sp);
	ck_assert_ptr_nonnull(sp = d9p_spares_new());
	d9p_spares_give(sp, dirty_map(32u << 20), 32u << 20);
	d9p_spares_give(sp, dirty_map(32u << 20), 32u << 20);
	ck_assert_uint_gt(t.n, 2 * 65636);
	ck_assert_int_eq(d9p_whole_load(fd, c.n + 65636, NULL, sp, &w),
	    D9P_WHOLE_BIG);
	ck_assert_ptr_null(w.p);
	/* over D9P_SPARE_BIG, or past D9P_SPARES_MAX held: unmapped */
	d9p_spares_give(sp, dirty_map(D9P_SPARE_BIG + 4096),
	    D9P_SPARE_BIG + 4096);
	for (int i = 0; i < D9P_SPARES_MAX + 2; i++)
		d9p_spares_give(sp, dirty_map(4096), 4096);
	for (int i = 0; i < D9P_SPARES_MAX; i++) {
		ck_assert_int_eq(d9p_spares_take(sp, 1u << 20, &p, &map), 0);
		ck_assert_uint_le(map, D9P_SPARE_BIG);
		/* the smallest enough first: the 32 MiB ones held */
		ck_assert_uint_eq(map, i < 2 ? 32u << 20 : 4096);
		munmap(p, map);
	}
	ck_assert_int_eq(d9p_spares_take(sp, 0, &p, &map), -1);
	d9p_spares_free(&sp);
	close(fd);
	tg_free(&c);
	tg_free(&t);
}
END_TEST

/* By default a lone gzip file (nothing decompressed it ahead) streams,
 * decompressed beside the decoding, when the machine has a second core;
 * on one core it is decompressed whole first. The same events either
 * way. */
START_TEST(lone_file_streams)
{
	struct tg t, c;
	struct rec a, b;
	unsigned whole = sysconf(_SC_NPROCESSORS_ONLN) < 2 &&
	    d9p_whole_available();

	batch(&t, 3000, 0);
	tg_init(&c);
	tg_gzip(&c, t.p, t.n);
	rec_init(&a);
	rec_init(&b);
	a.lone_streams = 1;
	ck_assert_int_eq(rec_read(&a, c.p, c.n), 0);
	ck_assert_int_eq(rec_read(&b, c.p, c.n), 0);
	ck_assert_uint_eq(a.st.whole, whole);
	ck_assert_uint_eq(b.st.whole, d9p_whole_available() ? 1 : 0);
	ck_assert_uint_eq(a.nevents, 3000);
	ck_assert_uint_eq(a.hash, b.hash);
	ck_assert_str_eq(rec_log(&a), rec_log(&b));
	rec_free(&a);
	rec_free(&b);
	tg_free(&c);
	tg_free(&t);
}
END_TEST

/* Pages of a buffer read whole go back in whole 2 MiB pages (giving back
 * part of one splits it into 4 KiB pages): never under 4 MiB at once,
 * up to a 2 MiB boundary at most the bytes read; the rest untouched. */
START_TEST(release_whole_pages)
{
	const size_t mib = (size_t)1 << 20, size = 12 * mib;
	struct d9p_whole w = { 0 };
	struct d9p_spares *sp;
	size_t lead, upto, map;
	uint8_t *p, *q;

	w.p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(w.p, MAP_FAILED);
	w.n = w.map = size;
	memset(w.p, 0xa5, size);
	/* from p to its first 2 MiB boundary */
	lead = (2 * mib - (uintptr_t)w.p % (2 * mib)) % (2 * mib);
	d9p_whole_release(&w, 3 * mib);
	ck_assert_uint_eq(w.released, 0);
	ck_assert_uint_eq(w.p[0], 0xa5);
	upto = lead + 7 * mib + 5;
	d9p_whole_release(&w, upto);
	ck_assert_uint_eq(((uintptr_t)w.p + w.released) % (2 * mib), 0);
	ck_assert_uint_le(w.released, upto);
	ck_assert_uint_gt(w.released + 2 * mib, upto);
	ck_assert_uint_eq(w.p[0], 0);			/* given back */
	ck_assert_uint_eq(w.p[w.released - 1], 0);
	for (size_t i = w.released; i < size; i += 4096)
		ck_assert_uint_eq(w.p[i], 0xa5);	/* kept */
	ck_assert_uint_eq(w.p[size - 1], 0xa5);
	d9p_whole_free(&w);
	ck_assert_ptr_null(w.p);
	/* a mapping that goes back to spares keeps its pages to the end */
	ck_assert_ptr_nonnull(w.home = d9p_spares_new());
	w.p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(w.p, MAP_FAILED);
	w.n = w.map = size;
	memset(w.p, 0xa5, size);
	d9p_whole_release(&w, size);
	ck_assert_uint_eq(w.released, 0);
	ck_assert_uint_eq(w.p[0], 0xa5);
	sp = w.home;
	p = w.p;
	d9p_whole_free(&w);
	ck_assert_int_eq(d9p_spares_take(sp, 0, &q, &map), 0);
	ck_assert_ptr_eq(q, p);
	ck_assert_uint_eq(map, size);
	ck_assert_uint_eq(q[size - 1], 0xa5);
	munmap(q, map);
	d9p_spares_free(&sp);
}
END_TEST

/* An input on a file read whole hands its bytes out in place
 * (d9p_input_view): one view right after the other, writable, the
 * same bytes as the copies; a copying read goes on where views
 * stopped; an input that is not read whole has no view. */
START_TEST(view_in_place)
{
	struct tg t, c;
	struct d9p_whole w;
	struct d9p_input *in;
	struct d9_err e;
	uint8_t *p, *q, buf[1000];
	int cut = 0, fd;

	batch(&t, 3000, 0);
	tg_init(&c);
	tg_gzip(&c, t.p, t.n);
	fd = tg_memfd(c.p, c.n);
	d9_err_clear(&e);
	if (!d9p_whole_available() ||
	    d9p_whole_load(fd, 0, NULL, NULL, &w) != D9P_WHOLE_OK) {
		close(fd);
		tg_free(&c);
		tg_free(&t);
		return;		/* built without libdeflate */
	}
	ck_assert_int_eq(d9p_input_open_whole(&in, &w, &e), 0);
	ck_assert_int_eq(d9p_input_view(in, &p, 4096), 4096);
	ck_assert_int_eq(d9p_input_view(in, &q, 5000), 5000);
	ck_assert_ptr_eq(q, p + 4096);
	ck_assert_int_eq(memcmp(p, t.p, 9096), 0);
	p[0] ^= 1;		/* the caller's to rewrite */
	d9p_input_done(in, 4096);
	ck_assert_int_eq(d9p_input_read(in, buf, sizeof buf, &cut, &e),
	    (ssize_t)sizeof buf);
	ck_assert_int_eq(memcmp(buf, t.p + 9096, sizeof buf), 0);
	ck_assert_int_eq(d9p_input_view(in, &p, t.n), (ssize_t)(t.n - 10096));
	ck_assert_int_eq(memcmp(p, t.p + 10096, t.n - 10096), 0);
	ck_assert_int_eq(d9p_input_view(in, &p, 10), 0);
	ck_assert_uint_eq(d9p_input_consumed(in), c.n);
	d9p_input_close(&in);
	/* a file streamed: copies only */
	ck_assert_int_eq(d9p_input_open_fd(&in, fd, &e), 0);
	ck_assert_int_eq(d9p_input_view(in, &p, 10), -1);
	ck_assert_ptr_null(p);
	d9p_input_close(&in);
	tg_free(&c);
	tg_free(&t);
}
END_TEST

static void
cancel_tick(void *ctx)
{
	struct d9p_progress *pr = ctx;

	atomic_store(&pr->cancel, 1);
}

/* A cancel while the workers decompress: the read returns, every
 * buffer and thread is gone (ASan's leak check). */
START_TEST(cancel_during_prefetch)
{
	const int nfiles = 2 * D9P_PF_AHEAD + 3;
	struct d9p_progress pr = { 0 };
	struct d9p_read_opts o;
	struct d9p_sink sink;
	struct tg_dir d;
	struct tg t, gz;
	struct rec r;
	char name[32];
	const char *paths[1];

	tg_dir_make(&d);
	paths[0] = d.path;
	tg_init(&gz);
	for (int i = 0; i < nfiles; i++) {
		batch(&t, 60000, i);
		tg_reset(&gz);
		tg_gzip(&gz, t.p, t.n);
		snprintf(name, sizeof name, "c%02d.bin.gz", i);
		tg_dir_put(&d, name, &gz);
		tg_free(&t);
	}
	rec_init(&r);
	r.keep = -1;
	sink = rec_sink(&r);
	o = rec_opts(&r);
	o.progress = &pr;
	pr.tick = cancel_tick;
	pr.tick_ctx = &pr;
	ck_assert_int_eq(d9p_read_paths(paths, 1, &sink, &o, &r.st), 0);
	ck_assert_uint_lt(r.st.events, 60000ull * (unsigned)nfiles);
	ck_assert_uint_lt(r.st.read_ok, 2);
	ck_assert_str_eq(rec_notes(&r), "");
	rec_free(&r);
	tg_dir_remove(&d);
	tg_free(&gz);
}
END_TEST

Suite *
suite_whole(void)
{
	Suite *s = suite_create("whole");
	TCase *tc = tcase_create("same");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, real_traces, 0,
	    (int)(sizeof reals / sizeof reals[0]));
	tcase_add_test(tc, directory_of_gzip_files);
	tcase_add_test(tc, many_small_files);
	tcase_add_loop_test(tc, damaged_and_mixed, 0, D_N);
	tcase_add_test(tc, damaged_directory);
	suite_add_tcase(s, tc);
	tc = tcase_create("load");
	tcase_add_test(tc, whole_load);
	tcase_add_test(tc, whole_load_spares);
	tcase_add_test(tc, view_in_place);
	tcase_add_test(tc, release_whole_pages);
	tcase_add_test(tc, lone_file_streams);
	tcase_add_test(tc, cancel_during_prefetch);
	suite_add_tcase(s, tc);
	return s;
}
