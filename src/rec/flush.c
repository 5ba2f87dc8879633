/*
 * flush.c: the flush thread. Every flush interval (or on request) it
 * drains each thread's ring into batches of that thread's events (a new
 * batch every ~1 MiB), then writes one "sources" batch with the CPU
 * samples and allocation samples gathered since the last cycle, then
 * rotates when the segment is too big or too old. Threads that were
 * unregistered are freed once their ring is empty.
 *
 * A ring is read only as far as its records are ones its thread could
 * have written: a damaged one is skipped to its head and the skip
 * counted (resync), so that nothing in it can make this thread spin.
 *
 * After a failed write no segment is open: each cycle tries a new one
 * first. Once a second the loss counters go into the metadata when they
 * changed.
 *
 * The flush thread is the only one that touches the segment file and the
 * encoder, so none of this needs a lock except the thread list.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "base/deadline.h"
#include "base/wire.h"
#include "rec/rec.h"


/* An application's event, with the worker and thread that recorded it
 * (FORMAT 3.7: how d9top puts it on a lane). */
static void
enc_custom(struct d9rec_writer *w, struct enc *e, const struct rrec *r,
    uint64_t ts, const struct d9rec_thread *t)
{
	const struct schema *s = d9rec_schema_get(w, r->a);
	const uint8_t *p = (const uint8_t *)r + RREC_HDR;
	uint32_t ids[64], len;

	for (uint16_t i = 0; i < s->nfields; i++) {
		if (s->fields[i].type == D9REC_T_STR) {
			memcpy(&len, p, 4);
			ids[i] = d9rec_enc_pool_str(e, (const char *)p + 4, len);
			p += 4 + len;
		} else
			p += 8;
	}
	d9rec_enc_event(w, e, r->a, ts);
	p = (const uint8_t *)r + RREC_HDR;
	for (uint16_t i = 0; i < s->nfields; i++) {
		uint64_t v;

		if (s->fields[i].type == D9REC_T_STR) {
			memcpy(&len, p, 4);
			d9rec_enc_u32(e, ids[i]);
			p += 4 + len;
			continue;
		}
		memcpy(&v, p, 8);
		p += 8;
		switch (s->fields[i].type) {
		case D9REC_T_U64:
			d9rec_enc_varint(e, v);
			break;
		case D9REC_T_BOOL:
			d9rec_enc_u8(e, v != 0);
			break;
		case D9REC_T_U8:
			d9rec_enc_u8(e, (uint8_t)v);
			break;
		case D9REC_T_U16:
			d9rec_enc_u16(e, (uint16_t)v);
			break;
		case D9REC_T_U32:
			d9rec_enc_u32(e, (uint32_t)v);
			break;
		default:	/* I64, F64: 8 raw bytes */
			d9rec_enc_u64(e, v);
			break;
		}
	}
	if (s->thread_fields & 1)
		d9rec_enc_varint(e, t->worker);
	if (s->thread_fields & 2)
		d9rec_enc_varint(e, t->tid);
}

static void
enc_text(struct d9rec_writer *w, struct enc *e, uint32_t id)
{
	const char *s = d9rec_str(w, id);

	d9rec_enc_str(e, s, strlen(s));
}

/* An optional field: its presence byte; returns whether present. */
static int
enc_opt(struct enc *e, int present)
{
	d9rec_enc_u8(e, present != 0);
	return present;
}

/*
 * dial9's SpanCloseEvent (FORMAT 5): the life of span r->b from its
 * start to now, named by its site, its parent r->c, its declared fields
 * present in the record (p, count n) as attributes. Nothing is said of
 * its first enter or its active time, which the reader counts from the
 * enters and exits.
 */
