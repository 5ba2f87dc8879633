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

#include <stddef.h>
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
/* The identity of a segment from its first n decoded bytes (those past
 * D9P_SEGID_BYTES are not looked at); eof: the segment ends at n (a
 * file's end, or in a stream the next segment's first batch). A
 * segment read from a stream (stdin, a file of many) is so named as
 * the file that holds it alone is. */
#define D9P_SEGID_BYTES	(64u << 10)
int	 d9p_segid_of_bytes(const uint8_t *buf, size_t n, int eof,
	    struct d9p_segid *id);
/* How many decoded bytes the file at path holds (up to its first
 * error), or -1 when it cannot be opened. */
int64_t	 d9p_decoded_size(const char *path);

/*
 * The identity of each segment of a stream, from its bytes as they are
 * decoded: the reader shows each window before it is decoded
 * (d9p_segcap_window, a sink's window), the sink says where a segment's
 * first batch begins (d9p_segcap_begin, at the batch) and where it ends
 * (d9p_segcap_end). At most D9P_SEGID_BYTES are kept. As a file's
 * identity ends at damage to its container, a capture ends where the
 * container broke (a window of NULL); a segment after damage to what
 * came before its first batch (the file would have none), or with a
 * value cut in its first bytes, has no identity.
 */
enum { D9P_SEGCAP_IDLE, D9P_SEGCAP_ON, D9P_SEGCAP_CUT, D9P_SEGCAP_LOST };
struct d9p_segcap {
	int		 state;
	uint8_t		*buf;		/* D9P_SEGID_BYTES, made at need */
	uint64_t	 from;		/* stream offset of buf[0] */
	size_t		 len;
	const uint8_t	*w;		/* the window being decoded */
	size_t		 wlen;
	uint64_t	 woff;
	int		 exact;
	int		 tainted;	/* damage before the next segment */
};

void	d9p_segcap_init(struct d9p_segcap *c);
void	d9p_segcap_free(struct d9p_segcap *c);
void	d9p_segcap_window(struct d9p_segcap *c, const uint8_t *w, size_t n,
	    uint64_t off, int exact);
/* Damage was skipped (the sink's loss): before a segment begins, it has
 * no identity. */
void	d9p_segcap_damage(struct d9p_segcap *c);
/* A batch begins at off: segment, whether it is a segment's first (else
 * what follows has no identity until the next begin). */
void	d9p_segcap_begin(struct d9p_segcap *c, uint64_t off, int segment);
/* The segment begun last ends at stream offset at (the next one's
 * first batch), or with the input (UINT64_MAX): its identity to id, 0;
 * or -1 when it has none. */
int	d9p_segcap_end(struct d9p_segcap *c, uint64_t at,
	    struct d9p_segid *id);

#endif
