/*
 * intern.c: open addressing with linear probing over id+1 slots; the
 * table doubles at 50 % load. Blobs get a NUL after their bytes so that
 * interned text can be used as a C string (traces may contain NULs inside
 * strings; users of the length see all of them, and d9_intern_text keeps
 * them visible to the others).
 */
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "base/text.h"
#include "base/vec.h"

uint64_t
d9_hash(const void *p, size_t len)
{
	const uint8_t *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len;

	while (len >= 8) {
		uint64_t w;

		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
		s += 8;
		len -= 8;
	}
	if (len) {
		uint64_t w = 0;

		memcpy(&w, s, len);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return h;
}

void
d9_intern_init(struct d9_intern *t, struct d9_arena *arena)
{
	memset(t, 0, sizeof *t);
	t->arena = arena;
}

void
d9_intern_free(struct d9_intern *t)
{
	free(t->blob);
	free(t->len);
	free(t->hash);
	free(t->slots);
	memset(t, 0, sizeof *t);
}

int
d9_intern_share(struct d9_intern *dst, const struct d9_intern *src)
{
	if (d9_dup(&dst->blob, src->blob, src->n, sizeof *src->blob) < 0 ||
	    d9_dup(&dst->len, src->len, src->n, sizeof *src->len) < 0 ||
	    d9_dup(&dst->hash, src->hash, src->n, sizeof *src->hash) < 0 ||
	    d9_dup(&dst->slots, src->slots, src->nslots,
	    sizeof *src->slots) < 0) {
		d9_intern_free(dst);
		return -1;
	}
	dst->n = dst->cap = src->n;
	dst->nslots = src->nslots;
	return 0;
}

static uint32_t
lookup(const struct d9_intern *t, const void *p, size_t len, uint32_t h,
    size_t *slot)
{
	size_t mask = t->nslots - 1, i = h & mask;

	for (;; i = (i + 1) & mask) {
		uint32_t id = t->slots[i];

		if (id == 0) {
			*slot = i;
			return D9_NONE;
		}
		id--;
		if (t->hash[id] == h && t->len[id] == len &&
		    memcmp(t->blob[id], p, len) == 0)
			return id;
	}
}

static int
rehash(struct d9_intern *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 1024, mask = n - 1;
	uint32_t *s = calloc(n, sizeof *s);

	if (s == NULL)
		return -1;
	for (size_t id = 0; id < t->n; id++) {
		size_t i = t->hash[id] & mask;

		while (s[i] != 0)
			i = (i + 1) & mask;
		s[i] = (uint32_t)id + 1;
	}
	free(t->slots);
	t->slots = s;
	t->nslots = n;
	return 0;
}

uint32_t
d9_intern_find(const struct d9_intern *t, const void *p, size_t len)
{
	size_t slot;

	if (t->nslots == 0)
		return D9_NONE;
	return lookup(t, p, len, (uint32_t)d9_hash(p, len), &slot);
}

uint32_t
d9_intern(struct d9_intern *t, const void *p, size_t len)
{
	uint32_t h = (uint32_t)d9_hash(p, len), id;
	size_t slot;
	char *copy;

	if (len > UINT32_MAX - 8 || t->n >= UINT32_MAX - 1)
		return D9_NONE;
	if ((t->n + 1) * 2 > t->nslots && rehash(t) < 0)
		return D9_NONE;
	id = lookup(t, p, len, h, &slot);
	if (id != D9_NONE)
		return id;
	if (t->n == t->cap) {
		void **cols[] = { (void **)&t->blob, (void **)&t->len,
		    (void **)&t->hash };
		const size_t el[] = { sizeof *t->blob, sizeof *t->len,
		    sizeof *t->hash };

		if (d9_grow_cols(&t->cap, t->n + 1, 3, cols, el) < 0)
			return D9_NONE;
	}
	copy = d9_arena_alloc(t->arena, len + 1, 8);
	if (copy == NULL)
		return D9_NONE;
	if (len)
		memcpy(copy, p, len);
	copy[len] = '\0';
	id = (uint32_t)t->n++;
	t->blob[id] = copy;
	t->len[id] = (uint32_t)len;
	t->hash[id] = h;
	t->slots[slot] = id + 1;
	return id;
}

uint32_t
d9_intern_text(struct d9_intern *t, const void *p, size_t len)
{
	char *tmp;
	uint32_t id;

	if (len == 0 || memchr(p, 0, len) == NULL)
		return d9_intern(t, p, len);
	if ((tmp = malloc(2 * len)) == NULL)
		return D9_NONE;
	id = d9_intern(t, tmp, d9_text_hide_nul(tmp, p, len));
	free(tmp);
	return id;
}
