/* test_base.c: arena, hash map, interning, safe text, growth, errors. */
#include <check.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/err.h"
#include "base/hmap.h"
#include "base/intern.h"
#include "base/pages.h"
#include "base/statm.h"
#include "base/prefault.h"
#include "base/search.h"
#include "base/text.h"
#include "base/units.h"
#include "base/vec.h"
#include "../skip.h"
#include "suites.h"

START_TEST(test_arena_alignment_and_big)
{
	struct d9_arena a;
	char *p, *big;

	d9_arena_init(&a, 1024);
	p = d9_arena_alloc(&a, 3, 1);
	ck_assert_ptr_nonnull(p);
	for (int i = 0; i < 100; i++) {
		uint64_t *q = d9_arena_alloc(&a, 8, 8);

		ck_assert_uint_eq((uintptr_t)q % 8, 0);
		*q = (uint64_t)i;
	}
	big = d9_arena_alloc(&a, 100000, 1);	/* own chunk */
	memset(big, 1, 100000);
	ck_assert_uint_eq(a.used, 3 + 800 + 100000);
	d9_arena_reset(&a);
	ck_assert_uint_eq(a.used, 0);
	ck_assert_ptr_nonnull(d9_arena_alloc(&a, 10, 1));
	d9_arena_free(&a);
}
END_TEST

/* u64 keys: the checks the symbolizer's own map had, on the base map. */
START_TEST(test_hmap_u64)
{
	struct d9_hmap m;
	uint64_t k;

	d9_hmap_init(&m);
	ck_assert_uint_eq(d9_hmap_get(&m, 1), D9_NONE);
	for (k = 0; k < 5000; k++)
		ck_assert_int_eq(d9_hmap_put(&m, k * 0x1000, (uint32_t)k), 0);
	ck_assert_int_eq(d9_hmap_put(&m, 0x1000, 77), 0);
	ck_assert_int_eq(d9_hmap_put(&m, 5, D9_NONE), -1);
	ck_assert_uint_eq(m.n, 5000);
	ck_assert_uint_eq(m.nslots & (m.nslots - 1), 0);	/* power of 2 */
	ck_assert_uint_ge(m.nslots, 2 * m.n);
	for (k = 0; k < 5000; k++)
		ck_assert_uint_eq(d9_hmap_get(&m, k * 0x1000), k == 1 ? 77 : k);
	ck_assert_uint_eq(d9_hmap_get(&m, 0x1001), D9_NONE);
	/* no key is reserved as a marker */
	ck_assert_int_eq(d9_hmap_put(&m, UINT64_MAX, 3), 0);
	ck_assert_int_eq(d9_hmap_put(&m, 0, 4), 0);
	ck_assert_uint_eq(d9_hmap_get(&m, UINT64_MAX), 3);
	ck_assert_uint_eq(d9_hmap_get(&m, 0), 4);
	d9_hmap_free(&m);
	d9_hmap_free(&m);
}
END_TEST

START_TEST(test_hmap_clear_copy_next)
{
	struct d9_hmap m, c;
	uint32_t *slots;
	uint64_t key, sum = 0;
	uint32_t val;
	size_t n = 0;

	d9_hmap_init(&m);
	d9_hmap_init(&c);
	ck_assert_int_eq(d9_hmap_reserve(&m, 100), 0);
	slots = m.slot;
	for (uint64_t k = 1; k <= 100; k++)
		ck_assert_int_eq(d9_hmap_put(&m, k << 40, (uint32_t)k), 0);
	ck_assert_ptr_eq(m.slot, slots);	/* reserved: no growth */
	for (size_t pos = 0; d9_hmap_next(&m, &pos, &key, &val); n++) {
		ck_assert_uint_eq(key, (uint64_t)val << 40);
		sum += val;
	}
	ck_assert_uint_eq(n, 100);
	ck_assert_uint_eq(sum, 5050);
	ck_assert_int_eq(d9_hmap_copy(&c, &m), 0);
	d9_hmap_clear(&m);
	ck_assert_uint_eq(m.n, 0);
	ck_assert_uint_eq(d9_hmap_get(&m, 7ull << 40), D9_NONE);
	ck_assert_uint_eq(d9_hmap_get(&c, 7ull << 40), 7);
	ck_assert_uint_eq(c.n, 100);
	d9_hmap_free(&m);
	d9_hmap_free(&c);
}
END_TEST

