/*
 * input.c: a small state machine over an input buffer.
 *
 *   SNIFF --1f 8b--> GZIP --member end--> SNIFF
 *         --28 b5 2f fd--> ZSTD --frame end--> SNIFF
 *         --anything else--> RAW --pushback of a magic--> SNIFF
 *   GZIP, ZSTD --damage--> SCAN --1f 8b 08, 28 b5 2f fd--> SNIFF
 *
 * Damage (bad data, a bad check) costs the member it is in (ANALYSIS
 * 19.1): the error is handed out once, after the bytes decoded before
 * it, and the next read scans the compressed bytes for the next gzip
 * member or zstd frame and goes on from there.
 *
 * Raw mode cannot know where raw bytes end, so the frame decoder, which
 * sees a gzip or zstd magic where a frame tag should be, hands the bytes
 * back (d9p_input_pushback) and they are sniffed again.
 *
 * An input opened on a file decompressed whole (whole.h) skips all this:
 * it hands out the decoded bytes as one long gzip member would, copied
 * (d9p_input_read) or in place (d9p_input_view).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "base/wire.h"
#include "parse/ahead.h"
#include "parse/input.h"
#include "parse/whole.h"

#define IN_CHUNK (256 * 1024)

struct d9p_input {
	int		 fd;
	int		 eof;		/* fd has no more bytes */
	enum d9p_container mode;
	unsigned	 kinds;
	uint8_t		*ib;		/* compressed input buffer */
	size_t		 icap, ipos, iend;
	uint64_t	 consumed;	/* bytes read from fd */
	uint64_t	 decoded;	/* decoded bytes handed out */
	uint64_t	 raw_since;
	z_stream	 z;
	int		 z_init;
	ZSTD_DStream	*zs;
	struct d9_err	 pending;	/* an error behind the last bytes */
	int		 scan;		/* after damage: look for a start */
	uint64_t	 member_at;	/* input offset of the member */
	int		 mem;		/* reading whole, not fd */
	struct d9p_whole whole;
	/* decompressed ahead on another thread (d9p_input_ahead): what
	 * the input was after the bytes handed out last */
	struct d9p_ahead *ahead;
	struct d9p_ahead_snap snap;
};

int
d9p_input_open_fd(struct d9p_input **out, int fd, struct d9_err *e)
{
	struct d9p_input *in = calloc(1, sizeof *in);

	*out = NULL;
	if (in == NULL || (in->ib = malloc(IN_CHUNK)) == NULL) {
		free(in);
		if (fd >= 0)
			close(fd);
		return d9_err_set(e, D9_ERR_NOMEM, 0, "out of memory");
	}
	in->fd = fd;
	in->icap = IN_CHUNK;
	in->raw_since = UINT64_MAX;
	*out = in;
	return 0;
}

int
d9p_input_open_whole(struct d9p_input **out, struct d9p_whole *w,
    struct d9_err *e)
{
	int rc = d9p_input_open_fd(out, -1, e);

	if (rc < 0) {
		d9p_whole_free(w);
		return rc;
	}
	(*out)->mem = 1;
	(*out)->whole = *w;
	(*out)->mode = D9P_C_GZIP;
	(*out)->kinds = 1u << D9P_C_GZIP;
	memset(w, 0, sizeof *w);
	return 0;
}

void
d9p_input_close(struct d9p_input **pin)
{
	struct d9p_input *in = *pin;

	if (in == NULL)
		return;
	d9p_ahead_free(&in->ahead);
	if (in->z_init)
		inflateEnd(&in->z);
	ZSTD_freeDStream(in->zs);
	d9p_whole_free(&in->whole);
	if (in->fd >= 0)
		close(in->fd);
	free(in->ib);
	free(in);
	*pin = NULL;
}

/* Offset in the file of the next unread input byte. */
static uint64_t
in_off(const struct d9p_input *in)
{
	return in->consumed - (in->iend - in->ipos);
}

/* Make sure at least `want` unread bytes are buffered unless at EOF. */
static int
fill(struct d9p_input *in, size_t want, struct d9_err *e)
{
	while (!in->eof && in->iend - in->ipos < want) {
		ssize_t r;

		if (in->ipos > 0) {
			memmove(in->ib, in->ib + in->ipos, in->iend - in->ipos);
			in->iend -= in->ipos;
			in->ipos = 0;
		}
		r = read(in->fd, in->ib + in->iend, in->icap - in->iend);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return d9_err_set(e, D9_ERR_IO, in_off(in), "%s",
			    strerror(errno));
		}
		if (r == 0)
			in->eof = 1;
		in->iend += (size_t)r;
		in->consumed += (uint64_t)r;
	}
	return 0;
}

