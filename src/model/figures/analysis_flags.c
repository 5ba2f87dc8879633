/*
 * analysis_flags.c: the red-flag checks of ANALYSIS 14, run on the other
 * sections' figures. Where the reference's rule is noise (blocking calls
 * counted over idle parking, the "ends at peak" leak rule) the better
 * figure is used and the text says what was checked. A trace that lost
 * data (ANALYSIS 19) raises events-lost. Findings are sorted critical
 * first.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/figures/analysis.h"
#include "model/core/ids.h"
#include "model/core/loss.h"

#define MAX_FLAGS 64

/* Where each check's evidence is, unless the flag names a poll. */
static const struct {
	const char		*check;
	enum d9m_evidence	 ev;
	uint32_t		 arg;
	const char		*section;
} evidence[] = {
	{ "long-poll", D9M_EV_POI, D9M_POI_LONG_POLL, NULL },
	{ "sched-delay", D9M_EV_POI, D9M_POI_SCHED_DELAY, NULL },
	{ "kernel-sched-wait", D9M_EV_POI, D9M_POI_KERNEL_WAIT, NULL },
	{ "blocking-calls", D9M_EV_POI, D9M_POI_OFF_CPU, NULL },
	{ "events-lost", D9M_EV_SECTION, 0, "TRACE SUMMARY" },
	{ "worker-imbalance", D9M_EV_SECTION, 0, "WORKER UTILIZATION" },
	{ "cpu-contention", D9M_EV_TIME, D9_NONE, NULL },
	{ "queue-depth", D9M_EV_TIME, D9_NONE, NULL },
	{ "task-leak", D9M_EV_LOC, D9_NONE, NULL },
	{ "many-spans-per-poll", D9M_EV_SPANS, 0, NULL },
	{ "span-duration-outlier", D9M_EV_SPAN, D9_NONE, NULL },
	{ "unmatched-spans", D9M_EV_SPANS, 0, NULL },
	{ "missing-frame-pointers", D9M_EV_CPU_STACKS, 0, NULL },
	{ "missing-debug-symbols", D9M_EV_CPU_STACKS, 0, NULL },
	{ "missing-wake-events", D9M_EV_SECTION, 0, "SCHEDULING DELAYS" },
	{ "no-scheduling-events", D9M_EV_OFF_STACKS, 0, NULL },
	{ "recorder-overhead", D9M_EV_SECTION, 0, "TRACE SUMMARY" },
};

/* The evidence of the flag just added (its check's, or its poll). */
static void
locate(struct d9m_flag *f)
{
	for (size_t i = 0; i < sizeof evidence / sizeof evidence[0]; i++)
		if (strcmp(evidence[i].check, f->check) == 0) {
			f->ev = evidence[i].ev;
			f->ev_arg = evidence[i].arg;
			f->ev_section = evidence[i].section;
		}
	if (f->poll != D9_NONE)
		f->ev = D9M_EV_POLL;
}

const char *
d9m_severity_name(enum d9m_severity sev, int shout)
{
#define NAME_(id, name, loud)	[id] = { name, loud },
	static const char *const names[][2] = { D9M_SEVERITIES(NAME_) };
#undef NAME_

	if ((unsigned)sev >= sizeof names / sizeof names[0])
		return "?";
	return names[sev][shout != 0];
}

static void
flag(struct d9m_analysis *a, enum d9m_severity sev, const char *check,
    uint64_t ts, uint32_t poll, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void
flag(struct d9m_analysis *a, enum d9m_severity sev, const char *check,
    uint64_t ts, uint32_t poll, const char *fmt, ...)
{
	struct d9m_flag *f;
	va_list ap;

	if (a->nflags >= MAX_FLAGS)
		return;
	f = &a->flags[a->nflags++];
	f->sev = sev;
	f->check = check;
	f->ts = ts;
	f->poll = poll;
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof f->text, fmt, ap);
	va_end(ap);
	locate(f);
}

/* Give the flag just added (if any was) its evidence argument and time. */
static void
flag_at(struct d9m_analysis *a, size_t before, uint32_t arg, uint64_t ts)
{
	if (a->nflags == before)
		return;
	a->flags[a->nflags - 1].ev_arg = arg;
	if (ts)
		a->flags[a->nflags - 1].ts = ts;
}

