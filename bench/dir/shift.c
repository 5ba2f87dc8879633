/*
 * shift.c: see shift.h. The walk copies the input in runs: `copied`
 * marks how far the input has been written; a changed value writes the
 * run before it, then its new bytes, and moves `copied` past the old
 * ones. A batch's state (its schemas, the timestamp base and whether
 * that base is a moved time) is cleared at every TRC header.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/schemas.h"
#include "base/wire.h"
#include "shift.h"

#define MAX_DEPTH	8	/* nesting of dynamic lists and maps */
#define LEB_MAX		10

enum { T_NONE, T_NS, T_START };	/* what time a field holds */

struct sfield {
	uint8_t		 tag;		/* wire type, optional bit included */
	uint8_t		 time;		/* T_* */
	uint64_t	 unit;		/* ns per unit of a T_START field */
};

struct sschema {
	uint8_t		 has_ts, symbol;
	uint16_t	 n;
	struct sfield	 f[];
};

struct shifter {
	const uint8_t	*p;
	size_t		 n;
	int64_t		 shift;
	const struct d9b_shift_out *out;
	struct d9b_shift_stats *st;
	struct d9_err	*e;
	size_t		 copied;	/* input written up to here */
	uint64_t	 base;		/* timestamp base, unshifted */
	int		 moved;		/* the output's base is moved */
	int		 started;	/* a header was seen */
	uint16_t	*used;		/* ids set in by_id */
	size_t		 nused;
	struct sschema	*by_id[65536];
};

static int
put(struct shifter *s, const uint8_t *p, size_t n)
{
	if (n > 0 && s->out->write(s->out->ctx, p, n) < 0)
		return d9_err_set(s->e, D9_ERR_IO, 0, "write error");
	return 0;
}

/* Write the input up to pos, then bytes instead of p[pos, end). */
static int
replace(struct shifter *s, size_t pos, size_t end, const uint8_t *bytes,
    size_t n)
{
	if (put(s, s->p + s->copied, pos - s->copied) < 0 ||
	    put(s, bytes, n) < 0)
		return -1;
	s->copied = end;
	return 0;
}

static int
short_frame(struct shifter *s, size_t pos)
{
	return d9_err_set(s->e, D9_ERR_TRUNCATED, pos,
	    "frame cut off at the end of the trace");
}

/* v moved by the shift counted in units of unit ns. */
static int
move(struct shifter *s, uint64_t v, uint64_t unit, size_t pos, uint64_t *out)
{
	uint64_t mag = s->shift < 0 ? (uint64_t)(-(s->shift + 1)) + 1 :
	    (uint64_t)s->shift;

	if (mag % unit != 0)
		return d9_err_set(s->e, D9_ERR_BAD_VALUE, pos,
		    "a time in units of %llu ns cannot move by %lld ns",
		    (unsigned long long)unit, (long long)s->shift);
	mag /= unit;
	if (s->shift >= 0 ? v > UINT64_MAX - mag : v < mag)
		return d9_err_set(s->e, D9_ERR_BAD_VALUE, pos,
		    "time %llu moved by %lld ns leaves the 64-bit range",
		    (unsigned long long)v, (long long)s->shift);
	*out = s->shift >= 0 ? v + mag : v - mag;
	return 0;
}

static void
le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void
forget(struct shifter *s)
{
	for (size_t i = 0; i < s->nused; i++) {
		free(s->by_id[s->used[i]]);
		s->by_id[s->used[i]] = NULL;
	}
	s->nused = 0;
	s->base = 0;
	s->moved = 0;
}

static int
frame_header(struct shifter *s, struct d9_buf *b)
{
	size_t pos = b->pos;
	const uint8_t *h;

	if (d9_buf_bytes(b, D9_HEADER_LEN, &h) < 0 ||
	    memcmp(h, "TRC\0", D9_MAGIC_LEN) != 0) {
		if (s->started)
			return d9_err_set(s->e, D9_ERR_BAD_TAG, pos,
			    "unknown frame tag 0x%02x", b->p[pos]);
		return d9_err_set(s->e, D9_ERR_BAD_MAGIC, pos,
		    "not a dial9 trace (no TRC header)");
	}
	if (h[4] != D9_VERSION)
		return d9_err_set(s->e, D9_ERR_BAD_VERSION, pos + 4,
		    "format version %u, only version %u is known", h[4],
		    D9_VERSION);
	forget(s);
	s->started = 1;
	return 0;
}

