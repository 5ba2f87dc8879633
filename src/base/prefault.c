/* prefault.c: see prefault.h. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/prefault.h"

#define QMAX	1024			/* ranges queued at most */
#define STEP	((size_t)2 << 20)	/* brought in at once */

struct d9_prefault {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	struct { uintptr_t lo, hi; } q[QMAX];	/* a ring */
	size_t		 head, n;
	size_t		 done;
	int		 stop, refused;
	pthread_t	 th;
};

#ifdef MADV_POPULATE_WRITE
/* Bring [lo, hi) in, a step at a time; 0, or -1 when the kernel does
 * not know the advice (then nothing more is asked of it). */
static int
bring(struct d9_prefault *pf, uintptr_t lo, uintptr_t hi)
{
	for (uintptr_t a = lo; a < hi; a += STEP) {
		size_t n = hi - a < STEP ? hi - a : STEP;

		if (madvise((void *)a, n, MADV_POPULATE_WRITE) != 0) {
			/* EINVAL: unknown advice (before Linux 5.14);
			 * ENOMEM, EFAULT: unmapped or not writable since
			 * it was asked for, skipped */
			if (errno == EINVAL)
				return -1;
			return 0;
		}
		pthread_mutex_lock(&pf->mu);
		pf->done += n;
		pthread_mutex_unlock(&pf->mu);
	}
	return 0;
}

static void *
run(void *arg)
{
	struct d9_prefault *pf = arg;

	pthread_mutex_lock(&pf->mu);
	for (;;) {
		uintptr_t lo, hi;

		while (pf->n == 0 && !pf->stop)
			pthread_cond_wait(&pf->cv, &pf->mu);
		if (pf->stop)
			break;
		lo = pf->q[pf->head].lo;
		hi = pf->q[pf->head].hi;
		pf->head = (pf->head + 1) % QMAX;
		pf->n--;
		pthread_mutex_unlock(&pf->mu);
		if (bring(pf, lo, hi) < 0) {
			pthread_mutex_lock(&pf->mu);
			pf->refused = 1;
			pf->n = 0;
			continue;
		}
		pthread_mutex_lock(&pf->mu);
	}
	pthread_mutex_unlock(&pf->mu);
	return NULL;
}
#endif

struct d9_prefault *
d9_prefault_new(void)
{
#ifdef MADV_POPULATE_WRITE
	struct d9_prefault *pf = calloc(1, sizeof *pf);

	if (pf == NULL)
		return NULL;
	pthread_mutex_init(&pf->mu, NULL);
	pthread_cond_init(&pf->cv, NULL);
	if (pthread_create(&pf->th, NULL, run, pf) != 0) {
		pthread_cond_destroy(&pf->cv);
		pthread_mutex_destroy(&pf->mu);
		free(pf);
		return NULL;
	}
	return pf;
#else
	return NULL;
#endif
}

void
d9_prefault_ask(struct d9_prefault *pf, const void *p, size_t n)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + pg - 1) / pg * pg;
	uintptr_t hi = ((uintptr_t)p + n) / pg * pg;

	if (pf == NULL || n == 0 || hi <= lo || (uintptr_t)p + n < lo)
		return;
	pthread_mutex_lock(&pf->mu);
	if (!pf->refused && pf->n < QMAX) {
		size_t at = (pf->head + pf->n) % QMAX;

		pf->q[at].lo = lo;
		pf->q[at].hi = hi;
		pf->n++;
		pthread_cond_signal(&pf->cv);
	}
	pthread_mutex_unlock(&pf->mu);
}

size_t
d9_prefault_done(struct d9_prefault *pf)
{
	size_t done;

	if (pf == NULL)
		return 0;
	pthread_mutex_lock(&pf->mu);
	done = pf->done;
	pthread_mutex_unlock(&pf->mu);
	return done;
}

void
d9_prefault_free(struct d9_prefault **ppf)
{
	struct d9_prefault *pf = *ppf;

	if (pf == NULL)
		return;
	*ppf = NULL;
	pthread_mutex_lock(&pf->mu);
	pf->stop = 1;
	pthread_cond_signal(&pf->cv);
	pthread_mutex_unlock(&pf->mu);
	pthread_join(pf->th, NULL);
	pthread_cond_destroy(&pf->cv);
	pthread_mutex_destroy(&pf->mu);
	free(pf);
}
