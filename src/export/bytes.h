/*
 * bytes.h: a growable byte string for what the Parquet writer builds in
 * memory (a page, a column chunk, the footer). A failed growth sets oom
 * and every later append is dropped, so a writer appends freely and
 * checks once, where the bytes are used.
 */
#ifndef D9X_BYTES_H
#define D9X_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct d9x_bytes {
	uint8_t		*p;
	size_t		 n, cap;
	int		 oom;
};

void	d9x_bytes_free(struct d9x_bytes *b);
/* Room for want more bytes at p + n: 0, or -1 (oom set). */
int	d9x_bytes_grow(struct d9x_bytes *b, size_t want);
/* ULEB128 (Thrift compact varints, RLE run headers). */
void	d9x_bytes_uleb(struct d9x_bytes *b, uint64_t v);

/* The appends are inline: a page's values are appended one by one. */
static inline int
d9x_bytes_room(struct d9x_bytes *b, size_t want)
{
	if (!b->oom && want <= b->cap - b->n)
		return 0;
	return d9x_bytes_grow(b, want);
}

static inline void
d9x_bytes_put(struct d9x_bytes *b, const void *p, size_t n)
{
	if (n == 0 || d9x_bytes_room(b, n) < 0)
		return;
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static inline void
d9x_bytes_u8(struct d9x_bytes *b, uint8_t v)
{
	if (d9x_bytes_room(b, 1) == 0)
		b->p[b->n++] = v;
}

/* Little-endian fixed widths (PLAIN values, level lengths): a copy of
 * the value where the machine is little-endian (the byte loop was not
 * merged into one store: 56 instructions a value), else byte by byte. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define D9X_LE_COPY	1
#else
#define D9X_LE_COPY	0
#endif

static inline void
d9x_bytes_le32(struct d9x_bytes *b, uint32_t v)
{
	uint8_t t[4];

	if (d9x_bytes_room(b, 4) < 0)
		return;
	/* through a local: stores to b->p may alias b->n, one per byte */
	if (D9X_LE_COPY)
		memcpy(t, &v, 4);
	else
		for (int i = 0; i < 4; i++)
			t[i] = (uint8_t)(v >> (8 * i));
	memcpy(b->p + b->n, t, 4);
	b->n += 4;
}

static inline void
d9x_bytes_le64(struct d9x_bytes *b, uint64_t v)
{
	uint8_t t[8];

	if (d9x_bytes_room(b, 8) < 0)
		return;
	if (D9X_LE_COPY)
		memcpy(t, &v, 8);
	else
		for (int i = 0; i < 8; i++)
			t[i] = (uint8_t)(v >> (8 * i));
	memcpy(b->p + b->n, t, 8);
	b->n += 8;
}

static inline void
d9x_bytes_reset(struct d9x_bytes *b)
{
	b->n = 0;
}

#endif
