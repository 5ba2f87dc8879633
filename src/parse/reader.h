/*
 * reader.h: reading a list of paths (files, directories, "-" for stdin)
 * into a sink. Directories are walked recursively, names in version
 * order; each input is one stream (decoder state restarts). Problems are
 * reported as "name: byte N: what went wrong" through the note callback
 * and never stop the other inputs; damage costs only its gzip member,
 * zstd frame or batch (ANALYSIS 19.1: the sink hears D9P_LOSS_DAMAGED).
 *
 * Each segment is read once (ANALYSIS 19): a directory reached again
 * (a symlink to . or ..) is not walked again, a file reached twice (the
 * same device and inode) is read once, and of the files that hold the
 * same segment (parse/segid.h) only the one with the most decoded bytes
 * is read. The files left out are counted (stats->copies) and told to
 * the sink (D9P_LOSS_COPY).
 */
#ifndef D9P_READER_H
#define D9P_READER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "parse/decoder.h"

struct d9p_progress {
	_Atomic uint64_t bytes_in;	/* compressed bytes consumed */
	_Atomic uint64_t bytes_total;	/* the files' size as listed before
					 * the first is read (not stdin's),
					 * or 0 */
	_Atomic uint64_t events;
	_Atomic int	 cancel;	/* set by another thread to stop */
	/* Optional, called on the reading thread after each chunk was
	 * decoded (every event before it has reached the sink). */
	void		(*tick)(void *ctx);
	void		*tick_ctx;
};

/* Files of a directory that are not traces named one by one, at most:
 * a wrong directory (a home, a log folder) says how many more in one
 * line, not a line each. */
#define D9P_SKIPPED_TOLD	10

struct d9p_read_stats {
	unsigned	 inputs;	/* streams opened */
	unsigned	 read_ok;	/* inputs with at least one event */
	unsigned	 skipped;	/* not traces: the first
					 * D9P_SKIPPED_TOLD named in a note
					 * each, the rest counted in one */
	unsigned	 failed;	/* stopped by an error, or damage
					 * skipped (one per stretch) */
	unsigned	 copies;	/* files not read: copies of a segment */
	unsigned	 unread;	/* files not read: older than those that
					 * fit in mem_budget, or after reading
					 * stopped (full); told to the sink
					 * (D9P_LOSS_UNREAD) */
	int		 full;		/* reading stopped: the process held
					 * near mem_budget (stream.c); no
					 * input after is read. Zero it before
					 * a d9p_read_fd (d9p_read_paths and
					 * a follower's poll set it) */
	unsigned	 whole;		/* inputs decompressed whole */
	unsigned	 prefetched;	/* of them, on another core */
	uint64_t	 events;
	uint64_t	 decoded;	/* decoded bytes */
	uint64_t	 consumed;	/* input bytes */
};

struct d9p_read_opts {
	/* One message per problem; msg is only valid during the call. */
	void		(*note)(void *ctx, const char *msg);
	void		*note_ctx;
	struct d9p_progress *progress;	/* optional */
	/* 1: every input streams through zlib and zstd as it is read; 0
	 * (the default): a regular gzip file is decompressed whole by
	 * libdeflate first, and the files of a directory ahead of the one
	 * being decoded on other cores (parse/whole.h, parse/prefetch.h).
	 * (d9top's D9TOP_STREAM=1, read by src/app, sets it.) Both give the sink
	 * the same calls and the same notes. */
	int		 stream_only;
	/* 1: a gzip file no other core decompressed ahead (a single file,
	 * or one the prefetch did not reach) is decompressed whole here
	 * before it is decoded; 0 (the default): it streams, decompressed
	 * on another core beside the decoding, when the machine has one
	 * (the demo trace: 0.22 s instead of 0.26 s). For tests of the
	 * whole path: their answer is the same either way. */
	int		 whole_alone;
	/* Bytes the model may take, 0 for no limit: of the files listed,
	 * the newest that fit are read, the rest named in one note (fit.h);
	 * and whatever the inputs (stdin, one big file, files followed),
	 * reading stops, told once, where the process holds three quarters
	 * of it (the rest is for finishing what was read). */
	uint64_t	 mem_budget;
};

/* Returns 0, or < 0 only when out of memory. */
int	d9p_read_paths(const char *const *paths, size_t npaths,
	    const struct d9p_sink *sink, const struct d9p_read_opts *opts,
	    struct d9p_read_stats *stats);
/* Every input of paths in reading order: regular files (in_dir set for
 * those found in a directory) and stdin (path "stdin", sb zeroed); the
 * visitor takes fd. A visitor's -1 (out of memory) stops the walk. No
 * directory is walked twice and no file is visited twice. */
struct stat;
typedef int (*d9p_visit)(void *ctx, const char *path, int fd,
	    const struct stat *sb, int in_dir);
int	d9p_walk(const char *const *paths, size_t npaths, d9p_visit visit,
	    void *ctx, const struct d9p_read_opts *opts,
	    struct d9p_read_stats *stats);
/* The files of paths a read with o leaves unread for memory (fit.h:
 * told in o's note as d9p_read_paths tells it, counted in st->unread),
 * each to each(ctx, path); -1 when out of memory or each says so. For a
 * follower, whose first poll reads only what d9p_read_paths would. */
int	d9p_unread_of(const char *const *paths, size_t npaths,
	    const struct d9p_read_opts *o, struct d9p_read_stats *st,
	    int (*each)(void *ctx, const char *path), void *ctx);
/* path without ".active", ".gz", ".zst" at its end (in any number):
 * the name every state of a segment file shares (FORMAT 1.4); malloc'd,
 * NULL when out of memory. */
char	*d9p_stem(const char *path);
/* "PATH: no files in it" to note for each of paths that is a directory
 * with nothing the walk reads (no name but hidden ones): for when nothing
 * could be read. */
void	d9p_say_empty(const char *const *paths, size_t npaths,
	    void (*note)(void *, const char *), void *ctx);
/* Whether path names a segment still being written (.active). */
int	d9p_is_active(const char *path);
/* An .active segment written to within this many seconds is being
 * written (a recorder's); one quiet longer is a stopped or crashed
 * recorder's, cut where it stopped. */
#define D9P_ACTIVE_QUIET	600
/* Whether the file at path (its status sb) is an .active segment being
 * written at now. Read as it is, such a segment ends where its writer
 * is: neither cut nor lost (the sink hears D9P_INPUT_WRITTEN), as when
 * it is followed. */
struct stat;
int	d9p_is_written(const char *path, const struct stat *sb, time_t now);
/* Read one already-open stream (fd is closed). */
int	d9p_read_fd(int fd, const char *name, int in_dir,
	    const struct d9p_sink *sink, const struct d9p_read_opts *opts,
	    struct d9p_read_stats *stats);

#endif
