/*
 * decoder.c: frames are not length-prefixed, so a frame is decoded in
 * full before anything is committed: when its bytes run out mid-way the
 * frame is simply decoded again once more bytes have arrived. The only
 * side effects before the end of a frame are pool definitions, which are
 * idempotent when repeated.
 *
 * Counts and lengths from the wire are checked against the bytes left
 * before anything is sized by them. A count that exceeds the input by
 * more than SLACK bytes at the end is an error ("larger than the bytes
 * left"); a smaller shortfall is a frame cut off mid-write (truncation).
 *
 * Memory follows what is kept, not what the input declares (the stream
 * sets the limits, d9p_decoder_limit): a string or stack longer than the
 * limit is handed back as D9P_ELIDE before its bytes are needed, so the
 * caller keeps its head, drops the rest and decodes the frame again; the
 * pools of a batch keep at most pool_max bytes, later entries are left
 * undefined (their events show them unresolved). A pool frame is checked
 * whole before any entry is copied, so decoding it again as more bytes
 * arrive copies nothing twice.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/schemas.h"
#include "parse/decoder_int.h"


int
d9p_decoder_new(struct d9p_decoder **out, const struct d9p_sink *sink)
{
	struct d9p_decoder *d = calloc(1, sizeof *d);

	*out = d;
	if (d == NULL)
		return -D9_ERR_NOMEM;
	d->sink = *sink;
	d9_arena_init(&d->arena, 64 * 1024);
	d9p_pool_init(&d->strings);
	d9p_pool_init(&d->stacks);
	return 0;
}

static void
reset_state(struct d9p_decoder *d)
{
	for (size_t i = 0; i < d->nused; i++)
		d->by_id[d->used_ids[i]] = NULL;
	d->nused = 0;
	d9p_pool_clear(&d->strings);
	d9p_pool_clear(&d->stacks);
	d9_arena_reset(&d->arena);
	/* the cap holds per batch: its pools go with it */
	d->pool_bytes = 0;
	d->base = 0;
}

void
d9p_decoder_free(struct d9p_decoder **pd)
{
	struct d9p_decoder *d = *pd;

	if (d == NULL)
		return;
	d9_arena_free(&d->arena);
	d9p_pool_free(&d->strings);
	d9p_pool_free(&d->stacks);
	free(d->used_ids);
	free(d->vals);
	free(d);
	*pd = NULL;
}

void
d9p_decoder_restart(struct d9p_decoder *d)
{
	reset_state(d);
	d->started = 0;
	d->resync = 0;
}

void
d9p_decoder_resync(struct d9p_decoder *d)
{
	reset_state(d);
	d->resync = 1;
}

uint64_t
d9p_decoder_events(const struct d9p_decoder *d)
{
	return d->events;
}

uint64_t
d9p_decoder_batches(const struct d9p_decoder *d)
{
	return d->batches;
}

void
d9p_decoder_on_header(struct d9p_decoder *d, void (*fn)(void *, uint64_t),
    void *ctx)
{
	d->on_header = fn;
	d->on_header_ctx = ctx;
}

int
d9p_decoder_started(const struct d9p_decoder *d)
{
	return d->started;
}

void
d9p_decoder_limit(struct d9p_decoder *d, uint32_t keep, uint64_t pool_max)
{
	d->keep = keep;
	d->pool_max = pool_max;
}

void
d9p_decoder_gap(struct d9p_decoder *d, size_t pos, uint64_t bytes)
{
	d->gap_at = pos;
	d->gap = bytes;
}

const struct d9p_elision *
d9p_decoder_elision(const struct d9p_decoder *d)
{
	return &d->el;
}

uint64_t
d9p_decoder_pool_dropped(const struct d9p_decoder *d)
{
	return d->pool_dropped;
}

/*
 * The fields of a fixed schema's event (d9p_schema.fixed) from q, whose
 * bytes are all there (D9P_FIXED_MAX a field): the values
 * d9p_decode_value gives, without a bound checked nor the cursor kept
 * in memory between fields. Returns the bytes taken, or SIZE_MAX for a
 * varint over 2^64 or ten bytes: the checked path then decodes the
 * event again and says where.
 */
