/*
 * main.c: d9top. Parse the command line, load the inputs into a model
 * (load.c), analyse the window and print one of the renderings, or
 * compare two runs and check rules (compare.c). Exit status: 0 ok, 1 bad
 * input (nothing could be read), 2 bad usage, 3 a --check rule failed.
 *
 * The resolver's messages go to stderr as they arise (after the browser
 * has closed the terminal, in browse mode).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/compare.h"
#include "app/env.h"
#include "app/export.h"
#include "app/headless.h"
#include "app/tally.h"
#include "app/load.h"
#include "app/opts.h"
#include "app/where.h"
#include "base/pages.h"
#include "base/text.h"
#include "model/figures/analysis.h"
#include "model/core/frames.h"
#include "model/core/model.h"
#include "app/addr2line.h"
#include "symbolize/resolver.h"
#include "tui/tui.h"

#ifndef D9TOP_VERSION
#define D9TOP_VERSION "unknown"
#endif

/* Whether mode's answer goes to standard output through a tally
 * (app/tally.h), which keeps the reason a write failed: the browser's
 * terminal, --export's files and --addr2line's answers (as they come)
 * are not such an answer. */
static int
tallied(enum d9a_mode mode)
{
	return mode != D9A_BROWSE && mode != D9A_EXPORT &&
	    mode != D9A_ADDR2LINE;
}

static int
browse(const struct d9a_opts *o)
{
	struct d9t_config cfg;
	struct d9a_where where;
	struct d9m_resolver *res;
	const struct d9s_note *nt;
	size_t n;
	int rc;

	/* silent while the browser owns the terminal; told afterwards */
	if ((res = d9a_resolver(o, NULL, NULL)) == NULL)
		return 2;
	cfg = (struct d9t_config){ .worst = o->worst, .have_window =
	    o->have_window, .win_lo_ms = o->win_lo_ms, .win_hi_ms =
	    o->win_hi_ms, .quiet = o->quiet, .follow = o->follow,
	    .no_cache = o->no_cache, .index = &where.w,
	    .resolver = res, .no_color = o->env.no_color,
	    .stream_only = o->env.stream_only, .mem_budget = o->mem_budget,
	    .term = o->env.term };
	d9a_where_init(&where, o->no_cache || o->follow);
	rc = d9t_run(o->paths, o->npaths, &cfg);
	d9a_where_free(&where);
	nt = d9s_resolver_notes(res, &n);
	for (size_t i = 0; i < n && !o->quiet; i++)
		d9a_note(NULL, nt[i].msg);
	d9s_resolver_free(&res);
	d9t_exit_signal(rc);	/* a signal ended the browser: it ends d9top */
	return rc;
}

/*
 * Standard input, output and error open, on /dev/null where one was
 * closed (`d9top ... 2>&-`): else the first file d9top opens takes its
 * descriptor, and a message or the answer goes into that file (an
 * export's lock or table, an index entry). Whether standard output was
 * closed: the answer then cannot be written, and that is said.
 */
static int
std_fds_open(void)
{
	int out_closed = 0;

	for (int fd = 0; fd <= 2; fd++) {
		int n;

		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		out_closed |= fd == STDOUT_FILENO;
		/* the lowest free descriptor: fd, the ones below are open */
		n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (n >= 0 && n != fd)
			close(n);
	}
	return out_closed;
}

/* Whether all that was printed reached standard output (a full disk, a
 * closed pipe's EPIPE, /dev/full): else said on stderr. */
static int
stdout_written(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 1;
	fprintf(stderr, "d9top: standard output: %s\n", errno != 0 ?
	    strerror(errno) : "write error");
	return 0;
}

/* Whether one of the paths is "-" while standard input is a terminal:
 * a trace typed at the keyboard is never what was meant. */
static int
stdin_is_terminal(const struct d9a_opts *o)
{
	return o->mode != D9A_HELP && o->mode != D9A_VERSION &&
	    o->mode != D9A_ADDR2LINE && d9a_opts_stdins(o) > 0 &&
	    isatty(STDIN_FILENO);
}

