/*
 * timeaxis.h: the one mapping between nanoseconds and columns that every
 * time panel uses, time formatting (units as in the report), wall-clock
 * time from ClockSyncEvent anchors (ANALYSIS 10, nearest preceding
 * anchor), and parsing what the user types after `g`.
 */
#ifndef D9T_TIMEAXIS_H
#define D9T_TIMEAXIS_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/model.h"

struct d9t_axis {
	uint64_t	lo, hi;		/* window, absolute ns, hi > lo */
	int		x0, w;		/* first column and width */
};

/* Column of ts (may lie outside [x0, x0 + w)). */
int	 d9t_axis_x(const struct d9t_axis *ax, uint64_t ts);
/* First ns of column x. */
uint64_t d9t_axis_t(const struct d9t_axis *ax, int x);

/* 5.90ms, 12.3µs (12.3us without UTF-8), 850ns, 1.25s. */
void	 d9t_fmt_dur(char *out, size_t cap, uint64_t ns, int utf8);
/* Seconds from trace start with `dec` decimals: "145.356s". */
void	 d9t_fmt_rel(char *out, size_t cap, uint64_t ns, int dec);
/* Time ts from the trace's start t0, as d9t_fmt_rel, with a '-' when it
 * is before it (a spawn before the first event). */
void	 d9t_fmt_since(char *out, size_t cap, uint64_t t0, uint64_t ts,
	    int dec);
/* Wall-clock ns of monotonic ts; 0 when the trace has no anchor. */
int64_t	 d9t_wall(const struct d9m_model *m, uint64_t ts, int *have);
/* "2026-06-01 12:00:03.123456" (with_date) or "12:00:03.123456" UTC. */
void	 d9t_fmt_wall(char *out, size_t cap, int64_t wall_ns, int with_date);
/* Parse a `g` answer into an absolute time: "1.5s", "250ms", "30us",
 * "800ns", "42" (ms) from trace start; "+5ms"/"-5ms" from cur; and
 * "HH:MM:SS[.frac]" wall clock on the day of the trace. 0 or -1. */
int	 d9t_parse_time(const struct d9m_model *m, const char *s, uint64_t cur,
	    uint64_t *out);
/* A tick step (1, 2, 5 x 10^k ns) giving at least min_cols per tick. */
uint64_t d9t_tick_step(uint64_t span, int w, int min_cols);

#endif
