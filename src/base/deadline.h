/*
 * deadline.h: the CLOCK_REALTIME time ms from now, as
 * pthread_cond_timedwait wants it (a condition's default clock).
 */
#ifndef D9_DEADLINE_H
#define D9_DEADLINE_H

#include <stdint.h>
#include <time.h>

static inline struct timespec
d9_deadline(uint64_t ms)
{
	struct timespec t;
	uint64_t ns;

	clock_gettime(CLOCK_REALTIME, &t);
	ns = (uint64_t)t.tv_nsec + ms * 1000000u;
	t.tv_sec += (time_t)(ns / 1000000000u);
	t.tv_nsec = (long)(ns % 1000000000u);
	return t;
}

#endif