/* What time field `name` of a schema of kind k holds. */
static uint8_t
field_time(enum d9_schema k, const uint8_t *name, uint16_t len)
{
	static const struct {
		enum d9_schema	 k;
		const char	*name;
	} times[] = {
		{ D9_SCH_CLOCK_SYNC, "realtime_ns" },
		{ D9_SCH_FREE, "alloc_timestamp_ns" },
		{ D9_SCH_SPAN_CLOSE, "start_timestamp_ns" },
		{ D9_SCH_SPAN_CLOSE, "first_enter_timestamp_ns" },
	};

	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
		if (times[i].k == k && strlen(times[i].name) == len &&
		    memcmp(times[i].name, name, len) == 0)
			return T_NS;
	return T_NONE;
}

static int
frame_schema(struct shifter *s, struct d9_buf *b)
{
	uint16_t id, nlen, nf, flen;
	uint8_t has_ts, tag;
	const uint8_t *name, *fname;
	char *cname;
	enum d9_schema k;
	struct sschema *sc;
	size_t pos = b->pos;

	if (d9_buf_u16(b, &id) < 0 || d9_buf_u16(b, &nlen) < 0 ||
	    d9_buf_bytes(b, nlen, &name) < 0 || d9_buf_u8(b, &has_ts) < 0 ||
	    d9_buf_u16(b, &nf) < 0)
		return short_frame(s, pos);
	if ((cname = malloc((size_t)nlen + 1)) == NULL)
		return d9_err_set(s->e, D9_ERR_NOMEM, 0, "out of memory");
	memcpy(cname, name, nlen);
	cname[nlen] = '\0';
	k = d9_schema_find(cname);
	free(cname);
	if ((sc = calloc(1, sizeof *sc + nf * sizeof sc->f[0])) == NULL)
		return d9_err_set(s->e, D9_ERR_NOMEM, 0, "out of memory");
	sc->has_ts = has_ts != 0;
	sc->symbol = k == D9_SCH_SYMBOL;
	sc->n = nf;
	for (uint16_t i = 0; i < nf; i++) {
		pos = b->pos;
		if (d9_buf_u16(b, &flen) < 0 ||
		    d9_buf_bytes(b, flen, &fname) < 0 ||
		    d9_buf_u8(b, &tag) < 0) {
			free(sc);
			return short_frame(s, pos);
		}
		if ((tag & ~D9_FT_OPTIONAL) < 1 ||
		    (tag & ~D9_FT_OPTIONAL) > D9_FT_MAX) {
			free(sc);
			return d9_err_set(s->e, D9_ERR_BAD_SCHEMA, b->pos - 1,
			    "unknown field type 0x%02x", tag);
		}
		sc->f[i].tag = tag;
		sc->f[i].time = field_time(k, fname, flen);
		sc->f[i].unit = 1;
	}
	if (s->by_id[id] == NULL)
		s->used[s->nused++] = id;
	free(s->by_id[id]);
	s->by_id[id] = sc;
	return 0;
}

/* ns per unit of a single-event span's start (build_spans.c: ns, us,
 * ms, s; none is ns), 0 for another. */
static uint64_t
unit_ns(const uint8_t *v, uint32_t len)
{
	static const struct {
		const char	*name;
		uint64_t	 ns;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
	    { "s", 1000000000 } };

	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strlen(units[i].name) == len &&
		    memcmp(units[i].name, v, len) == 0)
			return units[i].ns;
	return 0;
}

static int
same(const uint8_t *p, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(p, s, n) == 0;
}

