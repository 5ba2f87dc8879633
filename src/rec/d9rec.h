/*
 * d9rec.h: libd9rec, a recorder that writes dial9 trace segments from a C
 * program (an event loop, a thread pool, a server), readable by d9top, the
 * dial9 web viewer and the dial9 JS toolkit. See d9rec(3).
 *
 * Model: one writer per process (d9rec_open) owns a directory of segment
 * files and a background flush thread. Every thread that records events
 * registers once (d9rec_thread_register) and gets a handle whose ring
 * buffer only that thread writes: the recording calls take no lock, make
 * no allocation and never block; a full ring drops the event and counts
 * it. The flush thread turns the rings into self-contained batches,
 * rotates, seals and compresses segments, and adds CPU samples (a
 * CPU-time timer and SIGPROF per thread, or perf_event_open), context
 * switch samples (perf_event_open) and allocation samples.
 *
 * Errors: functions that can fail return 0 or a negative errno value.
 * Recording calls return nothing; what they could not record is counted
 * (d9rec_stats) and written into the trace's segment metadata.
 *
 * Strings given to recording calls are copied, except spawn locations and
 * span sites, which are registered once and referenced by id.
 */
#ifndef D9REC_H
#define D9REC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct d9rec_writer d9rec_writer;
struct d9rec_thread;

#define D9REC_NO_WORKER		255u	/* thread is not a runtime worker */
#define D9REC_BLOCKING_WORKER	254u	/* thread of a blocking pool (an event
					 * loop's thread pool): no worker lane */
#define D9REC_DEFAULT_RUNTIME	UINT32_MAX	/* the unnamed runtime */

enum d9rec_compression {
	D9REC_COMPRESS_NONE = 0,	/* sealed segments stay trace.N.bin */
	D9REC_COMPRESS_GZIP = 1,	/* trace.N.bin.gz, deflate at level 1:
					 * 3.2 to 3.9 times smaller */
	D9REC_COMPRESS_ZSTD = 2,	/* trace.N.bin.zst */
	D9REC_COMPRESS_GZIP_FAST = 3	/* trace.N.bin.gz in Huffman codes
					 * only (default): 2 to 2.4 times
					 * smaller, half the CPU of _GZIP */
};

enum d9rec_cpu_sampler {
	D9REC_CPU_TIMER = 0,	/* a CPU-time timer per thread and SIGPROF,
				 * user stacks (default; perf when the
				 * program handles SIGPROF itself) */
	D9REC_CPU_PERF = 1	/* a perf cpu-clock event per thread */
};

struct d9rec_options {
	const char	*dir;		/* required; created if missing (0700);
					 * refused (EPERM) unless the caller's
					 * (euid) and not writable by group or
					 * others */
	const char	*service;	/* metadata "service"; default: program name */
	uint64_t	 max_file_size;	/* rotate above this; 0: min(100 MiB,
					 * total/4); at least 16 KiB */
	uint64_t	 max_total_size; /* delete oldest segments above (never
					 * the newest); 0: 1 GiB; at least
					 * 2 * max_file_size */
	uint64_t	 rotation_period_ms; /* 0: 60000 */
	uint64_t	 flush_interval_ms;  /* drain rings this often; 0: 50 */
	size_t		 thread_buffer_size; /* ring bytes per thread; 0: 1 MiB */
	int		 compression;	/* enum d9rec_compression */
	int		 cpu_profile;	/* CPU samples of registered threads */
	unsigned	 cpu_frequency_hz; /* 0: 99 */
	int		 sched_profile;	/* context-switch samples (kernel rights),
					 * 1 in sched_sample_period, of runtime
					 * workers (sched_all_threads: of every
					 * registered thread) */
	int		 alloc_profile;	/* allocation sampling */
	uint64_t	 alloc_sample_rate; /* mean bytes between samples; 0: 524288 */
	int		 symbols;	/* SymbolTableEntry appendix; env D9REC_SYMBOLS=0 */
	/* Test hook: when set, every timestamp comes from here (ns), and
	 * the phase of the switch sampling's duty cycle. */
	uint64_t	(*clock)(void *ctx);
	void		*clock_ctx;
	/* A context-switch sample stands for N switches of its thread; 0:
	 * D9REC_SCHED_PERIOD; 1 with sched_duty_pct 100: every switch
	 * (metadata d9rec.sched_sample_period, the N a reader scales by). */
	unsigned	 sched_sample_period;
	/* How CPU samples are taken: enum d9rec_cpu_sampler (metadata
	 * d9rec.cpu_sampler). */
	int		 cpu_sampler;
	/* Context-switch samples of every registered thread, not only of
	 * the runtime workers (worker id below D9REC_BLOCKING_WORKER). */
	int		 sched_all_threads;
	/* Context-switch sampling is on this share of each second (per
	 * cent, 1 to 100): the first sched_duty_pct % of it (of the
	 * trace's clock, the test hook's when set), while the
	 * kernel samples one switch in sched_sample_period *
	 * sched_duty_pct / 100 (at least 1); off, a switch costs next to
	 * nothing. 0: D9REC_SCHED_DUTY when sched_sample_period is 0,
	 * else 100 (metadata d9rec.sched_duty_pct). */
	unsigned	 sched_duty_pct;
};

