/*
 * stack.c: a thread's stack bounds and frame-pointer walks inside them,
 * for the callchains of allocation samples (alloc.c) and of the timer
 * CPU sampler's signal handler (cputimer.c).
 *
 * A walk reads only 16-byte frame records (the caller's frame pointer,
 * then the return address) that lie wholly in [lo, hi), each above the
 * one before, so it cannot fault when [lo, hi) is mapped stack and it
 * ends on any chain that is broken (a function without frame pointers,
 * a foreign stack). Async-signal-safe: no call, no lock, no allocation.
 */
#include <pthread.h>

#include "rec/rec.h"

void
d9rec_stack_bounds(uintptr_t *lo, uintptr_t *hi)
{
	pthread_attr_t a;
	void *base;
	size_t size;

	*lo = *hi = 0;
	if (pthread_getattr_np(pthread_self(), &a) != 0)
		return;
	if (pthread_attr_getstack(&a, &base, &size) == 0) {
		*lo = (uintptr_t)base;
		*hi = (uintptr_t)base + size;
	}
	pthread_attr_destroy(&a);
}

__attribute__((no_sanitize("address", "undefined")))
uint32_t
d9rec_stack_walk(uintptr_t fp, uintptr_t lo, uintptr_t hi, uint64_t *f,
    uint32_t max)
{
	uint32_t n = 0;

	while (n < max && fp >= lo && hi >= 16 && fp <= hi - 16 &&
	    (fp & 7) == 0) {
		const volatile uintptr_t *rec = (const volatile uintptr_t *)fp;
		uintptr_t next = rec[0], ret = rec[1];

		if (ret == 0)
			break;
		f[n++] = ret;
		if (next <= fp)
			break;
		fp = next;
	}
	return n;
}
