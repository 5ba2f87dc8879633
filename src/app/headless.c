/*
 * headless.c: see headless.h.
 */
#include <string.h>

#include "app/headless.h"
#include "app/load.h"
#include "output/output.h"

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
		d9o_chrome(&out, &l.ao.win);
		break;
	default:
		d9o_report(&out);
		break;
	}
	d9a_load_free(&l);
	return rc;
}
