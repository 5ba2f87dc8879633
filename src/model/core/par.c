/*
 * par.c: see par.h. A shared counter hands out the jobs.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "model/core/par.h"

struct par {
	const struct d9m_job *jobs;
	size_t		 n;
	atomic_size_t	 next;
	atomic_int	 failed;
};

static void *
take_jobs(void *arg)
{
	struct par *p = arg;
	size_t i;

	while ((i = atomic_fetch_add(&p->next, 1)) < p->n)
		if (p->jobs[i].run(p->jobs[i].arg) < 0)
			atomic_store(&p->failed, 1);
	return NULL;
}

int
d9m_par_run(const struct d9m_job *jobs, size_t n)
{
	struct par p = { jobs, n, 0, 0 };
	pthread_t th;
	int two;

	atomic_init(&p.next, 0);
	atomic_init(&p.failed, 0);
	two = n > 1 && pthread_create(&th, NULL, take_jobs, &p) == 0;
	take_jobs(&p);
	if (two)
		pthread_join(th, NULL);
	return atomic_load(&p.failed) ? -1 : 0;
}

void
d9m_gate_init(struct d9m_gate *g)
{
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->state = 0;
}

void
d9m_gate_destroy(struct d9m_gate *g)
{
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->cv);
}

void
d9m_gate_open(struct d9m_gate *g, int state)
{
	pthread_mutex_lock(&g->mu);
	if (g->state == 0) {
		g->state = state;
		pthread_cond_broadcast(&g->cv);
	}
	pthread_mutex_unlock(&g->mu);
}

int
d9m_gate_wait(struct d9m_gate *g)
{
	int state;

	pthread_mutex_lock(&g->mu);
	while (g->state == 0)
		pthread_cond_wait(&g->cv, &g->mu);
	state = g->state;
	pthread_mutex_unlock(&g->mu);
	return state > 0 ? 0 : -1;
}