/* Rows: names kept by the test; the map holds their row numbers. */
struct rows {
	char		 v[300][8];
	uint32_t	 n;
	const char	*want;
	int		 fail, same_hash;
};

static uint64_t
name_hash(const struct rows *r, const char *name)
{
	return r->same_hash ? 42 : d9_hash(name, strlen(name));
}

static int
row_eq(const void *ctx, uint32_t row)
{
	const struct rows *r = ctx;

	return strcmp(r->v[row], r->want) == 0;
}

static uint64_t
row_hash(const void *ctx, uint32_t row)
{
	const struct rows *r = ctx;

	return name_hash(r, r->v[row]);
}

static uint32_t
row_make(void *ctx)
{
	struct rows *r = ctx;

	if (r->fail)
		return D9_NONE;
	snprintf(r->v[r->n], sizeof r->v[r->n], "%s", r->want);
	return r->n++;
}

static const struct d9_hmap_rows test_rows = { row_hash, row_make };

static uint32_t
row_of(struct d9_hmap *m, struct rows *r, const char *name)
{
	r->want = name;
	return d9_hmap_find_or_add(m, name_hash(r, name), row_eq, &test_rows, r);
}

START_TEST(test_hmap_rows)
{
	static const char *const names[] = { "a", "b", "c", "b", "a" };
	static const uint32_t ids[] = { 0, 1, 2, 1, 0 };
	struct rows *r = calloc(1, sizeof *r);
	struct d9_hmap m;
	char name[8];

	/* every name hashes alike: eq decides */
	r->same_hash = 1;
	d9_hmap_init(&m);
	for (size_t i = 0; i < 5; i++)
		ck_assert_uint_eq(row_of(&m, r, names[i]), ids[i]);
	ck_assert_uint_eq(r->n, 3);
	r->fail = 1;		/* make fails: nothing is stored */
	ck_assert_uint_eq(row_of(&m, r, "d"), D9_NONE);
	ck_assert_uint_eq(m.n, 3);
	ck_assert_uint_eq(d9_hmap_find(&m, 42, row_eq, r), D9_NONE);
	r->want = "c";
	ck_assert_uint_eq(d9_hmap_find(&m, 42, row_eq, r), 2);
	d9_hmap_free(&m);
	/* real hashes, the table growing: rows are re-placed by row_hash */
	memset(r, 0, sizeof *r);
	for (uint32_t i = 0; i < 300; i++) {
		snprintf(name, sizeof name, "n%u", i);
		ck_assert_uint_eq(row_of(&m, r, name), i);
	}
	ck_assert_uint_ge(m.nslots, 600);
	for (uint32_t i = 0; i < 300; i++) {
		snprintf(name, sizeof name, "n%u", i);
		r->want = name;
		ck_assert_uint_eq(d9_hmap_find(&m, d9_hash(name, strlen(name)),
		    row_eq, r), i);
	}
	d9_hmap_free(&m);
	free(r);
}
END_TEST

START_TEST(test_intern_ids_stable)
{
	struct d9_arena a;
	struct d9_intern t;
	char buf[32];
	uint32_t ids[5000], len;

	d9_arena_init(&a, 0);
	d9_intern_init(&t, &a);
	for (int i = 0; i < 5000; i++) {
		int n = snprintf(buf, sizeof buf, "s%d", i);

		ids[i] = d9_intern(&t, buf, (size_t)n);
		ck_assert_uint_eq(ids[i], (uint32_t)i);	/* dense, in order */
	}
	for (int i = 0; i < 5000; i++) {
		int n = snprintf(buf, sizeof buf, "s%d", i);

		ck_assert_uint_eq(d9_intern(&t, buf, (size_t)n), ids[i]);
		ck_assert_str_eq(d9_intern_str(&t, ids[i], &len), buf);
		ck_assert_uint_eq(len, (uint32_t)n);
	}
	/* embedded NUL bytes are part of the key */
	ck_assert_uint_ne(d9_intern(&t, "a\0b", 3), d9_intern(&t, "a\0c", 3));
	ck_assert_uint_eq(d9_intern_find(&t, "nope", 4), D9_NONE);
	ck_assert_str_eq(d9_intern_str(&t, 999999, NULL), "");
	d9_intern_free(&t);
	d9_arena_free(&a);
}
END_TEST

