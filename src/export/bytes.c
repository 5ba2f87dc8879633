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
d9x_bytes_grow(struct d9x_bytes *b, size_t want)
{
	/* a buffer starts at 4 KiB: most hold a page of values */
	size_t need = b->n + (want > 4096 ? want : 4096);

	if (b->oom)
		return -1;
	if (want > SIZE_MAX - b->n - 4096 || d9_grow(&b->p, &b->cap, need,
	    1) < 0) {
		b->oom = 1;
		return -1;
	}
	return 0;
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
