/*
 * loader.c: see loader.h. The reader calls tick() between chunks; when a
 * snapshot is due and the finisher thread is idle, the loaded tables are
 * copied on the loading thread (the loader's own model is never touched
 * by another thread) and handed to the finisher, which sorts, derives and
 * indexes the copy on the other core while reading goes on. The result
 * waits in a one-slot mailbox that a newer snapshot replaces.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/cache.h"
#include "parse/follow.h"
#include "tui/loader.h"

#define FIRST_SNAP	0.05	/* s: first partial model after this */
#define MIN_GAP		0.5	/* s: at least this between two */
#define COST_FACTOR	2.0	/* gap >= this many times the last cost */

struct d9t_loader {
	pthread_t		 th;
	struct d9p_progress	 prog;
	atomic_int		 state;
	const char *const	*paths;
	size_t			 npaths;
	int			 follow;
	int			 no_cache;	/* D9T_LOAD_NO_CACHE */
	int			 joined;	/* the thread, by d9t_loader_stop */
	struct d9m_model	*m;
	struct d9m_lanes	*ix;
	struct d9p_read_stats	 st;

	/* snapshots: schedule (loading thread), finisher and mailbox
	 * (both under mu) */
	double			 t0, next_snap;
	uint64_t		 snap_events;	/* events in the last one */
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	pthread_t		 fin;
	int			 fin_started, fin_stop;
	struct d9m_model	*todo;		/* copy to finish */
	double			 cost;		/* of the last finish, s */
	struct d9m_model	*pm;
	struct d9m_lanes	*pix;

	/* the index entry written from the whole model, mapped (d9t_loader_
	 * mapped): set by the loading thread, then mapped is 1 */
	struct d9m_model	*mm;
	struct d9m_lanes	*mix;
	atomic_int		 mapped;	/* 1 ready, 2 taken */
};

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Under mu: m and ix into the mailbox, what it held into *m and *ix (the
 * caller frees them after unlocking). */
static void
mailbox_swap(struct d9t_loader *ld, struct d9m_model **m, struct d9m_lanes **ix)
{
	struct d9m_model *om = ld->pm;
	struct d9m_lanes *oix = ld->pix;

	ld->pm = *m;
	ld->pix = *ix;
	*m = om;
	*ix = oix;
}

static void
mailbox_clear(struct d9t_loader *ld)
{
	struct d9m_model *m = NULL;
	struct d9m_lanes *ix = NULL;

	pthread_mutex_lock(&ld->mu);
	mailbox_swap(ld, &m, &ix);
	pthread_mutex_unlock(&ld->mu);
	d9m_lanes_free(&ix);
	d9m_model_free(&m);
}

/* The finisher thread: copies in, partial models out. */
static void *
finisher(void *arg)
{
	struct d9t_loader *ld = arg;

	pthread_mutex_lock(&ld->mu);
	for (;;) {
		struct d9m_model *s;
		struct d9m_lanes *ix = NULL;
		double t0;

		while (ld->todo == NULL && !ld->fin_stop)
			pthread_cond_wait(&ld->cv, &ld->mu);
		if (ld->fin_stop)
			break;
		s = ld->todo;
		pthread_mutex_unlock(&ld->mu);
		t0 = now_s();
		if (d9m_model_finish(s) == 0)
			ix = d9m_lanes_build(s);
		pthread_mutex_lock(&ld->mu);
		if (!ld->fin_stop && ix != NULL)	/* else moot: drop it */
			mailbox_swap(ld, &s, &ix);	/* s, ix: the older */
		ld->cost = now_s() - t0;
		ld->todo = NULL;
		pthread_mutex_unlock(&ld->mu);
		d9m_lanes_free(&ix);
		d9m_model_free(&s);
		pthread_mutex_lock(&ld->mu);
	}
	d9m_model_free(&ld->todo);
	pthread_mutex_unlock(&ld->mu);
	return NULL;
}

/* Whether a copy of ev events would be ready well before the whole
 * model: the rest of the input at the pace so far, against the last
 * finish scaled to ev. Unknown sizes (stdin) always get partial models. */
static int
worth_it(struct d9t_loader *ld, uint64_t ev, double cost)
{
	uint64_t in = atomic_load(&ld->prog.bytes_in);
	uint64_t total = atomic_load(&ld->prog.bytes_total);
	double rest, est;

	if (total == 0 || in == 0 || in >= total || ld->snap_events == 0)
		return total == 0 || in < total;
	rest = (now_s() - ld->t0) * (double)(total - in) / (double)in;
	est = cost * (double)ev / (double)ld->snap_events;
	return rest > 2 * est;
}

