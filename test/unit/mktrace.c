/* mktrace.c: see mktrace.h. Type ids are fixed per schema; names, fields
 * and types come from base/schemas.h, strings and stacks written inline.
 * An old-dialect writer (mt_begin_old) declares each schema with the
 * fields producers wrote before dial9 0.5 only (schemas.h lists those
 * first). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/schemas.h"
#include "base/wire.h"
#include "mktrace.h"

enum { S_START = 1, S_END, S_PARK, S_UNPARK, S_WAKE, S_SPAWN, S_TERM, S_CPU,
    S_ENTER, S_EXIT, S_CLOSE, S_ALLOC, S_FREE, S_META, S_SYM, S_DUMP,
    S_OVERFLOW, S_CLOCK, S_QUEUE, S_RTM, S_MENTER, S_MEXIT, S_MCLOSE,
    S_LAST };

/* How many of a schema's fields a producer before dial9 0.5 wrote. */
static size_t
old_fields(enum d9_schema sch, size_t n)
{
	switch (sch) {
	case D9_SCH_SPAN_ENTER: return D9_F_SPAN_ENTER_INSTANCE_ID;
	case D9_SCH_SPAN_EXIT: return D9_F_SPAN_EXIT_INSTANCE_ID;
	case D9_SCH_SPAN_CLOSE: return D9_F_SPAN_CLOSE_SPAN_INSTANCE_ID;
	case D9_SCH_SPAWN: return D9_F_SPAWN_WORKER_ID;
	case D9_SCH_QUEUE: return D9_F_QUEUE_ACTIVE_TASKS;
	default: return n;
	}
}

/* The wire type a writer without pools declares for a list type. */
static uint8_t
inline_form(uint8_t type)
{
	uint8_t opt = type & D9_FT_OPTIONAL;

	switch (type & ~D9_FT_OPTIONAL) {
	case D9_FT_POOLED_STRING:
		return D9_FT_STRING | opt;
	case D9_FT_POOLED_STACK:
		return D9_FT_STACK | opt;
	default:
		return type;
	}
}

/* Schema sch of base/schemas.h as type id `id`: named name, else its
 * name followed by site, its fields in list order (strings and stacks
 * inline; an old writer's only), then the declared field `extra` when
 * not NULL. */
static void
schema(struct mt *m, uint16_t id, enum d9_schema sch, const char *site,
    const char *name_as, const struct tg_field *extra)
{
	const struct d9_schema_def *d = d9_schema(sch);
	struct tg_field f[D9_NF_MAX + 1];
	size_t nf = m->old ? old_fields(sch, d->nfields) : d->nfields;
	char name[128];
	size_t n;

	for (n = 0; n < nf; n++) {
		f[n].name = d->fields[n].name;
		f[n].type = inline_form(d->fields[n].type);
	}
	if (extra != NULL)
		f[n++] = *extra;
	snprintf(name, sizeof name, "%s%s", d->name, site);
	tg_schema(&m->tg, id, name_as ? name_as : name, 1, n, f);
}

static void
begin(struct mt *m, int old)
{
	static const uint8_t sch[] = {
		[S_START] = D9_SCH_POLL_START, [S_END] = D9_SCH_POLL_END,
		[S_PARK] = D9_SCH_PARK, [S_UNPARK] = D9_SCH_UNPARK,
		[S_WAKE] = D9_SCH_WAKE, [S_SPAWN] = D9_SCH_SPAWN,
		[S_TERM] = D9_SCH_TERMINATE, [S_CPU] = D9_SCH_CPU,
		[S_ENTER] = D9_SCH_SPAN_ENTER, [S_EXIT] = D9_SCH_SPAN_EXIT,
		[S_CLOSE] = D9_SCH_SPAN_CLOSE, [S_ALLOC] = D9_SCH_ALLOC,
		[S_FREE] = D9_SCH_FREE, [S_META] = D9_SCH_SEGMENT_META,
		[S_SYM] = D9_SCH_SYMBOL, [S_DUMP] = D9_SCH_TASK_DUMP,
		[S_OVERFLOW] = D9_SCH_MEM_OVERFLOW,
		[S_CLOCK] = D9_SCH_CLOCK_SYNC, [S_QUEUE] = D9_SCH_QUEUE,
		[S_RTM] = D9_SCH_RT_METRICS, [S_MENTER] = D9_SCH_SPAN_ENTER,
		[S_MEXIT] = D9_SCH_SPAN_EXIT, [S_MCLOSE] = D9_SCH_SPAN_CLOSE,
	};
	/* 0.5 spans of a struct-derived producer (FORMAT 5) */
	static const char *const as[S_LAST] = {
		[S_MENTER] = "SpanEnter__Req", [S_MEXIT] = "SpanExit__Req",
		[S_MCLOSE] = "SpanClose__Req",
	};
	static const struct tg_field user = { "user",
	    D9_FT_STRING | D9_FT_OPTIONAL };

	tg_init(&m->tg);
	m->base = 0;
	m->old = old;
	tg_header(&m->tg);
	for (uint16_t id = S_START; id < (old ? S_RTM : S_LAST); id++) {
		int span = id == S_ENTER || id == S_EXIT || id == S_MENTER ||
		    id == S_MEXIT;

		/* nobody writes QueueSampleEvent's 0.5 field */
		m->old = old || id == S_QUEUE;
		schema(m, id, sch[id], span ? "app::work:src/lib.rs:10" : "",
		    as[id], span ? &user : NULL);
	}
	m->old = old;
}

