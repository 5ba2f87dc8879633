/*
 * run.c: d9t_run(), the loop of STYLE.md: draw when dirty, wait for a
 * key (the timeout paces the progress line and background results),
 * dispatch. The quit signals (crash.h: SIGINT, SIGTERM, SIGHUP, SIGQUIT,
 * SIGUSR1, ...) are blocked in every thread and picked up here with
 * sigtimedwait(), so they end the loop like q, never in the middle of a
 * draw; the terminal is restored, and the status says which signal it was.
 */
#include <langinfo.h>
#include <pthread.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/text.h"
#include "parse/reader.h"
#include "tui/app.h"
#include "tui/crash.h"
#include "tui/loader.h"
#include "tui/term.h"
#include "tui/tui.h"

#define NOTHING_READ	"no events could be read"

/* A note after the browser closed (escaped). */
static void
say_stderr(void *ctx, const char *msg)
{
	(void)ctx;
	d9_text_put_line(stderr, "d9top: ", msg);
}

/* Below this the browser says "terminal too small (need 40x10)" instead
 * (the views would draw, clipped, but too little to use). */
#define MIN_W	40
#define MIN_H	10

void
d9t_config_init(struct d9t_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->worst = 10;
	cfg->win_hi_ms = -1;
}

/* A pending quit signal, or 0. */
static int
signalled(const sigset_t *set)
{
	struct timespec zero = { 0, 0 };
	int sig = sigtimedwait(set, NULL, &zero);

	return sig > 0 ? sig : 0;
}

/* What the first partial model is when it is the index's entry of the
 * inputs before they changed. */
static void
say_prior(struct d9t_app *app, const struct d9i_prior *p)
{
	char how[160];

	d9i_prior_say(p, how, sizeof how);
	d9t_msg(app, "%s: that entry is shown while all are read again",
	    how);
}

/* Take partial models while loading, the whole model when the loader is
 * done; -1: nothing to show. */