/* A partial model now, if anything was read since the last one and the
 * finisher is free. */
static void
snapshot(struct d9t_loader *ld)
{
	uint64_t ev = atomic_load(&ld->prog.events);
	struct d9m_model *s;
	double cost;
	int busy;

	if (ev == ld->snap_events || atomic_load(&ld->prog.cancel))
		return;
	pthread_mutex_lock(&ld->mu);
	busy = ld->todo != NULL;
	cost = ld->cost;
	pthread_mutex_unlock(&ld->mu);
	if (busy || !worth_it(ld, ev, cost))
		return;
	if (!ld->fin_started) {
		if (pthread_create(&ld->fin, NULL, finisher, ld) != 0) {
			ld->next_snap = 1e300;	/* no partial models then */
			return;
		}
		ld->fin_started = 1;
	}
	if ((s = d9m_model_snapshot(ld->m)) == NULL) {
		ld->next_snap = now_s() + 5 * MIN_GAP;	/* memory is short */
		return;
	}
	pthread_mutex_lock(&ld->mu);
	ld->todo = s;
	pthread_cond_signal(&ld->cv);
	pthread_mutex_unlock(&ld->mu);
	ld->snap_events = ev;
	ld->next_snap = now_s() + (cost * COST_FACTOR > MIN_GAP ?
	    cost * COST_FACTOR : MIN_GAP);
}

static void
tick(void *ctx)
{
	struct d9t_loader *ld = ctx;

	if (now_s() >= ld->next_snap)
		snapshot(ld);
}

/* Tell the finisher to stop: what it finishes now is dropped. With
 * join, wait for it. */
static void
finisher_stop(struct d9t_loader *ld, int join)
{
	if (!ld->fin_started)
		return;
	pthread_mutex_lock(&ld->mu);
	ld->fin_stop = 1;
	pthread_cond_signal(&ld->cv);
	pthread_mutex_unlock(&ld->mu);
	if (join) {
		pthread_join(ld->fin, NULL);
		ld->fin_started = 0;
	}
}

static void
follow(struct d9t_loader *ld)
{
	struct d9p_follow *f = d9p_follow_new(ld->paths, ld->npaths);

	if (f == NULL)
		return;
	while (!atomic_load(&ld->prog.cancel)) {
		struct timespec ts = { 0, 250 * 1000 * 1000 };

		if (d9m_model_follow(ld->m, f, &ld->prog, &ld->st) < 0)
			break;
		/* what arrived shows within a second */
		if (ld->next_snap > now_s() + 1)
			ld->next_snap = now_s() + 1;
		tick(ld);
		nanosleep(&ts, NULL);
	}
	d9p_follow_free(&f);
}

/* Keep the whole model in the index when its inputs did not change
 * while they were read. It runs after the model was handed over (state
 * 2): the browser only reads it, and d9t_loader_stop() stops the write
 * before the browser frees it. */
static int
to_index(struct d9t_loader *ld, struct d9m_cache *c, const struct d9m_key *key,
    const struct d9m_model *m, const struct d9m_lanes *ix)
{
	int lock, rc;

	c->cancel = &ld->prog.cancel;
	if (ix == NULL || ld->st.read_ok == 0 ||
	    atomic_load(&ld->prog.cancel) || (lock = d9m_cache_claim(c,
	    key)) < 0)
		return -1;	/* or another d9top is writing it */
	rc = d9m_cache_put(c, key, ld->paths, ld->npaths, m, ix);
	d9m_cache_release(c, key, lock);
	return rc;
}

/* The entry just written, mapped, for the browser to put in the place of
 * the model read from the traces: the same figures, and the memory of
 * that model goes back to the system (the mapping's pages are the page
 * cache's, and only those the views read). */
static void
remap(struct d9t_loader *ld, const struct d9m_cache *c,
    const struct d9m_key *key)
{
	if (atomic_load(&ld->prog.cancel) || d9m_cache_map(c, key, &ld->mm,
	    &ld->mix) != 0)
		return;
	atomic_store_explicit(&ld->mapped, 1, memory_order_release);
}

