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

#include "base/clock.h"
#include "store/store.h"
#include "tui/loader.h"

#define FIRST_SNAP	0.05	/* s: first partial model after this */
#define MIN_GAP		0.5	/* s: at least this between two */
#define COST_FACTOR	2.0	/* gap >= this many times the last cost */
/* No partial model of files (their size known, so the whole model comes
 * soon) past this many events: its copy is made on the reading thread
 * (on a 58-segment directory, 9 M events took 0.36 s of faulting fresh
 * pages in) and holds as much memory again as the model so far, with
 * its finished copy on top; the header's share goes on. Stdin (a slow
 * pipe) and --follow go on taking them: they are how what arrives
 * shows. */
#define SNAP_MAX_EVENTS	8000000

struct d9t_loader {
	pthread_t		 th;
	struct d9p_progress	 prog;
	atomic_int		 state;
	const char *const	*paths;
	size_t			 npaths;
	int			 follow;
	int			 no_cache;	/* D9T_LOAD_NO_CACHE */
	int			 stream_only;	/* D9T_LOAD_STREAM */
	uint64_t		 mem_budget;
	int			 joined;	/* the thread, by d9t_loader_stop */
	struct d9i_where	 where;		/* the index (dir: ours) */
	struct d9i_store	 in;		/* the inputs; its model is
						 * ld->m's once read */
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

	/* the index's entry of the inputs before they changed, handed out
	 * as the first partial model (how: D9I_NONE when none was) */
	struct d9i_prior	 prior;

	/* the index entry written from the whole model, mapped (d9t_loader_
	 * mapped): set by the loading thread, then mapped is 1 */
	struct d9m_model	*mm;
	struct d9m_lanes	*mix;
	atomic_int		 mapped;	/* 1 ready, 2 taken, 3 none
						 * will come */
	atomic_int		 ended;		/* following: nothing more
						 * can come (stdin ended) */
};

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
		t0 = d9_mono_s();
		if (d9m_model_finish(s) == 0)
			ix = d9m_lanes_build(s);
		pthread_mutex_lock(&ld->mu);
		if (!ld->fin_stop && ix != NULL)	/* else moot: drop it */
			mailbox_swap(ld, &s, &ix);	/* s, ix: the older */
		ld->cost = d9_mono_s() - t0;
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
 * finish scaled to ev; for files, up to SNAP_MAX_EVENTS. Unknown sizes
 * (stdin) always get partial models. */
static int
worth_it(struct d9t_loader *ld, uint64_t ev, double cost)
{
	uint64_t in = atomic_load(&ld->prog.bytes_in);
	uint64_t total = atomic_load(&ld->prog.bytes_total);
	double rest, est;

	if (total > 0 && ev > SNAP_MAX_EVENTS && !ld->follow)
		return 0;
	if (total == 0 || in == 0 || in >= total || ld->snap_events == 0)
		return total == 0 || in < total;
	rest = (d9_mono_s() - ld->t0) * (double)(total - in) / (double)in;
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
	if ((s = d9m_model_snapshot(ld->in.m)) == NULL) {
		ld->next_snap = d9_mono_s() + 5 * MIN_GAP;	/* memory is short */
		return;
	}
	pthread_mutex_lock(&ld->mu);
	ld->todo = s;
	pthread_cond_signal(&ld->cv);
	pthread_mutex_unlock(&ld->mu);
	ld->snap_events = ev;
	ld->next_snap = d9_mono_s() + (cost * COST_FACTOR > MIN_GAP ?
	    cost * COST_FACTOR : MIN_GAP);
}

