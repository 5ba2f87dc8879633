/*
 * fixture.h: a headless browser on a real trace for the Check tests:
 * the model is loaded synchronously, keys go to d9t_app_key() and the
 * screen is the canvas dumped as text.
 */
#ifndef D9T_TEST_FIXTURE_H
#define D9T_TEST_FIXTURE_H

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"

struct fx {
	struct d9t_config	 cfg;
	struct d9t_app		 app;
	struct d9t_canvas	 cv;
	const char		*path;
	char			*screen;	/* last render, malloc'd */
};

/* Load $D9_TRACES/name (or name, an absolute path) into a w x h app
 * (utf8: UTF-8 glyphs). */
void	fx_open(struct fx *f, const char *name, int w, int h, int utf8);
/* The same with the views' figures computed off the UI thread as in the
 * program (sync 0), or in the caller (sync 1, fx_open). */
void	fx_open_jobs(struct fx *f, const char *name, int w, int h, int utf8,
	    int sync);
void	fx_close(struct fx *f);
/* Render until no view waits for its figures (off the UI thread). */
const char *fx_settle(struct fx *f);
/* Feed keys: plain characters, "\n" for Enter, "\033" for Esc; then
 * render and return the screen. */
const char *fx_keys(struct fx *f, const char *keys);
/* One special key (D9T_KEY_*), then render. */
const char *fx_key(struct fx *f, int key);
const char *fx_render(struct fx *f);
/* Assert that the screen contains s (prints the screen when not). */
#define ck_screen_has(f, s) do { \
	if (strstr((f)->screen, (s)) == NULL) { \
		fprintf(stderr, "%s", (f)->screen); \
		ck_abort_msg("screen lacks \"%s\"", (s)); \
	} \
} while (0)
#define ck_screen_lacks(f, s) do { \
	if (strstr((f)->screen, (s)) != NULL) { \
		fprintf(stderr, "%s", (f)->screen); \
		ck_abort_msg("screen has \"%s\"", (s)); \
	} \
} while (0)

Suite	*suite_canvas(void);
Suite	*suite_keys(void);
Suite	*suite_views(void);
Suite	*suite_window(void);
Suite	*suite_partial(void);
Suite	*suite_engine(void);
Suite	*suite_events(void);
Suite	*suite_baseline(void);
Suite	*suite_dial95(void);
Suite	*suite_consistency(void);
Suite	*suite_fit(void);
Suite	*suite_why(void);

#endif
