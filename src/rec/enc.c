/*
 * enc.c: the wire encoder of the flush thread (FORMAT 2.10).
 *
 * One struct enc holds the bytes of one batch at a time. A batch starts
 * with a TRC header and is self-contained: schemas are declared before
 * their first event, strings and stacks are pooled before the event that
 * uses them, and every batch starts with empty pools and base 0. "In this
 * batch" is tracked with generation numbers, so starting a batch costs
 * nothing per schema or string.
 *
 * Type ids are the writer's schema index + 1, identical in every batch.
 * Pool ids are dense from 0 in every batch. Inline strings (custom event
 * and span values) are pooled by their 64-bit hash (d9_hash), in a map
 * presized at init for 128 strings a batch and cleared, not freed,
 * between batches.
 *
 * Out of memory: the batch is marked (e->oom) and dropped by the caller.
 */
#include <stdlib.h>
#include <string.h>

#include "base/wire.h"
#include "rec/rec.h"

int
d9rec_enc_init(struct enc *e)
{
	memset(e, 0, sizeof *e);
	e->cap = 1 << 16;
	e->p = malloc(e->cap);
	if (e->p == NULL || d9_hmap_reserve(&e->inl, 128) < 0) {
		d9rec_enc_free(e);
		return -1;
	}
	return 0;
}

void
d9rec_enc_free(struct enc *e)
{
	free(e->p);
	free(e->sch_gen);
	free(e->str_gen);
	free(e->str_pool);
	d9_hmap_free(&e->inl);
	memset(e, 0, sizeof *e);
}

static int
reserve(struct enc *e, size_t n)
{
	size_t nc;
	uint8_t *q;

	if (e->oom)
		return -1;
	if (e->n + n <= e->cap)
		return 0;
	nc = e->cap * 2;
	while (nc < e->n + n)
		nc *= 2;
	q = realloc(e->p, nc);
	if (q == NULL) {
		e->oom = 1;
		return -1;
	}
	e->p = q;
	e->cap = nc;
	return 0;
}

void
d9rec_enc_bytes(struct enc *e, const void *p, size_t n)
{
	if (reserve(e, n) < 0)
		return;
	memcpy(e->p + e->n, p, n);
	e->n += n;
}

void
d9rec_enc_str(struct enc *e, const char *s, size_t n)
{
	d9rec_enc_u32(e, (uint32_t)n);
	d9rec_enc_bytes(e, s, n);
}

void
d9rec_enc_clear(struct enc *e)
{
	e->n = 0;
	e->oom = 0;
	e->events = 0;
}

void
d9rec_enc_batch(struct enc *e)
{
	static const uint8_t hdr[D9_HEADER_LEN] = { 'T', 'R', 'C', 0,
	    D9_VERSION };

	e->gen++;
	if (e->gen == 0) {	/* wrapped: forget every old generation */
		memset(e->sch_gen, 0, e->nsch_gen * sizeof *e->sch_gen);
		memset(e->str_gen, 0, e->nstr_gen * sizeof *e->str_gen);
		e->gen = 1;
	}
	e->base = 0;
	e->next_str = 0;
	e->next_stack = 0;
	d9_hmap_clear(&e->inl);
	d9rec_enc_bytes(e, hdr, sizeof hdr);
}

/* Make gen arrays cover index i. */
static int
grow_gen(uint32_t **a, uint32_t **b, size_t *n, size_t i)
{
	size_t nn = *n ? *n : 64;
	uint32_t *x;

	if (i < *n)
		return 0;
	while (nn <= i)
		nn *= 2;
	if ((x = realloc(*a, nn * sizeof *x)) == NULL)
		return -1;
	memset(x + *n, 0, (nn - *n) * sizeof *x);
	*a = x;
	if (b != NULL) {
		if ((x = realloc(*b, nn * sizeof *x)) == NULL)
			return -1;
		memset(x + *n, 0, (nn - *n) * sizeof *x);
		*b = x;
	}
	*n = nn;
	return 0;
}

static void
field(struct enc *e, const char *name, uint8_t type)
{
	size_t len = strlen(name);

	d9rec_enc_u16(e, (uint16_t)len);
	d9rec_enc_bytes(e, name, len);
	d9rec_enc_u8(e, type);
}

static void
declare(struct enc *e, uint32_t id, const struct schema *s)
{
	size_t len = strlen(s->name);

	d9rec_enc_u8(e, D9_TAG_SCHEMA);
	d9rec_enc_u16(e, (uint16_t)(id + 1));
	d9rec_enc_u16(e, (uint16_t)len);
	d9rec_enc_bytes(e, s->name, len);
	d9rec_enc_u8(e, 1);		/* has_timestamp: always (2.10) */
	d9rec_enc_u16(e, (uint16_t)(s->nfields + (s->thread_fields & 1) +
	    (s->thread_fields >> 1)));
	for (uint16_t i = 0; i < s->nfields; i++)
		field(e, s->fields[i].name, s->fields[i].type);
	if (s->thread_fields & 1)
		field(e, "worker_id", D9REC_T_U64);
	if (s->thread_fields & 2)
		field(e, "tid", D9REC_T_U64);
}

