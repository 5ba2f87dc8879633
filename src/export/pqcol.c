/*
 * pqcol.c: see pqcol.h. A data page v1 is [repetition levels]
 * [definition levels] [values], each level run prefixed by its length
 * (4 bytes, little-endian), compressed as one block; indices into the
 * dictionary are their bit width (1 byte) and the RLE hybrid. The
 * dictionary page holds the dictionary's entries PLAIN, in index order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "base/vec.h"
#include "export/pqcol.h"
#include "export/rle.h"

#define ZSTD_LEVEL	1
#define MINMAX_MAX	256	/* longer byte arrays: no min and max */

enum { T_BOOLEAN = 0, T_INT32 = 1, T_INT64 = 2, T_DOUBLE = 5,
	T_BYTE_ARRAY = 6, T_FIXED = 7 };
enum { E_PLAIN = 0, E_RLE = 3, E_RLE_DICTIONARY = 8 };
enum { P_DATA = 0, P_DICTIONARY = 2 };
enum { CODEC_ZSTD = 6 };

int
d9x_kind_physical(enum d9x_kind k)
{
	switch (k) {
	case D9X_BOOL:
		return T_BOOLEAN;
	case D9X_U8:
	case D9X_U32:
		return T_INT32;
	case D9X_I64:
	case D9X_U64:
		return T_INT64;
	case D9X_DOUBLE:
		return T_DOUBLE;
	case D9X_STRING:
		return T_BYTE_ARRAY;
	case D9X_ID16:
		return T_FIXED;
	}
	return T_INT64;
}

static int
is_bytes(enum d9x_kind k)
{
	return k == D9X_STRING || k == D9X_ID16;
}

void
d9x_col_init(struct d9x_col *c, enum d9x_kind kind, int max_def,
    int max_rep)
{
	memset(c, 0, sizeof *c);
	c->kind = kind;
	c->max_def = max_def;
	c->max_rep = max_rep;
	c->fixed = kind == D9X_ID16 ? 16 : 0;
	d9_arena_init(&c->arena, 64 << 10);
	d9_intern_init(&c->dict, &c->arena);
	c->dict_on = is_bytes(kind);
	c->last = D9_NONE;
}

void
d9x_col_free(struct d9x_col *c)
{
	free(c->def);
	free(c->rep);
	free(c->idx);
	d9x_bytes_free(&c->vals);
	d9x_bytes_free(&c->pages);
	d9x_bytes_free(&c->dict_page);
	d9x_bytes_free(&c->min_b);
	d9x_bytes_free(&c->max_b);
	d9x_bytes_free(&c->konst);
	d9_intern_free(&c->dict);
	d9_arena_free(&c->arena);
	memset(c, 0, sizeof *c);
}

/* Bytes of one PLAIN value of fixed width, 0 for a byte array. */
static size_t
width(enum d9x_kind k)
{
	switch (k) {
	case D9X_BOOL:
		return 1;
	case D9X_U8:
	case D9X_U32:
		return 4;
	case D9X_I64:
	case D9X_U64:
	case D9X_DOUBLE:
		return 8;
	default:
		return 0;
	}
}

void
d9x_col_expect(struct d9x_col *c, size_t n)
{
	size_t w = width(c->kind), cap = c->caplev;

	/* a page closes once its values pass D9X_PAGE_BYTES */
	if (w > 0 && n > D9X_PAGE_BYTES / w)
		n = D9X_PAGE_BYTES / w;
	else if (n > D9X_PAGE_BYTES / 4)
		n = D9X_PAGE_BYTES / 4;		/* dictionary indices */
	if (w > 0)
		(void)d9x_bytes_room(&c->vals, n * w + 8);
	if (c->dict_on && !c->is_const && d9_grow(&c->idx, &c->capidx, n,
	    sizeof *c->idx) < 0)
		c->vals.oom = 1;
	if ((c->max_def > 0 || c->max_rep > 0) && (d9_grow(&c->def,
	    &c->caplev, n, sizeof *c->def) < 0 || (c->max_rep > 0 &&
	    d9_grow(&c->rep, &cap, n, sizeof *c->rep) < 0)))
		c->vals.oom = 1;
}

int
d9x_col_levels_grow(struct d9x_col *c)
{
	size_t cap = c->caplev;

	if (d9_grow(&c->def, &c->caplev, c->nlev + 1, sizeof *c->def) < 0 ||
	    (c->max_rep > 0 && d9_grow(&c->rep, &cap, c->nlev + 1,
	    sizeof *c->rep) < 0)) {
		c->vals.oom = 1;
		return -1;
	}
	return 0;
}

