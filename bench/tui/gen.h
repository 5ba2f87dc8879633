/*
 * gen.h: a synthetic dial9 trace for the browser benchmark, written with
 * the wire constants of src/base/wire.h: workers polling tasks from a
 * few spawn locations, parks, wakes, queue samples, CPU and off-CPU
 * samples with pooled stacks, allocations and spans, in time order.
 */
#ifndef D9T_BENCH_GEN_H
#define D9T_BENCH_GEN_H

#include <stddef.h>
#include <stdint.h>

struct gen_buf {
	uint8_t	*p;
	size_t	 n, cap;
};

/* Append about `events` events (one segment) to b; returns the count. */
uint64_t gen_trace(struct gen_buf *b, uint64_t events, unsigned workers);

#endif
