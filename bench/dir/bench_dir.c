/*
 * bench_dir.c: d9top on a host's whole trace directory (issue 16). The
 * directory is made here (hostdir.h: N time-consecutive copies of
 * demo-2026-06 written by d9shift, kept in the build directory and
 * reused while the trace and d9shift stay the same), then each figure
 * is measured against `cat DIR/(all) | gzip -dc > /dev/null` in the same
 * run (best of 3 after one read that warms the page cache):
 *
 *   d9top --json --no-cache DIR          reading the traces
 *   cat DIR/(all) | d9top --json -       the same on one pipe (a host's
 *                                        traces over ssh)
 *   d9top --json DIR, twice              cold (empty cache), then warm
 *                                        (after the entry the cold run
 *                                        left to a detached writer is
 *                                        in place: that time is shown)
 *   d9top --json --window A..B DIR       1 s in the middle, warm
 *   d9top --json DIR, one more segment   the directory gained the next
 *                                        copy since the warm entry
 *                                        (its output checked against
 *                                        --no-cache's; ratio to cold)
 *   d9top --json --memory 1G --no-cache DIR   the newest segments
 *                                        that fit in 1 GiB (peak)
 *   d9top DIR (the browser, in tmux)     to a loaded whole-trace screen
 *   the browser, one more segment        to its first screen (the older
 *                                        entry, while the files are
 *                                        read again), and loaded
 *
 * with wall time, CPU time (user + system of the child, wait4) and peak
 * RSS, and at --scale 1,2,4 the same for 2x and 4x the copies.
 * Every d9top run has XDG_CACHE_HOME in the work directory; that cache
 * is removed at the end (its index is about 2.5 times the raw bytes).
 *
 * Usage: bench-dir D9TOP D9SHIFT TRACE WORK [--copies N] [--scale LIST]
 *        [--no-browser]
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "browse.h"
#include "hostdir.h"
#include "measure.h"

#define DEF_COPIES	58
#define DEF_SCALE	"1"	/* about 2 minutes on 2 busy cores */
#define MAX_SCALES	8
#define JSON_MAX	(8u << 20)
#define TIMES_MAX	160	/* a D9TOP_TIMES line's stages */

enum {
	M_BASE, M_NOCACHE, M_STDIN, M_COLD, M_WARM, M_WINDOW, M_GROW,
	M_MEMORY, M_BROWSER, M_BROWSE_COLD, M_BROWSE_GROW, M_COUNT
};

static const struct {
	const char	*name;
	const char	*goal;
} what[M_COUNT] = {
	{ "cat DIR/* | gzip -dc (baseline)", "" },
	{ "d9top --json --no-cache", "" },
	{ "cat DIR/* | d9top --json -", "" },
	{ "d9top --json, cold cache", "<= 1.0x" },
	{ "d9top --json, warm cache", "" },
	{ "d9top --json --window 1 s, warm", "<= 0.1x" },
	{ "d9top --json, one more segment", "<= 0.15x cold" },
	{ "d9top --json --memory 1G", "peak <= 1024 MiB" },
	{ "browser to loaded screen, warm", "<= 1.5 s" },
	{ "browser, cold", "" },
	{ "browser, one more segment", "" },
};

struct opts {
	const char	*d9top, *shift, *trace, *work;
	int		 copies, browser;
	int		 scale[MAX_SCALES], nscale;
};

/* One scale's figures. */
struct figures {
	int		 copies;
	double		 gz_mb, raw_mib, events, dur_ms;
	double		 frames;	/* events of every kind */
	double		 zoom_rss;	/* browse.h: RSS at a window < 1 s */
	struct d9b_run	 r[M_COUNT];
	int		 have[M_COUNT];
	int		 same;		/* cold and warm --json alike */
	double		 entry_s;	/* the cold run's entry written after */
	char		 note[M_COUNT][480];
	char		 times[M_COUNT][TIMES_MAX];	/* D9TOP_TIMES */
	int		 scale;
	double		 load[2];	/* 1-minute load at start and end */
};

