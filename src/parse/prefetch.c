/*
 * prefetch.c: see prefetch.h. One job per file, under one mutex:
 *
 *   TODO --a worker claims it--> RUN --done--> DONE --taken--> GONE
 *   TODO --the reader got there first, or passed it--> GONE
 *
 * A worker claims the next TODO job within D9P_PF_AHEAD files after the
 * reader's, reserving a share of the budget left (the budget over the
 * workers, at most what is free); the job may not hold more than that
 * (d9p_whole_load's limit: D9P_WHOLE_BIG leaves it to the reader). When
 * it is done the reservation shrinks to its mapping (the decoded bytes,
 * or a larger spare they went into), counted until the reader takes it.
 * Every change of state is broadcast on one condition: workers wait for
 * room, the reader for its job.
 */
#include <sys/stat.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "parse/prefetch.h"

#define MIN_ROOM_DIV	4	/* claim with at least a quarter share */

enum job_state { J_TODO, J_RUN, J_DONE, J_GONE };

struct job {
	const char		*path;	/* NULL: not prefetched */
	enum job_state		 state;
	enum d9p_whole_rc	 rc;
	struct d9p_whole	 w;
	uint64_t		 held;	/* bytes of pf->held */
	struct stat		 sb;	/* of the file decompressed */
};

struct d9p_prefetch {
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	struct job		*jobs;
	size_t			 n;
	size_t			 next;		/* first job not yet claimed */
	size_t			 cursor;	/* the reader's file */
	uint64_t		 held;		/* reserved or decoded */
	uint64_t		 share;		/* a worker's reservation */
	int			 stop;
	_Atomic int		*cancel;
	struct d9p_spares	*spares;	/* the reader's mappings back */
	pthread_t		 th[D9P_PF_AHEAD];
	size_t			 nth;
};

static int
cancelled(const struct d9p_prefetch *pf)
{
	return pf->cancel != NULL && atomic_load(pf->cancel);
}

/* Under mu: the job a worker may start now (*res: its reservation), or
 * NULL; *done set when no job is left for any worker. */
static struct job *
claimable(struct d9p_prefetch *pf, uint64_t *res, int *done)
{
	uint64_t room = D9P_PF_BUDGET - pf->held;

	while (pf->next < pf->n && (pf->jobs[pf->next].path == NULL ||
	    pf->jobs[pf->next].state != J_TODO))
		pf->next++;
	*done = pf->stop || pf->next >= pf->n || cancelled(pf);
	if (*done || pf->next > pf->cursor + D9P_PF_AHEAD ||
	    room < pf->share / MIN_ROOM_DIV)
		return NULL;
	*res = room < pf->share ? room : pf->share;
	return &pf->jobs[pf->next++];
}

/* Decompress the file of j, with at most res bytes held. */
static enum d9p_whole_rc
run(struct d9p_prefetch *pf, struct job *j, uint64_t res)
{
	struct d9_err e;
	enum d9p_whole_rc rc;
	int fd;

	d9_err_clear(&e);
	fd = d9_file_open(j->path, D9P_WHOLE_IN_MAX, NULL, &e);
	if (fd < 0)
		return D9P_WHOLE_BIG;	/* the reader sees for itself */
	if (fstat(fd, &j->sb) < 0)
		rc = D9P_WHOLE_BIG;
	else
		rc = d9p_whole_load(fd, res, pf->cancel, pf->spares, &j->w);
	close(fd);
	return rc;
}

/* Under mu: the reader passed j: what it holds goes. */
static void
drop(struct d9p_prefetch *pf, struct job *j)
{
	pf->held -= j->held;
	j->held = 0;
	d9p_whole_free(&j->w);
	j->state = J_GONE;
}

