/*
 * main.c: d9top. Parse the command line, load the inputs into a model,
 * analyse the window and print one of the renderings. Exit status: 0 ok,
 * 1 bad input (nothing could be read), 2 bad usage.
 *
 * Every run has a resolver (src/symbolize/resolver.h): the trace's own
 * symbol table comes first, the resolver names what it leaves unnamed
 * from the recorded maps, --binary, --debug-dir and --kallsyms. Its
 * messages go to stderr as they arise (after the browser has closed
 * the terminal, in browse mode); its warnings also join the model's
 * errors, so --json lists them.
 */
#include <math.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/opts.h"
#include "base/text.h"
#include "output/output.h"
#include "model/analysis.h"
#include "model/frames.h"
#include "model/model.h"
#include "symbolize/addr2line.h"
#include "symbolize/resolver.h"
#include "tui/tui.h"

#ifndef D9TOP_VERSION
#define D9TOP_VERSION "unknown"
#endif

static void
print_note(void *ctx, const char *msg)
{
	(void)ctx;
	d9_text_put_line(stderr, "d9top: ", msg);
}

/* The resolver for o; NULL and a message on stderr when a file given is
 * unusable. m may be NULL (bound at the first lookup). */
static struct d9m_resolver *
resolver_of(const struct d9a_opts *o, const struct d9m_model *m, int speak)
{
	struct d9s_resolver_opts ro;
	struct d9m_resolver *r;
	struct d9_err e;

	memset(&ro, 0, sizeof ro);
	ro.binaries = o->binaries;
	ro.nbinaries = o->nbinaries;
	ro.debug_dir = o->debug_dir;
	ro.kallsyms = o->kallsyms;
	ro.have_load_base = o->have_load_base;
	ro.load_base = o->load_base;
	ro.note = speak && !o->quiet ? print_note : NULL;
	if (d9s_resolver_new(m, &ro, &r, &e) != 0) {
		print_note(NULL, e.msg);
		return NULL;
	}
	return r;
}

/* The resolver's warnings so far, from the first not yet copied. */
static void
copy_warnings(struct d9m_resolver *r, struct d9m_model *m, size_t *done)
{
	size_t n;
	const struct d9s_note *nt = d9s_resolver_notes(r, &n);

	for (; *done < n; (*done)++)
		if (nt[*done].warning)
			d9m_model_add_error(m, nt[*done].msg);
}

static struct d9m_window
window_of(const struct d9a_opts *o, const struct d9m_model *m)
{
	struct d9m_window w = { 0, UINT64_MAX };

	if (!o->have_window)
		return w;
	w.lo = m->min_ts + (uint64_t)llround(o->win_lo_ms * 1e6);
	if (o->win_hi_ms >= 0)
		w.hi = m->min_ts + (uint64_t)llround(o->win_hi_ms * 1e6);
	return w;
}

static int
run(const struct d9a_opts *o)
{
	struct d9m_model *m = d9m_model_new();
	struct d9p_read_stats st;
	struct d9m_analysis a;
	struct d9m_analysis_opts ao;
	struct d9o_out out;
	struct d9m_resolver *res;
	size_t copied = 0;
	int rc = 1;

	if (m == NULL) {
		fprintf(stderr, "d9top: out of memory\n");
		return 1;
	}
	if ((res = resolver_of(o, NULL, 1)) == NULL) {
		d9m_model_free(&m);
		return 2;
	}
	if (d9m_model_load(m, o->paths, o->npaths, NULL,
	    o->quiet ? NULL : print_note, NULL, &st) < 0 ||
	    d9m_model_finish(m) < 0) {
		fprintf(stderr, "d9top: out of memory\n");
		goto out;
	}
	if (st.read_ok == 0) {
		fprintf(stderr, "d9top: no events could be read\n");
		goto out;
	}
	memset(&ao, 0, sizeof ao);
	ao.win = window_of(o, m);
	ao.worst = o->worst;
	ao.chain_task = o->have_chain ? o->chain : 0;
	ao.resolver = res;
	if (d9m_analyze(m, &ao, &a) < 0) {
		fprintf(stderr, "d9top: out of memory\n");
		goto out;
	}
	/* the analysis looked up every address: the files are all tried */
	copy_warnings(res, m, &copied);
	memset(&out, 0, sizeof out);
	out.m = m;
	out.a = &a;
	out.r = res;
	out.f = stdout;
	out.inputs = o->paths;
	out.ninputs = o->npaths;
	out.chain = o->have_chain;
	switch (o->mode) {
	case D9A_JSON:
		d9o_json(&out);
		break;
	case D9A_FOLDED:
		d9o_folded(&out, o->folded, &ao.win);
		break;
	default:
		d9o_report(&out);
		break;
	}
	d9m_analysis_free(&a);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	d9s_resolver_free(&res);
	d9m_model_free(&m);
	return rc;
}

static int
browse(const struct d9a_opts *o)
{
	struct d9t_config cfg;
	struct d9m_resolver *res;
	const struct d9s_note *nt;
	size_t n;
	int rc;

	/* silent while the browser owns the terminal; told afterwards */
	if ((res = resolver_of(o, NULL, 0)) == NULL)
		return 2;
	d9t_config_init(&cfg);
	cfg.worst = o->worst;
	cfg.have_window = o->have_window;
	cfg.win_lo_ms = o->win_lo_ms;
	cfg.win_hi_ms = o->win_hi_ms;
	cfg.quiet = o->quiet;
	cfg.follow = o->follow;
	cfg.resolver = res;
	rc = d9t_run(o->paths, o->npaths, &cfg);
	nt = d9s_resolver_notes(res, &n);
	for (size_t i = 0; i < n && !o->quiet; i++)
		print_note(NULL, nt[i].msg);
	d9s_resolver_free(&res);
	d9t_exit_signal(rc);	/* a signal ended the browser: it ends d9top */
	return rc;
}

int
main(int argc, char **argv)
{
	struct d9a_opts o;
	char err[256];
	int rc;

#ifdef __GLIBC__
	/* Columns are large and short-lived while loading: a fixed mmap
	 * threshold hands freed ones back to the system instead of letting
	 * glibc's adaptive threshold keep them in the heap (4 MB less RSS
	 * on the demo trace). */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif

	if (d9a_opts_parse(&o, argc, argv, err, sizeof err) < 0) {
		print_note(NULL, err);	/* it may quote an argument */
		fputs("(d9top --help lists the options)\n", stderr);
		d9a_opts_free(&o);
		return 2;
	}
	if (o.follow && o.mode != D9A_BROWSE) {
		/* a report is of what is there now: it cannot follow */
		fprintf(stderr, "d9top: --follow is for the browser; --report, "
		    "--json and --folded read what is there and exit\n");
		d9a_opts_free(&o);
		return 2;
	}
	switch (o.mode) {
	case D9A_HELP:
		d9a_usage(stdout);
		rc = 0;
		break;
	case D9A_VERSION:
		printf("d9top %s\n", D9TOP_VERSION);
		rc = 0;
		break;
	case D9A_ADDR2LINE:
		rc = d9s_addr2line_run(o.addr2line_argc, o.addr2line_argv);
		break;
	case D9A_BROWSE:
		rc = browse(&o);
		break;
	default:
		rc = run(&o);
		break;
	}
	d9a_opts_free(&o);
	return rc;
}
