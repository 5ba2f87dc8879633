/*
 * events.c: the recording calls (the hot path).
 *
 * Each call stamps the time, reserves a record in the calling thread's
 * ring, fills it and publishes the new head with one release store. The
 * ring is single-producer single-consumer: the thread owns head and its
 * counters, the flush thread owns tail. The producer re-reads tail only
 * when its cached copy says the ring is full; if it still is, the event
 * is dropped and counted. A record that would cross the end of the ring
 * is preceded by a pad record up to the end. No lock, no allocation, no
 * system call (except the thread CPU clock of park/unpark).
 *
 * Re-entry: a signal handler that records on the handle of the thread
 * it interrupted (SIGUSR1 marks a moment) would write over the record
 * being made and publish a head behind the one it published itself: a
 * ring the flush thread can no longer read. Every recording call sets
 * the handle's busy flag before it reads the ring and clears it once
 * the record is published; a call that finds it set runs inside another
 * on the same thread and drops its event, counted (d9rec_stats'
 * dropped). The flag is only ever seen by its own thread, so plain
 * stores and compiler barriers are enough: no CPU fence, no atomic
 * read-modify-write on the hot path.
 *
 * Variable records (custom events, spans) carry their values after the
 * 16-byte header: 8 bytes per number, u32 length + bytes per string
 * (UINT32_MAX: absent), padded to 8. A span record holds the span id and
 * the parent, and a close also its start, before its strings.
 */
#include <string.h>
#include <time.h>

#include "rec/rec.h"

#define NOSTR	UINT32_MAX

static inline uint64_t
stamp(struct d9rec_thread *t)
{
	if (__builtin_expect(t->clock != NULL, 0))
		return t->clock(t->clock_ctx);
	return d9rec_raw_now();
}

static inline void
count(_Atomic uint64_t *c)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) +
	    1, memory_order_relaxed);
}

/* An event dropped outside the guard (a call inside another on this
 * thread, a runtime id never given): counted with an atomic add, as the
 * call interrupted may be half way through its own plain increment of
 * dropped. */
static __attribute__((noinline)) void
drop_unguarded(struct d9rec_thread *t)
{
	atomic_fetch_add_explicit(&t->dropped_unguarded, 1,
	    memory_order_relaxed);
}

/* Mark the thread busy, before anything of the ring is read; returns
 * whether it was already (then the caller drops its event and leaves
 * the flag to the call it interrupted). */
static inline int
busy(struct d9rec_thread *t)
{
	int was = atomic_load_explicit(&t->busy, memory_order_relaxed);

	atomic_store_explicit(&t->busy, 1, memory_order_relaxed);
	atomic_signal_fence(memory_order_seq_cst);
	return was;
}

/* Enter a recording call: 0 when inside another on this thread (the
 * event is dropped and counted). */
static inline int
enter(struct d9rec_thread *t)
{
	if (__builtin_expect(busy(t), 0)) {
		drop_unguarded(t);
		return 0;
	}
	return 1;
}

static inline void
leave(struct d9rec_thread *t)
{
	atomic_signal_fence(memory_order_seq_cst);
	atomic_store_explicit(&t->busy, 0, memory_order_relaxed);
}

static inline uint8_t *
reserve(struct d9rec_thread *t, uint64_t size)
{
	uint64_t head = t->head_local, cap = t->mask + 1;
	uint64_t pos = head & t->mask, room = cap - pos;
	uint64_t need = size <= room ? size : size + room;

	if (head + need - t->cached_tail > cap) {
		t->cached_tail = atomic_load_explicit(&t->tail,
		    memory_order_acquire);
		if (head + need - t->cached_tail > cap) {
			count(&t->dropped);
			return NULL;
		}
	}
	if (size > room) {
		struct rrec *pad = (struct rrec *)(void *)(t->buf + pos);

		pad->kind = R_PAD;
		pad->size = 0;
		pad->a = (uint32_t)room;
		head += room;
		pos = 0;
	}
	t->head_local = head + size;
	return t->buf + pos;
}

static inline void
commit(struct d9rec_thread *t)
{
	atomic_store_explicit(&t->head, t->head_local, memory_order_release);
	count(&t->events);
}

/* The slow path of a fixed record (inside the guard): the ring's end
 * (a pad first), a ring that looks full, a test clock. */
static __attribute__((noinline)) void
fixed_slow(struct d9rec_thread *t, uint16_t kind, uint32_t a, uint64_t b,
    uint64_t c, uint16_t size)
{
	uint64_t ts = stamp(t);
	struct rrec *r = (struct rrec *)(void *)reserve(t, size);

	if (r == NULL)
		return;
	r->kind = kind;
	r->size = size;
	r->a = a;
	r->ts = ts;
	if (size > RREC_HDR) {
		r->b = b;
		r->c = c;
	}
	commit(t);
}

