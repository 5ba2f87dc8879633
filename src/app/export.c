/*
 * export.c: see export.h. Progress goes to stderr after each input: on a
 * terminal one line redrawn in place, elsewhere a line every 10 inputs;
 * --quiet keeps only errors.
 */
#include <stdatomic.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <unistd.h>

#include "app/export.h"
#include "app/interrupt.h"
#include "app/load.h"
#include "base/text.h"
#include "export/export.h"
#include "symbolize/resolver.h"

struct ctx {
	const struct d9a_opts	*o;
	int			 tty;
	_Atomic int		 spoke;	/* a segment's resolver spoke */
};

/* A resolver for one segment's model (export.h): the first one says
 * what it finds (a build id mismatch, the bias inferred), the others
 * would say it again. */
static struct d9m_resolver *
resolver_new(void *arg)
{
	struct ctx *c = arg;

	return d9a_resolver(c->o, atomic_exchange(&c->spoke, 1) == 0 ?
	    d9a_note : NULL, NULL);
}

static void
resolver_free(void *arg, struct d9m_resolver *r)
{
	(void)arg;
	d9s_resolver_free(&r);
}

static void
progress(void *arg, const struct d9x_progress *p)
{
	struct ctx *c = arg;

	if (c->o->quiet || (!c->tty && p->done % 10 != 0 && p->done !=
	    p->inputs))
		return;
	fprintf(stderr, "%sd9top: export: %zu/%zu inputs, %llu files, "
	    "%.1f MB%s", c->tty ? "\r" : "", p->done, p->inputs,
	    (unsigned long long)p->files, (double)p->bytes / 1e6,
	    c->tty && p->done < p->inputs ? "" : "\n");
}

/* What the export did; stopped: interrupted (interrupt.h). */
static void
summary(const struct d9a_opts *o, const struct d9x_progress *p, int stopped)
{
	char line[640];
	int n;

	n = snprintf(line, sizeof line, "exported %zu of %zu inputs to %s: "
	    "%llu files, %llu rows, %.1f MB (%zu already there, %zu copies of "
	    "a segment read once, %zu still being written, %zu unreadable)",
	    p->exported, p->inputs, o->export_dir,
	    (unsigned long long)p->files, (unsigned long long)p->rows,
	    (double)p->bytes / 1e6, p->present, p->copies, p->active,
	    p->failed);
	if (p->cut > 0 && n > 0 && (size_t)n < sizeof line)
		n += snprintf(line + n, sizeof line - (size_t)n, "; %zu cut "
		    "short, to be exported again at the next run", p->cut);
	if (stopped && n > 0 && (size_t)n < sizeof line)
		snprintf(line + n, sizeof line - (size_t)n, "; interrupted: "
		    "the next run goes on from there");
	d9a_note(NULL, line);
}

int
d9a_export_main(const struct d9a_opts *o)
{
	struct ctx c = { o, isatty(2), 0 };
	struct d9x_opts xo;
	struct d9x_progress p;
	struct d9m_resolver *res;
	struct d9a_interrupt in;
	char err[512];
	int rc, sig;

#ifdef __GLIBC__
	/* one model after another of about the same size: their columns
	 * are reused from the heap instead of mapped and faulted in again
	 * for each input (main.c's threshold suits one model) */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
	/* before any thread: ^C stops at a segment's end, not in a leaf */
	d9a_interrupt_start(&in, "export");
	/* the files named are read once here: an error is said now */
	if ((res = d9a_resolver(o, NULL, NULL)) == NULL) {
		if ((sig = d9a_interrupt_end(&in)) != 0)
			d9a_interrupt_die(sig);
		return 2;
	}
	xo = (struct d9x_opts){ .outdir = o->export_dir, .paths = o->paths,
	    .npaths = o->npaths, .resolver = res,
	    .resolver_new = resolver_new, .resolver_free = resolver_free,
	    .note = o->quiet ? NULL : d9a_note, .progress = progress,
	    .ctx = &c, .stream_only = o->env.stream_only,
	    .workers = o->env.export_workers,
	    .cancel = d9a_interrupt_flag(&in) };
	rc = d9x_export(&xo, &p, err, sizeof err);
	d9s_resolver_free(&res);
	if ((sig = d9a_interrupt_end(&in)) != 0) {
		if (!o->quiet && p.inputs > 0)	/* not in OUTDIR's wait */
			summary(o, &p, 1);
		d9a_interrupt_die(sig);
	}
	if (rc < 0) {
		d9a_note(NULL, err);
		return 1;
	}
	if (!o->quiet && p.inputs == 0)
		d9p_say_empty(o->paths, o->npaths, d9a_note, NULL);
	if (!o->quiet)
		summary(o, &p, 0);
	return p.exported + p.present == 0 && p.inputs > 0 ? 1 : 0;
}
