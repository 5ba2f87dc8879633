/*
 * mktrace.h: small dial9 traces for model tests, written with the parse
 * tests' trace writer: one header, the runtime schemas, then events at
 * absolute timestamps (resets are inserted as needed).
 */
#ifndef D9_MKTRACE_H
#define D9_MKTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "../parse/tracegen.h"
#include "model/model.h"

struct mt {
	struct tg	 tg;
	uint64_t	 base;
};

void	mt_begin(struct mt *m);
/* An event header of schema id at ts (a reset first when needed); the
 * caller appends the values. Ids from 32 up are free for the caller's
 * own schemas. */
void	mt_event(struct mt *m, uint16_t id, uint64_t ts);
void	mt_poll_start(struct mt *m, uint64_t ts, unsigned w, uint64_t task,
	    const char *loc);
/* The same with a location that may hold NULs. */
void	mt_poll_start_n(struct mt *m, uint64_t ts, unsigned w, uint64_t task,
	    const char *loc, size_t len);
void	mt_poll_end(struct mt *m, uint64_t ts, unsigned w);
void	mt_park(struct mt *m, uint64_t ts, unsigned w, uint64_t cpu,
	    uint32_t tid);
void	mt_unpark(struct mt *m, uint64_t ts, unsigned w, uint64_t cpu,
	    uint32_t tid, uint64_t sched_wait);
void	mt_wake(struct mt *m, uint64_t ts, uint64_t waker, uint64_t woken,
	    unsigned w);
void	mt_spawn(struct mt *m, uint64_t ts, uint64_t task, const char *loc);
void	mt_term(struct mt *m, uint64_t ts, uint64_t task);
void	mt_cpu(struct mt *m, uint64_t ts, uint32_t tid, unsigned source,
	    size_t n, const uint64_t *frames);
void	mt_span(struct mt *m, int kind, uint64_t ts, unsigned w, uint64_t id,
	    const char *name);
void	mt_alloc(struct mt *m, uint64_t ts, uint64_t size, uint64_t addr,
	    size_t n, const uint64_t *frames);
void	mt_free(struct mt *m, uint64_t ts, uint64_t addr, uint64_t size,
	    uint64_t alloc_ts);
void	mt_dump(struct mt *m, uint64_t ts, uint64_t task, size_t n,
	    const uint64_t *frames);
void	mt_meta(struct mt *m, const char *key, const char *value);
/* A ClockSyncEvent: monotonic ts is wall-clock realtime. */
void	mt_clock(struct mt *m, uint64_t ts, uint64_t realtime);
void	mt_overflow(struct mt *m, uint64_t ts, uint64_t allocs,
	    uint64_t frees);
void	mt_symbol(struct mt *m, uint64_t addr, const char *name,
	    unsigned depth);
/* Write to a temp file (name returned, malloc'd). */
char	*mt_write(struct mt *m);
/* Load one or more files into a finished model. */
struct d9m_model *mt_load(const char *const *paths, size_t n);
/* Convenience: write, load, remove, free the writer. */
struct d9m_model *mt_finish(struct mt *m);

#endif
