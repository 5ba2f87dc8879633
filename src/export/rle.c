/*
 * rle.c: see rle.h. A run of at least 8 equal values becomes an RLE run
 * (header count << 1, then the value in (width + 7) / 8 little-endian
 * bytes); anything else is packed 8 values at a time (header groups << 1
 * | 1), until a run of 8 begins at a group's boundary.
 */
#include "export/rle.h"

#define RUN_MIN	8

unsigned
d9x_bit_width(uint32_t max)
{
	unsigned w = 0;

	while (max) {
		w++;
		max >>= 1;
	}
	return w;
}

static size_t
run_at(const uint32_t *v, size_t n, size_t i)
{
	size_t j = i + 1;

	while (j < n && v[j] == v[i])
		j++;
	return j - i;
}

static void
put_run(struct d9x_bytes *out, uint32_t v, size_t count, unsigned width)
{
	d9x_bytes_uleb(out, (uint64_t)count << 1);
	for (unsigned b = 0; b < (width + 7) / 8; b++)
		d9x_bytes_u8(out, (uint8_t)(v >> (8 * b)));
}

/* groups * 8 values from v[i], zeros past n. */
static void
put_packed(struct d9x_bytes *out, const uint32_t *v, size_t n, size_t i,
    size_t groups, unsigned width)
{
	uint64_t acc = 0;
	unsigned have = 0;

	d9x_bytes_uleb(out, (uint64_t)groups << 1 | 1);
	for (size_t k = 0; k < groups * 8; k++) {
		uint64_t x = i + k < n ? v[i + k] : 0;

		acc |= (x & ((1ull << width) - 1)) << have;
		have += width;
		while (have >= 8) {
			d9x_bytes_u8(out, (uint8_t)acc);
			acc >>= 8;
			have -= 8;
		}
	}
	/* groups of 8 values fill whole bytes: nothing is left over */
}

void
d9x_rle_put(struct d9x_bytes *out, const uint32_t *v, size_t n,
    unsigned width)
{
	size_t i = 0;

	while (i < n) {
		size_t r = run_at(v, n, i), j;

		if (r >= RUN_MIN) {
			put_run(out, v[i], r, width);
			i += r;
			continue;
		}
		for (j = i + 8; j < n && run_at(v, n, j) < RUN_MIN; j += 8)
			;
		if (j > n)
			j = n;
		put_packed(out, v, n, i, (j - i + 7) / 8, width);
		i = j;
	}
}

void
d9x_bits_put(struct d9x_bytes *out, const uint8_t *v, size_t n)
{
	for (size_t i = 0; i < n; i += 8) {
		uint8_t b = 0;

		for (size_t k = 0; k < 8 && i + k < n; k++)
			b |= (uint8_t)((v[i + k] & 1) << k);
		d9x_bytes_u8(out, b);
	}
}
