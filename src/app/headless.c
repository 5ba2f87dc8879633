/*
 * headless.c: see headless.h.
 */
#include <inttypes.h>
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

/* --chrome to out->f, its progress shown when that is not the terminal
 * the progress is on, and a note when it is more than a viewer opens. */
static int
chrome(struct d9a_load *l, struct d9o_out *out, const struct d9a_opts *o)
{
	struct d9a_tally t;
	FILE *f = out->f, *tf;
	char size[32], msg[320];

	tf = d9a_tally_open(&t, f, isatty(fileno(f)) ? NULL : chrome_tick,
	    &l->meter);
	if (tf == NULL) {
		fprintf(stderr, "d9top: out of memory\n");
		return 1;
	}
	out->f = tf;
	d9o_chrome(out, &l->ao.win);
	fclose(tf);		/* its error, if any, is f's */
	out->f = f;
	d9a_meter_end(&l->meter);
	if (!o->quiet && !ferror(f) && t.bytes > CHROME_VIEWER_MAX) {
		snprintf(msg, sizeof msg, "--chrome wrote %s: more than "
		    "chrome://tracing opens (256 MiB) and likely more than the "
		    "Perfetto UI holds in a browser tab (about 2 GB for the "
		    "trace and its tables); --window A..B writes a part, and "
		    "Perfetto's trace_processor --httpd opens big traces "
		    "outside the browser", d9_fmt_bytes(size, sizeof size,
		    (double)t.bytes));
		d9a_meter_note(&l->meter, msg);
	}
	return 0;
}

int
d9a_headless(const struct d9a_opts *o, FILE *f)
{
	struct d9a_win w = d9a_win_of(o);
	struct d9a_load l;
	struct d9o_out out;
	int rc = d9a_load(&l, o, o->paths, o->npaths, &w, o->mode != D9A_CHROME);

	if (rc != 0)
		return rc;
	memset(&out, 0, sizeof out);
	out.m = l.m;
	out.a = &l.a;
	out.r = l.res;
	out.f = f;
	out.inputs = o->paths;
	out.ninputs = o->npaths;
	out.chain = o->have_chain ? o->chain : 0;
	out.all_tasks = o->all_tasks;
	switch (o->mode) {
	case D9A_JSON:
		d9o_json(&out);
		break;
	case D9A_FOLDED:
		if (d9o_folded(&out, o->folded, &l.ao.win) < 0) {
			fprintf(stderr, "d9top: --folded %s: out of memory\n",
			    o->folded);
			rc = 1;
		}
		break;
	case D9A_CHROME:
		rc = chrome(&l, &out, o);
		break;
	default:
		d9o_report(&out);
		break;
	}
	d9a_load_free(&l);
	return rc;
}
