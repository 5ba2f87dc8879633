/*
 * browse.h: the browser's time to a loaded whole-trace screen, measured
 * from outside as a user sees it: d9top runs in a tmux pane of 160x48
 * (tmux -f /dev/null on a private socket), the pane is captured every
 * 20 ms, and the screen counts as loaded when its header shows a window
 * and no badge (loading, following, updating: render.c), i.e. the first
 * frame whose figures are all there. The clock starts just before
 * `tmux new-session` starts the pane; d9top's CPU time and peak RSS
 * (VmHWM) are read from /proc when the screen is loaded. Then `+`
 * zooms in until the window is under a second, and the RSS d9top holds
 * once that screen is loaded and d9top is idle is read too: what a
 * window costs. The first screen with a window on it, while the trace
 * still loads, is timed too.
 */
#ifndef D9B_BROWSE_H
#define D9B_BROWSE_H

struct d9b_browse {
	double		 wall;		/* seconds to the loaded screen */
	double		 first;		/* seconds to the first screen with a
					 * window, loading or not (a grown
					 * directory: its older entry) */
	char		 first_header[200];	/* that screen's first line */
	double		 cpu;		/* d9top's user + system seconds */
	double		 rss_mib;	/* d9top's peak RSS */
	double		 zoom_rss_mib;	/* its RSS at a window under 1 s,
					 * -1 when none was reached */
	char		 header[200];	/* the loaded screen's first line */
	char		 why[400];	/* why it was skipped or failed */
};

/* Browse dir with XDG_CACHE_HOME=cache. Returns 0, 1 when it cannot
 * run here (no tmux), -1 when it failed; b->why says why. */
int	d9b_browse(const char *d9top, const char *dir, const char *cache,
	    double timeout, struct d9b_browse *b);
/* d9b_browse up to the loaded screen only (no zoom). */
int	d9b_browse_load(const char *d9top, const char *dir, const char *cache,
	    double timeout, struct d9b_browse *b);

#endif
