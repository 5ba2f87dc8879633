/*
 * segid.c: see segid.h. The first decoded bytes of a file go through a
 * decoder of their own whose sink only notes where the second batch
 * begins and the boot_id of the first SegmentMetadataEvent; nothing
 * reaches the model.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/intern.h"
#include "base/wire.h"
#include "parse/decoder.h"
#include "parse/input.h"
#include "parse/segid.h"

#define PEEK_MAX	D9P_SEGID_BYTES
#define SIZE_CHUNK	(256u << 10)

struct peek {
	int		 batches;
	uint64_t	 second;	/* decoded offset of the second batch */
	char		*boot;		/* of the identity being filled */
	int64_t		*wall_ns;	/* of it too */
};

static void
peek_batch(void *ctx, uint64_t off)
{
	struct peek *p = ctx;

	if (++p->batches == 2)
		p->second = off;
}

static int
peek_event(void *ctx, const struct d9p_schema *s, uint64_t ts,
    const struct d9p_value *v)
{
	struct peek *p = ctx;

	(void)ts;
	if (*p->wall_ns == 0 && strcmp(s->name, "ClockSyncEvent") == 0) {
		for (uint16_t i = 0; i < s->nfields; i++) {
			uint64_t w;

			if (strcmp(s->fields[i].name, "realtime_ns") == 0 &&
			    v[i].present && d9p_value_int(&v[i], &w) == 0 &&
			    w > 0 && w <= INT64_MAX)
				*p->wall_ns = (int64_t)w;
		}
		return 0;
	}
	if (p->boot[0] != '\0' || strcmp(s->name, "SegmentMetadataEvent") != 0)
		return 0;
	for (uint16_t i = 0; i < s->nfields; i++) {
		const char *k, *x;
		uint32_t kl, xl;
		size_t pos = 0;

		if (v[i].type != D9_FT_STRING_MAP || !v[i].present)
			continue;
		while (d9p_map_next(&v[i], &pos, &k, &kl, &x, &xl) == 0) {
			if (kl != 7 || memcmp(k, "boot_id", 7) != 0)
				continue;
			if (xl > 63)
				xl = 63;
			memcpy(p->boot, x, xl);
			p->boot[xl] = '\0';
			return 0;
		}
	}
	return 0;
}

static int
open_input(const char *path, struct d9p_input **in)
{
	struct d9_err e;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return -1;
	d9_err_clear(&e);
	return d9p_input_open_fd(in, fd, &e) < 0 ? -1 : 0;
}

/* Up to cap decoded bytes of in into buf; *end set when the input ended
 * (or broke) before cap. */
static size_t
read_upto(struct d9p_input *in, uint8_t *buf, size_t cap, int *end)
{
	size_t n = 0;

	*end = 0;
	while (n < cap) {
		struct d9_err e;
		int cut;
		ssize_t r;

		d9_err_clear(&e);
		r = d9p_input_read(in, buf + n, cap - n, &cut, &e);
		if (r <= 0) {
			*end = 1;
			break;
		}
		n += (size_t)r;
	}
	return n;
}

int
d9p_segid_of_bytes(const uint8_t *buf, size_t n, int eof,
    struct d9p_segid *id)
{
	struct peek p = { 0, 0, id->boot, &id->wall_ns };
	struct d9p_sink sink;
	struct d9p_decoder *dec = NULL;
	struct d9_err e;
	size_t used = 0, end;
	int rc = -1;

	memset(id, 0, sizeof *id);
	memset(&sink, 0, sizeof sink);
	sink.ctx = &p;
	sink.batch = peek_batch;
	sink.event = peek_event;
	if (d9p_decoder_new(&dec, &sink) < 0)
		return -1;
	d9_err_clear(&e);
	if (n >= PEEK_MAX) {	/* as a file's first PEEK_MAX are read */
		n = PEEK_MAX;
		eof = 0;
	}
	/* an error after the first batch still leaves its bytes known */
	d9p_decoder_feed(dec, buf, n, 0, eof, UINT64_MAX, &used, &e);
	end = p.batches >= 2 ? (size_t)p.second : used;
	if (p.batches > 0 && end > 0) {
		id->hash = d9_hash(buf, end);
		id->len = end;
		rc = 0;
	}
	d9p_decoder_free(&dec);
	return rc;
}