static void
tick(void *ctx)
{
	struct d9t_loader *ld = ctx;

	if (d9_mono_s() >= ld->next_snap)
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

/* Keep following: what arrives shows within a second. */
static void
follow(struct d9t_loader *ld)
{
	while (!atomic_load(&ld->prog.cancel)) {
		struct timespec ts = { 0, 250 * 1000 * 1000 };

		if (ld->next_snap > d9_mono_s() + 1)
			ld->next_snap = d9_mono_s() + 1;
		tick(ld);
		nanosleep(&ts, NULL);
		if (atomic_load(&ld->prog.cancel) ||
		    d9i_follow(&ld->in, &ld->prog) < 0)
			break;
		if (d9i_follow_ended(&ld->in))
			atomic_store(&ld->ended, 1);
	}
}

/* The inputs are read, the whole model comes next: a copy in the works
 * is moot (it ends on the other core), one already made stays shown
 * meanwhile. */
static void
read_done(void *ctx)
{
	struct d9t_loader *ld = ctx;

	finisher_stop(ld, 0);
	atomic_store(&ld->state, 1);
}

/* The index's entry of the inputs before they changed (d9i_opts.prior):
 * the first partial model, shown while they are read again. Snapshots of
 * that read would show less than it: none are made. */
static void
on_prior(void *ctx, struct d9m_model *m, struct d9m_lanes *ix,
    const struct d9i_prior *p)
{
	struct d9t_loader *ld = ctx;

	pthread_mutex_lock(&ld->mu);
	mailbox_swap(ld, &m, &ix);
	ld->prior = *p;
	pthread_mutex_unlock(&ld->mu);
	d9m_lanes_free(&ix);
	d9m_model_free(&m);
	ld->next_snap = 1e300;
}

/* Keep the whole model in the index when its inputs did not change
 * while they were read, then map that entry for the browser to put in
 * the place of the model read from the traces: the same figures, and
 * the memory of that model goes back to the system (the mapping's pages
 * are the page cache's, and only those the views read). It runs after
 * the model was handed over (state 2): the browser only reads it, and
 * d9t_loader_stop() stops the write before the browser frees it. */
static void
to_index(struct d9t_loader *ld, const struct d9m_model *m,
    const struct d9m_lanes *ix)
{
	int ok = d9i_keepable(&ld->in) && ix != NULL &&
	    !atomic_load(&ld->prog.cancel) &&
	    d9i_keep(&ld->in, m, ix, &ld->prog.cancel) >= 0 &&
	    !atomic_load(&ld->prog.cancel) &&
	    d9i_remap(&ld->in, &ld->mm, &ld->mix) >= 0;

	atomic_store_explicit(&ld->mapped, ok ? 1 : 3, memory_order_release);
}

static void *
run(void *arg)
{
	struct d9t_loader *ld = arg;
	struct d9i_opts io = { .where = ld->no_cache ? NULL : &ld->where,
	    .follow = ld->follow, .stream_only = ld->stream_only,
	    .mem_budget = ld->mem_budget,
	    .prog = &ld->prog, .note_ctx = ld,
	    .read_done = read_done,
	    .prior = ld->prog.tick != NULL ? on_prior : NULL };
	struct d9m_model *m;
	struct d9m_lanes *ix;
	int rc;

	ld->t0 = d9_mono_s();
	ld->next_snap = ld->t0 + FIRST_SNAP;
	rc = d9i_open(&ld->in, ld->paths, ld->npaths, &io);
	if (ld->in.keyed == 0) {	/* mapped from the index */
		ld->m = ld->in.m;
		ld->ix = ld->in.lanes;
		ld->in.m = NULL;
		ld->in.lanes = NULL;
		ld->st = ld->in.st;
		d9i_close(&ld->in);
		atomic_store(&ld->mapped, 3);	/* it is the entry */
		atomic_store(&ld->state, 2);
		return NULL;
	}
	if (rc == 0 && ld->follow)
		follow(ld);
	else if (rc == 0 && ld->in.m->finished &&
	    !atomic_load(&ld->prog.cancel))
		ld->ix = d9m_lanes_build(ld->in.m);
	finisher_stop(ld, 1);
	if (ld->ix == NULL && !ld->follow) {
		/* partial models share its strings: keep it for free() */
		mailbox_clear(ld);
	}
	/* ld->m and ld->ix are the browser's from state 2 on (its take
	 * clears them): the entry is written from what they were */
	m = ld->m = ld->in.m;
	ix = ld->ix;
	ld->in.m = NULL;
	ld->st = ld->in.st;
	atomic_store(&ld->state, 2);
	to_index(ld, m, ix);
	d9i_close(&ld->in);
	return NULL;
}

struct d9t_loader *
d9t_loader_new(const char *const *paths, size_t npaths, int flags,
    const struct d9i_where *where, uint64_t mem_budget)
{
	struct d9t_loader *ld = calloc(1, sizeof *ld);

	if (ld == NULL)
		return NULL;
	if (where != NULL && where->dir != NULL &&
	    (ld->where.dir = strdup(where->dir)) == NULL) {
		free(ld);
		return NULL;
	}
	if (where != NULL)
		ld->where.budget = where->budget;
	ld->paths = paths;
	ld->npaths = npaths;
	ld->follow = (flags & D9T_LOAD_FOLLOW) != 0;
	ld->no_cache = (flags & D9T_LOAD_NO_CACHE) != 0;
	ld->stream_only = (flags & D9T_LOAD_STREAM) != 0;
	ld->mem_budget = mem_budget;
	if (!(flags & D9T_LOAD_WHOLE))
		ld->prog.tick = tick;
	ld->prog.tick_ctx = ld;
	ld->prior.how = D9I_NONE;
	pthread_mutex_init(&ld->mu, NULL);
	pthread_cond_init(&ld->cv, NULL);
	if (pthread_create(&ld->th, NULL, run, ld) != 0) {
		pthread_cond_destroy(&ld->cv);
		pthread_mutex_destroy(&ld->mu);
		free((char *)ld->where.dir);
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

int
d9t_loader_ended(struct d9t_loader *ld)
{
	return atomic_load(&ld->ended);
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

int
d9t_loader_prior(struct d9t_loader *ld, struct d9i_prior *p)
{
	pthread_mutex_lock(&ld->mu);
	*p = ld->prior;
	pthread_mutex_unlock(&ld->mu);
	return p->how != D9I_NONE;
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

	if (ld == NULL)
		return 0;
	if (!atomic_compare_exchange_strong(&ld->mapped, &one, 2))
		return one == 3 ? -1 : 0;
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
	free((char *)ld->where.dir);
	free(ld);
}
