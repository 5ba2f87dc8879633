/*
 * fields.c: a field's value decoded with every check, for the decoder
 * (decoder.c, whose fixed path takes the events of numbers and pool ids
 * whose bytes are all there, and comes here for the rest and for what
 * goes wrong, said where): lengths
 * read from the wire are bounded (MAX_BLOB) and checked against the
 * bytes left before anything is sized by them; dynamic values nest at
 * most MAX_DEPTH deep; string maps are walked by d9p_map_next.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/schemas.h"
#include "parse/decoder_int.h"

#define MAX_BLOB	(256u << 20)	/* one string, bytes or stack */
#define MAX_DEPTH	8		/* nesting of dynamic lists/maps */

int
d9p_read_len(struct d9p_decoder *d, struct d9_buf *b, const char *what,
    uint64_t unit, uint32_t *len)
{
	size_t pos = b->pos;
	int rc;

	if (d9_buf_u32(b, len) < 0)
		return SHORT;
	if ((uint64_t)*len * unit > MAX_BLOB)
		return d9_err_set(d->e, D9_ERR_TOO_BIG, at(d, pos),
		    "%s %u is larger than the %u MiB limit", what, *len,
		    MAX_BLOB >> 20);
	if (d->eof && (rc = need(d, b, (uint64_t)*len * unit, what, *len,
	    pos)) < 0)
		return rc;	/* more than the input holds */
	if (d->keep > 0 && (uint64_t)*len * unit > d->keep &&
	    d9_buf_left(b) >= d->keep / unit * unit) {
		/* the part kept is there: the caller cuts the rest, whose
		 * bytes are never needed (a claim the input cannot hold is
		 * still told below, at its end) */
		d->el.pos = pos;
		d->el.count = *len;
		d->el.keep = (uint32_t)(d->keep / unit);
		d->el.unit = (uint32_t)unit;
		return D9P_ELIDE;
	}
	rc = need(d, b, (uint64_t)*len * unit, what, *len, pos);
	return rc;
}

int
d9p_read_count(struct d9p_decoder *d, struct d9_buf *b, const char *what,
    uint64_t least, uint32_t *n)
{
	size_t pos = b->pos;

	if (d9_buf_u32(b, n) < 0)
		return SHORT;
	return need(d, b, (uint64_t)*n * least, what, *n, pos);
}



/* Validate a DynamicList / DynamicMap body; elements carry their tags. */
static int
skip_dyn(struct d9p_decoder *d, struct d9_buf *b, int map, int depth)
{
	uint32_t n;
	int rc;
	size_t pos = b->pos;

	if (depth >= MAX_DEPTH)
		return d9_err_set(d->e, D9_ERR_BAD_VALUE, at(d, pos),
		    "dynamic values nested deeper than %d", MAX_DEPTH);
	/* every element takes at least 2 bytes (tag + 1) */
	if ((rc = d9p_read_count(d, b, "dynamic count", map ? 4 : 2,
	    &n)) != 0)
		return rc;
	for (uint32_t i = 0; i < n * (map ? 2u : 1u); i++) {
		struct d9p_value v;
		uint8_t tag;

		pos = b->pos;
		if (d9_buf_u8(b, &tag) < 0)
			return SHORT;
		if (!valid_type(tag))
			return d9_err_set(d->e, D9_ERR_BAD_VALUE, at(d, pos),
			    "unknown field type 0x%02x", tag);
		if ((rc = d9p_decode_value(d, b, tag, &v, depth + 1)) != 0)
			return rc;
	}
	return 0;
}

/*
 * Decode one value of wire type `tag` (optional bit included). Pooled ids
 * are resolved against the pools as they are now.
 */
int
d9p_decode_value(struct d9p_decoder *d, struct d9_buf *b, uint8_t tag,
    struct d9p_value *v, int depth)
{
	size_t pos = b->pos;
	uint8_t t = tag & (uint8_t)~D9_FT_OPTIONAL, u8;
	uint16_t u16;
	uint32_t u32;
	int rc;

