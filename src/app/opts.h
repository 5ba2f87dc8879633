/*
 * opts.h: the command line of DESIGN.md, parsed into plain data. Usage
 * errors are reported by the caller with exit status 2.
 */
#ifndef D9A_OPTS_H
#define D9A_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "app/env.h"

enum d9a_mode { D9A_BROWSE, D9A_REPORT, D9A_JSON, D9A_FOLDED, D9A_HELP,
    D9A_VERSION, D9A_ADDR2LINE, D9A_DIFF, D9A_CHECK, D9A_CHROME, D9A_EXPORT };

struct d9a_opts {
	enum d9a_mode	 mode;
	const char	**paths;	/* into argv */
	size_t		 npaths;
	int		 have_window;
	double		 win_lo_ms, win_hi_ms;	/* from trace start */
	size_t		 worst;
	int		 have_worst;	/* --worst given */
	uint64_t	 chain;
	int		 have_chain;
	int		 all_tasks;	/* --tasks all */
	const char	*folded;
	const char	**binaries;
	size_t		 nbinaries;
	const char	*debug_dir;
	const char	*kallsyms;
	int		 prefer_dwarf;	/* DWARF names over the trace's */
	int		 have_load_base;
	uint64_t	 load_base;	/* --load-base: first --binary's base */
	int		 follow;
	int		 quiet;
	int		 no_cache;	/* --no-cache */
	int		 have_memory;	/* --memory given */
	uint64_t	 mem_budget;	/* the model's most (--memory, or
					 * three quarters of the memory free
					 * at the start); 0: none */
	const char	*diff_old;	/* --diff OLD; NEW is paths[0] */
	int		 json;		/* --diff with --json */
	int		 chrome;
	const char	*export_dir;	/* --export parquet OUTDIR */
	const char	**checks;	/* --check RULES, each given */
	size_t		 nchecks;
	const char	*baseline;	/* --baseline FILE */
	int		 addr2line_argc;	/* arguments after --addr2line */
	char		**addr2line_argv;
	struct d9a_env	 env;		/* the environment's: main reads it */
};

/* 0, or -1 with a message in err. */
int	d9a_opts_parse(struct d9a_opts *o, int argc, char **argv, char *err,
	    size_t errlen);
void	d9a_opts_free(struct d9a_opts *o);
void	d9a_usage(FILE *f);
/* A --window value "A..B" (either end may be left out; hi -1: open);
 * -1 when it is not one. */
int	d9a_window_arg(const char *v, double *lo_ms, double *hi_ms);
/* How many of the inputs (the paths, --diff's OLD) are "-" (stdin). */
unsigned d9a_opts_stdins(const struct d9a_opts *o);

#endif
