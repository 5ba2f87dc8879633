/*
 * keys.h: the one key table. Dispatch, the `?` help view and the KEYS
 * section of man/d9top.1 all follow d9t_bindings (a test checks the man
 * page against it both ways). Key codes are d9top's own, so nothing but
 * term.c needs ncurses.
 */
#ifndef D9T_KEYS_H
#define D9T_KEYS_H

#include <stddef.h>

enum d9t_keycode {
	D9T_KEY_ENTER = '\n',
	D9T_KEY_ESC = 27,
	D9T_KEY_BACKSPACE = 127,
	D9T_KEY_UP = 0x110000, D9T_KEY_DOWN, D9T_KEY_LEFT, D9T_KEY_RIGHT,
	D9T_KEY_SLEFT, D9T_KEY_SRIGHT, D9T_KEY_PGUP, D9T_KEY_PGDN,
	D9T_KEY_HOME, D9T_KEY_END, D9T_KEY_RESIZE, D9T_KEY_REDRAW
};

#define D9T_CTRL(c)	((c) & 0x1f)

/* Views; bindings name a set of them. */
enum d9t_view {
	D9T_V_TIMELINE, D9T_V_TASKS, D9T_V_CPU, D9T_V_OFFCPU, D9T_V_ALLOC,
	D9T_V_SPANS, D9T_V_REPORT, D9T_V_DETAIL, D9T_V_CHAIN, D9T_V_HELP,
	D9T_V_SLOW, D9T_V_COUNT
};

#define D9T_VM(v)	(1u << (v))
#define D9T_VM_ALL	((1u << D9T_V_COUNT) - 1)
#define D9T_VM_FLAME	(D9T_VM(D9T_V_CPU) | D9T_VM(D9T_V_OFFCPU) | \
			 D9T_VM(D9T_V_ALLOC))
#define D9T_VM_LIST	(D9T_VM_ALL & ~D9T_VM(D9T_V_TIMELINE))
#define D9T_VM_WINDOW	(D9T_VM_ALL & ~(D9T_VM(D9T_V_HELP) | \
			 D9T_VM(D9T_V_DETAIL) | D9T_VM(D9T_V_CHAIN) | \
			 D9T_VM(D9T_V_SLOW)))

enum d9t_action {
	D9T_A_NONE,
	D9T_A_BACK, D9T_A_HELP, D9T_A_REDRAW,
	D9T_A_VIEW1, D9T_A_VIEW2, D9T_A_VIEW3, D9T_A_VIEW4, D9T_A_VIEW5,
	D9T_A_VIEW6, D9T_A_VIEW7,
	D9T_A_PAN_LEFT, D9T_A_PAN_RIGHT, D9T_A_PAGE_LEFT, D9T_A_PAGE_RIGHT,
	D9T_A_ZOOM_IN, D9T_A_ZOOM_OUT, D9T_A_ZOOM_ALL, D9T_A_ZOOM_UNDO,
	D9T_A_SET_START, D9T_A_SET_END, D9T_A_GOTO,
	D9T_A_CURSOR_LEFT, D9T_A_CURSOR_RIGHT, D9T_A_LANE_UP, D9T_A_LANE_DOWN,
	D9T_A_WORST, D9T_A_NEXT_LONG, D9T_A_PREV_LONG,
	D9T_A_ENTER, D9T_A_CHAIN, D9T_A_SEARCH, D9T_A_SEARCH_NEXT,
	D9T_A_UP, D9T_A_DOWN, D9T_A_PGUP, D9T_A_PGDN, D9T_A_HOME, D9T_A_END,
	D9T_A_FOLD, D9T_A_FILTER_TASK, D9T_A_FILTER_CLEAR, D9T_A_BYTES,
	D9T_A_LIVESET, D9T_A_INPOLL, D9T_A_FIELD_FILTER,
	D9T_A_COUNT
};

struct d9t_binding {
	unsigned	 views;		/* D9T_VM_* set */
	int		 key;
	enum d9t_action	 action;
	const char	*name;		/* key as written in help and man */
	const char	*help;
};

extern const struct d9t_binding d9t_bindings[];
extern const size_t d9t_nbindings;

/* The action of key in view v, D9T_A_NONE when unbound. */
enum d9t_action d9t_key_action(enum d9t_view v, int key);
/* A view's name ("timeline", ...). */
const char	*d9t_view_name(enum d9t_view v);
/* The keys of an action in view v, "h/Left"; into out. */
size_t	d9t_keys_of(enum d9t_view v, enum d9t_action a, char *out,
	    size_t cap);

#endif
