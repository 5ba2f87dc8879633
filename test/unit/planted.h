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

/* A 20 ms poll of task 7 on worker 0 with 20 on-CPU samples of one
 * 70-frame stack, half of them at a second address of the leaf function
 * deep::leaf (the frames above it are deep::level_1 .. deep::level_69). */
#define PL_DEEP		70
void	mt_deep(struct mt *t);

/*
 * Application events: workers 0 and 1 (threads 100 and 101) poll tasks
 * 1 (20..30 ms, worker 0), 2 (40..50 ms, worker 1) and 3 (60..70 ms,
 * worker 0). LogLine events {worker_id?, tid?, request_id, msg}: at
 * 25 ms worker_id 0 req-7, at 45 ms tid 101 (no worker_id) req-7, at
 * 65 ms worker_id 0 req-9. A span "handle" with request_id req-7 on
 * worker 1 from 41 to 49 ms.
 */
#define PL_EV_A		(25 * PL_MS)
#define PL_EV_B		(45 * PL_MS)
#define PL_EV_C		(65 * PL_MS)
#define PL_EV_SPAN	(41 * PL_MS)
void	mt_events(struct mt *t);

/*
 * Memory and task dumps: memory.sample_rate_bytes 1, so an allocation
 * weighs its size; allocations (in app::buf) A of 1000 B at 10 ms from
 * app::cache, B of 2000 B at 20 ms from app::parse, C of 4000 B at
 * 40 ms from app::cache; A is freed at 30 ms. Live bytes at the ends of the 10 ms columns from 0:
 * 0, 1000, 3000, 2000, 6000; under app::parse 0, 0, 2000, 2000, 2000.
 * Task 1 is polled on worker 0 at 10..11 ms and 20..21 ms; its dump
 * stamped at 10 ms (leaf app::wait) stands for 9 ms idle. Worker 0
 * parks at 50 ms.
 */
#define PL_MEM_END	(50 * PL_MS)
void	mt_memory(struct mt *t);

/*
 * One process of a directory of two: segment metadata service "api",
 * host and boot_id as given, a clock sync at t0 (wall clock `wall`)
 * unless !clock, and nw workers polling task 1 + w every 10 ms, npolls
 * times from t0 (the fourth poll of each worker 2 ms long, the others
 * 100 us).
 */
void	mt_process(struct mt *t, const char *host, const char *boot,
	    uint64_t t0, uint64_t wall, int clock, unsigned nw,
	    unsigned npolls);

#endif
