/*
 * render.c: the one draw point. Screen: a header (trace, window,
 * workers), a row of view tabs, the active view, and a status line with
 * the prompt, a message, or the keys that matter in this view (taken from
 * the key table).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "model/core/loss.h"
#include "tui/app.h"
#include "tui/baseline.h"
#include "tui/timeaxis.h"

#define BODY_Y	D9T_BODY_Y

/* Right end of the header: how loading goes, or that a view waits for
 * its figures. Returns its width. */
static int
badge(struct d9t_app *app, struct d9t_canvas *cv)
{
	char t[48];

	if (app->loading && app->m != NULL && app->cfg->follow)
		snprintf(t, sizeof t, " %s: %.1fM events", app->ld_ended ?
		    "stdin ended" : "following", (double)app->ld_events / 1e6);
	else if (app->loading && app->m != NULL && app->ld_total)
		snprintf(t, sizeof t, " loading %d%%", (int)((double)
		    app->ld_bytes * 100 / (double)app->ld_total));
	else if (app->loading && app->m != NULL)
		snprintf(t, sizeof t, " loading: %.1fM events",
		    (double)app->ld_events / 1e6);
	else if (app->updating)
		snprintf(t, sizeof t, " updating");
	else
		return 0;
	d9t_canvas_put(cv, cv->w - (int)strlen(t), 0, D9T_C_YELLOW |
	    D9T_A_BOLD, t);
	return (int)strlen(t);
}

/* A trace that lost data says so on every screen (ANALYSIS 19): the
 * first loss, right-aligned left of the badge; the report has them all. */
static void
lost(struct d9t_app *app, struct d9t_canvas *cv, int right)
{
	char t[160], mark[200];
	char *more;

	if (app->m == NULL || !d9m_loss_any(&app->m->loss))
		return;
	d9m_loss_text(&app->m->loss, t, sizeof t);
	if ((more = strstr(t, ", ")) != NULL)
		strcpy(more, ", ...");
	snprintf(mark, sizeof mark, " lost: %s ", t);
	d9t_canvas_put(cv, cv->w - right - (int)strlen(mark), 0, D9T_C_RED |
	    D9T_A_BOLD | D9T_A_REVERSE, mark);
}

static void
header(struct d9t_app *app, struct d9t_canvas *cv)
{
	char in[96], a[40], b[40], d[32], wall[48] = "", line[512];
	const char *p = app->npaths ? app->paths[0] : "-", *slash;
	const struct d9m_model *m = app->m;
	int have = 0, dec = 3;
	int64_t wl;

	/* the name, not the path: the window must fit in 80 columns */
	if ((slash = strrchr(p, '/')) != NULL && slash[1] != '\0')
		p = slash + 1;
	d9_text_safe(in, sizeof in, p, strlen(p));
	if (app->npaths > 1)
		snprintf(in + strlen(in), sizeof in - strlen(in), " +%zu",
		    app->npaths - 1);
	if (m == NULL) {
		snprintf(line, sizeof line, "d9top  %s  loading", in);
	} else {
		/* enough decimals that the window's ends differ in three
		 * digits: a 2.7 ms window is 0.001000s..0.003700s */
		for (uint64_t span = app->hi - app->lo; dec < 9 &&
		    span < 1000000000ull; span *= 10)
			dec++;
		dec = dec > 3 ? dec - 1 : 3;
		d9t_fmt_rel(a, sizeof a, app->lo - m->min_ts, dec);
		d9t_fmt_rel(b, sizeof b, app->hi - m->min_ts, dec);
		d9t_fmt_dur(d, sizeof d, app->hi - app->lo, app->utf8);
		wl = d9t_wall(m, app->lo, &have);
		/* narrow: the name of the program, then the date go first;
		 * the start time stays */
		for (int fit = 0; fit < 4; fit++) {
			if (have) {
				strcpy(wall, "  ");
				d9t_fmt_wall(wall + 2, sizeof wall - 2, wl,
				    fit < 2);
				strcat(wall, fit < 3 ? " UTC" : "");
			}
			snprintf(line, sizeof line, "%s%s  window %s..%s (%s)  "
			    "%zu%s%s%s%s%s", fit ? "" : "d9top  ", in, a, b,
			    d, m->nworkers, fit == 3 ? "w" : " worker",
			    m->nworkers == 1 || fit == 3 ? "" : "s", wall,
			    m->nerrors ? "  input problems: " : "",
			    m->nerrors ? "see report" : "");
			if ((int)strlen(line) <= cv->w)
				break;
		}
		if (app->have_base) {
			char base[96];

			d9t_baseline_text(app, base, sizeof base);
			snprintf(line + strlen(line), sizeof line - strlen(line),
			    "  vs baseline %s", base);
		}
	}
	d9t_canvas_put(cv, 0, 0, D9T_A_BOLD, line);
	lost(app, cv, badge(app, cv));
}

