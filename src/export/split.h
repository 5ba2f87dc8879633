/*
 * split.h: one input read as the events stream in, into a model per
 * segment (FLEET.md: memory bounded by what is being written, not by
 * the input): where the builder would begin a new segment (the batch
 * after a symbol appendix, model/core/build.h), the model read so far
 * is finished and handed over, and a new one goes on with the same
 * input. A segment that never ends (no symbol appendix) is cut at a
 * batch once it holds D9X_SPLIT_EVENTS events, so no input, stdin
 * included, holds more. A cut (not a segment's end) is said in a note.
 */
#ifndef D9X_SPLIT_H
#define D9X_SPLIT_H

#include <stdint.h>

#include "model/core/model.h"
#include "model/core/tables.h"
#include "parse/reader.h"
#include "parse/segid.h"

#define D9X_SPLIT_EVENTS	(4u << 20)

/* One segment's model, finished (NULL: out of memory); its events; its
 * identity from its first bytes, as the file that holds it alone would
 * have it (parse/segid.h), or NULL (a part of a segment, damage or a cut
 * value in its first bytes). The callee owns m. A return < 0 stops
 * reading. */
typedef int (*d9x_split_fn)(void *ctx, struct d9m_model *m, uint64_t events,
	    const struct d9p_segid *id);

/* The rows of the last model's tables, kept by a caller that reads
 * input after input (a worker): a new model's tables start that large
 * (a hint; zeroed: nothing known yet). */
struct d9x_split_hint {
	size_t	rows[D9M_NTABLES];
};

/* Read path ("-": stdin) as ro says (its note and stream_only) and hand
 * over each segment's model in order, the last one too (possibly
 * empty); fd, when not -1, is path open already (a pipe or a device,
 * whose bytes come once: read from it, not opened again; it stays the
 * caller's). hint: NULL, or the caller's (read and updated). st: the
 * input's reading figures. Returns 0, or -1 (out of memory, or a
 * callback said stop). */
int	d9x_split_read(const char *path, int fd, d9x_split_fn fn, void *ctx,
	    const struct d9p_read_opts *ro, struct d9x_split_hint *hint,
	    struct d9p_read_stats *st);

#endif
