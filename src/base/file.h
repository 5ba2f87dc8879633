/*
 * file.h: opening a file d9top reads whole or maps (--kallsyms, --binary,
 * files under --debug-dir, binaries a trace names). Only a regular file
 * of at most a given size is opened: a device (/dev/zero), a FIFO or a
 * directory is refused at once, and opening a FIFO never blocks.
 */
#ifndef D9_FILE_H
#define D9_FILE_H

#include <stdint.h>

#include "base/err.h"

/* The limits of the callers, in bytes. */
#define D9_FILE_MAX_TEXT	(256ull << 20)	/* a kallsyms copy */
#define D9_FILE_MAX_ELF		(4ull << 30)	/* a binary or debug file */

/* A read-only, close-on-exec descriptor of path, its size in *size
 * (when size is not NULL); or -1 with e saying why, without the path:
 * "not a regular file", "larger than 256 MiB", strerror. */
int	d9_file_open(const char *path, uint64_t max, uint64_t *size,
	    struct d9_err *e);

struct stat;
/* Why what sb describes is not this user's alone (ssh's and tmux's
 * rule: owned by the effective user, writable by nobody else), for a
 * directory d9top writes into or a file it trusts: anyone else who may
 * write there could plant or replace what is in it. NULL when it is. */
const char *d9_file_not_private(const struct stat *sb);

#endif