void
d9x_col_dbl(struct d9x_col *c, double v)
{
	uint64_t u;

	c->nvals++;
	memcpy(&u, &v, 8);
	d9x_bytes_le64(&c->vals, u);
	if (isnan(v))
		return;
	if (!c->have_minmax) {
		c->min_d = c->max_d = v;
		c->have_minmax = 1;
	}
	c->min_d = v < c->min_d ? v : c->min_d;
	c->max_d = v > c->max_d ? v : c->max_d;
}

static int
bytes_cmp(const void *a, size_t an, const void *b, size_t bn)
{
	int r = memcmp(a, b, an < bn ? an : bn);

	return r != 0 ? r : an < bn ? -1 : an > bn;
}

static void
stat_bytes(struct d9x_col *c, const void *p, size_t n)
{
	if (c->have_minmax < 0)
		return;
	if (n > MINMAX_MAX) {
		c->have_minmax = -1;		/* no min and max at all */
		return;
	}
	if (!c->have_minmax || bytes_cmp(p, n, c->min_b.p, c->min_b.n) < 0) {
		d9x_bytes_reset(&c->min_b);
		d9x_bytes_put(&c->min_b, p, n);
	}
	if (!c->have_minmax || bytes_cmp(p, n, c->max_b.p, c->max_b.n) > 0) {
		d9x_bytes_reset(&c->max_b);
		d9x_bytes_put(&c->max_b, p, n);
	}
	c->have_minmax = 1;
}

void
d9x_col_bytes(struct d9x_col *c, const void *p, size_t n)
{
	uint32_t ln;
	const char *lp = c->last == D9_NONE ? NULL : d9_intern_str(&c->dict,
	    c->last, &ln);

	c->nvals++;
	if (c->dict_on && lp != NULL && ln == n && memcmp(lp, p, n) == 0) {
		/* the value before again: in the statistics already */
		if (d9_grow(&c->idx, &c->capidx, c->nidx + 1,
		    sizeof *c->idx) < 0) {
			c->vals.oom = 1;
			return;
		}
		c->idx[c->nidx++] = c->last;
		return;
	}
	stat_bytes(c, p, n);
	if (c->dict_on) {
		size_t had = c->dict.n;
		uint32_t id = d9_intern(&c->dict, p, n);

		if (id == D9_NONE || d9_grow(&c->idx, &c->capidx, c->nidx + 1,
		    sizeof *c->idx) < 0) {
			c->vals.oom = 1;
			return;
		}
		c->idx[c->nidx++] = id;
		c->last = id;
		if (c->dict.n > had)
			c->dict_bytes += n + 4;
		return;
	}
	if (c->fixed == 0)
		d9x_bytes_le32(&c->vals, (uint32_t)n);
	d9x_bytes_put(&c->vals, p, n);
}

/* The constant's place in a fresh chunk: index 0, and its statistics. */
static void
const_chunk(struct d9x_col *c)
{
	c->dict_bytes = c->konst.n + 4;
	if (d9_intern(&c->dict, c->konst.p, c->konst.n) == D9_NONE)
		c->vals.oom = 1;
	stat_bytes(c, c->konst.p, c->konst.n);
}

void
d9x_col_const(struct d9x_col *c, const void *p, size_t n)
{
	if (!c->dict_on || c->max_def > 0 || c->num_values > 0)
		return;			/* a bug: not a column for it */
	d9x_bytes_put(&c->konst, p, n);
	c->is_const = !c->konst.oom;
	if (c->is_const)
		const_chunk(c);
}

static void
put_levels(struct d9x_bytes *raw, const uint32_t *lev, size_t n, int max)
{
	size_t at;

	if (max == 0)
		return;
	d9x_bytes_le32(raw, 0);		/* the length, filled below */
	at = raw->n;
	d9x_rle_put(raw, lev, n, d9x_bit_width((uint32_t)max));
	if (!raw->oom) {
		uint32_t len = (uint32_t)(raw->n - at);

		raw->p[at - 4] = (uint8_t)len;
		raw->p[at - 3] = (uint8_t)(len >> 8);
		raw->p[at - 2] = (uint8_t)(len >> 16);
		raw->p[at - 1] = (uint8_t)(len >> 24);
	}
}

/* Compress raw into the chunk (dst) after the page header of type
 * (a data page of n entries in encoding enc, or a dictionary page of n
 * entries). */
