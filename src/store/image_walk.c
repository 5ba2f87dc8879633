/*
 * image_walk.c: see image_walk.h. COUNT numbers the scalars and sections;
 * WRITE gathers the scalars and writes the sections to fd (or, with fd
 * -1, only measures them), summing the sections in two stripes of
 * D9I_IMG_STRIPE bytes taken in turn; LOAD points the model's columns
 * into the mapping, checking each section against its table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/io.h"
#include "base/vec.h"
#include "model/core/build.h"
#include "store/image_walk.h"

/* Add n bytes that start at offset off of the sections to their stripes. */
static void
stripes_add(struct d9_sum sum[2], uint64_t off, const void *pv, size_t n)
{
	const uint8_t *p = pv;

	while (n > 0) {
		uint64_t k = D9I_IMG_STRIPE - off % D9I_IMG_STRIPE;
		size_t take = k < n ? (size_t)k : n;

		d9_sum_add(&sum[off / D9I_IMG_STRIPE % 2], p, take);
		p += take;
		off += take;
		n -= take;
	}
}

void
d9i_iwalk_flush(struct d9i_iwalk *w)
{
	if (w->nbuf && w->fd >= 0 && d9_write_all(w->fd, w->buf, w->nbuf) < 0)
		w->bad = 1;
	w->nbuf = 0;
}

/* Append n bytes: small ones through the buffer, large ones directly. */
static void
put(struct d9i_iwalk *w, const void *p, size_t n)
{
	if (n == 0 || w->bad)
		return;
	w->at += n;
	if (w->fd < 0)
		return;
	stripes_add(w->sum, w->at - n - w->body, p, n);
	if (n <= D9I_IMG_WBUF - w->nbuf) {
		memcpy(w->buf + w->nbuf, p, n);
		w->nbuf += n;
		return;
	}
	d9i_iwalk_flush(w);
	if (w->cancel != NULL && atomic_load(w->cancel)) {
		w->bad = 1;
		errno = ECANCELED;
		return;
	}
	if (n < D9I_IMG_WBUF) {
		memcpy(w->buf, p, n);
		w->nbuf = n;
	} else if (d9_write_all(w->fd, p, n) < 0)
		w->bad = 1;
}

static void
pad(struct d9i_iwalk *w)
{
	static const uint8_t zero[D9I_IMG_ALIGN];

	if (w->at % D9I_IMG_ALIGN)
		put(w, zero, D9I_IMG_ALIGN - w->at % D9I_IMG_ALIGN);
}

static void
fail(struct d9i_iwalk *w, const char *why)
{
	if (!w->bad)
		w->why = why;
	w->bad = 1;
}

/* A u64 figure of the model. */
static void
scal(struct d9i_iwalk *w, uint64_t *v)
{
	size_t i = w->nscal++;

	if (w->mode == D9I_IW_WRITE)
		w->scal[i] = *v;
	else if (w->mode == D9I_IW_LOAD)
		*v = w->scal[i];
}

#define S(w, field) do {						\
	uint64_t v_ = (uint64_t)(field);				\
	scal((w), &v_);							\
	if ((w)->mode == D9I_IW_LOAD)				\
		(field) = (__typeof__(field))v_;			\
} while (0)

/* The next section when loading: its bytes, checked to be count * elem
 * inside the file, after the one before; NULL when it is not. */
static const uint8_t *
take(struct d9i_iwalk *w, size_t i, uint64_t count, size_t elem)
{
	const struct d9i_img_sect *s = &w->sect[i];

	if (w->bad)
		return NULL;
	if (s->off % D9I_IMG_ALIGN || s->off < w->at || s->off > w->size ||
	    s->bytes > w->size - s->off ||
	    (elem && count > UINT64_MAX / elem) || s->bytes != count * elem) {
		fail(w, "a section does not match its table");
		return NULL;
	}
	w->at = s->off + s->bytes;
	return w->base + s->off;
}

/* Section i (count elements of elem bytes, mapped) is checked to index
 * to as flags say (image_check.h) when the file is summed. */
static void
check(struct d9i_iwalk *w, size_t i, uint64_t count, size_t elem,
    enum d9i_ick_to to, unsigned flags)
{
	uint64_t bound = d9i_icheck_bound(w->m, to);