struct ctx {
	struct opts	 o;
	struct d9b_hostdir h;
	char		 cache[PATH_MAX + 16];
	char		 env[PATH_MAX + 32];
};

static int
usage(void)
{
	fprintf(stderr, "usage: bench-dir D9TOP D9SHIFT TRACE WORK "
	    "[--copies N] [--scale 1,2,4] [--no-browser]\n");
	return 2;
}

static int
parse_scale(struct opts *o, const char *s)
{
	char *end;

	o->nscale = 0;
	for (;;) {
		long v = strtol(s, &end, 10);

		if (end == s || v < 1 || v > 64 || o->nscale == MAX_SCALES)
			return -1;
		o->scale[o->nscale++] = (int)v;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

static int
parse(struct opts *o, int argc, char **argv)
{
	if (argc < 5)
		return -1;
	o->d9top = argv[1];
	o->shift = argv[2];
	o->trace = argv[3];
	o->work = argv[4];
	o->copies = DEF_COPIES;
	o->browser = 1;
	if (parse_scale(o, DEF_SCALE) < 0)
		return -1;
	for (int i = 5; i < argc; i++) {
		if (strcmp(argv[i], "--no-browser") == 0)
			o->browser = 0;
		else if (strcmp(argv[i], "--copies") == 0 && i + 1 < argc) {
			o->copies = atoi(argv[++i]);
			if (o->copies < 1 || o->copies > 4096)
				return -1;
		} else if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
			if (parse_scale(o, argv[++i]) < 0)
				return -1;
		} else
			return -1;
	}
	return 0;
}

/* The number after "key": in a JSON text, or -1. */
static double
json_num(const char *text, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof k, "\"%s\":", key);
	if ((p = strstr(text, k)) == NULL)
		return -1;
	return atof(p + strlen(k));
}

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *p = f ? malloc(JSON_MAX + 1) : NULL;
	size_t n = 0;

	if (p != NULL) {
		n = fread(p, 1, JSON_MAX, f);
		p[n] = '\0';
	}
	if (f != NULL)
		fclose(f);
	return p;
}

/* One d9top --json run (extra: NULL or one more option and its value);
 * where its time went (D9TOP_TIMES, the stages after "times: ") into
 * times, when not NULL. */
static int
json_run(struct ctx *c, const char *dir, const char *opt, const char *val,
    const char *out, struct d9b_run *r, char times[TIMES_MAX])
{
	char *argv[8] = { (char *)c->o.d9top, "--json", "--quiet" };
	char *env[] = { c->env, "D9TOP_TIMES=1", NULL };
	char err[PATH_MAX + 48], line[TIMES_MAX + 16];
	size_t n = 3;
	FILE *f;

	if (opt != NULL)
		argv[n++] = (char *)opt;
	if (val != NULL)
		argv[n++] = (char *)val;
	argv[n++] = (char *)dir;
	argv[n] = NULL;
	snprintf(err, sizeof err, "%s.err", out);
	if (d9b_run(argv, env, out, err, r) != 0) {
		fprintf(stderr, "bench-dir: d9top --json %s failed (status "
		    "%d)\n", opt ? opt : "", r->status);
		unlink(err);
		return -1;
	}
	if (times != NULL && (f = fopen(err, "r")) != NULL) {
		if (fgets(line, sizeof line, f) != NULL &&
		    strncmp(line, "d9top: times: ", 14) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(times, TIMES_MAX, "%.*s", TIMES_MAX - 1,
			    line + 14);
		}
		fclose(f);
	}
	unlink(err);
	return 0;
}

static int
files_same(const char *a, const char *b)
{
	char *x = slurp(a), *y = slurp(b);
	int same = x != NULL && y != NULL && strcmp(x, y) == 0;

	free(x);
	free(y);
	return same;
}

