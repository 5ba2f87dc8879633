/*
 * report.c: --report, the text diagnosis: the sections of ANALYSIS 12
 * plus red flags, laid out for 80 columns. Trace strings go through
 * d9_text_safe and are shortened from the left when too long, so no
 * line wraps and no control character reaches the terminal.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/stackcap.h"
#include "output/output.h"
#include "output/stackinfo.h"
#include "output/textfmt.h"
#include "base/text.h"
#include "model/core/groups.h"
#include "model/core/ids.h"
#include "model/core/loss.h"


/* When the trace started, by the wall clock ("" when unknown). */
static const char *
started_at(const struct d9m_analysis *a, char *buf, size_t cap)
{
	time_t t = (time_t)(a->wall_start_ns / 1000000000);
	struct tm tm;
	char when[64];

	buf[0] = '\0';
	if (a->wall_start_ns == 0)
		return buf;
	gmtime_r(&t, &tm);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(buf, cap, "%s.%03u UTC", when,
	    (unsigned)(a->wall_start_ns / 1000000 % 1000));
	return buf;
}

/* Always a line (or more, wrapped under the value): what the recording
 * lost (ANALYSIS 19). Segments the size cap deleted are told last
 * (d9m_loss_text), with where what is left begins. */
static void
lost(const struct d9o_out *o)
{
	const struct d9m_loss *l = &o->m->loss;
	char t[480], when[96];
	size_t n = d9m_loss_text(l, t, 320), len;
	char *lines = NULL;
	FILE *mf;

	if (n == 0)
		n = (size_t)snprintf(t, sizeof t, "nothing");
	if (l->deleted && *started_at(o->a, when, sizeof when))
		n += (size_t)snprintf(t + n, sizeof t - n, ": the trace starts "
		    "at %s", when);
	else if (l->deleted)
		n += (size_t)snprintf(t + n, sizeof t - n, ": the trace starts "
		    "after them");
	if (l->copies)
		snprintf(t + n, sizeof t - n, " (%" PRIu64 " duplicate segment "
		    "file%s read once)", l->copies, l->copies == 1 ? "" : "s");
	if ((mf = open_memstream(&lines, &len)) == NULL)
		return;
	d9o_wrap(mf, t, 14, 80);
	fclose(mf);
	if (lines != NULL && len >= 14)
		memcpy(lines, "Lost:", 5);	/* over the first indent */
	fputs(lines != NULL ? lines : "", o->f);
	free(lines);
}

/* Before any figure: they count only what was recorded. */
static void
loss_warning(const struct d9o_out *o)
{
	char t[256], w[400];

	if (!d9m_loss_any(&o->m->loss))
		return;
	d9m_loss_text(&o->m->loss, t, sizeof t);
	snprintf(w, sizeof w, "WARNING: this recording lost data (%s). Every "
	    "figure below counts only what was recorded.", t);
	putc('\n', o->f);
	d9o_wrap(o->f, w, 0, 80);
}

/* The machine of a source (dial9 0.5.1's system metadata), as one
 * line after lead: "gpu-1: x86_64, Linux 6.8.0, AMD EPYC 7R32, 64.4 GB
 * memory"; nothing when none was said. */
static void
system_line(const struct d9o_out *o, const char *lead,
    const struct d9m_system *y)
{
	const struct d9m_model *m = o->m;
	char line[600], b[32];
	size_t n = 0;
	const uint32_t part[] = { y->arch, y->kernel, y->cpu_model };
	const char *const pre[] = { "", "Linux ", "" };

	if (y->hostname == D9_NONE && y->arch == D9_NONE &&
	    y->kernel == D9_NONE && y->cpu_model == D9_NONE &&
	    y->memory_bytes == 0)
		return;
	n += (size_t)snprintf(line, sizeof line, "%s%s", y->hostname !=
	    D9_NONE ? d9m_str(m, y->hostname) : "(no hostname)", ":");
	for (size_t i = 0; i < 3 && n < sizeof line; i++)
		if (part[i] != D9_NONE)
			n += (size_t)snprintf(line + n, sizeof line - n,
			    "%s%s%s", line[n - 1] != ':' ? ", " : " ", pre[i],
			    d9m_str(m, part[i]));
	if (y->memory_bytes && n < sizeof line)
		snprintf(line + n, sizeof line - n, "%s%s memory",
		    line[n - 1] != ':' ? ", " : " ", d9_fmt_bytes(b, sizeof b,
		    (double)y->memory_bytes));
	fprintf(o->f, "%s", lead);
	d9o_wrap_at(o->f, line, (int)strlen(lead), 80);
}

