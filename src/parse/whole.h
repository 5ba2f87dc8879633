/*
 * whole.h: a regular gzip file decompressed whole, into one buffer, by
 * libdeflate (several times faster than zlib's streaming inflate). Only a
 * file made of gzip members alone, each one complete and sound, is read
 * so; anything else (raw bytes or a zstd frame after a member, damage, a
 * cut member, a header CRC, a file that changes size meanwhile, sizes over
 * the caps) is left to the streaming path (input.h), which reads it from
 * the start and reports it as it always did. The decoded bytes live in an
 * anonymous mapping whose pages are given back as the decoder passes them
 * (d9p_whole_release). Built without libdeflate, every file streams.
 */
#ifndef D9P_WHOLE_H
#define D9P_WHOLE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/spares.h"

/* Compressed bytes: a bigger file (segments concatenated, as `cat` makes
 * them) streams instead, decompressed ahead on another core beside the
 * decoding (input.h): no buffer of its decoded bytes, and as fast (on
 * 58 segments in one file: 2.9 s and 684 MB streamed, 4.2 s and 822 MB
 * whole). */
#define D9P_WHOLE_IN_MAX	(64ull << 20)
#define D9P_WHOLE_OUT_MAX	(4ull << 30)	/* decoded bytes */
#define D9P_WHOLE_RATIO		64		/* decoded per compressed */

enum d9p_whole_rc {
	D9P_WHOLE_OK,		/* *w holds the decoded file */
	D9P_WHOLE_STREAM,	/* not for this path: stream the file */
	D9P_WHOLE_BIG,		/* needs more memory than the limit given */
	D9P_WHOLE_CANCEL	/* *cancel was set meanwhile */
};

struct d9p_whole {
	uint8_t		*p;		/* decoded bytes; NULL: none */
	size_t		 n;		/* decoded length */
	size_t		 map;		/* length of the mapping at p */
	size_t		 released;	/* pages of p given back so far */
	struct d9p_spares *home;	/* where the mapping goes when freed,
					 * pages kept (NULL: unmapped, and
					 * pages given back as read) */
	uint64_t	 csize;		/* compressed bytes read */
};

/* Whether files can be read whole at all (built with libdeflate). */
int	d9p_whole_available(void);
/*
 * Decompress fd, a regular file, from its current offset to its end
 * (pread: the offset does not move, so the streaming path can start
 * there after a D9P_WHOLE_STREAM). limit caps the compressed plus the
 * decoded bytes held at once (0: only the caps above); cancel (may be
 * NULL) is looked at between reads and between members. spares (may be
 * NULL): the compressed and decoded bytes go into mappings taken from
 * there when it holds some, and back there when freed.
 */
enum d9p_whole_rc d9p_whole_load(int fd, uint64_t limit,
	    _Atomic int *cancel, struct d9p_spares *spares,
	    struct d9p_whole *w);
void	d9p_whole_free(struct d9p_whole *w);
/* The bytes p[0, upto) were read: their pages are given back (not those
 * of a mapping that goes back to spares: they are filled again). */
void	d9p_whole_release(struct d9p_whole *w, size_t upto);

#endif
