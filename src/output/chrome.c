/*
 * chrome.c: --chrome, the window as Chrome trace event JSON (the JSON
 * object format that Perfetto UI and chrome://tracing open), for what a
 * terminal cannot show. One process; one thread per worker, its lane
 * number as tid (one more for what ran on no worker), named by metadata
 * events ("worker 3", "worker 1:3" of source 1); a complete event ("ph": "X") per poll (cat "poll")
 * starting in the window, on its worker (polls of a thread never
 * overlap, so every thread's complete events nest); the wake that woke
 * a poll (ANALYSIS 5.1, model/queries/wake.h) as a flow from the waker's thread
 * to the poll. Spans run across polls, so they are async events ("b" and
 * "e", cat "span", one id each) on their worker's thread. CPU samples on
 * a worker are instant events (cat "cpu" or "off-cpu", the leaf frame in
 * args) and the runtime's global queue depth and alive tasks counters
 * ("C"), as the browser's strips show them. Times are microseconds from
 * the trace's start with nanosecond precision; otherData.traceStartNs
 * says where that is. One event per line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/core/frames.h"
#include "model/core/ids.h"
#include "model/queries/wake.h"
#include "model/queries/window.h"
#include "output/jsonw.h"
#include "output/output.h"

#define PID	1

static void
head(struct d9o_jw *w, const char *name, const char *ph, uint64_t tid)
{
	d9o_jw_obj(w);
	d9o_jw_kstr(w, "name", name);
	d9o_jw_kstr(w, "ph", ph);
	d9o_jw_ku64(w, "pid", PID);
	d9o_jw_ku64(w, "tid", tid);
}

static void
at(struct d9o_jw *w, const struct d9m_model *m, const char *key, uint64_t ts)
{
	d9o_jw_key(w, key);
	d9o_jw_milli(w, ts > m->min_ts ? ts - m->min_ts : 0);
}

/* The thread of worker wid (a wids row, or D9_NONE). */
static uint64_t
tid_of(const struct d9m_model *m, uint32_t wid)
{
	uint32_t s = d9m_worker_slot(m, wid);

	return s != D9_NONE ? s : m->nworkers;
}

static void
threads(struct d9o_jw *w, const struct d9m_model *m, const char *title)
{
	char name[120], id[D9M_WORKER_LABEL];

	head(w, "process_name", "M", 0);
	d9o_jw_key(w, "args");
	d9o_jw_obj(w);
	d9o_jw_kstr(w, "name", title);
	d9o_jw_end(w, '}');
	d9o_jw_end(w, '}');
	for (size_t s = 0; s < m->nworkers; s++) {
		const struct d9m_worker *k = &m->workers[s];

		d9m_worker_label(m, k->id, id, sizeof id);
		if (k->runtime != D9_NONE)
			snprintf(name, sizeof name, "%.60s worker %s",
			    d9m_str(m, k->runtime), id);
		else
			snprintf(name, sizeof name, "worker %s", id);
		head(w, "thread_name", "M", s);
		d9o_jw_key(w, "args");
		d9o_jw_obj(w);
		d9o_jw_kstr(w, "name", name);
		d9o_jw_end(w, '}');
		d9o_jw_end(w, '}');
		head(w, "thread_sort_index", "M", s);
		d9o_jw_key(w, "args");
		d9o_jw_obj(w);
		d9o_jw_ku64(w, "sort_index", s);
		d9o_jw_end(w, '}');
		d9o_jw_end(w, '}');
	}
}

/* The wake of poll p as a flow: from the waker's thread at the wake to
 * the poll's start. The waker's thread is the worker of the poll its
 * task ran at the wake, else the worker the wake event names. */
