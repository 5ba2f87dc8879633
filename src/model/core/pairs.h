/*
 * pairs.h: the model's maps of thread ids (tid -> worker, tid -> thread
 * name, model.h): two columns of u32, each key once, the last value set
 * wins. While loading, the loader's hash map (base/hmap.h) finds a key's
 * row; finishing sorts the rows by key, so that a finished model, mapped
 * from an image too, looks a key up by bisection.
 */
#ifndef D9M_PAIRS_H
#define D9M_PAIRS_H

#include <stddef.h>
#include <stdint.h>

struct d9_hmap;

/* The columns of one map, as the model keeps them. */
struct d9m_pairs {
	uint32_t	**key, **val;
	size_t		*n, *cap;
};

struct d9m_model;

/* The model's maps: tid -> worker, tid -> thread name. */
struct d9m_pairs d9m_tid_workers(struct d9m_model *m);
struct d9m_pairs d9m_tid_names(struct d9m_model *m);

/* key -> val; rows finds the keys' rows. 0, or -1 when out of memory. */
int	 d9m_pairs_set(const struct d9m_pairs *p, struct d9_hmap *rows,
	    uint32_t key, uint32_t val);
/* Sort the rows by key, then place them in rows again (NULL: none). 0,
 * or -1 when out of memory (nothing changed). */
int	 d9m_pairs_sort(const struct d9m_pairs *p, struct d9_hmap *rows);
/* The value of key in rows sorted by key, else def. */
uint32_t d9m_pairs_get(const uint32_t *key, const uint32_t *val, size_t n,
	    uint32_t k, uint32_t def);

#endif
