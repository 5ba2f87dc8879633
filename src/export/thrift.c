/*
 * thrift.c: see thrift.h. The compact protocol (Thrift's
 * doc/specs/thrift-compact-protocol.md): a field header is one byte,
 * (id delta << 4) | type, when the delta is 1 .. 15, else the type byte
 * and the id as a zigzag varint; integers are zigzag varints (i8: one
 * byte); binary is a varint length and the bytes; a bool field's value
 * is its type (1 true, 2 false); a list header is (n << 4) | type for
 * n < 15, else 0xf0 | type and a varint n; a struct ends with a 0 byte.
 */
#include <string.h>

#include "export/thrift.h"

enum { TH_TRUE = 1, TH_FALSE = 2 };

static uint64_t
zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

void
d9x_th_init(struct d9x_thrift *t, struct d9x_bytes *out)
{
	memset(t, 0, sizeof *t);
	t->out = out;
}

static void
header(struct d9x_thrift *t, int16_t id, uint8_t type)
{
	int delta = id - t->last[t->depth];

	if (delta > 0 && delta <= 15)
		d9x_bytes_u8(t->out, (uint8_t)(delta << 4 | type));
	else {
		d9x_bytes_u8(t->out, type);
		d9x_bytes_uleb(t->out, zigzag(id));
	}
	t->last[t->depth] = id;
}

void
d9x_th_i8(struct d9x_thrift *t, int16_t id, int8_t v)
{
	header(t, id, D9X_TH_I8);
	d9x_bytes_u8(t->out, (uint8_t)v);
}

void
d9x_th_i32(struct d9x_thrift *t, int16_t id, int32_t v)
{
	header(t, id, D9X_TH_I32);
	d9x_bytes_uleb(t->out, zigzag(v));
}

void
d9x_th_i64(struct d9x_thrift *t, int16_t id, int64_t v)
{
	header(t, id, D9X_TH_I64);
	d9x_bytes_uleb(t->out, zigzag(v));
}

void
d9x_th_bool(struct d9x_thrift *t, int16_t id, int v)
{
	header(t, id, v ? TH_TRUE : TH_FALSE);
}

void
d9x_th_elem_bin(struct d9x_thrift *t, const void *p, size_t n)
{
	d9x_bytes_uleb(t->out, n);
	d9x_bytes_put(t->out, p, n);
}

void
d9x_th_bin(struct d9x_thrift *t, int16_t id, const void *p, size_t n)
{
	header(t, id, D9X_TH_BINARY);
	d9x_th_elem_bin(t, p, n);
}

void
d9x_th_str(struct d9x_thrift *t, int16_t id, const char *s)
{
	d9x_th_bin(t, id, s, strlen(s));
}

static void
push(struct d9x_thrift *t)
{
	if (t->depth + 1 >= D9X_TH_DEPTH) {
		t->bad = 1;
		return;
	}
	t->last[++t->depth] = 0;
}

void
d9x_th_struct(struct d9x_thrift *t, int16_t id)
{
	header(t, id, D9X_TH_STRUCT);
	push(t);
}

void
d9x_th_elem_struct(struct d9x_thrift *t)
{
	push(t);
}

void
d9x_th_end(struct d9x_thrift *t)
{
	d9x_bytes_u8(t->out, 0);
	if (t->depth > 0)
		t->depth--;
}

void
d9x_th_list(struct d9x_thrift *t, int16_t id, enum d9x_th_type et, size_t n)
{
	header(t, id, D9X_TH_LIST);
	if (n < 15)
		d9x_bytes_u8(t->out, (uint8_t)(n << 4 | et));
	else {
		d9x_bytes_u8(t->out, (uint8_t)(0xf0 | et));
		d9x_bytes_uleb(t->out, n);
	}
}

void
d9x_th_elem_i32(struct d9x_thrift *t, int32_t v)
{
	d9x_bytes_uleb(t->out, zigzag(v));
}
