/*
 * clock.h: CLOCK_MONOTONIC in seconds, for paces and progress (never
 * for figures: those come from the trace).
 */
#ifndef D9_CLOCK_H
#define D9_CLOCK_H

#include <time.h>

static inline double
d9_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