static int
cmp_flag(const void *x, const void *y)
{
	const struct d9m_flag *a = x, *b = y;

	if (a->sev != b->sev)
		return a->sev > b->sev ? -1 : 1;
	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static void
long_polls(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    const struct d9m_analysis *ac, struct d9m_analysis *a)
{
	size_t over = 0, listed = 0;
	uint64_t worst = 0;
	char wid[D9M_WORKER_LABEL];

	/* the worst list is longest first: flag its members over 10 ms */
	for (size_t i = 0; i < ac->nworst; i++) {
		uint32_t p = ac->worst[i].poll, t = m->polls.task[p];
		uint64_t d = m->polls.end[p] - m->polls.start[p];

		if (d <= 10000000 || listed == 5)
			break;
		listed++;
		d9m_worker_label(m, d9m_poll_worker_id(m, p), wid, sizeof wid);
		flag(a, d > 50000000 ? D9M_CRITICAL : D9M_WARNING, "long-poll",
		    m->polls.start[p], p, "%.2f ms poll of task %" PRIu64
		    " on worker %s (%s)%s", (double)d / 1e6,
		    t != D9_NONE ? m->tasks.id[t] : 0, wid,
		    m->polls.loc[p] != D9_NONE ? d9m_str(m, m->polls.loc[p]) :
		    "(unknown)", m->polls.flags[p] & D9M_POLL_OPEN_ENDED ?
		    ", open-ended" : "");
	}
	for (size_t s = 0; s < m->nworkers; s++) {
		size_t i0, i1;

		d9m_window_polls(m, s, &o->win, &i0, &i1);
		for (size_t i = i0; i < i1; i++) {
			uint64_t d = m->polls.end[i] - m->polls.start[i];

			if (d > 10000000) {
				over++;
				worst = d > worst ? d : worst;
			}
		}
	}
	if (over > listed)
		flag(a, worst > 50000000 ? D9M_CRITICAL : D9M_WARNING,
		    "long-poll", 0, D9_NONE, "%zu polls over 10 ms in all (the %zu "
		    "longest are flagged one by one)", over, listed);
}

static void
workers(const struct d9m_model *m, struct d9m_analysis *a)
{
	size_t lo = SIZE_MAX, hi = 0;
	char wid[D9M_WORKER_LABEL];

	for (size_t i = 0; i < a->nworkers; i++) {
		const struct d9m_worker_fig *w = &a->workers[i];

		lo = w->polls < lo ? w->polls : lo;
		hi = w->polls > hi ? w->polls : hi;
		d9m_worker_label(m, w->id, wid, sizeof wid);
		if (w->sched_wait_over1ms > 0)
			flag(a, w->sched_wait_max > 10000000 ? D9M_WARNING :
			    D9M_INFO, "kernel-sched-wait", 0, D9_NONE,
			    "worker %s waited for a CPU over 1 ms after %zu "
			    "unpark%s (worst %.2f ms)", wid,
			    w->sched_wait_over1ms,
			    w->sched_wait_over1ms == 1 ? "" : "s",
			    (double)w->sched_wait_max / 1e6);
	}
	if (a->nworkers > 1 && lo > 0 && hi > 3 * lo)
		flag(a, D9M_INFO, "worker-imbalance", 0, D9_NONE,
		    "busiest worker ran %zu polls, the idlest %zu", hi, lo);
}

static void
contention(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	for (size_t s = 0; s < m->nworkers; s++) {
		const struct d9m_worker *wk = &m->workers[s];
		size_t n, low = 0, i0, i1, nf = a->nflags;
		double sum = 0, worst = 2;
		uint64_t at = 0;
		char wid[D9M_WORKER_LABEL];

		d9m_window_rows(d9m_row(m->actives.start, wk->act0), wk->nacts,
		    &o->win, &i0, &i1);
		n = i1 - i0;
		for (size_t i = wk->act0 + i0; i < wk->act0 + i1; i++) {
			if (m->actives.ratio[i] < 0.5 &&
			    m->actives.end[i] - m->actives.start[i] > 1000000) {
				low++;
				sum += m->actives.ratio[i];
				if (m->actives.ratio[i] < worst) {
					worst = m->actives.ratio[i];
					at = m->actives.start[i];
				}
			}
		}
		d9m_worker_label(m, wk->id, wid, sizeof wid);
		if (n > 10 && low * 10 > n)
			flag(a, D9M_WARNING, "cpu-contention", 0, D9_NONE,
			    "worker %s: %zu of %zu active periods over 1 ms got "
			    "under half a CPU (mean %.2f)", wid, low, n,
			    sum / (double)low);
		flag_at(a, nf, (uint32_t)s, at);
	}
}


/* How the trace was recorded (ANALYSIS 13): a flag per setup finding. */
static const struct {
	size_t		off;		/* int field of struct d9m_analysis */
	enum d9m_severity sev;
	const char	*check, *text;
} setup[] = {
	{ offsetof(struct d9m_analysis, setup_short_stacks), D9M_CRITICAL,
	    "missing-frame-pointers", "on-CPU stacks average under 3 frames: "
	    "build with frame pointers (-C force-frame-pointers=yes)" },
	{ offsetof(struct d9m_analysis, setup_no_wakes), D9M_WARNING,
	    "missing-wake-events", "tasks were spawned but no wake was "
	    "recorded: spawn through dial9's instrumented spawn to see "
	    "scheduling delays" },
	{ offsetof(struct d9m_analysis, setup_no_symbols), D9M_WARNING,
	    "missing-debug-symbols", "under a tenth of the sampled addresses "
	    "have names: give the binary with --binary, or keep its symbols" },
	{ offsetof(struct d9m_analysis, setup_no_sched), D9M_INFO,
	    "no-scheduling-events", "no context-switch samples: off-CPU time "
	    "(blocking) is not visible in this trace" },
	{ offsetof(struct d9m_analysis, setup_spawns_only), D9M_INFO,
	    "partial-poll-coverage", "polls are recorded only for tasks "
	    "spawned through dial9 (tokio.poll_coverage=dial9-spawns-only, "
	    "built without --cfg tokio_unstable): other tasks' polls, task "
	    "spawns and local queue depths are missing" },
};

/*
 * Context switches inside polls that block the worker (ANALYSIS 17:
 * lock, sleep, io, fault, blocked; a preempted worker is CPU contention,
 * not blocking): raised when one stack holds more than five of them.
 */
static void
blocking(struct d9m_analysis *a)
{
	if (a->off_blocking_top > 5)
		flag(a, D9M_WARNING, "blocking-calls", 0, D9_NONE,
		    "%zu context switches inside polls block their worker "
		    "(lock, sleep, I/O, page faults), %zu with the same stack",
		    a->off_blocking, a->off_blocking_top);
}

/* When the global queue first reached max in the window. */
static uint64_t
queue_peak(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    uint32_t max)
{
	size_t i0, i1;

	d9m_window_rows(m->queue.ts, m->queue.n, &o->win, &i0, &i1);
	for (size_t i = i0; i < i1; i++)
		if (m->queue.global[i] >= max)
			return m->queue.ts[i];
	return 0;
}

int
d9m_an_flags(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	a->flags = calloc(MAX_FLAGS, sizeof *a->flags);
	if (a->flags == NULL)
		return -1;
	long_polls(m, o, a, a);
	if (a->leak_suspected) {
		size_t n = a->nflags;

		flag(a, D9M_WARNING, "task-leak", 0, D9_NONE,
		    "%zu tasks from %s are alive at the end and their number "
		    "kept growing", a->leak_loc_alive,
		    d9m_str(m, a->leak_loc));
		flag_at(a, n, a->leak_loc, 0);
	}
	if (a->sched_over5ms > 0)
		flag(a, a->sched.max > 50000000 ? D9M_CRITICAL : D9M_WARNING,
		    "sched-delay", a->sched_worst_poll != D9_NONE ?
		    m->polls.start[a->sched_worst_poll] : 0, a->sched_worst_poll,
		    "%zu wake%s waited over 5 ms for a worker (worst %.2f ms)",
		    a->sched_over5ms, a->sched_over5ms == 1 ? "" : "s",
		    (double)a->sched.max / 1e6);
	blocking(a);
	if (a->queue_max > 100) {
		size_t n = a->nflags;

		flag(a, a->queue_max > 1000 ? D9M_CRITICAL : D9M_WARNING,
		    "queue-depth", 0, D9_NONE, "global queue reached %u tasks",
		    a->queue_max);
		flag_at(a, n, D9_NONE, queue_peak(m, o, a->queue_max));
	}
	workers(m, a);
	contention(m, o, a);
	if (a->spans_polls_over20 > 0)
		flag(a, D9M_WARNING, "many-spans-per-poll",
		    m->polls.start[a->spans_poll_row], a->spans_poll_row,
		    "%zu poll%s over 20 spans (most: %zu)",
		    a->spans_polls_over20, a->spans_polls_over20 == 1 ?
		    " contains" : "s contain", a->spans_poll_max);
	for (size_t i = 0; i < a->nspans; i++)
		if (a->spans[i].outliers > 0) {
			size_t n = a->nflags;

			flag(a, D9M_INFO, "span-duration-outlier", 0, D9_NONE,
			    "%zu %s span%s took over 10x the median (%.3f ms)",
			    a->spans[i].outliers, d9m_str(m, a->spans[i].name),
			    a->spans[i].outliers == 1 ? "" : "s",
			    (double)a->spans[i].dur.p50 / 1e6);
			flag_at(a, n, a->spans[i].name, 0);
		}
	if (a->unmatched_spans > 0)
		flag(a, D9M_INFO, "unmatched-spans", 0, D9_NONE,
		    "%zu span%s entered and never exited", a->unmatched_spans,
		    a->unmatched_spans == 1 ? "" : "s");
	if (a->observer.cpu_share > 0.05 || a->observer.off_cpu_share > 0.05)
		flag(a, D9M_WARNING, "recorder-overhead", 0, D9_NONE,
		    "the recorder's own code is in %.1f %% of on-CPU and %.1f %% "
		    "of off-CPU samples (most in %.80s): figures include what "
		    "recording cost", 100 * a->observer.cpu_share,
		    100 * a->observer.off_cpu_share, a->observer.top_frame);
	if (d9m_loss_any(&m->loss)) {
		char t[160];

		d9m_loss_text(&m->loss, t, sizeof t);
		flag(a, D9M_WARNING, "events-lost", 0, D9_NONE, "%s: figures "
		    "count only what was recorded", t);
	}
	for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++)
		if (*(const int *)((const char *)a + setup[i].off))
			flag(a, setup[i].sev, setup[i].check, 0, D9_NONE, "%s",
			    setup[i].text);
	qsort(a->flags, a->nflags, sizeof *a->flags, cmp_flag);
	return 0;
}