/* cat DIR/(all) | d9top --json - > out (stdin is never cached). */
static int
stdin_run(struct ctx *c, const char *dir, const char *out,
    struct d9b_run *r)
{
	char *argv[] = { "sh", "-c", "cat \"$1\"/* | \"$2\" --json --quiet -",
	    "sh", (char *)dir, (char *)c->o.d9top, NULL };

	if (d9b_run(argv, NULL, out, NULL, r) != 0) {
		fprintf(stderr, "bench-dir: cat DIR/* | d9top --json - failed "
		    "(status %d)\n", r->status);
		return -1;
	}
	return 0;
}

/* The directory gains a segment after its entry was written: d9top
 * --json on it, against its cold read and --no-cache's output; the
 * segment goes again after. */
/* Whether the browser is not run (--no-browser): figure m says so. */
static int
no_browser(const struct ctx *c, struct figures *f, int m)
{
	if (!c->o.browser)
		snprintf(f->note[m], sizeof f->note[0],
		    "skipped: --no-browser");
	return !c->o.browser;
}

/* An index at to holding the entries of the one at from (their files
 * linked, not copied): what a run writes there leaves from's as it
 * was. 0, or -1. */
static int
link_index(const char *from, const char *to)
{
	char a[PATH_MAX + 64], b[PATH_MAX + 64];
	struct dirent *e;
	DIR *d;
	int rc = 0;

	snprintf(a, sizeof a, "%s/d9top", from);
	snprintf(b, sizeof b, "%s/d9top", to);
	if (mkdir(to, 0700) < 0 || mkdir(b, 0700) < 0 ||
	    (d = opendir(a)) == NULL)
		return -1;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		char x[PATH_MAX + 320], y[PATH_MAX + 320];

		if (e->d_name[0] == '.' || (n < 4 || (strcmp(e->d_name +
		    n - 4, ".img") != 0 && (n < 6 || strcmp(e->d_name + n - 6,
		    ".files") != 0))))
			continue;
		snprintf(x, sizeof x, "%s/%s", a, e->d_name);
		snprintf(y, sizeof y, "%s/%s", b, e->d_name);
		rc = link(x, y);
	}
	closedir(d);
	return rc;
}

/* The browser on dir up to its loaded screen, with an index of its own
 * at <cache>-suffix: empty, or (link) holding the warm one's entries
 * (linked: the --json runs after it find the index as it was). Row m
 * gets its figures (wall: to the first screen with first, else to the
 * loaded one) and *b the rest; -1 with the row's note saying why. */
static int
browse_row(struct ctx *c, const char *dir, struct figures *f, int m,
    const char *suffix, int linked, int first, struct d9b_browse *b)
{
	char idx[PATH_MAX + 32];
	int rc;

	memset(b, 0, sizeof *b);
	if (no_browser(c, f, m))
		return -1;
	snprintf(idx, sizeof idx, "%s-%s", c->cache, suffix);
	d9b_rmtree(idx);
	rc = linked && link_index(c->cache, idx) < 0 ? -1 :
	    d9b_browse_load(c->o.d9top, dir, idx, 600, b);
	d9b_rmtree(idx);
	if (rc != 0) {
		snprintf(f->note[m], sizeof f->note[0], "%s: %s",
		    rc > 0 ? "skipped" : "FAILED", rc < 0 && b->why[0] ==
		    '\0' ? "no linked index" : b->why);
		return -1;
	}
	f->r[m].wall = first ? b->first : b->wall;
	f->r[m].cpu = b->cpu;
	f->r[m].rss_mib = b->rss_mib;
	f->have[m] = 1;
	return 0;
}

/* The browser on the directory that grew, the warm entry in its index:
 * its first screen, the older entry shown while the files are read
 * again, and the loaded one. */
static void
browse_grown(struct ctx *c, const char *dir, struct figures *f)
{
	struct d9b_browse b;

	if (browse_row(c, dir, f, M_BROWSE_GROW, "grown", 1, 1, &b) == 0)
		snprintf(f->note[M_BROWSE_GROW], sizeof f->note[0], "to the "
		    "first screen; loaded after %.2f s; first screen: %s",
		    b.wall, b.first_header);
}