int
d9p_segid_of(const char *path, struct d9p_segid *id)
{
	struct d9p_input *in = NULL;
	uint8_t *buf;
	size_t n;
	int eof, rc = -1;

	memset(id, 0, sizeof *id);
	if ((buf = malloc(PEEK_MAX)) == NULL)
		return -1;
	if (open_input(path, &in) == 0) {
		n = read_upto(in, buf, PEEK_MAX, &eof);
		rc = d9p_segid_of_bytes(buf, n, eof, id);
	}
	d9p_input_close(&in);
	free(buf);
	return rc;
}

int64_t
d9p_decoded_size(const char *path)
{
	struct d9p_input *in = NULL;
	uint8_t *buf = malloc(SIZE_CHUNK);
	int64_t total = -1;
	int end = 0;

	if (buf != NULL && open_input(path, &in) == 0)
		for (total = 0; !end; )
			total += (int64_t)read_upto(in, buf, SIZE_CHUNK, &end);
	d9p_input_close(&in);
	free(buf);
	return total;
}

void
d9p_segcap_init(struct d9p_segcap *c)
{
	memset(c, 0, sizeof *c);
	c->state = D9P_SEGCAP_IDLE;
}

void
d9p_segcap_free(struct d9p_segcap *c)
{
	free(c->buf);
	d9p_segcap_init(c);
}

/* The bytes [off, off + n) of the stream, of which those past what is
 * captured go on its end, up to D9P_SEGID_BYTES. */
static void
take(struct d9p_segcap *c, const uint8_t *w, size_t n, uint64_t off)
{
	uint64_t end = c->from + c->len;
	size_t skip, want;

	if (c->state != D9P_SEGCAP_ON || c->len >= D9P_SEGID_BYTES ||
	    off + n <= end)
		return;
	if (off > end) {		/* bytes the stream never gave */
		c->state = D9P_SEGCAP_LOST;
		return;
	}
	skip = (size_t)(end - off);
	want = n - skip;
	if (want > D9P_SEGID_BYTES - c->len)
		want = D9P_SEGID_BYTES - c->len;
	memcpy(c->buf + c->len, w + skip, want);
	c->len += want;
}

void
d9p_segcap_window(struct d9p_segcap *c, const uint8_t *w, size_t n,
    uint64_t off, int exact)
{
	if (w == NULL) {	/* as a file's first bytes end at damage */
		if (c->state == D9P_SEGCAP_ON)
			c->state = D9P_SEGCAP_CUT;
		else if (c->state == D9P_SEGCAP_IDLE)
			c->tainted = 1;
		c->wlen = 0;
		return;
	}
	c->w = w;
	c->wlen = n;
	c->woff = off;
	c->exact = exact;
	if (c->state == D9P_SEGCAP_ON && !exact && c->len < D9P_SEGID_BYTES)
		c->state = D9P_SEGCAP_LOST;	/* a value was cut in it */
	take(c, w, n, off);
}

void
d9p_segcap_damage(struct d9p_segcap *c)
{
	if (c->state == D9P_SEGCAP_IDLE)
		c->tainted = 1;
}

void
d9p_segcap_begin(struct d9p_segcap *c, uint64_t off, int segment)
{
	int tainted = c->tainted;

	c->state = D9P_SEGCAP_LOST;
	c->from = off;
	c->len = 0;
	c->tainted = 0;
	if (!segment || tainted || off < c->woff || off > c->woff +
	    c->wlen || !c->exact)
		return;		/* no segment's first batch, or not here */
	if (c->buf == NULL && (c->buf = malloc(D9P_SEGID_BYTES)) == NULL)
		return;
	c->state = D9P_SEGCAP_ON;
	take(c, c->w + (off - c->woff), c->wlen - (size_t)(off - c->woff),
	    off);
}

int
d9p_segcap_end(struct d9p_segcap *c, uint64_t at, struct d9p_segid *id)
{
	int rc = -1;

	if (c->state == D9P_SEGCAP_ON || c->state == D9P_SEGCAP_CUT) {
		size_t n = c->len;

		if (at != UINT64_MAX && at >= c->from && at - c->from < n)
			n = (size_t)(at - c->from);
		else if (at < c->from)
			n = 0;
		rc = n > 0 ? d9p_segid_of_bytes(c->buf, n, 1, id) : -1;
	}
	c->state = D9P_SEGCAP_IDLE;
	c->len = 0;
	return rc;
}
