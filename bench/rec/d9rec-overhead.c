/*
 * d9rec-overhead.c: what recording costs a program's throughput.
 *
 *	d9rec-overhead [ROUNDS [--sources | MODE...]] | --only MODE
 *
 * A fixed CPU-and-wake workload, d9demo-like: two worker threads poll
 * tasks from one run queue and park on a condition variable when it is
 * empty; a driver keeps PAIRS_LIVE pairs of "ping" tasks alive, each task
 * of a pair waking the other for PAIR_ROUNDS polls, until PAIRS pairs
 * have run; every poll burns WORK iterations of integer hashing (a fixed
 * amount of CPU, not of time) and allocates through d9rec_malloc. The
 * same workload runs with recording off (no writer: the recording calls
 * get NULL handles), with the default options (CPU samples, sampled
 * context switches, allocation sampling, events) and with everything on
 * (every context switch of every thread sampled), ROUNDS times each
 * (default 5), interleaved (each round starts with another mode), each
 * run in a child process of its own.
 *
 * What is measured is the program running, not its start and end: the
 * figures cover the window from the moment WARM_PAIRS pairs have been
 * spawned (the writer open, every thread registered, its ring touched)
 * to the moment the last pair is done (before the writer is closed),
 * and the runs that record rotate segments every second, so that
 * sealing (metadata, symbols, memory maps, gzip) happens inside that
 * window at 60 times the default rate (rotation_period_ms 60000): a
 * conservative stand-in for a service that seals a segment a minute.
 * What the start and the end cost once (opening the writer, the rings'
 * first pages, the last seal) is printed apart (once_ms, against the off
 * run's), and so is work_pct: how much more CPU the fixed work itself
 * took than in the off run of the same round (what net_pct scales out:
 * on a quiet machine, recording's own effect on the program's work).
 *
 * Figures per mode, medians of the rounds: wall time and CPU time of the
 * whole process (every thread, recorder threads included) in the window
 * and context switches of the run; then, each the median of the rounds' figures
 * against the off run of the same round: the throughput ratio (off wall
 * time / mode wall time), cpu_pct (mode CPU / off CPU - 1, in %) and
 * net_pct, the same with each run's CPU scaled by how fast its own
 * burn() calls ran against the off run's (the fixed work measured with
 * the thread CPU clock): other work on a shared machine slows every
 * run by several % from one run to the next, burn() and the rest
 * alike, and this takes most of that out (rounds_range: net_pct's
 * lowest and highest round); then where net_pct is, in % of the off
 * run's CPU: in_prog, the program's own threads (the recording calls,
 * the signal handler, the kernel's work at their context switches) and
 * in_rec, the rest (libd9rec's flush and compressor threads). CPU
 * time measures what recording takes from a program that has no spare
 * core; wall time on a shared machine is noisy. The last lines are the
 * unscaled figures of both (cpu_pct and throughput: net_pct also takes
 * out what recording does to burn() itself, work_pct), then
 * overhead_default_pct=X and overhead_full_pct=Y (net_pct). With
 * --sources, one mode per source shows what each costs (+gzip: the
 * default compression, gzip in Huffman codes only; +gziplz:
 * D9REC_COMPRESS_GZIP, deflate at level 1; +cpu: the default CPU-time
 * timer sampler, +cpuperf: perf cpu-clock events; -gzip: the defaults
 * but sealed segments left raw); with MODE names, off and those
 * modes (off named again is a second off run: what the noise alone
 * looks like); --only MODE runs one mode once in this process (for a
 * profiler), prints each thread's CPU time before the writer is closed
 * and the program threads' CPU in the window, outside burn() too, and
 * leaves its trace in /tmp.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "d9rec.h"
#include "rec/rec.h"

#define WORKERS		2
#define PAIRS		6000
#define PAIRS_LIVE	4
#define PAIR_ROUNDS	20
#define WORK		12000	/* iterations per poll: ~15 us here */
#define WARM_PAIRS	300	/* spawned before the measured window */
#define MAX_ROUNDS	15

