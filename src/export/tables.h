/*
 * tables.h: the tables of --export parquet (FLEET.md "Tables and
 * columns") as data: each table's name (its folder under OUTDIR) and
 * columns, in order. Every table ends with the same five columns, the
 * identity of the leaf its rows are in: source_key, boot, service, date,
 * host (D9X_COMMON of them, filled by leaf.c).
 */
#ifndef D9X_TABLES_H
#define D9X_TABLES_H

#include <stddef.h>

#include "export/pqwriter.h"

enum d9x_table {
	D9X_T_POLLS, D9X_T_WAKES, D9X_T_PARKS, D9X_T_TASKS, D9X_T_SAMPLES,
	D9X_T_STACKS, D9X_T_ALLOCATIONS, D9X_T_SPANS, D9X_T_RUNTIME_METRICS,
	D9X_T_METRICS, D9X_T_SEGMENTS, D9X_T_COUNT
};

#define D9X_COMMON	5

struct d9x_tabdef {
	const char		*name;
	const struct d9x_field	*fields;	/* own columns, then the
						 * D9X_COMMON ones */
	size_t			 nfields;	/* all of them */
};

extern const struct d9x_tabdef d9x_tables[D9X_T_COUNT];

/* Column numbers of each table, in the order of its fields. */
enum { D9X_POLL_START, D9X_POLL_END, D9X_POLL_DUR, D9X_POLL_WORKER,
	D9X_POLL_TASK, D9X_POLL_LOC, D9X_POLL_SCHED, D9X_POLL_CPU,
	D9X_POLL_SWITCHES, D9X_POLL_VERDICT, D9X_POLL_OPEN };
enum { D9X_WAKE_TS, D9X_WAKE_WAKER, D9X_WAKE_WOKEN, D9X_WAKE_TARGET };
enum { D9X_PARK_START, D9X_PARK_END, D9X_PARK_WORKER, D9X_PARK_WAIT };
enum { D9X_TASK_ID, D9X_TASK_LOC, D9X_TASK_SPAWN, D9X_TASK_TERM,
	D9X_TASK_POLLS, D9X_TASK_BUSY, D9X_TASK_SCHED, D9X_TASK_SELF };
enum { D9X_SAMPLE_TS, D9X_SAMPLE_STACK, D9X_SAMPLE_WORKER, D9X_SAMPLE_TID,
	D9X_SAMPLE_SOURCE, D9X_SAMPLE_WEIGHT, D9X_SAMPLE_TASK,
	D9X_SAMPLE_POLL_DUR, D9X_SAMPLE_LOC };
enum { D9X_STACK_ID, D9X_STACK_FRAMES };
enum { D9X_ALLOC_TS, D9X_ALLOC_SIZE, D9X_ALLOC_EST, D9X_ALLOC_FREED,
	D9X_ALLOC_STACK };
enum { D9X_SPAN_NAME, D9X_SPAN_START, D9X_SPAN_END, D9X_SPAN_DUR,
	D9X_SPAN_ENTERED, D9X_SPAN_WORKER, D9X_SPAN_PARENT,
	D9X_SPAN_FIELDS, D9X_SPAN_ID };
enum { D9X_RTM_TS, D9X_RTM_RUNTIME, D9X_RTM_QUEUE, D9X_RTM_ALIVE };
enum { D9X_METRIC_TS, D9X_METRIC_NAME, D9X_METRIC_KIND,
	D9X_METRIC_VALUE };
enum { D9X_SEG_FIRST, D9X_SEG_LAST, D9X_SEG_EVENTS, D9X_SEG_DROPPED,
	D9X_SEG_LOST, D9X_SEG_COMPLETE, D9X_SEG_FILE, D9X_SEG_CLOCK,
	D9X_SEG_HOSTNAME, D9X_SEG_KERNEL, D9X_SEG_CPU_MODEL,
	D9X_SEG_METADATA };

#endif