static size_t
fixed_fields(struct d9p_decoder *d, const struct d9p_schema *s,
    const uint8_t *q0, struct d9p_value *vals)
{
	const uint8_t *q = q0;

	for (uint16_t i = 0; i < s->nfields; i++) {
		uint8_t tag = s->wire[i], t = tag & (uint8_t)~D9_FT_OPTIONAL;
		struct d9p_value *v = &vals[i];
		uint64_t x = 0;

		v->type = t;
		v->unresolved = 0;
		v->count = 0;
		v->p = NULL;
		v->cache = NULL;
		v->present = 0;
		v->u = 0;
		if ((tag & D9_FT_OPTIONAL) && *q++ == 0)
			continue;
		v->present = 1;
		switch (t) {
		case D9_FT_VARINT:
			for (unsigned shift = 0; ; shift += 7) {
				uint8_t c = *q++;

				if (shift == 63 && (c & 0x7e))
					return SIZE_MAX;
				x |= (uint64_t)(c & 0x7f) << shift;
				if (!(c & 0x80))
					break;
				if (shift == 63)
					return SIZE_MAX;
			}
			break;
		case D9_FT_U8:
			x = q[0];
			q++;
			break;
		case D9_FT_BOOL:
			x = q[0] != 0;
			q++;
			break;
		case D9_FT_U16:
			x = (uint64_t)q[0] | (uint64_t)q[1] << 8;
			q += 2;
			break;
		case D9_FT_U32:
		case D9_FT_POOLED_STRING:
		case D9_FT_POOLED_STACK:
			x = (uint64_t)q[0] | (uint64_t)q[1] << 8 |
			    (uint64_t)q[2] << 16 | (uint64_t)q[3] << 24;
			q += 4;
			break;
		default:		/* I64, F64 */
			x = d9p_le64(q);
			q += 8;
		}
		v->u = x;
		if (t == D9_FT_POOLED_STRING || t == D9_FT_POOLED_STACK)
			d9p_pooled(d, t, (uint32_t)x, v);
	}
	return (size_t)(q - q0);
}

static int
frame_event(struct d9p_decoder *d, struct d9_buf *b)
{
	struct d9p_schema *s;
	size_t pos = b->pos;
	uint16_t id;
	uint32_t delta = 0;
	uint64_t ts;
	size_t used;
	int rc;

	if (d9_buf_u16(b, &id) < 0)
		return SHORT;
	s = d->by_id[id];
	if (s == NULL)
		return d9_err_set(d->e, D9_ERR_BAD_FRAME, at(d, pos),
		    "event uses unknown schema %u", id);
	if (s->has_ts && d9_buf_u24(b, &delta) < 0)
		return SHORT;
	if (s->fixed && d9_buf_left(b) / D9P_FIXED_MAX >= s->nfields &&
	    (used = fixed_fields(d, s, b->p + b->pos, d->vals)) != SIZE_MAX)
		b->pos += used;
	else
		for (uint16_t i = 0; i < s->nfields; i++)
			if ((rc = d9p_decode_value(d, b, s->wire[i],
			    &d->vals[i], 0)) != 0)
				return rc;
	ts = d->base + delta;
	if (s->has_ts)
		d->base = ts;
	d->events++;
	if (d->sink.event &&
	    d->sink.event(d->sink.ctx, s, ts, d->vals) < 0)
		return d9_err_set(d->e, D9_ERR_NOMEM, 0, "out of memory");
	return 0;
}

static int
frame_pool(struct d9p_decoder *d, struct d9_buf *b, int stacks)
{
	uint32_t count, id, len;
	size_t first;
	size_t unit = stacks ? 8 : 1;
	const uint8_t *p = NULL;
	uint8_t *copy;
	int rc;

	if ((rc = d9p_read_count(d, b, "pool entry count", 8, &count)) != 0)
		return rc;
	/* the whole frame first: an entry is copied once, when all are in */
	first = b->pos;
	for (uint32_t i = 0; i < count; i++) {
		if (d9_buf_u32(b, &id) < 0)
			return SHORT;
		if ((rc = d9p_read_len(d, b, stacks ? "stack frame count" :
		    "string length", unit, &len)) != 0)
			return rc;
		d9_buf_skip(b, (size_t)len * unit);
	}
	b->pos = first;
	for (uint32_t i = 0; i < count; i++) {
		d9_buf_u32(b, &id);
		d9_buf_u32(b, &len);
		d9_buf_bytes(b, (size_t)len * unit, &p);
		if (d->pool_max > 0 && d->pool_bytes + (uint64_t)len * unit >
		    d->pool_max) {
			d->pool_dropped++;
			continue;
		}
		d->pool_bytes += (uint64_t)len * unit;
		copy = d9_arena_memdup(&d->arena, p, (size_t)len * unit);
		if (copy == NULL || d9p_pool_put(stacks ? &d->stacks :
		    &d->strings, id, copy, len) < 0)
			return d9_err_set(d->e, D9_ERR_NOMEM, 0, "out of memory");
	}
	return 0;
}

