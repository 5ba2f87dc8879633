/*
 * d9rec-bench.c: cost of recording with libd9rec.
 *
 *	d9rec-bench [D9DEMO]
 *
 * Recording: poll start/end events on 1 thread, then on 2 threads at
 * once, timed with CLOCK_MONOTONIC around the recording loops only (the
 * flush between rounds is not timed; nothing is dropped, which is
 * checked). Rings have the default size and a round fills most of one,
 * as between two flushes of a running program: the ring stays in the
 * cache (a ring far larger than the cache measured memory bandwidth, not
 * the recorder). Each thread times its own loop; a figure is the best
 * round, and ns_per_event_2threads is the mean of the two threads'
 * figures: the cost one event has for its thread while another thread
 * records at the same time. rdtsc_ns is what one TSC read costs on its
 * own here (back to back): the floor of an event, which stamps one.
 *
 * Profiling: when the path of d9demo is given, it runs d9demo for 3 s
 * without CPU profiling, with CPU sampling only, and with the default
 * (CPU samples at 99 Hz + context switches), and prints the CPU time of
 * each run (user + system, from wait4) and the overhead. Then (also with
 * D9REC_BENCH_HANDOFF set) handoff_ns: what each source adds to a
 * context switch of a registered thread (two threads handing a token
 * back and forth; see handoff_ns()). Both depend on the machine's load:
 * on an idle virtual machine a wake-up that must bring a CPU out of its
 * idle state costs several us and hides the rest (taskset -c 0 keeps
 * both threads on one CPU).
 *
 * kallsyms_pass_ms: what naming a seal's kernel frames costs (one pass
 * over /proc/kallsyms, rec/ksyms.c), against reading that file alone;
 * not printed where the file names nothing.
 *
 * The last two lines are always ns_per_event_1thread=X and
 * ns_per_event_2threads=Y.
 *
 * d9rec-bench-noclock is this program linked with a build of libd9rec
 * (-DD9REC_BENCH_NO_CLOCK, bench/rec/meson.build only) whose fast path
 * stamps each event with its position in the ring instead of reading
 * the TSC: what the recorder itself costs an event, the clock aside.
 * Its last two lines are ns_per_event_no_clock_1thread=X and
 * ns_per_event_no_clock_2threads=Y.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "d9rec.h"
#include "rec/rec.h"

#ifdef D9REC_BENCH_NO_CLOCK	/* d9rec-bench-noclock */
#define NO_CLOCK	"_no_clock"
#else
#define NO_CLOCK	""
#endif

#define PER_ROUND	30000		/* events per thread and round */
#define ROUNDS		200

struct arg {
	d9rec_writer	*w;
	struct d9rec_thread *t;
	uint32_t	 loc;
	pthread_barrier_t *start;
	double		 best;		/* ns per event */
};

static double
now_s(void)
{
	return (double)d9rec_mono_ns() * 1e-9;
}

static void
record(struct arg *a)
{
	double t0 = now_s();

	for (uint64_t i = 0; i < PER_ROUND / 2; i++) {
		d9rec_poll_start(a->t, i + 1, a->loc, 0);
		d9rec_poll_end(a->t);
	}
	t0 = (now_s() - t0) * 1e9 / PER_ROUND;
	if (t0 < a->best)
		a->best = t0;
}

static void *
second(void *p)
{
	struct arg *a = p;

	a->t = d9rec_thread_register(a->w, "bench-2", 1);
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(a->start);
		record(a);
		pthread_barrier_wait(a->start);
	}
	d9rec_thread_unregister(&a->t);
	return NULL;
}

/* Best round, in ns per event per thread. */
static double
bench(int threads)
{
	char dir[] = "/tmp/d9rec-bench-XXXXXX", cmd[64];
	struct d9rec_options o;
	struct d9rec_stats st;
	pthread_barrier_t start;
	struct arg a[2];
	pthread_t th;

	if (mkdtemp(dir) == NULL)
		exit(1);
	d9rec_options_init(&o);
	o.dir = dir;
	o.compression = D9REC_COMPRESS_NONE;
	o.cpu_profile = o.sched_profile = o.alloc_profile = 0;
	o.flush_interval_ms = 3600 * 1000;
	o.max_total_size = (uint64_t)4 << 30;
	o.max_file_size = (uint64_t)1 << 30;
	if (d9rec_open(&a[0].w, &o) < 0)
		exit(1);
	a[1].w = a[0].w;
	a[0].loc = a[1].loc = d9rec_location(a[0].w, "bench.c:1:1");
	a[0].t = d9rec_thread_register(a[0].w, "bench-1", 0);
	pthread_barrier_init(&start, NULL, (unsigned)threads);
	a[0].start = a[1].start = &start;
	a[0].best = a[1].best = 1e9;
	if (threads == 2)
		pthread_create(&th, NULL, second, &a[1]);
	for (int r = 0; r < ROUNDS; r++) {
		if (threads == 2)
			pthread_barrier_wait(&start);
		record(&a[0]);
		if (threads == 2)
			pthread_barrier_wait(&start);
		d9rec_flush(a[0].w);
	}
	if (threads == 2)
		pthread_join(th, NULL);
	d9rec_thread_unregister(&a[0].t);
	d9rec_stats(a[0].w, &st);
	printf("%d thread(s): %llu events, %llu dropped, %.1f MB written\n",
	    threads, (unsigned long long)st.events,
	    (unsigned long long)st.dropped, (double)st.bytes_written / 1e6);
	d9rec_close(&a[0].w);
	pthread_barrier_destroy(&start);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return threads == 2 ? (a[0].best + a[1].best) / 2 : a[0].best;
}

