/*
 * hmap.h: the one hash map of d9top (and of libd9rec): open addressing
 * with linear probing over 4-byte slots, each holding a row number + 1
 * (0: empty). The keys live in the caller's rows, which keeps the table
 * as small as the hand-written ones it replaced.
 *
 * Two ways to use a map (one per map, never both):
 *   - rows the caller keeps (interned blobs, tasks, pool entries): an eq
 *     function says whether a stored row is the one looked for, and a
 *     const struct d9_hmap_rows what a stored row's hash is (asked when
 *     the table grows) and how to add the row looked for; ctx carries
 *     the caller's table and the key (d9_hmap_find(),
 *     d9_hmap_find_or_add()). The value is the row number. eq is an
 *     argument of its own so that the compiler inlines it.
 *   - u64 keys (addresses, DIE offsets, hashes as identities): the map
 *     keeps the keys and values itself, in order of insertion
 *     (d9_hmap_get(), d9_hmap_put(), d9_hmap_next()).
 *
 * A hash places a row by Fibonacci hashing (the top bits of hash *
 * 2^64/phi, which depend on every bit, so dense ids and aligned
 * addresses spread too). Slots are a power of two, at most half full; the
 * table doubles when an insert would pass that. Nothing is ever deleted
 * (clear forgets all), so a probe stops at the first empty slot. D9_NONE
 * is the "absent" answer and cannot be stored. Memory is allocated only
 * by inserts and d9_hmap_reserve(); clear keeps it. Not thread-safe: one
 * owner at a time (the recorder's lock-free live-allocation table in
 * rec/alloc.c, written from allocator hooks, is another structure).
 */
#ifndef D9_HMAP_H
#define D9_HMAP_H

#include <stddef.h>
#include <stdint.h>

#define D9_NONE UINT32_MAX	/* "no id" for every uint32_t id column */

struct d9_hmap {
	uint32_t	*slot;		/* row + 1, 0: empty */
	size_t		 n;		/* keys stored */
	size_t		 nslots;	/* 0 or a power of two >= 2 n */
	unsigned	 shift;		/* 64 - log2(nslots) */
	/* u64 keys only: row i is (key[i], val[i]) */
	uint64_t	*key;
	uint32_t	*val;
	size_t		 cap;
};

/* How a map re-places and adds the caller's rows. ctx is the caller's:
 * its table, and the key looked for. hash must give a stored row the
 * hash it was added under. */
struct d9_hmap_rows {
	uint64_t	(*hash)(const void *ctx, uint32_t row);
	uint32_t	(*make)(void *ctx);	/* its row, or D9_NONE */
};

/* A 64-bit hash of bytes, for rows keyed by text or blobs. */
uint64_t	 d9_hash(const void *p, size_t len);

void		 d9_hmap_init(struct d9_hmap *m);
void		 d9_hmap_free(struct d9_hmap *m);
/* Forget every key; the memory stays allocated. */
void		 d9_hmap_clear(struct d9_hmap *m);
/* Size an empty map, or one of u64 keys, for n keys in all, so that no
 * insert up to n regrows the table: 0, or -1 when out of memory (or
 * when the map holds rows, which only d9_hmap_grow can re-place). */
int		 d9_hmap_reserve(struct d9_hmap *m, size_t n);
/* Make room for one more key (doubling the table, re-placing the rows
 * by rows->hash): 0, or -1 when out of memory. For the inline insert. */
int		 d9_hmap_grow(struct d9_hmap *m, const struct d9_hmap_rows *rows,
		    const void *ctx);
/* dst (initialised) becomes a copy of src: 0, or -1 when out of memory
 * (dst is then empty). */
int		 d9_hmap_copy(struct d9_hmap *dst, const struct d9_hmap *src);

/* u64 keys. The value of key, or D9_NONE. */
uint32_t	 d9_hmap_get(const struct d9_hmap *m, uint64_t key);
/* Insert or replace: 0, or -1 when out of memory or val is D9_NONE. */
int		 d9_hmap_put(struct d9_hmap *m, uint64_t key, uint32_t val);
/* Walk the keys in order of first insertion:
 *	for (size_t pos = 0; d9_hmap_next(m, &pos, &key, &val); )
 * 1 with *key and *val set (either may be NULL), 0 at the end. */
int		 d9_hmap_next(const struct d9_hmap *m, size_t *pos,
		    uint64_t *key, uint32_t *val);

/*
 * Rows. The lookups are inline so that the compiler can inline the
 * caller's eq too: they run once per decoded field or event.
 */

static inline size_t
d9_hmap_home_(const struct d9_hmap *m, uint64_t hash)
{
	return (size_t)((hash * 0x9e3779b97f4a7c15ull) >> m->shift);
}

/* The slot of the row looked for, or the empty slot where it would go
 * (m has slots). */
static inline uint32_t *
d9_hmap_slot_(const struct d9_hmap *m, uint64_t hash,
    int (*eq)(const void *ctx, uint32_t row), const void *ctx)
{
	size_t mask = m->nslots - 1, i = d9_hmap_home_(m, hash);

	for (;; i = (i + 1) & mask) {
		uint32_t *s = &m->slot[i];

		if (*s == 0 || eq(ctx, *s - 1))
			return s;
	}
}

/* The row placed by hash that eq(ctx, row) accepts, or D9_NONE. */
static inline uint32_t
d9_hmap_find(const struct d9_hmap *m, uint64_t hash,
    int (*eq)(const void *ctx, uint32_t row), const void *ctx)
{
	if (m->n == 0)
		return D9_NONE;
	/* an empty slot is 0: 0 - 1 is D9_NONE */
	return *d9_hmap_slot_(m, hash, eq, ctx) - 1;
}

/* The row found as by d9_hmap_find(); when absent, rows->make(ctx) adds
 * it and its number is stored, unless it is D9_NONE (make failed:
 * nothing is stored). D9_NONE also when out of memory, before make is
 * called. make must not use the map. */
static inline uint32_t
d9_hmap_find_or_add(struct d9_hmap *m, uint64_t hash,
    int (*eq)(const void *ctx, uint32_t row), const struct d9_hmap_rows *rows,
    void *ctx)
{
	uint32_t *s, row;

	if ((m->n + 1) * 2 > m->nslots && d9_hmap_grow(m, rows, ctx) < 0)
		return D9_NONE;
	s = d9_hmap_slot_(m, hash, eq, ctx);
	if (*s != 0)
		return *s - 1;
	if ((row = rows->make(ctx)) == D9_NONE)
		return D9_NONE;
	*s = row + 1;
	m->n++;
	return row;
}

#endif