/* Annotations: a single-event span's start field and its unit. */
static int
frame_annotations(struct shifter *s, struct d9_buf *b)
{
	uint64_t id;
	uint16_t count, field, klen;
	uint32_t vlen;
	const uint8_t *k, *v;
	struct sschema *sc;
	size_t pos = b->pos;
	int rc = d9_buf_leb128(b, &id);

	if (rc == -1)
		return short_frame(s, pos);
	if (rc < 0)
		return d9_err_set(s->e, D9_ERR_BAD_FRAME, pos,
		    "bad varint in annotation frame");
	if (d9_buf_u16(b, &count) < 0)
		return short_frame(s, pos);
	sc = id < 65536 ? s->by_id[id] : NULL;
	for (uint16_t i = 0; i < count; i++) {
		pos = b->pos;
		if (d9_buf_u16(b, &field) < 0 || d9_buf_u16(b, &klen) < 0 ||
		    d9_buf_bytes(b, klen, &k) < 0 ||
		    d9_buf_u32(b, &vlen) < 0 || d9_buf_bytes(b, vlen, &v) < 0)
			return short_frame(s, pos);
		if (sc == NULL || field >= sc->n)
			continue;
		if (same(k, klen, D9_ANN_ROLE) &&
		    same(v, vlen, D9_ROLE_SPAN_START))
			sc->f[field].time = T_START;
		else if (same(k, klen, "unit") || same(k, klen,
		    "metrique.unit"))
			sc->f[field].unit = unit_ns(v, vlen);
	}
	return 0;
}

static int
frame_pool(struct shifter *s, struct d9_buf *b, uint64_t unit)
{
	uint32_t count, id, len;
	size_t pos = b->pos;

	if (d9_buf_u32(b, &count) < 0)
		return short_frame(s, pos);
	for (uint32_t i = 0; i < count; i++) {
		if (d9_buf_u32(b, &id) < 0 || d9_buf_u32(b, &len) < 0 ||
		    (uint64_t)len * unit > d9_buf_left(b))
			return short_frame(s, pos);
		d9_buf_skip(b, (size_t)len * unit);
	}
	return 0;
}

static int
frame_reset(struct shifter *s, struct d9_buf *b)
{
	size_t pos = b->pos;
	uint64_t v, nv;
	uint8_t enc[8];

	if (d9_buf_u64(b, &v) < 0)
		return short_frame(s, pos);
	s->base = v;
	s->moved = v != 0;
	if (v == 0 || s->shift == 0)
		return 0;	/* the appendix's reset stays */
	if (move(s, v, 1, pos, &nv) < 0)
		return -1;
	le64(enc, nv);
	s->st->resets++;
	return replace(s, pos, b->pos, enc, sizeof enc);
}

static int skip_value(struct shifter *s, struct d9_buf *b, uint8_t tag,
    int depth);

static int
skip_dyn(struct shifter *s, struct d9_buf *b, int map, int depth)
{
	size_t pos = b->pos;
	uint32_t n;
	uint8_t tag;

	if (depth >= MAX_DEPTH)
		return d9_err_set(s->e, D9_ERR_BAD_VALUE, pos,
		    "dynamic values nested deeper than %d", MAX_DEPTH);
	if (d9_buf_u32(b, &n) < 0)
		return short_frame(s, pos);
	for (uint64_t i = 0; i < (uint64_t)n * (map ? 2 : 1); i++) {
		pos = b->pos;
		if (d9_buf_u8(b, &tag) < 0)
			return short_frame(s, pos);
		if ((tag & ~D9_FT_OPTIONAL) < 1 ||
		    (tag & ~D9_FT_OPTIONAL) > D9_FT_MAX)
			return d9_err_set(s->e, D9_ERR_BAD_VALUE, pos,
			    "unknown field type 0x%02x", tag);
		if (skip_value(s, b, tag, depth + 1) < 0)
			return -1;
	}
	return 0;
}