/* Anything but the common case of d9rec_enc_event: a schema not yet
 * declared in this batch, a time reset, a buffer to grow. */
void
d9rec_enc_event_slow(struct d9rec_writer *w, struct enc *e, uint32_t sch,
    uint64_t ts)
{
	uint64_t d;

	if (grow_gen(&e->sch_gen, NULL, &e->nsch_gen, sch) < 0) {
		e->oom = 1;
		return;
	}
	if (e->sch_gen[sch] != e->gen) {
		declare(e, sch, d9rec_schema_get(w, sch));
		e->sch_gen[sch] = e->gen;
	}
	if (ts < e->base || ts - e->base > D9_TS_DELTA_MAX) {
		d9rec_enc_u8(e, D9_TAG_TS_RESET);
		d9rec_enc_u64(e, ts);
		e->base = ts;
	}
	d = ts - e->base;
	e->base = ts;
	d9rec_enc_u8(e, D9_TAG_EVENT);
	d9rec_enc_u16(e, (uint16_t)(sch + 1));
	d9rec_enc_u8(e, (uint8_t)d);
	d9rec_enc_u16(e, (uint16_t)(d >> 8));
	e->events++;
}

uint8_t *
d9rec_enc_head_slow(struct d9rec_writer *w, struct enc *e, uint32_t sch,
    uint64_t ts, size_t max)
{
	d9rec_enc_event_slow(w, e, sch, ts);
	return reserve(e, max) < 0 ? NULL : e->p + e->n;
}

static uint32_t
pool_frame(struct enc *e, const char *s, size_t n)
{
	uint32_t id = e->next_str++;

	d9rec_enc_u8(e, D9_TAG_STRING_POOL);
	d9rec_enc_u32(e, 1);
	d9rec_enc_u32(e, id);
	d9rec_enc_str(e, s, n);
	return id;
}

uint32_t
d9rec_enc_pool_id(struct d9rec_writer *w, struct enc *e, uint32_t strid)
{
	const char *s;

	if (strid < e->nstr_gen && e->str_gen[strid] == e->gen)
		return e->str_pool[strid];	/* in this batch's pool */
	if (strid >= atomic_load_explicit(&w->strs.n, memory_order_acquire))
		return d9rec_enc_pool_str(e, "", 0);	/* not an id of ours */
	if (grow_gen(&e->str_gen, &e->str_pool, &e->nstr_gen, strid) < 0) {
		e->oom = 1;
		return 0;
	}
	if (e->str_gen[strid] == e->gen)
		return e->str_pool[strid];
	s = d9rec_str(w, strid);
	e->str_gen[strid] = e->gen;
	e->str_pool[strid] = pool_frame(e, s, strlen(s));
	return e->str_pool[strid];
}

uint32_t
d9rec_enc_pool_loc(struct d9rec_writer *w, struct enc *e, uint32_t strid)
{
	/* checked each time: the same id may be in this batch's pool as
	 * another string's (pooled by d9rec_enc_pool_id) */
	return d9rec_str_named(w, strid) ? d9rec_enc_pool_id(w, e, strid) :
	    d9rec_enc_pool_str(e, "", 0);
}

uint32_t
d9rec_enc_pool_str(struct enc *e, const char *s, size_t n)
{
	uint64_t h = d9_hash(s, n);
	uint32_t id = d9_hmap_get(&e->inl, h);

	if (id != D9_NONE)
		return id;
	id = pool_frame(e, s, n);
	if (d9_hmap_put(&e->inl, h, id) < 0)
		e->oom = 1;
	return id;
}

uint32_t
d9rec_enc_pool_stack(struct enc *e, const uint64_t *f, uint32_t n)
{
	uint32_t id = e->next_stack++;

	d9rec_enc_u8(e, D9_TAG_STACK_POOL);
	d9rec_enc_u32(e, 1);
	d9rec_enc_u32(e, id);
	d9rec_enc_u32(e, n);
	for (uint32_t i = 0; i < n; i++)
		d9rec_enc_u64(e, f[i]);
	return id;
}

void
d9rec_enc_map(struct enc *e, const struct meta_kv *kv, size_t n)
{
	d9rec_enc_u32(e, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		d9rec_enc_str(e, kv[i].key, strlen(kv[i].key));
		d9rec_enc_str(e, kv[i].val, strlen(kv[i].val));
	}
}
