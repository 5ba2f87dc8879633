/*
 * hostile.c: see hostile.h. The traces are made with the unit tests'
 * trace writer (test/fixtures/mktrace.c), plus the few schemas it lacks.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "../fixtures/mktrace.h"
#include "base/wire.h"
#include "hostile.h"

/* Every piece a terminal could act on, each after a mark. */
#define PAYLOAD "<" HOSTILE_TITLE HOSTILE_CLIP HOSTILE_CLEAR \
	"rlo:\xe2\x80\xae|lri:\xe2\x81\xa6|pdi:\xe2\x81\xa9|zw:\xe2\x80\x8b|" \
	"bom:\xef\xbb\xbf|comb:e\xcc\x81|c1:\xc2\x9b|inv:\x9b|del:\x7f>"

enum { S_CUSTOM = 32, S_MAPS };

static char *
join(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *p = malloc(na + nb + 2);

	if (p == NULL)
		abort();
	memcpy(p, a, na);
	p[na] = '/';
	memcpy(p + na + 1, b, nb + 1);
	return p;
}

/* A schema frame from raw name bytes (NULs allowed). */
static void
raw_schema(struct tg *t, uint16_t id, const char *name, size_t len,
    const char *field, size_t flen, uint8_t type)
{
	tg_u8(t, D9_TAG_SCHEMA);
	tg_u16(t, id);
	tg_u16(t, (uint16_t)len);
	tg_raw(t, name, len);
	tg_u8(t, 1);
	tg_u16(t, 1);
	tg_u16(t, (uint16_t)flen);
	tg_raw(t, field, flen);
	tg_u8(t, type);
}

static void
write_strings(const char *path)
{
	static const char loc[] = "src/" PAYLOAD "\0" HOSTILE_TAIL;
	static const struct tg_field maps[] = { { "start", D9_FT_VARINT },
		{ "end", D9_FT_VARINT }, { "file_offset", D9_FT_VARINT },
		{ "path", D9_FT_STRING },
		{ "build_id", D9_FT_STRING | D9_FT_OPTIONAL } };
	static const struct tg_field custom[] = { { "f" PAYLOAD,
		D9_FT_STRING } };
	const uint64_t stack[] = { 0x1000, 0x401000 };
	struct mt m;

	mt_begin(&m);
	tg_schema(&m.tg, S_CUSTOM, "Custom" PAYLOAD, 1, 1, custom);
	tg_schema(&m.tg, S_MAPS, "ProcMapsEntry", 1, 5, maps);
	mt_event(&m, S_MAPS, 1000);
	tg_leb(&m.tg, 0x400000);
	tg_leb(&m.tg, 0x500000);
	tg_leb(&m.tg, 0);
	tg_str32(&m.tg, "/nonexistent/lib" PAYLOAD ".so");
	tg_u8(&m.tg, 0);
	mt_meta(&m, "key" PAYLOAD, "value" PAYLOAD);
	mt_symbol(&m, 0x1000, "fn" PAYLOAD, 0);
	mt_poll_start_n(&m, 1000000, 0, 1, loc, sizeof loc - 1);
	mt_span(&m, 0, 1500000, 0, 7, "span" PAYLOAD);
	for (int i = 0; i < 4; i++)
		mt_cpu(&m, 1600000 + 100000 * (uint64_t)i, 1, 0, 2, stack);
	mt_span(&m, 1, 2500000, 0, 7, "span" PAYLOAD);
	mt_poll_end(&m, 3000000, 0);
	mt_event(&m, S_CUSTOM, 3500000);
	tg_str32(&m.tg, "value" PAYLOAD);
	tg_write_file(path, m.tg.p, m.tg.n);
	tg_free(&m.tg);
}

static void
write_bad_schema(const char *path)
{
	static const char name[] = "Bad" HOSTILE_TITLE "\xe2\x80\xae\0"
	    HOSTILE_TAIL;
	static const char field[] = "field" HOSTILE_CLIP;
	struct tg t;

	tg_init(&t);
	tg_batch_e(&t, 3, 0);
	raw_schema(&t, 2, name, sizeof name - 1, field, sizeof field - 1,
	    0x3f);
	tg_write_file(path, t.p, t.n);
	tg_free(&t);
}

char *
hostile_dir(const char *dir)
{
	char *d = join(dir, "d" HOSTILE_TITLE "\xe2\x80\xae" "dir"), *p;

	if (mkdir(d, 0700) < 0 && access(d, F_OK) < 0)
		abort();
	write_strings(p = join(d, "strings.bin"));
	free(p);
	write_bad_schema(p = join(d, "bad.bin"));
	free(p);
	p = join(d, "x" HOSTILE_CLEAR HOSTILE_TITLE "\xe2\x81\xa6"
	    "inv\x9b.bin");
	tg_write_file(p, "hello, world\n", 13);
	free(p);
	return d;
}

