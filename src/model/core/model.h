/*
 * src/model/core, the model's first wing: the loaded trace and its
 * lifetime. It holds the column tables and their one registry
 * (model.h, table.h, tables.h), loading and building (model.c, build*.c:
 * the parser's sink, the one switch from schema name to event kind),
 * the ids of more than one process (ids, groups, pairs), finishing
 * (timeline.c: sort, walk the workers, pair spans, sched, kshare, twins,
 * loss) and the look-ups by id, row and time (lookup.c). It may call
 * src/base, src/parse and itself; finishing also runs the one-time
 * derive steps of the queries and figures it owns the data of
 * (d9m_appev_derive, d9m_rates_derive, d9m_dumps_derive,
 * d9m_sym_stacks_derive, d9m_runtimes_derive), and the lifetime the
 * model mapped from an index entry (src/store installs its release hook, m->backing). Above it:
 * queries (queries/window.h), then figures (figures/analysis.h).
 *
 * model.h: the loaded trace as columns (struct of arrays), one table per
 * event kind, each sorted by (timestamp, arrival order) once loading is
 * done. Strings, stacks and field lists are interned once and referenced
 * by uint32_t id; tasks are referenced by their row in the tasks table.
 *
 * Lifetime: d9m_model_new() ... d9m_model_load() ... d9m_model_finish()
 * (sort + derive timelines) ... d9m_model_free(). Everything derived
 * (polls, parks, per-worker ranges) is rebuilt by d9m_model_finish().
 * Analyses are pure functions of a finished model (see analysis.h).
 */
#ifndef D9M_MODEL_H
#define D9M_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/err.h"
#include "base/arena.h"
#include "base/intern.h"
#include "parse/reader.h"

#define D9M_ABSENT	UINT64_MAX	/* optional u64 value not present */

enum d9m_rt_kind {
	D9M_RT_POLL_START,
	D9M_RT_POLL_END,
	D9M_RT_PARK,
	D9M_RT_UNPARK
};

/*
 * Runtime events of workers: PollStart/End, WorkerPark/Unpark. A row is
 * 16 bytes, for there are tens of millions: what an event says besides
 * its time (kind, worker, local queue) repeats, so it is a row of struct
 * d9m_rttags (a few thousand), and a poll start's task and spawn
 * location, which repeat for every poll of a task, are a row of struct
 * d9m_taskloc.
 */
struct d9m_rt {
	size_t		 n, cap;
	uint64_t	*ts;
	uint32_t	*tag;		/* row in d9m_model.rttags */
	uint32_t	*a;		/* start: taskloc row; park/unpark:
					 * parkinfo row; end: D9_NONE */
	/* derived: the local queue of each event, 0 for a poll end (all
	 * the analysis reads of them besides ts). Finishing for the last
	 * time keeps only ts and lq: tag and a, and the tables they point
	 * into (rttags, taskloc, parkinfo), are gone (NULL, 0 rows) once
	 * the workers are walked. */
	uint8_t		*lq;
};

/* What runtime events say besides their time, once per distinct
 * combination (interned as they are read). */
struct d9m_rttags {
	size_t		 n, cap;
	uint8_t		*kind;		/* enum d9m_rt_kind */
	uint8_t		*lq;		/* local queue (u8 on the wire) */
	uint32_t	*worker;	/* row in d9m_model.wids */
};

/*
 * The workers of the trace's events, one row per (source group, worker
 * id as its process recorded it), in order of first sight: every worker
 * column of the model (rttags, wakes, tasks, cpu, spantags, spans, gaps,
 * struct d9m_worker) holds a row of this table, "a worker", or D9_NONE
 * for none. The ids are kept whole (64-bit); ids.h formats them. The
 * wire's 254 (blocking pool) and 255 (not a worker thread) have rows
 * too, and never a lane.
 */
struct d9m_wids {
	size_t		 n, cap;
	uint64_t	*own;		/* the id as recorded */
	uint32_t	*group;		/* source group (groups.h) */
};

/* Column col (of struct d9m_rttags) of runtime event i. */
#define D9M_RT(m, col, i)	((m)->rttags.col[(m)->rt.tag[i]])

/* The (task, spawn location) of poll starts, once per distinct pair. */
struct d9m_taskloc {
	size_t		 n, cap;
	uint32_t	*task;		/* task row, D9_NONE */
	uint32_t	*loc;		/* spawn location string id */
};

