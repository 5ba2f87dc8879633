/*
 * rewrite.c: see rewrite.h. One record per batch: where it begins, how
 * many of its bytes the decoder consumed, their CRC-32 (zlib's). At most
 * MAX_BATCHES are kept (the oldest half goes when full): a file cut
 * below the oldest kept is read again from there, skipping to a header.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "base/io.h"
#include "base/vec.h"
#include "parse/rewrite.h"

#define MAX_BATCHES	(1u << 16)
#define TAIL		64		/* last bytes read, compared */
#define CHECK_CHUNK	(64u << 10)

struct batch {
	uint64_t	 off, len;	/* file offset, bytes consumed */
	uint32_t	 crc;
	int		 tainted;	/* not checkable: counts as there */
};

struct d9p_rewrite {
	struct batch	*v;
	size_t		 n, cap;
	uint8_t		 tail[TAIL];
	size_t		 ntail;
};

struct d9p_rewrite *
d9p_rewrite_new(void)
{
	return calloc(1, sizeof(struct d9p_rewrite));
}

void
d9p_rewrite_free(struct d9p_rewrite **prw)
{
	if (*prw != NULL)
		free((*prw)->v);
	free(*prw);
	*prw = NULL;
}

void
d9p_rewrite_header(struct d9p_rewrite *rw, uint64_t off)
{
	struct batch *b;

	if (rw->n == MAX_BATCHES) {
		rw->n /= 2;
		memmove(rw->v, rw->v + rw->n, rw->n * sizeof *rw->v);
	}
	if (d9_grow(&rw->v, &rw->cap, rw->n + 1, sizeof *rw->v) < 0) {
		rw->n = 0;	/* out of memory: nothing to check against */
		return;
	}
	b = &rw->v[rw->n++];
	b->off = off;
	b->len = 0;
	b->crc = (uint32_t)crc32(0, NULL, 0);
	b->tainted = 0;
}

void
d9p_rewrite_bytes(struct d9p_rewrite *rw, uint64_t off, const uint8_t *p,
    size_t n)
{
	size_t i = rw->n;

	/* the batch holding off: the newest that begins at or before it */
	while (i > 0 && rw->v[i - 1].off > off)
		i--;
	if (i == 0)
		return;		/* bytes before the first header */
	for (i--; n > 0; i++) {
		struct batch *b = &rw->v[i];
		uint64_t next = i + 1 < rw->n ? rw->v[i + 1].off : UINT64_MAX;
		size_t k = next - off < n ? (size_t)(next - off) : n;

		if (b->off + b->len != off || p == NULL)
			b->tainted = 1;
		else
			b->crc = (uint32_t)crc32(b->crc, p, (uInt)k);
		b->len = off + k - b->off;
		off += k;
		n -= k;
		if (p != NULL)
			p += k;
	}
}

void
d9p_rewrite_taint(struct d9p_rewrite *rw)
{
	if (rw->n > 0)
		rw->v[rw->n - 1].tainted = 1;
}

void
d9p_rewrite_read(struct d9p_rewrite *rw, const uint8_t *p, size_t n)
{
	if (n >= TAIL) {
		memcpy(rw->tail, p + n - TAIL, TAIL);
		rw->ntail = TAIL;
		return;
	}
	if (rw->ntail + n > TAIL) {
		size_t drop = rw->ntail + n - TAIL;

		memmove(rw->tail, rw->tail + drop, rw->ntail - drop);
		rw->ntail -= drop;
	}
	memcpy(rw->tail + rw->ntail, p, n);
	rw->ntail += n;
}

/* Whether batch b's bytes are still in fd (size bytes long): 1 yes, 0
 * no, -1 an error. */
static int
intact(const struct batch *b, int fd, uint64_t size, uint8_t *buf)
{
	uint32_t crc = (uint32_t)crc32(0, NULL, 0);

	if (b->off + b->len > size)
		return 0;
	if (b->tainted)
		return 1;
	for (uint64_t at = 0; at < b->len; ) {
		size_t k = b->len - at < CHECK_CHUNK ? (size_t)(b->len - at) :
		    CHECK_CHUNK;
		int rc = d9_pread_full(fd, buf, k, b->off + at);

		if (rc != 0)
			return rc < 0 ? -1 : 0;
		crc = (uint32_t)crc32(crc, buf, (uInt)k);
		at += k;
	}
	return crc == b->crc;
}

/* Whether the file still ends, at pos, with the bytes read last. */
static int
tail_same(const struct d9p_rewrite *rw, int fd, uint64_t pos)
{
	uint8_t buf[TAIL];

	if (rw->ntail == 0 || pos < rw->ntail)
		return 1;
	return d9_pread_full(fd, buf, rw->ntail, pos - rw->ntail) == 0 &&
	    memcmp(buf, rw->tail, rw->ntail) == 0;
}

int
d9p_rewrite_check(struct d9p_rewrite *rw, int fd, uint64_t pos, uint64_t *at,
    int *keep)
{
	struct stat sb;
	uint8_t *buf;
	size_t i;
	int rc = 0;

	if (fstat(fd, &sb) < 0)
		return -1;
	if ((uint64_t)sb.st_size >= pos && tail_same(rw, fd, pos))
		return 0;
	if ((buf = malloc(CHECK_CHUNK)) == NULL)
		return -1;
	/* the newest batch still all there */
	for (i = rw->n; i > 0; i--)
		if ((rc = intact(&rw->v[i - 1], fd, (uint64_t)sb.st_size,
		    buf)) != 0)
			break;
	free(buf);
	if (rc < 0)
		return -1;
	*keep = i == rw->n && i > 0;
	if (*keep)
		*at = rw->v[i - 1].off + rw->v[i - 1].len;
	else
		*at = i < rw->n ? rw->v[i].off : 0;
	rw->n = i;	/* the batches after it are read again */
	rw->ntail = 0;
	return 1;
}
