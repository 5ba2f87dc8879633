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
#include "model/core/model.h"

struct mt {
	struct tg	 tg;
	uint64_t	 base;
	int		 old;		/* the dialect before dial9 0.5 */
};

void	mt_begin(struct mt *m);
/* The same writing what producers wrote before dial9 0.5 (no span
 * instance ids, no RuntimeMetricsEvent, no spawn worker id). */
void	mt_begin_old(struct mt *m);
/* An event header of schema id at ts (a reset first when needed); the
 * caller appends the values. Ids from 32 up are free for the caller's
 * own schemas. */
void	mt_event(struct mt *m, uint16_t id, uint64_t ts);
void	mt_poll_start(struct mt *m, uint64_t ts, uint64_t w, uint64_t task,
	    const char *loc);
/* The same with a location that may hold NULs. */
void	mt_poll_start_n(struct mt *m, uint64_t ts, uint64_t w, uint64_t task,
	    const char *loc, size_t len);
void	mt_poll_end(struct mt *m, uint64_t ts, uint64_t w);
void	mt_park(struct mt *m, uint64_t ts, uint64_t w, uint64_t cpu,
	    uint32_t tid);
/* sched_wait UINT64_MAX: not measured (absent). */
void	mt_unpark(struct mt *m, uint64_t ts, uint64_t w, uint64_t cpu,
	    uint32_t tid, uint64_t sched_wait);
void	mt_wake(struct mt *m, uint64_t ts, uint64_t waker, uint64_t woken,
	    unsigned w);
void	mt_spawn(struct mt *m, uint64_t ts, uint64_t task, const char *loc);
/* dial9 0.5: spawned on worker w (TaskSpawnEvent worker_id). */
void	mt_spawn_w(struct mt *m, uint64_t ts, uint64_t task, const char *loc,
	    unsigned w, int instrumented);
void	mt_term(struct mt *m, uint64_t ts, uint64_t task);
void	mt_cpu(struct mt *m, uint64_t ts, uint32_t tid, unsigned source,
	    size_t n, const uint64_t *frames);
/* An on-CPU sample of worker w on thread tid named name. */
void	mt_cpu_named(struct mt *m, uint64_t ts, uint64_t w, uint32_t tid,
	    const char *name, size_t n, const uint64_t *frames);
/* Legacy span event: kind 0 enter, 1 exit, 2 close (of span id). */
void	mt_span(struct mt *m, int kind, uint64_t ts, unsigned w, uint64_t id,
	    const char *name);
/* dial9 0.5 span events (SpanEnter__Req, SpanExit__Req, SpanClose__Req):
 * kind 0 enter, 1 exit of instance inst on thread tid; the close with
 * its start, name, parent instance (0: none) and one attribute (key
 * NULL: none). */
void	mt_mspan(struct mt *m, int kind, uint64_t ts, unsigned w, uint64_t inst,
	    uint32_t tid, const char *name);
void	mt_mclose(struct mt *m, uint64_t ts, uint64_t inst, uint64_t start,
	    const char *name, uint64_t parent, const char *key,
	    const char *val);
/* QueueSampleEvent (all runtimes), RuntimeMetricsEvent (one). */
void	mt_queue(struct mt *m, uint64_t ts, unsigned global);
void	mt_runtime(struct mt *m, uint64_t ts, const char *name, uint32_t depth,
	    uint32_t alive);
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
/* n workers, ids id0, id0 + 1, ...: each polls task i + 1 once, parks
 * and unparks on thread tid0 + i, and has an on-CPU sample there on a
 * thread named "t<i>"; 1 us apart, from 1 s on. For the cost of many
 * distinct worker and thread ids (bench/ids). */
void	mt_many_workers(struct mt *m, uint64_t id0, size_t n, uint32_t tid0);
/* Write to a temp file (name returned, malloc'd). */
char	*mt_write(struct mt *m);
/* Load one or more files into a finished model. */
struct d9m_model *mt_load(const char *const *paths, size_t n);
/* The same, every input streamed when stream_only (d9m_model's). */
struct d9m_model *mt_load_as(const char *const *paths, size_t n,
    int stream_only);
/* Convenience: write, load, remove, free the writer. */
struct d9m_model *mt_finish(struct mt *m);

#endif
