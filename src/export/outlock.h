/*
 * outlock.h: one export at a time into an OUTDIR. Two runs writing the
 * same leaves (a cron job whose last run is not over) opened the same
 * temporary files and renamed them from under each other: one failed
 * with "cannot rename into place". A run holds an exclusive flock(2) on
 * OUTDIR/.lock (a dot file: no table's reader looks at it) from before
 * it looks at what is exported until it ends; a second run says it waits
 * and waits, then finds what the first wrote in place.
 */
#ifndef D9X_OUTLOCK_H
#define D9X_OUTLOCK_H

#include <stdatomic.h>
#include <stddef.h>

#define D9X_OUTLOCK	".lock"

/* Make outdir, and lock it: the lock's descriptor, or -1 with why in
 * err. Told through note (when not NULL) before it waits for another
 * run. An outdir that is not this user's alone (base/file.h) is
 * refused: whoever else may write there could plant links that send
 * the tables elsewhere. cancel (may be NULL), once set, ends the wait:
 * -1, err "interrupted". */
int	d9x_outlock(const char *outdir, void (*note)(void *, const char *),
	    void *ctx, const _Atomic int *cancel, char *err, size_t errlen);
/* Let go of it (fd -1: nothing). */
void	d9x_outlock_free(int fd);

#endif