/* What each mode records: the sources on top of the runtime events. */
static const struct mode {
	const char	*name;
	int		 on, cpu, sched, alloc;
	unsigned	 sched_period;	/* 0: the default */
	int		 compression;
	int		 sampler;	/* enum d9rec_cpu_sampler */
	int		 sched_all;	/* switches of every thread */
} modes[] = {
	{ "off", 0, 0, 0, 0, 0, D9REC_COMPRESS_NONE, 0, 0 },
	{ "default", 1, 1, 1, 1, 0, D9REC_COMPRESS_GZIP_FAST, D9REC_CPU_TIMER,
	    0 },
	{ "full", 1, 1, 1, 1, 1, D9REC_COMPRESS_GZIP_FAST, D9REC_CPU_TIMER, 1 },
	{ "events", 1, 0, 0, 0, 0, D9REC_COMPRESS_NONE, 0, 0 },
	{ "+gzip", 1, 0, 0, 0, 0, D9REC_COMPRESS_GZIP_FAST, 0, 0 },
	{ "+gziplz", 1, 0, 0, 0, 0, D9REC_COMPRESS_GZIP, 0, 0 },
	{ "+cpu", 1, 1, 0, 0, 0, D9REC_COMPRESS_NONE, D9REC_CPU_TIMER, 0 },
	{ "+cpuperf", 1, 1, 0, 0, 0, D9REC_COMPRESS_NONE, D9REC_CPU_PERF, 0 },
	{ "+sched", 1, 0, 1, 0, 0, D9REC_COMPRESS_NONE, 0, 0 },
	{ "+sched1", 1, 0, 1, 0, 1, D9REC_COMPRESS_NONE, 0, 1 },
	{ "+alloc", 1, 0, 0, 1, 0, D9REC_COMPRESS_NONE, 0, 0 },
	{ "-gzip", 1, 1, 1, 1, 0, D9REC_COMPRESS_NONE, D9REC_CPU_TIMER, 0 },
};

#define M_N	(int)(sizeof modes / sizeof modes[0])
#define M_OFF	0
#define M_DEFAULT 1
#define M_FULL	2

struct task {
	uint64_t	 id;
	int		 rounds;
	int		 queued, running, notified, done;
	struct task	*peer, *next;
	char		*buf;
};

/* The process at one moment: wall time, CPU of every thread, of the
 * program's threads (workers and driver), of burn(); ns. */
struct snap {
	uint64_t	 wall, proc, prog, work;
};

struct pool {
	d9rec_writer	*w;
	uint32_t	 loc;
	pthread_mutex_t	 lock;
	pthread_cond_t	 work, room;
	struct task	*head, *tail;
	int		 live, stop;
	uint64_t	 next_id, sink;
	_Atomic uint64_t work_ns;	/* CPU time in burn(), all workers */
	clockid_t	 wclk[WORKERS];	/* the workers' CPU clocks */
	struct snap	*win;		/* [0] at the window's start, [1] end */
};