/* Sources, when the trace holds more than one process (model/core/groups.h):
 * worker g:w is worker w of source g. */
static void
sources(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	char name[200], safe[200], fit[64], b1[32], b2[32];
	uint64_t min = o->m->min_ts;

	if (a->nsources == 1)
		system_line(o, "Host:         ", &a->sources[0].sys);
	if (a->nsources < 2)
		return;
	fprintf(o->f, "Sources:      %zu processes (worker g:w is worker w of "
	    "source g)\n", a->nsources);
	for (size_t i = 0; i < a->nsources; i++) {
		const struct d9m_source *s = &a->sources[i];

		d9m_group_name(o->m, s->group, name, sizeof name);
		d9_text_safe(safe, sizeof safe, name, strlen(name));
		fprintf(o->f, "  %zu ", i);
		d9o_para(o->f, 4, "%s: %zu segment%s, %zu worker%s, %zu polls, "
		    "%s..%s%s", d9o_fit(fit, sizeof fit, safe, 40),
		    s->segments, s->segments == 1 ? "" : "s", s->nworkers,
		    s->nworkers == 1 ? "" : "s", s->polls, d9_fmt_dur(b1,
		    sizeof b1, s->start > min ? s->start - min : 0, 0),
		    d9_fmt_dur(b2, sizeof b2, s->end > min ? s->end - min : 0,
		    0), s->aligned ? "" : " (no common clock: aligned at the "
		    "start)");
		system_line(o, "      host ", &s->sys);
	}
}

/* Whether worker row q follows row p: the next id of one process. */
static int
next_worker(const struct d9m_model *m, uint32_t p, uint32_t q)
{
	return p < m->wids.n && q < m->wids.n &&
	    m->wids.group[p] == m->wids.group[q] &&
	    m->wids.own[p] != UINT64_MAX && m->wids.own[q] == m->wids.own[p] + 1;
}

/* The workers' ids, a run of three or more that follow one another as
 * FIRST-LAST (64 workers: 0-63, not a line of 64 numbers). */
static void
worker_ids(const struct d9o_out *o)
{
	const struct d9m_model *m = o->m;
	const struct d9m_analysis *a = o->a;
	char b[64];

	for (size_t i = 0, j; i < a->nworkers; i = j) {
		for (j = i + 1; j < a->nworkers && next_worker(m,
		    a->workers[j - 1].id, a->workers[j].id); j++)
			;
		if (j - i < 3)
			j = i + 1;
		d9m_worker_label(m, a->workers[i].id, b, sizeof b);
		fprintf(o->f, "%s%s", i ? ", " : "", b);
		if (j - i >= 3)
			fprintf(o->f, "-%" PRIu64,
			    m->wids.own[a->workers[j - 1].id]);
	}
}

