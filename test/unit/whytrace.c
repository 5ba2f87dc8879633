/*
 * whytrace.c: see whytrace.h.
 */
#include "base/wire.h"
#include "whytrace.h"

static void
tasks(struct mt *t)
{
	const uint64_t s = WHY_TASKS;

	mt_spawn(t, s, 20, "svc/yield.rs:1:1");
	mt_spawn(t, s, 21, "svc/hog.rs:1:1");
	mt_spawn(t, s, 22, "svc/idle.rs:1:1");
	mt_poll_start(t, s + 10000, 0, 22, "svc/idle.rs:1:1");
	mt_poll_end(t, s + 20000, 0);
	for (uint64_t i = 0; i < 40; i++) {
		uint64_t at = s + WHY_MS + i * 100000;

		mt_wake(t, at, 20, 20, 0);
		mt_poll_start(t, at + 10000, 0, 20, "svc/yield.rs:1:1");
		mt_poll_end(t, at + 20000, 0);
	}
	mt_poll_start(t, s + 10 * WHY_MS, 0, 21, "svc/hog.rs:1:1");
	mt_poll_end(t, s + 25 * WHY_MS, 0);
	mt_term(t, s + 26 * WHY_MS, 21);
	mt_term(t, s + 26 * WHY_MS, 20);
}

static void
verdicts(struct mt *t)
{
	static const char *const exit_stack[] = { "__schedule", "schedule",
	    "exit_to_user_mode_loop", "do_syscall_64", "__lll_lock_wake",
	    "svc::notify" };
	const uint64_t s = WHY_VERDICT;
	static const char *const irq_stack[] = { "schedule",
	    "irqentry_exit_to_user_mode", "asm_sysvec_apic_timer_interrupt" };
	uint64_t f[6], leaf[2] = { 0x9000, 0x9100 }, rec[2] = { 0x9200,
	    0x9100 }, irq[4];

	for (size_t i = 0; i < 6; i++) {
		f[i] = (0x7000 + 0x10 * i) | (i < 4 ? 1ull << 63 : 0);
		mt_symbol(t, f[i], exit_stack[i], 0);
	}
	for (size_t i = 0; i < 3; i++) {
		irq[i] = (0x7100 + 0x10 * i) | 1ull << 63;
		mt_symbol(t, irq[i], irq_stack[i], 0);
	}
	irq[3] = 0x9100;
	mt_symbol(t, leaf[0], "$x", 0);
	mt_symbol(t, leaf[1], "svc::compute", 0);
	mt_symbol(t, rec[0], "d9rec_event", 0);
	mt_park(t, s - 3 * WHY_MS, 0, 0, 11);
	mt_unpark(t, s - 2 * WHY_MS, 0, 0, 11, 0);
	mt_cpu(t, s - WHY_MS, 11, D9_SOURCE_CPU, 2, leaf);	/* sampled */
	mt_poll_start(t, s, 0, 1, "svc/a.rs:1:1");		/* 10 ms */
	mt_poll_end(t, s + 10 * WHY_MS, 0);
	mt_poll_start(t, s + 20 * WHY_MS, 0, 2, "svc/b.rs:1:1");	/* 1.4 */
	mt_cpu(t, s + 20 * WHY_MS + WHY_MS, 11, D9_SOURCE_SCHED, 6, f);
	mt_poll_end(t, s + 20 * WHY_MS + 7 * WHY_MS / 5, 0);
	mt_poll_start(t, s + 30 * WHY_MS, 0, 3, "svc/c.rs:1:1");	/* 1.2 */
	mt_cpu(t, s + 30 * WHY_MS + WHY_MS, 11, D9_SOURCE_CPU, 2, leaf);
	mt_poll_end(t, s + 30 * WHY_MS + 6 * WHY_MS / 5, 0);
	/* 1.9 ms on CPU in the recorder's code, called from the service */
	mt_poll_start(t, s + 40 * WHY_MS, 0, 4, "svc/d.rs:1:1");
	for (uint64_t i = 0; i < 3; i++)
		mt_cpu(t, s + 40 * WHY_MS + 100000 + i * 500000, 11,
		    D9_SOURCE_CPU, 2, rec);
	mt_poll_end(t, s + 40 * WHY_MS + 19 * WHY_MS / 10, 0);
	/* 4 ms on CPU (2 of the 4 samples due) and preempted 3 times */
	mt_poll_start(t, s + 50 * WHY_MS, 0, 5, "svc/e.rs:1:1");
	for (uint64_t i = 0; i < 2; i++)
		mt_cpu(t, s + 50 * WHY_MS + 1000000 + i * 2000000, 11,
		    D9_SOURCE_CPU, 2, leaf);
	for (uint64_t i = 0; i < 3; i++)
		mt_cpu(t, s + 50 * WHY_MS + 500000 + i * 1000000, 11,
		    D9_SOURCE_SCHED, 4, irq);
	mt_poll_end(t, s + 54 * WHY_MS, 0);
	/* 1.6 ms with no sample: about 2 due (rounded), low confidence */
	mt_poll_start(t, s + 60 * WHY_MS, 0, 6, "svc/f.rs:1:1");
	mt_poll_end(t, s + 60 * WHY_MS + 8 * WHY_MS / 5, 0);
}

static void
blame(struct mt *t)
{
	const uint64_t s = WHY_BLAME;

	mt_spawn(t, s - 5 * WHY_MS, 10, "svc/holder.rs:1:1");
	mt_spawn(t, s - 5 * WHY_MS, 11, "svc/victim.rs:1:1");
	mt_spawn(t, s - 5 * WHY_MS, 12, "svc/late.rs:1:1");
	mt_park(t, s - 2 * WHY_MS, 0, 0, 11);
	mt_unpark(t, s - WHY_MS, 0, 0, 11, 0);
	mt_wake(t, s - WHY_MS / 2, 0, 10, 0);
	mt_poll_start(t, s, 0, 10, "svc/holder.rs:1:1");
	mt_wake(t, s + WHY_MS, 10, 11, 0);
	mt_poll_end(t, s + 20 * WHY_MS, 0);
	mt_poll_start(t, s + 20 * WHY_MS, 0, 11, "svc/victim.rs:1:1");
	mt_poll_end(t, s + 20 * WHY_MS + 100000, 0);
	mt_park(t, s + 25 * WHY_MS, 0, 0, 11);
	mt_wake(t, s + 30 * WHY_MS, 0, 12, 0);
	mt_unpark(t, s + 40 * WHY_MS, 0, 0, 11, 0);
	mt_poll_start(t, s + 41 * WHY_MS, 0, 12, "svc/late.rs:1:1");
	mt_poll_end(t, s + 41 * WHY_MS + 100000, 0);
}

void
mt_why(struct mt *t)
{
	mt_begin(t);
	mt_meta(t, "d9rec.cpu_frequency_hz", "1000");
	tasks(t);
	verdicts(t);
	blame(t);
}
