/* where.c: see where.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/where.h"

/* D9TOP_CACHE_MAX: bytes, with an optional K, M or G (powers of 1024);
 * the default when unset or not such a number. */
static uint64_t
budget_of(const char *v)
{
	char *end;
	unsigned long long n;
	unsigned shift = 0;

	if (v == NULL || *v < '0' || *v > '9')
		return D9I_CACHE_BUDGET;
	errno = 0;
	n = strtoull(v, &end, 10);
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	}
	if (errno != 0 || *end != '\0' || n > UINT64_MAX >> shift)
		return D9I_CACHE_BUDGET;
	return (uint64_t)n << shift;
}

void
d9a_where_init(struct d9a_where *a, int off)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *base = NULL, *tail = NULL;
	size_t n;

	a->dir = NULL;
	a->w = (struct d9i_where){ NULL, budget_of(getenv("D9TOP_CACHE_MAX")) };
	if (off || a->w.budget == 0)
		return;
	if (xdg != NULL && xdg[0] == '/') {
		base = xdg;
		tail = "/d9top";
	} else if (home != NULL && home[0] == '/') {
		base = home;
		tail = "/.cache/d9top";
	} else
		return;
	n = strlen(base) + strlen(tail) + 1;
	if ((a->dir = malloc(n)) != NULL)
		snprintf(a->dir, n, "%s%s", base, tail);
	a->w.dir = a->dir;
}

void
d9a_where_free(struct d9a_where *a)
{
	free(a->dir);
	a->dir = NULL;
	a->w.dir = NULL;
}
