/* run.h: running d9top from tests and capturing what it prints. */
#ifndef E2E_RUN_H
#define E2E_RUN_H

struct run_result {
	char	*out;		/* stdout, NUL-terminated */
	char	*err;		/* stderr */
	size_t	 nout, nerr;	/* their lengths */
	int	 status;	/* exit status, or -1 */
};

/* Run `$D9TOP args` through sh (args are shell words); stdin from
 * stdin_path or /dev/null. */
int	run_d9top(struct run_result *r, const char *stdin_path,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same for the program bin (stdin from /dev/null). */
int	run_prog(struct run_result *r, const char *bin, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
void	run_free(struct run_result *r);
/* What d9top args (shell words, after the environment assignments env;
 * stdout to the file out) writes to stderr when that is a terminal: the
 * bytes the terminal got, from script(1), malloc'd; d9top must exit 0.
 * NULL when there is no script(1). */
char	*run_on_terminal(const char *env, const char *args, const char *out);
/* $D9_TRACES/name (static buffer per call site is not used: malloc'd). */
char	*trace_path(const char *name);

#include <check.h>

/* Run one suite, print Check's totals; exit status for main(). With
 * traces, the suite reads the shared traces in every test: it is skipped
 * (77) when they are missing. */
int	run_suite(Suite *s, int traces);

#endif
