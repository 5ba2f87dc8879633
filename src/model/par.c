/*
 * par.c: see par.h. A shared counter hands out the jobs.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "model/par.h"

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