/* Extra columns of park/unpark events. */
struct d9m_parkinfo {
	size_t		 n, cap;
	uint64_t	*cpu_ns;	/* thread CPU time */
	uint64_t	*sched_wait;	/* unpark only; D9M_ABSENT */
	uint32_t	*tid;		/* D9_NONE when absent */
};

struct d9m_wakes {
	size_t		 n, cap;
	uint64_t	*ts;
	uint32_t	*waker;		/* task row, D9_NONE for task id 0 */
	uint32_t	*woken;		/* task row, D9_NONE for task id 0 */
	uint32_t	*worker;	/* target_worker: worker that issued it
					 * (wids row) */
	/* derived: rows sorted by (woken, ts); by_woken_off[task] .. +1 */
	uint32_t	*by_woken;
	uint32_t	*by_woken_off;	/* ntasks + 1 entries */
};

/* Global queue samples: dial9 0.5's RuntimeMetricsEvent, one per runtime
 * (runtime: its name, "" the unnamed default), and the older
 * QueueSampleEvent, summed over every runtime (runtime D9_NONE). */
struct d9m_queue {
	size_t		 n, cap;
	uint64_t	*ts;
	uint32_t	*global;
	uint32_t	*runtime;	/* string id, D9_NONE: all runtimes */
	uint32_t	*alive;		/* alive tasks, D9_NONE when absent */
	/* derived: the runtime group (d9m_model.runtimes) it counts for */
	uint32_t	*group;
};

enum {
	D9M_TASK_SPAWNED = 1,		/* has a TaskSpawnEvent */
	D9M_TASK_TERMINATED = 2,
	D9M_TASK_INSTRUMENTED = 4,	/* field true or absent (reference) */
	D9M_TASK_INSTR_FIELD = 8	/* the instrumented field was present */
};

struct d9m_tasks {
	size_t		 n, cap;
	uint64_t	*id;		/* the trace's task id */
	uint32_t	*loc;		/* spawn location (spawn event wins) */
	uint64_t	*spawn_ts;	/* last TaskSpawnEvent, D9M_ABSENT */
	uint64_t	*term_ts;	/* last TaskTerminateEvent, D9M_ABSENT */
	uint32_t	*spawn_worker;	/* worker that spawned it (wids row),
					 * D9_NONE: not said (0.5 field) */
	uint8_t		*flags;
	uint32_t	*group;		/* source group (groups.h) */
	struct d9_hmap	 rows;		/* (group, id) -> row */
};

struct d9m_cpu {
	size_t		 n, cap;
	uint64_t	*ts;
	uint32_t	*tid;
	uint32_t	*wire_worker;	/* worker_id as recorded (wids row) */
	uint32_t	*worker;	/* derived: attributed worker (ADR-0001),
					 * D9_NONE: none (a hand-off gap) */
	uint8_t		*source;	/* 0 on-CPU, 1 context switch */
	uint32_t	*stack;		/* stack id */
	uint32_t	*cpu;		/* D9_NONE when absent */
	uint32_t	*seg;
	uint32_t	*poll;		/* derived: poll row, D9_NONE */
	uint8_t		*lane;		/* derived: 1 if the worker has a lane */
};

struct d9m_dumps {
	size_t		 n, cap;
	uint64_t	*ts;
	uint32_t	*task;
	uint32_t	*stack;
	uint32_t	*seg;
};

struct d9m_allocs {
	size_t		 n, cap;
	uint64_t	*ts;
	uint64_t	*size;
	uint64_t	*addr;
	uint32_t	*tid;
	uint32_t	*stack;
	uint32_t	*seg;
};

struct d9m_frees {
	size_t		 n, cap;
	uint64_t	*ts;
	uint64_t	*addr;
	uint64_t	*size;
	uint64_t	*alloc_ts;
	uint32_t	*tid;
};

/* SINGLE: a span told by one event (FORMAT 5, single-event spans). */
enum d9m_span_kind {
	D9M_SPAN_ENTER, D9M_SPAN_EXIT, D9M_SPAN_CLOSE, D9M_SPAN_SINGLE
};

