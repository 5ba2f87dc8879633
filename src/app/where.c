/* where.c: see where.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/where.h"
#include "base/units.h"

/* D9TOP_CACHE_MAX: bytes, with an optional K, M, G or T (powers of 1024);
 * the default when unset or not such a number. */
static uint64_t
budget_of(const char *v)
{
	uint64_t n;

	return d9_parse_size(v, &n) == 0 ? n : D9I_CACHE_BUDGET;
}

void
d9a_where_init(struct d9a_where *a, int off)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *base = NULL, *tail = NULL;
	struct stat sb;
	size_t n;

	a->dir = NULL;
	a->w = (struct d9i_where){ NULL, budget_of(getenv("D9TOP_CACHE_MAX")) };
	if (off || a->w.budget == 0)
		return;
	if (xdg != NULL && xdg[0] == '/') {
		base = xdg;
		tail = "/d9top";
	} else if (home != NULL && home[0] == '/' && stat(home, &sb) == 0 &&
	    S_ISDIR(sb.st_mode)) {
		base = home;	/* its .cache is made, never home itself (a
				 * service's HOME may be /nonexistent) */
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