static void
summary(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	const struct d9m_model *m = o->m;
	char b[64], s[256];
	double pct;

	d9o_section(o->f, "TRACE SUMMARY");
	for (size_t i = 0; i < o->ninputs; i++)
		fprintf(o->f, "Input:        %s\n", d9o_fit(s, sizeof s,
		    o->inputs[i], 64));
	fprintf(o->f, "Duration:     %s",
	    d9_fmt_dur(b, sizeof b, a->duration_ns, 0));
	if (!d9m_window_whole(&a->win))
		fprintf(o->f, " (window %.3f..%.3f ms)",
		    (double)(a->win.lo > m->min_ts ? a->win.lo - m->min_ts : 0) /
		    1e6, a->win.hi == UINT64_MAX ? (double)(m->max_ts -
		    m->min_ts) / 1e6 : (double)(a->win.hi - m->min_ts) / 1e6);
	if (a->win.lo > m->max_ts || a->win.hi < m->min_ts)
		fprintf(o->f, ": the window is outside the trace (0..%.3f "
		    "ms), nothing is in it", (double)(m->max_ts - m->min_ts) /
		    1e6);
	if (a->wall_start_ns)
		fprintf(o->f, "\nStarted:      %s", started_at(a, s, sizeof s));
	fprintf(o->f, "\nWorkers:      %zu (", a->nworkers);
	worker_ids(o);
	fprintf(o->f, ")\n");
	sources(o);
	fprintf(o->f, "Events:       %zu runtime events, %zu polls\n",
	    a->event_count, a->npolls);
	lost(o);
	if ((pct = d9m_cost_pct(&m->cost)) >= 0) {
		fprintf(o->f, "Recorder:     ");
		d9o_para(o->f, 14, "%.1f%% of the process's CPU in "
		    "libd9rec's threads (%s of %s)", pct, d9_fmt_dur(b, sizeof b,
		    m->cost.recorder_cpu_ns, 0), d9_fmt_dur(s, sizeof s,
		    m->cost.process_cpu_ns, 0));
	}
	if (a->observer.top_n > 0) {
		char top[96];

		fprintf(o->f, "Observer:     ");
		d9o_para(o->f, 14, "the recorder's own code is in %zu on-CPU "
		    "(%.1f%%) and %zu off-CPU (%.1f%%) samples, most in %s",
		    a->observer.cpu_samples, 100 * a->observer.cpu_share,
		    a->observer.off_cpu_samples, 100 *
		    a->observer.off_cpu_share, d9o_fit(top, sizeof top,
		    a->observer.top_frame, 40));
	}
	if (a->off_samples == a->off_cpu)
		fprintf(o->f, "CPU samples:  %zu (%zu on-CPU, %zu off-CPU)\n",
		    a->cpu_samples, a->on_cpu, a->off_cpu);
	else	/* off-CPU samples taken 1 in N stand for N switches */
		fprintf(o->f, "CPU samples:  %zu (%zu on-CPU, %zu off-CPU, for "
		    "about %zu context switches)\n", a->cpu_samples,
		    a->on_cpu, a->off_samples, a->off_cpu);
	fprintf(o->f, "Tasks:        %zu spawned, %zu terminated, %zu seen",
	    a->tasks_spawned, a->tasks_terminated, a->tasks_seen);
	if (a->tasks_seen > a->tasks_spawned)
		fprintf(o->f, " (%zu alive before %s)", a->tasks_seen -
		    a->tasks_spawned, d9m_window_whole(&a->win) ? "the trace" :
		    "the window");
	fputc('\n', o->f);
	fprintf(o->f, "Symbols:      %zu address%s named, %zu unnamed\n",
	    a->frames_named, a->frames_named == 1 ? "" : "es",
	    a->frames_unnamed);
	if (a->proc_avg_cores >= 0)
		fprintf(o->f, "Process:      %.2f cores used on average (of %lu), "
		    "max RSS %.1f MB\n", a->proc_avg_cores,
		    a->proc_parallelism, (double)a->proc_max_rss / 1e6);
}

static void
workers(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	char b1[32], b2[32], id[D9M_WORKER_LABEL];
	int unknown = 0;

	d9o_section(o->f, "WORKER UTILIZATION");
	fprintf(o->f, "%-7s %8s %8s %7s %10s %10s %8s\n", "worker", "polls",
	    "parks", "util", "active", "parked", "cpu");
	for (size_t i = 0; i < a->nworkers; i++) {
		const struct d9m_worker_fig *w = &a->workers[i];

		d9m_worker_label(o->m, w->id, id, sizeof id);
		if (w->active_ns + w->parked_ns == 0) {	/* dial9 says 0 */
			fprintf(o->f, "%-7s %8zu %8zu %7s %10s %10s ", id,
			    w->polls, w->parks, "n/a", "-", "-");
			unknown++;
		} else
			fprintf(o->f, "%-7s %8zu %8zu %6.1f%% %10s %10s ", id,
			    w->polls, w->parks, w->util * 100,
			    d9_fmt_dur(b1, sizeof b1, w->active_ns, 0),
			    d9_fmt_dur(b2, sizeof b2, w->parked_ns, 0));
		if (w->actives)
			fprintf(o->f, "%7.3f\n", w->cpu_ratio_weighted);
		else
			fprintf(o->f, "%7s\n", "N/A");
	}
	fprintf(o->f, "cpu = thread CPU time / wall time while unparked, "
	    "weighted by time.\n");
	if (unknown)
		d9o_para(o->f, 0, "n/a: no park or unpark in the window, so no "
		    "active time is known (the JSON's utilization says 0, as "
		    "dial9's does).");
}