	if (w->bad || count == 0 || (bound == UINT64_MAX && !flags))
		return;
	if (d9_grow(&w->checks, &w->capchecks, w->nchecks + 1,
	    sizeof *w->checks) < 0) {
		fail(w, "out of memory");
		return;
	}
	w->checks[w->nchecks++] = (struct d9i_icheck){ w->sect[i].off, count,
	    bound, (uint8_t)elem, (uint8_t)flags, (uint8_t)to };
}

/*
 * An array of count elements at *pp. Loading points *pp into the mapping,
 * or, with copy, into a malloc'd copy (for arrays that may grow or are
 * freed with free()); its values are checked to index to, as flags say
 * (image_check.h), when the file is summed.
 */
static void
arr_to(struct d9i_iwalk *w, void *pp, uint64_t count, size_t elem, int copy,
    enum d9i_ick_to to, unsigned flags)
{
	void **p = pp;
	size_t i = w->nsect++;
	const uint8_t *src;

	switch (w->mode) {
	case D9I_IW_WRITE:
		pad(w);
		w->sect[i].off = w->at;
		w->sect[i].bytes = count * elem;
		if (count && *p != NULL)
			put(w, *p, count * elem);
		else if (count)
			fail(w, "an array is missing");
		break;
	case D9I_IW_LOAD:
		if ((src = take(w, i, count, elem)) == NULL)
			return;
		check(w, i, count, elem, to, flags);
		if (!copy) {
			*p = (void *)src;
			return;
		}
		if ((*p = malloc(count * elem + 1)) == NULL) {
			fail(w, "out of memory");
			return;
		}
		memcpy(*p, src, count * elem);
		break;
	}
}

static void
arr(struct d9i_iwalk *w, void *pp, uint64_t count, size_t elem, int copy)
{
	arr_to(w, pp, count, elem, copy, D9I_TO_NOTHING, 0);
}

#define A(w, ptr, count) arr((w), &(ptr), (count), sizeof *(ptr), 0)
#define AC(w, ptr, count) arr((w), &(ptr), (count), sizeof *(ptr), 1)
/* An array of rows or ids of to (flags: D9I_ICK_*). */
#define R(w, ptr, count, to, flags) \
	arr_to((w), &(ptr), (count), sizeof *(ptr), 0, (to), (flags))

static void
hmap_scalars(struct d9i_iwalk *w, struct d9_hmap *h)
{
	S(w, h->n);
	S(w, h->nslots);
	S(w, h->shift);
}

/* A map of rows (no keys of its own): its slots, each a row + 1 <= rows,
 * n of them taken, at most half (a probe ends at an empty slot). */
static void
hmap_arrays(struct d9i_iwalk *w, struct d9_hmap *h, size_t rows)
{
	size_t taken = 0;

	AC(w, h->slot, h->nslots);
	if (w->mode != D9I_IW_LOAD || w->bad)
		return;
	if (h->nslots & (h->nslots - 1) || h->n > rows ||
	    h->n > h->nslots / 2 ||
	    (h->nslots && h->shift != 64 - (unsigned)__builtin_ctzll(h->nslots))) {
		fail(w, "a map does not match its table");
		return;
	}
	for (size_t i = 0; i < h->nslots; i++) {
		if (h->slot[i] > rows) {
			fail(w, "a map does not match its table");
			return;
		}
		taken += h->slot[i] != 0;
	}
	if (taken != h->n)
		fail(w, "a map does not match its table");
}

static void
intern_scalars(struct d9i_iwalk *w, struct d9_intern *t)
{
	S(w, t->n);
	hmap_scalars(w, &t->ids);
}

