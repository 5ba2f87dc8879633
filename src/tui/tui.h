/*
 * tui.h: the interactive browser (DESIGN.md "The browser"). d9t_run()
 * opens the terminal (/dev/tty when stdin or stdout is not one, so
 * `cat segments | d9top -` works), shows the UI at once, loads the inputs
 * in a background thread and runs until the user quits. The terminal is
 * restored on every exit: q, a fatal error, and every signal that ends
 * a process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, ...:
 * crash.h).
 */
#ifndef D9T_TUI_H
#define D9T_TUI_H

#include <stddef.h>
#include <stdint.h>

#include "store/cache.h"

struct d9m_resolver;

struct d9t_config {
	size_t		 worst;		/* worst polls in the report (10) */
	int		 have_window;	/* initial window, ms from start */
	double		 win_lo_ms, win_hi_ms;	/* hi < 0: open end */
	int		 quiet;		/* input problems not on stderr */
	int		 no_color;	/* no colours (src/app: also when
					 * NO_COLOR is set) */
	int		 ascii;		/* ASCII glyphs even in UTF-8 */
	int		 sync;		/* no background work (tests) */
	int		 follow;	/* keep reading new segments */
	int		 no_cache;	/* --no-cache: not through the index */
	int		 stream_only;	/* every input streams (D9TOP_STREAM) */
	uint64_t	 mem_budget;	/* the model's most, 0: none (--memory) */
	const struct d9i_where *index;	/* where the index is, or NULL */
	const struct d9m_resolver *resolver;	/* DWARF names, or NULL */
	const char	*term;		/* TERM as src/app read it, or NULL:
					 * said when it names no terminal */
};

/* Set the defaults (worst 10, everything else off). */
void	d9t_config_init(struct d9t_config *cfg);
/* Exit status: 0 ok, 1 nothing readable or no terminal, 128 + N when
 * signal N ended the browser (the terminal is restored; the caller prints
 * what it has to, then calls d9t_exit_signal). */
int	d9t_run(const char *const *paths, size_t npaths,
	    const struct d9t_config *cfg);
/* When status is 128 + N, end the process by signal N (its default
 * action), as a shell expects; else, or should it survive, return. */
void	d9t_exit_signal(int status);

#endif