static void *
worker(void *arg)
{
	struct d9p_prefetch *pf = arg;

	pthread_mutex_lock(&pf->mu);
	for (;;) {
		uint64_t res = 0;
		int done;
		struct job *j = claimable(pf, &res, &done);
		enum d9p_whole_rc rc;

		if (done)
			break;
		if (j == NULL) {
			pthread_cond_wait(&pf->cv, &pf->mu);
			continue;
		}
		j->state = J_RUN;
		j->held = res;
		pf->held += res;
		pthread_mutex_unlock(&pf->mu);
		rc = run(pf, j, res);
		pthread_mutex_lock(&pf->mu);
		pf->held -= j->held;
		j->held = rc == D9P_WHOLE_OK ? j->w.map : 0;
		pf->held += j->held;
		j->rc = rc;
		j->state = J_DONE;
		if ((size_t)(j - pf->jobs) < pf->cursor)
			drop(pf, j);
		pthread_cond_broadcast(&pf->cv);
	}
	pthread_mutex_unlock(&pf->mu);
	return NULL;
}

struct d9p_prefetch *
d9p_prefetch_start(const char *const *paths, size_t n, _Atomic int *cancel)
{
	struct d9p_prefetch *pf;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t want = cpus > 2 ? (size_t)cpus - 1 : 1, files = 0;

	for (size_t i = 0; i < n; i++)
		files += paths[i] != NULL;
	/* one file: the reader streams it beside its decoding */
	if (files < 2 || !d9p_whole_available() ||
	    (pf = calloc(1, sizeof *pf)) == NULL)
		return NULL;
	if ((pf->jobs = calloc(n, sizeof *pf->jobs)) == NULL) {
		free(pf);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		pf->jobs[i].path = paths[i];
	pf->n = n;
	pf->cancel = cancel;
	pf->spares = d9p_spares_new();	/* NULL: fresh mappings */
	if (want > D9P_PF_AHEAD)
		want = D9P_PF_AHEAD;
	pf->share = D9P_PF_BUDGET / want;
	pthread_mutex_init(&pf->mu, NULL);
	pthread_cond_init(&pf->cv, NULL);
	while (pf->nth < want &&
	    pthread_create(&pf->th[pf->nth], NULL, worker, pf) == 0)
		pf->nth++;
	if (pf->nth == 0)
		d9p_prefetch_free(&pf);
	return pf;
}

/* Whether the file open as fd is the one the worker read. */
static int
same_file(int fd, const struct stat *a)
{
	struct stat b;

	return fstat(fd, &b) == 0 && a->st_dev == b.st_dev &&
	    a->st_ino == b.st_ino && a->st_size == b.st_size &&
	    a->st_mtim.tv_sec == b.st_mtim.tv_sec &&
	    a->st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

enum d9p_whole_rc
d9p_prefetch_take(struct d9p_prefetch *pf, size_t i, int fd,
    struct d9p_whole *w)
{
	enum d9p_whole_rc rc = D9P_WHOLE_BIG;
	struct job *j;

	memset(w, 0, sizeof *w);
	if (pf == NULL || i >= pf->n)
		return rc;
	pthread_mutex_lock(&pf->mu);
	for (size_t k = pf->cursor; k < i; k++)
		if (pf->jobs[k].state != J_RUN)
			drop(pf, &pf->jobs[k]);
	pf->cursor = i;
	j = &pf->jobs[i];
	while (j->state == J_RUN)
		pthread_cond_wait(&pf->cv, &pf->mu);
	if (j->state == J_DONE) {
		rc = j->rc;
		*w = j->w;
		memset(&j->w, 0, sizeof j->w);
		if (!same_file(fd, &j->sb)) {
			d9p_whole_free(w);
			rc = D9P_WHOLE_BIG;
		}
	}
	drop(pf, j);
	pthread_cond_broadcast(&pf->cv);
	pthread_mutex_unlock(&pf->mu);
	return rc;
}

void
d9p_prefetch_free(struct d9p_prefetch **ppf)
{
	struct d9p_prefetch *pf = *ppf;

	if (pf == NULL)
		return;
	*ppf = NULL;
	pthread_mutex_lock(&pf->mu);
	pf->stop = 1;
	pthread_cond_broadcast(&pf->cv);
	pthread_mutex_unlock(&pf->mu);
	for (size_t i = 0; i < pf->nth; i++)
		pthread_join(pf->th[i], NULL);
	for (size_t i = 0; i < pf->n; i++)
		d9p_whole_free(&pf->jobs[i].w);
	/* the reader freed what it took before this */
	d9p_spares_free(&pf->spares);
	pthread_cond_destroy(&pf->cv);
	pthread_mutex_destroy(&pf->mu);
	free(pf->jobs);
	free(pf);
}
