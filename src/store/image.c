/*
 * image.c: see image.h. The file is
 *
 *	header (struct hdr)
 *	scalars: nscal u64 (table sizes, counts, figures of the model)
 *	section table: nsect x { u64 offset, u64 bytes }
 *	sections, each at a multiple of 64 bytes
 *
 * One walk over the model (image_walk.h) says what is in the file, in
 * order; writing and opening both run it, so the two cannot disagree.
 * The header's layout value is a checksum of the table descriptors and
 * of the sizes of the model's structs: an image written by a d9top whose
 * model differs is refused as "another layout".
 *
 * The header's sum covers the scalars, the section table and the
 * sections. The sections are summed in two stripes, blocks of
 * D9I_IMG_STRIPE bytes taken in turn (even blocks, odd blocks), so that
 * opening checks them on two cores. Opening reads them with pread, not
 * through the mapping: copying from the page cache costs a third of
 * faulting the pages in and dropping them again, and the process then
 * holds only what the views read.
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
#include "base/statm.h"
#include "base/sum.h"
#include "model/core/build.h"
#include "store/image.h"
#include "store/image_walk.h"
#include "model/queries/lanes.h"
#include "model/core/par.h"
#include "model/core/tables.h"

#define MAGIC		"D9TIMG\r\n"
#define VERSION		13	/* 2: sections summed in two stripes; 3: span
				 * events by tag (struct d9m_spantags); 4:
				 * wakes of task 0 kept; 5: runtime events
				 * by tag (struct d9m_rttags); 6: of them
				 * only ts and lq; 7: polls without their
				 * worker column; 8: segment twins, dump
				 * idle gaps, the samples' stacks; 9: the
				 * switch sampling's duty cycle; 10: the
				 * recorder's cost (struct d9m_cost); 11:
				 * active tasks count those alive before
				 * the trace, damaged, deleted, missing
				 * segments; 12: kind-annotated events are
				 * metric series, a hostname names a host;
				 * 13: scheduling delays in 32 bits */
#define CHUNK		(1u << 20)

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

_Static_assert(sizeof(struct hdr) == D9I_IMAGE_HEAD, "image.h's head");

/* The mapping, owned by a mapped model (its backing). */
struct mapping {
	uint8_t		*base;
	size_t		 size;
};

/* The header's sum: the head's (scalars, section table) and the
 * stripes'. */
static uint64_t
whole_sum(uint64_t head, const struct d9_sum sum[2])
{
	uint64_t b = d9_sum_end(&sum[1]);

	return head ^ d9_sum_end(&sum[0]) ^ (b << 17 | b >> 47);
}

/* What the model looks like to this build: any change to a table, a
 * derived struct or the model itself gives another value. */
