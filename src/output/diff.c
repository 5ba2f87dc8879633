/*
 * diff.c: --diff, two runs compared (model/figures/diff.h), as text for 80
 * columns or as the `diff` object of --json. The order is the model's
 * ranking; the text shows the first rows of each list and says how many
 * more --json has.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/figures/diff.h"
#include "output/jsonw.h"
#include "output/output.h"
#include "output/textfmt.h"

#define TEXT_ROWS	10

/* "+1.20ms", "-15.0us", "0ns". */
static const char *
signed_dur(char *buf, size_t len, int64_t d)
{
	char t[24];

	d9_fmt_dur(t, sizeof t, (uint64_t)(d < 0 ? -d : d), 0);
	snprintf(buf, len, "%s%s", d > 0 ? "+" : d < 0 ? "-" : "", t);
	return buf;
}

static const char *
dur_or_none(char *buf, size_t len, const struct d9m_pct *p, int which)
{
	if (p == NULL || p->count == 0)
		return "-";
	return d9_fmt_dur(buf, len, which == 0 ? p->p50 : which == 1 ? p->p99 :
	    p->max, 0);
}

static void
more(FILE *f, size_t n)
{
	if (n > TEXT_ROWS)
		fprintf(f, "  (%zu more: --json lists them all)\n", n - TEXT_ROWS);
}

static void
pct_rows(FILE *f, const struct d9m_diff *d, const char *title,
    const char *what, const struct d9m_dpct *r, size_t n)
{
	d9o_section(f, title);
	if (n == 0) {
		fprintf(f, "  none in either run\n");
		return;
	}
	fprintf(f, "%7s %7s %9s %9s %10s  %s\n", "old n", "new n", "old p99",
	    "new p99", "change", what);
	for (size_t i = 0; i < n && i < TEXT_ROWS; i++) {
		char a[32], b[32], c[32], nm[128];

		fprintf(f, "%7zu %7zu %9s %9s %10s  %s\n",
		    r[i].old ? r[i].old->count : 0,
		    r[i].new ? r[i].new->count : 0,
		    dur_or_none(a, sizeof a, r[i].old, 1),
		    dur_or_none(b, sizeof b, r[i].new, 1),
		    r[i].old == NULL ? "new" : r[i].new == NULL ? "gone" :
		    signed_dur(c, sizeof c, d9m_dpct_change(&r[i])),
		    d9o_fit(nm, sizeof nm, r[i].name, 32));
	}
	more(f, n);
	if (d->unequal) {
		char a[32], b[32];

		fprintf(f, "Counts of runs of %s and %s (--json: per second "
		    "too).\n", d9_fmt_dur(a, sizeof a, d->dur_old, 0),
		    d9_fmt_dur(b, sizeof b, d->dur_new, 0));
	}
}

static void
share_rows(FILE *f, const char *title, const struct d9m_dweight *r,
    size_t n)
{
	d9o_section(f, title);
	if (n == 0) {
		fprintf(f, "  no samples in either run\n");
		return;
	}
	fprintf(f, "%8s %7s %7s  %s\n", "change", "old", "new", "leaf frame");
	for (size_t i = 0; i < n && i < TEXT_ROWS; i++) {
		char nm[128];

		fprintf(f, "%+7.1f%% %6.1f%% %6.1f%%  %s\n",
		    100 * (r[i].new - r[i].old), 100 * r[i].old, 100 * r[i].new,
		    d9o_fit(nm, sizeof nm, r[i].name, 52));
	}
	more(f, n);
}

/* "+1.5 MB" (a change of bytes), with "/s" for a rate. */
static const char *
signed_bytes(char *buf, size_t len, double b, const char *unit)
{
	char t[32];

	snprintf(buf, len, "%s%s%s", b > 0 ? "+" : "", d9_fmt_bytes(t, sizeof t,
	    b), unit);
	return buf;
}

/* "12.5/s" */
static const char *
rate(char *buf, size_t len, double v)
{
	snprintf(buf, len, v >= 100 ? "%.0f/s" : v >= 10 ? "%.1f/s" :
	    "%.2f/s", v);
	return buf;
}

