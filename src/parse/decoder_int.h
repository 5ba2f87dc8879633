/*
 * decoder_int.h: the decoder's state and the helpers its two files share:
 * decoder.c (frames, values, pools) and schemas.c (schema frames and the
 * registry of one batch). Private to those two files.
 */
#ifndef D9P_DECODER_INT_H
#define D9P_DECODER_INT_H

#include "base/arena.h"
#include "base/buf.h"
#include "base/wire.h"
#include "parse/decoder.h"
#include "parse/pool.h"

#define SLACK		(1u << 20)

struct d9p_decoder {
	struct d9p_sink	 sink;
	struct d9_arena	 arena;		/* schemas and pool bytes of a batch */
	struct d9p_schema *by_id[65536];
	uint16_t	*used_ids;	/* ids set in by_id, to clear them */
	size_t		 nused, capused;
	struct d9p_pool	 strings, stacks;
	uint64_t	 base;		/* timestamp base */
	int		 started;	/* header seen */
	int		 resync;	/* skipping to the next header */
	uint64_t	 events;
	uint64_t	 batches;	/* headers seen */
	void		(*on_header)(void *, uint64_t);	/* the stream's */
	void		*on_header_ctx;
	struct d9p_value *vals;
	size_t		 capvals;
	/* limits (0: none), what they cost */
	uint32_t	 keep;		/* bytes of a string or stack kept */
	uint64_t	 pool_max;	/* pool bytes of a batch */
	uint64_t	 pool_bytes, pool_dropped;
	struct d9p_elision el;		/* of the last D9P_ELIDE */
	/* per feed call */
	const uint8_t	*p;
	uint64_t	 off;
	size_t		 gap_at;	/* positions from gap_at on are */
	uint64_t	 gap;		/* gap bytes further in the input */
	int		 eof;
	struct d9_err	*e;
};

/* A fixed-size read failed: more bytes may come, or the frame is cut. */
#define SHORT D9P_MORE

/* Absolute offset of cursor position pos. */
static inline uint64_t
at(const struct d9p_decoder *d, size_t pos)
{
	return d->off + pos + (pos >= d->gap_at ? d->gap : 0);
}

/*
 * `len` more bytes are needed at b->pos: 0 when they are there,
 * D9P_MORE when they may still arrive, or an error when the claim is
 * hopeless. what/count describe the claim for the message.
 */
static inline int
need(struct d9p_decoder *d, const struct d9_buf *b, uint64_t len,
    const char *what, uint64_t count, size_t count_pos)
{
	size_t left = d9_buf_left(b);

	if (len <= left)
		return 0;
	if (!d->eof)
		return D9P_MORE;
	if (len - left > SLACK)
		return d9_err_set(d->e, D9_ERR_BAD_FRAME, at(d, count_pos),
		    "%s %llu needs %llu bytes, only %zu left", what,
		    (unsigned long long)count, (unsigned long long)len, left);
	return D9P_MORE;
}

/* A wire type tag (optional bit included) that names a type. */
static inline int
valid_type(uint8_t t)
{
	uint8_t base = t & (uint8_t)~D9_FT_OPTIONAL;

	return base >= 1 && base <= D9_FT_MAX;
}

/* v, a pooled string or stack (type t) of id, as its pool defines it
 * (unresolved when it does not). */
static inline void
d9p_pooled(struct d9p_decoder *d, uint8_t t, uint32_t id, struct d9p_value *v)
{
	struct d9p_pool_entry *pe = d9p_pool_get(t == D9_FT_POOLED_STRING ?
	    &d->strings : &d->stacks, id);

	v->u = id;
	if (pe == NULL) {
		v->unresolved = 1;
		return;
	}
	v->p = pe->p;
	v->count = pe->len;
	v->cache = &pe->cache;
}

/* A schema frame after its tag: registered, or the same one again. */
int	d9p_frame_schema(struct d9p_decoder *d, struct d9_buf *b);
/* A field's value (tag: its wire type, optional bit included) at
 * b->pos, depth levels into dynamic values (fields.c): 0 with *v and the
 * cursor past it, SHORT, or an error said at the value. */
int	d9p_decode_value(struct d9p_decoder *d, struct d9_buf *b, uint8_t tag,
	    struct d9p_value *v, int depth);
/* A u32 length of what (unit bytes each) that the bytes left can hold
 * (fields.c): 0 with *len, SHORT, or an error. */
int	d9p_read_len(struct d9p_decoder *d, struct d9_buf *b, const char *what,
	    uint64_t unit, uint32_t *len);
/* A u32 count of what (each taking at least least bytes) that the bytes
 * left can hold (fields.c): 0 with *n, SHORT, or an error said at the
 * count. */
int	d9p_read_count(struct d9p_decoder *d, struct d9_buf *b,
	    const char *what, uint64_t least, uint32_t *n);

#endif
