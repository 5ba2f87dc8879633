/*
 * prefault.h: a thread that brings memory in before it is written. A
 * thread that fills large buffers front to back asks for the range it is
 * about to write; this one faults it in (MADV_POPULATE_WRITE, 2 MiB at a
 * time) on another core. The bytes are never changed: a page already
 * there is left as it is, and a range that is no longer mapped, or
 * mapped to something else since, is skipped or merely brought in.
 *
 * Where fresh memory is dear (a guest whose host backs a page only when
 * it is first touched: 250 MB/s measured here), the thread that builds
 * the model spent a third of its load faulting its columns in.
 */
#ifndef D9_PREFAULT_H
#define D9_PREFAULT_H

#include <stddef.h>

struct d9_prefault;

/* A new thread, idle until asked; NULL when it cannot be had (no
 * thread, or a system without MADV_POPULATE_WRITE at build time). */
struct d9_prefault *d9_prefault_new(void);
/* Ask for [p, p + n) to be brought in: queued, or dropped when the queue
 * is full or the kernel has refused before. */
void	 d9_prefault_ask(struct d9_prefault *pf, const void *p, size_t n);
/* Stop the thread (what is still queued is dropped) and free it; *ppf
 * becomes NULL. */
void	 d9_prefault_free(struct d9_prefault **ppf);
/* How many bytes the thread has brought in, for the tests. */
size_t	 d9_prefault_done(struct d9_prefault *pf);

#endif
