/*
 * actions.h: every action of the browser, once (tig's REQ_ list): its
 * name, the word the hint bar shows (NULL: never hinted) and its help
 * text. The action enum, the `?` help, the hint bar and, through a test,
 * the KEYS section of man/d9top.1 all come from this list; keys.c binds
 * keys to these actions per view.
 */
#ifndef D9T_ACTIONS_H
#define D9T_ACTIONS_H

#define D9T_ACTIONS(X) \
	X(HELP, "help", "show the keys of this view") \
	X(BACK, "back", "back; quit on the top view") \
	X(ESCAPE, NULL, "back; never quits (q does)") \
	X(REDRAW, NULL, "redraw the screen") \
	X(TAB, NULL, "the view of that number, as the tabs under the " \
	    "header show it") \
	X(PAN_LEFT, "pan", "pan the window left") \
	X(PAN_RIGHT, NULL, "pan the window right") \
	X(PAGE_LEFT, NULL, "pan left by a full width") \
	X(PAGE_RIGHT, NULL, "pan right by a full width") \
	X(ZOOM_IN, "zoom", "zoom in around the cursor") \
	X(ZOOM_OUT, "out", "zoom out around the cursor") \
	X(ZOOM_ALL, NULL, "window: the whole trace") \
	X(ZOOM_UNDO, NULL, "undo the last window change") \
	X(SET_START, NULL, "set the window start at the cursor") \
	X(SET_END, NULL, "set the window end at the cursor") \
	X(GOTO, "go to", \
	    "go to a time: 1.5s, 250ms, +10ms, or wall clock 12:00:03.5; " \
	    "outside the trace, to its start or end") \
	X(CURSOR_LEFT, NULL, "move the cursor left") \
	X(CURSOR_RIGHT, NULL, "move the cursor right") \
	X(LANE_UP, NULL, "select the worker above") \
	X(LANE_DOWN, NULL, "select the worker below") \
	X(WORST, "worst", "worst poll in the window (again: next worst)") \
	X(NEXT_LONG, "next", "next long poll (> 1 ms) in time, or next point "\
	    "of interest of the kind last opened with p, or next match of "\
	    "the last search") \
	X(PREV_LONG, NULL, "previous long poll, point of interest or search "\
	    "match, in time") \
	X(POI, "interest", \
	    "points of interest in the window, worst first; Enter jumps there") \
	X(POI_KIND, "kind", \
	    "points of interest: one kind only (again: the next kind, then all)") \
	X(OPEN_POLL, "open", "details of the selected poll") \
	X(OPEN_LINE, "open", "open the selected line (jump, zoom, filter)") \
	X(CHAIN, "chain", "wake chain of the selected poll's task") \
	X(METRIC, "metric", "timeline: draw a metric as a lane (again: the " \
	    "next metric, then none)") \
	X(SEARCH, "search", \
	    "search task ids, spawn locations, symbols, span and event fields") \
	X(SEARCH_NEXT, "next", "next search match") \
	X(UP, NULL, "move up") \
	X(DOWN, NULL, "move down") \
	X(PGUP, NULL, "page up") \
	X(PGDN, NULL, "page down") \
	X(HOME, NULL, "first line") \
	X(END, NULL, "last line") \
	X(FOLD, "fold", "expand or collapse the node") \
	X(COLLAPSE, NULL, "collapse the node, or go to its parent") \
	X(FOCUS, "focus", "flame trees: focus on the frame (its subtree "\
	    "only; q: back to the root)") \
	X(INVERT, "invert", \
	    "flame trees: from the leaf (who calls the hot frame), or back") \
	X(HIDE, "hide", "flame trees: hide frames matching a pattern " \
	    "(runtime, telemetry plumbing; empty: show all)") \
	X(SORT, "sort", "lists: sort by the next column, largest first (then "\
	    "the view's order again)") \
	X(SORT_REVERSE, NULL, "lists: reverse the order") \
	X(SCROLL_LEFT, NULL, "scroll long lines left") \
	X(SCROLL_RIGHT, NULL, "scroll long lines right") \
	X(SAVE, "save", "save the view, whole, to d9top-VIEW-N.txt here") \
	X(FILTER_TASK, "task", "flame trees: only the selected poll's task") \
	X(FILTER_CLEAR, NULL, "clear the task and spawn location filters") \
	X(BYTES, "bytes/count", "weigh by estimated bytes or by count") \
	X(LIVESET, "liveset", "only allocations never freed (liveset)") \
	X(INPOLL, "in-poll", "only samples inside polls, or all") \
	X(DUMPS, "awaiting", "what idle tasks were awaiting (task dumps, by "\
	    "idle time), or back to off-CPU samples") \
	X(FIELD_FILTER, "field", "filter spans or events by a field value") \
	X(BASELINE, "baseline", "mark the window as the baseline: tasks, spans " \
	    "and flame trees show each row's change against it (on the " \
	    "baseline: clear it)") \
	X(BY_CHANGE, "by change", \
	    "with a baseline: rows by their change against it, or back")

enum d9t_action {
	D9T_A_NONE,
#define D9T_ACTION_ENUM(name, word, help) D9T_A_##name,
	D9T_ACTIONS(D9T_ACTION_ENUM)
#undef D9T_ACTION_ENUM
	D9T_A_COUNT
};

/* The hint-bar word of an action, NULL when it is not hinted. */
const char	*d9t_action_word(enum d9t_action a);
/* The help text of an action ("" for none). */
const char	*d9t_action_help(enum d9t_action a);

#endif
