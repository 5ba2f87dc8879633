/*
 * input.h: one input stream (a file or stdin) turned into decoded trace
 * bytes. The container is recognised by magic bytes at every boundary:
 * gzip members and zstd frames are inflated as they arrive, raw TRC bytes
 * pass through, in any mix. Nothing needs the whole input in memory
 * (but an input can also hand out a gzip file decompressed whole by
 * whole.h, as if it were streamed).
 */
#ifndef D9P_INPUT_H
#define D9P_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/err.h"

enum d9p_container {
	D9P_C_NONE,	/* nothing read yet, or between members */
	D9P_C_RAW,
	D9P_C_GZIP,
	D9P_C_ZSTD
};

struct d9p_input;

/* Takes ownership of fd (closed by d9p_input_close). */
int		 d9p_input_open_fd(struct d9p_input **out, int fd,
		    struct d9_err *e);
/* An input on the decoded bytes of a file read whole (whole.h): it takes
 * them (w is emptied, freed on failure); its fd is -1. */
struct d9p_whole;
int		 d9p_input_open_whole(struct d9p_input **out,
		    struct d9p_whole *w, struct d9_err *e);
void		 d9p_input_close(struct d9p_input **in);
/* Up to cap decoded bytes: > 0 bytes, 0 at the end, < 0 error in e
 * (e->off is then a byte offset of the compressed input). A damaged
 * member (D9_ERR_CONTAINER) is told once: the next read goes on at the
 * next gzip member or zstd frame. An input that ends inside a gzip
 * member or zstd frame sets *cut_off to 1 at the end. */
ssize_t		 d9p_input_read(struct d9p_input *in, uint8_t *buf, size_t cap,
		    int *cut_off, struct d9_err *e);
/* An input on a file read whole (d9p_input_open_whole) hands its bytes
 * out in place instead: the next up to cap decoded bytes are at *p,
 * right after the ones handed out before, writable by the caller and
 * valid until d9p_input_done passes them or the input is closed; 0 at
 * the end, -1 when the input is not read whole (d9p_input_read it).
 * Reads of both kinds can follow one another. */
ssize_t		 d9p_input_view(struct d9p_input *in, uint8_t **p, size_t cap);
/* The bytes handed out in place below decoded offset off are done with:
 * their memory may go back to the system. */
void		 d9p_input_done(struct d9p_input *in, uint64_t off);
/* Bytes read from the file and not yet handed out (before decoding;
 * read ahead: decoded). */
size_t		 d9p_input_buffered(struct d9p_input *in);
/* Decompress ahead on a thread of its own, chunk bytes at a time (the
 * cap the reader passes to d9p_input_read), from the first read on, as
 * long as the input is compressed: raw bytes and errors give the input
 * back to the reader's thread. Every call answers as without it. 0, or
 * -1 when it cannot (the input then reads on the caller's thread). */
int		 d9p_input_ahead(struct d9p_input *in, size_t chunk);
/* Wait up to ms for bytes to read: 1 there may be some, 0 not yet. */
int		 d9p_input_wait(struct d9p_input *in, int ms);
int		 d9p_input_fd(const struct d9p_input *in);
/* Forget that the file ended: the next read tries again (it may have
 * grown since). */
void		 d9p_input_rearm(struct d9p_input *in);
/* Raw bytes that turned out to be the start of a compressed member: they
 * are sniffed again. Only valid for bytes handed out in raw mode. */
int		 d9p_input_pushback(struct d9p_input *in, const uint8_t *p,
		    size_t n);
/* Decoded offset at which the current raw run began, or UINT64_MAX when
 * the input is not in raw mode. */
uint64_t	 d9p_input_raw_since(const struct d9p_input *in);
/* Go on reading a file of raw bytes alone from offset off (its decoded
 * offset too): 0, or -1 when the input is not such a file or cannot
 * seek (read ahead, compressed, stdin). */
int		 d9p_input_seek(struct d9p_input *in, uint64_t off);
/* Bytes consumed from the underlying file so far. */
uint64_t	 d9p_input_consumed(const struct d9p_input *in);
/* Containers seen so far, as a bit set of 1 << enum d9p_container. */
unsigned	 d9p_input_kinds(const struct d9p_input *in);

#endif