/* Blobs one after the other, each with its NUL, at multiples of 8. */
static void
blobs(struct d9i_iwalk *w, struct d9_intern *t)
{
	static const uint8_t zero[8];
	size_t i = w->nsect++, at = 0;
	const uint8_t *src;

	if (w->mode == D9I_IW_WRITE) {
		pad(w);
		w->sect[i].off = w->at;
		for (size_t k = 0; k < t->n; k++) {
			size_t len = t->len[k] + 1;

			put(w, t->blob[k], len);
			put(w, zero, (8 - len % 8) % 8);
			at += len + (8 - len % 8) % 8;
		}
		w->sect[i].bytes = at;
		return;
	}
	if (w->mode != D9I_IW_LOAD || w->bad)
		return;
	if ((src = take(w, i, w->sect[i].bytes, 1)) == NULL)
		return;
	if ((t->blob = malloc((t->n + 1) * sizeof *t->blob)) == NULL) {
		fail(w, "out of memory");
		return;
	}
	for (size_t k = 0; k < t->n; k++) {
		size_t len = (size_t)t->len[k] + 1;

		if (len > w->sect[i].bytes - at || src[at + len - 1] != 0) {
			fail(w, "an interned string runs out of its section");
			return;
		}
		t->blob[k] = src + at;
		at += len + (8 - len % 8) % 8;
	}
	t->cap = t->n;
}

static void
intern_arrays(struct d9i_iwalk *w, struct d9_intern *t)
{
	AC(w, t->len, t->n);
	AC(w, t->hash, t->n);
	blobs(w, t);
	hmap_arrays(w, &t->ids, t->n);
}

size_t
d9i_iwalk_tables(struct d9m_model *m, struct d9m_tabref *t)
{
	return d9m_model_kept_tables(m, t);	/* the registry, tables.h */
}

void
d9i_iwalk_scalars(struct d9i_iwalk *w, struct d9m_model *m)
{
	struct d9m_tabref t[D9M_NTABLES];
	size_t nt = d9i_iwalk_tables(m, t);
	struct d9m_loss *l = &m->loss;

	for (size_t i = 0; i < nt; i++) {
		size_t *n = t[i].tab;

		S(w, n[0]);
		if (w->mode == D9I_IW_LOAD)
			n[1] = n[0];		/* cap */
	}
	S(w, m->meta.legacy_wall);
	S(w, m->segs.copies);
	S(w, m->segs.damaged);
	S(w, m->tidmap_n);
	S(w, m->tname_n);
	S(w, m->nerrors);
	S(w, m->spans.n);
	S(w, m->spans.nopen);
	S(w, m->spans.poll_max);
	S(w, m->spans.polls_over20);
	S(w, m->spans.poll_row);
	S(w, m->appev.n);
	S(w, m->alloc_rate);
	S(w, m->alloc_rate_meta);
	S(w, m->sched_duty);
	S(w, m->cpu_hz);
	S(w, m->sched_cycle_ns);
	S(w, m->sched_on_ns);
	S(w, m->nworkers);
	S(w, m->nsym_stacks);
	S(w, m->nruntimes);
	S(w, m->min_ts);
	S(w, m->max_ts);
	S(w, m->rt_events);
	S(w, l->dropped_events);
	S(w, l->lost_batches);
	S(w, l->dropped_allocs);
	S(w, l->dropped_frees);
	S(w, l->lost_cpu);
	S(w, l->incomplete);
	S(w, l->damaged);
	S(w, l->deleted);
	S(w, l->deleted_bytes);
	S(w, l->missing);
	S(w, l->copies);
	S(w, m->cost.recorder_cpu_ns);
	S(w, m->cost.process_cpu_ns);
	S(w, m->cost.boots);
	intern_scalars(w, &m->strs);
	intern_scalars(w, &m->stacks);
	intern_scalars(w, &m->lists);
	hmap_scalars(w, &m->tasks.rows);
	S(w, w->lanes->nlong);
	S(w, w->lanes->nact);
}

/* The lanes' block offsets and maxima as lanes.c makes them. */
static void
lane_blocks(struct d9i_iwalk *w, struct d9m_model *m)
{
	struct d9m_lanes *x = w->lanes;
	size_t nb = 0, nw = m->nworkers;

	A(w, x->boff, nw + 1);
	if (w->mode == D9I_IW_LOAD && !w->bad)
		for (size_t i = 0; i <= nw; i++) {
			if (x->boff[i] != nb) {
				fail(w, "the lanes do not match the polls");
				break;
			}
			if (i < nw)
				nb += (m->workers[i].npolls + D9M_BLOCK - 1) /
				    D9M_BLOCK;
		}
	A(w, x->bmax, w->mode == D9I_IW_COUNT || w->bad ? 0 : x->boff[nw]);
}

/* Whether the rows [r0, r0 + n) of a worker follow the previous worker's
 * (*next) inside a table of rows rows. */