/* The browser on the directory with an empty index: partial models
 * while it reads the traces, then the whole one. */
static void
browse_cold(struct ctx *c, const char *dir, struct figures *f)
{
	struct d9b_browse b;

	if (browse_row(c, dir, f, M_BROWSE_COLD, "cold", 0, 0, &b) == 0)
		snprintf(f->note[M_BROWSE_COLD], sizeof f->note[0], "to the "
		    "loaded screen; the first one after %.2f s: %s", b.first,
		    b.first_header);
}

static int
measure_grow(struct ctx *c, const char *dir, struct figures *f)
{
	char added[PATH_MAX + 64], out[2][PATH_MAX + 32];
	struct d9b_run nc;
	int rc = -1;

	for (int i = 0; i < 2; i++)
		snprintf(out[i], sizeof out[i], "%s/out-%d-grow-%d.json",
		    c->o.work, f->copies, i);
	if (d9b_hostdir_grow(&c->h, dir, f->copies, added, sizeof added) < 0)
		return -1;
	browse_grown(c, dir, f);
	if (json_run(c, dir, NULL, NULL, out[0], &f->r[M_GROW],
	    f->times[M_GROW]) == 0 &&
	    json_run(c, dir, "--no-cache", NULL, out[1], &nc, NULL) == 0) {
		d9b_settle(c->cache);
		f->have[M_GROW] = 1;
		snprintf(f->note[M_GROW], sizeof f->note[0], "%.3fx the cold "
		    "read; output %s --no-cache's", f->r[M_GROW].wall /
		    f->r[M_COLD].wall, files_same(out[0], out[1]) ?
		    "the same as" : "DIFFERENT from");
		rc = 0;
	}
	unlink(added);
	return rc;
}

/* A cold read in 1 GiB (--memory, parse/fit.h): the newest segments
 * that fit, and how many were left out. */
static void
measure_memory(struct ctx *c, const char *dir, struct figures *f)
{
	char out[PATH_MAX + 32], *text;
	double left;

	snprintf(out, sizeof out, "%s/out-%d-memory.json", c->o.work,
	    f->copies);
	/* one option and its value, then a flag in the value's place */
	if (json_run(c, dir, "--memory=1G", "--no-cache", out,
	    &f->r[M_MEMORY], f->times[M_MEMORY]) < 0 ||
	    (text = slurp(out)) == NULL)
		return;
	left = json_num(text, "unreadFiles");
	f->have[M_MEMORY] = 1;
	snprintf(f->note[M_MEMORY], sizeof f->note[0], "the newest %.0f of "
	    "%d segments read, %.0f left out (loss.unreadFiles)",
	    f->copies - left, f->copies, left);
	free(text);
}