static void
long_polls(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	const struct d9m_model *m = o->m;
	char b[32], s[256], id[D9M_WORKER_LABEL];

	d9o_section(o->f, "LONG POLLS (>1ms)");
	fprintf(o->f, "%zu poll%s over 1 ms", a->long_polls,
	    a->long_polls == 1 ? "" : "s");
	if (a->long_polls != a->long_polls_closed)
		fprintf(o->f, " (%zu open-ended: cut by the next start or a "
		    "park, e.g. block_in_place)", a->long_polls -
		    a->long_polls_closed);
	fprintf(o->f, "\n");
	for (size_t i = 0; i < a->nworst; i++) {
		const struct d9m_worst *w = &a->worst[i];
		uint32_t p = w->poll, t = m->polls.task[p];

		d9m_worker_label(m, d9m_poll_worker_id(m, p), id, sizeof id);
		fprintf(o->f, "%2zu. %9s  worker %s  at +%.3f ms  task %" PRIu64
		    "%s\n    %s\n", i + 1, d9_fmt_dur(b, sizeof b, m->polls.end[p] -
		    m->polls.start[p], 0), id,
		    (double)(m->polls.start[p] - m->min_ts) / 1e6,
		    t != D9_NONE ? m->tasks.id[t] : 0,
		    m->polls.flags[p] & D9M_POLL_OPEN_ENDED ? "  (open-ended)" :
		    "", d9o_fit(s, sizeof s, d9o_loc(m, m->polls.loc[p]), 74));
		d9m_verdict_text(&w->verdict, s, sizeof s);
		d9o_wrap(o->f, s, 4, 80);
		if (w->delayed.tasks > 0)
			fprintf(o->f, "    held %zu task%s back for %s in all\n",
			    w->delayed.tasks, w->delayed.tasks == 1 ? "" : "s",
			    d9_fmt_dur(b, sizeof b, w->delayed.total, 0));
		for (size_t k = 0; k < w->noff && k < 3; k++)
			d9o_stack_line(o, "off-CPU", &w->off[k], 4);
		for (size_t k = 0; k < w->ncpu && k < 3; k++)
			d9o_stack_line(o, "on-CPU", &w->cpu[k], 4);
	}
}

static void
sched(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	char b1[32], b2[32], b3[32];

	d9o_section(o->f, "SCHEDULING DELAYS");
	if (a->sched.count == 0) {
		fprintf(o->f, "No wake-to-poll delays: no task was instrumented\n"
		    "(wake events need dial9's instrumented spawn).\n");
		return;
	}
	fprintf(o->f, "%zu delays, %zu over 1 ms; p50 %s, p99 %s, max %s\n",
	    a->sched.count, a->sched_over1ms,
	    d9_fmt_dur(b1, sizeof b1, a->sched.p50, 0),
	    d9_fmt_dur(b2, sizeof b2, a->sched.p99, 0),
	    d9_fmt_dur(b3, sizeof b3, a->sched.max, 0));
	fprintf(o->f, "Counted from the last wake after the task's previous "
	    "poll; %zu poll%s had\nno fresh wake (dial9's report reuses the old "
	    "wake and counts them).\n", a->sched_no_wake,
	    a->sched_no_wake == 1 ? "" : "s");
}

