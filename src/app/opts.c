/*
 * opts.c: one table lists every option with its help text; parsing and
 * --help both follow it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/opts.h"
#include "output/textfmt.h"
#include "base/statm.h"
#include "base/units.h"

/* --window bounds: 2^63 ns from the start, less a margin */
#define D9A_WINDOW_MAX_MS	9e12

enum { O_REPORT, O_JSON, O_WINDOW, O_WORST, O_CHAIN, O_FOLDED, O_BINARY,
    O_DEBUG_DIR, O_LOAD_BASE, O_KALLSYMS, O_PREFER_DWARF, O_FOLLOW, O_QUIET,
    O_VERSION, O_HELP, O_ADDR2LINE, O_DIFF, O_CHECK, O_BASELINE, O_CHROME, O_NO_CACHE,
    O_EXPORT, O_TASKS, O_MEMORY };

static const struct opt {
	const char	*name;
	int		 id;
	const char	*arg;		/* NULL: a flag */
	const char	*help;
} opts[] = {
	{ "--report", O_REPORT, NULL, "print the text diagnosis and exit" },
	{ "--json", O_JSON, NULL, "print the figures as one JSON object and exit" },
	{ "--window", O_WINDOW, "A..B", "only events in [A, B] from trace start,"
	    " in ms or with a unit: 1.5s..2s, 250ms..300ms, 30us (A or B may be"
	    " left out)" },
	{ "--worst", O_WORST, "N", "how many worst polls to list (default 10)" },
	{ "--tasks", O_TASKS, "all", "list every task's figures, not the "
	    "busiest 100 (JSON) or 5 (report)" },
	{ "--chain", O_CHAIN, "TASK", "with --json/--report: the wake chain of TASK" },
	{ "--folded", O_FOLDED, "cpu|offcpu|alloc", "print folded stacks "
	    "(flamegraph.pl / inferno input) and exit" },
	{ "--binary", O_BINARY, "ELF", "names for addresses the trace leaves "
	    "unnamed (repeatable)" },
	{ "--debug-dir", O_DEBUG_DIR, "DIR", "find binaries and debug files "
	    "by build id under DIR" },
	{ "--load-base", O_LOAD_BASE, "ADDR", "where the first --binary was "
	    "loaded (else inferred)" },
	{ "--kallsyms", O_KALLSYMS, "FILE", "name kernel frames from a copy "
	    "of /proc/kallsyms" },
	{ "--prefer-dwarf", O_PREFER_DWARF, NULL, "names from DWARF (--binary, "
	    "--debug-dir, the recorded files) even where the trace names the "
	    "address" },
	{ "--diff", O_DIFF, "OLD NEW", "compare two runs (traces, directories "
	    "or --json outputs; OLD@A..B: a window of one)" },
	{ "--check", O_CHECK, "RULES", "check rules (KEY OP VALUE, comma-"
	    "separated) against the figures; exit 3 if one fails" },
	{ "--baseline", O_BASELINE, "FILE", "the --json output of an earlier "
	    "run, for --check rules like +10%" },
	{ "--chrome", O_CHROME, NULL, "print Chrome trace event JSON (Perfetto "
	    "UI, chrome://tracing) and exit" },
	{ "--export", O_EXPORT, "parquet OUTDIR", "write the inputs' tables "
	    "as Parquet under OUTDIR (FLEET.md), new segments only" },
	{ "--follow", O_FOLLOW, NULL, "keep reading new segments (directory or "
	    "stdin)" },
	{ "--no-cache", O_NO_CACHE, NULL, "read the traces, not the index of "
	    "an earlier run (nor write one)" },
	{ "--memory", O_MEMORY, "SIZE|all", "read the newest files whose "
	    "events fit in SIZE (K, M, G: powers of 1024; default: three "
	    "quarters of the memory free at the start), or all of them" },
	{ "--quiet", O_QUIET, NULL, "no input problems nor progress on stderr" },
	{ "--addr2line", O_ADDR2LINE, "-e ELF ADDR...", "print function and "
	    "file:line of addresses, like addr2line -f -i -C" },
	{ "--version", O_VERSION, NULL, "print the version and exit" },
	{ "--help", O_HELP, NULL, "print this help and exit" },
};

