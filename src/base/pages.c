/* pages.c: see pages.h. */
#include <stdint.h>
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
