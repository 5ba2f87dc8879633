/*
 * perf.c: CPU profiling of registered threads with perf_event_open.
 *
 * Per thread, two software events stamped with CLOCK_MONOTONIC: cpu-clock
 * sampling at opt.cpu_frequency_hz with user callchains (CpuSampleEvent
 * source 0; exclude_kernel, so it works at perf_event_paranoid 2), and
 * context-switch sampling with kernel+user callchains (source 1), which
 * needs kernel sampling rights. Each event has its own mmap ring, read
 * by the flush thread without signals (DEPENDENCIES 9: an inheriting
 * per-process event cannot be mmapped, hence one event per thread).
 *
 * d9rec_perf_probe() tries both on the opening thread once; when the
 * kernel refuses, that kind is off for the writer's life and the reason
 * goes into the metadata (d9rec.cpu_profile, d9rec.sched_profile). A
 * thread whose event cannot be opened later just has no samples.
 *
 * The context-switch event goes on runtime workers only (worker id below
 * D9REC_BLOCKING_WORKER) unless opt.sched_all_threads: it makes every
 * switch of its thread dearer, and a thread without a worker lane is
 * where its samples say least.
 *
 * Switch sampling follows a duty cycle (opt.sched_duty_pct < 100): the
 * events are opened disabled, and the flush thread turns them on for the
 * first sched_duty_pct % of every second of CLOCK_MONOTONIC and off for
 * the rest. An enabled event costs its thread at every switch, whatever
 * its period (about 2.5 us here); a disabled one still about 1 us, for
 * the kernel switches the thread's perf context in and out. While on,
 * the kernel samples one switch in sched_sample_period * duty, so that
 * over time a sample still stands for about sched_sample_period
 * switches.
 *
 * So a busy thread's event is closed for the off phase: at the off edge
 * the flush thread reads how many switches the thread made while on,
 * and when the off phase would cost it more (that count times the
 * phases' ratio, at 1 us each) than opening the event again costs the
 * flush thread (perf_event_open and the ring's mmap, about 150 us, the
 * price of REOPEN_SWITCHES disabled switches), the event is closed once
 * its ring is drained and opened again at the next on edge. A quiet
 * thread keeps its disabled event.
 *
 * The cpu-clock event is the CPU sampler of opt.cpu_sampler
 * D9REC_CPU_PERF, and of D9REC_CPU_TIMER when the timer sampler
 * (cputimer.c, the default) cannot run (d9rec.cpu_sampler says which).
 * Both write their samples with d9rec_cpu_sample().
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rec/rec.h"

#define CPU_PAGES	16
#define SCHED_PAGES	64
#define MAX_FRAMES	128
#define REOPEN_SWITCHES	150

/* A switch event's state across the duty cycle's edges. */
enum shut {
	SHUT_NO,	/* open, or never opened */
	SHUT_CLOSE,	/* to close once its ring is drained */
	SHUT_CLOSED,	/* closed for the off phase */
	SHUT_REOPEN	/* to open again (the on phase began) */
};

static size_t
map_len(int sched)
{
	return (size_t)(1 + (sched ? SCHED_PAGES : CPU_PAGES)) *
	    (size_t)sysconf(_SC_PAGESIZE);
}

static int
perf_open(struct d9rec_writer *w, pid_t tid, int sched)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.exclude_hv = 1;
	if (sched) {
		a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
		a.sample_period = d9rec_sched_event_period(w);
		a.disabled = w->opt.sched_duty_pct < 100;
	} else {
		a.config = PERF_COUNT_SW_CPU_CLOCK;
		a.freq = 1;
		a.sample_freq = w->opt.cpu_frequency_hz;
		a.exclude_kernel = 1;
	}
	return d9rec_fd_high((int)syscall(SYS_perf_event_open, &a, tid, -1, -1,
	    PERF_FLAG_FD_CLOEXEC));
}

