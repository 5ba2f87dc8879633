/*
 * keys.c: the binding table. Order matters only for help: bindings of
 * one action sit together, the first one gives its text.
 */
#include <stdio.h>
#include <string.h>

#include "tui/keys.h"

#define TL	D9T_VM(D9T_V_TIMELINE)
#define ALL	D9T_VM_ALL
#define LIST	D9T_VM_LIST
#define FLAME	D9T_VM_FLAME
#define WIN	D9T_VM_WINDOW
#define NOTL	(D9T_VM_LIST & ~D9T_VM(D9T_V_HELP))

const struct d9t_binding d9t_bindings[] = {
	{ ALL, '?', D9T_A_HELP, "?", "show the keys of this view" },
	{ ALL, 'q', D9T_A_BACK, "q", "back; quit on the top view" },
	{ ALL, D9T_KEY_ESC, D9T_A_BACK, "Esc", "back; quit on the top view" },
	{ ALL, D9T_CTRL('l'), D9T_A_REDRAW, "C-l", "redraw the screen" },
	{ ALL, '1', D9T_A_VIEW1, "1", "timeline" },
	{ ALL, '2', D9T_A_VIEW2, "2", "tasks by spawn location" },
	{ ALL, '3', D9T_A_VIEW3, "3", "CPU flame tree" },
	{ ALL, '4', D9T_A_VIEW4, "4", "off-CPU flame tree" },
	{ ALL, '5', D9T_A_VIEW5, "5", "allocation flame tree" },
	{ ALL, '6', D9T_A_VIEW6, "6", "spans by name" },
	{ ALL, '7', D9T_A_VIEW7, "7", "text report and red flags" },
	{ TL, 'h', D9T_A_PAN_LEFT, "h", "pan the window left" },
	{ TL, D9T_KEY_LEFT, D9T_A_PAN_LEFT, "Left", "pan the window left" },
	{ TL, 'l', D9T_A_PAN_RIGHT, "l", "pan the window right" },
	{ TL, D9T_KEY_RIGHT, D9T_A_PAN_RIGHT, "Right",
	    "pan the window right" },
	{ TL, 'H', D9T_A_PAGE_LEFT, "H", "pan left by a full width" },
	{ TL, D9T_KEY_SLEFT, D9T_A_PAGE_LEFT, "S-Left",
	    "pan left by a full width" },
	{ TL, 'L', D9T_A_PAGE_RIGHT, "L", "pan right by a full width" },
	{ TL, D9T_KEY_SRIGHT, D9T_A_PAGE_RIGHT, "S-Right",
	    "pan right by a full width" },
	{ TL, '+', D9T_A_ZOOM_IN, "+", "zoom in around the cursor" },
	{ TL, '=', D9T_A_ZOOM_IN, "=", "zoom in around the cursor" },
	{ TL, '-', D9T_A_ZOOM_OUT, "-", "zoom out around the cursor" },
	{ WIN, '0', D9T_A_ZOOM_ALL, "0", "window: the whole trace" },
	{ WIN, 'u', D9T_A_ZOOM_UNDO, "u", "undo the last window change" },
	{ TL, '[', D9T_A_SET_START, "[", "set the window start at the cursor" },
	{ TL, ']', D9T_A_SET_END, "]", "set the window end at the cursor" },
	{ WIN, 'g', D9T_A_GOTO, "g",
	    "go to a time: 1.5s, 250ms, +10ms, or wall clock 12:00:03.5" },
	{ TL, ',', D9T_A_CURSOR_LEFT, ",", "move the cursor left" },
	{ TL, '.', D9T_A_CURSOR_RIGHT, ".", "move the cursor right" },
	{ TL, 'k', D9T_A_LANE_UP, "k", "select the worker above" },
	{ TL, D9T_KEY_UP, D9T_A_LANE_UP, "Up", "select the worker above" },
	{ TL, 'j', D9T_A_LANE_DOWN, "j", "select the worker below" },
	{ TL, D9T_KEY_DOWN, D9T_A_LANE_DOWN, "Down",
	    "select the worker below" },
	{ TL, 'w', D9T_A_WORST, "w",
	    "worst poll in the window (again: next worst)" },
	{ TL, 'n', D9T_A_NEXT_LONG, "n", "next long poll (> 1 ms) in time" },
	{ TL, 'N', D9T_A_PREV_LONG, "N", "previous long poll in time" },
	{ TL, D9T_KEY_ENTER, D9T_A_ENTER, "Enter",
	    "details of the selected poll" },
	{ TL, 'c', D9T_A_CHAIN, "c", "wake chain of the selected task" },
	{ NOTL, D9T_KEY_ENTER, D9T_A_ENTER, "Enter",
	    "open the selected line (jump, zoom, filter)" },
	{ D9T_VM(D9T_V_DETAIL), 'c', D9T_A_CHAIN, "c",
	    "wake chain of this task" },
	{ ALL, '/', D9T_A_SEARCH, "/",
	    "search task ids, spawn locations, symbols, span fields" },
	{ LIST, 'n', D9T_A_SEARCH_NEXT, "n", "next search match" },
	{ LIST, 'k', D9T_A_UP, "k", "move up" },
	{ LIST, D9T_KEY_UP, D9T_A_UP, "Up", "move up" },
	{ LIST, 'j', D9T_A_DOWN, "j", "move down" },
	{ LIST, D9T_KEY_DOWN, D9T_A_DOWN, "Down", "move down" },
	{ LIST, D9T_KEY_PGUP, D9T_A_PGUP, "PgUp", "page up" },
	{ LIST, D9T_KEY_PGDN, D9T_A_PGDN, "PgDn", "page down" },
	{ LIST, ' ', D9T_A_PGDN, "Space", "page down" },
	{ LIST, D9T_KEY_HOME, D9T_A_HOME, "Home", "first line" },
	{ LIST, D9T_KEY_END, D9T_A_END, "End", "last line" },
	{ FLAME, D9T_KEY_RIGHT, D9T_A_FOLD, "Right",
	    "expand or collapse the node" },
	{ FLAME, 'l', D9T_A_FOLD, "l", "expand or collapse the node" },
	{ FLAME | TL, 't', D9T_A_FILTER_TASK, "t",
	    "flame trees: only the selected poll's task" },
	{ FLAME | TL | D9T_VM(D9T_V_TASKS), 'x', D9T_A_FILTER_CLEAR, "x",
	    "clear the task and spawn location filters" },
	{ D9T_VM(D9T_V_ALLOC), 'b', D9T_A_BYTES, "b",
	    "weigh by estimated bytes or by count" },
	{ D9T_VM(D9T_V_ALLOC), 'v', D9T_A_LIVESET, "v",
	    "only allocations never freed (liveset)" },
	{ D9T_VM(D9T_V_OFFCPU), 'i', D9T_A_INPOLL, "i",
	    "only samples inside polls, or all" },
	{ D9T_VM(D9T_V_SPANS), 'f', D9T_A_FIELD_FILTER, "f",
	    "filter spans by a field value" },
};