static void
enc_close(struct d9rec_writer *w, struct enc *e, const struct rrec *r,
    uint64_t ts, const uint8_t *p)
{
	const struct schema *s = d9rec_schema_get(w, r->a);
	const struct sch_field *decl = s->fields + s->nfields - s->ndeclared;
	const uint8_t *q = p;
	uint32_t len, n = 0;
	uint64_t start;

	memcpy(&start, (const uint8_t *)r + RREC_HDR + 16, 8);
	for (uint16_t i = 0; i < s->ndeclared; i++) {
		memcpy(&len, q, 4);
		n += len != UINT32_MAX;
		q += 4 + (len == UINT32_MAX ? 0 : len);
	}
	d9rec_enc_event(w, e, S_SPAN_CLOSE, ts);
	d9rec_enc_varint(e, r->b);		/* span_id */
	d9rec_enc_varint(e, r->b);		/* span_instance_id */
	d9rec_enc_varint(e, start);
	enc_opt(e, 0);				/* first enter: not kept */
	d9rec_enc_varint(e, 0);			/* active_ns: not kept */
	enc_text(w, e, s->span_name);
	enc_text(w, e, s->span_target);
	if (enc_opt(e, d9rec_str(w, s->span_file)[0] != '\0'))
		enc_text(w, e, s->span_file);
	if (enc_opt(e, 1))
		d9rec_enc_u32(e, s->span_line);
	if (enc_opt(e, r->c != 0))
		d9rec_enc_varint(e, r->c);
	d9rec_enc_u32(e, n);			/* attributes */
	for (uint16_t i = 0; i < s->ndeclared; i++, p += 4) {
		memcpy(&len, p, 4);
		if (len == UINT32_MAX)
			continue;
		d9rec_enc_str(e, decl[i].name, strlen(decl[i].name));
		d9rec_enc_str(e, (const char *)p + 4, len);
		p += len;
	}
	d9rec_enc_u32(e, 0);			/* unbalanced_enters */
}

/* Span enter, exit (the site's schemas) and close records. */
static void
enc_span(struct d9rec_writer *w, struct enc *e, const struct rrec *r,
    uint64_t ts, const struct d9rec_thread *t)
{
	uint32_t sch = r->kind == R_SPAN_ENTER ? r->a : r->a + 1;
	const struct schema *s = d9rec_schema_get(w, r->a);
	const uint8_t *p = (const uint8_t *)r + RREC_HDR + 16;
	uint32_t ids[32], len, name;

	if (r->kind == R_SPAN_CLOSE) {
		enc_close(w, e, r, ts, p + 8);
		return;
	}
	name = d9rec_enc_pool_id(w, e, s->span_name);
	for (uint16_t i = 0; i < s->ndeclared; i++) {
		memcpy(&len, p, 4);
		ids[i] = len == UINT32_MAX ? UINT32_MAX :
		    d9rec_enc_pool_str(e, (const char *)p + 4, len);
		p += 4 + (len == UINT32_MAX ? 0 : len);
	}
	d9rec_enc_event(w, e, sch, ts);
	d9rec_enc_varint(e, t->worker);
	d9rec_enc_varint(e, r->b);
	if (r->kind == R_SPAN_ENTER && enc_opt(e, r->c != 0))
		d9rec_enc_varint(e, r->c);
	d9rec_enc_u32(e, name);
	d9rec_enc_varint(e, r->b);		/* span_instance_id */
	d9rec_enc_varint(e, t->tid);
	for (uint16_t i = 0; i < s->ndeclared; i++)
		if (enc_opt(e, ids[i] != UINT32_MAX))
			d9rec_enc_u32(e, ids[i]);
}

/* dial9's RuntimeMetricsEvent of runtime r->a (a string id, or the
 * default runtime); an id the writer never gave is not written. */
static void
enc_runtime(struct d9rec_writer *w, struct enc *e, const struct rrec *r,
    uint64_t ts)
{
	uint32_t name;

	if (r->a == D9REC_DEFAULT_RUNTIME)
		name = d9rec_enc_pool_str(e, "", 0);
	else if (d9rec_str_named(w, r->a))
		name = d9rec_enc_pool_id(w, e, r->a);
	else
		return;
	d9rec_enc_event(w, e, S_RUNTIME, ts);
	d9rec_enc_u32(e, name);
	d9rec_enc_u32(e, (uint32_t)r->b);
	d9rec_enc_u32(e, (uint32_t)r->c);
}