START_TEST(test_text_escapes_controls)
{
	char out[128];

	d9_text_safe(out, sizeof out, "a\x1b[2Jb", 6);
	ck_assert_str_eq(out, "a\\x1b[2Jb");
	d9_text_safe(out, sizeof out, "caf\xc3\xa9", 5);	/* valid UTF-8 */
	ck_assert_str_eq(out, "caf\xc3\xa9");
	d9_text_safe(out, sizeof out, "\xc2\x9b" "x", 3);	/* C1 CSI */
	ck_assert_str_eq(out, "\\xc2\\x9bx");
	d9_text_safe(out, sizeof out, "\xff\xfe", 2);
	ck_assert_str_eq(out, "\\xff\\xfe");
	d9_text_safe(out, 8, "abcdefghijkl", 12);	/* bounded */
	ck_assert_str_eq(out, "abcdefg");
}
END_TEST

/* A message too long for its buffer (a deep path, then what went
 * wrong) keeps its start and its end around "...", cut between
 * characters, escapes whole: d9_err_set's 240 bytes said only the path
 * of a 600-byte one. */
START_TEST(test_text_message_elided)
{
	char name[2100];
	struct d9_err e;
	const char *dots;

	memset(name, 'd', 2000);
	name[2000] = '\0';
	d9_err_set(&e, D9_ERR_IO, 0, "/tmp/%s: File name too long", name);
	ck_assert_uint_eq(strlen(e.msg), D9_ERR_MSG_MAX - 1);
	ck_assert_int_eq(strncmp(e.msg, "/tmp/ddd", 8), 0);
	ck_assert_ptr_nonnull(dots = strstr(e.msg, "..."));
	ck_assert_str_eq(e.msg + strlen(e.msg) - 20, ": File name too long");
	/* two-byte characters and an escape: never cut in two */
	for (int i = 0; i < 1000; i++)
		memcpy(name + 2 * i, "\xc3\xa9", 2);
	name[2000] = '\0';
	d9_err_set(&e, D9_ERR_IO, 0, "%s\x1b: bad", name);
	dots = strstr(e.msg, "...");
	ck_assert_ptr_nonnull(dots);
	ck_assert_int_ne((unsigned char)dots[3] & 0xc0, 0x80);
	ck_assert_int_eq((unsigned char)dots[-1], 0xa9);
	ck_assert_str_eq(e.msg + strlen(e.msg) - 9, "\\x1b: bad");
	/* one that fits is as it was */
	d9_err_set(&e, D9_ERR_IO, 0, "%s", "short: fine");
	ck_assert_str_eq(e.msg, "short: fine");
}
END_TEST

START_TEST(test_text_hidden_and_nul)
{
	char out[128], nul[16];
	size_t n;

	/* bidirectional controls, zero-width and combining marks */
	d9_text_safe(out, sizeof out, "a\xe2\x80\xae" "b\xe2\x81\xa6"
	    "c\xe2\x80\x8b" "d\xef\xbb\xbf" "e\xcc\x81", 19);
	ck_assert_str_eq(out, "a\\u202eb\\u2066c\\u200bd\\ufeffe\\u0301");
	d9_text_safe(out, sizeof out, "\xf3\xa0\x80\x81", 4);	/* tag */
	ck_assert_str_eq(out, "\\U000e0001");
	ck_assert_uint_eq(d9_text_utf8_len((const unsigned char *)
	    "\xe2\x80\xae", 3), 0);
	/* a NUL, raw or kept by the model, does not end the text */
	d9_text_safe(out, sizeof out, "a\0b", 3);
	ck_assert_str_eq(out, "a\\0b");
	n = d9_text_hide_nul(nul, "a\0b", 3);
	ck_assert_uint_eq(n, 4);
	nul[n] = '\0';
	ck_assert_uint_eq(strlen(nul), 4);
	d9_text_safe(out, sizeof out, nul, n);
	ck_assert_str_eq(out, "a\\0b");
	/* escaped text stays as it is */
	d9_text_safe(nul, sizeof nul, out, strlen(out));
	ck_assert_str_eq(nul, out);
}
END_TEST