static void
site_rows(FILE *f, const struct d9m_diff *d)
{
	const struct d9m_dweight *r = d->sites;
	size_t n = d->nsites;

	d9o_section(f, d->unequal ? "MEMORY: SITES BY CHANGE IN ESTIMATED "
	    "BYTES PER SECOND" : "MEMORY: SITES BY CHANGE IN ESTIMATED BYTES");
	if (n == 0) {
		fprintf(f, "  no allocations in either run\n");
		return;
	}
	if (d->unequal)
		fprintf(f, "%10s %9s %9s %9s %9s  %s\n", "change/s", "old",
		    "old/s", "new", "new/s", "site (leaf)");
	else
		fprintf(f, "%10s %10s %10s  %s\n", "change", "old", "new",
		    "site (leaf)");
	for (size_t i = 0; i < n && i < TEXT_ROWS; i++) {
		char a[32], b[32], c[40], x[32], y[32], nm[128];

		if (d->unequal)
			fprintf(f, "%10s %9s %9s %9s %9s  %s\n", signed_bytes(c,
			    sizeof c, r[i].new_rate - r[i].old_rate, "/s"),
			    d9_fmt_bytes(a, sizeof a, r[i].old), d9_fmt_bytes(x,
			    sizeof x, r[i].old_rate), d9_fmt_bytes(b, sizeof b,
			    r[i].new), d9_fmt_bytes(y, sizeof y, r[i].new_rate),
			    d9o_fit(nm, sizeof nm, r[i].name, 26));
		else
			fprintf(f, "%10s %10s %10s  %s\n", signed_bytes(c,
			    sizeof c, r[i].new - r[i].old, ""), d9_fmt_bytes(a,
			    sizeof a, r[i].old), d9_fmt_bytes(b, sizeof b,
			    r[i].new), d9o_fit(nm, sizeof nm, r[i].name, 44));
	}
	more(f, n);
}

void
d9o_diff_text(const struct d9o_diff_out *o)
{
	const struct d9m_diff *d = o->d;
	char a[32], b[32], c[32], e[32], g[32], h[32], on[160], nn[160];

	fprintf(o->f, "Compare: %s\n     to: %s\n", d9o_fit(on, sizeof on,
	    o->old_name, 70), d9o_fit(nn, sizeof nn, o->new_name, 70));
	fprintf(o->f, "Duration: ");
	d9o_para(o->f, 10, "%s -> %s%s", d->dur_old ? d9_fmt_dur(a,
	    sizeof a, d->dur_old, 0) : "unknown", d->dur_new ? d9_fmt_dur(b,
	    sizeof b, d->dur_new, 0) : "unknown", d->unequal ? " (unequal: "
	    "counts come with rates per second, sites rank by bytes per "
	    "second)" : "");
	fprintf(o->f, "Long polls (>1ms): %zu -> %zu (%+" PRId64 ")",
	    d->long_old, d->long_new, d9m_delta(d->long_new, d->long_old));
	if (d->dur_old && d->dur_new)
		fprintf(o->f, ", %s -> %s", rate(a, sizeof a, d->long_old_rate),
		    rate(b, sizeof b, d->long_new_rate));
	fprintf(o->f, "\n");
	{
		char l1[160], l2[64];
		int n1 = snprintf(l1, sizeof l1, "Scheduling delay: p50 %s -> %s, "
		    "p99 %s -> %s,", dur_or_none(a, sizeof a, &d->sched_old, 0),
		    dur_or_none(b, sizeof b, &d->sched_new, 0),
		    dur_or_none(c, sizeof c, &d->sched_old, 1),
		    dur_or_none(e, sizeof e, &d->sched_new, 1));
		int n2 = snprintf(l2, sizeof l2, "max %s -> %s",
		    dur_or_none(g, sizeof g, &d->sched_old, 2),
		    dur_or_none(h, sizeof h, &d->sched_new, 2));

		/* the max on a line of its own when the three pairs are
		 * too wide for 80 columns, never a pair cut in two */
		fprintf(o->f, "%s%s%s\n", l1, n1 + 1 + n2 > 80 ?
		    "\n                  " : " ", l2);
	}
	pct_rows(o->f, d, "POLL DURATION BY SPAWN LOCATION (p99 increase, new "
	    "locations first)", "location", d->locs, d->nlocs);
	share_rows(o->f, "CPU: LEAF FRAMES BY CHANGE IN SHARE OF ON-CPU "
	    "SAMPLES", d->cpu, d->ncpu);
	share_rows(o->f, "OFF-CPU IN POLLS: LEAF FRAMES BY CHANGE IN SHARE",
	    d->off, d->noff);
	site_rows(o->f, d);
	pct_rows(o->f, d, "SPANS BY P99 CHANGE (new names first)", "span", d->spans,
	    d->nspans);
}

