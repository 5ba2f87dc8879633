/*
 * index.h: lookups the browser needs on every key press, built once per
 * finished model (in the loader thread): busy-time prefix sums and block
 * maxima per worker lane (a timeline cell costs O(log n + cell/64)), polls
 * by duration (w, in the model's worst-poll order), long polls by start
 * (n/N) and the active-task step series.
 */
#ifndef D9T_INDEX_H
#define D9T_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define D9T_BLOCK	64	/* polls per block of bmax */

struct d9t_index {
	uint64_t	*busy;		/* per worker slot w: poll0 + w + i */
	uint64_t	*bmax;		/* longest poll per block, per lane */
	size_t		*boff;		/* first block of lane w */
	uint32_t	*by_dur;	/* poll rows, worst first (worst.h) */
	uint32_t	*longp;		/* polls > 1 ms, by start */
	size_t		 nlong;
	uint64_t	*act_ts;	/* active tasks after each step */
	uint32_t	*act_val;
	size_t		 nact;
};

struct d9t_index *d9t_index_build(const struct d9m_model *m);
void	 d9t_index_free(struct d9t_index **ix);

/* Busy (in-poll) ns of worker slot w in [a, b). */
uint64_t d9t_busy(const struct d9m_model *m, const struct d9t_index *ix,
	    uint32_t w, uint64_t a, uint64_t b);
/* Longest poll of slot w overlapping [a, b), D9_NONE if none. */
uint32_t d9t_longest(const struct d9m_model *m, const struct d9t_index *ix,
	    uint32_t w, uint64_t a, uint64_t b);
/* First poll row of slot w ending at or after ts (rows are by start). */
size_t	 d9t_first_poll(const struct d9m_model *m, uint32_t w, uint64_t ts);
/* Active tasks at ts. */
uint32_t d9t_active_at(const struct d9t_index *ix, uint64_t ts);

#endif
