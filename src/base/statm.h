/*
 * statm.h: the process's memory as /proc/self/statm counts it, in
 * bytes. The one reader of that file: a child's address-space limit
 * (symbolize/isolate.c) and how much of a mapped index the process
 * holds (store/image.c).
 */
#ifndef D9_STATM_H
#define D9_STATM_H

#include <stddef.h>

enum d9_statm_field {
	D9_STATM_SIZE,		/* the address space in use */
	D9_STATM_RESIDENT,	/* resident pages */
	D9_STATM_SHARED		/* resident pages backed by files */
};

/* The field's bytes now; 0 when it cannot be read (no /proc). */
size_t	d9_statm(enum d9_statm_field f);

#endif
