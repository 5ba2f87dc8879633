/*
 * tables.c: see tables.h. Names follow FLEET.md, which keeps dial9's
 * own where a column means the same (polls, samples, stacks).
 */
#include "export/tables.h"

#define COMMON \
	{ "source_key", D9X_STRING, D9X_REQ }, \
	{ "boot", D9X_STRING, D9X_REQ }, \
	{ "service", D9X_STRING, D9X_REQ }, \
	{ "date", D9X_STRING, D9X_REQ }, \
	{ "host", D9X_STRING, D9X_REQ }

static const struct d9x_field polls[] = {
	{ "start_ns", D9X_I64, D9X_REQ },
	{ "end_ns", D9X_I64, D9X_REQ },
	{ "duration_ns", D9X_I64, D9X_REQ },
	{ "worker_id", D9X_U32, D9X_REQ },
	{ "task_id", D9X_U64, D9X_REQ },
	{ "spawn_loc", D9X_STRING, D9X_OPT },
	{ "sched_delay_ns", D9X_I64, D9X_OPT },
	{ "cpu_sample_count", D9X_U32, D9X_REQ },
	{ "sched_sample_count", D9X_U32, D9X_REQ },
	{ "verdict", D9X_STRING, D9X_REQ },
	{ "open_ended", D9X_BOOL, D9X_REQ },
	COMMON
};

static const struct d9x_field wakes[] = {
	{ "timestamp_ns", D9X_I64, D9X_REQ },
	{ "waker_task_id", D9X_U64, D9X_REQ },
	{ "woken_task_id", D9X_U64, D9X_REQ },
	{ "target_worker", D9X_U32, D9X_OPT },
	COMMON
};

static const struct d9x_field parks[] = {
	{ "start_ns", D9X_I64, D9X_REQ },
	{ "end_ns", D9X_I64, D9X_REQ },
	{ "worker_id", D9X_U32, D9X_REQ },
	{ "sched_wait_ns", D9X_I64, D9X_OPT },
	COMMON
};

static const struct d9x_field tasks[] = {
	{ "task_id", D9X_U64, D9X_REQ },
	{ "spawn_loc", D9X_STRING, D9X_OPT },
	{ "spawn_ns", D9X_I64, D9X_OPT },
	{ "terminate_ns", D9X_I64, D9X_OPT },
	{ "polls", D9X_U64, D9X_REQ },
	{ "busy_ns", D9X_I64, D9X_REQ },
	{ "scheduled_ns", D9X_I64, D9X_REQ },
	{ "self_wakes", D9X_U64, D9X_REQ },
	COMMON
};

static const struct d9x_field samples[] = {
	{ "timestamp_ns", D9X_I64, D9X_REQ },
	{ "stack_id", D9X_ID16, D9X_REQ },
	{ "worker_id", D9X_U32, D9X_OPT },
	{ "tid", D9X_U32, D9X_OPT },
	{ "source", D9X_U8, D9X_REQ },
	{ "weight", D9X_DOUBLE, D9X_REQ },
	{ "poll_task_id", D9X_U64, D9X_OPT },
	{ "poll_duration_ns", D9X_I64, D9X_OPT },
	{ "spawn_location", D9X_STRING, D9X_OPT },
	COMMON
};

static const struct d9x_field stacks[] = {
	{ "stack_id", D9X_ID16, D9X_REQ },
	{ "frames", D9X_STRING, D9X_LIST },
	COMMON
};

static const struct d9x_field allocations[] = {
	{ "timestamp_ns", D9X_I64, D9X_REQ },
	{ "size", D9X_U64, D9X_REQ },
	{ "estimated_bytes", D9X_DOUBLE, D9X_REQ },
	{ "freed_ns", D9X_I64, D9X_OPT },
	{ "stack_id", D9X_ID16, D9X_REQ },
	COMMON
};

static const struct d9x_field spans[] = {
	{ "name", D9X_STRING, D9X_REQ },
	{ "start_ns", D9X_I64, D9X_REQ },
	{ "end_ns", D9X_I64, D9X_REQ },
	{ "duration_ns", D9X_I64, D9X_REQ },
	{ "entered_ns", D9X_I64, D9X_OPT },
	{ "worker_id", D9X_U32, D9X_OPT },
	{ "parent", D9X_U64, D9X_OPT },
	{ "fields", D9X_STRING, D9X_MAP },
	{ "span_id", D9X_U64, D9X_REQ },
	COMMON
};

static const struct d9x_field runtime_metrics[] = {
	{ "timestamp_ns", D9X_I64, D9X_REQ },
	{ "runtime", D9X_STRING, D9X_OPT },
	{ "global_queue_depth", D9X_U32, D9X_REQ },
	{ "alive_tasks", D9X_U32, D9X_OPT },
	COMMON
};

static const struct d9x_field metrics[] = {
	{ "timestamp_ns", D9X_I64, D9X_REQ },
	{ "name", D9X_STRING, D9X_REQ },
	{ "kind", D9X_STRING, D9X_REQ },
	{ "value", D9X_DOUBLE, D9X_REQ },
	COMMON
};

static const struct d9x_field segments[] = {
	{ "first_ns", D9X_I64, D9X_REQ },
	{ "last_ns", D9X_I64, D9X_REQ },
	{ "events", D9X_U64, D9X_REQ },
	{ "dropped_events", D9X_U64, D9X_REQ },
	{ "lost_batches", D9X_U64, D9X_REQ },
	{ "complete", D9X_BOOL, D9X_REQ },
	{ "file", D9X_STRING, D9X_REQ },
	{ "clock", D9X_STRING, D9X_REQ },
	{ "hostname", D9X_STRING, D9X_OPT },
	{ "kernel", D9X_STRING, D9X_OPT },
	{ "cpu_model", D9X_STRING, D9X_OPT },
	{ "metadata", D9X_STRING, D9X_MAP },
	COMMON
};

#define TABLE(name) { #name, name, sizeof name / sizeof name[0] }

const struct d9x_tabdef d9x_tables[D9X_T_COUNT] = {
	TABLE(polls), TABLE(wakes), TABLE(parks), TABLE(tasks),
	TABLE(samples), TABLE(stacks), TABLE(allocations), TABLE(spans),
	TABLE(runtime_metrics), TABLE(metrics), TABLE(segments),
};
