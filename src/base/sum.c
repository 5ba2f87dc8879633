/* sum.c: see sum.h. */
#include <string.h>

#include "base/sum.h"

#define P1	0x9e3779b185ebca87ull
#define P2	0xc2b2ae3d27d4eb4full
#define P3	0x165667b19e3779f9ull
#define P4	0x85ebca77c2b2ae63ull

static inline uint64_t
rotl(uint64_t x, unsigned r)
{
	return x << r | x >> (64 - r);
}

static inline uint64_t
round64(uint64_t acc, uint64_t w)
{
	return rotl(acc + w * P2, 31) * P1;
}

static void
blocks(uint64_t lane[4], const uint8_t *p, size_t nblocks)
{
	uint64_t a = lane[0], b = lane[1], c = lane[2], d = lane[3];

	for (size_t i = 0; i < nblocks; i++, p += 32) {
		uint64_t w[4];

		memcpy(w, p, 32);
		a = round64(a, w[0]);
		b = round64(b, w[1]);
		c = round64(c, w[2]);
		d = round64(d, w[3]);
	}
	lane[0] = a;
	lane[1] = b;
	lane[2] = c;
	lane[3] = d;
}

void
d9_sum_init(struct d9_sum *s)
{
	memset(s, 0, sizeof *s);
	s->lane[0] = P1 + P2;
	s->lane[1] = P2;
	s->lane[2] = 0;
	s->lane[3] = 0 - P1;
}

void
d9_sum_add(struct d9_sum *s, const void *pv, size_t n)
{
	const uint8_t *p = pv;

	s->total += n;
	if (s->ntail) {
		size_t k = 32 - s->ntail < n ? 32 - s->ntail : n;

		memcpy(s->tail + s->ntail, p, k);
		s->ntail += k;
		p += k;
		n -= k;
		if (s->ntail < 32)
			return;
		blocks(s->lane, s->tail, 1);
		s->ntail = 0;
	}
	blocks(s->lane, p, n / 32);
	p += n / 32 * 32;
	n %= 32;
	memcpy(s->tail, p, n);
	s->ntail = n;
}

uint64_t
d9_sum_end(const struct d9_sum *s)
{
	uint64_t h = rotl(s->lane[0], 1) + rotl(s->lane[1], 7) +
	    rotl(s->lane[2], 12) + rotl(s->lane[3], 18);

	for (int i = 0; i < 4; i++)
		h = (h ^ round64(0, s->lane[i])) * P1 + P4;
	h += s->total;
	for (size_t i = 0; i < s->ntail; i++)
		h = rotl(h ^ (s->tail[i] * P3), 11) * P1;
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	h ^= h >> 32;
	return h;
}

uint64_t
d9_sum_of(const void *p, size_t n)
{
	struct d9_sum s;

	d9_sum_init(&s);
	d9_sum_add(&s, p, n);
	return d9_sum_end(&s);
}
