/*
 * planted.h: a trace with something planted for each verdict class and
 * each red flag the analysis can raise on a small trace: eight 12 ms
 * polls on worker 0, one per verdict class (the last without samples),
 * wake-to-poll delays of 4 ms and 6 ms, a 3 ms kernel wait, short on-CPU
 * stacks, a busy and an idle worker, low CPU on worker 1, a poll with 21
 * spans and a span that never exits. The tests that read it and the
 * screen tests (through mkplanted) share it.
 */
#ifndef D9_PLANTED_H
#define D9_PLANTED_H

#include <stdint.h>

#include "mktrace.h"

#define PL_MS		1000000ull
#define PL_T0		(100 * PL_MS)	/* first class poll */
#define PL_POLL		(12 * PL_MS)	/* each class poll */
#define PL_GAP		(20 * PL_MS)	/* class poll starts apart */
#define PL_DELAY4	(400 * PL_MS)	/* the 4 ms delay ends here */
#define PL_DELAY6	(450 * PL_MS)	/* the 6 ms delay ends here */

/* Class poll k (0 cpu, 1 preempted, 2 lock, 3 sleep, 4 io, 5 fault,
 * 6 blocked, 7 none) is task 101 + k at PL_T0 + k * PL_GAP. */
void	mt_planted(struct mt *t);

#endif
