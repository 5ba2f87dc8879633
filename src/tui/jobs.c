/*
 * jobs.c: see jobs.h. One worker thread; a mutex guards the request and
 * result slots; the model and index are read-only once loaded, so the
 * computations themselves run unlocked.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/jobs.h"

struct slot {
	struct d9t_req	 want;		/* queued request */
	int		 queued;
	struct d9t_req	 fresh_q;
	void		*fresh;		/* done, not yet adopted */
	struct d9t_req	 have_q;
	void		*have;		/* adopted by the UI thread */
	uint64_t	 gen;		/* how many haves it has had */
	int		 running;
	struct d9t_req	 run_q;
};

struct d9t_jobs {
	const struct d9m_model	*m;
	const struct d9m_lanes	*ix;
	const struct d9m_resolver *r;
	int			 sync, started, stop;
	pthread_t		 th;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	struct slot		 s[D9T_J_COUNT];
	atomic_int		 arrived;
};

static int
same(const struct d9t_req *a, const struct d9t_req *b)
{
	const struct d9m_query *x = &a->q, *y = &b->q;

	return x->win.lo == y->win.lo && x->win.hi == y->win.hi &&
	    x->worker == y->worker && x->group == y->group &&
	    x->runtime == y->runtime && x->task == y->task &&
	    x->loc == y->loc && x->kind == y->kind && x->flags == y->flags &&
	    a->worst == b->worst && strcmp(x->text, y->text) == 0;
}

static void
drop(enum d9t_job k, void *p)
{
	if (p == NULL)
		return;
	k = (enum d9t_job)(k % D9T_J_KINDS);	/* a baseline twin */
	if (k == D9T_J_ANALYSIS || k == D9T_J_TASKS) {
		d9m_analysis_free(p);
		free(p);
	} else if (k == D9T_J_SPANS) {
		struct d9m_spanset *s = p;

		d9m_spanset_free(&s);
	} else if (k == D9T_J_POIS) {
		struct d9m_pois *s = p;

		d9m_pois_free(&s);
	} else {
		struct d9m_flame *f = p;

		d9m_flame_free(&f);
	}
}

static void *
compute(struct d9t_jobs *j, enum d9t_job k, const struct d9t_req *q)
{
	k = (enum d9t_job)(k % D9T_J_KINDS);	/* a baseline twin */
	if (k == D9T_J_ANALYSIS || k == D9T_J_TASKS) {
		struct d9m_analysis *a = calloc(1, sizeof *a);
		struct d9m_analysis_opts o;

		if (a == NULL)
			return NULL;
		memset(&o, 0, sizeof o);
		o.win = q->q.win;
		o.worst = q->worst;
		o.resolver = j->r;
		if (k == D9T_J_TASKS) {
			a->win = o.win;
			a->leak_loc = D9_NONE;
			o.all_tasks = 1;	/* the tasks of a location */
			if (d9m_an_tasks(j->m, &o, a) < 0 ||
			    d9m_an_taskstats(j->m, &o, a) < 0) {
				d9m_analysis_free(a);
				free(a);
				return NULL;
			}
			return a;
		}
		if (d9m_analyze(j->m, &o, a) < 0) {
			free(a);
			return NULL;
		}
		return a;
	}
	if (k == D9T_J_SPANS || k == D9T_J_POIS) {
		if (k == D9T_J_POIS)
			return d9m_pois_find(j->m, j->r, &q->q.win);
		return d9m_spanset_build(j->m, &q->q);
	}
	{
		/* each tree takes the flags of its kind */
		struct d9m_query fq = q->q;
		unsigned keep = k == D9T_J_OFF ? D9M_Q_INPOLL :
		    k == D9T_J_ALLOC ? D9M_Q_COUNT | D9M_Q_LIVE : 0;

		fq.kind = k == D9T_J_CPU ? D9M_F_CPU : k == D9T_J_OFF ?
		    (d9m_query_has(&q->q, D9M_Q_DUMPS) ? D9M_F_DUMP :
		    D9M_F_OFF) : D9M_F_ALLOC;
		fq.flags &= keep | D9M_Q_INVERT;
		return d9m_flame_build(j->m, j->r, &fq);
	}
}

/* Whether a job waits (j->mu held). */
static int
queued(const struct d9t_jobs *j)
{
	for (int k = 0; k < D9T_J_COUNT; k++)
		if (j->s[k].queued)
			return 1;
	return 0;
}

