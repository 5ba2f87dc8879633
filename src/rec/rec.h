/*
 * rec.h: the insides of libd9rec shared by its files.
 *
 * Ownership: a thread handle's ring is written only by its thread
 * (producer: head, counters) and read only by the flush thread
 * (consumer: tail). Everything about segment files (fd, index, sizes,
 * encoder, address set) belongs to the flush thread. The writer's lock
 * protects the thread list, the metadata and the string/schema tables'
 * growth; the tables themselves are chunked so the flush thread reads
 * published entries without the lock. The compressor thread owns only
 * its job queue (cq_* under the writer's lock).
 */
#ifndef D9REC_REC_H
#define D9REC_REC_H

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "base/hmap.h"
#include "base/wire.h"
#include "rec/d9rec.h"

/* Ring records. Every record is 8-byte aligned; the first 8 bytes are
 * kind, size and a 32-bit argument, so a pad fits at any position. */
enum rec_kind {
	R_PAD = 0, R_POLL_START, R_POLL_END, R_PARK, R_UNPARK, R_WAKE,
	R_SPAWN, R_TERMINATE, R_RUNTIME, R_CUSTOM, R_SPAN_ENTER, R_SPAN_EXIT,
	R_SPAN_CLOSE
};

struct rrec {
	uint16_t	 kind;
	uint16_t	 size;		/* bytes, header included */
	uint32_t	 a;		/* loc / schema / site / runtime */
	uint64_t	 ts;		/* raw stamp (tsc or clock hook) */
	uint64_t	 b;		/* task, cpu time, span id, global
					 * queue */
	uint64_t	 c;		/* local queue, woken task, parent,
					 * alive tasks */
};

#define RREC_HDR	16		/* kind, size, a, ts */
#define RREC_MAX	4096		/* largest variable record */

/* Built-in schemas: type id = index + 1 in every batch. */
enum sch_builtin {
	S_CLOCK, S_META, S_POLL_START, S_POLL_END, S_PARK, S_UNPARK, S_WAKE,
	S_SPAWN, S_TERMINATE, S_RUNTIME, S_CPU, S_ALLOC, S_FREE, S_OVERFLOW,
	S_SPAN_CLOSE, S_MAPS, S_SYMBOL, S_NBUILTIN
};

struct sch_field {
	char		*name;
	uint8_t		 type;		/* wire type, optional bit included */
};

/* What a schema is for: d9rec_event takes only an application's, the
 * span calls only a span site's (its enter schema; the exit is next). */
enum sch_kind { SCH_BUILTIN, SCH_CUSTOM, SCH_SPAN_ENTER, SCH_SPAN_EXIT };

struct schema {
	char		*name;
	uint8_t		 kind;		/* enum sch_kind */
	uint16_t	 nfields;
	struct sch_field *fields;
	/* an application's schema (d9rec_schema): its events also carry
	 * the recording thread's worker_id and tid, as dial9's do, unless
	 * it declares them itself (bit 0: worker_id, bit 1: tid) */
	uint8_t		 thread_fields;
	uint16_t	 ndeclared;	/* span sites: declared string fields */
	/* span sites: string ids of the name, target and file; line */
	uint32_t	 span_name, span_target, span_file;
	uint32_t	 span_line;
};

/* Chunked tables: entries never move once published. */
#define TAB_CHUNK	1024
#define TAB_CHUNKS	1024

struct strtab {
	char		**chunk[TAB_CHUNKS];
	uint8_t		*named[TAB_CHUNKS];	/* 1: interned by
						 * d9rec_location (a spawn
						 * location, a runtime's
						 * name) */
	_Atomic uint32_t n;		/* published entries */
};

struct schtab {
	struct schema	*chunk[TAB_CHUNKS];
	_Atomic uint32_t n;
};