static void
locations(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	char b1[32], b2[32], b3[32], s[256];

	d9o_section(o->f, "POLL DURATION BY SPAWN LOCATION");
	for (size_t i = 0; i < a->nlocs; i++) {
		const struct d9m_loc_fig *l = &a->locs[i];

		if (l->poll.count == 0)
			continue;
		fprintf(o->f, "%s %s\n", l->poll.max > 10000000 ? "!!" :
		    l->poll.max > 1000000 ? " !" : "  ",
		    d9o_fit(s, sizeof s, d9o_loc(o->m, l->loc), 76));
		fprintf(o->f, "     %8zu %-5s  p50 %9s  p99 %9s  max %9s\n",
		    l->poll.count, l->poll.count == 1 ? "poll" : "polls",
		    d9_fmt_dur(b1, sizeof b1, l->poll.p50, 0),
		    d9_fmt_dur(b2, sizeof b2, l->poll.p99, 0),
		    d9_fmt_dur(b3, sizeof b3, l->poll.max, 0));
	}
}

static void
lifecycle(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	char s[256];

	d9o_section(o->f, "TASK LIFECYCLE");
	for (size_t i = 0; i < a->nlocs; i++) {
		const struct d9m_loc_fig *l = &a->locs[i];

		if (l->tasks == 0 || l->loc == D9_NONE)
			continue;
		fprintf(o->f, "%6zu %-5s  %5zu alive  %s\n", l->tasks,
		    l->tasks == 1 ? "task" : "tasks", l->alive,
		    d9o_fit(s, sizeof s, d9m_str(o->m, l->loc), 53));
	}
	fprintf(o->f, "Peak %zu active tasks (%zu existed before the trace), "
	    "%zu at the end.\n", a->leak_peak, a->leak_pre_existing,
	    a->leak_alive);
	if (a->leak_suspected) {
		fprintf(o->f, "Possible leak: ");
		d9o_para(o->f, 15, "%zu tasks from %s are still alive and "
		    "their number kept growing.", a->leak_loc_alive,
		    d9o_fit(s, sizeof s, d9m_str(o->m, a->leak_loc), 40));
	} else
		fprintf(o->f, "No location keeps accumulating live tasks.\n");
	if (a->leak_ref != a->leak_suspected)
		fprintf(o->f, "(dial9's \"ends at its peak\" rule says %s.)\n",
		    a->leak_ref ? "leak" : "no leak");
}

static void
blocking(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;

	d9o_section(o->f, "BLOCKING CALLS");
	if (a->off_cpu == 0) {
		fprintf(o->f, "No off-CPU (context switch) samples in the "
		    "trace.\n");
		return;
	}
	d9o_para(o->f, 0, "%zu context switches: %zu inside polls, %zu outside "
	    "polls (%zu of them on threads that are not workers). Inside "
	    "polls, %zu blocked the worker (lock, sleep, I/O, page faults or "
	    "other) and %zu were preemptions (CPU contention).",
	    a->off_cpu, a->off_in_poll, a->off_idle, a->off_no_worker,
	    a->off_blocking, a->off_preempted);
	for (size_t i = 0; i < a->noff_groups && i < 5; i++)
		d9o_stack_line(o, "in poll", &a->off_groups[i], 1);
	d9o_para(o->f, 0, "Counts are context switches, not time; an .await on "
	    "an async lock ends the poll, so such waits are not blocking.");
	if (o->m->sched_duty < 100)
		d9o_para(o->f, 0, "Switches were sampled %u%% of each second: a "
		    "poll in the rest of it has no off-CPU stack.",
		    o->m->sched_duty);
}

static void
hotspots(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;

	d9o_section(o->f, "CPU HOTSPOTS");
	fprintf(o->f, "%zu on-CPU samples.\n", a->on_cpu);
	for (size_t i = 0; i < a->ncpu_groups && i < 5; i++)
		d9o_stack_line(o, "on-CPU", &a->cpu_groups[i], 1);
}

