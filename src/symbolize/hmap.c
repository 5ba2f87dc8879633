/*
 * hmap.c: linear probing at load factor <= 1/2, table doubled when full.
 * Nothing is ever deleted, so probing stops at the first empty slot.
 */
#include <stdlib.h>
#include <string.h>

#include "symbolize/hmap.h"

static size_t
slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void
d9s_hmap_init(struct d9s_hmap *m)
{
	memset(m, 0, sizeof *m);
}

void
d9s_hmap_free(struct d9s_hmap *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof *m);
}

int
d9s_hmap_get(const struct d9s_hmap *m, uint64_t key, uint32_t *val)
{
	size_t i;

	if (m->cap == 0 || key == D9S_HMAP_EMPTY)
		return -1;
	for (i = slot_of(key, m->cap); m->key[i] != D9S_HMAP_EMPTY;
	    i = (i + 1) & (m->cap - 1)) {
		if (m->key[i] == key) {
			*val = m->val[i];
			return 0;
		}
	}
	return -1;
}

static int
hmap_resize(struct d9s_hmap *m, size_t cap)
{
	uint64_t *key;
	uint32_t *val;
	size_t i, j;

	key = malloc(cap * sizeof *key);
	val = malloc(cap * sizeof *val);
	if (key == NULL || val == NULL) {
		free(key);
		free(val);
		return -1;
	}
	memset(key, 0xff, cap * sizeof *key);
	for (i = 0; i < m->cap; i++) {
		if (m->key[i] == D9S_HMAP_EMPTY)
			continue;
		for (j = slot_of(m->key[i], cap); key[j] != D9S_HMAP_EMPTY;
		    j = (j + 1) & (cap - 1))
			;
		key[j] = m->key[i];
		val[j] = m->val[i];
	}
	free(m->key);
	free(m->val);
	m->key = key;
	m->val = val;
	m->cap = cap;
	return 0;
}

int
d9s_hmap_put(struct d9s_hmap *m, uint64_t key, uint32_t val)
{
	size_t i;

	if (key == D9S_HMAP_EMPTY)
		return -1;
	if ((m->n + 1) * 2 > m->cap) {
		if (m->cap > SIZE_MAX / 4 / sizeof *m->key)
			return -1;
		if (hmap_resize(m, m->cap ? m->cap * 2 : 64) == -1)
			return -1;
	}
	for (i = slot_of(key, m->cap); m->key[i] != D9S_HMAP_EMPTY;
	    i = (i + 1) & (m->cap - 1)) {
		if (m->key[i] == key) {
			m->val[i] = val;
			return 0;
		}
	}
	m->key[i] = key;
	m->val[i] = val;
	m->n++;
	return 0;
}
