/*
 * dwinfo.c: see dwinfo.h. One pass per unit: its abbreviation table is
 * read (and kept while the next unit shares it), then its DIEs in order,
 * marking where each DIE or null entry starts in a bitmap; the sibling
 * targets are collected and checked against the bitmap at the unit's
 * end. Everything is read through struct d9_buf.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hmap.h"
#include "base/vec.h"
#include "symbolize/dwinfo.h"

#define AT_SIBLING		0x01
#define FORM_INDIRECT		0x16
#define FORM_IMPLICIT_CONST	0x21
#define MAX_LEB			16	/* bytes; producers use at most 10 */
#define MAX_INDIRECT		4

struct spec {
	uint32_t	attr, form;
};

struct abbrev {
	uint32_t	first, n;	/* its specs */
};

struct unit {
	size_t		start, end;	/* of the unit */
	size_t		dies;		/* first DIE */
	unsigned	version, asize, osize;
};

struct info {
	struct d9_buf	 abbrev;	/* the whole section */
	uint64_t	 table;		/* offset of the table read */
	int		 have_table;
	struct d9_hmap	 by_code;	/* code -> abb[] */
	struct abbrev	*abb;
	size_t		 nabb, abbcap;
	struct spec	*spec;
	size_t		 nspec, speccap;
	uint8_t		*start;		/* bit per byte of the unit */
	size_t		 startcap;
	uint64_t	*sib;		/* sibling targets, unit offsets */
	size_t		 nsib, sibcap;
};