/* Per runtime group: its workers, global queue and alive tasks. */
static void
runtimes(const struct d9o_out *o)
{
	const struct d9m_model *m = o->m;
	const struct d9m_analysis *a = o->a;

	for (size_t g = 0; g < m->nruntimes; g++) {
		const char *name = d9m_str(m, m->runtimes[g].name);
		char ws[160], s[64], alive[16], line[400], id[D9M_WORKER_LABEL];
		size_t n = 0;

		ws[0] = '\0';
		for (size_t k = 0; k < m->nworkers &&
		    n + sizeof id < sizeof ws; k++)
			if (m->workers[k].rtgroup == g) {
				d9m_worker_label(m, m->workers[k].id, id,
				    sizeof id);
				n += (size_t)snprintf(ws + n, sizeof ws - n,
				    "%s%s", n ? "," : "", id);
			}
		snprintf(alive, sizeof alive, "%u", a->runtimes[g].alive_max);
		snprintf(line, sizeof line, "Runtime %s: workers %s; global "
		    "queue max %u, alive tasks max %s", *name ? d9o_fit(s,
		    sizeof s, name, 30) : "(default)", n ? ws : "none",
		    a->runtimes[g].queue_max, a->runtimes[g].alive_max ==
		    D9_NONE ? "not recorded" : alive);
		d9o_wrap(o->f, line, 2, 80);
	}
}

static void
metrics(const struct d9o_out *o)
{
	const struct d9m_model *m = o->m;
	const struct d9m_analysis *a = o->a;
	char s[256];

	if (a->nmetrics == 0)
		return;
	d9o_section(o->f, "METRICS");
	fprintf(o->f, "%-30s %-14s %8s %12s %12s %12s\n", "metric", "kind",
	    "samples", "min", "max", "last");
	for (size_t i = 0; i < a->nmetrics; i++) {
		const struct d9m_metric_fig *f = &a->metrics[i];
		uint32_t unit = m->metrics.unit[f->metric];

		const char *name = d9m_str(m, m->metrics.name[f->metric]);

		if (strlen(name) > 30) {	/* a name of its own line */
			d9o_wrap(o->f, name, 0, 80);
			name = "";
		}
		fprintf(o->f, "%-30s %-14s %8zu %12.6g %12.6g %12.6g%s%s\n",
		    d9o_fit(s, sizeof s, name,
		    30), d9m_metric_kind_name(m->metrics.kind[f->metric]),
		    f->samples, f->min, f->max, f->last, unit != D9_NONE ? " " :
		    "", unit != D9_NONE ? d9m_str(m, unit) : "");
		if (m->metrics.kind[f->metric] == D9M_COUNTER)
			fprintf(o->f, "%-30s grew by %.6g in the window\n", "",
			    f->increase);
	}
}

static void
queues(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	char b[32], id[D9M_WORKER_LABEL];

	d9o_section(o->f, "QUEUE DEPTH");
	fprintf(o->f, "Global queue: max %u, mean %.2f over %zu samples%s\n",
	    a->queue_max, a->queue_avg, a->queue_samples,
	    a->queue_max > 100 ? "  (over 100: workers fall behind)" : "");
	fprintf(o->f, "Local queue:  max %u\n", a->local_queue_max);
	fprintf(o->f, "Local queue lengths, and global ones before dial9 0.5, "
	    "are recorded modulo 256.\n");
	runtimes(o);
	d9o_section(o->f, "KERNEL SCHEDULING WAIT");
	for (size_t i = 0; i < a->nworkers; i++) {
		const struct d9m_worker_fig *w = &a->workers[i];

		if (w->sched_wait_n == 0)
			continue;
		d9m_worker_label(o->m, w->id, id, sizeof id);
		fprintf(o->f, "worker %-4s max %9s over %zu measured unparks, "
		    "%zu over 1 ms\n", id, d9_fmt_dur(b, sizeof b,
		    w->sched_wait_max, 0), w->sched_wait_n, w->sched_wait_over1ms);
	}
}

