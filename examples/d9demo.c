/*
 * d9demo.c: a small task runtime that records itself with libd9rec.
 *
 *	d9demo --out DIR --seconds N [--workers K] [--no-compress] [--zstd]
 *	    [--no-profile] [--no-sched] [--sched-period N] [--sched-duty PCT]
 *	    [--perf-cpu] [--rotate-ms MS] [--crunch-ms MS]
 *
 * (--no-profile: no CPU sampling at all; --no-sched: no context-switch
 * samples; --sched-period N: a context-switch sample stands for N
 * switches, 1 for every one; --sched-duty PCT: switches are sampled
 * PCT % of each second (default 25, or 100 with --sched-period);
 * --perf-cpu: CPU samples from perf cpu-clock events instead
 * of the default CPU-time timers; they exist to measure what profiling
 * costs. --rotate-ms: a new segment every MS milliseconds instead of
 * every minute, for a directory of many segments; --crunch-ms: a
 * crunch poll lasts MS ms instead of 40, so that it stays the longest
 * poll when a loaded machine makes the blocking task's 20 ms sleep last
 * twice as long.)
 *
 * A pool of K worker threads (default 2) polls tasks from one run queue.
 * A driver thread spawns, every few milliseconds, pairs of "ping" tasks
 * that wake each other for a number of rounds (short polls, small
 * allocations); every 150 ms a "crunch" task whose single poll burns
 * ~40 ms of CPU in crunch_numbers() (the planted long poll, with on-CPU
 * stacks); every 250 ms a "blocking" task that sleeps 20 ms inside its
 * poll (off-CPU); every 40 ms a task spawned at a location whose tasks
 * are never woken again (the leak); and every 100 ms a "bulk" task that
 * allocates a few MiB. Each poll of a crunch task is also a span, and
 * each bulk task writes a custom event. Every 2 ms the driver samples the
 * run queue's depth and the tasks alive (the runtime "demo").
 *
 * The runtime itself is deliberately plain: one mutex-protected FIFO,
 * task states IDLE/QUEUED/RUNNING/DONE with a "notified" bit for wakes
 * that arrive while the task runs.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "d9rec.h"

enum kind { K_PING, K_CRUNCH, K_BLOCK, K_LEAK, K_BULK };
enum state { T_IDLE, T_QUEUED, T_RUNNING, T_DONE };

struct task {
	uint64_t	 id;
	enum kind	 kind;
	enum state	 state;
	int		 notified;
	int		 rounds;
	uint32_t	 loc;
	struct task	*peer;
	struct task	*next;		/* run queue link */
	char		*scratch;
};

struct rt {
	d9rec_writer	*w;
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
	struct task	*head, *tail;
	unsigned	 qlen;
	int		 stop;
	_Atomic uint64_t next_id;
	_Atomic int	 live_pings;
	_Atomic int	 alive;		/* tasks spawned, not terminated */
	uint32_t	 loc[5];
	uint32_t	 runtime;	/* d9rec_runtime_id of "demo" */
	int		 span_site;
	int		 bulk_schema;
	struct task	**leaked;
	size_t		 nleaked, capleaked;
	unsigned	 crunch_ms;	/* a crunch poll's length */
};

struct worker {
	struct rt	*rt;
	unsigned	 id;
	pthread_t	 th;
};

static const char *const loc_names[5] = {
	"examples/d9demo.c:ping_pair:1",
	"examples/d9demo.c:crunch:1",
	"examples/d9demo.c:blocking:1",
	"examples/d9demo.c:leaky_spawn:1",
	"examples/d9demo.c:bulk:1",
};

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* With rt->lock held. */
static void
push(struct rt *rt, struct task *t)
{
	t->state = T_QUEUED;
	t->next = NULL;
	if (rt->tail)
		rt->tail->next = t;
	else
		rt->head = t;
	rt->tail = t;
	rt->qlen++;
	pthread_cond_signal(&rt->cond);
}

