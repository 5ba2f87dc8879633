/*
 * samples.h: what one sample stands for, the rules every view shares.
 * A CPU sample is on-CPU (the profiler's clock), off-CPU (a context
 * switch) or neither; a sampled allocation stands for an estimated
 * number of bytes and allocations (Horvitz-Thompson, ANALYSIS 7) with
 * the sample rate of its own segment; an allocation of a window is live
 * when no free inside the window matches it; samples merge into groups
 * of one (stack, segment) with their weights added.
 */
#ifndef D9M_SAMPLES_H
#define D9M_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/model.h"

struct d9m_window;

enum d9m_cpu_class { D9M_ON_CPU, D9M_OFF_CPU, D9M_OTHER_CPU };

/* Class of CPU sample row i. */
enum d9m_cpu_class d9m_cpu_class(const struct d9m_model *m, size_t i);

#define D9M_SCHED_PERIOD_MAX	(1u << 20)	/* larger: not believed */

/*
 * What CPU sample row i counts for: an off-CPU sample stands for N
 * context switches when its segment was recorded sampling one switch in
 * N (metadata d9rec.sched_sample_period, libd9rec; 1 when absent or not
 * a number in 1 .. D9M_SCHED_PERIOD_MAX); an on-CPU sample counts 1.
 * Off-CPU figures (the analysis's counts, stack groups, flames) add
 * these weights, so they estimate switches (also the blocking-calls
 * flag); figures that say "samples" (cpuSamples, a poll's verdict,
 * points of interest) count rows.
 */
uint32_t d9m_cpu_weight(const struct d9m_model *m, size_t i);

#define D9M_SCHED_LATE	50000000u	/* ns a recorder may turn switch
					 * sampling off late */
#define D9M_SCHED_CYCLE_MAX	3600000u	/* ms; longer: not believed */

/*
 * 1 when context switches were surely not sampled in [t0, t1]: every
 * segment says it sampled them on the same duty cycle (libd9rec:
 * d9rec.sched_duty_pct below 100 of every d9rec.sched_duty_cycle_ms
 * of the trace's clock, the on part first; m->sched_cycle_ns), and
 * [t0, t1] lies in one cycle's off part, D9M_SCHED_LATE after the on
 * part ends; else 0.
 */
int d9m_sched_off(const struct d9m_model *m, uint64_t t0, uint64_t t1);

#define D9M_DEFAULT_RATE	524288	/* dial9's default, bytes */

/* Sample rate R (bytes) of every segment from its metadata
 * (memory.sample_rate_bytes), else the latest one given, else the
 * default, and the context-switch sample period of every segment
 * (d9m_cpu_weight); from d9m_model_finish. */
int	d9m_rates_derive(struct d9m_model *m);
/* Estimated bytes (*wb) and allocations (*wc) allocation row i stands
 * for. */
void	d9m_alloc_weight(const struct d9m_model *m, size_t i, double *wb,
	    double *wc);
/*
 * Allocation rows of the window, [*a0, *a1), and for each whether it is
 * still live at the window's end: no free inside the window names its
 * address and time. *live (malloc'd, *a1 - *a0 entries) is the caller's.
 */
int	d9m_alloc_live(const struct d9m_model *m, const struct d9m_window *w,
	    size_t *a0, size_t *a1, uint8_t **live);
/* The same rows, each with the time of the free inside the window that
 * names it (UINT64_MAX: none, live at the window's end); *freed
 * (malloc'd) is the caller's. */
int	d9m_alloc_freed(const struct d9m_model *m, const struct d9m_window *w,
	    size_t *a0, size_t *a1, uint64_t **freed);

/* The idle gap task dump row i describes (ANALYSIS 5.4, 15 #16): it is
 * stamped with the start of the poll after which its task went idle, so
 * from that poll's end to the task's next poll (or the trace's end);
 * UINT64_MAX when the task has no poll at or before the stamp. Derived
 * once per finished model (d9m_dumps_derive: m->dump_idle, 0 or -1 when
 * out of memory), so that a window reads only its own rows. */
int	 d9m_dumps_derive(struct d9m_model *m);
uint64_t d9m_dump_idle(const struct d9m_model *m, size_t i);
/* The stacks of CPU samples, then allocations, then task dumps, each
 * once, in the order they first appear, with the segment of that first
 * row: m->sym_stacks (stack << 32 | segment), m->nsym_stacks (the
 * analysis names their frames). 0, or -1 when out of memory. */
int	 d9m_sym_stacks_derive(struct d9m_model *m);

/* A weighted sample (or group of them) of one stack. */
struct d9m_wstack {
	uint32_t	stack, seg;
	double		w;
	size_t		n;		/* samples merged into it */
};
/*
 * Merge the entries of v of one (stack, segment), weights and counts
 * added in order (a stable radix sort): the groups, by (stack, segment),
 * into *out (malloc'd, the caller's). v is left as it was.
 */
int	d9m_wstack_merge(const struct d9m_wstack *v, size_t n,
	    struct d9m_wstack **out, size_t *nout);

/* CPU sample rows taken inside poll p, of class c (D9M_OTHER_CPU: on
 * and off CPU both), in time order into *rows (malloc'd, the caller's);
 * the count in *n. -1 when out of memory. */
int	d9m_poll_samples(const struct d9m_model *m, uint32_t p,
	    enum d9m_cpu_class c, uint32_t **rows, size_t *n);

/* Poll running on the worker of thread tid at ts, D9_NONE. */
uint32_t d9m_poll_of_tid(const struct d9m_model *m, uint32_t tid,
	    uint64_t ts);

#endif