#define D9REC_SCHED_PERIOD	16u	/* default context-switch period */
#define D9REC_SCHED_DUTY	25u	/* default share of time sampled, % */

/* Counters, cumulative since d9rec_open. */
struct d9rec_stats {
	uint64_t	 events;	/* events accepted into thread rings */
	uint64_t	 dropped;	/* events lost to a full ring, made by
					 * a signal handler inside another
					 * recording call, or skipped in a
					 * damaged ring */
	uint64_t	 written_events; /* events written to segment files */
	uint64_t	 bytes_written;
	uint64_t	 write_errors;	/* failed writes (ENOSPC, EIO, EFBIG ...) */
	uint64_t	 lost_batches;	/* batches not written after an error */
	uint64_t	 segments;	/* segments sealed */
	uint64_t	 recovered_segments; /* a crashed writer's, sealed at open */
	uint64_t	 deleted_segments; /* removed by the size cap */
	uint64_t	 deleted_bytes;	/* their size on disk */
	uint64_t	 cpu_samples;
	uint64_t	 cpu_lost;	/* perf ring overruns (PERF_RECORD_LOST) */
	uint64_t	 alloc_samples, free_samples;
	uint64_t	 alloc_dropped, free_dropped; /* memory ring overflow */
	int		 last_errno;	/* of the last failed write, or 0 */
	int		 stopped;	/* not writing now (disk error: until a new
					 * segment can be written) */
	int		 cpu_profile_on, sched_profile_on;
};

/* Field types of custom events (wire types of FORMAT 2.9). */
enum d9rec_type {
	D9REC_T_U64 = 9,	/* LEB128 varint */
	D9REC_T_I64 = 1,
	D9REC_T_F64 = 2,
	D9REC_T_BOOL = 3,
	D9REC_T_STR = 7,	/* pooled string */
	D9REC_T_U8 = 11,
	D9REC_T_U16 = 12,
	D9REC_T_U32 = 13
};

struct d9rec_field {
	const char	*name;
	int		 type;		/* enum d9rec_type */
};

union d9rec_value {
	uint64_t	 u;
	int64_t		 i;
	double		 f;
	const char	*s;		/* D9REC_T_STR; NULL records "" */
};

/* Defaults for every option; dir must still be set. */
void	d9rec_options_init(struct d9rec_options *o);
/*
 * Whether d9rec_open would accept o: 0, or -EINVAL with the reason in
 * msg (NUL-terminated, cut to len). A size cap must hold two segments
 * (the newest complete one and the one being written). -EPERM: the
 * directory exists and belongs to another user or its group or others
 * may write to it (anyone could plant or replace segments).
 */