/* The calling thread's CPU time, ns. */
static uint64_t
thread_ns(void)
{
	return d9rec_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* From the driver (the main thread), the workers running. */
static void
take(struct pool *p, struct snap *s)
{
	s->wall = d9rec_clock_ns(CLOCK_MONOTONIC);
	s->proc = d9rec_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	s->prog = d9rec_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (int i = 0; i < WORKERS; i++)
		s->prog += d9rec_clock_ns(p->wclk[i]);
	s->work = atomic_load(&p->work_ns);
}

/* The fixed CPU work of one poll. */
static __attribute__((noinline)) uint64_t
burn(uint64_t x)
{
	for (int i = 0; i < WORK; i++)
		x = (x ^ (x >> 31)) * 0x9e3779b97f4a7c15u + (uint64_t)i;
	return x;
}

/* With p->lock held. */
static void
push(struct pool *p, struct task *t)
{
	t->queued = 1;
	t->next = NULL;
	if (p->tail != NULL)
		p->tail->next = t;
	else
		p->head = t;
	p->tail = t;
	pthread_cond_signal(&p->work);
}

/* One poll: burn, reallocate the scratch buffer; 1 when done. The CPU
 * time of burn() is added to p->work_ns. */
static int
poll_task(struct pool *p, struct task *t)
{
	uint64_t t0 = thread_ns(), x = burn(t->id);

	atomic_fetch_add_explicit(&p->work_ns, thread_ns() - t0,
	    memory_order_relaxed);
	d9rec_free(t->buf);
	t->buf = d9rec_malloc(64 + (size_t)(t->rounds % 16) * 64);
	if (t->buf != NULL)
		t->buf[0] = (char)x;
	__atomic_fetch_add(&p->sink, x & 1, __ATOMIC_RELAXED);
	return --t->rounds <= 0;
}

/* After a poll of t (p->lock held): wake the peer, finish or requeue. */
static void
after_poll(struct pool *p, struct d9rec_thread *th, struct task *t, int done)
{
	struct task *peer = t->peer;

	t->running = 0;
	if (peer != NULL && !peer->done) {
		d9rec_wake(th, t->id, peer->id);
		if (peer->running)
			peer->notified = 1;
		else if (!peer->queued)
			push(p, peer);
	}
	if (done) {
		t->done = 1;
		d9rec_terminate(th, t->id);
		if (peer == NULL || peer->done) {
			d9rec_free(t->buf);
			if (peer != NULL)
				d9rec_free(peer->buf);
			free(peer);
			free(t);
			p->live--;
			pthread_cond_signal(&p->room);
		}
	} else if (t->notified) {
		t->notified = 0;
		push(p, t);
	}
}

struct worker {
	struct pool	*p;
	uint32_t	 id;
	pthread_t	 th;
};

static void *
worker_main(void *arg)
{
	struct worker *wk = arg;
	struct pool *p = wk->p;
	struct d9rec_thread *th = p->w ? d9rec_thread_register(p->w, NULL,
	    wk->id) : NULL;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct task *t = p->head;
		int done;

		if (t == NULL) {
			if (p->stop)
				break;
			pthread_mutex_unlock(&p->lock);
			d9rec_park(th, 0);
			pthread_mutex_lock(&p->lock);
			while (p->head == NULL && !p->stop)
				pthread_cond_wait(&p->work, &p->lock);
			pthread_mutex_unlock(&p->lock);
			d9rec_unpark(th, 0);
			pthread_mutex_lock(&p->lock);
			continue;
		}
		if ((p->head = t->next) == NULL)
			p->tail = NULL;
		t->queued = 0;
		t->running = 1;
		pthread_mutex_unlock(&p->lock);
		d9rec_poll_start(th, t->id, p->loc, 0);
		done = poll_task(p, t);
		d9rec_poll_end(th);
		pthread_mutex_lock(&p->lock);
		after_poll(p, th, t, done);
	}
	pthread_mutex_unlock(&p->lock);
	d9rec_thread_unregister(&th);
	return NULL;
}

/* The driver: PAIRS pairs, at most PAIRS_LIVE alive at once. */
static void
drive(struct pool *p)
{
	struct d9rec_thread *th = p->w ? d9rec_thread_register(p->w, "driver",
	    D9REC_NO_WORKER) : NULL;

	pthread_mutex_lock(&p->lock);
	for (int i = 0; i < PAIRS; i++) {
		struct task *a, *b;

		while (p->live >= PAIRS_LIVE)
			pthread_cond_wait(&p->room, &p->lock);
		if (i == WARM_PAIRS)
			take(p, &p->win[0]);
		a = calloc(1, sizeof *a);
		b = calloc(1, sizeof *b);
		if (a == NULL || b == NULL)
			exit(1);
		a->id = ++p->next_id;
		b->id = ++p->next_id;
		a->rounds = b->rounds = PAIR_ROUNDS;
		a->peer = b;
		b->peer = a;
		p->live++;
		d9rec_spawn(th, a->id, p->loc);
		d9rec_spawn(th, b->id, p->loc);
		push(p, a);
	}
	while (p->live > 0)
		pthread_cond_wait(&p->room, &p->lock);
	take(p, &p->win[1]);
	p->stop = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	d9rec_thread_unregister(&th);
}

