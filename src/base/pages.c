/* pages.c: see pages.h. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sys/mman.h>
#include <unistd.h>

#include "base/pages.h"

/*
 * A block that glibc would map on its own (its size is over malloc's
 * mmap threshold), or would map once it doubles, is mapped here
 * instead, on 2 MiB boundaries: its mapping starts on one and is a whole
 * number of them long. Growing it maps a larger aligned range and moves
 * the pages there (mremap to a fixed address): both ends aligned, the
 * kernel moves whole page tables, never the bytes. The mapping is
 * advised to 2 MiB pages (pages.h says why), as the heap's first pad is
 * (d9_pages_heap: one file's read 11 ms faster with them).
 *
 * The mapping starts with the 16 bytes glibc writes before a block it
 * maps (no offset, then the size and the "mapped" bit): free(), realloc()
 * and malloc_usable_size() take it as theirs. A malloc that is not
 * glibc's (valgrind's) does not know the block: malloc_usable_size() then
 * disagrees with the head, and the block is made by realloc() instead;
 * a sanitizer's malloc would stop there, so its builds leave this out.
 */
#if defined(__has_feature)	/* clang's way of saying a sanitizer */
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define BIG_NOT_GLIBC	1
#endif
#endif
#if defined(__GLIBC__) && defined(MREMAP_FIXED) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(BIG_NOT_GLIBC)
#define BIG_HEAD	(2 * sizeof(size_t))
#define BIG_MAPPED	2	/* glibc's IS_MMAPPED */

/* A big block's mapping length for n bytes (0 on overflow). */
static size_t
big_len(size_t n)
{
	if (n > SIZE_MAX - BIG_HEAD - 2 * D9_PAGES_HUGE)
		return 0;
	return (n + BIG_HEAD + D9_PAGES_HUGE - 1) / D9_PAGES_HUGE *
	    D9_PAGES_HUGE;
}

/* Whether p (a block of the malloc in use, or NULL) is a big block, and
 * its mapping's length: aligned and a whole number of 2 MiB pages long,
 * as glibc's head says. One of glibc's heap blocks has a usable size 8
 * past a multiple of 16; one it mapped may pass, and is then as good. */
static int
big_is(const void *p, size_t *len)
{
	if (p == NULL || (uintptr_t)p % D9_PAGES_HUGE != BIG_HEAD)
		return 0;
	*len = malloc_usable_size((void *)p) + BIG_HEAD;
	return *len % D9_PAGES_HUGE == 0;
}

/* Whether glibc maps a block of n bytes on its own: one is made and
 * given back, its pages never touched. */
static int
big_glibc_maps(size_t n)
{
	void *t = malloc(n);
	int maps = t != NULL &&
	    (uintptr_t)t % (uintptr_t)sysconf(_SC_PAGESIZE) == BIG_HEAD;

	free(t);
	return maps;
}