static void *
worker(void *arg)
{
	struct d9t_jobs *j = arg;

	pthread_mutex_lock(&j->mu);
	for (;;) {
		int k;
		void *res;

		for (k = 0; k < D9T_J_COUNT && !j->s[k].queued; k++)
			;
		if (j->stop)
			break;
		if (k == D9T_J_COUNT) {
			pthread_cond_wait(&j->cv, &j->mu);
			continue;
		}
		j->s[k].queued = 0;
		j->s[k].running = 1;
		j->s[k].run_q = j->s[k].want;
		pthread_mutex_unlock(&j->mu);
		res = compute(j, (enum d9t_job)k, &j->s[k].run_q);
		pthread_mutex_lock(&j->mu);
		j->s[k].running = 0;
		drop((enum d9t_job)k, j->s[k].fresh);
		j->s[k].fresh = res;
		j->s[k].fresh_q = j->s[k].run_q;
		atomic_store(&j->arrived, 1);
		if (!queued(j)) {
			/* the window's figures are made: what they read of
			 * a mapped index leaves the process, so that it holds
			 * what the next window reads, not every one before */
			pthread_mutex_unlock(&j->mu);
			d9m_model_release(j->m, 0);
			pthread_mutex_lock(&j->mu);
		}
	}
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

struct d9t_jobs *
d9t_jobs_new(const struct d9m_model *m, const struct d9m_lanes *ix,
    const struct d9m_resolver *r, int sync)
{
	struct d9t_jobs *j = calloc(1, sizeof *j);

	if (j == NULL)
		return NULL;
	j->m = m;
	j->ix = ix;
	j->r = r;
	j->sync = sync;
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->cv, NULL);
	if (!sync) {
		if (pthread_create(&j->th, NULL, worker, j) == 0)
			j->started = 1;
		else
			j->sync = 1;
	}
	return j;
}

void
d9t_jobs_stop(struct d9t_jobs *j)
{
	if (!j->started)
		return;
	pthread_mutex_lock(&j->mu);
	j->stop = 1;
	for (int k = 0; k < D9T_J_COUNT; k++)
		j->s[k].queued = 0;
	pthread_cond_signal(&j->cv);
	pthread_mutex_unlock(&j->mu);
}

int
d9t_jobs_busy(struct d9t_jobs *j)
{
	int busy = 0;

	if (!j->started)
		return 0;
	pthread_mutex_lock(&j->mu);
	for (int k = 0; k < D9T_J_COUNT; k++)
		busy |= j->s[k].running;
	pthread_mutex_unlock(&j->mu);
	return busy;
}

void
d9t_jobs_free(struct d9t_jobs **pj)
{
	struct d9t_jobs *j = *pj;

	if (j == NULL)
		return;
	if (j->started) {
		d9t_jobs_stop(j);
		pthread_join(j->th, NULL);
	}
	for (int k = 0; k < D9T_J_COUNT; k++) {
		drop((enum d9t_job)k, j->s[k].fresh);
		drop((enum d9t_job)k, j->s[k].have);
	}
	pthread_mutex_destroy(&j->mu);
	pthread_cond_destroy(&j->cv);
	free(j);
	*pj = NULL;
}

void *
d9t_jobs_get(struct d9t_jobs *j, enum d9t_job k, const struct d9t_req *q,
    void **stale)
{
	struct slot *s = &j->s[k];
	void *res = NULL;

	if (stale)
		*stale = NULL;
	if (s->have && same(&s->have_q, q))
		return s->have;
	if (j->sync) {
		drop(k, s->have);
		s->have = compute(j, k, q);
		s->have_q = *q;
		s->gen++;
		return s->have;
	}
	pthread_mutex_lock(&j->mu);
	if (s->fresh) {
		drop(k, s->have);
		s->have = s->fresh;
		s->have_q = s->fresh_q;
		s->fresh = NULL;
		s->gen++;
	}
	if (s->have && same(&s->have_q, q))
		res = s->have;
	else if (!(s->running && same(&s->run_q, q)) &&
	    !(s->queued && same(&s->want, q))) {
		s->want = *q;
		s->queued = 1;
		pthread_cond_signal(&j->cv);
	}
	pthread_mutex_unlock(&j->mu);
	if (res == NULL && stale)
		*stale = s->have;
	return res;
}

uint64_t
d9t_jobs_gen(const struct d9t_jobs *j, enum d9t_job k)
{
	return j->s[k].gen;
}

int
d9t_jobs_poll(struct d9t_jobs *j)
{
	return atomic_exchange(&j->arrived, 0);
}
