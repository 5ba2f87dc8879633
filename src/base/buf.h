/*
 * buf.h: a bounds-checked little-endian byte cursor. Every read of trace
 * bytes goes through it: a read past the end returns -1 and leaves the
 * cursor where it was, never touching memory outside [p, p + n).
 */
#ifndef D9_BUF_H
#define D9_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct d9_buf {
	const uint8_t	*p;
	size_t		 n;	/* bytes in p */
	size_t		 pos;	/* next byte to read */
};

static inline size_t
d9_buf_left(const struct d9_buf *b)
{
	return b->n - b->pos;
}

static inline int
d9_buf_u8(struct d9_buf *b, uint8_t *v)
{
	if (b->pos >= b->n)
		return -1;
	*v = b->p[b->pos++];
	return 0;
}

static inline int
d9_buf_u16(struct d9_buf *b, uint16_t *v)
{
	if (b->n - b->pos < 2)
		return -1;
	*v = (uint16_t)(b->p[b->pos] | b->p[b->pos + 1] << 8);
	b->pos += 2;
	return 0;
}

static inline int
d9_buf_u24(struct d9_buf *b, uint32_t *v)
{
	if (b->n - b->pos < 3)
		return -1;
	*v = (uint32_t)b->p[b->pos] | (uint32_t)b->p[b->pos + 1] << 8 |
	    (uint32_t)b->p[b->pos + 2] << 16;
	b->pos += 3;
	return 0;
}

static inline int
d9_buf_u32(struct d9_buf *b, uint32_t *v)
{
	if (b->n - b->pos < 4)
		return -1;
	*v = (uint32_t)b->p[b->pos] | (uint32_t)b->p[b->pos + 1] << 8 |
	    (uint32_t)b->p[b->pos + 2] << 16 | (uint32_t)b->p[b->pos + 3] << 24;
	b->pos += 4;
	return 0;
}

static inline int
d9_buf_u64(struct d9_buf *b, uint64_t *v)
{
	uint64_t x = 0;

	if (b->n - b->pos < 8)
		return -1;
	for (int i = 7; i >= 0; i--)
		x = x << 8 | b->p[b->pos + (size_t)i];
	*v = x;
	b->pos += 8;
	return 0;
}

/* Returns -1 past the end, -2 for an encoding longer than 10 bytes or
 * one that overflows 64 bits. */
static inline int
d9_buf_leb128(struct d9_buf *b, uint64_t *v)
{
	uint64_t x = 0;
	size_t pos = b->pos;

	for (unsigned shift = 0; ; shift += 7) {
		uint8_t c;

		if (pos >= b->n)
			return -1;
		c = b->p[pos++];
		if (shift == 63 && (c & 0x7e))
			return -2;
		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			break;
		if (shift == 63)
			return -2;
	}
	b->pos = pos;
	*v = x;
	return 0;
}

/* Point *out at the next len bytes and skip them. */
static inline int
d9_buf_bytes(struct d9_buf *b, size_t len, const uint8_t **out)
{
	if (b->n - b->pos < len)
		return -1;
	*out = b->p + b->pos;
	b->pos += len;
	return 0;
}

static inline int
d9_buf_skip(struct d9_buf *b, size_t len)
{
	if (b->n - b->pos < len)
		return -1;
	b->pos += len;
	return 0;
}

#endif
