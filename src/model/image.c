/*
 * image.c: see image.h. The file is
 *
 *	header (struct hdr)
 *	scalars: nscal u64 (table sizes, counts, figures of the model)
 *	section table: nsect x { u64 offset, u64 bytes }
 *	sections, each at a multiple of 64 bytes
 *
 * One walk over the model (scalars(), then arrays()) says what is in the
 * file, in order; writing and opening both run it, so the two cannot
 * disagree. The header's layout value is a checksum of the table
 * descriptors and of the sizes of the model's structs: an image written
 * by a d9top whose model differs is refused as "another layout".
 *
 * The header's sum covers the scalars, the section table and the
 * sections. The sections are summed in two stripes, blocks of STRIPE
 * bytes taken in turn (even blocks, odd blocks), so that opening checks
 * them on two cores, through the mapping (no copy), dropping each block
 * from the process once summed: only what the views read stays.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/io.h"
#include "base/sum.h"
#include "model/build.h"
#include "model/image.h"
#include "model/lanes.h"
#include "model/par.h"
#include "model/tables.h"

#define MAGIC		"D9TIMG\r\n"
#define VERSION		2	/* 2: sections summed in two stripes */
#define ALIGN		64
#define CHUNK		(1u << 20)
#define STRIPE		((uint64_t)4 << 20)	/* a multiple of the page */
#define WBUF		(256u << 10)

struct hdr {
	char		 magic[8];
	uint64_t	 version;
	uint64_t	 layout;	/* layout_sum() */
	uint64_t	 key;		/* of the inputs (cache.h) */
	uint64_t	 size;		/* of the whole file */
	uint64_t	 sum;		/* of every byte after the header */
	uint64_t	 nscal, nsect;
	uint64_t	 hsum;		/* of this header, hsum 0 */
};

struct sect {
	uint64_t	 off, bytes;
};

/* The mapping, owned by a mapped model (d9m_model.image). */
struct d9m_image {
	uint8_t		*base;
	size_t		 size;
};

enum { COUNT, WRITE, LOAD };	/* WRITE with fd -1: only measure */

/* One walk over the model. COUNT numbers the scalars and sections; WRITE
 * gathers the scalars and writes sections to fd; LOAD reads them back. */
struct walk {
	int		 mode;
	struct d9m_model *m;
	struct d9m_lanes *lanes;	/* the browser's lookups, with m */
	uint64_t	*scal;
	size_t		 nscal, nsect;
	struct sect	*sect;
	/* WRITE */
	int		 fd;
	uint64_t	 at;		/* file offset of the next section */
	uint64_t	 body;		/* file offset of the first section */
	struct d9_sum	 sum[2];	/* the stripes */
	uint8_t		*buf;		/* small writes gathered */
	size_t		 nbuf;
	const _Atomic int *cancel;	/* stop writing when set */
	/* LOAD */
	const uint8_t	*base;
	size_t		 size;
	int		 bad;
	const char	*why;
};

/* Add n bytes that start at offset off of the sections to their stripes. */
static void
stripes_add(struct d9_sum sum[2], uint64_t off, const void *pv, size_t n)
{
	const uint8_t *p = pv;

	while (n > 0) {
		uint64_t k = STRIPE - off % STRIPE;
		size_t take = k < n ? (size_t)k : n;

		d9_sum_add(&sum[off / STRIPE % 2], p, take);
		p += take;
		off += take;
		n -= take;
	}
}

/* The header's sum: the head's (scalars, section table) and the
 * stripes'. */
static uint64_t
whole_sum(uint64_t head, const struct d9_sum sum[2])
{
	uint64_t b = d9_sum_end(&sum[1]);

	return head ^ d9_sum_end(&sum[0]) ^ (b << 17 | b >> 47);
}

static void
flush(struct walk *w)
{
	if (w->nbuf && w->fd >= 0 && d9_write_all(w->fd, w->buf, w->nbuf) < 0)
		w->bad = 1;
	w->nbuf = 0;
}