/*
 * Raw span events (SpanEnter:/SpanExit:/SpanClose and legacy names), and
 * single-event spans. An event with a span_instance_id is of dial9 0.5's
 * dialect: its enters and exits pair by (instance, tid) and its close
 * says when the span began (start) and who its parent is. What only
 * those events and single-event spans have is in struct d9m_spanx, one
 * row each: the legacy events (no instance id), all of an older trace,
 * need none of it.
 *
 * A row is 16 bytes, for there are tens of millions: what an event says
 * besides its time and its ids (kind, worker, name, fields, dialect)
 * repeats, so it is a row of struct d9m_spantags (a few thousand); the
 * span id of a legacy event matters only as an identity, so it is
 * numbered densely as read; and an event is either legacy (an id) or
 * not (a spanx row), never both.
 */
struct d9m_spanev {
	size_t		 n, cap;
	uint64_t	*ts;		/* single: the span's end */
	uint32_t	*tag;		/* row in d9m_model.spantags */
	uint32_t	*id;		/* legacy: the span id's number (ids
					 * of a life are equal); else its row
					 * in d9m_model.spanx */
	/* while d9m_model_finish derives the spans only (NULL after): the
	 * events of one span id up to and with its close are one life of
	 * the span (the id may be reused after a close) */
	uint32_t	*next;		/* next event of the life, D9_NONE */
	uint8_t		*first;		/* bit i: row i is its life's first
					 * enter */
};

/* What span events say besides their time and ids, once per distinct
 * combination (interned as they are read). */
struct d9m_spantags {
	size_t		 n, cap;
	uint8_t		*kind;		/* enum d9m_span_kind */
	uint8_t		*legacy;	/* no instance id, not single */
	uint32_t	*worker;	/* wids row */
	uint32_t	*name;		/* span_name string id */
	uint32_t	*fields;	/* field list id, D9_NONE: no fields;
					 * 0.5 close: its attributes */
};

/* Column col (of struct d9m_spantags) of span event i. */
#define D9M_EV(m, col, i)	((m)->spantags.col[(m)->spanev.tag[i]])

/* The columns of the span events that have an instance id, and of the
 * single-event spans (d9m_spanev.ext), in arrival order. */
struct d9m_spanx {
	size_t		 n, cap;
	uint64_t	*inst;		/* span_instance_id, 0: single */
	uint32_t	*tid;		/* D9_NONE when absent */
	uint64_t	*start;		/* close, single: the span's start,
					 * D9M_ABSENT */
	uint64_t	*parent;	/* close: parent_span_instance_id,
					 * D9M_ABSENT */
};

/* Metric series (metrics.rs, FORMAT 5): one per metric and field, named
 * "metric" for its value field and "metric.field" for the others
 * (histograms: count, sum, percentiles). */
enum d9m_metric_kind { D9M_GAUGE, D9M_COUNTER, D9M_UPDOWN };

struct d9m_metrics {
	size_t		 n, cap;
	uint32_t	*name;		/* string id */
	uint8_t		*kind;		/* enum d9m_metric_kind */
	uint32_t	*unit;		/* string id, D9_NONE */
};

/* Their samples. */
struct d9m_msamples {
	size_t		 n, cap;
	uint64_t	*ts;
	uint32_t	*metric;	/* row in d9m_model.metrics */
	double		*value;
};

/* Events of any other schema, fields rendered as text. */
struct d9m_custom {
	size_t		 n, cap;
	uint64_t	*ts;
	uint32_t	*name;		/* schema name string id */
	uint32_t	*fields;	/* field list id */
	uint32_t	*seg;
};

/* One row per (segment, address, inline depth) of SymbolTableEntry. */
struct d9m_symbols {
	size_t		 n, cap;
	uint32_t	*seg;
	uint64_t	*addr;
	uint32_t	*depth;
	uint32_t	*name;
	uint32_t	*file;		/* D9_NONE when unknown */
	uint32_t	*line;
};

/* Memory maps written by libd9rec (ProcMapsEntry). */
struct d9m_maps {
	size_t		 n, cap;
	uint32_t	*seg;
	uint64_t	*start, *end, *off;
	uint32_t	*path;
	uint32_t	*build_id;	/* D9_NONE when absent */
};

struct d9m_clock {
	size_t		 n, cap;
	uint64_t	*mono;
	uint64_t	*real;
	uint32_t	*seg;
};