/*
 * A fixed record; one without b and c (poll end, queue sample) takes
 * only the 16-byte header: less ring, less memory traffic. The common
 * case (not nested, room before the ring's end, not full) takes one
 * branch, a TSC read and seven stores (two of them the busy flag's:
 * 0.6 ns a call, d9rec-bench-noclock); anything else goes to
 * fixed_slow, and so does every record under a test clock (fast_cap 0).
 */
static inline void
fixed_rec(struct d9rec_thread *t, uint16_t kind, uint32_t a, uint64_t b,
    uint64_t c, int short_rec)
{
	const uint16_t size = short_rec ? RREC_HDR : sizeof(struct rrec);
	uint64_t head, pos, cap;
	struct rrec *r;
	int was;

	if (t == NULL)
		return;
	was = busy(t);
	head = t->head_local;
	cap = t->fast_cap;
	pos = head & t->mask;
	if (__builtin_expect((pos + size > cap) |
	    (head + size - t->cached_tail > cap) | was, 0)) {
		if (was) {
			drop_unguarded(t);
			return;
		}
		fixed_slow(t, kind, a, b, c, size);
		leave(t);
		return;
	}
	r = (struct rrec *)(void *)(t->buf + pos);
#ifdef D9REC_BENCH_NO_CLOCK	/* bench/rec: the recorder's own cost */
	r->ts = head;
#else
	r->ts = d9rec_raw_now();
#endif
	r->kind = kind;
	r->size = size;
	r->a = a;
	if (!short_rec) {
		r->b = b;
		r->c = c;
	}
	head += size;
	t->head_local = head;
	atomic_store_explicit(&t->head, head, memory_order_release);
	count(&t->events);
	leave(t);
}

static inline void
fixed(struct d9rec_thread *t, uint16_t kind, uint32_t a, uint64_t b,
    uint64_t c)
{
	fixed_rec(t, kind, a, b, c, 0);
}

void
d9rec_poll_start(struct d9rec_thread *t, uint64_t task_id, uint32_t spawn_loc,
    unsigned local_queue)
{
	if (t != NULL)
		t->cur_task = task_id;
	fixed(t, R_POLL_START, spawn_loc, task_id, local_queue);
}

void
d9rec_poll_end(struct d9rec_thread *t)
{
	if (t != NULL)
		t->cur_task = 0;
	fixed_rec(t, R_POLL_END, 0, 0, 0, 1);
}

uint64_t
d9rec_current_task(const struct d9rec_thread *t)
{
	return t != NULL ? t->cur_task : 0;
}

void
d9rec_park(struct d9rec_thread *t, unsigned local_queue)
{
	if (t != NULL)
		fixed(t, R_PARK, 0, d9rec_clock_ns(CLOCK_THREAD_CPUTIME_ID),
		    local_queue);
}

void
d9rec_unpark(struct d9rec_thread *t, unsigned local_queue)
{
	if (t != NULL)
		fixed(t, R_UNPARK, 0, d9rec_clock_ns(CLOCK_THREAD_CPUTIME_ID),
		    local_queue);
}

void
d9rec_wake(struct d9rec_thread *t, uint64_t waker_task, uint64_t woken_task)
{
	fixed(t, R_WAKE, 0, waker_task, woken_task);
}

void
d9rec_spawn(struct d9rec_thread *t, uint64_t task_id, uint32_t spawn_loc)
{
	fixed(t, R_SPAWN, spawn_loc, task_id, 0);
}

void
d9rec_terminate(struct d9rec_thread *t, uint64_t task_id)
{
	fixed(t, R_TERMINATE, 0, task_id, 0);
}

uint32_t
d9rec_runtime_id(d9rec_writer *w, const char *name)
{
	uint32_t id;

	if (name == NULL || *name == '\0')
		return D9REC_DEFAULT_RUNTIME;
	if (w == NULL)
		return UINT32_MAX - 1;
	id = d9rec_location(w, name);
	return id == UINT32_MAX ? UINT32_MAX - 1 : id;
}

/* A runtime id d9rec_runtime_id did not give (out of memory, or
 * another string's id) is a sample lost, counted as dropped. */
void
d9rec_runtime_sample(struct d9rec_thread *t, uint32_t runtime,
    unsigned global_queue, unsigned alive_tasks)
{
	if (t != NULL && runtime != D9REC_DEFAULT_RUNTIME &&
	    !d9rec_str_named(t->w, runtime)) {
		drop_unguarded(t);
		return;
	}
	fixed(t, R_RUNTIME, runtime, global_queue, alive_tasks);
}

void
d9rec_queue_sample(struct d9rec_thread *t, unsigned global_queue)
{
	fixed(t, R_RUNTIME, D9REC_DEFAULT_RUNTIME, global_queue, 0);
}

/* ---- variable records ---- */

static size_t
str_len(const char *s)
{
	return s != NULL ? strlen(s) : 0;
}

static uint8_t *
put_str(uint8_t *p, const char *s, int absent)
{
	uint32_t n = absent ? NOSTR : (uint32_t)str_len(s);

	memcpy(p, &n, 4);
	if (absent)
		return p + 4;
	memcpy(p + 4, s ? s : "", n);
	return p + 4 + n;
}

