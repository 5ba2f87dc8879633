/*
 * hmap.h: the one hash map of d9top (and of libd9rec): open addressing
 * with linear probing over 8-byte slots (a 32-bit tag mixed from the
 * key's hash, and a 32-bit value).
 *
 * Two ways to use a map (one per map, never both):
 *   - rows the caller keeps (interned blobs, tasks, pool entries): the
 *     caller gives each row's 64-bit hash (or the id itself), an eq
 *     callback that says whether a stored row is the one looked for,
 *     and, to insert, a make callback that adds the row; the value
 *     stored is the row number (d9_hmap_find(), d9_hmap_find_or_add()).
 *     The map holds no keys.
 *   - u64 keys (addresses, DIE offsets, hashes as identities): the map
 *     keeps the keys and values itself, in order of insertion
 *     (d9_hmap_get(), d9_hmap_put(), d9_hmap_next()).
 *
 * Slots are a power of two, at most half full; the table doubles when an
 * insert would pass that, re-placing slots from their stored hash bits
 * (never calling back into the caller). Nothing is ever deleted (clear
 * forgets all), so a probe stops at the first empty slot. D9_NONE is the
 * "absent" answer and cannot be stored as a value. Memory is allocated
 * only by inserts and d9_hmap_reserve() (which presizes the table, so
 * that inserts up to its count never rehash); clear keeps it. Not
 * thread-safe: one owner at a time (the recorder's lock-free
 * live-allocation table in rec/alloc.c, written from allocator hooks,
 * is another structure).
 */
#ifndef D9_HMAP_H
#define D9_HMAP_H

#include <stddef.h>
#include <stdint.h>

#define D9_NONE UINT32_MAX	/* "no id" for every uint32_t id column */

struct d9_hslot {
	uint32_t	 tag;		/* 32 bits of the mixed hash */
	uint32_t	 val1;		/* value + 1; 0: empty slot */
};

struct d9_hmap {
	struct d9_hslot	*slot;
	size_t		 n;		/* keys stored */
	size_t		 nslots;	/* 0 or a power of two >= 2 n */
	unsigned	 tshift;	/* 32 - log2(nslots): a tag's top
					 * bits place it */
	/* u64 keys only: entry i is (key[i], val[i]); slots hold i */
	uint64_t	*key;
	uint32_t	*val;
	size_t		 cap;
};

/* A 64-bit hash of bytes, for rows keyed by text or blobs. */
uint64_t	 d9_hash(const void *p, size_t len);

void		 d9_hmap_init(struct d9_hmap *m);
void		 d9_hmap_free(struct d9_hmap *m);
/* Forget every key; the memory stays allocated. */
void		 d9_hmap_clear(struct d9_hmap *m);
/* Size the table for n keys in all, so that no insert up to n rehashes:
 * 0, or -1 when out of memory. */
int		 d9_hmap_reserve(struct d9_hmap *m, size_t n);
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
 * Rows. The two lookups are inline so that the compiler can inline the
 * caller's eq too: they run once per decoded field or event.
 */

/* Fibonacci hashing: the top bits of hash * 2^64/phi depend on every bit
 * of the hash, so dense ids and aligned addresses spread too. */
static inline uint32_t
d9_hmap_tag_(uint64_t hash)
{
	return (uint32_t)((hash * 0x9e3779b97f4a7c15ull) >> 32);
}

/* The slot holding the row looked for, or the empty slot where it would
 * go (m has slots). */
static inline struct d9_hslot *
d9_hmap_slot_(const struct d9_hmap *m, uint32_t tag,
    int (*eq)(const void *ctx, uint32_t row), const void *ctx)
{
	size_t mask = m->nslots - 1, i = tag >> m->tshift;

	for (;; i = (i + 1) & mask) {
		struct d9_hslot *s = &m->slot[i];

		if (s->val1 == 0 || (s->tag == tag && eq(ctx, s->val1 - 1)))
			return s;
	}
}

/* eq(ctx, row) says whether the stored row is the one looked for; it is
 * asked only about rows whose hash matches in the stored bits. The row
 * found, or D9_NONE. */
static inline uint32_t
d9_hmap_find(const struct d9_hmap *m, uint64_t hash,
    int (*eq)(const void *ctx, uint32_t row), const void *ctx)
{
	if (m->n == 0)
		return D9_NONE;
	/* an empty slot's val1 is 0: 0 - 1 is D9_NONE */
	return d9_hmap_slot_(m, d9_hmap_tag_(hash), eq, ctx)->val1 - 1;
}

/* The row found as by d9_hmap_find(); when absent, make(ctx) adds the
 * row and returns its number, which is stored under hash, unless it is
 * D9_NONE (make failed: nothing is stored). D9_NONE also when out of
 * memory, before make is called. make must not use the map. */
static inline uint32_t
d9_hmap_find_or_add(struct d9_hmap *m, uint64_t hash,
    int (*eq)(const void *ctx, uint32_t row), uint32_t (*make)(void *ctx),
    void *ctx)
{
	uint32_t tag = d9_hmap_tag_(hash), row;
	struct d9_hslot *s;

	if ((m->n + 1) * 2 > m->nslots && d9_hmap_reserve(m, m->n + 1) < 0)
		return D9_NONE;
	s = d9_hmap_slot_(m, tag, eq, ctx);
	if (s->val1 != 0)
		return s->val1 - 1;
	if ((row = make(ctx)) == D9_NONE)
		return D9_NONE;
	s->tag = tag;
	s->val1 = row + 1;
	m->n++;
	return row;
}

#endif