/* Each thread's CPU time so far (ms, from /proc/self/task/N/schedstat)
 * and name, on stdout: what --only prints before the writer is closed,
 * libd9rec's flush and compressor threads apart from the program's. */
static void
print_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	while (d != NULL && (e = readdir(d)) != NULL) {
		char path[300], comm[32] = "?";
		unsigned long long ns = 0;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%s/comm",
		    e->d_name);
		if ((f = fopen(path, "r")) != NULL) {
			if (fscanf(f, "%31s", comm) != 1)
				comm[0] = 0;
			fclose(f);
		}
		snprintf(path, sizeof path, "/proc/self/task/%s/schedstat",
		    e->d_name);
		if ((f = fopen(path, "r")) != NULL) {
			if (fscanf(f, "%llu", &ns) != 1)
				ns = 0;
			fclose(f);
		}
		printf("thread %-16s %9.1f ms CPU\n", comm, (double)ns / 1e6);
	}
	if (d != NULL)
		closedir(d);
}

/* One run of the workload in this (child) process; win[0] and win[1]:
 * the process at the start and the end of the measured window. */
static int
run(const struct mode *m, const char *dir, struct snap *win, int verbose)
{
	struct worker wk[WORKERS];
	struct d9rec_options o;
	struct pool p;
	int rc;

	memset(&p, 0, sizeof p);
	p.win = win;
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.work, NULL);
	pthread_cond_init(&p.room, NULL);
	if (m->on) {
		d9rec_options_init(&o);
		o.dir = dir;
		o.service = "d9rec-overhead";
		o.cpu_profile = m->cpu;
		o.sched_profile = m->sched;
		o.alloc_profile = m->alloc;
		o.sched_sample_period = m->sched_period;
		o.compression = m->compression;
		o.cpu_sampler = m->sampler;
		o.sched_all_threads = m->sched_all;
		o.rotation_period_ms = 1000;	/* seals in the window */
		if (d9rec_open(&p.w, &o) < 0)
			return 1;
		p.loc = d9rec_location(p.w, "bench/rec/d9rec-overhead.c:1:1");
	}
	for (uint32_t i = 0; i < WORKERS; i++) {
		wk[i].p = &p;
		wk[i].id = i;
		if (pthread_create(&wk[i].th, NULL, worker_main, &wk[i]) != 0 ||
		    pthread_getcpuclockid(wk[i].th, &p.wclk[i]) != 0)
			return 1;
	}
	drive(&p);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(wk[i].th, NULL);
	if (verbose) {
		print_threads();
		printf("window: program threads %.1f ms CPU, %.1f ms of it "
		    "outside burn()\n", (double)(win[1].prog - win[0].prog) /
		    1e6, (double)(win[1].prog - win[0].prog - win[1].work +
		    win[0].work) / 1e6);
	}
	rc = p.w != NULL && d9rec_close(&p.w) < 0;
	return rc;
}

/* One run's window (s) and what the whole run took besides (once). */
struct sample {
	double		 wall, cpu, switches, prog, work, once;
};

