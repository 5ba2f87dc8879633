/*
 * cputimer.c: the default CPU sampler: a per-thread CPU-time timer and a
 * SIGPROF handler that walks the interrupted thread's frame pointers.
 *
 * Why not perf: a perf event attached to a thread makes each of its
 * context switches dearer in the kernel, whatever the sample rate (0.6
 * to 0.8 us per handoff for cpu-clock on a 2-vCPU virtual machine,
 * d9rec-bench's handoff_ns). A POSIX CPU-time timer costs nothing at a
 * switch: the kernel checks it at the scheduler ticks of its thread, so
 * rates above the tick (CONFIG_HZ) come out at the tick.
 *
 * What a program sees: SIGPROF on registered threads, with SA_RESTART,
 * only while they run; a system call that a signal interrupts whatever
 * SA_RESTART says (epoll_wait, poll, select, sem_timedwait, ...) can
 * return EINTR, as under any signal-based profiler.
 *
 * Each registered thread creates, on itself, a timer on
 * CLOCK_THREAD_CPUTIME_ID that sends SIGPROF to that thread
 * (SIGEV_THREAD_ID) every 1/cpu_frequency_hz of its CPU time, with the
 * thread's sampler in si_value. The handler (async-signal-safe: no lock,
 * no allocation, no call but clock_gettime and sched_getcpu) stores the
 * time, the CPU and the callchain into the sampler's ring of fixed
 * slots. The callchain is the interrupted pc, then the return addresses
 * of the frame-pointer chain (stack.c), read only between the
 * interrupted stack pointer and the top of the thread's stack (taken at
 * registration): memory that is mapped, so no read can fault; a context
 * on another stack (a signal stack, a coroutine) keeps its pc alone.
 * The ring is single-producer (the handler, on its thread)
 * single-consumer (the flush thread, which writes CpuSampleEvent source
 * 0 as perf samples are written); a full ring counts the sample lost.
 *
 * Process-wide state: SIGPROF's disposition. The handler is installed by
 * the first writer that uses this sampler, when the program has none of
 * its own (else that writer falls back to perf), and stays installed:
 * a SIGPROF that does not come from one of these timers is ignored.
 * Nothing else is static.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "rec/rec.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id	_sigev_un._tid
#endif

#if defined(__x86_64__) || defined(__aarch64__)
#define CT_SUPPORTED	1
#else
#define CT_SUPPORTED	0
#endif

#define CT_SLOTS	32		/* a power of two */
#define CT_FRAMES	126		/* a slot is 1 KiB */
#define CT_MAGIC	0x6439726563637075ull	/* "d9reccpu" */

struct ct_slot {
	uint64_t	 ts;		/* CLOCK_MONOTONIC ns */
	uint32_t	 cpu, n;
	uint64_t	 f[CT_FRAMES];
};

struct d9rec_cputimer {
	uint64_t	 magic;
	uintptr_t	 lo, hi;	/* the thread's stack */
	struct ct_slot	*slot;
	timer_t		 id;
	int		 armed;
	_Atomic uint64_t head;		/* the handler's */
	_Atomic uint64_t lost;		/* the handler's */
	_Alignas(64) _Atomic uint64_t tail;	/* the flush thread's */
	uint64_t	 lost_seen;
};

/* ---- the signal handler ---- */

/* The interrupted pc, frame pointer and stack pointer. */
static int
context_regs(const void *ucv, uintptr_t *pc, uintptr_t *fp, uintptr_t *sp)
{
	const ucontext_t *uc = ucv;

	if (uc == NULL)
		return -1;
#if defined(__x86_64__)
	*pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	*fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
	*sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	return 0;
#elif defined(__aarch64__)
	*pc = (uintptr_t)uc->uc_mcontext.pc;
	*fp = (uintptr_t)uc->uc_mcontext.regs[29];
	*sp = (uintptr_t)uc->uc_mcontext.sp;
	return 0;
#else
	(void)pc;
	(void)fp;
	(void)sp;
	return -1;
#endif
}

/* The callchain of the interrupted context into f (at most CT_FRAMES):
 * every read lies in [sp, hi), the live part of the thread's stack. */
static uint32_t
walk(const struct d9rec_cputimer *c, const void *ucv, uint64_t *f)
{
	uintptr_t pc, fp, sp;

	if (context_regs(ucv, &pc, &fp, &sp) < 0)
		return 0;
	f[0] = pc;
	if (sp < c->lo || sp >= c->hi)
		return 1;		/* not on the thread's own stack */
	return 1 + d9rec_stack_walk(fp, sp, c->hi, f + 1, CT_FRAMES - 1);
}

static void
on_sigprof(int sig, siginfo_t *si, void *ucv)
{
	struct d9rec_cputimer *c;
	struct ct_slot *s;
	uint64_t head, tail;
	int saved = errno, cpu;

	(void)sig;
	if (si == NULL || si->si_code != SI_TIMER ||
	    (c = si->si_value.sival_ptr) == NULL || c->magic != CT_MAGIC)
		return;		/* not one of ours */
	head = atomic_load_explicit(&c->head, memory_order_relaxed);
	tail = atomic_load_explicit(&c->tail, memory_order_acquire);
	if (head - tail >= CT_SLOTS) {
		atomic_store_explicit(&c->lost, atomic_load_explicit(&c->lost,
		    memory_order_relaxed) + 1, memory_order_relaxed);
		errno = saved;
		return;
	}
	s = &c->slot[head & (CT_SLOTS - 1)];
	s->ts = d9rec_mono_ns();	/* clock_gettime: signal-safe */
	cpu = sched_getcpu();
	s->cpu = cpu < 0 ? 0 : (uint32_t)cpu;
	s->n = walk(c, ucv, s->f);
	atomic_store_explicit(&c->head, head + 1, memory_order_release);
	errno = saved;
}

