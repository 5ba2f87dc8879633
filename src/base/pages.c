/* pages.c: see pages.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sys/mman.h>
#include <unistd.h>

#include "base/pages.h"

const void *
d9_pages_drop(const void *p, size_t n)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + pg - 1) / pg * pg;
	uintptr_t hi = ((uintptr_t)p + n) / pg * pg;

	if (hi <= lo)
		return p;
	madvise((void *)lo, hi - lo, MADV_DONTNEED);
	return (const void *)hi;
}

void *
d9_pages_realloc(void *p, size_t n)
{
	void *q = realloc(p, n);

#if defined(MADV_HUGEPAGE) && defined(__GLIBC__)
	/* glibc serves a block over its mmap threshold (d9top sets it to
	 * 4 MiB) from a mapping of its own: the block's 16-byte header
	 * starts it, whole pages end it; a block in the heap is left be.
	 * The advice covers the whole mapping or nothing, for advice on
	 * part of it splits it, and glibc's realloc then cannot mremap
	 * it: it copies instead. */
	if (q != NULL && n >= D9_PAGES_HUGE) {
		uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
		uintptr_t lo = (uintptr_t)q - 16;
		size_t len = malloc_usable_size(q) + 16;

		if (lo % pg == 0 && len % pg == 0)
			madvise((void *)lo, len, MADV_HUGEPAGE);
	}
#endif
	return q;
}

void *
d9_pages_alloc(size_t n)
{
	return d9_pages_realloc(NULL, n);
}

void *
d9_pages_calloc(size_t count, size_t elem)
{
	void *q;

	if (elem == 0 || count < D9_PAGES_HUGE / elem)
		return calloc(count, elem);	/* fresh pages read as zeros */
	if (count > SIZE_MAX / elem || (q = d9_pages_alloc(count * elem)) ==
	    NULL)
		return NULL;
	return memset(q, 0, count * elem);
}
