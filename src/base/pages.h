/*
 * pages.h: giving memory back to the system while it stays mapped. The
 * whole pages inside a range are dropped (MADV_DONTNEED): an anonymous
 * page reads as zeros afterwards, a file page is read again from the page
 * cache. For buffers read once, front to back, and mappings checked once.
 */
#ifndef D9_PAGES_H
#define D9_PAGES_H

#include <stddef.h>

/* Drop the pages wholly inside [p, p + n); the partial pages at either
 * end stay. Returns where the dropped pages end (p when none were), where
 * a caller walking a buffer front to back starts the next drop. */
const void *d9_pages_drop(const void *p, size_t n);

#endif
