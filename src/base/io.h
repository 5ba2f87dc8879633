/*
 * io.h: writing a whole buffer to a file descriptor, and reading one
 * whole, for the recorder's segments and the DWARF reader's child alike;
 * reading a stretch of a file at an offset.
 */
#ifndef D9_IO_H
#define D9_IO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Write all n bytes of p to fd (EINTR retried): 0, or -1 with errno set
 * (EIO when the file takes no more bytes). */
int	d9_write_all(int fd, const void *p, size_t n);
/* Read up to n bytes into p, fewer only at the end of fd (EINTR
 * retried): how many, or -1 with errno set. */
ssize_t	d9_read_full(int fd, void *p, size_t n);
/* Read exactly n bytes of fd at offset off into p (EINTR retried): 0,
 * 1 when the file ends before, or -1 with errno set. */
int	d9_pread_full(int fd, void *p, size_t n, uint64_t off);

#endif