static void
flow(struct d9o_jw *w, const struct d9m_model *m, const struct d9m_window *win,
    uint32_t p, uint64_t *id)
{
	uint64_t eff, ts, tid;
	uint32_t k = d9m_wake_of(m, p, &eff), waker, wp;

	if (k == D9_NONE || !d9m_in_window(win, ts = m->wakes.ts[k]))
		return;
	waker = m->wakes.waker[k];
	tid = tid_of(m, m->wakes.worker[k]);
	if (waker != D9_NONE && (wp = d9m_task_poll_at(m, waker, ts)) !=
	    D9_NONE && m->polls.start[wp] <= ts && ts <= m->polls.end[wp])
		tid = d9m_poll_worker(m, wp);
	head(w, "wake", "s", tid);
	d9o_jw_kstr(w, "cat", "wake");
	d9o_jw_ku64(w, "id", *id);
	at(w, m, "ts", ts);
	d9o_jw_end(w, '}');
	head(w, "wake", "f", d9m_poll_worker(m, p));
	d9o_jw_kstr(w, "cat", "wake");
	d9o_jw_kstr(w, "bp", "e");
	d9o_jw_ku64(w, "id", (*id)++);
	at(w, m, "ts", m->polls.start[p]);
	d9o_jw_end(w, '}');
}

/* Whether the writing failed (a full disk), looked at every 4096th row
 * k of a loop: the rest of a few GB is not formatted for nothing. */
static int
stopped(struct d9o_jw *w, size_t k)
{
	return (k & 4095) == 0 && ferror(w->f);
}

static void
polls(struct d9o_jw *w, const struct d9m_model *m,
    const struct d9m_window *win)
{
	uint64_t id = 1;

	for (size_t s = 0; s < m->nworkers; s++) {
		size_t a, b;

		d9m_window_polls(m, s, win, &a, &b);
		for (size_t p = a; p < b; p++) {
			uint32_t t = m->polls.task[p];

			if (stopped(w, p - a))
				return;
			head(w, d9o_loc(m, m->polls.loc[p]), "X", s);
			d9o_jw_kstr(w, "cat", "poll");
			at(w, m, "ts", m->polls.start[p]);
			d9o_jw_key(w, "dur");
			d9o_jw_milli(w, m->polls.end[p] - m->polls.start[p]);
			d9o_jw_key(w, "args");
			d9o_jw_obj(w);
			d9o_jw_ku64(w, "task", t != D9_NONE ? m->tasks.id[t] :
			    0);
			if (m->polls.flags[p] & D9M_POLL_OPEN_ENDED) {
				d9o_jw_key(w, "openEnded");
				d9o_jw_bool(w, 1);
			}
			d9o_jw_end(w, '}');
			d9o_jw_end(w, '}');
			flow(w, m, win, (uint32_t)p, &id);
		}
	}
}

/* A span's fields as args: each key and value of its field list. */
static void
fields(struct d9o_jw *w, const struct d9m_model *m, uint32_t list)
{
	uint32_t len;
	const char *p = d9_intern_str(&m->lists, list, &len);

	d9o_jw_key(w, "args");
	d9o_jw_obj(w);
	for (uint32_t i = 0; list != D9_NONE && i + 8 <= len; i += 8) {
		uint64_t kv;

		memcpy(&kv, p + i, 8);	/* model.h: (key id << 32 | value id) */
		d9o_jw_kstr(w, d9m_str(m, (uint32_t)(kv >> 32)),
		    d9m_str(m, (uint32_t)kv));
	}
	d9o_jw_end(w, '}');
}

/* Spans as async events: they run across the polls of their thread. */
static void
spans(struct d9o_jw *w, const struct d9m_model *m,
    const struct d9m_window *win)
{
	const struct d9m_spans *sp = &m->spans;
	size_t a, b;

	d9m_window_rows(sp->start, sp->n, win, &a, &b);
	for (size_t i = a; i < b; i++) {
		const char *name = sp->name[i] != D9_NONE ?
		    d9m_str(m, sp->name[i]) : "unknown";

		if (stopped(w, i - a))
			return;
		head(w, name, "b", tid_of(m, sp->worker[i]));
		d9o_jw_kstr(w, "cat", "span");
		d9o_jw_ku64(w, "id", i + 1);
		at(w, m, "ts", sp->start[i]);
		fields(w, m, sp->fields[i]);
		d9o_jw_end(w, '}');
		head(w, name, "e", tid_of(m, sp->worker[i]));
		d9o_jw_kstr(w, "cat", "span");
		d9o_jw_ku64(w, "id", i + 1);
		at(w, m, "ts", sp->start[i] + sp->dur[i]);
		d9o_jw_end(w, '}');
	}
}