/* Skip one value of wire type tag (optional bit included). */
static int
skip_value(struct shifter *s, struct d9_buf *b, uint8_t tag, int depth)
{
	size_t pos = b->pos;
	uint8_t u8;
	uint32_t n;
	uint64_t u;
	int rc;

	if (tag & D9_FT_OPTIONAL) {
		if (d9_buf_u8(b, &u8) < 0)
			return short_frame(s, pos);
		if (u8 == 0)
			return 0;
	}
	switch (tag & ~D9_FT_OPTIONAL) {
	case D9_FT_I64: case D9_FT_F64:
		rc = d9_buf_skip(b, 8);
		break;
	case D9_FT_BOOL: case D9_FT_U8:
		rc = d9_buf_skip(b, 1);
		break;
	case D9_FT_U16:
		rc = d9_buf_skip(b, 2);
		break;
	case D9_FT_U32: case D9_FT_POOLED_STACK: case D9_FT_POOLED_STRING:
		rc = d9_buf_skip(b, 4);
		break;
	case D9_FT_VARINT:
		if ((rc = d9_buf_leb128(b, &u)) == -2)
			return d9_err_set(s->e, D9_ERR_BAD_VALUE, pos,
			    "varint longer than 10 bytes or above 2^64");
		break;
	case D9_FT_STRING: case D9_FT_BYTES:
		rc = d9_buf_u32(b, &n) < 0 ? -1 : d9_buf_skip(b, n);
		break;
	case D9_FT_STACK:
		rc = d9_buf_u32(b, &n) < 0 ? -1 : d9_buf_skip(b, (size_t)n * 8);
		break;
	case D9_FT_STRING_MAP:
		if (d9_buf_u32(b, &n) < 0)
			return short_frame(s, pos);
		rc = 0;
		for (uint64_t i = 0; rc == 0 && i < (uint64_t)n * 2; i++) {
			uint32_t l;

			rc = d9_buf_u32(b, &l) < 0 ? -1 : d9_buf_skip(b, l);
		}
		break;
	default:	/* dynamic list or map */
		return skip_dyn(s, b, (tag & ~D9_FT_OPTIONAL) == D9_FT_DYN_MAP,
		    depth);
	}
	return rc < 0 ? short_frame(s, pos) : 0;
}

/* Width of a fixed-width integer type, 0 for a varint, -1 for a type
 * that holds no time. */
static int
int_width(uint8_t t)
{
	switch (t) {
	case D9_FT_VARINT:
		return 0;
	case D9_FT_U8:
		return 1;
	case D9_FT_U16:
		return 2;
	case D9_FT_U32:
		return 4;
	case D9_FT_I64:
		return 8;
	default:
		return -1;
	}
}

/* Move the time a field holds; 0 (unset) stays 0. */
static int
move_field(struct shifter *s, struct d9_buf *b, const struct sfield *f)
{
	size_t pos = b->pos;
	uint8_t t = f->tag & ~D9_FT_OPTIONAL, u8, enc[LEB_MAX];
	int w = int_width(t);
	uint64_t v = 0, nv;
	size_t n = 0;

	if (f->tag & D9_FT_OPTIONAL) {
		if (d9_buf_u8(b, &u8) < 0)
			return short_frame(s, pos);
		if (u8 == 0)
			return 0;
		pos = b->pos;
	}
	if (w < 0 || f->unit == 0)
		return d9_err_set(s->e, D9_ERR_BAD_VALUE, pos, "a time in a "
		    "field of type %u or of an unknown unit cannot be moved",
		    t);
	if (w == 0) {
		int rc = d9_buf_leb128(b, &v);

		if (rc == -1)
			return short_frame(s, pos);
		if (rc < 0)
			return d9_err_set(s->e, D9_ERR_BAD_VALUE, pos,
			    "varint longer than 10 bytes or above 2^64");
	} else {
		if (d9_buf_left(b) < (size_t)w)
			return short_frame(s, pos);
		for (int i = w - 1; i >= 0; i--)
			v = v << 8 | b->p[b->pos + (size_t)i];
		b->pos += (size_t)w;
	}
	if (v == 0 || s->shift == 0)
		return 0;
	if (move(s, v, f->unit, pos, &nv) < 0)
		return -1;
	if (w == 0) {
		do {
			enc[n++] = (uint8_t)((nv & 0x7f) |
			    (nv > 0x7f ? 0x80 : 0));
			nv >>= 7;
		} while (nv > 0);
	} else {
		if (w < 8 && nv >> (8 * w) != 0)
			return d9_err_set(s->e, D9_ERR_BAD_VALUE, pos,
			    "time moved past its %d-byte field", w);
		for (n = 0; n < (size_t)w; n++)
			enc[n] = (uint8_t)(nv >> (8 * n));
	}
	s->st->fields++;
	return replace(s, pos, b->pos, enc, n);
}