START_TEST(test_text_json_hostile)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	/* not UTF-8: text, never the C1 control U+009B */
	d9_text_put_json(f, "\x9b" "\xc2\x9b" "\xe2\x80\xae" "\xc0\x80"
	    "\xf3\xa0\x80\x81", 12);
	fclose(f);
	ck_assert_str_eq(buf, "\"\\\\x9b\\u009b\\u202e\\u0000"
	    "\\udb40\\udc01\"");
	free(buf);
}
END_TEST

START_TEST(test_text_json)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	d9_text_put_json(f, "q\"\\\n\x01", 5);
	fclose(f);
	ck_assert_str_eq(buf, "\"q\\\"\\\\\\u000a\\u0001\"");
	free(buf);
}
END_TEST

START_TEST(test_grow_overflow)
{
	uint64_t *p = NULL;
	size_t cap = 0;

	ck_assert_int_eq(d9_grow(&p, &cap, 10, sizeof *p), 0);
	ck_assert_uint_ge(cap, 10);
	ck_assert_int_eq(d9_grow(&p, &cap, SIZE_MAX / 4, sizeof *p), -1);
	ck_assert_ptr_nonnull(p);	/* unchanged on failure */
	free(p);
}
END_TEST

/* The VmFlags of the mapping holding p (/proc/self/smaps), and where it
 * starts and ends; 0, or -1 when it is not found. */
static int
mapping_of(const void *p, uintptr_t *lo, uintptr_t *hi, char *flags,
    size_t cap)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, rc = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		unsigned long a, b;

		if (sscanf(line, "%lx-%lx ", &a, &b) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = (uintptr_t)p >= a && (uintptr_t)p < b;
			if (in) {
				*lo = a;
				*hi = b;
			}
		} else if (in && strncmp(line, "VmFlags:", 8) == 0) {
			snprintf(flags, cap, "%s", line + 8);
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

/* d9_pages_*: a block over half malloc's mmap threshold (and 2 MiB) is
 * one mapping of its own, aligned to and a whole number of 2 MiB pages,
 * advised to 2 MiB pages where the kernel has them; it grows keeping its
 * bytes and stays one aligned mapping (moved, not split); glibc's free, realloc and malloc_usable_size take it as their
 * own; under the threshold it stays in the heap; calloc's are zero;
 * shrinking below 2 MiB keeps the bytes; overflow is NULL. */
START_TEST(test_pages_alloc)
{
	const size_t mib = (size_t)1 << 20;
	uint64_t *z = d9_pages_calloc(3 * mib / 8, 8);
	uint8_t *p, *q;
	uintptr_t lo = 0, hi = 0;
	char flags[512];

	ck_assert_ptr_nonnull(z);
	for (size_t i = 0; i < 3 * mib / 8; i += 4096)
		ck_assert_uint_eq(z[i], 0);
	free(z);
	ck_assert_ptr_null(d9_pages_calloc(SIZE_MAX / 4, 8));
	ck_assert_ptr_null(d9_pages_alloc(SIZE_MAX - 16));
	free(d9_pages_calloc(SIZE_MAX, 0));
	mallopt(M_MMAP_THRESHOLD, 4 * mib);	/* as the program sets it */
	p = d9_pages_alloc(mib);	/* small: malloc's */
	ck_assert_ptr_nonnull(p);
	memset(p, 0x5a, mib);
	p = d9_pages_realloc(p, 3 * mib);
	ck_assert_ptr_nonnull(p);
	/* under the threshold, but mapped at its next doubling: mapped
	 * (where this build maps its big blocks: not a sanitizer's) */
	if (d9_pages_own() &&
	    mapping_of(p, &lo, &hi, flags, sizeof flags) == 0) {
		ck_assert_uint_eq(lo, (uintptr_t)p - 16);
		ck_assert_uint_eq(hi, lo + 4 * mib);
	}
	memset(p + mib, 0x5b, 2 * mib);
	q = p;
	p = d9_pages_realloc(p, 9 * mib);
	ck_assert_ptr_nonnull(p);
	ck_assert(!d9_pages_own() || p != q);	/* 4 MiB mapped, 10 needed:
						 * moved */
	ck_assert_uint_eq(p[0], 0x5a);
	ck_assert_uint_eq(p[mib - 1], 0x5a);
	ck_assert_uint_eq(p[3 * mib - 1], 0x5b);
	ck_assert_uint_ge(malloc_usable_size(p), 9 * mib);
	if (d9_pages_own() &&
	    mapping_of(p, &lo, &hi, flags, sizeof flags) == 0) {
		ck_assert_uint_eq(lo % (2 * mib), 0);
		ck_assert_uint_eq(lo, (uintptr_t)p - 16);	/* not split */
		ck_assert_uint_eq(hi, lo + 10 * mib);
		/* advised to 2 MiB pages (pages.h), where there are some */
		if (access("/sys/kernel/mm/transparent_hugepage/enabled",
		    F_OK) == 0)
			ck_assert_ptr_nonnull(strstr(flags, " hg"));
	}
	p = realloc(p, 17 * mib);	/* glibc's realloc moves it too */
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p[3 * mib - 1], 0x5b);
	p = d9_pages_realloc(p, 33 * mib);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p[3 * mib - 1], 0x5b);
	p = d9_pages_realloc(p, 100);	/* back to malloc's */
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p[99], 0x5a);
	free(p);
	free(d9_pages_alloc(5 * mib));
	mallopt(M_MMAP_THRESHOLD, 32 * mib);	/* as the export sets it */
	p = d9_pages_calloc(9 * mib, 1);
	ck_assert_ptr_nonnull(p);
	ck_assert(!d9_pages_own() ||
	    malloc_usable_size(p) % 16 == 8);	/* glibc's heap */
	ck_assert_uint_eq(p[9 * mib - 1], 0);
	free(p);
	mallopt(M_MMAP_THRESHOLD, 4 * mib);
}
END_TEST

