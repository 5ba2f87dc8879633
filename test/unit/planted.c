/* planted.c: see planted.h. Events are written in time order. */
#include <stddef.h>

#include "base/wire.h"
#include "planted.h"

#define NF	9

/* Stacks, leaf first; NULL ends one. Their first nkernel[k] frames are
 * the kernel's, at kernel addresses (the top bit set); frame i of class k
 * is at 0x10000 * (k + 1) + 0x10 * i (with that bit for the kernel's). */
static const char *const stacks[8][NF] = {
	{ "svc::compute", "tokio::runtime::task::raw::poll" },
	{ "__schedule", "preempt_schedule_irq",
	    "asm_sysvec_apic_timer_interrupt", "svc::spin" },
	{ "__schedule", "futex_wait_queue", "futex_wait", "do_futex",
	    "__x64_sys_futex", "do_syscall_64", "syscall",
	    "hidden_svc::cache::get", "tokio::runtime::task::raw::poll" },
	{ "__schedule", "do_nanosleep", "hrtimer_nanosleep",
	    "__x64_sys_clock_nanosleep", "do_syscall_64", "clock_nanosleep",
	    "svc::backoff" },
	{ "__schedule", "io_schedule", "filemap_read", "vfs_read",
	    "ksys_read", "do_syscall_64", "read", "svc::load_file" },
	{ "__schedule", "handle_mm_fault", "do_user_addr_fault",
	    "exc_page_fault", "asm_exc_page_fault", "svc::touch" },
	{ "__schedule", "schedule", "do_wait", "kernel_wait4",
	    "do_syscall_64", "wait4", "svc::reap" },
	{ NULL },
};

static const size_t nkernel[8] = { 0, 3, 6, 5, 6, 5, 5, 0 };

static size_t
frames_of(int k, uint64_t *f)
{
	size_t n = 0;

	while (n < NF && stacks[k][n] != NULL) {
		f[n] = 0x10000ull * (uint64_t)(k + 1) + 0x10 * n;
		if (n < nkernel[k])
			f[n] |= 1ull << 63;
		n++;
	}
	return n;
}

static void
symbols(struct mt *t)
{
	for (int k = 0; k < 7; k++) {
		uint64_t f[NF];
		size_t n = frames_of(k, f);

		for (size_t i = 0; i < n; i++)
			mt_symbol(t, f[i], stacks[k][i], 0);
	}
}

/* Worker 1 runs a few short periods on little CPU (cpu-contention) and
 * one poll (worker-imbalance against worker 0's many). */
static void
worker1(struct mt *t)
{
	for (uint64_t i = 0; i < 12; i++) {
		uint64_t at = 10 * PL_MS + i * 4 * PL_MS;

		mt_unpark(t, at, 1, i * 100000, 12, 0);
		if (i == 0) {
			mt_poll_start(t, at + 100, 1, 99, "svc/src/one.rs:1:1");
			mt_poll_end(t, at + 200, 1);
		}
		mt_park(t, at + 2 * PL_MS, 1, i * 100000 + 200000, 12);
	}
}

void
mt_planted(struct mt *t)
{
	mt_begin(t);
	symbols(t);
	mt_spawn(t, PL_MS, 99, "svc/src/one.rs:1:1");
	for (uint64_t k = 0; k < 8; k++)
		mt_spawn(t, PL_MS + 1 + k, 101 + k, "svc/src/classes.rs:1:1");
	mt_spawn(t, PL_MS + 30, 120, "svc/src/delay.rs:4:1");
	mt_spawn(t, PL_MS + 31, 121, "svc/src/delay.rs:6:1");
	mt_unpark(t, 5 * PL_MS, 0, 0, 11, 0);
	worker1(t);
	/* many short polls on worker 0 */
	for (uint64_t i = 0; i < 40; i++) {
		mt_poll_start(t, 60 * PL_MS + i * 100000, 0, 99,
		    "svc/src/one.rs:1:1");
		mt_poll_end(t, 60 * PL_MS + i * 100000 + 50000, 0);
	}
	for (int k = 0; k < 8; k++) {
		uint64_t s = PL_T0 + (uint64_t)k * PL_GAP, f[NF];
		size_t n = frames_of(k, f);

		mt_wake(t, s - 100, 0, 101 + (uint64_t)k, 0);
		mt_poll_start(t, s, 0, 101 + (uint64_t)k, "svc/src/classes.rs:1:1");
		for (uint64_t i = 0; k < 7 && i < 8; i++)
			mt_cpu(t, s + PL_MS + i * PL_MS, 11, k == 0 ?
			    D9_SOURCE_CPU : D9_SOURCE_SCHED, n, f);
		if (k == 2) {
			/* 21 spans in the lock poll, one never exits */
			for (uint64_t i = 0; i < 21; i++) {
				mt_span(t, 0, s + 100 + 20 * i, 0, 500 + i, "step");
				mt_span(t, 1, s + 110 + 20 * i, 0, 500 + i, "step");
			}
			mt_span(t, 0, s + 900, 0, 600, "hang");
		}
		mt_poll_end(t, s + PL_POLL, 0);
	}
	/* a 3 ms wait for a CPU after an unpark */
	mt_park(t, 300 * PL_MS, 0, 50 * PL_MS, 11);
	mt_unpark(t, 310 * PL_MS, 0, 50 * PL_MS, 11, 3 * PL_MS);
	/* wakes 4 ms and 6 ms before the tasks' first polls */
	mt_wake(t, PL_DELAY4 - 4 * PL_MS, 0, 120, 0);
	mt_poll_start(t, PL_DELAY4, 0, 120, "svc/src/delay.rs:4:1");
	mt_poll_end(t, PL_DELAY4 + 100000, 0);
	mt_wake(t, PL_DELAY6 - 6 * PL_MS, 0, 121, 0);
	mt_poll_start(t, PL_DELAY6, 0, 121, "svc/src/delay.rs:6:1");
	mt_poll_end(t, PL_DELAY6 + 100000, 0);
	mt_park(t, 500 * PL_MS, 0, 60 * PL_MS, 11);
}
