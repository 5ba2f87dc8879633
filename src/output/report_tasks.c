/*
 * report_tasks.c: the report's TASK FIGURES section (ANALYSIS 22): the
 * tasks with the most busy and scheduled time, then the lints, each list
 * saying when it is cut.
 */
#include <inttypes.h>
#include <stdio.h>

#include "output/output.h"
#include "output/textfmt.h"

#define REPORT_TASKS	5	/* tasks listed */
#define REPORT_LINTS	10	/* lints listed */

void
d9o_report_tasks(const struct d9o_out *o)
{
	const struct d9m_analysis *a = o->a;
	const struct d9m_model *m = o->m;
	size_t n = a->ntask_stats < REPORT_TASKS || o->all_tasks ?
	    a->ntask_stats : REPORT_TASKS;
	size_t nl = a->ntask_lints < REPORT_LINTS || o->all_tasks ?
	    a->ntask_lints : REPORT_LINTS;

	if (a->ntask_stats_all == 0)
		return;
	d9o_section(o->f, "TASK FIGURES");
	fprintf(o->f, "%zu tasks in the window; the %sbusiest and most "
	    "delayed%s:\n", a->ntask_stats_all, a->ntask_stats_all > n ?
	    "5 " : "", a->ntask_stats_all > n ? " (--tasks all: all)" : "");
	fprintf(o->f, "%8s %6s %10s %10s %10s %6s %5s\n", "task", "polls",
	    "busy", "scheduled", "idle", "wakes", "self");
	for (size_t i = 0; i < n; i++) {
		const struct d9m_task_stat *s = &a->task_stats[i];
		char b[32], c[32], d[32];

		fprintf(o->f, "%8" PRIu64 " %6zu %10s %10s %10s %6zu %5zu\n",
		    m->tasks.id[s->task], s->polls,
		    d9_fmt_dur(b, sizeof b, s->busy, 0),
		    d9_fmt_dur(c, sizeof c, s->sched, 0),
		    d9_fmt_dur(d, sizeof d, s->idle, 0), s->wakes, s->self_wakes);
	}
	if (a->ntask_lints == 0) {
		fprintf(o->f, "No task wakes itself in a loop, idles past half "
		    "the trace or never yields.\n");
		return;
	}
	fprintf(o->f, "Lints: %zu%s\n", a->ntask_lints, a->ntask_lints >
	    nl ? " (the first 10 listed)" : "");
	for (size_t i = 0; i < nl; i++) {
		char line[256];

		snprintf(line, sizeof line, "%s: %s", a->task_lints[i].kind,
		    a->task_lints[i].text);
		d9o_wrap(o->f, line, 2, 80);
	}
}
