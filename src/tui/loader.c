/*
 * loader.c: see loader.h.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/loader.h"

struct d9t_loader {
	pthread_t		 th;
	struct d9p_progress	 prog;
	atomic_int		 state;
	const char *const	*paths;
	size_t			 npaths;
	struct d9m_model	*m;
	struct d9t_index	*ix;
	struct d9p_read_stats	 st;
};

static void *
run(void *arg)
{
	struct d9t_loader *ld = arg;

	ld->m = d9m_model_new();
	if (ld->m != NULL && d9m_model_load(ld->m, ld->paths, ld->npaths,
	    &ld->prog, NULL, NULL, &ld->st) == 0 &&
	    !atomic_load(&ld->prog.cancel)) {
		atomic_store(&ld->state, 1);
		if (d9m_model_finish(ld->m) == 0)
			ld->ix = d9t_index_build(ld->m);
	}
	if (ld->ix == NULL)
		d9m_model_free(&ld->m);
	atomic_store(&ld->state, 2);
	return NULL;
}

struct d9t_loader *
d9t_loader_start(const char *const *paths, size_t npaths)
{
	struct d9t_loader *ld = calloc(1, sizeof *ld);

	if (ld == NULL)
		return NULL;
	ld->paths = paths;
	ld->npaths = npaths;
	if (pthread_create(&ld->th, NULL, run, ld) != 0) {
		free(ld);
		return NULL;
	}
	return ld;
}

int
d9t_loader_state(struct d9t_loader *ld)
{
	return atomic_load(&ld->state);
}

void
d9t_loader_progress(struct d9t_loader *ld, uint64_t *bytes, uint64_t *total,
    uint64_t *events)
{
	*bytes = atomic_load(&ld->prog.bytes_in);
	*total = atomic_load(&ld->prog.bytes_total);
	*events = atomic_load(&ld->prog.events);
}

void
d9t_loader_take(struct d9t_loader *ld, struct d9m_model **m,
    struct d9t_index **ix, struct d9p_read_stats *st)
{
	*m = ld->m;
	*ix = ld->ix;
	*st = ld->st;
	ld->m = NULL;
	ld->ix = NULL;
}

void
d9t_loader_free(struct d9t_loader **pld)
{
	struct d9t_loader *ld = *pld;

	if (ld == NULL)
		return;
	*pld = NULL;
	atomic_store(&ld->prog.cancel, 1);
	for (int i = 0; i < 50 && atomic_load(&ld->state) != 2; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	if (atomic_load(&ld->state) != 2) {
		pthread_detach(ld->th);
		return;
	}
	pthread_join(ld->th, NULL);
	d9t_index_free(&ld->ix);
	d9m_model_free(&ld->m);
	free(ld);
}