static void *
run(void *arg)
{
	struct d9t_loader *ld = arg;
	struct d9m_cache c;
	struct d9m_key key;
	int keyed;		/* d9m_cache_find's answer */

	ld->t0 = now_s();
	ld->next_snap = ld->t0 + FIRST_SNAP;
	d9m_cache_init(&c, ld->no_cache || ld->follow);
	keyed = d9m_cache_find(&c, ld->paths, ld->npaths, &key, &ld->m,
	    &ld->ix);
	if (keyed == 0) {
		ld->st.read_ok = 1;	/* only such models are kept */
		d9m_cache_free(&c);
		atomic_store(&ld->state, 2);
		return NULL;
	}
	ld->m = d9m_model_new();
	if (ld->m != NULL && ld->follow) {
		follow(ld);
	} else if (ld->m != NULL && d9m_model_load(ld->m, ld->paths,
	    ld->npaths, &ld->prog, NULL, NULL, &ld->st) == 0 &&
	    !atomic_load(&ld->prog.cancel)) {
		/* the whole model comes next: a copy in the works is moot
		 * (it ends on the other core), one already made stays
		 * shown meanwhile */
		finisher_stop(ld, 0);
		atomic_store(&ld->state, 1);
		/* nothing more is read */
		if (d9m_model_finish_last(ld->m) == 0)
			ld->ix = d9m_lanes_build(ld->m);
	}
	finisher_stop(ld, 1);
	if (ld->ix == NULL && !ld->follow) {
		/* partial models share its strings: keep it for free() */
		mailbox_clear(ld);
	}
	{
		/* ld->m and ld->ix are the browser's from state 2 on */
		struct d9m_model *m = ld->m;
		struct d9m_lanes *ix = ld->ix;

		atomic_store(&ld->state, 2);
		if (keyed == 1 && to_index(ld, &c, &key, m, ix) == 0)
			remap(ld, &c, &key);
	}
	d9m_cache_free(&c);
	return NULL;
}

struct d9t_loader *
d9t_loader_new(const char *const *paths, size_t npaths, int flags)
{
	struct d9t_loader *ld = calloc(1, sizeof *ld);

	if (ld == NULL)
		return NULL;
	ld->paths = paths;
	ld->npaths = npaths;
	ld->follow = (flags & D9T_LOAD_FOLLOW) != 0;
	ld->no_cache = (flags & D9T_LOAD_NO_CACHE) != 0;
	if (!(flags & D9T_LOAD_WHOLE))
		ld->prog.tick = tick;
	ld->prog.tick_ctx = ld;
	pthread_mutex_init(&ld->mu, NULL);
	pthread_cond_init(&ld->cv, NULL);
	if (pthread_create(&ld->th, NULL, run, ld) != 0) {
		pthread_cond_destroy(&ld->cv);
		pthread_mutex_destroy(&ld->mu);
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

int
d9t_loader_partial(struct d9t_loader *ld, struct d9m_model **m,
    struct d9m_lanes **ix)
{
	pthread_mutex_lock(&ld->mu);
	*m = ld->pm;
	*ix = ld->pix;
	ld->pm = NULL;
	ld->pix = NULL;
	pthread_mutex_unlock(&ld->mu);
	return *m != NULL;
}

void
d9t_loader_take(struct d9t_loader *ld, struct d9m_model **m,
    struct d9m_lanes **ix, struct d9p_read_stats *st)
{
	*m = ld->ix != NULL ? ld->m : NULL;
	*ix = ld->ix;
	*st = ld->st;
	if (ld->ix != NULL)
		ld->m = NULL;
	ld->ix = NULL;
}

int
d9t_loader_mapped(struct d9t_loader *ld, struct d9m_model **m,
    struct d9m_lanes **ix)
{
	int one = 1;

	if (ld == NULL || !atomic_compare_exchange_strong(&ld->mapped, &one,
	    2))
		return 0;
	*m = ld->mm;
	*ix = ld->mix;
	ld->mm = NULL;
	ld->mix = NULL;
	return 1;
}

void
d9t_loader_stop(struct d9t_loader *ld)
{
	if (ld == NULL || ld->joined)
		return;
	atomic_store(&ld->prog.cancel, 1);
	if (atomic_load(&ld->state) == 2) {
		pthread_join(ld->th, NULL);
		ld->joined = 1;
	}
}

void
d9t_loader_free(struct d9t_loader **pld)
{
	struct d9t_loader *ld = *pld;

	if (ld == NULL)
		return;
	*pld = NULL;
	atomic_store(&ld->prog.cancel, 1);
	for (int i = 0; !ld->joined && i < 50 &&
	    atomic_load(&ld->state) != 2; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	if (!ld->joined && atomic_load(&ld->state) != 2) {
		pthread_detach(ld->th);
		return;
	}
	if (!ld->joined)
		pthread_join(ld->th, NULL);
	mailbox_clear(ld);
	pthread_cond_destroy(&ld->cv);
	pthread_mutex_destroy(&ld->mu);
	d9m_lanes_free(&ld->ix);
	d9m_model_free(&ld->m);
	d9m_lanes_free(&ld->mix);
	d9m_model_free(&ld->mm);
	free(ld);
}
