/*
 * hmap.h: the one hash map of d9top (and of libd9rec): open addressing
 * with linear probing, from 64-bit keys to 32-bit values.
 *
 * Two ways to use it:
 *   - u64 keys (task ids, addresses, DIE offsets, pool ids): the key is
 *     the whole identity; d9_hmap_get() and d9_hmap_put().
 *   - rows the caller keeps (interned blobs, strings, pairs): the key is
 *     the row's 64-bit hash and the value its row number; an eq callback
 *     says whether a stored row is the one looked for, and a make
 *     callback adds the row when it is absent (d9_hmap_find(),
 *     d9_hmap_find_or_add()). Keys are stored, so growing never calls
 *     back into the caller.
 *
 * Slots are a power of two, at most half full; the table doubles when an
 * insert would pass that. Nothing is ever deleted (clear forgets all), so
 * a probe stops at the first empty slot. D9_NONE is the "absent" answer
 * and cannot be stored as a value. Allocation happens only when growing:
 * after d9_hmap_reserve(m, n), inserts up to n keys in all allocate
 * nothing. Not thread-safe: one owner at a time (the recorder's lock-free
 * live-allocation table in rec/alloc.c is a different structure).
 */
#ifndef D9_HMAP_H
#define D9_HMAP_H

#include <stddef.h>
#include <stdint.h>

#define D9_NONE UINT32_MAX	/* "no id" for every uint32_t id column */

struct d9_hslot {
	uint64_t	 key;
	uint32_t	 val;
	uint32_t	 used;		/* 0: empty */
};

struct d9_hmap {
	struct d9_hslot	*slot;
	size_t		 n;		/* keys stored */
	size_t		 nslots;	/* 0 or a power of two >= 2 n */
	unsigned	 shift;		/* 64 - log2(nslots) */
};

void		 d9_hmap_init(struct d9_hmap *m);
void		 d9_hmap_free(struct d9_hmap *m);
/* Forget every key; the slots stay allocated. */
void		 d9_hmap_clear(struct d9_hmap *m);
/* Room for n keys in all without further allocation: 0, or -1 when out
 * of memory. */
int		 d9_hmap_reserve(struct d9_hmap *m, size_t n);
/* dst (initialised, empty) becomes a copy of src: 0, or -1 when out of
 * memory (dst is then empty). */
int		 d9_hmap_copy(struct d9_hmap *dst, const struct d9_hmap *src);

/* u64 keys. The value of key, or D9_NONE. */
uint32_t	 d9_hmap_get(const struct d9_hmap *m, uint64_t key);
/* Insert or replace: 0, or -1 when out of memory or val is D9_NONE. */
int		 d9_hmap_put(struct d9_hmap *m, uint64_t key, uint32_t val);

/* Rows. eq(ctx, val) is asked about each stored value whose key equals
 * key; NULL means the key alone decides. The value found, or D9_NONE. */
uint32_t	 d9_hmap_find(const struct d9_hmap *m, uint64_t key,
		    int (*eq)(const void *ctx, uint32_t val), const void *ctx);
/* The value found as by d9_hmap_find(); when absent, make(ctx) is called
 * and what it returns is stored under key, unless it is D9_NONE (make
 * failed: nothing is stored). D9_NONE also when out of memory, before
 * make is called. make must not use the map. */
uint32_t	 d9_hmap_find_or_add(struct d9_hmap *m, uint64_t key,
		    int (*eq)(const void *ctx, uint32_t val),
		    uint32_t (*make)(void *ctx), void *ctx);

/* Walk the stored keys in slot order (not insertion order):
 *	for (size_t pos = 0; d9_hmap_next(m, &pos, &key, &val); )
 * 1 with *key and *val set, 0 at the end. key or val may be NULL. */
int		 d9_hmap_next(const struct d9_hmap *m, size_t *pos,
		    uint64_t *key, uint32_t *val);

#endif
