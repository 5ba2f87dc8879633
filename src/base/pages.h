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

/* A transparent huge page: the size from which d9_pages_realloc maps a
 * block on its own, on boundaries of it, and the unit in which pages
 * backed by them (the heap's, d9_pages_heap) are best given back
 * (giving back part of one splits it). */
#define D9_PAGES_HUGE	((size_t)2 << 20)

/* d9_pages_drop of [p, p + n) up to the last 2 MiB boundary in it: for
 * giving back a buffer front to back as it is read, without splitting
 * the huge page being read (its 4 KiB pages then miss the TLB, and each
 * split stops every core for a TLB shootdown). Returns where the dropped
 * pages end (p when none were), where the next drop starts. */
const void *d9_pages_drop_whole(const void *p, size_t n);

/*
 * The heap's next pad bytes backed by 2 MiB pages where the kernel gives
 * them on advice: glibc is told to grow the heap pad bytes at a time
 * (M_TOP_PAD; freed memory at the heap's top is kept up to that much),
 * it is grown once, and the whole of it is advised. A heap that grows
 * past it grows in small pages. For a program's start, before it
 * allocates much (the advice stays on what the heap has then).
 */
void d9_pages_heap(size_t pad);
/* The heap's pad back to glibc's default: freed memory at its top goes
 * back from then on. For when a read is over and what it kept is big
 * (a directory's cold read peaked 27 MiB lower, one file 0.01 s
 * slower). */
void d9_pages_heap_end(void);

/*
 * realloc(p, n) whose block, once it is large (D9_PAGES_HUGE bytes or
 * more), grows without being copied: a block glibc would map on its own
 * (over malloc's mmap threshold), or at its next doubling, is mapped on
 * 2 MiB boundaries and its pages moved whole when it grows (pages.c), so
 * that a growing column is not copied out of the heap; free() and
 * realloc() take it. For the model's columns and the sorts' scratch.
 * Its mapping is advised to 2 MiB pages where the kernel has them. Which
 * pages are cheaper depends on the host: where a page fault is dear (a
 * paravirtualised guest, 10 us a fault) small pages cost a cold read of
 * 58 segments 300 k faults, 5.4 s against 3.4 s (6 interleaved runs,
 * 2 x 58 segments 14.9 s against 8.5 s) for 70 MiB less RSS at most;
 * where the host backs memory only as it is first touched, zeroing a
 * fresh 2 MiB page is what costs, and small pages were faster by 6 %
 * (13 % at 2 x, 1 % at 4 x). The larger loss is the one avoided.
 * malloc is d9_pages_realloc(NULL, n).
 */
void *d9_pages_realloc(void *p, size_t n);
/* Whether this build maps big blocks itself, and glibc's heap is the
 * heap d9_pages_heap advises: not under a sanitizer, whose malloc is
 * its own (there the blocks are its, and no size over PTRDIFF_MAX is
 * asked of it either way). */
int d9_pages_own(void);
/* malloc(n) and calloc(count, elem) so (NULL on overflow too) */
void *d9_pages_alloc(size_t n);
void *d9_pages_calloc(size_t count, size_t elem);

#endif