static struct task *
spawn(struct rt *rt, struct d9rec_thread *th, enum kind k)
{
	struct task *t = d9rec_calloc(1, sizeof *t);

	if (t == NULL)
		return NULL;
	t->id = atomic_fetch_add(&rt->next_id, 1);
	t->kind = k;
	t->loc = rt->loc[k];
	atomic_fetch_add(&rt->alive, 1);
	d9rec_spawn(th, t->id, t->loc);
	pthread_mutex_lock(&rt->lock);
	push(rt, t);
	pthread_mutex_unlock(&rt->lock);
	return t;
}

/* Wake t from task waker (0: from outside a task); rt->lock held. */
static void
wake(struct rt *rt, struct d9rec_thread *th, uint64_t waker, struct task *t)
{
	d9rec_wake(th, waker, t->id);
	if (t->state == T_IDLE)
		push(rt, t);
	else if (t->state == T_RUNNING)
		t->notified = 1;
}

/* The planted long poll: ~ms of pure CPU. */
static __attribute__((noinline)) double
crunch_numbers(unsigned ms)
{
	uint64_t end = now_ms() + ms;
	volatile double acc = 0;

	while (now_ms() < end)
		for (int i = 1; i < 20000; i++)
			acc += 1.0 / ((double)i * i);
	return acc;
}

static __attribute__((noinline)) void
blocking_io(unsigned ms)
{
	sleep_ms(ms);
}

/* One poll; returns 1 when the task is complete. */
static __attribute__((noinline)) int
poll_task(struct rt *rt, struct d9rec_thread *th, struct task *t)
{
	const char *vals[1] = { "numbers" };
	union d9rec_value ev[2];

	switch (t->kind) {
	case K_PING:	/* the peer is woken by the worker, under the lock */
		d9rec_free(t->scratch);
		t->scratch = d9rec_malloc(64 + (size_t)(t->rounds % 16) * 64);
		if (t->scratch)
			memset(t->scratch, t->rounds, 64);
		return --t->rounds <= 0;
	case K_CRUNCH: {
		uint64_t start = d9rec_now(rt->w);

		d9rec_span_enter(th, rt->span_site, t->id, 0, vals);
		crunch_numbers(rt->crunch_ms);
		d9rec_span_exit(th, rt->span_site, t->id, vals);
		d9rec_span_close(th, rt->span_site, t->id, start, 0, vals);
		return 1;
	}
	case K_BLOCK:
		blocking_io(20);
		return 1;
	case K_LEAK:
		t->scratch = d9rec_malloc(4096);
		return 0;	/* nobody will ever wake it */
	case K_BULK:
		t->scratch = d9rec_malloc((size_t)(2 + t->id % 3) << 20);
		if (t->scratch)
			memset(t->scratch, 1, (size_t)1 << 20);
		ev[0].s = "bulk";
		ev[1].u = (uint64_t)(2 + t->id % 3) << 20;
		d9rec_event(th, rt->bulk_schema, ev);
		d9rec_free(t->scratch);
		t->scratch = NULL;
		return 1;
	}
	return 1;
}

static void
task_done(struct task *t)
{
	d9rec_free(t->scratch);
	d9rec_free(t);
}

static void *
worker_main(void *arg)
{
	struct worker *wk = arg;
	struct rt *rt = wk->rt;
	char name[16];
	struct d9rec_thread *th;

	snprintf(name, sizeof name, "demo-worker-%u", wk->id);
	th = d9rec_thread_register(rt->w, name, wk->id);
	pthread_mutex_lock(&rt->lock);
	while (!rt->stop) {
		struct task *t = rt->head;
		unsigned lq;
		int done;

		if (t == NULL) {
			pthread_mutex_unlock(&rt->lock);
			d9rec_park(th, 0);
			pthread_mutex_lock(&rt->lock);
			while (rt->head == NULL && !rt->stop)
				pthread_cond_wait(&rt->cond, &rt->lock);
			lq = rt->qlen;
			pthread_mutex_unlock(&rt->lock);
			d9rec_unpark(th, lq);
			pthread_mutex_lock(&rt->lock);
			continue;
		}
		rt->head = t->next;
		if (rt->head == NULL)
			rt->tail = NULL;
		lq = --rt->qlen;
		t->state = T_RUNNING;
		t->notified = 0;
		pthread_mutex_unlock(&rt->lock);

		d9rec_poll_start(th, t->id, t->loc, lq > 255 ? 255 : lq);
		done = poll_task(rt, th, t);
		d9rec_poll_end(th);

		pthread_mutex_lock(&rt->lock);
		if (t->peer != NULL)
			wake(rt, th, t->id, t->peer);
		if (done) {
			t->state = T_DONE;
			if (t->peer != NULL)
				t->peer->peer = NULL;
			pthread_mutex_unlock(&rt->lock);
			d9rec_terminate(th, t->id);
			atomic_fetch_sub(&rt->alive, 1);
			if (t->kind == K_PING)
				atomic_fetch_sub(&rt->live_pings, 1);
			task_done(t);
			pthread_mutex_lock(&rt->lock);
		} else if (t->notified)
			push(rt, t);
		else {
			t->state = T_IDLE;
			if (t->kind == K_LEAK && rt->nleaked < rt->capleaked)
				rt->leaked[rt->nleaked++] = t;
		}
	}
	pthread_mutex_unlock(&rt->lock);
	d9rec_thread_unregister(&th);
	return NULL;
}

