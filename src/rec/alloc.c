/*
 * alloc.c: allocation sampling (AllocEvent, FreeEvent,
 * MemoryProfileOverflowEvent), fed by the d9rec_malloc & co. wrappers
 * and by libd9rec-malloc.so through d9rec_alloc_hook/d9rec_free_hook.
 *
 * Poisson rule: each thread counts down the bytes until its next sample,
 * drawn from an exponential distribution of mean R
 * (memory.sample_rate_bytes), so an allocation of s bytes is sampled with
 * probability 1 - exp(-s/R). A sampled allocation records its callchain
 * (frame pointers, bounded by the thread's stack) and is remembered in
 * the live table until freed, so that its free is recorded too.
 *
 * Process-wide state, on purpose: allocator hooks run in every thread,
 * registered or not, even after the writer is gone, so they cannot hold
 * a writer pointer. The one static struct below (the hook switch, the
 * multi-producer ring of samples, the live table) is allocated by the
 * first writer that profiles allocations and never freed; at most one
 * writer at a time owns it. Per thread, the countdown lives in a TLS
 * block (initial-exec: no allocation on first access). Hooks stamp with
 * CLOCK_MONOTONIC, so that a free's alloc_timestamp_ns equals its
 * allocation's timestamp exactly.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rec/rec.h"

#define MEM_FRAMES	48
#define RING_SLOTS	4096
#define LIVE_SLOTS	(1u << 16)
#define LIVE_PROBES	64
#define KEY_TOMB	1u
#define KEY_BUSY	2u

struct memrec {
	uint8_t		 kind;		/* 0 alloc, 1 free */
	uint32_t	 tid, n;
	uint64_t	 ts, size, addr, alloc_ts;
	uint64_t	 frames[MEM_FRAMES];
};

struct mslot {
	_Atomic uint64_t seq;
	struct memrec	 r;
};

struct memring {
	struct mslot	*slots;
	_Alignas(64) _Atomic uint64_t enq;
	_Alignas(64) uint64_t deq;
	_Atomic uint64_t dropped[2], samples[2];
};

struct lslot {
	_Atomic uint64_t key;
	uint64_t	 size, ts;
};

struct livetab {
	struct lslot	*v;
	_Atomic uint16_t *cnt;		/* live entries per hash bucket */
	_Atomic uint64_t n;
};

static struct {
	_Atomic int	 on;
	_Atomic uint64_t rate;
	uint64_t	(*_Atomic clock)(void *);
	void *_Atomic	 clock_ctx;
	struct memring	 ring;
	struct livetab	 live;
	struct d9rec_writer *owner;
	pthread_mutex_t	 lock;
} g = { .lock = PTHREAD_MUTEX_INITIALIZER };

struct tls {
	int64_t		 countdown;
	uint64_t	 rng;
	uintptr_t	 lo, hi;	/* stack bounds */
	uint32_t	 tid;
	uint8_t		 init, in_hook;
};

static _Thread_local struct tls tls
    __attribute__((tls_model("initial-exec")));

/* ---- sampling ---- */

static uint64_t
now_ns(void)
{
	uint64_t (*c)(void *) = atomic_load_explicit(&g.clock,
	    memory_order_relaxed);

	return c != NULL ? c(atomic_load(&g.clock_ctx)) : d9rec_mono_ns();
}

static int64_t
draw(struct tls *s)
{
	double u;

	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	u = ((double)(s->rng >> 11) + 1.0) / 9007199254740993.0;
	return (int64_t)(-log(u) * (double)atomic_load(&g.rate)) + 1;
}

static void
thread_init(struct tls *s)
{
	s->tid = (uint32_t)gettid();
	s->rng = d9rec_mono_ns() * 0x9e3779b97f4a7c15ull ^ s->tid;
	if (s->rng == 0)
		s->rng = 1;
	d9rec_stack_bounds(&s->lo, &s->hi);
	s->countdown = draw(s);
	s->init = 1;
}

static __attribute__((noinline)) uint32_t
callchain(const struct tls *s, uint64_t *f)
{
	return d9rec_stack_walk((uintptr_t)__builtin_frame_address(0), s->lo,
	    s->hi, f, MEM_FRAMES);
}

/* Multi-producer push; 0, or -1 when full (counted). */
static int
ring_push(const struct memrec *r)
{
	struct memring *q = &g.ring;
	uint64_t pos = atomic_load_explicit(&q->enq, memory_order_relaxed);
	struct mslot *sl;

	for (;;) {
		uint64_t seq;
		int64_t diff;

		sl = &q->slots[pos & (RING_SLOTS - 1)];
		seq = atomic_load_explicit(&sl->seq, memory_order_acquire);
		diff = (int64_t)(seq - pos);
		if (diff == 0) {
			if (atomic_compare_exchange_weak(&q->enq, &pos, pos + 1))
				break;
		} else if (diff < 0) {
			atomic_fetch_add(&q->dropped[r->kind], 1);
			return -1;
		} else
			pos = atomic_load_explicit(&q->enq,
			    memory_order_relaxed);
	}
	sl->r = *r;
	atomic_store_explicit(&sl->seq, pos + 1, memory_order_release);
	return 0;
}

