/*
 * arena.h: a bump allocator made of chunks. One owner per lifetime: the
 * model's arena holds interned strings and stacks until d9m_model_free();
 * the decoder's arena holds one batch's pools and is reset at each header.
 */
#ifndef D9_ARENA_H
#define D9_ARENA_H

#include <stddef.h>

struct d9_arena_chunk;

struct d9_arena {
	struct d9_arena_chunk	*head;		/* chunk being filled */
	struct d9_arena_chunk	*spare;		/* kept by reset for reuse */
	size_t			 chunk_size;	/* default chunk payload */
	size_t			 used;		/* bytes handed out */
};

void	 d9_arena_init(struct d9_arena *a, size_t chunk_size);
/* NULL when out of memory; align must be a power of two. */
void	*d9_arena_alloc(struct d9_arena *a, size_t size, size_t align);
void	*d9_arena_memdup(struct d9_arena *a, const void *p, size_t size);
/* The n bytes at p (no more are read) and a NUL after them. */
char	*d9_arena_strndup(struct d9_arena *a, const void *p, size_t n);
void	 d9_arena_reset(struct d9_arena *a);	/* keep chunks, drop contents */
void	 d9_arena_free(struct d9_arena *a);

#endif
