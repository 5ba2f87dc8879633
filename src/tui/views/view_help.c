/*
 * view_help.c: the `?` view: the keys of the view it was opened on, in
 * the order of the action list (actions.h), with their help texts.
 */
#include <stdlib.h>

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

static void
build(struct d9t_app *app, void *st, struct d9t_list *l)
{
	enum d9t_view v = ((struct help_view *)st)->of;

	d9t_list_add(l, D9T_A_BOLD, "Keys of the %s view (q or Esc closes)",
	    d9t_ops(app, v)->name);
	/* in the order of the action list, each with all its keys */
	for (int a = D9T_A_NONE + 1; a < D9T_A_COUNT; a++) {
		char keys[64];

		if (d9t_keys_of(v, (enum d9t_action)a, keys, sizeof keys) > 0)
			d9t_list_add(l, 0, "  %-16s %s", keys,
			    d9t_action_help((enum d9t_action)a));
	}
	if (v == D9T_V_TIMELINE)
		d9t_list_add(l, 0, "  %-16s %s", "mouse",
		    "click selects a poll, the wheel zooms");
	d9t_list_add(l, D9T_A_DIM, "%s", "");
	d9t_list_add(l, D9T_A_DIM, "Views share one time window: set it in the "
	    "timeline, every figure follows it.");
	if (d9t_ops(app, v)->legend != NULL) {
		d9t_list_add(l, D9T_A_DIM, "%s", "");
		d9t_list_add(l, D9T_A_BOLD, "Legend");
		d9t_ops(app, v)->legend(app, l);
	}
}

static const enum d9t_action hints[] = { D9T_A_HELP, D9T_A_BACK,
	D9T_A_SEARCH, D9T_A_SEARCH_NEXT, D9T_A_NONE };

const struct d9t_view_ops d9t_view_help = {
	.name = "help", .hints = hints, .init = init, .free = free,
	.build = build, .open = open
};