/* How a gzip member (deflate) and a zstd frame begin. */
static const uint8_t gz_start[] = { D9_GZIP_MAGIC0, D9_GZIP_MAGIC1, 8 };
static const uint8_t zstd_start[] = { 0x28, 0xb5, 0x2f, 0xfd };

/* Whether p[0, n) (n < 4, the input's last bytes) is the start of a gzip
 * or zstd magic: a file still written may have only these yet. */
static int
is_magic_start(const uint8_t *p, size_t n)
{
	return (n < 2 && memcmp(p, gz_start, n) == 0) ||
	    memcmp(p, zstd_start, n) == 0;
}

/* What the next bytes are (in->mode): 1, or 0 at a clean end, 2 when
 * the input ends inside a magic (cut: a tail goes on once it grew), or
 * an error's -code. */
static int
sniff(struct d9p_input *in, struct d9_err *e)
{
	const uint8_t *p;
	size_t n;
	int rc = fill(in, 4, e);

	if (rc < 0)
		return rc;
	p = in->ib + in->ipos;
	n = in->iend - in->ipos;
	if (n == 0)
		return 0;		/* clean end */
	if (n < 4 && is_magic_start(p, n))
		return 2;		/* the input ended in a magic */
	in->member_at = in_off(in);
	if (n >= 2 && p[0] == D9_GZIP_MAGIC0 && p[1] == D9_GZIP_MAGIC1) {
		if (!in->z_init) {
			memset(&in->z, 0, sizeof in->z);
			if (inflateInit2(&in->z, 15 + 32) != Z_OK)
				return d9_err_set(e, D9_ERR_NOMEM, in_off(in),
				    "zlib: cannot initialise");
			in->z_init = 1;
		} else if (inflateReset(&in->z) != Z_OK)
			return d9_err_set(e, D9_ERR_CONTAINER, in_off(in),
			    "zlib: cannot reset");
		in->mode = D9P_C_GZIP;
	} else if (n >= 4 && (uint32_t)(p[0] | p[1] << 8 | p[2] << 16 |
	    (uint32_t)p[3] << 24) == D9_ZSTD_MAGIC) {
		if (in->zs == NULL && (in->zs = ZSTD_createDStream()) == NULL)
			return d9_err_set(e, D9_ERR_NOMEM, in_off(in),
			    "zstd: cannot initialise");
		ZSTD_initDStream(in->zs);
		in->mode = D9P_C_ZSTD;
	} else {
		in->mode = D9P_C_RAW;
		in->raw_since = in->decoded;
	}
	in->kinds |= 1u << in->mode;
	return 1;
}

/*
 * Whether p[0, n) begins a gzip member (deflate) or a zstd frame. Not a
 * raw batch header: a compressed member may hold its bytes as they are
 * (a stored block), and the damaged member is not to be read.
 */
static int
is_start(const uint8_t *p, size_t n)
{
	return (n >= sizeof gz_start &&
	    memcmp(p, gz_start, sizeof gz_start) == 0) ||
	    (n >= sizeof zstd_start &&
	    memcmp(p, zstd_start, sizeof zstd_start) == 0);
}

/* After damage: skip to the next start (is_start), at least one byte
 * past the damaged member's. 1 found, 0 the input ended first. */
static int
scan(struct d9p_input *in, struct d9_err *e)
{
	if (in_off(in) == in->member_at && in->ipos < in->iend)
		in->ipos++;		/* its magic is no start */
	for (;;) {
		size_t n, i, keep;
		int rc = fill(in, 4, e);

		if (rc < 0)
			return rc;
		n = in->iend - in->ipos;
		/* a start may begin in the last bytes and go on later */
		keep = in->eof ? 0 : 3;
		for (i = 0; i + keep < n; i++)
			if (is_start(in->ib + in->ipos + i, n - i)) {
				in->ipos += i;
				in->scan = 0;
				return 1;
			}
		in->ipos += i;
		if (in->eof)
			return 0;
	}
}

/*
 * A container error. Bytes the same call decoded before it are handed
 * out first (they precede the damage); the error is then reported by
 * the next read, once, and the read after it scans for the next start.
 */
static ssize_t
container_error(struct d9p_input *in, size_t produced, struct d9_err *e)
{
	in->mode = D9P_C_NONE;
	in->scan = 1;
	if (produced == 0)
		return -e->code;
	in->pending = *e;
	d9_err_clear(e);
	return (ssize_t)produced;
}

