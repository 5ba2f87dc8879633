/*
 * headless.c: see headless.h.
 */
#include <string.h>
#include <unistd.h>

#include "app/headless.h"
#include "app/load.h"
#include "app/tally.h"
#include "base/units.h"
#include "output/output.h"

/* What a browser's trace viewer opens: chrome://tracing stops at 256 MiB
 * of JSON; the Perfetto UI holds a trace and its tables in its tab's
 * memory (about 2 GB), and a JSON trace of a few hundred MB can fill it. */
#define CHROME_VIEWER_MAX	((uint64_t)256 << 20)

static void
chrome_tick(void *ctx, uint64_t bytes)
{
	d9a_meter_written(ctx, bytes, "Chrome JSON");
}

/* o's mode written to out->f. */
static int
answer(struct d9a_load *l, struct d9o_out *out, const struct d9a_opts *o)
{
	switch (o->mode) {
	case D9A_JSON:
		d9o_json(out);
		break;
	case D9A_FOLDED:
		if (d9o_folded(out, o->folded, &l->ao.win) < 0) {
			fprintf(stderr, "d9top: --folded %s: out of memory\n",
			    o->folded);
			return 1;
		}
		break;
	case D9A_CHROME:
		d9o_chrome(out, &l->ao.win);
		break;
	default:
		d9o_report(out);
		break;
	}
	return 0;
}

/* After --chrome: a note when it wrote more than a viewer opens. */
static void
chrome_said(struct d9a_load *l, const struct d9a_tally *t)
{
	char size[32], msg[320];

	if (t->bytes <= CHROME_VIEWER_MAX)
		return;
	snprintf(msg, sizeof msg, "--chrome wrote %s: more than "
	    "chrome://tracing opens (256 MiB) and likely more than the "
	    "Perfetto UI holds in a browser tab (about 2 GB for the trace "
	    "and its tables); --window A..B writes a part, and Perfetto's "
	    "trace_processor --httpd opens big traces outside the browser",
	    d9_fmt_bytes(size, sizeof size, (double)t->bytes));
	d9a_meter_note(&l->meter, msg);
}

int
d9a_headless(const struct d9a_opts *o, FILE *f, struct d9a_tally *t)
{
	struct d9a_win w = d9a_win_of(o);
	struct d9a_load l;
	struct d9o_out out;
	int chrome = o->mode == D9A_CHROME;
	int rc = d9a_load(&l, o, o->paths, o->npaths, &w, !chrome);

	if (rc != 0)
		return rc;
	memset(&out, 0, sizeof out);
	out.f = f;
	out.m = l.m;
	out.a = &l.a;
	out.r = l.res;
	out.inputs = o->paths;
	out.ninputs = o->npaths;
	out.chain = o->have_chain ? o->chain : 0;
	out.all_tasks = o->all_tasks;
	/* --chrome's progress while it goes to a file or a pipe */
	if (chrome && !isatty(t->fd))
		d9a_tally_ticks(t, chrome_tick, &l.meter);
	rc = answer(&l, &out, o);
	fflush(f);		/* all of it counted */
	d9a_tally_ticks(t, NULL, NULL);
	d9a_meter_end(&l.meter);
	if (chrome && !o->quiet && t->err == 0)
		chrome_said(&l, t);
	d9a_load_free(&l);
	return rc;
}