static int
measure_json(struct ctx *c, const char *dir, struct figures *f)
{
	char out[4][PATH_MAX + 32], win[64], *text;
	double mid;

	for (int i = 0; i < 4; i++)
		snprintf(out[i], sizeof out[i], "%s/out-%d-%d.json",
		    c->o.work, f->copies, i);
	if (json_run(c, dir, "--no-cache", NULL, out[0],
	    &f->r[M_NOCACHE], f->times[M_NOCACHE]) < 0)
		return -1;
	f->have[M_NOCACHE] = 1;
	if (stdin_run(c, dir, out[1], &f->r[M_STDIN]) < 0)
		return -1;
	f->have[M_STDIN] = 1;
	snprintf(f->note[M_STDIN], sizeof f->note[0], "output %s --no-cache's",
	    files_same(out[0], out[1]) ? "the same as" : "DIFFERENT from");
	if ((text = slurp(out[0])) == NULL)
		return -1;
	f->events = json_num(text, "eventCount");
	f->dur_ms = json_num(text, "durationMs");
	free(text);
	if (d9b_rmtree(c->cache) < 0)
		return -1;
	if (json_run(c, dir, NULL, NULL, out[1], &f->r[M_COLD],
	    f->times[M_COLD]) < 0)
		return -1;
	/* the entry is written by a detached d9top after the answer */
	f->entry_s = d9b_settle(c->cache);
	snprintf(f->note[M_COLD], sizeof f->note[0], "the index entry in "
	    "place %.2f s after the answer (written in the background)",
	    f->entry_s);
	if (json_run(c, dir, NULL, NULL, out[2], &f->r[M_WARM],
	    f->times[M_WARM]) < 0)
		return -1;
	f->have[M_COLD] = f->have[M_WARM] = 1;
	f->same = files_same(out[0], out[1]) && files_same(out[1], out[2]);
	mid = f->dur_ms / 2;
	snprintf(win, sizeof win, "%.3f..%.3f", mid - 500, mid + 500);
	if (json_run(c, dir, "--window", win, out[3], &f->r[M_WINDOW],
	    f->times[M_WINDOW]) < 0)
		return -1;
	f->have[M_WINDOW] = 1;
	snprintf(f->note[M_WINDOW], sizeof f->note[0], "--window %s", win);
	return 0;
}

static void
measure_browser(struct ctx *c, const char *dir, struct figures *f)
{
	struct d9b_browse b;
	int rc;

	if (no_browser(c, f, M_BROWSER))
		return;
	rc = d9b_browse(c->o.d9top, dir, c->cache, 600, &b);
	if (rc != 0) {
		snprintf(f->note[M_BROWSER], sizeof f->note[0], "%s: %s",
		    rc > 0 ? "skipped" : "FAILED", b.why);
		return;
	}
	f->r[M_BROWSER].wall = b.wall;
	f->r[M_BROWSER].cpu = b.cpu;
	f->r[M_BROWSER].rss_mib = b.rss_mib;
	f->have[M_BROWSER] = 1;
	f->zoom_rss = b.zoom_rss_mib;
	snprintf(f->note[M_BROWSER], sizeof f->note[0], "RSS %.1f MiB once "
	    "zoomed in (+) to a window under 1 s; screen: %s", b.zoom_rss_mib,
	    b.header);
}

static void
print_figures(const struct figures *f)
{
	double base = f->r[M_BASE].wall, peak = 0;

	printf("%-34s %7s %7s %8s %7s %7s  %s\n", "", "wall s", "cpu s",
	    "peak MiB", "x base", "cpu x", "goal");
	for (int m = 0; m < M_COUNT; m++) {
		const struct d9b_run *r = &f->r[m];

		if (!f->have[m]) {
			printf("%-34s %s\n", what[m].name, f->note[m]);
			continue;
		}
		printf("%-34s %7.2f %7.2f %8.1f %7.3f %7.3f  %s\n",
		    what[m].name, r->wall, r->cpu, r->rss_mib, r->wall / base,
		    r->cpu / f->r[M_BASE].cpu, what[m].goal);
		if (f->note[m][0] != '\0')
			printf("%-34s   %s\n", "", f->note[m]);
		if (f->times[m][0] != '\0')
			printf("%-34s   %s\n", "", f->times[m]);
		/* the read of one model (the grown browser holds two: the
		 * older entry's pages it showed, and the new read; the cold
		 * one its partial models too) */
		if (m != M_BASE && m != M_BROWSE_GROW && m != M_BROWSE_COLD &&
		    r->rss_mib > peak)
			peak = r->rss_mib;
	}
	printf("peak RSS of d9top: %.1f MiB for %.1f M events of every kind "
	    "(goal <= 768 MiB for 30 M events)\n", peak, f->frames / 1e6);
	printf("cached and uncached --json output %s\n", f->same ?
	    "identical" : "DIFFER");
	printf("result copies=%d gzip_mb=%.1f raw_mib=%.1f events_m=%.2f "
	    "runtime_events_m=%.2f "
	    "baseline_s=%.3f nocache_x=%.3f stdin_x=%.3f cold_x=%.3f "
	    "warm_x=%.3f window_x=%.3f browser_s=%.3f peak_rss_mib=%.1f "
	    "entry_s=%.2f zoom_rss_mib=%.1f browser_grown_s=%.3f "
	    "browser_cold_s=%.3f\n",
	    f->copies,
	    f->gz_mb, f->raw_mib, f->frames / 1e6, f->events / 1e6, base,
	    f->r[M_NOCACHE].wall / base, f->r[M_STDIN].wall / base,
	    f->r[M_COLD].wall / base,
	    f->r[M_WARM].wall / base, f->r[M_WINDOW].wall / base,
	    f->have[M_BROWSER] ? f->r[M_BROWSER].wall : -1, peak, f->entry_s,
	    f->have[M_BROWSER] ? f->zoom_rss : -1,
	    f->have[M_BROWSE_GROW] ? f->r[M_BROWSE_GROW].wall : -1,
	    f->have[M_BROWSE_COLD] ? f->r[M_BROWSE_COLD].wall : -1);
}

