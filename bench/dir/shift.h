/*
 * shift.h: a dial9 trace moved in time. The shifter walks the decoded
 * bytes of a trace frame by frame (FORMAT.md 2) and writes them again
 * with every absolute monotonic time moved by a fixed number of
 * nanoseconds: the value of each Timestamp-reset frame (except a reset
 * to 0, which starts a symbol-table appendix, FORMAT 1.3), the fields
 * that hold absolute times (ClockSyncEvent realtime_ns, so the wall
 * clock moves with the monotonic one; FreeEvent alloc_timestamp_ns;
 * SpanCloseEvent start and first-enter times; fields annotated as a
 * single-event span's start) and, where a batch's first timestamped
 * event has no reset before it, a reset inserted in front of it.
 * Deltas are relative and stay as they are; everything else is copied
 * byte for byte, so a shift of 0 writes the input unchanged.
 *
 * Frames are not length-prefixed, so the shifter knows the schemas of
 * each batch; every read is bounds-checked and the first malformed frame
 * stops it with the decoded offset of the offending byte.
 */
#ifndef D9B_SHIFT_H
#define D9B_SHIFT_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* The copies' bytes as this shifter writes them: bumped whenever they
 * change, so the benchmark's stamp (hostdir.h) makes them again. */
#define D9B_SHIFT_VERSION	1

/* Where the shifted bytes go: write returns < 0 on failure. */
struct d9b_shift_out {
	void	*ctx;
	int	(*write)(void *ctx, const uint8_t *p, size_t n);
};

struct d9b_shift_stats {
	uint64_t	 events;	/* event frames */
	uint64_t	 resets;	/* resets moved */
	uint64_t	 inserted;	/* resets inserted */
	uint64_t	 fields;	/* absolute-time field values moved */
	uint64_t	 first, last;	/* earliest and latest event time
					 * (before the shift; not the
					 * appendix's), first > last: none */
};

/*
 * Shift the trace p[0, n) by shift ns into out. Returns 0, or < 0 with e
 * set (e->off: decoded offset of the offending byte). A time the shift
 * would take below 0 or past 2^64 is an error.
 */
int	d9b_shift(const uint8_t *p, size_t n, int64_t shift,
	    const struct d9b_shift_out *out, struct d9b_shift_stats *st,
	    struct d9_err *e);

#endif