int
main(int argc, char **argv)
{
	struct d9a_opts o;
	struct d9a_tally t;
	char err[256];
	FILE *out;
	int rc, out_closed = std_fds_open();

#ifdef __GLIBC__
	/* A fixed mmap threshold (glibc's adaptive one keeps growing
	 * blocks in the heap as soon as one is freed): blocks under 4 MiB
	 * grow and are reused in the heap, larger ones are mappings of
	 * their own, given back when freed, of 2 MiB pages
	 * (base/pages.h). At 128 KiB the columns of one trace file grew
	 * mapping by mapping, a page fault per 4 KiB: the demo trace read
	 * in 0.22 s instead of 0.18 s, for 6 MB less RSS. The heap's first
	 * 32 MiB are backed by 2 MiB pages too: one trace file's columns
	 * live there (the demo trace 0.18 -> 0.12 s, 4 MB more RSS); a
	 * larger pad kept up to 64 MiB more of freed heap in a directory's
	 * read. One arena for every thread: the reader's and the
	 * finish's threads allocate from that heap too, not from arenas
	 * of their own faulted 4 KiB at a time (one trace file: 2066 ->
	 * 1292 faults, 110.7 -> 94.9 ms median of 40 interleaved runs on a
	 * host where a fault costs 10 us; 58 segments unchanged). */
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	mallopt(M_ARENA_MAX, 1);
	d9_pages_heap((size_t)32 << 20);
#endif

	if (d9a_opts_parse(&o, argc, argv, err, sizeof err) < 0) {
		d9a_note(NULL, err);	/* it may quote an argument */
		fputs("(d9top --help lists the options)\n", stderr);
		d9a_opts_free(&o);
		return 2;
	}
	d9a_env_read(&o.env);
	if (o.follow && o.mode != D9A_BROWSE) {
		/* a report is of what is there now: it cannot follow */
		fprintf(stderr, "d9top: --follow is for the browser; --report, "
		    "--json and --folded read what is there and exit\n");
		d9a_opts_free(&o);
		return 2;
	}
	if (stdin_is_terminal(&o)) {
		/* gzip's and zstd's rule: no binary input from a terminal */
		fprintf(stderr, "d9top: - reads a trace from standard input, "
		    "which is a terminal: pipe one in (ssh host 'cat "
		    "traces/*.bin.gz' | d9top -)\n");
		d9a_opts_free(&o);
		return 2;
	}
	out = stdout;
	if (tallied(o.mode) && (fflush(stdout), out = d9a_tally_open(&t,
	    STDOUT_FILENO, NULL, NULL)) == NULL) {
		fprintf(stderr, "d9top: out of memory\n");
		d9a_opts_free(&o);
		return 1;
	}
	if (out != stdout && out_closed)
		t.err = EBADF;		/* said at the end, as a write's */
	switch (o.mode) {
	case D9A_HELP:
		d9a_usage(out);
		rc = 0;
		break;
	case D9A_VERSION:
		fprintf(out, "d9top %s\n", D9TOP_VERSION);
		rc = 0;
		break;
	case D9A_ADDR2LINE:
		rc = d9a_addr2line_run(o.addr2line_argc, o.addr2line_argv);
		break;
	case D9A_BROWSE:
		rc = browse(&o);
		break;
	case D9A_DIFF:
		rc = d9a_diff_main(&o, out);
		break;
	case D9A_CHECK:
		rc = d9a_check_main(&o, out);
		break;
	case D9A_EXPORT:
		rc = d9a_export_main(&o);
		break;
	default:
		rc = d9a_headless(&o, out, &t);
		break;
	}
	if (out != stdout) {
		fclose(out);
		if (t.err != 0) {
			fprintf(stderr, "d9top: standard output: %s\n",
			    strerror(t.err));
			rc = 1;
		}
	} else if (!stdout_written() && rc == 0)
		rc = 1;
	d9a_opts_free(&o);
	return rc;
}