static void
spans(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	char b1[32], b2[32], b3[32], s[256];

	if (a->nspans == 0)
		return;
	d9o_section(o->f, "SPAN DURATIONS");
	fprintf(o->f, "%-30s %8s %10s %10s %10s\n", "span", "count", "p50",
	    "p99", "max");
	for (size_t i = 0; i < a->nspans; i++) {
		const struct d9m_span_fig *sp = &a->spans[i];

		fprintf(o->f, "%-30s %8zu %10s %10s %10s\n", d9o_fit(s, sizeof s,
		    d9m_str(o->m, sp->name), 30), sp->dur.count,
		    d9_fmt_dur(b1, sizeof b1, sp->dur.p50, 0),
		    d9_fmt_dur(b2, sizeof b2, sp->dur.p99, 0),
		    d9_fmt_dur(b3, sizeof b3, sp->dur.max, 0));
	}
	fprintf(o->f, "Durations run from the first enter to the last exit, "
	    "time suspended\nat .await included; with dial9 0.5 from a "
	    "span's start to its close.");
	if (a->unmatched_spans)
		fprintf(o->f, " %zu span%s entered and never exited.",
		    a->unmatched_spans, a->unmatched_spans == 1 ? " was" :
		    "s were");
	fprintf(o->f, "\n");
}

static void
waiting(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	struct d9m_frame *f;
	char b[32], s[256];

	if (a->nidle == 0 || (f = d9m_frames_alloc()) == NULL)
		return;
	d9o_section(o->f, "WAITING ON (task dumps)");
	fprintf(o->f, "%zu dumps of idle tasks, weighted by the idle gap each "
	    "describes:\n", a->dumps);
	for (size_t i = 0; i < a->nidle && i < 5; i++) {
		size_t n = d9m_stack_frames(o->m, o->r, a->idle[i].seg,
		    a->idle[i].stack, f, D9_STACK_MAX);

		fprintf(o->f, "%9s %6zux  ", d9_fmt_dur(b, sizeof b,
		    a->idle[i].idle_ns, 0), a->idle[i].count);
		d9o_wrap_at(o->f, a->idle[i].label != NULL ? a->idle[i].label :
		    n ? d9o_fit(s, sizeof s, d9m_frame_name(&f[0]), 60) : "",
		    19, 80);
	}
	free(f);
}

static void
memory(const struct d9o_out *o)
{
	const struct d9m_memory *mem = &o->a->mem;
	struct d9m_frame *f;
	char s[256];

	if (!mem->present || (f = d9m_frames_alloc()) == NULL)
		return;
	d9o_section(o->f, "MEMORY ALLOCATIONS");
	if (mem->rate_min != mem->rate_max)
		fprintf(o->f, "Sample rate R = %" PRIu64 " to %" PRIu64 " bytes "
		    "(segments differ: each allocation weighted by its own "
		    "segment's R).\n", mem->rate_min, mem->rate_max);
	else
		fprintf(o->f, "Sample rate R = %" PRIu64 " bytes (%s).\n",
		    mem->rate_max, mem->rate_from_meta ?
		    "from segment metadata" : "dial9's default");
	d9o_para(o->f, 0, "%zu sampled allocations stand for about %.1f MB in "
	    "%.0f allocations (each weighted by 1 / (1 - exp(-size/R))).",
	    mem->sampled, mem->est_bytes / 1e6, mem->est_count);
	d9o_para(o->f, 0, "%zu sampled frees; %zu sampled allocations never "
	    "freed (about %.1f MB live).", mem->frees, mem->unmatched,
	    mem->live_bytes / 1e6);
	if (mem->dropped_allocs || mem->dropped_frees)
		fprintf(o->f, "WARNING: the profiler dropped %" PRIu64
		    " allocation and %" PRIu64 " free samples.\n",
		    mem->dropped_allocs, mem->dropped_frees);
	for (size_t i = 0; i < mem->nsites && i < 5; i++) {
		const struct d9m_site *st = &mem->sites[i];
		size_t n = d9m_alloc_frames(o->m, o->r, st->seg, st->stack, f,
		    D9_STACK_MAX);

		fprintf(o->f, "%8.1f MB %5zu samples  ", st->est_bytes / 1e6,
		    st->sampled);
		d9o_wrap_at(o->f, st->label != NULL ? st->label : n ?
		    d9o_fit(s, sizeof s, d9m_frame_name(&f[0]), 52) :
		    "(empty stack)", 27, 80);
	}
	free(f);
}