/* The annotations a field keeps (FORMAT 2.8, 5), by key; the latest
 * value of a key wins. */
static const struct {
	const char	*key;
	size_t		 off;		/* of the value in struct d9p_field */
} kept[] = {
	{ "unit", offsetof(struct d9p_field, unit) },
	{ "metrique.unit", offsetof(struct d9p_field, unit) },
	{ D9_ANN_ROLE, offsetof(struct d9p_field, role) },
	{ D9_ANN_KIND, offsetof(struct d9p_field, kind) },
};

static int
keep_annotation(struct d9p_decoder *d, struct d9p_field *f, const char *k,
    uint16_t klen, const uint8_t *v, uint32_t vlen)
{
	for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
		char *copy;

		if (strlen(kept[i].key) != klen ||
		    memcmp(kept[i].key, k, klen) != 0)
			continue;
		if ((copy = d9_arena_strndup(&d->arena, v, vlen)) == NULL)
			return -1;
		*(const char **)(void *)((char *)f + kept[i].off) = copy;
		if (kept[i].off == offsetof(struct d9p_field, unit))
			f->unit_len = vlen;
		return 0;
	}
	return 0;
}

static int
frame_annotations(struct d9p_decoder *d, struct d9_buf *b)
{
	uint64_t id;
	uint16_t count;
	size_t pos = b->pos;
	int rc = d9_buf_leb128(b, &id);
	struct d9p_schema *s;

	if (rc == -1)
		return SHORT;
	if (rc < 0)
		return d9_err_set(d->e, D9_ERR_BAD_FRAME, at(d, pos),
		    "bad varint in annotation frame");
	if (d9_buf_u16(b, &count) < 0)
		return SHORT;
	s = id < 65536 ? d->by_id[id] : NULL;
	for (uint16_t i = 0; i < count; i++) {
		uint16_t field, klen;
		uint32_t vlen;
		const uint8_t *k, *v = NULL;

		if (d9_buf_u16(b, &field) < 0 || d9_buf_u16(b, &klen) < 0 ||
		    d9_buf_bytes(b, klen, &k) < 0)
			return SHORT;
		if ((rc = d9p_read_len(d, b, "annotation length", 1, &vlen)) != 0)
			return rc;
		d9_buf_bytes(b, vlen, &v);
		if (s == NULL || field >= s->nfields)
			continue;
		if (keep_annotation(d, &s->fields[field], (const char *)k, klen,
		    v, vlen) < 0)
			return d9_err_set(d->e, D9_ERR_NOMEM, 0,
			    "out of memory");
	}
	return 0;
}

static int
header(struct d9p_decoder *d, struct d9_buf *b)
{
	const uint8_t *h;
	size_t pos = b->pos;

	if (d9_buf_bytes(b, D9_HEADER_LEN, &h) < 0) {
		/* a partial header at the very end */
		if (d9_buf_left(b) > 0 && memcmp(b->p + pos, "TRC\0",
		    d9_buf_left(b) < D9_MAGIC_LEN ? d9_buf_left(b) :
		    D9_MAGIC_LEN) != 0)
			goto bad;
		return SHORT;
	}
	if (memcmp(h, "TRC\0", D9_MAGIC_LEN) != 0)
		goto bad;
	if (h[4] != D9_VERSION)
		return d9_err_set(d->e, D9_ERR_BAD_VERSION, at(d, pos + 4),
		    "format version %u, only version %u is known", h[4],
		    D9_VERSION);
	reset_state(d);
	d->started = 1;
	d->batches++;
	if (d->on_header)
		d->on_header(d->on_header_ctx, at(d, pos));
	if (d->sink.batch)
		d->sink.batch(d->sink.ctx, at(d, pos));
	return 0;
bad:
	if (!d->started)
		return d9_err_set(d->e, D9_ERR_BAD_MAGIC, at(d, pos),
		    "not a dial9 trace (no TRC header)");
	return d9_err_set(d->e, D9_ERR_BAD_TAG, at(d, pos),
	    "unknown frame tag 0x%02x", b->p[pos]);
}

