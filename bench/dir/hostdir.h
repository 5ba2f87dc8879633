/*
 * hostdir.h: the directory benchmark's host directory: N copies of one
 * trace moved in time by d9shift, copy K by K * D where D is the
 * trace's time range rounded up to a millisecond, so the copies are one
 * recording of N consecutive segments. Under the work directory:
 *
 *   pool/stamp            what the copies were made from: the trace's
 *                         real path, size and mtime, D and the shifter's
 *                         D9B_SHIFT_VERSION; another stamp empties the
 *                         pool
 *   pool/trace.K.bin.gz   copy K (written once, reused by later runs)
 *   dir-N/trace.K.bin.gz  hard links to copies 0 .. N-1
 */
#ifndef D9B_HOSTDIR_H
#define D9B_HOSTDIR_H

#include <limits.h>
#include <stdint.h>

struct d9b_hostdir {
	char		 work[PATH_MAX];
	const char	*shift;		/* the d9shift program */
	const char	*trace;
	uint64_t	 d_ns;		/* from one copy to the next */
	uint64_t	 frames;	/* event frames of the trace, any kind */
	uint64_t	 raw;		/* decoded bytes of the trace */
	int		 jobs;		/* d9shift processes at a time */
};

/* Measure the trace, check the pool's stamp (a stale pool is emptied).
 * work is made if need be and kept as an absolute path (d9top ignores a
 * relative XDG_CACHE_HOME). Returns 0, or -1 after printing why. */
int	d9b_hostdir_open(struct d9b_hostdir *h, const char *work,
	    const char *shift, const char *trace, int jobs);
/* Make dir-N (copies written as needed; *built: how many); its path in
 * dir. Returns 0, or -1 after printing why. */
int	d9b_hostdir_make(struct d9b_hostdir *h, int n, char *dir, size_t cap,
	    int *built);
/* Bytes of the regular files directly in dir. */
/* Copy n (the one after dir's n copies) linked into dir: the directory
 * gained a segment; *added names it (unlink it to undo). */
int	d9b_hostdir_grow(struct d9b_hostdir *h, const char *dir, int n,
	    char *added, size_t cap);
uint64_t d9b_dir_bytes(const char *dir);
/* Remove path and everything under it (no symlink is followed). */
int	d9b_rmtree(const char *path);

#endif
