/*
 * view_help.c: the `?` view: the keys of the view it was opened on, in
 * the order of the action list (actions.h), with their help texts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"

struct help_view {
	enum d9t_view	of;
};

static void *
init(void)
{
	return calloc(1, sizeof(struct help_view));
}

/* The keys of view v. */
static void
open(struct d9t_app *app, void *st, uint32_t v)
{
	struct help_view *h = st;

	h->of = v < D9T_V_COUNT ? (enum d9t_view)v : D9T_V_TIMELINE;
	app->lists[D9T_V_HELP].sel = 0;
	d9t_push_view(app, D9T_V_HELP);
}

/* A line of the help, wrapped to the screen (a saved view: whole), its
 * rows after the first under its text: past the leading spaces, the key
 * or glyph and the two or more spaces after it. */
static void
help_line(struct d9t_app *app, struct d9t_list *l, uint16_t attr,
    const char *text)
{
	const char *p = text + strspn(text, " "), *gap = strstr(p, "  ");
	int ind = 0;

	if (gap != NULL)
		p = gap + strspn(gap, " ");
	for (const char *c = text; c < p; c++)
		ind += ((unsigned char)*c & 0xc0) != 0x80;	/* columns */
	d9t_list_add_wrap(l, attr, app->saving ? 0 : app->w, ind, "", text,
	    D9T_T_NONE, 0);
}

static void
build(struct d9t_app *app, void *st, struct d9t_list *l)
{
	enum d9t_view v = ((struct help_view *)st)->of;
	struct d9t_list legend;
	char line[256];

	d9t_list_add(l, D9T_A_BOLD, "Keys of the %s view (q or Esc closes)",
	    d9t_ops(app, v)->name);
	/* in the order of the action list, each with all its keys */
	for (int a = D9T_A_NONE + 1; a < D9T_A_COUNT; a++) {
		char keys[64];

		if (d9t_keys_of(v, (enum d9t_action)a, keys, sizeof keys) > 0) {
			snprintf(line, sizeof line, "  %-16s %s", keys,
			    d9t_action_help((enum d9t_action)a));
			help_line(app, l, 0, line);
		}
	}
	if (v == D9T_V_TIMELINE)
		d9t_list_add(l, 0, "  %-16s %s", "mouse",
		    "click selects a poll, the wheel zooms");
	d9t_list_add(l, D9T_A_DIM, "%s", "");
	help_line(app, l, D9T_A_DIM, "Views share one time window: set it in "
	    "the timeline, every figure follows it.");
	if (d9t_ops(app, v)->legend == NULL)
		return;
	d9t_list_add(l, D9T_A_DIM, "%s", "");
	d9t_list_add(l, D9T_A_BOLD, "Legend");
	/* the view's legend, each line wrapped as the keys are */
	d9t_list_init(&legend);
	d9t_ops(app, v)->legend(app, &legend);
	for (size_t i = 0; i < legend.n; i++)
		help_line(app, l, legend.v[i].attr, legend.v[i].text);
	d9t_list_free(&legend);
}

static const enum d9t_action hints[] = { D9T_A_HELP, D9T_A_BACK,
	D9T_A_SEARCH, D9T_A_SEARCH_NEXT, D9T_A_NONE };

const struct d9t_view_ops d9t_view_help = {
	.name = "help", .hints = hints, .init = init, .free = free,
	.build = build, .open = open
};
