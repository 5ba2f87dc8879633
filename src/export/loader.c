/*
 * loader.c: see loader.h. One lock and one condition for every slot:
 * a handful of threads, one hand-over per segment.
 */
#include <string.h>

#include "export/loader.h"
#include "export/split.h"

struct job {
	struct d9x_reader	*r;
	size_t			 at;
};

/* Wait for r's slot to be free, then fill it: 0, or -1 when stopped
 * (x's model is freed). */
static int
put(struct d9x_reader *r, struct d9x_loaded *x)
{
	struct d9x_loader *l = r->l;
	int stop;

	pthread_mutex_lock(&l->mu);
	while (r->full && !l->stop)
		pthread_cond_wait(&l->cv, &l->mu);
	if (!(stop = l->stop)) {
		r->slot = *x;
		r->full = 1;
		pthread_cond_broadcast(&l->cv);
	}
	pthread_mutex_unlock(&l->mu);
	if (stop)
		d9m_model_free(&x->m);
	return stop ? -1 : 0;
}

static int
segment(void *ctx, struct d9m_model *m, uint64_t events,
    const struct d9p_segid *id)
{
	struct job *j = ctx;
	struct d9x_loaded x = { .at = j->at, .m = m, .events = events,
	    .have_id = id != NULL };

	if (id != NULL)
		x.id = *id;
	return put(j->r, &x) < 0 || m == NULL ? -1 : 0;
}

static void *
run(void *arg)
{
	struct d9x_reader *r = arg;
	struct d9x_loader *l = r->l;
	size_t k = 0;		/* wanted inputs so far */

	for (size_t i = 0; i < l->n; i++) {
		struct job j = { r, i };
		struct d9x_loaded end = { .at = i, .end = 1 };

		if (!l->want[i] || k++ % l->nr != r->t)
			continue;
		end.rc = d9x_split_read(l->paths[i], l->fds != NULL ?
		    l->fds[i] : -1, segment, &j, &l->ro, &r->hint, &end.st);
		if (put(r, &end) < 0)
			break;
	}
	return NULL;
}

int
d9x_loader_start(struct d9x_loader *l, const char *const *paths,
    const int *fds, const unsigned char *want, size_t n, unsigned threads,
    const struct d9p_read_opts *ro)
{
	memset(l, 0, sizeof *l);
	l->paths = paths;
	l->fds = fds;
	l->want = want;
	l->n = n;
	l->ro = *ro;
	pthread_mutex_init(&l->mu, NULL);
	pthread_cond_init(&l->cv, NULL);
	threads = threads < 1 ? 1 : threads > D9X_LOADERS ? D9X_LOADERS :
	    threads;
	/* nr is fixed before any thread reads it */
	l->nr = threads;
	for (unsigned t = 0; t < threads; t++) {
		l->r[t].l = l;
		l->r[t].t = t;
		if (pthread_create(&l->r[t].thread, NULL, run, &l->r[t]) != 0)
			break;
		l->r[t].running = 1;
	}
	if (!l->r[threads - 1].running) {	/* not all */
		d9x_loader_stop(l);
		return -1;
	}
	return 0;
}

void
d9x_loader_take(struct d9x_loader *l, size_t i, struct d9x_loaded *out)
{
	struct d9x_reader *r = &l->r[l->taken % l->nr];

	pthread_mutex_lock(&l->mu);
	while (!(r->full && r->slot.at == i))
		pthread_cond_wait(&l->cv, &l->mu);
	*out = r->slot;
	r->full = 0;
	if (out->end)
		l->taken++;
	pthread_cond_broadcast(&l->cv);
	pthread_mutex_unlock(&l->mu);
}

void
d9x_loader_stop(struct d9x_loader *l)
{
	if (l->nr == 0)
		return;
	pthread_mutex_lock(&l->mu);
	l->stop = 1;
	pthread_cond_broadcast(&l->cv);
	pthread_mutex_unlock(&l->mu);
	for (unsigned t = 0; t < l->nr; t++) {
		if (l->r[t].running)
			pthread_join(l->r[t].thread, NULL);
		if (l->r[t].full)
			d9m_model_free(&l->r[t].slot.m);
		l->r[t].running = l->r[t].full = 0;
	}
	l->nr = 0;
	pthread_mutex_destroy(&l->mu);
	pthread_cond_destroy(&l->cv);
}
