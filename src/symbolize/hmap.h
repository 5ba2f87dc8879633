/*
 * hmap.h: an open-addressing map from uint64_t keys to uint32_t values,
 * used for the per-address result cache and the DIE-offset name cache.
 * Keys are link addresses (below 2^63) or section offsets; UINT64_MAX is
 * the empty-slot marker and cannot be stored.
 */
#ifndef D9S_HMAP_H
#define D9S_HMAP_H

#include <stddef.h>
#include <stdint.h>

#define D9S_HMAP_EMPTY UINT64_MAX

struct d9s_hmap {
	uint64_t	*key;
	uint32_t	*val;
	size_t		 n;		/* keys stored */
	size_t		 cap;		/* slots, a power of two or 0 */
};

void	d9s_hmap_init(struct d9s_hmap *m);
void	d9s_hmap_free(struct d9s_hmap *m);
/* 0 and *val set when present, -1 when absent. */
int	d9s_hmap_get(const struct d9s_hmap *m, uint64_t key, uint32_t *val);
/* Insert or replace; -1 when out of memory or key is the empty marker. */
int	d9s_hmap_put(struct d9s_hmap *m, uint64_t key, uint32_t val);

#endif