/* Segment metadata: every (segment, key, value) in arrival order. */
struct d9m_meta {
	size_t		 n, cap;
	uint32_t	*seg;
	uint32_t	*key;
	uint32_t	*val;
	uint64_t	 legacy_wall;	/* first wall-clock metadata ts, or 0 */
};

struct d9m_overflow {
	size_t		 n, cap;
	uint64_t	*ts;
	uint64_t	*allocs, *frees;
	uint32_t	*seg;
};

/* A segment: one input, or a part of a concatenated stream. */
/* d9m_segs.cut: how a segment's input ended (0: whole). */
#define D9M_SEG_CUT	1
#define D9M_SEG_WRITTEN	2

struct d9m_segs {
	size_t		 n, cap;
	uint32_t	*input;		/* input name string id */
	uint8_t		*cut;		/* D9M_SEG_CUT: its input ended or
					 * broke early; D9M_SEG_WRITTEN: read
					 * while being written (neither whole
					 * nor cut: d9p_is_written) */
	uint32_t	*group;		/* source group, D9_NONE before its
					 * first event */
	uint64_t	 copies;	/* files not read: copies of a segment */
	uint64_t	 damaged;	/* damage the reader skipped */
	uint64_t	 unread;	/* files not read for memory (such a
					 * model is never indexed) */
};

/*
 * Sources: the processes a trace's segments came from, one group per
 * (service, host, boot) of segment metadata or of the input's path
 * (groups.h). Each group's timestamps are moved onto the first group's
 * clock when they are read: by the wall clock when both have clock sync
 * events and began within an hour of each other, else so that the group
 * begins where the first one does.
 */
struct d9m_groups {
	size_t		 n, cap;
	uint32_t	*service, *host, *boot;	/* string ids, D9_NONE */
	int64_t		*wall;		/* realtime - monotonic, when has_wall */
	uint8_t		*has_wall;
	int64_t		*shift;		/* added to the group's timestamps */
	uint8_t		*aligned;	/* shift from the wall clock */
	uint64_t	*first;		/* first event's time as recorded */
};

/* ---- derived by d9m_model_finish() ---- */

enum { D9M_POLL_OPEN_ENDED = 1 };

/* poll_sched values that are no delay: none to count, or the task was
 * polled again with no wake since its previous poll started (a delay is
 * under D9M_SCHED_MAX, so a poll's take 32 bits) */
#define D9M_SCHED_NONE		UINT32_MAX
#define D9M_SCHED_NO_WAKE	(UINT32_MAX - 1)
#define D9M_SCHED_MAX		1000000000u	/* 1 s: none counted */

/* Reconstructed polls, grouped by worker, each group sorted by start
 * (a poll's worker slot: d9m_poll_worker). */
struct d9m_polls {
	size_t		 n, cap;
	uint64_t	*start, *end;
	uint32_t	*task;		/* task row, D9_NONE */
	uint32_t	*loc;
	uint8_t		*lq;		/* local queue at its start */
	uint8_t		*flags;
};

/* Park periods [park, unpark] and active periods [unpark, park]. */
struct d9m_periods {
	size_t		 n, cap;
	uint64_t	*start, *end;
	uint32_t	*worker;	/* worker slot */
	uint64_t	*sched_wait;	/* parks: D9M_ABSENT; actives: unused */
	double		*ratio;		/* actives: CPU ratio; parks: unused */
};

/* Block-in-place hand-offs (ANALYSIS 3), by worker, then start. */
struct d9m_gaps {
	size_t		 n, cap;
	uint32_t	*worker;	/* wids row */
	uint32_t	*from_tid, *to_tid;
	uint64_t	*start, *end;
};

/* How a span instance was told. */
enum d9m_span_form {
	D9M_FORM_LEGACY,	/* enters and exits of a span id */
	D9M_FORM_LIFECYCLE,	/* a 0.5 instance with its close */
	D9M_FORM_SINGLE		/* one event */
};

/*
 * Span instances, once for the whole trace (spans.c), by start:
 * legacy lives paired as ANALYSIS 6 defines (first enter .. last exit);
 * dial9 0.5 instances with a close (start .. close, their lifecycle);
 * single-event spans (start .. end). Their entered intervals (legacy:
 * its enter/exit pairs; 0.5: enters and exits paired LIFO by (instance,
 * tid)) are what they ran.
 */