static void
enc_record(struct d9rec_writer *w, struct enc *e, struct d9rec_thread *t,
    const struct rrec *r)
{
	uint64_t ts = d9rec_raw_to_ns(w, r->ts);
	uint32_t loc;
	uint8_t *q;

	/* a new clock anchor may map a later raw time a little earlier
	 * than the one before it: keep each thread's events in order */
	if (ts < t->last_ns)
		ts = t->last_ns;
	t->last_ns = ts;

	switch (r->kind) {
	/* fields at most: a varint 10 bytes, a u32 4, a u8 1 */
	case R_POLL_START:
		loc = d9rec_enc_pool_loc(w, e, r->a);
		if ((q = d9rec_enc_head(w, e, S_POLL_START, ts, 25)) == NULL)
			break;
		q = d9rec_put_varint(q, t->worker);
		*q++ = (uint8_t)r->c;
		q = d9rec_put_varint(q, r->b);
		d9rec_enc_at(e, d9rec_put_le(q, loc, 4));
		break;
	case R_POLL_END:
		if ((q = d9rec_enc_head(w, e, S_POLL_END, ts, 10)) != NULL)
			d9rec_enc_at(e, d9rec_put_varint(q, t->worker));
		break;
	case R_PARK:
	case R_UNPARK:
		if ((q = d9rec_enc_head(w, e, r->kind == R_PARK ? S_PARK :
		    S_UNPARK, ts, 26)) == NULL)
			break;
		q = d9rec_put_varint(q, t->worker);
		*q++ = (uint8_t)r->c;
		q = d9rec_put_varint(q, r->b);
		if (r->kind == R_UNPARK)
			*q++ = 0;	/* sched_wait_ns absent */
		d9rec_enc_at(e, d9rec_put_le(q, t->tid, 4));
		break;
	case R_WAKE:
		if ((q = d9rec_enc_head(w, e, S_WAKE, ts, 21)) == NULL)
			break;
		q = d9rec_put_varint(q, r->b);
		q = d9rec_put_varint(q, r->c);
		*q++ = (uint8_t)t->worker;
		d9rec_enc_at(e, q);
		break;
	case R_SPAWN:
		loc = d9rec_enc_pool_loc(w, e, r->a);
		if ((q = d9rec_enc_head(w, e, S_SPAWN, ts, 26)) == NULL)
			break;
		q = d9rec_put_le(d9rec_put_varint(q, r->b), loc, 4);
		*q++ = 1;
		*q++ = t->worker != D9REC_NO_WORKER;	/* optional */
		if (t->worker != D9REC_NO_WORKER)
			q = d9rec_put_varint(q, t->worker);
		d9rec_enc_at(e, q);
		break;
	case R_TERMINATE:
		if ((q = d9rec_enc_head(w, e, S_TERMINATE, ts, 10)) != NULL)
			d9rec_enc_at(e, d9rec_put_varint(q, r->b));
		break;
	case R_RUNTIME:
		enc_runtime(w, e, r, ts);
		break;
	case R_CUSTOM:
		enc_custom(w, e, r, ts, t);
		break;
	case R_SPAN_ENTER:
	case R_SPAN_EXIT:
	case R_SPAN_CLOSE:
		enc_span(w, e, r, ts, t);
		break;
	default:
		break;
	}
}

/* Write the batch in e (if it has events) and clear it. */
static void
put_batch(struct d9rec_writer *w, struct enc *e, int data)
{
	if (e->events > 0 || !data)
		d9rec_seg_write(w, e, data);
	d9rec_enc_clear(e);
}

/* The least size of a record of each kind (R_PAD's is its own rule). */
static const uint16_t min_size[] = {
	[R_POLL_START] = 32, [R_POLL_END] = RREC_HDR, [R_PARK] = 32,
	[R_UNPARK] = 32, [R_WAKE] = 32, [R_SPAWN] = 32, [R_TERMINATE] = 32,
	[R_RUNTIME] = 32, [R_CUSTOM] = RREC_HDR, [R_SPAN_ENTER] = 32,
	[R_SPAN_EXIT] = 32, [R_SPAN_CLOSE] = 40
};

/* Whether the fields of a custom or span record r stay inside it (its
 * schema known, every string's length within its size). */