/* Append n bytes: small ones through the buffer, large ones directly. */
static void
put(struct walk *w, const void *p, size_t n)
{
	if (n == 0 || w->bad)
		return;
	w->at += n;
	if (w->fd < 0)
		return;
	stripes_add(w->sum, w->at - n - w->body, p, n);
	if (n <= WBUF - w->nbuf) {
		memcpy(w->buf + w->nbuf, p, n);
		w->nbuf += n;
		return;
	}
	flush(w);
	if (w->cancel != NULL && atomic_load(w->cancel)) {
		w->bad = 1;
		errno = ECANCELED;
		return;
	}
	if (n < WBUF) {
		memcpy(w->buf, p, n);
		w->nbuf = n;
	} else if (d9_write_all(w->fd, p, n) < 0)
		w->bad = 1;
}

static void
pad(struct walk *w)
{
	static const uint8_t zero[ALIGN];

	if (w->at % ALIGN)
		put(w, zero, ALIGN - w->at % ALIGN);
}

static void
fail(struct walk *w, const char *why)
{
	if (!w->bad)
		w->why = why;
	w->bad = 1;
}

/* A u64 figure of the model. */
static void
scal(struct walk *w, uint64_t *v)
{
	size_t i = w->nscal++;

	if (w->mode == WRITE)
		w->scal[i] = *v;
	else if (w->mode == LOAD)
		*v = w->scal[i];
}

#define S(w, field) do {						\
	uint64_t v_ = (uint64_t)(field);				\
	scal((w), &v_);							\
	if ((w)->mode == LOAD)						\
		(field) = (__typeof__(field))v_;			\
} while (0)

/* The next section in LOAD mode: its bytes, checked to be count * elem
 * inside the file; NULL when it is not. */
static const uint8_t *
take(struct walk *w, size_t i, uint64_t count, size_t elem)
{
	const struct sect *s = &w->sect[i];

	if (w->bad)
		return NULL;
	if (s->off % ALIGN || s->off > w->size || s->bytes > w->size - s->off ||
	    (elem && count > UINT64_MAX / elem) || s->bytes != count * elem) {
		fail(w, "a section does not match its table");
		return NULL;
	}
	return w->base + s->off;
}

/*
 * An array of count elements at *pp. LOAD points *pp into the mapping,
 * or, with copy, into a malloc'd copy (for arrays that may grow or are
 * freed with free()).
 */
