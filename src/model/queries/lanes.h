/*
 * lanes.h: lookups the browser needs on every key press, built once per
 * finished model (in the loader thread, or read from the index with the
 * model: image.h): busy-time prefix sums and block maxima per worker lane
 * (a timeline cell costs O(log n + cell/64)), polls by duration (w, in
 * the model's worst-poll order), long polls by start (n/N) and the
 * active-task step series.
 */
#ifndef D9M_LANES_H
#define D9M_LANES_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/model.h"

#define D9M_BLOCK	64	/* polls per block of bmax */

struct d9m_lanes {
	uint64_t	*busy;		/* per worker slot w: poll0 + w + i */
	uint64_t	*bmax;		/* longest poll per block, per lane */
	size_t		*boff;		/* first block of lane w */
	uint32_t	*by_dur;	/* poll rows, worst first (worst.h) */
	uint32_t	*longp;		/* polls > 1 ms, by start */
	size_t		 nlong;
	uint64_t	*act_ts;	/* active tasks after each step */
	uint32_t	*act_val;
	size_t		 nact;
	int		 mapped;	/* arrays in an image: not freed */
};

struct d9m_lanes *d9m_lanes_build(const struct d9m_model *m);
void	 d9m_lanes_free(struct d9m_lanes **ix);

/* Busy (in-poll) ns of worker slot w in [a, b). */
uint64_t d9m_busy(const struct d9m_model *m, const struct d9m_lanes *ix,
	    uint32_t w, uint64_t a, uint64_t b);
/* Longest poll of slot w overlapping [a, b), D9_NONE if none. */
uint32_t d9m_longest(const struct d9m_model *m, const struct d9m_lanes *ix,
	    uint32_t w, uint64_t a, uint64_t b);
/* d9m_busy and d9m_longest of slot w for each column c of edges[0 ..
 * ncols] (ascending) at once: busy[c], and the length of the longest
 * poll into longest[c] where busy[c] > 0 (else 0). The searches go on
 * from the previous column's rows: a whole lane costs about what one
 * cell's searches did. */
void	 d9m_lane_cells(const struct d9m_model *m, const struct d9m_lanes *ix,
	    uint32_t w, const uint64_t *edges, size_t ncols, uint64_t *busy,
	    uint64_t *longest);
/* First poll row of slot w ending at or after ts (rows are by start). */
size_t	 d9m_first_poll(const struct d9m_model *m, uint32_t w, uint64_t ts);
/* The polls of lane w of spawn location loc and task t (D9_NONE: any)
 * per column c of edges[0 .. ncols]: their time in the column into
 * busy[c], the longest of those touching it into longest[c] (at least 1
 * where one does, 0 where none). The timeline's filtered lanes. */
void	 d9m_lane_filtered(const struct d9m_model *m, uint32_t w, uint32_t loc,
	    uint32_t t, const uint64_t *edges, size_t ncols, uint64_t *busy,
	    uint64_t *longest);
/* Active tasks at ts. */
uint32_t d9m_active_at(const struct d9m_lanes *ix, uint64_t ts);

#endif