static int
put_page(struct d9x_col *c, struct d9x_bytes *dst, void *cctx,
    const struct d9x_bytes *raw, int type, size_t n, int enc)
{
	struct d9x_bytes hdr = { 0 };
	struct d9x_thrift t;
	size_t bound = ZSTD_compressBound(raw->n), z;
	int rc = -1;

	if (raw->oom || raw->n > INT32_MAX || d9x_bytes_room(dst,
	    bound + 64) < 0)
		goto out;
	z = ZSTD_compressCCtx(cctx, dst->p + dst->n + 64, bound,
	    raw->p, raw->n, ZSTD_LEVEL);
	if (ZSTD_isError(z))
		goto out;
	d9x_th_init(&t, &hdr);
	d9x_th_i32(&t, 1, type);
	d9x_th_i32(&t, 2, (int32_t)raw->n);
	d9x_th_i32(&t, 3, (int32_t)z);
	if (type == P_DATA) {
		d9x_th_struct(&t, 5);
		d9x_th_i32(&t, 1, (int32_t)n);
		d9x_th_i32(&t, 2, enc);
		d9x_th_i32(&t, 3, E_RLE);
		d9x_th_i32(&t, 4, E_RLE);
	} else {
		d9x_th_struct(&t, 7);
		d9x_th_i32(&t, 1, (int32_t)n);
		d9x_th_i32(&t, 2, E_PLAIN);
	}
	d9x_th_end(&t);
	d9x_th_end(&t);
	if (hdr.oom || hdr.n > 64)
		goto out;
	/* the header goes before the compressed bytes, already placed */
	memmove(dst->p + dst->n + hdr.n, dst->p + dst->n + 64, z);
	memcpy(dst->p + dst->n, hdr.p, hdr.n);
	dst->n += hdr.n + z;
	c->raw_size += hdr.n + raw->n;
	rc = 0;
out:
	d9x_bytes_free(&hdr);
	return rc;
}

int
d9x_col_page(struct d9x_col *c, void *cctx)
{
	struct d9x_bytes raw = { 0 };
	int enc = c->dict_on ? E_RLE_DICTIONARY : E_PLAIN, rc;
	size_t n = c->max_def || c->max_rep ? c->nlev : c->nvals;

	if (c->vals.oom)
		return -1;
	if (c->is_const) {
		if (c->nconst == 0)
			return 0;
		/* indices all 0: width 1, one RLE run */
		d9x_bytes_u8(&raw, 1);
		d9x_bytes_uleb(&raw, (uint64_t)c->nconst << 1);
		d9x_bytes_u8(&raw, 0);
		c->dict_used = 1;
		rc = put_page(c, &c->pages, cctx, &raw, P_DATA, c->nconst,
		    E_RLE_DICTIONARY);
		d9x_bytes_free(&raw);
		c->nconst = 0;
		return rc;
	}
	if (n == 0 && c->nvals == 0)
		return 0;
	if (c->max_def == 0 && c->max_rep == 0 && !c->dict_on &&
	    c->kind != D9X_BOOL) {
		/* the page is its PLAIN values alone: compressed from there */
		c->plain_used = 1;
		rc = put_page(c, &c->pages, cctx, &c->vals, P_DATA, n, enc);
		c->nvals = 0;
		d9x_bytes_reset(&c->vals);
		return rc;
	}
	/* room for it all at once: levels (5 bytes a run at most), then
	 * indices or values */
	(void)d9x_bytes_room(&raw, 5 * (c->nlev + 2) + 4 * c->nidx +
	    c->vals.n + 16);
	put_levels(&raw, c->rep, c->nlev, c->max_rep);
	put_levels(&raw, c->def, c->nlev, c->max_def);
	if (c->dict_on) {
		unsigned w = d9x_bit_width(c->dict.n ? (uint32_t)c->dict.n - 1
		    : 0);

		w = w ? w : 1;
		d9x_bytes_u8(&raw, (uint8_t)w);
		d9x_rle_put(&raw, c->idx, c->nidx, w);
		c->dict_used = 1;
	} else if (c->kind == D9X_BOOL) {
		d9x_bits_put(&raw, c->vals.p, c->vals.n);
		c->plain_used = 1;
	} else {
		d9x_bytes_put(&raw, c->vals.p, c->vals.n);
		c->plain_used = 1;
	}
	rc = put_page(c, &c->pages, cctx, &raw, P_DATA, n, enc);
	d9x_bytes_free(&raw);
	/* a dictionary grown too large: PLAIN for the rest of the chunk */
	if (c->dict_on && (c->dict_bytes >= D9X_DICT_MAX_BYTES ||
	    c->dict.n >= D9X_DICT_MAX_N))
		c->dict_on = 0;
	c->nlev = c->nidx = c->nvals = 0;
	d9x_bytes_reset(&c->vals);
	return rc;
}

