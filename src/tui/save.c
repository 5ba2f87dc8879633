/*
 * save.c: `s`, the current view written whole to d9top-VIEW-N.txt in the
 * current directory (the first N not taken; never over a file): a list
 * view rebuilt with everything shown (every row, stacks unfolded, full
 * width), the timeline as drawn. A flame tree also goes, as folded
 * stacks for flamegraph tools, to d9top-VIEW-N.folded. Over ssh this is
 * how a stack gets into a ticket.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "output/output.h"
#include "tui/app.h"

/* Create d9top-NAME-N.EXT for the first free N; its stream, or NULL. */
static FILE *
create(const char *name, const char *ext, int *n, char *path, size_t cap)
{
	for (*n = *n ? *n : 1; *n < 10000; ++*n) {
		int fd;

		snprintf(path, cap, "d9top-%s-%d.%s", name, *n, ext);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0)
			return fdopen(fd, "w");
		if (errno != EEXIST)
			return NULL;
	}
	errno = EEXIST;
	return NULL;
}

/* The list of the current view, built whole and sorted as shown, into
 * l (d9t_list_init'ed). */
static void
build_list(struct d9t_app *app, struct d9t_list *l)
{
	const struct d9t_view_ops *ops = d9t_ops(app, app->view);

	app->saving = 1;
	ops->build(app, app->vstate[app->view], l);
	app->saving = 0;
	l->sort = app->lists[app->view].sort;
	l->reverse = app->lists[app->view].reverse;
	d9t_list_sort(l);
}

/* l's lines into f; lines written. */
static size_t
write_list(const struct d9t_list *l, FILE *f)
{
	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "%s\n", l->v[i].text);
	return l->n;
}

/* The timeline as drawn now, into cv (its size 0 when out of memory). */
static void
draw(struct d9t_app *app, struct d9t_canvas *cv)
{
	if (d9t_canvas_init(cv, app->w, app->h) < 0)
		return;
	d9t_app_render(app, cv);
	app->dirty |= D9T_DIRTY_ALL;
}

/* Close f, written to path: 0, or -1 (errno says why) when a write
 * failed (a full disk), and the file is removed, not left cut. */
static int
close_saved(FILE *f, const char *path)
{
	int bad = ferror(f), err = errno;

	if (fclose(f) != 0) {
		bad = 1;
		err = errno;
	}
	if (!bad)
		return 0;
	unlink(path);
	errno = err != 0 ? err : EIO;
	return -1;
}

/* The flame tree the view shows (its window, filters, inverted or not)
 * as folded stacks next to the text. */
static int
write_folded(struct d9t_app *app, const char *name, int n, char *path,
    size_t cap)
{
	const struct d9m_flame *t = d9t_flame_shown(app);
	FILE *f;
	int rc;

	if (t == NULL || (f = create(name, "folded", &n, path, cap)) == NULL)
		return -1;
	rc = d9o_folded_tree(f, t);
	return close_saved(f, path) < 0 || rc < 0 ? -1 : 0;
}

void
d9t_save(struct d9t_app *app)
{
	const struct d9t_view_ops *ops = d9t_ops(app, app->view);
	char name[64], path[128], fpath[128] = "";
	struct d9t_list l;
	struct d9t_canvas cv = { 0, 0, NULL };
	size_t lines;
	int n = 0;
	FILE *f;

	/* built before any file is made: a view that still shows the
	 * result of an earlier window or filter (updating) or none yet
	 * (computing) would write a title that does not match its rows */
	d9t_list_init(&l);
	app->updating = 0;
	if (ops->build != NULL)
		build_list(app, &l);
	else
		draw(app, &cv);
	if (l.computing || app->updating) {
		d9t_list_free(&l);
		d9t_canvas_free(&cv);
		d9t_msg(app, "the figures are still being computed: s again "
		    "once they are shown");
		return;
	}
	snprintf(name, sizeof name, "%s", ops->name);
	for (char *p = name; *p; p++)
		if (*p == ' ')
			*p = '-';
	if ((f = create(name, "txt", &n, path, sizeof path)) == NULL) {
		d9t_list_free(&l);
		d9t_canvas_free(&cv);
		d9t_msg(app, "cannot save here: %s", strerror(errno));
		return;
	}
	if (ops->build != NULL)
		lines = write_list(&l, f);
	else {
		d9t_canvas_dump(&cv, f);
		lines = (size_t)cv.h;
	}
	d9t_list_free(&l);
	d9t_canvas_free(&cv);
	if (close_saved(f, path) < 0) {
		d9t_msg(app, "%s: %s", path, strerror(errno));
		return;
	}
	if (ops->flame != NULL && write_folded(app, name, n, fpath, sizeof fpath) < 0)
		fpath[0] = '\0';
	d9t_msg(app, "saved %zu lines to %s%s%s", lines, path,
	    fpath[0] ? " and folded stacks to " : "", fpath);
}
