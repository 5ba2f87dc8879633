/*
 * stream.h: one input (an open file or stdin) pumped through the window
 * between input and decoder. Decoded bytes are appended to a window; the
 * decoder consumes whole frames from its front; the unconsumed tail moves
 * to the front before the next read. A frame larger than the window
 * doubles it, up to MAX_WINDOW.
 *
 * A tail stream (a segment still being written) treats the end of the
 * file as "nothing more yet": a partial last frame is kept, not reported,
 * and d9p_stream_pump() can be called again once the file has grown.
 */
#ifndef D9P_STREAM_H
#define D9P_STREAM_H

#include "parse/reader.h"

struct d9p_stream;

/* A message through o->note. */
/* After a read: how many more files were not traces than were named
 * (D9P_SKIPPED_TOLD), in one note; nothing when none. */
void	d9p_note_skipped(const struct d9p_read_opts *o,
	    const struct d9p_read_stats *st);
void	d9p_note(const struct d9p_read_opts *o, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Takes fd (closed by d9p_stream_close); NULL when out of memory. */
struct d9p_stream *d9p_stream_open(int fd, const char *name, int in_dir,
	    const struct d9p_sink *sink, struct d9p_read_stats *st);
/* The same on a file decompressed whole (whole.h; w is taken). */
struct d9p_whole;
struct d9p_stream *d9p_stream_open_whole(struct d9p_whole *w,
	    const char *name, int in_dir, const struct d9p_sink *sink,
	    struct d9p_read_stats *st);
/* Read and decode until the end: 0 the stream is over (error or end),
 * 1 a tail stream reached the current end of its file, -1 out of memory.
 * tail D9P_TAIL_ONCE: a tail read once (a segment still being written,
 * read as it is: d9p_is_written), whose notes are said at its end. */
#define D9P_TAIL_ONCE	2
int	d9p_stream_pump(struct d9p_stream *s, int tail,
	    const struct d9p_read_opts *o, struct d9p_read_stats *st);
/* The stream's file is called name now (a tail stream's segment sealed
 * under its final name): said to the sink (d9p_sink.renamed), and the
 * notes after it use it. 0, or -1 when out of memory (the old name
 * stays). */
int	d9p_stream_rename(struct d9p_stream *s, const char *name);
/* Add the stream's figures to st and free it. */
void	d9p_stream_close(struct d9p_stream **s, struct d9p_read_stats *st);

#endif