/* d9_pages_heap: the heap grows by the pad at once, and a block in it is
 * in memory advised to 2 MiB pages; freed, the pad stays until
 * d9_pages_heap_end. */
/* The process's memory as /proc/self/statm says: resident within the
 * address space, file pages (this program's) within the resident, and a
 * touched 64 MiB block counted. */
START_TEST(test_statm)
{
	size_t size = d9_statm(D9_STATM_SIZE), res = d9_statm(D9_STATM_RESIDENT);
	size_t shared = d9_statm(D9_STATM_SHARED), after;
	char *p;

	ck_assert_uint_gt(shared, 0);
	ck_assert_uint_ge(res, shared);
	ck_assert_uint_ge(size, res);
	ck_assert_uint_eq(d9_statm((enum d9_statm_field)3), 0);
	p = malloc((size_t)64 << 20);
	ck_assert_ptr_nonnull(p);
	/* every page written through volatile: a memset of a block freed
	 * unread may be left out by the compiler (the test then passed
	 * only under meson, whose MALLOC_PERTURB_ has malloc write it) */
	for (size_t i = 0; i < (size_t)64 << 20; i += 4096)
		((volatile char *)p)[i] = 1;
	after = d9_statm(D9_STATM_RESIDENT);
	ck_assert_uint_ge(after, res + ((size_t)60 << 20));
	free(p);
}
END_TEST

/* d9_pages_drop_whole: a front-to-back release stops at the last 2 MiB
 * boundary in its range (the huge page being read stays whole): what is
 * before it reads as zeros, the partial first page and what is after it
 * keep their bytes; a range with no boundary drops nothing. */
START_TEST(test_pages_drop_whole)
{
	const size_t mib = (size_t)1 << 20;
	uint8_t *p = d9_pages_alloc(9 * mib);
	const uint8_t *e, *f;
	uintptr_t want;

	ck_assert_ptr_nonnull(p);
	memset(p, 0x77, 9 * mib);
	want = ((uintptr_t)p + 100 + 5 * mib) / (2 * mib) * (2 * mib);
	e = d9_pages_drop_whole(p + 100, 5 * mib);
	ck_assert_uint_eq((uintptr_t)e, want);
	ck_assert_uint_eq(p[99], 0x77);
	ck_assert_uint_eq(e[-1], 0);
	ck_assert_uint_eq(p[4096 + 100], 0);
	ck_assert_uint_eq(e[0], 0x77);
	f = d9_pages_drop_whole(e, mib);	/* no boundary inside */
	ck_assert_ptr_eq(f, e);
	ck_assert_uint_eq(e[mib - 1], 0x77);
	free(p);
}
END_TEST

