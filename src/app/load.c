/*
 * load.c: see load.h. Every run has a resolver (src/symbolize/
 * resolver.h): the trace's own symbol table comes first, the resolver
 * names what it leaves unnamed from the recorded maps, --binary,
 * --debug-dir and --kallsyms. Its warnings also join the model's errors,
 * so --json lists them.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app/keep.h"
#include "app/load.h"
#include "app/meter.h"
#include "base/text.h"
#include "app/where.h"
#include "model/queries/window.h"
#include "symbolize/resolver.h"

void
d9a_note(void *ctx, const char *msg)
{
	(void)ctx;
	d9_text_put_line(stderr, "d9top: ", msg);
}

struct d9m_resolver *
d9a_resolver(const struct d9a_opts *o, void (*note)(void *, const char *),
    void *note_ctx)
{
	struct d9s_resolver_opts ro;
	struct d9m_resolver *r;
	struct d9_err e;

	ro = (struct d9s_resolver_opts){ .binaries = o->binaries,
	    .nbinaries = o->nbinaries, .debug_dir = o->debug_dir,
	    .kallsyms = o->kallsyms, .prefer_dwarf = o->prefer_dwarf,
	    .have_load_base = o->have_load_base, .load_base = o->load_base,
	    .note = o->quiet ? NULL : note, .note_ctx = note_ctx };
	if (d9s_resolver_new(NULL, &ro, &r, &e) != 0) {
		d9a_note(NULL, e.msg);
		return NULL;
	}
	return r;
}

/* The resolver's warnings so far, from the first not yet copied. */
static void
copy_warnings(struct d9m_resolver *r, struct d9m_model *m)
{
	size_t n;
	const struct d9s_note *nt = d9s_resolver_notes(r, &n);

	for (size_t i = 0; i < n; i++)
		if (nt[i].warning)
			d9m_model_add_error(m, nt[i].msg);
}

struct d9a_win
d9a_win_of(const struct d9a_opts *o)
{
	struct d9a_win w = { o->have_window, o->win_lo_ms, o->win_hi_ms };

	return w;
}

static struct d9m_window
window_of(const struct d9a_win *o, const struct d9m_model *m)
{
	struct d9m_window w = D9M_WHOLE;

	return o == NULL || !o->have ? w : d9m_window_ms(m, o->lo_ms,
	    o->hi_ms);
}

static void *
store(void *arg)
{
	struct d9a_load *l = arg;

	d9i_keep(&l->in, l->m, NULL, NULL);
	return NULL;
}

/* Stop writing the index (before the model changes or goes). */
static void
store_join(struct d9a_load *l)
{
	if (l->storing)
		pthread_join(l->store, NULL);
	l->storing = 0;
}

/*
 * The model of paths: mapped from the index when it holds them (its
 * messages said again), else read, finished and written to the index on
 * another thread while the caller goes on; *read_ok: inputs that gave
 * events. 0, or -1 when out of memory.
 */
static int
read_model(struct d9a_load *l, const struct d9a_opts *o,
    const char *const *paths, size_t npaths, unsigned *read_ok)
{
	struct d9a_where where;
	struct d9i_opts io = { .note = o->quiet ? NULL : d9a_meter_note,
	    .note_ctx = &l->meter, .stream_only = o->env.stream_only,
	    .mem_budget = o->mem_budget, .changed = d9a_meter_changed };
	int rc;

	if (l->meter.on)
		io.prog = &l->meter.prog;
	if (l->meter.on || l->meter.times)
		io.read_done = d9a_meter_read_done;
	d9a_where_init(&where, o->no_cache);
	io.where = &where.w;
	rc = d9i_open(&l->in, paths, npaths, &io);
	d9a_where_free(&where);
	/* the model is ours (its lanes too, when mapped) */
	l->m = l->in.m;
	l->lanes = l->in.lanes;
	l->in.m = NULL;
	l->in.lanes = NULL;
	if (rc < 0)
		return -1;
	*read_ok = l->in.st.read_ok;
	/* written by a detached process (app/keep.h); on this thread's
	 * side when none can be made */
	if (d9i_keepable(&l->in) &&
	    d9a_keep(&l->in, l->m, &l->keep) < 0 &&
	    pthread_create(&l->store, NULL, store, l) == 0)
		l->storing = 1;
	return 0;
}

int
d9a_load(struct d9a_load *l, const struct d9a_opts *o,
    const char *const *paths, size_t npaths, const struct d9a_win *w,
    int analyse)
{
	unsigned read_ok = 0;

	memset(l, 0, sizeof *l);
	l->keep = -1;
	/* a read's progress on a terminal, up to the answer; messages
	 * (the resolver's too) wipe its line */
	d9a_meter_init(&l->meter, stderr, !o->quiet &&
	    isatty(STDERR_FILENO), o->env.progress_ms, o->env.times);
	l->metered = 1;
	if ((l->res = d9a_resolver(o, d9a_meter_note, &l->meter)) == NULL) {
		d9a_load_free(l);
		return 2;
	}
	if (read_model(l, o, paths, npaths, &read_ok) < 0) {
		d9a_meter_end(&l->meter);
		fprintf(stderr, "d9top: out of memory\n");
		d9a_load_free(l);
		return 1;
	}
	if (read_ok == 0) {
		if (!o->quiet)	/* escaped, as every note */
			d9p_say_empty(paths, npaths, d9a_meter_note,
			    &l->meter);
		d9a_meter_end(&l->meter);
		fprintf(stderr, "d9top: no events could be read\n");
		d9a_load_free(l);
		return 1;
	}
	l->ao.win = window_of(w, l->m);
	if (!o->quiet && (l->ao.win.lo > l->m->max_ts ||
	    l->ao.win.hi < l->m->min_ts)) {
		char msg[160];

		snprintf(msg, sizeof msg, "--window from %.3f ms is outside "
		    "the trace (0..%.3f ms): its figures are empty", w->lo_ms,
		    (double)(l->m->max_ts - l->m->min_ts) / 1e6);
		d9a_meter_note(&l->meter, msg);
	}
	l->ao.worst = o->worst;
	l->ao.chain_task = o->have_chain ? o->chain : 0;
	l->ao.all_tasks = o->all_tasks;
	l->ao.resolver = l->res;
	if (!analyse) {
		d9a_meter_end(&l->meter);
		return 0;
	}
	d9a_meter_analysing(&l->meter);
	if (d9m_analyze(l->m, &l->ao, &l->a) < 0) {
		d9a_meter_end(&l->meter);
		fprintf(stderr, "d9top: out of memory\n");
		d9a_load_free(l);
		return 1;
	}
	l->analysed = 1;
	/* the analysis looked up every address: the files are all tried */
	store_join(l);
	copy_warnings(l->res, l->m);
	d9a_meter_end(&l->meter);	/* the answer follows */
	return 0;
}

void
d9a_load_free(struct d9a_load *l)
{
	store_join(l);
	if (l->keep >= 0)
		close(l->keep);	/* the index's writer starts */
	l->keep = -1;
	d9m_lanes_free(&l->lanes);
	d9i_close(&l->in);
	if (l->analysed)
		d9m_analysis_free(&l->a);
	d9s_resolver_free(&l->res);
	d9m_model_free(&l->m);
	l->analysed = 0;
	if (l->metered)
		d9a_meter_free(&l->meter);
	l->metered = 0;
}