/* Reserve a variable record; payload bytes follow the header. */
static struct rrec *
var_begin(struct d9rec_thread *t, uint16_t kind, uint32_t a, size_t payload,
    uint64_t *ts)
{
	size_t size = (RREC_HDR + payload + 7) & ~(size_t)7;
	struct rrec *r;

	*ts = stamp(t);
	if (size > RREC_MAX) {
		count(&t->dropped);
		return NULL;
	}
	if ((r = (struct rrec *)(void *)reserve(t, size)) == NULL)
		return NULL;
	r->kind = kind;
	r->size = (uint16_t)size;
	r->a = a;
	r->ts = *ts;
	return r;
}

/* A custom event of a known schema s (inside the guard). */
static void
event_rec(struct d9rec_thread *t, int schema, const struct schema *s,
    const union d9rec_value *vals)
{
	size_t payload = 0;
	struct rrec *r;
	uint8_t *p;
	uint64_t ts;

	for (uint16_t i = 0; i < s->nfields; i++)
		payload += s->fields[i].type == D9REC_T_STR ?
		    4 + str_len(vals[i].s) : 8;
	if ((r = var_begin(t, R_CUSTOM, (uint32_t)schema, payload, &ts)) ==
	    NULL)
		return;
	p = (uint8_t *)r + RREC_HDR;
	for (uint16_t i = 0; i < s->nfields; i++) {
		if (s->fields[i].type == D9REC_T_STR)
			p = put_str(p, vals[i].s, 0);
		else {
			memcpy(p, &vals[i].u, 8);
			p += 8;
		}
	}
	commit(t);
}

void
d9rec_event(struct d9rec_thread *t, int schema, const union d9rec_value *vals)
{
	/* vals NULL: every field 0 or "" (a schema has at most 64) */
	static const union d9rec_value none[64];

	if (vals == NULL)
		vals = none;
	if (t == NULL)
		return;
	if (schema < S_NBUILTIN || (uint32_t)schema >=
	    atomic_load_explicit(&t->w->schemas.n, memory_order_acquire) ||
	    d9rec_schema_get(t->w, (uint32_t)schema)->kind != SCH_CUSTOM) {
		drop_unguarded(t);	/* not an id d9rec_schema gave */
		return;
	}
	if (!enter(t))
		return;
	event_rec(t, schema, d9rec_schema_get(t->w, (uint32_t)schema), vals);
	leave(t);
}

/* A span record of a known site s (inside the guard). */
static void
span_rec(struct d9rec_thread *t, uint16_t kind, int site,
    const struct schema *s, uint64_t span_id, uint64_t parent, uint64_t start,
    const char *const *values)
{
	size_t nums = kind == R_SPAN_CLOSE ? 24 : 16;	/* b, c, start */
	size_t payload = nums;
	struct rrec *r;
	uint8_t *p;
	uint64_t ts;

	for (uint16_t i = 0; i < s->ndeclared; i++)
		payload += 4 + (values && values[i] ? strlen(values[i]) : 0);
	if ((r = var_begin(t, kind, (uint32_t)site, payload, &ts)) == NULL)
		return;
	r->b = span_id;
	r->c = parent;
	if (kind == R_SPAN_CLOSE)
		memcpy((uint8_t *)r + RREC_HDR + 16, &start, 8);
	p = (uint8_t *)r + RREC_HDR + nums;
	for (uint16_t i = 0; i < s->ndeclared; i++)
		p = put_str(p, values ? values[i] : NULL,
		    values == NULL || values[i] == NULL);
	commit(t);
}

static void
span(struct d9rec_thread *t, uint16_t kind, int site, uint64_t span_id,
    uint64_t parent, uint64_t start, const char *const *values)
{
	if (t == NULL)
		return;
	if (site < S_NBUILTIN || (uint32_t)site + 1 >=
	    atomic_load_explicit(&t->w->schemas.n, memory_order_acquire) ||
	    d9rec_schema_get(t->w, (uint32_t)site)->kind != SCH_SPAN_ENTER) {
		drop_unguarded(t);	/* not an id d9rec_span_site gave */
		return;
	}
	if (!enter(t))
		return;
	span_rec(t, kind, site, d9rec_schema_get(t->w, (uint32_t)site),
	    span_id, parent, start, values);
	leave(t);
}

void
d9rec_span_enter(struct d9rec_thread *t, int site, uint64_t span_id,
    uint64_t parent, const char *const *values)
{
	span(t, R_SPAN_ENTER, site, span_id, parent, 0, values);
}

void
d9rec_span_exit(struct d9rec_thread *t, int site, uint64_t span_id,
    const char *const *values)
{
	span(t, R_SPAN_EXIT, site, span_id, 0, 0, values);
}

void
d9rec_span_close(struct d9rec_thread *t, int site, uint64_t span_id,
    uint64_t start_ns, uint64_t parent, const char *const *values)
{
	span(t, R_SPAN_CLOSE, site, span_id, parent, start_ns, values);
}