START_TEST(test_pages_heap)
{
	const size_t mib = (size_t)1 << 20;
	uintptr_t lo = 0, hi = 0;
	char flags[512];
	uint8_t *p;
	void *volatile q;

	if (!d9_pages_own()) {
		t_skip("d9_pages_heap: a sanitizer's malloc has no glibc heap");
		return;
	}
	/* as the program has them (the runner's frees may have raised the
	 * trim threshold glibc keeps) */
	mallopt(M_MMAP_THRESHOLD, 4 * mib);
	mallopt(M_TRIM_THRESHOLD, 128 << 10);
	d9_pages_heap(16 * mib);
	p = malloc(64 << 10);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_ge((uintptr_t)sbrk(0), (uintptr_t)p + 15 * mib);
	if (mapping_of(p, &lo, &hi, flags, sizeof flags) == 0 &&
	    access("/sys/kernel/mm/transparent_hugepage/enabled", R_OK) == 0)
		ck_assert_ptr_nonnull(strstr(flags, " hg"));
	free(p);
	hi = (uintptr_t)sbrk(0);
	q = malloc(mib);		/* (kept from the optimiser) */
	free(q);			/* the pad is kept */
	ck_assert_uint_eq((uintptr_t)sbrk(0), hi);
	d9_pages_heap_end();
	q = malloc(mib);
	free(q);			/* now it goes back */
	ck_assert_uint_lt((uintptr_t)sbrk(0), hi - 8 * mib);
}
END_TEST

/* How many of the n bytes at p are in memory (mincore). */
static size_t
resident(const void *p, size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), k = 0;
	unsigned char v[4096];

	ck_assert_uint_le(n / pg, sizeof v);
	ck_assert_int_eq(mincore((void *)p, n, v), 0);
	for (size_t i = 0; i < n / pg; i++)
		k += v[i] & 1;
	return k * pg;
}

/* d9_prefault: a range asked for is brought in, its bytes unchanged
 * (zeros where nothing was written, the bytes written elsewhere); a range
 * unmapped since it was asked for is skipped; what is queued when the
 * thread stops is dropped. */
START_TEST(test_prefault)
{
	const size_t mib = (size_t)1 << 20, n = 8 * mib;
	struct d9_prefault *pf = d9_prefault_new();
	uint8_t *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0), *gone;
	struct timespec nap = { 0, 1000000 };

#ifdef MADV_POPULATE_WRITE
	ck_assert_ptr_nonnull(pf);
#else
	ck_assert_ptr_null(pf);
	return;
#endif
	ck_assert_ptr_ne(p, MAP_FAILED);
	gone = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(gone, MAP_FAILED);
	memset(p + 3 * mib, 0x7e, mib);
	ck_assert_uint_eq(resident(p, n), mib);
	d9_prefault_ask(pf, gone, n);
	munmap(gone, n);		/* before or while it is brought in */
	d9_prefault_ask(pf, p, n);
	d9_prefault_ask(pf, p, 0);
	/* the thread has all the time it needs: no timing is tested (it
	 * counts a step once the step is in: wait for the count too) */
	for (int i = 0; i < 60000 && (resident(p, n) < n ||
	    d9_prefault_done(pf) < n); i++)
		nanosleep(&nap, NULL);
	ck_assert_uint_eq(resident(p, n), n);
	ck_assert_uint_le(d9_prefault_done(pf), 2 * n);
	ck_assert_uint_ge(d9_prefault_done(pf), n);
	for (size_t i = 0; i < n; i += 4096)
		ck_assert_uint_eq(p[i], i >= 3 * mib && i < 4 * mib ? 0x7e : 0);
	for (int i = 0; i < 2000; i++)
		d9_prefault_ask(pf, p, n);	/* more than the queue holds */
	d9_prefault_free(&pf);
	ck_assert_ptr_null(pf);
	d9_prefault_free(&pf);
	d9_prefault_ask(NULL, p, n);
	munmap(p, n);
}
END_TEST