static uint64_t
live_hash(uint64_t a)
{
	return (a * 0x9e3779b97f4a7c15ull) >> 48;	/* 16 bits */
}

static int
live_insert(uint64_t addr, uint64_t size, uint64_t ts)
{
	struct livetab *t = &g.live;
	uint64_t h = live_hash(addr);

	for (uint64_t i = 0; i < LIVE_PROBES; i++) {
		struct lslot *sl = &t->v[(h + i) & (LIVE_SLOTS - 1)];
		uint64_t k = atomic_load(&sl->key);

		if ((k == 0 || k == KEY_TOMB) &&
		    atomic_compare_exchange_strong(&sl->key, &k, KEY_BUSY)) {
			sl->size = size;
			sl->ts = ts;
			atomic_fetch_add(&t->cnt[h], 1);
			atomic_fetch_add(&t->n, 1);
			atomic_store_explicit(&sl->key, addr,
			    memory_order_release);
			return 0;
		}
	}
	return -1;
}

static int
live_remove(uint64_t addr, uint64_t *size, uint64_t *ts)
{
	struct livetab *t = &g.live;
	uint64_t h = live_hash(addr);

	if (atomic_load_explicit(&t->cnt[h], memory_order_relaxed) == 0)
		return -1;
	for (uint64_t i = 0; i < LIVE_PROBES; i++) {
		struct lslot *sl = &t->v[(h + i) & (LIVE_SLOTS - 1)];
		uint64_t k = atomic_load_explicit(&sl->key,
		    memory_order_acquire);

		if (k == 0)
			return -1;
		if (k != addr)
			continue;
		*size = sl->size;
		*ts = sl->ts;
		if (!atomic_compare_exchange_strong(&sl->key, &k, KEY_TOMB))
			return -1;
		atomic_fetch_sub(&t->cnt[h], 1);
		atomic_fetch_sub(&t->n, 1);
		return 0;
	}
	return -1;
}

void
d9rec_alloc_hook(void *p, size_t size)
{
	struct tls *s = &tls;
	struct memrec r;

	if (p == NULL || !atomic_load_explicit(&g.on, memory_order_relaxed) ||
	    s->in_hook)
		return;
	if (s->init && (s->countdown -= (int64_t)size) > 0)
		return;
	s->in_hook = 1;
	if (!s->init) {
		thread_init(s);
		if ((s->countdown -= (int64_t)size) > 0) {
			s->in_hook = 0;
			return;
		}
	}
	s->countdown = draw(s);
	r.kind = 0;
	r.tid = s->tid;
	r.ts = now_ns();
	r.size = size;
	r.addr = (uint64_t)(uintptr_t)p;
	r.alloc_ts = 0;
	r.n = callchain(s, r.frames);
	if (ring_push(&r) == 0 && live_insert(r.addr, size, r.ts) < 0)
		atomic_fetch_add(&g.ring.dropped[1], 1);	/* its free */
	s->in_hook = 0;
}

void
d9rec_free_hook(void *p)
{
	struct tls *s = &tls;
	struct memrec r;

	if (p == NULL || !atomic_load_explicit(&g.on, memory_order_relaxed) ||
	    atomic_load_explicit(&g.live.n, memory_order_relaxed) == 0 ||
	    s->in_hook)
		return;
	if (live_remove((uint64_t)(uintptr_t)p, &r.size, &r.alloc_ts) < 0)
		return;
	s->in_hook = 1;
	if (s->tid == 0)
		s->tid = (uint32_t)gettid();
	r.kind = 1;
	r.tid = s->tid;
	r.ts = now_ns();
	r.addr = (uint64_t)(uintptr_t)p;
	r.n = 0;
	ring_push(&r);
	s->in_hook = 0;
}

void *
d9rec_malloc(size_t size)
{
	void *p = malloc(size);

	d9rec_alloc_hook(p, size);
	return p;
}

void *
d9rec_calloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	d9rec_alloc_hook(p, n * size);
	return p;
}

void *
d9rec_realloc(void *p, size_t size)
{
	void *q;

	if (p != NULL)
		d9rec_free_hook(p);
	q = realloc(p, size);
	d9rec_alloc_hook(q, size);
	return q;
}

void
d9rec_free(void *p)
{
	d9rec_free_hook(p);
	free(p);
}

/* ---- the writer's side ---- */