static uint8_t *
perf_map(int fd, int sched)
{
	void *p = mmap(NULL, map_len(sched), PROT_READ | PROT_WRITE,
	    MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int
paranoid(void)
{
	FILE *fp = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = -100;

	if (fp != NULL) {
		if (fscanf(fp, "%d", &v) != 1)
			v = -100;
		fclose(fp);
	}
	return v;
}

static int
probe(struct d9rec_writer *w, int sched, char *reason, size_t n)
{
	int fd = perf_open(w, (pid_t)gettid(), sched), err;
	uint8_t *m;

	if (fd < 0) {
		err = errno;
		snprintf(reason, n, "off: perf_event_open: %s "
		    "(perf_event_paranoid=%d)", strerror(err), paranoid());
		return 0;
	}
	if ((m = perf_map(fd, sched)) == NULL) {
		snprintf(reason, n, "off: mmap: %s", strerror(errno));
		close(fd);
		return 0;
	}
	munmap(m, map_len(sched));
	close(fd);
	snprintf(reason, n, "on");
	return 1;
}

void
d9rec_perf_probe(struct d9rec_writer *w)
{
	char why[128];

	snprintf(w->cpu_reason, sizeof w->cpu_reason, "off: disabled");
	snprintf(w->sched_reason, sizeof w->sched_reason, "off: disabled");
	if (w->opt.cpu_profile && w->opt.cpu_sampler == D9REC_CPU_TIMER) {
		if (d9rec_cputimer_probe(why, sizeof why)) {
			w->cpu_on = w->cpu_timer = 1;
			snprintf(w->cpu_reason, sizeof w->cpu_reason, "on");
			snprintf(w->sampler_reason, sizeof w->sampler_reason,
			    "timer");
		} else
			snprintf(w->sampler_reason, sizeof w->sampler_reason,
			    "perf (no timer: %s)", why);
	} else
		snprintf(w->sampler_reason, sizeof w->sampler_reason, "perf");
	if (w->opt.cpu_profile && !w->cpu_timer)
		w->cpu_on = probe(w, 0, w->cpu_reason, sizeof w->cpu_reason);
	if (w->opt.sched_profile)
		w->sched_on = probe(w, 1, w->sched_reason,
		    sizeof w->sched_reason);
}

/* Event k of thread t opened and its ring mapped: 0, or -1 with
 * neither (t->perf_fd[k] -1). */
static int
perf_attach(struct d9rec_writer *w, struct d9rec_thread *t, int k)
{
	int fd = perf_open(w, (pid_t)t->tid, k);

	if (fd < 0)
		return -1;
	if ((t->perf_map[k] = perf_map(fd, k)) == NULL) {
		close(fd);
		return -1;
	}
	t->perf_fd[k] = fd;
	return 0;
}

void
d9rec_perf_thread(struct d9rec_writer *w, struct d9rec_thread *t)
{
	int on[2] = { w->cpu_on && !w->cpu_timer, w->sched_on &&
	    (w->opt.sched_all_threads || t->worker < D9REC_BLOCKING_WORKER) };

	for (int k = 0; k < 2; k++) {
		t->perf_fd[k] = -1;
		t->perf_map[k] = NULL;
		if (on[k])
			perf_attach(w, t, k);
	}
}

unsigned
d9rec_sched_event_period(const struct d9rec_writer *w)
{
	uint64_t p = ((uint64_t)w->opt.sched_sample_period *
	    w->opt.sched_duty_pct + 50) / 100;

	return p < 1 ? 1 : p > UINT32_MAX ? UINT32_MAX : (unsigned)p;
}

unsigned
d9rec_sched_stands_for(const struct d9rec_writer *w)
{
	uint64_t d = w->opt.sched_duty_pct, n;

	n = ((uint64_t)d9rec_sched_event_period(w) * 100 + d / 2) / d;
	return n > UINT32_MAX ? UINT32_MAX : (unsigned)n;
}

/* The thread's switch event at an edge of the duty cycle (or at its
 * listing in an on phase): on or off, closed or opened at the next
 * drain (flush thread, or the registering thread before the thread is
 * drained). */
static void
sched_edge(const struct d9rec_writer *w, struct d9rec_thread *t, int on)
{
	uint64_t n, d = w->opt.sched_duty_pct;

	if (t->perf_fd[1] < 0) {
		if (t->sched_shut == SHUT_CLOSED && on)
			t->sched_shut = SHUT_REOPEN;
		else if (t->sched_shut == SHUT_REOPEN && !on)
			t->sched_shut = SHUT_CLOSED;
		return;
	}
	ioctl(t->perf_fd[1], on ? PERF_EVENT_IOC_ENABLE :
	    PERF_EVENT_IOC_DISABLE, 0);
	if (on) {
		t->sched_shut = SHUT_NO;	/* a close not yet done */
		return;
	}
	if (read(t->perf_fd[1], &n, sizeof n) != (ssize_t)sizeof n)
		return;
	if ((n - t->sched_seen) * (100 - d) > REOPEN_SWITCHES * d)
		t->sched_shut = SHUT_CLOSE;
	t->sched_seen = n;
}

static void
perf_unmap(struct d9rec_thread *t, int k)
{
	if (t->perf_map[k] != NULL)
		munmap(t->perf_map[k], map_len(k));
	if (t->perf_fd[k] >= 0)
		close(t->perf_fd[k]);
	t->perf_map[k] = NULL;
	t->perf_fd[k] = -1;
}

/* After the drain of its ring: the close or the reopen asked for. */
static void
sched_shut(struct d9rec_writer *w, struct d9rec_thread *t)
{
	if (t->sched_shut == SHUT_CLOSE) {
		perf_unmap(t, 1);
		t->sched_shut = SHUT_CLOSED;
	} else if (t->sched_shut == SHUT_REOPEN) {
		t->sched_shut = SHUT_CLOSED;	/* until it works */
		/* not on a thread gone, nor on another process's thread
		 * that took the tid of one that exited unregistered */
		if (atomic_load(&t->dead) ||
		    syscall(SYS_tgkill, getpid(), (pid_t)t->tid, 0) != 0 ||
		    perf_attach(w, t, 1) < 0)
			return;
		t->sched_seen = 0;
		t->sched_shut = SHUT_NO;
		ioctl(t->perf_fd[1], PERF_EVENT_IOC_ENABLE, 0);
	}
}

uint64_t
d9rec_perf_duty(struct d9rec_writer *w)
{
	/* the trace's clock: a reader tells a sampled poll by its time */
	uint64_t ms = d9rec_now(w) / 1000000u % D9REC_SCHED_CYCLE_MS;
	uint64_t on_ms = D9REC_SCHED_CYCLE_MS / 100 * w->opt.sched_duty_pct;
	int on = ms < on_ms;

	if (!w->sched_on || w->opt.sched_duty_pct >= 100)
		return UINT64_MAX;
	if (on != w->sched_live) {
		w->sched_live = on;
		for (struct d9rec_thread *t = w->threads; t != NULL;
		    t = t->next)
			sched_edge(w, t, on);
	}
	return on ? on_ms - ms : D9REC_SCHED_CYCLE_MS - ms;
}

void
d9rec_perf_listed(struct d9rec_writer *w, struct d9rec_thread *t)
{
	if (w->sched_live)	/* its event was opened disabled */
		sched_edge(w, t, 1);
}

void
d9rec_perf_close(struct d9rec_thread *t)
{
	perf_unmap(t, 0);
	perf_unmap(t, 1);
}

static uint64_t
rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

void
d9rec_cpu_sample(struct d9rec_writer *w, struct d9rec_thread *t,
    struct enc *e, uint64_t ts, uint32_t cpu, int source,
    const uint64_t *frames, uint32_t n)
{
	uint32_t name = 0, stack;

	d9rec_addrs_add(&w->addrs, frames, n);
	if (source == 0)
		name = d9rec_enc_pool_id(w, e, t->name);
	stack = d9rec_enc_pool_stack(e, frames, n);
	d9rec_enc_event(w, e, S_CPU, ts);
	d9rec_enc_varint(e, t->worker);
	d9rec_enc_u32(e, t->tid);
	d9rec_enc_u8(e, (uint8_t)source);
	d9rec_enc_u8(e, source == 0);
	if (source == 0)
		d9rec_enc_u32(e, name);
	d9rec_enc_u32(e, stack);
	d9rec_enc_u8(e, 1);
	d9rec_enc_varint(e, cpu);
	atomic_fetch_add(&w->cpu_samples, 1);
}

/* One PERF_RECORD_SAMPLE (ip, pid/tid, time, cpu/res, nr, ips). */
static void
sample(struct d9rec_writer *w, struct d9rec_thread *t, struct enc *e,
    const uint8_t *p, size_t len, int source)
{
	uint64_t frames[MAX_FRAMES], nr;
	uint32_t cpu, n = 0;

	if (len < 8 + 8 + 8 + 8 + 8)
		return;
	memcpy(&cpu, p + 24, 4);
	nr = rd64(p + 32);
	if (nr > (len - 40) / 8)
		return;
	for (uint64_t i = 0; i < nr && n < MAX_FRAMES; i++) {
		uint64_t ip = rd64(p + 40 + 8 * i);

		if (ip != 0 && ip < (uint64_t)-4095)	/* no context marks */
			frames[n++] = ip;
	}
	d9rec_cpu_sample(w, t, e, rd64(p + 16), cpu, source, frames, n);
}

void
d9rec_perf_drain(struct d9rec_writer *w, struct d9rec_thread *t,
    struct enc *e)
{
	uint8_t rec[65536];

	for (int k = 0; k < 2; k++) {
		struct perf_event_mmap_page *pg = (void *)t->perf_map[k];
		uint64_t head, tail, size;
		const uint8_t *data;

		if (pg == NULL)
			continue;
		head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
		tail = pg->data_tail;
		size = pg->data_size;
		data = t->perf_map[k] + pg->data_offset;
		while (tail + sizeof(struct perf_event_header) <= head) {
			struct perf_event_header h;
			uint64_t off = tail % size;

			for (size_t i = 0; i < sizeof h; i++)
				((uint8_t *)&h)[i] = data[(off + i) % size];
			if (h.size < sizeof h || tail + h.size > head)
				break;
			if (off + h.size <= size)
				memcpy(rec, data + off, h.size);
			else {
				memcpy(rec, data + off, size - off);
				memcpy(rec + (size - off), data,
				    h.size - (size - off));
			}
			if (h.type == PERF_RECORD_SAMPLE)
				sample(w, t, e, rec + sizeof h,
				    h.size - sizeof h, k);
			else if (h.type == PERF_RECORD_LOST &&
			    h.size >= sizeof h + 16)
				atomic_fetch_add(&w->cpu_lost,
				    rd64(rec + sizeof h + 8));
			tail += h.size;
		}
		__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	}
	sched_shut(w, t);
}