/*
 * What a context switch costs a registered thread, per source: two
 * registered threads hand a token to each other (semaphores: each
 * handoff is a wake and a sleep) HANDOFFS times; best of a few rounds,
 * in ns per handoff. No events are recorded: this is the cost the
 * kernel adds at the switches of a thread that a source samples. With
 * the default duty cycle (sched and period 0) the handoffs run for
 * DUTY_SECONDS whole seconds instead, and the figure is their mean: the
 * on phases, the off phases and the edges between them.
 */
#define HANDOFFS	20000
#define DUTY_SECONDS	3

struct pingpong {
	d9rec_writer	*w;
	sem_t		 sem[2];
	_Atomic int	 stop;
};

static void *
pong(void *p)
{
	struct pingpong *pp = p;
	struct d9rec_thread *t = pp->w ? d9rec_thread_register(pp->w, "pong",
	    1) : NULL;

	for (;;) {
		sem_wait(&pp->sem[1]);
		if (pp->stop)
			break;
		sem_post(&pp->sem[0]);
	}
	d9rec_thread_unregister(&t);
	return NULL;
}

/* ns per handoff of one round: n handoffs, or until the second of
 * CLOCK_MONOTONIC until when n is 0. */
static double
handoffs(struct pingpong *pp, long n, double until)
{
	double t0 = now_s();
	pthread_t th;
	long i = 0;

	sem_init(&pp->sem[0], 0, 0);
	sem_init(&pp->sem[1], 0, 0);
	pp->stop = 0;
	pthread_create(&th, NULL, pong, pp);
	for (; n > 0 ? i < n : (i % 256 != 0 || now_s() < until); i++) {
		sem_post(&pp->sem[1]);
		sem_wait(&pp->sem[0]);
	}
	t0 = (now_s() - t0) * 1e9 / (2 * (double)i);
	pp->stop = 1;
	sem_post(&pp->sem[1]);
	pthread_join(th, NULL);
	return t0;
}

static double
handoff_ns(int cpu, int sampler, int sched, unsigned period)
{
	char dir[] = "/tmp/d9rec-bench-XXXXXX", cmd[64];
	struct d9rec_options o;
	struct d9rec_thread *t;
	struct pingpong pp;
	double best = 1e9;

	if (mkdtemp(dir) == NULL)
		exit(1);
	memset(&pp, 0, sizeof pp);
	if (cpu || sched) {
		d9rec_options_init(&o);
		o.dir = dir;
		o.compression = D9REC_COMPRESS_NONE;
		o.alloc_profile = 0;
		o.cpu_profile = cpu;
		o.cpu_sampler = sampler;
		o.sched_profile = sched;
		o.sched_sample_period = period;
		if (d9rec_open(&pp.w, &o) < 0)
			exit(1);
	}
	t = pp.w ? d9rec_thread_register(pp.w, "ping", 0) : NULL;
	if (sched && period == 0) {
		/* whole seconds of the cycle (CLOCK_MONOTONIC's) */
		double s0 = (double)(long)now_s() + 1;

		while (now_s() < s0)
			usleep(1000);
		best = handoffs(&pp, 0, s0 + DUTY_SECONDS);
	} else
		for (int r = 0; r < 5; r++) {
			double ns = handoffs(&pp, HANDOFFS, 0);

			if (ns < best)
				best = ns;
		}
	d9rec_thread_unregister(&t);
	if (pp.w != NULL)
		d9rec_close(&pp.w);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return best;
}