int	d9rec_options_check(const struct d9rec_options *o, char *msg,
	    size_t len);

/*
 * Create the writer, its directory and the first segment, and start the
 * flush thread. The *.active files a crashed writer left are sealed
 * (renamed trace.N.bin, counted in recovered_segments) and numbering
 * continues after the highest segment.
 */
int	d9rec_open(d9rec_writer **out, const struct d9rec_options *o);
/* Flush, seal and compress the last segment, stop, free; *w = NULL. Every
 * thread handle must have been unregistered (or is released here). */
int	d9rec_close(d9rec_writer **w);
/* Drain every ring and write it now (blocks until done). */
int	d9rec_flush(d9rec_writer *w);
/* Seal the current segment and start the next one (blocks until done). */
int	d9rec_rotate(d9rec_writer *w);
void	d9rec_stats(d9rec_writer *w, struct d9rec_stats *st);
/* What recording has cost the process since d9rec_open: the CPU time
 * of libd9rec's own threads (flush, compressor) and the process's CPU
 * time, both ns (0 in a forked child). The recording calls' share in
 * the program's threads is not in it (d9rec(3), "What recording
 * costs"). Sealed segments carry both (metadata d9rec.recorder_cpu_ns,
 * d9rec.process_cpu_ns). */
void	d9rec_cost(d9rec_writer *w, uint64_t *recorder_cpu_ns,
	    uint64_t *process_cpu_ns);
/* Current time on the trace clock (ns, CLOCK_MONOTONIC). */
uint64_t d9rec_now(d9rec_writer *w);

/* The longest metadata key or value d9rec_set_meta takes: what readers
 * keep whole (d9top cuts a longer string). */
#define D9REC_META_MAX	(64u << 10)
/* Segment metadata key/value (written with the next batch); -E2BIG for
 * a key or value longer than D9REC_META_MAX bytes. */
int	d9rec_set_meta(d9rec_writer *w, const char *key, const char *value);
/* Declare a named runtime of workers first .. first+n-1
 * (metadata runtime.<name> = "first,...,first+n-1"): -EINVAL unless
 * n > 0 and they are worker ids, below D9REC_BLOCKING_WORKER. */
int	d9rec_runtime(d9rec_writer *w, const char *name, uint32_t first,
	    uint32_t n);
/* The id d9rec_runtime_sample names a runtime by: name NULL or "" is the
 * unnamed default runtime (D9REC_DEFAULT_RUNTIME); UINT32_MAX - 1 when
 * out of memory. */
uint32_t d9rec_runtime_id(d9rec_writer *w, const char *name);

/*
 * Register the calling thread. worker_id: its runtime worker id (< 255)
 * or D9REC_NO_WORKER. name: thread name for CPU samples (NULL: comm).
 * Starts CPU sampling of the thread when enabled. NULL on failure.
 */
struct d9rec_thread *d9rec_thread_register(d9rec_writer *w, const char *name,
	    uint32_t worker_id);
/* From the registered thread itself; its ring is still flushed. */
void	d9rec_thread_unregister(struct d9rec_thread **t);

/* Intern a spawn location ("file.c:123:1"); ids are stable until close.
 * Returns the id, or UINT32_MAX when out of memory. A spawn_loc below
 * that is not such an id (0, say) is written as no location. */
uint32_t d9rec_location(d9rec_writer *w, const char *loc);

/* ---- runtime events, hot path: call from the registered thread ---- */
void	d9rec_poll_start(struct d9rec_thread *t, uint64_t task_id,
	    uint32_t spawn_loc, unsigned local_queue);