static int
follows(size_t r0, size_t n, size_t *next, size_t rows)
{
	if (r0 != *next || n > rows - r0)
		return 0;
	*next += n;
	return 1;
}

/* The workers' polls, parks and actives: each worker's rows after the
 * previous worker's, all of the table's rows (walk.c lays them so; the
 * checks of their order rely on it: image_check.h). */
static void
worker_rows(struct d9i_iwalk *w, struct d9m_model *m)
{
	size_t np = 0, nk = 0, na = 0;

	if (w->mode != D9I_IW_LOAD || w->bad)
		return;
	for (size_t i = 0; i < m->nworkers; i++) {
		const struct d9m_worker *k = &m->workers[i];

		if (!follows(k->poll0, k->npolls, &np, m->polls.n) ||
		    !follows(k->park0, k->nparks, &nk, m->parks.n) ||
		    !follows(k->act0, k->nacts, &na, m->actives.n)) {
			fail(w, "the workers do not match their rows");
			return;
		}
	}
	if (np != m->polls.n || nk != m->parks.n || na != m->actives.n)
		fail(w, "the workers do not match their rows");
}

static void
lanes(struct d9i_iwalk *w, struct d9m_model *m)
{
	struct d9m_lanes *x = w->lanes;

	A(w, x->busy, m->polls.n + m->nworkers + 1);
	lane_blocks(w, m);
	R(w, x->by_dur, m->polls.n, D9I_TO_POLL, 0);
	R(w, x->longp, x->nlong, D9I_TO_POLL, 0);
	R(w, x->act_ts, x->nact, D9I_TO_NOTHING, D9I_ICK_ASC);
	A(w, x->act_val, x->nact);
}

/* Errors: their texts one after the other, each with its NUL. */
static void
errors(struct d9i_iwalk *w, struct d9m_model *m)
{
	size_t i = w->nsect++, total = 0, nerr = m->nerrors;
	const char *src;

	if (w->mode == D9I_IW_LOAD)
		m->nerrors = 0;		/* counted again as they are added */
	if (w->mode == D9I_IW_WRITE) {
		pad(w);
		w->sect[i].off = w->at;
		for (size_t k = 0; k < nerr; k++) {
			size_t len = strlen(m->errors[k]) + 1;

			put(w, m->errors[k], len);
			total += len;
		}
		w->sect[i].bytes = total;
		return;
	}
	if (w->mode != D9I_IW_LOAD || w->bad)
		return;
	if ((src = (const char *)take(w, i, w->sect[i].bytes, 1)) == NULL)
		return;
	for (size_t k = 0; k < nerr; k++) {
		size_t left = w->sect[i].bytes - total;
		const char *e = memchr(src + total, 0, left);

		if (e == NULL) {
			fail(w, "an error message runs out of its section");
			return;
		}
		if (d9m_model_add_error(m, src + total) < 0) {
			fail(w, "out of memory");
			return;
		}
		total += (size_t)(e - (src + total)) + 1;
	}
}

/* The columns of the tables, each checked as image_check.c says. */
static void
tables(struct d9i_iwalk *w, struct d9m_model *m)
{
	struct d9m_tabref t[D9M_NTABLES];
	size_t nt = d9i_iwalk_tables(m, t);

	for (size_t i = 0; i < nt; i++) {
		const struct d9m_tabdesc *d = t[i].desc;
		size_t n = d9m_tab_n(t[i].tab);

		for (size_t c = 0; c < d->ncols; c++) {
			enum d9i_ick_to to;
			unsigned flags = d9i_icheck_col(m, &t[i], c, &to);

			arr_to(w, (char *)t[i].tab + d->cols[c].off, n,
			    d->cols[c].elem, 0, to, flags);
		}
	}
}