static int
is_container_magic(const struct d9_buf *b)
{
	const uint8_t *p = b->p + b->pos;
	size_t n = d9_buf_left(b);

	if (p[0] == D9_GZIP_MAGIC0)
		return n < 2 ? -1 : p[1] == D9_GZIP_MAGIC1;
	if (p[0] == 0x28) {
		if (n < 4)
			return -1;
		return p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd;
	}
	return 0;
}

/*
 * Resynchronising: skip to the next header (TRC\0 and the version this
 * decoder knows) or, at from and later, a container magic. 0 found (at
 * b->pos), D9P_MORE when the bytes ran out (a candidate may go on in the
 * next ones).
 */
static int
skip_to_header(struct d9p_decoder *d, struct d9_buf *b, uint64_t from)
{
	static const uint8_t hdr[D9_HEADER_LEN] = { 'T', 'R', 'C', 0,
	    D9_VERSION };

	for (; b->pos < b->n; b->pos++) {
		const uint8_t *p = b->p + b->pos;
		size_t left = d9_buf_left(b);
		size_t k = left < D9_HEADER_LEN ? left : D9_HEADER_LEN;
		int m = 0;

		if (p[0] != D9_MAGIC0 && p[0] != D9_GZIP_MAGIC0 && p[0] != 0x28)
			continue;
		if (at(d, b->pos) >= from && (m = is_container_magic(b)) > 0)
			return 0;
		if (memcmp(p, hdr, k) == 0 && k == D9_HEADER_LEN) {
			d->resync = 0;
			return 0;
		}
		if (!d->eof && (m < 0 || memcmp(p, hdr, k) == 0))
			return D9P_MORE;	/* a candidate cut short */
	}
	return D9P_MORE;
}

int
d9p_decoder_feed(struct d9p_decoder *d, const uint8_t *p, size_t n,
    uint64_t off, int eof, uint64_t switch_from, size_t *used,
    struct d9_err *e)
{
	struct d9_buf b = { p, n, 0 };
	int rc = 0;

	d->p = p;
	d->off = off;
	d->eof = eof;
	d->e = e;
	*used = 0;
	while (b.pos < b.n) {
		size_t start;
		uint8_t tag;

		if (d->resync) {
			rc = skip_to_header(d, &b, switch_from);
			*used = b.pos;
			if (rc != 0)
				return d->eof ? 0 : rc;
			if (d->resync)
				return D9P_SWITCH;
		}
		start = b.pos;
		tag = b.p[b.pos];

		if (at(d, start) >= switch_from && d->started &&
		    (tag == D9_GZIP_MAGIC0 || tag == 0x28)) {
			int m = is_container_magic(&b);

			if (m < 0 && !eof)
				return D9P_MORE;
			if (m > 0)
				return D9P_SWITCH;
		}
		if (tag == D9_MAGIC0 || !d->started) {
			rc = header(d, &b);
		} else {
			b.pos++;
			switch (tag) {
			case D9_TAG_SCHEMA:
				rc = d9p_frame_schema(d, &b);
				break;
			case D9_TAG_EVENT:
				rc = frame_event(d, &b);
				break;
			case D9_TAG_STRING_POOL:
				rc = frame_pool(d, &b, 0);
				break;
			case D9_TAG_STACK_POOL:
				rc = frame_pool(d, &b, 1);
				break;
			case D9_TAG_TS_RESET:
				if (d9_buf_u64(&b, &d->base) < 0)
					rc = SHORT;
				break;
			case D9_TAG_ANNOTATIONS:
				rc = frame_annotations(d, &b);
				break;
			default:
				rc = d9_err_set(e, D9_ERR_BAD_TAG,
				    at(d, start), "unknown frame tag 0x%02x",
				    tag);
				break;
			}
		}
		if (rc != 0) {
			if (rc == D9P_MORE && e->code == 0)
				e->off = at(d, start);
			return rc;
		}
		*used = b.pos;
	}
	return 0;
}