static ssize_t
read_gzip(struct d9p_input *in, uint8_t *buf, size_t cap, int *cut,
    struct d9_err *e)
{
	for (;;) {
		size_t avail;
		int zr, rc = fill(in, 1, e);

		if (rc < 0)
			return rc;
		avail = in->iend - in->ipos;
		if (avail == 0) {
			/* input ended inside a member: the member stays
			 * open, for a file still written (parse/follow.h)
			 * goes on with it once it grew */
			*cut = 1;
			return 0;
		}
		in->z.next_in = in->ib + in->ipos;
		in->z.avail_in = (uInt)avail;
		in->z.next_out = buf;
		in->z.avail_out = (uInt)cap;
		zr = inflate(&in->z, Z_NO_FLUSH);
		in->ipos += avail - in->z.avail_in;
		if (zr == Z_STREAM_END)
			in->mode = D9P_C_NONE;
		else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			d9_err_set(e, D9_ERR_CONTAINER, in_off(in), "gzip: %s",
			    in->z.msg ? in->z.msg : "bad data");
			return container_error(in, cap - in->z.avail_out, e);
		}
		if (cap - in->z.avail_out > 0 || in->mode == D9P_C_NONE)
			return (ssize_t)(cap - in->z.avail_out);
	}
}

static ssize_t
read_zstd(struct d9p_input *in, uint8_t *buf, size_t cap, int *cut,
    struct d9_err *e)
{
	for (;;) {
		ZSTD_inBuffer ib;
		ZSTD_outBuffer ob = { buf, cap, 0 };
		size_t zr;
		int rc = fill(in, 1, e);

		if (rc < 0)
			return rc;
		ib.src = in->ib + in->ipos;
		ib.size = in->iend - in->ipos;
		ib.pos = 0;
		if (ib.size == 0) {
			*cut = 1;	/* as in read_gzip */
			return 0;
		}
		zr = ZSTD_decompressStream(in->zs, &ob, &ib);
		in->ipos += ib.pos;
		if (ZSTD_isError(zr)) {
			d9_err_set(e, D9_ERR_CONTAINER, in_off(in), "zstd: %s",
			    ZSTD_getErrorName(zr));
			return container_error(in, ob.pos, e);
		}
		if (zr == 0)
			in->mode = D9P_C_NONE;
		if (ob.pos > 0 || in->mode == D9P_C_NONE)
			return (ssize_t)ob.pos;
	}
}

ssize_t
d9p_input_view(struct d9p_input *in, uint8_t **p, size_t cap)
{
	struct d9p_whole *w = &in->whole;
	size_t pos = (size_t)in->decoded, n;

	*p = NULL;
	if (!in->mem)
		return -1;
	n = w->n - pos;
	if (n > cap)
		n = cap;
	*p = w->p + pos;
	in->decoded += n;
	/* its compressed bytes count consumed in proportion */
	in->consumed = w->n > 0 ? w->csize * in->decoded / w->n : w->csize;
	return (ssize_t)n;
}

void
d9p_input_done(struct d9p_input *in, uint64_t off)
{
	if (in->mem && off <= in->decoded)
		d9p_whole_release(&in->whole, (size_t)off);
}

/* The next bytes of a whole file, copied: done with once copied. */
static ssize_t
read_whole(struct d9p_input *in, uint8_t *buf, size_t cap)
{
	uint8_t *p;
	ssize_t n = d9p_input_view(in, &p, cap);

	if (n > 0)
		memcpy(buf, p, (size_t)n);
	d9p_input_done(in, in->decoded);
	return n;
}

static ssize_t
read_direct(struct d9p_input *in, uint8_t *buf, size_t cap, int *cut,
    struct d9_err *e)
{
	*cut = 0;
	if (in->mem)
		return read_whole(in, buf, cap);
	if (in->pending.code != 0) {
		*e = in->pending;
		d9_err_clear(&in->pending);
		return -e->code;
	}
	for (;;) {
		ssize_t r;
		size_t n;
		int rc;

		switch (in->mode) {
		case D9P_C_NONE:
			in->raw_since = UINT64_MAX;
			if (in->scan && (rc = scan(in, e)) <= 0)
				return rc;
			rc = sniff(in, e);
			if (rc == 2)
				*cut = 1;
			if (rc <= 0 || rc == 2)
				return rc == 2 ? 0 : rc;
			continue;
		case D9P_C_GZIP:
			r = read_gzip(in, buf, cap, cut, e);
			break;
		case D9P_C_ZSTD:
			r = read_zstd(in, buf, cap, cut, e);
			break;
		case D9P_C_RAW:
		default:
			if ((rc = fill(in, 1, e)) < 0)
				return rc;
			n = in->iend - in->ipos;
			if (n > cap)
				n = cap;
			memcpy(buf, in->ib + in->ipos, n);
			in->ipos += n;
			r = (ssize_t)n;
			break;
		}
		if (r < 0 || *cut)
			return r;
		if (r > 0) {
			in->decoded += (uint64_t)r;
			return r;
		}
		/* a member that decoded to nothing: sniff the next one */
		if (in->mode == D9P_C_RAW)
			return 0;
	}
}