/* What is derived at finish: indexes, offsets, per segment figures. */
static void
derived(struct d9i_iwalk *w, struct d9m_model *m)
{
	size_t ntasks = m->tasks.n;

	R(w, m->cpu.worker, m->cpu.n, D9I_TO_WID, D9I_ICK_NONE);
	R(w, m->cpu.poll, m->cpu.n, D9I_TO_POLL, D9I_ICK_NONE);
	A(w, m->cpu.lane, m->cpu.n);
	R(w, m->wakes.by_woken, m->wakes.n, D9I_TO_WAKE, 0);
	R(w, m->wakes.by_woken_off, ntasks + 2, D9I_TO_WAKES_ALL,
	    D9I_ICK_ASC);
	R(w, m->queue.group, m->queue.n, D9I_TO_RTGROUP, 0);
	A(w, m->tidmap_tid, m->tidmap_n);
	R(w, m->tidmap_worker, m->tidmap_n, D9I_TO_WID, D9I_ICK_NONE);
	A(w, m->tname_tid, m->tname_n);
	R(w, m->tname_name, m->tname_n, D9I_TO_STR, D9I_ICK_NONE);
	R(w, m->task_polls_off, ntasks + 2, D9I_TO_POLLS_ALL, D9I_ICK_ASC);
	/* its last offset sizes the next array */
	if (w->mode == D9I_IW_LOAD && !w->bad && m->task_polls_off[ntasks] >
	    m->polls.n)
		fail(w, "a section does not match its table");
	R(w, m->task_polls, w->mode == D9I_IW_COUNT || w->bad ? 0 :
	    m->task_polls_off[ntasks], D9I_TO_POLL, 0);
	A(w, m->poll_sched, m->polls.n);
	A(w, m->poll_sched_ref, m->polls.n);
}

static void
spans(struct d9i_iwalk *w, struct d9m_model *m)
{
	R(w, m->spans.start, m->spans.n, D9I_TO_NOTHING, D9I_ICK_ASC);
	A(w, m->spans.dur, m->spans.n);
	R(w, m->spans.name, m->spans.n, D9I_TO_STR, D9I_ICK_NONE);
	R(w, m->spans.worker, m->spans.n, D9I_TO_WID, D9I_ICK_NONE);
	R(w, m->spans.fields, m->spans.n, D9I_TO_LIST, D9I_ICK_NONE);
	A(w, m->spans.active, m->spans.n);
	A(w, m->spans.slices, m->spans.n);
	R(w, m->spans.parent, m->spans.n, D9I_TO_SPAN, D9I_ICK_NONE);
	A(w, m->spans.kind, m->spans.n);
	R(w, m->spans.open_ts, m->spans.nopen, D9I_TO_NOTHING, D9I_ICK_ASC);
	R(w, m->appev.row, m->appev.n, D9I_TO_CUSTOM, 0);
	R(w, m->appev.lane, m->appev.n, D9I_TO_SLOT, D9I_ICK_NONE);
	R(w, m->appev.poll, m->appev.n, D9I_TO_POLL, D9I_ICK_NONE);
}

void
d9i_iwalk_arrays(struct d9i_iwalk *w, struct d9m_model *m)
{
	tables(w, m);
	derived(w, m);
	spans(w, m);
	A(w, m->seg_rate, m->segs.n + 1);
	A(w, m->seg_sched, m->segs.n + 1);
	A(w, m->group_cover, 2 * m->groups.n);
	R(w, m->sym_seg_off, m->segs.n + 1, D9I_TO_SYMBOLS_ALL, D9I_ICK_ASC);
	R(w, m->seg_twin, m->segs.n, D9I_TO_SEG, 0);
	A(w, m->dump_idle, m->dumps.n);
	/* stack << 32 | segment */
	arr_to(w, &m->sym_stacks, m->nsym_stacks, sizeof *m->sym_stacks, 0,
	    D9I_TO_STACK_SEG, D9I_ICK_PAIR);
	A(w, m->workers, m->nworkers);
	worker_rows(w, m);
	A(w, m->runtimes, m->nruntimes);
	intern_arrays(w, &m->strs);
	intern_arrays(w, &m->stacks);
	intern_arrays(w, &m->lists);
	hmap_arrays(w, &m->tasks.rows, m->tasks.n);
	errors(w, m);
	lanes(w, m);
}

int
d9i_iwalk_count(size_t *nscal, size_t *nsect)
{
	struct d9m_model *m = calloc(1, sizeof *m);
	struct d9m_lanes x = { 0 };
	struct d9i_iwalk w = { .mode = D9I_IW_COUNT, .m = m, .lanes = &x };

	if (m == NULL)
		return -1;
	d9i_iwalk_scalars(&w, m);
	*nscal = w.nscal;
	d9i_iwalk_arrays(&w, m);
	*nsect = w.nsect;
	free(m);
	return 0;
}