static int
one_scale(struct ctx *c, int scale, struct figures *f)
{
	char dir[PATH_MAX + 32];
	int built;
	double t0 = d9b_now();

	memset(f, 0, sizeof *f);
	f->copies = c->o.copies * scale;
	f->scale = scale;
	getloadavg(&f->load[0], 1);
	if (d9b_hostdir_make(&c->h, f->copies, dir, sizeof dir, &built) < 0)
		return -1;
	f->gz_mb = (double)d9b_dir_bytes(dir) / 1e6;
	f->raw_mib = (double)c->h.raw * f->copies / 1048576;
	f->frames = (double)c->h.frames * f->copies;
	printf("\n== %d copies (%dx): %.1f MB gzip, %.1f MiB raw; %d copies "
	    "written now in %.1f s\n", f->copies, scale, f->gz_mb, f->raw_mib,
	    built, d9b_now() - t0);
	fflush(stdout);
	if (d9b_gzip_baseline(dir, &f->r[M_BASE]) < 0) {
		fprintf(stderr, "bench-dir: the baseline failed\n");
		return -1;
	}
	f->have[M_BASE] = 1;
	snprintf(f->note[M_BASE], sizeof f->note[0], "best of 3, page "
	    "cache warm");
	if (measure_json(c, dir, f) < 0)
		return -1;
	printf("trace: %.1f M events of every kind (%.1f M runtime events: "
	    "eventCount), %.1f s\n", f->frames / 1e6, f->events / 1e6,
	    f->dur_ms / 1000);
	measure_browser(c, dir, f);
	browse_cold(c, dir, f);
	if (measure_grow(c, dir, f) < 0)	/* the entry changes */
		return -1;
	measure_memory(c, dir, f);		/* not through the index */
	getloadavg(&f->load[1], 1);
	print_figures(f);
	fflush(stdout);
	return 0;
}

static void
print_growth(const struct ctx *c, const struct figures *f)
{
	printf("\n== growth against %d copies\n%-34s", c->o.copies, "");
	for (int i = 1; i < c->o.nscale; i++)
		printf("  %dx: wall  RSS", c->o.scale[i] / c->o.scale[0]);
	printf("\n");
	for (int m = 0; m < M_COUNT; m++) {
		if (!f[0].have[m])
			continue;
		printf("%-34s", what[m].name);
		for (int i = 1; i < c->o.nscale; i++)
			if (f[i].have[m])
				printf("     %5.2fx %5.2fx", f[i].r[m].wall /
				    f[0].r[m].wall, f[i].r[m].rss_mib /
				    f[0].r[m].rss_mib);
		printf("\n");
	}
	if (!f[0].have[M_BROWSER] || f[0].zoom_rss <= 0)
		return;
	printf("%-34s", "browser zoomed under 1 s (RSS)");
	for (int i = 1; i < c->o.nscale; i++)
		if (f[i].have[M_BROWSER] && f[i].zoom_rss > 0)
			printf("            %5.2fx", f[i].zoom_rss /
			    f[0].zoom_rss);
	printf("\n");
}