struct d9rec_thread {
	/* producer side */
	uint8_t		*buf;
	uint64_t	 mask;
	uint64_t	 head_local;
	uint64_t	 cached_tail;
	uint64_t	 fast_cap;	/* mask + 1; 0 with a test clock */
	uint64_t	(*clock)(void *);
	void		*clock_ctx;
	uint64_t	 cur_task;	/* being polled, 0 outside a poll */
	/* 1 while a recording call of this thread runs: a call that finds
	 * it set interrupted one (a signal handler's) and is dropped
	 * (events.c) */
	_Atomic uint8_t	 busy;
	_Atomic uint64_t head;
	_Atomic uint64_t events;
	_Atomic uint64_t dropped;
	/* dropped by an atomic add, from outside a recording call's guard:
	 * a re-entered call, an unknown runtime id */
	_Atomic uint64_t dropped_unguarded;
	/* consumer side */
	_Alignas(64) _Atomic uint64_t tail;
	struct d9rec_writer *w;
	uint32_t	 worker;
	uint32_t	 tid;
	uint32_t	 name;		/* string id */
	int		 perf_fd[2];	/* cpu clock, context switches */
	uint8_t		*perf_map[2];
	int		 sched_shut;	/* enum shut of perf.c (flush thread) */
	uint64_t	 sched_seen;	/* its switch count at the last edge */
	struct d9rec_cputimer *cputimer; /* the timer CPU sampler's */
	_Atomic int	 dead;
	uint64_t	 last_ns;	/* its latest event's time as written:
					 * a thread's times never go back */
	struct d9rec_thread *next;
};

struct meta_kv {
	char		*key, *val;
};

/* Growing byte buffer of the encoder (flush thread only). */
struct enc {
	uint8_t		*p;
	size_t		 n, cap;
	int		 oom;
	uint64_t	 base;		/* timestamp base */
	uint32_t	 gen;		/* batch generation */
	uint32_t	*sch_gen;	/* per schema: gen when declared */
	size_t		 nsch_gen;
	uint32_t	*str_gen;	/* per string id: gen when pooled */
	uint32_t	*str_pool;	/* per string id: pool id */
	size_t		 nstr_gen;
	uint32_t	 next_str;	/* next pool id in this batch */
	uint32_t	 next_stack;
	struct d9_hmap	 inl;		/* inline strings pooled in this
					 * batch: hash -> pool id */
	uint64_t	 events;	/* events encoded in this batch */
};

struct memring;
struct livetab;
struct d9rec_cputimer;

struct seg_victim {
	uint32_t	 idx;
	uint64_t	 bytes;
};

struct d9rec_writer {
	struct d9rec_options opt;
	char		*dir;
	int		 dirfd;
	int		 lockfd;
	pid_t		 pid;
	_Atomic int	 forked;
	char		 boot_id[32];
	char		 host[256];

	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;		/* flush thread wake-ups */
	pthread_cond_t	 done;		/* flush / rotate completions */
	pthread_t	 flusher;
	int		 flusher_started;
	int		 stop;
	uint64_t	 req_flush, done_flush;	/* sequence numbers */
	int		 req_rotate;

	struct d9rec_thread *threads;

	struct strtab	 strs;
	struct schtab	 schemas;
	struct meta_kv	*meta;
	size_t		 nmeta;
	uint64_t	 meta_version;
	uint64_t	 meta_written;	/* version in the current segment */
	struct d9_hmap	 locs;		/* location text -> string id */

	/* clock: ns = anchor_ns + (raw - anchor_raw) * rate */
	int		 tsc;
	uint64_t	 raw0, ns0;
	uint64_t	 anchor_raw, anchor_ns;
	double		 rate;