/* CPU seconds of one d9demo run. */
static double
demo_cpu(const char *demo, const char *flag)
{
	char dir[] = "/tmp/d9rec-bench-demo-XXXXXX", cmd[64];
	struct rusage ru;
	int status;
	pid_t pid;

	if (mkdtemp(dir) == NULL)
		return -1;
	if ((pid = fork()) == 0) {
		execl(demo, demo, "--out", dir, "--seconds", "3", "--no-compress",
		    flag, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* One TSC read, back to back, in ns (0 where the clock is not a TSC). */
static double
rdtsc_ns(void)
{
	double best = 1e9;
#if defined(__x86_64__) || defined(__i386__)
	volatile uint64_t sink = 0;

	for (int r = 0; r < 20; r++) {
		double t0 = now_s();

		for (int i = 0; i < 100000; i++)
			sink += __builtin_ia32_rdtsc();
		t0 = (now_s() - t0) * 1e9 / 100000;
		if (t0 < best)
			best = t0;
	}
#else
	best = 0;
#endif
	return best;
}

#ifndef D9REC_BENCH_NO_CLOCK
/*
 * What naming kernel frames costs a seal: one pass of rec/ksyms.c over
 * /proc/kallsyms for 64 addresses spread over the kernel's text (the
 * first text symbol up), and, as the baseline, reading the file whole
 * without parsing it; ms of CPU, best of 3. Returns 0 where the file
 * names nothing (kptr_restrict): nothing is printed then.
 */
static int
kallsyms_ms(double *pass, double *bare)
{
	uint64_t need[64], t0;
	char buf[1 << 16];
	FILE *f;

	*pass = *bare = 1e9;
	for (int i = 0; i < 64; i++)
		need[i] = 0xffffffff81000000ull + (uint64_t)i * (1u << 18);
	for (int r = 0; r < 3; r++) {
		struct ksyms *k = NULL;

		t0 = d9rec_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
		if (d9rec_ksyms_resolve(&k, "/proc/kallsyms", need, 64) < 0) {
			d9rec_ksyms_free(&k);
			return 0;
		}
		d9rec_ksyms_free(&k);
		t0 = d9rec_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - t0;
		*pass = (double)t0 / 1e6 < *pass ? (double)t0 / 1e6 : *pass;
		t0 = d9rec_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
		if ((f = fopen("/proc/kallsyms", "r")) == NULL)
			return 0;
		while (fread(buf, 1, sizeof buf, f) > 0)
			;
		fclose(f);
		t0 = d9rec_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - t0;
		*bare = (double)t0 / 1e6 < *bare ? (double)t0 / 1e6 : *bare;
	}
	return 1;
}
#endif

int
main(int argc, char **argv)
{
	double one, two;

	if (argc > 1) {
		double off = demo_cpu(argv[1], "--no-profile");
		double cpu = demo_cpu(argv[1], "--no-sched");
		double all = demo_cpu(argv[1], NULL);	/* the default */
		if (off > 0 && cpu > 0 && all > 0)
			printf("d9demo 3 s CPU time: no profiling %.3f s, "
			    "CPU samples 99 Hz %.3f s (%+.1f%%), CPU samples + "
			    "context switches %.3f s (%+.1f%%)\n", off, cpu,
			    100 * (cpu - off) / off, all, 100 * (all - off) / off);
		else
			printf("d9demo runs failed\n");
	}
	if (argc > 1 || getenv("D9REC_BENCH_HANDOFF") != NULL) {
		double off = handoff_ns(0, 0, 0, 0);

		printf("handoff_ns: off %.0f, timer cpu %+.0f, perf cpu-clock "
		    "%+.0f, switches 1/16 %+.0f, switches 1/1 %+.0f, "
		    "switches by default (the duty cycle, mean of %d s) "
		    "%+.0f\n", off,
		    handoff_ns(1, D9REC_CPU_TIMER, 0, 0) - off,
		    handoff_ns(1, D9REC_CPU_PERF, 0, 0) - off,
		    handoff_ns(0, 0, 1, 16) - off,
		    handoff_ns(0, 0, 1, 1) - off, DUTY_SECONDS,
		    handoff_ns(0, 0, 1, 0) - off);
	}
#ifndef D9REC_BENCH_NO_CLOCK
	{
		double pass, bare;

		if (kallsyms_ms(&pass, &bare))
			printf("kallsyms_pass_ms=%.1f (reading the file alone "
			    "%.1f ms, %.2fx)\n", pass, bare, pass / bare);
	}
#endif
	printf("rdtsc_ns=%.2f\n", rdtsc_ns());
	one = bench(1);
	two = bench(2);
	printf("ns_per_event%s_1thread=%.2f\n", NO_CLOCK, one);
	printf("ns_per_event%s_2threads=%.2f\n", NO_CLOCK, two);
	return 0;
}