/* One figure (prec decimals) against its goal: "value (goal)", or "-"
 * when not measured. */
static void
against(int have, double v, int prec, const char *goal)
{
	char num[32], cell[64];

	if (!have) {
		printf(" %-16s", "-");
		return;
	}
	snprintf(num, sizeof num, "%.*f", prec, v);
	snprintf(cell, sizeof cell, "%s (%s)", num, goal);
	printf(" %-16s", cell);
}

/* The acceptance (issue 33, DESIGN.md's budget), one row per
 * scale: each ratio taken within that scale's run, beside the load the
 * machine had then (a busy machine makes them noisy). */
static void
print_acceptance(const struct figures *f, int n)
{
	printf("\n== acceptance: ratios within each scale's run; load: "
	    "1-minute average at its start / end\n");
	printf("%-6s %-16s %-16s %-16s %-16s %-16s %s\n", "scale",
	    "cold x base", "cold peak MiB", "window x base", "grown x cold",
	    "--memory 1G MiB", "load");
	for (int i = 0; i < n; i++) {
		const struct figures *x = &f[i];
		double base = x->r[M_BASE].wall, cold = x->r[M_COLD].wall;

		printf("%-6d", x->scale);
		against(x->have[M_COLD], x->r[M_COLD].wall / base, 2,
		    "<=1.0");
		against(x->have[M_COLD], x->r[M_COLD].rss_mib, 0,
		    x->scale == 1 ? "<=768" : "<=1024");
		against(x->have[M_WINDOW], x->r[M_WINDOW].wall / base,
		    3, "<=0.1");
		against(x->have[M_GROW] && cold > 0, x->r[M_GROW].wall / cold,
		    3, "<=0.15");
		against(x->have[M_MEMORY], x->r[M_MEMORY].rss_mib, 0,
		    "<=1024");
		printf(" %.1f / %.1f\n", x->load[0], x->load[1]);
	}
}

int
main(int argc, char **argv)
{
	struct ctx *c = calloc(1, sizeof *c);
	struct figures f[MAX_SCALES];
	double t0 = d9b_now();

	if (c == NULL || parse(&c->o, argc, argv) < 0)
		return usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (d9b_hostdir_open(&c->h, c->o.work, c->o.shift, c->o.trace, 2) < 0)
		return 1;
	c->o.work = c->h.work;		/* absolute */
	snprintf(c->cache, sizeof c->cache, "%s/cache", c->o.work);
	snprintf(c->env, sizeof c->env, "XDG_CACHE_HOME=%s", c->cache);
	printf("bench-dir: --copies %d --scale", c->o.copies);
	for (int i = 0; i < c->o.nscale; i++)
		printf("%s%d", i ? "," : " ", c->o.scale[i]);
	printf("%s (default: --copies %d --scale %s)\n", c->o.browser ? "" :
	    " --no-browser", DEF_COPIES, DEF_SCALE);
	printf("copies of %s moved by %.3f s each; %d cores online\n",
	    c->o.trace, (double)c->h.d_ns / 1e9, (int)sysconf(
	    _SC_NPROCESSORS_ONLN));
	printf("x base: wall time / the baseline's; cpu x: CPU time / the "
	    "baseline's\n");
	printf("cache: %s\n", c->cache);
	for (int i = 0; i < c->o.nscale; i++)
		if (one_scale(c, c->o.scale[i], &f[i]) < 0)
			return 1;
	if (c->o.nscale > 1)
		print_growth(c, f);
	print_acceptance(f, c->o.nscale);
	/* the index of the largest directory: gigabytes, and every run
	 * starts with an empty one */
	d9b_rmtree(c->cache);
	printf("\nbench-dir: %.0f s in all\n", d9b_now() - t0);
	free(c);
	return 0;
}
