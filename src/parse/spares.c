/*
 * spares.c: see spares.h. A handful of (address, length) pairs under a
 * mutex.
 */
#include <sys/mman.h>

#include <pthread.h>
#include <stdlib.h>

#include "parse/spares.h"

struct spare {
	uint8_t		*p;
	size_t		 map;
};

struct d9p_spares {
	pthread_mutex_t	 mu;
	struct spare	 v[D9P_SPARES_MAX];
	size_t		 n;
};

struct d9p_spares *
d9p_spares_new(void)
{
	struct d9p_spares *sp = calloc(1, sizeof *sp);

	if (sp != NULL && pthread_mutex_init(&sp->mu, NULL) != 0) {
		free(sp);
		sp = NULL;
	}
	return sp;
}

void
d9p_spares_free(struct d9p_spares **psp)
{
	struct d9p_spares *sp = *psp;

	if (sp == NULL)
		return;
	*psp = NULL;
	for (size_t i = 0; i < sp->n; i++)
		munmap(sp->v[i].p, sp->v[i].map);
	pthread_mutex_destroy(&sp->mu);
	free(sp);
}

int
d9p_spares_take(struct d9p_spares *sp, size_t want, uint8_t **p,
    size_t *map)
{
	size_t best = 0;

	pthread_mutex_lock(&sp->mu);
	if (sp->n == 0) {
		pthread_mutex_unlock(&sp->mu);
		return -1;
	}
	for (size_t i = 1; i < sp->n; i++) {
		size_t a = sp->v[i].map, b = sp->v[best].map;

		/* b too small and a larger, or both enough and a smaller */
		if ((b < want && a > b) || (a >= want && a < b))
			best = i;
	}
	*p = sp->v[best].p;
	*map = sp->v[best].map;
	sp->v[best] = sp->v[--sp->n];
	pthread_mutex_unlock(&sp->mu);
	return 0;
}

void
d9p_spares_give(struct d9p_spares *sp, uint8_t *p, size_t map)
{
	int kept = 0;

	if (p == NULL)
		return;
	pthread_mutex_lock(&sp->mu);
	if (map <= D9P_SPARE_BIG && sp->n < D9P_SPARES_MAX) {
		sp->v[sp->n].p = p;
		sp->v[sp->n++].map = map;
		kept = 1;
	}
	pthread_mutex_unlock(&sp->mu);
	if (!kept)
		munmap(p, map);
}