	/* flush thread: the active segment */
	struct enc	 enc;		/* data batches */
	struct enc	 aux;		/* headers, metadata, seals */
	struct enc	 tail;		/* a seal's appendix, made before the
					 * size cap is planned */
	size_t		 batch_max;	/* cut data batches at this size */
	int		 fd;		/* -1 when none */
	uint32_t	 index;
	uint64_t	 seg_bytes;
	uint64_t	 seg_start_ns;	/* d9rec_now, for the period */
	struct seg_victim *plan;	/* segments the seal deletes */
	size_t		 plan_n, plan_cap;
	uint64_t	 plan_bytes;
	int		 seg_data;	/* data batches written */
	uint64_t	 seg_batches;	/* how many */
	uint64_t	 counters_ns;	/* loss counters last put in the metadata */
	uint64_t	 loss_sealed;	/* their sum in the last sealed segment */
	struct d9_hmap	 addrs;		/* callchain addresses of the
					 * segment (keys; values unused) */
	uint64_t	 total_sealed;	/* bytes of sealed segments on disk */
	void		*symcache;
	struct ksyms	*ksyms;		/* kernel names (ksyms.c) */
	uint64_t	 ksyms_after;	/* no kallsyms pass before this
					 * (mono ns) but at the last seal */
	uint64_t	 proc_cpu0;	/* process CPU at open, ns */

	/* compressor thread */
	pthread_t	 compressor;
	int		 compressor_started;
	pthread_cond_t	 cq_cond;
	uint32_t	*cq;
	size_t		 cq_n, cq_cap;
	int		 cq_busy;
	int		 flush_exited;	/* no more jobs will come */

	/* profiling */
	int		 cpu_on, sched_on;
	int		 sched_live;	/* the switch events are on now (lock) */
	int		 cpu_timer;	/* CPU samples from the timer sampler */
	char		 cpu_reason[160], sched_reason[160];
	char		 sampler_reason[160];	/* d9rec.cpu_sampler */
	struct memring	*mem;
	struct livetab	*live;
	uint64_t	 mem_dropped_reported[2];	/* ring counts at start */
	uint64_t	 mem_samples_base[2];
	uint64_t	 mem_overflow_written[2];	/* since start */

	/* counters (flush thread writes, anyone reads) */
	_Atomic uint64_t written_events, bytes_written, write_errors;
	_Atomic uint64_t lost_batches, segments;
	_Atomic uint64_t deleted_segments, deleted_bytes;
	_Atomic uint64_t cpu_samples, cpu_lost;
	_Atomic uint64_t retired_events, retired_dropped;
	_Atomic uint64_t ring_lost;	/* events skipped over a ring found
					 * inconsistent (flush.c) */
	_Atomic uint64_t recovered;	/* crashed writers' segments sealed */
	_Atomic int	 last_errno;
	_Atomic int	 suspended;	/* no segment open after a failed write */
};

