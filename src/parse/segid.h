/*
 * segid.h: which files hold the same segment (ANALYSIS 19). A copy of a
 * segment (trace.3.bin next to trace.3.bin.gz, an .active file next to
 * its sealed copy, a file copied under another name) starts with the
 * same first batch (the ClockSyncEvent of the segment's creation: its
 * monotonic and wall-clock times) and names the same boot_id in its
 * metadata. The identity is made of those two, read from the first
 * 64 KiB of decoded bytes: files are recognised by their bytes, never by
 * their names.
 */
#ifndef D9P_SEGID_H
#define D9P_SEGID_H

#include <stdint.h>

struct d9p_segid {
	uint64_t	 hash;		/* of the first batch's decoded bytes */
	uint64_t	 len;		/* how many bytes were hashed */
	char		 boot[64];	/* boot_id metadata, "" when none */
	/* not part of the identity: when the segment began (its first
	 * ClockSyncEvent's realtime_ns, ns since the Unix epoch), 0 when
	 * the first bytes hold none */
	int64_t		 wall_ns;
};

/* The identity of the segment the file at path begins with: 0, or -1
 * when it does not begin with a dial9 batch or cannot be read. */
int	 d9p_segid_of(const char *path, struct d9p_segid *id);
/* How many decoded bytes the file at path holds (up to its first
 * error), or -1 when it cannot be opened. */
int64_t	 d9p_decoded_size(const char *path);

#endif