static struct sample
measure(const struct mode *m)
{
	char dir[] = "/tmp/d9rec-overhead-XXXXXX", cmd[64];
	struct sample s = { -1, -1, -1, -1, -1, -1 };
	struct rusage ru;
	struct snap *win;
	int status;
	pid_t pid;

	win = mmap(NULL, 2 * sizeof *win, PROT_READ | PROT_WRITE, MAP_SHARED |
	    MAP_ANONYMOUS, -1, 0);
	if (win == MAP_FAILED || mkdtemp(dir) == NULL)
		return s;
	if ((pid = fork()) == 0)
		_exit(run(m, dir, win, 0));
	if (pid > 0 && wait4(pid, &status, 0, &ru) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0) {
		double whole = (double)ru.ru_utime.tv_sec +
		    (double)ru.ru_stime.tv_sec + (double)(ru.ru_utime.tv_usec +
		    ru.ru_stime.tv_usec) * 1e-6;

		s.wall = (double)(win[1].wall - win[0].wall) * 1e-9;
		s.cpu = (double)(win[1].proc - win[0].proc) * 1e-9;
		s.prog = (double)(win[1].prog - win[0].prog) * 1e-9;
		s.work = (double)(win[1].work - win[0].work) * 1e-9;
		s.switches = (double)(ru.ru_nvcsw + ru.ru_nivcsw);
		s.once = whole - s.cpu;
	}
	munmap(win, 2 * sizeof *win);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return s;
}

static int
dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of v[0..n) (n <= MAX_ROUNDS), v left as it is: the rounds
 * of every mode stay paired with the off run of the same round. */
static double
median(const double *v, int n)
{
	double c[MAX_ROUNDS];

	memcpy(c, v, (size_t)n * sizeof *c);
	qsort(c, (size_t)n, sizeof *c, dbl_cmp);
	return n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
}

static int
usage(void)
{
	fprintf(stderr, "usage: d9rec-overhead [ROUNDS (1..%d) "
	    "[--sources | MODE...]]\n"
	    "       d9rec-overhead --only MODE\n"
	    "MODE:", MAX_ROUNDS);
	for (int m = 0; m < M_N; m++)
		fprintf(stderr, " %s", modes[m].name);
	fprintf(stderr, "\n");
	return 2;
}