void
d9a_usage(FILE *f)
{
	fputs("usage: d9top [OPTIONS] [PATH ...]\n"
	    "  PATH: a trace file, a directory of segments (recursive), or - "
	    "for stdin;\n"
	    "  raw, gzip and zstd containers in any mix. Without --report, "
	    "--json or\n"
	    "  --folded, d9top opens the interactive browser.\n\n", f);
	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		char left[48];

		snprintf(left, sizeof left, "%s%s%s", opts[i].name,
		    opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		/* 80 columns, as on a terminal over ssh: the help wraps
		 * under itself */
		fprintf(f, "  %-28s ", left);
		d9o_wrap_at(f, opts[i].help, 31, 80);
	}
	fputs("\nexit status: 0 ok, 1 bad input (nothing could be read), "
	    "2 bad usage,\n  3 a --check rule failed\n", f);
}

/* One end of --window, in ms: NULL, or why it is not one ("A", "B":
 * which). A bare number is ms; 1.5s, 250ms, 30us, 800ns name their
 * unit. */
static const char *
parse_ms(const char *s, size_t len, double *out, int b)
{
	char buf[64];
	double ns;

	if (len == 0 || len >= sizeof buf)
		return b ? "B is not a number" : "A is not a number";
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (d9_parse_dur(buf, 1e6, &ns) < 0)
		return b ? "B is not a number" : "A is not a number";
	*out = ns / 1e6;
	/* not negative or beyond what ns from the start hold */
	if (*out < 0)
		return b ? "B is before the start" : "A is before the start";
	if (!isfinite(*out) || *out > D9A_WINDOW_MAX_MS)
		return b ? "B is past 9e12 ms (104 days)" :
		    "A is past 9e12 ms (104 days)";
	return NULL;
}

/* --window A..B: NULL, or why it is not one. */
static const char *
parse_window(struct d9a_opts *o, const char *v)
{
	const char *dots = strstr(v, ".."), *why;

	if (dots == NULL)
		return "no '..'";
	o->win_lo_ms = 0;
	o->win_hi_ms = -1;	/* open end */
	if (dots > v && (why = parse_ms(v, (size_t)(dots - v),
	    &o->win_lo_ms, 0)) != NULL)
		return why;
	if (dots[2] != '\0' && (why = parse_ms(dots + 2, strlen(dots + 2),
	    &o->win_hi_ms, 1)) != NULL)
		return why;
	if (o->win_hi_ms >= 0 && o->win_hi_ms < o->win_lo_ms)
		return "A is after B";
	o->have_window = 1;
	return NULL;
}

static int
parse_u64(const char *v, uint64_t *out)
{
	char *end;

	if (*v < '0' || *v > '9')
		return -1;
	errno = 0;
	*out = strtoull(v, &end, 10);
	return *end != '\0' || errno != 0 ? -1 : 0;
}

unsigned
d9a_opts_stdins(const struct d9a_opts *o)
{
	unsigned n = o->diff_old != NULL && strcmp(o->diff_old, "-") == 0;

	for (size_t i = 0; i < o->npaths; i++)
		n += strcmp(o->paths[i], "-") == 0;
	return n;
}

/* What --chain, --tasks and --worst choose is listed by --report and
 * --json (and the browser's worst polls): with a mode that lists none of
 * it they would be dropped without a word. NULL, or why not. */
static const char *
listing_misplaced(const struct d9a_opts *o)
{
	int lists = o->mode == D9A_REPORT || o->mode == D9A_JSON ||
	    o->mode == D9A_CHECK || o->mode == D9A_DIFF;

	if (lists || o->mode == D9A_HELP || o->mode == D9A_VERSION)
		return NULL;
	if (o->have_chain)
		return "--chain is for --report and --json: the mode given "
		    "does not list wake chains";
	if (o->all_tasks)
		return "--tasks is for --report and --json: the mode given "
		    "does not list tasks";
	if (o->have_worst && o->mode != D9A_BROWSE)
		return "--worst is for --report, --json and the browser: the "
		    "mode given does not list polls";
	return NULL;
}

