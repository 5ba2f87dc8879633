/*
 * keys.h: the one key table: which keys call which action (actions.h)
 * in which views. Dispatch, the `?` help view, the hint bar and the KEYS
 * section of man/d9top.1 all follow it (a test checks the man page
 * against it, text and all). Key codes are d9top's own, so nothing but
 * term.c needs ncurses.
 */
#ifndef D9T_KEYS_H
#define D9T_KEYS_H

#include <stddef.h>

#include "tui/actions.h"

enum d9t_keycode {
	D9T_KEY_ENTER = '\n',
	D9T_KEY_ESC = 27,
	D9T_KEY_BACKSPACE = 127,
	D9T_KEY_UP = 0x110000, D9T_KEY_DOWN, D9T_KEY_LEFT, D9T_KEY_RIGHT,
	D9T_KEY_SLEFT, D9T_KEY_SRIGHT, D9T_KEY_PGUP, D9T_KEY_PGDN,
	D9T_KEY_HOME, D9T_KEY_END, D9T_KEY_RESIZE, D9T_KEY_REDRAW,
	D9T_KEY_DIGIT	/* in a binding: any of 1..8, the tab numbers */
};

#define D9T_CTRL(c)	((c) & 0x1f)

/* Views; bindings name a set of them. */
enum d9t_view {
	D9T_V_TIMELINE, D9T_V_TASKS, D9T_V_CPU, D9T_V_OFFCPU, D9T_V_ALLOC,
	D9T_V_SPANS, D9T_V_REPORT, D9T_V_EVENTS, D9T_V_DETAIL, D9T_V_CHAIN, D9T_V_HELP,
	D9T_V_SLOW, D9T_V_POI, D9T_V_LOCTASKS, D9T_V_TASK, D9T_V_COUNT
};

#define D9T_VM(v)	(1u << (v))
#define D9T_VM_ALL	((1u << D9T_V_COUNT) - 1)
#define D9T_VM_FLAME	(D9T_VM(D9T_V_CPU) | D9T_VM(D9T_V_OFFCPU) | \
			 D9T_VM(D9T_V_ALLOC))
#define D9T_VM_LIST	(D9T_VM_ALL & ~D9T_VM(D9T_V_TIMELINE))
#define D9T_VM_WINDOW	(D9T_VM_ALL & ~(D9T_VM(D9T_V_HELP) | \
			 D9T_VM(D9T_V_DETAIL) | D9T_VM(D9T_V_CHAIN) | \
			 D9T_VM(D9T_V_SLOW)))

struct d9t_binding {
	unsigned	 views;		/* D9T_VM_* set */
	int		 key;
	enum d9t_action	 action;
	const char	*name;		/* key as written in help and man */
};

extern const struct d9t_binding d9t_bindings[];
extern const size_t d9t_nbindings;

/* The action of key in view v, D9T_A_NONE when unbound. */
enum d9t_action d9t_key_action(enum d9t_view v, int key);
/* The keys of an action in view v, "h/Left"; into out. */
size_t	d9t_keys_of(enum d9t_view v, enum d9t_action a, char *out,
	    size_t cap);

#endif
