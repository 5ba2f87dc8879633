/*
 * term.h: the only ncurses caller (htop's CRT.c). Opens the terminal on
 * /dev/tty when stdin or stdout is not a terminal, so a trace can be
 * piped in; decodes keys and mouse events into d9top's key codes; copies
 * a canvas to the screen; restores the terminal on close.
 */
#ifndef D9T_TERM_H
#define D9T_TERM_H

#include <stdio.h>

#include "tui/canvas.h"

#define D9T_TERM_NONE	(-1)	/* no key within the timeout */
#define D9T_TERM_MOUSE	(-2)	/* a mouse event, see the out arguments */

struct d9t_term {
	void		*screen;	/* SCREEN * */
	FILE		*tty_in, *tty_out;	/* /dev/tty, or NULL */
	int		 color, open;
	char		 why[96];	/* after -1: why a terminal is not
					 * usable, or "" */
};

/* 0, or -1 when there is no terminal, or one that cannot move the
 * cursor (TERM=dumb: why says so), before anything is drawn; term: the
 * TERM the caller read, named in why when terminfo does not know it. */
int	d9t_term_open(struct d9t_term *t, int color, const char *term);
void	d9t_term_close(struct d9t_term *t);
void	d9t_term_size(struct d9t_term *t, int *w, int *h);
/* Copy cv to the screen; clear first when full is set (C-l, resize). */
void	d9t_term_draw(struct d9t_term *t, const struct d9t_canvas *cv,
	    int full, int utf8);
/* Wait up to ms for a key: a key code, D9T_TERM_NONE or D9T_TERM_MOUSE
 * (x, y, button: 1 click, 4 wheel up, 5 wheel down). */
int	d9t_term_key(struct d9t_term *t, int ms, int *x, int *y, int *button);

#endif
