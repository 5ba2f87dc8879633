/*
 * prefetch.h: the files of one read (reader.c) decompressed whole
 * (whole.h) ahead of the reading thread, on the other cores. While the
 * reader decodes file i, worker threads (one per online CPU but one, at
 * least one, at most D9P_PF_AHEAD) decompress files i+1, i+2, ..., at
 * most D9P_PF_AHEAD files and D9P_PF_BUDGET bytes (compressed and
 * decoded, held or being decompressed) ahead, whatever the number of
 * files. The reader takes the files in order; one that no worker has
 * started (or that needs more than the budget left) it decompresses
 * itself. A cancel stops the workers at their next slice or member.
 * The mappings the reader is done with go back to the workers (spares.h)
 * and are filled again, their pages already there.
 */
#ifndef D9P_PREFETCH_H
#define D9P_PREFETCH_H

#include <stdatomic.h>
#include <stddef.h>

#include "parse/whole.h"

#define D9P_PF_AHEAD	4		/* files */
#define D9P_PF_BUDGET	(256ull << 20)	/* bytes */

struct d9p_prefetch;

/*
 * Start the workers on paths[0, n) (paths[i] NULL: file i is not to be
 * prefetched: stdin, an .active file, a copy; the strings must outlive
 * the prefetch). NULL when there is nothing to do, no libdeflate, or no
 * memory or thread: the reader then does every file itself.
 */
struct d9p_prefetch *d9p_prefetch_start(const char *const *paths, size_t n,
	    _Atomic int *cancel);
/*
 * The reader is at file i, open as fd (files before i are dropped).
 * D9P_WHOLE_OK: *w holds it, decompressed by a worker from the same file
 * (device, inode, size and modification time); D9P_WHOLE_STREAM: a worker
 * found it is not for the whole path; anything else: the reader
 * decompresses it itself. Waits while a worker is on file i.
 */
enum d9p_whole_rc d9p_prefetch_take(struct d9p_prefetch *pf, size_t i,
	    int fd, struct d9p_whole *w);
/* Stop and join the workers, free what they hold. */
void	d9p_prefetch_free(struct d9p_prefetch **pf);

#endif
