/*
 * io.h: writing a whole buffer to a file descriptor, for the recorder's
 * segments and the DWARF reader's child alike.
 */
#ifndef D9_IO_H
#define D9_IO_H

#include <stddef.h>

/* Write all n bytes of p to fd (EINTR retried): 0, or -1 with errno set
 * (EIO when the file takes no more bytes). */
int	d9_write_all(int fd, const void *p, size_t n);

#endif
