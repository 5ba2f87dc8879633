/*
 * keys.c: the binding table and the action texts. Order matters only
 * for how keys are listed: the keys of an action in table order.
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
#define SORT	(D9T_VM(D9T_V_TASKS) | D9T_VM(D9T_V_SPANS) | \
		 D9T_VM(D9T_V_SLOW) | D9T_VM(D9T_V_POI) | D9T_VM(D9T_V_EVENTS))
#define CMP	(FLAME | D9T_VM(D9T_V_TASKS) | D9T_VM(D9T_V_SPANS))

const struct d9t_binding d9t_bindings[] = {
	{ ALL, '?', D9T_A_HELP, "?" },
	{ ALL, 'q', D9T_A_BACK, "q" },
	{ ALL, D9T_KEY_ESC, D9T_A_ESCAPE, "Esc" },
	{ ALL, D9T_CTRL('l'), D9T_A_REDRAW, "C-l" },
	{ ALL, D9T_KEY_DIGIT, D9T_A_TAB, "1..8" },
	{ TL, 'h', D9T_A_PAN_LEFT, "h" },
	{ TL, D9T_KEY_LEFT, D9T_A_PAN_LEFT, "Left" },
	{ TL, 'l', D9T_A_PAN_RIGHT, "l" },
	{ TL, D9T_KEY_RIGHT, D9T_A_PAN_RIGHT, "Right" },
	{ TL, 'H', D9T_A_PAGE_LEFT, "H" },
	{ TL, D9T_KEY_SLEFT, D9T_A_PAGE_LEFT, "S-Left" },
	{ TL, 'L', D9T_A_PAGE_RIGHT, "L" },
	{ TL, D9T_KEY_SRIGHT, D9T_A_PAGE_RIGHT, "S-Right" },
	{ TL, '+', D9T_A_ZOOM_IN, "+" },
	{ TL, '=', D9T_A_ZOOM_IN, "=" },
	{ TL, '-', D9T_A_ZOOM_OUT, "-" },
	{ WIN, '0', D9T_A_ZOOM_ALL, "0" },
	{ WIN, 'u', D9T_A_ZOOM_UNDO, "u" },
	{ TL, '[', D9T_A_SET_START, "[" },
	{ TL, ']', D9T_A_SET_END, "]" },
	{ WIN, 'g', D9T_A_GOTO, "g" },
	{ TL, ',', D9T_A_CURSOR_LEFT, "," },
	{ TL, '.', D9T_A_CURSOR_RIGHT, "." },
	{ TL, 'k', D9T_A_LANE_UP, "k" },
	{ TL, D9T_KEY_UP, D9T_A_LANE_UP, "Up" },
	{ TL, 'j', D9T_A_LANE_DOWN, "j" },
	{ TL, D9T_KEY_DOWN, D9T_A_LANE_DOWN, "Down" },
	{ TL, 'w', D9T_A_WORST, "w" },
	{ TL, 'n', D9T_A_NEXT_LONG, "n" },
	{ TL, 'N', D9T_A_PREV_LONG, "N" },
	{ TL, D9T_KEY_ENTER, D9T_A_OPEN_POLL, "Enter" },
	{ TL, 'c', D9T_A_CHAIN, "c" },
	{ TL, 'm', D9T_A_METRIC, "m" },
	{ NOTL, D9T_KEY_ENTER, D9T_A_OPEN_LINE, "Enter" },
	{ D9T_VM(D9T_V_DETAIL), 'c', D9T_A_CHAIN, "c" },
	{ ALL, '/', D9T_A_SEARCH, "/" },
	{ LIST, 'n', D9T_A_SEARCH_NEXT, "n" },
	{ LIST, 'k', D9T_A_UP, "k" },
	{ LIST, D9T_KEY_UP, D9T_A_UP, "Up" },
	{ LIST, 'j', D9T_A_DOWN, "j" },
	{ LIST, D9T_KEY_DOWN, D9T_A_DOWN, "Down" },
	{ LIST, D9T_KEY_PGUP, D9T_A_PGUP, "PgUp" },
	{ LIST, D9T_KEY_PGDN, D9T_A_PGDN, "PgDn" },
	{ LIST, ' ', D9T_A_PGDN, "Space" },
	{ LIST, D9T_KEY_HOME, D9T_A_HOME, "Home" },
	{ LIST, D9T_KEY_END, D9T_A_END, "End" },
	{ FLAME, D9T_KEY_RIGHT, D9T_A_FOLD, "Right" },
	{ FLAME, 'l', D9T_A_FOLD, "l" },
	{ FLAME, D9T_KEY_LEFT, D9T_A_COLLAPSE, "Left" },
	{ FLAME, 'h', D9T_A_COLLAPSE, "h" },
	{ FLAME, 'z', D9T_A_FOCUS, "z" },
	{ FLAME, 'r', D9T_A_INVERT, "r" },
	{ FLAME, 'H', D9T_A_HIDE, "H" },
	{ SORT, 'o', D9T_A_SORT, "o" },
	{ SORT, 'O', D9T_A_SORT_REVERSE, "O" },
	{ LIST, '<', D9T_A_SCROLL_LEFT, "<" },
	{ LIST, '>', D9T_A_SCROLL_RIGHT, ">" },
	{ ALL & ~D9T_VM(D9T_V_HELP), 's', D9T_A_SAVE, "s" },
	{ FLAME | TL, 't', D9T_A_FILTER_TASK, "t" },
	{ FLAME | TL | D9T_VM(D9T_V_TASKS), 'x', D9T_A_FILTER_CLEAR, "x" },
	{ D9T_VM(D9T_V_ALLOC), 'B', D9T_A_BYTES, "B" },
	{ D9T_VM(D9T_V_ALLOC), 'v', D9T_A_LIVESET, "v" },
	{ D9T_VM(D9T_V_OFFCPU), 'i', D9T_A_INPOLL, "i" },
	{ D9T_VM(D9T_V_OFFCPU), 'a', D9T_A_DUMPS, "a" },
	{ D9T_VM(D9T_V_SPANS) | D9T_VM(D9T_V_EVENTS), 'f', D9T_A_FIELD_FILTER,
	    "f" },
	{ ALL & ~D9T_VM(D9T_V_HELP), 'p', D9T_A_POI, "p" },
	{ D9T_VM(D9T_V_POI), 'f', D9T_A_POI_KIND, "f" },
	{ ALL & ~D9T_VM(D9T_V_HELP), 'b', D9T_A_BASELINE, "b" },
	{ CMP, 'd', D9T_A_BY_CHANGE, "d" },
};

const size_t d9t_nbindings = sizeof d9t_bindings / sizeof d9t_bindings[0];

enum d9t_action
d9t_key_action(enum d9t_view v, int key)
{
	for (size_t i = 0; i < d9t_nbindings; i++)
		if ((d9t_bindings[i].views & D9T_VM(v)) &&
		    (d9t_bindings[i].key == key ||
		    (d9t_bindings[i].key == D9T_KEY_DIGIT && key >= '1' &&
		    key <= '8')))
			return d9t_bindings[i].action;
	return D9T_A_NONE;
}

static const char *const words[D9T_A_COUNT] = {
#define D9T_ACTION_WORD(name, word, help) [D9T_A_##name] = word,
	D9T_ACTIONS(D9T_ACTION_WORD)
#undef D9T_ACTION_WORD
};

static const char *const helps[D9T_A_COUNT] = {
#define D9T_ACTION_HELP(name, word, help) [D9T_A_##name] = help,
	D9T_ACTIONS(D9T_ACTION_HELP)
#undef D9T_ACTION_HELP
};

const char *
d9t_action_word(enum d9t_action a)
{
	return (unsigned)a < D9T_A_COUNT ? words[a] : NULL;
}

const char *
d9t_action_help(enum d9t_action a)
{
	return (unsigned)a < D9T_A_COUNT && helps[a] ? helps[a] : "";
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