struct d9m_spans {
	size_t		 n;
	uint64_t	*start;		/* ascending */
	uint64_t	*dur;
	uint32_t	*name;		/* D9_NONE */
	uint32_t	*worker;	/* wids row of the first enter; 0.5,
					 * single: of the first enter or its
					 * worker role, else D9_NONE */
	uint32_t	*fields;	/* the first enter's, or the last exit's
					 * with fields; 0.5: the close's
					 * attributes first; D9_NONE */
	uint64_t	*active;	/* time in entered intervals */
	uint32_t	*slices;	/* how many entered intervals */
	uint32_t	*parent;	/* row of its parent instance,
					 * D9_NONE */
	uint8_t		*kind;		/* enum d9m_span_form */
	size_t		 nopen;		/* legacy lives open at the end:
					 * entered, then neither exited nor
					 * closed; 0.5 instances entered and
					 * not closed */
	uint64_t	*open_ts;	/* that enter, ascending */
	/* spans fully inside one poll of their worker, over the trace */
	size_t		 poll_max, polls_over20;
	uint32_t	 poll_row;	/* the poll with poll_max, D9_NONE */
};

/* Application events (appev.h): custom rows in time order, each on the
 * lane of the worker that recorded it and in the poll running there. */
struct d9m_appev {
	size_t		 n;
	uint32_t	*row;		/* row in custom */
	uint32_t	*lane;		/* worker slot, D9_NONE */
	uint32_t	*poll;		/* poll row, D9_NONE */
};

/* What the trace lost (ANALYSIS 19, 19.1): libd9rec's counters (per
 * boot the latest, summed over boots), dial9's overflow events,
 * incomplete, damaged, deleted and missing segments; and the copies of
 * segments that were read once. */
struct d9m_loss {
	uint64_t	 dropped_events;	/* runtime events not recorded */
	uint64_t	 lost_batches;		/* batches not written */
	uint64_t	 dropped_allocs, dropped_frees;
	uint64_t	 lost_cpu;		/* CPU samples lost */
	uint64_t	 incomplete;		/* segments cut short or marked
						 * segment.complete=false */
	uint64_t	 damaged;		/* damaged members or batches
						 * the reader skipped */
	uint64_t	 deleted;		/* segments the size cap deleted */
	uint64_t	 deleted_bytes;		/* (d9rec.deleted_*) */
	uint64_t	 missing;		/* gaps in a boot's numbers */
	uint64_t	 unread;		/* files left unread for memory
						 * (d9p_read_opts' mem_budget) */
	uint64_t	 copies;		/* duplicate segments */
};

/* What libd9rec's recording cost its process: the CPU time of its own
 * threads and of the process since the writer opened (metadata
 * d9rec.recorder_cpu_ns and d9rec.process_cpu_ns, written at seals).
 * Per boot the latest (largest) values, summed over boots; boots: how
 * many had them (0: the trace says nothing, as dial9's never does). */
struct d9m_cost {
	uint64_t	 recorder_cpu_ns;
	uint64_t	 process_cpu_ns;
	uint64_t	 boots;
};

/* A worker with a lane: its row in wids, and (the order of the lanes)
 * its group and id from there. */
struct d9m_worker {
	uint32_t	 id;			/* row in d9m_model.wids */
	size_t		 poll0, npolls;		/* rows in polls */
	size_t		 park0, nparks;		/* rows in parks */
	size_t		 act0, nacts;		/* rows in actives */
	uint32_t	 runtime;		/* string id of runtime name, D9_NONE */
	uint32_t	 group;			/* source group (ids.h) */
	uint64_t	 own;			/* id as its process recorded it */
	uint32_t	 rtgroup;		/* its runtime group */
};

/* A runtime group (runtimes.c): a named runtime (metadata runtime.<name>
 * or RuntimeMetricsEvent), or the unnamed default one (name ""). */
struct d9m_runtime {
	uint32_t	 name;			/* string id */
};

struct d9m_model {
	/* Unique to this model among those a process makes (random): who
	 * keeps something per model (a resolver's binding, resolver.h)
	 * tells a new model made at a freed one's address by it. */
	uint64_t	 serial;
	struct d9_arena	 arena;
	struct d9_intern strs;		/* text */
	struct d9_intern stacks;	/* little-endian u64 address lists */
	struct d9_intern lists;		/* field lists: u64 (key id << 32 | value id) */

