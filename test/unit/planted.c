/* planted.c: see planted.h. Events are written in time order. */
#include <stddef.h>
#include <stdio.h>

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

void
mt_deep(struct mt *t)
{
	uint64_t f[PL_DEEP];
	char name[32];

	mt_begin(t);
	for (int i = 0; i < PL_DEEP; i++) {
		f[i] = 0x400000 + 0x40 * (uint64_t)i;
		snprintf(name, sizeof name, i ? "deep::level_%d" : "deep::leaf",
		    i);
		mt_symbol(t, f[i], name, 0);
	}
	mt_symbol(t, 0x400008, "deep::leaf", 0);	/* its second address */
	mt_spawn(t, PL_MS, 7, "deep/src/main.rs:1:1");
	mt_unpark(t, 2 * PL_MS, 0, 0, 11, 0);
	mt_poll_start(t, 5 * PL_MS, 0, 7, "deep/src/main.rs:1:1");
	for (uint64_t i = 0; i < 20; i++) {
		f[0] = i % 2 ? 0x400008 : 0x400000;
		mt_cpu(t, 6 * PL_MS + i * 500000, 11, D9_SOURCE_CPU, PL_DEEP, f);
	}
	mt_poll_end(t, 25 * PL_MS, 0);
	mt_park(t, 30 * PL_MS, 0, 20 * PL_MS, 11);
}

enum { S_LOG = 40, S_HENTER, S_HEXIT };

static void
logline(struct mt *t, uint64_t ts, int worker, int tid, const char *req,
    const char *msg)
{
	mt_event(t, S_LOG, ts);
	tg_u8(&t->tg, worker >= 0);
	if (worker >= 0)
		tg_leb(&t->tg, (uint64_t)worker);
	tg_u8(&t->tg, tid >= 0);
	if (tid >= 0)
		tg_u32(&t->tg, (uint32_t)tid);
	tg_str32(&t->tg, req);
	tg_str32(&t->tg, msg);
}

static void
handle(struct mt *t, int kind, uint64_t ts, unsigned w, const char *req)
{
	mt_event(t, kind ? S_HEXIT : S_HENTER, ts);
	tg_leb(&t->tg, w);
	tg_leb(&t->tg, 77);
	if (!kind)
		tg_u8(&t->tg, 0);
	tg_str32(&t->tg, "handle");
	tg_str32(&t->tg, req);
}

void
mt_events(struct mt *t)
{
	static const struct tg_field log[] = { { "worker_id", 0x89 },
		{ "tid", 0x8d }, { "request_id", 4 }, { "msg", 4 } };
	static const struct tg_field enter[] = { { "worker_id", 9 },
		{ "span_id", 9 }, { "parent_span_id", 0x89 },
		{ "span_name", 4 }, { "request_id", 4 } };
	static const struct tg_field exitf[] = { { "worker_id", 9 },
		{ "span_id", 9 }, { "span_name", 4 }, { "request_id", 4 } };

	mt_begin(t);
	tg_schema(&t->tg, S_LOG, "LogLine", 1, 4, log);
	tg_schema(&t->tg, S_HENTER, "SpanEnter:app::handle:src/main.rs:5", 1,
	    5, enter);
	tg_schema(&t->tg, S_HEXIT, "SpanExit:app::handle:src/main.rs:5", 1,
	    4, exitf);
	mt_unpark(t, 10 * PL_MS, 0, 0, 100, 0);
	mt_unpark(t, 10 * PL_MS + 1, 1, 0, 101, 0);
	mt_poll_start(t, 20 * PL_MS, 0, 1, "app/src/main.rs:10:5");
	logline(t, PL_EV_A, 0, -1, "req-7", "start");
	mt_poll_end(t, 30 * PL_MS, 0);
	mt_poll_start(t, 40 * PL_MS, 1, 2, "app/src/db.rs:20:5");
	handle(t, 0, PL_EV_SPAN, 1, "req-7");
	logline(t, PL_EV_B, -1, 101, "req-7", "query");
	handle(t, 1, 49 * PL_MS, 1, "req-7");
	mt_poll_end(t, 50 * PL_MS, 1);
	mt_poll_start(t, 60 * PL_MS, 0, 3, "app/src/main.rs:10:5");
	logline(t, PL_EV_C, 0, -1, "req-9", "start");
	mt_poll_end(t, 70 * PL_MS, 0);
	mt_park(t, 80 * PL_MS, 0, 1000, 100);
	mt_park(t, 80 * PL_MS + 1, 1, 1000, 101);
}

void
mt_memory(struct mt *t)
{
	/* leaf first: app::buf called by app::cache or app::parse */
	static const uint64_t cache[] = { 0x8000, 0x5000 },
	    parse[] = { 0x8000, 0x6000 }, wait = 0x7000;

	mt_begin(t);
	mt_meta(t, "memory.sample_rate_bytes", "1");
	mt_symbol(t, 0x5000, "app::cache", 0);
	mt_symbol(t, 0x6000, "app::parse", 0);
	mt_symbol(t, 0x7000, "app::wait", 0);
	mt_symbol(t, 0x8000, "app::buf", 0);
	mt_poll_start(t, 10 * PL_MS, 0, 1, "app/src/main.rs:1:1");
	mt_alloc(t, 10 * PL_MS, 1000, 0xa000, 2, cache);
	mt_poll_end(t, 11 * PL_MS, 0);
	mt_dump(t, 10 * PL_MS + 1, 1, 1, &wait);
	mt_poll_start(t, 20 * PL_MS, 0, 1, "app/src/main.rs:1:1");
	mt_alloc(t, 20 * PL_MS, 2000, 0xb000, 2, parse);
	mt_poll_end(t, 21 * PL_MS, 0);
	mt_free(t, 30 * PL_MS, 0xa000, 1000, 10 * PL_MS);
	mt_alloc(t, 40 * PL_MS, 4000, 0xc000, 2, cache);
	mt_park(t, PL_MEM_END, 0, 1000, 7);
}

void
mt_process(struct mt *t, const char *host, const char *boot, uint64_t t0,
    uint64_t wall, int clock, unsigned nw, unsigned npolls)
{
	mt_begin(t);
	if (clock)
		mt_clock(t, t0, wall);
	mt_meta(t, "service", "api");
	mt_meta(t, "host", host);
	mt_meta(t, "boot_id", boot);
	for (unsigned k = 0; k < npolls; k++)
		for (unsigned w = 0; w < nw; w++) {
			uint64_t ts = t0 + k * 10 * PL_MS + w * 1000;

			mt_poll_start(t, ts, w, 1 + w, "src/main.rs:1:1");
			mt_poll_end(t, ts + (k == 3 ? 2 * PL_MS : PL_MS / 10),
			    w);
		}
}