const size_t d9t_nbindings = sizeof d9t_bindings / sizeof d9t_bindings[0];

enum d9t_action
d9t_key_action(enum d9t_view v, int key)
{
	for (size_t i = 0; i < d9t_nbindings; i++)
		if ((d9t_bindings[i].views & D9T_VM(v)) &&
		    d9t_bindings[i].key == key)
			return d9t_bindings[i].action;
	return D9T_A_NONE;
}

const char *
d9t_view_name(enum d9t_view v)
{
	static const char *const names[D9T_V_COUNT] = {
		"timeline", "tasks", "cpu", "off-cpu", "alloc", "spans",
		"report", "poll", "wake chain", "help", "slowest spans",
	};

	return (unsigned)v < D9T_V_COUNT ? names[v] : "?";
}

size_t
d9t_keys_of(enum d9t_view v, enum d9t_action a, char *out, size_t cap)
{
	size_t n = 0;

	if (cap == 0)
		return 0;
	out[0] = '\0';
	for (size_t i = 0; i < d9t_nbindings; i++) {
		const struct d9t_binding *b = &d9t_bindings[i];
		int w;

		if (b->action != a || !(b->views & D9T_VM(v)))
			continue;
		w = snprintf(out + n, cap - n, "%s%s", n ? "/" : "", b->name);
		if (w < 0 || (size_t)w >= cap - n)
			break;
		n += (size_t)w;
	}
	return n;
}