static uint64_t
layout_sum(void)
{
	struct d9m_model *m = calloc(1, sizeof *m);
	struct d9m_tabref t[D9M_NTABLES];
	struct d9_sum s;
	size_t n, sizes[] = { sizeof(struct d9m_model),
	    sizeof(struct d9m_worker), sizeof(struct d9m_runtime),
	    sizeof(struct d9m_loss), sizeof(struct d9m_cost),
	    sizeof(struct d9m_spans),
	    sizeof(struct d9m_appev), sizeof(struct d9_intern),
	    sizeof(struct d9_hmap), VERSION };

	d9_sum_init(&s);
	d9_sum_add(&s, sizes, sizeof sizes);
	if (m != NULL) {
		n = d9i_iwalk_tables(m, t);
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


static size_t
head_size(size_t nscal, size_t nsect)
{
	size_t n = sizeof(struct hdr) + nscal * 8 +
	    nsect * sizeof(struct d9i_img_sect);

	return (n + D9I_IMG_ALIGN - 1) / D9I_IMG_ALIGN * D9I_IMG_ALIGN;
}

uint64_t
d9i_image_head(void)
{
	size_t nscal, nsect;

	return d9i_iwalk_count(&nscal, &nsect) < 0 ? 0 :
	    head_size(nscal, nsect);
}

uint64_t
d9i_image_size(const struct d9m_model *cm, const struct d9m_lanes *x)
{
	struct d9m_model *m = (struct d9m_model *)cm;	/* only read */
	struct d9i_iwalk w = { .mode = D9I_IW_WRITE, .m = m, .fd = -1,
	    .lanes = (struct d9m_lanes *)x };
	size_t nscal, nsect;

	if (d9i_iwalk_count(&nscal, &nsect) < 0)
		return UINT64_MAX;
	w.at = head_size(nscal, nsect);
	w.scal = calloc(nscal + 1, sizeof *w.scal);
	w.sect = calloc(nsect + 1, sizeof *w.sect);
	if (w.scal != NULL && w.sect != NULL) {
		d9i_iwalk_scalars(&w, m);
		d9i_iwalk_arrays(&w, m);
	}
	free(w.scal);
	free(w.sect);
	return w.scal != NULL && w.sect != NULL ? w.at : UINT64_MAX;
}

int
d9i_image_write(const struct d9m_model *cm, const struct d9m_lanes *x,
    int fd, uint64_t key, const _Atomic int *cancel)
{
	struct d9m_model *m = (struct d9m_model *)cm;	/* writing only reads */
	struct d9i_iwalk w = { .mode = D9I_IW_WRITE, .m = m, .fd = fd,
	    .lanes = (struct d9m_lanes *)x, .cancel = cancel };
	struct hdr h;
	size_t nscal, nsect, head;
	int rc = -1;

	if (d9i_iwalk_count(&nscal, &nsect) < 0) {
		errno = ENOMEM;
		return -1;
	}
	head = head_size(nscal, nsect);
	w.scal = calloc(nscal + 1, sizeof *w.scal);
	w.sect = calloc(nsect + 1, sizeof *w.sect);
	w.buf = malloc(D9I_IMG_WBUF);
	if (w.scal == NULL || w.sect == NULL || w.buf == NULL) {
		errno = ENOMEM;
		goto out;
	}
	d9i_iwalk_scalars(&w, m);
	/* sections first, after room for the head; the head last */
	if (lseek(fd, (off_t)head, SEEK_SET) < 0)
		goto out;
	w.at = w.body = head;
	d9_sum_init(&w.sum[0]);
	d9_sum_init(&w.sum[1]);
	d9i_iwalk_arrays(&w, m);
	d9i_iwalk_flush(&w);
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

		if (d9_pread_full(fd, buf, want, from) != 0) {
			free(buf);
			return -1;
		}
		d9_sum_add(&s, buf, want);
		from += want;
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

	if (d9_pread_full(fd, h, sizeof *h, 0) != 0) {
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
	if (d9i_iwalk_count(nscal, nsect) < 0) {
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

/* Every page of the mapping [base, base + size) leaves the process; the
 * page cache keeps them, and the next read maps them again. */
static void
give_back(const uint8_t *base, size_t size)
{
	madvise((void *)base, size, MADV_DONTNEED);
}

/* The pages of the mapping go back once the process holds more than
 * keep bytes of file pages (d9m_model_release), or when that cannot be
 * told (no process holds none: its program is one). */
static void
mapping_release(void *ctx, size_t keep)
{
	struct mapping *img = ctx;
	size_t held = keep == 0 ? 0 : d9_statm(D9_STATM_SHARED);

	if (held == 0 || held > keep)
		give_back(img->base, img->size);
}

static void
mapping_free(void *ctx)
{
	struct mapping *img = ctx;

	munmap(img->base, img->size);
	free(img);
}

#define CHECK_STEP	D9I_IMAGE_STEP	/* read, summed, checked while
					 * in the cache */
#define AROUND		64	/* bytes read each side of a step: the
				 * element before, the last one's end */

/* One stripe of the sections of an image, summed and checked. */
struct stripe {
	const uint8_t	*base;		/* the image in memory, or NULL */
	int		 fd;		/* else read from this file */
	uint64_t	 from, to;	/* the sections: [from, to) of the file */
	int		 which;
	const struct d9m_model *m;	/* mapped from it */
	const struct d9i_icheck *checks;	/* image_check.h */
	size_t		 nchecks;
	struct d9_sum	 sum;
	int		 bad;		/* a check failed, or a read */
	uint8_t		*buf;		/* reads: a step and AROUND each side */
};

/* The bytes [c, ce) of the stripe's image (with AROUND bytes each side,
 * where the image has them), p as aligned as c modulo 64: NULL when
 * they cannot be read. Reads copy from the page cache, which costs a
 * third of faulting the mapping's pages in and dropping them again. */
static const uint8_t *
step_bytes(struct stripe *st, uint64_t c, uint64_t ce)
{
	uint64_t pre = c - st->from < AROUND ? c - st->from : AROUND;
	uint64_t post = st->to - ce < AROUND ? st->to - ce : AROUND;
	uint8_t *p;

	if (st->base != NULL)
		return st->base + c;
	p = st->buf + AROUND + c % 64;
	return d9_pread_full(st->fd, p - pre, (size_t)(pre + (ce - c) + post),
	    c - pre) == 0 ? p : NULL;
}

static int
sum_stripe(void *arg)
{
	struct stripe *st = arg;

	d9_sum_init(&st->sum);
	for (uint64_t b = (uint64_t)st->which * D9I_IMG_STRIPE;
	    st->from + b < st->to; b += 2 * D9I_IMG_STRIPE) {
		uint64_t a = st->from + b, e = a + D9I_IMG_STRIPE < st->to ?
		    a + D9I_IMG_STRIPE : st->to;

		for (uint64_t c = a; c < e; c += CHECK_STEP) {
			uint64_t ce = e - c > CHECK_STEP ? c + CHECK_STEP : e;
			const uint8_t *p = step_bytes(st, c, ce);

			if (p == NULL) {	/* the sum cannot match */
				st->bad = 1;
				return 0;
			}
			d9_sum_add(&st->sum, p, (size_t)(ce - c));
			if (!st->bad && d9i_icheck_run(st->m, st->checks,
			    st->nchecks, p, c, ce) < 0)
				st->bad = 1;
		}
	}
	return 0;
}

/* The sum of the sections [head, size) of the image (in memory at base,
 * or else read from fd), checked by the checks c[0 .. nc) on the way
 * (*bad: one failed, or a read), on two cores. -1 when no thread or
 * buffer could be made. */
static int
sections_sum(const uint8_t *base, int fd, uint64_t head, uint64_t size,
    uint64_t sum_head, const struct d9m_model *m,
    const struct d9i_icheck *c, size_t nc, uint64_t *sum, int *bad)
{
	struct stripe st[2];
	struct d9m_job jobs[2];
	struct d9_sum sums[2];
	int rc = 0;

	for (int i = 0; i < 2; i++) {
		st[i] = (struct stripe){ .base = base, .fd = fd, .from = head,
		    .to = size, .which = i, .m = m, .checks = c,
		    .nchecks = nc };
		jobs[i] = (struct d9m_job){ sum_stripe, &st[i] };
		if (base == NULL && (st[i].buf = aligned_alloc(64, (size_t)
		    (CHECK_STEP + 4 * AROUND))) == NULL)
			rc = -1;
	}
	if (rc == 0)
		rc = d9m_par_run(jobs, 2);
	free(st[0].buf);
	free(st[1].buf);
	if (rc < 0)
		return -1;
	sums[0] = st[0].sum;
	sums[1] = st[1].sum;
	*sum = whole_sum(sum_head, sums);
	*bad = st[0].bad || st[1].bad;
	return 0;
}

/* Whether the sections of the image in fd (mapped at base) match h's
 * sum; *bad when one of the checks c[0 .. nc) fails. */
static int
sections_sound(int fd, const uint8_t *base, const struct hdr *h,
    uint64_t head, uint64_t sum_head, const struct d9m_model *m,
    const struct d9i_icheck *c, size_t nc, int *bad)
{
	uint64_t sum;

	if (sections_sum(NULL, fd, head, h->size, sum_head, m, c, nc, &sum,
	    bad) < 0)
		return 0;
	/* what the walk brought in (a large folio of the page cache is
	 * mapped whole) */
	give_back(base, (size_t)h->size);
	return sum == h->sum;
}

/* The model of the image in fd mapped at base (h, nscal, nsect
 * checked): 0
 * with *out and *lanes_out; -1 (damaged) or -2 (out of memory) with
 * *reason, base unmapped. The checks of its columns, when checks is
 * given. */
static int
map_model(int fd, uint8_t *base, const struct hdr *h, size_t nscal,
    size_t nsect, uint64_t sum_head, struct d9m_model **out, struct d9m_lanes **lanes_out,
    const char **reason, struct d9i_icheck **checks, size_t *nchecks)
{
	struct d9i_iwalk w = { .mode = D9I_IW_LOAD };
	struct mapping *img = calloc(1, sizeof *img);
	struct d9m_model *m = NULL;
	uint64_t head = head_size(nscal, nsect);
	int bad = 0, rc = -1;

	*reason = "out of memory";
	if (img == NULL || (w.lanes = calloc(1, sizeof *w.lanes)) == NULL ||
	    (m = d9m_model_new()) == NULL) {
		munmap(base, (size_t)h->size);
		free(img);
		free(w.lanes);
		return -2;
	}
	w.lanes->mapped = 1;
	img->base = base;
	img->size = (size_t)h->size;
	d9m_builder_free(m);
	m->backing = (struct d9m_backing){ mapping_release, mapping_free,
	    img };
	w.m = m;
	w.base = base;
	w.size = img->size;
	w.at = head;		/* the first section comes after the head */
	w.scal = (uint64_t *)(void *)(base + sizeof *h);
	w.sect = (struct d9i_img_sect *)(void *)(base + sizeof *h +
	    nscal * 8);
	/* the walk only maps and sizes (and copies a few small arrays):
	 * the values are checked with the sum, in one read of the file */
	d9i_iwalk_scalars(&w, m);
	d9i_iwalk_arrays(&w, m);
	if (w.bad) {
		*reason = w.why != NULL ? w.why : "damaged";
		rc = strcmp(*reason, "out of memory") == 0 ? -2 : -1;
		/* a damaged file says so first */
		if (rc == -1 && !sections_sound(fd, base, h, head, sum_head, m,
		    NULL, 0, &bad))
			*reason = "damaged (its checksum does not match)";
	} else if (!sections_sound(fd, base, h, head, sum_head, m, w.checks,
	    w.nchecks, &bad))
		*reason = "damaged (its checksum does not match)";
	else if (bad)
		*reason = "a column holds a row beyond its table";
	else if (d9i_icheck_model(m, reason) == 0)
		rc = 0;
	if (rc < 0) {
		free(w.checks);
		d9m_lanes_free(&w.lanes);
		d9m_model_free(&m);
		return rc;
	}
	m->finished = 1;
	*out = m;
	*lanes_out = w.lanes;	/* points into m's mapping: free it first */
	if (checks != NULL) {
		*checks = w.checks;
		*nchecks = w.nchecks;
	} else
		free(w.checks);
	return 0;
}

static int
image_open(int fd, uint64_t key, struct d9m_model **out,
    struct d9m_lanes **lanes_out, char *why, size_t whylen,
    struct d9i_icheck **checks, size_t *nchecks)
{
	struct stat sb;
	struct hdr h;
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
	/* a view reads a few rows here and there: no fault may bring in a
	 * huge page's worth of the file (on 6.x kernels a fault maps a
	 * large folio of the page cache whole: a 1 s window of a 2.7 GB
	 * index then held 240 MB of it instead of 41) */
	madvise(base, (size_t)h.size, MADV_NOHUGEPAGE);
	if ((rc = map_model(fd, base, &h, nscal, nsect, sum_head, out, lanes_out,
	    &reason, checks, nchecks)) == 0)
		return 0;
bad:
	snprintf(why, whylen, "%s", reason);
	return rc;
}

int
d9i_image_open(int fd, uint64_t key, struct d9m_model **out,
    struct d9m_lanes **lanes, char *why, size_t whylen)
{
	return image_open(fd, key, out, lanes, why, whylen, NULL, NULL);
}

int
d9i_image_checks(int fd, uint64_t key, struct d9i_icheck **checks,
    size_t *n)
{
	struct d9m_model *m;
	struct d9m_lanes *x;
	char why[128];
	int rc = image_open(fd, key, &m, &x, why, sizeof why, checks, n);

	if (rc == 0) {
		d9m_lanes_free(&x);
		d9m_model_free(&m);
	}
	return rc;
}

int
d9i_image_reseal(uint8_t *buf, size_t size, uint64_t key)
{
	struct hdr h;
	size_t nscal, nsect, head;
	uint64_t sum = 0;
	int bad;

	if (size < sizeof h || d9i_iwalk_count(&nscal, &nsect) < 0)
		return -1;
	head = head_size(nscal, nsect);
	memset(&h, 0, sizeof h);
	memcpy(h.magic, MAGIC, 8);
	h.version = VERSION;
	h.layout = layout_sum();
	h.key = key;
	h.size = size;
	h.nscal = nscal;
	h.nsect = nsect;
	if (size >= head && sections_sum(buf, -1, head, size,
	    d9_sum_of(buf + sizeof h, head - sizeof h), NULL, NULL, 0, &sum,
	    &bad) < 0)
		return -1;
	h.sum = sum;
	h.hsum = d9_sum_of(&h, sizeof h);
	memcpy(buf, &h, sizeof h);
	return 0;
}

int
d9i_image_is(const struct d9m_model *m)
{
	return m->backing.free == mapping_free;
}