static int
payload_ok(struct d9rec_writer *w, const struct rrec *r)
{
	int span = r->kind != R_CUSTOM;
	const uint8_t *p = (const uint8_t *)r + RREC_HDR;
	const uint8_t *end = (const uint8_t *)r + r->size;
	const struct schema *s;
	uint32_t len;
	uint16_t n;

	if (r->a < S_NBUILTIN || (uint64_t)r->a + (uint64_t)span >=
	    atomic_load_explicit(&w->schemas.n, memory_order_acquire))
		return 0;
	s = d9rec_schema_get(w, r->a);
	n = span ? s->ndeclared : s->nfields;
	if (span)
		p += r->kind == R_SPAN_CLOSE ? 24 : 16;
	for (uint16_t i = 0; i < n; i++) {
		size_t k = !span && s->fields[i].type != D9REC_T_STR ? 8 : 4;

		if ((size_t)(end - p) < k)
			return 0;
		if (k == 4) {
			memcpy(&len, p, 4);
			if (len == UINT32_MAX && span)
				len = 0;	/* absent */
			if ((size_t)(end - p - 4) < len)
				return 0;
			k += len;
		}
		p += k;
	}
	return 1;
}

/* Whether r, with room bytes to the ring's end and avail to its head,
 * is a record the producer could have written. */
static int
rec_ok(struct d9rec_writer *w, const struct rrec *r, uint64_t room,
    uint64_t avail)
{
	if (r->kind == R_PAD)	/* pads run to the ring's end, 8 bytes made */
		return r->a == room && r->a <= avail;
	if (r->kind >= sizeof min_size / sizeof *min_size ||
	    r->size < min_size[r->kind] || r->size % 8 != 0 ||
	    r->size > RREC_MAX || r->size > room || r->size > avail)
		return 0;
	return r->kind != R_CUSTOM && r->kind < R_SPAN_ENTER ? 1 :
	    payload_ok(w, r);
}

/*
 * A ring found inconsistent (a head behind the tail or too far ahead, a
 * record whose size or pad does not fit): its bytes up to the head are
 * skipped, counted as events dropped (at most one per 16 bytes, the
 * smallest record; one when the head is behind), and reading goes on
 * from the head. Nothing in a ring can make the flush thread spin.
 */
static uint64_t
resync(struct d9rec_writer *w, uint64_t tail, uint64_t head, uint64_t cap)
{
	uint64_t n = head - tail;

	n = n > cap || n < RREC_HDR ? 1 : n / RREC_HDR;
	atomic_fetch_add_explicit(&w->ring_lost, n, memory_order_relaxed);
	return head;
}

/* Drain one ring into batches. Returns 1 if the ring was empty. */
static int
drain(struct d9rec_writer *w, struct d9rec_thread *t)
{
	struct enc *e = &w->enc;
	uint64_t head = atomic_load_explicit(&t->head, memory_order_acquire);
	uint64_t tail = atomic_load_explicit(&t->tail, memory_order_relaxed);
	uint64_t cap = t->mask + 1;

	if (tail == head)
		return 1;
	d9rec_enc_clear(e);
	d9rec_enc_batch(e);
	if (head - tail > cap || tail % 8 != 0)
		tail = resync(w, tail, head, cap);
	while (tail != head) {
		uint64_t pos = tail & t->mask;
		const struct rrec *r = (const struct rrec *)(const void *)
		    (t->buf + pos);

		if (!rec_ok(w, r, cap - pos, head - tail)) {
			tail = resync(w, tail, head, cap);
			break;
		}
		if (r->kind == R_PAD) {
			tail += r->a;
			continue;
		}
		enc_record(w, e, t, r);
		tail += r->size;
		if (e->n >= w->batch_max) {
			put_batch(w, e, 1);
			d9rec_enc_batch(e);
		}
	}
	atomic_store_explicit(&t->tail, tail, memory_order_release);
	put_batch(w, e, 1);
	return 0;
}

/* The CPU and allocation samples of this cycle, as one batch. */
void
d9rec_sources_batch(struct d9rec_writer *w)
{
	struct enc *e = &w->enc;
	struct d9rec_thread *t;

	d9rec_enc_clear(e);
	d9rec_enc_batch(e);
	pthread_mutex_lock(&w->lock);
	t = w->threads;
	pthread_mutex_unlock(&w->lock);
	for (; t != NULL; t = t->next) {
		d9rec_perf_drain(w, t, e);
		d9rec_cputimer_drain(w, t, e);
	}
	d9rec_alloc_drain(w, e);
	put_batch(w, e, 1);
}

