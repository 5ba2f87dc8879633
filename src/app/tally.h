/*
 * tally.h: a stream that counts the bytes written through it to another
 * one, for an answer that can run to gigabytes (--chrome): what was
 * written so far is handed to a callback every D9A_TALLY_EVERY bytes,
 * and its total is known at the end. A write the other stream refuses
 * fails here too (and leaves the other stream's error set).
 */
#ifndef D9A_TALLY_H
#define D9A_TALLY_H

#include <stdint.h>
#include <stdio.h>

#define D9A_TALLY_EVERY	((uint64_t)4 << 20)

struct d9a_tally {
	FILE		*to;
	uint64_t	 bytes;		/* written through so far */
	uint64_t	 next;		/* the callback's next turn */
	void		(*tick)(void *ctx, uint64_t bytes);
	void		*ctx;
};

/* A stream writing to to through t (tick may be NULL), or NULL when
 * none can be made; fclose it before reading t->bytes. */
FILE	*d9a_tally_open(struct d9a_tally *t, FILE *to,
	    void (*tick)(void *ctx, uint64_t bytes), void *ctx);

#endif