int
d9a_opts_parse(struct d9a_opts *o, int argc, char **argv, char *err,
    size_t errlen)
{
	const char *why;
	int no_more = 0;
	unsigned outs = 0;	/* output modes given, 1 << enum d9a_mode */

	memset(o, 0, sizeof *o);
	o->worst = 10;
	o->paths = calloc((size_t)argc + 1, sizeof *o->paths);
	o->binaries = calloc((size_t)argc + 1, sizeof *o->binaries);
	o->checks = calloc((size_t)argc + 1, sizeof *o->checks);
	if (o->paths == NULL || o->binaries == NULL || o->checks == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL, *eq;
		const struct opt *op = NULL;
		size_t nlen;
		uint64_t u;
		char *end;

		if (no_more || a[0] != '-' || strcmp(a, "-") == 0) {
			o->paths[o->npaths++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			no_more = 1;
			continue;
		}
		eq = strchr(a, '=');
		nlen = eq ? (size_t)(eq - a) : strlen(a);
		for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
			if (strlen(opts[k].name) == nlen &&
			    strncmp(opts[k].name, a, nlen) == 0)
				op = &opts[k];
		if (op == NULL) {
			snprintf(err, errlen, "unknown option %s", a);
			return -1;
		}
		if (op->id == O_ADDR2LINE) {
			if (outs != 0 || o->diff_old != NULL ||
			    o->nchecks > 0 || o->chrome) {
				snprintf(err, errlen, "--addr2line is a mode "
				    "of its own: --report, --json, --folded, "
				    "--export, --diff, --check and --chrome "
				    "print other things");
				return -1;
			}
			o->mode = D9A_ADDR2LINE;
			o->addr2line_argc = argc - i - 1;
			o->addr2line_argv = argv + i + 1;
			return 0;
		}
		if (op->arg != NULL) {
			if (eq)
				v = eq + 1;
			else if (i + 1 < argc)
				v = argv[++i];
			else {
				snprintf(err, errlen, "%s needs %s", op->name,
				    op->arg);
				return -1;
			}
		} else if (eq) {
			snprintf(err, errlen, "%s takes no value", op->name);
			return -1;
		}
		outs |= op->id == O_REPORT ? 1u << D9A_REPORT : op->id == O_JSON ?
		    1u << D9A_JSON : op->id == O_FOLDED ? 1u << D9A_FOLDED :
		    op->id == O_EXPORT ? 1u << D9A_EXPORT : 0;
		switch (op->id) {
		case O_REPORT: o->mode = D9A_REPORT; break;
		case O_JSON: o->mode = D9A_JSON; break;
		case O_VERSION: o->mode = D9A_VERSION; return 0;
		case O_HELP: o->mode = D9A_HELP; return 0;
		case O_FOLLOW: o->follow = 1; break;
		case O_QUIET: o->quiet = 1; break;
		case O_NO_CACHE: o->no_cache = 1; break;
		case O_MEMORY:
			o->have_memory = 1;
			if (strcmp(v, "all") == 0)
				o->mem_budget = 0;
			else if (d9_parse_size(v, &o->mem_budget) < 0 ||
			    o->mem_budget == 0) {
				snprintf(err, errlen, "--memory wants a size "
				    "(512M, 1.5G ...) or all, got '%s'", v);
				return -1;
			}
			break;
		case O_DEBUG_DIR: o->debug_dir = v; break;
		case O_BINARY: o->binaries[o->nbinaries++] = v; break;
		case O_KALLSYMS: o->kallsyms = v; break;
		case O_PREFER_DWARF: o->prefer_dwarf = 1; break;
		case O_LOAD_BASE:
			errno = 0;
			o->load_base = strtoull(v, &end, 0);
			if (*v < '0' || *v > '9' || *end != '\0' ||
			    errno != 0) {
				snprintf(err, errlen, "--load-base wants an "
				    "address (0x... or decimal), got '%s'", v);
				return -1;
			}
			o->have_load_base = 1;
			break;
		case O_WINDOW:
			if ((why = parse_window(o, v)) != NULL) {
				snprintf(err, errlen, "--window wants A..B from "
				    "the trace's start, in ms or with a unit "
				    "(1.5s..2s), A <= B, got '%s': %s", v, why);
				return -1;
			}
			break;
		case O_WORST:
			if (parse_u64(v, &u) < 0 || u > 100000) {
				snprintf(err, errlen, "--worst wants a number "
				    "from 0 to 100000, got '%s'", v);
				return -1;
			}
			o->worst = (size_t)u;
			o->have_worst = 1;
			break;
		case O_CHAIN:
			if (parse_u64(v, &o->chain) < 0 || o->chain == 0) {
				snprintf(err, errlen, "--chain wants a task id, "
				    "got '%s'", v);
				return -1;
			}
			o->have_chain = 1;
			break;
		case O_TASKS:
			if (strcmp(v, "all") != 0) {
				snprintf(err, errlen, "--tasks wants all, got "
				    "'%s'", v);
				return -1;
			}
			o->all_tasks = 1;
			break;
		case O_DIFF: o->diff_old = v; break;
		case O_CHECK: o->checks[o->nchecks++] = v; break;
		case O_BASELINE: o->baseline = v; break;
		case O_CHROME: o->chrome = 1; break;
		case O_EXPORT:
			if (strcmp(v, "parquet") != 0) {
				snprintf(err, errlen, "--export wants parquet "
				    "OUTDIR, got '%s'", v);
				return -1;
			}
			o->mode = D9A_EXPORT;
			break;
		case O_FOLDED:
			if (strcmp(v, "cpu") != 0 && strcmp(v, "offcpu") != 0 &&
			    strcmp(v, "alloc") != 0) {
				snprintf(err, errlen, "--folded wants cpu, offcpu "
				    "or alloc, got '%s'", v);
				return -1;
			}
			o->mode = D9A_FOLDED;
			o->folded = v;
			break;
		}
	}
	if (o->have_load_base && o->nbinaries == 0) {
		snprintf(err, errlen, "--load-base needs --binary");
		return -1;
	}
	if (outs & (outs - 1)) {	/* two of them: which was meant? */
		snprintf(err, errlen, "--report, --json, --folded and --export "
		    "print different things: give one");
		return -1;
	}
	if ((o->diff_old != NULL) + (o->nchecks > 0) + o->chrome +
	    (o->mode == D9A_EXPORT) > 1) {
		snprintf(err, errlen, "--diff, --check, --chrome and --export "
		    "are modes of their own: give one");
		return -1;
	}
	/* --check prints its rules' results, --chrome a trace, --diff its
	 * comparison (as text, or with --json as JSON): another answer
	 * asked beside them would be dropped */
	if ((o->nchecks > 0 || o->chrome) && outs != 0) {
		snprintf(err, errlen, "%s prints %s: --report, --json and "
		    "--folded are other answers (run d9top once for each)",
		    o->chrome ? "--chrome" : "--check", o->chrome ? "a trace "
		    "for Perfetto" : "its rules' results");
		return -1;
	}
	if (o->diff_old != NULL && (outs & 1u << D9A_FOLDED)) {
		snprintf(err, errlen, "--diff compares figures: --folded is "
		    "another answer (run d9top once for each)");
		return -1;
	}
	if (o->diff_old != NULL) {
		o->json = o->mode == D9A_JSON;	/* the diff as JSON */
		o->mode = D9A_DIFF;
	} else if (o->nchecks > 0)
		o->mode = D9A_CHECK;
	else if (o->chrome)
		o->mode = D9A_CHROME;
	if (o->mode == D9A_DIFF && o->npaths != 1) {
		snprintf(err, errlen, "--diff wants OLD NEW: two traces, "
		    "directories or --json outputs");
		return -1;
	}
	if (o->mode == D9A_EXPORT) {
		if (o->npaths < 2) {
			snprintf(err, errlen, "--export wants parquet OUTDIR "
			    "PATH...");
			return -1;
		}
		o->export_dir = o->paths[0];
		memmove(o->paths, o->paths + 1, --o->npaths * sizeof *o->paths);
	}
	if (o->have_window && o->mode == D9A_EXPORT) {
		snprintf(err, errlen, "--window is not for --export: it writes "
		    "whole segments (a window is a WHERE on the tables' "
		    "times)");
		return -1;
	}
	if ((why = listing_misplaced(o)) != NULL) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	if (o->baseline != NULL && o->mode != D9A_CHECK) {
		snprintf(err, errlen, "--baseline is for --check");
		return -1;
	}
	if (d9a_opts_stdins(o) > 1) {
		snprintf(err, errlen, "- (standard input) is given twice: it "
		    "can be read once");
		return -1;
	}
	if (o->npaths == 0 && o->mode != D9A_HELP && o->mode != D9A_VERSION) {
		snprintf(err, errlen, "no trace given (a file, a directory, "
		    "or - for stdin)");
		return -1;
	}
	if (!o->have_memory) {
		uint64_t a = d9_avail();

		/* 0 means no limit: a machine with nothing left gets 1 */
		o->mem_budget = a == UINT64_MAX ? 0 : a < 4 ? 1 : a / 4 * 3;
	}
	return 0;
}

void
d9a_opts_free(struct d9a_opts *o)
{
	free(o->paths);
	free(o->binaries);
	free(o->checks);
	o->paths = o->binaries = o->checks = NULL;
}

int
d9a_window_arg(const char *v, double *lo_ms, double *hi_ms)
{
	struct d9a_opts t;

	memset(&t, 0, sizeof t);
	if (parse_window(&t, v) != NULL)
		return -1;
	*lo_ms = t.win_lo_ms;
	*hi_ms = t.win_hi_ms;
	return 0;
}