/* ---- set-up ---- */

/* Install the handler unless the program handles SIGPROF itself: 0, or
 * -1 with the reason. */
static int
install(char *reason, size_t len)
{
	struct sigaction old, sa;

	if (!CT_SUPPORTED) {
		snprintf(reason, len, "no frame-pointer walk on this "
		    "architecture");
		return -1;
	}
	if (sigaction(SIGPROF, NULL, &old) < 0) {
		snprintf(reason, len, "sigaction: %s", strerror(errno));
		return -1;
	}
	if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction == on_sigprof)
		return 0;	/* installed before */
	if ((old.sa_flags & SA_SIGINFO) || (old.sa_handler != SIG_DFL &&
	    old.sa_handler != SIG_IGN)) {
		snprintf(reason, len, "SIGPROF has a handler of the program");
		return -1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigprof;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, NULL) < 0) {
		snprintf(reason, len, "sigaction: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* A timer of the calling thread's CPU time that signals it; 0 or -1. */
static int
timer_new(struct d9rec_cputimer *c, unsigned hz)
{
	struct sigevent sev;
	struct itimerspec its;
	uint64_t ns = 1000000000u / (hz ? hz : 1);

	if (ns == 0)		/* a zero interval would disarm the timer */
		ns = 1;

	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGPROF;
	sev.sigev_value.sival_ptr = c;
	sev.sigev_notify_thread_id = (pid_t)gettid();
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &c->id) < 0)
		return -1;
	its.it_interval.tv_sec = (time_t)(ns / 1000000000u);
	its.it_interval.tv_nsec = (long)(ns % 1000000000u);
	its.it_value = its.it_interval;
	if (timer_settime(c->id, 0, &its, NULL) < 0) {
		timer_delete(c->id);
		return -1;
	}
	c->armed = 1;
	return 0;
}

int
d9rec_cputimer_probe(char *reason, size_t len)
{
	struct d9rec_cputimer c;

	if (install(reason, len) < 0)
		return 0;
	memset(&c, 0, sizeof c);
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, NULL, &c.id) < 0) {
		snprintf(reason, len, "timer_create: %s", strerror(errno));
		return 0;
	}
	timer_delete(c.id);
	return 1;
}

struct d9rec_cputimer *
d9rec_cputimer_start(unsigned hz)
{
	struct d9rec_cputimer *c = aligned_alloc(64, sizeof *c);

	if (c == NULL)
		return NULL;
	memset(c, 0, sizeof *c);
	c->magic = CT_MAGIC;
	d9rec_stack_bounds(&c->lo, &c->hi);
	if ((c->slot = calloc(CT_SLOTS, sizeof *c->slot)) == NULL ||
	    timer_new(c, hz) < 0) {
		free(c->slot);
		free(c);
		return NULL;
	}
	return c;
}

/* On the sampled thread: no signal of this timer comes after this
 * returns (one already queued is taken here, with SIGPROF blocked). */
void
d9rec_cputimer_stop(struct d9rec_cputimer *c)
{
	sigset_t prof, old, pend;
	struct timespec zero = { 0, 0 };

	if (c == NULL || !c->armed)
		return;
	sigemptyset(&prof);
	sigaddset(&prof, SIGPROF);
	pthread_sigmask(SIG_BLOCK, &prof, &old);
	timer_delete(c->id);
	c->armed = 0;
	while (sigpending(&pend) == 0 && sigismember(&pend, SIGPROF) == 1 &&
	    sigtimedwait(&prof, NULL, &zero) == SIGPROF)
		;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* From any thread. A timer the sampled thread did not stop itself
 * (d9rec_close with the thread still registered and running) is deleted
 * but its memory stays: a signal already queued to that thread would
 * still read it. */
void
d9rec_cputimer_free(struct d9rec_cputimer *c)
{
	if (c == NULL)
		return;
	if (c->armed) {
		timer_delete(c->id);
		c->armed = 0;
#ifdef __SANITIZE_ADDRESS__
		__lsan_ignore_object(c->slot);	/* kept on purpose */
		__lsan_ignore_object(c);
#endif
		return;
	}
	free(c->slot);
	free(c);
}

/* In a forked child: the parent's timers were not inherited, and their
 * ids may name the child's own timers. */
void
d9rec_cputimer_forget(struct d9rec_cputimer *c)
{
	if (c != NULL)
		c->armed = 0;
}

int
d9rec_cputimer_empty(struct d9rec_cputimer *c)
{
	return c == NULL || atomic_load_explicit(&c->head,
	    memory_order_acquire) == atomic_load_explicit(&c->tail,
	    memory_order_relaxed);
}

/* ---- the flush thread ---- */

void
d9rec_cputimer_drain(struct d9rec_writer *w, struct d9rec_thread *t,
    struct enc *e)
{
	struct d9rec_cputimer *c = t->cputimer;
	uint64_t head, tail, lost;

	if (c == NULL)
		return;
	head = atomic_load_explicit(&c->head, memory_order_acquire);
	tail = atomic_load_explicit(&c->tail, memory_order_relaxed);
	for (; tail != head; tail++) {
		const struct ct_slot *s = &c->slot[tail & (CT_SLOTS - 1)];

		d9rec_cpu_sample(w, t, e, s->ts, s->cpu, 0, s->f,
		    s->n > CT_FRAMES ? CT_FRAMES : s->n);
	}
	atomic_store_explicit(&c->tail, tail, memory_order_release);
	lost = atomic_load_explicit(&c->lost, memory_order_relaxed);
	if (lost != c->lost_seen) {
		atomic_fetch_add(&w->cpu_lost, lost - c->lost_seen);
		c->lost_seen = lost;
	}
}
