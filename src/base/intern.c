/*
 * intern.c: ids are dense rows of three columns (bytes, length, 32 bits
 * of their d9_hash, by which the map places them and which is compared
 * before the bytes). Blobs get a NUL after their bytes so that interned
 * text can be used as a C string (traces may contain NULs inside
 * strings; users of the length see all of them, and d9_intern_text keeps
 * them visible to the others).
 */
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "base/text.h"
#include "base/vec.h"

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
	d9_hmap_free(&t->ids);
	memset(t, 0, sizeof *t);
}

int
d9_intern_share(struct d9_intern *dst, const struct d9_intern *src)
{
	if (d9_dup(&dst->blob, src->blob, src->n, sizeof *src->blob) < 0 ||
	    d9_dup(&dst->len, src->len, src->n, sizeof *src->len) < 0 ||
	    d9_dup(&dst->hash, src->hash, src->n, sizeof *src->hash) < 0 ||
	    d9_hmap_copy(&dst->ids, &src->ids) < 0) {
		d9_intern_free(dst);
		return -1;
	}
	dst->n = dst->cap = src->n;
	return 0;
}

/* The bytes looked for, in t; to is t when they may be added. */
struct key {
	const struct d9_intern *t;
	struct d9_intern *to;
	const void	*p;
	size_t		 len;
	uint32_t	 hash;		/* what the map places rows by */
};

static int
same(const void *ctx, uint32_t id)
{
	const struct key *k = ctx;

	return k->t->hash[id] == k->hash && k->t->len[id] == k->len &&
	    memcmp(k->t->blob[id], k->p, k->len) == 0;
}

static uint64_t
hash_of(const void *ctx, uint32_t id)
{
	const struct key *k = ctx;

	return k->t->hash[id];
}

static uint32_t
add(void *ctx)
{
	const struct key *k = ctx;
	struct d9_intern *t = k->to;
	uint32_t id;
	char *copy;

	if (t->n == t->cap) {
		void **cols[] = { (void **)&t->blob, (void **)&t->len,
		    (void **)&t->hash };
		const size_t el[] = { sizeof *t->blob, sizeof *t->len,
		    sizeof *t->hash };

		if (d9_grow_cols(&t->cap, t->n + 1, 3, cols, el) < 0)
			return D9_NONE;
	}
	copy = d9_arena_alloc(t->arena, k->len + 1, 8);
	if (copy == NULL)
		return D9_NONE;
	if (k->len)
		memcpy(copy, k->p, k->len);
	copy[k->len] = '\0';
	id = (uint32_t)t->n++;
	t->blob[id] = copy;
	t->len[id] = (uint32_t)k->len;
	t->hash[id] = k->hash;
	return id;
}

static const struct d9_hmap_rows rows = { hash_of, add };

uint32_t
d9_intern_find(const struct d9_intern *t, const void *p, size_t len)
{
	struct key k = { t, NULL, p, len, (uint32_t)d9_hash(p, len) };

	return d9_hmap_find(&t->ids, k.hash, same, &k);
}

uint32_t
d9_intern(struct d9_intern *t, const void *p, size_t len)
{
	struct key k = { t, t, p, len, (uint32_t)d9_hash(p, len) };

	if (len > UINT32_MAX - 8 || t->n >= UINT32_MAX - 1)
		return D9_NONE;
	return d9_hmap_find_or_add(&t->ids, k.hash, same, &rows, &k);
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
