/*
 * loader.c: see loader.h. One slot between the reading thread and the
 * caller: the thread fills it with the next wanted input's finished
 * model and waits until it is taken.
 */
#include <string.h>

#include "export/loader.h"

static void
load(struct d9x_loader *l, size_t i, struct d9x_loaded *out)
{
	const char *path = l->paths[i];

	memset(out, 0, sizeof *out);
	if ((out->m = d9m_model_new()) == NULL ||
	    d9m_model_load(out->m, &path, 1, NULL, l->note, l->note_ctx,
	    &out->st) < 0 || d9m_model_finish_last(out->m) < 0)
		d9m_model_free(&out->m);
}

static void *
run(void *arg)
{
	struct d9x_loader *l = arg;

	for (size_t i = 0; i < l->n; i++) {
		struct d9x_loaded x;
		int stop;

		if (!l->want[i])
			continue;
		pthread_mutex_lock(&l->mu);
		while (l->full && !l->stop)
			pthread_cond_wait(&l->cv, &l->mu);
		stop = l->stop;
		pthread_mutex_unlock(&l->mu);
		if (stop)
			break;
		load(l, i, &x);
		pthread_mutex_lock(&l->mu);
		l->slot = x;
		l->at = i;
		l->full = 1;
		pthread_cond_broadcast(&l->cv);
		pthread_mutex_unlock(&l->mu);
	}
	return NULL;
}

int
d9x_loader_start(struct d9x_loader *l, const char *const *paths,
    const unsigned char *want, size_t n, void (*note)(void *, const char *),
    void *note_ctx)
{
	memset(l, 0, sizeof *l);
	l->paths = paths;
	l->want = want;
	l->n = n;
	l->note = note;
	l->note_ctx = note_ctx;
	pthread_mutex_init(&l->mu, NULL);
	pthread_cond_init(&l->cv, NULL);
	if (pthread_create(&l->thread, NULL, run, l) != 0)
		return -1;
	l->running = 1;
	return 0;
}

void
d9x_loader_take(struct d9x_loader *l, size_t i, struct d9x_loaded *out)
{
	if (!l->running) {
		load(l, i, out);
		return;
	}
	pthread_mutex_lock(&l->mu);
	while (!(l->full && l->at == i))
		pthread_cond_wait(&l->cv, &l->mu);
	*out = l->slot;
	l->full = 0;
	pthread_cond_broadcast(&l->cv);
	pthread_mutex_unlock(&l->mu);
}

void
d9x_loader_stop(struct d9x_loader *l)
{
	if (l->running) {
		pthread_mutex_lock(&l->mu);
		l->stop = 1;
		pthread_cond_broadcast(&l->cv);
		pthread_mutex_unlock(&l->mu);
		pthread_join(l->thread, NULL);
	}
	if (l->full)
		d9m_model_free(&l->slot.m);
	l->full = l->running = 0;
	pthread_mutex_destroy(&l->mu);
	pthread_cond_destroy(&l->cv);
}
