/*
 * fork.c: what a fork() child must not do with its parent's writers.
 *
 * Process-wide state, on purpose: pthread_atfork() handlers take no
 * argument, so the live writers are kept in one static list. In the
 * child, every writer is marked forked (its threads and files belong to
 * the parent): recording calls still fill rings that nobody drains,
 * registration, flush and rotate refuse, d9rec_close() frees memory
 * without touching a file, and allocation sampling is switched off by
 * the writer's close. The child lets go of the directory's lock at once:
 * its copy of the lock's descriptor would hold the lock once the parent
 * is gone (a daemon's writer opened after the fork: EBUSY). The writer locks are re-initialised because
 * another parent thread may have held them at the fork.
 */
#include <pthread.h>
#include <unistd.h>

#include "rec/rec.h"

static struct {
	pthread_mutex_t	 lock;
	pthread_once_t	 once;
	struct d9rec_writer *list[64];
	int		 n;
} reg = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_ONCE_INIT, { 0 }, 0 };

static void
prepare(void)
{
	pthread_mutex_lock(&reg.lock);
}

static void
parent(void)
{
	pthread_mutex_unlock(&reg.lock);
}

static void
child(void)
{
	for (int i = 0; i < reg.n; i++) {
		struct d9rec_writer *w = reg.list[i];

		atomic_store(&w->forked, 1);
		if (w->lockfd >= 0)
			close(w->lockfd);
		w->lockfd = -1;
		for (struct d9rec_thread *t = w->threads; t != NULL; t = t->next)
			d9rec_cputimer_forget(t->cputimer);
		pthread_mutex_init(&w->lock, NULL);
		pthread_cond_init(&w->cond, NULL);
		pthread_cond_init(&w->done, NULL);
		pthread_cond_init(&w->cq_cond, NULL);
	}
	pthread_mutex_init(&reg.lock, NULL);
}

static void
install(void)
{
	pthread_atfork(prepare, parent, child);
}

void
d9rec_fork_register(struct d9rec_writer *w)
{
	pthread_once(&reg.once, install);
	pthread_mutex_lock(&reg.lock);
	if (reg.n < (int)(sizeof reg.list / sizeof reg.list[0]))
		reg.list[reg.n++] = w;
	pthread_mutex_unlock(&reg.lock);
}

void
d9rec_fork_unregister(struct d9rec_writer *w)
{
	pthread_mutex_lock(&reg.lock);
	for (int i = 0; i < reg.n; i++)
		if (reg.list[i] == w) {
			reg.list[i] = reg.list[--reg.n];
			break;
		}
	pthread_mutex_unlock(&reg.lock);
}
