/*
 * schemas.h: every event schema d9top knows (FORMAT.md section 3), in one
 * list: its name, its fields' names and their wire types (D9_FT_* of
 * wire.h). The model's builder, the recorder's built-in schemas and the
 * trace writers of the tests and benchmarks all take them from here.
 *
 *   S(id, name, match)        a schema: D9_SCH_<id>
 *   F(id, field, name, type)  one of its fields: D9_F_<id>_<field> is
 *                             its position in the schema
 *   E(id)                     end of the schema: D9_NF_<id> fields
 *
 * Field order is the one the recorder writes. Readers still look fields
 * up by name in the schema a trace declares (producers add, drop and
 * reorder fields, FORMAT 3): a D9_F_ constant indexes the list, not the
 * trace. D9_NAME_PREFIX schemas are families whose names continue with a
 * call site (tracing spans, FORMAT 3.6); d9_schema_find() also knows
 * their other spellings. Any other name is an application's own event.
 */
#ifndef D9_SCHEMAS_H
#define D9_SCHEMAS_H

#include <stdint.h>

#include "base/wire.h"

#define D9_NAME_EXACT	0
#define D9_NAME_PREFIX	1

#define D9_SCHEMAS(S, F, E) \
	S(CLOCK_SYNC, "ClockSyncEvent", D9_NAME_EXACT) \
	F(CLOCK_SYNC, REALTIME_NS, "realtime_ns", D9_FT_VARINT) \
	E(CLOCK_SYNC) \
	S(SEGMENT_META, "SegmentMetadataEvent", D9_NAME_EXACT) \
	F(SEGMENT_META, ENTRIES, "entries", D9_FT_STRING_MAP) \
	E(SEGMENT_META) \
	S(POLL_START, "PollStartEvent", D9_NAME_EXACT) \
	F(POLL_START, WORKER_ID, "worker_id", D9_FT_VARINT) \
	F(POLL_START, LOCAL_QUEUE, "local_queue", D9_FT_U8) \
	F(POLL_START, TASK_ID, "task_id", D9_FT_VARINT) \
	F(POLL_START, SPAWN_LOC, "spawn_loc", D9_FT_POOLED_STRING) \
	E(POLL_START) \
	S(POLL_END, "PollEndEvent", D9_NAME_EXACT) \
	F(POLL_END, WORKER_ID, "worker_id", D9_FT_VARINT) \
	E(POLL_END) \
	S(PARK, "WorkerParkEvent", D9_NAME_EXACT) \
	F(PARK, WORKER_ID, "worker_id", D9_FT_VARINT) \
	F(PARK, LOCAL_QUEUE, "local_queue", D9_FT_U8) \
	F(PARK, CPU_TIME_NS, "cpu_time_ns", D9_FT_VARINT) \
	F(PARK, TID, "tid", D9_FT_U32) \
	E(PARK) \
	S(UNPARK, "WorkerUnparkEvent", D9_NAME_EXACT) \
	F(UNPARK, WORKER_ID, "worker_id", D9_FT_VARINT) \
	F(UNPARK, LOCAL_QUEUE, "local_queue", D9_FT_U8) \
	F(UNPARK, CPU_TIME_NS, "cpu_time_ns", D9_FT_VARINT) \
	F(UNPARK, SCHED_WAIT_NS, "sched_wait_ns", \
	    D9_FT_OPTIONAL | D9_FT_VARINT) \
	F(UNPARK, TID, "tid", D9_FT_U32) \
	E(UNPARK) \
	S(WAKE, "WakeEventEvent", D9_NAME_EXACT) \
	F(WAKE, WAKER_TASK_ID, "waker_task_id", D9_FT_VARINT) \
	F(WAKE, WOKEN_TASK_ID, "woken_task_id", D9_FT_VARINT) \
	F(WAKE, TARGET_WORKER, "target_worker", D9_FT_U8) \
	E(WAKE) \
	S(SPAWN, "TaskSpawnEvent", D9_NAME_EXACT) \
	F(SPAWN, TASK_ID, "task_id", D9_FT_VARINT) \
	F(SPAWN, SPAWN_LOC, "spawn_loc", D9_FT_POOLED_STRING) \
	F(SPAWN, INSTRUMENTED, "instrumented", D9_FT_BOOL) \
	E(SPAWN) \
	S(TERMINATE, "TaskTerminateEvent", D9_NAME_EXACT) \
	F(TERMINATE, TASK_ID, "task_id", D9_FT_VARINT) \
	E(TERMINATE) \
	S(QUEUE, "QueueSampleEvent", D9_NAME_EXACT) \
	F(QUEUE, GLOBAL_QUEUE, "global_queue", D9_FT_U8) \
	E(QUEUE) \
	S(CPU, "CpuSampleEvent", D9_NAME_EXACT) \
	F(CPU, WORKER_ID, "worker_id", D9_FT_VARINT) \
	F(CPU, TID, "tid", D9_FT_U32) \
	F(CPU, SOURCE, "source", D9_FT_U8) \
	F(CPU, THREAD_NAME, "thread_name", \
	    D9_FT_OPTIONAL | D9_FT_POOLED_STRING) \
	F(CPU, CALLCHAIN, "callchain", D9_FT_POOLED_STACK) \
	F(CPU, CPU, "cpu", D9_FT_OPTIONAL | D9_FT_VARINT) \
	E(CPU) \
	S(ALLOC, "AllocEvent", D9_NAME_EXACT) \
	F(ALLOC, TID, "tid", D9_FT_U32) \
	F(ALLOC, SIZE, "size", D9_FT_VARINT) \
	F(ALLOC, ADDR, "addr", D9_FT_VARINT) \
	F(ALLOC, CALLCHAIN, "callchain", D9_FT_POOLED_STACK) \
	E(ALLOC) \
	S(FREE, "FreeEvent", D9_NAME_EXACT) \
	F(FREE, TID, "tid", D9_FT_U32) \
	F(FREE, ADDR, "addr", D9_FT_VARINT) \
	F(FREE, SIZE, "size", D9_FT_VARINT) \
	F(FREE, ALLOC_TS, "alloc_timestamp_ns", D9_FT_VARINT) \
	E(FREE) \
	S(MEM_OVERFLOW, "MemoryProfileOverflowEvent", D9_NAME_EXACT) \
	F(MEM_OVERFLOW, DROPPED_ALLOCS, "dropped_allocs", D9_FT_VARINT) \
	F(MEM_OVERFLOW, DROPPED_FREES, "dropped_frees", D9_FT_VARINT) \
	E(MEM_OVERFLOW) \
	S(SPAN_CLOSE, "SpanCloseEvent", D9_NAME_EXACT) \
	F(SPAN_CLOSE, SPAN_ID, "span_id", D9_FT_VARINT) \
	E(SPAN_CLOSE) \
	S(MAPS, "ProcMapsEntry", D9_NAME_EXACT) \
	F(MAPS, START, "start", D9_FT_VARINT) \
	F(MAPS, END, "end", D9_FT_VARINT) \
	F(MAPS, FILE_OFFSET, "file_offset", D9_FT_VARINT) \
	F(MAPS, PATH, "path", D9_FT_POOLED_STRING) \
	F(MAPS, BUILD_ID, "build_id", D9_FT_STRING) \
	E(MAPS) \
	S(SYMBOL, "SymbolTableEntry", D9_NAME_EXACT) \
	F(SYMBOL, ADDR, "addr", D9_FT_VARINT) \
	F(SYMBOL, SIZE, "size", D9_FT_VARINT) \
	F(SYMBOL, SYMBOL_NAME, "symbol_name", D9_FT_POOLED_STRING) \
	F(SYMBOL, INLINE_DEPTH, "inline_depth", D9_FT_VARINT) \
	F(SYMBOL, SOURCE_FILE, "source_file", D9_FT_POOLED_STRING) \
	F(SYMBOL, SOURCE_LINE, "source_line", D9_FT_VARINT) \
	E(SYMBOL) \
	S(TASK_DUMP, "TaskDumpEvent", D9_NAME_EXACT) \
	F(TASK_DUMP, TASK_ID, "task_id", D9_FT_VARINT) \
	F(TASK_DUMP, CALLCHAIN, "callchain", D9_FT_POOLED_STACK) \
	E(TASK_DUMP) \
	S(SPAN_ENTER, "SpanEnter:", D9_NAME_PREFIX) \
	F(SPAN_ENTER, WORKER_ID, "worker_id", D9_FT_VARINT) \
	F(SPAN_ENTER, SPAN_ID, "span_id", D9_FT_VARINT) \
	F(SPAN_ENTER, PARENT_SPAN_ID, "parent_span_id", \
	    D9_FT_OPTIONAL | D9_FT_VARINT) \
	F(SPAN_ENTER, SPAN_NAME, "span_name", D9_FT_POOLED_STRING) \
	E(SPAN_ENTER) \
	S(SPAN_EXIT, "SpanExit:", D9_NAME_PREFIX) \
	F(SPAN_EXIT, WORKER_ID, "worker_id", D9_FT_VARINT) \
	F(SPAN_EXIT, SPAN_ID, "span_id", D9_FT_VARINT) \
	F(SPAN_EXIT, SPAN_NAME, "span_name", D9_FT_POOLED_STRING) \
	E(SPAN_EXIT) \
	S(PROCESS_USAGE, "ProcessResourceUsageEvent", D9_NAME_EXACT) \
	F(PROCESS_USAGE, USER_CPU_NS, "user_cpu_ns", D9_FT_VARINT) \
	F(PROCESS_USAGE, SYSTEM_CPU_NS, "system_cpu_ns", D9_FT_VARINT) \
	F(PROCESS_USAGE, MAX_RSS_BYTES, "max_rss_bytes", D9_FT_VARINT) \
	F(PROCESS_USAGE, MINOR_FAULTS, "minor_faults", D9_FT_VARINT) \
	F(PROCESS_USAGE, MAJOR_FAULTS, "major_faults", D9_FT_VARINT) \
	F(PROCESS_USAGE, BLOCK_INPUT_OPS, "block_input_ops", D9_FT_VARINT) \
	F(PROCESS_USAGE, BLOCK_OUTPUT_OPS, "block_output_ops", D9_FT_VARINT) \
	F(PROCESS_USAGE, VOLUNTARY_CSW, "voluntary_context_switches", \
	    D9_FT_VARINT) \
	F(PROCESS_USAGE, INVOLUNTARY_CSW, "involuntary_context_switches", \
	    D9_FT_VARINT) \
	E(PROCESS_USAGE)

