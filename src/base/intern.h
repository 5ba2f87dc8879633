/*
 * intern.h: a table that gives every distinct byte string (a name, a
 * spawn location, a stack as an array of u64) one dense uint32_t id.
 * Blobs are copied into the owner's arena once and never move, so
 * d9_intern_str() pointers stay valid for the table's lifetime.
 */
#ifndef D9_INTERN_H
#define D9_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/hmap.h"

struct d9_intern {
	struct d9_arena	*arena;		/* borrowed: where blobs live */
	size_t		 n, cap;	/* ids in use, capacity of the columns */
	const void	**blob;		/* id -> bytes */
	uint32_t	*len;		/* id -> length in bytes */
	uint32_t	*hash;		/* id -> d9_hash, to compare and grow */
	struct d9_hmap	 ids;		/* d9_hash of the bytes -> id */
};

void		 d9_intern_init(struct d9_intern *t, struct d9_arena *arena);
void		 d9_intern_free(struct d9_intern *t);
/* Make dst (initialised, empty) hold src's ids. The blobs are shared,
 * not copied: src's arena must outlive dst. New ids go to dst's arena. */
int		 d9_intern_share(struct d9_intern *dst,
		    const struct d9_intern *src);
/* The id of these bytes, added when new; D9_NONE when out of memory. */
uint32_t	 d9_intern(struct d9_intern *t, const void *p, size_t len);
/* The same for text from a trace: a NUL inside is kept as C0 80 (text.h),
 * so the whole string shows wherever it is used as a C string. */
uint32_t	 d9_intern_text(struct d9_intern *t, const void *p, size_t len);
/* The id if present, else D9_NONE. */
uint32_t	 d9_intern_find(const struct d9_intern *t, const void *p,
		    size_t len);

static inline const char *
d9_intern_str(const struct d9_intern *t, uint32_t id, uint32_t *len)
{
	if (id >= t->n) {
		if (len)
			*len = 0;
		return "";
	}
	if (len)
		*len = t->len[id];
	return t->blob[id];
}

#endif
