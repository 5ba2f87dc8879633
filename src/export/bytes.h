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

struct d9x_bytes {
	uint8_t		*p;
	size_t		 n, cap;
	int		 oom;
};

void	d9x_bytes_free(struct d9x_bytes *b);
/* Room for want more bytes at p + n: 0, or -1 (oom set). */
int	d9x_bytes_room(struct d9x_bytes *b, size_t want);
void	d9x_bytes_put(struct d9x_bytes *b, const void *p, size_t n);
void	d9x_bytes_u8(struct d9x_bytes *b, uint8_t v);
/* Little-endian fixed widths (PLAIN values, level lengths). */
void	d9x_bytes_le32(struct d9x_bytes *b, uint32_t v);
void	d9x_bytes_le64(struct d9x_bytes *b, uint64_t v);
/* ULEB128 (Thrift compact varints, RLE run headers). */
void	d9x_bytes_uleb(struct d9x_bytes *b, uint64_t v);

static inline void
d9x_bytes_reset(struct d9x_bytes *b)
{
	b->n = 0;
}

#endif
