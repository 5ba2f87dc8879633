/*
 * arena.c: chunks are linked newest first. An allocation larger than the
 * chunk size gets a chunk of its own so big strings do not waste space.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

struct d9_arena_chunk {
	struct d9_arena_chunk	*next;
	size_t			 size;	/* payload bytes */
	size_t			 off;	/* payload bytes used */
	max_align_t		 data[];
};

void
d9_arena_init(struct d9_arena *a, size_t chunk_size)
{
	memset(a, 0, sizeof *a);
	a->chunk_size = chunk_size ? chunk_size : 64 * 1024;
}

static struct d9_arena_chunk *
chunk_new(size_t size)
{
	struct d9_arena_chunk *c;

	if (size > SIZE_MAX - sizeof *c)
		return NULL;
	c = malloc(sizeof *c + size);
	if (c == NULL)
		return NULL;
	c->next = NULL;
	c->size = size;
	c->off = 0;
	return c;
}

/* Offset in c of the first free address aligned to align. */
static size_t
aligned_off(const struct d9_arena_chunk *c, size_t align)
{
	uintptr_t base = (uintptr_t)c->data;

	return (size_t)(((base + c->off + align - 1) &
	    ~(uintptr_t)(align - 1)) - base);
}

void *
d9_arena_alloc(struct d9_arena *a, size_t size, size_t align)
{
	struct d9_arena_chunk *c = a->head;
	size_t off;

	if (align == 0)
		align = 1;
	if (size >= SIZE_MAX / 2 || align >= SIZE_MAX / 2)
		return NULL;
	if (c != NULL) {
		off = aligned_off(c, align);
		if (off <= c->size && c->size - off >= size) {
			c->off = off + size;
			a->used += size;
			return (char *)c->data + off;
		}
	}
	if (size + align > a->chunk_size ||
	    (size + align > a->chunk_size / 4 && size + align > 256)) {
		/* big: own chunk, placed behind the head so the head keeps filling */
		c = chunk_new(size + align);
		if (c == NULL)
			return NULL;
		if (a->head != NULL) {
			c->next = a->head->next;
			a->head->next = c;
		} else
			a->head = c;
	} else {
		if (a->spare != NULL && a->spare->size >= a->chunk_size) {
			c = a->spare;
			a->spare = c->next;
			c->off = 0;
		} else if ((c = chunk_new(a->chunk_size)) == NULL)
			return NULL;
		c->next = a->head;
		a->head = c;
	}
	off = aligned_off(c, align);
	c->off = off + size;
	a->used += size;
	return (char *)c->data + off;
}

void *
d9_arena_memdup(struct d9_arena *a, const void *p, size_t size)
{
	/* aligned for any type: copies of structs (JSON values, frames)
	 * are used in place */
	void *q = d9_arena_alloc(a, size ? size : 1, _Alignof(max_align_t));

	if (q != NULL && size)
		memcpy(q, p, size);
	return q;
}

void
d9_arena_reset(struct d9_arena *a)
{
	struct d9_arena_chunk *c = a->head, *next;

	for (; c != NULL; c = next) {
		next = c->next;
		if (c->size == a->chunk_size) {
			c->next = a->spare;
			a->spare = c;
		} else
			free(c);
	}
	a->head = NULL;
	a->used = 0;
}

void
d9_arena_free(struct d9_arena *a)
{
	struct d9_arena_chunk *c, *next;

	d9_arena_reset(a);
	for (c = a->spare; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	a->spare = NULL;
}

char *
d9_arena_strndup(struct d9_arena *a, const void *p, size_t n)
{
	char *q = n < SIZE_MAX ? d9_arena_alloc(a, n + 1, 1) : NULL;

	if (q != NULL) {
		memcpy(q, p, n);
		q[n] = '\0';
	}
	return q;
}
