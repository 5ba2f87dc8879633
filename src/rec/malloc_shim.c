/*
 * malloc_shim.c: libd9rec-malloc.so, an LD_PRELOAD shim that reports
 * every allocation and free of the process to libd9rec's sampler
 * (d9rec_alloc_hook, d9rec_free_hook). It does nothing until a writer
 * with alloc_profile opens; the program must use the shared libd9rec
 * (the shim links against it, so both share one sampler).
 *
 * The real allocator is reached through glibc's __libc_* entry points, so
 * no dlsym() bootstrap is needed.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "rec/d9rec.h"

extern void	*__libc_malloc(size_t);
extern void	*__libc_calloc(size_t, size_t);
extern void	*__libc_realloc(void *, size_t);
extern void	*__libc_memalign(size_t, size_t);
extern void	 __libc_free(void *);

/* The shim's own entry points replace libc's; declared for -Wmissing-prototypes. */
void	*malloc(size_t);
void	*calloc(size_t, size_t);
void	*realloc(void *, size_t);
void	 free(void *);
void	*memalign(size_t, size_t);
void	*aligned_alloc(size_t, size_t);
int	 posix_memalign(void **, size_t, size_t);

void *
malloc(size_t n)
{
	void *p = __libc_malloc(n);

	d9rec_alloc_hook(p, n);
	return p;
}

void *
calloc(size_t n, size_t size)
{
	void *p = __libc_calloc(n, size);

	d9rec_alloc_hook(p, n * size);
	return p;
}

void *
realloc(void *p, size_t n)
{
	void *q;

	if (p != NULL)
		d9rec_free_hook(p);
	q = __libc_realloc(p, n);
	d9rec_alloc_hook(q, n);
	return q;
}

void
free(void *p)
{
	d9rec_free_hook(p);
	__libc_free(p);
}

void *
memalign(size_t align, size_t n)
{
	void *p = __libc_memalign(align, n);

	d9rec_alloc_hook(p, n);
	return p;
}

void *
aligned_alloc(size_t align, size_t n)
{
	return memalign(align, n);
}

int
posix_memalign(void **out, size_t align, size_t n)
{
	void *p;

	if (align < sizeof(void *) || (align & (align - 1)) != 0)
		return EINVAL;
	if ((p = memalign(align, n)) == NULL)
		return ENOMEM;
	*out = p;
	return 0;
}
