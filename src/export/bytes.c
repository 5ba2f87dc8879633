/*
 * bytes.c: see bytes.h.
 */
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "export/bytes.h"

void
d9x_bytes_free(struct d9x_bytes *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

int
d9x_bytes_room(struct d9x_bytes *b, size_t want)
{
	if (b->oom)
		return -1;
	if (want > SIZE_MAX - b->n || d9_grow(&b->p, &b->cap, b->n + want,
	    1) < 0) {
		b->oom = 1;
		return -1;
	}
	return 0;
}

void
d9x_bytes_put(struct d9x_bytes *b, const void *p, size_t n)
{
	if (n == 0 || d9x_bytes_room(b, n) < 0)
		return;
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

void
d9x_bytes_u8(struct d9x_bytes *b, uint8_t v)
{
	if (d9x_bytes_room(b, 1) == 0)
		b->p[b->n++] = v;
}

void
d9x_bytes_le32(struct d9x_bytes *b, uint32_t v)
{
	uint8_t t[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
	    (uint8_t)(v >> 24) };

	d9x_bytes_put(b, t, 4);
}

void
d9x_bytes_le64(struct d9x_bytes *b, uint64_t v)
{
	d9x_bytes_le32(b, (uint32_t)v);
	d9x_bytes_le32(b, (uint32_t)(v >> 32));
}

void
d9x_bytes_uleb(struct d9x_bytes *b, uint64_t v)
{
	uint8_t t[10];
	size_t n = 0;

	do {
		t[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		t[n++] |= v ? 0x80 : 0;
	} while (v);
	d9x_bytes_put(b, t, n);
}