	struct d9m_rt	 rt;
	struct d9m_rttags rttags;
	struct d9m_taskloc taskloc;
	struct d9m_parkinfo parkinfo;
	struct d9m_wakes wakes;
	struct d9m_queue queue;
	struct d9m_tasks tasks;
	struct d9m_cpu	 cpu;
	struct d9m_dumps dumps;
	struct d9m_allocs allocs;
	struct d9m_frees frees;
	struct d9m_overflow overflow;
	struct d9m_spanev spanev;
	struct d9m_spantags spantags;
	struct d9m_spanx spanx;
	struct d9m_metrics metrics;
	struct d9m_msamples msamples;
	struct d9m_custom custom;
	struct d9m_symbols symbols;
	struct d9m_maps	 maps;
	struct d9m_clock clock;
	struct d9m_meta	 meta;
	struct d9m_segs	 segs;
	struct d9m_groups groups;
	struct d9m_wids	 wids;

	/* tid -> worker (wids row), last park/unpark wins (reference
	 * rule); sorted by tid when finished (d9m_tid_worker) */
	uint32_t	*tidmap_tid, *tidmap_worker;
	size_t		 tidmap_n, tidmap_cap;
	/* tid -> thread name string id, sorted the same */
	uint32_t	*tname_tid, *tname_name;
	size_t		 tname_n, tname_cap;

	char		**errors;	/* messages about skipped input */
	size_t		 nerrors, caperrors;

	/* derived */
	struct d9m_polls polls;
	struct d9m_periods parks;
	struct d9m_periods actives;
	struct d9m_gaps	 gaps;
	/* poll rows grouped by task, each group sorted by start:
	 * task_polls[task_polls_off[t] .. task_polls_off[t + 1]) */
	uint32_t	*task_polls;
	size_t		*task_polls_off;	/* ntasks + 1 entries */
	/* scheduling delay of each poll (ANALYSIS 5.1, stale wakes
	 * excluded), D9M_SCHED_NONE or D9M_SCHED_NO_WAKE */
	uint32_t	*poll_sched;
	/* the same by dial9's own rule (ANALYSIS 5.1 as written: the last
	 * wake before the poll, stale or not), D9M_SCHED_NONE; for the
	 * figure dial9 gives, beside ours */
	uint32_t	*poll_sched_ref;
	struct d9m_spans spans;
	struct d9m_appev appev;
	/* allocation sample rate R per segment (samples.h), segs.n + 1
	 * entries; the latest one given, and whether any was given */
	uint64_t	*seg_rate;
	uint64_t	 alloc_rate;
	int		 alloc_rate_meta;
	/* context-switch sample period N per segment (samples.h: an
	 * off-CPU sample stands for N switches), segs.n + 1 entries */
	uint32_t	*seg_sched;
	/* the smallest share of time, %, that a segment sampled context
	 * switches (d9rec.sched_duty_pct; 100 when none says), and the duty
	 * cycle every segment shares, ns (0, 0: none) (samples.h) */
	uint32_t	 sched_duty;
	uint64_t	 sched_cycle_ns, sched_on_ns;
	/* CPU samples per second of a thread's CPU time that the segments
	 * state (d9rec.cpu_frequency_hz, cpu.profile.frequency_hz; the
	 * lowest when they differ), 0 when none does (ANALYSIS 17.1) */
	uint32_t	 cpu_hz;
	struct d9m_worker *workers;	/* by group, then id (own) */
	size_t		 nworkers;
	/* per source group g: [2 g] first, [2 g + 1] last time of its
	 * runtime events, CPU samples and custom events (UINT64_MAX, 0:
	 * none) */
	uint64_t	*group_cover;
	/* symbol rows of segment s: [sym_seg_off[s], sym_seg_off[s + 1]),
	 * segs.n + 1 entries (rows sorted by segment, then address) */
	uint32_t	*sym_seg_off;
	/* twins.h, segs.n entries: what a window would otherwise work out
	 * from every segment's symbols */
	uint32_t	*seg_twin;
	/* samples.h: the idle gap of each task dump (dumps.n entries), and
	 * the distinct stacks of the samples (nsym_stacks) */
	uint64_t	*dump_idle;
	uint64_t	*sym_stacks;
	size_t		 nsym_stacks;
	struct d9m_runtime *runtimes;	/* by their lowest worker, then name */
	size_t		 nruntimes;
	uint64_t	 min_ts, max_ts;	/* over runtime events */
	uint64_t	 rt_events;		/* polls, parks, unparks, queue, wakes */
	struct d9m_loss	 loss;
	struct d9m_cost	 cost;		/* loss.c derives it too */
	int		 stream_only;	/* set before loading: every input
					 * streams (d9p_read_opts') */
	uint64_t	 mem_budget;	/* set before loading: the newest
					 * files that fit are read
					 * (d9p_read_opts') */
	int		 following;	/* read by d9m_model_follow: its .active
					 * inputs are segments still written */
	int		 finished;
	int		 last;		/* finishing for the last time
					 * (d9m_model_finish_last) */

