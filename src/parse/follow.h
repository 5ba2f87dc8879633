/*
 * follow.h: reading inputs that keep growing (--follow). Each poll walks
 * the paths again and reads only what is new:
 *  - a segment still being written (name ending in ".active") is read up
 *    to its current end and kept open; later polls read what was added;
 *  - when the recorder seals it (renamed, same inode) the rest is read
 *    and the segment is done;
 *  - a later copy of a segment already read (".bin" -> ".bin.gz", the
 *    same name without ".active", ".gz", ".zst") is skipped, so no event
 *    is counted twice;
 *  - a file under a final name that appears once following has begun
 *    (copied in by cp or scp, not sealed by a recorder) is read as it
 *    grows, and done once D9P_FOLLOW_QUIET polls in a row found it no
 *    bigger; a member it still cuts then is told lost;
 *  - stdin is read to its end, once.
 */
#ifndef D9P_FOLLOW_H
#define D9P_FOLLOW_H

#include "parse/reader.h"

struct d9p_follow;

/* Polls without growth after which a copied-in file is done: the
 * browser polls four times a second, so a copy may pause 2 s. */
#define D9P_FOLLOW_QUIET	8

struct d9p_follow *d9p_follow_new(const char *const *paths, size_t npaths);
void	d9p_follow_free(struct d9p_follow **f);
/* Read what is new into sink (the same calls and ctx at every poll;
 * copied, for it may be gone after the call: the segments kept open
 * use the copy); st accumulates. 0, or -1 out of memory. */
int	d9p_follow_poll(struct d9p_follow *f, const struct d9p_sink *sink,
	    const struct d9p_read_opts *o, struct d9p_read_stats *st);
/* Whether nothing more can arrive: every path is stdin ("-"), and it
 * was read to its end (the writer closed it: a recorder that stopped,
 * an ssh connection that ended). */
int	d9p_follow_ended(const struct d9p_follow *f);

#endif
