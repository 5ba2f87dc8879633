/*
 * decoder.h: the frame decoder of one stream. It owns the state FORMAT.md
 * 2.3 defines (schemas, string pool, stack pool, timestamp base), resets
 * it at every TRC header, and hands each event to a sink with its pooled
 * values already resolved.
 */
#ifndef D9P_DECODER_H
#define D9P_DECODER_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "parse/schema.h"

struct d9p_sink {
	void	*ctx;
	/* A schema was registered (or redefined); the sink may set s->user. */
	int	(*schema)(void *ctx, struct d9p_schema *s);
	/* One event. Return < 0 to stop decoding (out of memory). */
	int	(*event)(void *ctx, const struct d9p_schema *s, uint64_t ts,
		    const struct d9p_value *v);
	/* A TRC header began a new batch at decoded offset off (optional). */
	void	(*batch)(void *ctx, uint64_t off);
	/* The reader starts a new input (file or stdin) (optional). */
	void	(*input)(void *ctx, const char *name);
	/* The input just started decodes to about bytes: what its container
	 * states (a guess, at most what its size can hold), or the exact
	 * count when it was decompressed whole; not said when not known
	 * (a pipe) (optional). */
	void	(*size)(void *ctx, uint64_t bytes);
	/* The reader lost part of the input (optional): what is an enum
	 * d9p_loss. */
	void	(*loss)(void *ctx, int what);
	/* An input read before goes on (a file followed while it is
	 * written, read in turns with others): what comes next belongs
	 * where that input stopped (optional). */
	void	(*resume)(void *ctx, const char *name);
	/* An input read before is called to now: a followed segment was
	 * sealed (its .active file renamed); said before it goes on, so
	 * that it counts as its sealed copy does (optional). */
	void	(*renamed)(void *ctx, const char *from, const char *to);
	/* The decoded bytes [off, off + n) are about to be decoded (the
	 * reader's window: bytes given before come again while they are
	 * not consumed); exact: 0 when a value cut in them was rewritten
	 * or dropped. Valid until the next call. w NULL: the container
	 * broke at off (damage skipped to its next member): the bytes
	 * after do not follow those before (optional). */
	void	(*window)(void *ctx, const uint8_t *w, size_t n, uint64_t off,
		    int exact);
};

enum d9p_loss {
	D9P_LOSS_CUT,		/* the current input ended or broke before
				 * its last frame: the rest is lost */
	D9P_LOSS_COPY,		/* a file not read: it holds a segment read
				 * from another file, or is a file reached
				 * twice (ANALYSIS 19) */
	D9P_LOSS_DAMAGED,	/* damage skipped: the reader goes on at the
				 * next member or batch (ANALYSIS 19.1) */
	D9P_LOSS_UNREAD,	/* a file not read: older than what fits in
				 * the memory d9top may use, or after reading
				 * stopped there (reader.h, mem_budget) */
	D9P_INPUT_WRITTEN	/* not a loss: the input just begun is a
				 * segment still being written (reader.h,
				 * d9p_is_written); it ends where its writer
				 * is, neither whole nor cut */
};

enum {
	D9P_MORE = 1,		/* feed more bytes (or, at the end: truncated) */
	D9P_SWITCH = 2,		/* a gzip/zstd magic where a frame tag belongs */
	D9P_ELIDE = 3		/* a value over the limit: d9p_decoder_elision */
};

/* A string or stack over the limit: its u32 count at pos in the bytes
 * fed. The caller rewrites the count to keep, keeps the first keep * unit
 * bytes, drops the next (count - keep) * unit and feeds again. */
struct d9p_elision {
	size_t		 pos;
	uint32_t	 count, keep, unit;
};

struct d9p_decoder;

int	 d9p_decoder_new(struct d9p_decoder **out, const struct d9p_sink *sink);
void	 d9p_decoder_free(struct d9p_decoder **d);
/* Start a new stream: the next bytes must be a TRC header. */
void	 d9p_decoder_restart(struct d9p_decoder *d);
/* After damage (ANALYSIS 19.1): the batch's state is dropped and the
 * next feeds skip every byte up to the next TRC header, or up to a gzip
 * or zstd magic from switch_from on (D9P_SWITCH). */
void	 d9p_decoder_resync(struct d9p_decoder *d);
/*
 * Decode every complete frame in p[0, n). off: decoded offset of p[0];
 * eof: no bytes will follow; switch_from: decoded offset from which a
 * container magic at a frame boundary means a new compressed member
 * (UINT64_MAX: never). *used: bytes consumed. Returns 0 when everything
 * was consumed, D9P_MORE when the last frame is incomplete, D9P_SWITCH,
 * or < 0 with e set (e->off = decoded offset of the offending byte).
 */
int	 d9p_decoder_feed(struct d9p_decoder *d, const uint8_t *p, size_t n,
	    uint64_t off, int eof, uint64_t switch_from, size_t *used,
	    struct d9_err *e);
/* Limits against hostile input, 0 for none (the default): strings and
 * stacks of more than keep bytes come back as D9P_ELIDE; the pools of a
 * batch (they are cleared at each TRC header) keep at most pool_max
 * bytes. */
void	 d9p_decoder_limit(struct d9p_decoder *d, uint32_t keep,
	    uint64_t pool_max);
/* The next feed's bytes from position pos on lie bytes further in the
 * stream (the caller dropped an elided tail there): offsets count them. */
void	 d9p_decoder_gap(struct d9p_decoder *d, size_t pos, uint64_t bytes);
const struct d9p_elision *d9p_decoder_elision(const struct d9p_decoder *d);
/* Pool entries left undefined by pool_max so far. */
uint64_t d9p_decoder_pool_dropped(const struct d9p_decoder *d);
/* Events handed to the sink so far. */
uint64_t d9p_decoder_events(const struct d9p_decoder *d);
/* TRC headers decoded so far. */
uint64_t d9p_decoder_batches(const struct d9p_decoder *d);
/* fn(ctx, off) at each TRC header too (before the sink's batch): the
 * stream's own record of where batches begin. */
void	 d9p_decoder_on_header(struct d9p_decoder *d,
	    void (*fn)(void *ctx, uint64_t off), void *ctx);
/* Whether a header has been seen on this stream. */
int	 d9p_decoder_started(const struct d9p_decoder *d);

#endif
