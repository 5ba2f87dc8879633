/*
 * sum.h: a fast 64-bit checksum of a byte stream (four multiply-rotate
 * lanes over 32-byte blocks, the construction of xxHash64), to tell a
 * damaged or torn file from a whole one. Not a defence against someone
 * who forges files on purpose.
 */
#ifndef D9_SUM_H
#define D9_SUM_H

#include <stddef.h>
#include <stdint.h>

struct d9_sum {
	uint64_t	 lane[4];
	uint64_t	 total;		/* bytes fed */
	uint8_t		 tail[32];	/* bytes of an unfinished block */
	size_t		 ntail;
};

void		 d9_sum_init(struct d9_sum *s);
void		 d9_sum_add(struct d9_sum *s, const void *p, size_t n);
uint64_t	 d9_sum_end(const struct d9_sum *s);
/* The checksum of one buffer. */
uint64_t	 d9_sum_of(const void *p, size_t n);

#endif