/* ---- the string bomb: deflated as it is written ---- */

struct gz {
	FILE		*f;
	z_stream	 z;
	unsigned char	 out[1 << 16];
};

static void
gz_put(struct gz *g, const void *p, size_t n, int flush)
{
	g->z.next_in = (Bytef *)(uintptr_t)p;
	g->z.avail_in = (uInt)n;
	do {
		g->z.next_out = g->out;
		g->z.avail_out = sizeof g->out;
		if (deflate(&g->z, flush) == Z_STREAM_ERROR)
			abort();
		fwrite(g->out, 1, sizeof g->out - g->z.avail_out, g->f);
	} while (g->z.avail_out == 0);
}

void
hostile_bomb(const char *path, unsigned n, size_t len)
{
	static const struct tg_field f[] = { { "s",
		D9_FT_POOLED_STRING } };
	static unsigned char block[1 << 20];
	struct gz g;
	struct tg t;

	memset(&g, 0, sizeof g);
	memset(block, 'A', sizeof block);
	if ((g.f = fopen(path, "wb")) == NULL ||
	    deflateInit2(&g.z, 1, Z_DEFLATED, 15 + 16, 9,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	tg_init(&t);
	tg_header(&t);
	tg_schema(&t, 1, "Bomb", 1, 1, f);
	tg_ts_reset(&t, 1000);
	gz_put(&g, t.p, t.n, Z_NO_FLUSH);
	for (unsigned i = 0; i < n; i++) {
		tg_reset(&t);
		tg_u8(&t, D9_TAG_STRING_POOL);
		tg_u32(&t, 1);
		tg_u32(&t, i);
		tg_u32(&t, (uint32_t)len);
		/* each string its own, so that interning cannot merge them */
		tg_printf(&t, "%.*u", len < 10 ? (int)len : 10, i);
		gz_put(&g, t.p, t.n, Z_NO_FLUSH);
		for (size_t done = len < 10 ? len : 10; done < len;
		    done += sizeof block)
			gz_put(&g, block, len - done < sizeof block ?
			    len - done : sizeof block, Z_NO_FLUSH);
		tg_reset(&t);
		tg_event(&t, 1, 1000);
		tg_u32(&t, i);
		gz_put(&g, t.p, t.n, Z_NO_FLUSH);
	}
	gz_put(&g, NULL, 0, Z_FINISH);
	deflateEnd(&g.z);
	tg_free(&t);
	if (fclose(g.f) != 0)
		abort();
}

/* ---- the judge ---- */

/* Code point of the UTF-8 sequence at p (its length in *len), or -1. */
static long
utf8_at(const unsigned char *p, size_t left, size_t *len)
{
	long cp;
	size_t need;

	if (p[0] < 0x80) {
		*len = 1;
		return p[0];
	}
	if (p[0] >= 0xc2 && p[0] < 0xe0)
		need = 1, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] < 0xf0)
		need = 2, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] < 0xf5)
		need = 3, cp = p[0] & 0x07;
	else
		return -1;
	if (left <= need)
		return -1;
	for (size_t i = 1; i <= need; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff)
		return -1;
	*len = need + 1;
	return cp;
}

static const char *
bad_cp(long cp)
{
	if (cp < 0)
		return "a byte that is not UTF-8";
	if ((cp < 0x20 && cp != '\n') || cp == 0x7f)
		return "a control character";
	if (cp >= 0x80 && cp < 0xa0)
		return "a C1 control";
	if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	    cp == 0x200e || cp == 0x200f || cp == 0x061c)
		return "a bidirectional control";
	if ((cp >= 0x200b && cp <= 0x200d) || (cp >= 0x2060 &&
	    cp <= 0x2064) || cp == 0xfeff)
		return "a zero-width character";
	if (cp >= 0x0300 && cp <= 0x036f)
		return "a combining mark";
	return NULL;
}

int
hostile_clean(const char *s, size_t n, char *why, size_t whylen)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0, len = 1; i < n; i += len) {
		long cp = utf8_at(p + i, n - i, &len);
		const char *what = bad_cp(cp);

		if (what != NULL) {
			size_t from = i > 30 ? i - 30 : 0;

			snprintf(why, whylen, "%s (0x%lx) at byte %zu, after "
			    "'%.*s'", what, cp < 0 ? (long)p[i] : cp, i,
			    (int)(i - from), s + from);
			return -1;
		}
	}
	return 0;
}