void
mt_begin(struct mt *m)
{
	begin(m, 0);
}

void
mt_begin_old(struct mt *m)
{
	begin(m, 1);
}

void
mt_event(struct mt *m, uint16_t id, uint64_t ts)
{
	if (ts < m->base || ts - m->base > D9_TS_DELTA_MAX) {
		tg_ts_reset(&m->tg, ts);
		m->base = ts;
	}
	tg_event(&m->tg, id, (uint32_t)(ts - m->base));
	m->base = ts;
}

void
mt_poll_start(struct mt *m, uint64_t ts, uint64_t w, uint64_t task,
    const char *loc)
{
	mt_poll_start_n(m, ts, w, task, loc, strlen(loc));
}

void
mt_poll_start_n(struct mt *m, uint64_t ts, uint64_t w, uint64_t task,
    const char *loc, size_t len)
{
	mt_event(m, S_START, ts);
	tg_leb(&m->tg, w);
	tg_u8(&m->tg, 0);
	tg_leb(&m->tg, task);
	tg_str32n(&m->tg, loc, len);
}

void
mt_poll_end(struct mt *m, uint64_t ts, uint64_t w)
{
	mt_event(m, S_END, ts);
	tg_leb(&m->tg, w);
}

void
mt_park(struct mt *m, uint64_t ts, uint64_t w, uint64_t cpu, uint32_t tid)
{
	mt_event(m, S_PARK, ts);
	tg_leb(&m->tg, w);
	tg_u8(&m->tg, 0);
	tg_leb(&m->tg, cpu);
	tg_u32(&m->tg, tid);
}

void
mt_unpark(struct mt *m, uint64_t ts, uint64_t w, uint64_t cpu, uint32_t tid,
    uint64_t sched_wait)
{
	mt_event(m, S_UNPARK, ts);
	tg_leb(&m->tg, w);
	tg_u8(&m->tg, 0);
	tg_leb(&m->tg, cpu);
	tg_u8(&m->tg, sched_wait != UINT64_MAX);
	if (sched_wait != UINT64_MAX)
		tg_leb(&m->tg, sched_wait);
	tg_u32(&m->tg, tid);
}

void
mt_wake(struct mt *m, uint64_t ts, uint64_t waker, uint64_t woken, unsigned w)
{
	mt_event(m, S_WAKE, ts);
	tg_leb(&m->tg, waker);
	tg_leb(&m->tg, woken);
	tg_u8(&m->tg, (uint8_t)w);
}

void
mt_spawn(struct mt *m, uint64_t ts, uint64_t task, const char *loc)
{
	mt_event(m, S_SPAWN, ts);
	tg_leb(&m->tg, task);
	tg_str32(&m->tg, loc);
	tg_u8(&m->tg, 1);		/* instrumented */
	if (!m->old)
		tg_u8(&m->tg, 0);	/* no worker_id */
}

void
mt_spawn_w(struct mt *m, uint64_t ts, uint64_t task, const char *loc,
    unsigned w, int instrumented)
{
	mt_event(m, S_SPAWN, ts);
	tg_leb(&m->tg, task);
	tg_str32(&m->tg, loc);
	tg_u8(&m->tg, (uint8_t)instrumented);
	tg_u8(&m->tg, 1);
	tg_leb(&m->tg, w);
}