/*
 * The calling thread (the flush or the compressor thread) named (at most
 * 15 bytes) and as SCHED_BATCH:
 * its wake-ups do not preempt the program's threads. On a machine whose
 * cores the program keeps busy, a recorder thread that preempted a
 * worker every flush cycle (often while it held a lock its peers then
 * wait for) cost the program more than the recorder's own work.
 */
void
d9rec_background(const char *name)
{
	struct sched_param sp;

	pthread_setname_np(pthread_self(), name);	/* for top, perf */

	memset(&sp, 0, sizeof sp);
	pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp);
}

/* Drain every ring; free threads that are gone and drained. */
static void
cycle(struct d9rec_writer *w)
{
	struct d9rec_thread *t, **pp;
	int meta;

	d9rec_clock_anchor(w);
	if (w->fd < 0)
		d9rec_seg_open(w);	/* after a failed write: try again */
	if (d9rec_mono_ns() - w->counters_ns >= 1000000000u) {
		/* losses go into the trace as they happen, not only at
		 * sealing (a crash would lose them) */
		w->counters_ns = d9rec_mono_ns();
		d9rec_seg_counters(w);
	}
	pthread_mutex_lock(&w->lock);
	t = w->threads;
	meta = w->meta_written != w->meta_version;
	pthread_mutex_unlock(&w->lock);
	if (w->fd >= 0 && meta)
		d9rec_seg_meta(w);
	for (; t != NULL; t = t->next)
		drain(w, t);
	d9rec_sources_batch(w);
	pthread_mutex_lock(&w->lock);
	for (pp = &w->threads; (t = *pp) != NULL; ) {
		if (atomic_load_explicit(&t->dead, memory_order_acquire) &&
		    atomic_load(&t->head) == atomic_load(&t->tail) &&
		    d9rec_cputimer_empty(t->cputimer)) {
			*pp = t->next;
			atomic_fetch_add(&w->retired_events,
			    atomic_load(&t->events));
			atomic_fetch_add(&w->retired_dropped,
			    atomic_load(&t->dropped) +
			    atomic_load(&t->dropped_unguarded));
			d9rec_thread_free(t);
		} else
			pp = &t->next;
	}
	pthread_mutex_unlock(&w->lock);
}

static int
must_rotate(struct d9rec_writer *w)
{
	uint64_t now = d9rec_now(w);	/* the test clock, when set */

	if (w->fd < 0)
		return 0;
	if (w->seg_bytes >= w->opt.max_file_size)
		return 1;
	return now - w->seg_start_ns >= w->opt.rotation_period_ms * 1000000u;
}

static void
rotate(struct d9rec_writer *w)
{
	d9rec_seg_seal(w, 0);
	d9rec_seg_open(w);
}

void *
d9rec_flush_main(void *arg)
{
	struct d9rec_writer *w = arg;
	uint64_t seq;
	int rot;

	d9rec_background("d9rec-flush");
	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		if (w->req_flush == w->done_flush) {
			uint64_t ms = d9rec_perf_duty(w);
			struct timespec ts = d9_deadline(ms <
			    w->opt.flush_interval_ms ? ms :
			    w->opt.flush_interval_ms);

			pthread_cond_timedwait(&w->cond, &w->lock, &ts);
			if (w->stop)
				break;
		}
		/* every drain, a flush asked for too, sees the cycle's
		 * phase of now */
		d9rec_perf_duty(w);
		seq = w->req_flush;
		rot = w->req_rotate;
		w->req_rotate = 0;
		pthread_mutex_unlock(&w->lock);
		cycle(w);
		if (rot || must_rotate(w))
			rotate(w);
		pthread_mutex_lock(&w->lock);
		w->done_flush = seq;
		pthread_cond_broadcast(&w->done);
	}
	pthread_mutex_unlock(&w->lock);
	cycle(w);
	d9rec_seg_seal(w, 1);
	pthread_mutex_lock(&w->lock);
	w->done_flush = w->req_flush;
	w->flush_exited = 1;
	pthread_cond_broadcast(&w->done);
	pthread_cond_broadcast(&w->cq_cond);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}