void	d9rec_poll_end(struct d9rec_thread *t);
/* Park/unpark read the thread's CPU time (CLOCK_THREAD_CPUTIME_ID). */
void	d9rec_park(struct d9rec_thread *t, unsigned local_queue);
void	d9rec_unpark(struct d9rec_thread *t, unsigned local_queue);
/* waker_task 0: woken from outside any task. */
void	d9rec_wake(struct d9rec_thread *t, uint64_t waker_task,
	    uint64_t woken_task);
/* The task whose poll runs on t now (between d9rec_poll_start and
 * d9rec_poll_end), 0 outside a poll or for a NULL handle: the waker of
 * what the running callback starts (a timer, a write, a job). */
uint64_t d9rec_current_task(const struct d9rec_thread *t);
void	d9rec_spawn(struct d9rec_thread *t, uint64_t task_id,
	    uint32_t spawn_loc);
void	d9rec_terminate(struct d9rec_thread *t, uint64_t task_id);
/* A runtime's global (injection) queue depth and its alive tasks (spawned,
 * not yet completed): dial9's RuntimeMetricsEvent, one per runtime per
 * sample. runtime: from d9rec_runtime_id. */
void	d9rec_runtime_sample(struct d9rec_thread *t, uint32_t runtime,
	    unsigned global_queue, unsigned alive_tasks);
/* The same for the default runtime, alive tasks not known (written 0):
 * kept for programs written against libd9rec 0.1. */
void	d9rec_queue_sample(struct d9rec_thread *t, unsigned global_queue);

/* ---- custom events ---- */
/* Register a schema once; returns its id (>= 0) or a negative errno. */
int	d9rec_schema(d9rec_writer *w, const char *name,
	    const struct d9rec_field *fields, unsigned nfields);
/* vals: one per field of the schema, in order (NULL: every field 0 or
 * ""). A schema id d9rec_schema did not give (a span site's) records
 * nothing and counts a dropped event; so does a span call given an id
 * that is not a span site's. */
void	d9rec_event(struct d9rec_thread *t, int schema,
	    const union d9rec_value *vals);

/*
 * ---- spans: SpanEnter:{target}::{name}:{file}:{line}, dial9 0.5 ----
 * A span instance is named by span_id: nonzero, never reused in the
 * process (it is written as dial9's span_instance_id too). It is entered
 * and exited on one thread each time it runs (enter and exit on the same
 * thread, LIFO), and closed once when it ends, with the time it began
 * (d9rec_now): its duration is close - start, its entered intervals are
 * the time it ran.
 */
/* fields: names of the span's declared fields (values are strings).
 * Returns a site id (>= 0) or a negative errno. */
int	d9rec_span_site(d9rec_writer *w, const char *target, const char *name,
	    const char *file, unsigned line, const char *const *fields,
	    unsigned nfields);
/* parent 0: no explicit parent. values: one per declared field, NULL =
 * not recorded (absent). */
void	d9rec_span_enter(struct d9rec_thread *t, int site, uint64_t span_id,
	    uint64_t parent, const char *const *values);
void	d9rec_span_exit(struct d9rec_thread *t, int site, uint64_t span_id,
	    const char *const *values);
/* The end of the span: start_ns is when it began (d9rec_now), parent the
 * span_id of its explicit parent (0: none), values its final declared
 * fields (its attributes; NULL entries are left out). */
void	d9rec_span_close(struct d9rec_thread *t, int site, uint64_t span_id,
	    uint64_t start_ns, uint64_t parent, const char *const *values);

/* ---- allocation profiling (alloc_profile option) ---- */
/* Wrappers around malloc & co. that sample with the Poisson rule. */
void	*d9rec_malloc(size_t size);
void	*d9rec_calloc(size_t n, size_t size);
void	*d9rec_realloc(void *p, size_t size);
void	 d9rec_free(void *p);
/* Hooks for allocators (and for libd9rec-malloc.so): report an
 * allocation that returned p, and a free of p. Cheap when not sampled. */
void	 d9rec_alloc_hook(void *p, size_t size);
void	 d9rec_free_hook(void *p);

#ifdef __cplusplus
}
#endif

#endif