void
mt_term(struct mt *m, uint64_t ts, uint64_t task)
{
	mt_event(m, S_TERM, ts);
	tg_leb(&m->tg, task);
}

void
mt_cpu(struct mt *m, uint64_t ts, uint32_t tid, unsigned source, size_t n,
    const uint64_t *frames)
{
	mt_event(m, S_CPU, ts);
	tg_leb(&m->tg, 255);
	tg_u32(&m->tg, tid);
	tg_u8(&m->tg, (uint8_t)source);
	tg_u8(&m->tg, 0);		/* no thread name */
	tg_v_stack(&m->tg, n, frames);
	tg_u8(&m->tg, 0);		/* no cpu */
}

void
mt_cpu_named(struct mt *m, uint64_t ts, uint64_t w, uint32_t tid,
    const char *name, size_t n, const uint64_t *frames)
{
	mt_event(m, S_CPU, ts);
	tg_leb(&m->tg, w);
	tg_u32(&m->tg, tid);
	tg_u8(&m->tg, 0);		/* on-CPU */
	tg_u8(&m->tg, 1);
	tg_str32(&m->tg, name);
	tg_v_stack(&m->tg, n, frames);
	tg_u8(&m->tg, 0);		/* no cpu */
}

/* The fields of a 0.5 close after span_id (attributes: key = val when
 * key is not NULL). */
static void
close_rest(struct mt *m, uint64_t inst, uint64_t start, const char *name,
    uint64_t parent, const char *key, const char *val)
{
	const char *kv[] = { key, val };

	tg_leb(&m->tg, inst);
	tg_leb(&m->tg, start);
	tg_u8(&m->tg, 0);		/* first enter: absent */
	tg_leb(&m->tg, 0);		/* active_ns: not reported */
	tg_str32(&m->tg, name);
	tg_str32(&m->tg, "app");
	tg_u8(&m->tg, 1);
	tg_str32(&m->tg, "src/lib.rs");
	tg_u8(&m->tg, 1);
	tg_u32(&m->tg, 20);
	tg_u8(&m->tg, parent != 0);
	if (parent != 0)
		tg_leb(&m->tg, parent);
	tg_v_map(&m->tg, key != NULL, kv);
	tg_u32(&m->tg, 0);		/* unbalanced_enters */
}

void
mt_span(struct mt *m, int kind, uint64_t ts, unsigned w, uint64_t id,
    const char *name)
{
	mt_event(m, kind == 0 ? S_ENTER : kind == 1 ? S_EXIT : S_CLOSE, ts);
	if (kind == 2) {
		tg_leb(&m->tg, id);
		if (!m->old)
			close_rest(m, 0, 0, "", 0, NULL, NULL);
		return;
	}
	tg_leb(&m->tg, w);
	tg_leb(&m->tg, id);
	if (kind == 0)
		tg_u8(&m->tg, 0);	/* no parent */
	tg_str32(&m->tg, name);
	if (!m->old) {
		tg_leb(&m->tg, 0);	/* span_instance_id 0: legacy */
		tg_leb(&m->tg, 0);
	}
	tg_u8(&m->tg, 1);
	tg_str32(&m->tg, "alice");
}

void
mt_mspan(struct mt *m, int kind, uint64_t ts, unsigned w, uint64_t inst,
    uint32_t tid, const char *name)
{
	mt_event(m, kind == 0 ? S_MENTER : S_MEXIT, ts);
	tg_leb(&m->tg, w);
	tg_leb(&m->tg, inst);		/* span_id */
	if (kind == 0)
		tg_u8(&m->tg, 0);	/* no parent span id */
	tg_str32(&m->tg, name);
	tg_leb(&m->tg, inst);
	tg_leb(&m->tg, tid);
	tg_u8(&m->tg, 1);
	tg_str32(&m->tg, "bob");
}

void
mt_mclose(struct mt *m, uint64_t ts, uint64_t inst, uint64_t start,
    const char *name, uint64_t parent, const char *key, const char *val)
{
	mt_event(m, S_MCLOSE, ts);
	tg_leb(&m->tg, inst);		/* span_id */
	close_rest(m, inst, start, name, parent, key, val);
}

void
mt_queue(struct mt *m, uint64_t ts, unsigned global)
{
	mt_event(m, S_QUEUE, ts);
	tg_u8(&m->tg, (uint8_t)global);
}