/* ---- clock (writer.c) ---- */
static inline uint64_t
d9rec_raw_now(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

uint64_t d9rec_mono_ns(void);
uint64_t d9rec_clock_ns(clockid_t c);		/* 0 when unreadable */
/* CPU time of libd9rec's flush and compressor threads (*rec) and of the
 * process since open (*proc), ns; on_flusher: called by the flush
 * thread. */
void	 d9rec_cost_of(struct d9rec_writer *w, int on_flusher, uint64_t *rec,
	    uint64_t *proc);
void	 d9rec_clock_anchor(struct d9rec_writer *w);

/* A raw time (TSC) in ns: anchor_ns + (raw - anchor_raw) * rate. */
static inline uint64_t
d9rec_raw_to_ns(const struct d9rec_writer *w, uint64_t raw)
{
	double d;

	if (!w->tsc)
		return raw;
	d = (double)(int64_t)(raw - w->anchor_raw) * w->rate;
	return w->anchor_ns + (uint64_t)(int64_t)d;
}

/* ---- stacks (stack.c) ---- */
void	 d9rec_stack_bounds(uintptr_t *lo, uintptr_t *hi);	/* caller's */
/* Return addresses of the frame-pointer chain from fp, every read in
 * [lo, hi); at most max into f. Async-signal-safe. */
uint32_t d9rec_stack_walk(uintptr_t fp, uintptr_t lo, uintptr_t hi,
	    uint64_t *f, uint32_t max);

/* ---- threads (writer.c) ---- */
void	 d9rec_thread_free(struct d9rec_thread *t);	/* perf, timer, ring */

/* ---- tables (tables.c) ---- */
const char *d9rec_str(struct d9rec_writer *w, uint32_t id);
struct schema *d9rec_schema_get(struct d9rec_writer *w, uint32_t id);
uint32_t d9rec_strtab_add(struct d9rec_writer *w, const char *s, int named);
/* Whether id is a published string that d9rec_location interned: what a
 * spawn location or a runtime id must be (another string's id, 0 say,
 * would name the service or a span instead). */
int	 d9rec_str_named(struct d9rec_writer *w, uint32_t id);
int	 d9rec_tables_init(struct d9rec_writer *w);	/* built-in schemas */
void	 d9rec_tables_free(struct d9rec_writer *w);

/* ---- encoder (enc.c) ---- */
int	 d9rec_enc_init(struct enc *e);
void	 d9rec_enc_free(struct enc *e);
void	 d9rec_enc_batch(struct enc *e);		/* header + reset state */
void	 d9rec_enc_clear(struct enc *e);		/* drop bytes */
void	 d9rec_enc_event_slow(struct d9rec_writer *w, struct enc *e,
	    uint32_t sch, uint64_t ts);
void	 d9rec_enc_bytes(struct enc *e, const void *p, size_t n);

/* Fixed-width little-endian fields and LEB128 varints: written in place
 * while the buffer has room (the flush thread's inner loop), else
 * through d9rec_enc_bytes, which grows it or marks it oom. */
static inline int
d9rec_enc_room(const struct enc *e, size_t n)
{
	return __builtin_expect(!e->oom && e->cap - e->n >= n, 1);
}

/* Cursor writers: at q, which has room; the cursor after the field. */
static inline uint8_t *
d9rec_put_varint(uint8_t *q, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		*q++ = (uint8_t)(v | 0x80);
	*q++ = (uint8_t)v;
	return q;
}

static inline uint8_t *
d9rec_put_le(uint8_t *q, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		q[i] = (uint8_t)(v >> (8 * i));
	return q + n;
}

static inline void
d9rec_enc_le(struct enc *e, uint64_t v, size_t n)
{
	uint8_t b[8];

	if (d9rec_enc_room(e, n))
		e->n = (size_t)(d9rec_put_le(e->p + e->n, v, n) - e->p);
	else
		d9rec_enc_bytes(e, b, (size_t)(d9rec_put_le(b, v, n) - b));
}

#define d9rec_enc_u8(e, v)	d9rec_enc_le((e), (uint8_t)(v), 1)
#define d9rec_enc_u16(e, v)	d9rec_enc_le((e), (uint16_t)(v), 2)
#define d9rec_enc_u32(e, v)	d9rec_enc_le((e), (uint32_t)(v), 4)
#define d9rec_enc_u64(e, v)	d9rec_enc_le((e), (uint64_t)(v), 8)

static inline void
d9rec_enc_varint(struct enc *e, uint64_t v)
{
	uint8_t b[10];

	if (d9rec_enc_room(e, sizeof b))
		e->n = (size_t)(d9rec_put_varint(e->p + e->n, v) - e->p);
	else
		d9rec_enc_bytes(e, b, (size_t)(d9rec_put_varint(b, v) - b));
}
/*
 * An event's header, its schema declared first if this batch has not
 * yet, a time reset when the delta does not fit 24 bits, and room for
 * at most max bytes of fields: the cursor to its fields (NULL when out
 * of memory), written through with the d9rec_put_ writers and ended
 * with d9rec_enc_at(e, q). The common case (declared, small delta, room)
 * is six bytes written in place and one check for every field: the
 * flush thread's inner loop.
 */
uint8_t	*d9rec_enc_head_slow(struct d9rec_writer *w, struct enc *e,
	    uint32_t sch, uint64_t ts, size_t max);

static inline uint8_t *
d9rec_enc_head(struct d9rec_writer *w, struct enc *e, uint32_t sch,
    uint64_t ts, size_t max)
{
	uint64_t d = ts - e->base;
	uint8_t *q;

	if (__builtin_expect(sch >= e->nsch_gen || e->sch_gen[sch] != e->gen ||
	    ts < e->base || d > D9_TS_DELTA_MAX || !d9rec_enc_room(e,
	    6 + max), 0))
		return d9rec_enc_head_slow(w, e, sch, ts, max);
	q = e->p + e->n;
	q[0] = D9_TAG_EVENT;
	q[1] = (uint8_t)(sch + 1);
	q[2] = (uint8_t)((sch + 1) >> 8);
	q[3] = (uint8_t)d;
	q[4] = (uint8_t)(d >> 8);
	q[5] = (uint8_t)(d >> 16);
	e->base = ts;
	e->events++;
	return q + 6;
}

static inline void
d9rec_enc_at(struct enc *e, const uint8_t *q)
{
	if (q != NULL)
		e->n = (size_t)(q - e->p);
}

/* An event's header alone, its fields written by the d9rec_enc_ calls
 * (events whose size has no small bound). */
static inline void
d9rec_enc_event(struct d9rec_writer *w, struct enc *e, uint32_t sch,
    uint64_t ts)
{
	d9rec_enc_at(e, d9rec_enc_head(w, e, sch, ts, 0));
}

void	 d9rec_enc_str(struct enc *e, const char *s, size_t n); /* inline */
/* Pool entries must precede their event: get the ids first, then call
 * d9rec_enc_event, then write the fields (ids as u32). */
uint32_t d9rec_enc_pool_id(struct d9rec_writer *w, struct enc *e,
	    uint32_t strid);
uint32_t d9rec_enc_pool_str(struct enc *e, const char *s, size_t n);
/* The pool id of a spawn location: "" (none) when strid is not one
 * d9rec_location gave (d9rec_str_named). */
uint32_t d9rec_enc_pool_loc(struct d9rec_writer *w, struct enc *e,
	    uint32_t strid);
uint32_t d9rec_enc_pool_stack(struct enc *e, const uint64_t *f, uint32_t n);
void	 d9rec_enc_map(struct enc *e, const struct meta_kv *kv, size_t n);

/* ---- flush thread (flush.c) ---- */
void	*d9rec_flush_main(void *arg);
void	 d9rec_background(const char *name);	/* SCHED_BATCH for the caller */
void	 d9rec_sources_batch(struct d9rec_writer *w);

/* ---- segment files (segment.c) ---- */
struct stat;
/* 0 when the trace directory dir (sb) is the calling user's and
 * writable by nobody else; -EPERM with the reason in msg. */
int	 d9rec_dir_check(const char *dir, const struct stat *sb, char *msg,
	    size_t len);
int	 d9rec_seg_parse_name(const char *name, uint32_t *idx,
	    const char **rest);
DIR	*d9rec_seg_dir(struct d9rec_writer *w);	/* a fresh listing */
int	 d9rec_seg_scan(struct d9rec_writer *w);
int	 d9rec_seg_open(struct d9rec_writer *w);
void	 d9rec_seg_write(struct d9rec_writer *w, struct enc *e, int data);
void	 d9rec_seg_seal(struct d9rec_writer *w, int final);
void	 d9rec_seg_meta(struct d9rec_writer *w);
uint64_t d9rec_seg_counters(struct d9rec_writer *w);	/* into the metadata */
void	*d9rec_compress_main(void *arg);
/* ---- compression (compress.c): 0 or -1 ---- */
int	 d9rec_gzip_fd(int in, int out);
int	 d9rec_gzip_fast_fd(int in, int out);	/* gzfast.c */
int	 d9rec_zstd_fd(int in, int out);
int	 d9rec_compress_file(struct d9rec_writer *w, uint32_t index);

/* ---- the size cap (retain.c) ---- */
void	 d9rec_retain_plan(struct d9rec_writer *w, uint64_t reserve,
	    uint64_t pending);
void	 d9rec_retain_apply(struct d9rec_writer *w);	/* lock held */

/* ---- symbols and maps (syms.c) ---- */
void	 d9rec_addrs_add(struct d9_hmap *s, const uint64_t *f, uint32_t n);
/* The segment's maps and symbols; final: the writer's last seal. */
void	 d9rec_appendix(struct d9rec_writer *w, struct enc *e, int symbols,
	    int final);
void	 d9rec_symcache_free(struct d9rec_writer *w);

/* ---- kernel symbols (ksyms.c) ---- */
/* A pass over /proc/kallsyms costs ~80 ms: passes at least 50 s apart
 * (under the default rotation, one per seal at most), the first half a
 * minute after open, and one at the last seal. */
#define D9REC_KSYMS_GAP_NS	(50ull * 1000000000u)
#define D9REC_KSYMS_FIRST_NS	(30ull * 1000000000u)
struct ksyms;
/* Name the kernel addresses need[0..m) (ascending, unique) in one pass
 * over path (/proc/kallsyms); *k is made on first use. 0, or -1 when
 * the file cannot name anything (then never read again) or out of
 * memory. An address below every symbol is known, without a name. */
int	 d9rec_ksyms_resolve(struct ksyms **k, const char *path,
	    const uint64_t *need, size_t m);
/* 1 when addr was resolved, or when the file is off. */
int	 d9rec_ksyms_known(const struct ksyms *k, uint64_t addr);
const char *d9rec_ksyms_name(const struct ksyms *k, uint64_t addr);
unsigned d9rec_ksyms_passes(const struct ksyms *k);	/* files read */
void	 d9rec_ksyms_free(struct ksyms **k);

/* ---- profiling (perf.c, cputimer.c, alloc.c) ---- */
void	 d9rec_perf_probe(struct d9rec_writer *w);
/* One CpuSampleEvent of thread t: source 0 (CPU) or 1 (switch). */
void	 d9rec_cpu_sample(struct d9rec_writer *w, struct d9rec_thread *t,
	    struct enc *e, uint64_t ts, uint32_t cpu, int source,
	    const uint64_t *frames, uint32_t n);
int	 d9rec_cputimer_probe(char *reason, size_t len);
struct d9rec_cputimer *d9rec_cputimer_start(unsigned hz);
void	 d9rec_cputimer_stop(struct d9rec_cputimer *c);
void	 d9rec_cputimer_free(struct d9rec_cputimer *c);
void	 d9rec_cputimer_forget(struct d9rec_cputimer *c);
int	 d9rec_cputimer_empty(struct d9rec_cputimer *c);
void	 d9rec_cputimer_drain(struct d9rec_writer *w, struct d9rec_thread *t,
	    struct enc *e);
void	 d9rec_perf_thread(struct d9rec_writer *w, struct d9rec_thread *t);

#define D9REC_SCHED_CYCLE_MS	1000u	/* the switch duty cycle's length */

/* The kernel's period while context switches are sampled, and the
 * switches a sample stands for over time (metadata). */
unsigned d9rec_sched_event_period(const struct d9rec_writer *w);
unsigned d9rec_sched_stands_for(const struct d9rec_writer *w);
/* w->lock held: every thread's context-switch event on or off as the
 * duty cycle says now; ms to the next change (UINT64_MAX: none). */
uint64_t d9rec_perf_duty(struct d9rec_writer *w);
/* w->lock held: thread t, just listed, on if the others are. */
void	 d9rec_perf_listed(struct d9rec_writer *w, struct d9rec_thread *t);
void	 d9rec_perf_close(struct d9rec_thread *t);
void	 d9rec_perf_drain(struct d9rec_writer *w, struct d9rec_thread *t,
	    struct enc *e);
int	 d9rec_alloc_start(struct d9rec_writer *w);
void	 d9rec_alloc_stop(struct d9rec_writer *w);
void	 d9rec_alloc_drain(struct d9rec_writer *w, struct enc *e);
void	 d9rec_alloc_stats(struct d9rec_writer *w, struct d9rec_stats *st);

/* ---- descriptors (fd.c) ---- */
/* fd, moved above standard error when it is 0, 1 or 2 (close-on-exec);
 * -1 with errno when fd is -1 or cannot be moved (fd then closed). */
int	 d9rec_fd_high(int fd);

/* ---- process-wide registry for fork (fork.c) ---- */
void	 d9rec_fork_register(struct d9rec_writer *w);
void	 d9rec_fork_unregister(struct d9rec_writer *w);

#endif
