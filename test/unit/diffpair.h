/*
 * diffpair.h: two runs of one small service for the compare tests
 * (--diff, --check, --chrome, the browser's baseline). Three spawn
 * locations polled on two workers, each poll woken just before it; on-CPU
 * samples of four functions; a blocking read in some polls; allocations
 * at two sites; a "request" span per poll of the API. In the new run
 * (regressed) the API's polls take 5 ms instead of 100 us, svc::hash
 * takes 70 % of the on-CPU samples instead of 10 %, the cache site
 * allocates ten times more and the request span is slower; the rest is
 * unchanged.
 */
#ifndef D9_DIFFPAIR_H
#define D9_DIFFPAIR_H

#include "mktrace.h"

#define DP_API		"svc/src/api.rs:10:5"	/* the location that regressed */
#define DP_DB		"svc/src/db.rs:20:5"
#define DP_CACHE	"svc/src/cache.rs:30:5"
#define DP_HOT		"svc::hash"		/* the function that got hot */
#define DP_POLLS	20	/* polls per location */
#define DP_API_OLD_NS	100000ull
#define DP_API_NEW_NS	5000000ull

enum { DP_BASE, DP_NEW, DP_BOTH };
/* The base run, the regressed one, or both in one trace: the base run
 * for DP_POLLS slots of 10 ms from 2 ms, the regressed one right after
 * (from DP_SPLIT_MS). */
#define DP_SPLIT_MS	202
void	mt_diffpair(struct mt *t, int mode);

#endif