/* CPU samples taken on a worker's thread, as instants on its thread. */
static void
samples(struct d9o_jw *w, const struct d9o_out *o,
    const struct d9m_window *win)
{
	const struct d9m_model *m = o->m;
	const struct d9m_cpu *c = &m->cpu;
	struct d9m_frame f[1];
	size_t a, b;

	d9m_window_rows(c->ts, c->n, win, &a, &b);
	for (size_t i = a; i < b; i++) {
		size_t n;

		if (stopped(w, i - a))
			return;
		if (!c->lane[i] || c->worker[i] == D9_NONE)
			continue;
		n = d9m_stack_frames(m, o->r, c->seg[i], c->stack[i], f, 1);
		head(w, c->source[i] ? "off-cpu sample" : "cpu sample", "i",
		    tid_of(m, c->worker[i]));
		d9o_jw_kstr(w, "cat", c->source[i] ? "off-cpu" : "cpu");
		d9o_jw_kstr(w, "s", "t");
		at(w, m, "ts", c->ts[i]);
		d9o_jw_key(w, "args");
		d9o_jw_obj(w);
		d9o_jw_kstr(w, "leaf", n ? d9m_frame_name(&f[0]) : "");
		d9o_jw_end(w, '}');
		d9o_jw_end(w, '}');
	}
}

/* The runtime's queue samples as counters: global queue depth and, when
 * recorded, the tasks alive. */
static void
counters(struct d9o_jw *w, const struct d9m_model *m,
    const struct d9m_window *win)
{
	const struct d9m_queue *q = &m->queue;
	size_t a, b;

	d9m_window_rows(q->ts, q->n, win, &a, &b);
	for (size_t i = a; i < b; i++) {
		const char *rt = q->runtime[i] != D9_NONE ?
		    d9m_str(m, q->runtime[i]) : "";
		char name[96];

		if (stopped(w, i - a))
			return;
		snprintf(name, sizeof name, "%.60s%sruntime", rt, *rt ? " " :
		    "");
		head(w, name, "C", 0);
		at(w, m, "ts", q->ts[i]);
		d9o_jw_key(w, "args");
		d9o_jw_obj(w);
		d9o_jw_ku64(w, "global queue", q->global[i]);
		if (q->alive[i] != D9_NONE)
			d9o_jw_ku64(w, "alive tasks", q->alive[i]);
		d9o_jw_end(w, '}');
		d9o_jw_end(w, '}');
	}
}

void
d9o_chrome(const struct d9o_out *o, const struct d9m_window *win)
{
	const struct d9m_model *m = o->m;
	struct d9o_jw jw, *w = &jw;
	char title[160];

	snprintf(title, sizeof title, "d9top %.140s%s", o->ninputs ?
	    o->inputs[0] : "-", o->ninputs > 1 ? " ..." : "");
	d9o_jw_init(w, o->f);
	w->flat = 3;		/* each event on a line of its own */
	d9o_jw_obj(w);
	d9o_jw_kstr(w, "displayTimeUnit", "ns");
	d9o_jw_key(w, "otherData");
	d9o_jw_obj(w);
	d9o_jw_ku64(w, "traceStartNs", m->min_ts);
	d9o_jw_end(w, '}');
	d9o_jw_key(w, "traceEvents");
	d9o_jw_arr(w);
	threads(w, m, title);
	polls(w, m, win);
	spans(w, m, win);
	samples(w, o, win);
	counters(w, m, win);
	d9o_jw_end(w, ']');
	d9o_jw_end(w, '}');
}
