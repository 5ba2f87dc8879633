/* mktrace.c: see mktrace.h. Type ids are fixed per schema. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/wire.h"
#include "mktrace.h"

enum { S_START = 1, S_END, S_PARK, S_UNPARK, S_WAKE, S_SPAWN, S_TERM, S_CPU,
    S_ENTER, S_EXIT, S_CLOSE, S_ALLOC, S_FREE, S_META, S_SYM, S_DUMP, S_OVERFLOW };

void
mt_begin(struct mt *m)
{
	static const struct tg_field start[] = { { "worker_id", 9 },
		{ "local_queue", 11 }, { "task_id", 9 }, { "spawn_loc", 4 } };
	static const struct tg_field end[] = { { "worker_id", 9 } };
	static const struct tg_field park[] = { { "worker_id", 9 },
		{ "local_queue", 11 }, { "cpu_time_ns", 9 }, { "tid", 13 } };
	static const struct tg_field unpark[] = { { "worker_id", 9 },
		{ "local_queue", 11 }, { "cpu_time_ns", 9 },
		{ "sched_wait_ns", 0x89 }, { "tid", 13 } };
	static const struct tg_field wake[] = { { "waker_task_id", 9 },
		{ "woken_task_id", 9 }, { "target_worker", 11 } };
	static const struct tg_field spawn[] = { { "task_id", 9 },
		{ "spawn_loc", 4 } };
	static const struct tg_field term[] = { { "task_id", 9 } };
	static const struct tg_field cpu[] = { { "worker_id", 9 },
		{ "tid", 13 }, { "source", 11 }, { "callchain", 8 } };
	static const struct tg_field enter[] = { { "worker_id", 9 },
		{ "span_id", 9 }, { "parent_span_id", 0x89 },
		{ "span_name", 4 }, { "user", 0x84 } };
	static const struct tg_field exitf[] = { { "worker_id", 9 },
		{ "span_id", 9 }, { "span_name", 4 }, { "user", 0x84 } };
	static const struct tg_field closef[] = { { "span_id", 9 } };
	static const struct tg_field alloc[] = { { "tid", 13 }, { "size", 9 },
		{ "addr", 9 }, { "callchain", 8 } };
	static const struct tg_field freef[] = { { "tid", 13 }, { "addr", 9 },
		{ "size", 9 }, { "alloc_timestamp_ns", 9 } };
	static const struct tg_field meta[] = { { "entries", 10 } };
	static const struct tg_field sym[] = { { "addr", 9 }, { "size", 9 },
		{ "symbol_name", 4 }, { "inline_depth", 9 },
		{ "source_file", 4 }, { "source_line", 9 } };
	static const struct tg_field dump[] = { { "task_id", 9 },
		{ "callchain", 8 } };
	static const struct tg_field overflow[] = { { "dropped_allocs", 9 },
		{ "dropped_frees", 9 } };
#define S(id, name, f) tg_schema(&m->tg, id, name, 1, \
	sizeof f / sizeof f[0], f)

	tg_init(&m->tg);
	m->base = 0;
	tg_header(&m->tg);
	S(S_START, "PollStartEvent", start);
	S(S_END, "PollEndEvent", end);
	S(S_PARK, "WorkerParkEvent", park);
	S(S_UNPARK, "WorkerUnparkEvent", unpark);
	S(S_WAKE, "WakeEventEvent", wake);
	S(S_SPAWN, "TaskSpawnEvent", spawn);
	S(S_TERM, "TaskTerminateEvent", term);
	S(S_CPU, "CpuSampleEvent", cpu);
	S(S_ENTER, "SpanEnter:app::work:src/lib.rs:10", enter);
	S(S_EXIT, "SpanExit:app::work:src/lib.rs:10", exitf);
	S(S_CLOSE, "SpanCloseEvent", closef);
	S(S_ALLOC, "AllocEvent", alloc);
	S(S_FREE, "FreeEvent", freef);
	S(S_META, "SegmentMetadataEvent", meta);
	S(S_SYM, "SymbolTableEntry", sym);
	S(S_DUMP, "TaskDumpEvent", dump);
	S(S_OVERFLOW, "MemoryProfileOverflowEvent", overflow);
#undef S
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
mt_poll_start(struct mt *m, uint64_t ts, unsigned w, uint64_t task,
    const char *loc)
{
	mt_poll_start_n(m, ts, w, task, loc, strlen(loc));
}

void
mt_poll_start_n(struct mt *m, uint64_t ts, unsigned w, uint64_t task,
    const char *loc, size_t len)
{
	mt_event(m, S_START, ts);
	tg_leb(&m->tg, w);
	tg_u8(&m->tg, 0);
	tg_leb(&m->tg, task);
	tg_str32n(&m->tg, loc, len);
}

void
mt_poll_end(struct mt *m, uint64_t ts, unsigned w)
{
	mt_event(m, S_END, ts);
	tg_leb(&m->tg, w);
}

void
mt_park(struct mt *m, uint64_t ts, unsigned w, uint64_t cpu, uint32_t tid)
{
	mt_event(m, S_PARK, ts);
	tg_leb(&m->tg, w);
	tg_u8(&m->tg, 0);
	tg_leb(&m->tg, cpu);
	tg_u32(&m->tg, tid);
}

void
mt_unpark(struct mt *m, uint64_t ts, unsigned w, uint64_t cpu, uint32_t tid,
    uint64_t sched_wait)
{
	mt_event(m, S_UNPARK, ts);
	tg_leb(&m->tg, w);
	tg_u8(&m->tg, 0);
	tg_leb(&m->tg, cpu);
	tg_u8(&m->tg, 1);
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
	tg_v_stack(&m->tg, n, frames);
}

void
mt_span(struct mt *m, int kind, uint64_t ts, unsigned w, uint64_t id,
    const char *name)
{
	mt_event(m, kind == 0 ? S_ENTER : kind == 1 ? S_EXIT : S_CLOSE, ts);
	if (kind == 2) {
		tg_leb(&m->tg, id);
		return;
	}
	tg_leb(&m->tg, w);
	tg_leb(&m->tg, id);
	if (kind == 0)
		tg_u8(&m->tg, 0);	/* no parent */
	tg_str32(&m->tg, name);
	tg_u8(&m->tg, 1);
	tg_str32(&m->tg, "alice");
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
	struct d9m_model *md = d9m_model_new();
	struct d9p_read_stats st;

	ck_assert_ptr_nonnull(md);
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