/* An aligned range of len bytes, or NULL. */
static char *
big_map(size_t len)
{
	char *r, *a;

	r = mmap(NULL, len + D9_PAGES_HUGE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return NULL;
	a = (char *)(((uintptr_t)r + D9_PAGES_HUGE - 1) / D9_PAGES_HUGE *
	    D9_PAGES_HUGE);
	if (a > r)
		munmap(r, (size_t)(a - r));
	munmap(a + len, (size_t)(r + D9_PAGES_HUGE - a));
#ifdef MADV_HUGEPAGE
	madvise(a, len, MADV_HUGEPAGE);	/* where the kernel has them */
#endif
	return a;
}

/* The block of the mapping at a of len bytes, its head written. */
static void *
big_head(char *a, size_t len)
{
	size_t *h = (size_t *)a;

	h[0] = 0;
	h[1] = len | BIG_MAPPED;
	return a + BIG_HEAD;
}

/* The big block p of a mapping of old bytes grown or shrunk to n bytes
 * (n of D9_PAGES_HUGE or more); NULL, p unchanged, when out of memory. */
static void *
big_move(void *p, size_t old, size_t n)
{
	size_t len = big_len(n);
	char *a;

	if (len == old)
		return p;
	if (len == 0 || (a = big_map(len)) == NULL)
		return NULL;
	/* the mapping moves and grows in one piece over the new range;
	 * copied only if that fails (it is no longer one mapping) */
	if (mremap((char *)p - BIG_HEAD, old, len, MREMAP_MAYMOVE |
	    MREMAP_FIXED, a) == MAP_FAILED) {
		memcpy(a, (char *)p - BIG_HEAD, old < len ? old : len);
		munmap((char *)p - BIG_HEAD, old);
	}
	return big_head(a, len);
}

/* A new big block of n bytes holding p's bytes (p, when not NULL, a
 * block of the malloc in use, freed); NULL, p unchanged, when this
 * cannot be done here. */
static void *
big_new(void *p, size_t n)
{
	size_t len = big_len(n), keep;
	char *a;
	void *q;

	if (len == 0 || (a = big_map(len)) == NULL)
		return NULL;
	q = big_head(a, len);
	if (malloc_usable_size(q) + BIG_HEAD != len) {
		munmap(a, len);		/* not glibc's malloc */
		return NULL;
	}
	if (p != NULL) {
		keep = malloc_usable_size(p);
		memcpy(q, p, keep < n ? keep : n);
		free(p);
	}
	return q;
}
#endif

void
d9_pages_heap(size_t pad)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	char *b, *lo, *end;

	if (pad > INT32_MAX)
		pad = INT32_MAX;
	mallopt(M_TOP_PAD, (int)pad);
	if ((b = malloc(D9_PAGES_HUGE / 8)) == NULL)
		return;
	lo = (char *)((uintptr_t)b / pg * pg);
	end = sbrk(0);
	if (end != (char *)-1 && lo < end)
		madvise(lo, (size_t)(end - lo), MADV_HUGEPAGE);
	free(b);
#else
	(void)pad;
#endif
}

void
d9_pages_heap_end(void)
{
#ifdef __GLIBC__
	mallopt(M_TOP_PAD, 128 << 10);	/* glibc's default */
#endif
}

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

const void *
d9_pages_drop_whole(const void *p, size_t n)
{
	uintptr_t end = ((uintptr_t)p + n) / D9_PAGES_HUGE * D9_PAGES_HUGE;

	return end > (uintptr_t)p ? d9_pages_drop(p, end - (uintptr_t)p) : p;
}

int
d9_pages_own(void)
{
#ifdef BIG_HEAD
	return 1;
#else
	return 0;
#endif
}

void *
d9_pages_realloc(void *p, size_t n)
{
#ifdef BIG_HEAD
	size_t old;
	void *q;
#endif

	if (n > PTRDIFF_MAX)
		return NULL;	/* no malloc gives it; a sanitizer's stops */
#ifdef BIG_HEAD
	if (n >= D9_PAGES_HUGE) {
		if (big_is(p, &old))
			return big_move(p, old, n);
		/* glibc would map the block at its next doubling: mapped
		 * now, it moves then instead of being copied out of the
		 * heap (a column growing by doubling was copied twice
		 * between 2 and 8 MiB, into fresh memory each time) */
		if (n <= SIZE_MAX / 2 && big_glibc_maps(2 * n) &&
		    (q = big_new(p, n)) != NULL)
			return q;
	}
#endif
	return realloc(p, n);
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
		return calloc(count, elem);
	if (count > SIZE_MAX / elem || (q = d9_pages_alloc(count * elem)) ==
	    NULL)
		return NULL;
#ifdef BIG_HEAD
	size_t len;

	if (big_is(q, &len))
		return q;	/* a fresh mapping reads as zeros */
#endif
	return memset(q, 0, count * elem);
}
