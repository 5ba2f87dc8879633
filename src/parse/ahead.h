/*
 * ahead.h: reads done ahead on a thread of their own. A producer
 * function is called again and again on that thread, each call's result
 * (its bytes, or its end or error) queued in a few fixed slots, and
 * handed out in order by d9p_ahead_read, so that decompressing a pipe
 * (parse/input.h) runs beside the decoding of what it gave before.
 *
 * The producer stops by itself after a call that returned 0 or an error,
 * or that it marks the last (snap->last): after that one is handed out,
 * d9p_ahead_ended says so and the caller goes on reading its source
 * itself. Memory: D9P_AHEAD_SLOTS times the slot size, fixed.
 */
#ifndef D9P_AHEAD_H
#define D9P_AHEAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/err.h"

#define D9P_AHEAD_SLOTS	4

/* What the source says of itself after a call, handed out with it. */
struct d9p_ahead_snap {
	uint64_t	 consumed;	/* source bytes read so far */
	uint64_t	 raw_since;	/* parse/input.h: d9p_input_raw_since */
	unsigned	 kinds;
	int		 last;		/* stop producing after this call */
};

/* One read of the source, as d9p_input_read; fills *snap. */
typedef ssize_t (*d9p_ahead_fn)(void *ctx, uint8_t *buf, size_t cap,
	    int *cut, struct d9_err *e, struct d9p_ahead_snap *snap);

struct d9p_ahead;

/* 0, or -1 (no memory, no thread): read the source directly then. */
int	 d9p_ahead_start(struct d9p_ahead **out, d9p_ahead_fn fn, void *ctx,
	    size_t slot_size);
/* The next result, in d9p_input_read's terms (its bytes up to cap at a
 * time); *snap: the source as it was after the call that gave them. */
ssize_t	 d9p_ahead_read(struct d9p_ahead *a, uint8_t *buf, size_t cap,
	    int *cut, struct d9_err *e, struct d9p_ahead_snap *snap);
/* Whether everything the producer made was handed out, and it stopped:
 * the source is the caller's again. */
int	 d9p_ahead_ended(const struct d9p_ahead *a);
/* Bytes made and not handed out yet. */
size_t	 d9p_ahead_queued(struct d9p_ahead *a);
/* Wait up to ms for a result to hand out: 1 there is one (or the
 * producer stopped), 0 not yet. */
int	 d9p_ahead_wait(struct d9p_ahead *a, int ms);
/* Stop the producer (cancelled if it is blocked reading) and free. */
void	 d9p_ahead_free(struct d9p_ahead **a);

#endif
