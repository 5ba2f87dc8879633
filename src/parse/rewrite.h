/*
 * rewrite.h: whether a file followed while it is written (a raw .active
 * segment) was written again below what was read, and where to read on.
 * libd9rec cuts a segment back to its last whole batch after a write
 * error and appends a metadata batch (issue 31 item 6): the file shrinks,
 * or changes under bytes already read, and reading on from the old
 * offset would miss the new bytes or decode the middle of a frame.
 *
 * The stream tells the record where each batch began and every byte the
 * decoder consumed; the record keeps a checksum of each batch's bytes
 * and the last bytes read. When the file is shorter than what was read,
 * or those last bytes changed, the newest batch whose bytes are all
 * still there is found; reading goes on after it: where the decoder
 * stopped when that is the batch being read (its state holds), else at
 * the start of the next batch, skipping to a header (the bytes there are
 * new). Nothing read is read twice when the file was cut at a batch
 * boundary, as libd9rec cuts; nothing new is missed.
 */
#ifndef D9P_REWRITE_H
#define D9P_REWRITE_H

#include <stddef.h>
#include <stdint.h>

struct d9p_rewrite;

struct d9p_rewrite *d9p_rewrite_new(void);
void	 d9p_rewrite_free(struct d9p_rewrite **rw);
/* A batch header at file offset off. */
void	 d9p_rewrite_header(struct d9p_rewrite *rw, uint64_t off);
/* The decoder consumed the file's bytes [off, off + n) (p: as read). */
void	 d9p_rewrite_bytes(struct d9p_rewrite *rw, uint64_t off,
	    const uint8_t *p, size_t n);
/* The current batch's bytes were changed in memory (a value cut): it
 * cannot be checked and counts as still there. */
void	 d9p_rewrite_taint(struct d9p_rewrite *rw);
/* The file's bytes just read: they end at the read offset. */
void	 d9p_rewrite_read(struct d9p_rewrite *rw, const uint8_t *p, size_t n);
/*
 * Whether fd was written again below pos (the read offset): 0 no; 1 yes,
 * *at the offset to read on from, *keep whether the decoder's state
 * holds there (else it skips to the next header); -1 it cannot tell
 * (the file cannot be read).
 */
int	 d9p_rewrite_check(struct d9p_rewrite *rw, int fd, uint64_t pos,
	    uint64_t *at, int *keep);

#endif
