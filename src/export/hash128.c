/*
 * hash128.c: see hash128.h. MurmurHash3_x64_128 (Austin Appleby's
 * public-domain algorithm), seed 0, the two 64-bit halves written
 * little-endian.
 */
#include <string.h>

#include "export/hash128.h"

#define C1	0x87c37b91114253d5ull
#define C2	0x4cf5ad432745937full

static uint64_t
rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

static uint64_t
fmix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	k ^= k >> 33;
	return k;
}

/* n (<= 8) bytes little-endian; a whole word in one load (the byte
 * loop was a third of the hashing, which the stacks of an export are
 * much of) */
static uint64_t
le64(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	if (n == 8) {
		memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = __builtin_bswap64(v);
#endif
		return v;
	}
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

void
d9x_hash128(const void *key, size_t n, uint8_t out[16])
{
	const uint8_t *p = key;
	uint64_t h1 = 0, h2 = 0, k1, k2;
	size_t i, tail;

	for (i = 0; i + 16 <= n; i += 16) {
		k1 = le64(p + i, 8) * C1;
		k2 = le64(p + i + 8, 8) * C2;
		h1 ^= rotl(k1, 31) * C2;
		h1 = (rotl(h1, 27) + h2) * 5 + 0x52dce729;
		h2 ^= rotl(k2, 33) * C1;
		h2 = (rotl(h2, 31) + h1) * 5 + 0x38495ab5;
	}
	tail = n - i;
	if (tail > 8) {
		k2 = le64(p + i + 8, tail - 8) * C2;
		h2 ^= rotl(k2, 33) * C1;
	}
	if (tail > 0) {
		k1 = le64(p + i, tail > 8 ? 8 : tail) * C1;
		h1 ^= rotl(k1, 31) * C2;
	}
	h1 ^= n;
	h2 ^= n;
	h1 += h2;
	h2 += h1;
	h1 = fmix(h1);
	h2 = fmix(h2);
	h1 += h2;
	h2 += h1;
	for (int b = 0; b < 8; b++) {
		out[b] = (uint8_t)(h1 >> (8 * b));
		out[8 + b] = (uint8_t)(h2 >> (8 * b));
	}
}

void
d9x_hex128(const uint8_t h[16], char out[33])
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < 16; i++) {
		out[2 * i] = hex[h[i] >> 4];
		out[2 * i + 1] = hex[h[i] & 15];
	}
	out[32] = '\0';
}
