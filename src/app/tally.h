/*
 * tally.h: a stream that writes to a file descriptor and counts the
 * bytes it wrote, for the answers of the headless modes (--chrome can
 * run to gigabytes): what was written so far is handed to a callback
 * every D9A_TALLY_EVERY bytes, the total is known at the end, and the
 * first write that fails is kept with its errno (a full disk, "No space
 * left on device", not a bare "write error") and ends the writing: the
 * stream's error is set, and what follows is dropped at once.
 */
#ifndef D9A_TALLY_H
#define D9A_TALLY_H

#include <stdint.h>
#include <stdio.h>

#define D9A_TALLY_EVERY	((uint64_t)4 << 20)

struct d9a_tally {
	int		 fd;
	uint64_t	 bytes;		/* written so far */
	uint64_t	 next;		/* the callback's next turn */
	int		 err;		/* the first failed write's errno */
	void		(*tick)(void *ctx, uint64_t bytes);
	void		*ctx;
};

/* A stream writing to fd through t (tick may be NULL), or NULL when
 * none can be made; fclose it before reading t->bytes and t->err. */
FILE	*d9a_tally_open(struct d9a_tally *t, int fd,
	    void (*tick)(void *ctx, uint64_t bytes), void *ctx);

/* From now on, tick(ctx, bytes) every D9A_TALLY_EVERY bytes (NULL:
 * none): a callback whose ctx is freed before the stream is closed is
 * taken off first. */
void	d9a_tally_ticks(struct d9a_tally *t,
	    void (*tick)(void *ctx, uint64_t bytes), void *ctx);

#endif