/* The top views by number; the sub-view shown over one, after it. */
static void
tabs(struct d9t_app *app, struct d9t_canvas *cv)
{
	enum d9t_view top = app->view;
	int x = 0;

	for (size_t i = app->nstack; d9t_ops(app, top)->tab == 0 && i-- > 0; )
		top = app->stack[i];
	for (int v = 0; v < D9T_V_COUNT; v++) {
		const struct d9t_view_ops *ops = d9t_ops(app, (enum d9t_view)v);
		char t[32];

		if (ops->tab == 0)
			continue;
		snprintf(t, sizeof t, "%d %s", ops->tab, ops->name);
		x += d9t_canvas_put(cv, x, 1, (int)top == v ? D9T_A_REVERSE |
		    D9T_A_BOLD : D9T_A_DIM, t) + 1;
	}
	if (d9t_ops(app, app->view)->tab == 0)
		d9t_canvas_printf(cv, x + 1, 1, D9T_A_BOLD, "> %s",
		    d9t_ops(app, app->view)->name);
	if (app->f_task != D9_NONE || app->f_loc != D9_NONE)
		d9t_canvas_put(cv, cv->w - 9, 1, D9T_C_MAGENTA | D9T_A_BOLD,
		    " filtered");
}

/* Key hints of the view: its list of actions, their keys from the key
 * table, their words from the action list. */
static void
hints(struct d9t_app *app, struct d9t_canvas *cv, int y)
{
	const enum d9t_action *v = d9t_ops(app, app->view)->hints;
	int x = 0;

	for (; v != NULL && *v != D9T_A_NONE && x < cv->w; v++) {
		char k[32], t[64];

		if (d9t_keys_of(app->view, *v, k, sizeof k) == 0)
			continue;
		if (strchr(k, '/') && *v != D9T_A_SEARCH)
			*strchr(k, '/') = '\0';
		if (*v == D9T_A_BACK && app->nstack == 0)
			snprintf(t, sizeof t, "%s:quit", k);
		else
			snprintf(t, sizeof t, "%s:%s", k, d9t_action_word(*v));
		if (x + (int)strlen(t) > cv->w)
			break;
		x += d9t_canvas_put(cv, x, y, D9T_A_DIM, t) + 1;
	}
}

static void
status(struct d9t_app *app, struct d9t_canvas *cv)
{
	int y = cv->h - 1;

	if (app->prompt) {
		const char *what = app->plabel ? app->plabel : "? ";
		char buf[160];
		int x;

		size_t room = (size_t)(cv->w > 2 ? cv->w - 2 : 0), skip = 0;

		x = d9t_canvas_put(cv, 0, y, D9T_A_BOLD, what);
		snprintf(buf, sizeof buf, "%.*s", (int)app->plen, app->pbuf);
		/* a long answer shows its end, where the typing is: whole
		 * characters (UTF-8) left out from its start */
		while (buf[skip] != '\0' &&
		    (size_t)x + d9_text_cols(buf + skip) > room)
			while (((unsigned char)buf[++skip] & 0xc0) == 0x80)
				;
		x += d9t_canvas_put(cv, x, y, 0, buf + skip);
		d9t_canvas_putc(cv, x, y, D9T_A_REVERSE, ' ');
	} else if (app->msg[0])
		d9t_canvas_put(cv, 0, y, D9T_C_CYAN | D9T_A_BOLD, app->msg);
	else
		hints(app, cv, y);
}

static void
loading(struct d9t_app *app, struct d9t_canvas *cv)
{
	char line[256];
	int bar = cv->w - 4 > 60 ? 60 : cv->w - 4;
	int fill = app->ld_total ? (int)((double)app->ld_bytes * bar /
	    (double)app->ld_total) : 0;

	if (app->ld_total)
		snprintf(line, sizeof line, "loading: %.1f MB of %.1f MB read, "
		    "%" PRIu64 " events", (double)app->ld_bytes / 1e6,
		    (double)app->ld_total / 1e6, app->ld_events);
	else
		snprintf(line, sizeof line, "loading: %.1f MB read, %" PRIu64
		    " events", (double)app->ld_bytes / 1e6, app->ld_events);
	d9t_canvas_put(cv, 2, BODY_Y + 1, D9T_A_BOLD, line);
	if (fill > bar)
		fill = bar;
	for (int i = 0; i < bar && app->ld_total; i++)
		d9t_canvas_putc(cv, 2 + i, BODY_Y + 2, i < fill ? D9T_C_GREEN :
		    D9T_A_DIM, i < fill ? (app->utf8 ? 0x2588 : '#') :
		    (app->utf8 ? 0x2591 : '.'));
	d9t_canvas_put(cv, 2, BODY_Y + 4, 0,
	    "the views appear as soon as a part is read (q quits, ? keys)");
}

void
d9t_app_render(struct d9t_app *app, struct d9t_canvas *cv)
{
	int rows = cv->h - BODY_Y - 1;

	if (cv->w != app->w || cv->h != app->h)
		d9t_app_resize(app, cv->w, cv->h);
	d9t_canvas_clear(cv);
	app->updating = 0;
	if (app->view == D9T_V_HELP || app->m != NULL) {
		const struct d9t_view_ops *ops = d9t_ops(app, app->view);

		if (ops->draw != NULL)
			ops->draw(app, app->vstate[app->view], cv, BODY_Y, rows);
		else {
			struct d9t_list *l = &app->lists[app->view];

			d9t_build_list(app, l);
			if (app->updating)
				l->built = 0;	/* rebuild when it arrives */
			d9t_list_draw(l, cv, BODY_Y, rows, app->search, app->utf8);
		}
	} else
		loading(app, cv);
	header(app, cv);
	tabs(app, cv);
	status(app, cv);
	app->dirty = 0;
}
