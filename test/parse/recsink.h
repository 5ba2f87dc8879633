/*
 * recsink.h: a d9p_sink that renders everything the reader hands out as
 * text lines, so tests compare whole decoded streams with one string
 * compare, and the fuzz target touches every byte of every value.
 *
 * Log lines (each ends in '\n'):
 *   input NAME
 *   batch @OFF
 *   schema ID NAME[ nots] FIELD:TYPE ...        (TYPE = wire tag, decimal)
 *   NAME@TS FIELD=VALUE ...
 * Values: absent optional `-`; integers decimal (I64 signed); F64 `%g`;
 * Bool true/false; String/Bytes/PooledString "escaped" (bytes outside
 * 0x20-0x7e, `"` and `\` as \xNN); stacks [0x1,0x2]; StringMap {k=v,...};
 * DynamicList/Map <hex of the wire bytes>; an undefined pool id ?#ID.
 * A field with a unit annotation gets `[unit]` after its value.
 */
#ifndef D9_TEST_RECSINK_H
#define D9_TEST_RECSINK_H

#include "parse/reader.h"
#include "tracegen.h"

struct rec {
	struct tg	 log;		/* rendered lines */
	struct tg	 notes;		/* reader notes, one a line */
	struct tg	 scratch;	/* one event while it is rendered */
	size_t		 nnotes;
	int		 keep;		/* 1: log; 0: render, then drop;
					   -1: only count events */
	uint64_t	 sum;		/* of every byte rendered (keep == 0) */
	uint64_t	 hash;		/* of the same, in order (FNV-1a) */
	uint64_t	 stop_after;	/* event returns -1 after this many */
	uint64_t	 nevents;
	unsigned	 cuts, copies, damaged, unread;	/* sink->loss calls */
	int		 stream_only;	/* rec_opts: d9p_read_opts' */
	int		 lone_streams;	/* rec_opts: whole_alone = !this */
	uint64_t	 mem_budget;	/* rec_opts: d9p_read_opts' */
	struct d9p_read_stats st;
};

void	rec_init(struct rec *r);
void	rec_free(struct rec *r);
void	rec_clear(struct rec *r);	/* empty the log, notes and stats */
struct d9p_sink rec_sink(struct rec *r);
struct d9p_read_opts rec_opts(struct rec *r);
/* Read p[0, n) as one input named "t" (a memory file); stats add up. */
int	rec_read(struct rec *r, const void *p, size_t n);
int	rec_read_fd(struct rec *r, int fd, const char *name, int in_dir);
int	rec_read_paths(struct rec *r, const char *const *paths, size_t n);
const char *rec_log(struct rec *r);
const char *rec_notes(struct rec *r);
/* The "input NAME" lines of the log, one name a line, prefix cut
 * (out holds them). */
const char *rec_inputs(struct rec *r, const char *prefix, struct tg *out);
/* Render one value as described above. */
void	rec_value(struct tg *out, const struct d9p_field *f,
	    const struct d9p_value *v);

#endif