static int
skip_leb(struct d9_buf *b, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned i = 0; i < MAX_LEB; i++) {
		uint8_t c;

		if (d9_buf_u8(b, &c) < 0)
			return -1;
		if (i < 10)
			x |= (uint64_t)(c & 0x7f) << (7 * i);
		if (!(c & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

/* Read the abbreviation table at off; 0, -1 (corrupt) or -2 (memory). */
static int
read_table(struct info *in, uint64_t off)
{
	struct d9_buf *b = &in->abbrev;
	uint64_t code, tag, attr, form, v;
	uint8_t children;

	if (in->have_table && in->table == off)
		return 0;
	in->have_table = 0;
	in->nabb = in->nspec = 0;
	d9_hmap_clear(&in->by_code);
	if (off >= b->n)
		return -1;
	b->pos = (size_t)off;
	for (;;) {
		struct abbrev *a;

		if (skip_leb(b, &code) < 0)
			return -1;
		if (code == 0)
			break;
		if (skip_leb(b, &tag) < 0 || d9_buf_u8(b, &children) < 0 ||
		    in->nabb >= D9_NONE)
			return -1;
		if (d9_hmap_get(&in->by_code, code) != D9_NONE)
			return -1;	/* which one would libdwarf take? */
		if (d9_grow(&in->abb, &in->abbcap, in->nabb + 1,
		    sizeof *in->abb) == -1 ||
		    d9_hmap_put(&in->by_code, code, (uint32_t)in->nabb) < 0)
			return -2;
		a = &in->abb[in->nabb++];
		a->first = (uint32_t)in->nspec;
		a->n = 0;
		for (;;) {
			if (skip_leb(b, &attr) < 0 || skip_leb(b, &form) < 0)
				return -1;
			if (attr == 0 && form == 0)
				break;
			if (form == FORM_IMPLICIT_CONST && skip_leb(b, &v) < 0)
				return -1;
			if (attr > UINT32_MAX || form > UINT32_MAX ||
			    in->nspec >= UINT32_MAX)
				return -1;
			if (d9_grow(&in->spec, &in->speccap, in->nspec + 1,
			    sizeof *in->spec) == -1)
				return -2;
			in->spec[in->nspec].attr = (uint32_t)attr;
			in->spec[in->nspec++].form = (uint32_t)form;
			a->n++;
		}
	}
	in->table = off;
	in->have_table = 1;
	return 0;
}

/* Skip one value of form (DW_FORM_* and the GNU ones libdwarf knows);
 * *ref its value for the reference forms. -1 for an unknown form or a
 * value cut by the unit's end. */
static int
skip_value(struct d9_buf *b, const struct unit *u, uint64_t form,
    uint64_t *ref, int hops)
{
	uint64_t len = 0, v;
	uint32_t v32;
	uint16_t v16;
	uint8_t v8;

	*ref = UINT64_MAX;
	switch (form) {
	case 0x19: case 0x21:		/* flag_present, implicit_const */
		return 0;
	case 0x0b: case 0x0c: case 0x25: case 0x29:	/* 1 byte */
		return d9_buf_u8(b, &v8);
	case 0x11:			/* ref1 */
		if (d9_buf_u8(b, &v8) < 0)
			return -1;
		*ref = v8;
		return 0;
	case 0x05: case 0x26: case 0x2a:	/* 2 bytes */
		return d9_buf_u16(b, &v16);
	case 0x12:			/* ref2 */
		if (d9_buf_u16(b, &v16) < 0)
			return -1;
		*ref = v16;
		return 0;
	case 0x27: case 0x2b:		/* strx3, addrx3 */
		return d9_buf_skip(b, 3);
	case 0x06: case 0x1c: case 0x28: case 0x2c:	/* 4 bytes */
		return d9_buf_u32(b, &v32);
	case 0x13:			/* ref4 */
		if (d9_buf_u32(b, &v32) < 0)
			return -1;
		*ref = v32;
		return 0;
	case 0x07: case 0x20: case 0x24:	/* 8 bytes */
		return d9_buf_skip(b, 8);
	case 0x14:			/* ref8 */
		return d9_buf_u64(b, ref);
	case 0x1e:			/* data16 */
		return d9_buf_skip(b, 16);
	case 0x0d: case 0x0f: case 0x1a: case 0x1b: case 0x22: case 0x23:
	case 0x1f01: case 0x1f02:	/* LEB128 */
		return skip_leb(b, &v);
	case 0x15:			/* ref_udata */
		return skip_leb(b, ref);
	case 0x01:			/* addr */
		return d9_buf_skip(b, u->asize);
	case 0x10:			/* ref_addr */
		return d9_buf_skip(b, u->version <= 2 ? u->asize : u->osize);
	case 0x0e: case 0x17: case 0x1d: case 0x1f: case 0x1f20: case 0x1f21:
		return d9_buf_skip(b, u->osize);	/* section offsets */
	case 0x08:			/* string */
		while (d9_buf_u8(b, &v8) == 0)
			if (v8 == 0)
				return 0;
		return -1;
	case 0x0a:			/* block1 */
		if (d9_buf_u8(b, &v8) < 0)
			return -1;
		return d9_buf_skip(b, v8);
	case 0x03:			/* block2 */
		if (d9_buf_u16(b, &v16) < 0)
			return -1;
		return d9_buf_skip(b, v16);
	case 0x04:			/* block4 */
		if (d9_buf_u32(b, &v32) < 0)
			return -1;
		return d9_buf_skip(b, v32);
	case 0x09: case 0x18:		/* block, exprloc */
		if (skip_leb(b, &len) < 0 || len > d9_buf_left(b))
			return -1;
		return d9_buf_skip(b, (size_t)len);
	case FORM_INDIRECT:
		if (hops >= MAX_INDIRECT || skip_leb(b, &v) < 0 ||
		    v == FORM_INDIRECT || v == FORM_IMPLICIT_CONST)
			return -1;
		return skip_value(b, u, v, ref, hops + 1);
	default:
		return -1;
	}
}

static void
mark(struct info *in, size_t off)
{
	in->start[off / 8] |= (uint8_t)(1u << (off % 8));
}

/* The DIEs of unit u (b at its first DIE, ending at its end); 0, -1 or
 * -2 (memory). */
static int
read_dies(struct info *in, struct d9_buf *b, const struct unit *u)
{
	size_t len = u->end - u->start;

	if (d9_grow(&in->start, &in->startcap, len / 8 + 1, 1) == -1)
		return -2;
	memset(in->start, 0, len / 8 + 1);
	in->nsib = 0;
	while (d9_buf_left(b) > 0) {
		size_t at = b->pos;
		uint64_t code, ref;
		uint32_t idx;
		const struct abbrev *a;

		mark(in, at - u->start);
		if (skip_leb(b, &code) < 0)
			return -1;
		if (code == 0)
			continue;	/* a null entry */
		if ((idx = d9_hmap_get(&in->by_code, code)) == D9_NONE)
			return -1;
		a = &in->abb[idx];
		for (uint32_t k = 0; k < a->n; k++) {
			const struct spec *s = &in->spec[a->first + k];

			if (skip_value(b, u, s->form, &ref, 0) < 0)
				return -1;
			if (s->attr != AT_SIBLING)
				continue;
			/* past this DIE, inside (or at the end of) the unit */
			if (ref == UINT64_MAX || ref > len ||
			    ref <= at - u->start)
				return -1;
			if (d9_grow(&in->sib, &in->sibcap, in->nsib + 1,
			    sizeof *in->sib) == -1)
				return -2;
			in->sib[in->nsib++] = ref;
		}
	}
	for (size_t i = 0; i < in->nsib; i++)
		if (in->sib[i] < len &&
		    !(in->start[in->sib[i] / 8] >> (in->sib[i] % 8) & 1))
			return -1;
	return 0;
}

int
d9s_dwarf_unit_length(struct d9_buf *b, size_t *end, unsigned *osize)
{
	uint32_t len32;
	uint64_t len;

	*osize = 4;
	if (d9_buf_u32(b, &len32) < 0)
		return -1;
	len = len32;
	if (len32 == 0xffffffffu) {
		*osize = 8;
		if (d9_buf_u64(b, &len) < 0)
			return -1;
	} else if (len32 >= 0xfffffff0u)
		return -1;
	if (len > d9_buf_left(b))
		return -1;
	*end = b->pos + (size_t)len;
	return 0;
}

/* The unit header at b; b ends up at its first DIE, *abbrev_off set. */
static int
read_header(struct d9_buf *b, struct unit *u, uint64_t *abbrev_off)
{
	uint32_t off32;
	uint16_t version;
	uint8_t type = 1, asize = 0;

	u->start = b->pos;
	if (d9s_dwarf_unit_length(b, &u->end, &u->osize) < 0)
		return -1;
	b->n = u->end;			/* the unit's bytes only */
	if (d9_buf_u16(b, &version) < 0 || version < 2 || version > 5)
		return -1;
	u->version = version;
	if (version == 5 && (d9_buf_u8(b, &type) < 0 ||
	    d9_buf_u8(b, &asize) < 0))
		return -1;
	if (u->osize == 8 ? d9_buf_u64(b, abbrev_off) < 0 :
	    d9_buf_u32(b, &off32) < 0)
		return -1;
	if (u->osize == 4)
		*abbrev_off = off32;
	if (version < 5 && d9_buf_u8(b, &asize) < 0)
		return -1;
	if (asize != 4 && asize != 8)
		return -1;
	u->asize = asize;
	/* DW_UT_skeleton/split_compile: dwo_id; type units: signature and
	 * type offset */
	if (version == 5 && (type == 4 || type == 5) && d9_buf_skip(b, 8) < 0)
		return -1;
	if (version == 5 && (type == 2 || type == 6) &&
	    d9_buf_skip(b, 8 + u->osize) < 0)
		return -1;
	u->dies = b->pos;
	return 0;
}

int
d9s_dwinfo_check(const uint8_t *info, size_t ninfo, const uint8_t *abbrev,
    size_t nabbrev, struct d9_err *e)
{
	struct info in;
	size_t pos = 0;
	int rc = 0;

	memset(&in, 0, sizeof in);
	in.abbrev.p = abbrev;
	in.abbrev.n = nabbrev;
	d9_hmap_init(&in.by_code);
	while (rc == 0 && pos < ninfo) {
		struct d9_buf b = { info, ninfo, pos };
		struct unit u;
		uint64_t aoff = 0;

		if ((rc = read_header(&b, &u, &aoff)) == 0 &&
		    (rc = read_table(&in, aoff)) == 0)
			rc = read_dies(&in, &b, &u);
		if (rc == -2)
			rc = d9_err_set(e, D9_ERR_NOMEM, 0, "DWARF check");
		else if (rc != 0)
			rc = d9_err_set(e, D9_ERR_BAD_VALUE, pos,
			    "corrupt .debug_info unit at offset %zu", pos);
		else
			pos = u.end;
	}
	d9_hmap_free(&in.by_code);
	free(in.abb);
	free(in.spec);
	free(in.start);
	free(in.sib);
	return rc;
}