static int
frame_event(struct shifter *s, struct d9_buf *b, size_t start)
{
	size_t pos = b->pos;
	uint16_t id;
	uint32_t delta = 0;
	struct sschema *sc;

	if (d9_buf_u16(b, &id) < 0)
		return short_frame(s, pos);
	if ((sc = s->by_id[id]) == NULL)
		return d9_err_set(s->e, D9_ERR_BAD_FRAME, pos,
		    "event uses unknown schema %u", id);
	if (sc->has_ts && d9_buf_u24(b, &delta) < 0)
		return short_frame(s, pos);
	if (sc->has_ts && !sc->symbol) {
		uint64_t ts = s->base + delta, nb;
		uint8_t reset[9] = { D9_TAG_TS_RESET };

		s->st->first = ts < s->st->first ? ts : s->st->first;
		s->st->last = ts > s->st->last ? ts : s->st->last;
		if (!s->moved && s->shift != 0) {
			/* no moved reset before it in this batch */
			if (move(s, s->base, 1, start, &nb) < 0)
				return -1;
			le64(reset + 1, nb);
			if (replace(s, start, start, reset, sizeof reset) < 0)
				return -1;
			s->st->inserted++;
			s->moved = 1;
		}
	}
	if (sc->has_ts)
		s->base += delta;
	for (uint16_t i = 0; i < sc->n; i++) {
		int rc = sc->f[i].time != T_NONE ?
		    move_field(s, b, &sc->f[i]) :
		    skip_value(s, b, sc->f[i].tag, 0);

		if (rc < 0)
			return -1;
	}
	s->st->events++;
	return 0;
}

static int
walk(struct shifter *s)
{
	struct d9_buf b = { s->p, s->n, 0 };

	while (b.pos < b.n) {
		size_t start = b.pos;
		uint8_t tag = b.p[b.pos];
		int rc;

		if (tag == D9_MAGIC0 || !s->started) {
			rc = frame_header(s, &b);
			if (rc < 0)
				return rc;
			continue;
		}
		b.pos++;
		switch (tag) {
		case D9_TAG_SCHEMA:
			rc = frame_schema(s, &b);
			break;
		case D9_TAG_EVENT:
			rc = frame_event(s, &b, start);
			break;
		case D9_TAG_STRING_POOL:
			rc = frame_pool(s, &b, 1);
			break;
		case D9_TAG_STACK_POOL:
			rc = frame_pool(s, &b, 8);
			break;
		case D9_TAG_TS_RESET:
			rc = frame_reset(s, &b);
			break;
		case D9_TAG_ANNOTATIONS:
			rc = frame_annotations(s, &b);
			break;
		default:
			rc = d9_err_set(s->e, D9_ERR_BAD_TAG, start,
			    "unknown frame tag 0x%02x", tag);
			break;
		}
		if (rc < 0)
			return rc;
	}
	return put(s, s->p + s->copied, s->n - s->copied);
}

int
d9b_shift(const uint8_t *p, size_t n, int64_t shift,
    const struct d9b_shift_out *out, struct d9b_shift_stats *st,
    struct d9_err *e)
{
	struct shifter *s = calloc(1, sizeof *s);
	int rc;

	memset(st, 0, sizeof *st);
	st->first = UINT64_MAX;
	d9_err_clear(e);
	if (s == NULL || (s->used = malloc(65536 * sizeof *s->used)) == NULL) {
		free(s);
		return d9_err_set(e, D9_ERR_NOMEM, 0, "out of memory");
	}
	s->p = p;
	s->n = n;
	s->shift = shift;
	s->out = out;
	s->st = st;
	s->e = e;
	rc = walk(s);
	forget(s);
	free(s->used);
	free(s);
	return rc < 0 ? -e->code : 0;
}