static void
spawn_pair(struct rt *rt, struct d9rec_thread *th)
{
	struct task *a, *b;

	if (atomic_load(&rt->live_pings) > 64)
		return;
	pthread_mutex_lock(&rt->lock);	/* link before either can run */
	a = d9rec_calloc(1, sizeof *a);
	b = d9rec_calloc(1, sizeof *b);
	if (a == NULL || b == NULL) {
		pthread_mutex_unlock(&rt->lock);
		d9rec_free(a);
		d9rec_free(b);
		return;
	}
	a->id = atomic_fetch_add(&rt->next_id, 1);
	b->id = atomic_fetch_add(&rt->next_id, 1);
	a->kind = b->kind = K_PING;
	a->loc = b->loc = rt->loc[K_PING];
	a->rounds = 20;
	b->rounds = 20;
	a->peer = b;
	b->peer = a;
	b->state = T_IDLE;
	atomic_fetch_add(&rt->live_pings, 2);
	atomic_fetch_add(&rt->alive, 2);
	d9rec_spawn(th, a->id, a->loc);
	d9rec_spawn(th, b->id, b->loc);
	push(rt, a);
	pthread_mutex_unlock(&rt->lock);
}

static void
drive(struct rt *rt, unsigned seconds)
{
	struct d9rec_thread *th = d9rec_thread_register(rt->w, "demo-driver",
	    D9REC_NO_WORKER);
	uint64_t start = now_ms(), now, last[4] = { 0, 0, 0, 0 };
	const uint64_t every[4] = { 150, 250, 40, 100 };
	const enum kind kinds[4] = { K_CRUNCH, K_BLOCK, K_LEAK, K_BULK };

	while ((now = now_ms()) - start < (uint64_t)seconds * 1000) {
		spawn_pair(rt, th);
		for (int i = 0; i < 4; i++)
			if (now - last[i] >= every[i]) {
				last[i] = now;
				spawn(rt, th, kinds[i]);
			}
		pthread_mutex_lock(&rt->lock);
		d9rec_runtime_sample(th, rt->runtime, rt->qlen,
		    (unsigned)atomic_load(&rt->alive));
		pthread_mutex_unlock(&rt->lock);
		sleep_ms(2);
	}
	d9rec_thread_unregister(&th);
}

static int
usage(void)
{
	fprintf(stderr, "usage: d9demo --out DIR --seconds N [--workers K] "
	    "[--no-compress] [--zstd] [--no-profile] [--no-sched]\n"
	    "    [--sched-period N] [--sched-duty PCT] [--perf-cpu] "
	    "[--rotate-ms MS] [--crunch-ms MS]\n");
	return 2;
}