int
main(int argc, char **argv)
{
	double wall[M_N + 8][MAX_ROUNDS], cpu[M_N + 8][MAX_ROUNDS];
	double sw[M_N + 8][MAX_ROUNDS], prog[M_N + 8][MAX_ROUNDS];
	double work[M_N + 8][MAX_ROUNDS], once[M_N + 8][MAX_ROUNDS];
	double mw[M_N + 8], mc[M_N + 8], mn[M_N + 8], ms[M_N + 8]; /* medians */
	const struct mode *sel[M_N + 8];
	int rounds = argc > 1 ? atoi(argv[1]) : 5, n = 0;

	if (argc == 3 && strcmp(argv[1], "--only") == 0) {
		char dir[] = "/tmp/d9rec-overhead-XXXXXX";
		struct snap win[2];

		for (int m = 0; m < M_N; m++) {
			if (strcmp(argv[2], modes[m].name) != 0)
				continue;
			if (!modes[m].on)
				return run(&modes[m], NULL, win, 1);
			if (mkdtemp(dir) == NULL) {
				perror("d9rec-overhead: mkdtemp");
				return 1;
			}
			printf("trace: %s\n", dir);
			return run(&modes[m], dir, win, 1); /* dir kept */
		}
		fprintf(stderr, "d9rec-overhead: argument 2 is not a mode\n");
		return usage();
	}
	if (argc > 2 && strcmp(argv[2], "--sources") == 0)
		while (n < M_N) {
			sel[n] = &modes[n];
			n++;
		}
	else if (argc > 2) {
		sel[n++] = &modes[M_OFF];
		for (int i = 2; i < argc && n < M_N + 8; i++) {
			int m = 0;

			while (m < M_N && strcmp(argv[i], modes[m].name) != 0)
				m++;
			if (m == M_N) {
				fprintf(stderr, "d9rec-overhead: argument %d "
				    "is not a mode\n", i);
				return usage();
			}
			sel[n++] = &modes[m];
		}
	} else
		while (n <= M_FULL) {
			sel[n] = &modes[n];
			n++;
		}
	if (rounds < 1 || rounds > MAX_ROUNDS)
		return usage();
	printf("workload: %d workers, %d pairs of tasks x %d polls x %d "
	    "iterations, %d pairs alive at once; %d rounds\n", WORKERS, PAIRS,
	    2 * PAIR_ROUNDS, WORK, PAIRS_LIVE, rounds);
	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < n; i++) {
			int m = (r + i) % n;	/* each mode in turn first */
			struct sample s = measure(sel[m]);

			if (s.wall < 0) {
				printf("run %s failed\n", sel[m]->name);
				return 1;
			}
			wall[m][r] = s.wall;
			cpu[m][r] = s.cpu;
			sw[m][r] = s.switches;
			prog[m][r] = s.prog;
			work[m][r] = s.work;
			once[m][r] = s.once;
		}
	printf("%-8s %7s %7s %8s %10s %7s %7s %13s %7s %7s %8s %8s\n",
	    "mode", "wall_s", "cpu_s", "switches", "throughput", "cpu_pct",
	    "net_pct", "rounds_range", "in_prog", "in_rec", "once_ms",
	    "work_pct");
	for (int m = 0; m < n; m++) {
		double tr[MAX_ROUNDS], cr[MAX_ROUNDS], pr[MAX_ROUNDS];
		double rr[MAX_ROUNDS], nr[MAX_ROUNDS], or[MAX_ROUNDS], lo, hi;
		double wr[MAX_ROUNDS];

		/* ratios to the off run of the same round, then medians:
		 * the machine's load drifts less within a round; net: each
		 * run's CPU scaled by the speed its burn() ran at against
		 * the off run's (k), which takes out most of what other
		 * work on the machine does to the speed of every run */
		for (int r = 0; r < rounds; r++) {
			double off = cpu[M_OFF][r];
			double k = work[M_OFF][r] / work[m][r];

			tr[r] = wall[M_OFF][r] / wall[m][r];
			cr[r] = off / cpu[m][r];
			nr[r] = 100 * (k * cpu[m][r] / off - 1);
			pr[r] = 100 * (k * prog[m][r] - prog[M_OFF][r]) / off;
			rr[r] = 100 * (k * (cpu[m][r] - prog[m][r]) -
			    (cpu[M_OFF][r] - prog[M_OFF][r])) / off;
			or[r] = 1e3 * (once[m][r] - once[M_OFF][r]);
			wr[r] = 100 * (work[m][r] / work[M_OFF][r] - 1);
		}
		mw[m] = median(tr, rounds);
		mc[m] = median(cr, rounds);
		mn[m] = median(nr, rounds);
		lo = hi = nr[0];
		for (int r = 1; r < rounds; r++) {
			lo = nr[r] < lo ? nr[r] : lo;
			hi = nr[r] > hi ? nr[r] : hi;
		}
		ms[m] = median(sw[m], rounds);
		printf("%-8s %7.3f %7.3f %8.0f %10.3f %7.1f %7.1f "
		    "%6.1f..%-5.1f %7.1f %7.1f %8.1f %8.2f\n", sel[m]->name,
		    median(wall[m], rounds), median(cpu[m], rounds), ms[m],
		    mw[m], 100 * (1 / mc[m] - 1), mn[m], lo, hi,
		    median(pr, rounds), median(rr, rounds), median(or, rounds),
		    median(wr, rounds));
	}
	if (sel[M_DEFAULT] == &modes[M_DEFAULT] && sel[M_FULL] ==
	    &modes[M_FULL]) {
		printf("unscaled: default cpu_pct %.1f, throughput %.3f; "
		    "full cpu_pct %.1f, throughput %.3f\n",
		    100 * (1 / mc[M_DEFAULT] - 1), mw[M_DEFAULT],
		    100 * (1 / mc[M_FULL] - 1), mw[M_FULL]);
		printf("overhead_default_pct=%.1f\n", mn[M_DEFAULT]);
		printf("overhead_full_pct=%.1f\n", mn[M_FULL]);
	}
	return 0;
}