static void
jpct(struct d9o_jw *w, const char *key, const struct d9m_pct *p)
{
	d9o_jw_key(w, key);
	if (p == NULL) {
		d9o_jw_null(w);
		return;
	}
	d9o_jw_pct(w, p, 1);
	d9o_jw_end(w, '}');
}

static void
jpct_rows(struct d9o_jw *w, const struct d9m_diff *d, const char *key,
    const char *name, const struct d9m_dpct *r, size_t n)
{
	d9o_jw_key(w, key);
	d9o_jw_arr(w);
	for (size_t i = 0; i < n; i++) {
		d9o_jw_obj(w);
		d9o_jw_kstr(w, name, r[i].name);
		jpct(w, "old", r[i].old);
		jpct(w, "new", r[i].new);
		d9o_jw_kdbl(w, "oldPerSec", d9m_per_sec(r[i].old ?
		    (double)r[i].old->count : 0, d->dur_old));
		d9o_jw_kdbl(w, "newPerSec", d9m_per_sec(r[i].new ?
		    (double)r[i].new->count : 0, d->dur_new));
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, ']');
}

static void
jshare_rows(struct d9o_jw *w, const char *key, const struct d9m_dweight *r,
    size_t n)
{
	d9o_jw_key(w, key);
	d9o_jw_arr(w);
	for (size_t i = 0; i < n; i++) {
		d9o_jw_obj(w);
		d9o_jw_kstr(w, "frame", r[i].name);
		d9o_jw_kdbl(w, "oldShare", r[i].old);
		d9o_jw_kdbl(w, "newShare", r[i].new);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, ']');
}

static void
jsites(struct d9o_jw *w, const struct d9m_dweight *r, size_t n)
{
	d9o_jw_key(w, "memory");
	d9o_jw_arr(w);
	for (size_t i = 0; i < n; i++) {
		const char *p = r[i].key, *nl;

		d9o_jw_obj(w);
		d9o_jw_kstr(w, "site", r[i].name);
		d9o_jw_key(w, "frames");
		d9o_jw_arr(w);
		for (; *p; p = *nl ? nl + 1 : nl) {
			nl = strchr(p, '\n');
			if (nl == NULL)
				nl = p + strlen(p);
			d9o_jw_strn(w, p, (size_t)(nl - p));
		}
		d9o_jw_end(w, ']');
		d9o_jw_kdbl(w, "oldBytes", r[i].old);
		d9o_jw_kdbl(w, "newBytes", r[i].new);
		d9o_jw_kdbl(w, "oldBytesPerSec", r[i].old_rate);
		d9o_jw_kdbl(w, "newBytesPerSec", r[i].new_rate);
		d9o_jw_end(w, '}');
	}
	d9o_jw_end(w, ']');
}

void
d9o_diff_json(const struct d9o_diff_out *o)
{
	const struct d9m_diff *d = o->d;
	struct d9o_jw jw, *w = &jw;

	d9o_jw_init(w, o->f);
	d9o_jw_obj(w);
	d9o_jw_key(w, "diff");
	d9o_jw_obj(w);
	d9o_jw_kstr(w, "old", o->old_name);
	d9o_jw_kstr(w, "new", o->new_name);
	jpct_rows(w, d, "pollByLoc", "location", d->locs, d->nlocs);
	d9o_jw_key(w, "durationMs");
	d9o_jw_obj(w);
	d9o_jw_kdbl(w, "old", (double)d->dur_old / 1e6);
	d9o_jw_kdbl(w, "new", (double)d->dur_new / 1e6);
	d9o_jw_end(w, '}');
	d9o_jw_key(w, "unequal");
	d9o_jw_bool(w, d->unequal);
	d9o_jw_key(w, "longPolls");
	d9o_jw_obj(w);
	d9o_jw_ku64(w, "old", d->long_old);
	d9o_jw_ku64(w, "new", d->long_new);
	d9o_jw_kdbl(w, "oldPerSec", d->long_old_rate);
	d9o_jw_kdbl(w, "newPerSec", d->long_new_rate);
	d9o_jw_end(w, '}');
	d9o_jw_key(w, "schedDelay");
	d9o_jw_obj(w);
	jpct(w, "old", &d->sched_old);
	jpct(w, "new", &d->sched_new);
	d9o_jw_end(w, '}');
	jshare_rows(w, "cpu", d->cpu, d->ncpu);
	jshare_rows(w, "offCpu", d->off, d->noff);
	jsites(w, d->sites, d->nsites);
	jpct_rows(w, d, "spans", "name", d->spans, d->nspans);
	d9o_jw_end(w, '}');
	d9o_jw_end(w, '}');
}
