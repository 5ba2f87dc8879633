/*
 * gen.c: see gen.h. Schemas are the ones of base/schemas.h, as dial9
 * writes them (varints, pooled strings and stacks); a timestamp reset
 * frame goes before an event whose time is below the base (workers
 * overlap in time).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/schemas.h"
#include "base/wire.h"
#include "gen.h"

static void
put(struct gen_buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1 << 20;

		while (cap < b->n + n)
			cap *= 2;
		if ((b->p = realloc(b->p, cap)) == NULL) {
			fprintf(stderr, "gen: out of memory\n");
			exit(1);
		}
		b->cap = cap;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
u8(struct gen_buf *b, uint8_t v)
{
	put(b, &v, 1);
}

static void
le(struct gen_buf *b, uint64_t v, int n)
{
	uint8_t x[8];

	for (int i = 0; i < n; i++)
		x[i] = (uint8_t)(v >> (8 * i));
	put(b, x, (size_t)n);
}

static void
leb(struct gen_buf *b, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		u8(b, (uint8_t)(c | (v ? 0x80 : 0)));
	} while (v);
}

static void
str16(struct gen_buf *b, const char *s)
{
	le(b, strlen(s), 2);
	put(b, s, strlen(s));
}

enum { S_START = 1, S_END, S_PARK, S_UNPARK, S_WAKE, S_QUEUE, S_SPAWN, S_CPU,
	S_ALLOC, S_ENTER, S_EXIT };

/* Schema sch of base/schemas.h as type id `id`, named with site after
 * its name (span families), every field in list order. */
static void
schema(struct gen_buf *b, uint16_t id, enum d9_schema sch, const char *site)
{
	const struct d9_schema_def *d = d9_schema(sch);

	u8(b, D9_TAG_SCHEMA);
	le(b, id, 2);
	le(b, strlen(d->name) + strlen(site), 2);
	put(b, d->name, strlen(d->name));
	put(b, site, strlen(site));
	u8(b, 1);
	le(b, d->nfields, 2);
	for (size_t i = 0; i < d->nfields; i++) {
		str16(b, d->fields[i].name);
		u8(b, d->fields[i].type);
	}
}

static void
schemas(struct gen_buf *b)
{
	static const uint8_t sch[] = {
		[S_START] = D9_SCH_POLL_START, [S_END] = D9_SCH_POLL_END,
		[S_PARK] = D9_SCH_PARK, [S_UNPARK] = D9_SCH_UNPARK,
		[S_WAKE] = D9_SCH_WAKE, [S_QUEUE] = D9_SCH_QUEUE,
		[S_SPAWN] = D9_SCH_SPAWN, [S_CPU] = D9_SCH_CPU,
		[S_ALLOC] = D9_SCH_ALLOC, [S_ENTER] = D9_SCH_SPAN_ENTER,
		[S_EXIT] = D9_SCH_SPAN_EXIT,
	};

	for (uint16_t id = S_START; id <= S_EXIT; id++)
		schema(b, id, sch[id], id >= S_ENTER ? "handle" : "");
}

static void
pools(struct gen_buf *b)
{
	static const char *const strs[] = { "src/server.rs:10:5",
	    "src/db.rs:44:9", "src/cache.rs:7:1", "src/http.rs:120:13",
	    "handle_request", "query" };

	for (uint32_t i = 0; i < 6; i++) {
		u8(b, D9_TAG_STRING_POOL);
		le(b, 1, 4);
		le(b, i + 1, 4);
		le(b, strlen(strs[i]), 4);
		put(b, strs[i], strlen(strs[i]));
	}
	for (uint32_t i = 0; i < 64; i++) {
		u8(b, D9_TAG_STACK_POOL);
		le(b, 1, 4);
		le(b, i + 1, 4);
		le(b, 12, 4);
		for (uint32_t d = 0; d < 12; d++)
			le(b, 0x400000 + 0x100 * (d < 6 ? d : d * 7 + i % (d + 1)) +
			    (d == 0 ? i : 0), 8);
	}
}

static void
ev(struct gen_buf *b, uint16_t id, uint64_t *base, uint64_t ts)
{
	if (ts < *base || ts - *base > D9_TS_DELTA_MAX) {
		/* workers overlap in time: move the base back */
		u8(b, D9_TAG_TS_RESET);
		le(b, ts, 8);
		*base = ts;
	}
	u8(b, D9_TAG_EVENT);
	le(b, id, 2);
	le(b, ts - *base, 3);
	*base = ts;
}

uint64_t
gen_trace(struct gen_buf *b, uint64_t events, unsigned workers)
{
	uint64_t n = 0, t = 1000000000ull, base = 0, task = 1, span = 1;
	uint64_t rng = 88172645463325252ull;

	put(b, "TRC", 4);
	u8(b, D9_VERSION);
	schemas(b);
	pools(b);
	ev(b, S_SPAWN, &base, t);
	leb(b, 1);
	le(b, 1, 4);
	u8(b, 1);		/* instrumented */
	n++;
	while (n < events) {
		for (unsigned w = 0; w < workers && n < events; w++) {
			uint64_t d, loc;

			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			d = 2000 + rng % 40000 + (rng % 10007 == 0 ?
			    3000000 : 0);
			loc = 1 + rng % 4;
			if (rng % 97 == 0) {
				ev(b, S_SPAWN, &base, t);
				leb(b, ++task);
				le(b, loc, 4);
				u8(b, 1);
				n++;
			}
			ev(b, S_WAKE, &base, t);
			leb(b, 1 + (rng >> 8) % task);
			leb(b, 1 + (rng >> 16) % task);
			u8(b, (uint8_t)w);
			ev(b, S_START, &base, t + 500);
			leb(b, w);
			u8(b, (uint8_t)(rng % 4));
			leb(b, 1 + (rng >> 16) % task);
			le(b, loc, 4);
			ev(b, S_ENTER, &base, t + 600);
			leb(b, w);
			leb(b, span);
			u8(b, 0);	/* no parent */
			le(b, 5 + (rng & 1), 4);
			ev(b, S_CPU, &base, t + 700);
			leb(b, w);
			le(b, 100 + w, 4);
			u8(b, (uint8_t)(rng >> 3 & 1));
			u8(b, 0);	/* no thread name */
			le(b, 1 + (rng >> 20) % 64, 4);
			u8(b, 0);	/* no cpu */
			ev(b, S_EXIT, &base, t + 800 + d / 2);
			leb(b, w);
			leb(b, span++);
			le(b, 5 + (rng & 1), 4);
			ev(b, S_END, &base, t + 500 + d);
			leb(b, w);
			n += 6;
			if (rng % 16 == 0) {
				ev(b, S_ALLOC, &base, t + 600 + d);
				le(b, 100 + w, 4);
				leb(b, 64 + rng % 100000);
				leb(b, rng & 0xffffffffff);
				le(b, 1 + (rng >> 24) % 64, 4);
				n++;
			}
			if (rng % 8 == 0) {
				ev(b, S_PARK, &base, t + 700 + d);
				leb(b, w);
				u8(b, 0);
				leb(b, t / 2);
				le(b, 100 + w, 4);
				ev(b, S_UNPARK, &base, t + 5000 + d);
				leb(b, w);
				u8(b, 0);
				leb(b, t / 2 + 1000);
				u8(b, 1);
				leb(b, rng % 50000);
				le(b, 100 + w, 4);
				n += 2;
			}
			if (rng % 32 == 0) {
				ev(b, S_QUEUE, &base, t + 5100 + d);
				u8(b, (uint8_t)(rng % 200));
				n++;
			}
			t += d / workers + 6000;
		}
	}
	return n;
}
