/*
 * schemas.c: schema frames. A schema is registered by id for the batch;
 * the same definition again (every thread-local buffer repeats them) is
 * a no-op, a different one replaces it. Names are copied, NUL-ended, into
 * the batch's arena.
 */
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "parse/decoder_int.h"

static int
same_schema(const struct d9p_schema *a, const struct d9p_schema *s)
{
	if (a->has_ts != s->has_ts || a->nfields != s->nfields ||
	    a->name_len != s->name_len || memcmp(a->name, s->name,
	    s->name_len) != 0)
		return 0;
	for (uint16_t i = 0; i < s->nfields; i++)
		if (a->fields[i].type != s->fields[i].type ||
		    a->fields[i].optional != s->fields[i].optional ||
		    a->fields[i].name_len != s->fields[i].name_len ||
		    memcmp(a->fields[i].name, s->fields[i].name,
		    s->fields[i].name_len) != 0)
			return 0;
	return 1;
}

/* Read a u16-length-prefixed name into the arena. */
static int
read_name(struct d9p_decoder *d, struct d9_buf *b, const char **out,
    uint16_t *len)
{
	const uint8_t *p;

	if (d9_buf_u16(b, len) < 0 || d9_buf_bytes(b, *len, &p) < 0)
		return SHORT;
	/* the name may end the bytes fed: none past it is read */
	*out = d9_arena_strndup(&d->arena, p, *len);
	if (*out == NULL)
		return d9_err_set(d->e, D9_ERR_NOMEM, 0, "out of memory");
	return 0;
}

/* Whether a field of base type t takes a few bytes of fixed size, a
 * varint at most (d9p_schema.fixed). */
static int
fixed_size(uint8_t t)
{
	switch (t) {
	case D9_FT_VARINT: case D9_FT_U8: case D9_FT_BOOL: case D9_FT_U16:
	case D9_FT_U32: case D9_FT_I64: case D9_FT_F64:
	case D9_FT_POOLED_STRING: case D9_FT_POOLED_STACK:
		return 1;
	default:
		return 0;
	}
}

int
d9p_frame_schema(struct d9p_decoder *d, struct d9_buf *b)
{
	struct d9p_schema s, *old, *ns;
	uint8_t ts;
	int rc;

	memset(&s, 0, sizeof s);
	if (d9_buf_u16(b, &s.id) < 0)
		return SHORT;
	if ((rc = read_name(d, b, &s.name, &s.name_len)) != 0)
		return rc;
	if (d9_buf_u8(b, &ts) < 0 || d9_buf_u16(b, &s.nfields) < 0)
		return SHORT;
	s.has_ts = ts != 0;
	s.fixed = 1;
	/* each field takes at least 3 bytes */
	if ((rc = need(d, b, (uint64_t)s.nfields * 3, "field count",
	    s.nfields, b->pos - 2)) != 0)
		return rc;
	s.fields = d9_arena_alloc(&d->arena,
	    (s.nfields ? s.nfields : 1) * sizeof *s.fields, 8);
	s.wire = d9_arena_alloc(&d->arena, s.nfields ? s.nfields : 1, 1);
	if (s.fields == NULL || s.wire == NULL)
		return d9_err_set(d->e, D9_ERR_NOMEM, 0, "out of memory");
	for (uint16_t i = 0; i < s.nfields; i++) {
		struct d9p_field *f = &s.fields[i];
		uint8_t t;
		size_t tpos;

		memset(f, 0, sizeof *f);
		if ((rc = read_name(d, b, &f->name, &f->name_len)) != 0)
			return rc;
		tpos = b->pos;
		if (d9_buf_u8(b, &t) < 0)
			return SHORT;
		if (!valid_type(t)) {
			char sn[96], fn[96];	/* escaped, NULs shown */

			d9_text_safe(sn, sizeof sn, s.name, s.name_len);
			d9_text_safe(fn, sizeof fn, f->name, f->name_len);
			return d9_err_set(d->e, D9_ERR_BAD_SCHEMA, at(d, tpos),
			    "schema %s: field %s has unknown type 0x%02x",
			    sn, fn, t);
		}
		f->type = t & (uint8_t)~D9_FT_OPTIONAL;
		f->optional = (t & D9_FT_OPTIONAL) != 0;
		s.wire[i] = t;
		s.fixed &= fixed_size(f->type);
	}
	old = d->by_id[s.id];
	if (old != NULL && same_schema(old, &s))
		return 0;
	ns = d9_arena_alloc(&d->arena, sizeof *ns, _Alignof(struct d9p_schema));
	if (ns == NULL)
		return d9_err_set(d->e, D9_ERR_NOMEM, 0, "out of memory");
	*ns = s;
	if (s.nfields > d->capvals) {
		free(d->vals);
		d->vals = malloc(s.nfields * sizeof *d->vals);
		if (d->vals == NULL) {
			d->capvals = 0;
			return d9_err_set(d->e, D9_ERR_NOMEM, 0, "out of memory");
		}
		d->capvals = s.nfields;
	}
	if (old == NULL) {
		if (d->nused == d->capused) {
			size_t nc = d->capused ? d->capused * 2 : 64;
			uint16_t *u = realloc(d->used_ids, nc * sizeof *u);

			if (u == NULL)
				return d9_err_set(d->e, D9_ERR_NOMEM, 0,
				    "out of memory");
			d->used_ids = u;
			d->capused = nc;
		}
		d->used_ids[d->nused++] = s.id;
	}
	d->by_id[s.id] = ns;
	if (d->sink.schema && (rc = d->sink.schema(d->sink.ctx, ns)) < 0)
		return d9_err_set(d->e, D9_ERR_NOMEM, 0, "out of memory");
	return 0;
}
