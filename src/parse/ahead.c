/*
 * ahead.c: see ahead.h. A ring of D9P_AHEAD_SLOTS slots: the producer
 * fills the slot at tail when count says it is free, the reader empties
 * the one at head; count, the ends and the flags are under the mutex,
 * a slot's contents belong to whichever side count gives it to.
 *
 * Closing while the producer waits for room wakes it; closing while it
 * is blocked in the source (a pipe with nothing to say) cancels it:
 * deferred cancellation, so it stops only in read(2) or in its wait for
 * room, whose mutex a cleanup handler gives back.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/deadline.h"
#include "parse/ahead.h"

struct slot {
	uint8_t		*p;
	size_t		 n, off;	/* bytes made, handed out */
	ssize_t		 r;		/* the call's result */
	int		 cut;
	struct d9_err	 e;
	struct d9p_ahead_snap snap;
};

struct d9p_ahead {
	d9p_ahead_fn	 fn;
	void		*ctx;
	size_t		 size;		/* slot capacity */
	struct slot	 s[D9P_AHEAD_SLOTS];
	size_t		 head, count;
	int		 stop;		/* the reader is closing */
	int		 done;		/* the producer returned */
	int		 ended;		/* its last result was handed out */
	pthread_mutex_t	 mu;
	pthread_cond_t	 room, ready;
	pthread_t	 th;
};

static void
unlock(void *mu)
{
	pthread_mutex_unlock(mu);
}

/* Wait for a free slot: 0, or -1 when the reader is closing. */
static int
wait_room(struct d9p_ahead *a)
{
	int stop;

	pthread_mutex_lock(&a->mu);
	pthread_cleanup_push(unlock, &a->mu);
	while (a->count == D9P_AHEAD_SLOTS && !a->stop)
		pthread_cond_wait(&a->room, &a->mu);
	stop = a->stop;
	pthread_cleanup_pop(1);
	return stop ? -1 : 0;
}

static void *
produce(void *arg)
{
	struct d9p_ahead *a = arg;
	size_t tail = 0;
	int last = 0;

	while (!last && wait_room(a) == 0) {
		struct slot *sl = &a->s[tail];

		memset(&sl->snap, 0, sizeof sl->snap);
		d9_err_clear(&sl->e);
		sl->cut = 0;
		sl->off = 0;
		sl->r = a->fn(a->ctx, sl->p, a->size, &sl->cut, &sl->e,
		    &sl->snap);
		sl->n = sl->r > 0 ? (size_t)sl->r : 0;
		last = sl->r <= 0 || sl->snap.last;
		sl->snap.last = last;
		pthread_mutex_lock(&a->mu);
		a->count++;
		pthread_cond_signal(&a->ready);
		pthread_mutex_unlock(&a->mu);
		tail = (tail + 1) % D9P_AHEAD_SLOTS;
	}
	pthread_mutex_lock(&a->mu);
	a->done = 1;
	pthread_cond_broadcast(&a->ready);
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

static void
slots_free(struct d9p_ahead *a)
{
	for (size_t i = 0; i < D9P_AHEAD_SLOTS; i++)
		free(a->s[i].p);
}

/* Everything of a, once no producer runs. */
static void
destroy(struct d9p_ahead *a)
{
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->room);
	pthread_cond_destroy(&a->ready);
	slots_free(a);
	free(a);
}

int
d9p_ahead_start(struct d9p_ahead **out, d9p_ahead_fn fn, void *ctx,
    size_t slot_size)
{
	struct d9p_ahead *a = calloc(1, sizeof *a);
	int ok = a != NULL;

	*out = NULL;
	for (size_t i = 0; ok && i < D9P_AHEAD_SLOTS; i++)
		ok = (a->s[i].p = malloc(slot_size)) != NULL;
	if (!ok) {
		if (a != NULL)
			slots_free(a);
		free(a);
		return -1;
	}
	a->fn = fn;
	a->ctx = ctx;
	a->size = slot_size;
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->room, NULL);
	pthread_cond_init(&a->ready, NULL);
	if (pthread_create(&a->th, NULL, produce, a) != 0) {
		destroy(a);
		return -1;
	}
	*out = a;
	return 0;
}

ssize_t
d9p_ahead_read(struct d9p_ahead *a, uint8_t *buf, size_t cap, int *cut,
    struct d9_err *e, struct d9p_ahead_snap *snap)
{
	struct slot *sl;
	ssize_t r;

	pthread_mutex_lock(&a->mu);
	while (a->count == 0)
		pthread_cond_wait(&a->ready, &a->mu);	/* a last one comes */
	pthread_mutex_unlock(&a->mu);
	sl = &a->s[a->head];
	*snap = sl->snap;
	*cut = sl->cut;
	if (sl->r > 0) {
		size_t n = sl->n - sl->off < cap ? sl->n - sl->off : cap;

		memcpy(buf, sl->p + sl->off, n);
		sl->off += n;
		r = (ssize_t)n;
		if (sl->off < sl->n) {
			snap->last = 0;
			return r;
		}
	} else {
		*e = sl->e;
		r = sl->r;
	}
	pthread_mutex_lock(&a->mu);
	a->head = (a->head + 1) % D9P_AHEAD_SLOTS;
	a->count--;
	a->ended = sl->snap.last;
	pthread_cond_signal(&a->room);
	pthread_mutex_unlock(&a->mu);
	return r;
}

int
d9p_ahead_ended(const struct d9p_ahead *a)
{
	return a->ended;
}

size_t
d9p_ahead_queued(struct d9p_ahead *a)
{
	size_t n = 0;

	pthread_mutex_lock(&a->mu);
	for (size_t i = 0; i < a->count; i++) {
		const struct slot *sl = &a->s[(a->head + i) % D9P_AHEAD_SLOTS];

		n += sl->n - sl->off;
	}
	pthread_mutex_unlock(&a->mu);
	return n;
}

int
d9p_ahead_wait(struct d9p_ahead *a, int ms)
{
	struct timespec t = d9_deadline((uint64_t)(ms > 0 ? ms : 0));
	int ready;

	pthread_mutex_lock(&a->mu);
	while (a->count == 0 && !a->done &&
	    pthread_cond_timedwait(&a->ready, &a->mu, &t) != ETIMEDOUT)
		;
	ready = a->count > 0 || a->done;
	pthread_mutex_unlock(&a->mu);
	return ready;
}

void
d9p_ahead_free(struct d9p_ahead **pa)
{
	struct d9p_ahead *a = *pa;
	int done;

	if (a == NULL)
		return;
	*pa = NULL;
	pthread_mutex_lock(&a->mu);
	a->stop = 1;
	done = a->done;
	pthread_cond_broadcast(&a->room);
	pthread_mutex_unlock(&a->mu);
	if (!done)
		pthread_cancel(a->th);	/* maybe blocked in read(2) */
	pthread_join(a->th, NULL);
	destroy(a);
}