int
d9x_col_finish(struct d9x_col *c, void *cctx)
{
	struct d9x_bytes raw = { 0 };
	int rc;

	if (d9x_col_page(c, cctx) < 0)
		return -1;
	d9x_bytes_reset(&c->dict_page);
	if (!c->dict_used)
		return 0;
	(void)d9x_bytes_room(&raw, c->dict_bytes + 16);	/* all at once */
	for (size_t i = 0; i < c->dict.n; i++) {
		uint32_t len;
		const char *p = d9_intern_str(&c->dict, (uint32_t)i, &len);

		if (c->fixed == 0)
			d9x_bytes_le32(&raw, len);
		d9x_bytes_put(&raw, p, len);
	}
	rc = put_page(c, &c->dict_page, cctx, &raw, P_DICTIONARY, c->dict.n,
	    E_PLAIN);
	d9x_bytes_free(&raw);
	return rc;
}

/* Statistics' min and max of the chunk as Parquet writes them. */
static void
put_minmax(const struct d9x_col *c, struct d9x_thrift *t)
{
	struct d9x_bytes lo = { 0 }, hi = { 0 };

	switch (c->kind) {
	case D9X_BOOL:
		d9x_bytes_u8(&hi, (uint8_t)c->max_u);
		d9x_bytes_u8(&lo, (uint8_t)c->min_u);
		break;
	case D9X_U8:
	case D9X_U32:
		d9x_bytes_le32(&hi, (uint32_t)c->max_u);
		d9x_bytes_le32(&lo, (uint32_t)c->min_u);
		break;
	case D9X_I64:
	case D9X_U64:
		d9x_bytes_le64(&hi, c->max_u);
		d9x_bytes_le64(&lo, c->min_u);
		break;
	case D9X_DOUBLE: {
		/* zeros: -0.0 as a min, +0.0 as a max (the spec's rule) */
		double mn = c->min_d == 0 ? -0.0 : c->min_d;
		double mx = c->max_d == 0 ? 0.0 : c->max_d;
		uint64_t u;

		memcpy(&u, &mx, 8);
		d9x_bytes_le64(&hi, u);
		memcpy(&u, &mn, 8);
		d9x_bytes_le64(&lo, u);
		break;
	}
	default:
		d9x_bytes_put(&hi, c->max_b.p, c->max_b.n);
		d9x_bytes_put(&lo, c->min_b.p, c->min_b.n);
		break;
	}
	d9x_th_bin(t, 5, hi.p, hi.n);
	d9x_th_bin(t, 6, lo.p, lo.n);
	d9x_bytes_free(&lo);
	d9x_bytes_free(&hi);
}

void
d9x_col_meta(const struct d9x_col *c, struct d9x_thrift *t, int64_t dict_off,
    int64_t data_off)
{
	int enc[3], ne = 0;

	enc[ne++] = E_RLE;
	if (c->plain_used || c->dict_used)
		enc[ne++] = E_PLAIN;	/* values, or the dictionary page */
	if (c->dict_used)
		enc[ne++] = E_RLE_DICTIONARY;
	d9x_th_i32(t, 1, d9x_kind_physical(c->kind));
	d9x_th_list(t, 2, D9X_TH_I32, (size_t)ne);
	for (int i = 0; i < ne; i++)
		d9x_th_elem_i32(t, enc[i]);
	d9x_th_list(t, 3, D9X_TH_BINARY, (size_t)c->npath);
	for (int i = 0; i < c->npath; i++)
		d9x_th_elem_bin(t, c->path[i], strlen(c->path[i]));
	d9x_th_i32(t, 4, CODEC_ZSTD);
	d9x_th_i64(t, 5, (int64_t)c->num_values);
	d9x_th_i64(t, 6, (int64_t)c->raw_size);
	d9x_th_i64(t, 7, (int64_t)(c->pages.n + c->dict_page.n));
	d9x_th_i64(t, 9, data_off);
	if (dict_off >= 0)
		d9x_th_i64(t, 11, dict_off);
	d9x_th_struct(t, 12);
	d9x_th_i64(t, 3, (int64_t)c->null_count);
	if (c->have_minmax > 0)
		put_minmax(c, t);
	d9x_th_end(t);
}

void
d9x_col_reset(struct d9x_col *c)
{
	d9x_bytes_reset(&c->pages);
	d9x_bytes_reset(&c->dict_page);
	d9_intern_free(&c->dict);
	d9_arena_reset(&c->arena);
	d9_intern_init(&c->dict, &c->arena);
	c->dict_on = is_bytes(c->kind);
	c->last = D9_NONE;
	c->dict_used = c->plain_used = 0;
	c->dict_bytes = 0;
	c->num_values = c->raw_size = c->null_count = 0;
	c->have_minmax = 0;
	if (c->is_const)
		const_chunk(c);
}
