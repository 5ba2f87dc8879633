/*
 * measure.h: one run of a program as the directory benchmark measures
 * it: wall time, CPU time (user + system of the child and the children
 * it waited for, from wait4) and peak RSS (ru_maxrss).
 */
#ifndef D9B_MEASURE_H
#define D9B_MEASURE_H

#include <stddef.h>
#include <stdint.h>

struct d9b_run {
	double		 wall;		/* seconds */
	double		 cpu;		/* user + system seconds */
	double		 rss_mib;	/* peak resident set */
	int		 status;	/* exit status, -1: killed or not run */
};

double	d9b_now(void);
/*
 * Run argv[0] (found on PATH) with the "NAME=VALUE" strings of env (NULL
 * or NULL-terminated) added to the environment, stdin from /dev/null,
 * stdout to out (a file, created) or /dev/null, stderr to err (a file)
 * or where the benchmark's goes when NULL. Returns r->status.
 */
int	d9b_run(char *const argv[], char *const env[], const char *out,
	    const char *err, struct d9b_run *r);
/* Run argv and keep up to cap - 1 bytes of its stdout in buf (NUL
 * terminated); returns the exit status, -1 when it could not run. */
int	d9b_capture(char *const argv[], char *buf, size_t cap);

/* The baseline every benchmark of a directory is measured against:
 * every file of DIR through `gzip -dc` (cat and a pipe), once to fill
 * the page cache, then the best of three into *best. 0, or -1 when it could not run. */
int	d9b_gzip_baseline(const char *dir, struct d9b_run *best);
/* The decompressed size of a gzip file (0 when it cannot be read). */
uint64_t d9b_gunzip_bytes(const char *path);
/* Wait until no d9top writes an entry of the index in cache (the
 * "<cache>/d9top/<roots>.lock" files a detached writer holds); the
 * seconds waited. */
double	d9b_settle(const char *cache);

#endif
