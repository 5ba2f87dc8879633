/* vec.c: overflow-checked growth of realloc'd arrays. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/pages.h"
#include "base/vec.h"

static size_t
next_cap(size_t cap, size_t need)
{
	size_t c = cap ? cap : 16;

	while (c < need) {
		if (c > SIZE_MAX / 2)
			return need;
		c *= 2;
	}
	return c;
}

int
d9_grow(void *pp, size_t *cap, size_t need, size_t elem)
{
	void **p = pp, *q;
	size_t c;

	if (need <= *cap)
		return 0;
	c = next_cap(*cap, need);
	if (elem && c > SIZE_MAX / elem)
		return -1;
	q = d9_pages_realloc(*p, c * elem);
	if (q == NULL)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

int
d9_grow_cols(size_t *cap, size_t need, size_t ncols, void **cols[],
    const size_t elems[])
{
	size_t c, i;

	if (need <= *cap)
		return 0;
	c = next_cap(*cap, need);
	for (i = 0; i < ncols; i++) {
		void *q;

		if (elems[i] && c > SIZE_MAX / elems[i])
			return -1;
		q = d9_pages_realloc(*cols[i], c * elems[i]);
		if (q == NULL)
			return -1;
		*cols[i] = q;
	}
	*cap = c;
	return 0;
}

int
d9_dup(void *pp, const void *p, size_t n, size_t elem)
{
	void **d = pp;

	*d = NULL;
	if (n == 0)
		return 0;
	if (n > SIZE_MAX / elem || (*d = malloc(n * elem)) == NULL)
		return -1;
	memcpy(*d, p, n * elem);
	return 0;
}