int
d9rec_alloc_start(struct d9rec_writer *w)
{
	int rc = 0;

	pthread_mutex_lock(&g.lock);
	if (g.owner != NULL) {
		pthread_mutex_unlock(&g.lock);
		d9rec_set_meta(w, "d9rec.alloc_profile",
		    "off: another writer profiles allocations");
		return 0;
	}
	if (g.ring.slots == NULL) {
		g.ring.slots = calloc(RING_SLOTS, sizeof *g.ring.slots);
		g.live.v = calloc(LIVE_SLOTS, sizeof *g.live.v);
		g.live.cnt = calloc(LIVE_SLOTS, sizeof *g.live.cnt);
		if (g.ring.slots == NULL || g.live.v == NULL ||
		    g.live.cnt == NULL) {
			free(g.ring.slots);
			free(g.live.v);
			free((void *)g.live.cnt);
			g.ring.slots = NULL;
			g.live.v = NULL;
			g.live.cnt = NULL;
			rc = -1;
			goto out;
		}
		for (uint64_t i = 0; i < RING_SLOTS; i++)
			atomic_init(&g.ring.slots[i].seq, i);
	}
	g.owner = w;
	atomic_store(&g.clock, w->opt.clock);
	atomic_store(&g.clock_ctx, w->opt.clock_ctx);
	atomic_store(&g.rate, w->opt.alloc_sample_rate);
	w->mem_dropped_reported[0] = atomic_load(&g.ring.dropped[0]);
	w->mem_dropped_reported[1] = atomic_load(&g.ring.dropped[1]);
	w->mem_samples_base[0] = atomic_load(&g.ring.samples[0]);
	w->mem_samples_base[1] = atomic_load(&g.ring.samples[1]);
	w->mem = &g.ring;
	w->live = &g.live;
	atomic_store(&g.on, 1);
out:
	pthread_mutex_unlock(&g.lock);
	return rc;
}

void
d9rec_alloc_stop(struct d9rec_writer *w)
{
	pthread_mutex_lock(&g.lock);
	if (g.owner == w) {
		atomic_store(&g.on, 0);
		g.owner = NULL;
	}
	w->mem = NULL;
	w->live = NULL;
	pthread_mutex_unlock(&g.lock);
}

void
d9rec_alloc_stats(struct d9rec_writer *w, struct d9rec_stats *st)
{
	if (w->mem == NULL)
		return;
	st->alloc_samples = atomic_load(&w->mem->samples[0]) -
	    w->mem_samples_base[0];
	st->free_samples = atomic_load(&w->mem->samples[1]) -
	    w->mem_samples_base[1];
	st->alloc_dropped = atomic_load(&w->mem->dropped[0]) -
	    w->mem_dropped_reported[0];
	st->free_dropped = atomic_load(&w->mem->dropped[1]) -
	    w->mem_dropped_reported[1];
}

void
d9rec_alloc_drain(struct d9rec_writer *w, struct enc *e)
{
	struct memring *q = w->mem;
	uint64_t d[2];

	if (q == NULL)
		return;
	for (;;) {
		struct mslot *sl = &q->slots[q->deq & (RING_SLOTS - 1)];
		struct memrec r;
		uint32_t stack = 0;

		if (atomic_load_explicit(&sl->seq, memory_order_acquire) !=
		    q->deq + 1)
			break;
		r = sl->r;
		atomic_store_explicit(&sl->seq, q->deq + RING_SLOTS,
		    memory_order_release);
		q->deq++;
		atomic_fetch_add(&q->samples[r.kind], 1);
		if (r.kind == 0) {
			d9rec_addrs_add(&w->addrs, r.frames, r.n);
			stack = d9rec_enc_pool_stack(e, r.frames, r.n);
		}
		d9rec_enc_event(w, e, r.kind == 0 ? S_ALLOC : S_FREE, r.ts);
		d9rec_enc_u32(e, r.tid);
		if (r.kind == 0) {
			d9rec_enc_varint(e, r.size);
			d9rec_enc_varint(e, r.addr);
			d9rec_enc_u32(e, stack);
		} else {
			d9rec_enc_varint(e, r.addr);
			d9rec_enc_varint(e, r.size);
			d9rec_enc_varint(e, r.alloc_ts);
		}
	}
	d[0] = atomic_load(&q->dropped[0]);
	d[1] = atomic_load(&q->dropped[1]);
	if (d[0] != w->mem_dropped_reported[0] + w->mem_overflow_written[0] ||
	    d[1] != w->mem_dropped_reported[1] + w->mem_overflow_written[1]) {
		d9rec_enc_event(w, e, S_OVERFLOW, d9rec_now(w));
		d9rec_enc_varint(e, d[0] - w->mem_dropped_reported[0] -
		    w->mem_overflow_written[0]);
		d9rec_enc_varint(e, d[1] - w->mem_dropped_reported[1] -
		    w->mem_overflow_written[1]);
		w->mem_overflow_written[0] = d[0] - w->mem_dropped_reported[0];
		w->mem_overflow_written[1] = d[1] - w->mem_dropped_reported[1];
	}
}