	/* schemas were validated when registered; dynamic elements are
	 * checked here */
	v->type = t;
	v->present = 0;
	v->unresolved = 0;
	v->count = 0;
	v->u = 0;
	v->p = NULL;
	v->cache = NULL;
	if (depth > 0 && !valid_type(tag))
		return d9_err_set(d->e, D9_ERR_BAD_VALUE, at(d, pos),
		    "unknown field type 0x%02x", tag);
	if (tag & D9_FT_OPTIONAL) {
		if (d9_buf_u8(b, &u8) < 0)
			return SHORT;
		if (u8 == 0)
			return 0;	/* absent */
		pos = b->pos;		/* errors point at the value itself */
	}
	v->present = 1;
	switch (t) {
	case D9_FT_I64:
	case D9_FT_F64:
		if (d9_buf_u64(b, &v->u) < 0)
			return SHORT;
		break;
	case D9_FT_BOOL:
	case D9_FT_U8:
		if (d9_buf_u8(b, &u8) < 0)
			return SHORT;
		v->u = t == D9_FT_BOOL ? u8 != 0 : u8;
		break;
	case D9_FT_U16:
		if (d9_buf_u16(b, &u16) < 0)
			return SHORT;
		v->u = u16;
		break;
	case D9_FT_U32:
		if (d9_buf_u32(b, &u32) < 0)
			return SHORT;
		v->u = u32;
		break;
	case D9_FT_VARINT:
		if (b->pos < b->n && b->p[b->pos] < 0x80) {
			v->u = b->p[b->pos++];	/* one-byte varint */
			break;
		}
		rc = d9_buf_leb128(b, &v->u);
		if (rc == -1)
			return SHORT;
		if (rc < 0)
			return d9_err_set(d->e, D9_ERR_BAD_VALUE, at(d, pos),
			    "varint longer than 10 bytes or above 2^64");
		break;
	case D9_FT_STRING:
	case D9_FT_BYTES:
		if ((rc = d9p_read_len(d, b, "string length", 1, &u32)) != 0)
			return rc;
		v->count = u32;
		d9_buf_bytes(b, u32, &v->p);
		break;
	case D9_FT_STACK:
		if ((rc = d9p_read_len(d, b, "stack frame count", 8, &u32)) != 0)
			return rc;
		v->count = u32;
		d9_buf_bytes(b, (size_t)u32 * 8, &v->p);
		break;
	case D9_FT_POOLED_STRING:
	case D9_FT_POOLED_STACK:
		if (d9_buf_u32(b, &u32) < 0)
			return SHORT;
		d9p_pooled(d, t, u32, v);
		break;
	case D9_FT_STRING_MAP: {
		size_t start;

		if ((rc = d9p_read_count(d, b, "map entry count", 8,
		    &u32)) != 0)
			return rc;
		start = b->pos;
		for (uint32_t i = 0; i < u32 * 2u; i++) {
			uint32_t l;

			if ((rc = d9p_read_len(d, b, "map string length", 1, &l)) != 0)
				return rc;
			d9_buf_skip(b, l);
		}
		v->count = u32;
		v->p = b->p + start;
		v->u = b->pos - start;	/* byte length of the entries */
		break;
	}
	case D9_FT_DYN_LIST:
	case D9_FT_DYN_MAP: {
		size_t start = b->pos;

		if ((rc = skip_dyn(d, b, t == D9_FT_DYN_MAP, depth)) != 0)
			return rc;
		v->p = b->p + start;
		v->u = b->pos - start;
		break;
	}
	}
	return 0;
}

int
d9p_map_next(const struct d9p_value *v, size_t *pos, const char **k,
    uint32_t *klen, const char **val, uint32_t *vlen)
{
	struct d9_buf b = { v->p, (size_t)v->u, *pos };
	const uint8_t *kp, *vp;

	if (v->type != D9_FT_STRING_MAP || !v->present || b.pos >= b.n)
		return -1;
	if (d9_buf_u32(&b, klen) < 0 || d9_buf_bytes(&b, *klen, &kp) < 0 ||
	    d9_buf_u32(&b, vlen) < 0 || d9_buf_bytes(&b, *vlen, &vp) < 0)
		return -1;
	*k = (const char *)kp;
	*val = (const char *)vp;
	*pos = b.pos;
	return 0;
}