	struct d9m_builder *builder;	/* while loading */
	/* who owns the columns of a model mapped from somewhere else (the
	 * store's index entries): set by whoever mapped it */
	struct d9m_backing {
		/* give back the pages read so far (they are read again
		 * when used) once the process holds more than keep bytes
		 * of such pages (0: whatever it holds) */
		void	(*release)(void *ctx, size_t keep);
		void	(*free)(void *ctx);	/* at d9m_model_free */
		void	*ctx;
	}		 backing;
};

struct d9m_model *d9m_model_new(void);
void	 d9m_model_free(struct d9m_model **m);
/* Read paths into the model (may be called more than once). Messages
 * about bad input go to m->errors and, when note is set, to note too. */
D9_MUST_USE
int	 d9m_model_load(struct d9m_model *m, const char *const *paths,
	    size_t npaths, struct d9p_progress *progress,
	    void (*note)(void *, const char *), void *note_ctx,
	    struct d9p_read_stats *stats);
/* Read what is new in f's inputs (see parse/follow.h). */
struct d9p_follow;
D9_MUST_USE
int	 d9m_model_follow(struct d9m_model *m, struct d9p_follow *f,
	    struct d9p_progress *progress, struct d9p_read_stats *stats);
/*
 * A copy of what src has loaded so far, not finished, that cannot load
 * more (for showing a trace while it still loads). Strings and stacks are
 * shared with src, whose arena must outlive the copy. NULL when out of
 * memory.
 */
struct d9m_model *d9m_model_snapshot(const struct d9m_model *src);
/* Sort every table by time and derive the timelines. A model that will
 * load more is shown through a snapshot, finished in its place: loading
 * keeps the places of rows that finishing moves (the clock syncs of a
 * segment whose process is not known yet, moved again when it is:
 * groups.h), so a model finished and then loaded further can differ
 * from one read at once (fuzz/fuzz_follow.c). */
D9_MUST_USE
int	 d9m_model_finish(struct d9m_model *m);
/* A finished model that will load nothing more drops what only loading
 * and finishing need (the raw span events: the instances in m->spans
 * stay); d9m_model_load refuses it afterwards. */
void	 d9m_model_seal(struct d9m_model *m);
/* Finish m that will read nothing more, then seal it: the span events
 * go as soon as they are paired, while the rest is derived. -1 (m
 * unfinished, its span events gone) when out of memory. */
D9_MUST_USE
int	 d9m_model_finish_last(struct d9m_model *m);
int	 d9m_model_add_error(struct d9m_model *m, const char *msg);
/* Whether m's columns are mapped (m->backing set): finished, read-only
 * (load, follow, finish and seal leave it as it is). */
int	 d9m_model_mapped(const struct d9m_model *m);
/* A mapped model gives back the pages it read once the process holds
 * more than keep bytes of mapped pages (0: whatever it holds), so that
 * it holds what it reads next; nothing for another model. */
void	 d9m_model_release(const struct d9m_model *m, size_t keep);

/* Task row of a task id, D9_NONE if unknown. */
uint32_t d9m_task_find(const struct d9m_model *m, uint64_t id);
/* Worker slot (lane) of a worker (wids row), D9_NONE if it has none. */
uint32_t d9m_worker_slot(const struct d9m_model *m, uint32_t id);
/* Worker slot of the worker own of source group g, D9_NONE if none. */
uint32_t d9m_worker_slot_of(const struct d9m_model *m, uint32_t g,
	    uint64_t own);
/* Worker slot of poll row p (< polls.n): the lane whose range
 * [poll0, poll0 + npolls) holds it. */