static void
arr(struct walk *w, void *pp, uint64_t count, size_t elem, int copy)
{
	void **p = pp;
	size_t i = w->nsect++;
	const uint8_t *src;

	switch (w->mode) {
	case WRITE:
		pad(w);
		w->sect[i].off = w->at;
		w->sect[i].bytes = count * elem;
		if (count && *p != NULL)
			put(w, *p, count * elem);
		else if (count)
			fail(w, "an array is missing");
		break;
	case LOAD:
		if ((src = take(w, i, count, elem)) == NULL)
			return;
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

#define A(w, ptr, count) arr((w), &(ptr), (count), sizeof *(ptr), 0)
#define AC(w, ptr, count) arr((w), &(ptr), (count), sizeof *(ptr), 1)

static void
hmap_scalars(struct walk *w, struct d9_hmap *h)
{
	S(w, h->n);
	S(w, h->nslots);
	S(w, h->shift);
}

/* A map of rows (no keys of its own): its slots, each a row + 1 <= rows. */
static void
hmap_arrays(struct walk *w, struct d9_hmap *h, size_t rows)
{
	AC(w, h->slot, h->nslots);
	if (w->mode != LOAD || w->bad)
		return;
	if (h->nslots & (h->nslots - 1) || h->n > rows ||
	    (h->nslots && h->shift != 64 - (unsigned)__builtin_ctzll(h->nslots))) {
		fail(w, "a map does not match its table");
		return;
	}
	for (size_t i = 0; i < h->nslots; i++)
		if (h->slot[i] > rows) {
			fail(w, "a map does not match its table");
			return;
		}
}

static void
intern_scalars(struct walk *w, struct d9_intern *t)
{
	S(w, t->n);
	hmap_scalars(w, &t->ids);
}

/* Blobs one after the other, each with its NUL, at multiples of 8. */
static void
blobs(struct walk *w, struct d9_intern *t)
{
	static const uint8_t zero[8];
	size_t i = w->nsect++, at = 0;
	const uint8_t *src;

	if (w->mode == WRITE) {
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
	if (w->mode != LOAD || w->bad)
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
intern_arrays(struct walk *w, struct d9_intern *t)
{
	AC(w, t->len, t->n);
	AC(w, t->hash, t->n);
	blobs(w, t);
	hmap_arrays(w, &t->ids, t->n);
}

/* The tables with descriptors: what was loaded, then the timelines. */
static size_t
tables(struct d9m_model *m, struct d9m_tabref *t)
{
	size_t n = d9m_model_tables(m, t, 32);

	t[n++] = (struct d9m_tabref){ &m->polls, &d9m_desc_polls };
	t[n++] = (struct d9m_tabref){ &m->parks, &d9m_desc_periods };
	t[n++] = (struct d9m_tabref){ &m->actives, &d9m_desc_periods };
	t[n++] = (struct d9m_tabref){ &m->gaps, &d9m_desc_gaps };
	return n;
}

static void
scalars(struct walk *w, struct d9m_model *m)
{
	struct d9m_tabref t[40];
	size_t nt = tables(m, t);
	struct d9m_loss *l = &m->loss;

	for (size_t i = 0; i < nt; i++) {
		size_t *n = t[i].tab;

		S(w, n[0]);
		if (w->mode == LOAD)
			n[1] = n[0];		/* cap */
	}
	S(w, m->meta.legacy_wall);
	S(w, m->segs.copies);
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
	S(w, m->nworkers);
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
	S(w, l->copies);
	intern_scalars(w, &m->strs);
	intern_scalars(w, &m->stacks);
	intern_scalars(w, &m->lists);
	hmap_scalars(w, &m->tasks.rows);
	S(w, w->lanes->nlong);
	S(w, w->lanes->nact);
}

/* The lanes' block offsets and maxima as lanes.c makes them. */
static void
lane_blocks(struct walk *w, struct d9m_model *m)
{
	struct d9m_lanes *x = w->lanes;
	size_t nb = 0, nw = m->nworkers;

	A(w, x->boff, nw + 1);
	if (w->mode == LOAD && !w->bad)
		for (size_t i = 0; i <= nw; i++) {
			if (x->boff[i] != nb || (i < nw &&
			    m->workers[i].poll0 + m->workers[i].npolls >
			    m->polls.n)) {
				fail(w, "the lanes do not match the polls");
				break;
			}
			if (i < nw)
				nb += (m->workers[i].npolls + D9M_BLOCK - 1) /
				    D9M_BLOCK;
		}
	A(w, x->bmax, w->mode == COUNT || w->bad ? 0 : x->boff[nw]);
}

static void
lanes(struct walk *w, struct d9m_model *m)
{
	struct d9m_lanes *x = w->lanes;

	A(w, x->busy, m->polls.n + m->nworkers + 1);
	lane_blocks(w, m);
	A(w, x->by_dur, m->polls.n);
	A(w, x->longp, x->nlong);
	A(w, x->act_ts, x->nact);
	A(w, x->act_val, x->nact);
}

/* Errors: their texts one after the other, each with its NUL. */
static void
errors(struct walk *w, struct d9m_model *m)
{
	size_t i = w->nsect++, total = 0, nerr = m->nerrors;
	const char *src;

	if (w->mode == LOAD)
		m->nerrors = 0;		/* counted again as they are added */
	if (w->mode == WRITE) {
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
	if (w->mode != LOAD || w->bad)
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

static void
arrays(struct walk *w, struct d9m_model *m)
{
	struct d9m_tabref t[40];
	size_t nt = tables(m, t), ntasks = m->tasks.n;

	for (size_t i = 0; i < nt; i++) {
		const struct d9m_tabdesc *d = t[i].desc;
		size_t n = d9m_tab_n(t[i].tab);

		for (size_t c = 0; c < d->ncols; c++)
			arr(w, (char *)t[i].tab + d->cols[c].off, n,
			    d->cols[c].elem, 0);
	}
	A(w, m->cpu.worker, m->cpu.n);
	A(w, m->cpu.poll, m->cpu.n);
	A(w, m->cpu.lane, m->cpu.n);
	A(w, m->wakes.by_woken, m->wakes.n);
	A(w, m->wakes.by_woken_off, ntasks + 2);
	A(w, m->queue.group, m->queue.n);
	A(w, m->tidmap_tid, m->tidmap_n);
	A(w, m->tidmap_worker, m->tidmap_n);
	A(w, m->tname_tid, m->tname_n);
	A(w, m->tname_name, m->tname_n);
	A(w, m->task_polls_off, ntasks + 2);
	if (w->mode == LOAD && !w->bad && m->task_polls_off[ntasks] >
	    m->polls.n)
		fail(w, "a section does not match its table");
	A(w, m->task_polls, w->mode == COUNT || w->bad ? 0 :
	    m->task_polls_off[ntasks]);
	A(w, m->poll_sched, m->polls.n);
	A(w, m->spans.start, m->spans.n);
	A(w, m->spans.dur, m->spans.n);
	A(w, m->spans.name, m->spans.n);
	A(w, m->spans.worker, m->spans.n);
	A(w, m->spans.fields, m->spans.n);
	A(w, m->spans.active, m->spans.n);
	A(w, m->spans.slices, m->spans.n);
	A(w, m->spans.parent, m->spans.n);
	A(w, m->spans.kind, m->spans.n);
	A(w, m->spans.open_ts, m->spans.nopen);
	A(w, m->appev.row, m->appev.n);
	A(w, m->appev.lane, m->appev.n);
	A(w, m->appev.poll, m->appev.n);
	A(w, m->seg_rate, m->segs.n + 1);
	A(w, m->seg_sched, m->segs.n + 1);
	A(w, m->group_cover, 2 * m->groups.n);
	A(w, m->sym_seg_off, m->segs.n + 1);
	for (size_t s = 0; w->mode == LOAD && !w->bad && s <= m->segs.n; s++)
		if (m->sym_seg_off[s] > m->symbols.n ||
		    (s > 0 && m->sym_seg_off[s] < m->sym_seg_off[s - 1]))
			fail(w, "the symbol index does not match its table");
	A(w, m->workers, m->nworkers);
	A(w, m->runtimes, m->nruntimes);
	intern_arrays(w, &m->strs);
	intern_arrays(w, &m->stacks);
	intern_arrays(w, &m->lists);
	hmap_arrays(w, &m->tasks.rows, m->tasks.n);
	errors(w, m);
	lanes(w, m);
}

/* What the model looks like to this build: any change to a table, a
 * derived struct or the model itself gives another value. */
static uint64_t
layout_sum(void)
{
	struct d9m_model *m = calloc(1, sizeof *m);
	struct d9m_tabref t[40];
	struct d9_sum s;
	size_t n, sizes[] = { sizeof(struct d9m_model),
	    sizeof(struct d9m_worker), sizeof(struct d9m_runtime),
	    sizeof(struct d9m_loss), sizeof(struct d9m_spans),
	    sizeof(struct d9m_appev), sizeof(struct d9_intern),
	    sizeof(struct d9_hmap), VERSION };

	d9_sum_init(&s);
	d9_sum_add(&s, sizes, sizeof sizes);
	if (m != NULL) {
		n = tables(m, t);
		for (size_t i = 0; i < n; i++) {
			d9_sum_add(&s, t[i].desc->name,
			    strlen(t[i].desc->name));
			d9_sum_add(&s, t[i].desc->cols,
			    t[i].desc->ncols * sizeof *t[i].desc->cols);
		}
		free(m);
	}
	return d9_sum_end(&s);
}

/* How many scalars and sections an image has (from an empty model). */
static int
count(size_t *nscal, size_t *nsect)
{
	struct d9m_model *m = calloc(1, sizeof *m);
	struct d9m_lanes x = { 0 };
	struct walk w = { .mode = COUNT, .m = m, .lanes = &x };

	if (m == NULL)
		return -1;
	scalars(&w, m);
	*nscal = w.nscal;
	arrays(&w, m);
	*nsect = w.nsect;
	free(m);
	return 0;
}

static size_t
head_size(size_t nscal, size_t nsect)
{
	size_t n = sizeof(struct hdr) + nscal * 8 + nsect * sizeof(struct sect);

	return (n + ALIGN - 1) / ALIGN * ALIGN;
}

uint64_t
d9m_image_size(const struct d9m_model *cm, const struct d9m_lanes *x)
{
	struct d9m_model *m = (struct d9m_model *)cm;	/* only read */
	struct walk w = { .mode = WRITE, .m = m, .fd = -1,
	    .lanes = (struct d9m_lanes *)x };
	size_t nscal, nsect;

	if (count(&nscal, &nsect) < 0)
		return UINT64_MAX;
	w.at = head_size(nscal, nsect);
	w.scal = calloc(nscal + 1, sizeof *w.scal);
	w.sect = calloc(nsect + 1, sizeof *w.sect);
	if (w.scal != NULL && w.sect != NULL) {
		scalars(&w, m);
		arrays(&w, m);
	}
	free(w.scal);
	free(w.sect);
	return w.scal != NULL && w.sect != NULL ? w.at : UINT64_MAX;
}

int
d9m_image_write(const struct d9m_model *cm, const struct d9m_lanes *x,
    int fd, uint64_t key, const _Atomic int *cancel)
{
	struct d9m_model *m = (struct d9m_model *)cm;	/* WRITE only reads */
	struct walk w = { .mode = WRITE, .m = m, .fd = fd,
	    .lanes = (struct d9m_lanes *)x, .cancel = cancel };
	struct hdr h;
	size_t nscal, nsect, head;
	int rc = -1;

	if (count(&nscal, &nsect) < 0) {
		errno = ENOMEM;
		return -1;
	}
	head = head_size(nscal, nsect);
	w.scal = calloc(nscal + 1, sizeof *w.scal);
	w.sect = calloc(nsect + 1, sizeof *w.sect);
	w.buf = malloc(WBUF);
	if (w.scal == NULL || w.sect == NULL || w.buf == NULL) {
		errno = ENOMEM;
		goto out;
	}
	scalars(&w, m);
	/* sections first, after room for the head; the head last */
	if (lseek(fd, (off_t)head, SEEK_SET) < 0)
		goto out;
	w.at = w.body = head;
	d9_sum_init(&w.sum[0]);
	d9_sum_init(&w.sum[1]);
	arrays(&w, m);
	flush(&w);
	if (w.bad) {
		if (w.why != NULL)
			errno = EINVAL;
		goto out;
	}
	memset(&h, 0, sizeof h);
	memcpy(h.magic, MAGIC, 8);
	h.version = VERSION;
	h.layout = layout_sum();
	h.key = key;
	h.size = w.at;
	h.nscal = nscal;
	h.nsect = nsect;
	{
		/* the checksum covers the scalars and the section table too:
		 * they come first in the file but are summed after */
		struct d9_sum s;
		uint8_t *head_bytes = calloc(1, head);

		if (head_bytes == NULL) {
			errno = ENOMEM;
			goto out;
		}
		memcpy(head_bytes + sizeof h, w.scal, nscal * 8);
		memcpy(head_bytes + sizeof h + nscal * 8, w.sect,
		    nsect * sizeof *w.sect);
		d9_sum_init(&s);
		d9_sum_add(&s, head_bytes + sizeof h, head - sizeof h);
		h.sum = whole_sum(d9_sum_end(&s), w.sum);
		h.hsum = d9_sum_of(&h, sizeof h);
		memcpy(head_bytes, &h, sizeof h);
		rc = lseek(fd, 0, SEEK_SET) < 0 ||
		    d9_write_all(fd, head_bytes, head) < 0 ? -1 : 0;
		free(head_bytes);
	}
out:
	free(w.buf);
	free(w.scal);
	free(w.sect);
	return rc;
}

/* The checksum of the file's bytes [from, to), read with pread (the
 * head, before anything is mapped). */
static int
sum_range(int fd, uint64_t from, uint64_t to, uint64_t *out)
{
	struct d9_sum s;
	uint8_t *buf = malloc(CHUNK);

	if (buf == NULL)
		return -1;
	d9_sum_init(&s);
	while (from < to) {
		size_t want = to - from < CHUNK ? (size_t)(to - from) : CHUNK;
		ssize_t got = pread(fd, buf, want, (off_t)from);

		if (got <= 0) {
			free(buf);
			return -1;
		}
		d9_sum_add(&s, buf, (size_t)got);
		from += (uint64_t)got;
	}
	free(buf);
	*out = d9_sum_end(&s);
	return 0;
}

static int
check_head(int fd, uint64_t key, const struct stat *sb, struct hdr *h,
    size_t *nscal, size_t *nsect, uint64_t *sum_head, const char **why)
{
	struct hdr z;
	size_t head;

	if (pread(fd, h, sizeof *h, 0) != (ssize_t)sizeof *h) {
		*why = "shorter than its header";
		return -1;
	}
	z = *h;
	z.hsum = 0;
	if (memcmp(h->magic, MAGIC, 8) != 0 ||
	    d9_sum_of(&z, sizeof z) != h->hsum) {
		*why = "not an image, or a damaged header";
		return -1;
	}
	if (h->version != VERSION || h->layout != layout_sum()) {
		*why = "written by another version of d9top";
		return -1;
	}
	if (h->key != key) {
		*why = "made from other inputs";
		return -1;
	}
	if (count(nscal, nsect) < 0) {
		*why = "out of memory";
		return -1;
	}
	if (h->nscal != *nscal || h->nsect != *nsect ||
	    h->size != (uint64_t)sb->st_size) {
		*why = "cut short or of another shape";
		return -1;
	}
	head = head_size(*nscal, *nsect);
	if (h->size < head || sum_range(fd, sizeof *h, head, sum_head) < 0) {
		*why = "damaged (cut short)";
		return -1;
	}
	return 0;
}

/* One stripe of the sections of a mapped image, summed. */
struct stripe {
	const uint8_t	*base;
	uint64_t	 from, to;	/* the sections: [from, to) of the file */
	int		 which;
	struct d9_sum	 sum;
};

static int
sum_stripe(void *arg)
{
	struct stripe *st = arg;
	long pg = sysconf(_SC_PAGESIZE);

	d9_sum_init(&st->sum);
	for (uint64_t b = (uint64_t)st->which * STRIPE;
	    st->from + b < st->to; b += 2 * STRIPE) {
		uint64_t a = st->from + b, e = a + STRIPE < st->to ?
		    a + STRIPE : st->to;
		uintptr_t lo = ((uintptr_t)(st->base + a) + (uintptr_t)pg - 1) &
		    ~((uintptr_t)pg - 1), hi = (uintptr_t)(st->base + e) &
		    ~((uintptr_t)pg - 1);

		d9_sum_add(&st->sum, st->base + a, (size_t)(e - a));
		/* the pages summed leave the process (the page cache keeps
		 * them): a view maps again only what it reads */
		if (hi > lo)
			madvise((void *)lo, hi - lo, MADV_DONTNEED);
	}
	return 0;
}

/* Whether the sections of the image mapped at base match h's sum. */
static int
sections_sound(const uint8_t *base, const struct hdr *h, uint64_t head,
    uint64_t sum_head)
{
	struct stripe st[2];
	struct d9m_job jobs[2];
	struct d9_sum sum[2];

	for (int i = 0; i < 2; i++) {
		memset(&st[i], 0, sizeof st[i]);
		st[i].base = base;
		st[i].from = head;
		st[i].to = h->size;
		st[i].which = i;
		jobs[i] = (struct d9m_job){ sum_stripe, &st[i] };
	}
	if (d9m_par_run(jobs, 2) < 0)
		return 0;
	/* and what a neighbour's fault brought in (a large folio of the
	 * page cache is mapped whole) */
	madvise((void *)base, (size_t)h->size, MADV_DONTNEED);
	sum[0] = st[0].sum;
	sum[1] = st[1].sum;
	return whole_sum(sum_head, sum) == h->sum;
}

int
d9m_image_open(int fd, uint64_t key, struct d9m_model **out,
    struct d9m_lanes **lanes_out, char *why, size_t whylen)
{
	struct stat sb;
	struct hdr h;
	struct walk w = { .mode = LOAD };
	struct d9m_image *img = NULL;
	struct d9m_model *m = NULL;
	size_t nscal, nsect;
	const char *reason = "out of memory";
	uint64_t sum_head;
	void *base;
	int rc = -2;		/* not the file's fault */

	*out = NULL;
	*lanes_out = NULL;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		reason = "not a regular file";
		goto bad;
	}
	if (check_head(fd, key, &sb, &h, &nscal, &nsect, &sum_head,
	    &reason) < 0) {
		rc = strcmp(reason, "out of memory") == 0 ? -2 : -1;
		goto bad;
	}
	base = mmap(NULL, (size_t)h.size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (base == MAP_FAILED) {
		reason = "cannot be mapped";
		goto bad;
	}
	if (!sections_sound(base, &h, head_size(nscal, nsect), sum_head)) {
		munmap(base, (size_t)h.size);
		reason = "damaged (its checksum does not match)";
		rc = -1;
		goto bad;
	}
	if ((img = calloc(1, sizeof *img)) == NULL ||
	    (w.lanes = calloc(1, sizeof *w.lanes)) == NULL ||
	    (m = d9m_model_new()) == NULL) {
		munmap(base, (size_t)h.size);
		free(img);
		free(w.lanes);
		goto bad;
	}
	w.lanes->mapped = 1;
	img->base = base;
	img->size = (size_t)h.size;
	d9m_builder_free(m);
	m->image = img;
	w.m = m;
	w.base = base;
	w.size = img->size;
	w.scal = (uint64_t *)(img->base + sizeof h);
	w.sect = (struct sect *)(img->base + sizeof h + nscal * 8);
	scalars(&w, m);
	arrays(&w, m);
	if (w.bad) {
		reason = w.why != NULL ? w.why : "damaged";
		rc = strcmp(reason, "out of memory") == 0 ? -2 : -1;
		d9m_lanes_free(&w.lanes);
		d9m_model_free(&m);
		goto bad;
	}
	m->finished = 1;
	*out = m;
	*lanes_out = w.lanes;	/* points into m's mapping: free it first */
	return 0;
bad:
	snprintf(why, whylen, "%s", reason);
	return rc;
}

int
d9m_image_is(const struct d9m_model *m)
{
	return m->image != NULL;
}

void
d9m_image_free(struct d9m_model *m)
{
	if (m->image == NULL)
		return;
	munmap(m->image->base, m->image->size);
	free(m->image);
	m->image = NULL;
}
