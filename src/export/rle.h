/*
 * rle.h: the packed encodings of Parquet's levels, dictionary indices
 * and booleans (parquet-format's Encodings.md): the RLE / bit-packing
 * hybrid (runs of one repeated value, and groups of 8 values packed at
 * a fixed bit width, least significant bit first), and PLAIN booleans
 * (one bit each, least significant first).
 */
#ifndef D9X_RLE_H
#define D9X_RLE_H

#include <stddef.h>
#include <stdint.h>

#include "export/bytes.h"

/* Bits needed for values up to max (0 for 0). */
unsigned d9x_bit_width(uint32_t max);
/* The hybrid encoding of v[0 .. n) at width bits (1 .. 32), without a
 * length prefix; the last packed group is padded with zeros. */
void	d9x_rle_put(struct d9x_bytes *out, const uint32_t *v, size_t n,
	    unsigned width);
/* n booleans (0 or 1), packed. */
void	d9x_bits_put(struct d9x_bytes *out, const uint8_t *v, size_t n);

#endif