uint32_t d9m_poll_worker(const struct d9m_model *m, size_t p);
/* Lane s of model o in model n, a model of the same inputs read further
 * (the same source and id), and poll p of o in n (the same lane and
 * start); D9_NONE where n has none. */
uint32_t d9m_lane_remap(const struct d9m_model *o, const struct d9m_model *n,
	    uint32_t s);
uint32_t d9m_poll_remap(const struct d9m_model *o, const struct d9m_model *n,
	    uint32_t p);
/* String id s of o in n (by its text), task row t of o in n (by its
 * id), n maybe a model of other files; D9_NONE where n has none. */
uint32_t d9m_str_remap(const struct d9m_model *o, const struct d9m_model *n,
	    uint32_t s);
uint32_t d9m_task_remap(const struct d9m_model *o, const struct d9m_model *n,
	    uint32_t t);
/* That worker (wids row: ids.h prints it). */
uint32_t d9m_poll_worker_id(const struct d9m_model *m, size_t p);
/* Latest value of a metadata key (over all segments), or NULL. */
const char *d9m_meta_get(const struct d9m_model *m, const char *key);

static inline const char *
d9m_str(const struct d9m_model *m, uint32_t id)
{
	return d9_intern_str(&m->strs, id, NULL);
}

/* Frames of a stack id: *n little-endian u64 at the returned pointer. */
static inline const uint8_t *
d9m_stack(const struct d9m_model *m, uint32_t id, size_t *n)
{
	uint32_t len;
	const char *p = d9_intern_str(&m->stacks, id, &len);

	*n = len / 8;
	return (const uint8_t *)p;
}

/* Stacks a and b by their addresses (their bytes, then length): an order
 * of the stacks themselves, for ties. Their ids are the order the reader
 * first met them, which differs between a directory followed while it is
 * written and a fresh read of the same files. */
static inline int
d9m_stack_cmp(const struct d9m_model *m, uint32_t a, uint32_t b)
{
	size_t na, nb;
	const uint8_t *pa, *pb;
	int c;

	if (a == b)
		return 0;
	pa = d9m_stack(m, a, &na);
	pb = d9m_stack(m, b, &nb);
	if ((c = memcmp(pa, pb, 8 * (na < nb ? na : nb))) != 0)
		return c;
	return na < nb ? -1 : na > nb;
}

/* Stacks by their addresses, then by segment: an order of their own,
 * not of their ids (the order the reader first met them in). */
static inline int
d9m_stack_seg_cmp(const struct d9m_model *m, uint32_t sa, uint32_t ga,
    uint32_t sb, uint32_t gb)
{
	int c = d9m_stack_cmp(m, sa, sb);

	if (c != 0)
		return c;
	return ga < gb ? -1 : ga > gb;
}

/* Strings a and b by their text, an id that names none (D9_NONE, or
 * past the table) last: the order of names themselves, for ties (their
 * ids are the order the reader first met them, as d9m_stack_cmp's). */
static inline int
d9m_str_cmp(const struct d9m_model *m, uint32_t a, uint32_t b)
{
	int na = a >= m->strs.n, nb = b >= m->strs.n;

	if (a == b || (na && nb))
		return 0;
	if (na || nb)
		return na ? 1 : -1;
	return strcmp(d9m_str(m, a), d9m_str(m, b));
}

/* Row of the last poll of worker slot w starting at or before ts, or
 * D9_NONE. */
uint32_t d9m_poll_at(const struct d9m_model *m, uint32_t w, uint64_t ts);
/* Whether a gap of worker id wid (its OS thread changed) overlaps the
 * time (a, b). */
int	d9m_in_gap(const struct d9m_model *m, uint32_t wid, uint64_t a,
	    uint64_t b);
/* Whether worker slot w blocked in place during (a, b): the open-ended
 * poll a block-in-place hand-off ended (a gap of the worker, its OS
 * thread changed, ends it), from its start to the gap's end. At any
 * width of (a, b), so a timeline marks it at every zoom. */
int	d9m_in_place(const struct d9m_model *m, uint32_t w, uint64_t a,
	    uint64_t b);
/* Worker id of thread tid (the last park or unpark on it), else def. */
uint32_t d9m_tid_worker(const struct d9m_model *m, uint32_t tid,
	    uint32_t def);

#endif
