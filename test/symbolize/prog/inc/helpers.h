/* helpers.h: inline chain for the symbolizer test program (three deep). */
#ifndef HELPERS_H
#define HELPERS_H

static inline unsigned
mix3(unsigned x)
{
	x ^= x >> 7;
	x *= 0x9e3779b1u;
	return x ^ (x >> 13);
}

static inline unsigned
mix2(unsigned x, unsigned y)
{
	unsigned r = mix3(x + y);

	if (r & 1)
		r = mix3(r);
	return r + y;
}

static inline unsigned
mix1(const unsigned *v, int n)
{
	unsigned acc = 0;

	for (int i = 0; i < n; i++)
		acc = mix2(acc, v[i]);
	return acc;
}

#endif