static int
poll_loader(struct d9t_app *app, struct d9t_loader *ld, char *err,
    size_t errlen)
{
	struct d9m_model *m;
	struct d9m_lanes *ix;
	struct d9p_read_stats st;
	struct d9i_prior p;
	uint64_t b, t, e;

	d9t_loader_progress(ld, &b, &t, &e);
	if (b != app->ld_bytes || e != app->ld_events ||
	    d9t_loader_ended(ld) != app->ld_ended) {
		app->ld_bytes = b;
		app->ld_total = t;
		app->ld_events = e;
		app->ld_ended = d9t_loader_ended(ld);
		app->dirty |= D9T_DIRTY_BODY;
	}
	if (d9t_loader_partial(ld, &m, &ix)) {
		int first = app->m == NULL;

		if (d9t_app_set_partial(app, m, ix) < 0)
			d9t_msg(app, "out of memory: the view is not updated");
		else if (first && d9t_loader_prior(ld, &p))
			say_prior(app, &p);
	}
	if (d9t_loader_state(ld) != 2)
		return 0;
	d9t_loader_take(ld, &m, &ix, &st);
	if (m == NULL && app->m != NULL) {
		app->loading = 0;
		if (d9t_loader_prior(ld, &p))
			d9t_msg(app, "loading stopped (out of memory): "
			    "showing the index's entry from before");
		else
			d9t_msg(app, "loading stopped (out of memory): "
			    "showing the first %zu events",
			    (size_t)app->ld_events);
		return 0;
	}
	if (m == NULL) {
		snprintf(err, errlen, "out of memory while loading");
		return -1;
	}
	if (st.read_ok == 0) {
		snprintf(err, errlen, "%s", NOTHING_READ);
		d9t_app_set_model(app, m, ix);	/* errors printed from it */
		return -1;
	}
	if (d9t_app_set_model(app, m, ix) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (d9t_loader_prior(ld, &p))
		d9t_msg(app, "all files read: the whole trace is shown");
	return 0;
}

/* Once loaded and written to the index: the entry, mapped, in the
 * model's place (the same figures; the model's memory goes back). */
static void
take_mapped(struct d9t_app *app, struct d9t_loader *ld)
{
	struct d9m_model *m;
	struct d9m_lanes *ix;

	if (d9t_loader_mapped(ld, &m, &ix) > 0 && d9t_app_set_model(app, m,
	    ix) < 0)
		d9t_msg(app, "out of memory: the index is not used");
}

int
d9t_run(const char *const *paths, size_t npaths, const struct d9t_config *cfg)
{
	struct d9t_app app;
	struct d9t_term term;
	struct d9t_canvas cv = { 0, 0, NULL };
	struct d9t_loader *ld = NULL;
	sigset_t sigs, old;
	char err[256] = "";
	int utf8, rc = 0, w, h, sig = 0;

	setlocale(LC_ALL, "");
	utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	d9t_crash_quit_set(&sigs);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	if (d9t_app_init(&app, cfg, paths, npaths, utf8, 1) < 0) {
		fprintf(stderr, "d9top: out of memory\n");
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return 1;
	}
	if (d9t_term_open(&term, app.color, cfg->term) < 0) {
		fprintf(stderr, "d9top: no %sterminal for the browser%s%s (use "
		    "--report or --json)\n", term.why[0] ? "usable " : "",
		    term.why[0] ? ": " : "", term.why);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		d9t_app_free(&app);
		return 1;
	}
	app.color = term.color && app.color;
	ld = d9t_loader_new(paths, npaths, (cfg->follow ? D9T_LOAD_FOLLOW : 0) |
	    (cfg->no_cache ? D9T_LOAD_NO_CACHE : 0) |
	    (cfg->stream_only ? D9T_LOAD_STREAM : 0), cfg->index,
	    cfg->mem_budget);
	if (ld == NULL) {
		snprintf(err, sizeof err, "cannot start the loader");
		rc = 1;
	}
	while (rc == 0 && !app.quit) {
		int key, x = 0, y = 0, b = 0, full;

		if ((sig = signalled(&sigs)) != 0)
			break;
		if (app.loading && poll_loader(&app, ld, err, sizeof err) < 0) {
			rc = 1;
			break;
		}
		if (!app.loading)
			take_mapped(&app, ld);
		if (app.nretired)
			d9t_app_reap(&app, 0);
		if (app.jobs && d9t_jobs_poll(app.jobs))
			d9t_app_dirty(&app);
		if (app.dirty) {
			full = (app.dirty & D9T_DIRTY_CLEAR) != 0;
			d9t_term_size(&term, &w, &h);
			if ((w != cv.w || h != cv.h) &&
			    d9t_canvas_init(&cv, w, h) < 0) {
				snprintf(err, sizeof err, "out of memory");
				rc = 1;
				break;
			}
			if (!d9t_canvas_too_small(&cv, MIN_W, MIN_H))
				d9t_app_render(&app, &cv);
			app.dirty = 0;
			d9t_term_draw(&term, &cv, full, app.utf8);
		}
		key = d9t_term_key(&term, app.loading || app.updating ? 50 : 200,
		    &x, &y, &b);
		if (key == D9T_TERM_MOUSE)
			d9t_app_mouse(&app, x, y, b);
		else if (key == D9T_KEY_RESIZE)
			app.dirty |= D9T_DIRTY_ALL | D9T_DIRTY_CLEAR;
		else if (key != D9T_TERM_NONE)
			d9t_app_key(&app, key);
	}
	d9t_term_close(&term);
	if (app.m && !cfg->quiet)
		for (size_t i = 0; i < app.m->nerrors; i++)
			d9_text_put_line(stderr, "d9top: ", app.m->errors[i]);
	if (!cfg->quiet && strcmp(err, NOTHING_READ) == 0)
		d9p_say_empty(paths, npaths, say_stderr, NULL);
	if (err[0])
		d9_text_put_line(stderr, "d9top: ", err);
	d9t_canvas_free(&cv);
	/* the model may still be being written to the index; partial
	 * models share the loader's strings: they go first */
	d9t_loader_stop(ld);
	d9t_app_free(&app);
	d9t_loader_free(&ld);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return sig ? 128 + sig : rc;
}
