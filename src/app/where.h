/*
 * where.h: where the index (store/cache.h) is and how much it may keep,
 * from the environment, which only src/app reads: $XDG_CACHE_HOME/d9top
 * (a relative XDG_CACHE_HOME is invalid and ignored), else
 * $HOME/.cache/d9top; $D9TOP_CACHE_MAX bytes at most (with K, M or G;
 * default 8 GiB; 0 turns the index off).
 */
#ifndef D9A_WHERE_H
#define D9A_WHERE_H

#include "store/cache.h"

struct d9a_where {
	struct d9i_where	 w;	/* w.dir: dir */
	char			*dir;
};

/* off (--no-cache): no index. */
void	d9a_where_init(struct d9a_where *a, int off);
void	d9a_where_free(struct d9a_where *a);

#endif