START_TEST(test_err_record)
{
	struct d9_err e;

	d9_err_clear(&e);
	ck_assert_int_eq(d9_err_set(&e, D9_ERR_BAD_TAG, 81234,
	    "unknown frame tag 0x%02x", 0x77), -D9_ERR_BAD_TAG);
	ck_assert_str_eq(e.msg, "unknown frame tag 0x77");
	ck_assert_uint_eq(e.off, 81234);
	ck_assert_str_eq(d9_err_name(-D9_ERR_TRUNCATED), "truncated");
	ck_assert_str_eq(d9_err_name(12345), "unknown error");
}
END_TEST

/* The one binary search: bounds on runs of equal values, the ends, an
 * empty range, a sub-range and rows through a permutation. */
START_TEST(test_search_bounds)
{
	const uint64_t v[] = { 1, 3, 3, 3, 7, 9 };
	const uint32_t srt[] = { 0, 3, 4, 5 };	/* 1, 3, 7, 9 */

	ck_assert_uint_eq(d9_bisect_u64(v, 0, 6, 3), 1);
	ck_assert_uint_eq(d9_upper_u64(v, 0, 6, 3), 4);
	ck_assert_uint_eq(d9_bisect_u64(v, 0, 6, 0), 0);
	ck_assert_uint_eq(d9_upper_u64(v, 0, 6, 9), 6);
	ck_assert_uint_eq(d9_bisect_u64(v, 0, 6, 10), 6);
	ck_assert_uint_eq(d9_bisect_u64(v, 2, 2, 3), 2);
	ck_assert_uint_eq(d9_upper_u64(v, 2, 5, 3), 4);
	ck_assert_uint_eq(d9_upper_rows(v, srt, 0, 4, 6), 2);
	ck_assert_uint_eq(d9_upper_rows(v, srt, 0, 4, 9), 4);
	ck_assert_uint_eq(d9_lower_rows(v, srt, 0, 4, 7), 2);
	ck_assert_uint_eq(d9_lower_rows(v, srt, 0, 4, 10), 4);
}
END_TEST

/* One byte formatter for every output, in the browser's spelling. */
START_TEST(test_units_bytes_and_durations)
{
	char b[32];

	ck_assert_str_eq(d9_fmt_bytes(b, sizeof b, 999), "999 B");
	ck_assert_str_eq(d9_fmt_bytes(b, sizeof b, 1500), "1.5 kB");
	ck_assert_str_eq(d9_fmt_bytes(b, sizeof b, -1500), "-1.5 kB");
	ck_assert_str_eq(d9_fmt_bytes(b, sizeof b, 999960), "1.0 MB");
	ck_assert_str_eq(d9_fmt_bytes(b, sizeof b, 4.1e6), "4.1 MB");
	ck_assert_str_eq(d9_fmt_bytes(b, sizeof b, 2.5e12), "2.5 TB");
	ck_assert_str_eq(d9_fmt_dur(b, sizeof b, 1500, 0), "1.5us");
	ck_assert_str_eq(d9_fmt_dur(b, sizeof b, 1500, 1), "1.5\xc2\xb5s");
	ck_assert_str_eq(d9_fmt_dur(b, sizeof b, 2500000, 0), "2.50ms");
}
END_TEST

Suite *
base_suite(void)
{
	Suite *s = suite_create("base");
	TCase *tc = tcase_create("base");

	tcase_add_test(tc, test_arena_alignment_and_big);
	tcase_add_test(tc, test_search_bounds);
	tcase_add_test(tc, test_units_bytes_and_durations);
	tcase_add_test(tc, test_hmap_u64);
	tcase_add_test(tc, test_hmap_clear_copy_next);
	tcase_add_test(tc, test_hmap_rows);
	tcase_add_test(tc, test_intern_ids_stable);
	tcase_add_test(tc, test_text_escapes_controls);
	tcase_add_test(tc, test_text_message_elided);
	tcase_add_test(tc, test_text_json);
	tcase_add_test(tc, test_text_hidden_and_nul);
	tcase_add_test(tc, test_text_json_hostile);
	tcase_add_test(tc, test_grow_overflow);
	tcase_add_test(tc, test_err_record);
	tcase_add_test(tc, test_pages_alloc);
	tcase_add_test(tc, test_pages_drop_whole);
	tcase_add_test(tc, test_pages_heap);
	tcase_add_test(tc, test_statm);
	tcase_add_test(tc, test_prefault);
	suite_add_tcase(s, tc);
	return s;
}