/* The read done ahead: it stops after raw bytes (only the reader can
 * tell where they end, d9p_input_pushback) and after an error. */
static ssize_t
read_ahead(void *ctx, uint8_t *buf, size_t cap, int *cut, struct d9_err *e,
    struct d9p_ahead_snap *snap)
{
	struct d9p_input *in = ctx;
	ssize_t r = read_direct(in, buf, cap, cut, e);

	/* in->ahead is the reader's: not looked at here */
	snap->consumed = in->consumed;
	snap->raw_since = in->mode == D9P_C_RAW ? in->raw_since : UINT64_MAX;
	snap->kinds = in->kinds;
	snap->last = in->mode == D9P_C_RAW || in->pending.code != 0;
	return r;
}

int
d9p_input_ahead(struct d9p_input *in, size_t chunk)
{
	if (in->mem || in->ahead != NULL || in->decoded > 0)
		return -1;
	in->snap.consumed = in->consumed;
	in->snap.raw_since = UINT64_MAX;
	in->snap.kinds = in->kinds;
	return d9p_ahead_start(&in->ahead, read_ahead, in, chunk);
}

ssize_t
d9p_input_read(struct d9p_input *in, uint8_t *buf, size_t cap, int *cut,
    struct d9_err *e)
{
	ssize_t r;

	if (in->ahead == NULL)
		return read_direct(in, buf, cap, cut, e);
	r = d9p_ahead_read(in->ahead, buf, cap, cut, e, &in->snap);
	if (d9p_ahead_ended(in->ahead))
		d9p_ahead_free(&in->ahead);	/* the input is ours again */
	return r;
}

int
d9p_input_wait(struct d9p_input *in, int ms)
{
	struct pollfd p = { in->fd, POLLIN, 0 };

	if (in->ahead != NULL)
		return d9p_ahead_wait(in->ahead, ms);
	if (in->iend > in->ipos)
		return 1;
	return poll(&p, 1, ms) != 0;
}

size_t
d9p_input_buffered(struct d9p_input *in)
{
	if (in->ahead != NULL)
		return d9p_ahead_queued(in->ahead);
	return in->iend - in->ipos;
}

int
d9p_input_fd(const struct d9p_input *in)
{
	return in->fd;
}

void
d9p_input_rearm(struct d9p_input *in)
{
	if (in->ahead == NULL)	/* else it has not seen the end yet */
		in->eof = 0;
}

int
d9p_input_pushback(struct d9p_input *in, const uint8_t *p, size_t n)
{
	size_t left = in->iend - in->ipos;

	if (in->ahead != NULL || in->mode != D9P_C_RAW ||
	    n > in->decoded - in->raw_since)
		return -1;
	if (n + left > in->icap) {
		uint8_t *nb = malloc(n + left);

		if (nb == NULL)
			return -1;
		memcpy(nb + n, in->ib + in->ipos, left);
		free(in->ib);
		in->ib = nb;
		in->icap = n + left;
	} else
		memmove(in->ib + n, in->ib + in->ipos, left);
	memcpy(in->ib, p, n);
	in->ipos = 0;
	in->iend = n + left;
	in->decoded -= n;
	in->mode = D9P_C_NONE;
	in->raw_since = UINT64_MAX;
	return 0;
}

int
d9p_input_seek(struct d9p_input *in, uint64_t off)
{
	if (in->ahead != NULL || in->mem || in->fd < 0 ||
	    (in->kinds & ~(1u << D9P_C_RAW)) != 0 ||
	    lseek(in->fd, (off_t)off, SEEK_SET) < 0)
		return -1;
	in->ipos = in->iend = 0;
	in->consumed = in->decoded = off;
	in->eof = 0;
	in->mode = D9P_C_NONE;
	in->raw_since = UINT64_MAX;
	in->scan = 0;
	d9_err_clear(&in->pending);
	return 0;
}

uint64_t
d9p_input_raw_since(const struct d9p_input *in)
{
	if (in->ahead != NULL)
		return in->snap.raw_since;
	return in->mode == D9P_C_RAW ? in->raw_since : UINT64_MAX;
}

uint64_t
d9p_input_consumed(const struct d9p_input *in)
{
	return in->ahead != NULL ? in->snap.consumed : in->consumed;
}

unsigned
d9p_input_kinds(const struct d9p_input *in)
{
	return in->ahead != NULL ? in->snap.kinds : in->kinds;
}