#define REPORT_POIS	3	/* listed per kind */

/* The worst three points of interest of each kind (ANALYSIS 18). */
static void
points(const struct d9o_out *o)
{
	const struct d9m_pois *p = o->a->pois;

	d9o_section(o->f, "POINTS OF INTEREST");
	if (p == NULL || p->n == 0) {
		fprintf(o->f, "None.\n");
		return;
	}
	for (int k = 0; k < D9M_POI_COUNT; k++) {
		if (p->total[k] == 0)
			continue;
		fprintf(o->f, "%s: %zu", d9m_poi_name((enum d9m_poi_kind)k),
		    p->total[k]);
		if (p->total[k] > REPORT_POIS)
			fprintf(o->f, " (the worst %d listed)", REPORT_POIS);
		fputc('\n', o->f);
		for (size_t i = p->first[k]; i < p->first[k + 1] &&
		    i < p->first[k] + REPORT_POIS; i++) {
			char line[320];
			double at = (double)(int64_t)(p->v[i].start -
			    o->m->min_ts) / 1e6;

			/* a spawn a few ns before the start: not "-0.000" */
			if (at > -0.0005 && at < 0.0005)
				at = 0;
			snprintf(line, sizeof line, "at %+.3f ms  %s", at,
			    p->v[i].text);
			d9o_wrap(o->f, line, 4, 80);
		}
	}
}

/* One hop of the wake chain: the task, the poll it is seen through,
 * and the wake that woke it. */
static void
chain_hop(const struct d9o_out *o, const struct d9m_hop *h, size_t i)
{
	const struct d9m_model *m = o->m;
	char d[32], dl[32];

	fprintf(o->f, "%stask %" PRIu64, i ? "  woken by " : "",
	    m->tasks.id[h->task]);
	if (h->poll != D9_NONE)
		fprintf(o->f, "  poll %s at +%.3f ms", d9_fmt_dur(d, sizeof d,
		    m->polls.end[h->poll] - m->polls.start[h->poll], 0),
		    (double)(m->polls.start[h->poll] - m->min_ts) / 1e6);
	if (h->wake != D9_NONE && h->poll != D9_NONE)
		fprintf(o->f, ", woken %s before it", d9_fmt_dur(dl, sizeof dl,
		    h->delay, 0));
	if (h->wake != D9_NONE && h->waker == D9_NONE)
		fprintf(o->f, ", from outside any task");
	putc('\n', o->f);
}

static void
flags(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;

	d9o_section(o->f, "RED FLAGS");
	if (a->nflags == 0)
		fprintf(o->f, "None.\n");
	for (size_t i = 0; i < a->nflags; i++) {
		fprintf(o->f, "%-8s %s\n", d9m_severity_name(a->flags[i].sev, 1),
		    a->flags[i].check);
		d9o_wrap(o->f, a->flags[i].text, 9, 80);
	}
	if (o->chain) {
		d9o_section(o->f, "WAKE CHAIN");
		if (a->nchain == 0)	/* a task of the trace is its first hop */
			fprintf(o->f, "No task %llu in the trace.\n",
			    (unsigned long long)o->chain);
		for (size_t i = 0; i < a->nchain; i++)
			chain_hop(o, &a->chain[i], i);
	}
	if (o->m->nerrors) {
		d9o_section(o->f, "INPUT PROBLEMS");
		for (size_t i = 0; i < o->m->nerrors; i++)
			d9o_wrap(o->f, o->m->errors[i], 0, 80);
	}
}

void
d9o_report(const struct d9o_out *o)
{
	fprintf(o->f, "d9top report\n");
	summary(o);
	loss_warning(o);
	workers(o);
	long_polls(o);
	sched(o);
	locations(o);
	lifecycle(o);
	d9o_report_tasks(o);
	blocking(o);
	hotspots(o);
	queues(o);
	spans(o);
	metrics(o);
	waiting(o);
	memory(o);
	points(o);
	flags(o);
}