/* The expansions: S, F and E callbacks that write nothing. */
#define D9_SCHEMAS_NONE1_(a)
#define D9_SCHEMAS_NONE3_(a, b, c)
#define D9_SCHEMAS_NONE4_(a, b, c, d)

#define D9_SCHEMAS_ID_(id, name, match)	D9_SCH_##id,
enum d9_schema {
	D9_SCHEMAS(D9_SCHEMAS_ID_, D9_SCHEMAS_NONE4_, D9_SCHEMAS_NONE1_)
	D9_SCH_COUNT
};

/* D9_F_<id>_ is -1 so that each schema's fields count from 0. */
#define D9_SCHEMAS_F0_(id, name, match)	D9_F_##id##_ = -1,
#define D9_SCHEMAS_F_(id, field, name, type) D9_F_##id##_##field,
#define D9_SCHEMAS_NF_(id)		D9_NF_##id,
enum {
	D9_SCHEMAS(D9_SCHEMAS_F0_, D9_SCHEMAS_F_, D9_SCHEMAS_NF_)
	D9_NF_MAX = 9		/* most fields of any schema (checked) */
};

struct d9_field_def {
	const char	*name;
	uint8_t		 type;		/* D9_FT_*, D9_FT_OPTIONAL included */
};

struct d9_schema_def {
	const char	*name;
	uint8_t		 match;		/* D9_NAME_EXACT or D9_NAME_PREFIX */
	uint8_t		 nfields;
	const struct d9_field_def *fields;
};

/* The definition of schema id (a D9_SCH_ constant). */
const struct d9_schema_def *d9_schema(enum d9_schema id);
/* The schema a trace's schema name is, D9_SCH_COUNT for an application's
 * own event. Prefix families match their name and their older spellings
 * (SpanEnter__…, SpanEnterEvent, SpanClose__…). */
enum d9_schema	 d9_schema_find(const char *name);

#endif