void
mt_runtime(struct mt *m, uint64_t ts, const char *name, uint32_t depth,
    uint32_t alive)
{
	mt_event(m, S_RTM, ts);
	tg_str32(&m->tg, name);
	tg_u32(&m->tg, depth);
	tg_u32(&m->tg, alive);
}

void
mt_alloc(struct mt *m, uint64_t ts, uint64_t size, uint64_t addr, size_t n,
    const uint64_t *frames)
{
	mt_event(m, S_ALLOC, ts);
	tg_u32(&m->tg, 1);
	tg_leb(&m->tg, size);
	tg_leb(&m->tg, addr);
	tg_v_stack(&m->tg, n, frames);
}

void
mt_free(struct mt *m, uint64_t ts, uint64_t addr, uint64_t size,
    uint64_t alloc_ts)
{
	mt_event(m, S_FREE, ts);
	tg_u32(&m->tg, 1);
	tg_leb(&m->tg, addr);
	tg_leb(&m->tg, size);
	tg_leb(&m->tg, alloc_ts);
}

void
mt_dump(struct mt *m, uint64_t ts, uint64_t task, size_t n,
    const uint64_t *frames)
{
	mt_event(m, S_DUMP, ts);
	tg_leb(&m->tg, task);
	tg_v_stack(&m->tg, n, frames);
}

void
mt_meta(struct mt *m, const char *key, const char *value)
{
	const char *kv[] = { key, value };

	mt_event(m, S_META, m->base);
	tg_v_map(&m->tg, 1, kv);
}

void
mt_clock(struct mt *m, uint64_t ts, uint64_t realtime)
{
	mt_event(m, S_CLOCK, ts);
	tg_leb(&m->tg, realtime);
}

void
mt_overflow(struct mt *m, uint64_t ts, uint64_t allocs, uint64_t frees)
{
	mt_event(m, S_OVERFLOW, ts);
	tg_leb(&m->tg, allocs);
	tg_leb(&m->tg, frees);
}

void
mt_symbol(struct mt *m, uint64_t addr, const char *name, unsigned depth)
{
	mt_event(m, S_SYM, m->base);
	tg_leb(&m->tg, addr);
	tg_leb(&m->tg, 0);
	tg_str32(&m->tg, name);
	tg_leb(&m->tg, depth);
	tg_str32(&m->tg, "src/lib.rs");
	tg_leb(&m->tg, 42);
}

void
mt_many_workers(struct mt *m, uint64_t id0, size_t n, uint32_t tid0)
{
	static const uint64_t stack[] = { 0x1000, 0x2000 };
	char name[32];

	for (size_t i = 0; i < n; i++) {
		uint64_t ts = 1000000000ull + i * 1000, w = id0 + i;
		uint32_t tid = tid0 + (uint32_t)i;

		snprintf(name, sizeof name, "t%zu", i);
		mt_unpark(m, ts, w, 0, tid, 100);
		mt_poll_start(m, ts + 100, w, i + 1, "src/main.rs:1:1");
		mt_cpu_named(m, ts + 200, w, tid, name, 2, stack);
		mt_poll_end(m, ts + 500, w);
		mt_park(m, ts + 600, w, 400, tid);
	}
}

char *
mt_write(struct mt *m)
{
	char *path = strdup("/tmp/d9unit-XXXXXX");
	int fd = mkstemp(path);

	ck_assert(fd >= 0);
	ck_assert(write(fd, m->tg.p, m->tg.n) == (ssize_t)m->tg.n);
	close(fd);
	return path;
}

struct d9m_model *
mt_load(const char *const *paths, size_t n)
{
	return mt_load_as(paths, n, 0);
}

struct d9m_model *
mt_load_as(const char *const *paths, size_t n, int stream_only)
{
	struct d9m_model *md = d9m_model_new();
	struct d9p_read_stats st;

	ck_assert_ptr_nonnull(md);
	md->stream_only = stream_only;
	ck_assert_int_eq(d9m_model_load(md, paths, n, NULL, NULL, NULL, &st), 0);
	ck_assert_int_eq(d9m_model_finish(md), 0);
	return md;
}

struct d9m_model *
mt_finish(struct mt *m)
{
	char *path = mt_write(m);
	const char *paths[] = { path };
	struct d9m_model *md = mt_load(paths, 1);

	ck_assert_uint_eq(md->nerrors, 0);
	unlink(path);
	free(path);
	tg_free(&m->tg);
	return md;
}