int
main(int argc, char **argv)
{
	static const struct d9rec_field bulk_fields[] = {
		{ "kind", D9REC_T_STR }, { "bytes", D9REC_T_U64 } };
	static const char *const span_fields[] = { "work" };
	struct d9rec_options o;
	struct worker *wk;
	struct rt rt;
	unsigned seconds = 3, nworkers = 2, crunch_ms = 40;
	const char *out = NULL;
	char msg[256];
	int rc;

	d9rec_options_init(&o);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
			seconds = (unsigned)atoi(argv[++i]);
		else if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc)
			nworkers = (unsigned)atoi(argv[++i]);
		else if (strcmp(argv[i], "--no-compress") == 0)
			o.compression = D9REC_COMPRESS_NONE;
		else if (strcmp(argv[i], "--zstd") == 0)
			o.compression = D9REC_COMPRESS_ZSTD;
		else if (strcmp(argv[i], "--no-profile") == 0)
			o.cpu_profile = o.sched_profile = 0;
		else if (strcmp(argv[i], "--no-sched") == 0)
			o.sched_profile = 0;
		else if (strcmp(argv[i], "--sched-period") == 0 && i + 1 < argc)
			o.sched_sample_period = (unsigned)atoi(argv[++i]);
		else if (strcmp(argv[i], "--sched-duty") == 0 && i + 1 < argc)
			o.sched_duty_pct = (unsigned)atoi(argv[++i]);
		else if (strcmp(argv[i], "--perf-cpu") == 0)
			o.cpu_sampler = D9REC_CPU_PERF;
		else if (strcmp(argv[i], "--rotate-ms") == 0 && i + 1 < argc)
			o.rotation_period_ms = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--crunch-ms") == 0 && i + 1 < argc)
			crunch_ms = (unsigned)atoi(argv[++i]);
		else
			return usage();
	}
	if (out == NULL || nworkers < 1 || nworkers > 64 || crunch_ms < 1 ||
	    crunch_ms > 10000)
		return usage();
	memset(&rt, 0, sizeof rt);
	rt.crunch_ms = crunch_ms;
	o.dir = out;
	o.service = "d9demo";
	if (d9rec_options_check(&o, msg, sizeof msg) < 0) {
		fprintf(stderr, "d9demo: %s\n", msg);
		return 1;
	}
	if ((rc = d9rec_open(&rt.w, &o)) < 0) {
		fprintf(stderr, "d9demo: %s: %s\n", out, strerror(-rc));
		return 1;
	}
	pthread_mutex_init(&rt.lock, NULL);
	pthread_cond_init(&rt.cond, NULL);
	atomic_init(&rt.next_id, 1);
	for (int i = 0; i < 5; i++)
		rt.loc[i] = d9rec_location(rt.w, loc_names[i]);
	rt.span_site = d9rec_span_site(rt.w, "d9demo", "crunch",
	    "examples/d9demo.c", 190, span_fields, 1);
	rt.bulk_schema = d9rec_schema(rt.w, "DemoBulkAlloc", bulk_fields, 2);
	rt.capleaked = 4096;
	rt.leaked = calloc(rt.capleaked, sizeof *rt.leaked);
	d9rec_runtime(rt.w, "demo", 0, nworkers);
	rt.runtime = d9rec_runtime_id(rt.w, "demo");
	wk = calloc(nworkers, sizeof *wk);
	if (wk == NULL || rt.leaked == NULL)
		return 1;
	for (unsigned i = 0; i < nworkers; i++) {
		wk[i].rt = &rt;
		wk[i].id = i;
		pthread_create(&wk[i].th, NULL, worker_main, &wk[i]);
	}
	drive(&rt, seconds);
	pthread_mutex_lock(&rt.lock);
	rt.stop = 1;
	pthread_cond_broadcast(&rt.cond);
	pthread_mutex_unlock(&rt.lock);
	for (unsigned i = 0; i < nworkers; i++)
		pthread_join(wk[i].th, NULL);
	rc = d9rec_close(&rt.w);
	for (size_t i = 0; i < rt.nleaked; i++)
		task_done(rt.leaked[i]);
	while (rt.head != NULL) {
		struct task *t = rt.head;

		rt.head = t->next;
		if (t->kind != K_LEAK || t->state != T_IDLE)
			task_done(t);
	}
	free(rt.leaked);
	free(wk);
	if (rc < 0) {
		fprintf(stderr, "d9demo: writing %s: %s\n", out, strerror(-rc));
		return 1;
	}
	return 0;
}
