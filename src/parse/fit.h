/*
 * fit.h: which inputs of a read fit in the memory d9top may use. A host
 * directory of a week of segments holds more events than the machine
 * has memory; read whole, it ends with the OOM killer (d9top's or, on a
 * production host, another process's). The reader guesses each file's
 * model from the sizes its container states (a gzip member's ISIZE, a
 * zstd frame's content size, a raw file's own), and reads the newest
 * files that fit; the older ones are named in one message (reader.c).
 * Guesses are capped at what the container can hold: a file that
 * states more than it holds can only take room from the files older
 * than it.
 */
#ifndef D9P_FIT_H
#define D9P_FIT_H

#include <stddef.h>
#include <stdint.h>

/* A guess is at most D9P_FIT_RATIO times its file's size (deflate's
 * most), and a third more. */
#define D9P_FIT_RATIO	1032
/* The model's bytes besides the files' (tables, symbols, the analysis),
 * counted once; the files decompressed ahead count too (fit.c). */
#define D9P_FIT_FIXED	((uint64_t)64 << 20)

struct d9p_fit {
	uint64_t	 need;		/* d9p_fit_need's, 0: not known */
	int64_t		 began_ns;	/* when its segment began (its clock
					 * sync's wall time), else the file's
					 * mtime: ns since the Unix epoch */
	int		 drop;		/* out: left unread */
};

/* Bytes the model of the file at path (size bytes long) is guessed to
 * take: its decoded bytes (as its container says, at most D9P_FIT_RATIO
 * times its size) and a third more (a read holds about its decoded
 * bytes, finishing a third more: stream.c stops a read at three
 * quarters of the budget). 0 when it cannot be opened. */
uint64_t d9p_fit_need(const char *path, uint64_t size);
/* The decoded bytes the container of fd (size bytes) states, at most
 * d9p_fit_most(size): gzip's ISIZE, a zstd frame's content size, a raw
 * file's size (a guess: a file of many members says less). */
uint64_t d9p_fit_stated(int fd, uint64_t size);
/* The largest guess a file of size bytes can get, whatever it states. */
uint64_t d9p_fit_most(uint64_t size);

/* What a read of v takes besides the files' needs: D9P_FIT_FIXED, and
 * the files the prefetch holds decompressed ahead of the one read. */
uint64_t d9p_fit_base(const struct d9p_fit *v, size_t n);

/* Mark drop on the oldest of v (by began_ns, then by place) until the
 * rest, with d9p_fit_base, fits in budget; the newest always stays, and
 * no file stays that is older than one dropped. Returns how many were
 * dropped, and in *kept the need of those that stay. */
size_t	d9p_fit_pick(struct d9p_fit *v, size_t n, uint64_t budget,
	    uint64_t *kept);

#endif
